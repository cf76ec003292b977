/*
 * perf_pmu: the kernel's performance-monitoring units as perf_event_open(2)
 * sees them, read from sysfs (ROOT/sys/bus/event_source/devices/NAME/:
 * type, cpumask, format/FIELD), and the layouts' event encodings turned
 * into their raw configs.
 *
 * The bit positions of every field (event, umask, cmask, inv, edge, any,
 * offcore_rsp...) come from the PMU's format files, never from a table
 * here: "config:0-7", "config:24-31", "config1:0-63", "config:21", or
 * split ranges ("config:0-7,32-35").  First piece of the perf_event
 * counter source (issue 17); the perf engine that opens and reads the
 * events per CPU is not written yet.  Any thread (pure functions on
 * loaded descriptions).
 */
#ifndef PMUTOP_PERF_PMU_H
#define PMUTOP_PERF_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "pmu_regs.h"

#define PERF_PMU_MAX_FIELDS 32
#define PERF_PMU_MAX_ALIASES 64 /* a core PMU's events/ has ~30 (cycles, slots, topdown-*, tx-*, ...) */

/* One format field: the bits of config (0), config1 (1) or config2 (2) it occupies. */
struct perf_pmu_field {
	char name[32];
	int word;              /* 0 config, 1 config1, 2 config2 */
	uint64_t mask;         /* its bits, in the order a value fills them: lowest first */
};

struct perf_pmu {
	char name[64];         /* "cpu", "uncore_imc_0", ... */
	uint32_t type;         /* perf_event_attr.type */
	struct perf_pmu_field fields[PERF_PMU_MAX_FIELDS];
	int nfields;
	char cpumask[4096];    /* the CPUs to open it on ("" when the PMU has no cpumask: every CPU;
				cstate_core: one per core, "0,2,4,..." on a big machine) */
	char cpus[256];        /* a hybrid's core PMU's CPUs (cpu_core, cpu_atom: its "cpus" file), "" */
	struct {               /* events/NAME: the kernel's names ("data_reads" = "event=0x01") */
		char name[32];
		char terms[96];
		double scale;      /* events/NAME.scale: a count times it is in UNIT (1 without) */
		char unit[16];     /* events/NAME.unit ("MiB", "Joules"), "" without */
	} alias[PERF_PMU_MAX_ALIASES];
	int naliases;
	/*
	 * What is wrong in its events/ (an alias naming a term its format
	 * lacks, a scale that is not a positive number), "" nothing: the
	 * discovery of uncore PMUs skips it with this; the core PMU's
	 * aliases that place are used.
	 */
	char why_bad[200];
};

/*
 * The kernel's names of the MSR_PERF_METRICS fields (the core PMU's events/
 * from Ice Lake on), in the register's field order (pmu_regs.h).
 */
extern const char *const perf_topdown_events[PERF_METRICS_FIELDS];

/* The raw configuration of one event: perf_event_attr's type, config, config1, config2. */
struct perf_pmu_config {
	uint32_t type;
	uint64_t config[3];
	enum layout_ring ring;   /* the event's own privilege levels, within the group's */
};

/*
 * Load PMU NAME under ROOT (NULL or "/": this machine).  0, or -errno with
 * one line in ERR: -ENOENT the kernel has no such PMU, -EINVAL a format
 * file it cannot read ("PATH: expected configN:LO-HI[,LO-HI]").
 */
int perf_pmu_load(const char *root, const char *name, struct perf_pmu *out, char *err,
		  size_t errlen);

/*
 * The PMUs under ROOT whose names start with PREFIX ("uncore_imc_"), sorted
 * by name (numbers in order: _2 before _10), into NAMES (up to MAX of them,
 * each 64 bytes).  How many, or -errno when the directory cannot be read.
 * With PREFIX "" every directory, a name no kernel PMU has (see
 * perf_pmu_name_ok) as safe text for the listing's "skipped" lines.
 */
int perf_pmu_list(const char *root, const char *prefix, char (*names)[64], int max);

/* Whether NAME is one the kernel gives a PMU or a sysfs file of one (letters, digits, _ . -). */
bool perf_pmu_name_ok(const char *name);

/*
 * Add format field NAME of TEXT ("config:0-7") to P, as a format file would.
 * 0; -EINVAL for TEXT not in the format; -ENOSPC when P is full.
 */
int perf_pmu_add_field(struct perf_pmu *p, const char *name, const char *text);

/* Add the kernel's event NAME = TERMS ("event=0x01") to P, as its events/ directory would. */
int perf_pmu_add_alias(struct perf_pmu *p, const char *name, const char *terms);

/*
 * The config of P's event NAME (events/NAME's terms through the format
 * fields).  0; -ENOENT no such event; -EINVAL terms the formats cannot place.
 */
int perf_pmu_alias(const struct perf_pmu *p, const char *name, struct perf_pmu_config *c);

/*
 * Put VALUE into field FIELD of P's config words in C.  0; -ENOENT when P
 * has no such field; -ERANGE when VALUE has bits the field has not.
 */
int perf_pmu_set(const struct perf_pmu *p, const char *field, uint64_t value,
		 struct perf_pmu_config *c);

/*
 * The raw config of layout event EV on core PMU P ("cpu"): event, umask,
 * cmask, inv, edge, any and the offcore response through P's format
 * fields.  0, or -errno with ERR naming the field P lacks (a kernel too old
 * for AnyThread, say).
 */
int perf_pmu_encode(const struct perf_pmu *p, const struct layout_event *ev,
		    struct perf_pmu_config *c, char *err, size_t errlen);

#endif
