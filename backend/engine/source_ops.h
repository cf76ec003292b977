/*
 * source_ops: what a counter source implements for the engine.
 *
 * The engine runs one loop (engine.c) over these operations, whatever the
 * source: the registers (sources/msr), the kernel's perf_event interface
 * (sources/perf); the emulated machines stand behind either one
 * (sources/sim: an emulated register device, an emulated kernel).  A
 * source sees the run's configuration (engine.h), the CPUs or sockets it
 * counts with their accumulators (below) and nothing else of the engine;
 * it never calls into the engine.  Adding a source is a pair of these
 * tables and the files behind them; the engine does not change.
 *
 * The core side counts per CPU: the fixed counters, the TSC and the
 * layout's core events, in sets that take turns on its counters (its own
 * rotation) or all at once (the kernel multiplexes them).  The uncore side
 * counts per socket, each box kind (layout_pmu_kinds) through whatever
 * transport the source has for it: MSRs, the memory controller's MMIO
 * window, the kernel's uncore PMUs.
 *
 * Threads: create on the main thread; everything else on the sampler
 * thread (or a test that steps the engine itself).
 */
#ifndef PMUTOP_SOURCE_OPS_H
#define PMUTOP_SOURCE_OPS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "layout.h"
#include "pmu_regs.h"
#include "sample.h"
#include "uncore.h"

/* ---- the core side ------------------------------------------------------ */

/*
 * What one event counted: its count and the seconds it counted, and where
 * the source rotates the sets itself (the registers) its turns and the sum
 * of their rates (count / seconds), so that the figure weighs each turn
 * alike (engine_sample.c); TURNS 0: by the seconds (the kernel's scaling).
 */
struct src_tally {
	double acc, live, rates;
	int turns;
};

/* Add to T one turn that counted INC in LIVE seconds. */
static inline void src_tally_turn(struct src_tally *t, double inc, double live)
{
	t->acc += inc;
	t->live += live;
	if (live > 0) {
		t->rates += inc / live;
		t->turns++;
	}
}

/*
 * The seconds T is scaled by: its count over the mean of its turns' rates,
 * so that each turn weighs alike (a turn stretched by a late read and the
 * short ones after it are each one look at the workload); its live seconds
 * where it had one turn or none counted.
 */
static inline double src_tally_window(const struct src_tally *t)
{
	return t->turns > 1 && t->acc > 0 && t->rates > 0 ? t->acc * t->turns / t->rates : t->live;
}

/* One online CPU, as the engine and its core source share it. */
struct src_cpu {
	int os_cpu;
	int thread;                      /* index into topo threads[] */
	/*
	 * Its kind of core on a hybrid CPU (LAYOUT_CORES_P, _E; ANY on a CPU of
	 * one kind): a group bound to the other kind never counts here, and the
	 * fixed counters FIXED_NA (bit n: fixed counter 3 and PERF_METRICS on an
	 * E-core, every one where its kind's PMU is missing) have no figures.
	 */
	unsigned char kind;
	uint32_t fixed_na;
	/* the interval so far, from the source's reads (the figures' clock) */
	double t_interval, t_read;       /* its start; the last read of the fixed counters */
	double fixed_acc[PMU_MAX_FIXED], tsc_acc;
	double td_acc[PERF_METRICS_FIELDS];  /* slots per MSR_PERF_METRICS field (fixed_acc[3]'s shares) */
	/*
	 * The seconds each fixed counter counted, where the kernel shares them
	 * out (perf: a group's running time); NaN: the whole window (registers)
	 */
	double fixed_run[PMU_MAX_FIXED];
	/*
	 * Per layout event, what it counted this interval (ev), and of that the
	 * turns whose start or end is unsure (uev: an access that waited, as the
	 * register source finds): the figure leaves those out when the event has
	 * other turns in the interval.
	 */
	struct src_tally *ev, *uev;
	int resets;                      /* counters found reset by someone else */
	int failed;                      /* an access failed this interval: its figures n/a */
	bool offline;                    /* the CPU went offline */
	bool late;                       /* an access was slow: none more this interval */
	bool gone;                       /* another program took its controls: left alone */
};

/* Start C's interval at T with nothing counted (NEVENTS layout events). */
static inline void src_cpu_restart(struct src_cpu *c, int nevents, double t)
{
	memset(c->fixed_acc, 0, sizeof(c->fixed_acc));
	memset(c->td_acc, 0, sizeof(c->td_acc));
	for (int n = 0; n < PMU_MAX_FIXED; n++)
		c->fixed_run[n] = NAN;
	c->tsc_acc = 0;
	memset(c->ev, 0, (size_t)nevents * sizeof(*c->ev));
	memset(c->uev, 0, (size_t)nevents * sizeof(*c->uev));
	c->t_interval = c->t_read = t;
	c->resets = 0;
	c->failed = 0;
	c->offline = false;
	c->late = false;
}

