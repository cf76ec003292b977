/*
 * uncore_pane: the per-socket PMUs.  Two panes: uncore (one row per metric,
 * a column per socket: L3, QPI / home logic, local and remote DRAM) and IMC
 * (a row per memory channel with bars against the channel peak, and the
 * socket totals); plausibility flags under them.  UI thread.
 */
#include "pane.h"
#include "uncore_table.h"
#include "history.h"

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

	if (g < 0 || !layout_pmu_kinds[l->groups[g].pmu].per_socket)
		return false;
	return (layout_pmu_kinds[l->groups[g].pmu].free_running || uncore_pane_group_channels(l, g)) ==
	       imc;
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

/*
 * The pane's groups that are blocked while others count, with the reason of
 * each (one reason once), into BUF: "" when none.
 */
static void uncore_pane_blocked(const struct view *v, const struct sample *s, bool imc, char *buf,
				size_t len)
{
	const struct layout *l = v->info.layout;
	size_t n = 0;

	buf[0] = 0;
	for (int g = 0; g < l->ngroups && s; g++) {
		bool mine = false, said = false;

		for (int m = 0; m < l->nmetrics && !mine; m++)
			mine = l->metrics[m].group == g && uncore_pane_metric(l, m, imc);
		if (!mine || s->groups[g].state != SAMPLE_GROUP_BLOCKED)
			continue;
		for (int h = 0; h < g && !said; h++)
			said = s->groups[h].state == SAMPLE_GROUP_BLOCKED &&
			       !strcmp(s->groups[h].why, s->groups[g].why) && strstr(buf, s->groups[h].why);
		if (!said)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s BLOCKED: %s",
					      n ? "; " : "", l->groups[g].name, s->groups[g].why);
	}
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


/*
 * Width of the uncore pane's first column: the longest metric name shown and
 * its unit, but never so wide that a socket's column falls off the screen
 * (a long name is then cut; e shows it whole).
 */
static int uncore_pane_label_w(const struct view *v, const struct sample *s, const int *cols,
			       int ncols, int screen_w)
{
	const struct layout *l = v->info.layout;
	int w = 22, nsock = v->zoom_socket >= 0 ? 1 : s->nsockets, room = screen_w - 22 * nsock;

	for (int c = 0; c < ncols; c++)
		if ((int)strlen(l->metrics[cols[c]].name) > w)
			w = (int)strlen(l->metrics[cols[c]].name);
	w += 12; /* " name unit " */
	return w > room && room >= 34 ? room : w > room ? 34 : w;
}

/* NAME in W columns: whole, or its beginning and end around a '~' (e shows it whole). */
static void uncore_pane_elide(const char *name, int w, char *buf, size_t len)
{
	int n = (int)strlen(name);

	if (n <= w || w < 8) {
		snprintf(buf, len, "%.*s", w, name);
		return;
	}
	snprintf(buf, len, "%.*s~%s", w / 2 - 1, name, name + n - (w - w / 2));
}

/* The description column of the uncore table (its whole help: e explains the line). */
#define UNCORE_PANE_DESC_W 60

/*
 * HELP's first sentence in at most UNCORE_PANE_DESC_W columns, cut at a word
 * ("..."): up to a '.', ':', ';' or an aside " (", not inside a word ("Intel(R)
 * Ultra Path Interconnect"); without the "pmutop's: " that pmutop's own start with.
 */
static void uncore_pane_describe(const char *help, char *buf, size_t len)
{
	size_t n = 0;

	if (help && !strncmp(help, "pmutop's: ", 10))
		help += 10;
	while (help && help[n] && !strchr(".:;", help[n]) &&
	       !(help[n] == '(' && n && help[n - 1] == ' '))
		n++;

	while (n && help[n - 1] == ' ')
		n--;
	if (n > UNCORE_PANE_DESC_W) {
		n = UNCORE_PANE_DESC_W - 3;
		while (n && help[n] != ' ')
			n--;
		snprintf(buf, len, "%.*s...", (int)n, help);
		return;
	}
	snprintf(buf, len, "%.*s", (int)n, help ? help : "");
}

