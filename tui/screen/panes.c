/*
 * panes: the interactive screen drawn into a grid.  From the top: header
 * (machine, source, interval, age, state), a message line, the topology
 * heatmap, the lower pane (thread table, ports, uncore, IMC; Tab switches),
 * the counter-budget footer and the key bar.  Overlays (help, explain,
 * doctor) and prompts are drawn last, over the rest.
 */
#define _GNU_SOURCE /* qsort_r */
#include "panes.h"
#include "pane.h"
#include "popup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

#define PANES_TOPO_MIN_LOWER 8 /* rows kept for the lower pane under the topology */



/* ---- header, message line, footer, key bar -------------------------------- */

/* The CPU brand without the marks, words and runs of blanks a narrow header can spare. */
static void panes_short_brand(const char *brand, char *out, size_t len, bool words)
{
	static const char *const drop[] = { "(R)", "(TM)", "CPU ", "Intel", "@ " };
	size_t n = 0;

	for (const char *p = brand; *p && n + 1 < len;) {
		bool skipped = false;

		for (size_t i = 0; words && i < sizeof(drop) / sizeof(drop[0]) && !skipped; i++)
			if (!strncmp(p, drop[i], strlen(drop[i]))) {
				p += strlen(drop[i]);
				skipped = true;
			}
		if (skipped)
			continue;
		if (*p == ' ' && (n == 0 || out[n - 1] == ' ')) {
			p++;
			continue;
		}
		out[n++] = *p++;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = 0;
}

/*
 * A hybrid: where the interval's unhalted cycles ran, per kind of core ("P
 * 77% E 23%": the whole machine's, or the counted command's alone); "" on a
 * CPU of one kind.
 */
static void panes_kinds(const struct topo *t, const struct sample *s, char *buf, size_t len)
{
	double cyc[LAYOUT_NCORETYPES] = { 0 }, all = 0;

	buf[0] = 0;
	for (int i = 0; s && t->ncorekinds > 1 && i < s->nthreads; i++) {
		double c = s->threads[i].vars[LAYOUT_B_cycles];

		if (c > 0) {
			cyc[pane_core_kind(t, s->threads[i].core)] += c;
			all += c;
		}
	}
	if (all > 0)
		snprintf(buf, len, "cycles: P %.0f%% E %.0f%%", 100 * cyc[LAYOUT_CORES_P] / all,
			 100 * cyc[LAYOUT_CORES_E] / all);
}

/* The sockets' sum of metric NAME of a group that counts, NaN none (n/a everywhere, or not counted). */
static double panes_power_sum(const struct layout *l, const struct sample *s, const char *name)
{
	int m = layout_metric_find(l, name);
	double sum = 0;
	int n = 0;

	if (!s || m < 0 || l->metrics[m].group < 0 ||
	    s->groups[l->metrics[m].group].state == SAMPLE_GROUP_OFF)
		return NAN;
	for (int k = 0; k < s->nsockets; k++) {
		double w = sample_metric(s, &s->sockets[k], m);

		if (!isnan(w)) {
			sum += w;
			n++;
		}
	}
	return n ? sum : NAN;
}

/*
 * "package 532 W", and the platform's where its psys counter reports it
 * ("package 532 W  platform 740 W": the master package reads it, the others
 * 0; nothing when every package reads 0, a platform without it).
 */
static void panes_power(const struct layout *l, const struct sample *s, char *buf, size_t len)
{
	double pkg = panes_power_sum(l, s, "package_watts"), plat = panes_power_sum(l, s, "platform_watts");
	size_t n = 0;

	buf[0] = 0;
	if (!isnan(pkg))
		n = (size_t)snprintf(buf, len, "package %.0f W", pkg);
	if (!isnan(plat) && plat > 0.5 && n < len)
		snprintf(buf + n, len - n, "%splatform %.0f W", n ? "  " : "", plat);
}

/*
 * The two header lines.  The source at the right of the first (SIMULATED in
 * its own colour) is never dropped; the layout, the brand and the host go
 * before it does.
 */
static void panes_header(const struct view *v, const struct sample *s, double age, struct grid *g)
{
	const struct view_info *in = &v->info;
	char line[512], skew[32], legend[160], brand[96], shrt[96], lay[160], mark[160];
	char iv[32], seq[32], agetxt[32], skewtxt[48], heat[200], heat_short[96], filter[96];
	char pid[32], rec[300], rec_mid[300], rec_short[32], serving[140], power[48], kinds[48];
	const char *base = strrchr(v->rec_path, '/');
	int label = (int)strlen(in->source) + 2, x;

	grid_blank(g, 0, 0, g->w, GRID_HEADER);
	if (label > g->w - 2)
		label = g->w - 2;
	x = g->w - label;
	panes_short_brand(in->brand, brand, sizeof(brand), false);
	panes_short_brand(in->brand, shrt, sizeof(shrt), true);
	snprintf(lay, sizeof(lay), "(%s, layout %s)", in->uarch, in->layout->name);
	{
		const struct pane_part top[] = {
			{ "pmutop", NULL, false }, { in->host, NULL, false }, { brand, shrt, false },
			{ lay, in->layout->name, false },
		};

		pane_parts(top, 4, x - 2, line, sizeof(line));
	}
	grid_put(g, 0, 1, x - 1, GRID_HEADER, "%s", line);
	grid_put(g, 0, x, label, in->simulated ? GRID_SIM : GRID_HEADER, " %.*s ", label - 2,
		 in->source);
	if (s && !isnan(s->skew_us))
		snprintf(skew, sizeof(skew), "%.1f ms%s", s->skew_us / 1000, s->batched ? " (batch)" : "");
	else
		snprintf(skew, sizeof(skew), "-");
	mark[0] = rec[0] = rec_mid[0] = serving[0] = filter[0] = pid[0] = '\0';
	if (v->mark[0])
		snprintf(mark, sizeof(mark), "mark: %s", v->mark);
	if (v->rec_path[0]) {
		snprintf(rec, sizeof(rec), "REC %s (%ld)", v->rec_path, v->rec_count);
		snprintf(rec_mid, sizeof(rec_mid), "REC %s (%ld)", base ? base + 1 : v->rec_path,
			 v->rec_count);
	}
	snprintf(rec_short, sizeof(rec_short), "REC (%ld)", v->rec_count);
	if (v->serving[0])
		snprintf(serving, sizeof(serving), "SERVING %s", v->serving);
	snprintf(iv, sizeof(iv), "interval %.1f s", v->interval);
	snprintf(seq, sizeof(seq), "sample %llu", s ? (unsigned long long)s->seq : 0ull);
	snprintf(agetxt, sizeof(agetxt), "age %.0f s", s ? floor(age) : 0.0);
	snprintf(skewtxt, sizeof(skewtxt), "skew %s", skew);
	pane_heat_legend(in->layout, v->heat_metric, legend, sizeof(legend));
	snprintf(heat, sizeof(heat), "heat: %s", legend);
	snprintf(heat_short, sizeof(heat_short), "heat: %s", in->layout->metrics[v->heat_metric].name);
	if (v->filter[0])
		snprintf(filter, sizeof(filter), "filter: %s", v->filter);
	if (v->pid)
		snprintf(pid, sizeof(pid), "pid: %d", v->pid);
	panes_power(in->layout, s, power, sizeof(power));
	panes_kinds(in->topo, s, kinds, sizeof(kinds));
	{
		/* the command, a replay's place, a viewer's owner and a recording first */
		const struct pane_part second[] = {
			{ v->run, NULL, true }, { v->where, v->where_short, true },
			{ (int)strlen(rec) > g->w / 3 ? rec_mid : rec, rec_short, true },
			{ mark, NULL, false }, { iv, NULL, false }, { seq, NULL, false },
			{ power, NULL, false }, { kinds, NULL, false }, { serving, "SERVING", false },
			{ agetxt, NULL, false }, { skewtxt, NULL, false },
			{ heat, heat_short, false }, { filter, NULL, false }, { pid, NULL, false },
		};

		pane_parts(second, (int)(sizeof(second) / sizeof(second[0])), g->w - 12, line,
			    sizeof(line));
	}
	grid_put(g, 1, 1, g->w - 12, GRID_NORMAL, "%s", line);
	grid_put_right(g, 1, g->w - 10, 9, v->paused ? GRID_WARN : GRID_OK,
		       v->paused ? "PAUSED" : !s ? "STARTING" : in->replay ? "PLAYING"
		       : in->viewer ? "VIEWING" : "LIVE");
}


/* Below this many rows the bottleneck line shares the message line (80x24 keeps its panes' rows). */
#define PANES_BNECK_ROW_H 30

/* Bottleneck line LINE at row Y: its label bold, the path red (yellow while settling), then TAIL. */
/*
 * LINE as it fits a row of G: wider than the row and ending in a selected
 * thread's, core's or who row's path (from AT, " | cpu 13: ..."), "bottleneck
 * cpu 13: ..." alone in BUF (the sockets' paths are in their pane and the
 * socket rows of the table); else LINE.
 */
static const char *panes_bneck_fit(const struct grid *g, const char *line, size_t at, char *buf,
				   size_t len)
{
	if ((int)strlen(line) <= g->w - 2 || at + 3 >= strlen(line))
		return line;
	snprintf(buf, len, "bottleneck %s", line + at + 3);
	return buf;
}

static void panes_bneck_draw(struct grid *g, int y, const char *line, const char *tail)
{
	int x = (int)strcspn(line, ":"), w;

	grid_put(g, y, 1, x, GRID_BOLD, "%.*s", x, line);
	w = grid_put(g, y, 1 + x, g->w - 2 - x, strstr(line, "settling") ? GRID_WARN : GRID_CRIT,
		     "%s", line + x);
	if (tail[0] && 1 + x + w + (int)strlen(tail) <= g->w - 1)
		grid_put(g, y, 1 + x + w, g->w - 1 - x - w, GRID_WARN, "%s", tail);
}

/*
 * TEXT on the message line; its first line only, and longer than the line,
 * its start and where the whole of it is (L: the recent messages).
 */
static void panes_message_line(struct grid *g, enum grid_style st, const char *text)
{
	int len = (int)strcspn(text, "\n");

	if (len > g->w - 2 || text[len])
		grid_put(g, 2, 1, g->w - 2, st, "%.*s... (L: all of it)",
			 len < g->w - 22 ? len : g->w > 22 ? g->w - 22 : 0, text);
	else
		grid_put(g, 2, 1, g->w - 2, st, "%s", text);
}

static bool panes_message(const struct view *v, const struct sample *s, struct grid *g)
{
	static const char *const prompts[] = {
		[VIEW_PROMPT_FILTER] = "CPU filter (0-3,8 or socket1; empty: all), Enter applies: ",
		[VIEW_PROMPT_PID] = "Highlight the CPUs of process (PID; empty clears): ",
		[VIEW_PROMPT_FIND] = "Find CPU (a number) or core (c and its id, e.g. c3), Enter: ",
		[VIEW_PROMPT_SORT] = "Sort by column (a name or its start; none: topology order), Enter: ",
		[VIEW_PROMPT_GOTO] = "Go to a time of the recording (seconds, or M:SS), Enter: ",
		[VIEW_PROMPT_QUIT] = "The command still runs: y stops it, l leaves it running (both "
				     "quit); else stay",
		[VIEW_PROMPT_WHO] = "Who filter (part of a name or cgroup path; empty: all), Enter: ",
	};
	int rotating = 0;
	char bline[1024];

	if (v->prompt == VIEW_PROMPT_QUIT) {
		grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%s", prompts[v->prompt]);
		return false;
	}
	if (v->prompt) {
		int x = grid_put(g, 2, 1, g->w - 2, GRID_BOLD, "%s", prompts[v->prompt]);

		grid_put(g, 2, 1 + x, g->w - 2 - x, GRID_SELECT, "%s_", v->input);
		return false;
	}
	if (v->status[0] && (!v->status_until || view_now() < v->status_until)) {
		panes_message_line(g, GRID_WARN, v->status);
		return false;
	}
	if (s && s->error[0]) {
		panes_message_line(g, GRID_CRIT, s->error);
		return false;
	}
	for (int i = 0; s && i < v->info.layout->ngroups; i++)
		rotating += s->groups[i].state == SAMPLE_GROUP_ROTATING;
	if (s && sample_throttle_text(s, bline, sizeof(bline))) {
		char text[1200];

		/* a capped clock explains the figures: before the standing warnings */
		snprintf(text, sizeof(text), "THROTTLED %s of this %.1f s (heat or a power limit capped "
			 "the clock)", bline, s->interval_s);
		if ((int)strlen(text) > g->w - 2) /* 80 columns: the sockets' figures whole */
			snprintf(text, sizeof(text), "THROTTLED %s", bline);
		panes_message_line(g, GRID_CRIT, text);
	} else if (s && s->warning[0]) {
		panes_message_line(g, GRID_WARN, s->warning);
	} else if (s && s->nflags) {
		char where[160] = "", one[48];
		size_t n = 0;
		int other = 0;

		/* every place with the first flag's reason (both sockets' empty channel 2), then how many more */
		for (int i = 0; i < s->nflags; i++) {
			bool seen = false;

			if (strcmp(s->flags[i].why, s->flags[0].why)) {
				other++;
				continue;
			}
			for (int j = 0; j < i; j++)
				seen |= !strcmp(s->flags[j].why, s->flags[0].why) &&
					s->flags[j].socket == s->flags[i].socket &&
					s->flags[j].channel == s->flags[i].channel;
			if (seen)
				continue;
			pane_flag_where(s, &s->flags[i], one, sizeof(one));
			n += (size_t)snprintf(where + n, sizeof(where) - n, "%s%s", n ? ", " : "", one);
			if (n >= sizeof(where))
				break;
		}
		grid_put(g, 2, 1, g->w - 2, GRID_CRIT, "! %s: %s%s (figures marked ! cannot be true; "
			 "Tab to the uncore/IMC pane)", where, s->flags[0].why,
			 other ? "; more flags on that pane" : "");
	} else if (s && g->h < PANES_BNECK_ROW_H && bneck_line(v, s, NULL, bline, sizeof(bline), NULL)) {
		/* a small screen: the bottleneck on the message line, the rotation's note after it */
		panes_bneck_draw(g, 2, bline, rotating ? "  (* scaled: groups take turns)" : "");
		return true;
	} else if (rotating) {
		char text[200];
		bool mixed = false;

		/* a metric over several groups: its events counted at different times */
		for (int m = 0; m < s->layout->nmetrics && !mixed; m++)
			mixed = s->metric_scaled[m] && layout_groups_count(s->layout->metrics[m].uses) > 1;
		snprintf(text, sizeof(text), "%d groups take turns on the counters: * marks a figure "
			 "scaled from the time its counter counted%s", rotating,
			 mixed ? ", ~ one from several groups' times" : "");
		if ((int)strlen(text) > g->w - 2)
			snprintf(text, sizeof(text), "%d groups take turns: * figures are scaled%s",
				 rotating, mixed ? ", ~ mixed" : "");
		grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%s", text);
	}
	else if (!s)
		grid_put(g, 2, 1, g->w - 2, GRID_DIM, "waiting for the first sample...");
	return false;
}

/*
 * The bottleneck line, where the layout has a top-down tree: each socket's
 * path to its deepest flagged node (tree_path.c), on a row of its own under
 * the message line from PANES_BNECK_ROW_H rows (whether it has one: DRAW
 * false), then the path of the thread or core selected in the focused lower
 * pane, as the panes' draw (F) left them (DRAW true, after the panes).  On
 * a smaller screen the message line holds it (panes_message; SMALL: it
 * does): drawn again after the panes where something is selected.
 */
static bool panes_bottleneck(const struct view *v, const struct sample *s, struct grid *g,
			     const struct view_frame *f, bool draw, bool small)
{
	const struct sample_entity *sel = NULL;
	bool big = g->h >= PANES_BNECK_ROW_H;
	char line[1024], fit[1040];
	size_t at;
	int m;

	if (!big && (!draw || !small || !s || v->focus == VIEW_PANE_TOPO))
		return false;
	if (draw && s && v->focus != VIEW_PANE_TOPO && pane_has_selection(v, f))
		sel = pane_selected(v, s, f, &m);
	if (!bneck_line(v, s, sel, line, sizeof(line), &at) || (!big && at >= strlen(line)))
		return false;
	if (draw && !big)
		grid_put(g, 2, 1, g->w - 2, GRID_NORMAL, "%*s", g->w - 2, "");
	if (draw)
		panes_bneck_draw(g, big ? 3 : 2, panes_bneck_fit(g, line, at, fit, sizeof(fit)), "");
	return big;
}

/*
 * The key bar: what fits, in this order; on a narrow screen the least needed
 * keys go first (RANK 1 stays longest: help and quit), never q, e or d.
 */
static void panes_keybar(struct grid *g)
{
	static const struct {
		const char *key, *what;
		int rank;
	} keys[] = {
		{ "F1", "Help", 1 },  { "1-9", "Groups", 2 }, { "Tab", "Pane", 2 },     { "m", "Metric", 3 },
		{ "a", "Aggr", 5 },   { "s", "Sort", 3 },     { "Spc", "Pause", 3 },    { "+-", "Interval", 4 },
		{ "/", "Filter", 4 }, { "p", "PID", 5 },      { "e", "Explain", 1 },    { "d", "Doctor", 1 },
		{ "q", "Quit", 1 },
	};
	enum { NKEYS = sizeof(keys) / sizeof(keys[0]) };
	bool shown[NKEYS];
	int x = 0, y = g->h - 1, width = 0;

	for (int i = 0; i < NKEYS; i++) {
		shown[i] = true;
		width += (int)(strlen(keys[i].key) + strlen(keys[i].what)) + 1;
	}
	for (int rank = 5; rank > 1 && width > g->w; rank--)
		for (int i = NKEYS - 1; i >= 0 && width > g->w; i--)
			if (shown[i] && keys[i].rank == rank) {
				shown[i] = false;
				width -= (int)(strlen(keys[i].key) + strlen(keys[i].what)) + 1;
			}
	for (int i = 0; i < NKEYS; i++) {
		if (!shown[i] || x + (int)(strlen(keys[i].key) + strlen(keys[i].what)) + 1 > g->w)
			continue;
		x += grid_put(g, y, x, g->w - x, GRID_KEY, "%s", keys[i].key);
		x += grid_put(g, y, x, g->w - x, GRID_NORMAL, "%s ", keys[i].what);
	}
}


/* ---- lower panes ---------------------------------------------------------- */

/*
 * Every pane, the only list of them, a line each (X(NAME): the const struct
 * pane NAME_pane of panes/NAME_pane.c).  A pane's place in it is its number
 * (the view's focus and lower pane, a hit's) and its tab's place on screen;
 * the topology first and the thread table second (view.h names those two).
 */
#define PANES_ALL(X) \
	X(topology) \
	X(threads) \
	X(ports) \
	X(uncore) \
	X(imc) \
	X(memory) \
	X(cycles) \
	X(tree) \
	X(bottleneck) \
	X(who) \
	/* a new pane: its line above this one */
#define PANES_DECLARE(name) extern const struct pane name##_pane;
#define PANES_ENTRY(name) &name##_pane,
PANES_ALL(PANES_DECLARE)
const struct pane *const panes_registry[] = { PANES_ALL(PANES_ENTRY) };
const int view_npanes = sizeof(panes_registry) / sizeof(panes_registry[0]);

static void panes_tabs(const struct view *v, int y, struct grid *g, struct view_frame *f)
{
	int x = 1;

	grid_hline(g, y, 0, g->w, GRID_DIM);
	for (int p = VIEW_PANE_TOPO + 1; p < view_npanes; p++) {
		enum grid_style st = v->lower == p ? (v->focus == p ? GRID_SELECT : GRID_BOLD) : GRID_DIM;
		int w = grid_put(g, y, x, g->w - x, st, v->lower == p ? "[%s]" : " %s ",
				 panes_registry[p]->title);

		pane_hit_tab(f, y, x, w, p);
		x += w + 1;
	}
	/* where the arrows act: the topology (its cursor in brackets) or the pane whose tab is lit */
	grid_put(g, y, x + 1, g->w - x - 1, GRID_DIM, v->focus == VIEW_PANE_TOPO
		 ? " arrows: topology; Tab: the table " : " Tab: next pane ");
}


/* ---- the screen ------------------------------------------------------------- */

/*
 * The lower pane in rows [Y, Y + H).  One wider than the screen is drawn
 * into a grid as wide as it needs, and the window at the view's offset is
 * copied in, with "<" and ">" on its header where columns are out of
 * sight; its clickable places move with the window.
 */
static void panes_lower(const struct view *v, const struct sample *s, int y, int h,
			struct grid *g, struct view_frame *f)
{
	const struct pane *p = panes_registry[v->lower];
	int fixed = 0, need = p->width ? p->width(v, s, &fixed) : 0, off, first_hit = f->nhits;
	bool focus = v->focus == v->lower;
	struct grid *wide;

	f->drawing = v->lower;
	if (need <= g->w) {
		p->draw(v, s, y, h, g, f);
		return;
	}
	if (fixed > g->w / 2)
		fixed = g->w / 2;
	wide = grid_new(need, g->h, g->utf8);
	wide->screen_w = g->w;
	p->draw(v, s, y, h, wide, f);
	off = focus ? v->hoff : 0;
	if (off > need - g->w)
		off = need - g->w;
	if (off < 0)
		off = 0;
	/* the row labels stay; the columns after them move */
	for (int r = y; r < y + h && r < g->h; r++) {
		memcpy(&g->cells[r * g->w], &wide->cells[r * wide->w],
		       sizeof(*g->cells) * (size_t)fixed);
		memcpy(&g->cells[r * g->w + fixed], &wide->cells[r * wide->w + fixed + off],
		       sizeof(*g->cells) * (size_t)(g->w - fixed));
	}
	for (int i = first_hit; i < f->nhits; i++) {
		struct view_hit *hit = &f->hits[i];

		/* a row's hit spans the screen; a hit in the moving part moves */
		if (hit->x >= fixed)
			hit->x = hit->x - off < fixed ? fixed : hit->x - off;
		if (hit->x + hit->w > g->w)
			hit->w = g->w - hit->x;
	}
	if (off > 0)
		grid_put(g, y, fixed, 1, GRID_SELECT, "<");
	if (off < need - g->w)
		grid_put(g, y, g->w - 1, 1, GRID_SELECT, ">");
	if (focus) {
		f->hoff = off;
		f->hmax = need - g->w;
	}
	grid_free(wide);
}


void view_render(const struct view *v, const struct sample *s, double age_s, struct grid *g,
		 struct view_frame *f)
{
	int y, footer, lower_h, topo_h;
	bool bneck, bmsg;

	grid_clear(g);
	f->nhits = 0;
	f->found = false;
	f->ncols = f->shown_cols = f->hcol = 0;
	f->col_metric = -1;
	f->topo_scrolled = false;
	f->hoff = f->hmax = 0;
	f->pop_lines = f->pop_page = f->pop_scroll = 0;
	f->nrows = 0;
	f->page = 1;
	f->sel = v->sel;
	f->scroll = v->scroll;
	if (g->w < VIEW_MIN_W || g->h < VIEW_MIN_H) {
		grid_put(g, g->h / 2 - 1, 0, g->w, GRID_WARN, "Terminal %dx%d is too small.", g->w, g->h);
		grid_put(g, g->h / 2, 0, g->w, GRID_NORMAL, "pmutop needs %dx%d:", VIEW_MIN_W, VIEW_MIN_H);
		grid_put(g, g->h / 2 + 1, 0, g->w, GRID_NORMAL, "enlarge it (q quits).");
		return;
	}
	panes_header(v, s, age_s, g);
	bmsg = panes_message(v, s, g);
	footer = panes_footer(v, s, g, 0, false);
	y = 3;
	bneck = panes_bottleneck(v, s, g, f, false, false);
	if (bneck)
		y++;
	/* the lower pane's rows first: its own wish (who, tree, memory), else the least */
	topo_h = g->h - y - footer - 1 - (panes_registry[v->lower]->rows > PANES_TOPO_MIN_LOWER
					  ? panes_registry[v->lower]->rows : PANES_TOPO_MIN_LOWER);
	f->drawing = VIEW_PANE_TOPO;
	topo_h = panes_registry[VIEW_PANE_TOPO]->draw(v, s, y, topo_h, g, f);
	y += topo_h;
	lower_h = g->h - y - footer - 1;
	panes_tabs(v, y, g, f);
	if (!s)
		grid_put(g, y + 1, 2, g->w - 4, GRID_DIM, "no sample yet");
	else
		panes_lower(v, s, y + 1, lower_h - 1, g, f);
	if (bneck || bmsg)
		panes_bottleneck(v, s, g, f, true, bmsg);
	panes_footer(v, s, g, g->h - 1 - footer, true);
	panes_keybar(g);
	if (v->overlay)
		popup_render(v, s, f, g);
}
