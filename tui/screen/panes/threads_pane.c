/*
 * threads_pane: the table of every live metric per thread, core or socket
 * (the aggregation), sortable, filtered, with thresholds coloured.  UI thread.
 */
#define _GNU_SOURCE /* qsort_r */
#include "pane.h"
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct threads_pane_sort {
	const struct view *v;
	const struct sample *s;
	const struct sample_entity *ents;
};

static int threads_pane_sort_cmp(const void *a, const void *b, void *arg)
{
	const struct threads_pane_sort *c = arg;
	int ia = *(const int *)a, ib = *(const int *)b;
	double x, y;
	int r;

	if (c->v->sort_kind) {
		/* a hybrid's rows by kind of core, hwloc's most performant first (P, E, LP-E) */
		const struct topo *t = c->v->info.topo;
		int ka = c->ents[ia].core >= 0 ? t->cores[c->ents[ia].core].corekind : -1;
		int kb = c->ents[ib].core >= 0 ? t->cores[c->ents[ib].core].corekind : -1;

		if (ka != kb)
			return ka - kb;
		if (c->v->sort_metric < 0)
			return ia - ib;
	}
	x = sample_metric(c->s, &c->ents[ia], c->v->sort_metric);
	y = sample_metric(c->s, &c->ents[ib], c->v->sort_metric);

	if (isnan(x) || isnan(y)) /* n/a last, whatever the direction */
		return isnan(x) && isnan(y) ? ia - ib : isnan(x) ? 1 : -1;
	r = x < y ? 1 : x > y ? -1 : ia - ib; /* largest first */
	return c->v->sort_rev ? -r : r;
}

/* Metrics worth a column: live or always-live, defined at this aggregation. */
static int threads_pane_columns(const struct view *v, const struct sample *s, int *cols)
{
	const struct layout *l = v->info.layout;
	unsigned kinds = pane_kinds_shown(v);
	int n = 0;

	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];

		if (v->col_hidden[m])
			continue; /* left out with F2 */
		/* a hybrid: the other kind's metrics when the rows are all of one kind (/ P, / E) */
		if (kinds) {
			unsigned kind = layout_metric_coretype(l, m);

			if (kind && !(kinds & (1u << kind)))
				continue;
		}
		/* a group that is off or blocked has no figures: no column */
		if (mt->group >= 0 && (s->groups[mt->group].state == SAMPLE_GROUP_OFF ||
				       s->groups[mt->group].state == SAMPLE_GROUP_BLOCKED))
			continue;
		if (!layout_scope_computed(mt->scope, v->agg == VIEW_AGG_THREAD ? LAYOUT_THREAD
						      : v->agg == VIEW_AGG_CORE ? LAYOUT_CORE : LAYOUT_SOCKET) ||
		    mt->scope == LAYOUT_CHANNEL)
			continue;
		cols[n++] = m;
	}
	return n;
}

/* Columns kept at the right of the header for "<3 25>": columns out of sight each side. */
#define THREADS_PANE_MORE_W 8

/* Width of metric M's column (its name, at least 8). */
/*
 * Metric M's unit as its column header says it after the name ("" where the
 * name says it already, ghz; or there is none, a ratio); short units only.
 */
static const char *threads_pane_unit(const struct layout *l, int m)
{
	const char *u = l->metrics[m].unit, *name = l->metrics[m].name;
	size_t nu = u ? strlen(u) : 0, nn = strlen(name);

	if (!nu || nu > 6 || !strcmp(u, "ratio") || (nn >= nu && !strcasecmp(name + nn - nu, u)) ||
	    (!strcmp(u, "%") && nn > 3 && !strcasecmp(name + nn - 3, "pct")))
		return "";
	return u;
}

static int threads_pane_col_w(const struct layout *l, int m)
{
	const char *u = threads_pane_unit(l, m);
	int n = (int)strlen(l->metrics[m].name) + (u[0] ? 1 + (int)strlen(u) : 0);

	return n > 8 ? n + 1 : 9;
}

/*
 * The first metric column shown and how many fit (*SHOWN) after a label
 * LABEL wide in W: the view's, kept in range; when it asks for the sort
 * column's (-1), the first page that shows the sort column; and column MUST
 * (the cursor's, -1: none) always in sight.
 */
