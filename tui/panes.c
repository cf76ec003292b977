/*
 * panes: the interactive screen drawn into a grid.  From the top: header
 * (machine, source, interval, age, state), a message line, the topology
 * heatmap, the lower pane (thread table, ports, uncore, IMC; Tab switches),
 * the counter-budget footer and the key bar.  Overlays (help, explain,
 * doctor) and prompts are drawn last, over the rest.
 */
#define _GNU_SOURCE /* qsort_r */
#include "panes.h"
#include "panes/pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

#define PANES_TOPO_MIN_LOWER 8 /* rows kept for the lower pane under the topology */

void panes_format(double value, char *buf, size_t len)
{
	static const char suffix[] = "kMGTPE";
	double a = fabs(value);

	if (isnan(value)) {
		snprintf(buf, len, "n/a");
	} else if (a >= 1e4) {
		int k = -1, d;

		while (a >= 1e3 && k < 5) {
			a /= 1e3;
			value /= 1e3;
			k++;
		}
		/* the suffix and the decimals after rounding: 999.6k is 1.00M, not 1000k */
		d = a >= 100 ? 0 : a >= 10 ? 1 : 2;
		if (round(a * pow(10, d)) >= 1000 * pow(10, d) && k < 5) {
			a /= 1e3;
			value /= 1e3;
			k++;
			d = 2;
		}
		/* three significant digits: 9.996 is 10.0, 99.96 is 100 */
		if (d > 0 && round(a * pow(10, d)) >= 1000)
			d--;
		snprintf(buf, len, "%.*f%c", d, value, suffix[k]);
	} else if (a >= 100) {
		snprintf(buf, len, "%.1f", value);
	} else if (a >= 99.995) { /* would print as 100.00: one decimal like the rest above 100 */
		snprintf(buf, len, "%.1f", value);
	} else if (a >= 1 || a == 0) {
		snprintf(buf, len, "%.2f", value);
	} else {
		snprintf(buf, len, a >= 0.01 ? "%.3f" : "%.1e", value);
	}
}


/* ---- header, message line, footer, key bar -------------------------------- */

/* Append "  PART" (or PART first) to LINE when all of it fits in WIDTH; true when it did. */
static bool panes_add_part(char *line, size_t len, int width, const char *part)
{
	size_t n = strlen(line), add = strlen(part) + (n ? 2 : 0);

	if (n + add > (size_t)width || n + add >= len)
		return false;
	snprintf(line + n, len - n, "%s%s", n ? "  " : "", part);
	return true;
}

