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
#include "panes/pane.h"

void view_init(struct view *v, const struct view_info *info, uint32_t groups, double interval)
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
	v->col_hidden = xcalloc((size_t)info->layout->nmetrics + 1, sizeof(bool));
	v->groups = groups;
	v->interval = interval;
}

void view_free(struct view *v)
{
	free(v->cpu_shown);
	free(v->pid_cpus);
	free(v->col_hidden);
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
	free(f->hits);
	*f = (struct view_frame){ 0 };
}

/* The next thread-scope metric after M in direction DIR (wrapping). */
/* The next thread metric after M in direction DIR whose group is on (GROUPS), or M. */
static int view_next_thread_metric(const struct layout *l, uint32_t groups, int m, int dir)
{
	for (int i = 1; i <= l->nmetrics; i++) {
		int k = ((m + dir * i) % l->nmetrics + l->nmetrics) % l->nmetrics;
		int g = l->metrics[k].group;

		if (l->metrics[k].scope == LAYOUT_THREAD && (g < 0 || (groups & (1u << g))))
			return k;
	}
	return m;
}

/* Parse a CPU filter ("" clears it). */
static int view_set_filter(struct view *v, const char *text)
{
	int n = v->info.topo->cpu_thread_len, *cpus, ncpus, rc;
	size_t col = 0;

	if (!*text) {
		free(v->cpu_shown);
		v->cpu_shown = NULL;
		v->filter[0] = 0;
		return 0;
	}
	rc = cpulist_parse(text, &cpus, &ncpus, &col);
	if (rc) {
		if (rc == -ERANGE)
			snprintf(v->status, sizeof(v->status),
				 "CPU filter '%s': a range is reversed or above %d", text, CPULIST_MAX_CPU);
		else
			snprintf(v->status, sizeof(v->status),
				 "CPU filter '%s': expected a CPU list such as 0-3,8 (column %zu)", text,
				 col);
		return rc;
	}
	free(v->cpu_shown);
	v->cpu_shown = xcalloc((size_t)n + 1, sizeof(bool));
	for (int i = 0; i < ncpus; i++)
		if (cpus[i] < n)
			v->cpu_shown[cpus[i]] = true;
	free(cpus);
	snprintf(v->filter, sizeof(v->filter), "%s", text);
	v->sel = v->scroll = 0;
	return 0;
}

/* F3: select a CPU ("12") or a core ("c3") in the table; the table's render finds its row. */
static enum view_cmd view_find(struct view *v, const char *text)
{
	char *end;
	bool core = text[0] == 'c';
	long n = strtol(text + core, &end, 10);

	if (!text[core] || *end || n < 0 || n > 0xFFFFF) {
		snprintf(v->status, sizeof(v->status), "find: '%s' is neither a CPU number nor c and a "
			 "core id", text);
		return VIEW_CMD_REDRAW;
	}
	v->find_cpu = core ? -1 : (int)n;
	v->find_core = core ? (int)n : -1;
	v->agg = core ? VIEW_AGG_CORE : VIEW_AGG_THREAD;
	v->focus = v->lower = VIEW_PANE_TABLE;
	return VIEW_CMD_REDRAW;
}

/* F6: sort by the column named TEXT (or the only one it starts), "none" for topology order. */
static enum view_cmd view_sort_by(struct view *v, const char *text)
{
	const struct layout *l = v->info.layout;
	int found = -1, n = 0;

	if (!strcmp(text, "none") || !text[0]) {
		v->sort_metric = -1;
		return VIEW_CMD_REDRAW;
	}
	for (int m = 0; m < l->nmetrics; m++) {
		int g = l->metrics[m].group;

		if (l->metrics[m].scope != LAYOUT_THREAD || (g >= 0 && !(v->groups & (1u << g))) ||
		    strncmp(l->metrics[m].name, text, strlen(text)))
			continue;
		if (!strcmp(l->metrics[m].name, text)) {
			found = m, n = 1;
			break;
		}
		found = m;
		n++;
	}
	if (n != 1) {
		snprintf(v->status, sizeof(v->status), "sort: %s '%s' among the table's columns%s", n
			 ? "more than one column starts with" : "no column", text,
			 n ? "; type more of the name" : " (a group that is off has none)");
		return VIEW_CMD_REDRAW;
	}
	v->sort_metric = found;
	v->sort_rev = false;
	v->hcol = -1;
	v->focus = v->lower = VIEW_PANE_TABLE;
	return VIEW_CMD_REDRAW;
}

static enum view_cmd view_prompt_key(struct view *v, int key)
{
	size_t len = strlen(v->input);

