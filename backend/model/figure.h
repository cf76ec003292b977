/*
 * figure: the figures every platform has, each under one stable name, and
 * the vendors' metrics that give it on each (Intel's perfmon names, the
 * kernel's tma_ names on a hybrid's E-cores, AMD's perf names, pmutop's own
 * on the seed CPUs).  A script, a Prometheus query or a dashboard asks for
 * "the top-down level 1 node backend_bound" or "a socket's memory read
 * bandwidth" without knowing how this machine's vendor spells it; the
 * vendor's name rides along.  Adding a spelling is a string in a row.
 *
 * Values come out in base units (a share as a ratio, bytes per second,
 * hertz, watts, seconds), converted from the layout metric's unit.
 */
#ifndef PMUTOP_FIGURE_H
#define PMUTOP_FIGURE_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"

/* How a figure's labels name it: the stable name and its fixed labels. */
struct figure {
	const char *family;       /* the stable name without pmutop_ (topdown_ratio) */
	const char *labels;       /* its fixed labels, "level=\"1\",node=\"retiring\"" */
	const char *help;         /* one line, for the family's HELP */
	const char *const *names; /* the vendors' metric names that give it; NULL ends */
	bool per_link;            /* the names hold %d, the link's number (link="N") */
};

extern const struct figure figures[];
extern const int nfigures;

/*
 * Factor from a layout unit to the figure's base unit (% 0.01, MB/sec 1e6,
 * MiB/s 1048576, GHz 1e9, ns 1e-9, W and B/s 1), NaN when the unit is none
 * of those (the metric is left out: no guessed conversion).
 */
double figure_factor(const char *unit);

/*
 * The layout metrics of figure F in L (each vendor spelling it has, in the
 * row's order), at most MAX into OUT: how many.  A per-link figure's names
 * are tried for links 0 to FIGURE_MAX_LINKS - 1; LINK[i] is metric i's (-1 none).
 */
#define FIGURE_MAX_LINKS 8
int figure_metrics(const struct layout *l, const struct figure *f, int *out, int *link, int max);

#endif
