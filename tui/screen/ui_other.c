/*
 * ui_other: the screen showing another run than this one's: a replay's
 * player (its keys, its sample and the history up to it) and another
 * pmutop's run seen as a viewer (its keys).  See ui_int.h.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui.h"
#include "ui_int.h"

#include <stdio.h>
#include <string.h>

#include "history.h"
#include "player.h"
#include "viewer.h"

/* The groups sample S counted or tried to (not off): a replay's or an owner's choice. */
layout_groups ui_groups_counted(const struct sample *s)
{
	layout_groups mask = 0;

	for (int g = 0; g < s->layout->ngroups; g++)
		if (s->groups[g].state != SAMPLE_GROUP_OFF)
			mask |= LAYOUT_GROUP(g);
	return mask;
}


/* Replay commands: the player moves, the screen follows; what cannot change says so. */
bool ui_apply_replay(struct ui_state *u, enum view_cmd cmd)
{
	struct player *pl = u->c ? u->c->player : NULL;

	if (!pl)
		return false;
	switch (cmd) {
	case VIEW_CMD_GROUPS:
	case VIEW_CMD_INTERVAL:
		snprintf(u->v.status, sizeof(u->v.status), "a replay shows the groups and the "
			 "interval as they were recorded");
		u->v.groups = u->s_groups;
		u->v.interval = player_sample(pl)->interval_s;
		break;
	case VIEW_CMD_PAUSE:
		player_pause(pl, u->v.paused);
		break;
	case VIEW_CMD_STEP_BACK:
	case VIEW_CMD_STEP_FWD:
		player_step(pl, cmd == VIEW_CMD_STEP_FWD ? 1 : -1);
		ui_show_player(u, false);
		break;
	case VIEW_CMD_SLOWER:
	case VIEW_CMD_FASTER:
		player_speed(pl, cmd == VIEW_CMD_FASTER ? 1 : -1);
		break;
	case VIEW_CMD_GOTO:
		if (player_goto(pl, u->v.input))
			snprintf(u->v.status, sizeof(u->v.status), "g: '%s' is not a time: give "
				 "seconds (75) or M:SS (1:15)", u->v.input);
		ui_show_player(u, false);
		break;
	default:
		return false;
	}
	u->v.paused = player_paused(pl);
	ui_rec_line(u);
	u->dirty = true;
	return true;
}

/* A viewer's commands: what is the owner's says so; pause freezes this screen only. */
bool ui_apply_viewer(struct ui_state *u, enum view_cmd cmd)
{
	if (!u->c || !u->c->viewer)
		return false;
	switch (cmd) {
	case VIEW_CMD_GROUPS:
	case VIEW_CMD_INTERVAL:
		snprintf(u->v.status, sizeof(u->v.status), "a viewer: the groups and the interval "
			 "are the owner's (%s)", viewer_owner(u->c->viewer));
		u->v.status_until = view_now() + 4;
		u->v.groups = u->s_groups;
		if (u->smp)
			u->v.interval = u->smp->interval_s;
		break;
	case VIEW_CMD_PAUSE:
		snprintf(u->v.status, sizeof(u->v.status), u->v.paused ? "this screen is frozen; "
			 "the owner goes on counting (space again follows it)" : "following the owner");
		u->v.status_until = view_now() + 4;
		break;
	default:
		return false;
	}
	u->dirty = true;
	return true;
}

/*
 * The player's sample on the screen: after the one before (NEXT), added to
 * the history; after a jump, the history is read again up to it.
 */
void ui_show_player(struct ui_state *u, bool next)
{
	struct player *pl = u->c->player;
	int pos = player_pos(pl), from = pos - 64 < 0 ? 0 : pos - 64;
	const struct mark *mk;
	int nmk = player_marks(pl, &mk);

	if (u->smp)
		sample_release(u->smp);
	u->smp = sample_ref(player_sample(pl));
	u->t_sample = ui_now();
	if (next) {
		history_add(u->hist, u->smp);
	} else {
		history_free(u->hist);
		u->hist = history_new();
		u->v.hist = u->hist;
		for (int i = from; i < pos; i++) {
			struct sample *s = player_sample_at(pl, i);

			if (s) {
				history_add(u->hist, s);
				sample_release(s);
			}
		}
		history_add(u->hist, u->smp);
		for (int i = 0; i < nmk; i++)
			history_mark(u->hist, mk[i].time, mk[i].text);
	}
	u->v.paused = player_paused(pl);
	ui_rec_line(u);
	u->dirty = true;
}

