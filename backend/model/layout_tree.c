/*
 * layout_tree: the lines that make metrics a tree (the vendor's top-down
 * tree, from a layout generated out of its data, or a layout of one's own):
 * "tree PARENT LEVEL" and "threshold FORMULA" after a metric, and
 * "unavailable NAME SCOPE UNIT WHY" for a node that cannot be counted on
 * this machine.  Parents and thresholds may name metrics defined later, so
 * they are resolved once the whole file is read.  See layout_int.h.
 */
#include "layout.h"
#include "layout_int.h"
#include "expr.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAYOUT_MAX_LEVEL 9

layout_groups layout_key_groups(const struct layout *l, int g)
{
	layout_groups mask = 0;

	if (!l->groups[g].key)
		return LAYOUT_GROUP(g);
	for (int i = 0; i < l->ngroups; i++)
		if (l->groups[i].key == l->groups[g].key)
			mask |= LAYOUT_GROUP(i);
	return mask;
}

layout_groups layout_groups_counted(const struct layout *l, layout_groups groups)
{
	layout_groups counted = groups;

	for (int g = 0; g < l->ngroups; g++)
		if (groups & LAYOUT_GROUP(g))
			counted |= l->groups[g].reads;
	return counted;
}

int layout_group_reads(struct layout_parser *p)
{
	struct layout *l = p->l;
	struct layout_group *g = &l->groups[p->group];
	int rc = layout_want_args(p, 1, -1, "the groups of other keys whose events this key's "
				  "metrics read");

	if (rc)
		return rc;
	if (p->last_metric >= 0 || g->pmu != LAYOUT_PMU_CORE)
		return layout_fail(p, p->tok[0].at, "'reads' in a core group, before its metrics");
	for (int i = 1; i < p->ntok; i++) {
		int r = layout_group_find(l, p->tok[i].text);

		if (r < 0 || r == p->group)
			return layout_fail(p, p->tok[i].at, "a group defined before this one, not '%s'",
					   p->tok[i].text);
		if (l->groups[r].pmu != LAYOUT_PMU_CORE || l->groups[r].coretype != g->coretype)
			return layout_fail(p, p->tok[i].at, "a core group of the same kind of core, "
					   "not '%s'", p->tok[i].text);
		if (g->key && l->groups[r].key == g->key)
			return layout_fail(p, p->tok[i].at, "a group of another key: '%s' is this "
					   "key's own", p->tok[i].text);
		g->reads |= LAYOUT_GROUP(r);
	}
	return 0;
}

bool layout_metric_reads(const struct layout *l, int m, int e)
{
	const int *vars;
	int n;

	expr_vars(l->metrics[m].expr, &vars, &n);
	for (int i = 0; i < n; i++)
		if (vars[i] == layout_event_var(l, e))
			return true;
	return false;
}

int layout_metric_flagged(const struct layout *l, int m, const double *vars)
{
	const struct layout_metric *mt = &l->metrics[m];
	double v;

	if (!mt->threshold || isnan(vars[layout_metric_var(l, m)]))
		return -1;
	v = expr_eval(mt->threshold, vars);
	return isnan(v) ? -1 : v != 0;
}

int layout_tree_line(struct layout_parser *p, const char *eol)
{
	struct layout_metric *mt;
	const char *kw = p->tok[0].text;
	int rc;

	if (p->last_metric < 0)
		return layout_fail(p, p->tok[0].at, "a metric line before '%s'", kw);
	mt = &p->l->metrics[p->last_metric];
	if (!strcmp(kw, "threshold")) {
		const char *f = p->tok[0].at + strlen(kw);
		size_t n;

		while (f < eol && isspace((unsigned char)*f))
			f++;
		n = (size_t)(eol - f);
		if (memchr(f, '#', n))
			n = (size_t)((const char *)memchr(f, '#', n) - f);
		while (n && isspace((unsigned char)f[n - 1]))
			n--;
		/* "own:": pmutop's condition where the vendor publishes none (no name has a colon) */
		if (n >= 4 && !strncmp(f, "own:", 4)) {
			mt->threshold_own = true;
			for (f += 4, n -= 4; n && isspace((unsigned char)*f); f++)
				n--;
		}
		if (!n)
			return layout_fail(p, f, "a formula after 'threshold'");
		if (mt->threshold_text)
			return layout_fail(p, p->tok[0].at, "one 'threshold' line per metric");
		mt->threshold_text = xmalloc(n + 1);
		memcpy(mt->threshold_text, f, n);
		mt->threshold_text[n] = 0;
		mt->threshold_line = p->line;
		return 0;
	}
	if ((rc = layout_want_args(p, 2, 3, "a parent metric (or '-'), a level and its place "
				   "among its siblings")))
		return rc;
	if (mt->level)
		return layout_fail(p, p->tok[0].at, "one 'tree' line per metric");
	{
		uint64_t level;

		if (layout_number(p, &p->tok[2], p->tok[2].text, LAYOUT_MAX_LEVEL, &level))
			return -EINVAL;
		if (!level)
			return layout_fail(p, p->tok[2].at, "a level from 1 to %d", LAYOUT_MAX_LEVEL);
		mt->level = (int)level;
		if (p->ntok > 3) {
			uint64_t pos;

			if (layout_number(p, &p->tok[3], p->tok[3].text, 1u << 20, &pos))
				return -EINVAL;
			mt->tree_pos = (int)pos;
		}
	}
	if (strcmp(p->tok[1].text, "-")) {
		if (!layout_is_name(p->tok[1].text))
			return layout_fail(p, p->tok[1].at, "a metric name or '-', not '%s'",
					   p->tok[1].text);
		mt->parent_name = xstrdup(p->tok[1].text);
		mt->tree_line = p->line;
	}
	return 0;
}

