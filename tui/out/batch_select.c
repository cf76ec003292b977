/*
 * batch_select: --metrics, the metrics a run's printed samples carry: a comma
 * list of metric names or shell globs (fnmatch: "Info_Memory_*"), a group's
 * name ("Memory", each of a key's groups: "TmaL3" and "TmaL3.2") or its key
 * ("9").  A pattern that names nothing is refused at the start, with what
 * lists the names.
 */
#include "batch.h"
#include "xmalloc.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
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
