/*
 * engine_int: the engine's state, shared by engine.c (programming, reading,
 * multiplexing, the step), engine_sample.c (the sample built from it) and
 * engine_thread.c (the sampler thread and the commands).  Not for any other module.
 */
#ifndef PMUTOP_ENGINE_INT_H
#define PMUTOP_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "counter.h"
#include "perf.h"
#include "msr.h"
#include "engine.h"
#include "pmu_regs.h"

struct engine_cpu {
	int os_cpu;
	int thread;                      /* index into topo threads[] */
	uint64_t fixed_prev[PMU_MAX_FIXED], tsc_prev, gp_prev[PMU_MAX_GP];
	/*
	 * Times (engine clock): the interval's start and its last fixed-counter
	 * read; for each programmable counter, when it was last zeroed or read,
	 * so an event's live time runs from its own start to its own read.
	 */
	double t_interval, t_read, gp_t[PMU_MAX_GP];
	double fixed_acc[PMU_MAX_FIXED], tsc_acc;
	double *ev_acc, *ev_live;        /* per layout event */
	int resets;
	int failed;                      /* a register access failed this interval */
	bool offline;                    /* ENXIO: the CPU went offline */
	bool late;                       /* an access was slow: none more this interval */
	uint32_t taken;                  /* PMCs another program took here while pmutop ran */
	bool gone;                       /* its global or fixed control was taken: left alone */
	bool was_offline;                /* offline at its last interval: programmed afresh */
	bool returning;                  /* programming afresh: its registers are not ours now */
	int batch_at, batch_n;           /* its reads in engine.batch this sweep */
	struct perf_group *perf;         /* the perf source: per layout group, then the fixed events */
};

struct engine_reader {
	struct engine *e;
	pthread_t thread;
	int first, n;                    /* its CPUs: engine.order[first .. first + n) */
};

struct engine {
	struct engine_config cfg;
	const struct layout *l;
	struct engine_cpu *cpus;
	int ncpus;
	uint32_t gp_usable;              /* PMCs pmutop may program */
	uint32_t fixed_usable;
	uint32_t gp_lost;                /* PMCs given up while running (taken on some CPU) */
	bool replan;                     /* a counter was given up: plan again after this sample */
	int verify;                      /* the select checked this sample (engine_verify) */
	char taken_note[320];            /* what other programs took while pmutop ran */
	struct counter_set *sets;
	int nsets, cur, slice;
	struct uncore *unc;              /* the per-socket PMUs */
	int nslices;                     /* slices per interval: a whole number of rounds of the sets */
	double mux_s;                    /* the rotation slice asked for (engine_config.mux_s) */
	double rot_cost;                 /* seconds a rotation sweep took, last interval's mean */
	double rot_achieved;             /* the slice the last interval had (real clock), 0 unknown */
	double rot_sum;                  /* this interval's sweeps: seconds, how many */
	int rot_n;
	double t_start;                  /* real clock at the start of the interval */
	int ticks, tick;                 /* steps per slice (uncore polls between), this one */
	uint32_t groups;                 /* selected */
	char (*blocked)[SAMPLE_WHY_MAX];            /* per group: why it cannot be programmed, "" if it can */
	double interval;
	double interval_after_first;     /* > 0: the first interval is short, then this one */
	bool paused, need_baseline;
	uint64_t seq;
	_Atomic uint64_t reads;          /* counter reads (the per-socket readers add theirs) */
	/*
	 * Per-socket readers (engine_readers_start): one thread per socket
	 * beyond the first, pinned to it, reads that socket's CPUs in each sweep
	 * while the sampler reads the first socket's, so IPIs stay on a socket
	 * and sockets are read at the same time.  ORDER lists the CPUs socket by
	 * socket; the sampler's share is ORDER[0 .. own).  What a sweep may
	 * change that is not one CPU's own (the error text, what other programs
	 * took, a new plan) is under note_lock.
	 */
	int *order, own, nreaders;
	struct engine_reader *readers;
	pthread_barrier_t sweep_go, sweep_done;
	const struct counter_set *sweep_set;
	bool sweep_final;
	_Atomic bool sweep_quit;
	bool gate;                       /* the readers may start (under note_lock, gate_cond) */
	bool readers_abort;              /* with the gate: not all started, leave at once */
	pthread_cond_t gate_cond;
	pthread_mutex_t note_lock;
	/*
	 * The batch path (msr_read_batch): a sweep's reads of every CPU in one
	 * call, made before the sweep; while BATCH_LIVE the sweep's reads take
	 * their values from it (engine_access).  Every CPU is taken to have been
	 * read at the call's middle, and the skew is the call's duration.
	 */
	struct msr_batch_read *batch;
	int nbatch, batch_cap;
	bool batch_live, batch_final;
	double batch_mid, batch_span;
	char read_note[MSR_BATCH_NOTE_MAX]; /* the batch call failed for good: why (in every sample) */
	char error[512];
	uint32_t perf_open;              /* the perf source: the core groups open (engine_perf.c) */
	int pid;                         /* the perf source: the task counted, -1 whole CPUs */
	int perf_rc;                     /* the kernel's last refusal (-errno), 0 none */
	char perf_note[400];             /* fixed events the kernel refused, in every sample */
	/* shared with other threads: under lock */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct sample *latest;
	uint32_t want_groups;
	double want_interval;
	bool want_paused, quit, dirty;
	bool want_flush;                 /* engine_flush asked (under lock) */
	int want_pid;                    /* engine_attach asked (under lock), -1 none */
	int attach_rc;                   /* its answer, with attach_err; attached: the pid done */
	int attached;
	char attach_err[400];
	pthread_cond_t applied;          /* an attach was applied */
	bool flush;                      /* the sampler's copy: the interval ends at the next step */
	int efd;
	pthread_t thread;
	bool running;
	atomic_bool stop;                /* engine_stop asked: abandon the sweep */
	bool sampling;                   /* set up: slow CPUs are now skipped, not waited for */
	bool stuck;                      /* the thread did not end in time: never freed */
};

