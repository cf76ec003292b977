/*
 * tree_pane: the vendor's top-down tree (a layout's "tree" metrics): level 1
 * as one stacked bar per socket, core or thread (the aggregation, 'a'), in
 * the Cycles pane's colours and letters, and below it the tree, a row per
 * node shown, a column per entity.  A node over the vendor's threshold is
 * flagged (yellow); the bottleneck, followed as toplev does from level 1
 * down through the flagged child with the largest share, is red and marked
 * "<==" for the first column (on the closed node it lies under, until that
 * is opened).  Right or Enter opens the selected node, Left
 * closes it, B follows the bottleneck of the first column.  A node whose
 * key is off reads "key N" (the key that counts it), not n/a; one that
 * cannot be counted here says why in explain.  UI thread.
 */
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TREE_VALUE_W 9
#define TREE_MAX_COLS 8
#define TREE_BAR_SEGS 5

/*
 * Level 1 in the order of the bar: retiring, bad speculation, front end, back
 * end, and AMD's SMT contention (the slots the sibling took: Zen 4 and 5's
 * level 1 has five nodes, which add up to the slots)
 */
static const struct {
	const char *part;  /* in the node's name */
	char mark;
	enum grid_style style;
} tree_look[TREE_BAR_SEGS] = {
	{ "Retiring", '=', GRID_HEAT2 },
	{ "Bad_Spec", 'S', GRID_HEAT4 },
	{ "Frontend", 'F', GRID_HEAT1 },
	{ "Backend", 'B', GRID_HEAT3 },
	{ "Contention", 'T', GRID_SEG5 },
};

extern const struct pane tree_pane; /* at the end */

/* The pane's own state: by layout metric, whether its node is open (its children shown). */
static void *tree_pane_state_new(const struct view *v)
{
	return xcalloc((size_t)v->info.layout->nmetrics + 1, sizeof(bool));
}

/* V's (view_init made it) */
static bool *tree_pane_open(const struct view *v)
{
	return pane_state(v, &tree_pane);
}

/* The rows of KIND's tree shown, depth first through the open nodes, into ROWS; their count. */
static int tree_rows(const struct view *v, unsigned kind, int m, int *rows, int n)
{
	const struct layout *l = v->info.layout;
	int *kids = xcalloc((size_t)l->nmetrics + 1, sizeof(int)),
	    nk = tree_children(l, m, kids, kind);

	for (int i = 0; i < nk; i++) {
		rows[n++] = kids[i];
		if (tree_pane_open(v)[kids[i]])
			n = tree_rows(v, kind, kids[i], rows, n);
	}
	free(kids);
	return n;
}

/*
 * The entities of the aggregation the columns (and bars) show, of the cores
 * of kind CORES (tree_shown_kind), into E; their count (all).
 */
static int tree_entities(const struct view *v, const struct sample *s, unsigned cores,
			 const struct sample_entity **e, int max, enum view_agg *kind, int *index)
{
	int n = 0, all = 0;

	const struct layout *l = v->info.layout;
	enum layout_scope finest = LAYOUT_SOCKET;

	/* no finer than the tree is computed (per core with hyper-threading on Skylake-SP) */
	for (int m = 0; m < l->nmetrics; m++)
		if (l->metrics[m].level > 0 && !l->metrics[m].na && l->metrics[m].scope < finest)
			finest = l->metrics[m].scope;
	*kind = v->agg == VIEW_AGG_THREAD && finest == LAYOUT_THREAD ? VIEW_AGG_THREAD
		: v->agg != VIEW_AGG_SOCKET && finest <= LAYOUT_CORE ? VIEW_AGG_CORE
		: VIEW_AGG_SOCKET;
	if (*kind == VIEW_AGG_SOCKET) {
		for (int i = 0; i < s->nsockets; i++)
			if (v->zoom_socket < 0 || s->sockets[i].socket == v->zoom_socket) {
				if (n < max) {
					index[n] = i;
					e[n++] = &s->sockets[i];
				}
				all++;
			}
		return all;
	}
	for (int i = 0; i < (*kind == VIEW_AGG_CORE ? s->ncores : s->nthreads); i++) {
		const struct sample_entity *x = *kind == VIEW_AGG_CORE ? &s->cores[i] : &s->threads[i];

		if (v->zoom_socket >= 0 && x->socket != v->zoom_socket)
			continue;
		if (*kind == VIEW_AGG_THREAD && !pane_cpu_shown(v, x->index))
			continue;
		/* a hybrid: the cores of the kind whose tree is shown */
		if (!layout_coretype_on(cores, pane_core_kind(v->info.topo, x->core)))
			continue;
		if (n < max) {
			index[n] = i;
			e[n++] = x;
		}
		all++;
	}
	return all;
}

