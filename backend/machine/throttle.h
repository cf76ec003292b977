/*
 * throttle: the kernel's thermal throttle counters (x86's therm_throt,
 * /sys/devices/system/cpu/cpuN/thermal_throttle: package_throttle_count and
 * _total_time_ms, core_throttle_count and _total_time_ms), read under a
 * machine's root (rootfs: inside it, no link out) each interval into a
 * sample's throttle figures: per socket the package's events and
 * milliseconds (read on one CPU of it: every CPU of a package shows the
 * package's), and how many of its cores throttled with their events and
 * milliseconds (one CPU of each core); where the kernel counts them (booted
 * with int_pln_enable), the package's and the cores' power-limit
 * notifications (package_power_limit_count, core_power_limit_count).  The
 * sampler's thread.
 */
#ifndef PMUTOP_THROTTLE_H
#define PMUTOP_THROTTLE_H

#include <stddef.h>

#include "sample.h"
#include "topo.h"

struct throttle;

/*
 * The counters of machine T under ROOT (NULL: this machine), found and
 * read once as the baseline; REFRESH (NULL: none) brings the files up to
 * date before each read (an emulated machine's).  Never NULL: where the
 * kernel has none, each look says why.
 */
struct throttle *throttle_open(const char *root, const struct topo *t, void (*refresh)(void *ctx),
			       void *ctx);

/*
 * The interval since the last look, at time T on the sampler's clock (its
 * window_s: the seconds since the look before), xmalloc'd (the sample
 * frees it with sample_free).
 */
struct sample_throttle *throttle_look(struct throttle *th, double t);

void throttle_free(struct throttle *th);

#endif
