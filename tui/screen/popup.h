/*
 * popup: the windows drawn over the screen: help, explain, the setup
 * doctor, the recent messages and the column chooser.
 *
 * Each text popup is a text made from the view and the sample, wrapped to
 * the window's width (a continued line keeps its indent, plus two) and
 * shown from the view's popup scroll: the frame says how many lines the
 * text has and how many fit (pop_lines, pop_page), so that the arrows,
 * PgUp/PgDn, Home and End scroll it (view.c) and the last line says which
 * lines are shown.  Pure, like the rest of the render.  UI thread.
 */
#ifndef PMUTOP_POPUP_H
#define PMUTOP_POPUP_H

#include "frontend.h"
#include "grid.h"
#include "view.h"

/* Draw V's popup (v->overlay) over G; writes pop_lines and pop_page into F. */
void popup_render(const struct view *v, const struct sample *s, struct view_frame *f,
		  struct grid *g);

/*
 * The lines TEXT takes wrapped to W columns (a word longer than W is cut),
 * each continued line indented as its first line plus two.  Lines LINES[i]
 * point into TEXT with lengths LENS[i] and indents INDS[i], up to MAX of
 * them (NULL: only counted).  Returns how many there are.
 */
int popup_wrap(const char *text, int w, const char **lines, int *lens, int *inds, int max);

#endif
