/*
 * engine: the counter engine, pmutop's sampler.
 *
 * Programs the fixed counters and the selected groups' events on every
 * online CPU, reads them at each tick in one sweep, widens each reading
 * across wrap-around with the counter's real width, turns readings into
 * deltas, evaluates the layout's metrics per thread, core and socket, and
 * publishes an immutable sample (sample.h).
 *
 * Multiplexing: when the selected groups need more general-purpose
 * counters than are free, they are packed into sets that fit and the sets
 * take turns in short slices (mux_s, a few ms, like the kernel's
 * perf_event_mux_interval_ms) many times per interval, so that a workload
 * whose phases are shorter than the interval is seen by every set alike.
 * Each event's live time is measured from its own counter's zeroing to its
 * own read (the engine clock around each access), so the programming and
 * reading time is never counted as live; its count is scaled by interval /
 * live time and the figures derived from it are marked scaled.  Events limited to some
 * counters and the single offcore response register per OFFCORE_RESPONSE
 * event are respected when packing.
 *
 * A counter that reads lower than before is a wrap when the implied delta
 * is plausible (below COUNTER_MAX_EVENTS_PER_S x elapsed), otherwise a reset
 * by someone else: then the new value is taken as the count since the
 * reset, never a huge delta.
 *
 * Threads: engine_create/free on the main thread.  engine_start() runs the
 * sampler thread, which owns the registers until engine_stop() returns; it
 * sleeps to absolute deadlines.  Commands (groups, interval, pause, quit)
 * set a desired state taken at the next slice.  Samples go one way through
 * engine_latest(); engine_fd() becomes readable when one is published.
 * Without engine_start(), engine_step() drives it synchronously (tests).
 *
 * Shutdown order: engine_stop() (sampler joined, no more register access),
 * then the source's own restore and close by whoever opened the device,
 * then engine_free().
 *
 * The counts come from a source behind source_ops.h (engine_config.core_ops
 * and uncore_ops): the engine runs one loop whatever the source; what it
 * programs, how it reads and what it checks are the source's.
 */
#ifndef PMUTOP_ENGINE_H
#define PMUTOP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counter.h"
#include "layout.h"
#include "run_limits.h"
#include "sample.h"
#include "topo.h"
#include "uncore.h"



/*
 * A register access slower than this marks its CPU late: no more accesses
 * to it in this interval, its figures n/a.  (The msr driver
 * answers in microseconds; a CPU that takes this long is in trouble.)
 */
#define ENGINE_SLOW_ACCESS_S 0.05
/*
 * The first interval on the real clock is this short, whatever the interval:
 * the first figures come within a blink of the start, then the interval
 * asked for takes over.
 */
#define ENGINE_FIRST_S 0.1
/*
 * A sampler that woke up to this late (a vCPU the host woke late, a busy
 * CPU) keeps to its deadlines: the slices it missed follow at once, short,
 * so every set keeps its turns where they were due (each turn weighs alike:
 * src_tally); later than this it starts afresh from now.  Starting afresh
 * after every late wake-up moved all later turns by the delay, and a set
 * lost a turn of the phase it was in: phased_load.sh read an interval
 * 7-19 % off beside one busy loop with the other vCPU idle (2 vCPUs,
 * 2026-11-30), and 2.2-4.4 % with this (median 2.2 %).
 */
#define ENGINE_CATCH_UP_S 0.05

/* engine_stop() waits this long for the sampler, then goes on without it. */
#define ENGINE_STOP_WAIT_S 1
/* engine_attach: how long the sampler may take to open a command's events. */
#define ENGINE_ATTACH_WAIT_S 10

/*
 * The rotation slice: a few milliseconds like the kernel's mux interval.
 * With the default, a sweep that takes more than ENGINE_MUX_MAX_COST of a
 * slice (many CPUs, a slow device) lengthens the slice, so rotating costs
 * the sampler at most that share of one CPU; a slice the user asked for
 * (engine_config.mux_s) is kept whatever it costs.
 */
#define ENGINE_MUX_DEFAULT_S 0.002
#define ENGINE_MUX_MAX_COST 0.1
/*
 * The perf source: a group that ran less than this share of the interval
 * was multiplexed by the kernel (its figures scaled and marked); above it,
 * the difference is the kernel's own timing of enable and read.
 */
#define ENGINE_PERF_FULL 0.999

/* Monotonic seconds: a source's own clock (its machine keeps its own time), or a test's. */
typedef double (*engine_clock_fn)(void *ctx);

struct src_core_ops;
struct src_uncore_ops;

