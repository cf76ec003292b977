/*
 * ui: the ncurses front end; see ui.h.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui.h"
#include "ui_int.h"
#include "sink.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "grid.h"
#include "history.h"
#include "marks.h"
#include "pidcpus.h"
#include "player.h"
#include "serve.h"
#include "viewer.h"
#include "record.h"
#include "run.h"
#include "rcfile.h"
#include "startsig.h"
#include "frontend.h"

/*
 * How often the loop wakes when nothing happens, to redraw the sample's age
 * (whole seconds: a sampler that stopped delivering shows as a growing age).
 */
#define UI_TICK_MS 1000
/* How long the command gets to end after q or a stop signal, before SIGKILL. */
#define UI_CMD_STOP_WAIT_S 10.0

double ui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}


/*
 * The header's recording part (or, in a replay, where it is; in a viewer,
 * whose run it is), and where the run is served.
 */
void ui_rec_line(struct ui_state *u)
{
	struct record *r = u->c->rec ? *u->c->rec : NULL;

	u->v.where[0] = u->v.where_short[0] = 0;
	if (u->c->player) {
		player_position(u->c->player, u->v.where, sizeof(u->v.where));
		player_position_short(u->c->player, u->v.where_short, sizeof(u->v.where_short));
		/* the file changed under the replay: stopped, and said until something else is */
		if (player_error(u->c->player)[0] && !u->v.status[0])
			snprintf(u->v.status, sizeof(u->v.status), "%s", player_error(u->c->player));
	} else if (u->c->viewer) {
		const char *owner = viewer_owner(u->c->viewer);

		snprintf(u->v.where, sizeof(u->v.where), "VIEWER of %s, read-only", owner);
		/* "pid 1234 on host": the pid is what a narrow header keeps */
		snprintf(u->v.where_short, sizeof(u->v.where_short), "VIEWER of %.*s",
			 (int)(strstr(owner, " on ") ? strstr(owner, " on ") - owner
			       : (ptrdiff_t)strlen(owner)), owner);
	}
	snprintf(u->v.rec_path, sizeof(u->v.rec_path), "%s", r ? record_path(r) : "");
	u->v.rec_count = r ? record_count(r) : 0;
	snprintf(u->v.serving, sizeof(u->v.serving), "%s", serve_url(u->c->srv));
}

/* A failed recording: stopped, said on the message line; the view goes on. */
static void ui_rec_failed(struct ui_state *u)
{
	snprintf(u->v.status, sizeof(u->v.status), "%s", record_error(*u->c->rec));
	u->v.status_until = 0;
	record_close(*u->c->rec);
	*u->c->rec = NULL;
	ui_rec_line(u);
}

/* The recording sink's failure: the screen's way of saying it (sink_ctx.rec_failed). */
static void ui_rec_failed_cb(void *ctx)
{
	ui_rec_failed(ctx);
}

/* R: stop recording, or start one in pmutop-DATE-TIME.jsonl here. */
static void ui_rec_toggle(struct ui_state *u)
{
	char path[64], err[600];
	time_t now = time(NULL);
	struct tm tm;

	if (u->c->player) {
		snprintf(u->v.status, sizeof(u->v.status), "R: a replay is a recording already; "
			 "pmutop --replay FILE -b converts it");
		return;
	}
	if (!u->c->rec || !u->c->rec_about)
		return;
	if (*u->c->rec) {
		snprintf(u->v.status, sizeof(u->v.status), "recorded %ld samples to %s",
			 record_count(*u->c->rec), record_path(*u->c->rec));
		record_close(*u->c->rec);
		*u->c->rec = NULL;
	} else {
		localtime_r(&now, &tm);
		strftime(path, sizeof(path), "pmutop-%Y%m%d-%H%M%S.jsonl", &tm);
		u->c->rec_about->interval_s = u->v.interval;
		if (record_open(path, u->c->rec_about, u->c->rec, err, sizeof(err)))
			snprintf(u->v.status, sizeof(u->v.status), "%.250s", err);
		else
			snprintf(u->v.status, sizeof(u->v.status), "recording to %s (R stops)", path);
	}
	u->v.status_until = view_now() + 4;
	ui_rec_line(u);
}

