/*
 * view_int: what view.c, view_prompt.c and view_settings.c share, and no
 * other module.  UI thread.
 */
#ifndef PMUTOP_VIEW_INT_H
#define PMUTOP_VIEW_INT_H

#include "view.h"

/* A key while a prompt is open (v->prompt): typed into it, or it acts. */
enum view_cmd view_prompt_key(struct view *v, int key);

/*
 * Hide the columns of the vendor's metrics that are figures pmutop shows
 * under its own names (cpu_utilization: util, cpu_operating_frequency: ghz,
 * Info_Thread_IPC: ipc, Info_Thread_CPI: cpi), the defaults before the
 * settings file's "hide" (view_settings.c).
 */
void view_hide_same(struct view *v);

#endif
