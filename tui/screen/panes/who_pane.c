/*
 * who_pane: whose job is using the machine (sample.who, issue 33): the
 * cgroup tree (slices, services, containers, pods: each parent before its
 * children, the busiest child first, Left closes a branch and Right or
 * Enter opens it), then the busiest processes; per row the CPUs it kept
 * busy, its IPC, clock and last-level cache misses per thousand
 * instructions (counted per cgroup with --who), the memory bandwidth and
 * L3 its resctrl monitoring group has.  A figure from a cgroup's last turn
 * (they take turns beyond the busiest) carries '~', the kernel's
 * multiplexing '*'; n/a has its reason in explain (e).  The selected row's
 * CPUs are marked '@' on the topology.  UI thread.
 */
#define _GNU_SOURCE /* strcasestr, qsort_r */
#include "pane.h"
#include "xmalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHO_PANE_TD_W 9    /* a top-down column: the vendor's name cut to 8 */
#define WHO_PANE_COLS 64   /* the figures' columns at most */

/* The who_cols the pane shows, in order, into OUT (WHO_PANE_COLS at most); how many. */
static int who_pane_cols(const struct who_col **out)
{
	int n = 0;

	for (int k = 0; k < who_ncols && n < WHO_PANE_COLS; k++)
		if (who_cols[k].pane.head)
			out[n++] = &who_cols[k];
	return n;
}

/* Where the name column starts: after the figures' columns (each its width and a mark). */
static int who_pane_name_x(void)
{
	const struct who_col *cols[WHO_PANE_COLS];
	int n = who_pane_cols(cols), x = 2;

	for (int k = 0; k < n; k++)
		x += cols[k]->pane.width + 1;
	return x;
}

uint64_t who_pane_id(const char *path, int pid)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)pid;

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211ull;
	return h ? h : 1;
}

extern const struct pane who_pane; /* at the end */

/* The pane's own state (pane_state): its closed branches, its sort and its filter. */
struct who_pane_state {
	uint64_t *closed;         /* the closed cgroups (who_pane_id), NCLOSED of them */
	int nclosed;
	int sort;                 /* each cgroup's children and the processes sort by this column
				     (0 CPUs: who_cols' shown in the pane; s < > change it) */
	bool sort_rev;            /* least first */
	char filter[64];          /* the rows whose name or path holds it are shown ("": all) */
};

static void *who_pane_state_new(const struct view *v)
{
	return xcalloc(1, sizeof(struct who_pane_state));
}

static void who_pane_state_free(void *state)
{
	struct who_pane_state *st = state;

	if (st)
		free(st->closed);
	free(st);
}

/* V's (view_init made it) */
static struct who_pane_state *who_st(const struct view *v)
{
	return pane_state(v, &who_pane);
}

void who_pane_set_filter(struct view *v, const char *text)
{
	struct who_pane_state *st = who_st(v);

	snprintf(st->filter, sizeof(st->filter), "%s", text);
}

static bool who_pane_closed(const struct view *v, const struct who_row *r)
{
	uint64_t id = who_pane_id(r->path, r->pid);

	for (int i = 0; i < who_st(v)->nclosed; i++)
		if (who_st(v)->closed[i] == id)
			return true;
	return false;
}

/* Whether the pane shows the top-down level 1 (T, and the sample has it). */
static bool who_pane_td(const struct view *v, const struct who_snap *w)
{
	return v->who_td && w->ntd > 0;
}

/* Row R's value in column C (NaN: none); with the top-down level 1 shown, C's level-1 metric. */
static double who_pane_value(const struct view *v, const struct who_snap *w, const struct who_row *r,
			     int c)
{
	const struct who_col *cols[WHO_PANE_COLS];
	int n = who_pane_cols(cols);

	if (who_pane_td(v, w))
		return c > 0 && c <= w->ntd ? r->td[c - 1] : r->cpus;
	return who_col_value(cols[c >= 0 && c < n ? c : 0], r);
}

struct who_pane_order {
	const struct view *v;
	const struct who_snap *w;
};

