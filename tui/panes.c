/*
 * panes: the interactive screen drawn into a grid.  From the top: header
 * (machine, source, interval, age, state), a message line, the topology
 * heatmap, the lower pane (thread table, ports, uncore, IMC; Tab switches),
 * the counter-budget footer and the key bar.  Overlays (help, explain,
 * doctor) and prompts are drawn last, over the rest.
 */
#define _GNU_SOURCE /* qsort_r */
#include "panes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

#define PANES_TOPO_MIN_LOWER 8 /* rows kept for the lower pane under the topology */

void panes_format(double value, char *buf, size_t len)
{
	static const char suffix[] = "kMGTPE";
	double a = fabs(value);

	if (isnan(value)) {
		snprintf(buf, len, "n/a");
	} else if (a >= 1e4) {
		int k = -1;

		while (a >= 1e3 && k < 5) {
			a /= 1e3;
			value /= 1e3;
			k++;
		}
		snprintf(buf, len, a >= 100 ? "%.0f%c" : a >= 10 ? "%.1f%c" : "%.2f%c", value,
			 suffix[k]);
	} else if (a >= 100) {
		snprintf(buf, len, "%.1f", value);
	} else if (a >= 99.995) { /* would print as 100.00: one decimal like the rest above 100 */
		snprintf(buf, len, "%.1f", value);
	} else if (a >= 1 || a == 0) {
		snprintf(buf, len, "%.2f", value);
	} else {
		snprintf(buf, len, a >= 0.01 ? "%.3f" : "%.1e", value);
	}
}

/* Value text with the scaled mark. */
static void panes_value(const struct sample *s, int m, double value, char *buf, size_t len)
{
	panes_format(value, buf, len - 1);
	if (!isnan(value) && s && s->metric_scaled[m])
		strcat(buf, "*");
}

/* The warn/crit thresholds a pane of the layout gives metric M (NaN when none). */
static void panes_thresholds(const struct layout *l, int m, double *warn, double *crit)
{
	*warn = *crit = NAN;
	for (int p = 0; p < l->npanes; p++)
		for (int i = 0; i < l->panes[p].nshows; i++)
			if (l->panes[p].shows[i].metric == m) {
				*warn = l->panes[p].shows[i].warn;
				*crit = l->panes[p].shows[i].crit;
				return;
			}
}

/* Heat level 0..4 of VALUE for metric M; MAX is the largest value shown (for metrics without a scale). */
static enum grid_style panes_heat(const struct layout *l, int m, double value, double max)
{
	double warn, crit, frac;
	int level;

	if (isnan(value))
		return GRID_DIM;
	panes_thresholds(l, m, &warn, &crit);
	if (!isnan(warn) && !isnan(crit) && crit > 0) {
		level = value >= crit ? 4 : value >= warn ? 3 : value >= warn / 2 ? 2 : value > 0 ? 1 : 0;
		return (enum grid_style)(GRID_HEAT0 + level);
	}
	if (!strcmp(l->metrics[m].unit, "%"))
		frac = value / 100;
	else
		frac = max > 0 ? value / max : 0;
	level = value <= 0 ? 0 : 1 + (int)(fmin(frac, 1) * 3.999);
	return (enum grid_style)(GRID_HEAT0 + level);
}

static void panes_hit(struct view *v, int y, int x, int w, enum view_pane pane, int pos, int socket,
		      enum view_agg kind, int entity)
{
	if (v->nhits == v->hits_cap) {
		v->hits_cap = v->hits_cap ? 2 * v->hits_cap : 256;
		v->hits = xrealloc(v->hits, (size_t)v->hits_cap, sizeof(*v->hits));
	}
	v->hits[v->nhits++] = (struct view_hit){ .y = y, .x = x, .w = w, .pane = pane, .pos = pos,
						  .socket = socket, .kind = kind, .entity = entity };
}

static bool panes_cpu_shown(const struct view *v, int os_cpu)
{
	return !v->cpu_shown || (os_cpu >= 0 && os_cpu < v->info.topo->cpu_thread_len &&
				 v->cpu_shown[os_cpu]);
}

static bool panes_pid_ran(const struct view *v, int os_cpu)
{
	return v->pid_cpus && os_cpu >= 0 && os_cpu < v->info.topo->cpu_thread_len &&
	       v->pid_cpus[os_cpu];
}

/*
 * Sample thread index of every topo thread (-1: offline, or no sample), so
 * that drawing a cell is a lookup, not a search.  Caller frees.
 */
static int *panes_thread_map(const struct sample *s, const struct topo *t)
{
	int *map = xcalloc((size_t)t->nthreads + 1, sizeof(int));

	for (int th = 0; th < t->nthreads; th++)
		map[th] = -1;
	for (int i = 0; s && i < s->nthreads; i++) {
		int cpu = s->threads[i].index;

		if (cpu >= 0 && cpu < t->cpu_thread_len && t->cpu_thread[cpu] >= 0)
			map[t->cpu_thread[cpu]] = i;
	}
	return map;
}

/* ---- header, message line, footer, key bar -------------------------------- */

static void panes_header(struct view *v, const struct sample *s, double age, struct grid *g)
{
	const struct view_info *in = &v->info;
	char line[512], skew[32];
	int x;

	grid_blank(g, 0, 0, g->w, GRID_HEADER);
	grid_put(g, 0, 1, g->w - 1, GRID_HEADER, "pmutop  %s  %s  (%s, layout %s)", in->host,
		 in->brand, in->uarch, in->layout->name);
	x = g->w - (int)strlen(in->source) - 2;
	if (x > g->w / 2)
		grid_put(g, 0, x, g->w - x, in->simulated ? GRID_SIM : GRID_HEADER, " %s ", in->source);
	if (s && !isnan(s->skew_us))
		snprintf(skew, sizeof(skew), "%.1f ms", s->skew_us / 1000);
	else
		snprintf(skew, sizeof(skew), "-");
	snprintf(line, sizeof(line), "interval %.1f s  sample %llu  age %.0f s  skew %s  heat: %s",
		 v->interval, s ? (unsigned long long)s->seq : 0ull, s ? floor(age) : 0.0, skew,
		 in->layout->metrics[v->heat_metric].name);
	x = grid_put(g, 1, 1, g->w - 12, GRID_NORMAL, "%s", line);
	if (v->filter[0])
		x += grid_put(g, 1, 1 + x, g->w - 12 - x, GRID_NORMAL, "  filter: %s", v->filter);
	if (v->pid)
		x += grid_put(g, 1, 1 + x, g->w - 12 - x, GRID_NORMAL, "  pid: %d", v->pid);
	grid_put_right(g, 1, g->w - 10, 9, v->paused ? GRID_WARN : GRID_OK,
		       v->paused ? "PAUSED" : s ? "LIVE" : "STARTING");
}