	if (key == VIEW_KEY_ESC) {
		v->prompt = VIEW_PROMPT_NONE;
		return VIEW_CMD_REDRAW;
	}
	if (key == VIEW_KEY_BACKSPACE || key == 127 || key == 8) {
		if (len)
			v->input[len - 1] = 0;
		return VIEW_CMD_REDRAW;
	}
	if (key == VIEW_KEY_ENTER || key == '\n' || key == '\r') {
		enum view_prompt p = v->prompt;

		v->prompt = VIEW_PROMPT_NONE;
		v->status[0] = 0;
		if (p == VIEW_PROMPT_FILTER) {
			view_set_filter(v, v->input);
			return VIEW_CMD_REDRAW;
		}
		if (p == VIEW_PROMPT_FIND)
			return view_find(v, v->input);
		if (p == VIEW_PROMPT_SORT)
			return view_sort_by(v, v->input);
		if (p == VIEW_PROMPT_GOTO)
			return VIEW_CMD_GOTO;
		if (!v->input[0]) {
			v->pid = 0;
			return VIEW_CMD_PID;
		}
		char *end;
		long pid = strtol(v->input, &end, 10);

		if (*end || pid <= 0 || pid > 0x7FFFFFFF) {
			snprintf(v->status, sizeof(v->status), "PID: '%s' is not a process id", v->input);
			return VIEW_CMD_REDRAW;
		}
		v->pid = (int)pid;
		return VIEW_CMD_PID;
	}
	if (key >= 0x20 && key < 0x7F && len + 1 < sizeof(v->input)) {
		v->input[len] = (char)key;
		v->input[len + 1] = 0;
	}
	return VIEW_CMD_REDRAW;
}

static void view_move(struct view *v, const struct view_frame *f, int delta)
{
	v->sel += delta;
	if (v->sel >= f->nrows)
		v->sel = f->nrows - 1;
	if (v->sel < 0)
		v->sel = 0;
}

/*
 * Arrows on the topology move on the screen as drawn: to the nearest cell
 * in direction (DX, DY), first on the same line (or column of lines), then
 * the closest.  Nothing that way: the selection stays.
 */
static void view_move_on_screen(struct view *v, const struct view_frame *f, int dx, int dy)
{
	const struct view_hit *cur = NULL, *best = NULL;
	long best_score = 0;

	for (int i = 0; i < f->nhits; i++)
		if (f->hits[i].pane == VIEW_PANE_TOPO && f->hits[i].what == VIEW_HIT_CELL &&
		    f->hits[i].pos == f->sel)
			cur = &f->hits[i];
	if (!cur) {
		view_move(v, f, dx + dy);
		return;
	}
	for (int i = 0; i < f->nhits; i++) {
		const struct view_hit *h = &f->hits[i];
		long ddx = (long)(2 * h->x + h->w) - (2 * cur->x + cur->w), ddy = h->y - cur->y, score;

		if (h->pane != VIEW_PANE_TOPO || h->what != VIEW_HIT_CELL || h == cur)
			continue;
		if ((dx > 0 && ddx <= 0) || (dx < 0 && ddx >= 0) || (dy > 0 && ddy <= 0) ||
		    (dy < 0 && ddy >= 0))
			continue;
		/* along the direction as little as possible, across it far less still */
		score = dx ? labs(ddy) * 100000 + labs(ddx) : labs(ddy) * 1000 + labs(ddx);
		if (!best || score < best_score) {
			best = h;
			best_score = score;
		}
	}
	if (best)
		v->sel = best->pos;
}

/* Toggle the group bound to KEY; false when no group has that key. */
static bool view_toggle_group(struct view *v, int key)
{
	const struct layout *l = v->info.layout;

	for (int g = 0; g < l->ngroups; g++)
		if (l->groups[g].key == key) {
			v->groups ^= 1u << g;
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
				(l->metrics[m].group < 0 || (v->groups & (1u << l->metrics[m].group)))))
			break;
	}
	v->sort_metric = m;
	v->hcol = -1; /* the table scrolls to it */
}

/* Scroll the table's metric columns sideways by DIR; false when they all fit. */
static bool view_hscroll(struct view *v, const struct view_frame *f, int dir)
{
	int most = f->ncols - f->shown_cols;

	if ((v->focus != VIEW_PANE_TABLE && v->focus != VIEW_PANE_IMC) || most <= 0)
		return false;
	v->hcol = f->hcol + dir;
	if (v->hcol < 0)
		v->hcol = 0;
	if (v->hcol > most)
		v->hcol = most;
	return true;
}