/* One line of the uncore / IMC pane: what it shows, for drawing, selecting and explaining. */
struct uncore_pane_line {
	enum { UNCORE_LINE_CHANNEL, UNCORE_LINE_TOTAL, UNCORE_LINE_METRIC, UNCORE_LINE_NOTE,
	       UNCORE_LINE_FLAG, UNCORE_LINE_AXIS, UNCORE_LINE_HISTORY } kind;
	int socket, channel;      /* topo socket index, channel (-1: the socket) */
	int metric;               /* UNCORE_LINE_METRIC: its metric; others: what explain shows */
	int flag;                 /* UNCORE_LINE_FLAG: index into the sample's flags */
};

/*
 * The history lines: a time axis (with the phase marks), then per socket
 * (and in the IMC pane per channel) one line of read and one of write
 * bandwidth, when the layout has those figures.
 */
static int uncore_pane_history_lines(const struct view *v, const struct sample *s, bool imc,
				     struct uncore_pane_line *out)
{
	const struct layout *l = v->info.layout;
	int rd = layout_metric_find(l, "read_bytes_per_s"), wr = layout_metric_find(l, "write_bytes_per_s");
	int n = 0;

	if (!v->hist || rd < 0 || wr < 0 || !history_len(v->hist, HISTORY_SOCKET, true))
		return 0;
	out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_AXIS, .metric = -1, .flag = -1 };
	for (int k = 0; k < s->nsockets; k++) {
		if (v->zoom_socket >= 0 && k != v->zoom_socket)
			continue;
		for (int ch = imc ? 0 : sample_nchannels(s); ch <= sample_nchannels(s); ch++)
			for (int d = 0; d < 2; d++)
				out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_HISTORY,
					.socket = k, .channel = ch < sample_nchannels(s) ? ch : -1,
					.metric = d ? wr : rd, .flag = -1 };
	}
	return n;
}

/* The pane's lines in order: channels and totals, or a line per metric; notes; history; flags. */
static int uncore_pane_lines(const struct view *v, const struct sample *s, bool imc, const int *cols,
			     int ncols, const int *ccols, int nccols, int rows,
			     struct uncore_pane_line *out)
{
	const struct layout *l = v->info.layout;
	int n = 0, nsock = v->zoom_socket >= 0 ? 1 : s->nsockets;
	/* more channels than rows (12 a socket on Granite Rapids): the sockets' totals first */
	bool summary = nsock > 1 && nsock * (sample_nchannels(s) + 1) > rows;

	if (nccols) {
		for (int k = 0; k < s->nsockets && summary; k++)
			out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_TOTAL, .socket = k,
				.channel = -1, .metric = ccols[0], .flag = -1 };
		for (int k = 0; k < s->nsockets; k++) {
			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			for (int ch = 0; ch < sample_nchannels(s); ch++)
				out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_CHANNEL,
					.socket = k, .channel = ch, .metric = ccols[0], .flag = -1 };
			if (!summary)
				out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_TOTAL,
					.socket = k, .channel = -1, .metric = ccols[0], .flag = -1 };
		}
	} else if (!imc) {
		for (int c = 0; c < ncols; c++)
			out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_METRIC,
				.socket = v->zoom_socket >= 0 ? v->zoom_socket : 0, .channel = -1,
				.metric = cols[c], .flag = -1 };
	} else {
		for (int k = 0; k < s->nsockets; k++)
			if (v->zoom_socket < 0 || k == v->zoom_socket)
				out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_TOTAL,
					.socket = k, .channel = -1, .metric = ncols ? cols[0] : -1,
					.flag = -1 };
		out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_NOTE, .metric = -1, .flag = -1 };
	}
	n += uncore_pane_history_lines(v, s, imc, out + n);
	for (int i = 0; i < s->nflags; i++) {
		const struct sample_flag *fl = &s->flags[i];

		if (fl->metric >= 0 && !uncore_pane_metric(l, fl->metric, imc))
			continue;
		out[n++] = (struct uncore_pane_line){ .kind = UNCORE_LINE_FLAG, .socket = fl->socket,
			.channel = fl->channel, .metric = fl->metric, .flag = i };
		while (i + 1 < s->nflags && !strcmp(s->flags[i + 1].why, fl->why))
			i++; /* one line per finding, not per figure */
	}
	return n;
}