/* "socket 1" or "socket 1 channel 2": where flag F is. */
static void panes_flag_where(const struct sample *s, const struct sample_flag *f, char *buf,
			     size_t len)
{
	int n = snprintf(buf, len, "socket %d", s->sockets[f->socket].os_socket_id);

	if (f->channel >= 0 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " channel %d", f->channel);
}

static void panes_message(struct view *v, const struct sample *s, struct grid *g)
{
	static const char *const prompts[] = {
		[VIEW_PROMPT_FILTER] = "CPU filter (e.g. 0-3,8; empty shows all), Enter applies: ",
		[VIEW_PROMPT_PID] = "Highlight the CPUs of process (PID; empty clears): ",
	};
	int rotating = 0;

	if (v->prompt) {
		int x = grid_put(g, 2, 1, g->w - 2, GRID_BOLD, "%s", prompts[v->prompt]);

		grid_put(g, 2, 1 + x, g->w - 2 - x, GRID_SELECT, "%s_", v->input);
		return;
	}
	if (v->status[0]) {
		grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%s", v->status);
		return;
	}
	if (s && s->error[0]) {
		grid_put(g, 2, 1, g->w - 2, GRID_CRIT, "%s", s->error);
		return;
	}
	for (int i = 0; s && i < v->info.layout->ngroups; i++)
		rotating += s->groups[i].state == SAMPLE_GROUP_ROTATING;
	if (s && s->warning[0]) {
		grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%s", s->warning);
	} else if (s && s->nflags) {
		char where[48];

		panes_flag_where(s, &s->flags[0], where, sizeof(where));
		grid_put(g, 2, 1, g->w - 2, GRID_CRIT, "! %s: %s (figures marked ! cannot be true; "
			 "Tab to the uncore/IMC pane)", where, s->flags[0].why);
	} else if (rotating)
		grid_put(g, 2, 1, g->w - 2, GRID_WARN,
			 "%d groups take turns on the counters: figures marked * are scaled from "
			 "their share of the interval", rotating);
	else if (!s)
		grid_put(g, 2, 1, g->w - 2, GRID_DIM, "waiting for the first sample...");
}

/* The counter budget: free counters, then each group with its key, size and state. */
static int panes_footer(const struct view *v, const struct sample *s, struct grid *g, int y,
			bool draw)
{
	const struct layout *l = v->info.layout;
	int x = 1, rows = 1;

	if (draw && s && s->unc_usable)
		x += grid_put(g, y, x, g->w - 2, GRID_BOLD, "Counters: %d of %u free/thread, %d/uncore ",
			      s->gp_usable, v->info.gp_counters, s->unc_usable);
	else if (draw)
		x += grid_put(g, y, x, g->w - 2, GRID_BOLD, "Counters: %d of %u free/thread ",
			      s ? s->gp_usable : 0, v->info.gp_counters);
	else
		x += s && s->unc_usable ? 42 : 30;
	for (int i = 0; i < l->ngroups; i++) {
		static const char *const names[] = { "off", "LIVE", "ROT", "BLOCKED" };
		enum sample_group_state st = s ? s->groups[i].state : SAMPLE_GROUP_OFF;
		enum grid_style style = st == SAMPLE_GROUP_LIVE	    ? GRID_OK
					: st == SAMPLE_GROUP_ROTATING ? GRID_WARN
					: st == SAMPLE_GROUP_BLOCKED  ? GRID_CRIT
								      : GRID_DIM;
		char item[96];
		int len;

		if (!s && (v->groups & (1u << i)))
			style = GRID_NORMAL;
		/* free-running IMC counters take no programmable counter */
		len = snprintf(item, sizeof(item), "%c %s:%d %s", l->groups[i].key ? l->groups[i].key : ' ',
			       l->groups[i].name,
			       l->groups[i].pmu == LAYOUT_PMU_IMC ? 0 : l->groups[i].nevents,
			       names[st]);
		if (x + len + 2 > g->w - 1) {
			rows++;
			y++;
			x = 1;
		}
		if (draw) {
			grid_put(g, y, x, g->w - 1 - x, GRID_DIM, "|");
			grid_put(g, y, x + 2, g->w - 3 - x, style, "%s", item);
		}
		x += len + 3;
	}
	return rows;
}

static void panes_keybar(struct grid *g)
{
	static const char *const keys[][2] = {
		{ "F1", "Help" },   { "1-9", "Groups" }, { "Tab", "Pane" },    { "m", "Metric" },
		{ "a", "Aggr" },    { "s", "Sort" },     { "Spc", "Pause" },   { "+-", "Interval" },
		{ "/", "Filter" },  { "p", "PID" },      { "e", "Explain" },   { "d", "Doctor" },
		{ "q", "Quit" },
	};
	int x = 0, y = g->h - 1;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int need = (int)(strlen(keys[i][0]) + strlen(keys[i][1])) + 1;

		if (x + need > g->w)
			break;
		x += grid_put(g, y, x, g->w - x, GRID_KEY, "%s", keys[i][0]);
		x += grid_put(g, y, x, g->w - x, GRID_NORMAL, "%s ", keys[i][1]);
	}
}

/* ---- topology ------------------------------------------------------------- */

enum panes_topo_mode { PANES_FULL, PANES_NARROW, PANES_CORES, PANES_SUMMARY };

struct panes_topo_fit {
	enum panes_topo_mode mode;
	int per_row;   /* sockets side by side */
	int box_w, box_h;
	int block_w, block_h, blocks; /* core blocks: size, and how many per row in a box */
};

static int panes_max_threads(const struct topo *t)
{
	int n = 1;

	for (int c = 0; c < t->ncores; c++)
		if (t->cores[c].nthreads > n)
			n = t->cores[c].nthreads;
	return n;
}

/* The largest mode (and most sockets side by side) whose boxes fit in W x H. */
static struct panes_topo_fit panes_topo_fit(const struct topo *t, const int *socks, int nsocks,
					    int w, int h)
{
	int thr = panes_max_threads(t), maxcores = 1;
	struct panes_topo_fit f = { 0 };

	for (int i = 0; i < nsocks; i++)
		if (t->sockets[socks[i]].ncores > maxcores)
			maxcores = t->sockets[socks[i]].ncores;
	for (int mode = PANES_FULL; mode <= PANES_CORES; mode++) {
		f.mode = (enum panes_topo_mode)mode;
		f.block_w = mode == PANES_FULL ? 12 : mode == PANES_NARROW ? 6 * thr + 1 : 6;
		f.block_h = mode == PANES_FULL ? 1 + thr : 1;
		for (f.per_row = nsocks; f.per_row >= 1; f.per_row--) {
			int rows_of_boxes = (nsocks + f.per_row - 1) / f.per_row, core_rows;

			f.box_w = w / f.per_row;
			f.blocks = (f.box_w - 3) / f.block_w;
			if (f.blocks < 1)
				continue;
			core_rows = (maxcores + f.blocks - 1) / f.blocks;
			f.box_h = 3 + core_rows * f.block_h;
			if (rows_of_boxes * f.box_h <= h)
				return f;
		}
	}
	f.mode = PANES_SUMMARY;
	f.per_row = 1;
	f.box_w = w;
	f.box_h = 3;
	return f;
}

