/*
 * who_snap: what the sample says of who uses the machine (issue 33): the
 * cgroups as a tree and the busiest processes, each with its CPU share,
 * counters per second and resctrl figures, or n/a with the reason.  Made
 * by the sampler's who collector (backend/who), immutable once published
 * with its sample; any thread reads it.
 */
#ifndef PMUTOP_WHO_SNAP_H
#define PMUTOP_WHO_SNAP_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* The who options' limits (--who-top, --who-procs) */
#define WHO_TOP_DEFAULT 16    /* groups counted at once: 16 x 3 events x CPUs open files */
#define WHO_TOP_MAX 256
#define WHO_PROCS_DEFAULT 20  /* process rows, the busiest */
#define WHO_PROCS_MAX 200
#define WHO_MAX_DEPTH 32      /* cgroup levels read below the root */
#define WHO_PATH_MAX 512
#define WHO_NAME_MAX 48

/*
 * The events counted per group: cycles, instructions, cache misses (the
 * kernel's generic ones) and, where the layout has the vendor's events for
 * them, the loads (Intel) or fills (AMD) served by local and by remote
 * memory (who_snap.rmt_events names them).
 */
enum who_ev { WHO_CYCLES, WHO_INSTRUCTIONS, WHO_CACHE_MISSES, WHO_LOCAL_MEM, WHO_REMOTE_MEM,
	      WHO_NEV };

/* The top-down level 1 per row: the layout's roots of the vendor's tree (at most so many) */
#define WHO_TD_MAX 5
#define WHO_TD_NAME_MAX 32

struct who_row {
	char path[WHO_PATH_MAX]; /* a cgroup's under the v2 root ("" the root); a process's cgroup */
	char name[WHO_NAME_MAX]; /* "docker 3f2a9c1b7d4e", "pod 7c1f2a3b", "nginx.service", a command */
	int pid;                 /* a process row: its PID; 0 a cgroup */
	int depth;               /* a cgroup's depth below the root (its children: 0) */
	int parent;              /* the parent cgroup's row, -1 */
	int nprocs;              /* processes in it and under it */
	double cpus;             /* CPU time / interval: 1 = one CPU busy; NaN unknown */
	double ev[WHO_NEV];      /* counts per second; NaN n/a */
	double oncpu;            /* CPUs its counted tasks ran on, from the counters' own times; NaN */
	bool counted;            /* figures from this interval (a parent: from its children) */
	bool partial;            /* a parent: some groups under it had no figures */
	bool scaled;             /* the kernel multiplexed them */
	double age_s;            /* figures from its last turn, this old (0: this interval) */
	double mbm_total, mbm_local; /* resctrl: bytes per second to memory, all and local; NaN */
	double llc;              /* resctrl: bytes of L3 it holds; NaN */
	char why[200];           /* the counters are n/a: why, and what to do */
	char rdt_why[160];       /* the resctrl figures are n/a: why */
	char where[96];          /* the CPUs it may run on (cpuset.cpus.effective), "" unknown */
	double td[WHO_TD_MAX];   /* the top-down level 1 (who_snap.td_name's metrics, their unit); NaN */
};

struct who_snap {
	bool available;          /* a cgroup v2 tree was found */
	char why[240];           /* not available: why and what to do */
	int nrows;
	struct who_row *rows;    /* the cgroups, parents before children, then the processes */
	int ncgroups;            /* the first NCGROUPS rows are cgroups */
	int counted;             /* cgroups with figures from this interval */
	int candidates;          /* cgroups holding processes (those counted one by one) */
	int top;                 /* counted at once */
	bool counting;           /* --who: counters per cgroup and process */
	char note[512];          /* how they were counted this interval, "" when not counting */
	char rdt_note[240];      /* resctrl: what was read, or why nothing */
	/*
	 * The top-down level 1 per row (--who-topdown, or T in the who pane):
	 * the vendor's level-1 metrics of the layout, by their names, counted
	 * per cgroup and process beside the three events; NTD 0 when not, with
	 * TD_WHY saying why (not asked for, or what the platform lacks).
	 */
	int ntd;
	char td_name[WHO_TD_MAX][WHO_TD_NAME_MAX];
	/* the remote-memory share's events (the vendor's names; "" none, RMT_WHY says why) */
	char rmt_events[2][64];
	char rmt_why[160];
	char td_unit[8];
	char td_why[200];
};

