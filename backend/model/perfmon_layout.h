/*
 * perfmon_layout: a layout (layouts/README.md) made from Intel's data for
 * one platform and one machine, so that everything downstream (engine,
 * sources, screen, recordings, viewers) counts the vendor's metrics as it
 * counts a hand-written layout's.
 *
 * Keys 1 to 6 are the levels of the vendor's top-down tree, key 7 its other
 * top-down metrics (TMA "Info"), key 8 the rest of its metrics: each key's
 * metrics are packed into groups that fit the counters (perfmon_plan), the
 * groups of one key taking turns.  A metric is written over the vendor's
 * event names with the machine's constants in place (SMT on, threads per
 * core, sockets, cores, CPUs; the TSC rate and the interval as the
 * layout's built-ins tsc_hz and seconds).  Fixed counters 0-2 are the
 * built-ins instructions, cycles and ref_cycles, fixed counter 3 and
 * PERF_METRICS (where the machine has them) slots and topdown_*; an any-thread cycle count
 * is counted on a general-purpose counter as the kernel does.  A tree node
 * that cannot be counted here is an "unavailable" line with the reason;
 * another metric that cannot is a comment.  Pure; any thread.
 */
#ifndef PMUTOP_PERFMON_LAYOUT_H
#define PMUTOP_PERFMON_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "perfmon.h"

/* What the layout is made for: the machine and its counters. */
/* RAPL's domains as the power PMU names them (events/energy-*) */
#define PERFMON_RAPL_CORES 1u
#define PERFMON_RAPL_PKG 2u
#define PERFMON_RAPL_RAM 4u
#define PERFMON_RAPL_PSYS 8u

struct perfmon_own;

struct perfmon_layout_config {
	int gp_counters;      /* general-purpose counters per thread */
	bool ht_on;           /* SMT on (the vendor's HYPERTHREADING_ON) */
	int threads_per_core;
	int sockets, cores_per_socket, cpus;
	bool slots;           /* fixed counter 3 and MSR_PERF_METRICS (the built-ins slots, topdown_*) */
	/* the kernel's uncore boxes per socket (perfmon_uncore.h), 0 when it has none */
	int chas, channels, upi_links;
	int l3s;              /* AMD: the L3s (CCXs) per socket amd_l3 counts on */
	int imc_free;         /* a client's free-running memory-controller PMUs */
	unsigned rapl;        /* RAPL domains of the power PMU: PERFMON_RAPL_* bits; 0 unknown */
	/*
	 * A hybrid CPU's E-cores (perfmon_load_cores): their events and metrics,
	 * counted beside the P-cores' in groups bound to each kind ("coretype"),
	 * the groups of a key one kind's after the other's; NULL: one kind.
	 */
	bool e_cores;         /* the machine's E-cores are online (hwloc's IntelAtom kind) */
	const struct perfmon *atom;
	int atom_gp_counters; /* an E-core's general-purpose counters (0: from the data's events) */
	/* where pmutop's own groups are (LAYOUT_DIR/own, NAME.layout); NULL: paths_layout_dir's */
	const char *layout_dir;
	const struct perfmon_own *own; /* those files, read by perfmon_layout (its own copy's) */
};

/*
 * The layout for P on C, made through layout_build (its messages name
 * FILE): *OUT (NULL: not wanted) and *TEXT (NULL: not wanted; every line
 * with the comments that say what is not counted and why, malloc'd).  0, or
 * -EINVAL with ERR (a configuration out of range, a line the layout
 * language refuses), -errno with ERR (pmutop's own files).
 */
struct layout;
int perfmon_layout(const struct perfmon *p, const struct perfmon_layout_config *c,
		   const char *file, struct layout **out, char **text, char *err, size_t errlen);

/* The layout's name for vendor name NAME: ':' of the modifiers as '.', a leading digit after '_'. */
void perfmon_layout_name(const char *name, char *buf, size_t len);

/*
 * The layout's header for P on C into B: its source and licence, the
 * machine, the vendor and offcore lines (the events reading the offcore
 * response registers into OCR), the metrics every layout has.
 */
struct layout_build;
void perfmon_layout_header(struct layout_build *b, const struct perfmon *p,
			   const struct perfmon_layout_config *c, bool amd, unsigned ocr[2]);

/* The general-purpose counters the events of P name: the highest listed, plus one. */
int perfmon_layout_counters(const struct perfmon *p);

#endif