/* Socket SK's CPUs, memory and L3: "cpus 0-3,8-11  node 0 11.2 of 12.0 GiB free  L3 8 MiB". */
static void panes_socket_info(const struct topo *t, int sk, char *buf, size_t len)
{
	const struct topo_socket *so = &t->sockets[sk];
	char *cpus = cpulist_format(so->cpus, so->nthreads);
	size_t n = (size_t)snprintf(buf, len, "cpus %s  ", cpus);

	free(cpus);
	for (int i = 0; i < so->nnuma && n < len; i++) {
		const struct topo_numa *nu = &t->numa[so->numa[i]];

		if (nu->mem_total == TOPO_BYTES_UNKNOWN)
			n += (size_t)snprintf(buf + n, len - n, "node %d  ", nu->os_node);
		else if (nu->mem_free == TOPO_BYTES_UNKNOWN)
			n += (size_t)snprintf(buf + n, len - n, "node %d %.1f GiB  ", nu->os_node,
					      nu->mem_total / 1073741824.0);
		else
			n += (size_t)snprintf(buf + n, len - n, "node %d %.1f of %.1f GiB free  ",
					      nu->os_node, nu->mem_free / 1073741824.0,
					      nu->mem_total / 1073741824.0);
	}
	for (int i = 0; i < so->nl3 && n < len; i++) {
		uint64_t b = t->l3s[so->l3_first + i].size_bytes;

		if (b)
			n += (size_t)snprintf(buf + n, len - n, "L3 %llu MiB  ",
					      (unsigned long long)(b >> 20));
	}
}

/* Cell text and style of sample thread I (or -1) for the heat metric. */
static enum grid_style panes_cell(const struct view *v, const struct sample *s, int i, double max,
				  int width, char *buf, size_t len)
{
	double value = i >= 0 ? sample_metric(s, &s->threads[i], v->heat_metric) : NAN;

	if (i < 0) {
		snprintf(buf, len, "%*s", width, s ? "off" : "");
		return GRID_DIM;
	}
	panes_value(s, v->heat_metric, value, buf, len);
	return panes_heat(v->info.layout, v->heat_metric, value, max);
}

static void panes_socket_box(struct view *v, const struct sample *s, const int *tmap,
			     const struct panes_topo_fit *f, int sk, int y, int x, double max, int *pos,
			     struct grid *g)
{
	const struct topo *t = v->info.topo;
	const struct topo_socket *so = &t->sockets[sk];
	char title[64], info[256], cell[32];

	snprintf(title, sizeof(title), "Socket %d", so->os_id >= 0 ? so->os_id : sk);
	grid_box(g, y, x, f->box_h, f->box_w, GRID_DIM, title);
	panes_socket_info(t, sk, info, sizeof(info));
	grid_put(g, y + 1, x + 2, f->box_w - 4, GRID_DIM, "%s", info);
	if (f->mode == PANES_SUMMARY) {
		double sum = 0, lo = INFINITY, hi = -INFINITY;
		int n = 0;

		for (int k = 0; s && k < so->nthreads; k++) {
			int i = tmap[so->thread_first + k];
			double val = i >= 0 ? sample_metric(s, &s->threads[i], v->heat_metric) : NAN;

			if (isnan(val))
				continue;
			sum += val;
			lo = fmin(lo, val);
			hi = fmax(hi, val);
			n++;
		}
		grid_put(g, y + 1, x + f->box_w / 2, f->box_w / 2 - 2, GRID_BOLD,
			 n ? "%d threads  mean %.2f  min %.2f  max %.2f  (Enter zooms)" : "%d threads",
			 so->nthreads, n ? sum / n : 0, lo, hi);
		panes_hit(v, y + 1, x, f->box_w, VIEW_PANE_TOPO, (*pos)++, sk, VIEW_AGG_SOCKET, sk);
		return;
	}
	for (int c = 0; c < so->ncores; c++) {
		const struct topo_core *co = &t->cores[so->core_first + c];
		int by = y + 2 + (c / f->blocks) * f->block_h, bx = x + 2 + (c % f->blocks) * f->block_w;

		if (f->mode == PANES_FULL) {
			grid_put(g, by, bx, f->block_w - 1, GRID_DIM, "core %d", co->core_id);
			for (int k = 0; k < co->nthreads; k++) {
				int th = co->thread_first + k, i = tmap[th];
				int cpu = t->threads[th].os_cpu;
				enum grid_style st = panes_cell(v, s, i, max, 6, cell, sizeof(cell));
				bool sel = v->focus == VIEW_PANE_TOPO && v->sel == *pos;

				grid_put(g, by + 1 + k, bx, 4, panes_cpu_shown(v, cpu) ? GRID_NORMAL : GRID_DIM,
					 "%c%3d", panes_pid_ran(v, cpu) ? '@' : ' ', cpu);
				grid_blank(g, by + 1 + k, bx + 4, 7, sel ? GRID_SELECT : st);
				grid_put_right(g, by + 1 + k, bx + 4, 7, sel ? GRID_SELECT : st, cell);
				panes_hit(v, by + 1 + k, bx, 11, VIEW_PANE_TOPO, (*pos)++, sk,
					  VIEW_AGG_THREAD, i);
			}
		} else if (f->mode == PANES_NARROW) {
			for (int k = 0; k < co->nthreads; k++) {
				int i = tmap[co->thread_first + k];
				enum grid_style st = panes_cell(v, s, i, max, 5, cell, sizeof(cell));
				bool sel = v->focus == VIEW_PANE_TOPO && v->sel == *pos;

				grid_blank(g, by, bx + 6 * k, 5, sel ? GRID_SELECT : st);
				grid_put_right(g, by, bx + 6 * k, 5, sel ? GRID_SELECT : st, cell);
				panes_hit(v, by, bx + 6 * k, 5, VIEW_PANE_TOPO, (*pos)++, sk,
					  VIEW_AGG_THREAD, i);
			}
		} else {
			int k = so->core_first + c;
			double val = s ? sample_metric(s, &s->cores[k], v->heat_metric) : NAN;
			enum grid_style st = panes_heat(v->info.layout, v->heat_metric, val, max);
			bool sel = v->focus == VIEW_PANE_TOPO && v->sel == *pos;

			panes_value(s, v->heat_metric, val, cell, sizeof(cell));
			grid_blank(g, by, bx, 5, sel ? GRID_SELECT : st);
			grid_put_right(g, by, bx, 5, sel ? GRID_SELECT : st, s ? cell : "");
			panes_hit(v, by, bx, 5, VIEW_PANE_TOPO, (*pos)++, sk, VIEW_AGG_CORE, k);
		}
	}
}

