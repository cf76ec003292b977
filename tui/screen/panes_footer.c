/*
 * panes_footer: the counter footer of the screen (panes.h): the counters a
 * thread has, used, free and taken, the rotation, then each key's groups
 * with their size and state, on as many rows as they need (at most 2 under
 * 40 rows, else 3: the groups that are off are then counted, not listed, and
 * past that one line counts them all by state).  UI thread.
 */
#include "panes.h"
#include "pane.h"

#include <stdio.h>
#include <string.h>

/* A group's state in its colour: LIVE green, ROT yellow, BLOCKED red, off dim. */
static enum grid_style panes_footer_style(enum sample_group_state st)
{
	return st == SAMPLE_GROUP_LIVE ? GRID_OK : st == SAMPLE_GROUP_ROTATING ? GRID_WARN
	       : st == SAMPLE_GROUP_BLOCKED ? GRID_CRIT : GRID_DIM;
}

/* One "| item" of the footer at *X of row *Y, on the next row when it does not fit. */
static void panes_footer_item(struct grid *g, int *x, int *y, int *rows, const char *item, int len,
			      enum grid_style style, bool draw)
{
	if (*x + len + 2 > g->w - 1) {
		(*rows)++;
		(*y)++;
		*x = 1;
	}
	if (draw) {
		grid_put(g, *y, *x, g->w - 1 - *x, GRID_DIM, "|");
		grid_put(g, *y, *x + 2, g->w - 3 - *x, style, "%s", item);
	}
	*x += len + 3;
}

/* The counter budget: free counters, then each group with its key, size and state. */
static int panes_footer_rows(const struct view *v, const struct sample *s, struct grid *g, int y,
			     bool draw, bool only_on, bool summary)
{
	const struct layout *l = v->info.layout;
	int x = 1, rows = 1;

	{
		char head[96], rot[32] = "";

		if (s && s->rotation_s > 0)
			snprintf(rot, sizeof(rot), ", rotation %.2g ms", 1e3 * s->rotation_s);
		/* used by pmutop, free, and taken by another program: never "free" for what is in use */
		if (s && s->unc_usable)
			snprintf(head, sizeof(head), "Counters/thread: %d used %d free %u taken%s; %d/uncore ",
				 s->gp_used, s->gp_usable - s->gp_used,
				 v->info.gp_counters - (unsigned)s->gp_usable, rot, s->unc_usable);
		else if (s)
			snprintf(head, sizeof(head), "Counters/thread: %d used %d free %u taken%s ",
				 s->gp_used, s->gp_usable - s->gp_used,
				 v->info.gp_counters - (unsigned)s->gp_usable, rot);
		else
			snprintf(head, sizeof(head), "Counters/thread: %u ", v->info.gp_counters);
		if (draw)
			x += grid_put(g, y, x, g->w - 2, GRID_BOLD, "%s", head);
		else
			x += (int)strlen(head);
	}
	int off = 0, count[4] = { 0 };

	/* still too many: one item, the groups counted by state */
	if (summary) {
		char item[96];
		int len;

		for (int i = 0; i < l->ngroups; i++)
			count[s ? s->groups[i].state : SAMPLE_GROUP_OFF]++;
		len = snprintf(item, sizeof(item), "groups: %d LIVE, %d ROT, %d BLOCKED, %d off (F1 "
			       "lists them)", count[SAMPLE_GROUP_LIVE], count[SAMPLE_GROUP_ROTATING],
			       count[SAMPLE_GROUP_BLOCKED], count[SAMPLE_GROUP_OFF]);
		panes_footer_item(g, &x, &y, &rows, item, len, count[SAMPLE_GROUP_BLOCKED] ? GRID_CRIT
				  : count[SAMPLE_GROUP_ROTATING] ? GRID_WARN : GRID_OK, draw);
		return rows;
	}
	for (int i = 0; i < l->ngroups; i++) {
		static const char *const names[] = { "off", "LIVE", "ROT", "BLOCKED" };
		enum sample_group_state st = s ? s->groups[i].state : SAMPLE_GROUP_OFF;
		enum grid_style style = panes_footer_style(st);
		char item[96];
		int len;

		if (!s && (v->groups & LAYOUT_GROUP(i)))
			style = GRID_NORMAL;
		/* a narrow screen: the groups that are off are counted (a key's as one), not listed */
		if (only_on && st == SAMPLE_GROUP_OFF && !(!s && (v->groups & LAYOUT_GROUP(i)))) {
			off += !(layout_key_groups(l, i) & (LAYOUT_GROUP(i) - 1));
			continue;
		}
		/* the groups of one key (passes of one set of metrics) are one item */
		layout_groups set = layout_key_groups(l, i);
		int nev = 0, passes = layout_groups_count(set);

		if (set & (LAYOUT_GROUP(i) - 1))
			continue;
		for (layout_groups u = set; u; u &= u - 1)
			nev += l->groups[layout_groups_first(u)].nevents;
		/* some of its groups on (drill counts those a node reads): their state, and how many */
		int on = layout_groups_count(v->groups & set);

		if (s && on && on < passes) {
			st = s->groups[layout_groups_first(v->groups & set)].state;
			style = panes_footer_style(st);
		}
		/* free-running IMC counters take no programmable counter; a key not asked for whose
		 * groups count for another key's metrics (its "reads": the Bottleneck metrics) says so */
		len = snprintf(item, sizeof(item), "%c %s:%d%s%.0d %s",
			       l->groups[i].key ? l->groups[i].key : ' ', l->groups[i].name,
			       layout_pmu_kinds[l->groups[i].pmu].free_running ? 0 : nev,
			       passes > 1 ? "/" : "", passes > 1 ? passes : 0,
			       s && st != SAMPLE_GROUP_OFF && !(v->groups & set) ? "read" : names[st]);
		if (s && on && on < passes && len < (int)sizeof(item))
			len += snprintf(item + len, sizeof(item) - (size_t)len, " %d/%d", on, passes);
		panes_footer_item(g, &x, &y, &rows, item, len, style, draw);
	}
	if (off) {
		char item[64];
		int len = snprintf(item, sizeof(item), "%d more off (F1 lists them)", off);

		panes_footer_item(g, &x, &y, &rows, item, len, GRID_DIM, draw);
	}
	return rows;
}

/*
 * The counter budget: free counters, then each group with its key, size
 * and state; when that takes more than a few rows (two on a short screen,
 * three otherwise), the groups that are off are only counted, so the panes
 * keep their room.  Returns the rows used.
 */
int panes_footer(const struct view *v, const struct sample *s, struct grid *g, int y,
			bool draw)
{
	int most = g->h < 40 ? 2 : 3;
	bool only_on = panes_footer_rows(v, s, g, y, false, false, false) > most;
	bool summary = only_on && panes_footer_rows(v, s, g, y, false, true, false) > most;

	return panes_footer_rows(v, s, g, y, draw, only_on, summary);
}