/* The view's sort: the largest first (r: the least), a row without the figure last, then by name. */
static int who_pane_cmp(const void *a, const void *b, void *ctx)
{
	const struct who_pane_order *o = ctx;
	const struct who_row *x = &o->w->rows[*(const int *)a], *y = &o->w->rows[*(const int *)b];
	double kx = who_pane_value(o->v, o->w, x, who_st(o->v)->sort);
	double ky = who_pane_value(o->v, o->w, y, who_st(o->v)->sort);

	if (isfinite(kx) != isfinite(ky))
		return isfinite(kx) ? -1 : 1;
	if (isfinite(kx) && kx != ky)
		return (kx > ky) != who_st(o->v)->sort_rev ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Whether row R passes the who filter: its name, cgroup path or PID holds the text. */
static bool who_pane_match(const struct view *v, const struct who_row *r)
{
	char pid[16];

	if (!who_st(v)->filter[0])
		return true;
	snprintf(pid, sizeof(pid), "%d", r->pid);
	return strcasestr(r->name, who_st(v)->filter) || strcasestr(r->path, who_st(v)->filter) ||
	       (r->pid && !strcmp(pid, who_st(v)->filter));
}

/*
 * The rows shown, in order, into OUT; how many: the cgroups depth first,
 * each one's children in the view's sort (a closed cgroup's hidden), then
 * the processes in it; with a filter, the rows that pass it and the
 * cgroups above them.
 */
static int who_pane_rows(const struct view *v, const struct who_snap *w, int *out)
{
	struct who_pane_order o = { .v = v, .w = w };
	int nc = w->ncgroups, n = 0, nstack = 0, nroots = 0, np = 0;
	int *first = xcalloc((size_t)nc + 2, sizeof(int)), *kids = xcalloc((size_t)nc + 1, sizeof(int));
	int *fill = xcalloc((size_t)nc + 1, sizeof(int)), *stack = xcalloc((size_t)nc + 1, sizeof(int));
	int *roots = xcalloc((size_t)nc + 1, sizeof(int));
	bool *keep = xcalloc((size_t)w->nrows + 1, sizeof(bool));

	/* parents come before their children: from the end, a kept row keeps its parent */
	for (int i = nc - 1; i >= 0; i--) {
		keep[i] |= who_pane_match(v, &w->rows[i]);
		if (keep[i] && w->rows[i].parent >= 0)
			keep[w->rows[i].parent] = true;
	}
	for (int i = 0; i < nc; i++)
		if (w->rows[i].parent >= 0)
			first[w->rows[i].parent + 1]++;
	for (int i = 0; i < nc; i++)
		first[i + 1] += first[i];
	for (int i = 0; i < nc; i++) {
		if (w->rows[i].parent < 0)
			roots[nroots++] = i;
		else
			kids[first[w->rows[i].parent] + fill[w->rows[i].parent]++] = i;
	}
	for (int i = 0; i < nc; i++)
		qsort_r(kids + first[i], (size_t)fill[i], sizeof(int), who_pane_cmp, &o);
	qsort_r(roots, (size_t)nroots, sizeof(int), who_pane_cmp, &o);
	for (int i = nroots - 1; i >= 0; i--)
		stack[nstack++] = roots[i];
	while (nstack) {
		int c = stack[--nstack];

		if (!keep[c])
			continue;
		out[n++] = c;
		if (who_pane_closed(v, &w->rows[c]))
			continue;
		for (int k = fill[c] - 1; k >= 0; k--)
			stack[nstack++] = kids[first[c] + k];
	}
	for (int i = nc; i < w->nrows; i++)
		if (who_pane_match(v, &w->rows[i]))
			out[n + np++] = i;
	qsort_r(out + n, (size_t)np, sizeof(int), who_pane_cmp, &o);
	free(first);
	free(kids);
	free(fill);
	free(stack);
	free(roots);
	free(keep);
	return n + np;
}

bool who_pane_focused(const struct view *v)
{
	return panes_registry[v->focus] == &who_pane;
}

int who_pane_selected(const struct view *v, const struct sample *s)
{
	int *rows, n, r = -1;

	if (!s || !s->who || panes_registry[v->lower] != &who_pane || !s->who->nrows)
		return -1;
	rows = xcalloc((size_t)s->who->nrows, sizeof(int));
	n = who_pane_rows(v, s->who, rows);
	if (n)
		r = rows[v->sel < 0 ? 0 : v->sel >= n ? n - 1 : v->sel];
	free(rows);
	return r;
}

/* A figure in W columns: n/a, or the value with '~' (an earlier turn's) or '*' (scaled). */
static void who_pane_num(char *buf, size_t len, double v, int prec, const struct who_row *r,
			 bool counter)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a ");
	else
		snprintf(buf, len, "%.*f%c", prec, v,
			 counter && r->age_s > 0 ? '~' : counter && r->scaled ? '*' : ' ');
}