/* The topology from row Y in at most H rows; returns the rows used. */
static int panes_topology(struct view *v, const struct sample *s, int y, int h, struct grid *g)
{
	const struct topo *t = v->info.topo;
	int *socks = xcalloc((size_t)t->nsockets + 1, sizeof(int)), nsocks = 0, pos = 0, rows;
	int *tmap = panes_thread_map(s, t);
	struct panes_topo_fit f;
	double max = 0;

	for (int k = 0; k < t->nsockets; k++)
		if (v->zoom_socket < 0 || v->zoom_socket == k)
			socks[nsocks++] = k;
	for (int i = 0; s && i < s->nthreads; i++) {
		double val = sample_metric(s, &s->threads[i], v->heat_metric);

		if (!isnan(val))
			max = fmax(max, val);
	}
	f = panes_topo_fit(t, socks, nsocks, g->w, h);
	for (int i = 0; i < nsocks; i++)
		panes_socket_box(v, s, tmap, &f, socks[i], y + (i / f.per_row) * f.box_h,
				 (i % f.per_row) * f.box_w, max, &pos, g);
	rows = ((nsocks + f.per_row - 1) / f.per_row) * f.box_h;
	if (v->zoom_socket >= 0)
		grid_put(g, y, g->w - 26, 24, GRID_TITLE, " zoomed: Esc shows all ");
	if (v->focus == VIEW_PANE_TOPO) {
		v->nrows = pos;
		v->page = f.blocks > 0 ? f.blocks : 1;
	}
	free(socks);
	free(tmap);
	return rows > h ? h : rows;
}

void panes_zoom(struct view *v)
{
	if (v->focus != VIEW_PANE_TOPO)
		return;
	if (v->zoom_socket >= 0) {
		v->zoom_socket = -1;
		v->sel = 0;
		return;
	}
	for (int i = 0; i < v->nhits; i++)
		if (v->hits[i].pane == VIEW_PANE_TOPO && v->hits[i].pos == v->sel) {
			v->zoom_socket = v->hits[i].socket;
			v->sel = 0;
			return;
		}
}

/* ---- lower panes ---------------------------------------------------------- */

static const char *const panes_names[VIEW_NPANES] = { "Topology", "Threads", "Ports", "Uncore",
						      "IMC" };

static void panes_tabs(const struct view *v, int y, struct grid *g)
{
	int x = 1;

	grid_hline(g, y, 0, g->w, GRID_DIM);
	for (int p = VIEW_PANE_TABLE; p < VIEW_NPANES; p++) {
		enum grid_style st = (int)v->lower == p ? ((int)v->focus == p ? GRID_SELECT : GRID_BOLD) : GRID_DIM;

		x += grid_put(g, y, x, g->w - x, st, (int)v->lower == p ? "[%s]" : " %s ",
			      panes_names[p]) + 1;
	}
	grid_put(g, y, x + 1, g->w - x - 1, GRID_DIM, " Tab: next pane ");
}

/* Entities of the table for the aggregation: indexes into threads/cores/sockets. */
static int panes_rows(const struct view *v, const struct sample *s, int **out,
		      struct sample_entity **ents)
{
	const struct topo *t = v->info.topo;
	int n = v->agg == VIEW_AGG_THREAD ? s->nthreads : v->agg == VIEW_AGG_CORE ? s->ncores
										  : s->nsockets;
	int *rows = xcalloc((size_t)n + 1, sizeof(int)), k = 0;

	*ents = v->agg == VIEW_AGG_THREAD ? s->threads : v->agg == VIEW_AGG_CORE ? s->cores
										: s->sockets;
	for (int i = 0; i < n; i++) {
		const struct sample_entity *e = &(*ents)[i];

		if (v->agg == VIEW_AGG_THREAD && !panes_cpu_shown(v, e->index))
			continue;
		if (v->agg == VIEW_AGG_CORE && v->cpu_shown) {
			const struct topo_core *c = &t->cores[e->index];
			bool any = false;

			for (int j = 0; j < c->nthreads; j++)
				any |= panes_cpu_shown(v, t->threads[c->thread_first + j].os_cpu);
			if (!any)
				continue;
		}
		if (v->zoom_socket >= 0 && e->socket != v->zoom_socket)
			continue;
		rows[k++] = i;
	}
	*out = rows;
	return k;
}

struct panes_sort {
	const struct view *v;
	const struct sample *s;
	const struct sample_entity *ents;
};

static int panes_sort_cmp(const void *a, const void *b, void *arg)
{
	const struct panes_sort *c = arg;
	int ia = *(const int *)a, ib = *(const int *)b;
	double x = sample_metric(c->s, &c->ents[ia], c->v->sort_metric);
	double y = sample_metric(c->s, &c->ents[ib], c->v->sort_metric);
	int r;

	if (isnan(x) || isnan(y)) /* n/a last, whatever the direction */
		return isnan(x) && isnan(y) ? ia - ib : isnan(x) ? 1 : -1;
	r = x < y ? 1 : x > y ? -1 : ia - ib; /* largest first */
	return c->v->sort_rev ? -r : r;
}

/* Metrics worth a column: live or always-live, defined at this aggregation. */
static int panes_columns(const struct view *v, const struct sample *s, int *cols)
{
	const struct layout *l = v->info.layout;
	int n = 0;

	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];

		if (mt->group >= 0 && s->groups[mt->group].state == SAMPLE_GROUP_OFF)
			continue;
		if (!layout_scope_computed(mt->scope, v->agg == VIEW_AGG_THREAD ? LAYOUT_THREAD
						      : v->agg == VIEW_AGG_CORE ? LAYOUT_CORE : LAYOUT_SOCKET) ||
		    mt->scope == LAYOUT_CHANNEL)
			continue;
		cols[n++] = m;
	}
	return n;
}

