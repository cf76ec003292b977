/*
 * uncore_table: the tables of the uncore and IMC panes (uncore_table.c):
 * the columns' widths, the header, a row with its bars, the bars' scale.
 * Not for any other pane.  UI thread.
 */
#ifndef PMUTOP_UNCORE_TABLE_H
#define PMUTOP_UNCORE_TABLE_H

#include "pane.h"

/* Columns COLS (metric indices) as drawn: the names' common beginning left out, the bars' width. */
struct uncore_table {
	const int *cols;
	int ncols;
	int pre;     /* characters of every bandwidth column's name the header leaves out */
	int bar;     /* columns of a bandwidth column's bar */
};

/* Whether UNIT is a bandwidth ("B/s", "MB/sec", ...): its column has a bar. */
bool uncore_table_bandwidth(const char *unit);
/* Bytes per second of 1 in UNIT (1e6 for MB/sec), NaN when it is no bandwidth. */
double uncore_table_bytes(const char *unit);

void uncore_table_fit(const struct layout *l, const int *cols, int ncols, struct uncore_table *t);
/* Column C's header (its metric's name without the common beginning). */
const char *uncore_table_name(const struct layout *l, const struct uncore_table *t, int c);
/* Column C's width: value, blank, bar. */
int uncore_table_col_w(const struct layout *l, const struct uncore_table *t, int c);

/* A socket or channel figure: scaled mark *, flagged mark ! (it cannot be true). */
enum grid_style uncore_table_value(const struct sample *s, int sock, int ch, int m, double val,
				   char *buf, size_t len);
/* One row: LABEL, then each column's value (bandwidths with a bar against SCALE, bytes/s). */
void uncore_table_row(const struct view *v, const struct sample *s, const struct uncore_table *t,
		      const struct sample_entity *e, int ch, const double *scale, int y,
		      const char *label, struct grid *g);
void uncore_table_head(const struct layout *l, const struct uncore_table *t, int y,
		       const char *first, struct grid *g);
/*
 * The bars' scale per column, bytes/s: the entity's theoretical peak when
 * known (dram_peak), else the largest value of the column on screen.
 */
void uncore_table_scale(const struct layout *l, const struct sample *s, const int *cols,
			int ncols, bool chans, double *scale);

#endif
