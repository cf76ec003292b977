/*
 * pane: one pane of the interactive screen, and what the panes share.
 *
 * A pane is a const struct pane in its own file under tui/panes/: its name
 * (the one --pane, the settings file, the help screen and the man page use),
 * its tab title, its help line, its draw function, and what it owns beside
 * them (htop's MeterClass is the model): its keys while it has the focus
 * (the screen offers it every key first), its explain text, a key that
 * brings it to the front, whether it needs the who collector.  The registry
 * (PANES_ALL in panes.c, made into panes_registry) is the only list of
 * panes, and a pane's place in it is its number; adding one is a file with
 * its struct and a line in the registry (its Makefile.am source line
 * aside).  Drawing takes the view, a sample (never NULL: the frame says
 * "no sample yet" itself) and a band of rows of the grid, and writes what
 * the keys and the mouse need into the frame, never into the view: the
 * selectable rows, a page of them, the selection and scroll kept in range
 * (when it has the focus), and what can be clicked (pane_hit).  UI thread.
 */
#ifndef PMUTOP_PANE_H
#define PMUTOP_PANE_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "grid.h"
#include "panes.h"
#include "view.h"

struct pane {
	const char *name;  /* "threads" */
	const char *title; /* "Threads", on its tab */
	const char *help;  /* what it shows, one line */
	/* Draw into rows [Y, Y + H) of G; returns the rows used. */
	int (*draw)(const struct view *v, const struct sample *s, int y, int h, struct grid *g,
		    struct view_frame *f);
	/*
	 * The columns its content takes, names and columns whole (NULL: it fits
	 * any width), the first *FIXED of them its row labels: wider than the
	 * screen, the frame draws it into a wider grid and shows the labels and
	 * a window of the rest that Left and Right move.
	 */
	int (*width)(const struct view *v, const struct sample *s, int *fixed);
	/*
	 * Its own keys while it has the focus, before the screen's (NULL:
	 * none): true when KEY was one of them (the screen changed).
	 */
	bool (*key)(struct view *v, const struct view_frame *f, int key);
	/* Explain's text (e) for its selected row while it has the focus (the caller frees), or NULL. */
	char *(*explain)(const struct view *v, const struct sample *s);
	/* A key of the screen that brings it to the front from anywhere (0: none). */
	int hotkey;
	/* It shows who uses the machine: the who collector runs while it is the lower pane. */
	bool who;
	/*
	 * Its own state, kept in the view from one frame and key to the next
	 * (the who pane's sort, filter and closed branches; the tree's open
	 * nodes): made by state_new when the view is (NULL: it has none), freed
	 * by state_free (NULL: free); pane_state gives it.
	 */
	void *(*state_new)(const struct view *v);
	void (*state_free)(void *state);
	/*
	 * The rows it wants under the topology while it is the lower pane (0:
	 * the screen's least, 8): the topology draws in what is left, folding
	 * to a line per socket on a small screen (the who pane's list, the
	 * tree's nodes, the memory table's channels).
	 */
	int rows;
};

/* The who pane (who_pane.c): a row's id for the view's closed set (its cgroup path, or PID). */
uint64_t who_pane_id(const char *path, int pid);
/* The who row selected (an index into s->who->rows) while the who pane shows, else -1. */
int who_pane_selected(const struct view *v, const struct sample *s);
/* Whether the who pane has the focus. */
bool who_pane_focused(const struct view *v);
/* The who pane's filter (/ there): the rows whose name, path or PID holds TEXT ("": all). */
void who_pane_set_filter(struct view *v, const char *text);

/* ---- the top-down tree as the tree pane and the bottleneck line read it (tree_path.c) ---- */
/* The vendor's name of a node (a layout name cannot start with a digit: "_4K_Aliasing"). */
const char *tree_node_name(const char *name);
/*
 * The kind of core whose tree is shown: on a hybrid, that of the first CPU
 * shown (the CPU filter, / E, picks the E-cores'); else every kind.
 */
unsigned tree_shown_kind(const struct view *v);
/* Whether metric M is a node of the tree of KIND's cores. */
bool tree_node_of(const struct layout *l, int m, unsigned kind);
/* The children of node M (-1: the roots), in the vendor's order, into OUT; their count. */
int tree_children(const struct layout *l, int m, int *out, unsigned kind);
/*
 * The bottleneck of a tree in VARS (an entity's), as toplev follows it: from
 * the roots down, the flagged node with the largest value at each level;
 * the path into PATH (at most MAX), its length.
 */
int tree_bottleneck(const struct layout *l, const double *vars, int *path, int max, unsigned kind);
/*
 * The bottleneck line of sample S (NULL: none yet) into BUF: each socket's
 * path (the sockets with one path together), the figure of its deepest
 * node, and what the level under it needs; then SEL's (a thread or core the
 * user selected, NULL none) or the who pane's selected row's, from
 * *SEL_AT (NULL: not wanted; the line's length when there is none).
 * false: no tree here, no line.
 */
bool bneck_line(const struct view *v, const struct sample *s, const struct sample_entity *sel,
		char *buf, size_t len, size_t *sel_at);
/*
 * The entity of the focused pane's selected row or cell (its last draw's
 * hits in F), else the first thread; its metric into *METRIC.
 */
const struct sample_entity *pane_selected(const struct view *v, const struct sample *s,
					  const struct view_frame *f, int *metric);
/* Whether the focused pane's last draw (F) placed a selected row or cell of an entity. */
bool pane_has_selection(const struct view *v, const struct view_frame *f);
/* (drill, D: view_drill in view.h, beside bneck_line in tree_path.c) */

