/*
 * uncore_pane: the per-socket PMUs.  Two panes: uncore (one row per metric,
 * a column per socket: L3, QPI / home logic, local and remote DRAM) and IMC
 * (a row per memory channel with bars against the channel peak, and the
 * socket totals); plausibility flags under them.  UI thread.
 */
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool uncore_pane_group_channels(const struct layout *l, int g)
{
	for (int i = 0; i < l->groups[g].nevents; i++)
		if (l->events[l->groups[g].first_event + i].channel >= 0)
			return true;
	return false;
}

/* Metric M belongs in the IMC pane (IMC) or the uncore pane (!IMC). */
static bool uncore_pane_metric(const struct layout *l, int m, bool imc)
{
	int g = l->metrics[m].group;

	if (g < 0 || l->groups[g].pmu == LAYOUT_PMU_CORE)
		return false;
	return (l->groups[g].pmu == LAYOUT_PMU_IMC || uncore_pane_group_channels(l, g)) == imc;
}

/* A socket or channel figure: scaled mark *, flagged mark ! (it cannot be true). */
static enum grid_style uncore_pane_value(const struct sample *s, int sock, int ch, int m, double val,
				       char *buf, size_t len)
{
	const struct sample_flag *f = sample_flag_find(s, sock, ch, m);

	pane_value(s, m, val, buf, len - 1);
	if (f)
		strcat(buf, "!");
	return f ? GRID_CRIT : isnan(val) ? GRID_DIM : GRID_NORMAL;
}

/*
 * Why the uncore or IMC pane has nothing to show, into BUF: no such groups,
 * all off (with their keys), or blocked (with the reason).  false when
 * some group is counting.
 */
