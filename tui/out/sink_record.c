/*
 * sink_record: the recording (--record, or R on the screen): every sample,
 * mark and change of groups or interval.  A recording that fails does not
 * end the run: the screen says so and stops it, a batch run says it once on
 * stderr and goes on; the recording keeps its error (record_error).
 */
#include "record.h"
#include "sink.h"
#include "xmalloc.h"

#include <stdio.h>
#include <stdlib.h>

struct sink_rec {
	struct sink k;
	struct record **rec;
	const struct record *failed_rec; /* the recording whose failure was said: written no more */
	void (*failed)(void *ctx);
	void *failed_ctx;
};

/* The recording to write to, or NULL (none now, or its failure was said). */
static struct record *sink_record_live(const struct sink_rec *r)
{
	return *r->rec && *r->rec != r->failed_rec ? *r->rec : NULL;
}

/* RC of a write: a failure is said, never passed on. */
static int sink_record_said(struct sink_rec *r, int rc)
{
	if (!rc)
		return 0;
	r->failed_rec = *r->rec;
	if (r->failed) {
		r->failed(r->failed_ctx);
		if (!*r->rec)
			r->failed_rec = NULL; /* closed: the next one (R) is written to */
	} else
		fprintf(stderr, "pmutop: %s; the run goes on\n", record_error(*r->rec));
	return 0;
}

static int sink_record_sample(struct sink *k, const struct sample *s)
{
	struct sink_rec *r = (struct sink_rec *)k;
	struct record *rec = sink_record_live(r);

	return rec ? sink_record_said(r, record_sample(rec, s)) : 0;
}

static int sink_record_mark(struct sink *k, const struct mark *mk)
{
	struct sink_rec *r = (struct sink_rec *)k;
	struct record *rec = sink_record_live(r);

	return rec ? sink_record_said(r, record_mark(rec, mk->time, mk->text)) : 0;
}

static int sink_record_groups(struct sink *k, double time, layout_groups groups)
{
	struct sink_rec *r = (struct sink_rec *)k;
	struct record *rec = sink_record_live(r);

	return rec ? sink_record_said(r, record_groups(rec, time, groups)) : 0;
}

static int sink_record_interval(struct sink *k, double time, double seconds)
{
	struct sink_rec *r = (struct sink_rec *)k;
	struct record *rec = sink_record_live(r);

	return rec ? sink_record_said(r, record_interval(rec, time, seconds)) : 0;
}

static void sink_record_free(struct sink *k)
{
	free(k);
}

static const struct sink_ops sink_record_ops = {
	.sample = sink_record_sample, .mark = sink_record_mark, .groups = sink_record_groups,
	.interval = sink_record_interval, .free = sink_record_free,
};

static struct sink *sink_record_make(const struct sink_ctx *c)
{
	struct sink_rec *r;

	if (!c->rec)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	*r = (struct sink_rec){ .k.ops = &sink_record_ops, .rec = c->rec, .failed = c->rec_failed,
				.failed_ctx = c->rec_failed_ctx };
	return &r->k;
}

const struct sink_kind sink_record = { .name = "record", .make = sink_record_make };