/* Label of the history lines ("s0 ch1 write"), and where their sparklines start. */
#define UNCORE_HIST_LABEL 18
/* Room at the right of a history line for the newest value. */
#define UNCORE_HIST_VALUE 10

/* Sparkline cells of a history line on a screen W wide. */
static int uncore_pane_hist_w(int w)
{
	int n = w - UNCORE_HIST_LABEL - UNCORE_HIST_VALUE - 2;

	return n < 8 ? 0 : n > HISTORY_WIDE ? HISTORY_WIDE : n;
}

/* Seconds as "83 s" or "12:05" (minutes). */
static void uncore_pane_span(double secs, char *buf, size_t len)
{
	if (secs < 100)
		snprintf(buf, len, "%.0f s", secs);
	else
		snprintf(buf, len, "%d:%02d", (int)secs / 60, (int)secs % 60);
}

/*
 * The time axis over the sparklines: how far back the left edge is (each
 * sample one cell, whatever its interval), '|' where a phase mark came,
 * the newest mark's text.
 */
static void uncore_pane_axis(const struct view *v, int y, struct grid *g)
{
	int w = uncore_pane_hist_w(g->w), n = history_len(v->hist, HISTORY_SOCKET, true);
	int shown = n < w ? n : w;
	const char *last = NULL, *newest = NULL;
	char span[32];

	uncore_pane_span(history_span(v->hist, true, shown), span, sizeof(span));
	grid_put(g, y, 0, UNCORE_HIST_LABEL, GRID_BOLD, " history -%s", span);
	for (int k = 0; k < shown; k++) {
		double t1 = history_time(v->hist, true, k), t0 = history_time(v->hist, true, k + 1);
		int x = UNCORE_HIST_LABEL + 1 + (w - 1 - k);

		if (isnan(t0))
			t0 = -INFINITY;
		if (history_marks_in(v->hist, t0, t1, &last)) {
			grid_put(g, y, x, 1, GRID_WARN, "|");
			if (!newest)
				newest = last;
		}
	}
	grid_put(g, y, UNCORE_HIST_LABEL + 1 + w + 1, UNCORE_HIST_VALUE, GRID_DIM, "%s",
		 newest ? newest : "now");
}

/* A history line: socket (channel) read or write bandwidth, scaled to MAX. */
static void uncore_pane_history(const struct view *v, const struct sample *s,
				const struct uncore_pane_line *ln, double max, int y, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int w = uncore_pane_hist_w(g->w), i = ln->channel < 0 ? ln->socket
						: ln->socket * sample_nchannels(s) + ln->channel;
	enum history_kind kind = ln->channel < 0 ? HISTORY_SOCKET : HISTORY_CHANNEL;
	signed char *lv = xcalloc((size_t)w + 1, 1);
	char label[40], chan[16] = "", buf[32];

	if (ln->channel >= 0)
		snprintf(chan, sizeof(chan), " ch%d", ln->channel);
	snprintf(label, sizeof(label), " s%d%s %s", s->sockets[ln->socket].os_socket_id, chan,
		 strncmp(l->metrics[ln->metric].name, "read", 4) ? "write" : "read");
	grid_put(g, y, 0, UNCORE_HIST_LABEL, GRID_NORMAL, "%s", label);
	history_spark(v->hist, kind, true, i, ln->metric, w, max, lv);
	grid_spark(g, y, UNCORE_HIST_LABEL + 1, lv, w, GRID_BAR);
	pane_value(s, ln->metric, history_value(v->hist, kind, true, i, ln->metric, 0), buf,
		   sizeof(buf));
	grid_put_right(g, y, UNCORE_HIST_LABEL + 1 + w + 1, UNCORE_HIST_VALUE, GRID_NORMAL, buf);
	free(lv);
}

