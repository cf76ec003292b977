/*
 * view: what the interactive screen shows, as state plus a pure renderer.
 *
 * struct view holds the user's choices (focused pane, heatmap metric,
 * aggregation, sort, filter, zoom, selection, overlays); view_key() turns
 * a key into a new state and, when the backend must act, a command;
 * view_render() draws a sample into a grid.  Nothing here knows curses or
 * the sampler, so the screen is testable without a terminal (--dump and
 * the golden tests use exactly this renderer).  UI thread only.
 */
#ifndef PMUTOP_VIEW_H
#define PMUTOP_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "grid.h"
#include "frontend.h"

/* A key's message shows this long, then the warning it covered is back. */
#define VIEW_STATUS_S 4.0

#define VIEW_MIN_W 80
#define VIEW_MIN_H 24

/*
 * A pane is its place in the registry (panes_registry, tui/screen/panes.c).
 * The screen names two places: the topology on top and the thread table
 * under it by default (F3's find and the column headers lead there); every
 * other pane is known by its place alone, and knows itself as the one the
 * frame is drawing (view_frame.drawing).
 */
enum { VIEW_PANE_TOPO, VIEW_PANE_TABLE };
/* How many panes the registry holds. */
extern const int view_npanes;
/* Aggregation of the table (the first three); a hit's entity can also be a memory channel. */
enum view_agg { VIEW_AGG_THREAD, VIEW_AGG_CORE, VIEW_AGG_SOCKET, VIEW_AGG_CHANNEL };

/*
 * The pane called NAME, or -1.  Names are the registry's (tui/panes/pane.h):
 * the one list --pane, the settings file, the help screen and the man page
 * use (a test holds the man page to it); "table", the settings files' old
 * name, is "threads".
 */
int view_pane_find(const char *name);

/* Whether pane P shows who uses the machine (the who collector runs while it is the lower pane). */
bool view_pane_who(int p);

/* "threads, ports, uncore, imc or cycles": the panes that can be shown under the topology. */
const char *view_lower_pane_list(void);
enum view_overlay { VIEW_OVERLAY_NONE, VIEW_OVERLAY_HELP, VIEW_OVERLAY_EXPLAIN,
		    VIEW_OVERLAY_DOCTOR, VIEW_OVERLAY_COLUMNS, VIEW_OVERLAY_MESSAGES };
enum view_prompt { VIEW_PROMPT_NONE, VIEW_PROMPT_FILTER, VIEW_PROMPT_PID, VIEW_PROMPT_FIND,
		   VIEW_PROMPT_SORT, VIEW_PROMPT_GOTO, VIEW_PROMPT_QUIT, VIEW_PROMPT_WHO };

/* Keys that are not characters (the front end maps its own codes to these). */
enum view_key {
	VIEW_KEY_UP = 0x110000, VIEW_KEY_DOWN, VIEW_KEY_LEFT, VIEW_KEY_RIGHT, VIEW_KEY_PGUP,
	VIEW_KEY_PGDN, VIEW_KEY_HOME, VIEW_KEY_END, VIEW_KEY_TAB, VIEW_KEY_BTAB, VIEW_KEY_ENTER,
	VIEW_KEY_ESC, VIEW_KEY_BACKSPACE, VIEW_KEY_F1, VIEW_KEY_F10, VIEW_KEY_F3, VIEW_KEY_F4,
	VIEW_KEY_F6, VIEW_KEY_F2,
};

/* What view_key asks of the caller. */
enum view_cmd {
	VIEW_CMD_NONE,
	VIEW_CMD_REDRAW,   /* only the screen changed */
	VIEW_CMD_GROUPS,   /* v->groups changed: tell the sampler */
	VIEW_CMD_INTERVAL, /* v->interval changed */
	VIEW_CMD_PAUSE,    /* v->paused changed */
	VIEW_CMD_PID,      /* v->pid changed: find where its threads ran */
	VIEW_CMD_QUIT,
	VIEW_CMD_QUIT_LEAVE, /* quit, leaving the command run under pmutop running */
	VIEW_CMD_RECORD,   /* R: start or stop recording */
	VIEW_CMD_STEP_BACK, VIEW_CMD_STEP_FWD, /* replay: , and . */
	VIEW_CMD_SLOWER, VIEW_CMD_FASTER,      /* replay: [ and ] */
	VIEW_CMD_GOTO,     /* replay: g, then a time in v->input */
};

