/*
 * pane: what the panes share: value text with its marks, heat colours from
 * the layout's thresholds, the hit map the keys and the mouse use, the CPU
 * filter and PID highlight, where a flag is.  See pane.h.  UI thread.
 */
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Value text with the scaled mark. */
void pane_value(const struct sample *s, int m, double value, char *buf, size_t len)
{
	format_figure(value, buf, len - 1);
	/* '~': scaled, and its events counted in several groups (at different times) */
	if (!isnan(value) && s && s->metric_scaled[m])
		strcat(buf, layout_groups_count(s->layout->metrics[m].uses) > 1 ? "~" : "*");
}

void pane_value_fit(const struct sample *s, int m, double value, int width, char *buf, size_t len)
{
	size_t n;
	char mark[2] = "";
	const char *dot;

	pane_value(s, m, value, buf, len);
	n = strlen(buf);
	if ((int)n <= width || !(dot = strchr(buf, '.')))
		return;
	if (buf[n - 1] == '*' || buf[n - 1] == '~')
		mark[0] = buf[--n];
	/* a plain number too wide: fewer decimals, rounded (54.67* -> 54.7*) */
	{
		char *end;
		int decimals = (int)(buf + n - dot) - 1, cut = (int)n + (mark[0] != 0) - width;

		buf[n] = 0;
		strtod(buf, &end);
		if (*end || decimals < cut)
			return;
		snprintf(buf, len, "%.*f%s", decimals - cut, value, mark);
	}
}

double pane_thread_value(const struct sample *s, int i, int m)
{
	const struct layout_metric *mt = &s->layout->metrics[m];

	if (mt->scope == LAYOUT_CORE && s->threads[i].core >= 0 && s->threads[i].core < s->ncores)
		return sample_metric(s, &s->cores[s->threads[i].core], m);
	return sample_metric(s, &s->threads[i], m);
}

/* The warn/crit thresholds a pane of the layout gives metric M (NaN when none). */
void pane_thresholds(const struct layout *l, int m, double *warn, double *crit)
{
	*warn = l->metrics[m].warn;
	*crit = l->metrics[m].crit;
}

/*
 * Heat level of VALUE for metric M; MAX is the largest value shown.  The
 * warm levels (3: warn, 4: crit) mean one thing everywhere: at or past the
 * layout's thresholds, where more is worse.  A metric without thresholds
 * (IPC, a clock, a bandwidth) says nothing good or bad: it only shades 1..2
 * by its share of the largest shown (of 100 for a %).
 */
enum grid_style pane_heat(const struct layout *l, int m, double value, double max)
{
	double warn, crit, frac;
	int level;

	if (isnan(value))
		return GRID_DIM;
	pane_thresholds(l, m, &warn, &crit);
	if (!isnan(warn) && !isnan(crit) && crit > 0) {
		level = value >= crit ? 4 : value >= warn ? 3 : value >= warn / 2 ? 2 : value > 0 ? 1 : 0;
		return (enum grid_style)(GRID_HEAT0 + level);
	}
	if (!strcmp(l->metrics[m].unit, "%"))
		frac = value / 100;
	else
		frac = max > 0 ? value / max : 0;
	level = value <= 0 ? 0 : frac < 0.5 ? 1 : 2;
	return (enum grid_style)(GRID_HEAT0 + level);
}

void pane_heat_legend(const struct layout *l, int m, char *buf, size_t len)
{
	double warn, crit;

	const char *per = l->metrics[m].scope == LAYOUT_CORE ? " per core" : "";

	pane_thresholds(l, m, &warn, &crit);
	if (!isnan(warn) && !isnan(crit) && crit > 0 && warn == crit)
		snprintf(buf, len, "%s %s%s: red from %g (the vendor's threshold)", l->metrics[m].name,
			 l->metrics[m].unit, per, crit);
	else if (!isnan(warn) && !isnan(crit) && crit > 0)
		snprintf(buf, len, "%s %s%s: warn >= %g, crit >= %g (yellow, red)", l->metrics[m].name,
			 l->metrics[m].unit, per, warn, crit);
	else
		snprintf(buf, len, "%s %s%s: shade = share of the largest, no judgement",
			 l->metrics[m].name, l->metrics[m].unit, per);
}

static void pane_hit_of(struct view_frame *f, int y, int x, int w, int pane, int pos, int socket,
			enum view_agg kind, int entity)
{
	if (f->nhits == f->hits_cap) {
		f->hits_cap = f->hits_cap ? 2 * f->hits_cap : 256;
		f->hits = xrealloc(f->hits, (size_t)f->hits_cap, sizeof(*f->hits));
	}
	f->hits[f->nhits++] = (struct view_hit){ .y = y, .x = x, .w = w, .pane = pane, .pos = pos,
						  .socket = socket, .kind = kind, .entity = entity,
						  .metric = -1 };
}