/* The CPU brand without the marks and words a narrow header can spare. */
static void panes_short_brand(const char *brand, char *out, size_t len)
{
	static const char *const drop[] = { "(R)", "(TM)", "CPU ", "Intel", "@ " };
	size_t n = 0;

	for (const char *p = brand; *p && n + 1 < len;) {
		bool skipped = false;

		for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]) && !skipped; i++)
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
 * The two header lines, whole words only: what does not fit is left out
 * (a shorter brand first, the legend's colours, the layout), never cut in
 * the middle.
 */
static void panes_header(const struct view *v, const struct sample *s, double age, struct grid *g)
{
	const struct view_info *in = &v->info;
	char line[512] = "", part[256], skew[32], legend[160], brand[96];
	int x = g->w - (int)strlen(in->source) - 2, width;

	grid_blank(g, 0, 0, g->w, GRID_HEADER);
	width = (x > g->w / 2 ? x : g->w) - 2;
	panes_add_part(line, sizeof(line), width, "pmutop");
	panes_add_part(line, sizeof(line), width, in->host);
	panes_short_brand(in->brand, brand, sizeof(brand));
	if (!panes_add_part(line, sizeof(line), width, in->brand))
		panes_add_part(line, sizeof(line), width, brand);
	snprintf(part, sizeof(part), "(%s, layout %s)", in->uarch, in->layout->name);
	if (!panes_add_part(line, sizeof(line), width, part))
		panes_add_part(line, sizeof(line), width, in->layout->name);
	grid_put(g, 0, 1, g->w - 1, GRID_HEADER, "%s", line);
	if (x > g->w / 2)
		grid_put(g, 0, x, g->w - x, in->simulated ? GRID_SIM : GRID_HEADER, " %s ", in->source);
	if (s && !isnan(s->skew_us))
		snprintf(skew, sizeof(skew), "%.1f ms%s", s->skew_us / 1000, s->batched ? " (batch)" : "");
	else
		snprintf(skew, sizeof(skew), "-");
	line[0] = 0;
	width = g->w - 12;
	/* the command run under pmutop first: it is what the user is watching */
	if (v->run[0])
		panes_add_part(line, sizeof(line), width, v->run);
	if (v->mark[0]) {
		snprintf(part, sizeof(part), "mark: %s", v->mark);
		panes_add_part(line, sizeof(line), width, part);
	}
	if (v->rec[0])
		panes_add_part(line, sizeof(line), width, v->rec);
	snprintf(part, sizeof(part), "interval %.1f s", v->interval);
	panes_add_part(line, sizeof(line), width, part);
	snprintf(part, sizeof(part), "sample %llu", s ? (unsigned long long)s->seq : 0ull);
	panes_add_part(line, sizeof(line), width, part);
	snprintf(part, sizeof(part), "age %.0f s", s ? floor(age) : 0.0);
	panes_add_part(line, sizeof(line), width, part);
	snprintf(part, sizeof(part), "skew %s", skew);
	panes_add_part(line, sizeof(line), width, part);
	pane_heat_legend(in->layout, v->heat_metric, legend, sizeof(legend));
	snprintf(part, sizeof(part), "heat: %s", legend);
	if (!panes_add_part(line, sizeof(line), width, part)) {
		snprintf(part, sizeof(part), "heat: %s", in->layout->metrics[v->heat_metric].name);
		panes_add_part(line, sizeof(line), width, part);
	}
	if (v->filter[0]) {
		snprintf(part, sizeof(part), "filter: %s", v->filter);
		panes_add_part(line, sizeof(line), width, part);
	}
	if (v->pid) {
		snprintf(part, sizeof(part), "pid: %d", v->pid);
		panes_add_part(line, sizeof(line), width, part);
	}
	grid_put(g, 1, 1, g->w - 12, GRID_NORMAL, "%s", line);
	grid_put_right(g, 1, g->w - 10, 9, v->paused ? GRID_WARN : GRID_OK,
		       v->paused ? "PAUSED" : !s ? "STARTING" : in->replay ? "PLAYING"
		       : in->viewer ? "VIEWING" : "LIVE");
}


static void panes_message(const struct view *v, const struct sample *s, struct grid *g)
{
	static const char *const prompts[] = {
		[VIEW_PROMPT_FILTER] = "CPU filter (e.g. 0-3,8; empty shows all), Enter applies: ",
		[VIEW_PROMPT_PID] = "Highlight the CPUs of process (PID; empty clears): ",
		[VIEW_PROMPT_FIND] = "Find CPU (a number) or core (c and its id, e.g. c3), Enter: ",
		[VIEW_PROMPT_SORT] = "Sort by column (a name or its start; none: topology order), Enter: ",
		[VIEW_PROMPT_GOTO] = "Go to a time of the recording (seconds, or M:SS), Enter: ",
	};
	int rotating = 0;

	if (v->prompt) {
		int x = grid_put(g, 2, 1, g->w - 2, GRID_BOLD, "%s", prompts[v->prompt]);

		grid_put(g, 2, 1 + x, g->w - 2 - x, GRID_SELECT, "%s_", v->input);
		return;
	}
	if (v->status[0] && (!v->status_until || view_now() < v->status_until)) {
		grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%s", v->status);
		return;
	}
	if (s && s->error[0]) {
		grid_put(g, 2, 1, g->w - 2, GRID_CRIT, "%s", s->error);
		return;
	}
	for (int i = 0; s && i < v->info.layout->ngroups; i++)
		rotating += s->groups[i].state == SAMPLE_GROUP_ROTATING;
	if (s && s->warning[0]) {
		/* longer than the line: its start, and where the whole of it is */
		if ((int)strlen(s->warning) > g->w - 2)
			grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%.*s... (d: all of it)",
				 g->w > 24 ? g->w - 24 : 0, s->warning);
		else
			grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%s", s->warning);
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
	} else if (rotating) {
		char text[160];

		snprintf(text, sizeof(text), "%d groups take turns on the counters: * marks a figure "
			 "scaled from the time its counter counted", rotating);
		if ((int)strlen(text) > g->w - 2)
			snprintf(text, sizeof(text), "%d groups take turns: * figures are scaled", rotating);
		grid_put(g, 2, 1, g->w - 2, GRID_WARN, "%s", text);
	}
	else if (!s)
		grid_put(g, 2, 1, g->w - 2, GRID_DIM, "waiting for the first sample...");
}