/*
 * The pane's first line, wrapped at spaces on a narrow screen (a hint is never
 * cut mid-word): at most MAXL lines; returns the lines it took.
 */
static int who_pane_head(const struct view *v, const struct who_snap *w, int y, int maxl,
			 struct grid *g)
{
	if (v->who_td && !w->ntd && w->available)
		return grid_put_wrap(g, y, 1, g->w - 2, maxl, GRID_WARN, "%s", w->td_why[0]
				     ? w->td_why : "top-down level 1: from the next sample on");
	if (who_st(v)->filter[0])
		return grid_put_wrap(g, y, 1, g->w - 2, maxl, GRID_BOLD, "filter '%s' (/ changes it, "
				     "empty: all). %s", who_st(v)->filter, w->counting ? w->note : "");
	if (!w->available)
		return grid_put_wrap(g, y, 1, g->w - 2, maxl, GRID_WARN, "who: n/a: %s", w->why);
	if (w->why[0])
		return grid_put_wrap(g, y, 1, g->w - 2, maxl, GRID_WARN, "%s", w->why);
	if (!w->counting)
		return grid_put_wrap(g, y, 1, g->w - 2, maxl, GRID_DIM, "CPU time and resctrl; "
				     "counters per cgroup with pmutop --who. %s", w->rdt_note);
	return grid_put_wrap(g, y, 1, g->w - 2, maxl, GRID_DIM, "%s. %s", w->note, w->rdt_note);
}

/* A heat style for VALUE against the largest shown, MAX: shades, red from three quarters. */
static enum grid_style who_pane_heat(double value, double max)
{
	double f = isfinite(value) && max > 0 ? value / max : 0;

	return f >= 0.75 ? GRID_HEAT4 : f >= 0.5 ? GRID_HEAT3 : f >= 0.25 ? GRID_HEAT2
	       : f > 0 ? GRID_HEAT1 : GRID_NORMAL;
}

/* Row R's name from column X: a process's PID and command, a cgroup's indented with its mark. */
static void who_pane_name(struct grid *g, int y, int x, const struct who_row *r, bool sel, char mark)
{
	if (r->pid)
		grid_put(g, y, x, g->w - x - 1, sel ? GRID_BOLD : GRID_NORMAL, "%7d %s", r->pid,
			 r->name);
	else
		grid_put(g, y, x, g->w - x - 1, sel ? GRID_BOLD : GRID_NORMAL, "%*s%c %s",
			 2 * (r->depth > 8 ? 8 : r->depth), "", mark, r->name);
}

