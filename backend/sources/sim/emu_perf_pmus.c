/*
 * emu_perf_pmus: the PMUs the emulated kernel describes (as Linux's sysfs
 * does: type, format fields, events/ aliases, the CPUs they count on) and
 * its core PMUs: "cpu", or on a hybrid machine "cpu_core" and "cpu_atom",
 * each with the CPUs of its kind in "cpus" (arch/x86/events/intel/core.c's
 * hybrid PMUs) and its own counters.  See emu_perf_int.h.
 */
#include "emu_perf_int.h"
#include "emu_int.h"
#include "emu_machine.h"

#include <stdio.h>
#include <string.h>

/*
 * Linux's Intel core PMU formats and when the driver shows each
 * (arch/x86/events/intel/core.c as of 6.12): intel_arch_formats_attr on
 * version 1-2, intel_arch3_formats_attr from 3 with "any" only while
 * CPUID.0AH:EDX[15] does not deprecate AnyThread (Ice Lake and later, version
 * 5, deprecate it), ldlat and offcore_rsp (PEBS load latency, the offcore
 * matrix), skl_format_attr's frontend on the big cores only (a hybrid's
 * cpu_atom has none), and version 6's umask2 (the umask grown to 47:40) and
 * eq (group_format_evtsel_ext, as CPUID.23H enumerates them).
 */
enum ek_when { EK_ALWAYS, EK_ANYTHREAD, EK_ARCH3, EK_FRONTEND, EK_UMASK1, EK_UMASK2, EK_EQ };

static const struct ek_format {
	const char *name, *bits;
	enum ek_when when;
} ek_intel_core[] = {
	{ "event", "config:0-7", EK_ALWAYS },
	{ "umask", "config:8-15", EK_UMASK1 },
	{ "umask", "config:8-15,40-47", EK_UMASK2 },
	{ "edge", "config:18", EK_ALWAYS },
	{ "pc", "config:19", EK_ALWAYS },
	{ "any", "config:21", EK_ANYTHREAD },
	{ "inv", "config:23", EK_ALWAYS },
	{ "cmask", "config:24-31", EK_ALWAYS },
	{ "eq", "config:36", EK_EQ },
	{ "offcore_rsp", "config1:0-63", EK_ARCH3 },
	{ "ldlat", "config1:0-15", EK_ARCH3 },
	{ "frontend", "config1:0-23", EK_FRONTEND },
};

/* Whether core PMU NAME is a big core's (cpu, cpu_core), not an E-core's (cpu_atom, cpu_lowpower). */
static bool ek_big_core(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core");
}

/* Whether the driver shows a format of WHEN on core PMU NAME of machine M. */
static bool ek_format_shown(const struct emu_machine *m, const char *name, enum ek_when when)
{
	bool v6 = m->perfmon_version >= 6; /* the emulated CPUs of version 6 enumerate both */

	switch (when) {
	case EK_ALWAYS:
		return true;
	case EK_ANYTHREAD:
		return m->perfmon_version >= 3 && m->perfmon_version < 5;
	case EK_ARCH3:
		return m->perfmon_version >= 3;
	case EK_FRONTEND:
		return m->pebs_frontend && ek_big_core(name);
	case EK_UMASK1:
		return !v6;
	case EK_UMASK2:
	case EK_EQ:
		return v6;
	}
	return false;
}

/* A PMU description: NAME, TYPE, the formats (NAME=TEXT pairs), the uncore CPUs in CPUMASK. */
struct ek_pmu *ek_add_pmu(struct emu_perf *k, const char *name, uint32_t type,
				 enum ek_kind kind, const char *cmask, const char *cpumask)
{
	/* Linux's amd core PMU (arch/x86/events/amd/core.c): the 12-bit event select split */
	static const char *const amd[][2] = {
		{ "event", "config:0-7,32-35" }, { "umask", "config:8-15" }, { "edge", "config:18" },
		{ "inv", "config:23" }, { "cmask", "config:24-31" },
	};
	struct ek_pmu *p = &k->pmus[k->npmus++];

