/*
 * layout_group: a layout's groups: the "group NAME" line that opens one and
 * the lines inside it to its "end" (its title, key, default state, PMU, kind
 * of core, help, and its events and metrics, layout_items.c).  See
 * layout_int.h.
 */
#include "layout.h"
#include "layout_int.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

int layout_group_open(struct layout_parser *p)
{
	struct layout *l = p->l;
	int rc = layout_want_args(p, 1, 1, "a group name");

	if (rc)
		return rc;
	if (!layout_is_name(p->tok[1].text))
		return layout_fail(p, p->tok[1].at, "a group name (letters, digits, '_', '.')");
	if (layout_group_find(l, p->tok[1].text) >= 0)
		return layout_fail(p, p->tok[1].at, "a new group name: '%s' is already a group",
				   p->tok[1].text);
	if (l->ngroups >= LAYOUT_MAX_GROUPS)
		return layout_fail(p, p->tok[0].at, "at most %d groups in a layout",
				   LAYOUT_MAX_GROUPS);
	l->groups = xrealloc(l->groups, (size_t)l->ngroups + 1, sizeof(*l->groups));
	l->groups[l->ngroups] = (struct layout_group){
		.name = xstrdup(p->tok[1].text), .default_on = true,
		.first_event = l->nevents, .line = p->line,
	};
	p->group = l->ngroups++;
	p->last_metric = -1;
	return 0;
}

int layout_group_line(struct layout_parser *p, const char *eol)
{
	struct layout *l = p->l;
	struct layout_group *g = &l->groups[p->group];
	const char *kw = p->tok[0].text;
	int rc;

	if (!strcmp(kw, "event"))
		return layout_event(p);
	if (!strcmp(kw, "metric"))
		return layout_metric(p, eol);
	if (!strcmp(kw, "title"))
		return layout_set_string(p, &g->title, "a title");
	if (!strcmp(kw, "reads"))
		return layout_group_reads(p);
	if (!strcmp(kw, "thresholds"))
		return layout_thresholds(p);
	if (!strcmp(kw, "tree") || !strcmp(kw, "threshold"))
		return layout_tree_line(p, eol);
	if (!strcmp(kw, "help"))
		return p->last_metric >= 0
		       ? layout_set_string(p, &l->metrics[p->last_metric].help, "a help text")
		       : layout_set_string(p, &g->help, "a help text");
	if (!strcmp(kw, "pmu")) {
		int k;

		if ((rc = layout_want_args(p, 1, 1, "a PMU")))
			return rc;
		for (k = 0; k < LAYOUT_NPMUS; k++)
			if (!strcmp(p->tok[1].text, layout_pmu_kinds[k].name))
				break;
		if (k == LAYOUT_NPMUS)
			return layout_fail(p, p->tok[1].at, "a PMU (core, uncore, cbo, arb or imc), "
					   "not '%s'", p->tok[1].text);
		if (g->nevents || p->last_metric >= 0)
			return layout_fail(p, p->tok[0].at, "'pmu' before the group's first event "
					   "and metric");
		g->pmu = (enum layout_pmu)k;
		return 0;
	}
	if (!strcmp(kw, "coretype")) {
		int k;

		if ((rc = layout_want_args(p, 1, 1, "core or atom")))
			return rc;
		for (k = 1; k < LAYOUT_NCORETYPES; k++)
			if (!strcmp(p->tok[1].text, layout_coretype_names[k]))
				break;
		if (k == LAYOUT_NCORETYPES)
			return layout_fail(p, p->tok[1].at, "core or atom (the kind of core: the "
					   "performance or the efficient cores), not '%s'",
					   p->tok[1].text);
		if (g->pmu != LAYOUT_PMU_CORE)
			return layout_fail(p, p->tok[0].at, "'coretype' in a core group only");
		g->coretype = (enum layout_coretype)k;
		return 0;
	}
	if (!strcmp(kw, "key")) {
		const char *k = p->tok[1].text;

		if ((rc = layout_want_args(p, 1, 1, "a key")))
			return rc;
		if (strlen(k) != 1 || !((k[0] >= '1' && k[0] <= '9') || islower((unsigned char)k[0])) ||
		    strchr(LAYOUT_RESERVED_KEYS, k[0]))
			return layout_fail(p, p->tok[1].at, "a key from 1 to 9 or a lowercase letter "
					   "other than %s (the screen's own keys), not '%s'",
					   LAYOUT_RESERVED_KEYS, k);
		/* groups of one key count one set of metrics in turns: they follow each other */
		for (int i = 0; i < l->ngroups; i++)
			if (i != p->group && l->groups[i].key == k[0] &&
			    l->groups[p->group - 1].key != k[0])
				return layout_fail(p, p->tok[1].at, "a free key: %c already toggles "
						   "group '%s' (groups that share a key follow each "
						   "other)", k[0], l->groups[i].name);
		g->key = k[0];
		return 0;
	}
	if (!strcmp(kw, "default")) {
		if ((rc = layout_want_args(p, 1, 1, "on or off")))
			return rc;
		if (strcmp(p->tok[1].text, "on") && strcmp(p->tok[1].text, "off"))
			return layout_fail(p, p->tok[1].at, "on or off, not '%s'", p->tok[1].text);
		g->default_on = !strcmp(p->tok[1].text, "on");
		return 0;
	}
	if (!strcmp(kw, "end")) {
		if ((rc = layout_want_args(p, 0, 0, "'end'")))
			return rc;
		if (!g->nevents)
			return layout_fail(p, p->tok[0].at, "at least one event in group '%s' before "
					   "'end'", g->name);
		p->group = -1;
		p->last_metric = -1;
		return 0;
	}
	return layout_fail(p, p->tok[0].at, "event, metric, help, thresholds, tree, threshold, "
			   "title, key, default, pmu, coretype, reads or end inside group '%s', not '%s'", g->name, kw);
}