static int threads_pane_first_col(const struct view *v, const int *cols, int ncols, int label,
				  int w, int must, int *shown)
{
	const struct layout *l = v->info.layout;
	int first = v->hcol, last_first, room = w - label, all = 0;

	/* when they do not all fit, room for the "<3 25>" of the columns out of sight */
	for (int c = 0; c < ncols; c++)
		all += threads_pane_col_w(l, cols[c]) + 1;
	if (all > room)
		room -= THREADS_PANE_MORE_W;

	/* the furthest first column that still fills the width from the right */
	last_first = ncols;
	for (int used = 0; last_first > 0; last_first--) {
		used += threads_pane_col_w(l, cols[last_first - 1]) + 1;
		if (used > room)
			break;
	}
	if (first < 0) {
		int sort = -1, used = 0;

		for (int c = 0; c < ncols; c++)
			if (cols[c] == v->sort_metric)
				sort = c;
		first = 0;
		for (int c = 0; c <= sort; c++)
			used += threads_pane_col_w(l, cols[c]) + 1;
		if (sort >= 0 && used > room)
			first = sort;
	}
	if (first > last_first)
		first = last_first;
	if (first < 0)
		first = 0;
	if (must >= 0 && must < first)
		first = must;
	for (;;) {
		*shown = 0;
		for (int c = first, used = 0; c < ncols; c++) {
			used += threads_pane_col_w(l, cols[c]) + 1;
			if (used > room)
				break;
			(*shown)++;
		}
		if (must < first + *shown || first >= must)
			return first;
		first++;
	}
}

/* The history column: as wide as the screen allows, none on a narrow one. */
static int threads_pane_spark_w(const struct view *v, int w)
{
	if (!v->hist)
		return 0;
	return w >= 140 ? 24 : w >= 100 ? 16 : 0;
}

/* The metric the history column follows: the sort column's, else the heatmap's. */
static int threads_pane_spark_metric(const struct view *v)
{
	return v->sort_metric >= 0 ? v->sort_metric : v->heat_metric;
}

static enum history_kind threads_pane_kind(const struct view *v)
{
	return v->agg == VIEW_AGG_THREAD ? HISTORY_THREAD
	       : v->agg == VIEW_AGG_CORE ? HISTORY_CORE : HISTORY_SOCKET;
}

/*
 * The scale of the history column: 100 for a percentage, else the largest
 * value any of the ROWS shows (rows compare with each other).
 */
static double threads_pane_spark_max(const struct view *v, const int *rows, int nrows, int w)
{
	const struct layout_metric *mt = &v->info.layout->metrics[threads_pane_spark_metric(v)];
	signed char lv[32];
	double max = 0;

	if (!strcmp(mt->unit, "%"))
		return 100;
	for (int r = 0; r < nrows; r++) {
		double top = history_spark(v->hist, threads_pane_kind(v), false, rows[r],
					   threads_pane_spark_metric(v), w, 0, lv);

		if (!isnan(top) && top > max)
			max = top;
	}
	return max;
}

/* The row's first columns (cpu, core, socket, or the CPU list); returns where the figures start. */
static int threads_pane_label(const struct view *v, const struct sample_entity *e, int y,
			      enum grid_style base, const char *head, struct grid *g)
{
	const struct topo *t = v->info.topo;
	const int *cpus = NULL;
	int ncpu = 0, *tmp = NULL, x;
	char *list;

	/* a hybrid's core: its kind's letter after its id (P, E, L for LP-E) */
	char kind = e->core >= 0 && e->core < t->ncores && t->cores[e->core].corekind >= 0
		    ? t->corekinds[t->cores[e->core].corekind].name[0] : 0;