static void ui_apply(struct ui_state *u, enum view_cmd cmd)
{
	char err[256];

	if (ui_apply_replay(u, cmd) || ui_apply_viewer(u, cmd))
		return;
	switch (cmd) {
	case VIEW_CMD_NONE:
		return;
	case VIEW_CMD_QUIT:
		u->quit = true;
		return;
	case VIEW_CMD_QUIT_LEAVE:
		u->quit = u->leave_cmd = true;
		return;
	case VIEW_CMD_GROUPS:
		session_set_groups(u->s, u->v.groups);
		sinks_groups(&u->sinks, (double)time(NULL), u->v.groups);
		break;
	case VIEW_CMD_INTERVAL:
		session_set_interval(u->s, u->v.interval);
		sinks_interval(&u->sinks, (double)time(NULL), u->v.interval);
		break;
	case VIEW_CMD_RECORD:
		ui_rec_toggle(u);
		break;
	case VIEW_CMD_STEP_BACK:
	case VIEW_CMD_STEP_FWD:
	case VIEW_CMD_SLOWER:
	case VIEW_CMD_FASTER:
	case VIEW_CMD_GOTO:
		break; /* replay keys: the view gives them only in a replay (ui_apply_replay) */
	case VIEW_CMD_PAUSE:
		session_set_paused(u->s, u->v.paused);
		break;
	case VIEW_CMD_PID:
		free(u->v.pid_cpus);
		u->v.pid_cpus = NULL;
		pidcpus_free(u->pid);
		u->pid = NULL;
		if (u->v.pid && pidcpus_open(u->v.info.topo->root ? u->v.info.topo->root : "/", u->v.pid, true,
					     u->v.info.topo->cpu_thread_len, &u->pid, err, sizeof(err)) == 0)
			u->v.pid_cpus = pidcpus_scan(u->pid);
		else if (u->v.pid) {
			snprintf(u->v.status, sizeof(u->v.status), "%s", err);
			u->v.pid = 0;
		}
		break;
	case VIEW_CMD_REDRAW:
		break;
	}
	u->dirty = true;
}

