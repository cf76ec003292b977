/*
 * topology_pane: the machine as sockets of cores of hardware threads, each
 * cell coloured by the heat metric, packed to fit (full, narrow, one cell per
 * core); when even one cell per core does not fit, one line per socket (a
 * list that scrolls), and a socket zoomed with Enter shows its cores in a
 * box that scrolls with the selection.  UI thread.
 */
#include "pane.h"
#include "topology_uncore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum topology_pane_topo_mode { TOPOLOGY_PANE_FULL, TOPOLOGY_PANE_NARROW, TOPOLOGY_PANE_CORES,
			       TOPOLOGY_PANE_SUMMARY };

struct topology_pane_fit {
	enum topology_pane_topo_mode mode;
	int per_row;   /* sockets side by side */
	int box_w, box_h;
	int block_w, block_h, blocks; /* core blocks: size, and how many per row in a box */
	bool scrolled; /* one socket whose block rows do not all fit: they scroll */
};

static int topology_pane_max_threads(const struct topo *t)
{
	int n = 1;

	for (int c = 0; c < t->ncores; c++)
		if (t->cores[c].nthreads > n)
			n = t->cores[c].nthreads;
	return n;
}

/*
 * Core K of socket SO's place with BLOCKS a row, from core K-1's (ROW, COL;
 * anything for K 0).  Where the socket has several L3s (AMD's CCXs) each
 * L3's cores start a row of their own, so that a CCX reads as a block of
 * rows; on a hybrid so do each kind's cores and each E-core module's.
 */
static void topology_pane_next(const struct topo *t, const struct topo_socket *so, int blocks,
			       int k, int *row, int *col)
{
	const struct topo_core *co = &t->cores[so->core_first + k], *pr = co - 1;

	if (!k) {
		*row = *col = 0;
	} else if (*col + 1 == blocks || (so->nl3 > 1 && co->l3 != pr->l3) ||
		   co->corekind != pr->corekind || co->module != pr->module) {
		(*row)++;
		*col = 0;
	} else {
		(*col)++;
	}
}

/* The rows socket SO's cores take with BLOCKS a row. */
static int topology_pane_rows(const struct topo *t, const struct topo_socket *so, int blocks)
{
	int row = 0, col = 0;

	for (int k = 0; k < so->ncores; k++)
		topology_pane_next(t, so, blocks, k, &row, &col);
	return so->ncores ? row + 1 : 0;
}

/*
 * The largest mode (and most sockets side by side) whose boxes fit in W x
 * H; one socket that fits in no mode gets one cell per core, scrolled;
 * several, one line each.
 */
static struct topology_pane_fit topology_pane_fit_boxes(const struct topo *t, const int *socks,
							int nsocks, int w, int h)
{
	int thr = topology_pane_max_threads(t);
	struct topology_pane_fit f = { 0 };

	for (int mode = TOPOLOGY_PANE_FULL; mode <= TOPOLOGY_PANE_CORES; mode++) {
		f.mode = (enum topology_pane_topo_mode)mode;
		f.block_w = mode == TOPOLOGY_PANE_FULL ? 12 : mode == TOPOLOGY_PANE_NARROW ? 6 * thr + 1 : 6;
		f.block_h = mode == TOPOLOGY_PANE_FULL ? 1 + thr : 1;
		for (f.per_row = nsocks; f.per_row >= 1; f.per_row--) {
			int rows_of_boxes = (nsocks + f.per_row - 1) / f.per_row, core_rows;

			f.box_w = w / f.per_row;
			f.blocks = (f.box_w - 3) / f.block_w;
			if (f.blocks < 1)
				continue;
			core_rows = 1;
			for (int i = 0; i < nsocks; i++) {
				const struct topo_socket *so = &t->sockets[socks[i]];
				int r = topology_pane_rows(t, so, f.blocks);

				core_rows = r > core_rows ? r : core_rows;
			}
			f.box_h = 3 + core_rows * f.block_h;
			if (rows_of_boxes * f.box_h <= h)
				return f;
		}
	}
	if (nsocks == 1 && h >= 4) {
		/* one socket (zoomed): a cell per core in as many rows as fit, scrolled */
		f.per_row = 1;
		f.box_w = w;
		f.box_h = h;
		f.scrolled = true;
		return f;
	}
	f.mode = TOPOLOGY_PANE_SUMMARY;
	f.per_row = 1;
	f.box_w = w;
	f.box_h = h;
	return f;
}

