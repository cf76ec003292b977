/*
 * who_int: the who collector's state across intervals, shared by who.c (the
 * snapshot), who_tree.c (the cgroup tree and the processes), who_count.c
 * (their counters) and who_rdt.c (resctrl).  Not for any other module.
 * Sampler thread.
 */
#ifndef PMUTOP_WHO_INT_H
#define PMUTOP_WHO_INT_H

#include <stdatomic.h>

#include "perf.h"
#include "who.h"

/* What a counted cgroup or process had: its figures and where they stand. */
struct who_fig {
	bool counting;           /* its groups are open */
	bool fresh;              /* opened at this look: figures from the next */
	struct perf_group *g;    /* per CPU (a cgroup), per core PMU (a process) */
	int ng;
	int dirfd;               /* a cgroup's directory, held while counted */
	double ev[WHO_NEV];      /* per second at its last figures; NaN n/a */
	double oncpu;            /* CPUs it ran on while counted (the events' times), NaN */
	bool have;               /* it has had figures */
	double t;                /* when */
	bool scaled;
	char why[200];           /* n/a: why */
	/* the top-down group (who_td.c): per CPU or per process, beside G */
	struct perf_group *tg;
	int ntg;
	double td_ev[PERF_GROUP_MAX]; /* its events per second at the last figures; NaN */
	bool td_have;            /* TD_EV are of the figures' interval */
};

struct who_cg {
	char path[WHO_PATH_MAX];
	char name[WHO_NAME_MAX];
	int depth, parent;       /* parent: index into who.cg, -1 */
	int nprocs;              /* processes in it alone */
	double usage_s, prev_s;  /* cpu.stat's usage_usec in seconds, now and at the read before */
	double t_read, t_prev;   /* when they were read (who_scan.c spreads the idle ones' reads) */
	bool have_prev, looked;  /* usage read at the look before; read at all */
	bool system;             /* its directory is root's (or the starting user's): the machine's own */
	bool hot;                /* it or a cgroup under it holds processes: read at every look */
	double cpus;             /* CPUs busy over the interval, NaN */
	char where[96];
	struct who_fig fig;
	double mbm_total, mbm_local, llc; /* resctrl, NaN */
	char rdt_why[160];
};

struct who_proc {
	int pid;
	char comm[32];
	char cgroup[WHO_PATH_MAX];
	double ticks, prev_ticks;
	bool have_prev, seen;
	double cpus;
	struct who_fig fig;
};

/* A resctrl monitoring group (or the default group, name ""): its counters at the last look. */
struct who_mon {
	char name[256];
	char cgroup[WHO_PATH_MAX]; /* the cgroup holding all its tasks */
	bool mapped, has_tasks;  /* CGROUP looked for; it had tasks to find it by */
	double prev[WHO_MAX_DOMAINS][2];
	bool have_prev[WHO_MAX_DOMAINS];
	bool seen;
};

/*
 * The top-down level 1 as the layout defines it: its roots' formulas, over
 * the built-ins (instructions and cycles from the three events' group;
 * slots and the topdown-* fields) and core events, read per cgroup or
 * process from one more group: "slots" leading the topdown-* fields where
 * the formulas read them, then the events.
 */
struct who_td {
	int n;                         /* roots counted (0: n/a, WHY) */
	int metric[WHO_TD_MAX];        /* their indexes in the layout */
	int nev;                       /* the group's events */
	struct perf_pmu_config cfg[PERF_GROUP_MAX];
	int var[PERF_GROUP_MAX];       /* each event's variable in the layout's space */
	layout_groups groups;               /* the layout's groups whose metrics level 1 reads */
	double *vars;                  /* the variables while evaluating (layout_nvars) */
	char why[200];
};

/*
 * The remote-memory share: the vendor's events for the loads or fills from
 * local and from remote memory, found by name in the layout, counted in each
 * group beside the generic events (who_td.c's who_rmt_init).
 */
struct who_rmt {
	bool on;
	struct perf_pmu_config cfg[2];  /* local, remote */
	char name[2][64];
	char why[160];
};