/* The scale of the history lines: the largest value any of them shows (sockets and channels apart). */
static double uncore_pane_hist_max(const struct view *v, const struct sample *s,
				   const struct uncore_pane_line *lines, int n, bool chans, int w)
{
	signed char *lv = xcalloc((size_t)w + 1, 1);
	double max = 0;

	for (int k = 0; k < n; k++) {
		const struct uncore_pane_line *ln = &lines[k];
		double top;

		if (ln->kind != UNCORE_LINE_HISTORY || (ln->channel >= 0) != chans)
			continue;
		top = history_spark(v->hist, chans ? HISTORY_CHANNEL : HISTORY_SOCKET, true,
				    chans ? ln->socket * sample_nchannels(s) + ln->channel : ln->socket,
				    ln->metric, w, 0, lv);
		if (top > max)
			max = top;
	}
	free(lv);
	return max;
}

/*
 * Draw line LN at row Y (SEL: it is the selection): channel rows as table CT,
 * socket totals as TT, a metric's row with label room for COLS.
 */
static void uncore_pane_draw_line(const struct view *v, const struct sample *s,
				  const struct uncore_pane_line *ln, const int *cols, int ncols,
				  const struct uncore_table *ct, const struct uncore_table *tt,
				  const double *scale, const double *cscale, int y, bool sel,
				  struct grid *g)
{
	const struct layout *l = v->info.layout;
	char label[48];

	if (sel)
		grid_blank(g, y, 0, g->w, GRID_SELECT);
	switch (ln->kind) {
	case UNCORE_LINE_CHANNEL:
		snprintf(label, sizeof(label), " %4d CH%d", s->sockets[ln->socket].os_socket_id, ln->channel);
		uncore_table_row(v, s, ct, sample_channel(s, ln->socket, ln->channel), ln->channel,
				 cscale, y, label, g);
		break;
	case UNCORE_LINE_TOTAL:
		snprintf(label, sizeof(label), ct->ncols ? " %4d total" : " %4d",
			 s->sockets[ln->socket].os_socket_id);
		uncore_table_row(v, s, tt, &s->sockets[ln->socket], -1, scale, y, label, g);
		break;
	case UNCORE_LINE_METRIC: {
		/* one row per metric, one column per socket: many figures, few sockets */
		const struct layout_metric *mt = &l->metrics[ln->metric];
		int x = uncore_pane_label_w(v, s, cols, ncols, g->screen_w);
		char name[64];

		uncore_pane_elide(mt->name, x - 12, name, sizeof(name));
		grid_put(g, y, 0, x, sel ? GRID_SELECT : GRID_NORMAL, " %-*s %-9.9s", x - 12, name,
			 mt->unit);
		for (int k = 0; k < s->nsockets && x < g->w; k++) {
			double val = sample_metric(s, &s->sockets[k], ln->metric);
			char buf[64];
			enum grid_style st;
			int c = 0;

			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			while (c < ncols && cols[c] != ln->metric)
				c++;
			st = uncore_table_value(s, k, -1, ln->metric, val, buf, sizeof(buf));
			if (uncore_table_bandwidth(mt->unit))
				grid_bar(g, y, x, 10, isnan(val) || c >= ncols || !(scale[c] > 0) ? 0
					 : val * uncore_table_bytes(mt->unit) / scale[c], GRID_BAR);
			grid_put_right(g, y, x + 10, 11, st, buf);
			x += 22;
		}
		char desc[UNCORE_PANE_DESC_W + 8];

		uncore_pane_describe(mt->help, desc, sizeof(desc));
		grid_put(g, y, x + 2, UNCORE_PANE_DESC_W, GRID_DIM, "%s", desc);
		break;
	}
	case UNCORE_LINE_NOTE:
		grid_put(g, y, 2, g->w - 4, GRID_DIM, "per channel: n/a (this memory controller counts "
			 "only the socket's totals)");
		break;
	case UNCORE_LINE_FLAG:
		pane_flag_where(s, &s->flags[ln->flag], label, sizeof(label));
		grid_put(g, y, 1, g->w - 2, GRID_CRIT, "! %s: %s", label, s->flags[ln->flag].why);
		break;
	case UNCORE_LINE_AXIS:
		uncore_pane_axis(v, y, g);
		break;
	case UNCORE_LINE_HISTORY:
		break; /* drawn by the caller, which knows the scale of all of them */
	}
}

