/*
 * summary: the whole run in two figures per metric, as `perf stat` ends a
 * run: for every thread, core, socket and memory channel, the mean of each
 * metric over the samples (weighted by their intervals, so a short last
 * interval counts for what it lasted) and its peak.  A metric never
 * measured stays n/a.  The result is two samples (mean, peak) that the
 * batch formats print.  Main thread.
 */
#ifndef PMUTOP_SUMMARY_H
#define PMUTOP_SUMMARY_H

#include "frontend.h"

struct summary;

struct summary *summary_new(void);

/* Take sample S into the run. */
void summary_add(struct summary *sm, const struct sample *s);

/* Samples taken so far, and the seconds they cover. */
long summary_samples(const struct summary *sm);
double summary_seconds(const struct summary *sm);

/*
 * The run's mean and peak as samples (NULL before the first sample); the
 * caller releases them (sample_release).
 */
struct sample *summary_mean(const struct summary *sm);
struct sample *summary_peak(const struct summary *sm);

void summary_free(struct summary *sm);

#endif