static void panes_table(struct view *v, const struct sample *s, int y, int h, struct grid *g)
{
	const struct layout *l = v->info.layout;
	const struct topo *t = v->info.topo;
	static const char *const heads[] = { "  cpu core sock", " core sock cpus     ",
					     " sock cpus          " };
	struct sample_entity *ents;
	int *rows, nrows, *cols = xcalloc((size_t)l->nmetrics + 1, sizeof(int)), ncols, x;
	char buf[64];

	ncols = panes_columns(v, s, cols);
	nrows = panes_rows(v, s, &rows, &ents);
	if (v->sort_metric >= 0) {
		struct panes_sort ctx = { .v = v, .s = s, .ents = ents };

		qsort_r(rows, (size_t)nrows, sizeof(int), panes_sort_cmp, &ctx);
	}
	grid_blank(g, y, 0, g->w, GRID_HEADER);
	x = grid_put(g, y, 0, g->w, GRID_HEADER, "%s", heads[v->agg]);
	for (int c = 0; c < ncols && x < g->w; c++) {
		const char *name = l->metrics[cols[c]].name;
		int w = (int)strlen(name) > 8 ? (int)strlen(name) + 1 : 9;

		snprintf(buf, sizeof(buf), "%s%s", name,
			 cols[c] == v->sort_metric ? (v->sort_rev ? "^" : "v") : "");
		grid_put_right(g, y, x, w, GRID_HEADER, buf);
		x += w + 1;
	}
	if (v->focus == VIEW_PANE_TABLE) {
		v->nrows = nrows;
		v->page = h - 1 > 1 ? h - 1 : 1;
		if (v->sel >= nrows)
			v->sel = nrows ? nrows - 1 : 0;
		if (v->sel < v->scroll)
			v->scroll = v->sel;
		if (v->sel >= v->scroll + h - 1)
			v->scroll = v->sel - (h - 2);
	}
	for (int r = 0; r < h - 1 && r + v->scroll < nrows; r++) {
		int pos = r + v->scroll;
		const struct sample_entity *e = &ents[rows[pos]];
		bool sel = v->focus == VIEW_PANE_TABLE && v->sel == pos;
		enum grid_style base = sel ? GRID_SELECT : GRID_NORMAL;
		int yy = y + 1 + r;

		grid_blank(g, yy, 0, g->w, base);
		if (v->agg == VIEW_AGG_THREAD) {
			x = grid_put(g, yy, 0, g->w, base, "%c%4d %4d %4d", panes_pid_ran(v, e->index) ? '@' : ' ',
				     e->index, e->os_core_id, e->os_socket_id);
		} else {
			const int *cpus = NULL;
			int ncpu = 0, *tmp = NULL;
			char *list;

			if (v->agg == VIEW_AGG_CORE) {
				const struct topo_core *c = &t->cores[e->index];

				tmp = xcalloc((size_t)c->nthreads + 1, sizeof(int));
				for (int j = 0; j < c->nthreads; j++)
					tmp[ncpu++] = t->threads[c->thread_first + j].os_cpu;
				cpus = tmp;
				x = grid_put(g, yy, 0, g->w, base, " %4d %4d ", e->os_core_id,
					     e->os_socket_id);
			} else {
				cpus = t->sockets[e->index].cpus;
				ncpu = t->sockets[e->index].nthreads;
				x = grid_put(g, yy, 0, g->w, base, " %4d ", e->os_socket_id);
			}
			list = cpulist_format(cpus, ncpu);
			grid_put(g, yy, x, (int)strlen(heads[v->agg]) - x, base, "%s", list);
			x = (int)strlen(heads[v->agg]);
			free(list);
			free(tmp);
		}
		for (int c = 0; c < ncols && x < g->w; c++) {
			const char *name = l->metrics[cols[c]].name;
			int w = (int)strlen(name) > 8 ? (int)strlen(name) + 1 : 9;
			double val = sample_metric(s, e, cols[c]);
			double warn, crit;
			enum grid_style st = base;

			panes_thresholds(l, cols[c], &warn, &crit);
			if (!sel && !isnan(val) && !isnan(crit) && val >= crit)
				st = GRID_CRIT;
			else if (!sel && !isnan(val) && !isnan(warn) && val >= warn)
				st = GRID_WARN;
			else if (!sel && isnan(val))
				st = GRID_DIM;
			panes_value(s, cols[c], val, buf, sizeof(buf));
			grid_put_right(g, yy, x, w, st, buf);
			x += w + 1;
		}
		panes_hit(v, yy, 0, g->w, VIEW_PANE_TABLE, pos, e->socket, v->agg, rows[pos]);
	}
	if (!nrows)
		grid_put(g, y + 1, 2, g->w - 4, GRID_DIM, "no CPU matches the filter '%s' (/ changes it)",
			 v->filter);
	free(rows);
	free(cols);
}

/* Keys of the groups that hold any of the metrics whose names start with PREFIX. */
static void panes_group_keys(const struct layout *l, const char *prefix, char *buf, size_t len)
{
	uint32_t seen = 0;
	size_t n = 0;

	buf[0] = 0;
	for (int m = 0; m < l->nmetrics; m++) {
		int g = l->metrics[m].group;

		if (g < 0 || strncmp(l->metrics[m].name, prefix, strlen(prefix)) || (seen & (1u << g)))
			continue;
		seen |= 1u << g;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%c (%s)", n ? ", " : "",
				      l->groups[g].key, l->groups[g].name);
	}
}

static void panes_ports(struct view *v, const struct sample *s, int y, int h, struct grid *g)
{
	const struct layout *l = v->info.layout;
	const struct topo *t = v->info.topo;
	int ports[8], np = 0, waste = layout_metric_find(l, "wasted_work_pct"), per, bar, row = 0;
	bool any = false;
	char buf[32], keys[256];

	for (int p = 0; p < 8; p++) {
		snprintf(buf, sizeof(buf), "port%d", p);
		if ((ports[np] = layout_metric_find(l, buf)) >= 0)
			np++;
	}
	if (!np) {
		grid_put(g, y, 2, g->w - 4, GRID_DIM, "Layout %s has no execution-port metrics.", l->name);
		return;
	}
	per = (g->w - 16 - (waste >= 0 ? 12 : 0)) / np;
	bar = per - 9 > 1 ? per - 9 : 1;
	grid_blank(g, y, 0, g->w, GRID_HEADER);
	grid_put(g, y, 0, 16, GRID_HEADER, " core (cpus)");
	for (int p = 0; p < np; p++)
		grid_put(g, y, 16 + p * per, per, GRID_HEADER, "%s uops/cyc", l->metrics[ports[p]].name);
	if (waste >= 0)
		grid_put(g, y, 16 + np * per, 12, GRID_HEADER, " wasted %%");
	for (int k = 0; k < s->ncores && row < h - 2; k++) {
		const struct sample_entity *e = &s->cores[k];
		const struct topo_core *c = &t->cores[k];
		int cpus[8], n = 0;
		char *list;

		if (v->zoom_socket >= 0 && e->socket != v->zoom_socket)
			continue;
		for (int j = 0; j < c->nthreads && j < 8; j++)
			cpus[n++] = t->threads[c->thread_first + j].os_cpu;
		list = cpulist_format(cpus, n);
		grid_put(g, y + 1 + row, 0, 16, GRID_NORMAL, " %3d (%s)", e->os_core_id, list);
		free(list);
		for (int p = 0; p < np; p++) {
			/* a per-thread port metric summed over the core's threads is the core's rate */
			double val = sample_metric(s, e, ports[p]);

			any |= !isnan(val);
			grid_bar(g, y + 1 + row, 16 + p * per, bar, isnan(val) ? 0 : val, GRID_BAR);
			panes_value(s, ports[p], val, buf, sizeof(buf));
			grid_put_right(g, y + 1 + row, 16 + p * per + bar, 7, isnan(val) ? GRID_DIM : GRID_NORMAL,
				       buf);
		}
		if (waste >= 0) {
			double val = sample_metric(s, e, waste);

			panes_value(s, waste, val, buf, sizeof(buf));
			grid_put_right(g, y + 1 + row, 16 + np * per, 9, isnan(val) ? GRID_DIM : GRID_NORMAL,
				       buf);
		}
		row++;
	}
	if (!any) {
		panes_group_keys(l, "port", keys, sizeof(keys));
		grid_put(g, y + h - 1, 2, g->w - 4, GRID_WARN, "Port counts are off: press %s", keys);
	}
}