static bool uncore_pane_idle(const struct view *v, const struct sample *s, bool imc, char *buf,
			   size_t len)
{
	const struct layout *l = v->info.layout;
	size_t n = 0;
	bool any = false;

	buf[0] = 0;
	for (int g = 0; g < l->ngroups; g++) {
		bool mine = false;

		for (int m = 0; m < l->nmetrics && !mine; m++)
			mine = l->metrics[m].group == g && uncore_pane_metric(l, m, imc);
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
static int uncore_pane_columns(const struct view *v, const struct sample *s, bool imc,
			     enum layout_scope scope, int *cols)
{
	const struct layout *l = v->info.layout;
	int n = 0;

	for (int m = 0; m < l->nmetrics; m++)
		if (uncore_pane_metric(l, m, imc) && l->metrics[m].scope == scope &&
		    s->groups[l->metrics[m].group].state != SAMPLE_GROUP_OFF)
			cols[n++] = m;
	return n;
}

/* One row of the uncore / IMC table: LABEL, then each column's value (B/s ones with a bar). */
static void uncore_pane_row(const struct view *v, const struct sample *s,
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
		enum grid_style st = uncore_pane_value(s, e->socket, ch, cols[c], val, buf, sizeof(buf));

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
static void uncore_pane_head(const struct layout *l, const int *cols, int ncols, int y,
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
static void uncore_pane_scale(const struct sample *s, const int *cols, int ncols, bool chans,
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

static int uncore_pane_draw_any(const struct view *v, const struct sample *s, int y, int h,
				struct grid *g, bool imc)
{
	const struct layout *l = v->info.layout;
	int *cols = xcalloc((size_t)l->nmetrics + 1, sizeof(int)), *ccols, ncols, nccols, row = 0;
	double *scale = xcalloc((size_t)l->nmetrics + 1, sizeof(double));
	double *cscale = xcalloc((size_t)l->nmetrics + 1, sizeof(double));
	char why[600], label[32];

	ccols = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	if (!s || uncore_pane_idle(v, s, imc, why, sizeof(why))) {
		grid_put(g, y, 2, g->w - 4, GRID_BOLD, "%s",
			 imc ? "Memory controller: read and write bandwidth per channel"
			     : "Uncore: L3, QPI / home logic, local and remote DRAM traffic per socket");
		grid_put(g, y + 2, 2, g->w - 4, s ? GRID_WARN : GRID_DIM, "%s",
			 s ? why : "waiting for the first sample...");
		goto out;
	}
	ncols = uncore_pane_columns(v, s, imc, LAYOUT_SOCKET, cols);
	nccols = imc ? uncore_pane_columns(v, s, imc, LAYOUT_CHANNEL, ccols) : 0;
	/* channel rows against channel peaks; socket rows (totals) against socket peaks */
	uncore_pane_scale(s, nccols ? ccols : cols, nccols ? nccols : ncols, false, scale);
	uncore_pane_scale(s, ccols, nccols, true, cscale);
	if (nccols) {
		/* per channel rows, then the socket's total of the same metrics */
		uncore_pane_head(l, ccols, nccols, y, " sock chan", g);
		for (int k = 0; k < s->nsockets && row < h - 2; k++) {
			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			for (int ch = 0; ch < s->nchannels && row < h - 2; ch++) {
				snprintf(label, sizeof(label), " %4d CH%d", s->sockets[k].os_socket_id, ch);
				uncore_pane_row(v, s, sample_channel(s, k, ch), ch, ccols, nccols, cscale,
					      y + 1 + row++, label, g);
			}
			snprintf(label, sizeof(label), " %4d total", s->sockets[k].os_socket_id);
			uncore_pane_row(v, s, &s->sockets[k], -1, ccols, nccols, scale, y + 1 + row++, label,
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
				st = uncore_pane_value(s, k, -1, cols[c], val, buf, sizeof(buf));
				if (!strcmp(mt->unit, "B/s"))
					grid_bar(g, y + 1 + row, x, 10, isnan(val) || !(scale[c] > 0) ? 0
						 : val / scale[c], GRID_BAR);
				grid_put_right(g, y + 1 + row, x + 10, 11, st, buf);
				x += 22;
			}
		}
	} else {
		uncore_pane_head(l, cols, ncols, y, " sock", g);
		for (int k = 0; k < s->nsockets && row < h - 2; k++) {
			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			snprintf(label, sizeof(label), " %4d", s->sockets[k].os_socket_id);
			uncore_pane_row(v, s, &s->sockets[k], -1, cols, ncols, scale, y + 1 + row++, label,
				      g);
		}
		if (imc)
			grid_put(g, y + 1 + row++, 2, g->w - 4, GRID_DIM, "per channel: n/a (this "
				 "memory controller counts only the socket's totals)");
	}
	for (int i = 0; i < s->nflags && row < h - 1; i++) {
		const struct sample_flag *f = &s->flags[i];

		if (f->metric >= 0 && !uncore_pane_metric(l, f->metric, imc))
			continue;
		pane_flag_where(s, f, label, sizeof(label));
		grid_put(g, y + 1 + row++, 1, g->w - 2, GRID_CRIT, "! %s: %s", label, f->why);
		while (i + 1 < s->nflags && !strcmp(s->flags[i + 1].why, f->why))
			i++; /* one line per finding, not per figure */
	}
out:
	free(cols);
	free(ccols);
	free(scale);
	free(cscale);
	return h;
}

/* Nothing in these panes is selectable yet: F stays as the frame began. */
static int uncore_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			    struct grid *g, struct view_frame *f)
{
	(void)f;
	return uncore_pane_draw_any(v, s, y, h, g, false);
}

static int uncore_pane_draw_imc(const struct view *v, const struct sample *s, int y, int h,
				struct grid *g, struct view_frame *f)
{
	(void)f;
	return uncore_pane_draw_any(v, s, y, h, g, true);
}

const struct pane uncore_pane = {
	.name = "uncore", .title = "Uncore",
	.help = "L3, QPI / home logic, local and remote DRAM traffic per socket",
	.draw = uncore_pane_draw,
};

const struct pane imc_pane = {
	.name = "imc", .title = "IMC",
	.help = "read and write bandwidth per memory channel, and the socket totals",
	.draw = uncore_pane_draw_imc,
};
