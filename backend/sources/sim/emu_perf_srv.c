/*
 * emu_perf_srv: the emulated kernel's uncore PMUs that only it reaches
 * (a server's CHAs, memory channels and UPI links, a client's boxes and
 * free-running memory counters, AMD's L3, data fabric and memory
 * channels) and RAPL's power PMU, laid out from the drivers' tables
 * (emu_perf_linux.c).  Their boxes are PCI configuration space, MMIO and
 * discovery tables: no registers here, the counts come from the model
 * (emu_srv_count) while their groups are scheduled (emu_perf_sched.c).
 * See emu_perf_int.h.
 */
#include "emu_perf_int.h"
#include "emu_int.h"
#include "emu_machine.h"
#include "cpulist.h"
#include "xmalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kernel-counted box (EK_SRV, EK_POWER): UNIT, box BOX of NBOXES, 48-bit counters. */
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
	p->counters = 0;
	p->width = 48;
	k->npmus++;
	return p;
}

/* Give P the FORMAT fields and ALIASES of a driver's table (the zero rows end them). */
static void ek_describe(struct ek_pmu *p, const struct ek_field *format,
			const struct ek_event_desc *aliases)
{
	for (const struct ek_field *f = format; f && f->name; f++)
		perf_pmu_add_field(&p->desc, f->name, f->bits);
	for (const struct ek_event_desc *a = aliases; a && a->name; a++) {
		struct perf_pmu_config c;

		if (perf_pmu_add_alias(&p->desc, a->name, a->terms))
			continue;
		p->desc.alias[p->desc.naliases - 1].scale = a->scale > 0 ? a->scale : 1;
		snprintf(p->desc.alias[p->desc.naliases - 1].unit,
			 sizeof(p->desc.alias[0].unit), "%s", a->unit ? a->unit : "");
		/* a free-running PMU counts its named events only (uncore_freerunning_hw_config) */
		if (!perf_pmu_alias(&p->desc, a->name, &c) && p->nfree < EK_MAX_FREE)
			p->free_configs[p->nfree++] = c.config[0];
	}
}

/* How many boxes of kind B the driver registers on K's machine. */
static int ek_box_count(const struct emu_perf *k, enum ek_boxes b)
{
	const struct emu_machine *m = emu_machine(k->emu);
	const struct topo *t = emu_topo(k->emu);

	switch (b) {
	case EK_BOXES_ONE:
		return 1;
	case EK_BOXES_TWO:
		return 2;
	case EK_BOXES_CHAS:
		return m->chas;
	case EK_BOXES_CHANNELS:
		return m->channels;
	case EK_BOXES_CONTROLLERS:
		return (m->channels + 1) / 2;
	case EK_BOXES_LINKS:
		return m->upi_links;
	case EK_BOXES_CBOS:
		/* a ring stop each: a core, or a hybrid's E-core module (MSR_UNC_CBO_CONFIG's count) */
		return m->hybrid ? (int)(m->hybrid->p_cores + m->hybrid->e_modules)
		       : t->nsockets > 0 ? t->ncores / t->nsockets : t->ncores;
	}
	return 0;
}

/* RAPL's power PMU (rapl.c): its events of table RAPL, in 2^-32 J, on one CPU of each package. */
static void ek_add_power(struct emu_perf *k, const struct ek_event_desc *rapl, const char *cpumask)
{
	static const struct ek_field power_format[] = { { "event", "config:0-7" }, { 0 } };
	struct ek_pmu *p = ek_add_counted(k, "power", EK_POWER, EMU_UNIT_POWER, 0, 1, cpumask);

	ek_describe(p, power_format, rapl);
}

