/*
 * uncore: the per-socket PMUs (L3, home logic, memory controller).
 *
 * Nehalem/Westmere (seed 000 "Uncore Performance Events"): one uncore PMU
 * per socket with 8 general counters (48 bits) and a fixed uncore-clock
 * counter, reached through the MSRs of any CPU of the socket.  Skylake
 * client (seed 001): cache boxes (2 counters of 44 bits in each slice;
 * an event is programmed in every slice and the slices summed, as the
 * manual recommends; the slice count comes from MSR_UNC_CBO_CONFIG minus
 * one), the arbitration unit (2 counters, 44 bits), the fixed clock (48
 * bits), and the memory controller's five free-running 32-bit counters
 * in MMIO (mmio.h), which need no programming.
 *
 * The uncore here is the frame: which groups this CPU's uncore can count
 * (its kind's box kinds, cpumodel_uncore_kinds), the sockets' accumulators,
 * the shares and the sample's socket and channel figures with their
 * checks.  Programming and reading are the source's transport
 * (source_ops.h): the MSRs and the MMIO window (sources/msr), or the
 * kernel's uncore PMUs (sources/perf).
 *
 * Uncore groups rotate among themselves, like core groups, when more are
 * selected than fit in the counters; IMC groups never need a counter.
 * Readings are widened with each counter's width; a 32-bit IMC counter
 * wraps in under 7 s at 40 GB/s, so uncore_poll_s() tells the engine how
 * often it must read for no wrap to be lost, whatever the interval.
 *
 * Counts go into the sample per socket and per memory channel
 * (sample.channels); uncore_check() then flags figures that cannot be
 * true.  Sampler thread only (after uncore_create on the main thread).
 */
#ifndef PMUTOP_UNCORE_H
#define PMUTOP_UNCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpumodel.h"
#include "layout.h"
#include "sample.h"
#include "topo.h"

/* The longest a free-running 32-bit IMC counter is left unread, seconds. */
#define UNCORE_IMC_POLL_S 1.0

/*
 * Plausibility: the IMC may count fewer reads than the home logic (QHL
 * reads include the InvtoE of uncacheable writes) and more writes (it also
 * counts uncached writebacks QHL local writes leave out), seed 000 "Measuring
 * Bandwidth From the Uncore"; the other way round beyond this share (and
 * UNCORE_SLACK_LINES_PER_S) is flagged.  Scaled figures get the wider one.
 */
#define UNCORE_QHL_TOLERANCE 0.05
#define UNCORE_QHL_TOLERANCE_SCALED 0.15
#define UNCORE_SLACK_LINES_PER_S 1e5
/* A bandwidth this far above the theoretical peak is flagged (read skew). */
#define UNCORE_PEAK_TOLERANCE 0.01

/* Monotonic seconds: the engine's clock (the emulator's manual one in tests). */
typedef double (*uncore_clock_fn)(void *ctx);

struct src_uncore_ops;

struct uncore_config {
	const struct topo *topo;
	const struct layout *layout;
	/* the source's transport for the per-socket PMUs (source_ops.h) */
	const struct src_uncore_ops *ops;
	const void *source_cfg;     /* the source's own (engine_config.source_cfg) */
	enum cpumodel_uncore kind;
	const char *kind_why;       /* CPUMODEL_UNCORE_NONE on a CPU that has one: why, or NULL */
	const bool *socket_taken;   /* by socket: uncore counters someone else uses, or NULL */
	int channels;               /* memory channels per socket */
	double channel_peak;        /* theoretical bytes/s of one channel; NaN unknown */
	uncore_clock_fn clock;      /* the time of each read and programming */
	void *clock_ctx;
	const char *root;           /* where /proc is looked up to name another user (NULL: /) */
};

struct uncore;

/*
 * Take the sockets through the transport (save the registers it will
 * write and enable the fixed clock, or open the kernel's PMUs).  0, or
 * -errno with one line in ERR.  A layout without uncore groups, or a CPU
 * without a known uncore, gives an uncore whose groups are all blocked
 * with the reason.
 */
int uncore_create(const struct uncore_config *cfg, struct uncore **out, char *err, size_t errlen);
void uncore_free(struct uncore *u);

/*
 * Plan the selected uncore groups (bit g = layout group g) beside
 * CORE_FILES open files of the core's; blocks what cannot count.
 */
void uncore_plan(struct uncore *u, layout_groups groups, long core_files);
int uncore_nsets(const struct uncore *u);
bool uncore_group_live(const struct uncore *u, int g);
/* Why selected group G cannot count, or "" */
const char *uncore_group_blocked(const struct uncore *u, int g);
/* Counters a group may use per box (per slice on Skylake): for the footer. */
int uncore_usable(const struct uncore *u);
/* Most seconds between two reads (INFINITY when nothing wraps that fast). */
double uncore_poll_s(const struct uncore *u);

/*
 * Program the current set on every socket and take baselines.  Times come
 * from the clock around each socket's accesses: a set's counters are live
 * from the middle of their programming to the middle of their reading.
 */
void uncore_baseline(struct uncore *u);
/* Read the live counters into the interval's accumulators (FINAL: its last read). */
void uncore_read(struct uncore *u, bool final);
/* Switch every socket to the next set (after uncore_read). */
void uncore_rotate(struct uncore *u);
/* Share of the interval so far group G was counted (mean over sockets), NaN when none. */
double uncore_group_share(const struct uncore *u, int g);

/* Socket and channel inputs of S (events, uncore_clock, dram_peak). */
void uncore_fill(struct uncore *u, struct sample *s);
/* The CHAs one by one where the transport reads them apart (sample_box; uncore_boxes.c). */
void uncore_fill_boxes(struct uncore *u, struct sample *s);

/*
 * Each core's own count of the PMUs whose boxes are cores (cstate_core)
 * into S's core entities, before their figures are computed.
 */
void uncore_fill_cores(struct uncore *u, struct sample *s);
/* After the metrics are evaluated: flag figures that cannot be true. */
void uncore_check(struct uncore *u, struct sample *s);
/*
 * Once a sample, before it is built: whether another program took a
 * socket's uncore global control or one of the current set's selects since
 * pmutop wrote them; such a socket is left alone from then on (n/a, named,
 * its taken registers left at exit).  Selects are also checked before each
 * rewrite.
 */
void uncore_verify(struct uncore *u);
/* Start the next interval from the last reading. */
void uncore_reset(struct uncore *u);

/* Warnings of the interval ("socket 0's uncore is now read through CPU 1 ..."), "" none. */
const char *uncore_note(const struct uncore *u);
/* The first register failure, "" none. */
const char *uncore_error(const struct uncore *u);

#endif
