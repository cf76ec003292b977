/*
 * cycles_pane: where each thread's cycles go, as one stacked bar per thread
 * (seed 000 "Stall Decomposition Overview"): the cycles a uop was
 * dispatched, then each counted cause (count x penalty), then the
 * unaccounted rest.  The segments are the layout's cyc_*_pct metrics in
 * layout order, the rest last; each segment has its own letter as well as
 * its colour, so the bar reads on a monochrome terminal and in --dump.  A
 * rest below zero (the causes overlap: the sequential-penalty model
 * over-counts) is shown as a number and an overflow mark, never as a
 * negative bar.  UI thread.
 */
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CYCLES_MAX_SEGS 8
#define CYCLES_REST "cyc_unaccounted_pct"

/* The segments: the layout's cyc_*_pct metrics, the unaccounted rest last; their count. */
static int cycles_pane_segments(const struct layout *l, int *segs)
{
	int n = 0, rest = layout_metric_find(l, CYCLES_REST);

	for (int m = 0; m < l->nmetrics && n < CYCLES_MAX_SEGS - 1; m++)
		if (!strncmp(l->metrics[m].name, "cyc_", 4) && m != rest &&
		    !strcmp(l->metrics[m].unit, "%"))
			segs[n++] = m;
	if (rest >= 0)
		segs[n++] = rest;
	return n;
}

static const struct {
	char mark;
	enum grid_style style;
} cycles_pane_look[CYCLES_MAX_SEGS] = {
	{ '=', GRID_HEAT2 }, { 'l', GRID_HEAT1 }, { 'L', GRID_HEAT3 }, { 'R', GRID_HEAT4 },
	{ 'x', GRID_HEAT1 }, { 'y', GRID_HEAT2 }, { 'z', GRID_HEAT3 }, { '.', GRID_DIM },
};

/* Segment K's look: the rest is always the dim '.'. */
static int cycles_pane_look_of(int k, int nsegs)
{
	return k == nsegs - 1 ? CYCLES_MAX_SEGS - 1 : k;
}

/* One thread's bar from column X, W wide: each segment's share rounded so the bar adds up. */
static void cycles_pane_bar(const struct sample *s, const struct sample_entity *e, const int *segs,
			    int nsegs, int y, int x, int w, struct grid *g)
{
	double sum = 0;
	int at = 0;

	for (int k = 0; k < nsegs; k++) {
		double v = sample_metric(s, e, segs[k]);

		sum += isnan(v) ? 0 : fmax(0, v);
		{
			int end = (int)lround(fmin(sum, 100) / 100 * w);
			int look = cycles_pane_look_of(k, nsegs);

			for (; at < end; at++)
				grid_put(g, y, x + at, 1, cycles_pane_look[look].style, "%c",
					 cycles_pane_look[look].mark);
		}
	}
	/* the counted causes overshoot: the model over-counts overlapping penalties */
	if (sum > 100.5)
		grid_put(g, y, x + w - 1, 1, GRID_CRIT, ">");
}