/*
 * AMD's uncore as Linux's amd_uncore driver registers it (arch/x86/events/
 * amd/uncore.c): amd_l3 counting on one CPU of each L3 (6 counters), the
 * data fabric amd_df on one CPU of each socket (4), from PerfMonV2 on
 * (Linux 6.7) amd_umc_N, one PMU per memory channel numbered over the
 * sockets in turn, each on its socket's CPU; the formats by family
 * (ek_amd_formats).
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
	ek_describe(p, ek_amd_formats(EMU_UNIT_AMD_L3, m->family, m->perfmon_v2), NULL);
	p = ek_add_counted(k, "amd_df", EK_SRV, EMU_UNIT_AMD_DF, 0, 1, cpumask);
	p->counters = 4;
	ek_describe(p, ek_amd_formats(EMU_UNIT_AMD_DF, m->family, m->perfmon_v2), NULL);
	for (int s = 0; m->perfmon_v2 && s < t->nsockets; s++)
		for (int c = 0; c < m->channels && k->npmus + 2 < EK_MAX_PMUS; c++) {
			char mask[16] = "";

			for (int i = 0; i < t->nthreads && !mask[0]; i++)
				if (t->threads[i].socket == s)
					snprintf(mask, sizeof(mask), "%d", t->threads[i].os_cpu);
			snprintf(name, sizeof(name), "amd_umc_%d", s * m->channels + c);
			p = ek_add_counted(k, name, EK_SRV, EMU_UNIT_AMD_UMC, c, m->channels, mask);
			p->counters = 4;
			ek_describe(p, ek_amd_formats(EMU_UNIT_AMD_UMC, m->family, true), NULL);
		}
	ek_add_power(k, ek_driver_of(EMU_SRV_AMD)->rapl, cpumask);
}

/*
 * The uncore of a machine whose boxes only the kernel reaches, as its
 * driver's table (emu_perf_linux.c) has it: each type's boxes named as
 * Linux names them (uncore_NAME, uncore_NAME_N where it has more than one),
 * each on every socket (its cpumask one CPU per socket), then RAPL's power
 * PMU.
 */
void ek_add_server(struct emu_perf *k, const char *cpumask)
{
	const struct emu_machine *m = emu_machine(k->emu);
	const struct ek_driver *d;
	int need = 1;

	if (m->amd) {
		ek_add_amd(k, cpumask);
		return;
	}
	d = ek_driver_of(m->srv);
	if (!d)
		return;
	for (const struct ek_type *ty = d->types; ty && ty->name; ty++)
		need += ek_box_count(k, ty->boxes);
	if (k->npmus + need > EK_MAX_PMUS)
		return;
	for (const struct ek_type *ty = d->types; ty && ty->name; ty++) {
		int n = ek_box_count(k, ty->boxes);

		for (int b = 0; b < n; b++) {
			char name[64];
			struct ek_pmu *p;

			if (n > 1)
				snprintf(name, sizeof(name), "uncore_%s_%d", ty->name, b);
			else
				snprintf(name, sizeof(name), "uncore_%s", ty->name);
			p = ek_add_counted(k, name, ty->counters ? EK_SRV : EK_POWER, ty->unit, b, n,
					   cpumask);
			p->counters = ty->counters;
			ek_describe(p, ty->format, ty->aliases);
		}
	}
	ek_add_power(k, d->rapl, cpumask);
}

/*
 * The cstate driver's PMUs (arch/x86/events/intel/cstate.c): which
 * residency counters each model has, its intel_cstates_match table (model
 * -> core and package event bits: c1 c3 c6 c7; c2 c3 c6 c7 c8 c9 c10).
 * A model it does not list (Lunar Lake and Arrow Lake at this kernel, AMD,
 * any CPU under a hypervisor) has neither PMU.
 */
#define CS_NHM 0x06, 0x0E                 /* core c3 c6; package c3 c6 c7 */
#define CS_SNB 0x0E, 0x0F                 /* core c3 c6 c7; package c2 c3 c6 c7 */
#define CS_HSWULT 0x0E, 0x7F              /* core c3 c6 c7; package c2 to c10 */
#define CS_ICL 0x0C, 0x7F                 /* core c6 c7; package c2 to c10 */
#define CS_ICX 0x05, 0x05                 /* core c1 c6; package c2 c6 */
#define CS_ADL 0x0D, 0x7F                 /* core c1 c6 c7; package c2 to c10 */
static const struct {
	unsigned model, core, pkg;
} ek_cstate_models[] = {
	{ 0x1A, CS_NHM }, { 0x1E, CS_NHM }, { 0x1F, CS_NHM }, { 0x2E, CS_NHM }, { 0x25, CS_NHM },
	{ 0x2C, CS_NHM }, { 0x2F, CS_NHM }, { 0x2A, CS_SNB }, { 0x2D, CS_SNB }, { 0x3A, CS_SNB },
	{ 0x3E, CS_SNB }, { 0x3C, CS_SNB }, { 0x3F, CS_SNB }, { 0x46, CS_SNB }, { 0x45, CS_HSWULT },
	{ 0x3D, CS_SNB }, { 0x47, CS_SNB }, { 0x56, CS_SNB }, { 0x4F, CS_SNB }, { 0x4E, CS_SNB },
	{ 0x5E, CS_SNB }, { 0x55, CS_SNB }, { 0x8E, CS_HSWULT }, { 0x9E, CS_HSWULT },
	{ 0xA5, CS_HSWULT }, { 0xA6, CS_HSWULT }, { 0x7E, CS_ICL }, { 0x7D, CS_ICL },
	{ 0x6A, CS_ICX }, { 0x6C, CS_ICX }, { 0x8F, CS_ICX }, { 0xCF, CS_ICX }, { 0xAD, CS_ICX },
	{ 0xAE, CS_ICX }, { 0x8C, CS_ICL }, { 0x8D, CS_ICL }, { 0xA7, CS_ICL }, { 0x97, CS_ADL },
	{ 0x9A, CS_ADL }, { 0xB7, CS_ADL }, { 0xBA, CS_ADL }, { 0xBF, CS_ADL }, { 0xAA, CS_ADL },
	{ 0xAC, CS_ADL }, { 0xBE, CS_ADL },
};

