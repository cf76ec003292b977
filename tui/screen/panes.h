/*
 * panes: the frame of the interactive screen drawn into a grid
 * (view_render): header, message line, the topology, the tabs and the lower
 * pane, the counter footer, the key bar, the overlays.  The panes themselves
 * are in tui/panes/, one file each, listed once in panes_registry
 * (tui/panes/pane.h).  Pure: the grid, the view and the sample are all it
 * touches.  UI thread.
 */
#ifndef PMUTOP_PANES_H
#define PMUTOP_PANES_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "view.h"
#include "format.h"


/*
 * The counter footer at row Y of G (panes_footer.c), drawn when DRAW; the
 * rows it takes either way.
 */
int panes_footer(const struct view *v, const struct sample *s, struct grid *g, int y, bool draw);

#endif
