/*
 * cycles_pane: where each thread's cycles go, as one stacked bar per thread
 * (seed 000 "Stall Decomposition Overview"): the cycles a uop was
 * dispatched, then each counted cause (count x penalty), then the
 * unaccounted rest.  The segments are the layout's cyc_*_pct metrics in
 * layout order, the rest last; each segment has its own letter as well as
 * its colour, so the bar reads on a monochrome terminal and in --dump.  A
 * rest below zero (the causes overlap: the sequential-penalty model
 * over-counts) is shown as a number and an overflow mark, never as a
 * negative bar.  A layout made from Intel's data has no cyc_* metrics: the
 * bar is then the vendor's tree, in its names: level 1 with Backend_Bound
 * split into Core_Bound and Memory_Bound's levels (L1_Bound to
 * Store_Bound), each thread's share of the slots; a node the vendor
 * resolves per core shows its core's figure.  UI thread.
 */
#include "pane.h"
#include "xmalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CYCLES_MAX_SEGS 12
#define CYCLES_REST "cyc_unaccounted_pct"

struct cycles_look {
	char mark;
	enum grid_style style;
};

static const struct cycles_look cycles_pane_look[CYCLES_MAX_SEGS] = {
	{ '=', GRID_HEAT2 }, { 'l', GRID_HEAT1 }, { 'L', GRID_HEAT3 }, { 'R', GRID_HEAT4 },
	{ 'x', GRID_HEAT1 }, { 'y', GRID_HEAT2 }, { 'z', GRID_HEAT3 }, { 'w', GRID_HEAT4 },
	{ 'u', GRID_HEAT1 }, { 'v', GRID_HEAT2 }, { 't', GRID_HEAT3 }, { '.', GRID_DIM },
};

/*
 * The vendor's tree as segments: level 1's letters as the tree pane's, the
 * back end split into Core_Bound and Memory_Bound, which is split in turn
 * into its children (whatever the vendor calls them: DRAM_Bound,
 * L3_Miss_Bound, PMM_Bound) when they are counted.
 */
static const struct {
	const char *name;
	struct cycles_look look;
} cycles_pane_tree[] = {
	{ "Retiring", { '=', GRID_HEAT2 } }, { "Bad_Speculation", { 'S', GRID_HEAT4 } },
	{ "Frontend_Bound", { 'F', GRID_HEAT1 } }, { "Core_Bound", { 'C', GRID_HEAT3 } },
	{ "Memory_Bound", { 'M', GRID_HEAT4 } },
};

/* Memory_Bound's child NAME's letter and colour: its level of the hierarchy, else its initial. */
static struct cycles_look cycles_pane_mem_look(const char *name, int k)
{
	static const struct {
		const char *part;
		char mark;
	} by[] = { { "L1", '1' }, { "L2", '2' }, { "L3_Bound", '3' }, { "DRAM", 'D' },
		   { "L3_Miss", 'D' }, { "MEM", 'D' }, { "PMM", 'P' }, { "Store", 'W' } };
	static const enum grid_style st[] = { GRID_HEAT2, GRID_HEAT1, GRID_HEAT4, GRID_HEAT3 };
	struct cycles_look look = { name[0], st[k % 4] };

	for (size_t i = 0; i < sizeof(by) / sizeof(by[0]); i++)
		if (strstr(name, by[i].part)) {
			look.mark = by[i].mark;
			break;
		}
	return look;
}

/*
 * The segments: the layout's cyc_*_pct metrics, the unaccounted rest last;
 * else the vendor's tree nodes above (those the layout counts) and
 * Memory_Bound's children.  Their count; LOOK[k] each one's letter and
 * colour; *TREE which it is.
 */
