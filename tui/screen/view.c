/*
 * view: the screen's state and what each key does to it; drawing is in
 * panes.c.  See view.h.
 */
#include "view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend.h"
#include "panes.h"
#include "pane.h"
#include "view_int.h"

void view_init(struct view *v, const struct view_info *info, layout_groups groups, double interval)
{
	memset(v, 0, sizeof(*v));
	v->info = *info;
	v->focus = VIEW_PANE_TOPO;
	v->lower = VIEW_PANE_TABLE;
	v->heat_metric = layout_metric_find(info->layout, "util");
	if (v->heat_metric < 0)
		v->heat_metric = 0;
	v->sort_metric = -1;
	v->zoom_socket = -1;
	v->find_cpu = v->find_core = -1;
	v->col_metric = -1;
	v->col_hidden = xcalloc((size_t)info->layout->nmetrics + 1, sizeof(bool));
	view_hide_same(v);
	v->groups = groups;
	v->interval = interval;
	v->pane_state = xcalloc((size_t)view_npanes, sizeof(*v->pane_state));
	for (int p = 0; p < view_npanes; p++)
		if (panes_registry[p]->state_new)
			v->pane_state[p] = panes_registry[p]->state_new(v);
}

void view_free(struct view *v)
{
	free(v->cpu_shown);
	free(v->pid_cpus);
	free(v->col_hidden);
	for (int p = 0; p < view_npanes && v->pane_state; p++)
		if (panes_registry[p]->state_free)
			panes_registry[p]->state_free(v->pane_state[p]);
		else
			free(v->pane_state[p]);
	free(v->pane_state);
	v->pane_state = NULL;
	v->cpu_shown = v->pid_cpus = NULL;
	v->col_hidden = NULL;
}

bool view_column_choosable(const struct view *v, int m)
{
	return v->info.layout->metrics[m].scope != LAYOUT_CHANNEL;
}

/* F2, the column chooser: Up and Down move, Space or Enter show / hide, Esc or F2 close. */
static enum view_cmd view_chooser_key(struct view *v, int key)
{
	const struct layout *l = v->info.layout;
	int dir = key == VIEW_KEY_UP ? -1 : key == VIEW_KEY_DOWN ? 1 : 0;

	if (key == VIEW_KEY_ESC || key == VIEW_KEY_F2 || key == 'q') {
		v->overlay = VIEW_OVERLAY_NONE;
		return VIEW_CMD_REDRAW;
	}
	if (key == ' ' || key == VIEW_KEY_ENTER || key == '\n' || key == '\r') {
		v->col_hidden[v->chooser] = !v->col_hidden[v->chooser];
		if (v->col_hidden[v->chooser] && v->sort_metric == v->chooser)
			v->sort_metric = -1; /* no sorting by a column out of the table */
		return VIEW_CMD_REDRAW;
	}
	for (int i = 0; dir && i < l->nmetrics; i++) {
		int m = v->chooser + dir * (i + 1);

		if (m < 0 || m >= l->nmetrics)
			break;
		if (view_column_choosable(v, m)) {
			v->chooser = m;
			break;
		}
	}
	return VIEW_CMD_REDRAW;
}

void view_frame_free(struct view_frame *f)
{
	free(f->col_ids);
	f->col_ids = NULL;
	f->col_ids_cap = 0;
	free(f->hits);
	*f = (struct view_frame){ 0 };
}

/*
 * The next metric after M in direction DIR (wrapping) computed per thread or
 * per core (a core's figure colours its threads) whose group is on
 * (GROUPS), or M.
 */
static int view_next_thread_metric(const struct layout *l, layout_groups groups, int m, int dir)
{
	for (int i = 1; i <= l->nmetrics; i++) {
		int k = ((m + dir * i) % l->nmetrics + l->nmetrics) % l->nmetrics;
		int g = l->metrics[k].group;

		if (l->metrics[k].scope <= LAYOUT_CORE && !l->metrics[k].na &&
		    (g < 0 || (groups & LAYOUT_GROUP(g))))
			return k;
	}
	return m;
}

