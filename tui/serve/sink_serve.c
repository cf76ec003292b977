/*
 * sink_serve: every sample to the server (--serve, and the viewers' local
 * socket), which its clients and viewers read.
 */
#include "serve.h"
#include "sink.h"
#include "xmalloc.h"

#include <stdlib.h>

struct sink_srv {
	struct sink k;
	struct serve *srv;
};

static int sink_serve_sample(struct sink *k, const struct sample *s)
{
	serve_publish(((struct sink_srv *)k)->srv, s);
	return 0;
}

static void sink_serve_free(struct sink *k)
{
	free(k);
}

static const struct sink_ops sink_serve_ops = {
	.sample = sink_serve_sample, .free = sink_serve_free,
};

static struct sink *sink_serve_make(const struct sink_ctx *c)
{
	struct sink_srv *v;

	if (!c->srv)
		return NULL;
	v = xcalloc(1, sizeof(*v));
	*v = (struct sink_srv){ .k.ops = &sink_serve_ops, .srv = c->srv };
	return &v->k;
}

const struct sink_kind sink_serve = { .name = "serve", .make = sink_serve_make };