/* The engine whose sampler this thread is (set by the sampler thread, for assertions). */
extern _Thread_local const struct engine *engine_owner;

int engine_popcount(uint32_t v);

/* A CPU with no figures this interval: a failed or late access, or a counter reset. */
bool engine_cpu_void(const struct engine_cpu *c);

/* Read CPUs ORDER[FROM .. TO) in a sweep: set S's counters; when FINAL, the fixed ones and the checks. */
void engine_sweep_part(struct engine *e, int from, int to, const struct counter_set *s, bool final);

/*
 * Start the per-socket readers when they help (device files, the real
 * clock, two sockets or more, PMUTOP_SERIAL_SWEEP unset); stop them.  The
 * sampler thread, around its loop.
 */
void engine_readers_start(struct engine *e);
void engine_readers_stop(struct engine *e);

/* Shared by engine.c and engine_perf.c. */
double engine_real(void);
double engine_now(const struct engine *e);
bool engine_group_unavailable(const struct engine *e, int g, char *why, size_t len);
void engine_pace(struct engine *e);
/* Plan the groups (again, after a change of what may be counted). */
void engine_plan(struct engine *e);
void engine_reset_acc(struct engine *e, struct engine_cpu *c, double t);
void engine_publish(struct engine *e, struct sample *s);
/* After a sample: the next interval starts at T_SWEEP (the short first one over). */
void engine_next_interval(struct engine *e, double t_sweep);

/* The perf source (engine_perf.c): whether E counts through perf, and its side of each step. */
bool engine_perf(const struct engine *e);
void engine_perf_open_fixed(struct engine *e);
void engine_perf_plan(struct engine *e);
void engine_perf_pace(struct engine *e);
void engine_perf_baseline(struct engine *e);
int engine_perf_step(struct engine *e);
void engine_perf_free(struct engine *e);
/* Count task PID from now on (sampler thread, or before it runs).  0 or -errno with ERR. */
int engine_perf_attach(struct engine *e, int pid, char *err, size_t errlen);

/* The sample of the interval that just ended (SKEW: seconds between the first and last read). */
struct sample *engine_build(struct engine *e, double skew);

#endif