/* Append PART to BUF (N used) when all of it fits in WIDTH: never half a word ("L3 8"). */
static size_t topology_pane_part(char *buf, size_t len, size_t n, int width, const char *part)
{
	size_t add = strlen(part);

	if (n + add > (size_t)width + 2 || n + add >= len) /* +2: a part's trailing gap may go */
		return n;
	memcpy(buf + n, part, add + 1);
	return n + add;
}

/*
 * Socket SK's CPUs, memory and L3 in WIDTH columns: "cpus 0-3,8-11  node 0
 * 11.2 of 12.0 GiB free  L3 8 MiB", whole parts only, shorter forms of the
 * memory when the long one does not fit.
 */
static void topology_pane_socket_info(const struct topo *t, int sk, int width, char *buf,
				      size_t len)
{
	const struct topo_socket *so = &t->sockets[sk];
	char *cpus = cpulist_format(so->cpus, so->nthreads), part[160];
	size_t n = 0;

	buf[0] = 0;
	snprintf(part, sizeof(part), "cpus %s  ", cpus);
	n = topology_pane_part(buf, len, n, width, part);
	free(cpus);
	/* a hybrid CPU: its cores of each kind ("8 P + 8 E cores") */
	for (int k = 0, m = 0; k < t->ncorekinds; k++) {
		int nc = 0;

		for (int c = so->core_first; c < so->core_first + so->ncores; c++)
			nc += t->cores[c].corekind == k;
		m += (size_t)snprintf(part + m, sizeof(part) - (size_t)m, "%s%d %s%s", k ? " + " : "",
				      nc, t->corekinds[k].name, k + 1 == t->ncorekinds ? " cores  " : "");
		if (k + 1 == t->ncorekinds)
			n = topology_pane_part(buf, len, n, width, part);
	}
	for (int i = 0; i < so->nnuma; i++) {
		const struct topo_numa *nu = &t->numa[so->numa[i]];
		size_t before = n;

		if (nu->mem_total != TOPO_BYTES_UNKNOWN && nu->mem_free != TOPO_BYTES_UNKNOWN) {
			snprintf(part, sizeof(part), "node %d %.1f of %.1f GiB free  ", nu->os_node,
				 nu->mem_free / 1073741824.0, nu->mem_total / 1073741824.0);
			n = topology_pane_part(buf, len, n, width, part);
		}
		if (n == before && nu->mem_total != TOPO_BYTES_UNKNOWN) {
			snprintf(part, sizeof(part), "node %d %.1f GiB  ", nu->os_node,
				 nu->mem_total / 1073741824.0);
			n = topology_pane_part(buf, len, n, width, part);
		}
		if (n == before) {
			snprintf(part, sizeof(part), "node %d  ", nu->os_node);
			n = topology_pane_part(buf, len, n, width, part);
		}
	}
	for (int i = 0; i < so->nl3; i++) {
		uint64_t b = t->l3s[so->l3_first + i].size_bytes;
		int same = 1;

		/* AMD's CCXs: "12 CCX x 8 cores, L3 32 MiB each", not the size twelve times */
		while (i + same < so->nl3 && t->l3s[so->l3_first + i + same].size_bytes == b)
			same++;
		if (!b)
			continue;
		if (same > 1)
			snprintf(part, sizeof(part), "%d L3s (CCX) x %d cores, %llu MiB each  ", same,
				 so->ncores / so->nl3, (unsigned long long)(b >> 20));
		else
			snprintf(part, sizeof(part), "L3 %llu MiB  ", (unsigned long long)(b >> 20));
		n = topology_pane_part(buf, len, n, width, part);
		i += same - 1;
	}
}

