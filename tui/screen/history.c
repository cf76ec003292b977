/*
 * history: rings of past figures for the sparklines.  See history.h.
 */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One ring: CAP slots of WIDTH floats (entities x metrics) and their times. */
struct history_ring {
	int cap, n, head;          /* HEAD: the next slot written */
	int width;
	float *v;
	double *t;                 /* each slot's sample: wall-clock end time */
	double *dt;                /* and its interval */
};

struct history {
	const struct layout *l;
	int nthreads, ncores, nsockets, nchannels;
	struct history_ring rows;  /* threads, cores, sockets */
	struct history_ring wide;  /* sockets, channels */
	struct {
		double t;
		char text[128];
	} marks[HISTORY_MARKS];
	int nmarks;                /* ring of the last HISTORY_MARKS */
};

struct history *history_new(void)
{
	return xcalloc(1, sizeof(struct history));
}

static void history_ring_free(struct history_ring *r)
{
	free(r->v);
	free(r->t);
	free(r->dt);
	memset(r, 0, sizeof(*r));
}

void history_free(struct history *h)
{
	if (!h)
		return;
	history_ring_free(&h->rows);
	history_ring_free(&h->wide);
	free(h);
}

static void history_ring_init(struct history_ring *r, int cap, int width)
{
	history_ring_free(r);
	r->cap = cap;
	r->width = width;
	r->v = xcalloc((size_t)cap * (size_t)(width ? width : 1), sizeof(float));
	r->t = xcalloc((size_t)cap, sizeof(double));
	r->dt = xcalloc((size_t)cap, sizeof(double));
}

/* The slot BACK before the newest, or -1. */
static int history_slot(const struct history_ring *r, int back)
{
	if (back < 0 || back >= r->n)
		return -1;
	return ((r->head - 1 - back) % r->cap + r->cap) % r->cap;
}

/* Where entity I of KIND starts in a slot of the row ring (WIDE: of the wide ring), or -1. */
static int history_base(const struct history *h, enum history_kind kind, bool wide, int i)
{
	int nm = h->l ? h->l->nmetrics : 0, at;

	switch (kind) {
	case HISTORY_THREAD:
		at = wide || i >= h->nthreads ? -1 : i;
		break;
	case HISTORY_CORE:
		at = wide || i >= h->ncores ? -1 : h->nthreads + i;
		break;
	case HISTORY_SOCKET:
		at = i >= h->nsockets ? -1 : wide ? i : h->nthreads + h->ncores + i;
		break;
	default:
		at = !wide || i >= h->nsockets * h->nchannels ? -1 : h->nsockets + i;
		break;
	}
	return at < 0 || i < 0 ? -1 : at * nm;
}

static void history_put(struct history_ring *r, int at, const struct sample *s,
			const struct sample_entity *e)
{
	float *slot = &r->v[(size_t)r->head * (size_t)r->width];

	for (int m = 0; m < s->layout->nmetrics; m++)
		slot[at + m] = (float)sample_metric(s, e, m);
}