/* The counter budget: free counters, then each group with its key, size and state. */
/* One "| item" of the footer at *X of row *Y, on the next row when it does not fit. */
static void panes_footer_item(struct grid *g, int *x, int *y, int *rows, const char *item, int len,
			      enum grid_style style, bool draw)
{
	if (*x + len + 2 > g->w - 1) {
		(*rows)++;
		(*y)++;
		*x = 1;
	}
	if (draw) {
		grid_put(g, *y, *x, g->w - 1 - *x, GRID_DIM, "|");
		grid_put(g, *y, *x + 2, g->w - 3 - *x, style, "%s", item);
	}
	*x += len + 3;
}

static int panes_footer_rows(const struct view *v, const struct sample *s, struct grid *g, int y,
			     bool draw, bool only_on, bool summary)
{
	const struct layout *l = v->info.layout;
	int x = 1, rows = 1;

	{
		char head[96], rot[32] = "";

		if (s && s->rotation_s > 0)
			snprintf(rot, sizeof(rot), ", rotation %.2g ms", 1e3 * s->rotation_s);
		/* used by pmutop, free, and taken by another program: never "free" for what is in use */
		if (s && s->unc_usable)
			snprintf(head, sizeof(head), "Counters/thread: %d used %d free %u taken%s; %d/uncore ",
				 s->gp_used, s->gp_usable - s->gp_used,
				 v->info.gp_counters - (unsigned)s->gp_usable, rot, s->unc_usable);
		else if (s)
			snprintf(head, sizeof(head), "Counters/thread: %d used %d free %u taken%s ",
				 s->gp_used, s->gp_usable - s->gp_used,
				 v->info.gp_counters - (unsigned)s->gp_usable, rot);
		else
			snprintf(head, sizeof(head), "Counters/thread: %u ", v->info.gp_counters);
		if (draw)
			x += grid_put(g, y, x, g->w - 2, GRID_BOLD, "%s", head);
		else
			x += (int)strlen(head);
	}
	int off = 0, count[4] = { 0 };

	/* still too many: one item, the groups counted by state */
	if (summary) {
		char item[96];
		int len;

		for (int i = 0; i < l->ngroups; i++)
			count[s ? s->groups[i].state : SAMPLE_GROUP_OFF]++;
		len = snprintf(item, sizeof(item), "groups: %d LIVE, %d ROT, %d BLOCKED, %d off (F1 "
			       "lists them)", count[SAMPLE_GROUP_LIVE], count[SAMPLE_GROUP_ROTATING],
			       count[SAMPLE_GROUP_BLOCKED], count[SAMPLE_GROUP_OFF]);
		panes_footer_item(g, &x, &y, &rows, item, len, count[SAMPLE_GROUP_BLOCKED] ? GRID_CRIT
				  : count[SAMPLE_GROUP_ROTATING] ? GRID_WARN : GRID_OK, draw);
		return rows;
	}
	for (int i = 0; i < l->ngroups; i++) {
		static const char *const names[] = { "off", "LIVE", "ROT", "BLOCKED" };
		enum sample_group_state st = s ? s->groups[i].state : SAMPLE_GROUP_OFF;
		enum grid_style style = st == SAMPLE_GROUP_LIVE	    ? GRID_OK
					: st == SAMPLE_GROUP_ROTATING ? GRID_WARN
					: st == SAMPLE_GROUP_BLOCKED  ? GRID_CRIT
								      : GRID_DIM;
		char item[96];
		int len;

		if (!s && (v->groups & (1u << i)))
			style = GRID_NORMAL;
		/* a narrow screen: the groups that are off are counted, not listed */
		if (only_on && st == SAMPLE_GROUP_OFF && !(!s && (v->groups & (1u << i)))) {
			off++;
			continue;
		}
		/* free-running IMC counters take no programmable counter */
		len = snprintf(item, sizeof(item), "%c %s:%d %s", l->groups[i].key ? l->groups[i].key : ' ',
			       l->groups[i].name,
			       l->groups[i].pmu == LAYOUT_PMU_IMC ? 0 : l->groups[i].nevents,
			       names[st]);
		panes_footer_item(g, &x, &y, &rows, item, len, style, draw);
	}
	if (off) {
		char item[64];
		int len = snprintf(item, sizeof(item), "%d more off (F1 lists them)", off);

		panes_footer_item(g, &x, &y, &rows, item, len, GRID_DIM, draw);
	}
	return rows;
}

