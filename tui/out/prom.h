/*
 * prom: a sample in the Prometheus text exposition format (version 0.0.4)
 * or OpenMetrics 1.0, for the server's /metrics (serve.h).
 *
 * Families follow Prometheus' naming rules: the pmutop_ prefix, base units
 * (a share in % becomes a ratio, ns seconds, GHz hertz, B/s
 * bytes_per_second) named in the suffix, one table (prom_units) mapping a
 * layout unit to its factor and suffix.  Each layout metric is one gauge
 * family at the scope the layout defines it for, labelled cpu / core /
 * socket / channel (topology indexes; cpu the OS CPU number), group and
 * source.  Raw event counts are counters (_total), summed over the run by
 * struct prom_totals, so Prometheus computes rates itself.  A figure that is
 * n/a (its group off or blocked, not computable) is left out, never 0; a
 * group's share of the interval counted (pmutop_group_live_ratio) says
 * which figures are scaled; simulated data carries simulated="true" on
 * every series and in pmutop_info.
 *
 * Pure functions: any thread, on immutable samples.
 */
#ifndef PMUTOP_PROM_H
#define PMUTOP_PROM_H

#include <stdbool.h>
#include <stdio.h>

#include "frontend.h"

/*
 * The running totals of every event count (and the built-in counters) of
 * each entity since the start: immutable once made, so scrapes share them.
 */
struct prom_totals;

/* PREV (NULL: none) plus what sample S counted: a new set of totals. */
struct prom_totals *prom_totals_next(const struct prom_totals *prev, const struct sample *s);
void prom_totals_free(struct prom_totals *t);

/* What the exposition says about the run besides the sample. */
struct prom_about {
	const char *host, *uarch, *brand;
	int owner_pid;
};

/*
 * Sample S (with totals T, NULL for none) as exposition text on OUT:
 * OpenMetrics when OPENMETRICS (then ending in "# EOF").  First the stable
 * families (figure.h: pmutop_topdown_ratio, pmutop_memory_bandwidth_bytes_
 * per_second, ... the same on every platform, per socket), then every layout
 * metric and event total (left out when STABLE_ONLY), who, and the count of
 * series written (pmutop_scrape_series).  0 or -errno.
 */
int prom_write(const struct sample *s, const struct prom_totals *t, const struct prom_about *a,
	       bool openmetrics, bool stable_only, FILE *out);

/* The family name of metric M of layout L into BUF (pmutop_..._ratio); its factor. */
double prom_metric_name(const struct layout *l, int m, char *buf, size_t len);

#endif