/*
 * The uncore and IMC panes: lines that can be selected (Up, Down) and
 * explained (e), scrolled when they do not fit, with "+N more" under them.
 */
int uncore_pane_draw_any(const struct view *v, const struct sample *s, int y, int h,
			 struct grid *g, struct view_frame *f, bool imc)
{
	const struct layout *l = v->info.layout;
	int *cols = xcalloc((size_t)l->nmetrics + 1, sizeof(int)), *ccols, ncols, nccols, nlines;
	double *scale = xcalloc((size_t)l->nmetrics + 1, sizeof(double));
	struct uncore_table ct, tt;
	double *cscale = xcalloc((size_t)l->nmetrics + 1, sizeof(double));
	struct uncore_pane_line *lines = NULL;
	double hmax[2];
	int rows = h - 1, sel = -1, scroll = 0;
	char why[600];

	ccols = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	if (!s || uncore_pane_idle(v, s, imc, why, sizeof(why))) {
		grid_put(g, y, 2, g->w - 4, GRID_BOLD, "%s",
			 imc ? "Memory controller: read and write bandwidth per channel"
			     : "Uncore: L3, QPI / home logic, local and remote DRAM traffic per socket");
		grid_put(g, y + 2, 2, g->w - 4, s ? GRID_WARN : GRID_DIM, "%s",
			 s ? why : "waiting for the first sample...");
		goto out;
	}
	/* a group of the pane's that cannot count says why above what counts (L keeps it whole) */
	uncore_pane_blocked(v, s, imc, why, sizeof(why));
	if (why[0] && rows > 2) {
		grid_put(g, y, 1, g->w - 2, GRID_CRIT, "! %s", why);
		y++;
		rows--;
	}
	ncols = uncore_pane_columns(v, s, imc, LAYOUT_SOCKET, cols);
	nccols = imc ? uncore_pane_columns(v, s, imc, LAYOUT_CHANNEL, ccols) : 0;
	/* channel rows against channel peaks; socket rows (totals) against socket peaks */
	uncore_table_scale(l, s, nccols ? ccols : cols, nccols ? nccols : ncols, false, scale);
	uncore_table_scale(l, s, ccols, nccols, true, cscale);
	lines = xcalloc((size_t)(s->nsockets * (sample_nchannels(s) + 2) * 3 + l->nmetrics + s->nflags + 4),
			sizeof(*lines));
	nlines = uncore_pane_lines(v, s, imc, cols, ncols, ccols, nccols, rows, lines);
	hmax[0] = uncore_pane_hist_max(v, s, lines, nlines, false, uncore_pane_hist_w(g->w));
	hmax[1] = uncore_pane_hist_max(v, s, lines, nlines, true, uncore_pane_hist_w(g->w));
	/* the tables' columns, once a frame: channels, and the totals (the channels' or the socket's) */
	uncore_table_fit(l, ccols, nccols, &ct);
	uncore_table_fit(l, nccols ? ccols : cols, nccols ? nccols : ncols, &tt);
	if (nccols) {
		/* wider than the screen, the frame scrolls it sideways (uncore_pane_width) */
		uncore_table_head(l, &ct, y, " sock chan", g);
	} else if (!imc) {
		int x = grid_put(g, y, 0, g->w, GRID_HEADER, "%-*s",
				 uncore_pane_label_w(v, s, cols, ncols, g->screen_w), " metric");

		grid_blank(g, y, x, g->w - x, GRID_HEADER);
		for (int k = 0; k < s->nsockets && x < g->w; k++) {
			char label[32];

			if (v->zoom_socket >= 0 && k != v->zoom_socket)
				continue;
			snprintf(label, sizeof(label), "socket %d", s->sockets[k].os_socket_id);
			grid_put_right(g, y, x, 21, GRID_HEADER, label);
			x += 22;
		}
		grid_put(g, y, x + 2, UNCORE_PANE_DESC_W, GRID_HEADER, "what it is (e: all of it)");
	} else {
		uncore_table_head(l, &tt, y, " sock", g);
	}
	/* what does not fit: a line "+N more" in the last row, and the rest scrolls */
	if (nlines > rows)
		rows--;
	scroll = pane_scroll(v, f, nlines, rows);
	if (pane_focused(v, f))
		sel = f->sel;
	for (int r = 0; r < rows && r + scroll < nlines; r++) {
		const struct uncore_pane_line *ln = &lines[r + scroll];
		int pos = r + scroll;

		if (ln->kind == UNCORE_LINE_HISTORY)
			uncore_pane_history(v, s, ln, hmax[ln->channel >= 0], y + 1 + r, g);
		else
			uncore_pane_draw_line(v, s, ln, cols, ncols, &ct, &tt, scale, cscale,
					      y + 1 + r, pos == sel, g);
		if (ln->kind == UNCORE_LINE_CHANNEL || ln->kind == UNCORE_LINE_TOTAL ||
		    ln->kind == UNCORE_LINE_METRIC) {
			bool chan = ln->kind == UNCORE_LINE_CHANNEL;

			pane_hit(f, y + 1 + r, 0, g->w, pos, ln->socket,
				 chan ? VIEW_AGG_CHANNEL : VIEW_AGG_SOCKET,
				 chan ? ln->socket * sample_nchannels(s) + ln->channel : ln->socket);
			f->hits[f->nhits - 1].metric = ln->metric;
		}
	}
	if (nlines > rows)
		grid_put(g, y + 1 + rows, 1, g->w - 2, GRID_DIM, "+%d more (Tab here, then Up and Down "
			 "scroll)", nlines - rows - scroll > 0 ? nlines - rows - scroll : 0);
out:
	free(lines);
	free(cols);
	free(ccols);
	free(scale);
	free(cscale);
	return h;
}

