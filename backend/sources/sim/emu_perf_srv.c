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
 * A server's uncore as Linux's intel_uncore driver registers it: one PMU
 * per box number (uncore_cha_N, uncore_imc_N, uncore_upi_N), each on every
 * socket (its cpumask one CPU per socket), with the format files the driver
 * writes (Sapphire Rapids: umask config:8-15,32-57 on the CHA, the IMC's
 * named CAS counts scaled to MiB); and RAPL's power PMU (energy-pkg,
 * energy-ram in 2^-32 J).
 */
void ek_add_server(struct emu_perf *k, const char *cpumask)
{
	const struct emu_machine *m = emu_machine(k->emu);
	bool icx = m->srv == EMU_SRV_ICX;
	struct ek_pmu *p;

	if (m->srv == EMU_SRV_NONE || k->npmus + m->chas + m->channels + m->upi_links + 1 > EK_MAX_PMUS)
		return;
	for (int b = 0; b < m->chas && m->srv != EMU_SRV_CLIENT; b++)
		ek_add_box(k, "uncore_cha_", EMU_UNIT_CHA, b, m->chas,
			   icx ? "config:8-15,32-55" : "config:8-15,32-57", cpumask);
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