static int cycles_pane_segments(const struct layout *l, int *segs, struct cycles_look *look,
				bool *tree)
{
	int n = 0, rest = layout_metric_find(l, CYCLES_REST), mem = -1;

	for (int m = 0; m < l->nmetrics && n < CYCLES_MAX_SEGS - 1; m++)
		if (!strncmp(l->metrics[m].name, "cyc_", 4) && m != rest &&
		    !strcmp(l->metrics[m].unit, "%")) {
			look[n] = cycles_pane_look[n];
			segs[n++] = m;
		}
	if (rest >= 0) {
		look[n] = cycles_pane_look[CYCLES_MAX_SEGS - 1]; /* always the dim '.' */
		segs[n++] = rest;
	}
	*tree = !n;
	for (size_t k = 0; *tree && k < sizeof(cycles_pane_tree) / sizeof(cycles_pane_tree[0]); k++) {
		int m = layout_metric_find(l, cycles_pane_tree[k].name);

		/* a node of the vendor's tree the layout counts (not a metric of that name) */
		if (m >= 0 && !l->metrics[m].na && l->metrics[m].level) {
			look[n] = cycles_pane_tree[k].look, segs[n++] = m;
			if (!strcmp(cycles_pane_tree[k].name, "Memory_Bound"))
				mem = m;
		}
	}
	if (mem >= 0) {
		int *kids = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
		int nk = tree_children(l, mem, kids, layout_metric_coretype(l, mem));

		for (int i = 0; i < nk && n < CYCLES_MAX_SEGS; i++)
			if (!l->metrics[kids[i]].na) {
				look[n] = cycles_pane_mem_look(tree_node_name(l->metrics[kids[i]].name), i);
				segs[n++] = kids[i];
			}
		free(kids);
	}
	return n;
}

/*
 * A hybrid's other kind of core's node for tree node M: the node of the
 * same name in the other kind's tree (the kernel's E-core names are the
 * vendor's with "tma_" and in lower case: tma_retiring for Retiring), or -1.
 * So an E-core's row reads its own figures under the P-cores' names.
 */
static int cycles_pane_alt(const struct layout *l, int m)
{
	enum layout_coretype kind = layout_metric_coretype(l, m);
	const char *name = tree_node_name(l->metrics[m].name);

	if (!l->metrics[m].level || kind == LAYOUT_CORES_ANY)
		return -1;
	for (int k = 0; k < l->nmetrics; k++) {
		const char *other = tree_node_name(l->metrics[k].name);

		if (k == m || !l->metrics[k].level || l->metrics[k].na ||
		    layout_metric_coretype(l, k) == kind)
			continue;
		if (!strncasecmp(other, "tma_", 4))
			other += 4;
		if (!strcasecmp(other, name))
			return k;
	}
	return -1;
}

/* Thread I's figure of segment M, else its kind of core's node of that name (ALT, -1 none). */
static double cycles_pane_value(const struct sample *s, int i, int m, int alt)
{
	double v = pane_thread_value(s, i, m);

	return isnan(v) && alt >= 0 ? pane_thread_value(s, i, alt) : v;
}

/* A segment's name as the pane shows it: without "cyc_" and "_pct"; *LEN its length. */
static const char *cycles_pane_name(const struct layout *l, int m, int *len)
{
	const char *name = l->metrics[m].name;
	size_t n = strlen(name);

	if (!strncmp(name, "cyc_", 4) && n > 8 && !strcmp(name + n - 4, "_pct")) {
		*len = (int)n - 8;
		return name + 4;
	}
	*len = (int)n;
	return name;
}

/*
 * Each segment's share of thread I's bar, in % (into W).  The vendor's
 * memory levels (L1_Bound to Store_Bound) are shares of the cycles, not of
 * the slots, and do not add up to Memory_Bound: the bar splits Memory_Bound
 * (MEM, a share of the slots) between them as their figures stand to each
 * other, so it adds up to the slots; the columns keep the vendor's figures.
 */
