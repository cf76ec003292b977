/*
 * sink_print: the samples and marks printed as they come (-b, --replay -b,
 * a viewer's -b), in --format.  A mark's offset counts from the run's start
 * (a replay's: its first sample's interval start).
 */
#include "sink.h"
#include "xmalloc.h"

#include <math.h>
#include <stdlib.h>

struct sink_printer {
	struct sink k;
	const struct batch_format *format;
	struct batch_opts opts;
	FILE *out;
	double t0;
	long printed;
};

static int sink_print_sample(struct sink *k, const struct sample *s)
{
	struct sink_printer *p = (struct sink_printer *)k;

	if (isnan(p->t0))
		p->t0 = s->time - s->interval_s;
	p->opts.t0 = p->t0;
	return batch_print(s, p->format, &p->opts, p->printed++ == 0, p->out);
}

static int sink_print_mark(struct sink *k, const struct mark *mk)
{
	struct sink_printer *p = (struct sink_printer *)k;

	return batch_print_mark(mk, isnan(p->t0) ? mk->time : p->t0, p->format, p->out);
}

static void sink_print_free(struct sink *k)
{
	free(k);
}

static const struct sink_ops sink_print_ops = {
	.sample = sink_print_sample, .mark = sink_print_mark, .free = sink_print_free,
};

static struct sink *sink_print_make(const struct sink_ctx *c)
{
	struct sink_printer *p;

	if (c->mode != SINK_PRINT)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	*p = (struct sink_printer){ .k.ops = &sink_print_ops, .format = c->format,
				    .opts = { .counts = c->counts, .metrics = c->metrics,
					      .scopes = c->scopes, .topo = c->topo,
					      .cpus = c->cpus, .ncpus = c->ncpus },
				    .out = c->out, .t0 = c->t0 };
	return &p->k;
}

const struct sink_kind sink_print = { .name = "print", .make = sink_print_make };