/* Cell text and style of sample thread I (or -1) for the heat metric. */
static enum grid_style topology_pane_cell(const struct view *v, const struct sample *s, int i,
					  double max, int width, char *buf, size_t len)
{
	double value = i >= 0 ? pane_thread_value(s, i, v->heat_metric) : NAN;

	if (i < 0) {
		snprintf(buf, len, "%*s", width, s ? "off" : "");
		return GRID_DIM;
	}
	pane_value_fit(s, v->heat_metric, value, width, buf, len);
	return pane_heat(v->info.layout, v->heat_metric, value, max);
}

/*
 * The first block row shown of ROWS when SHOWN fit: the selected core's (SEL,
 * counted in the socket) in sight, on the row its L3, kind or module put it.
 */
static int topology_pane_first_row(const struct topo *t, const struct topo_socket *so, int blocks,
				   int sel, int rows, int shown)
{
	int sel_row = 0, col = 0;

	for (int k = 0; k <= sel && k < so->ncores; k++)
		topology_pane_next(t, so, blocks, k, &sel_row, &col);
	if (sel_row >= rows)
		sel_row = rows - 1;
	return sel_row < shown ? 0 : sel_row - shown + 1;
}

static void topology_pane_socket_box(const struct view *v, const struct sample *s,
				     const int *tmap, const bool *who,
				     const struct topology_pane_fit *fit, int sk,
				     int y, int x, double max, int *pos, struct grid *g,
				     struct view_frame *f)
{
	const struct topo *t = v->info.topo;
	const struct topo_socket *so = &t->sockets[sk];
	bool focus = pane_focused(v, f);
	int row = 0, col = 0, rows = topology_pane_rows(t, so, fit->blocks), shown = rows,
	    first = 0;
	char title[64], info[256], cell[32];

	snprintf(title, sizeof(title), "Socket %d", so->os_id >= 0 ? so->os_id : sk);
	grid_box(g, y, x, fit->box_h, fit->box_w, focus ? GRID_TITLE : GRID_DIM, title);
	/* its uncore on the bottom border: the channels' boxes, memory, links, power */
	topology_uncore_draw(v, s, sk, y + fit->box_h - 1, x + 2,
			     fit->scrolled ? fit->box_w / 2 - 2 : fit->box_w - 4, g);
	topology_pane_socket_info(t, sk, fit->box_w - 4, info, sizeof(info));
	grid_put(g, y + 1, x + 2, fit->box_w - 4, GRID_DIM, "%s", info);
	if (fit->scrolled) {
		char where[64];

		shown = fit->box_h - 3;
		/* scrolled boxes hold a cell per core: the selection's place is its core's */
		first = focus ? topology_pane_first_row(t, so, fit->blocks,
							f->sel >= *pos ? f->sel - *pos : 0, rows,
							shown) : 0;
		snprintf(where, sizeof(where), " rows %d-%d of %d: arrows scroll ", first + 1,
			 first + shown < rows ? first + shown : rows, rows);
		grid_put_right(g, y + fit->box_h - 1, x + 1, fit->box_w - 2, GRID_DIM, where);
	}
	for (int c = 0; c < so->ncores; c++) {
		const struct topo_core *co = &t->cores[so->core_first + c];
		int by, bx;
		bool drawn;

		topology_pane_next(t, so, fit->blocks, c, &row, &col);
		by = y + 2 + (row - first) * fit->block_h;
		bx = x + 2 + col * fit->block_w;
		drawn = row - first >= 0 && row - first < shown;

		if (fit->mode == TOPOLOGY_PANE_FULL) {
			/* a hybrid CPU's core says its kind: "core 0 P", "core 32 E" */
			grid_put(g, by, bx, fit->block_w - 1, GRID_DIM, "core %d%s%s", co->core_id,
				 co->corekind >= 0 ? " " : "",
				 co->corekind >= 0 ? t->corekinds[co->corekind].name : "");
			for (int k = 0; k < co->nthreads; k++) {
				int th = co->thread_first + k, i = tmap[th];
				int cpu = t->threads[th].os_cpu;
				enum grid_style st = topology_pane_cell(v, s, i, max, 6, cell, sizeof(cell));

				grid_put(g, by + 1 + k, bx, 4, pane_cpu_shown(v, cpu) ? GRID_NORMAL : GRID_DIM,
					 "%c%3d", pane_pid_ran(v, cpu) || (who && who[cpu]) ? '@' : ' ',
					 cpu);
				grid_blank(g, by + 1 + k, bx + 4, 1, st);
				pane_cell(g, by + 1 + k, bx + 5, 6, st, cell, focus && f->sel == *pos);
				pane_hit(f, by + 1 + k, bx, 11, (*pos)++, sk,
					 VIEW_AGG_THREAD, i);
			}
		} else if (fit->mode == TOPOLOGY_PANE_NARROW) {
			for (int k = 0; k < co->nthreads; k++) {
				int i = tmap[co->thread_first + k];
				enum grid_style st = topology_pane_cell(v, s, i, max, 5, cell, sizeof(cell));

				pane_cell(g, by, bx + 6 * k, 5, st, cell, focus && f->sel == *pos);
				pane_hit(f, by, bx + 6 * k, 5, (*pos)++, sk,
					 VIEW_AGG_THREAD, i);
			}
		} else {
			int k = so->core_first + c;
			double val = s ? sample_metric(s, &s->cores[k], v->heat_metric) : NAN;
			enum grid_style st = pane_heat(v->info.layout, v->heat_metric, val, max);

			if (!drawn) {
				(*pos)++; /* out of sight: still a place the selection can go */
				continue;
			}
			pane_value_fit(s, v->heat_metric, val, 5, cell, sizeof(cell));
			pane_cell(g, by, bx, 5, st, s ? cell : "", focus && f->sel == *pos);
			pane_hit(f, by, bx, 5, (*pos)++, sk, VIEW_AGG_CORE, k);
		}
	}
}

