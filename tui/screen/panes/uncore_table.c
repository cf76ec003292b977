/*
 * uncore_table: the tables of the uncore and IMC panes: a row per channel
 * or socket, a column per metric, bandwidth columns (a unit in B/s, MB/sec,
 * ...) with a bar against the channel's peak.  Where every column's name
 * begins alike ("memory_bandwidth_read", "memory_bandwidth_write": the
 * vendor's names) the header shows what differs, and many bandwidth
 * columns get narrower bars, so that a memory controller's columns fit 80
 * columns.  UI thread.
 */
#include "uncore_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The widest bar, and the narrowest a table of many bandwidth columns shrinks it to. */
#define UNCORE_BAR_W 10
#define UNCORE_BAR_MIN_W 7
/* the terminal a table should fit */
#define UNCORE_TABLE_FIT_W 80

bool uncore_table_bandwidth(const char *unit)
{
	return unit && strstr(unit, "B/s") != NULL;
}

double uncore_table_bytes(const char *unit)
{
	if (!uncore_table_bandwidth(unit))
		return NAN;
	switch (unit[0]) {
	case 'K': case 'k': return 1e3;
	case 'M': return 1e6;   /* the vendor's MB/sec: 1000000 bytes (its formulas divide by it) */
	case 'G': return 1e9;
	default: return 1;
	}
}

/* The table's columns: the row label's 12, then each column's. */
static int uncore_table_width(const struct layout *l, const struct uncore_table *t)
{
	int w = 12;

	for (int c = 0; c < t->ncols; c++)
		w += uncore_table_col_w(l, t, c);
	return w;
}

void uncore_table_fit(const struct layout *l, const int *cols, int ncols,
		      struct uncore_table *t)
{
	int nbw = 0;

	t->cols = cols;
	t->ncols = ncols;
	t->pre = 0;
	/* the bandwidth columns' common beginning, to its last '_', keeping 3 characters of each */
	{
		const char *first = NULL;
		int n = 0, nb = 0;

		for (int c = 0; c < ncols; c++) {
			const char *o = l->metrics[cols[c]].name;
			int k = 0;

			if (!uncore_table_bandwidth(l->metrics[cols[c]].unit))
				continue;
			if (!first) {
				first = o;
				n = (int)strlen(o);
			}
			while (k < n && o[k] == first[k])
				k++;
			n = k;
			nb++;
		}
		while (n > 0 && first[n - 1] != '_')
			n--;
		for (int c = 0; c < ncols && n > 0; c++)
			if (uncore_table_bandwidth(l->metrics[cols[c]].unit) &&
			    (int)strlen(l->metrics[cols[c]].name) - n < 3)
				n = 0;
		t->pre = nb > 1 && n >= 4 ? n : 0;
	}
	for (int c = 0; c < ncols; c++)
		nbw += uncore_table_bandwidth(l->metrics[cols[c]].unit);
	/* wider than an 80-column terminal with the widest bars: the narrow ones */
	t->bar = UNCORE_BAR_W;
	if (nbw > 2 || uncore_table_width(l, t) > UNCORE_TABLE_FIT_W)
		t->bar = UNCORE_BAR_MIN_W;
}

const char *uncore_table_name(const struct layout *l, const struct uncore_table *t, int c)
{
	const char *name = l->metrics[t->cols[c]].name;

	return uncore_table_bandwidth(l->metrics[t->cols[c]].unit) && (int)strlen(name) > t->pre
	       ? name + t->pre : name;
}

/* The value column of C: its header's width (at least 8) and a blank. */
static int uncore_table_val_w(const struct layout *l, const struct uncore_table *t, int c)
{
	int n = (int)strlen(uncore_table_name(l, t, c));

	return n > 8 ? n + 1 : 9;
}

int uncore_table_col_w(const struct layout *l, const struct uncore_table *t, int c)
{
	return uncore_table_val_w(l, t, c) + 1 +
	       (uncore_table_bandwidth(l->metrics[t->cols[c]].unit) ? t->bar : 0);
}

enum grid_style uncore_table_value(const struct sample *s, int sock, int ch, int m, double val,
				   char *buf, size_t len)
{
	const struct sample_flag *f = sample_flag_find(s, sock, ch, m);

	pane_value(s, m, val, buf, len - 1);
	if (f)
		strcat(buf, "!");
	return f ? GRID_CRIT : isnan(val) ? GRID_DIM : GRID_NORMAL;
}

void uncore_table_row(const struct view *v, const struct sample *s, const struct uncore_table *t,
		      const struct sample_entity *e, int ch, const double *scale, int y,
		      const char *label, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int x = grid_put(g, y, 0, g->w, GRID_NORMAL, "%-12s", label);
	char buf[64];

	for (int c = 0; c < t->ncols && x < g->w; c++) {
		const struct layout_metric *mt = &l->metrics[t->cols[c]];
		double val = sample_metric(s, e, t->cols[c]);
		int w = uncore_table_val_w(l, t, c);
		enum grid_style st = uncore_table_value(s, e->socket, ch, t->cols[c], val, buf,
							sizeof(buf));

		if (uncore_table_bandwidth(mt->unit)) {
			grid_bar(g, y, x, t->bar, isnan(val) || !(scale[c] > 0) ? 0
				 : val * uncore_table_bytes(mt->unit) / scale[c], GRID_BAR);
			x += t->bar;
		}
		grid_put_right(g, y, x, w, st, buf);
		x += w + 1;
	}
}

void uncore_table_head(const struct layout *l, const struct uncore_table *t, int y,
		       const char *first, struct grid *g)
{
	int x;

	grid_blank(g, y, 0, g->w, GRID_HEADER);
	x = grid_put(g, y, 0, g->w, GRID_HEADER, "%-12s", first);
	for (int c = 0; c < t->ncols && x < g->w; c++) {
		int w = uncore_table_val_w(l, t, c);

		if (uncore_table_bandwidth(l->metrics[t->cols[c]].unit))
			x += t->bar;
		grid_put_right(g, y, x, w, GRID_HEADER, uncore_table_name(l, t, c));
		x += w + 1;
	}
}

void uncore_table_scale(const struct layout *l, const struct sample *s, const int *cols,
			int ncols, bool chans, double *scale)
{
	for (int c = 0; c < ncols; c++) {
		double bytes = uncore_table_bytes(l->metrics[cols[c]].unit);

		scale[c] = 0;
		for (int k = 0; k < s->nsockets; k++)
			for (int ch = chans ? 0 : -1; ch < (chans ? sample_nchannels(s) : 0); ch++) {
				const struct sample_entity *e = ch < 0 ? &s->sockets[k]
								       : sample_channel(s, k, ch);
				double peak = e->vars[LAYOUT_B_dram_peak];
				double val = sample_metric(s, e, cols[c]) * bytes;

				if (peak > 0)
					scale[c] = fmax(scale[c], peak);
				else if (val > 0)
					scale[c] = fmax(scale[c], val);
			}
	}
}