static void cycles_pane_shares(const struct sample *s, int i, const int *segs, const int *alt,
			       int nsegs, bool tree, int mem, double *w)
{
	double sum = 0, membound = tree && mem >= 0 ? pane_thread_value(s, i, mem) : NAN;
	int first = -1;

	for (int k = 0; k < nsegs; k++) {
		double v = cycles_pane_value(s, i, segs[k], alt[k]);

		w[k] = isnan(v) ? 0 : fmax(0, v);
		if (tree && s->layout->metrics[segs[k]].parent == mem && mem >= 0) {
			first = first < 0 ? k : first;
			sum += w[k];
		}
	}
	for (int k = first; k >= 0 && k < nsegs; k++)
		if (s->layout->metrics[segs[k]].parent == mem)
			w[k] = sum > 0 && !isnan(membound) ? fmax(0, membound) * w[k] / sum : 0;
	/* Memory_Bound whole (M) where its levels are not counted, so the bar adds up to the slots */
	for (int k = 0; tree && k < nsegs; k++)
		if (segs[k] == mem && sum > 0)
			w[k] = 0;
}

/* One thread's bar from column X, W wide: each segment's share rounded so the bar adds up. */
static void cycles_pane_bar(const double *share, const struct cycles_look *look, int nsegs, int y,
			    int x, int w, struct grid *g)
{
	double sum = 0;
	int at = 0;

	for (int k = 0; k < nsegs; k++) {
		int end;

		sum += share[k];
		end = (int)lround(fmin(sum, 100) / 100 * w);
		for (; at < end; at++)
			grid_put(g, y, x + at, 1, look[k].style, "%c", look[k].mark);
	}
	/* the counted causes overshoot: the model over-counts overlapping penalties */
	if (sum > 100.5)
		grid_put(g, y, x + w - 1, 1, GRID_CRIT, ">");
}