/*
 * The counter budget: free counters, then each group with its key, size
 * and state; when that takes more than a few rows (two on a short screen,
 * three otherwise), the groups that are off are only counted, so the panes
 * keep their room.  Returns the rows used.
 */
static int panes_footer(const struct view *v, const struct sample *s, struct grid *g, int y,
			bool draw)
{
	int most = g->h < 40 ? 2 : 3;
	bool only_on = panes_footer_rows(v, s, g, y, false, false, false) > most;
	bool summary = only_on && panes_footer_rows(v, s, g, y, false, true, false) > most;

	return panes_footer_rows(v, s, g, y, draw, only_on, summary);
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

/* Every pane, by enum view_pane: the only list of them. */
const struct pane *const panes_registry[VIEW_NPANES] = {
	[VIEW_PANE_TOPO] = &topology_pane, [VIEW_PANE_TABLE] = &threads_pane,
	[VIEW_PANE_PORTS] = &ports_pane,   [VIEW_PANE_UNCORE] = &uncore_pane,
	[VIEW_PANE_IMC] = &imc_pane,       [VIEW_PANE_CYCLES] = &cycles_pane,
};

static void panes_tabs(const struct view *v, int y, struct grid *g, struct view_frame *f)
{
	int x = 1;

	grid_hline(g, y, 0, g->w, GRID_DIM);
	for (int p = VIEW_PANE_TABLE; p < VIEW_NPANES; p++) {
		enum grid_style st = (int)v->lower == p ? ((int)v->focus == p ? GRID_SELECT : GRID_BOLD) : GRID_DIM;
		int w = grid_put(g, y, x, g->w - x, st, (int)v->lower == p ? "[%s]" : " %s ",
				 panes_registry[p]->title);

		pane_hit_tab(f, y, x, w, (enum view_pane)p);
		x += w + 1;
	}
	grid_put(g, y, x + 1, g->w - x - 1, GRID_DIM, " Tab: next pane ");
}


/* ---- overlays -------------------------------------------------------------- */

static void panes_overlay_box(struct grid *g, const char *title, int *y, int *x, int *h, int *w)
{
	*w = g->w - 8;
	*h = g->h - 4;
	*y = 2;
	*x = 4;
	for (int r = 0; r < *h; r++)
		grid_blank(g, *y + r, *x, *w, GRID_NORMAL);
	grid_box(g, *y, *x, *h, *w, GRID_TITLE, title);
}

/* Lines of TEXT (separated by '\n') into the box, clipped. */
static void panes_text(struct grid *g, int y, int x, int h, int w, const char *text)
{
	int r = 0;

	for (const char *p = text; *p && r < h; r++) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		grid_put(g, y + r, x, len < w ? len : w, GRID_NORMAL, "%.*s", len, p);
		p += len + (nl ? 1 : 0);
	}
}