struct who {
	struct who_config cfg;
	struct who_rmt rmt;
	atomic_bool wanted;
	atomic_bool td_wanted;
	bool td_on;              /* the top-down groups are open where the others are */
	struct who_td td;
	char root[4096];
	struct perf_access access;
	struct who_cg *cg;
	int ncg;
	int *idx;                /* cg by path: an open-addressing table of WHO_INDEX slots, -1 empty */
	long left_out;           /* cgroups found and not kept (WHO_MAX_CGROUPS): none with processes */
	long found;              /* cgroups the last whole walk of the tree found, 0 before one ended */
	bool counting;           /* a walk under way has found more: LEFT_OUT is a least */
	struct who_walk *walk;   /* the walk of the tree in steps (who_scan.c) */
	int refresh_at;          /* the idle cgroups read in turns from here */
	long looks;
	double scan_s;           /* the last look's scan, in seconds */
	bool v2;                 /* a cgroup v2 tree is there */
	const char *cg_base;     /* where: sys/fs/cgroup, or systemd's hybrid sys/fs/cgroup/unified */
	char why[240];
	struct who_proc *pr;
	int npr;
	long clk_tck;
	double t, dt;            /* this look's time, the interval since the last */
	bool have_t;
	int rot;                 /* the rotation's place among the groups beyond the busiest */
	int top;                 /* counted at once (the open-file limit may lower cfg.top) */
	char count_note[240];
	char td_note[240];       /* the top-down level 1 was asked for and is not counted: why */
	char td_fail[240];       /* the kernel refused a group of it: whose, and why */
	bool no_misses;          /* the kernel has no cache-misses event: two events a group */
	struct who_mon *mon;
	int nmon;
	char rdt_note[240];
	int rdt_looks;           /* resctrl read so many times */
	double rdt_dflt[3];      /* the default group's (tasks in no monitoring group): B/s, B/s, bytes */
};

/* ---- who_scan.c ---- */

#define WHO_INDEX (4 * WHO_MAX_CGROUPS)
#define WHO_CGROUP_REREAD 8 /* a known process's cgroup read again one look in so many */

/*
 * Read the cgroup tree: the cgroups that matter kept (every one with
 * processes, the busiest first, then the machine's own, then the rest, to
 * WHO_MAX_CGROUPS), their CPU time read, the vanished gone; the rest of
 * the tree walked in steps within a time budget.  After who_procs_scan.
 */
void who_tree_scan(struct who *w);
void who_scan_free(struct who *w);

/* ---- who_tree.c ---- */

/* Read the processes: their CPU time and cgroup, the gone removed, the busiest first. */
void who_procs_scan(struct who *w);
/* What a cgroup directory NAME is, for a person ("docker 3f2a9c1b7d4e", "pod ...", NAME) into OUT. */
void who_name(const char *name, char *out, size_t len);
/* The CPU time in the cpu.stat under DFD, in seconds; NaN when unreadable. */
double who_usage(int dfd);
/* The cgroup of PID (/proc/PID/cgroup's v2 line) into BUF ("" the root); 0 or -errno. */
int who_pid_cgroup(const struct who *w, int pid, char *buf, size_t len);
/* Open REL under W's root (ROOT) without following a link at any step: an fd, or -errno. */
int who_open(const struct who *w, const char *rel, int flags);
int who_open_at(const char *root, const char *rel, int flags);
/* Read NAME under directory DFD (a regular file, no link) into BUF (LEN > 0): its length or -errno. */
int who_readat(int dfd, const char *name, char *buf, size_t len);
/* Read a small file REL under W's root into BUF: its length, or -errno. */
int who_read(const struct who *w, const char *rel, char *buf, size_t len);
/* The index of cgroup PATH, or -1. */
int who_cg_find(const struct who *w, const char *path);

/* ---- who_td.c ---- */

/* Find the layout's level 1 and encode its events (W->td; n/a with why). */
void who_td_init(struct who *w);
void who_td_free(struct who *w);
/*
 * The level-1 figures into OUT[W->td.n] from the three events per second
 * EV and the top-down group's per second TD_EV (NaN where any is missing).
 */
void who_td_eval(struct who *w, const double *ev, const double *td_ev, double *out);

/* Find the remote-memory events in the layout (W->rmt; none: why). */
void who_rmt_init(struct who *w);

/* ---- who_count.c ---- */

/* Events in each group (the generic ones the kernel has, the remote-memory pair). */
int who_group_events(const struct who *w);

/* Read the open groups, choose the groups counted next, open and close to match. */
void who_count(struct who *w);
/* Of TOP places, those the groups beyond the busiest take in turns, with CANDIDATES groups. */
int who_turn_places(int top, int candidates);
/* Close every group of W. */
void who_count_close(struct who *w);
/* Close F's groups (kept: its figures). */
void who_fig_close(struct who_fig *f);

/* ---- who_rdt.c ---- */

/* Read the resctrl groups and put their figures on the cgroups (NaN with the reason where none). */
void who_rdt_read(struct who *w);

#endif
