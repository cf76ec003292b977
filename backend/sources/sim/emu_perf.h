/*
 * emu_perf: an emulated kernel perf_event subsystem over an emulated
 * machine, so the perf counter source runs end to end where there are no
 * hardware events (these development and CI machines).
 *
 * It owns the emulated machine's core PMU as Linux does a real one: the
 * events opened per CPU (system-wide, pid -1) in groups, raw configs in the
 * Intel core PMU's format (the same "cpu" format files the kernel exposes:
 * event, umask, edge, any, inv, cmask, offcore_rsp in config1, put into
 * MSR_OFFCORE_RSP_0/1 for events B7H/BBH) and the generic hardware events
 * on the fixed counters.  A task (pid >= 0, per CPU) is counted as the
 * whole CPU: the emulated machine runs nothing but the command it is
 * asked about.  Groups are scheduled in list order until one
 * does not fit (then no later group is scheduled: Linux's flexible groups),
 * the list rotates by one at every tick, and each group's enabled and
 * running times are kept, so a reader sees the kernel's multiplexing in
 * PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING reads.  A
 * group that cannot fit in an empty PMU is refused (EINVAL), an unknown
 * type is ENOENT.  The tick is the caller's: the engine calls it every
 * multiplexing period of emulated time.  Any thread (one lock).
 */
#ifndef PMUTOP_EMU_PERF_H
#define PMUTOP_EMU_PERF_H

#include <stdbool.h>

#include "emu.h"
#include "perf.h"
#include "perf_pmu.h"

/* The kernel's default multiplexing period for the core PMU. */
#define EMU_PERF_TICK_S 0.004

struct emu_perf;

/* The emulated kernel of EMU (not taken: EMU outlives it), NULL when EMU's PMU has no counters. */
struct emu_perf *emu_perf_create(struct emu *emu);

/* Its system calls (perf_sys.ctx is K). */
const struct perf_sys *emu_perf_sys(struct emu_perf *k);

/*
 * The emulated kernel's PMU descriptions alone, for what a real machine's
 * sysfs would tell (its registers untouched: nothing is counted through it);
 * emu_perf_free frees it.
 */
struct emu_perf *emu_perf_describe(struct emu *emu);

/* Its "cpu" PMU, as ROOT/sys/bus/event_source/devices/cpu would describe it. */
void emu_perf_cpu_pmu(const struct emu_perf *k, struct perf_pmu *out);

/*
 * The NMI watchdog on (kernel.nmi_watchdog = 1): its pinned cycles event
 * holds fixed counter 1 on every CPU, so a cycles event goes on a general
 * counter and the groups share one counter fewer.
 */
void emu_perf_set_watchdog(struct emu_perf *k, bool on);

/* A kernel without uncore PMU NAME (an older kernel, another driver): 0, or -ENOENT. */
int emu_perf_hide_pmu(struct emu_perf *k, const char *name);

/* Events open now (every close done: 0). */
int emu_perf_open_events(struct emu_perf *k);

void emu_perf_free(struct emu_perf *k);

/* What the emulated kernel's uncore follows: "arch/x86/events/... (Linux 6.12)", or NULL. */
const char *emu_perf_source(const struct emu_perf *k);

#endif