void view_move(struct view *v, const struct view_frame *f, int delta)
{
	v->sel += delta;
	if (v->sel >= f->nrows)
		v->sel = f->nrows - 1;
	if (v->sel < 0)
		v->sel = 0;
}

/* Toggle the group bound to KEY; false when no group has that key. */
static bool view_toggle_group(struct view *v, int key)
{
	const struct layout *l = v->info.layout;

	for (int g = 0; g < l->ngroups; g++)
		if (l->groups[g].key == key) {
			/* the groups of one key take turns counting one set of metrics: all or none */
			layout_groups set = layout_key_groups(l, g);

			v->groups = (v->groups & set) ? v->groups & ~set : v->groups | set;
			return true;
		}
	return false;
}

/* The next interval on the ladder in direction DIR; VIEW_CMD_NONE at its end. */
static enum view_cmd view_interval_step(struct view *v, int dir)
{
	/* from ENGINE_INTERVAL_MIN to ENGINE_INTERVAL_MAX (engine_set_interval clamps too) */
	static const double steps[] = { ENGINE_INTERVAL_MIN, 0.2, 0.5, 1, 2, 5, 10, 20, 30,
					ENGINE_INTERVAL_MAX };
	int n = (int)(sizeof(steps) / sizeof(steps[0])), i;

	if (dir < 0) {
		for (i = n - 1; i > 0 && steps[i] >= v->interval - 1e-9; i--)
			;
	} else {
		for (i = 0; i < n - 1 && steps[i] <= v->interval + 1e-9; i++)
			;
	}
	if (steps[i] == v->interval)
		return VIEW_CMD_NONE;
	v->interval = steps[i];
	return VIEW_CMD_INTERVAL;
}

/* The next sort column in direction DIR: -1 (topology order), then every thread metric. */
/* The next sort column in direction DIR: thread metrics of groups that are on, or none (-1). */
static void view_sort_step(struct view *v, int dir)
{
	const struct layout *l = v->info.layout;
	int m = v->sort_metric;

	for (int i = 0; i <= l->nmetrics; i++) {
		m += dir;
		if (m >= l->nmetrics)
			m = -1;
		if (m < -1)
			m = l->nmetrics - 1;
		if (m == -1 || (l->metrics[m].scope == LAYOUT_THREAD &&
				(l->metrics[m].group < 0 || (v->groups & LAYOUT_GROUP(l->metrics[m].group)))))
			break;
	}
	v->sort_metric = m;
	v->hcol = -1; /* the table scrolls to it */
	if (m >= 0)
		v->col_metric = m;
}

/* Columns a key scrolls a pane wider than the screen by. */
#define VIEW_HSTEP 10

/* Left and Right: a pane wider than the screen scrolls sideways.  False when it is not. */
static bool view_hscroll(struct view *v, const struct view_frame *f, int dir)
{
	if (f->hmax <= 0)
		return false;
	v->hoff = f->hoff + dir * VIEW_HSTEP;
	if (v->hoff < 0)
		v->hoff = 0;
	if (v->hoff > f->hmax)
		v->hoff = f->hmax;
	return true;
}