/* Does group G count anything per memory channel? */
static bool panes_group_channels(const struct layout *l, int g)
{
	for (int i = 0; i < l->groups[g].nevents; i++)
		if (l->events[l->groups[g].first_event + i].channel >= 0)
			return true;
	return false;
}

/* Metric M belongs in the IMC pane (IMC) or the uncore pane (!IMC). */
static bool panes_unc_metric(const struct layout *l, int m, bool imc)
{
	int g = l->metrics[m].group;

	if (g < 0 || l->groups[g].pmu == LAYOUT_PMU_CORE)
		return false;
	return (l->groups[g].pmu == LAYOUT_PMU_IMC || panes_group_channels(l, g)) == imc;
}

/* A socket or channel figure: scaled mark *, flagged mark ! (it cannot be true). */
static enum grid_style panes_unc_value(const struct sample *s, int sock, int ch, int m, double val,
				       char *buf, size_t len)
{
	const struct sample_flag *f = sample_flag_find(s, sock, ch, m);

	panes_value(s, m, val, buf, len - 1);
	if (f)
		strcat(buf, "!");
	return f ? GRID_CRIT : isnan(val) ? GRID_DIM : GRID_NORMAL;
}

/*
 * Why the uncore or IMC pane has nothing to show, into BUF: no such groups,
 * all off (with their keys), or blocked (with the reason).  false when
 * some group is counting.
 */
static bool panes_unc_idle(const struct view *v, const struct sample *s, bool imc, char *buf,
			   size_t len)
{
	const struct layout *l = v->info.layout;
	size_t n = 0;
	bool any = false;

	buf[0] = 0;
	for (int g = 0; g < l->ngroups; g++) {
		bool mine = false;

		for (int m = 0; m < l->nmetrics && !mine; m++)
			mine = l->metrics[m].group == g && panes_unc_metric(l, m, imc);
		if (!mine)
			continue;
		any = true;
		if (s && (s->groups[g].state == SAMPLE_GROUP_LIVE ||
			  s->groups[g].state == SAMPLE_GROUP_ROTATING))
			return false;
		if (s && s->groups[g].state == SAMPLE_GROUP_BLOCKED)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%sgroup %s is blocked: %s",
					      n ? "; " : "", l->groups[g].name, s->groups[g].why);
		else
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%c turns on %s",
					      n ? ", " : "", l->groups[g].key, l->groups[g].name);
	}
	if (!any)
		snprintf(buf, len, "n/a: layout %s has no %s groups (doctor line 'uncore', key d)",
			 l->name, imc ? "memory-controller" : "uncore");
	return true;
}

/* Columns of the uncore / IMC pane: live metrics of scope SCOPE. */
static int panes_unc_columns(const struct view *v, const struct sample *s, bool imc,
			     enum layout_scope scope, int *cols)
{
	const struct layout *l = v->info.layout;
	int n = 0;

	for (int m = 0; m < l->nmetrics; m++)
		if (panes_unc_metric(l, m, imc) && l->metrics[m].scope == scope &&
		    s->groups[l->metrics[m].group].state != SAMPLE_GROUP_OFF)
			cols[n++] = m;
	return n;
}

/* One row of the uncore / IMC table: LABEL, then each column's value (B/s ones with a bar). */
static void panes_unc_row(const struct view *v, const struct sample *s,
			  const struct sample_entity *e, int ch, const int *cols, int ncols,
			  const double *scale, int y, const char *label, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int x = grid_put(g, y, 0, g->w, GRID_NORMAL, "%-12s", label);
	char buf[64];

	for (int c = 0; c < ncols && x < g->w; c++) {
		const struct layout_metric *mt = &l->metrics[cols[c]];
		double val = sample_metric(s, e, cols[c]);
		int w = (int)strlen(mt->name) > 8 ? (int)strlen(mt->name) + 1 : 9;
		enum grid_style st = panes_unc_value(s, e->socket, ch, cols[c], val, buf, sizeof(buf));

		if (!strcmp(mt->unit, "B/s")) {
			grid_bar(g, y, x, 10, isnan(val) || !(scale[c] > 0) ? 0 : val / scale[c],
				 GRID_BAR);
			x += 10;
		}
		grid_put_right(g, y, x, w, st, buf);
		x += w + 1;
	}
}

/* Header of the uncore / IMC table; bandwidth columns get room for their bar. */
static void panes_unc_head(const struct layout *l, const int *cols, int ncols, int y,
			   const char *first, struct grid *g)
{
	int x;

	grid_blank(g, y, 0, g->w, GRID_HEADER);
	x = grid_put(g, y, 0, g->w, GRID_HEADER, "%-12s", first);
	for (int c = 0; c < ncols && x < g->w; c++) {
		const struct layout_metric *mt = &l->metrics[cols[c]];
		int w = (int)strlen(mt->name) > 8 ? (int)strlen(mt->name) + 1 : 9;

		if (!strcmp(mt->unit, "B/s"))
			x += 10;
		grid_put_right(g, y, x, w, GRID_HEADER, mt->name);
		x += w + 1;
	}
}

/*
 * Bar scale of each column: the entity's theoretical peak when known
 * (dram_peak), else the largest value of the column on screen.
 */
static void panes_unc_scale(const struct sample *s, const int *cols, int ncols, bool chans,
			    double *scale)
{
	for (int c = 0; c < ncols; c++) {
		scale[c] = 0;
		for (int k = 0; k < s->nsockets; k++)
			for (int ch = chans ? 0 : -1; ch < (chans ? s->nchannels : 0); ch++) {
				const struct sample_entity *e = ch < 0 ? &s->sockets[k]
								       : sample_channel(s, k, ch);
				double peak = e->vars[LAYOUT_B_dram_peak];
				double val = sample_metric(s, e, cols[c]);

				if (peak > 0)
					scale[c] = fmax(scale[c], peak);
				else if (val > 0)
					scale[c] = fmax(scale[c], val);
			}
	}
}

static void panes_uncore(const struct view *v, const struct sample *s, int y, int h,
			 struct grid *g)
{
	const struct layout *l = v->info.layout;
	bool imc = v->lower == VIEW_PANE_IMC;
	int *cols = xcalloc((size_t)l->nmetrics + 1, sizeof(int)), *ccols, ncols, nccols, row = 0;
	double *scale = xcalloc((size_t)l->nmetrics + 1, sizeof(double));
	double *cscale = xcalloc((size_t)l->nmetrics + 1, sizeof(double));
	char why[600], label[32];

