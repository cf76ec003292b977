/*
 * emu_perf_srv: the emulated kernel's server uncore PMUs (CHA, memory
 * channel, UPI link, as Linux's intel_uncore driver registers them on
 * Ice Lake-SP, Sapphire Rapids and Granite Rapids) and RAPL's power PMU.
 * Their boxes are PCI configuration space, MMIO and discovery tables that
 * only the kernel reaches: no registers here, the counts come from the
 * model (emu_srv_count) while their groups are scheduled (emu_perf_sched.c).
 * See emu_perf_int.h.
 */
#include "emu_perf_int.h"
#include "emu_int.h"
#include "emu_machine.h"

#include <stdio.h>
#include <string.h>

/* A kernel-counted box (EK_SRV, EK_POWER): UNIT, box BOX of NBOXES, 4 counters of 48 bits. */
static struct ek_pmu *ek_add_counted(struct emu_perf *k, const char *name, enum ek_kind kind,
				     int unit, int box, int nboxes, const char *cpumask)
{
	struct ek_pmu *p = &k->pmus[k->npmus];

	memset(p, 0, sizeof(*p));
	snprintf(p->desc.name, sizeof(p->desc.name), "%s", name);
	p->desc.type = EK_UNCORE_TYPE + (uint32_t)k->npmus;
	snprintf(p->desc.cpumask, sizeof(p->desc.cpumask), "%s", cpumask);
	p->kind = kind;
	p->unit = unit;
	p->box = box;
	p->nboxes = nboxes;
	p->counters = kind == EK_SRV ? 4 : 0;
	p->width = 48;
	k->npmus++;
	return p;
}

/*
 * Box BOX of NBOXES of UNIT named PREFIX<BOX>, with the format fields
 * Linux's intel_uncore driver writes for such a box: event, the umask in
 * UMASK's bits (the vendor's UMaskExt above bit 8 where it has one), edge,
 * the CHA's tid_en, inv, thresh.
 */
static struct ek_pmu *ek_add_box(struct emu_perf *k, const char *prefix, int unit, int box,
				 int nboxes, const char *umask, const char *cpumask)
{
	char name[32];
	struct ek_pmu *p;

	snprintf(name, sizeof(name), "%s%d", prefix, box);
	p = ek_add_counted(k, name, EK_SRV, unit, box, nboxes, cpumask);
	perf_pmu_add_field(&p->desc, "event", "config:0-7");
	perf_pmu_add_field(&p->desc, "umask", umask);
	perf_pmu_add_field(&p->desc, "edge", "config:18");
	if (unit == EMU_UNIT_CHA)
		perf_pmu_add_field(&p->desc, "tid_en", "config:19");
	perf_pmu_add_field(&p->desc, "inv", "config:23");
	perf_pmu_add_field(&p->desc, "thresh", "config:24-31");
	return p;
}

/* Give P's last N events SCALE and UNIT (their .scale and .unit files). */
static void ek_scale_aliases(struct ek_pmu *p, int n, double scale, const char *unit)
{
	for (int a = p->desc.naliases - n; a < p->desc.naliases; a++) {
		p->desc.alias[a].scale = scale;
		snprintf(p->desc.alias[a].unit, sizeof(p->desc.alias[a].unit), "%s", unit);
	}
}

/*
 * AMD's uncore as Linux's amd_uncore driver registers it (arch/x86/events/
 * amd/uncore.c): amd_l3 counting on one CPU of each L3 (6 counters), the
 * data fabric amd_df on one CPU of each socket (4; its format wider with
 * PerfMonV2), from PerfMonV2 on (Linux 6.7) amd_umc_N, one PMU per memory
 * channel numbered over the sockets in turn, each on its socket's CPU; and
 * RAPL's power PMU with the package's energy (AMD has no DRAM domain).
 */
static void ek_add_amd(struct emu_perf *k, const char *cpumask)
{
	const struct emu_machine *m = emu_machine(k->emu);
	const struct topo *t = emu_topo(k->emu);
	char l3mask[1024] = "", name[32];
	struct ek_pmu *p;
	int per_socket = t->nsockets > 0 ? t->nl3 / t->nsockets : 1;

	/* the first CPU of each L3, which holds that L3's events */
	for (int l = 0; l < t->nl3; l++)
		for (int i = 0; i < t->nthreads; i++) {
			int cpu = t->threads[i].os_cpu;

			if (t->cores[t->threads[i].core].l3 != l || cpu >= k->ncpus)
				continue;
			snprintf(l3mask + strlen(l3mask), sizeof(l3mask) - strlen(l3mask), "%s%d",
				 l3mask[0] ? "," : "", cpu);
			k->cpus[cpu].uncore_cpu = true;
			break;
		}
	p = ek_add_counted(k, "amd_l3", EK_SRV, EMU_UNIT_AMD_L3, 0, per_socket, l3mask);
	p->counters = 6;
	p->per_cpu = true;
	perf_pmu_add_field(&p->desc, "event", "config:0-7,32-35");
	perf_pmu_add_field(&p->desc, "umask", "config:8-15");
	if (m->zen >= 3) {
		perf_pmu_add_field(&p->desc, "coreid", "config:42-44");
		perf_pmu_add_field(&p->desc, "enallslices", "config:46");
		perf_pmu_add_field(&p->desc, "enallcores", "config:47");
		perf_pmu_add_field(&p->desc, "sliceid", "config:48-50");
		perf_pmu_add_field(&p->desc, "threadmask", "config:56-57");
	}
	p = ek_add_counted(k, "amd_df", EK_SRV, EMU_UNIT_AMD_DF, 0, 1, cpumask);
	perf_pmu_add_field(&p->desc, "event", m->perfmon_v2 ? "config:0-7,32-37"
							     : "config:0-7,32-35,59-60");
	perf_pmu_add_field(&p->desc, "umask", m->perfmon_v2 ? "config:8-15,24-27" : "config:8-15");
	for (int s = 0; m->perfmon_v2 && s < t->nsockets; s++)
		for (int c = 0; c < m->channels && k->npmus + 2 < EK_MAX_PMUS; c++) {
			char mask[16] = "";

			for (int i = 0; i < t->nthreads && !mask[0]; i++)
				if (t->threads[i].socket == s)
					snprintf(mask, sizeof(mask), "%d", t->threads[i].os_cpu);
			snprintf(name, sizeof(name), "amd_umc_%d", s * m->channels + c);
			p = ek_add_counted(k, name, EK_SRV, EMU_UNIT_AMD_UMC, c, m->channels, mask);
			perf_pmu_add_field(&p->desc, "event", "config:0-7");
			perf_pmu_add_field(&p->desc, "rdwrmask", "config:8-9");
		}
	p = ek_add_counted(k, "power", EK_POWER, EMU_UNIT_POWER, 0, 1, cpumask);
	perf_pmu_add_field(&p->desc, "event", "config:0-7");
	perf_pmu_add_alias(&p->desc, "energy-pkg", "event=0x02");
	p->configs |= 1u << 2;
	ek_scale_aliases(p, p->desc.naliases, 2.3283064365386962890625e-10, "Joules"); /* 2^-32 J */
}