static void who_pane_row(const struct view *v, const struct who_snap *w, int i, int y, bool sel,
			 const double *max, struct grid *g)
{
	const struct who_row *r = &w->rows[i];
	bool kids = !r->pid && i + 1 < w->ncgroups && w->rows[i + 1].parent == i;
	/* as the tree pane marks its nodes: + closed, - open */
	char mark = !kids ? ' ' : who_pane_closed(v, r) ? '+' : '-';

	if (who_pane_td(v, w)) {
		int x = 9;
		char c0[16];

		who_pane_num(c0, sizeof(c0), r->cpus, 2, r, false);
		pane_cell(g, y, 1, 7, r->path[0] || r->pid ? who_pane_heat(r->cpus, max[0])
			  : GRID_NORMAL, c0, sel);
		for (int k = 0; k < w->ntd; k++) {
			char t[16];

			who_pane_num(t, sizeof(t), r->td[k], 1, r, true);
			grid_put(g, y, x, WHO_PANE_TD_W, GRID_NORMAL, "%*s", WHO_PANE_TD_W, t);
			x += WHO_PANE_TD_W;
		}
		who_pane_name(g, y, x + 1, r, sel, mark);
		return;
	}
	{
		const struct who_col *cols[WHO_PANE_COLS];
		int n = who_pane_cols(cols), x = 1;

		for (int k = 0; k < n; k++) {
			const struct who_col *col = cols[k];
			double fig = who_col_shown(col, r);
			/* heat against the largest shown, the whole machine's row aside */
			enum grid_style st = col->heat && (r->path[0] || r->pid)
					     ? who_pane_heat(fig, max[k]) : GRID_NORMAL;
			char t[16];

			who_pane_num(t, sizeof(t), fig, col->pane.prec, r, col->counted);
			if (k == 0)
				pane_cell(g, y, x, col->pane.width + 1, st, t, sel);
			else
				grid_put(g, y, x, col->pane.width + 1, st, "%*s", col->pane.width + 1, t);
			x += col->pane.width + 1;
		}
	}
	who_pane_name(g, y, who_pane_name_x(), r, sel, mark);
}

static int who_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			 struct grid *g, struct view_frame *f)
{
	const struct who_snap *w = s->who;
	const struct who_col *cols[WHO_PANE_COLS];
	int *rows, n, first, ncols = who_pane_cols(cols);
	double max[WHO_PANE_COLS] = { 0 }; /* each column's largest shown, the whole machine's row aside */

	if (!w) {
		grid_put(g, y, 1, g->w - 2, GRID_DIM, "who uses the machine: %s",
			 v->info.replay || v->info.viewer ? "not in this run's figures (record or serve "
			 "with --who)" : "read from the next sample on");
		return 1;
	}
	{
		/* the hint whole: all the pane when there is nothing else, else two lines at most */
		int hl = who_pane_head(v, w, y, !w->available ? h : h > 12 ? 3 : h > 8 ? 2 : 1, g);

		f->who_ntd = w->ntd;
		if (!w->available || h < 3)
			return hl > 0 ? hl : 1;
		hl = hl > 0 ? hl : 1;
		y += hl - 1; /* the header and the rows under it */
		h -= hl - 1;
	}
	if (who_pane_td(v, w)) {
		int x = 9;

		grid_blank(g, y + 1, 0, g->w, GRID_HEADER);
		grid_put(g, y + 1, 1, 7, GRID_HEADER, "%6s%c", "CPUs",
			 who_st(v)->sort == 0 ? (who_st(v)->sort_rev ? 'v' : '^') : ' ');
		/* the vendor's names, cut to the column (explain has them whole) */
		for (int k = 0; k < w->ntd; k++) {
			char name[WHO_PANE_TD_W];
			size_t len;

			snprintf(name, sizeof(name), "%s", w->td_name[k]);
			len = strlen(name);
			while (len && name[len - 1] == '_')
				name[--len] = '\0';
			x += grid_put(g, y + 1, x, g->w - x, GRID_HEADER, "%*s%c", WHO_PANE_TD_W - 1,
				      name, who_st(v)->sort == k + 1 ? (who_st(v)->sort_rev ? 'v' : '^')
				      : ' ');
		}
		grid_put(g, y + 1, x + 1, g->w - x - 2, GRID_HEADER, "cgroup / PID process (%s)",
			 w->td_unit);
	} else {
		int x = 1;

		grid_blank(g, y + 1, 0, g->w, GRID_HEADER);
		/* the sort column marked as the table's: ^ largest first, v least first */
		for (int c = 0; c < ncols; c++)
			x += grid_put(g, y + 1, x, g->w - x, GRID_HEADER, "%*s%c", cols[c]->pane.width,
				      cols[c]->pane.head, who_st(v)->sort == c ? (who_st(v)->sort_rev ? 'v' : '^')
				      : ' ');
		grid_put(g, y + 1, who_pane_name_x(), g->w - who_pane_name_x() - 1, GRID_HEADER,
			 "cgroup / PID process");
	}
	rows = xcalloc((size_t)w->nrows + 1, sizeof(int));
	n = who_pane_rows(v, w, rows);
	for (int k = 0; k < n; k++) {
		const struct who_row *r = &w->rows[rows[k]];

		for (int c = 0; c < ncols && (r->path[0] || r->pid); c++) {
			double x = who_col_shown(cols[c], r);

			max[c] = fmax(max[c], isfinite(x) ? x : 0);
		}
	}
	first = pane_scroll(v, f, n, h - 2);
	for (int k = first; k < n && k - first < h - 2; k++) {
		bool sel = pane_focused(v, f) && k == f->sel;

		who_pane_row(v, w, rows[k], y + 2 + k - first, sel, max, g);
		pane_hit(f, y + 2 + k - first, 0, g->w, k, 0, VIEW_AGG_THREAD, -1);
	}
	if (pane_focused(v, f) && f->sel >= 0 && f->sel < n) {
		const struct who_row *r = &w->rows[rows[f->sel]];

		f->who_sel = who_pane_id(r->path, r->pid);
		f->who_kids = !r->pid && rows[f->sel] + 1 < w->ncgroups &&
			      w->rows[rows[f->sel] + 1].parent == rows[f->sel];
		f->who_parent_pos = -1;
		for (int k = 0; k < n && r->parent >= 0; k++)
			if (rows[k] == r->parent)
				f->who_parent_pos = k;
	}
	free(rows);
	return h;
}