/*
 * The columns the pane takes with every name and column whole: the frame
 * scrolls a pane wider than the screen sideways.  0 when it shows only a
 * sentence.
 */
int uncore_pane_width_any(const struct view *v, const struct sample *s, bool imc, int *fixed)
{
	const struct layout *l = v->info.layout;
	int *cols = xcalloc((size_t)l->nmetrics + 1, sizeof(int)), ncols, w = 12;
	struct uncore_table t;
	char why[600];

	if (!s || uncore_pane_idle(v, s, imc, why, sizeof(why))) {
		free(cols);
		return 0;
	}
	ncols = uncore_pane_columns(v, s, imc, imc && sample_nchannels(s) ? LAYOUT_CHANNEL : LAYOUT_SOCKET,
				    cols);
	if (!imc) {
		w = *fixed = uncore_pane_label_w(v, s, cols, ncols, 1 << 20);
		w += 22 * (v->zoom_socket >= 0 ? 1 : s->nsockets) + 2 + UNCORE_PANE_DESC_W;
	} else {
		*fixed = 12;
		if (!ncols) /* a controller that counts socket totals only */
			ncols = uncore_pane_columns(v, s, imc, LAYOUT_SOCKET, cols);
		uncore_table_fit(l, cols, ncols, &t);
		for (int c = 0; c < ncols; c++)
			w += uncore_table_col_w(l, &t, c);
	}
	free(cols);
	return w;
}

static int uncore_pane_width(const struct view *v, const struct sample *s, int *fixed)
{
	return uncore_pane_width_any(v, s, false, fixed);
}

static int uncore_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			    struct grid *g, struct view_frame *f)
{
	return uncore_pane_draw_any(v, s, y, h, g, f, false);
}

const struct pane uncore_pane = {
	.name = "uncore", .title = "Uncore",
	.help = "L3, QPI / home logic, local and remote DRAM traffic per socket",
	.draw = uncore_pane_draw, .width = uncore_pane_width,
};
