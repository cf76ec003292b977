/*
 * cpumodel: the one table of the CPUs pmutop knows, in the spirit of the
 * kernel perf tool's mapfile.csv: (vendor, family, model[, steppings][,
 * core type]) -> a platform row with the microarchitecture, the layout,
 * the uncore kind (or why the uncore is not programmed), the memory
 * channels and the offcore response registers.  Everything model-specific
 * elsewhere is derived from these rows: the microarchitecture of a CPU
 * (cpuid), the layout pmutop loads (layout_find), the uncore the source
 * opens and the doctor describes, the offcore registers on the write
 * allowlist and in the emulator.  The rows are data/models.csv, the
 * vendors' map form (modelmap.h), which the build turns into cpumodels[]
 * (tools/models-gen): a new model of a known platform is one line of that
 * file, no C; a new platform of pmutop's own layout one entry of
 * cpumodel_platforms[] and its layout.  Immutable; any thread.
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
	/*
	 * The kernel's own uncore PMUs, counted through perf (the servers'
	 * CHA, memory channels and UPI links, RAPL's power PMU): whatever the
	 * kernel describes in sysfs; what it lacks is n/a with the PMU's name.
	 */
	CPUMODEL_UNCORE_KERNEL,
	/* Through msr on a CPU whose uncore only the kernel reaches: RAPL's energy MSRs, read only. */
	CPUMODEL_UNCORE_RAPL,
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

/* Whether uncore KIND has a box kind of free-running counters (a memory controller window). */
bool cpumodel_uncore_free_running(enum cpumodel_uncore kind);

/* What the models of one platform share. */
struct cpumodel_platform {
	const char *name;            /* "Nehalem-EP", "Skylake client" */
	enum cpuid_uarch uarch;
	/*
	 * The layout file's name, without .layout; NULL: the vendor's data
	 * makes the layout (AMD's Zen: data/amd, from the kernel's perf tool)
	 */
	const char *layout;
	enum cpumodel_uncore uncore;
	const char *uncore_why;      /* CPUMODEL_UNCORE_NONE on a part that has one: why */
	int channels;                /* memory channels per socket the uncore counts */
	int offcore;                 /* MSR_OFFCORE_RSP_x registers: 0, 1 or 2 */
	/*
	 * What the front ends say about it, so that they ask the platform and
	 * never its generation: what pmutop counts on it (a line; NULL: the
	 * layout says), the emulated machine that shows it without a PMU
	 * (--sim; NULL: none), and why it has no top-down tree where its
	 * vendor publishes none (NULL: the layout's tree, or the usual words)
	 */
	const char *counts;
	const char *sim;
	const char *no_tree;
};

extern const struct cpumodel_platform cpumodel_platforms[];
extern const int cpumodel_platform_count;

/* One row (a line of data/models.csv): the CPUs it matches, their names, their platform. */
struct cpumodel {
	const char *match;           /* "GenuineIntel-6-55-[4567]" (modelmap.h) */
	const char *core_type;       /* a hybrid part's core type ("0x40"), "" any */
	enum cpuid_vendor vendor;    /* the vendor, family and model MATCH names */
	unsigned family, model;
	const char *name;            /* the parts, e.g. "Nehalem-EP, Core i7 9xx" */
	const char *platform;        /* its platform's name as the file gives it */
	const struct cpumodel_platform *p;
};

extern const struct cpumodel cpumodels[];
extern const int cpumodel_count;

/*
 * The row of the CPU INFO describes (its vendor, family, model, stepping,
 * core type), or NULL for a CPU without one (the architectural fallback).
 */
const struct cpumodel *cpumodel_of(const struct cpuid_info *info);

/*
 * The microarchitecture of INFO's CPU: its row's in the table, else the
 * architectural fallback for an Intel CPU with architectural perfmon, else
 * unknown.
 */
enum cpuid_uarch cpumodel_uarch_of(const struct cpuid_info *info);

/* INFO's uarch and uarch_name, as cpumodel_uarch_of says: after cpuid_identify, cpuid_assume. */
void cpumodel_classify(struct cpuid_info *info);

/* The row of VENDOR FAMILY MODEL (any stepping, any core type), or NULL. */
const struct cpumodel *cpumodel_find(enum cpuid_vendor vendor, unsigned family, unsigned model);

/*
 * What the table covers of VENDOR, for the messages that say so: its first
 * and last platforms and their CPU families ("Zen 2 to Zen 5 (family 17h,
 * 19h, 1Ah)"), into BUF; and the first of its platforms with a top-down
 * tree ("Zen 4"), or NULL.  From the rows, so that a new platform's row
 * changes what they say.
 */
void cpumodel_vendor_span(enum cpuid_vendor vendor, char *buf, size_t len);
const char *cpumodel_vendor_first_tree(enum cpuid_vendor vendor);

#endif
