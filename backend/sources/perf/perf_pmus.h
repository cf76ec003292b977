/*
 * perf_pmus: every performance-monitoring unit the kernel describes under
 * ROOT/sys/bus/event_source/devices (or the emulated kernel's), read whole:
 * its type, the CPUs it counts on (cpumask, or cpus for a core PMU of a
 * hybrid part), its format fields and its events with their scale and unit
 * (perf_pmu).  Box instances are numbered from the name ("uncore_imc_3":
 * kind uncore_imc, box 3; "power": kind power, no box) and sorted kind by
 * kind, boxes in number order.  A PMU whose files are missing, empty,
 * malformed or contradictory (a format bit past 63, an alias naming a term
 * its format lacks, a scale that is not a number) is skipped with the
 * reason; the others are kept.  First piece of the uncore issue's generic
 * discovery: nothing is opened here.  Main thread, at start-up.
 */
#ifndef PMUTOP_PERF_PMUS_H
#define PMUTOP_PERF_PMUS_H

#include "perf.h"
#include "perf_pmu.h"

struct perf_pmus_entry {
	struct perf_pmu pmu;
	char kind[64];           /* the name without its box number */
	int box;                 /* the box number, -1 for a PMU of one box */
	int cpus[8];             /* the first CPUs of its cpumask (-1 after the last) */
};

struct perf_pmus_skipped {
	char name[64];
	char why[400];
};

struct perf_pmus {
	struct perf_pmus_entry *pmu;
	int n;
	struct perf_pmus_skipped *skipped;
	int nskipped;
};

/*
 * Read every PMU of SYS (NULL: the kernel's sysfs under ROOT).  0, or
 * -errno with ERR when the directory cannot be read (no perf in this
 * kernel, or no such tree under --root).
 */
int perf_pmus_scan(const struct perf_sys *sys, const char *root, struct perf_pmus *out,
		   char *err, size_t errlen);

/* The entries of kind KIND: the first one's index and how many (*N), or -1. */
int perf_pmus_kind(const struct perf_pmus *p, const char *kind, int *n);

void perf_pmus_free(struct perf_pmus *p);

#endif