	if (v->agg == VIEW_AGG_THREAD)
		return kind ? grid_put(g, y, 0, g->w, base, "%c%4d %3d%c %4d",
				       pane_pid_ran(v, e->index) ? '@' : ' ', e->index,
				       e->os_core_id, kind, e->os_socket_id)
		       : grid_put(g, y, 0, g->w, base, "%c%4d %4d %4d",
				  pane_pid_ran(v, e->index) ? '@' : ' ', e->index, e->os_core_id,
				  e->os_socket_id);
	if (v->agg == VIEW_AGG_CORE) {
		const struct topo_core *c = &t->cores[e->index];

		tmp = xcalloc((size_t)c->nthreads + 1, sizeof(int));
		for (int j = 0; j < c->nthreads; j++)
			tmp[ncpu++] = t->threads[c->thread_first + j].os_cpu;
		cpus = tmp;
		x = kind ? grid_put(g, y, 0, g->w, base, " %3d%c %4d ", e->os_core_id, kind,
				    e->os_socket_id)
		    : grid_put(g, y, 0, g->w, base, " %4d %4d ", e->os_core_id, e->os_socket_id);
	} else {
		cpus = t->sockets[e->index].cpus;
		ncpu = t->sockets[e->index].nthreads;
		x = grid_put(g, y, 0, g->w, base, " %4d ", e->os_socket_id);
	}
	list = cpulist_format(cpus, ncpu);
	grid_put(g, y, x, (int)strlen(head) - x, base, "%s", list);
	free(list);
	free(tmp);
	return (int)strlen(head);
}