static int cycles_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			    struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	int segs[CYCLES_MAX_SEGS], nsegs = cycles_pane_segments(l, segs), row = 0, shown = 0, x;
	int label = 12, numw = 7, barw, legend = 1;
	char buf[32];
	bool live;

	if (!nsegs) {
		grid_put(g, y, 2, g->w - 4, GRID_DIM, "Layout %s has no stall decomposition (cyc_* metrics).",
			 l->name);
		return h;
	}
	live = s->groups[l->metrics[segs[0]].group].state == SAMPLE_GROUP_LIVE ||
	       s->groups[l->metrics[segs[0]].group].state == SAMPLE_GROUP_ROTATING;
	if (!live) {
		const struct layout_group *gr = &l->groups[l->metrics[segs[0]].group];

		grid_put(g, y, 2, g->w - 4, GRID_WARN, "The stall decomposition is off: press %c (%s)%s%s",
			 gr->key, gr->name,
			 s->groups[l->metrics[segs[0]].group].state == SAMPLE_GROUP_BLOCKED ? ": " : "",
			 s->groups[l->metrics[segs[0]].group].state == SAMPLE_GROUP_BLOCKED
			 ? s->groups[l->metrics[segs[0]].group].why : "");
		return h;
	}
	/*
	 * legend: each segment's letter and whole name, the way the bar reads,
	 * on as many lines as it takes under the title
	 */
	grid_put(g, y, 1, g->w - 2, GRID_BOLD, "Where the cycles go, of each thread's cycles "
		 "(stalls: count x penalty):");
	x = 2;
	for (int k = 0; k < nsegs; k++) {
		int look = cycles_pane_look_of(k, nsegs);
		const char *name = l->metrics[segs[k]].name + 4;
		int len = (int)strlen(name) - 4 + 4; /* "X " and the name without cyc_ and _pct */

		if (x + len > g->w - 1 && x > 2) {
			legend++;
			x = 2;
		}
		grid_put(g, y + legend, x, 1, cycles_pane_look[look].style, "%c",
			 cycles_pane_look[look].mark);
		x += 2 + grid_put(g, y + legend, x + 2, g->w - 3 - x, GRID_NORMAL, "%.*s",
				  (int)strlen(name) - 4, name) + 2;
	}
	legend++;
	/* a column per segment: its whole name where the width allows, else its letter */
	for (int k = 0; k < nsegs; k++) {
		int n = (int)strlen(l->metrics[segs[k]].name) - 8 + 2;

		if (n > numw)
			numw = n;
	}
	if (g->w - label - nsegs * numw - 2 < 20)
		numw = 7; /* narrow: the legend's letters head the columns */
	barw = g->w - label - nsegs * numw - 2;
	if (barw < 10)
		barw = 10;
	grid_blank(g, y + legend, 0, g->w, GRID_HEADER);
	grid_put(g, y + legend, 0, label, GRID_HEADER, " cpu");
	grid_put(g, y + legend, label, barw, GRID_HEADER, "0 %% ... 100 %% of cycles");
	for (int k = 0; k < nsegs; k++) {
		const char *name = l->metrics[segs[k]].name + 4;
		int look = cycles_pane_look_of(k, nsegs);

		if (numw > 7)
			snprintf(buf, sizeof(buf), "%.*s", (int)strlen(name) - 4, name);
		else
			snprintf(buf, sizeof(buf), "%c %%", cycles_pane_look[look].mark);
		grid_put_right(g, y + legend, label + barw + k * numw, numw, GRID_HEADER, buf);
	}
	y += legend - 1; /* the rows below the header as before */
	/* the threads shown; more than the rows: they scroll (Up, Down) and "+N more" says so */
	{
		int *list = xcalloc((size_t)s->nthreads + 1, sizeof(int)), rows = h - 2 - legend, first;

		for (int i = 0; i < s->nthreads; i++)
			if (pane_cpu_shown(v, s->threads[i].index) &&
			    (v->zoom_socket < 0 || s->threads[i].socket == v->zoom_socket))
				list[shown++] = i;
		first = pane_scroll(v, VIEW_PANE_CYCLES, f, shown, rows);
		for (int r = first; r < shown && row < rows; r++) {
			const struct sample_entity *e = &s->threads[list[r]];

			grid_put(g, y + 2 + row, 0, label, GRID_NORMAL, " %4d", e->index);
			cycles_pane_bar(s, e, segs, nsegs, y + 2 + row, label, barw - 1, g);
			for (int k = 0; k < nsegs; k++) {
				double val = sample_metric(s, e, segs[k]);

				pane_value(s, segs[k], val, buf, sizeof(buf));
				grid_put_right(g, y + 2 + row, label + barw + k * numw, numw,
					       isnan(val) ? GRID_DIM : val < 0 ? GRID_WARN : GRID_NORMAL,
					       buf);
			}
			pane_hit(f, y + 2 + row, 0, g->w, VIEW_PANE_CYCLES, r, e->socket,
				 VIEW_AGG_THREAD, list[r]);
			row++;
		}
		if (shown > first + row)
			grid_put(g, y + 2 + row, 1, g->w - 2, GRID_DIM, "+%d more threads (Tab here, then "
				 "Up and Down scroll; / filters CPUs)", shown - first - row);
		free(list);
	}
	return h;
}

const struct pane cycles_pane = {
	.name = "cycles", .title = "Cycles",
	.help = "where each thread's cycles go: executing, each counted stall cause (count x "
		"penalty) and the unaccounted rest, as one stacked bar per thread",
	.draw = cycles_pane_draw,
};