/* Instructions per cycle of row R, NaN when it has no figures. */
static inline double who_row_ipc(const struct who_row *r)
{
	return r->ev[WHO_CYCLES] > 0 ? r->ev[WHO_INSTRUCTIONS] / r->ev[WHO_CYCLES] : NAN;
}

/*
 * Its clock: cycles per second of the time it ran while counted (the
 * kernel keeps a cgroup's and a task's events' times as its own), else of
 * its CPU time; NaN when it had almost none.
 */
static inline double who_row_ghz(const struct who_row *r)
{
	double t = r->oncpu > 1e-3 ? r->oncpu : r->cpus;

	return t > 1e-3 && r->ev[WHO_CYCLES] >= 0 ? r->ev[WHO_CYCLES] / t / 1e9 : NAN;
}

/* Last-level cache misses per thousand instructions, NaN when not counted. */
static inline double who_row_mpki(const struct who_row *r)
{
	return r->ev[WHO_INSTRUCTIONS] > 0 ? r->ev[WHO_CACHE_MISSES] / r->ev[WHO_INSTRUCTIONS] * 1e3
					   : NAN;
}

/* The share of its memory accesses (loads or fills from DRAM) that went to a remote node, NaN. */
static inline double who_row_remote(const struct who_row *r)
{
	double all = r->ev[WHO_LOCAL_MEM] + r->ev[WHO_REMOTE_MEM];

	return all > 0 ? r->ev[WHO_REMOTE_MEM] / all : NAN;
}

/*
 * The figures of a who row, once, in the long CSV's order (after its path,
 * name and PID): the key every writer names it by (the batch JSON's and a
 * recording's; the CSV's is "who_" KEY), its type, where a stored one is
 * (replay reads it back) or how a computed one follows from them, and how
 * the batch text table, the who pane and Prometheus show it.  Every writer
 * of who rows (batch_who.c, prom.c), replay (replay_who.c) and the who pane
 * walk it: a new figure of a row is its field (a stored one, and its
 * reading in backend/who) or its function, and a row here.
 */
enum who_col_type {
	WHO_COL_NUM,     /* a double, NaN n/a (JSON null, an empty CSV field) */
	WHO_COL_INT,     /* an int */
	WHO_COL_BOOL,    /* a bool */
	WHO_COL_TEXT,    /* a string of its room; JSON null for "" where null_empty */
	WHO_COL_TOPDOWN, /* td[]: by who_snap.td_name (JSON an object, CSV NAME=VALUE;...) */
};

/* How the batch text table or the who pane shows a figure: heading, width, decimals */
struct who_col_show {
	const char *head; /* NULL: not shown there */
	int width, prec;
};

struct who_col {
	const char *key;
	enum who_col_type type;
	size_t offset, size; /* a stored value's in struct who_row (TEXT: its room) */
	double (*get)(const struct who_row *r); /* computed: from the stored figures; else NULL */
	bool csv;            /* a column of the long CSV */
	bool null_empty;     /* TEXT: JSON null when "" */
	bool counted;        /* from the counters: marked '~' (an earlier turn's) or '*' (scaled) */
	double scale;        /* shown x this (0: 1): MB/s from bytes/s, % from a share */
	struct who_col_show text, pane;
	bool heat;           /* the pane shades it against the largest shown */
	const char *about;   /* what the pane's explain (e) says of it (the first figures say more) */
	/*
	 * Prometheus: its family (NULL: none), a label of its series ("kind=\"total\","),
	 * cgroups only; the family's help on its first column
	 */
	const char *prom, *prom_label, *prom_help;
	bool prom_cgroups;
};
extern const struct who_col who_cols[];
extern const int who_ncols;

/* Column C's figure of row R (INT and BOOL as numbers), NaN n/a; TEXT and TOPDOWN: NaN. */
double who_col_value(const struct who_col *c, const struct who_row *r);

/* Column C's figure of R as the text table and the pane show it: x its scale, NaN n/a. */
double who_col_shown(const struct who_col *c, const struct who_row *r);

/* The mark of a counted figure of R: '~' an earlier turn's, '*' scaled, else ' '. */
char who_col_mark(const struct who_col *c, const struct who_row *r);

/* Free S (NULL: nothing). */
void who_snap_free(struct who_snap *s);

#endif