static void tree_entity_label(const struct sample_entity *e, enum view_agg kind, char *buf,
			      size_t len)
{
	if (kind == VIEW_AGG_SOCKET)
		snprintf(buf, len, "socket %d", e->os_socket_id);
	else if (kind == VIEW_AGG_CORE)
		snprintf(buf, len, "core %d", e->os_core_id);
	else
		snprintf(buf, len, "cpu %d", e->index);
}

/* Level 1 of entity E as a bar W wide from column X. */
static void tree_bar(const struct layout *l, const struct sample *s, const struct sample_entity *e,
		     const int *segs, int y, int x, int w, struct grid *g)
{
	double sum = 0;
	int at = 0;

	for (int k = 0; k < TREE_BAR_SEGS; k++) {
		double val = segs[k] >= 0 ? sample_metric(s, e, segs[k]) : NAN;

		if (isnan(val))
			continue;
		sum += fmax(0, val);
		for (int end = (int)lround(fmin(sum, 100) / 100 * w); at < end; at++)
			grid_put(g, y, x + at, 1, tree_look[k].style, "%c", tree_look[k].mark);
	}
	if (!at)
		grid_put(g, y, x, w, GRID_DIM, "n/a");
}

/* Whether NAME holds PART, in any case (Intel's "Frontend_Bound", the E-cores' "tma_frontend_bound"). */
static bool tree_names(const char *name, const char *part)
{
	for (size_t n = strlen(part); *name; name++)
		if (!strncasecmp(name, part, n))
			return true;
	return false;
}

/* The level-1 nodes in the bar's order (-1 where the layout has none). */
static bool tree_level1(const struct layout *l, int *segs, unsigned kind)
{
	bool any = false;

	for (int k = 0; k < TREE_BAR_SEGS; k++) {
		segs[k] = -1;
		for (int m = 0; m < l->nmetrics && segs[k] < 0; m++)
			if (l->metrics[m].level == 1 && l->metrics[m].parent < 0 &&
			    tree_node_of(l, m, kind) && tree_names(l->metrics[m].name, tree_look[k].part))
				segs[k] = m;
		any |= segs[k] >= 0;
	}
	return any;
}

