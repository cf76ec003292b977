/*
 * cpumodel: the one table of CPU models pmutop knows, as the kernel's
 * x86_match_cpu tables are: family/model -> microarchitecture, uncore kind
 * (or why its uncore is not programmed), memory channels, offcore response
 * registers, layout.  Everything model-specific elsewhere is derived from a
 * row: the microarchitecture of a CPU (cpuid), the uncore the source opens
 * and the doctor describes, the offcore registers on the write allowlist
 * and in the emulator.  A new model of a known microarchitecture is one
 * row.  Immutable; any thread.
 */
#ifndef PMUTOP_CPUMODEL_H
#define PMUTOP_CPUMODEL_H

#include <stdint.h>

#include "cpuid.h"

/* The per-socket PMU pmutop programs beside the cores. */
enum cpumodel_uncore {
	CPUMODEL_UNCORE_NONE,
	CPUMODEL_UNCORE_NHM, /* Nehalem/Westmere-EP: 8 counters + fixed clock per socket, IMC channels */
	CPUMODEL_UNCORE_SKL, /* Skylake client: CBo slices, ARB, fixed clock, IMC MMIO counters */
};

/*
 * Each uncore kind as data: its name and the box kinds it has (bit p: enum
 * layout_pmu p), for the uncore's planning and the messages that name them.
 */
struct cpumodel_uncore_kind {
	const char *name;
	uint32_t pmus;
};

extern const struct cpumodel_uncore_kind cpumodel_uncore_kinds[];

struct cpumodel {
	unsigned family, model;
	const char *name;            /* the parts, e.g. "Nehalem-EP, Core i7 9xx" */
	enum cpuid_uarch uarch;
	enum cpumodel_uncore uncore;
	const char *uncore_why;      /* CPUMODEL_UNCORE_NONE on a part that has one: why */
	int channels;                /* memory channels per socket the uncore counts */
	int offcore;                 /* MSR_OFFCORE_RSP_x registers: 0, 1 or 2 */
	const char *layout;          /* the layout file's name, without .layout */
};

extern const struct cpumodel cpumodels[];
extern const int cpumodel_count;

/* The row of FAMILY/MODEL, or NULL for a model without one (the architectural fallback). */
const struct cpumodel *cpumodel_find(unsigned family, unsigned model);

#endif