/* One cstate PMU: NAME's events of BITS among STATES (c1-residency ... as event=N), on CPUMASK. */
static void ek_add_cstate_pmu(struct emu_perf *k, const char *name, int unit, unsigned bits,
			      const char *const *states, int nboxes, const char *cpumask)
{
	static const struct ek_field format[] = { { "event", "config:0-63" }, { 0 } };
	struct ek_event_desc ev[8] = { { 0 } };
	char names[7][24], terms[7][16];
	struct ek_pmu *p = ek_add_counted(k, name, EK_POWER, unit, 0, nboxes, cpumask);
	int n = 0;

	for (int i = 0; i < 7 && states[i]; i++)
		if (bits & (1u << i)) {
			snprintf(names[n], sizeof(names[n]), "%s-residency", states[i]);
			snprintf(terms[n], sizeof(terms[n]), "event=0x%02x", i);
			ev[n] = (struct ek_event_desc){ .name = names[n], .terms = terms[n] };
			n++;
		}
	p->width = 64;
	p->per_cpu = unit == EMU_UNIT_CSTATE_CORE;
	ek_describe(p, format, ev);
}

void ek_add_cstate(struct emu_perf *k, const char *pkgmask)
{
	static const char *const core_states[] = { "c1", "c3", "c6", "c7", NULL };
	static const char *const pkg_states[] = { "c2", "c3", "c6", "c7", "c8", "c9", "c10" };
	const struct emu_machine *m = emu_machine(k->emu);
	const struct topo *t = emu_topo(k->emu);
	int *readers, n = 0;
	char *coremask;
	size_t i;

	if (m->amd || m->family != 6 || k->npmus + 2 > EK_MAX_PMUS)
		return;
	for (i = 0; i < sizeof(ek_cstate_models) / sizeof(ek_cstate_models[0]); i++)
		if (ek_cstate_models[i].model == m->model)
			break;
	if (i == sizeof(ek_cstate_models) / sizeof(ek_cstate_models[0]))
		return;
	/* the core PMU's readers: each core's first thread (cstate_cpu_init), as a CPU list */
	readers = xcalloc((size_t)t->ncores + 1, sizeof(int));
	for (int c = 0; c < t->ncores; c++)
		for (int j = 0; j < t->nthreads; j++) {
			int cpu = t->threads[j].os_cpu;

			if (t->threads[j].core != c || cpu >= k->ncpus)
				continue;
			/*
			 * not an uncore CPU: its counters run free and never rotate, so the
			 * timer need not visit every PMU on every core (112 x 90 contexts a
			 * tick on Sapphire Rapids starved a sanitizer build's sampler)
			 */
			readers[n++] = cpu;
			break;
		}
	n = cpulist_normalise(readers, n);
	coremask = cpulist_format(readers, n);
	ek_add_cstate_pmu(k, "cstate_core", EMU_UNIT_CSTATE_CORE, ek_cstate_models[i].core,
			  core_states, t->nsockets > 0 ? t->ncores / t->nsockets : 1, coremask);
	free(coremask);
	free(readers);
	ek_add_cstate_pmu(k, "cstate_pkg", EMU_UNIT_CSTATE_PKG, ek_cstate_models[i].pkg, pkg_states,
			  1, pkgmask);
}

const char *emu_perf_source(const struct emu_perf *k)
{
	static char text[160];
	const struct emu_machine *m = emu_machine(k->emu);
	const struct ek_driver *d = ek_driver_of(m->amd ? EMU_SRV_AMD : (int)m->srv);

	if (!d)
		return NULL;
	snprintf(text, sizeof(text), "%s, %s", d->driver, d->kernel);
	return text;
}