/*
 * Socket SK's line of the list: the heat metric's mean, its lowest and
 * highest with the CPU each is on, then what fits of the threads, CPUs,
 * memory and L3.
 */
static void topology_pane_summary_line(const struct view *v, const struct sample *s,
				       const int *tmap, int sk, int w, char *line, size_t len,
				       double *mean)
{
	const struct topo *t = v->info.topo;
	const struct topo_socket *so = &t->sockets[sk];
	char mn[48], mx[48], avg[48], thr[32], info[256], unc[160], unc_brief[160];
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	int n = 0, lo_cpu = -1, hi_cpu = -1;

	for (int k = 0; s && k < so->nthreads; k++) {
		int i = tmap[so->thread_first + k];
		double val = i >= 0 ? pane_thread_value(s, i, v->heat_metric) : NAN;

		if (isnan(val))
			continue;
		sum += val;
		if (val < lo) {
			lo = val;
			lo_cpu = t->threads[so->thread_first + k].os_cpu;
		}
		if (val > hi) {
			hi = val;
			hi_cpu = t->threads[so->thread_first + k].os_cpu;
		}
		n++;
	}
	*mean = n ? sum / n : NAN;
	if (n) {
		char a[32], b[32], c[32];

		pane_value(s, v->heat_metric, *mean, a, sizeof(a));
		pane_value(s, v->heat_metric, lo, b, sizeof(b));
		pane_value(s, v->heat_metric, hi, c, sizeof(c));
		snprintf(avg, sizeof(avg), "mean %s", a);
		snprintf(mn, sizeof(mn), "min %s (cpu %d)", b, lo_cpu);
		snprintf(mx, sizeof(mx), "max %s (cpu %d)", c, hi_cpu);
	} else {
		snprintf(avg, sizeof(avg), s ? "mean n/a" : "");
		mn[0] = mx[0] = 0;
	}
	snprintf(thr, sizeof(thr), "%d threads", so->nthreads);
	topology_pane_socket_info(t, sk, w, info, sizeof(info));
	/* the links' use and the L3 where the line has room for them, else less */
	for (int detail = 2; detail >= 1; detail--) {
		topology_uncore_text(v, s, sk, detail, unc, sizeof(unc));
		topology_uncore_text(v, s, sk, detail - 1, unc_brief, sizeof(unc_brief));
		{
			const struct pane_part parts[] = {
				{ avg, NULL, false }, { unc, unc_brief, false }, { mn, NULL, false },
				{ mx, NULL, false }, { thr, NULL, false }, { info, NULL, false },
			};

			pane_parts(parts, 6, w, line, len);
		}
		if (strstr(line, unc) || !unc[0])
			break;
	}
}