/* Facts that do not change during a run. */
struct view_info {
	const char *host;
	const char *brand;
	const char *uarch;
	const char *source;       /* "msr", "SIMULATED nehalem-ep:memory-bound", ... */
	bool simulated;
	const struct layout *layout;
	const struct topo *topo;
	unsigned gp_counters;     /* per thread, as CPUID reports */
	unsigned perfmon_version; /* for the PERFEVTSEL values the explain overlay shows */
	bool count_user, count_kernel;
	const char *doctor;       /* the setup doctor's lines, or NULL */
	bool utf8;                /* box and bar glyphs from Unicode, else ASCII */
	bool replay;              /* a recording is shown: , . [ ] g move in time, groups are as recorded */
	bool viewer;              /* another pmutop's run is shown (viewer.h): read-only */
	const bool *unmodelled;   /* per layout event: the emulated machine counts it 0; NULL */
	const char *no_tree;      /* why the platform has no top-down tree (its vendor's), or NULL */
};

struct view_hit;
struct history;

/* Messages kept for the messages window (L): the newest, up to this many. */
#define VIEW_LOG_N 64

struct view_log_entry {
	time_t t;                 /* wall clock */
	char text[320];
};

struct view {
	struct view_info info;
	int focus;                /* the pane the arrows act on (its registry place) */
	int lower;                /* the pane shown under the topology */
	int heat_metric;          /* layout metric shown in the topology cells */
	enum view_agg agg;
	int sort_metric;          /* layout metric the table is sorted by; -1: topology order */
	bool sort_rev;
	bool sort_kind;           /* a hybrid: rows grouped by kind of core first (F6 kind) */
	int sel;                  /* selected row of the table / cell of the topology (position) */
	int scroll;
	int hcol;                 /* first metric column the table shows; -1: the sort column's */
	int col_metric;           /* the table's column cursor (a layout metric), -1: the first */
	int hoff;                 /* a pane wider than the screen: the first column shown */
	int zoom_socket;          /* topo socket index, or -1 for the whole machine */
	bool topo_fold;           /* the topology folded to a line per socket (O), the pane under it taller */
	bool paused;
	double interval;
	layout_groups groups;
	bool drill;               /* D, --drill: the level under the bottleneck counted by itself */
	layout_groups drilled;         /* the groups drill turned on (it turns them off again) */
	enum view_overlay overlay;
	enum view_prompt prompt;
	char input[64];           /* the prompt's text */
	char filter[64];          /* CPU filter as typed, "" for none */
	bool *cpu_shown;          /* by OS CPU number; NULL: all */
	int pid;                  /* highlighted process, 0 for none */
	int find_cpu, find_core;  /* F3: select this OS CPU / core id in the table (-1: none) */
	bool *col_hidden;         /* by layout metric: left out of the table (F2, setting "hide") */
	/*
	 * The settings file being read was written under another layout (its
	 * "layout" line): its groups, heat, sort and hide name that layout's
	 * groups and metrics, and are left at this one's defaults.
	 */
	bool rc_other_layout;
	void **pane_state;        /* by pane: its own state (struct pane's state_new), or NULL */
	bool who_td;              /* the who collector counts the top-down level 1 (T in the who pane) */
	int chooser;              /* F2: the metric under the chooser's cursor */
	bool *pid_cpus;           /* by OS CPU number: where its threads ran; NULL: nowhere known */
	const struct history *hist; /* past samples for the sparklines (history.h), or NULL */
	char run[160];            /* the command run under pmutop: "name (pid N) running 0:12", or "" */
	bool cmd_running;         /* it still runs: q asks before it stops it */
	char mark[128];           /* the last phase mark received, or "" */
	/* the header's second line: a replay's place or a viewer's owner (long and short) */
	char where[200], where_short[80];
	char rec_path[256];       /* the file recorded to, "" when not recording */
	long rec_count;           /* the samples it holds */
	char serving[120];        /* the URL --serve answers on, or "" */
	char status[256];         /* one-line message (errors of the last key) */
	double status_until;      /* monotonic seconds it is shown until (VIEW_STATUS_S after the key) */
	int pop_scroll;           /* first line of the popup's text shown */
	struct view_log_entry log[VIEW_LOG_N]; /* recent messages (view_log), a ring */
	int log_first, log_n;
};

