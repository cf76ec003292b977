/*
 * ui: the interactive front end (ncurses).
 *
 * ui_run() owns the terminal from initscr to endwin: it waits in poll() on
 * the keyboard, the sampler's eventfd and the stop-signal fd, renders the
 * view into a grid only when something changed (a key, a sample, the age
 * shown ticking, a resize) and copies the grid to the screen with one
 * doupdate.  It never waits for the sampler: commands go to the engine as
 * desired state.  All curses calls of pmutop are here, on the main thread.
 *
 * Signals: the caller blocks SIGINT/SIGTERM/SIGHUP/SIGQUIT and passes a
 * signalfd for them; SIGWINCH must be blocked in the sampler thread (block
 * it before session_start) and is unblocked here for curses' own handler.
 */
#ifndef PMUTOP_UI_H
#define PMUTOP_UI_H

#include "frontend.h"
#include "view.h"

struct run_cmd;
struct marks;
struct record;
struct record_about;
struct player;
struct viewer;
struct serve;

struct ui_config {
	struct view_info info;
	const char *rc_path;   /* settings file to load and save, or NULL */
	const char *rc_warning; /* why there is none, for the message line, or NULL */
	bool groups_given;     /* -g given: the rc file's groups do not apply */
	bool interval_given;   /* -d given: nor its interval */
	int pane;              /* --pane: the lower pane to open on (its registry place), 0: none */
	double interval;
	struct run_cmd *cmd;   /* the command run under pmutop (run.h), or NULL */
	bool *cmd_left;        /* set when the user quit leaving it running (else it is stopped) */
	bool cmd_on_host;      /* it runs on the counted machine: its CPUs are highlighted */
	const char *cmd_log;   /* the file its output goes to, or NULL */
	struct marks *marks;   /* phase marks (marks.h), or NULL */
	struct record **rec;   /* the recording (record.h): *rec NULL when none; R opens and closes */
	struct record_about *rec_about; /* what a recording started with R says about the run */
	struct player *player; /* --replay: the recording shown instead of a session (player.h) */
	struct viewer *viewer; /* another pmutop's run shown instead of a session (viewer.h) */
	struct serve *srv;     /* each sample goes to the server too (serve.h), or NULL */
	bool who_always;       /* the who figures are read whatever pane shows (--who, --who-procs) */
	bool who_topdown;      /* --who-topdown: the top-down level 1 per cgroup from the start */
	bool drill;            /* --drill: the level under the bottleneck counted (D) from the start */
};

/*
 * Run until q/F10 or a stop signal on session S (counters, or the OS's
 * figures: session_open_os), or with S NULL on C's player or viewer (a
 * viewer's end ends the screen too, with why in ERR).  Returns the exit status: 0, or
 * 128 + the signal; curses is ended before it returns, also on errors
 * (then ERR holds the message to print).
 */
int ui_run(struct session *s, const struct ui_config *c, int sigfd, char *err, size_t errlen);

/*
 * From a fatal-signal handler: put the terminal back (saved modes, main
 * screen, cursor) with async-signal-safe calls only; nothing when the UI
 * is not running.
 */
void ui_emergency_restore(void);

/* Colour pairs (or monochrome attributes) for the grid styles; after curses started. */
void ui_init_styles(void);

/* Copy G to curses' screen and update the terminal with one doupdate. */
void ui_blit(const struct grid *g);

#endif