/* A CPU with no figures this interval: a failed or late access, or a counter reset. */
static inline bool src_cpu_void(const struct src_cpu *c)
{
	return c->failed || c->resets;
}

/* What the engine gives a core source. */
struct src_env {
	const struct engine_config *cfg;
	struct src_cpu *cpus;
	int ncpus;
	const atomic_bool *stop;         /* engine_stop asked: abandon the sweep */
	const bool *sampling;            /* set up: a slow CPU is skipped now, not waited for */
	_Atomic uint64_t *reads;         /* counter reads so far (engine_counter_reads) */
};

/* Real monotonic seconds. */
static inline double src_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The figures' clock: the run's (the emulator's stepped clock in tests) or the real one. */
static inline double src_now(const struct engine_config *cfg)
{
	return cfg->clock ? cfg->clock(cfg->clock_ctx) : src_real();
}

/* A core source's plan, for the engine's pacing and the sample. */
struct src_plan {
	int nsets;               /* sets that take turns on the source's counters: > 1 rotates */
	int gp_used;             /* most programmable counters one set uses */
	int gp_usable;           /* programmable counters pmutop may use */
	uint32_t fixed;          /* fixed counters with figures, bit n */
	uint32_t topdown;        /* MSR_PERF_METRICS fields with figures, bit k (beside fixed counter 3) */
	layout_groups live;           /* groups that count, bit g */
	long files;              /* open files its events take (the uncore's are counted beside) */
};

/* What the final sweep of an interval says of itself. */
struct src_sweep {
	double skew;             /* seconds between the first and the last CPU's reads */
	bool batched;            /* every CPU read in one call */
};

struct src_core;

struct src_core_ops {
	const char *name;
	/*
	 * The kernel multiplexes: a group counted for less than the interval
	 * ran less of it (its figures scaled and marked); without this, a
	 * group rotates when the plan has more than one set.
	 */
	bool kernel_multiplexes;
	/* Take the CPUs (saved, enabled, opened).  0, or -errno with one line in ERR. */
	int (*create)(const struct src_env *env, struct src_core **out, char *err, size_t errlen);
	/* Plan GROUPS: BLOCKED[g] says why a core group cannot count ("" when it can). */
	void (*plan)(struct src_core *s, layout_groups groups, char (*blocked)[SAMPLE_WHY_MAX],
		     struct src_plan *out);
	/* Most seconds between steps its own timer needs (the emulated kernel), 0 none; NULL none. */
	double (*tick_s)(const struct src_core *s);
	void (*tick)(struct src_core *s);
	/* Start an interval on every CPU: the live set programmed, baselines taken. */
	void (*baseline)(struct src_core *s);
	/* Read the live set into the accumulators; FINAL: the fixed counters, the TSC, the checks. */
	void (*sweep)(struct src_core *s, bool final, struct src_sweep *out);
	/* Switch every CPU to the next set (after a sweep); NULL: nothing rotates. */
	void (*rotate)(struct src_core *s);
	/* A counter was given up since the last call: the groups must be planned again. NULL: never. */
	bool (*lost)(struct src_core *s);
	/* After a sample: C's next interval, afresh when its last one was void. */
	void (*restart)(struct src_core *s, struct src_cpu *c);
	/*
	 * Count task PID (and what it starts) from now on; the engine plans
	 * again, then ATTACHED says whether anything counts (0, or -errno with
	 * why in ERR).  NULL: the source counts whole CPUs only.
	 */
	void (*attach)(struct src_core *s, int pid);
	int (*attached)(struct src_core *s, const struct src_plan *p,
			char (*blocked)[SAMPLE_WHY_MAX], char *err, size_t errlen);
	/* Start (ON) or stop helper threads around the sampler's loop; NULL: none. */
	void (*helpers)(struct src_core *s, bool on);
	/* Its standing warnings (ADD once each), and the interval's first failure ("" none). */
	void (*notes)(const struct src_core *s, void (*add)(void *ctx, const char *text), void *ctx);
	const char *(*error)(const struct src_core *s);
	void (*clear_error)(struct src_core *s);
	void (*free)(struct src_core *s);
};

/* ---- the uncore side ---------------------------------------------------- */

/* One socket, as the uncore and its transport share it. */
struct src_socket {
	int index;                /* topo socket index */
	int reader;               /* OS CPU its PMUs are reached through, -1: none online */
	bool taken;               /* someone else's: left alone */
	bool failed;              /* an access failed this interval: figures n/a */
	double fixed_acc;         /* the uncore clock */
	/*
	 * Per layout event: its count and the seconds it counted, and where the
	 * source rotates the sets itself (the registers) each turn (src_tally)
	 */
	struct src_tally *ev;
	bool *moved;              /* per layout event: counted something since the start */
	double t_start, t_last;   /* the interval's start, the last read */
	int resets;
	/*
	 * The CHAs one by one where the transport reads them apart (perf:
	 * uncore_cha_N, whose counts ev sums): NBOX boxes, and per box and CHA
	 * event (BOX_EV maps a layout event to its column, -1: not a CHA's) its
	 * count and seconds as ev has them; NBOX 0 elsewhere.
	 */
	int nbox, nbox_ev;
	int *box_ev;
	double *box_acc, *box_live;
	/*
	 * The cores one by one, for a PMU whose boxes are the cores
	 * (cstate_core: layout_pmu_kind.core_boxes), where the transport reads
	 * them apart: per topology core (NCORE, the machine's; this socket's
	 * filled) and event of that PMU (CORE_EV maps a layout event to its
	 * column, -1: none) its count and seconds; NCORE 0 elsewhere.
	 */
	int ncore, ncore_ev;
	int *core_ev;
	double *core_acc, *core_live;
};

/* Start S's interval at its last read with nothing counted (NEVENTS layout events). */
static inline void src_socket_restart(struct src_socket *s, int nevents)
{
	for (int i = 0; i < s->nbox * s->nbox_ev; i++)
		s->box_acc[i] = s->box_live[i] = 0;
	for (int i = 0; i < s->ncore * s->ncore_ev; i++)
		s->core_acc[i] = s->core_live[i] = 0;
	memset(s->ev, 0, (size_t)nevents * sizeof(*s->ev));
	s->fixed_acc = 0;
	s->t_start = s->t_last;
	s->failed = false;
	s->resets = 0;
}

/*
 * Give each of the NSOCKS sockets per-box accumulators for the NBOX boxes
 * of PMU's kind (the layout L's events on it); src_boxes_free lets them go.
 */
void src_boxes_alloc(struct src_socket *socks, int nsocks, const struct layout *l,
		     enum layout_pmu pmu, int nbox);
/* The same for the NCORE cores of the machine: the events of the PMUs whose boxes are cores. */
void src_cores_alloc(struct src_socket *socks, int nsocks, const struct layout *l, int ncore);
/* Both kinds' accumulators let go. */
void src_boxes_free(struct src_socket *socks, int nsocks);

/* What the uncore gives its transport. */
struct src_uncore_env {
	const struct uncore_config *cfg;
	struct src_socket *socks;
	int nsocks;
};

/* A transport's plan. */
struct src_uplan {
	int nsets;                /* sets that take turns on the boxes' counters */
	layout_groups live;            /* groups that count, bit g */
	double poll_s;            /* most seconds between reads (a counter that wraps fast), INFINITY */
};

struct src_uncore;

struct src_uncore_ops {
	/* The core side counts the PMUs counted beside the cores (layout_pmu_kind.beside): the kernel's. */
	bool beside;
	/* Take the sockets (saved, enabled, opened).  0, or -errno with one line in ERR. */
	int (*create)(const struct src_uncore_env *env, struct src_uncore **out, char *err,
		      size_t errlen);
	/*
	 * Plan the selected per-socket groups the uncore found possible
	 * (BLOCKED[g] ""), beside CORE_FILES open files of the core's; block
	 * the rest with the reason.
	 */
	void (*plan)(struct src_uncore *u, layout_groups groups, long core_files,
		     char (*blocked)[SAMPLE_WHY_MAX], struct src_uplan *out);
	/* Start socket S's interval: the live set programmed, baselines taken. */
	void (*baseline)(struct src_uncore *u, struct src_socket *s);
	/* Read S's live counters into its accumulators (FINAL: the interval's last read). */
	void (*read)(struct src_uncore *u, struct src_socket *s, bool final);
	/* Switch every socket to the next set; NULL: nothing rotates. */
	void (*rotate)(struct src_uncore *u);
	/* Once a sample: what another program took since pmutop wrote it.  NULL: nothing to check. */
	void (*verify)(struct src_uncore *u);
	/* After a sample: S's next interval, afresh when its last one failed. */
	void (*restart)(struct src_uncore *u, struct src_socket *s);
	/* Whether event K's counter on socket S reads all ones (a phantom channel); NULL: unknown. */
	bool (*all_ones)(const struct src_uncore *u, const struct src_socket *s, int k);
	/* The interval's warnings and first failure ("" none); cleared by clear. */
	const char *(*note)(const struct src_uncore *u);
	const char *(*error)(const struct src_uncore *u);
	void (*clear)(struct src_uncore *u);
	void (*free)(struct src_uncore *u);
};

#endif