void pane_hit(struct view_frame *f, int y, int x, int w, int pos, int socket, enum view_agg kind,
	      int entity)
{
	pane_hit_of(f, y, x, w, f->drawing, pos, socket, kind, entity);
}

bool pane_focused(const struct view *v, const struct view_frame *f)
{
	return v->focus == f->drawing;
}

void *pane_state(const struct view *v, const struct pane *p)
{
	for (int i = 0; i < view_npanes && v->pane_state; i++)
		if (panes_registry[i] == p)
			return v->pane_state[i];
	return NULL;
}

int pane_scroll(const struct view *v, struct view_frame *f, int nrows, int rows)
{
	if (!pane_focused(v, f))
		return 0;
	f->nrows = nrows;
	f->page = rows > 1 ? rows : 1;
	if (f->sel >= nrows)
		f->sel = nrows ? nrows - 1 : 0;
	if (f->sel < f->scroll)
		f->scroll = f->sel;
	if (f->sel >= f->scroll + rows)
		f->scroll = f->sel - rows + 1;
	return f->scroll;
}

void pane_hit_tab(struct view_frame *f, int y, int x, int w, int pane)
{
	pane_hit_of(f, y, x, w, pane, -1, -1, VIEW_AGG_THREAD, -1);
	f->hits[f->nhits - 1].what = VIEW_HIT_TAB;
}

void pane_hit_header(struct view_frame *f, int y, int x, int w, int metric)
{
	pane_hit_of(f, y, x, w, VIEW_PANE_TABLE, -1, -1, VIEW_AGG_THREAD, -1);
	f->hits[f->nhits - 1].what = VIEW_HIT_HEADER;
	f->hits[f->nhits - 1].metric = metric;
}

bool pane_cpu_shown(const struct view *v, int os_cpu)
{
	return !v->cpu_shown || (os_cpu >= 0 && os_cpu < v->info.topo->cpu_thread_len &&
				 v->cpu_shown[os_cpu]);
}

unsigned pane_core_kind(const struct topo *t, int core)
{
	int k = core >= 0 && core < t->ncores ? t->cores[core].corekind : -1;

	return k < 0 ? LAYOUT_CORES_ANY : topo_kind_atom(t, k) ? LAYOUT_CORES_E : LAYOUT_CORES_P;
}

unsigned pane_kinds_shown(const struct view *v)
{
	const struct topo *t = v->info.topo;
	unsigned kinds = 0;

	for (int i = 0; t->ncorekinds > 1 && i < t->nonline; i++)
		if (pane_cpu_shown(v, t->threads[i].os_cpu) &&
		    (v->zoom_socket < 0 || t->threads[i].socket == v->zoom_socket))
			kinds |= 1u << pane_core_kind(t, t->threads[i].core);
	return kinds & ~(1u << LAYOUT_CORES_ANY);
}

bool pane_pid_ran(const struct view *v, int os_cpu)
{
	return v->pid_cpus && os_cpu >= 0 && os_cpu < v->info.topo->cpu_thread_len &&
	       v->pid_cpus[os_cpu];
}

bool *pane_who_cpus(const struct view *v, const struct sample *s)
{
	int r = who_pane_selected(v, s), *cpus, n, len = v->info.topo->cpu_thread_len;
	size_t col;
	bool *on;

	if (r < 0 || !s->who->rows[r].where[0] ||
	    cpulist_parse(s->who->rows[r].where, &cpus, &n, &col))
		return NULL;
	on = xcalloc((size_t)len + 1, sizeof(bool));
	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < len)
			on[cpus[i]] = true;
	free(cpus);
	return on;
}

/*
 * Sample thread index of every topo thread (-1: offline, or no sample), so
 * that drawing a cell is a lookup, not a search.  Caller frees.
 */
int *pane_thread_map(const struct sample *s, const struct topo *t)
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

/* "socket 1" or "socket 1 channel 2": where flag F is. */
void pane_flag_where(const struct sample *s, const struct sample_flag *f, char *buf,
			     size_t len)
{
	int n = snprintf(buf, len, "socket %d", s->sockets[f->socket].os_socket_id);

	if (f->channel >= 0 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " channel %d", f->channel);
}

/* Keys of the groups that hold any of the metrics whose names start with PREFIX. */
void pane_group_keys(const struct layout *l, const char *prefix, char *buf, size_t len)
{
	layout_groups seen = 0;
	size_t n = 0;

	buf[0] = 0;
	for (int m = 0; m < l->nmetrics; m++) {
		int g = l->metrics[m].group;

		if (g < 0 || strncmp(l->metrics[m].name, prefix, strlen(prefix)) ||
		    (seen & LAYOUT_GROUP(g)))
			continue;
		seen |= LAYOUT_GROUP(g);
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%c (%s)", n ? ", " : "",
				      l->groups[g].key, l->groups[g].name);
	}
}