/*
 * The per-socket figures, shared by the uncore pane and the IMC pane (IMC:
 * the memory controllers' groups, else the rest of the uncore's): the width
 * the pane wants (FIXED: its columns that do not scroll) and its drawing.
 */
int uncore_pane_width_any(const struct view *v, const struct sample *s, bool imc, int *fixed);
int uncore_pane_draw_any(const struct view *v, const struct sample *s, int y, int h,
			 struct grid *g, struct view_frame *f, bool imc);

/* Every pane, by its place (view.h): the topology first, the thread table second. */
extern const struct pane *const panes_registry[];

/* ---- shared by the panes (pane.c) ---- */

/*
 * Metric M's figure for sample thread I: the thread's, or its core's for a
 * metric computed per core (a tree node the vendor resolves per core): the
 * heatmap colours every thread of the core by it.
 */
double pane_thread_value(const struct sample *s, int i, int m);

/* Value text of metric M with the scaled mark '*'. */
void pane_value(const struct sample *s, int m, double value, char *buf, size_t len);

/* pane_value in at most WIDTH columns: decimals dropped first (the number stays whole). */
void pane_value_fit(const struct sample *s, int m, double value, int width, char *buf, size_t len);

/* The warn/crit thresholds the layout gives metric M (NaN when none). */
void pane_thresholds(const struct layout *l, int m, double *warn, double *crit);

/*
 * Heat style of VALUE for metric M; MAX is the largest value shown.  Yellow
 * and red only at the layout's warn and crit thresholds (more is worse);
 * metrics without thresholds only shade.
 */
enum grid_style pane_heat(const struct layout *l, int m, double value, double max);

/* The heatmap's legend for metric M: name, unit, what the colours mean. */
void pane_heat_legend(const struct layout *l, int m, char *buf, size_t len);

/*
 * A value cell of W columns at (Y, X), TEXT right-aligned in style ST; the
 * selected one in the cursor's own style with brackets in the columns
 * either side of it (X - 1 and X + W), whatever the heat colours (and
 * under NO_COLOR): a crit cell never hides it, a warn cell never looks
 * like it.
 */
void pane_cell(struct grid *g, int y, int x, int w, enum grid_style st, const char *text,
	       bool selected);

/*
 * A line made of parts in order (the header's, a socket's summary), each
 * with a long and a short form (NULL: none); a part marked MUST keeps room
 * for its short form however the parts before it are written, so that the
 * parts that say what is shown (the command, a replay's place, a viewer's
 * owner, a recording) are the last ones dropped.  Whole parts only: what
 * does not fit is left out, never cut.
 */
struct pane_part {
	const char *lng, *shrt;
	bool must;
};

/* The parts P[0..N) into LINE (LEN bytes) in at most WIDTH columns, as above. */
void pane_parts(const struct pane_part *p, int n, int width, char *line, size_t len);

/*
 * Record a clickable place of this render, the pane being drawn's (for the
 * keys, the mouse and explain): its row or cell POS, of ENTITY of KIND.
 */
void pane_hit(struct view_frame *f, int y, int x, int w, int pos, int socket, enum view_agg kind,
	      int entity);

/* Whether the pane being drawn (F's) has the focus. */
bool pane_focused(const struct view *v, const struct view_frame *f);

/* Pane P's own state in view V (its state_new's), or NULL. */
void *pane_state(const struct view *v, const struct pane *p);

/*
 * The pane being drawn, with NROWS selectable rows, ROWS of them on screen:
 * when it has the focus, keep the selection in range and in sight (the
 * frame's sel, scroll, nrows, page); returns the first row shown (0 without
 * the focus).
 */
int pane_scroll(const struct view *v, struct view_frame *f, int nrows, int rows);

/* A pane's tab (a click switches to pane PANE), a table column's header (a click sorts by it). */
void pane_hit_tab(struct view_frame *f, int y, int x, int w, int pane);
void pane_hit_header(struct view_frame *f, int y, int x, int w, int metric);

/* The kind of core (LAYOUT_CORES_*) of topology core CORE: a hybrid's E-cores (IntelAtom), P-cores; ANY uniform. */
unsigned pane_core_kind(const struct topo *t, int core);

/* The kinds of core among the CPUs V shows (bit LAYOUT_CORES_*), 0 on a CPU of one kind. */
unsigned pane_kinds_shown(const struct view *v);

/* Whether OS CPU passes the CPU filter, and whether the highlighted PID ran on it. */
bool pane_cpu_shown(const struct view *v, int os_cpu);
bool pane_pid_ran(const struct view *v, int os_cpu);
/* The CPUs the who pane's selected row may run on (by OS CPU number; caller frees), or NULL. */
bool *pane_who_cpus(const struct view *v, const struct sample *s);

/*
 * The entities of the aggregation (threads, cores or sockets) that the CPU
 * filter and the zoom leave, as indices into *ENTS, into *OUT (caller frees);
 * returns how many.
 */
int pane_entity_rows(const struct view *v, const struct sample *s, int **out,
		     const struct sample_entity **ents);

/* Sample thread index of every topo thread (-1: offline or no sample).  Caller frees. */
int *pane_thread_map(const struct sample *s, const struct topo *t);

/* "socket 1" or "socket 1 channel 2": where flag F is. */
void pane_flag_where(const struct sample *s, const struct sample_flag *f, char *buf, size_t len);

/* Keys of the groups that hold any of the metrics whose names start with PREFIX. */
void pane_group_keys(const struct layout *l, const char *prefix, char *buf, size_t len);

#endif