	memset(p, 0, sizeof(*p));
	p->kind = kind;
	snprintf(p->desc.name, sizeof(p->desc.name), "%s", name);
	p->desc.type = type;
	snprintf(p->desc.cpumask, sizeof(p->desc.cpumask), "%s", cpumask);
	if (kind == EK_CORE && k->amd) {
		for (size_t i = 0; i < sizeof(amd) / sizeof(amd[0]); i++)
			perf_pmu_add_field(&p->desc, amd[i][0], amd[i][1]);
		return p;
	}
	if (kind == EK_MSR) {
		p->per_cpu = true;
		/* the events Linux's msr PMU lists where the CPU has them (AMD: IRPerf too) */
		perf_pmu_add_field(&p->desc, "event", "config:0-63");
		for (int i = 0; i < ek_nmsr_events; i++) {
			char terms[32];

			snprintf(terms, sizeof(terms), "event=0x%02x", ek_msr_events[i].event);
			perf_pmu_add_alias(&p->desc, ek_msr_events[i].name, terms);
		}
		return p;
	}
	if (kind == EK_CORE) {
		for (size_t i = 0; i < sizeof(ek_intel_core) / sizeof(ek_intel_core[0]); i++)
			if (ek_format_shown(emu_machine(k->emu), name, ek_intel_core[i].when))
				perf_pmu_add_field(&p->desc, ek_intel_core[i].name,
						   ek_intel_core[i].bits);
		/* Linux's events/ on Ice Lake and later: slots (fixed counter 3), topdown-*; not cpu_atom's */
		if (ek_big_core(name) && emu_machine(k->emu)->slots_width)
			perf_pmu_add_alias(&p->desc, "slots", "event=0x00,umask=0x4");
		for (unsigned f = 0; ek_big_core(name) && f < k->perf_metrics &&
				     f < PERF_METRICS_FIELDS; f++) {
			char terms[32];

			snprintf(terms, sizeof(terms), "event=0x00,umask=0x%x", 0x80 + f);
			perf_pmu_add_alias(&p->desc, perf_topdown_events[f], terms);
		}
		return p;
	}
	perf_pmu_add_field(&p->desc, "event", "config:0-7");
	/* uncore_snb.c's snb_uncore_imc_formats_attr: the client IMC's format is its event alone */
	if (kind != EK_SKL_IMC)
		perf_pmu_add_field(&p->desc, "umask", "config:8-15");
	if (kind == EK_SKL_IMC) {
		for (size_t i = 0; i < (size_t)ek_nimc_events; i++) {
			char terms[32];

			snprintf(terms, sizeof(terms), "event=0x%02x", ek_imc_events[i].event);
			perf_pmu_add_alias(&p->desc, ek_imc_events[i].name, terms);
		}
		return p;
	}
	perf_pmu_add_field(&p->desc, "edge", "config:18");
	perf_pmu_add_field(&p->desc, "inv", "config:23");
	perf_pmu_add_field(&p->desc, "cmask", cmask);
	return p;
}

/* CPUs of kind KIND (0 P-cores, 1 E-cores, 2 low-power E-cores) as a list "16-23". */
static void ek_kind_cpus(const struct emu_hybrid *h, int kind, char *buf, size_t len)
{
	unsigned p = h->p_cores * h->p_threads, e = p + h->e_modules * h->e_per_module;

	snprintf(buf, len, "%u-%u", kind == 0 ? 0 : kind == 1 ? p : e,
		 (kind == 0 ? p : kind == 1 ? e : emu_hybrid_cpus(h)) - 1);
}

void ek_add_core_pmus(struct emu_perf *k)
{
	const struct emu_machine *m = emu_machine(k->emu);
	char cpus[64];
	struct ek_pmu *p;

	k->atom_pmu = -1;
	k->lowpower_pmu = -1;
	if (!m->hybrid) {
		ek_add_pmu(k, "cpu", PERF_TYPE_RAW, EK_CORE, "", "");
		return;
	}
	/* Linux numbers cpu_core PERF_TYPE_RAW, cpu_atom and cpu_lowpower after the software PMUs */
	ek_kind_cpus(m->hybrid, 0, cpus, sizeof(cpus));
	p = ek_add_pmu(k, "cpu_core", PERF_TYPE_RAW, EK_CORE, "", "");
	snprintf(p->desc.cpus, sizeof(p->desc.cpus), "%s", cpus);
	ek_kind_cpus(m->hybrid, 1, cpus, sizeof(cpus));
	k->atom_pmu = k->npmus;
	p = ek_add_pmu(k, "cpu_atom", EK_ATOM_TYPE, EK_CORE, "", "");
	snprintf(p->desc.cpus, sizeof(p->desc.cpus), "%s", cpus);
	p->core_gp = m->hybrid->e_gp_counters;
	p->core_fixed = m->hybrid->e_fixed_counters;
	if (!m->hybrid->lp_cores)
		return;
	ek_kind_cpus(m->hybrid, 2, cpus, sizeof(cpus));
	k->lowpower_pmu = k->npmus;
	p = ek_add_pmu(k, "cpu_lowpower", EK_ATOM_TYPE + 1, EK_CORE, "", "");
	snprintf(p->desc.cpus, sizeof(p->desc.cpus), "%s", cpus);
	p->core_gp = m->hybrid->e_gp_counters;
	p->core_fixed = m->hybrid->e_fixed_counters;
}

int ek_core_pmu(const struct emu_perf *k, int cpu)
{
	const struct emu_hybrid *h = emu_machine(k->emu)->hybrid;

	if (k->lowpower_pmu >= 0 && emu_hybrid_is_lp(h, cpu))
		return k->lowpower_pmu;
	return k->atom_pmu >= 0 && emu_hybrid_is_e(h, cpu) ? k->atom_pmu : 0;
}

/* The PMU of TYPE, or -1. */
int ek_pmu_of(const struct emu_perf *k, uint32_t type)
{
	for (int i = 0; i < k->npmus; i++)
		if (k->pmus[i].desc.type == type)
			return i;
	return -1;
}

/* A free-running PMU's config: one of its events/ (a RAPL domain it has, a named IMC count). */
bool ek_free_config_ok(const struct ek_pmu *p, uint64_t config)
{
	for (int i = 0; i < p->nfree; i++)
		if (p->free_configs[i] == config)
			return true;
	return false;
}

/* The bits of config word WORD that P's format fields place. */
uint64_t ek_format_mask(const struct perf_pmu *p, int word)
{
	uint64_t m = 0;

	for (int i = 0; i < p->nfields; i++)
		if (p->fields[i].word == word)
			m |= p->fields[i].mask;
	return m;
}