static int cycles_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			    struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	int segs[CYCLES_MAX_SEGS], alt[CYCLES_MAX_SEGS], row = 0, shown = 0, x, off = -1, ncol;
	int label = 12, numw = 7, barw, legend = 1, nsegs, len, mem = layout_metric_find(l, "Memory_Bound");
	struct cycles_look look[CYCLES_MAX_SEGS];
	char buf[32];
	bool tree;

	nsegs = cycles_pane_segments(l, segs, look, &tree);
	for (int k = 0; k < nsegs; k++)
		alt[k] = tree ? cycles_pane_alt(l, segs[k]) : -1;
	if (!nsegs) {
		int *roots = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
		bool has_tree = tree_children(l, -1, roots, tree_shown_kind(v)) > 0;

		free(roots);
		/* a vendor's tree of other names (AMD's pipeline utilization): where the cycles go is there */
		grid_put_wrap(g, y, 2, g->w - 4, h, GRID_DIM, has_tree
			      ? "Layout %s has no stall decomposition of pmutop's (cyc_* metrics): where "
			      "the slots go is its vendor's tree, in the Tree pane (Tab to it), its "
			      "bottleneck flagged there and on the bottleneck line."
			      : "Layout %s has no stall decomposition (cyc_* metrics).", l->name);
		return h;
	}
	/* the first segment whose group does not count (a metric outside groups always does) */
	for (int k = 0; k < nsegs && off < 0; k++) {
		int gr = l->metrics[segs[k]].group;

		if (gr >= 0 && s->groups[gr].state != SAMPLE_GROUP_LIVE &&
		    s->groups[gr].state != SAMPLE_GROUP_ROTATING)
			off = gr;
	}
	if (off >= 0 && (!tree || off == l->metrics[segs[0]].group)) {
		grid_put(g, y, 2, g->w - 4, GRID_WARN, "The stall decomposition is off: press %c (%s)%s%s",
			 l->groups[off].key, l->groups[off].name,
			 s->groups[off].state == SAMPLE_GROUP_BLOCKED ? ": " : "",
			 s->groups[off].state == SAMPLE_GROUP_BLOCKED ? s->groups[off].why : "");
		return h;
	}
	/*
	 * legend: each segment's letter and whole name, the way the bar reads,
	 * on as many lines as it takes under the title
	 */
	if (tree)
		grid_put(g, y, 1, g->w - 2, GRID_BOLD, "Where the slots go (Intel's top-down tree; "
			 "the bar splits Memory_Bound by its levels' figures):");
	else
		grid_put(g, y, 1, g->w - 2, GRID_BOLD, "Where the cycles go, of each thread's cycles "
			 "(stalls: count x penalty):");
	x = 2;
	for (int k = 0; k < nsegs; k++) {
		const char *name = cycles_pane_name(l, segs[k], &len);

		if (x + len + 4 > g->w - 1 && x > 2) {
			legend++;
			x = 2;
		}
		grid_put(g, y + legend, x, 1, look[k].style, "%c", look[k].mark);
		x += 2 + grid_put(g, y + legend, x + 2, g->w - 3 - x, GRID_NORMAL, "%.*s", len,
				  name) + 2;
	}
	for (int k = 0; k < nsegs && g->h >= 30; k++)
		if (alt[k] >= 0) {
			/* a hybrid: the other kind's rows under these names (a small screen keeps its rows) */
			legend++;
			grid_put(g, y + legend, 2, g->w - 4, GRID_DIM, "%s-cores: their own nodes of these "
				 "names (%s); the rest of their bar, nodes without one, is blank",
				 layout_metric_coretype(l, alt[k]) == LAYOUT_CORES_E ? "E" : "P",
				 l->metrics[alt[k]].name);
			break;
		}
	if (off >= 0) {
		legend++;
		if (tree)
			grid_put(g, y + legend, 2, g->w - 4, GRID_WARN, "%s is off: press %c to split "
				 "Memory_Bound (M) by its levels", l->groups[off].name, l->groups[off].key);
		else
			grid_put(g, y + legend, 2, g->w - 4, GRID_WARN, "%s is off: press %c (%s) for "
				 "the rest of the bar", l->groups[off].name, l->groups[off].key,
				 l->groups[off].name);
	}
	legend++;
	/* a column per segment: its whole name where the width allows, else its letter */
	for (int k = 0; k < nsegs; k++) {
		cycles_pane_name(l, segs[k], &len);
		if (len + 2 > numw)
			numw = len + 2;
	}
	if (g->w - label - nsegs * numw - 2 < 22)
		numw = 7; /* narrow: the legend's letters head the columns */
	/* the bar keeps its scale whole ("0 % ... 100 % of slots"): the last columns go first */
	ncol = nsegs;
	while (ncol > 0 && g->w - label - ncol * numw - 2 < 22)
		ncol--;
	barw = g->w - label - ncol * numw - 2;
	grid_blank(g, y + legend, 0, g->w, GRID_HEADER);
	grid_put(g, y + legend, 0, label, GRID_HEADER, " cpu");
	grid_put(g, y + legend, label, barw, GRID_HEADER, "0 %% ... 100 %% of %s",
		 tree ? "slots" : "cycles");
	for (int k = 0; k < ncol; k++) {
		const char *name = cycles_pane_name(l, segs[k], &len);

		if (numw > 7)
			snprintf(buf, sizeof(buf), "%.*s", len, name);
		else
			snprintf(buf, sizeof(buf), "%c %%", look[k].mark);
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
		first = pane_scroll(v, f, shown, rows);
		for (int r = first; r < shown && row < rows; r++) {
			const struct sample_entity *e = &s->threads[list[r]];

			grid_put(g, y + 2 + row, 0, label, GRID_NORMAL, " %4d", e->index);
			double share[CYCLES_MAX_SEGS];

			cycles_pane_shares(s, list[r], segs, alt, nsegs, tree, mem, share);
			cycles_pane_bar(share, look, nsegs, y + 2 + row, label, barw - 1, g);
			for (int k = 0; k < ncol; k++) {
				double val = cycles_pane_value(s, list[r], segs[k], alt[k]);

				pane_value(s, segs[k], val, buf, sizeof(buf));
				grid_put_right(g, y + 2 + row, label + barw + k * numw, numw,
					       isnan(val) ? GRID_DIM : val < 0 ? GRID_WARN : GRID_NORMAL,
					       buf);
			}
			pane_hit(f, y + 2 + row, 0, g->w, r, e->socket,
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
		"penalty) and the unaccounted rest, as one stacked bar per thread (with Intel's "
		"data: the top-down tree, the back end split into core and memory levels)",
	.draw = cycles_pane_draw,
};
