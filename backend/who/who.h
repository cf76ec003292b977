/*
 * who: whose job is using the machine (issue 33).
 *
 * Each interval the sampler reads the cgroup v2 tree (ROOT/sys/fs/cgroup:
 * every group's cpu.stat, cgroup.procs and cpuset.cpus.effective), the
 * processes (ROOT/proc/PID: stat, cgroup) and the resctrl monitoring groups
 * (ROOT/sys/fs/resctrl: per L3 domain mbm_total_bytes, mbm_local_bytes,
 * llc_occupancy) and, with counting on (--who), counts the busiest groups
 * through perf_event_open(2): per cgroup and CPU with PERF_FLAG_PID_CGROUP
 * (CAP_PERFMON or perf_event_paranoid <= 0), per process on every CPU (a
 * user's own processes at paranoid <= 2).  At most TOP groups are counted
 * at once (one group of 3 to WHO_NEV events per CPU each): the busiest by CPU
 * time, the rest taking turns in the remaining quarter of the places, their
 * figures kept from their last turn and marked with its age.  Everything
 * is read, nothing is written (resctrl groups are never created).  Files
 * are opened below ROOT without following links.  The result is an
 * immutable snapshot hung on the sample.  Sampler thread (who_create: main).
 */
#ifndef PMUTOP_WHO_H
#define PMUTOP_WHO_H

#include <stdbool.h>
#include <stddef.h>

#include "who_snap.h"

#define WHO_MAX_CGROUPS 4096  /* a tree larger than this is cut (said in the note) */
#define WHO_MAX_DOMAINS 64    /* resctrl L3 domains read */

struct perf_sys;
struct perf_pmu;
struct perf_access;
struct layout;

struct who_config {
	const char *root;                 /* the machine's root; NULL "/" */
	bool count;                       /* count per cgroup and process (--who) */
	const char *count_why;            /* not counting: why the counters are n/a */
	const struct perf_sys *perf;      /* NULL: the kernel's system calls */
	const struct perf_access *access; /* for the messages (NULL: read under ROOT) */
	const int *cpus;                  /* the OS CPUs a cgroup is counted on */
	int ncpus;
	/* a hybrid: each CPU's core PMU type (by OS CPU number, NTYPES; 0 the generic events') */
	const unsigned *cpu_type;
	int ntypes;
	int top;                          /* groups counted at once (0: WHO_TOP_DEFAULT) */
	int procs;                        /* process rows (0: none) */
	/* before each look: an emulated machine brings its files up to date (else NULL) */
	void (*refresh)(void *ctx);
	void *refresh_ctx;
	/* at every look, wanted or not: --who-resctrl's groups take the cgroups' new processes */
	/* (what could not be done, for the resctrl note: NULL when all went well) */
	const char *(*follow)(void *ctx);
	void *follow_ctx;
	bool simulated;
	const char *unavailable;          /* no one to show here: why (an emulated machine's) */
	/*
	 * The top-down level 1 per cgroup and process (who_td.c): the run's
	 * layout, whose roots of the vendor's tree are counted, and the core
	 * PMU its events are encoded for (NULL: n/a, said why).
	 */
	const struct layout *layout;
	const struct perf_pmu *perf_cpu;
};

struct who;

/* 0, or -errno with one line in ERR (a bad option; the machine's state is the snapshot's). */
int who_create(const struct who_config *cfg, struct who **out, char *err, size_t errlen);

/* The interval that ends at T (seconds on any steady clock): a snapshot the caller owns. */
struct who_snap *who_collect(struct who *w, double t);

/* Whether the figures are wanted (any thread): when not, who_collect reads nothing and closes its counters. */
void who_set_wanted(struct who *w, bool on);

/* Whether the top-down level 1 is counted too (any thread): from the next look on. */
void who_set_topdown(struct who *w, bool on);

void who_free(struct who *w);

/*
 * --who-resctrl: a resctrl monitoring group for each cgroup of LIST (paths
 * under the cgroup v2 root, comma-separated) under ROOT, holding its
 * processes (who_mk.c); refused when resctrl's RMIDs would run out; removed
 * by who_mk_remove, or by a guard process when pmutop is killed.  0, or
 * -errno with one line in ERR (nothing made).
 */
struct who_mk;
int who_mk_groups(const char *root, const char *list, struct who_mk **out, char *err,
		  size_t errlen);
void who_mk_remove(struct who_mk *m);
/* Move the processes that joined the groups' cgroups since the last call into them (the sampler). */
/* NULL, or what could not be done (a process not moved: the first reason), until the next call. */
const char *who_mk_follow(struct who_mk *m);

#endif