/* One line per socket in rows [Y, Y + H): a list that scrolls with the selection. */
static int topology_pane_summary(const struct view *v, const struct sample *s, const int *tmap,
				 const int *socks, int nsocks, int y, int h, struct grid *g,
				 struct view_frame *f)
{
	bool focus = pane_focused(v, f);
	int shown = h - 2 < nsocks ? h - 2 : nsocks, first = 0;
	char line[512];

	if (shown < 1)
		shown = 1;
	if (focus && f->sel >= shown)
		first = f->sel - shown + 1;
	if (first > nsocks - shown)
		first = nsocks - shown;
	grid_box(g, y, 0, shown + 2, g->w, focus ? GRID_TITLE : GRID_DIM,
		 "Sockets: one line each (Enter zooms into one)");
	for (int r = 0; r < shown; r++) {
		int sk = socks[first + r];
		const struct topo_socket *so = &v->info.topo->sockets[sk];
		double mean;
		int lw;

		topology_pane_summary_line(v, s, tmap, sk, g->w - 16, line, sizeof(line), &mean);
		bool sel = focus && f->sel == first + r;

		lw = grid_put(g, y + 1 + r, 2, 11, sel ? GRID_CURSOR : GRID_BOLD, "socket %d",
			      so->os_id >= 0 ? so->os_id : sk);
		if (sel) {
			grid_put(g, y + 1 + r, 1, 1, GRID_CURSOR, "[");
			grid_put(g, y + 1 + r, 2 + lw, 1, GRID_CURSOR, "]");
		}
		lw = 10;
		grid_put(g, y + 1 + r, 3 + lw, g->w - 5 - lw,
			 pane_heat(v->info.layout, v->heat_metric, mean, mean), "%s", line);
		pane_hit(f, y + 1 + r, 0, g->w, first + r, sk, VIEW_AGG_SOCKET, sk);
	}
	if (nsocks > shown) {
		char more[64];

		snprintf(more, sizeof(more), " %d-%d of %d sockets ", first + 1, first + shown, nsocks);
		grid_put_right(g, y + shown + 1, 1, g->w - 2, GRID_DIM, more);
	}
	if (focus) {
		f->nrows = nsocks;
		f->page = shown;
	}
	return shown + 2;
}

/* The topology from row Y in at most H rows; returns the rows used. */
static int topology_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			      struct grid *g, struct view_frame *frame)
{
	const struct topo *t = v->info.topo;
	int *socks = xcalloc((size_t)t->nsockets + 1, sizeof(int)), nsocks = 0, pos = 0, rows;
	int *tmap = pane_thread_map(s, t);
	bool *who = pane_who_cpus(v, s); /* the who pane's selected group or process: @ */
	struct topology_pane_fit f;
	double max = 0;

	for (int k = 0; k < t->nsockets; k++)
		if (v->zoom_socket < 0 || v->zoom_socket == k)
			socks[nsocks++] = k;
	for (int i = 0; s && i < s->nthreads; i++) {
		double val = pane_thread_value(s, i, v->heat_metric);

		if (!isnan(val))
			max = fmax(max, val);
	}
	if (v->topo_fold) /* a line per socket (O): the pane under it takes the rows */
		f = (struct topology_pane_fit){ .mode = TOPOLOGY_PANE_SUMMARY, .per_row = 1,
						.box_w = g->w, .box_h = h };
	else
		f = topology_pane_fit_boxes(t, socks, nsocks, g->w, h);
	if (f.mode == TOPOLOGY_PANE_SUMMARY) {
		rows = topology_pane_summary(v, s, tmap, socks, nsocks, y, h, g, frame);
	} else {
		for (int i = 0; i < nsocks; i++)
			topology_pane_socket_box(v, s, tmap, who, &f, socks[i], y + (i / f.per_row) * f.box_h,
						 (i % f.per_row) * f.box_w, max, &pos, g, frame);
		rows = ((nsocks + f.per_row - 1) / f.per_row) * f.box_h;
		if (pane_focused(v, frame)) {
			frame->nrows = pos;
			frame->page = f.blocks > 0 ? f.blocks : 1;
			frame->topo_scrolled = f.scrolled;
		}
	}
	if (v->zoom_socket >= 0)
		grid_put(g, y, g->w - 26, 24, GRID_TITLE, " zoomed: Esc shows all ");
	free(socks);
	free(tmap);
	free(who);
	return rows > h ? h : rows;
}

