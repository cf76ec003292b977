/*
 * sample: one tick's figures, as the front ends see them.
 *
 * The sampler builds a sample, publishes it, and never touches it again:
 * a sample is immutable once published and is freed when its last holder
 * lets go (sample_release), so the UI may keep one while drawing and the
 * sampler never waits for it.
 *
 * Values follow the "n/a, never 0" rule: a metric that is not live (its
 * group is off or blocked), not defined at a scope, or not computable
 * (division by zero) is NaN.  A value estimated from a share of the
 * interval (its group was rotated with others) is marked scaled.
 */
#ifndef PMUTOP_SAMPLE_H
#define PMUTOP_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "throttle.h"
#include "who_snap.h"

/* The longest reason a group is blocked for (with the fix in it). */
#define SAMPLE_WHY_MAX 320

struct sample_entity {
	int index;      /* thread: OS CPU number; core: index into topo cores; socket: topo socket
			 * index; channel: the channel's number in its socket's memory controller */
	int core;       /* topo core index (threads and cores) */
	int socket;     /* topo socket index */
	int os_core_id; /* OS core id (threads and cores), -1 when unknown */
	int os_socket_id;
	double *vars;   /* layout_nvars() values: built-ins, events, metrics */
	double *raw;    /* per layout event: the count as read, before scaling to the interval
			 * (NaN when not counted); vars holds the scaled counts */
	/*
	 * per layout event: the seconds its count was live, which vars scales
	 * to the sample's interval_s (scaled = raw x interval_s / live); NaN
	 * where the count sums several windows (a core's, a socket's threads)
	 */
	double *live;
	/*
	 * the fixed counters as read (NaN not counted) over the seconds each
	 * counted: FIXED_WINDOW, or where that is NaN WINDOW, the thread's own
	 */
	double fixed_raw[4];
	double fixed_window[4];
	double window;
};

enum sample_group_state {
	SAMPLE_GROUP_OFF,      /* not selected */
	SAMPLE_GROUP_LIVE,     /* counted the whole interval */
	SAMPLE_GROUP_ROTATING, /* counted a share of the interval, figures scaled */
	SAMPLE_GROUP_BLOCKED,  /* selected but cannot be programmed (see why) */
};

/* "off", "live", "rotating", "blocked": a state's name in the batch output and recordings. */
extern const char *const sample_group_state_names[4];

struct sample_group {
	enum sample_group_state state;
	double live_share;     /* share of the interval it was counted (measured; NaN unknown) */
	char why[SAMPLE_WHY_MAX]; /* BLOCKED: the reason */
};

/*
 * A figure that cannot be true (plausibility checks of the uncore): it is
 * still shown, with a mark, and WHY says what is wrong with it.
 */
struct sample_flag {
	int socket;            /* topo socket index */
	int channel;           /* -1: the socket's figure */
	int metric;            /* layout metric index, -1: every figure of the entity */
	char why[200];
};

/*
 * The throttle table's figures, once, in its columns' order (after the
 * socket's id): JSON's column, the long CSV's figure, its unit, where a
 * socket's value is.  The writers (JSON's throttle table, the long CSV) and
 * a recording's reader walk it: a new figure of the kernel's
 * thermal_throttle files is its field, its reading (throttle.c) and a row.
 */
struct sample_throttle_col {
	const char *name;        /* JSON's column: "package_events" */
	const char *figure;      /* the long CSV's name: "throttle_package_events" */
	const char *unit;        /* "events", "ms", "cores" */
	size_t offset;           /* of its value in struct sample_throttle_socket */
	bool whole;              /* an int there (a count of cores), else a double (NaN: not read) */
	bool power_limit;        /* counted only where the kernel counts power-limit notifications */
	/*
	 * Prometheus: the family it is a series of (NULL: none), the series'
	 * scope label ("package", "core") and whether it is a share of the
	 * counters' window (milliseconds over the window's, the cores' as their
	 * mean: the family exists where the kernel gives the time); the
	 * family's help on its first column
	 */
	const char *prom;
	const char *prom_scope;
	bool prom_share;
	const char *prom_help;
};
extern const struct sample_throttle_col sample_throttle_cols[];
extern const int sample_throttle_ncols;

/* Column C's value of socket X, NaN where not read; and setting it. */
double sample_throttle_get(const struct sample_throttle_socket *x, const struct sample_throttle_col *c);
void sample_throttle_set(struct sample_throttle_socket *x, const struct sample_throttle_col *c, double v);

/*
 * The sockets that throttled in S's interval, for a person: "S0: package
 * 150 ms (3 events), 56 cores, power limit 4 package, 12 core
 * notifications" joined with "; " into BUF; false (BUF "") when none did
 * or nothing was read.
 */
struct sample;
bool sample_throttle_text(const struct sample *s, char *buf, size_t len);

/*
 * The kinds of entity a sample has figures for (sample_kind.h has a row of
 * each), in the order the writers write them.  Their numbers are
 * batch_opts.scopes' bits (--per-thread ... --per-cha): the first four are
 * enum layout_scope's.
 */
enum sample_kind_id {
	SAMPLE_KIND_THREAD,
	SAMPLE_KIND_CORE,
	SAMPLE_KIND_SOCKET,
	SAMPLE_KIND_CHANNEL,
	SAMPLE_KIND_CHA,
	SAMPLE_NKINDS
};

/*
 * A socket's parts whose rows a sample stores, each kind in one array of
 * nsockets x per rows, socket-major: the memory channels with figures; the
 * CHAs one by one (a server's uncore_cha_N, whose counts the socket's
 * figures sum), each with the CHA groups' metrics of that CHA alone (raw
 * and live NULL).  A kind that is a socket's part takes its value of enum
 * sample_kind_id and its row of sample_kinds[] (.part), nothing else here.
 */