static int tree_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			  struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	const struct sample_entity *ents[TREE_MAX_COLS];
	int idx[TREE_MAX_COLS], segs[TREE_BAR_SEGS], ncols, all, label, row = 0, nrows, first;
	int path[16], npath = 0, *rows;
	unsigned cores = tree_shown_kind(v); /* whose tree: a hybrid's P-cores' or E-cores' */
	enum view_agg kind;
	char buf[64];

	rows = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	nrows = tree_rows(v, cores, -1, rows, 0);
	if (!nrows) {
		if (v->info.no_tree) { /* the platform says why (AMD's Zen 2 and 3) */
			grid_put_wrap(g, y, 2, g->w - 4, h, GRID_DIM, "%s", v->info.no_tree);
		} else {
			grid_put(g, y, 2, g->w - 4, GRID_DIM, "Layout %s has no top-down tree: the "
				 "vendor's data gives one on the CPUs it covers (pmutop --list-metrics).",
				 l->name);
		}
		free(rows);
		return h;
	}
	ncols = (g->w - 32) / TREE_VALUE_W;
	ncols = ncols < 1 ? 1 : ncols > TREE_MAX_COLS ? TREE_MAX_COLS : ncols;
	all = tree_entities(v, s, cores, ents, ncols, &kind, idx);
	ncols = all < ncols ? all : ncols;
	label = g->w - ncols * TREE_VALUE_W - 1;
	/* the bars: level 1 of each column's entity */
	if (tree_level1(l, segs, cores)) {
		int x = 1;

		for (int k = 0; k < TREE_BAR_SEGS; k++)
			if (segs[k] >= 0) {
				grid_put(g, y + row, x, 1, tree_look[k].style, "%c", tree_look[k].mark);
				x += 3 + grid_put(g, y + row, x + 2, g->w - x - 3, GRID_NORMAL, "%s",
						  l->metrics[segs[k]].name);
			}
		row++;
		for (int c = 0; c < ncols && row < h / 3; c++, row++) {
			tree_entity_label(ents[c], kind, buf, sizeof(buf));
			grid_put(g, y + row, 1, 11, GRID_NORMAL, "%s", buf);
			tree_bar(l, s, ents[c], segs, y + row, 12, g->w - 13, g);
		}
	}
	/* the header: the node column and one per entity */
	grid_blank(g, y + row, 0, g->w, GRID_HEADER);
	if (cores != LAYOUT_CORES_ANY)
		/* a hybrid: whose tree, and how to see the other kind's */
		grid_put(g, y + row, 0, label, GRID_HEADER, " %s-cores' tree (/ %s: %s-cores')",
			 cores == LAYOUT_CORES_E ? "E" : "P", cores == LAYOUT_CORES_E ? "P" : "E",
			 cores == LAYOUT_CORES_E ? "P" : "E");
	else
		grid_put(g, y + row, 0, label, GRID_HEADER, l->vendor == CPUID_VENDOR_AMD
			 ? " pipeline node (Right opens, Left closes, "
			 : " top-down node (Right opens, Left closes, B bottleneck)");
	for (int c = 0; c < ncols; c++) {
		tree_entity_label(ents[c], kind, buf, sizeof(buf));
		grid_put_right(g, y + row, label + c * TREE_VALUE_W, TREE_VALUE_W, GRID_HEADER, buf);
	}
	row++;
	if (ncols)
		npath = tree_bottleneck(l, ents[0]->vars, path, 16, cores);
	memcpy(f->tree_path, path, sizeof(int) * (size_t)npath);
	f->tree_npath = npath;
	first = pane_scroll(v, f, nrows, h - row - (all > ncols));
	for (int r = first; r < nrows && row < h - (all > ncols); r++, row++) {
		int m = rows[r];
		const struct layout_metric *mt = &l->metrics[m];
		bool open = tree_pane_open(v)[m];
		bool has_kids = false, bottleneck = false;

		/* the bottleneck, or the closed node it lies under (the way to open) */
		for (int k = 0; k < npath && !bottleneck; k++)
			bottleneck = path[k] == m && (k == npath - 1 || !open);
		bool sel = pane_focused(v, f) && r == f->sel;

		for (int k = 0; k < l->nmetrics && !has_kids; k++)
			has_kids = tree_node_of(l, k, cores) && l->metrics[k].parent == m;
		grid_put(g, y + row, 0, label, sel ? GRID_SELECT : mt->na ? GRID_DIM : GRID_NORMAL,
			 "%*s%c %s%s", 2 * (mt->level - 1), "", has_kids ? (open ? '-' : '+') : ' ',
			 tree_node_name(mt->name), bottleneck ? " <==" : "");
		for (int c = 0; c < ncols; c++) {
			double val = sample_metric(s, ents[c], m);
			int flag = layout_metric_flagged(l, m, ents[c]->vars);
			bool on_path = false;

			for (int k = 0; c == 0 && k < npath; k++)
				on_path |= path[k] == m;
			pane_value(s, m, val, buf, sizeof(buf));
			/* not counted because its key is off: the key that counts it, not a bare n/a */
			if (isnan(val) && !mt->na && mt->group >= 0 &&
			    s->groups[mt->group].state == SAMPLE_GROUP_OFF)
				snprintf(buf, sizeof(buf), "key %c", l->groups[mt->group].key);
			grid_put_right(g, y + row, label + c * TREE_VALUE_W, TREE_VALUE_W,
				       isnan(val) ? GRID_DIM : on_path ? GRID_CRIT
				       : flag == 1 ? GRID_WARN : GRID_NORMAL, buf);
		}
		pane_hit(f, y + row, 0, g->w, r, ncols ? ents[0]->socket : 0, kind,
			 ncols ? idx[0] : -1);
		f->hits[f->nhits - 1].metric = m;
	}
	if (all > ncols && row < h)
		grid_put(g, y + row, 1, g->w - 2, GRID_DIM, "%d of %d %ss shown ('a' aggregates; "
			 "Enter on the topology zooms into a socket)", ncols, all,
			 kind == VIEW_AGG_SOCKET ? "socket" : kind == VIEW_AGG_CORE ? "core" : "cpu");
	free(rows);
	return h;
}

