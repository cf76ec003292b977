/*
 * sink_history: the screen's history (sparklines, the time axis and its
 * marks): every sample and phase mark of a live run or a viewed one.
 */
#include "history.h"
#include "sink.h"
#include "xmalloc.h"

#include <stdlib.h>

struct sink_hist {
	struct sink k;
	struct history *h;
};

static int sink_history_sample(struct sink *k, const struct sample *s)
{
	history_add(((struct sink_hist *)k)->h, s);
	return 0;
}

static int sink_history_mark(struct sink *k, const struct mark *mk)
{
	history_mark(((struct sink_hist *)k)->h, mk->time, mk->text);
	return 0;
}

static void sink_history_free(struct sink *k)
{
	free(k);
}

static const struct sink_ops sink_history_ops = {
	.sample = sink_history_sample, .mark = sink_history_mark, .free = sink_history_free,
};

static struct sink *sink_history_make(const struct sink_ctx *c)
{
	struct sink_hist *h;

	if (!c->hist)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	*h = (struct sink_hist){ .k.ops = &sink_history_ops, .h = c->hist };
	return &h->k;
}

const struct sink_kind sink_history = { .name = "history", .make = sink_history_make };