/*
 * What a render produced, for the keys and the mouse: the focused pane's
 * selectable rows and a page of them, the selection and scroll as drawn
 * (kept in range), the places that can be clicked.  The render writes only
 * this, never the view.
 */
struct view_frame {
	int nrows, page;
	int sel, scroll;
	/* the thread table's metric columns: how many, the first shown, how many fit, their metrics */
	int ncols, hcol, shown_cols;
	int *col_ids, col_ids_cap;
	/* a pane wider than the screen: the first column shown, the last it may be (0: it fits) */
	int hoff, hmax;
	bool found;               /* the F3 target was selected (the view forgets it) */
	/* the popup's text: its wrapped lines, how many fit, the first shown */
	int pop_lines, pop_page, pop_scroll;
	int col_metric;           /* the metric under the table's column cursor, -1: none */
	bool topo_scrolled;       /* the topology shows only some of its rows (they scroll) */
	int tree_path[16];        /* the tree pane's bottleneck of its first column, from level 1 */
	/* the who pane's selected row: its id (0 none), whether it has children, its parent's row */
	uint64_t who_sel;
	bool who_kids;
	int who_parent_pos;
	int who_ntd;              /* the who sample's top-down columns (its level-1 metrics), 0 none */
	int tree_npath;
	int drawing;              /* the registry place of the pane being drawn: its hits' and scroll's */
	struct view_hit *hits;
	int nhits, hits_cap;
};

/* A clickable place of the last render: a cell or row, a pane's tab, a column header. */
enum view_hit_what { VIEW_HIT_CELL, VIEW_HIT_TAB, VIEW_HIT_HEADER };

struct view_hit {
	enum view_hit_what what;
	int metric;               /* a header's column, or the metric a cell or row explains; -1 */
	int y, x, w;
	int pane;                 /* its pane's registry place */
	int pos;                  /* table row / topology cell */
	int socket;               /* topo socket index */
	enum view_agg kind;       /* what ENTITY indexes: the sample's threads, cores, sockets or channels */
	int entity;               /* -1: none */
};

void view_init(struct view *v, const struct view_info *info, layout_groups groups, double interval);

/*
 * MSG goes to the recent messages (L shows them in full) unless it is
 * there already; one line each (a multi-line text gives one per line).
 */
void view_log(struct view *v, const char *msg);
void view_free(struct view *v);

/* Apply KEY (a character or a VIEW_KEY_*) to what frame F (the last render) shows. */
/* Whether metric M can be a column of the thread table (the F2 chooser lists those). */
bool view_column_choosable(const struct view *v, int m);

/* Monotonic seconds (for how long a key's message stays on the message line). */
double view_now(void);

enum view_cmd view_key(struct view *v, const struct view_frame *f, int key);

/*
 * Drill (D, --drill) after sample S: the key of the level under each
 * socket's bottleneck turned on, the ones drill turned on that the path no
 * longer needs off.  VIEW_CMD_GROUPS when v->groups changed.
 */
enum view_cmd view_drill(struct view *v, const struct sample *s);

/* Select the table row or topology cell at screen (Y, X) of frame F; true when it did. */
bool view_click(struct view *v, const struct view_frame *f, int y, int x);

/* The selection moved by DELTA rows, kept within the frame's rows (the panes' own keys use it). */
void view_move(struct view *v, const struct view_frame *f, int delta);

void view_frame_free(struct view_frame *f);

/*
 * Draw S (NULL before the first sample) into G; AGE_S is how old S is.
 * Below VIEW_MIN_W x VIEW_MIN_H it draws only a message saying so.
 */
void view_render(const struct view *v, const struct sample *s, double age_s, struct grid *g,
		 struct view_frame *f);

/* Settings as "key value" lines (for the rc file), and back. */
int view_settings_format(const struct view *v, char *buf, size_t len);
/* One setting; -EINVAL with the reason in ERR for a bad key or value. */
int view_setting_apply(struct view *v, const char *key, const char *value, char *err, size_t errlen);

#endif
