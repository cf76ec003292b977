/*
 * panes: drawing the interactive screen into a grid (view_render) and the
 * pieces of it the keys need (which socket a topology cell belongs to).
 * Pure: the grid, the view and the sample are all it touches.  UI thread.
 */
#ifndef PMUTOP_PANES_H
#define PMUTOP_PANES_H

#include <stddef.h>

#include "frontend.h"
#include "view.h"

/* Zoom the topology to the socket of the selected cell, or back out. */
void panes_zoom(struct view *v);

/*
 * VALUE in at most 7 columns for UNIT: n/a for NaN, SI suffixes (k, M, G,
 * T) from 10000 up, more decimals for small numbers.
 */
void panes_format(double value, char *buf, size_t len);

#endif
