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

#include <stdbool.h>
#include <stddef.h>

#include "topo.h"

/*
 * The kernel's thermal_throttle counters over the interval (arch/x86's
 * therm_throt: /sys/devices/system/cpu/cpuN/thermal_throttle), per socket:
 * the package's throttle events and milliseconds (PROCHOT, the package's
 * thermal or power limit), and of its cores how many throttled, their
 * events and milliseconds summed.  NaN where not read.  A sample carries
 * them (sample.h: its throttle table's columns); they are defined here,
 * where they are read.
 */
struct sample_throttle_socket {
	double pkg_events, pkg_ms;
	int cores;            /* cores that throttled in the interval */
	double core_events, core_ms;
	/* power-limit notifications (package_power_limit_count, core_power_limit_count summed) */
	double pkg_pl_events, core_pl_events;
};

/* Why a sample_throttle has no power-limit notifications (its power_limit false). */
#define SAMPLE_THROTTLE_NO_PL "the kernel counts power-limit notifications only when booted with " \
	"int_pln_enable (on a CPU with PLN): no package_power_limit_count"

struct sample_throttle {
	int nsockets;         /* as the sample's sockets, in their order */
	struct sample_throttle_socket *s;
	bool time;            /* the kernel gives the time (*_total_time_ms of newer kernels); else counts */
	bool power_limit;     /* the kernel counts power-limit notifications (booted with int_pln_enable) */
	double window_s;      /* the seconds since the look before, on the sampler's clock; NaN the first */
	char why[200];        /* none read: why, and nsockets 0 */
};

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
