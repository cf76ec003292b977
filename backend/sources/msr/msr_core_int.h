/*
 * msr_core_int: the register source's core state, shared by msr_core.c
 * (setting up, planning, programming, what other programs took) and
 * msr_sweep.c (the reads of a sweep: register by register, in one batch
 * call, or socket by socket on reader threads).  Not for any other module.
 */
#ifndef PMUTOP_MSR_CORE_INT_H
#define PMUTOP_MSR_CORE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "counter.h"
#include "msr.h"
#include "pmu_regs.h"
#include "source_ops.h"

/*
 * A slice whose start or end is unsure by more than this share of it (half
 * the length of the access that read or zeroed the counter) on any counter
 * of its set is left out of the set's figures where each event has other
 * slices in the interval (the counts as read keep it): 10 %.  Leaving a
 * slice out has a price too: each group sees a phased workload through its
 * thirty-odd slices an interval, and two of them gone from one phase move
 * its figure 8 %, where an access unsure by a tenth of one slice moves it
 * by a tenth of a thirtieth.  Measured on the phased run of
 * tests/phased_load.sh (2 vCPUs, 2026-11-29): at 2 % the first CPU read in
 * each sweep lost about ten slices an interval, the worst interval read
 * 6.4-9.7 % off beside the test's busy loop and 4.6-12.8 % beside three;
 * at 10 %, 2.7-4.6 % and 2.4-4.6 %, and 1.1-2.6 % beside a build.  (An
 * older emulator whose sweeps cost a tenth of a slice read 28 % off once at
 * 10 %; its accesses no longer wait that long.)
 */
#define MSR_UNSURE 0.10

/* What the source keeps per CPU beside the accumulators it shares with the engine. */
struct msr_cpu {
	uint64_t fixed_prev[PMU_MAX_FIXED], tsc_prev, gp_prev[PMU_MAX_GP];
	/* per programmable counter: when it was last zeroed or read (its live time starts there) */
	double gp_t[PMU_MAX_GP];
	/*
	 * How unsure each of those times is (half the access's length), and the
	 * last access's: an access that waited (the thread preempted, a slow
	 * device) leaves its counter's slice out (msr_sweep_read_set)
	 */
	double gp_u[PMU_MAX_GP], spread;
	uint32_t taken;                  /* PMCs another program took here while pmutop ran */
	bool was_offline;                /* offline at its last interval: programmed afresh */
	bool returning;                  /* programming afresh: its registers are not ours now */
	int batch_at, batch_n;           /* its reads in the sweep's batch */
	/*
	 * The counters its kind of core has (a hybrid's E-core: the E-core
	 * events' counters, no fixed counter 3, no PERF_METRICS), of pmutop's
	 */
	uint32_t gp_mine, fixed_mine;
	bool topdown_mine;
};

struct msr_reader {
	struct msr_core *m;
	pthread_t thread;
	int first, n;                    /* its CPUs: order[first .. first + n) */
};

struct msr_core {
	struct src_env env;
	const struct engine_config *cfg;
	const struct layout *l;
	struct msr_dev *dev;
	struct msr_cpu *mc;              /* per env.cpus[i] */
	uint32_t gp_usable, fixed_usable;
	uint32_t topdown;                /* MSR_PERF_METRICS fields read beside fixed counter 3, bit k */
	uint32_t gp_lost;                /* PMCs given up while running (taken on some CPU) */
	bool replan;                     /* a counter was given up: plan again after this sample */
	int verify;                      /* the select checked this sample (msr_core_verify) */
	char taken_note[320];            /* what other programs took while pmutop ran */
	struct counter_set *sets;
	int nsets, cur;
	/*
	 * Per-socket readers (msr_readers_start): one thread per socket
	 * beyond the first, pinned to it, reads that socket's CPUs in each sweep
	 * while the sampler reads the first socket's, so IPIs stay on a socket
	 * and sockets are read at the same time.  ORDER lists the CPUs socket by
	 * socket; the sampler's share is ORDER[0 .. own).  What a sweep may
	 * change that is not one CPU's own (the error text, what other programs
	 * took, a new plan) is under note_lock.
	 */
	int *order, own, nreaders;
	struct msr_reader *readers;
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
	 * their values from it (msr_core_access).  Every CPU is taken to have
	 * been read at the call's middle, and the skew is the call's duration.
	 */
	struct msr_batch_read *batch;
	int nbatch, batch_cap;
	bool batch_live;
	double batch_mid;
	char read_note[MSR_BATCH_NOTE_MAX]; /* the batch call failed for good: why (in every sample) */
	char error[512];
};

static inline struct msr_core *msr_core_of(struct src_core *s)
{
	return (struct msr_core *)s;
}

/*
 * One register access on CPU I, or none: a CPU that was slow earlier in
 * this interval is skipped (late, n/a this interval); a stop request skips
 * everything.  WHEN (or NULL) gets the time at the middle of the access.
 */
int msr_core_access(struct msr_core *m, int i, uint32_t reg, uint64_t *v, bool write,
		    double *when);

/* Whether another program took PMC K of CPU I (then given up on every CPU, named). */
bool msr_core_pmc_taken(struct msr_core *m, int i, uint32_t k);

/* The select this sample's check reads besides the global control (msr_core_verify). */
unsigned msr_core_verify_slot(const struct msr_core *m);

/* Read CPU I's fixed counters and TSC: into the accumulators, or as a BASELINE. */
void msr_core_read_fixed(struct msr_core *m, int i, bool baseline);

/* Once a sample: whether another program took CPU I's controls or a select. */
void msr_core_verify(struct msr_core *m, int i);

/* The sweep (msr_sweep.c): the sweep operation, and the reader threads around the loop. */
void msr_core_sweep(struct src_core *s, bool final, struct src_sweep *out);
void msr_readers_start(struct msr_core *m);
void msr_readers_stop(struct msr_core *m);

/* Whether layout event EV counts on CPU I: its group of any kind of core, or of I's kind. */
static inline bool msr_core_here(const struct msr_core *m, int i, int ev)
{
	return layout_coretype_on(m->l->groups[m->l->events[ev].group].coretype,
				  m->env.cpus[i].kind);
}

#endif