int layout_unavailable(struct layout_parser *p)
{
	struct layout *l = p->l;
	struct layout_metric m = { .group = -1, .line = p->line, .warn = NAN, .crit = NAN,
				   .parent = -1 };
	char why[200];
	int rc, col, s;

	if ((rc = layout_want_args(p, 4, 4, "NAME SCOPE UNIT \"why it is not counted here\"")))
		return rc;
	if ((rc = layout_name_scope(p, &s)))
		return rc;
	if (!p->tok[4].text[0])
		return layout_fail(p, p->tok[4].at, "the reason it is not counted, not \"\"");
	/* a formula that reads nothing; the value is n/a whatever it says (the sample's evaluation) */
	if (expr_parse("0", NULL, NULL, &m.expr, &col, why, sizeof(why)))
		return layout_fail(p, p->tok[0].at, "%s", why);
	m.scope = (enum layout_scope)s;
	m.name = xstrdup(p->tok[1].text);
	m.unit = xstrdup(p->tok[3].text);
	m.formula = xstrdup("n/a");
	m.na = xstrdup(p->tok[4].text);
	l->metrics = xrealloc(l->metrics, (size_t)l->nmetrics + 1, sizeof(*l->metrics));
	l->metrics[l->nmetrics] = m;
	p->last_metric = l->nmetrics++;
	return 0;
}

/* Threshold names: built-ins and every metric, of any group and scope. */
static int layout_threshold_lookup(void *ctx, const char *name, size_t len)
{
	const struct layout *l = ctx;

	for (int i = 0; i < LAYOUT_NBUILTINS; i++)
		if (strlen(layout_builtin_names[i]) == len && !strncmp(layout_builtin_names[i], name, len))
			return i;
	for (int i = 0; i < l->nmetrics; i++)
		if (strlen(l->metrics[i].name) == len && !strncmp(l->metrics[i].name, name, len))
			return LAYOUT_METRIC_TAG + i;
	return -1;
}

/* FILE:LINE:COL for a line read earlier: the message of layout_fail, placed by hand. */
static int layout_fail_at(struct layout_parser *p, int line, int col, const char *msg)
{
	snprintf(p->err, p->errlen, "%s:%d:%d: expected %s", p->top_file, line, col + 1, msg);
	return -EINVAL;
}

int layout_resolve_tree(struct layout_parser *p)
{
	struct layout *l = p->l;
	char why[200], msg[320];
	int col;

	for (int m = 0; m < l->nmetrics; m++) {
		struct layout_metric *mt = &l->metrics[m];

		if (!mt->parent_name)
			continue;
		mt->parent = layout_metric_find(l, mt->parent_name);
		if (mt->parent < 0 || mt->parent == m) {
			snprintf(msg, sizeof(msg), "a parent metric of the layout for '%s', not '%s'",
				 mt->name, mt->parent_name);
			return layout_fail_at(p, mt->tree_line, 5, msg);
		}
	}
	/* no loops: every chain of parents ends within nmetrics steps */
	for (int m = 0; m < l->nmetrics; m++) {
		int steps = 0;

		for (int k = l->metrics[m].parent; k >= 0; k = l->metrics[k].parent)
			if (++steps > l->nmetrics) {
				snprintf(msg, sizeof(msg), "a tree without loops: '%s' is its own "
					 "ancestor", l->metrics[m].name);
				return layout_fail_at(p, l->metrics[m].tree_line, 5, msg);
			}
	}
	for (int m = 0; m < l->nmetrics; m++) {
		struct layout_metric *mt = &l->metrics[m];

		if (!mt->threshold_text)
			continue;
		if (expr_parse(mt->threshold_text, layout_threshold_lookup, l, &mt->threshold, &col,
			       why, sizeof(why))) {
			snprintf(msg, sizeof(msg), "a threshold over metrics for '%s': %s", mt->name,
				 why);
			/* the column within the line: after "threshold " and what precedes the text */
			return layout_fail_at(p, mt->threshold_line, col + 10, msg);
		}
	}
	return 0;
}

enum layout_coretype layout_metric_coretype(const struct layout *l, int m)
{
	const struct layout_metric *mt = &l->metrics[m];
	const int *vars;
	int n;

	if (mt->group >= 0)
		return l->groups[mt->group].coretype;
	if (!mt->expr)
		return LAYOUT_CORES_ANY;
	/* fixed counter 3 and PERF_METRICS: a P-core's (an E-core has neither) */
	expr_vars(mt->expr, &vars, &n);
	for (int i = 0; i < n; i++)
		if (vars[i] >= LAYOUT_B_slots && vars[i] <= LAYOUT_B_topdown_mem_bound)
			return LAYOUT_CORES_P;
	return LAYOUT_CORES_ANY;
}
