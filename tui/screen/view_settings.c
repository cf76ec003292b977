/*
 * view_settings: the view's settings as "key value" lines for the settings
 * file (rcfile.h), and the pane names every list of them comes from.
 * UI thread.
 */
#include "view.h"
#include "view_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend.h"
#include "panes.h"
#include "pane.h"

/* ---- settings ------------------------------------------------------------ */

static const char *const view_agg_names[] = { "thread", "core", "socket" };
int view_pane_find(const char *name)
{
	if (!strcmp(name, "table"))
		return VIEW_PANE_TABLE; /* what settings files written before 0.2 say */
	for (int i = 0; i < view_npanes; i++)
		if (!strcmp(name, panes_registry[i]->name))
			return i;
	return -1;
}

bool view_pane_who(int p)
{
	return p >= 0 && p < view_npanes && panes_registry[p]->who;
}

const char *view_lower_pane_list(void)
{
	static char list[128];

	if (!list[0])
		for (int i = VIEW_PANE_TOPO + 1; i < view_npanes; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i == VIEW_PANE_TOPO + 1 ? "" : i + 1 < view_npanes ? ", " : " or ",
				 panes_registry[i]->name);
	return list;
}

int view_settings_format(const struct view *v, char *buf, size_t len)
{
	const struct layout *l = v->info.layout;
	size_t n = 0;
	int first = 1;

	/* the layout its groups and metrics are of: a home shared by machines of other CPUs */
	n += (size_t)snprintf(buf + n, len - n, "layout %s\ninterval %g\ngroups ", l->name,
			      v->interval);
	for (int g = 0; g < l->ngroups && n < len; g++)
		if (v->groups & LAYOUT_GROUP(g)) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",",
					      l->groups[g].name);
			first = 0;
		}
	if (first && n < len)
		n += (size_t)snprintf(buf + n, len - n, "none");
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n,
				      "\nheat %s\naggregation %s\nsort %s\nreverse %s\npane %s\nhide ",
				      l->metrics[v->heat_metric].name, view_agg_names[v->agg],
				      v->sort_metric < 0 ? "topology" : l->metrics[v->sort_metric].name,
				      v->sort_rev ? "yes" : "no", panes_registry[v->lower]->name);
	first = 1;
	for (int m = 0; m < l->nmetrics && n < len; m++)
		if (v->col_hidden[m]) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",",
					      l->metrics[m].name);
			first = 0;
		}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s\n", first ? "none" : "");
	return n < len ? 0 : -ENOSPC;
}

static int view_pick(const char *const *names, int n, const char *value)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], value))
			return i;
	return -1;
}