	ccols = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	if (!s || panes_unc_idle(v, s, imc, why, sizeof(why))) {
		grid_put(g, y, 2, g->w - 4, GRID_BOLD, "%s",
			 imc ? "Memory controller: read and write bandwidth per channel"
			     : "Uncore: L3, QPI / home logic, local and remote DRAM traffic per socket");
		grid_put(g, y + 2, 2, g->w - 4, s ? GRID_WARN : GRID_DIM, "%s",
			 s ? why : "waiting for the first sample...");
		goto out;
	}
	ncols = panes_unc_columns(v, s, imc, LAYOUT_SOCKET, cols);
	nccols = imc ? panes_unc_columns(v, s, imc, LAYOUT_CHANNEL, ccols) : 0;
	/* channel rows against channel peaks; socket rows (totals) against socket peaks */
	panes_unc_scale(s, nccols ? ccols : cols, nccols ? nccols : ncols, false, scale);
	panes_unc_scale(s, ccols, nccols, true, cscale);
	if (nccols) {
		/* per channel rows, then the socket's total of the same metrics */
		panes_unc_head(l, ccols, nccols, y, " sock chan", g);
		for (int k = 0; k < s->nsockets && row < h - 2; k++) {
			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			for (int ch = 0; ch < s->nchannels && row < h - 2; ch++) {
				snprintf(label, sizeof(label), " %4d CH%d", s->sockets[k].os_socket_id, ch);
				panes_unc_row(v, s, sample_channel(s, k, ch), ch, ccols, nccols, cscale,
					      y + 1 + row++, label, g);
			}
			snprintf(label, sizeof(label), " %4d total", s->sockets[k].os_socket_id);
			panes_unc_row(v, s, &s->sockets[k], -1, ccols, nccols, scale, y + 1 + row++, label,
				      g);
		}
	} else if (!imc) {
		/* one row per metric, one column per socket: many figures, few sockets */
		int x = grid_put(g, y, 0, g->w, GRID_HEADER, "%-34s", " metric");

		grid_blank(g, y, x, g->w - x, GRID_HEADER);
		for (int k = 0; k < s->nsockets && x < g->w; k++) {
			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			snprintf(label, sizeof(label), "socket %d", s->sockets[k].os_socket_id);
			grid_put_right(g, y, x, 21, GRID_HEADER, label);
			x += 22;
		}
		for (int c = 0; c < ncols && row < h - 2; c++, row++) {
			const struct layout_metric *mt = &l->metrics[cols[c]];

			grid_put(g, y + 1 + row, 0, 34, GRID_NORMAL, " %-22s %-10s", mt->name, mt->unit);
			x = 34;
			for (int k = 0; k < s->nsockets && x < g->w; k++) {
				double val = sample_metric(s, &s->sockets[k], cols[c]);
				char buf[64];
				enum grid_style st;

				if (v->zoom_socket >= 0 && k != v->zoom_socket)
					continue;
				st = panes_unc_value(s, k, -1, cols[c], val, buf, sizeof(buf));
				if (!strcmp(mt->unit, "B/s"))
					grid_bar(g, y + 1 + row, x, 10, isnan(val) || !(scale[c] > 0) ? 0
						 : val / scale[c], GRID_BAR);
				grid_put_right(g, y + 1 + row, x + 10, 11, st, buf);
				x += 22;
			}
		}
	} else {
		panes_unc_head(l, cols, ncols, y, " sock", g);
		for (int k = 0; k < s->nsockets && row < h - 2; k++) {
			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			snprintf(label, sizeof(label), " %4d", s->sockets[k].os_socket_id);
			panes_unc_row(v, s, &s->sockets[k], -1, cols, ncols, scale, y + 1 + row++, label,
				      g);
		}
		if (imc)
			grid_put(g, y + 1 + row++, 2, g->w - 4, GRID_DIM, "per channel: n/a (this "
				 "memory controller counts only the socket's totals)");
	}
	for (int i = 0; i < s->nflags && row < h - 1; i++) {
		const struct sample_flag *f = &s->flags[i];

		if (f->metric >= 0 && !panes_unc_metric(l, f->metric, imc))
			continue;
		panes_flag_where(s, f, label, sizeof(label));
		grid_put(g, y + 1 + row++, 1, g->w - 2, GRID_CRIT, "! %s: %s", label, f->why);
		while (i + 1 < s->nflags && !strcmp(s->flags[i + 1].why, f->why))
			i++; /* one line per finding, not per figure */
	}
out:
	free(cols);
	free(ccols);
	free(scale);
	free(cscale);
}

/* ---- overlays -------------------------------------------------------------- */

static void panes_overlay_box(struct grid *g, const char *title, int *y, int *x, int *h, int *w)
{
	*w = g->w - 8;
	*h = g->h - 4;
	*y = 2;
	*x = 4;
	for (int r = 0; r < *h; r++)
		grid_blank(g, *y + r, *x, *w, GRID_NORMAL);
	grid_box(g, *y, *x, *h, *w, GRID_TITLE, title);
}

/* Lines of TEXT (separated by '\n') into the box, clipped. */
static void panes_text(struct grid *g, int y, int x, int h, int w, const char *text)
{
	int r = 0;

	for (const char *p = text; *p && r < h; r++) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		grid_put(g, y + r, x, len < w ? len : w, GRID_NORMAL, "%.*s", len, p);
		p += len + (nl ? 1 : 0);
	}
}

static void panes_help(const struct view *v, struct grid *g)
{
	const struct layout *l = v->info.layout;
	char text[4096];
	size_t n;
	int y, x, h, w;

	panes_overlay_box(g, "Help (any key closes)", &y, &x, &h, &w);
	n = (size_t)snprintf(text, sizeof(text),
		"1-9 a-z    toggle the layout's event groups (keys below)\n"
		"Tab S-Tab  next / previous pane: topology, threads, ports, uncore, IMC\n"
		"arrows     select; PgUp PgDn Home End scroll\n"
		"Enter      zoom the topology to the selected socket (Esc: all)\n"
		"m M        heatmap metric   a  aggregation thread/core/socket\n"
		"s < >      sort column      r  reverse sort\n"
		"space      pause / resume   + -  interval (" ENGINE_INTERVAL_RANGE_TEXT " s)\n"
		"/          CPU filter (0-3,8)   p  highlight where a PID ran (@)\n"
		"e          explain the selected cell: formula, events, raw counts\n"
		"d          setup doctor     h ? F1  this help     q F10  quit\n"
		"\nGroups of layout %s (a * figure was scaled: groups took turns):\n", l->name);
	for (int i = 0; i < l->ngroups && n < sizeof(text); i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "  %c  %-12s %d counters  %s\n",
				      l->groups[i].key ? l->groups[i].key : ' ', l->groups[i].name,
				      l->groups[i].nevents, l->groups[i].title);
	panes_text(g, y + 1, x + 2, h - 2, w - 4, text);
}

