/*
 * view_int: what view.c, view_prompt.c and view_settings.c share, and no
 * other module.  UI thread.
 */
#ifndef PMUTOP_VIEW_INT_H
#define PMUTOP_VIEW_INT_H

#include "view.h"

/* A key while a prompt is open (v->prompt): typed into it, or it acts. */
enum view_cmd view_prompt_key(struct view *v, int key);

#endif