/* Panes, selection, zoom: true when KEY was one of them (the screen changed). */
static bool view_navigate(struct view *v, const struct view_frame *f, int key)
{
	switch (key) {
	case VIEW_KEY_TAB:
	case VIEW_KEY_BTAB: {
		int next = (int)v->focus + (key == VIEW_KEY_TAB ? 1 : view_npanes - 1);

		v->focus = (next % view_npanes);
		if (v->focus != VIEW_PANE_TOPO)
			v->lower = v->focus;
		v->sel = v->scroll = 0;
		v->hcol = 0; /* each pane's columns start from the first */
		v->hoff = 0;
		return true;
	}
	case VIEW_KEY_UP:
	case VIEW_KEY_DOWN:
		view_move(v, f, key == VIEW_KEY_UP ? -1 : 1);
		return true;
	case VIEW_KEY_LEFT:
		/* a pane wider than the screen scrolls sideways */
		if (!view_hscroll(v, f, -1))
			view_move(v, f, -f->page);
		return true;
	case VIEW_KEY_RIGHT:
		if (!view_hscroll(v, f, 1))
			view_move(v, f, f->page);
		return true;
	case VIEW_KEY_PGUP:
		view_move(v, f, -(f->page > 1 ? f->page : 1));
		return true;
	case VIEW_KEY_PGDN:
		view_move(v, f, f->page > 1 ? f->page : 1);
		return true;
	case VIEW_KEY_HOME:
		v->sel = 0;
		return true;
	case VIEW_KEY_END:
		v->sel = f->nrows > 0 ? f->nrows - 1 : 0;
		return true;
	case VIEW_KEY_ESC:
		v->zoom_socket = -1;
		return true;
	default:
		return false;
	}
}

static enum view_cmd view_key_inner(struct view *v, const struct view_frame *f, int key);

/*
 * A key while a text popup is up acts on the popup only: arrows, PgUp/PgDn,
 * Home/End scroll it; Esc, q, F1, F10 and the popup's own key close it
 * (htop's way); anything else does nothing.
 */
static enum view_cmd view_popup_key(struct view *v, const struct view_frame *f, int key)
{
	int last = f->pop_lines - f->pop_page, page = f->pop_page > 1 ? f->pop_page - 1 : 1;
	int own = v->overlay == VIEW_OVERLAY_HELP ? 'h' : v->overlay == VIEW_OVERLAY_EXPLAIN ? 'e'
		  : v->overlay == VIEW_OVERLAY_DOCTOR ? 'd' : 'L';

	v->pop_scroll = f->pop_scroll;
	switch (key) {
	case VIEW_KEY_UP:
		v->pop_scroll--;
		break;
	case VIEW_KEY_DOWN:
		v->pop_scroll++;
		break;
	case VIEW_KEY_PGUP:
		v->pop_scroll -= page;
		break;
	case VIEW_KEY_PGDN:
	case ' ':
		v->pop_scroll += page;
		break;
	case VIEW_KEY_HOME:
		v->pop_scroll = 0;
		break;
	case VIEW_KEY_END:
		v->pop_scroll = last;
		break;
	case VIEW_KEY_ESC:
	case 'q':
	case VIEW_KEY_F1:
	case VIEW_KEY_F10:
		v->overlay = VIEW_OVERLAY_NONE;
		break;
	default:
		if (key == own || (own == 'h' && key == '?'))
			v->overlay = VIEW_OVERLAY_NONE;
		else
			return VIEW_CMD_NONE;
	}
	if (v->pop_scroll > last)
		v->pop_scroll = last;
	if (v->pop_scroll < 0)
		v->pop_scroll = 0;
	if (!v->overlay)
		v->pop_scroll = 0;
	return VIEW_CMD_REDRAW;
}

void view_log(struct view *v, const char *msg)
{
	for (const char *p = msg; p && *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		bool seen = false;

		/* a warning repeated by every sample is listed once */
		for (int i = 0; i < v->log_n && !seen; i++) {
			const char *t = v->log[(v->log_first + i) % VIEW_LOG_N].text;

			seen = (int)strlen(t) == len && !strncmp(t, p, (size_t)len);
		}
		if (len && !seen) {
			struct view_log_entry *e;

			if (v->log_n == VIEW_LOG_N)
				v->log_first = (v->log_first + 1) % VIEW_LOG_N;
			else
				v->log_n++;
			e = &v->log[(v->log_first + v->log_n - 1) % VIEW_LOG_N];
			e->t = time(NULL);
			snprintf(e->text, sizeof(e->text), "%.*s", len, p);
		}
		p = nl ? nl + 1 : NULL;
	}
}