void pane_cell(struct grid *g, int y, int x, int w, enum grid_style st, const char *text,
	       bool selected)
{
	grid_blank(g, y, x, w, selected ? GRID_CURSOR : st);
	grid_put_right(g, y, x, w, selected ? GRID_CURSOR : st, text);
	if (!selected)
		return;
	grid_put(g, y, x - 1, 1, GRID_CURSOR, "[");
	grid_put(g, y, x + w, 1, GRID_CURSOR, "]");
}

void pane_parts(const struct pane_part *p, int n, int width, char *line, size_t len)
{
	size_t used = 0;

	line[0] = 0;
	for (int i = 0; i < n; i++) {
		int reserve = 0;
		const char *pick = NULL;

		if (!p[i].lng || !p[i].lng[0])
			continue;
		/* the short forms of the must-haves after this one */
		for (int k = i + 1; k < n; k++)
			if (p[k].must && p[k].lng && p[k].lng[0])
				reserve += (int)strlen(p[k].shrt ? p[k].shrt : p[k].lng) + 2;
		if ((int)(used + strlen(p[i].lng) + (used ? 2 : 0)) + reserve <= width)
			pick = p[i].lng;
		else if (p[i].shrt && (int)(used + strlen(p[i].shrt) + (used ? 2 : 0)) + reserve <= width)
			pick = p[i].shrt;
		else if (p[i].must)
			pick = p[i].shrt ? p[i].shrt : p[i].lng;
		if (!pick || used + strlen(pick) + 2 >= len)
			continue;
		used += (size_t)snprintf(line + used, len - used, "%s%s", used ? "  " : "", pick);
	}
}

int pane_entity_rows(const struct view *v, const struct sample *s, int **out,
		     const struct sample_entity **ents)
{
	const struct topo *t = v->info.topo;
	int n = v->agg == VIEW_AGG_THREAD ? s->nthreads : v->agg == VIEW_AGG_CORE ? s->ncores
										  : s->nsockets;
	int *rows = xcalloc((size_t)n + 1, sizeof(int)), k = 0;

	*ents = v->agg == VIEW_AGG_THREAD ? s->threads : v->agg == VIEW_AGG_CORE ? s->cores
										: s->sockets;
	for (int i = 0; i < n; i++) {
		const struct sample_entity *e = &(*ents)[i];

		if (v->agg == VIEW_AGG_THREAD && !pane_cpu_shown(v, e->index))
			continue;
		if (v->agg == VIEW_AGG_CORE && v->cpu_shown) {
			const struct topo_core *c = &t->cores[e->index];
			bool any = false;

			for (int j = 0; j < c->nthreads; j++)
				any |= pane_cpu_shown(v, t->threads[c->thread_first + j].os_cpu);
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

/* F's hit of the focused pane's selected row or cell of an entity, or -1. */
static int pane_selected_hit(const struct view *v, const struct view_frame *f)
{
	for (int i = 0; i < f->nhits; i++)
		if (f->hits[i].pane == v->focus && f->hits[i].pos == f->sel && f->hits[i].entity >= 0 &&
		    f->hits[i].what == VIEW_HIT_CELL)
			return i;
	return -1;
}

/*
 * The entity the explain popup (and the bottleneck line) is about: the
 * selected cell or row of the focused pane, as its last draw placed it
 * (F's hits), else the first thread; and its metric: the column cursor's in
 * a table, the line's on the uncore panes, the heat metric on the topology.
 */
const struct sample_entity *pane_selected(const struct view *v, const struct sample *s,
					  const struct view_frame *f, int *metric)
{
	*metric = v->focus != VIEW_PANE_TOPO && f->col_metric >= 0 ? f->col_metric
		  : v->focus != VIEW_PANE_TOPO && v->sort_metric >= 0 ? v->sort_metric
		  : v->heat_metric;
	if (!s)
		return NULL;
	int i = pane_selected_hit(v, f);
	const struct view_hit *h = i >= 0 ? &f->hits[i] : NULL;

	if (!h)
		return s->nthreads ? &s->threads[0] : NULL;
	/* an uncore or IMC line says which metric it shows */
	if (h->metric >= 0)
		*metric = h->metric;
	return h->kind == VIEW_AGG_THREAD ? &s->threads[h->entity]
	       : h->kind == VIEW_AGG_CORE ? &s->cores[h->entity]
	       : h->kind == VIEW_AGG_CHANNEL ? &s->parts[SAMPLE_KIND_CHANNEL].rows[h->entity]
					  : &s->sockets[h->entity];
}

bool pane_has_selection(const struct view *v, const struct view_frame *f)
{
	return pane_selected_hit(v, f) >= 0;
}