void history_add(struct history *h, const struct sample *s)
{
	int nm = s->layout->nmetrics;

	if (h->l != s->layout || h->nthreads != s->nthreads || h->ncores != s->ncores ||
	    h->nsockets != s->nsockets || h->nchannels != sample_nchannels(s)) {
		size_t row = (size_t)(s->nthreads + s->ncores + s->nsockets) * (size_t)nm;
		size_t cap = HISTORY_ROW_BYTES / (row * sizeof(float) + 1);

		h->l = s->layout;
		h->nthreads = s->nthreads;
		h->ncores = s->ncores;
		h->nsockets = s->nsockets;
		h->nchannels = sample_nchannels(s);
		history_ring_init(&h->rows, cap > HISTORY_ROWS_MAX ? HISTORY_ROWS_MAX
					    : cap < 16 ? 16 : (int)cap, (int)row);
		history_ring_init(&h->wide, HISTORY_WIDE,
				  (s->nsockets + s->nsockets * sample_nchannels(s)) * nm);
	}
	for (int i = 0; i < s->nthreads; i++)
		history_put(&h->rows, history_base(h, HISTORY_THREAD, false, i), s, &s->threads[i]);
	for (int i = 0; i < s->ncores; i++)
		history_put(&h->rows, history_base(h, HISTORY_CORE, false, i), s, &s->cores[i]);
	for (int i = 0; i < s->nsockets; i++) {
		history_put(&h->rows, history_base(h, HISTORY_SOCKET, false, i), s, &s->sockets[i]);
		history_put(&h->wide, history_base(h, HISTORY_SOCKET, true, i), s, &s->sockets[i]);
	}
	for (int i = 0; i < s->nsockets * sample_nchannels(s); i++)
		history_put(&h->wide, history_base(h, HISTORY_CHANNEL, true, i), s,
			    &s->parts[SAMPLE_KIND_CHANNEL].rows[i]);
	for (struct history_ring *r = &h->rows; r; r = r == &h->rows ? &h->wide : NULL) {
		r->t[r->head] = s->time;
		r->dt[r->head] = s->interval_s;
		r->head = (r->head + 1) % r->cap;
		if (r->n < r->cap)
			r->n++;
	}
}

void history_mark(struct history *h, double t, const char *text)
{
	int at = h->nmarks % HISTORY_MARKS;

	h->marks[at].t = t;
	snprintf(h->marks[at].text, sizeof(h->marks[at].text), "%s", text);
	h->nmarks++;
}

int history_len(const struct history *h, enum history_kind kind, bool wide)
{
	(void)kind;
	return wide ? h->wide.n : h->rows.n;
}

double history_value(const struct history *h, enum history_kind kind, bool wide, int i, int m,
		     int back)
{
	const struct history_ring *r = wide ? &h->wide : &h->rows;
	int slot = history_slot(r, back), at = history_base(h, kind, wide, i);

	if (slot < 0 || at < 0 || m < 0 || !h->l || m >= h->l->nmetrics)
		return NAN;
	return r->v[(size_t)slot * (size_t)r->width + (size_t)at + (size_t)m];
}

double history_time(const struct history *h, bool wide, int back)
{
	const struct history_ring *r = wide ? &h->wide : &h->rows;
	int slot = history_slot(r, back);

	return slot < 0 ? NAN : r->t[slot];
}

double history_span(const struct history *h, bool wide, int n)
{
	const struct history_ring *r = wide ? &h->wide : &h->rows;
	double sum = 0;

	for (int k = 0; k < n; k++) {
		int slot = history_slot(r, k);

		if (slot >= 0)
			sum += r->dt[slot];
	}
	return sum;
}

int history_marks_in(const struct history *h, double t0, double t1, const char **last)
{
	int n = 0, kept = h->nmarks < HISTORY_MARKS ? h->nmarks : HISTORY_MARKS;
	double newest = -INFINITY;

	for (int k = 0; k < kept; k++) {
		const double t = h->marks[k].t;

		if (!(t > t0 && t <= t1))
			continue;
		n++;
		if (t > newest) {
			newest = t;
			if (last)
				*last = h->marks[k].text;
		}
	}
	return n;
}

double history_spark(const struct history *h, enum history_kind kind, bool wide, int i, int m,
		     int w, double max, signed char *lv)
{
	double top = -INFINITY;

	for (int k = 0; k < w; k++) {
		double v = history_value(h, kind, wide, i, m, k);

		if (!isnan(v) && v > top)
			top = v;
	}
	if (max <= 0)
		max = top;
	for (int k = 0; k < w; k++) {
		double v = history_value(h, kind, wide, i, m, w - 1 - k);

		lv[k] = isnan(v) ? -1 : max > 0 ? (signed char)floor(fmax(0, fmin(1, v / max)) * 7.999)
						 : 0;
	}
	return top == -INFINITY ? NAN : top;
}