/* The entity the explain overlay is about (the selected cell or row), and its metric. */
static const struct sample_entity *panes_selected(const struct view *v, const struct sample *s,
						  int *metric)
{
	*metric = v->focus != VIEW_PANE_TOPO && v->sort_metric >= 0 ? v->sort_metric : v->heat_metric;
	if (!s)
		return NULL;
	for (int i = 0; i < v->nhits; i++) {
		const struct view_hit *h = &v->hits[i];

		if (h->pane != v->focus || h->pos != v->sel || h->entity < 0)
			continue;
		return h->kind == VIEW_AGG_THREAD ? &s->threads[h->entity]
		       : h->kind == VIEW_AGG_CORE ? &s->cores[h->entity]
						  : &s->sockets[h->entity];
	}
	return s->nthreads ? &s->threads[0] : NULL;
}

/* "cpu 3", "core 2 of socket 0", "socket 1". */
static const char *panes_entity_name(const struct view *v, const struct sample *s,
				     const struct sample_entity *e, char *buf, size_t len)
{
	(void)v;
	if (!e)
		snprintf(buf, len, "nothing selected");
	else if (e >= s->threads && e < s->threads + s->nthreads)
		snprintf(buf, len, "cpu %d", e->index);
	else if (e >= s->cores && e < s->cores + s->ncores)
		snprintf(buf, len, "core %d of socket %d", e->os_core_id, e->os_socket_id);
	else
		snprintf(buf, len, "socket %d", e->os_socket_id);
	return buf;
}

static void panes_explain(const struct view *v, const struct sample *s, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int m, y, x, h, w;
	const struct sample_entity *e = panes_selected(v, s, &m);
	const struct layout_metric *mt = &l->metrics[m];
	char text[4096], val[32], name[64];
	size_t n;

	panes_overlay_box(g, "Explain (any key closes)", &y, &x, &h, &w);
	panes_value(s, m, e ? sample_metric(s, e, m) : NAN, val, sizeof(val));
	n = (size_t)snprintf(text, sizeof(text), "%s (%s, per %s) on %s: %s\n%s\n\n  %s = %s\n",
			     mt->name, mt->unit,
			     mt->scope == LAYOUT_THREAD ? "thread" : mt->scope == LAYOUT_CORE ? "core"
											 : "socket",
			     panes_entity_name(v, s, e, name, sizeof(name)), val,
			     mt->help ? mt->help : "", mt->name, mt->formula);
	if (mt->group < 0) {
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\nFrom the fixed counters and the TSC: always counted, never scaled.\n");
	} else {
		const struct layout_group *gr = &l->groups[mt->group];
		const struct sample_group *sg = s ? &s->groups[mt->group] : NULL;

		n += (size_t)snprintf(text + n, sizeof(text) - n, "\nGroup %s (key %c): %s", gr->name,
				      gr->key, !sg ? "no sample yet"
					       : sg->state == SAMPLE_GROUP_OFF ? "off"
					       : sg->state == SAMPLE_GROUP_LIVE ? "counted the whole interval"
					       : sg->state == SAMPLE_GROUP_BLOCKED ? sg->why : "");
		if (sg && sg->state == SAMPLE_GROUP_ROTATING)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "counted %.0f%% of the interval, counts scaled by %.2f",
					      100 * sg->live_share, 1 / sg->live_share);
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\n\n  event                 code umask cmask inv edge any  PERFEVTSEL   count this interval\n");
		for (int i = 0; i < gr->nevents && n < sizeof(text); i++) {
			const struct layout_event *ev = &l->events[gr->first_event + i];
			double raw = e ? e->vars[layout_event_var(l, gr->first_event + i)] : NAN;

			panes_format(raw, val, sizeof(val));
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "  %-20s  0x%02X  0x%02X %5u %3d %4d %3d  %10llX   %s\n",
					      ev->name, ev->event, ev->umask, ev->cmask, ev->inv, ev->edge,
					      ev->any,
					      (unsigned long long)counter_evtsel(ev, v->info.perfmon_version,
									       v->info.count_user,
									       v->info.count_kernel),
					      val);
		}
	}
	panes_text(g, y + 1, x + 2, h - 2, w - 4, text);
}

static void panes_doctor(const struct view *v, struct grid *g)
{
	int y, x, h, w;

	panes_overlay_box(g, "Setup doctor (any key closes)", &y, &x, &h, &w);
	panes_text(g, y + 1, x + 2, h - 2, w - 4,
		   v->info.doctor ? v->info.doctor : "The setup doctor is not available.");
}

/* ---- the screen ------------------------------------------------------------- */

void view_render(struct view *v, const struct sample *s, double age_s, struct grid *g)
{
	int y, footer, lower_h, topo_h;

	grid_clear(g);
	v->nhits = 0;
	if (g->w < VIEW_MIN_W || g->h < VIEW_MIN_H) {
		grid_put(g, g->h / 2 - 1, 0, g->w, GRID_WARN, "Terminal %dx%d is too small.", g->w, g->h);
		grid_put(g, g->h / 2, 0, g->w, GRID_NORMAL, "pmutop needs %dx%d:", VIEW_MIN_W, VIEW_MIN_H);
		grid_put(g, g->h / 2 + 1, 0, g->w, GRID_NORMAL, "enlarge it (q quits).");
		return;
	}
	panes_header(v, s, age_s, g);
	panes_message(v, s, g);
	footer = panes_footer(v, s, g, 0, false);
	y = 3;
	topo_h = g->h - y - footer - 1 - PANES_TOPO_MIN_LOWER;
	topo_h = panes_topology(v, s, y, topo_h, g);
	y += topo_h;
	lower_h = g->h - y - footer - 1;
	panes_tabs(v, y, g);
	if (!s)
		grid_put(g, y + 1, 2, g->w - 4, GRID_DIM, "no sample yet");
	else if (v->lower == VIEW_PANE_TABLE)
		panes_table(v, s, y + 1, lower_h - 1, g);
	else if (v->lower == VIEW_PANE_PORTS)
		panes_ports(v, s, y + 1, lower_h - 1, g);
	else
		panes_uncore(v, s, y + 1, lower_h - 1, g);
	panes_footer(v, s, g, g->h - 1 - footer, true);
	panes_keybar(g);
	if (v->overlay == VIEW_OVERLAY_HELP)
		panes_help(v, g);
	else if (v->overlay == VIEW_OVERLAY_EXPLAIN)
		panes_explain(v, s, g);
	else if (v->overlay == VIEW_OVERLAY_DOCTOR)
		panes_doctor(v, g);
}
