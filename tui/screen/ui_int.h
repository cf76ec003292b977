/*
 * ui_int: what ui.c (the loop), ui_other.c (a replay or a viewed run) and
 * ui_term.c (the terminal) share.  Not for any other module.
 */
#ifndef PMUTOP_UI_INT_H
#define PMUTOP_UI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frontend.h"
#include "grid.h"
#include "history.h"
#include "sink.h"
#include "view.h"

struct pidcpus;

struct ui_state {
	struct session *s;
	struct view v;
	struct view_frame frame; /* what the last render drew, for the keys and the mouse */
	struct grid *g;
	const struct sample *smp;
	double t_sample;       /* when smp arrived */
	struct pidcpus *pid;
	struct history *hist;
	struct sinks sinks;    /* where a live or viewed run's samples go: server, history, recording */
	layout_groups s_groups;     /* the groups the run started with (a replay keeps them) */
	layout_groups rc_groups;    /* the settings' groups and interval, kept in a replay or a */
	double rc_interval;    /* viewer, which show another run's (saved as they were) */
	const struct ui_config *c;
	bool cmd_ended;        /* seen ended: the last interval was asked for */
	bool dirty, quit;
	bool leave_cmd;        /* quit without stopping the command (l at the quit prompt) */
	bool who_on;           /* the who pane shows: its figures are read */
	bool who_td_on;        /* the sampler was told to count the top-down level 1 per cgroup */
};

/* Monotonic seconds. */
double ui_now(void);
/*
 * The header's recording part (or, in a replay, where it is; in a viewer,
 * whose run it is), and where the run is served.
 */
void ui_rec_line(struct ui_state *u);

/* ui_other.c: a replay's or a viewed run's keys (true: CMD was theirs) and a replay's sample. */
bool ui_apply_replay(struct ui_state *u, enum view_cmd cmd);
bool ui_apply_viewer(struct ui_state *u, enum view_cmd cmd);
/* The player's sample on the screen: after the one before (NEXT), or after a jump. */
void ui_show_player(struct ui_state *u, bool next);
/* The groups sample S counted or tried to (not off): a replay's or an owner's choice. */
layout_groups ui_groups_counted(const struct sample *s);

/* Start curses on the terminal (its modes saved first); -1 with why in ERR. */
int ui_term_begin(char *err, size_t errlen);
/* End curses; the terminal as it was. */
void ui_term_end(void);
/* The terminal was cleared or resized: the next blit sends every cell. */
void ui_blit_reset(void);
/* A curses key as the view's (VIEW_KEY_*), others as they are. */
int ui_map_key(int ch);

#endif
