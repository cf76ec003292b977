/*
 * perf_source: the perf source as the engine drives it (source_ops.h): the
 * cores' events and the per-socket PMUs through perf_event_open(2), the
 * kernel's (or the emulated kernel's, perf_sys) PMUs described by their
 * sysfs format files.  Nothing is written to a register.
 */
#ifndef PMUTOP_PERF_SOURCE_H
#define PMUTOP_PERF_SOURCE_H

#include "source_ops.h"

struct perf_pmu;
struct perf_sys;
struct perf_access;

/* The perf source's own configuration (engine_config.source_cfg): the kernel it counts through. */
struct perf_source_config {
	/* the core PMU's formats (cpu, or cpu_core on a hybrid) */
	const struct perf_pmu *cpu;
	/*
	 * On a CPU without fixed counters (AMD), the kernel's msr PMU: the
	 * built-ins instructions, cycles, ref_cycles from its free-running
	 * irperf, aperf, mperf, which take no counter; NULL: the generic events.
	 */
	const struct perf_pmu *msr;
	/* a hybrid CPU: the E-cores' PMU (cpu_atom), NULL when the kernel has none */
	const struct perf_pmu *atom;
	/*
	 * The low-power E-cores' PMU (cpu_lowpower), NULL none: its CPUs are of
	 * kind E and count the built-in figures through it; their events are
	 * another core's than the E-cores' (Crestmont beside Skymont), so the
	 * layout's E-core groups leave them n/a
	 */
	const struct perf_pmu *lowpower;
	const struct perf_sys *sys;  /* its system calls (NULL: the kernel's; an emulated kernel's) */
	const struct perf_access *access; /* what the kernel allows, for the messages */
	/*
	 * Counting one command (and the tasks it starts) instead of whole CPUs:
	 * nothing counts until engine_attach names it; the uncore cannot.
	 */
	bool task;
};

/* SRC's configuration (engine_config.source_cfg, uncore_config.source_cfg). */
static inline const struct perf_source_config *perf_source_cfg(const void *src)
{
	return src;
}

extern const struct src_core_ops perf_core_ops;
extern const struct src_uncore_ops perf_uncore_ops;

#endif
