/*
 * sink_summary: a command run under pmutop gets a summary at the end of the
 * run, the mean and the peak of its samples, printed in --format.
 */
#include "run.h"
#include "sink.h"
#include "summary.h"
#include "xmalloc.h"

#include <stdlib.h>

struct sink_sum {
	struct sink k;
	struct summary *sum;
	const struct batch_format *format;
	struct batch_opts opts;
	FILE *out;
	struct run_cmd *cmd;
};

static int sink_summary_sample(struct sink *k, const struct sample *s)
{
	summary_add(((struct sink_sum *)k)->sum, s);
	return 0;
}

static int sink_summary_end(struct sink *k, long fed)
{
	struct sink_sum *m = (struct sink_sum *)k;
	struct sample *mean, *peak;
	char about[256];
	int rc;

	if (!summary_samples(m->sum))
		return 0;
	mean = summary_mean(m->sum);
	peak = summary_peak(m->sum);
	run_describe(m->cmd, about, sizeof(about));
	rc = batch_print_summary(mean, peak, about, m->format, &m->opts, fed == 0, m->out);
	sample_release(mean);
	sample_release(peak);
	return rc;
}

static void sink_summary_free(struct sink *k)
{
	summary_free(((struct sink_sum *)k)->sum);
	free(k);
}

static const struct sink_ops sink_summary_ops = {
	.sample = sink_summary_sample, .end = sink_summary_end, .free = sink_summary_free,
};

static struct sink *sink_summary_make(const struct sink_ctx *c)
{
	struct sink_sum *m;

	if (!c->cmd || (c->mode != SINK_PRINT && c->mode != SINK_SERVE_ONLY))
		return NULL;
	m = xcalloc(1, sizeof(*m));
	*m = (struct sink_sum){ .k.ops = &sink_summary_ops, .sum = summary_new(),
				.format = c->format, .opts = { .counts = c->counts, .metrics = c->metrics,
							       .scopes = c->scopes, .topo = c->topo,
							       .cpus = c->cpus, .ncpus = c->ncpus },
				.out = c->out, .cmd = c->cmd };
	return &m->k;
}

const struct sink_kind sink_summary = { .name = "summary", .make = sink_summary_make };
