/*
 * ossample: what pmutop can still show without performance counters.
 *
 * When the counters cannot be used (no msr driver, no permission, a VM
 * without a virtual PMU, a CPU pmutop does not know), the interactive view
 * keeps the topology and fills it with the operating system's figures:
 * utilisation per CPU from /proc/stat and the current clock from cpufreq
 * (n/a where the kernel has none), in samples of the same form as the
 * counter engine's, so every pane works unchanged.  Each sample carries the
 * reason counters are unavailable.  A timerfd paces it in the UI thread:
 * reading two small files per CPU takes microseconds.  Paths under ROOT.
 */
#ifndef PMUTOP_OSSAMPLE_H
#define PMUTOP_OSSAMPLE_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"
#include "sample.h"
#include "topo.h"

struct ossample;

/* Start sampling T every INTERVAL seconds; REASON goes into every sample's warning. */
int ossample_open(const char *root, const struct topo *t, double interval, const char *reason,
		  struct ossample **out, char *err, size_t errlen);

/* The layout its samples follow (metrics util and ghz, no groups). */
const struct layout *ossample_layout(const struct ossample *o);

/* Readable when a sample is due. */
int ossample_fd(const struct ossample *o);

/* Take the due sample (NULL when none is due yet, or paused); caller releases it. */
struct sample *ossample_take(struct ossample *o);

void ossample_set_interval(struct ossample *o, double seconds);
void ossample_set_paused(struct ossample *o, bool paused);
/* Hang W's look (who.h) on each sample (W stays the caller's). */
struct who;
void ossample_set_who(struct ossample *o, struct who *w);
/* The thermal throttle counters to look at each sample (the session's), or NULL. */
struct throttle;
void ossample_set_throttle(struct ossample *o, struct throttle *th);

void ossample_free(struct ossample *o);

#endif
