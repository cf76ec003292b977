/*
 * sink: the list of a run's sinks and the registry they are built from.
 * See sink.h.
 */
#include "sink.h"

#include <stddef.h>
#include <string.h>

/* Every output pmutop has, in the order each sample reaches them. */
static const struct sink_kind *const sink_registry[] = {
	&sink_serve, &sink_history, &sink_print, &sink_record, &sink_summary,
};

void sinks_build(const struct sink_ctx *c, struct sinks *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(sink_registry) / sizeof(sink_registry[0]); i++) {
		struct sink *k = sink_registry[i]->make(c);

		if (k && out->n < SINKS_MAX) {
			out->kind[out->n] = sink_registry[i];
			out->k[out->n++] = k;
		}
	}
}

/* The first failure wins: a reader gone (-EPIPE) or a write error. */
static int sinks_keep(int rc, int now)
{
	return rc ? rc : now;
}

int sinks_sample(struct sinks *ks, const struct sample *s)
{
	int rc = 0;

	for (int i = 0; i < ks->n; i++)
		rc = sinks_keep(rc, ks->k[i]->ops->sample(ks->k[i], s));
	ks->fed++;
	return rc;
}

int sinks_mark(struct sinks *ks, const struct mark *mk)
{
	int rc = 0;

	for (int i = 0; i < ks->n; i++)
		if (ks->k[i]->ops->mark)
			rc = sinks_keep(rc, ks->k[i]->ops->mark(ks->k[i], mk));
	return rc;
}

int sinks_groups(struct sinks *ks, double time, layout_groups groups)
{
	int rc = 0;

	for (int i = 0; i < ks->n; i++)
		if (ks->k[i]->ops->groups)
			rc = sinks_keep(rc, ks->k[i]->ops->groups(ks->k[i], time, groups));
	return rc;
}

int sinks_interval(struct sinks *ks, double time, double seconds)
{
	int rc = 0;

	for (int i = 0; i < ks->n; i++)
		if (ks->k[i]->ops->interval)
			rc = sinks_keep(rc, ks->k[i]->ops->interval(ks->k[i], time, seconds));
	return rc;
}

int sinks_end(struct sinks *ks)
{
	int rc = 0;

	for (int i = 0; i < ks->n; i++)
		if (ks->k[i]->ops->end)
			rc = sinks_keep(rc, ks->k[i]->ops->end(ks->k[i], ks->fed));
	return rc;
}

void sinks_free(struct sinks *ks)
{
	for (int i = 0; i < ks->n; i++)
		ks->k[i]->ops->free(ks->k[i]);
	ks->n = 0;
}