static bool who_pane_key(struct view *v, const struct view_frame *f, int key)
{
	struct who_pane_state *st = who_st(v);
	int at = -1;

	switch (key) {
	case 's':
	case '>':
	case '<': {
		/* the columns shown: CPUs and the level-1 metrics with T, else the six */
		const struct who_col *cols[WHO_PANE_COLS];
		int n = v->who_td && f->who_ntd ? 1 + f->who_ntd : who_pane_cols(cols);

		st->sort = (st->sort % n + (key == '<' ? n - 1 : 1)) % n;
		return true;
	}
	case 'T':
		v->who_td = !v->who_td;
		st->sort = 0; /* CPUs */
		return true;
	case 'r':
		st->sort_rev = !st->sort_rev;
		return true;
	case VIEW_KEY_F4:
	case '/':
		v->prompt = VIEW_PROMPT_WHO;
		snprintf(v->input, sizeof(v->input), "%s", st->filter);
		return true;
	default:
		break;
	}
	if (!f->who_sel)
		return false;
	for (int i = 0; i < st->nclosed; i++)
		if (st->closed[i] == f->who_sel)
			at = i;
	if (key == VIEW_KEY_RIGHT || key == VIEW_KEY_ENTER || key == '\n' || key == '\r') {
		if (at >= 0)
			st->closed[at] = st->closed[--st->nclosed];
		return true;
	}
	if (key == VIEW_KEY_LEFT) {
		if (f->who_kids && at < 0) {
			st->closed = xrealloc(st->closed, (size_t)st->nclosed + 1,
						 sizeof(*st->closed));
			st->closed[st->nclosed++] = f->who_sel;
		} else if (f->who_parent_pos >= 0) {
			v->sel = f->who_parent_pos;
		}
		return true;
	}
	return false;
}