struct engine_config {
	const struct topo *topo;
	const struct layout *layout;
	/*
	 * The counter source (source_ops.h): its core side and its transport
	 * for the per-socket PMUs (sources/msr/msr_source.h,
	 * sources/perf/perf_source.h).  The rest of this configuration is what
	 * the sources read of it.
	 */
	const struct src_core_ops *core_ops;
	const struct src_uncore_ops *uncore_ops;
	/*
	 * The source's own configuration, which only it reads: its device, its
	 * kernel (sources/msr/msr_source.h, sources/perf/perf_source.h)
	 */
	const void *source_cfg;
	unsigned perfmon_version;
	unsigned gp_counters, gp_width;
	unsigned fixed_counters, fixed_width;
	/*
	 * MSR_PERF_METRICS fields the platform has beside fixed counter 3 (0,
	 * 4 from Ice Lake, 8 from Sapphire Rapids: what its vendor data reads).
	 */
	unsigned topdown_fields;
	uint32_t gp_taken;       /* counters someone else uses (left alone), bit n = PMCn */
	uint32_t fixed_taken;
	uint32_t arch_events_absent; /* cpuid_info's: a group using one of these is blocked */
	bool count_user, count_kernel;
	double interval_s;
	double mux_s;            /* rotation slice asked for, seconds; 0: ENGINE_MUX_DEFAULT_S, adaptive */
	/*
	 * --no-realtime: the sampler thread stays at normal priority.  Otherwise,
	 * with a source that rotates groups itself (the registers) on the real
	 * clock, it asks for SCHED_FIFO 1, as the kernel's timer multiplexes perf
	 * groups on time whatever the load (engine_thread.c).
	 */
	bool normal_priority;
	layout_groups groups;         /* selected groups, bit g = layout group g */
	const char *source;
	const char *root;        /* the machine's root ("/" or a --root tree), to name other programs */
	bool simulated;          /* the label SIMULATED on every sample */
	const char *warning;     /* shown in every sample's header, or NULL */
	/* the per-socket PMUs (uncore.h): kind, channels, DIMM peak */
	enum cpumodel_uncore uncore;
	const char *uncore_why;  /* no uncore on a CPU that has one: why (cpumodel), or NULL */
	const bool *uncore_taken; /* by socket, or NULL */
	int channels;            /* memory channels per socket */
	double channel_peak;     /* theoretical B/s of one channel, NaN unknown */
	/* the figures' clock: the source's where its machine keeps its own time; NULL monotonic */
	engine_clock_fn clock;
	void *clock_ctx;
	/*
	 * Every CPU's kind (LAYOUT_CORES_P or _E, by OS CPU number, NCPU_KIND of
	 * them; NULL on a CPU of one kind): a group bound to a kind counts on
	 * its CPUs only, through its PMU.
	 */
	const unsigned char *cpu_kind;
	int ncpu_kind;
	/* who uses the machine (the session's who collector): a look hung on every sample, or NULL */
	struct who_snap *(*who_look)(void *ctx, double t);
	void *who_ctx;
	/* the interval's thermal throttling (sample.throttle), NULL none */
	struct sample_throttle *(*throttle_look)(void *ctx, double t);
	void *throttle_ctx;
};

struct engine;

/*
 * Start (ON) or stop the per-socket readers for a caller that steps the
 * engine itself; engine_start's thread does this on its own.
 */
void engine_use_readers(struct engine *e, bool on);

/*
 * Program the counters of every online CPU.  0, or -errno with one line
 * in ERR (what failed on which CPU and what to do).
 */
int engine_create(const struct engine_config *cfg, struct engine **out, char *err, size_t errlen);

/*
 * The perf source counting a command (perf_source_config.task): count PID
 * and what it starts from now on, per CPU.  Applied before it returns (by
 * the sampler at once when it runs).  0, or -errno with the kernel's answer
 * in ERR (no core group could be opened for it).
 */
int engine_attach(struct engine *e, int pid, char *err, size_t errlen);

/*
 * One slice: read the live set, switch sets when rotating, and at the end
 * of an interval publish a sample.  Returns 1 when a sample was published,
 * 0 otherwise, -errno on a register failure (also recorded in the sample).
 */
int engine_step(struct engine *e);

/*
 * Seconds from one step to the next: without rotation the interval; with
 * it the interval cut into a whole number of rounds of the sets (core or
 * uncore, whichever has more), each slice about mux_s; each slice cut
 * further when the uncore needs reading more often (a 32-bit IMC counter).
 */
double engine_slice_s(const struct engine *e);

/* Seconds between two switches of set now, 0 when nothing rotates. */
double engine_rotation_s(const struct engine *e);

/* Whether the sampler thread got SCHED_FIFO 1 (see engine_config.normal_priority). */
bool engine_realtime(const struct engine *e);

int engine_start(struct engine *e);
/*
 * Stop the sampler: it abandons its sweep at the next register access.  0,
 * or -ETIMEDOUT when it is stuck in an access for ENGINE_STOP_WAIT_S: then
 * it is left behind (engine_free() frees nothing; the caller restores and
 * exits).
 */
int engine_stop(struct engine *e);
void engine_free(struct engine *e);

/* The newest sample (take it with sample_release when done), or NULL. */
const struct sample *engine_latest(struct engine *e);

/* Readable when a sample was published since the last engine_ack(). */
int engine_fd(const struct engine *e);
void engine_ack(struct engine *e);

/* Commands, applied at the next slice. */
void engine_set_groups(struct engine *e, layout_groups groups);
void engine_set_interval(struct engine *e, double seconds);
void engine_set_paused(struct engine *e, bool paused);
/*
 * End the interval now: the next slice takes the final sweep and publishes
 * a (short) sample, then intervals go on as before.  For the end of a
 * command run under pmutop, whose last part would otherwise be lost.
 */
void engine_flush(struct engine *e);

/* Counter registers read so far (programmable, fixed and TSC; one per counter per CPU). */
uint64_t engine_counter_reads(const struct engine *e);

#endif