static int threads_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			     struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	static const char *const heads[] = { "  cpu core sock", " core sock cpus     ",
					     " sock cpus          " };
	const struct sample_entity *ents;
	int *rows, nrows, *cols = xcalloc((size_t)l->nmetrics + 1, sizeof(int)), ncols, x, first, shown;
	int sw, cur = -1, body;
	bool focus = pane_focused(v, f);
	double smax = 0;
	char buf[64];

	ncols = threads_pane_columns(v, s, cols);
	nrows = pane_entity_rows(v, s, &rows, &ents);
	if (v->sort_metric >= 0 || (v->sort_kind && v->agg != VIEW_AGG_SOCKET)) {
		struct threads_pane_sort ctx = { .v = v, .s = s, .ents = ents };

		qsort_r(rows, (size_t)nrows, sizeof(int), threads_pane_sort_cmp, &ctx);
	}
	sw = threads_pane_spark_w(v, g->w);
	if (sw)
		smax = threads_pane_spark_max(v, rows, nrows, sw);
	/* the column cursor: the view's column, else the sort column, else the first */
	for (int c = 0; c < ncols; c++)
		if (cols[c] == v->col_metric || (cur < 0 && cols[c] == v->sort_metric))
			cur = c;
	if (cur < 0 && ncols)
		cur = 0;
	first = threads_pane_first_col(v, cols, ncols, (int)strlen(heads[v->agg]) + (sw ? sw + 1 : 0),
				       g->w, focus ? cur : -1, &shown);
	if (focus) {
		f->ncols = ncols;
		f->hcol = first;
		f->shown_cols = shown;
		f->col_metric = cur >= 0 ? cols[cur] : -1;
		if (f->col_ids_cap < ncols) {
			f->col_ids_cap = ncols;
			f->col_ids = xrealloc(f->col_ids, (size_t)ncols, sizeof(int));
		}
		memcpy(f->col_ids, cols, sizeof(int) * (size_t)ncols);
	}
	grid_blank(g, y, 0, g->w, GRID_HEADER);
	x = grid_put(g, y, 0, g->w, GRID_HEADER, "%s", heads[v->agg]);
	if (sw) {
		/* the history column says what it follows: the sort column, else the heatmap's */
		snprintf(buf, sizeof(buf), " %.*s history", sw - 8, l->metrics[threads_pane_spark_metric(v)].name);
		grid_put(g, y, x, sw + 1, GRID_HEADER, "%s", buf);
		x += sw + 1;
	}
	for (int c = first; c < first + shown; c++) {
		const char *name = l->metrics[cols[c]].name;
		int w = threads_pane_col_w(l, cols[c]);

		const char *unit = threads_pane_unit(l, cols[c]);

		snprintf(buf, sizeof(buf), "%s%s%s%s", name, unit[0] ? " " : "", unit,
			 cols[c] == v->sort_metric ? (v->sort_rev ? "^" : "v") : "");
		grid_put_right(g, y, x, w, focus && c == cur ? GRID_CURSOR : GRID_HEADER, buf);
		pane_hit_header(f, y, x, w + 1, cols[c]);
		x += w + 1;
	}
	/* columns out of sight on each side (Left and Right reach them) */
	if (shown < ncols) {
		snprintf(buf, sizeof(buf), "%s%.0d %.0d%s", first ? "<" : "", first,
			 ncols - first - shown, first + shown < ncols ? ">" : "");
		grid_put_right(g, y, g->w - THREADS_PANE_MORE_W, THREADS_PANE_MORE_W, GRID_SELECT, buf);
	}
	if (pane_focused(v, f)) {
		/* F3: the row of the CPU or core asked for becomes the selection */
		for (int pos = 0; pos < nrows && (v->find_cpu >= 0 || v->find_core >= 0); pos++) {
			const struct sample_entity *e = &ents[rows[pos]];

			if ((v->agg == VIEW_AGG_THREAD && e->index == v->find_cpu) ||
			    (v->agg == VIEW_AGG_CORE && e->os_core_id == v->find_core)) {
				f->sel = pos;
				f->found = true;
				break;
			}
		}
	}
	/* what does not fit: "+N more" in the last row, and the rest scrolls */
	body = nrows > h - 1 ? h - 2 : h - 1;
	pane_scroll(v, f, nrows, body);
	for (int r = 0; r < body && r + (focus ? f->scroll : 0) < nrows; r++) {
		int pos = r + (focus ? f->scroll : 0);
		const struct sample_entity *e = &ents[rows[pos]];
		bool sel = focus && f->sel == pos;
		enum grid_style base = sel ? GRID_SELECT : GRID_NORMAL;
		int yy = y + 1 + r;

		grid_blank(g, yy, 0, g->w, base);
		x = threads_pane_label(v, e, yy, base, heads[v->agg], g);
		if (sw) {
			signed char lv[32];

			history_spark(v->hist, threads_pane_kind(v), false, rows[pos],
				      threads_pane_spark_metric(v), sw, smax, lv);
			grid_spark(g, yy, x + 1, lv, sw, sel ? GRID_SELECT : GRID_BAR);
			x += sw + 1;
		}
		for (int c = first; c < first + shown; c++) {
			int w = threads_pane_col_w(l, cols[c]);
			double val = sample_metric(s, e, cols[c]);
			double warn, crit;
			enum grid_style st = base;

			pane_thresholds(l, cols[c], &warn, &crit);
			if (!sel && !isnan(val) && !isnan(crit) && val >= crit)
				st = GRID_CRIT;
			else if (!sel && !isnan(val) && !isnan(warn) && val >= warn)
				st = GRID_WARN;
			else if (!sel && isnan(val))
				st = GRID_DIM;
			pane_value(s, cols[c], val, buf, sizeof(buf));
			if (sel && c == cur && focus) /* the cell e explains, in its own column */
				pane_cell(g, yy, x + 1, w - 1, st, buf, true);
			else
				grid_put_right(g, yy, x, w, st, buf);
			x += w + 1;
		}
		pane_hit(f, yy, 0, g->w, pos, e->socket, v->agg, rows[pos]);
	}
	if (nrows > body)
		grid_put(g, y + 1 + body, 1, g->w - 2, GRID_DIM, "+%d more (Tab here, then Up and Down "
			 "scroll)", nrows - body - (focus ? f->scroll : 0) > 0
			 ? nrows - body - (focus ? f->scroll : 0) : 0);
	if (!nrows)
		grid_put(g, y + 1, 2, g->w - 4, GRID_DIM, "no CPU matches the filter '%s' (/ changes it)",
			 v->filter);
	free(rows);
	free(cols);
	return h;
}

/* Left and Right: the column cursor moves (the table scrolls to show it). */
static bool threads_pane_key(struct view *v, const struct view_frame *f, int key)
{
	int ci = -1;

	if ((key != VIEW_KEY_LEFT && key != VIEW_KEY_RIGHT) || f->ncols <= 0)
		return false;
	/* where the cursor is: the view's column, else where the last render put it */
	for (int c = 0; c < f->ncols; c++)
		if (f->col_ids[c] == v->col_metric)
			ci = c;
	for (int c = 0; c < f->ncols && ci < 0; c++)
		if (f->col_ids[c] == f->col_metric)
			ci = c;
	ci = (ci < 0 ? 0 : ci) + (key == VIEW_KEY_LEFT ? -1 : 1);
	if (ci < 0)
		ci = 0;
	if (ci >= f->ncols)
		ci = f->ncols - 1;
	v->col_metric = f->col_ids[ci];
	return true;
}

const struct pane threads_pane = {
	.name = "threads", .title = "Threads",
	.help = "every live metric per thread, core or socket (a): sort s < > r, filter /",
	.draw = threads_pane_draw, .key = threads_pane_key,
};