static void panes_help(const struct view *v, struct grid *g)
{
	const struct layout *l = v->info.layout;
	char text[4096];
	size_t n;
	int y, x, h, w;

	panes_overlay_box(g, "Help (any key closes)", &y, &x, &h, &w);
	n = (size_t)snprintf(text, sizeof(text),
		"1-9 a-z    toggle the layout's event groups (keys below)\n"
		"Tab S-Tab  next / previous pane:\n");
	for (int p = 0; p < VIEW_NPANES && n < sizeof(text); p++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "  %-9s %s\n",
				      panes_registry[p]->name, panes_registry[p]->help);
	if (n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n,
			"arrows     select; PgUp PgDn Home End scroll; Left Right: a wide table sideways\n"
			"F2         choose the table's columns (saved)\n"
			"F3 F4 F6   find a CPU (12) or core (c3); filter CPUs; sort by a named column\n"
			"Enter      zoom the topology to the selected socket (Esc: all)\n"
			"m M        heatmap metric   a  aggregation thread/core/socket\n"
			"s < >      sort column      r  reverse sort\n"
			"space      pause / resume   + -  interval (" ENGINE_INTERVAL_RANGE_TEXT " s)\n"
			"/          CPU filter (0-3,8)   p  highlight where a PID ran (@)\n"
			"e          explain the selected cell: formula, events, raw counts\n"
			"R          record the run to a file, or stop (--record FILE starts with one)\n"
			", . [ ] g  in a replay: step back / forward, slower / faster, go to a time\n"
			"viewer     (VIEWING: another pmutop's run) groups, + - are its owner's;\n"
			"           space freezes this screen only\n"
			"d          setup doctor     h ? F1  this help     q F10  quit\n"
			"mouse      a click selects a cell or a row, sorts by a header, switches to a tab\n"
			"\nGroups of layout %s (a * figure was scaled: groups took turns):\n", l->name);
	for (int i = 0; i < l->ngroups && n < sizeof(text); i++) {
		/* free-running IMC counters take no programmable counter */
		int need = l->groups[i].pmu == LAYOUT_PMU_IMC ? 0 : l->groups[i].nevents;

		n += (size_t)snprintf(text + n, sizeof(text) - n, "  %c  %-12s %2d counter%s %s\n",
				      l->groups[i].key ? l->groups[i].key : ' ', l->groups[i].name, need,
				      need == 1 ? " " : "s", l->groups[i].title);
	}
	panes_text(g, y + 1, x + 2, h - 2, w - 4, text);
}

/* The entity the explain overlay is about (the selected cell or row), and its metric. */
static const struct sample_entity *panes_selected(const struct view *v, const struct sample *s,
						  const struct view_frame *f, int *metric)
{
	*metric = v->focus != VIEW_PANE_TOPO && v->sort_metric >= 0 ? v->sort_metric : v->heat_metric;
	if (!s)
		return NULL;
	for (int i = 0; i < f->nhits; i++) {
		const struct view_hit *h = &f->hits[i];

		if (h->pane != v->focus || h->pos != f->sel || h->entity < 0 || h->what != VIEW_HIT_CELL)
			continue;
		/* an uncore or IMC line says which metric it shows */
		if (h->metric >= 0)
			*metric = h->metric;
		return h->kind == VIEW_AGG_THREAD ? &s->threads[h->entity]
		       : h->kind == VIEW_AGG_CORE ? &s->cores[h->entity]
		       : h->kind == VIEW_AGG_CHANNEL ? &s->channels[h->entity]
						  : &s->sockets[h->entity];
	}
	return s->nthreads ? &s->threads[0] : NULL;
}

/* "cpu 3", "core 2 of socket 0", "socket 1". */
static const char *panes_entity_name(const struct view *v, const struct sample *s,
				     const struct sample_entity *e, char *buf, size_t len)
{
	(void)v;
	if (!e)
		snprintf(buf, len, "nothing selected");
	else if (e >= s->threads && e < s->threads + s->nthreads)
		snprintf(buf, len, "cpu %d", e->index);
	else if (e >= s->cores && e < s->cores + s->ncores)
		snprintf(buf, len, "core %d of socket %d", e->os_core_id, e->os_socket_id);
	else if (s->nchannels && e >= s->channels && e < s->channels + s->nsockets * s->nchannels)
		snprintf(buf, len, "socket %d channel %d", e->os_socket_id, e->index);
	else
		snprintf(buf, len, "socket %d", e->os_socket_id);
	return buf;
}

