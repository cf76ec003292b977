/*
 * perfmon_layout_int: the state of a layout being made from the vendor's
 * data, shared by perfmon_layout.c (keys, groups, metrics) and
 * perfmon_layout_reads.c (the groups of other keys a key's wide metrics
 * read).  Not for any other module.
 */
#ifndef PMUTOP_PERFMON_LAYOUT_INT_H
#define PMUTOP_PERFMON_LAYOUT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "layout.h"
#include "perfmon.h"
#include "perfmon_keys.h"
#include "perfmon_layout.h"
#include "perfmon_plan.h"

#define PL_KEYS PERFMON_KEYS
/* a rendered formula (Sapphire Rapids' Bottleneck_Other_Bottlenecks: 77 kB) */
#define PL_FORMULA_MAX 262144

/* What becomes of a vendor metric in the layout. */
enum pl_state { PL_ABSENT, PL_TOP, PL_GROUP, PL_SPLIT, PL_UNAVAILABLE };

struct pl_metric {
	enum pl_state state;
	int key;             /* 1..PL_KEYS */
	int pass;            /* its group within the key's (PL_GROUP, PL_SPLIT) */
	char why[200];       /* PL_UNAVAILABLE, or a comment for one left out */
};

struct pl_key {
	struct perfmon_plan *plan;
	int first_group;     /* the layout's group index of its pass 0, -1 none */
};

struct pl_gen {
	const struct perfmon *p;
	int budget;          /* the general-purpose counters a layout may name (at most PMU_MAX_GP) */
	const struct perfmon_layout_config *c;
	unsigned flags;      /* PERFMON_PLAN_LAYOUT, and PERFMON_PLAN_SLOTS where the machine has them */
	bool tma;            /* the metric rendered now is one of the vendor's TMA metrics */
	bool amd;            /* AMD's data (data/amd): 12-bit event selects */
	struct perfmon_keyset keyset; /* the keys' names and titles, which key a metric goes to */
	unsigned ocr[2];     /* the events reading MSR_OFFCORE_RSP_0 and _1 (offcore line) */
	uint64_t ocr_value[2]; /* in the group written now: the value each one holds */
	bool ocr_used[2];
	struct layout_build *b; /* the layout being made */
	double *known;       /* per perfmon variable: the constants of this machine, else NaN */
	bool *needed;        /* per perfmon variable: read by the metric rendered now */
	struct pl_metric *pm;
	struct pl_key keys[PL_KEYS + 1];
	int ngroups;
	char why[200];       /* what stopped the metric rendered now, "" none */
	char *buf;           /* PL_FORMULA_MAX bytes: the formula rendered now */
	/*
	 * A hybrid CPU: the kind of core these metrics are of (coretype core or
	 * atom; ANY on a CPU of one kind), the E-cores' event names prefixed so
	 * that they never meet the P-cores' of the same name.
	 */
	enum layout_coretype coretype;
	const char *prefix;
};

/*
 * The groups of the keys before K (their ordinals among the layout's
 * groups): per event variable of G's data, the first that counts it, else
 * -1 (FOREIGN, one per event).
 */
void perfmon_layout_foreign(const struct pl_gen *g, int k, int *foreign);

/* The name of pass S of key K's group in G's layout ("TmaL3.2", an E-core's "E_TmaL3.2") into BUF. */
void perfmon_layout_group_name(const struct pl_gen *g, int k, int s, char *buf, size_t len);

/* Key PL's "reads" line: the groups of other keys its wide metrics read; none when they read none. */
void perfmon_layout_reads_line(struct pl_gen *g, const struct perfmon_plan *pl);

#endif