/*
 * A server's uncore as Linux's intel_uncore driver registers it: one PMU
 * per box number (uncore_cha_N, uncore_imc_N, uncore_upi_N), each on every
 * socket (its cpumask one CPU per socket), with the format files the driver
 * writes (the CHA's umask: Ice Lake-SP config:8-15,32-57 (umask_ext2);
 * Sapphire and Granite Rapids config:8-15,32-63 (umask_ext5, Linux 6.9 and
 * the stable kernels it was backported to: before, 32-55 was too narrow for
 * the CXL filters' UMaskExt); the IMC's named CAS counts scaled to MiB);
 * and RAPL's power PMU (energy-pkg, energy-ram in 2^-32 J).
 */
void ek_add_server(struct emu_perf *k, const char *cpumask)
{
	const struct emu_machine *m = emu_machine(k->emu);
	bool icx = m->srv == EMU_SRV_ICX;
	struct ek_pmu *p;

	if (m->amd) {
		ek_add_amd(k, cpumask);
		return;
	}
	if (m->srv == EMU_SRV_NONE || k->npmus + m->chas + m->channels + m->upi_links + 1 > EK_MAX_PMUS)
		return;
	for (int b = 0; b < m->chas && m->srv != EMU_SRV_CLIENT; b++)
		ek_add_box(k, "uncore_cha_", EMU_UNIT_CHA, b, m->chas,
			   icx ? "config:8-15,32-57" : "config:8-15,32-63", cpumask);
	for (int b = 0; b < m->channels && m->srv != EMU_SRV_CLIENT; b++) {
		p = ek_add_box(k, "uncore_imc_", EMU_UNIT_MC, b, m->channels, "config:8-15", cpumask);
		perf_pmu_add_alias(&p->desc, "clockticks", icx ? "event=0x00,umask=0x00"
							     : "event=0x01,umask=0x01");
		if (m->srv == EMU_SRV_GNR)
			continue; /* two CAS counts a channel there: no single named one */
		perf_pmu_add_alias(&p->desc, "cas_count_read", icx ? "event=0x04,umask=0x0f"
								 : "event=0x05,umask=0xcf");
		perf_pmu_add_alias(&p->desc, "cas_count_write", icx ? "event=0x04,umask=0x30"
								  : "event=0x05,umask=0xf0");
		ek_scale_aliases(p, 2, 6.103515625e-5, "MiB"); /* 64 bytes in MiB */
	}
	for (int b = 0; b < m->upi_links; b++)
		ek_add_box(k, "uncore_upi_", EMU_UNIT_UPI, b, m->upi_links, "config:8-15,32-55", cpumask);
	if (m->srv == EMU_SRV_CLIENT) {
		/* Ice Lake / Tiger Lake client: the controller's free-running counters */
		p = ek_add_counted(k, "uncore_imc_free_running_0", EK_POWER, EMU_UNIT_IMC_FREE, 0, 1,
				   cpumask);
		perf_pmu_add_field(&p->desc, "event", "config:0-7");
		perf_pmu_add_field(&p->desc, "umask", "config:8-15");
		perf_pmu_add_alias(&p->desc, "data_read", "event=0xff,umask=0x20");
		perf_pmu_add_alias(&p->desc, "data_write", "event=0xff,umask=0x21");
		ek_scale_aliases(p, 2, 6.103515625e-5, "MiB"); /* 64 bytes in MiB */
	}
	p = ek_add_counted(k, "power", EK_POWER, EMU_UNIT_POWER, 0, 1, cpumask);
	perf_pmu_add_field(&p->desc, "event", "config:0-7");
	if (m->srv == EMU_SRV_CLIENT) {
		perf_pmu_add_alias(&p->desc, "energy-cores", "event=0x01");
		p->configs |= 1u << 1;
	}
	perf_pmu_add_alias(&p->desc, "energy-pkg", "event=0x02");
	p->configs |= 1u << 2;
	if (m->srv != EMU_SRV_CLIENT) {
		perf_pmu_add_alias(&p->desc, "energy-ram", "event=0x03");
		p->configs |= 1u << 3;
	}
	ek_scale_aliases(p, p->desc.naliases, 2.3283064365386962890625e-10, "Joules"); /* 2^-32 J */
}