static void ui_keys(struct ui_state *u)
{
	int ch;

	while ((ch = getch()) != ERR) {
		if (ch == KEY_RESIZE) {
			grid_resize(u->g, COLS, LINES);
			ui_blit_reset();
			u->dirty = true;
			continue;
		}
		if (ch == KEY_MOUSE) {
			MEVENT me;

			if (getmouse(&me) == OK && (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
				u->dirty |= view_click(&u->v, &u->frame, me.y, me.x);
			continue;
		}
		ui_apply(u, view_key(&u->v, &u->frame, ui_map_key(ch)));
		if (u->quit)
			return;
		/* the who figures are read while their pane shows (or always, when asked for) */
		if (u->s && view_pane_who(u->v.lower) != u->who_on) {
			u->who_on = view_pane_who(u->v.lower);
			session_set_who(u->s, u->who_on || u->c->who_always);
		}
		if (u->s && u->v.who_td != u->who_td_on) {
			u->who_td_on = u->v.who_td;
			session_set_who_topdown(u->s, u->who_td_on);
		}
		/*
		 * Keys typed together (Down then e) each act on what the one before
		 * left: the frame is brought up to date before the next key (drawn
		 * on the screen once they are all taken).
		 */
		if (u->dirty)
			view_render(&u->v, u->smp, u->smp ? ui_now() - u->t_sample : 0, u->g, &u->frame);
	}
}

/*
 * A group that became blocked (at the start, or turned on by a key) says why:
 * on the message line for a while, and in the recent messages (L) for good.
 */
static void ui_log_blocked(struct ui_state *u, const struct sample *smp)
{
	const struct layout *l = u->v.info.layout;

	for (int g = 0; l && smp->groups && g < l->ngroups; g++) {
		char msg[sizeof(u->v.status)];

		if (smp->groups[g].state != SAMPLE_GROUP_BLOCKED ||
		    (u->smp && u->smp->groups && u->smp->groups[g].state == SAMPLE_GROUP_BLOCKED))
			continue;
		snprintf(msg, sizeof(msg), "group %.40s BLOCKED: %.190s", l->groups[g].name,
			 smp->groups[g].why);
		view_log(&u->v, msg);
		snprintf(u->v.status, sizeof(u->v.status), "%s", msg);
		u->v.status_until = view_now() + VIEW_STATUS_S;
	}
}

static void ui_new_sample(struct ui_state *u)
{
	const struct sample *smp;

	if (u->c->viewer) {
		smp = viewer_take(u->c->viewer);
		if (!smp)
			return;
		if (u->v.paused) {
			sample_release(smp); /* frozen: this screen only */
			return;
		}
		/* the groups the owner counts */
		u->s_groups = ui_groups_counted(smp);
		u->v.groups = u->s_groups;
		u->v.interval = smp->interval_s;
	} else {
		session_ack(u->s);
		smp = session_latest(u->s);
		if (!smp)
			return;
	}
	ui_log_blocked(u, smp);
	if (u->smp)
		sample_release(u->smp);
	u->smp = smp;
	u->t_sample = ui_now();
	/* the sample's words, kept in the recent messages in full (L) */
	view_log(&u->v, smp->error);
	view_log(&u->v, smp->warning);
	sinks_sample(&u->sinks, smp);
	ui_rec_line(u);
	ui_apply(u, view_drill(&u->v, smp));
	if (u->pid) {
		/* where the process ran during the interval that just ended */
		free(u->v.pid_cpus);
		u->v.pid_cpus = pidcpus_scan(u->pid);
	}
	u->dirty = true;
}

/* The command's line in the header, and its end: the interval it ended in is sampled at once. */
static void ui_follow_cmd(struct ui_state *u)
{
	struct run_cmd *cmd = u->c->cmd;
	char line[sizeof(u->v.run)];

	if (!cmd)
		return;
	if (!u->cmd_ended && run_poll(cmd)) {
		u->cmd_ended = true;
		session_flush(u->s);
		if (u->c->cmd_log)
			snprintf(u->v.status, sizeof(u->v.status), "its output: %s; q quits",
				 u->c->cmd_log);
		u->v.status_until = 0;
	}
	run_describe(cmd, line, sizeof(line));
	u->v.cmd_running = !u->cmd_ended;
	if (strcmp(line, u->v.run)) {
		memcpy(u->v.run, line, sizeof(line));
		u->dirty = true;
	}
}

/* Phase marks that arrived: the last one in the header. */
static void ui_take_marks(struct ui_state *u)
{
	struct mark mk[MARKS_PER_TAKE];
	int n = marks_take(u->c->marks, mk, MARKS_PER_TAKE, NULL);

	for (int i = 0; i < n; i++)
		sinks_mark(&u->sinks, &mk[i]);
	if (n > 0) {
		snprintf(u->v.mark, sizeof(u->v.mark), "%s", mk[n - 1].text);
		u->dirty = true;
	}
}

static void ui_load_rc(struct ui_state *u, const struct ui_config *c)
{
	struct view saved = u->v;
	char warn[2048] = "";

	if (c->rc_warning)
		snprintf(u->v.status, sizeof(u->v.status), "%s", c->rc_warning);
	view_log(&u->v, c->rc_warning);
	if (!c->rc_path) {
		if (c->pane)
			u->v.focus = u->v.lower = c->pane;
		return;
	}
	rcfile_load(c->rc_path, &u->v, warn, sizeof(warn));
	if (warn[0]) {
		/* one line per bad line of the file: the first, and how many more (L shows all) */
		int more = 0;

		for (char *nl = strchr(warn, '\n'); nl; nl = strchr(nl + 1, '\n'))
			more++;
		view_log(&u->v, warn);
		if (more)
			snprintf(u->v.status, sizeof(u->v.status), "%.*s (and %d more: L lists them)",
				 (int)strcspn(warn, "\n") < 180 ? (int)strcspn(warn, "\n") : 180, warn,
				 more);
		else
			snprintf(u->v.status, sizeof(u->v.status), "%s", warn);
	}
	if (c->groups_given)
		u->v.groups = saved.groups;
	if (c->interval_given)
		u->v.interval = saved.interval;
	if (c->player || c->viewer) {
		/* a replay shows the groups and the interval recorded; a viewer the owner's */
		u->rc_groups = u->v.groups;
		u->rc_interval = u->v.interval;
		u->v.groups = saved.groups;
		u->v.interval = saved.interval;
		return;
	}
	if (u->v.groups != saved.groups)
		session_set_groups(u->s, u->v.groups);
	if (u->v.interval != saved.interval)
		ui_apply(u, VIEW_CMD_INTERVAL);
	if (c->pane) /* --pane wins over the settings' pane */
		u->v.focus = u->v.lower = c->pane;
	u->who_on = view_pane_who(u->v.lower);
	if (u->who_on && u->s)
		session_set_who(u->s, true);
	u->v.who_td = u->who_td_on = c->who_topdown;
}

int ui_run(struct session *s, const struct ui_config *c, int sigfd, char *err, size_t errlen)
{
	struct ui_state u = { .s = s, .c = c };
	struct pollfd pfd[5] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = s ? session_fd(s) : c->player ? player_fd(c->player) : viewer_fd(c->viewer),
		  .events = POLLIN },
		{ .fd = sigfd, .events = POLLIN },
		{ .fd = run_fd(c->cmd), .events = POLLIN },
		{ .fd = marks_fd(c->marks), .events = POLLIN },
	};
	int status = 0, shown_age = -1;

	startsig_end(); /* the stop signals are this loop's from here */
	err[0] = 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the interactive view needs a terminal; use -b for batch output "
			 "or --dump for a text picture of the screen");
		return EXIT_FAILURE;
	}
	u.s_groups = s ? session_groups(s) : 0;
	if (c->player) /* the groups that counted in the recording's first sample */
		u.s_groups = ui_groups_counted(player_sample(c->player));
	view_init(&u.v, &c->info, u.s_groups, c->interval);
	u.v.drill = c->drill;
	u.hist = history_new();
	u.v.hist = u.hist;
	if (!c->player) {
		/* a replay walks its own history; a live or viewed run feeds these */
		struct sink_ctx sc = { .mode = SINK_SCREEN, .srv = c->srv, .rec = c->rec,
				       .rec_failed = ui_rec_failed_cb, .rec_failed_ctx = &u,
				       .hist = u.hist };

		sinks_build(&sc, &u.sinks);
	}
	ui_load_rc(&u, c);
	ui_rec_line(&u);
	if (c->player) {
		ui_show_player(&u, false);
		snprintf(u.v.status, sizeof(u.v.status), "replay: space pause, , . step, [ ] speed, "
			 "g go to a time");
	}
	if (ui_term_begin(err, errlen)) {
		view_free(&u.v);
		sinks_free(&u.sinks);
		history_free(u.hist);
		return EXIT_FAILURE;
	}
	u.g = grid_new(COLS, LINES, c->info.utf8);
	u.dirty = true;
	if (c->cmd && c->cmd_on_host) {
		/* the command's CPUs, its children's too, highlighted each interval */
		u.v.pid = run_pid(c->cmd);
		ui_apply(&u, VIEW_CMD_PID);
	} else if (c->cmd) {
		snprintf(u.v.status, sizeof(u.v.status), "the command runs on this host, not on the "
			 "emulated machine: its CPUs are not highlighted");
	}
	ui_follow_cmd(&u);
	while (!u.quit) {
		int age = u.smp ? (int)(ui_now() - u.t_sample) : 0;
		int rc;

		if (age != shown_age) {
			shown_age = age;
			u.dirty = true;
		}
		if (u.dirty) {
			view_log(&u.v, u.v.status); /* every message shown is kept for L */
			view_render(&u.v, u.smp, u.smp ? ui_now() - u.t_sample : 0, u.g, &u.frame);
			ui_blit(u.g);
			u.dirty = false;
		}
		pfd[3].fd = run_fd(c->cmd);
		rc = poll(pfd, 5, UI_TICK_MS);
		if (rc < 0) {
			if (errno == EINTR) { /* SIGWINCH: curses turns it into KEY_RESIZE */
				ui_keys(&u);
				continue;
			}
			snprintf(err, errlen, "poll failed: %s", strerror(errno));
			status = EXIT_FAILURE;
			break;
		}
		if (pfd[2].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
				/* Ctrl-C stops the benchmark first, then pmutop */
				if (c->cmd && !run_poll(c->cmd))
					run_stop(c->cmd, (int)si.ssi_signo, UI_CMD_STOP_WAIT_S);
				status = 128 + (int)si.ssi_signo;
				break;
			}
		}
		ui_follow_cmd(&u);
		if (pfd[4].revents & POLLIN)
			ui_take_marks(&u);
		if (pfd[1].revents & POLLIN) {
			if (c->player) {
				if (player_tick(c->player))
					ui_show_player(&u, true);
				else
					ui_rec_line(&u);
			} else {
				ui_new_sample(&u);
			}
			if (c->viewer && viewer_ended(c->viewer, err, errlen))
				break; /* the owner ended: ERR says so */
		}
		if (pfd[0].revents & (POLLIN | POLLHUP))
			ui_keys(&u);
		/*
		 * A terminal that hung up polls readable for ever (POLLIN with
		 * POLLHUP and POLLERR, reads of 0): the keys it still had are taken
		 * above, then pmutop ends the normal way.  No SIGHUP comes when
		 * pmutop is not of the terminal's session (setsid, a daemon's pty).
		 */
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
			status = EXIT_FAILURE;
			snprintf(err, errlen, "the terminal went away");
			break;
		}
	}
	if (c->cmd && !run_poll(c->cmd) && !u.leave_cmd) {
		/* q while it runs, confirmed: it is stopped, as pmutop leaves */
		grid_blank(u.g, 2, 0, u.g->w, GRID_WARN);
		grid_put(u.g, 2, 1, u.g->w - 2, GRID_WARN, "stopping %s ...", u.v.run);
		ui_blit(u.g);
		run_stop(c->cmd, SIGTERM, UI_CMD_STOP_WAIT_S);
	}
	/* as in batch mode, pmutop's status is the command's once it has ended */
	if (c->cmd && status == 0 && run_poll(c->cmd))
		status = run_status(c->cmd);
	if (c->cmd_left)
		*c->cmd_left = u.leave_cmd && !run_poll(c->cmd);
	ui_term_end();
	if (c->rc_path && status == 0) {
		char msg[512];

		if (c->player || c->viewer) {
			/* another run's groups and interval are not this user's settings */
			u.v.groups = u.rc_groups;
			u.v.interval = u.rc_interval;
		}
		if (rcfile_save(c->rc_path, &u.v, msg, sizeof(msg)))
			snprintf(err, errlen, "%s", msg);
	}
	if (u.smp)
		sample_release(u.smp);
	pidcpus_free(u.pid);
	sinks_free(&u.sinks);
	history_free(u.hist);
	grid_free(u.g);
	view_free(&u.v);
	view_frame_free(&u.frame);
	return status;
}