static char *who_pane_explain(const struct view *v, const struct sample *s)
{
	int i = who_pane_selected(v, s);
	const struct who_row *r;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (i < 0 || !(f = open_memstream(&text, &len)))
		return NULL;
	r = &s->who->rows[i];
	if (r->pid)
		fprintf(f, "process %d (%s) in cgroup /%s\n\n", r->pid, r->name, r->path);
	else
		fprintf(f, "cgroup /%s (%s): %d process%s in it and under it\n\n", r->path, r->name,
			r->nprocs, r->nprocs == 1 ? "" : "es");
	fprintf(f, "CPUs: the CPU time it had over the interval (cpu.stat's usage_usec, or /proc/PID/"
		"stat), 1 = one CPU all the time.%s%s\n", r->where[0] ? " It may run on CPUs " : "",
		r->where);
	fprintf(f, "IPC, GHz, MPKI: its cycles, instructions and last-level cache misses as perf "
		"counts them for %s (GHz: cycles per second of its CPU time).\n",
		r->pid ? "the process and what it starts" : "the cgroup with the cgroups under it, "
		"on every CPU (PERF_FLAG_PID_CGROUP)");
	if (r->why[0])
		fprintf(f, "  n/a or not this interval's: %s\n", r->why);
	if (r->age_s > 0)
		fprintf(f, "  ~: from its last turn, %.0f s ago (%s)\n", r->age_s, s->who->note);
	if (r->scaled)
		fprintf(f, "  *: the kernel multiplexed its counters; scaled to the interval\n");
	if (s->who->ntd) {
		fprintf(f, "Top-down level 1 (T), the vendor's metrics over its own counts (in %s):",
			s->who->td_unit);
		for (int k = 0; k < s->who->ntd; k++)
			if (isfinite(r->td[k]))
				fprintf(f, " %s %.1f", s->who->td_name[k], r->td[k]);
			else
				fprintf(f, " %s n/a", s->who->td_name[k]);
		fprintf(f, "\n");
		if (!isfinite(r->td[0]))
			fprintf(f, "  n/a: %s\n", s->who->td_why[0] ? s->who->td_why : r->why[0] ? r->why
				: "counted from the interval after T on");
	} else if (s->who->td_why[0]) {
		fprintf(f, "Top-down level 1: %s\n", s->who->td_why);
	}
	if (s->who->rmt_events[0][0])
		fprintf(f, "Rmt%%: the share of its %s and %s that were remote (%s)\n",
			s->who->rmt_events[0], s->who->rmt_events[1], isfinite(who_row_remote(r))
			? "counted as IPC is" : "none counted");
	else if (s->who->rmt_why[0])
		fprintf(f, "Rmt%%: n/a: %s\n", s->who->rmt_why);
	fprintf(f, "mem MB/s, L3 MB: its resctrl monitoring group's mbm_total_bytes per second and "
		"llc_occupancy, summed over the L3 domains%s%s\n", r->rdt_why[0] ? ": n/a, " : "",
		r->rdt_why);
	if (isfinite(r->mbm_local) && r->mbm_total > 0)
		fprintf(f, "  to local memory: %.0f MB/s (%.0f %%)\n", r->mbm_local / 1e6,
			100 * r->mbm_local / r->mbm_total);
	for (int k = 0; k < who_ncols; k++) {
		const struct who_col *c = &who_cols[k];
		double fig = who_col_shown(c, r);
		char mark = who_col_mark(c, r);

		if (!c->about || !c->pane.head)
			continue;
		if (isfinite(fig))
			fprintf(f, "%s %.*f%c: %s\n", c->pane.head, c->pane.prec, fig, mark, c->about);
		else
			fprintf(f, "%s n/a: %s%s%s\n", c->pane.head, c->about,
				c->counted && r->why[0] ? "; " : "", c->counted ? r->why : "");
	}
	fprintf(f, "\n%s\n", s->who->rdt_note);
	fclose(f);
	return text;
}

const struct pane who_pane = {
	.name = "who", .title = "Who",
	.help = "who uses the machine: the cgroup tree (services, containers, pods) and the busiest "
		"processes, their CPUs, IPC, clock, cache misses and resctrl memory bandwidth",
	.state_new = who_pane_state_new, .state_free = who_pane_state_free,
	.draw = who_pane_draw, .key = who_pane_key, .explain = who_pane_explain, .hotkey = 'W',
	.who = true, .rows = 12,
};
