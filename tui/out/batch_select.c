/*
 * batch_select: --metrics, the metrics a run's printed samples carry: a comma
 * list of metric names or shell globs (fnmatch: "Info_Memory_*"), a group's
 * name ("Memory", each of a key's groups: "TmaL3" and "TmaL3.2") or its key
 * ("9").  A pattern that names nothing is refused at the start, with what
 * lists the names.
 */
#include "batch.h"
#include "batch_int.h"
#include "cpulist.h"
#include "topo_filter.h"
#include "xmalloc.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether PAT names metric M of L: its name, its group's (the key's name, ".N" aside), its key. */
static bool batch_select_names(const struct layout *l, int m, const char *pat)
{
	int g = l->metrics[m].group;
	char group[96];

	if (!fnmatch(pat, l->metrics[m].name, 0))
		return true;
	if (g < 0)
		return false;
	if (strlen(pat) == 1 && l->groups[g].key == pat[0])
		return true;
	snprintf(group, sizeof(group), "%.*s", (int)strcspn(l->groups[g].name, "."), l->groups[g].name);
	return !fnmatch(pat, group, 0) || !fnmatch(pat, l->groups[g].name, 0);
}

/* Each pattern of LIST in turn (FN: true stops), the list's commas and blanks between them. */
static bool batch_select_each(const char *list, bool (*fn)(const char *pat, void *ctx), void *ctx)
{
	char pat[128];

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ", ");

		if (n && n < sizeof(pat)) {
			memcpy(pat, p, n);
			pat[n] = 0;
			if (fn(pat, ctx))
				return true;
		}
		p += n;
		p += strspn(p, ", ");
	}
	return false;
}

struct batch_select_ctx {
	const struct layout *l;
	bool *listed;
	const char *bad;   /* batch_metrics_check: the first pattern of nothing */
	char badbuf[128];
};

static bool batch_select_mark(const char *pat, void *ctx)
{
	struct batch_select_ctx *c = ctx;
	bool any = false;

	for (int m = 0; m < c->l->nmetrics; m++)
		if (batch_select_names(c->l, m, pat)) {
			if (c->listed)
				c->listed[m] = true;
			any = true;
		}
	if (!any && !c->bad) {
		snprintf(c->badbuf, sizeof(c->badbuf), "%s", pat);
		c->bad = c->badbuf;
	}
	return false;
}

bool *batch_metrics_listed(const struct layout *l, const char *list)
{
	struct batch_select_ctx c = { .l = l, .listed = xcalloc((size_t)l->nmetrics + 1, sizeof(bool)) };

	batch_select_each(list, batch_select_mark, &c);
	return c.listed;
}

int batch_metrics_check(const struct layout *l, const char *list, char *err, size_t len)
{
	struct batch_select_ctx c = { .l = l };

	if (!list[strspn(list, ", ")]) {
		snprintf(err, len, "--metrics needs at least one metric, glob, group or key (pmutop "
			 "--list-metrics lists the metrics)");
		return -EINVAL;
	}
	batch_select_each(list, batch_select_mark, &c);
	if (c.bad) {
		snprintf(err, len, "--metrics: '%s' is no metric, group or key of layout %s "
			 "(pmutop --list-metrics lists its metrics, -h in the screen its groups)",
			 c.bad, l->name);
		return -EINVAL;
	}
	return 0;
}

void batch_run_make(struct batch_run *r, const struct sample *s, const struct batch_opts *o)
{
	*r = (struct batch_run){ .counts = o->counts, .t0 = o->t0, .scopes = o->scopes,
				 .topo = o->topo };
	r->listed = o->metrics ? batch_metrics_listed(s->layout, o->metrics) : NULL;
	if (!o->cpus)
		return;
	r->thread_on = xcalloc((size_t)s->nthreads + 1, sizeof(bool));
	r->core_on = xcalloc((size_t)s->ncores + 1, sizeof(bool));
	r->socket_on = xcalloc((size_t)s->nsockets + 1, sizeof(bool));
	for (int i = 0; i < s->nthreads; i++) {
		const struct sample_entity *t = &s->threads[i];

		if (!cpulist_contains(o->cpus, o->ncpus, t->index))
			continue;
		r->thread_on[i] = true;
		if (t->core >= 0 && t->core < s->ncores)
			r->core_on[t->core] = true;
		if (t->socket >= 0 && t->socket < s->nsockets)
			r->socket_on[t->socket] = true;
	}
}

void batch_run_free(struct batch_run *r)
{
	free(r->listed);
	free(r->thread_on);
	free(r->core_on);
	free(r->socket_on);
}

int batch_cpus_resolve(const struct topo *t, const char *text, int **cpus, int *ncpus, char *err,
		       size_t len)
{
	bool *shown;
	char why[200];

	*cpus = NULL;
	*ncpus = 0;
	if (!t) {
		snprintf(err, len, "--cpus: the machine's CPUs are not known (a recording without its "
			 "topology); leave --cpus out");
		return -EINVAL;
	}
	if (topo_filter_parse(t, text, &shown, why, len > sizeof(why) ? sizeof(why) : len)) {
		snprintf(err, len, "--cpus '%s': %s", text, why);
		return -EINVAL;
	}
	*cpus = xcalloc((size_t)t->cpu_thread_len + 1, sizeof(int));
	for (int c = 0; c < t->cpu_thread_len; c++)
		if (shown[c])
			(*cpus)[(*ncpus)++] = c;
	free(shown);
	return 0;
}