int view_setting_apply(struct view *v, const char *key, const char *value, char *err, size_t errlen)
{
	const struct layout *l = v->info.layout;
	char *end;

	if (!strcmp(key, "layout")) {
		v->rc_other_layout = strcmp(value, l->name) != 0;
		return 0;
	}
	/* another layout's groups and metrics: this one's defaults stay (its other settings apply) */
	if (v->rc_other_layout && (!strcmp(key, "groups") || !strcmp(key, "heat") ||
				   !strcmp(key, "sort") || !strcmp(key, "hide")))
		return 0;
	if (!strcmp(key, "interval")) {
		double d = strtod(value, &end);

		if (*end || !(d >= ENGINE_INTERVAL_MIN && d <= ENGINE_INTERVAL_MAX)) {
			snprintf(err, errlen, "interval '%s': expected seconds from %g to %g", value,
				 ENGINE_INTERVAL_MIN, ENGINE_INTERVAL_MAX);
			return -EINVAL;
		}
		v->interval = d;
		return 0;
	}
	if (!strcmp(key, "groups")) {
		layout_groups mask = 0;
		char *list = xstrdup(value), *save = NULL; /* as long as the line: -g all's names */

		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int g = layout_group_find(l, w);

			if (!strcmp(w, "none"))
				continue;
			if (g < 0) {
				snprintf(err, errlen, "groups: layout %s has no group '%s'", l->name, w);
				free(list);
				return -EINVAL;
			}
			mask |= LAYOUT_GROUP(g);
		}
		free(list);
		/*
		 * a group new to the layout since the file was written (Power.psys beside
		 * Power) counts with its key's others where it starts on: a key turns all
		 * of its groups on or off at once
		 */
		for (int g = 0; g < l->ngroups; g++)
			if (!(mask & LAYOUT_GROUP(g)) && l->groups[g].default_on &&
			    (mask & layout_key_groups(l, g)))
				mask |= LAYOUT_GROUP(g);
		v->groups = mask;
		return 0;
	}
	if (!strcmp(key, "heat") || !strcmp(key, "sort")) {
		int m = layout_metric_find(l, value);

		if (!strcmp(key, "sort") && !strcmp(value, "topology")) {
			v->sort_metric = -1;
			return 0;
		}
		/* the heatmap also takes a metric per core (its threads show the core's figure) */
		if (m < 0 || (l->metrics[m].scope != LAYOUT_THREAD &&
			      (strcmp(key, "heat") || l->metrics[m].scope != LAYOUT_CORE))) {
			snprintf(err, errlen, "%s: layout %s has no %s metric '%s'", key, l->name,
				 strcmp(key, "heat") ? "thread" : "thread or core", value);
			return -EINVAL;
		}
		*(strcmp(key, "heat") ? &v->sort_metric : &v->heat_metric) = m;
		return 0;
	}
	if (!strcmp(key, "aggregation") || !strcmp(key, "pane")) {
		bool agg = !strcmp(key, "aggregation");
		int i = agg ? view_pick(view_agg_names, 3, value) : view_pane_find(value);

		if (i < 0 || (!agg && i == VIEW_PANE_TOPO)) {
			snprintf(err, errlen, "%s '%s': expected %s", key, value,
				 agg ? "thread, core or socket" : view_lower_pane_list());
			return -EINVAL;
		}
		if (agg)
			v->agg = (enum view_agg)i;
		else
			v->lower = i;
		return 0;
	}
	if (!strcmp(key, "reverse")) {
		if (strcmp(value, "yes") && strcmp(value, "no")) {
			snprintf(err, errlen, "reverse '%s': expected yes or no", value);
			return -EINVAL;
		}
		v->sort_rev = !strcmp(value, "yes");
		return 0;
	}
	if (!strcmp(key, "hide")) {
		char *list = xstrdup(value), *save = NULL;

		memset(v->col_hidden, 0, sizeof(bool) * (size_t)l->nmetrics);
		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int m = layout_metric_find(l, w);

			if (!strcmp(w, "none"))
				continue;
			if (m < 0) {
				snprintf(err, errlen, "hide: layout %s has no metric '%s'", l->name, w);
				free(list);
				return -EINVAL;
			}
			v->col_hidden[m] = true;
		}
		free(list);
		return 0;
	}
	snprintf(err, errlen, "unknown setting '%s' (known: layout, interval, groups, heat, "
		 "aggregation, sort, reverse, pane, hide)", key);
	return -EINVAL;
}

/* Intel's metrics that are figures pmutop computes under its own names: {the vendor's, pmutop's} */
static const char *const view_same[][2] = {
	{ "cpu_utilization", "util" }, { "cpu_operating_frequency", "ghz" },
	{ "Info_Thread_IPC", "ipc" }, { "Info_Thread_CPI", "cpi" },
};

void view_hide_same(struct view *v)
{
	const struct layout *l = v->info.layout;

	/* the vendor's name for a figure pmutop has a column of its own for: hidden (F2 shows it) */
	for (size_t i = 0; i < sizeof(view_same) / sizeof(view_same[0]); i++) {
		int dup = layout_metric_find(l, view_same[i][0]);

		if (dup >= 0 && layout_metric_find(l, view_same[i][1]) >= 0)
			v->col_hidden[dup] = true;
	}
}