/*
 * Arrows on the topology move on the screen as drawn: to the nearest cell
 * in direction (DX, DY), first on the same line (or column of lines), then
 * the closest.  Nothing that way: the selection stays.
 */
static void topology_pane_move(struct view *v, const struct view_frame *f, int dx, int dy)
{
	const struct view_hit *cur = NULL, *best = NULL;
	long best_score = 0;

	for (int i = 0; i < f->nhits; i++)
		if (f->hits[i].pane == v->focus && f->hits[i].what == VIEW_HIT_CELL &&
		    f->hits[i].pos == f->sel)
			cur = &f->hits[i];
	if (!cur) {
		view_move(v, f, dx + dy);
		return;
	}
	for (int i = 0; i < f->nhits; i++) {
		const struct view_hit *h = &f->hits[i];
		long ddx = (long)(2 * h->x + h->w) - (2 * cur->x + cur->w), ddy = h->y - cur->y, score;

		if (h->pane != v->focus || h->what != VIEW_HIT_CELL || h == cur)
			continue;
		if ((dx > 0 && ddx <= 0) || (dx < 0 && ddx >= 0) || (dy > 0 && ddy <= 0) ||
		    (dy < 0 && ddy >= 0))
			continue;
		/* along the direction as little as possible, across it far less still */
		score = dx ? labs(ddy) * 100000 + labs(ddx) : labs(ddy) * 1000 + labs(ddx);
		if (!best || score < best_score) {
			best = h;
			best_score = score;
		}
	}
	if (best)
		v->sel = best->pos;
	else if (f->topo_scrolled)
		/* past the rows on screen: the next row (or cell), which scrolls into sight */
		view_move(v, f, dy ? dy * f->page : dx);
}

/*
 * The arrows move on the screen as drawn (topology_pane_move); Enter zooms
 * the topology to the socket of the selected cell, or back out.
 */
static bool topology_pane_key(struct view *v, const struct view_frame *f, int key)
{
	if (key == VIEW_KEY_UP || key == VIEW_KEY_DOWN || key == VIEW_KEY_LEFT || key == VIEW_KEY_RIGHT) {
		topology_pane_move(v, f, key == VIEW_KEY_LEFT ? -1 : key == VIEW_KEY_RIGHT ? 1 : 0,
				   key == VIEW_KEY_UP ? -1 : key == VIEW_KEY_DOWN ? 1 : 0);
		return true;
	}
	if (key != VIEW_KEY_ENTER && key != '\n' && key != '\r')
		return false;
	if (v->zoom_socket >= 0) {
		v->zoom_socket = -1;
		v->sel = 0;
		return true;
	}
	for (int i = 0; i < f->nhits; i++)
		if (f->hits[i].pane == v->focus && f->hits[i].pos == v->sel) {
			v->zoom_socket = f->hits[i].socket;
			v->sel = 0;
			return true;
		}
	return true;
}

const struct pane topology_pane = {
	.name = "topology", .title = "Topology",
	.help = "sockets, cores and threads coloured by the heat metric (m); Enter zooms",
	.draw = topology_pane_draw, .key = topology_pane_key,
};