/* Monotonic seconds, for how long a key's message stays. */
double view_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum view_cmd view_key(struct view *v, const struct view_frame *f, int key)
{
	enum view_cmd cmd = view_key_inner(v, f, key);

	v->status_until = v->status[0] ? view_now() + VIEW_STATUS_S : 0;
	view_log(v, v->status);
	return cmd;
}

static enum view_cmd view_key_inner(struct view *v, const struct view_frame *f, int key)
{
	const struct layout *l = v->info.layout;

	/* what was drawn: the selection and scroll the render kept in range */
	v->sel = f->sel;
	v->scroll = f->scroll;
	if (v->focus == VIEW_PANE_TABLE && v->hcol >= 0)
		v->hcol = f->hcol;
	if (f->found)
		v->find_cpu = v->find_core = -1; /* selected: from now on the selection moves freely */
	if (v->prompt)
		return view_prompt_key(v, key);
	if (v->overlay == VIEW_OVERLAY_COLUMNS)
		return view_chooser_key(v, key);
	if (v->overlay)
		return view_popup_key(v, f, key);
	v->status[0] = 0;
	if (v->info.replay) {
		/* in time: keys that no table uses (the arrows stay with the tables) */
		switch (key) {
		case ',':
			return VIEW_CMD_STEP_BACK;
		case '.':
			return VIEW_CMD_STEP_FWD;
		case '[':
			return VIEW_CMD_SLOWER;
		case ']':
			return VIEW_CMD_FASTER;
		case 'g':
			v->prompt = VIEW_PROMPT_GOTO;
			v->input[0] = 0;
			return VIEW_CMD_REDRAW;
		}
	}
	/* the pane with the focus takes its own keys first (the who pane's sort and filter) */
	if (panes_registry[v->focus]->key && panes_registry[v->focus]->key(v, f, key))
		return VIEW_CMD_REDRAW;
	/* a pane's key that brings it to the front (W: who) */
	for (int p = 0; p < view_npanes; p++)
		if (panes_registry[p]->hotkey && key == panes_registry[p]->hotkey) {
			v->focus = v->lower = p;
			v->sel = v->scroll = 0;
			v->hoff = 0;
			return VIEW_CMD_REDRAW;
		}
	switch (key) {
	case 'q':
	case VIEW_KEY_F10:
		if (v->cmd_running) {
			/* a benchmark is never stopped without asking */
			v->prompt = VIEW_PROMPT_QUIT;
			return VIEW_CMD_REDRAW;
		}
		return VIEW_CMD_QUIT;
	case 'h':
	case '?':
	case VIEW_KEY_F1:
		v->overlay = VIEW_OVERLAY_HELP;
		v->pop_scroll = 0;
		return VIEW_CMD_REDRAW;
	case 'e':
		v->overlay = VIEW_OVERLAY_EXPLAIN;
		v->pop_scroll = 0;
		return VIEW_CMD_REDRAW;
	case 'd':
		v->overlay = VIEW_OVERLAY_DOCTOR;
		return VIEW_CMD_REDRAW;
	case 'O': /* fold the topology to a line per socket: the pane under it gets the rows */
		v->topo_fold = !v->topo_fold;
		snprintf(v->status, sizeof(v->status), v->topo_fold ? "O: the topology folded to a "
			 "line per socket (O unfolds)" : "O: the topology unfolded");
		return VIEW_CMD_REDRAW;
	case 'L':
		v->overlay = VIEW_OVERLAY_MESSAGES;
		return VIEW_CMD_REDRAW;
	case 'D': /* drill: the level under the bottleneck turned on at the next sample */
		v->drill = !v->drill;
		snprintf(v->status, sizeof(v->status), v->drill ? "drill: pmutop turns on the key "
			 "of the level under the bottleneck (D stops)" : "drill off: the keys stay as "
			 "they are");
		return VIEW_CMD_REDRAW;
	case ' ':
		v->paused = !v->paused;
		return VIEW_CMD_PAUSE;
	case '+':
	case '=':
	case '-':
		return view_interval_step(v, key == '-' ? -1 : 1);
	case 'm':
	case 'M':
		/* only the metrics that have figures: those of the groups that are on */
		v->heat_metric = view_next_thread_metric(l, v->groups, v->heat_metric,
							 key == 'm' ? 1 : -1);
		return VIEW_CMD_REDRAW;
	case 'a':
		v->agg = (enum view_agg)((v->agg + 1) % 3);
		v->sel = v->scroll = 0;
		return VIEW_CMD_REDRAW;
	case 's':
	case '>':
	case '<':
		view_sort_step(v, key == '<' ? -1 : 1);
		return VIEW_CMD_REDRAW;
	case 'r':
		v->sort_rev = !v->sort_rev;
		return VIEW_CMD_REDRAW;
	case 'R':
		return VIEW_CMD_RECORD;
	case VIEW_KEY_F2: /* htop's setup: the table's columns */
		v->overlay = VIEW_OVERLAY_COLUMNS;
		if (!view_column_choosable(v, v->chooser))
			v->chooser = 0;
		return VIEW_CMD_REDRAW;
	case VIEW_KEY_F3:
	case VIEW_KEY_F6:
		v->prompt = key == VIEW_KEY_F3 ? VIEW_PROMPT_FIND : VIEW_PROMPT_SORT;
		v->input[0] = 0;
		return VIEW_CMD_REDRAW;
	case VIEW_KEY_F4: /* htop's filter key */
	case '/':
		v->prompt = VIEW_PROMPT_FILTER;
		snprintf(v->input, sizeof(v->input), "%s", v->filter);
		return VIEW_CMD_REDRAW;
	case 'p':
		/* this host's processes do not run on an emulated machine's CPUs */
		if (v->info.simulated) {
			snprintf(v->status, sizeof(v->status), "p: the emulated machine runs none of this "
				 "host's processes; it highlights CPUs only on the real machine");
			return VIEW_CMD_REDRAW;
		}
		v->prompt = VIEW_PROMPT_PID;
		v->input[0] = 0;
		return VIEW_CMD_REDRAW;
	default:
		break;
	}
	if (view_navigate(v, f, key))
		return VIEW_CMD_REDRAW;
	if ((key >= '1' && key <= '9') || (key >= 'a' && key <= 'z')) {
		/* digits and the free lowercase letters are the layout's group keys */
		if (view_toggle_group(v, key))
			return VIEW_CMD_GROUPS;
		snprintf(v->status, sizeof(v->status), "no group on key %c in layout %s", key, l->name);
		return VIEW_CMD_REDRAW;
	}
	return VIEW_CMD_NONE;
}

bool view_click(struct view *v, const struct view_frame *f, int y, int x)
{
	for (int i = 0; i < f->nhits; i++) {
		const struct view_hit *h = &f->hits[i];

		if (h->y != y || x < h->x || x >= h->x + h->w)
			continue;
		if (h->what == VIEW_HIT_TAB) {
			v->focus = v->lower = h->pane;
			v->sel = v->scroll = 0;
			return true;
		}
		if (h->what == VIEW_HIT_HEADER) {
			/* a click on the sort column reverses it, on another sorts by that one */
			v->sort_rev = v->sort_metric == h->metric ? !v->sort_rev : false;
			v->sort_metric = h->metric;
			v->focus = VIEW_PANE_TABLE;
			return true;
		}
		v->focus = h->pane;
		if (h->pane != VIEW_PANE_TOPO)
			v->lower = h->pane;
		v->sel = h->pos;
		return true;
	}
	return false;
}

