/*
 * engine_int: the engine's state, shared by engine.c (the loop: pacing,
 * the step, commands applied, life cycle), engine_sample.c (the sample
 * built from the accumulators) and engine_thread.c (the sampler thread and
 * the commands).  Not for any other module: a source sees source_ops.h.
 */
#ifndef PMUTOP_ENGINE_INT_H
#define PMUTOP_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "source_ops.h"

struct engine {
	struct engine_config cfg;
	const struct layout *l;
	const struct src_core_ops *ops;  /* the source's core side */
	struct src_core *src;
	struct src_cpu *cpus;            /* the online CPUs, shared with the source */
	int ncpus;
	struct src_plan plan;            /* the source's last plan */
	struct uncore *unc;              /* the per-socket PMUs */
	int nslices;                     /* slices per interval: whole rounds of the sets (+1: engine_pace) */
	int slice;
	double mux_s;                    /* the rotation slice asked for (engine_config.mux_s) */
	double rot_cost;                 /* seconds a rotation sweep took, last interval's mean */
	double rot_achieved;             /* the slice the last interval had (real clock), 0 unknown */
	double rot_sum;                  /* this interval's sweeps: seconds, how many */
	int rot_n;
	double t_start;                  /* real clock at the start of the interval */
	double wall_sweep;               /* the wall clock when the last sweep's counts were read */
	int ticks, tick;                 /* steps per slice (uncore polls between), this one */
	layout_groups groups;                 /* selected */
	char (*blocked)[SAMPLE_WHY_MAX]; /* per group: why it cannot be programmed, "" if it can */
	double interval;
	double interval_after_first;     /* > 0: the first interval is short, then this one */
	bool paused, need_baseline;
	struct src_sweep sweep;          /* what the interval's final sweep said */
	uint64_t seq;
	_Atomic uint64_t reads;          /* counter reads (the source adds its own) */
	/* shared with other threads: under lock */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct sample *latest;
	layout_groups want_groups;
	double want_interval;
	bool want_paused, quit, dirty;
	bool want_flush;                 /* engine_flush asked (under lock) */
	int want_pid;                    /* engine_attach asked (under lock), -1 none */
	int attach_rc;                   /* its answer, with attach_err; attached: the pid done */
	int attached;
	int pid;                         /* the task counted, -1 whole CPUs */
	char attach_err[400];
	pthread_cond_t applied;          /* an attach was applied */
	bool flush;                      /* the sampler's copy: the interval ends at the next step */
	int efd;
	pthread_t thread;
	bool running;
	bool realtime;                   /* the sampler thread runs at SCHED_FIFO 1 (engine_thread.c) */
	atomic_bool stop;                /* engine_stop asked: abandon the sweep */
	bool sampling;                   /* set up: slow CPUs are now skipped, not waited for */
	bool stuck;                      /* the thread did not end in time: never freed */
};

/* The engine whose sampler this thread is (set by the sampler thread, for assertions). */
extern _Thread_local const struct engine *engine_owner;

/* Count task PID from now on (sampler thread, or before it runs).  0 or -errno with ERR. */
int engine_attach_now(struct engine *e, int pid, char *err, size_t errlen);

/* The sample of the interval that just ended (its final sweep in e->sweep). */
struct sample *engine_build(struct engine *e);

#endif