/* Panes, selection, zoom: true when KEY was one of them (the screen changed). */
static bool view_navigate(struct view *v, const struct view_frame *f, int key)
{
	switch (key) {
	case VIEW_KEY_TAB:
	case VIEW_KEY_BTAB: {
		int next = (int)v->focus + (key == VIEW_KEY_TAB ? 1 : VIEW_NPANES - 1);

		v->focus = (enum view_pane)(next % VIEW_NPANES);
		if (v->focus != VIEW_PANE_TOPO)
			v->lower = v->focus;
		v->sel = v->scroll = 0;
		v->hcol = 0; /* each pane's columns start from the first */
		return true;
	}
	case VIEW_KEY_UP:
	case VIEW_KEY_DOWN:
		if (v->focus == VIEW_PANE_TOPO)
			view_move_on_screen(v, f, 0, key == VIEW_KEY_UP ? -1 : 1);
		else
			view_move(v, f, key == VIEW_KEY_UP ? -1 : 1);
		return true;
	case VIEW_KEY_LEFT:
		/* a table wider than the screen scrolls sideways */
		if (v->focus == VIEW_PANE_TOPO)
			view_move_on_screen(v, f, -1, 0);
		else if (!view_hscroll(v, f, -1))
			view_move(v, f, -f->page);
		return true;
	case VIEW_KEY_RIGHT:
		if (v->focus == VIEW_PANE_TOPO)
			view_move_on_screen(v, f, 1, 0);
		else if (!view_hscroll(v, f, 1))
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
	case VIEW_KEY_ENTER:
	case '\n':
	case '\r':
		topology_pane_zoom(v, f);
		return true;
	case VIEW_KEY_ESC:
		v->zoom_socket = -1;
		return true;
	default:
		return false;
	}
}

static enum view_cmd view_key_inner(struct view *v, const struct view_frame *f, int key);

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
	return cmd;
}

static enum view_cmd view_key_inner(struct view *v, const struct view_frame *f, int key)
{
	const struct layout *l = v->info.layout;
	bool closed = false;

	/* what was drawn: the selection and scroll the render kept in range */
	v->sel = f->sel;
	v->scroll = f->scroll;
	if ((v->focus == VIEW_PANE_TABLE || v->focus == VIEW_PANE_IMC) && v->hcol >= 0)
		v->hcol = f->hcol;
	if (f->found)
		v->find_cpu = v->find_core = -1; /* selected: from now on the selection moves freely */
	if (v->prompt)
		return view_prompt_key(v, key);
	if (v->overlay == VIEW_OVERLAY_COLUMNS)
		return view_chooser_key(v, key);
	if (v->overlay && key != 'q' && key != VIEW_KEY_F10) {
		/* any key closes an overlay; its own key toggles it */
		v->overlay = VIEW_OVERLAY_NONE;
		closed = true;
		if (key == VIEW_KEY_ESC || key == 'h' || key == '?' || key == VIEW_KEY_F1 ||
		    key == 'e' || key == 'd' || key == VIEW_KEY_ENTER)
			return VIEW_CMD_REDRAW;
	}
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
	switch (key) {
	case 'q':
	case VIEW_KEY_F10:
		return VIEW_CMD_QUIT;
	case 'h':
	case '?':
	case VIEW_KEY_F1:
		v->overlay = VIEW_OVERLAY_HELP;
		return VIEW_CMD_REDRAW;
	case 'e':
		v->overlay = VIEW_OVERLAY_EXPLAIN;
		return VIEW_CMD_REDRAW;
	case 'd':
		v->overlay = VIEW_OVERLAY_DOCTOR;
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
		if (closed)
			return VIEW_CMD_REDRAW; /* the key only closed the overlay */
		snprintf(v->status, sizeof(v->status), "no group on key %c in layout %s", key, l->name);
		return VIEW_CMD_REDRAW;
	}
	return closed ? VIEW_CMD_REDRAW : VIEW_CMD_NONE;
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

/* ---- settings ------------------------------------------------------------ */

static const char *const view_agg_names[] = { "thread", "core", "socket" };
int view_pane_find(const char *name)
{
	if (!strcmp(name, "table"))
		return VIEW_PANE_TABLE; /* what settings files written before 0.2 say */
	for (int i = 0; i < VIEW_NPANES; i++)
		if (!strcmp(name, panes_registry[i]->name))
			return i;
	return -1;
}

const char *view_lower_pane_list(void)
{
	static char list[128];

	if (!list[0])
		for (int i = VIEW_PANE_TOPO + 1; i < VIEW_NPANES; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i == VIEW_PANE_TOPO + 1 ? "" : i + 1 < VIEW_NPANES ? ", " : " or ",
				 panes_registry[i]->name);
	return list;
}

int view_settings_format(const struct view *v, char *buf, size_t len)
{
	const struct layout *l = v->info.layout;
	size_t n = 0;
	int first = 1;

	n += (size_t)snprintf(buf + n, len - n, "interval %g\ngroups ", v->interval);
	for (int g = 0; g < l->ngroups && n < len; g++)
		if (v->groups & (1u << g)) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",",
					      l->groups[g].name);
			first = 0;
		}
	if (first && n < len)
		n += (size_t)snprintf(buf + n, len - n, "none");
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n,
				      "\nheat %s\naggregation %s\nsort %s\nreverse %s\npane %s\nhide ",
				      l->metrics[v->heat_metric].name, view_agg_names[v->agg],
				      v->sort_metric < 0 ? "topology" : l->metrics[v->sort_metric].name,
				      v->sort_rev ? "yes" : "no", panes_registry[v->lower]->name);
	first = 1;
	for (int m = 0; m < l->nmetrics && n < len; m++)
		if (v->col_hidden[m]) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",",
					      l->metrics[m].name);
			first = 0;
		}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s\n", first ? "none" : "");
	return n < len ? 0 : -ENOSPC;
}