struct sample_part {
	int per;                    /* rows a socket, 0: none */
	struct sample_entity *rows; /* nsockets x per, socket-major; NULL: none */
};

struct sample {
	uint64_t seq;
	double time;           /* wall clock at the end of the interval, seconds since the epoch */
	double interval_s;     /* measured length of the interval */
	double skew_us;        /* latest minus earliest CPU read of the final sweep; batched: the call's length */
	bool batched;          /* the final sweep read every CPU in one batch call (msr_read_batch) */
	/*
	 * The first sample's short interval (ENGINE_FIRST_S: figures at once),
	 * shorter than the one asked for: its figures are a warm-up's
	 */
	bool warmup;
	double rotation_s;     /* groups take turns in slices this long; 0: no rotation */
	const char *source;    /* "msr", "msr_safe", "sim nehalem-ep:memory-bound", ... */
	bool simulated;
	const struct layout *layout;
	int nthreads, ncores, nsockets;
	struct sample_entity *threads, *cores, *sockets;
	struct sample_part parts[SAMPLE_NKINDS]; /* a socket's parts by kind; the rest unused */
	struct sample_flag *flags;
	int nflags;
	int unc_usable;        /* programmable uncore counters per socket (per box on Skylake), 0: none */
	struct sample_group *groups; /* layout->ngroups */
	bool *metric_scaled;   /* layout->nmetrics */
	int gp_usable;         /* general-purpose counters pmutop may use per thread */
	int gp_used;           /* of those, the most one set of groups programs */
	int resets;            /* counters found reset by someone else this interval */
	struct who_snap *who;  /* who uses the machine (who_snap.h), or NULL */
	struct sample_throttle *throttle; /* the interval's throttling, or NULL (not looked at) */
	char warning[512];     /* shown in the header; "" when none */
	char error[512];       /* the sampler failed: what happened and what to do */
	int refs;              /* holders; use sample_ref / sample_release */
};

/*
 * Compute every metric of S from its inputs (each entity's built-ins and
 * event counts in vars), as the sampler does: at the scopes a metric is
 * defined for, only for groups that counted (live or rotating), NaN where
 * the result is not finite; an entity without figures (its thread count
 * n/a; a socket without seconds) keeps n/a.  For a recording's replay.
 */
void sample_recompute(struct sample *s);

/*
 * The metrics of L defined at SCOPE into VARS from their inputs there, for
 * the groups COUNTED(CTX, g) says counted; NaN where a result is not finite.
 */
void sample_eval_metrics(const struct layout *l, double *vars, enum layout_scope scope,
			 bool (*counted)(const void *ctx, int g), const void *ctx);

/*
 * The CHA groups' metrics of each of S's CHAs (sample_box) from its
 * inputs, whose counts stand for the socket's (x the CHAs): a rate (a unit
 * per second) is then divided by the CHAs, the CHA's share; a latency or a
 * ratio is its own.  For the sampler and a recording's replay.
 */
void sample_eval_boxes(struct sample *s);

/* Whether layout L's event K, or metric M, is one of the CHAs' own (sample_box). */
bool sample_box_event(const struct layout *l, int k);
bool sample_box_metric(const struct layout *l, int m);

/* A blank sample for LAYOUT with the given entity counts; refs = 1. */
struct sample *sample_new(const struct layout *layout, int nthreads, int ncores, int nsockets);

/*
 * Give S PER rows of part P a socket (all n/a), with raw counts and live
 * seconds unless the kind keeps some events alone (sample_kind.keeps: the
 * CHAs, whose rows have their own figures only, raw and live NULL).
 */
void sample_add_part(struct sample *s, enum sample_kind_id p, int per);

/* Rows of part P a socket in S, 0: none. */
int sample_part_per(const struct sample *s, enum sample_kind_id p);

/* Row I of part P of socket SOCKET, or NULL. */
struct sample_entity *sample_part(const struct sample *s, enum sample_kind_id p, int socket, int i);

/* Whether E is one of S's rows of part P. */
bool sample_in_part(const struct sample *s, enum sample_kind_id p, const struct sample_entity *e);

/* A socket's part E (a channel, a CHA) numbered INDEX there: no core. */
void sample_entity_ids(struct sample_entity *e, int index, int socket, int os_socket_id);

/* The parts pmutop's own code names: the memory channels and the CHAs. */
static inline int sample_nchannels(const struct sample *s)
{
	return sample_part_per(s, SAMPLE_KIND_CHANNEL);
}
static inline struct sample_entity *sample_channel(const struct sample *s, int socket, int ch)
{
	return sample_part(s, SAMPLE_KIND_CHANNEL, socket, ch);
}
static inline int sample_nboxes(const struct sample *s)
{
	return sample_part_per(s, SAMPLE_KIND_CHA);
}
static inline struct sample_entity *sample_box(const struct sample *s, int socket, int b)
{
	return sample_part(s, SAMPLE_KIND_CHA, socket, b);
}

/* Record a flag on metric M (-1: all) of SOCKET's channel CH (-1: the socket). */
void sample_flag(struct sample *s, int socket, int ch, int m, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The flag on metric M of SOCKET / channel CH (-1 for the socket's), or NULL. */
const struct sample_flag *sample_flag_find(const struct sample *s, int socket, int ch, int m);

/*
 * Take and let go of a published sample.  A published sample is const for
 * everyone: only its holder count changes, which is why these take a const
 * pointer.
 */
const struct sample *sample_ref(const struct sample *s);
void sample_release(const struct sample *s);

/* The value of metric M of entity E (NaN when not available). */
double sample_metric(const struct sample *s, const struct sample_entity *e, int m);

#endif
