/*
 * summary: mean and peak of every figure over a run.  See summary.h.
 */
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

struct summary_acc {
	double wsum, wt;  /* sum of value x interval, and of the intervals with a value */
	double peak;
	bool any;
};

struct summary {
	struct sample *shape;   /* the first sample's entities (ids), for building results */
	int nent;               /* threads + cores + sockets + channels */
	struct summary_acc *acc; /* nent x nmetrics */
	long samples;
	double seconds;
	double t_last;
	const struct sample *last; /* for the group states and the source */
};

struct summary *summary_new(void)
{
	return xcalloc(1, sizeof(struct summary));
}

/* Entity K of S in the order threads, cores, sockets, channels; NULL past the end. */
static const struct sample_entity *summary_entity(const struct sample *s, int k)
{
	if (k < s->nthreads)
		return &s->threads[k];
	k -= s->nthreads;
	if (k < s->ncores)
		return &s->cores[k];
	k -= s->ncores;
	if (k < s->nsockets)
		return &s->sockets[k];
	k -= s->nsockets;
	return k < s->nsockets * sample_nchannels(s) ? &s->parts[SAMPLE_KIND_CHANNEL].rows[k]
						      : NULL;
}

static int summary_count(const struct sample *s)
{
	return s->nthreads + s->ncores + s->nsockets + s->nsockets * sample_nchannels(s);
}

void summary_add(struct summary *sm, const struct sample *s)
{
	const struct layout *l = s->layout;
	double dt = s->interval_s > 0 ? s->interval_s : 0;

	if (!sm->acc) {
		sm->nent = summary_count(s);
		sm->acc = xcalloc((size_t)sm->nent * (size_t)l->nmetrics + 1, sizeof(*sm->acc));
		sm->shape = (struct sample *)sample_ref(s);
	}
	for (int k = 0; k < sm->nent; k++) {
		const struct sample_entity *e = summary_entity(s, k);

		if (!e || s->layout != sm->shape->layout)
			break; /* a sample of another shape: the run's entities stay as they were */
		for (int m = 0; m < l->nmetrics; m++) {
			struct summary_acc *a = &sm->acc[(size_t)k * (size_t)l->nmetrics + (size_t)m];
			double v = sample_metric(s, e, m);

			if (isnan(v))
				continue;
			a->wsum += v * dt;
			a->wt += dt;
			a->peak = a->any ? fmax(a->peak, v) : v;
			a->any = true;
		}
	}
	sm->samples++;
	sm->seconds += dt;
	sm->t_last = s->time;
	if (sm->last)
		sample_release(sm->last);
	sm->last = sample_ref(s);
}

long summary_samples(const struct summary *sm)
{
	return sm->samples;
}

double summary_seconds(const struct summary *sm)
{
	return sm->seconds;
}

/* A sample shaped like the run's with each metric's mean (PEAK false) or peak. */
static struct sample *summary_result(const struct summary *sm, bool peak)
{
	const struct sample *sh = sm->shape;
	const struct layout *l;
	struct sample *r;

	if (!sh)
		return NULL;
	l = sh->layout;
	r = sample_new(l, sh->nthreads, sh->ncores, sh->nsockets);
	if (sample_nchannels(sh))
		sample_add_part(r, SAMPLE_KIND_CHANNEL, sample_nchannels(sh));
	r->seq = (uint64_t)sm->samples;
	r->time = sm->t_last;
	r->interval_s = sm->seconds;
	r->skew_us = NAN;
	r->source = sm->last->source;
	r->simulated = sm->last->simulated;
	memcpy(r->groups, sm->last->groups, sizeof(*r->groups) * (size_t)l->ngroups);
	for (int k = 0; k < sm->nent; k++) {
		const struct sample_entity *from = summary_entity(sh, k);
		struct sample_entity *to = (struct sample_entity *)summary_entity(r, k);

		to->index = from->index;
		to->core = from->core;
		to->socket = from->socket;
		to->os_core_id = from->os_core_id;
		to->os_socket_id = from->os_socket_id;
		for (int m = 0; m < l->nmetrics; m++) {
			const struct summary_acc *a = &sm->acc[(size_t)k * (size_t)l->nmetrics +
								(size_t)m];

			if (!a->any)
				continue;
			to->vars[layout_metric_var(l, m)] =
				peak ? a->peak : a->wt > 0 ? a->wsum / a->wt : a->peak;
		}
	}
	return r;
}

struct sample *summary_mean(const struct summary *sm)
{
	return summary_result(sm, false);
}

struct sample *summary_peak(const struct summary *sm)
{
	return summary_result(sm, true);
}

void summary_free(struct summary *sm)
{
	if (!sm)
		return;
	if (sm->shape)
		sample_release(sm->shape);
	if (sm->last)
		sample_release(sm->last);
	free(sm->acc);
	free(sm);
}