static int view_pick(const char *const *names, int n, const char *value)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], value))
			return i;
	return -1;
}

int view_setting_apply(struct view *v, const char *key, const char *value, char *err, size_t errlen)
{
	const struct layout *l = v->info.layout;
	char *end;

	if (!strcmp(key, "interval")) {
		double d = strtod(value, &end);

		if (*end || !(d >= ENGINE_INTERVAL_MIN && d <= ENGINE_INTERVAL_MAX)) {
			snprintf(err, errlen, "interval '%s': expected seconds from %g to %g", value,
				 ENGINE_INTERVAL_MIN, ENGINE_INTERVAL_MAX);
			return -EINVAL;
		}
		v->interval = d;
		return 0;
	}
	if (!strcmp(key, "groups")) {
		uint32_t mask = 0;
		char list[256], *save = NULL;

		snprintf(list, sizeof(list), "%s", value);
		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int g = layout_group_find(l, w);

			if (!strcmp(w, "none"))
				continue;
			if (g < 0) {
				snprintf(err, errlen, "groups: layout %s has no group '%s'", l->name, w);
				return -EINVAL;
			}
			mask |= 1u << g;
		}
		v->groups = mask;
		return 0;
	}
	if (!strcmp(key, "heat") || !strcmp(key, "sort")) {
		int m = layout_metric_find(l, value);

		if (!strcmp(key, "sort") && !strcmp(value, "topology")) {
			v->sort_metric = -1;
			return 0;
		}
		if (m < 0 || l->metrics[m].scope != LAYOUT_THREAD) {
			snprintf(err, errlen, "%s: layout %s has no thread metric '%s'", key, l->name,
				 value);
			return -EINVAL;
		}
		*(strcmp(key, "heat") ? &v->sort_metric : &v->heat_metric) = m;
		return 0;
	}
	if (!strcmp(key, "aggregation") || !strcmp(key, "pane")) {
		bool agg = !strcmp(key, "aggregation");
		int i = agg ? view_pick(view_agg_names, 3, value) : view_pane_find(value);

		if (i < 0 || (!agg && i == VIEW_PANE_TOPO)) {
			snprintf(err, errlen, "%s '%s': expected %s", key, value,
				 agg ? "thread, core or socket" : view_lower_pane_list());
			return -EINVAL;
		}
		if (agg)
			v->agg = (enum view_agg)i;
		else
			v->lower = (enum view_pane)i;
		return 0;
	}
	if (!strcmp(key, "reverse")) {
		if (strcmp(value, "yes") && strcmp(value, "no")) {
			snprintf(err, errlen, "reverse '%s': expected yes or no", value);
			return -EINVAL;
		}
		v->sort_rev = !strcmp(value, "yes");
		return 0;
	}
	if (!strcmp(key, "hide")) {
		char list[1024], *save = NULL;

		snprintf(list, sizeof(list), "%s", value);
		memset(v->col_hidden, 0, sizeof(bool) * (size_t)l->nmetrics);
		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int m = layout_metric_find(l, w);

			if (!strcmp(w, "none"))
				continue;
			if (m < 0) {
				snprintf(err, errlen, "hide: layout %s has no metric '%s'", l->name, w);
				return -EINVAL;
			}
			v->col_hidden[m] = true;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown setting '%s' (known: interval, groups, heat, aggregation, "
		 "sort, reverse, pane, hide)", key);
	return -EINVAL;
}
