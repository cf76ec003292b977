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

/* A PMU description: NAME, TYPE, the formats (NAME=TEXT pairs), the uncore CPUs in CPUMASK. */
struct ek_pmu *ek_add_pmu(struct emu_perf *k, const char *name, uint32_t type,
				 enum ek_kind kind, const char *cmask, const char *cpumask)
{
	static const char *const core[][2] = {
		{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "edge", "config:18" },
		{ "pc", "config:19" }, { "any", "config:21" }, { "inv", "config:23" },
		{ "cmask", "config:24-31" }, { "offcore_rsp", "config1:0-63" },
	};
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
		for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++)
			perf_pmu_add_field(&p->desc, core[i][0], core[i][1]);
		if (emu_machine(k->emu)->pebs_frontend)
			perf_pmu_add_field(&p->desc, "frontend", "config1:0-23");
		/* Linux's events/ on Ice Lake and later: slots (fixed counter 3), topdown-*; not cpu_atom's */
		if (strcmp(name, "cpu_atom") && emu_machine(k->emu)->slots_width)
			perf_pmu_add_alias(&p->desc, "slots", "event=0x00,umask=0x4");
		for (unsigned f = 0; strcmp(name, "cpu_atom") && f < k->perf_metrics &&
				     f < PERF_METRICS_FIELDS; f++) {
			char terms[32];

			snprintf(terms, sizeof(terms), "event=0x00,umask=0x%x", 0x80 + f);
			perf_pmu_add_alias(&p->desc, perf_topdown_events[f], terms);
		}
		return p;
	}
	perf_pmu_add_field(&p->desc, "event", "config:0-7");
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

/* CPUs of M's kind E (E-cores, or P-cores) among the machine's as a list "16-23". */
static void ek_kind_cpus(const struct emu_hybrid *h, bool e, char *buf, size_t len)
{
	unsigned p = h->p_cores * h->p_threads, all = emu_hybrid_cpus(h);

	snprintf(buf, len, "%u-%u", e ? p : 0, (e ? all : p) - 1);
}

void ek_add_core_pmus(struct emu_perf *k)
{
	const struct emu_machine *m = emu_machine(k->emu);
	char cpus[64];
	struct ek_pmu *p;

	k->atom_pmu = -1;
	if (!m->hybrid) {
		ek_add_pmu(k, "cpu", PERF_TYPE_RAW, EK_CORE, "", "");
		return;
	}
	/* Linux numbers cpu_core PERF_TYPE_RAW and cpu_atom after the software PMUs */
	ek_kind_cpus(m->hybrid, false, cpus, sizeof(cpus));
	p = ek_add_pmu(k, "cpu_core", PERF_TYPE_RAW, EK_CORE, "", "");
	snprintf(p->desc.cpus, sizeof(p->desc.cpus), "%s", cpus);
	ek_kind_cpus(m->hybrid, true, cpus, sizeof(cpus));
	k->atom_pmu = k->npmus;
	p = ek_add_pmu(k, "cpu_atom", EK_ATOM_TYPE, EK_CORE, "", "");
	snprintf(p->desc.cpus, sizeof(p->desc.cpus), "%s", cpus);
	p->core_gp = m->hybrid->e_gp_counters;
	p->core_fixed = m->hybrid->e_fixed_counters;
}

int ek_core_pmu(const struct emu_perf *k, int cpu)
{
	return k->atom_pmu >= 0 && emu_hybrid_is_e(emu_machine(k->emu)->hybrid, cpu) ? k->atom_pmu
	       : 0;
}