/* The metric on row ROW of the tree as V opens it (-1: none). */
static int tree_pane_row_metric(const struct view *v, int row)
{
	const struct layout *l = v->info.layout;
	int *rows = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	int n = tree_rows(v, tree_shown_kind(v), -1, rows, 0);
	int m = row >= 0 && row < n ? rows[row] : -1;

	free(rows);
	return m;
}

/* The row of metric M in the tree as V opens it (-1: not shown). */
static int tree_pane_row_of(const struct view *v, int m)
{
	const struct layout *l = v->info.layout;
	int *rows = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	int n = tree_rows(v, tree_shown_kind(v), -1, rows, 0);
	int at = -1;

	for (int r = 0; r < n && at < 0; r++)
		if (rows[r] == m)
			at = r;
	free(rows);
	return at;
}

/*
 * The tree pane's keys: Right or Enter opens the selected node, Left closes
 * it (or goes to its parent), B opens the way to the first column's
 * bottleneck and selects it.  True when KEY was one of them.
 */
static bool tree_pane_key(struct view *v, const struct view_frame *f, int key)
{
	const struct layout *l = v->info.layout;
	int m = tree_pane_row_metric(v, f->sel);
	bool *open = tree_pane_open(v);

	if (key == 'B') {
		int n = f->tree_npath;

		if (!n) {
			snprintf(v->status, sizeof(v->status), "B: no node over the vendor's threshold "
				 "in the first column (or no sample yet)");
			return true;
		}
		for (int k = 0; k < n - 1; k++)
			open[f->tree_path[k]] = true;
		v->sel = tree_pane_row_of(v, f->tree_path[n - 1]);
		return true;
	}
	if (m < 0)
		return false;
	if (key == VIEW_KEY_RIGHT || key == VIEW_KEY_ENTER || key == '\n' || key == '\r') {
		open[m] = true;
		return true;
	}
	if (key == VIEW_KEY_LEFT) {
		if (open[m])
			open[m] = false;
		else if (l->metrics[m].parent >= 0)
			v->sel = tree_pane_row_of(v, l->metrics[m].parent);
		return true;
	}
	return false;
}

const struct pane tree_pane = {
	.name = "tree", .title = "Tree",
	.help = "the vendor's top-down tree: level 1 as a bar per socket, core or thread, the nodes "
		"flagged over the vendor's thresholds, the bottleneck marked, opened with Right",
	.draw = tree_pane_draw, .key = tree_pane_key, .rows = 12, .state_new = tree_pane_state_new,
};
