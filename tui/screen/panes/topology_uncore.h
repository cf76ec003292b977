/*
 * topology_uncore: a socket's memory channels (boxes with their heat), its
 * memory bandwidth, links and package power for the topology pane
 * (topology_uncore.c).  Not for any other pane.  UI thread.
 */
#ifndef PMUTOP_TOPOLOGY_UNCORE_H
#define PMUTOP_TOPOLOGY_UNCORE_H

#include "pane.h"

/* Draw socket SK's strip at (Y, X) in at most W columns (a box's border); the columns used. */
int topology_uncore_draw(const struct view *v, const struct sample *s, int sk, int y, int x,
			 int w, struct grid *g);

/*
 * The same as text for a socket's summary line ("mem 64.0G/s  links out 1.0G 4% in 7.8G 1%
 * L3 miss 104ns  270 W"; DETAIL 1: without the L3, 0: without the links' use either).
 */
void topology_uncore_text(const struct view *v, const struct sample *s, int sk, int detail,
			  char *buf, size_t len);

#endif