static void panes_explain(const struct view *v, const struct sample *s,
			  const struct view_frame *f, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int m, y, x, h, w;
	const struct sample_entity *e = panes_selected(v, s, f, &m);
	const struct layout_metric *mt = &l->metrics[m];
	char text[4096], val[32], name[64];
	size_t n;

	panes_overlay_box(g, "Explain (any key closes)", &y, &x, &h, &w);
	pane_value(s, m, e ? sample_metric(s, e, m) : NAN, val, sizeof(val));
	n = (size_t)snprintf(text, sizeof(text), "%s (%s, per %s) on %s: %s\n%s\n\n  %s = %s\n",
			     mt->name, mt->unit,
			     layout_scope_names[mt->scope],
			     panes_entity_name(v, s, e, name, sizeof(name)), val,
			     mt->help ? mt->help : "", mt->name, mt->formula);
	if (mt->group < 0) {
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\nFrom the fixed counters and the TSC: always counted, never scaled.\n");
	} else {
		const struct layout_group *gr = &l->groups[mt->group];
		const struct sample_group *sg = s ? &s->groups[mt->group] : NULL;

		n += (size_t)snprintf(text + n, sizeof(text) - n, "\nGroup %s (key %c): %s", gr->name,
				      gr->key, !sg ? "no sample yet"
					       : sg->state == SAMPLE_GROUP_OFF ? "off"
					       : sg->state == SAMPLE_GROUP_LIVE ? "counted the whole interval"
					       : sg->state == SAMPLE_GROUP_BLOCKED ? sg->why : "");
		if (sg && sg->state == SAMPLE_GROUP_ROTATING)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "counted %.0f%% of the interval, counts scaled by %.2f",
					      100 * sg->live_share, 1 / sg->live_share);
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\n\n  event                 code umask cmask inv edge any  register value   "
				      "as read   scaled\n");
		/* the perf source's runs: "perf", or an emulated machine's "... (perf)" */
		bool via_perf = s && s->source && (!strcmp(s->source, "perf") ||
						   strstr(s->source, "(perf)"));

		for (int i = 0; i < gr->nevents && n < sizeof(text); i++) {
			const struct layout_event *ev = &l->events[gr->first_event + i];
			bool chan = e && s->nchannels && e >= s->channels &&
				    e < s->channels + s->nsockets * s->nchannels;
			double scaled = e ? e->vars[layout_event_var(l, gr->first_event + i)] : NAN;
			double raw = e && e->raw ? e->raw[gr->first_event + i] : NAN;
			char reg[40], rawtxt[32];

			/* a channel's line shows that channel's events; a socket's, each channel's */
			if (chan && ev->channel >= 0 && ev->channel != e->index)
				continue;
			if (!chan && e && ev->channel >= 0 && s->nchannels > ev->channel &&
			    e >= s->sockets && e < s->sockets + s->nsockets)
				scaled = sample_channel(s, e->socket, ev->channel)
						 ->vars[layout_event_var(l, gr->first_event + i)];
			/*
			 * what is written where: PERFEVTSEL, an uncore select, or a free-running
			 * MMIO counter; through perf nothing is written: the raw config the
			 * kernel is given (the select's event bits, placed by the PMU's format)
			 */
			if (via_perf && ev->pmu == LAYOUT_PMU_IMC)
				snprintf(reg, sizeof(reg), "perf uncore_imc");
			else if (via_perf)
				snprintf(reg, sizeof(reg), "perf raw %llX",
					 (unsigned long long)counter_perf_config(ev));
			else if (ev->pmu == LAYOUT_PMU_CORE)
				snprintf(reg, sizeof(reg), "PERFEVTSEL %llX",
					 (unsigned long long)counter_evtsel(ev, v->info.perfmon_version,
									    v->info.count_user,
									    v->info.count_kernel));
			else if (ev->pmu == LAYOUT_PMU_IMC)
				snprintf(reg, sizeof(reg), "MMIO +0x%X", ev->mmio);
			else
				snprintf(reg, sizeof(reg), "uncore sel %llX",
					 (unsigned long long)counter_uncore_evtsel(ev));
			panes_format(raw, rawtxt, sizeof(rawtxt));
			panes_format(scaled, val, sizeof(val));
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "  %-20s  0x%02X  0x%02X %5u %3d %4d %3d  %-16s %8s %8s%s\n",
					      ev->name, ev->event, ev->umask, ev->cmask, ev->inv, ev->edge,
					      ev->any, reg, rawtxt, val,
					      ev->channel >= 0 && !chan ? " channel" : "");
		}
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\nas read: the counts while the group was live; scaled: over the "
				      "whole interval (equal when it counted all of it)\n");
	}
	panes_text(g, y + 1, x + 2, h - 2, w - 4, text);
}

static void panes_doctor(const struct view *v, const struct sample *s, struct grid *g)
{
	static char text[12288];
	int y, x, h, w;

	panes_overlay_box(g, "Setup doctor (any key closes)", &y, &x, &h, &w);
	/* the message line's warning in full first: it may be cut on the screen */
	snprintf(text, sizeof(text), "%s%s%s%s", s && s->warning[0] ? "Now: " : "",
		 s && s->warning[0] ? s->warning : "", s && s->warning[0] ? "\n\n" : "",
		 v->info.doctor ? v->info.doctor : "The setup doctor is not available.");
	panes_text(g, y + 1, x + 2, h - 2, w - 4, text);
}

/* F2: the thread table's columns, each shown [x] or hidden [ ], the cursor on one. */
static void panes_columns(const struct view *v, const struct sample *s, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int y, x, h, w, row = 0, at = 0, first;

	panes_overlay_box(g, "Columns of the table: Up Down move, Space shows or hides, Esc closes",
			  &y, &x, &h, &w);
	for (int m = 0; m < v->chooser && m < l->nmetrics; m++)
		at += view_column_choosable(v, m);
	first = at >= h - 2 ? at - (h - 3) : 0;
	for (int m = 0, k = 0; m < l->nmetrics && row < h - 2; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		const char *state = "always counted";

		if (!view_column_choosable(v, m) || k++ < first)
			continue;
		if (mt->group >= 0)
			state = !s ? "" : s->groups[mt->group].state == SAMPLE_GROUP_OFF ? "group off"
				: s->groups[mt->group].state == SAMPLE_GROUP_BLOCKED ? "group blocked"
				: "group on";
		grid_put(g, y + 1 + row, x + 2, w - 4, m == v->chooser ? GRID_SELECT : GRID_NORMAL,
			 "[%c] %-28s %-7s %-12s %s", v->col_hidden[m] ? ' ' : 'x', mt->name,
			 layout_scope_names[mt->scope], mt->group >= 0 ? l->groups[mt->group].name : "-",
			 state);
		row++;
	}
}

/* ---- the screen ------------------------------------------------------------- */

void view_render(const struct view *v, const struct sample *s, double age_s, struct grid *g,
		 struct view_frame *f)
{
	int y, footer, lower_h, topo_h;

	grid_clear(g);
	f->nhits = 0;
	f->found = false;
	f->ncols = f->shown_cols = f->hcol = 0;
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
	panes_message(v, s, g);
	footer = panes_footer(v, s, g, 0, false);
	y = 3;
	topo_h = g->h - y - footer - 1 - PANES_TOPO_MIN_LOWER;
	topo_h = topology_pane.draw(v, s, y, topo_h, g, f);
	y += topo_h;
	lower_h = g->h - y - footer - 1;
	panes_tabs(v, y, g, f);
	if (!s)
		grid_put(g, y + 1, 2, g->w - 4, GRID_DIM, "no sample yet");
	else
		panes_registry[v->lower]->draw(v, s, y + 1, lower_h - 1, g, f);
	panes_footer(v, s, g, g->h - 1 - footer, true);
	panes_keybar(g);
	if (v->overlay == VIEW_OVERLAY_HELP)
		panes_help(v, g);
	else if (v->overlay == VIEW_OVERLAY_EXPLAIN)
		panes_explain(v, s, f, g);
	else if (v->overlay == VIEW_OVERLAY_DOCTOR)
		panes_doctor(v, s, g);
	else if (v->overlay == VIEW_OVERLAY_COLUMNS)
		panes_columns(v, s, g);
}
