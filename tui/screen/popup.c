/*
 * popup: help, explain, doctor, messages and the column chooser over the
 * screen.  See popup.h.
 */
#include "popup.h"
#include "expr.h"
#include "panes.h"
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The window: the screen less a margin, blanked, framed, titled. */
static void popup_box(struct grid *g, const char *title, int *y, int *x, int *h, int *w)
{
	*w = g->w - 4;
	*h = g->h - 2;
	*y = 1;
	*x = 2;
	for (int r = 0; r < *h; r++)
		grid_blank(g, *y + r, *x, *w, GRID_NORMAL);
	grid_box(g, *y, *x, *h, *w, GRID_TITLE, title);
}

int popup_wrap(const char *text, int w, const char **lines, int *lens, int *inds, int max)
{
	int n = 0;

	if (w < 8)
		w = 8;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p), indent = 0, pos = 0;

		while (indent < len && p[indent] == ' ')
			indent++;
		if (indent > w / 2)
			indent = w / 2;
		do {
			/* a continued line: its indent plus two, the text from where it left off */
			int ind = pos ? indent + 2 : 0, room = w - ind, take = len - pos;

			if (take > room) {
				/* break at the last blank that fits past the indent, else cut */
				take = room;
				for (int k = room; k > (pos ? 0 : indent); k--)
					if (p[pos + k] == ' ') {
						take = k;
						break;
					}
			}
			if (lines && n < max) {
				lines[n] = p + pos;
				lens[n] = take;
				inds[n] = ind;
			}
			n++;
			pos += take;
			while (pos < len && p[pos] == ' ')
				pos++;
		} while (pos < len);
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

/*
 * TEXT in the window titled TITLE, from line V->pop_scroll (kept in range),
 * with where it is and the keys on the bottom line.
 */
static void popup_text(const struct view *v, struct grid *g, struct view_frame *f,
		       const char *title, const char *text)
{
	int y, x, h, w, n, page, first;
	const char **lines;
	int *lens, *inds;
	char where[96];

	popup_box(g, title, &y, &x, &h, &w);
	n = popup_wrap(text, w - 4, NULL, NULL, NULL, 0);
	lines = xcalloc((size_t)n + 1, sizeof(*lines));
	lens = xcalloc((size_t)n + 1, sizeof(*lens));
	inds = xcalloc((size_t)n + 1, sizeof(*inds));
	popup_wrap(text, w - 4, lines, lens, inds, n);
	page = h - 2;
	first = v->pop_scroll;
	if (first > n - page)
		first = n - page;
	if (first < 0)
		first = 0;
	for (int r = 0; r < page && first + r < n; r++)
		grid_put(g, y + 1 + r, x + 2 + inds[first + r], w - 4 - inds[first + r], GRID_NORMAL,
			 "%.*s", lens[first + r], lines[first + r]);
	if (n > page)
		snprintf(where, sizeof(where), " lines %d-%d of %d: arrows PgUp PgDn Home End; Esc "
			 "closes ", first + 1, first + page < n ? first + page : n, n);
	else
		snprintf(where, sizeof(where), " Esc or q closes ");
	grid_put_right(g, y + h - 1, x + 1, w - 2, GRID_TITLE, where);
	f->pop_lines = n;
	f->pop_page = page;
	f->pop_scroll = first;
	free(lines);
	free(lens);
	free(inds);
}

static char *popup_help_text(const struct view *v)
{
	const struct layout *l = v->info.layout;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "1-9 a-z    toggle the layout's event groups (each listed below with its key)\n"
		"Tab S-Tab  next / previous pane:\n");
	for (int p = 0; p < view_npanes; p++)
		fprintf(f, "  %-9s %s\n", panes_registry[p]->name, panes_registry[p]->help);
	fprintf(f,
		"arrows     move the selection; in a table Left Right move the column cursor (the "
		"table scrolls sideways to follow); PgUp PgDn Home End scroll\n"
		"F2         choose the table's columns (saved)\n"
		"F3 F4 F6   find a CPU (12) or core (c3); filter CPUs; sort by a named column\n"
		"Enter      zoom the topology to the selected socket (Esc: all)\n"
		"O          fold the topology to a line per socket, the pane under it taller (O "
		"again unfolds)\n"
		"Right Left in the tree pane: open / close the selected node; B follows the "
		"bottleneck (<==); in the who pane: open / close a cgroup\n"
		"D          drill: the bottleneck line's next level counted by itself (the groups "
		"the flagged node's children read), and what the path no longer needs off\n"
		"W          the who pane: cgroups and processes (the selected one's CPUs @ on the "
		"topology; pmutop --who counts them); there s < > r sort, / filters by name, T "
		"shows the top-down level 1 per row\n"
		"m M        heatmap metric   a  aggregation thread/core/socket\n"
		"s < >      sort column      r  reverse sort\n"
		"space      pause / resume   + -  interval (" ENGINE_INTERVAL_RANGE_TEXT " s)\n"
		"/          CPU filter (0-3,8 or socket1)   p  highlight where a PID ran (@)\n"
		"e          explain the selected cell: formula, events, raw counts\n"
		"L          the recent messages in full\n"
		"R          record the run to a file, or stop (--record FILE starts with one)\n"
		", . [ ] g  in a replay: step back / forward, slower / faster, go to a time\n"
		"viewer     (VIEWING: another pmutop's run) groups, + - are its owner's; space "
		"freezes this screen only\n"
		"d          setup doctor     h ? F1  this help     q F10  quit (asks first while a "
		"command runs)\n"
		"mouse      a click selects a cell or a row, sorts by a header, switches to a tab\n"
		"In a window like this one: arrows, PgUp PgDn, Home End scroll; Esc, q, F1 or F10 "
		"close it; other keys do nothing.\n"
		"\nGroups of layout %s (a * figure was scaled: groups took turns; ~ from several "
		"groups' times):\n", l->name);
	for (int i = 0; i < l->ngroups; i++) {
		/* free-running IMC counters take no programmable counter */
		int need = layout_pmu_kinds[l->groups[i].pmu].free_running ? 0 : l->groups[i].nevents;

		fprintf(f, "  %c  %-12s %2d counter%s %s\n", l->groups[i].key ? l->groups[i].key : ' ',
			l->groups[i].name, need, need == 1 ? " " : "s", l->groups[i].title);
	}
	fclose(f);
	return text;
}

/* "cpu 3", "core 2 of socket 0", "socket 1". */
static const char *popup_entity_name(const struct sample *s, const struct sample_entity *e,
				     char *buf, size_t len)
{
	if (!e)
		snprintf(buf, len, "nothing selected");
	else if (e >= s->threads && e < s->threads + s->nthreads)
		snprintf(buf, len, "cpu %d", e->index);
	else if (e >= s->cores && e < s->cores + s->ncores)
		snprintf(buf, len, "core %d of socket %d", e->os_core_id, e->os_socket_id);
	else if (sample_in_part(s, SAMPLE_KIND_CHANNEL, e))
		snprintf(buf, len, "socket %d channel %d", e->os_socket_id, e->index);
	else
		snprintf(buf, len, "socket %d", e->os_socket_id);
	return buf;
}

/* What is written where for event EV: PERFEVTSEL, an uncore select, an MMIO counter, a perf config. */
static void popup_event_register(const struct view *v, const struct layout_event *ev, bool via_perf,
				 char *reg, size_t len)
{
	/* through perf nothing is written: the raw config the kernel is given */
	const struct layout_pmu_kind *k = &layout_pmu_kinds[ev->pmu];

	if (via_perf && k->free_running)
		snprintf(reg, len, "perf %s", k->kernel);
	else if (via_perf)
		snprintf(reg, len, "perf raw %llX", (unsigned long long)counter_perf_config(ev));
	else if (!k->per_socket)
		snprintf(reg, len, "PERFEVTSEL %llX",
			 (unsigned long long)counter_evtsel(ev, v->info.perfmon_version,
							    v->info.count_user, v->info.count_kernel));
	else if (k->free_running)
		snprintf(reg, len, "MMIO +0x%X", ev->mmio);
	else
		snprintf(reg, len, "uncore sel %llX", (unsigned long long)counter_uncore_evtsel(ev));
}

/* Whether metric M's explain lists event K: all of a one-group metric's, else those it reads. */
static bool popup_reads(const struct layout *l, int m, int k)
{
	return layout_groups_count(l->metrics[m].uses) < 2 || layout_metric_reads(l, m, k);
}

/* Group G of metric M's explain: its state and each event it counts. */
static void popup_explain_group(FILE *f, const struct view *v, const struct sample *s,
				const struct sample_entity *e, int m, int g, bool via_perf)
{
	const struct layout *l = v->info.layout;
	const struct layout_group *gr = &l->groups[g];
	const struct sample_group *sg = s ? &s->groups[g] : NULL;
	char val[32];

	fprintf(f, "\nGroup %s (key %c): %s", gr->name, gr->key,
		!sg ? "no sample yet" : sg->state == SAMPLE_GROUP_OFF ? "off"
		: sg->state == SAMPLE_GROUP_LIVE ? "counted the whole interval"
		: sg->state == SAMPLE_GROUP_BLOCKED ? sg->why : "");
	if (sg && sg->state == SAMPLE_GROUP_ROTATING)
		fprintf(f, "counted %.0f%% of the interval, counts scaled by %.2f",
			100 * sg->live_share, 1 / sg->live_share);
	fprintf(f, "\n\nEach event: code umask cmask inv edge any; what is written where; the "
		"count as read; scaled over the interval:\n");
	for (int i = 0; i < gr->nevents; i++) {
		int k = gr->first_event + i;
		const struct layout_event *ev = &l->events[k];
		bool chan = sample_in_part(s, SAMPLE_KIND_CHANNEL, e);
		double scaled = e ? e->vars[layout_event_var(l, k)] : NAN;
		double raw = e && e->raw ? e->raw[k] : NAN;
		char reg[40], rawtxt[32];

		if (!popup_reads(l, m, k))
			continue;
		/* a channel's line shows that channel's events; a socket's, each channel's */
		if (chan && ev->channel >= 0 && ev->channel != e->index)
			continue;
		if (!chan && e && ev->channel >= 0 && sample_nchannels(s) > ev->channel &&
		    e >= s->sockets && e < s->sockets + s->nsockets)
			scaled = sample_channel(s, e->socket, ev->channel)->vars[layout_event_var(l, k)];
		popup_event_register(v, ev, via_perf, reg, sizeof(reg));
		format_figure(raw, rawtxt, sizeof(rawtxt));
		format_figure(scaled, val, sizeof(val));
		fprintf(f, "  %-20s 0x%02X 0x%02llX %u %d %d %d  %s  read %s  scaled %s%s%s\n",
			ev->name, ev->event, (unsigned long long)ev->umask, ev->cmask, ev->inv,
			ev->edge, ev->any, reg,
			rawtxt, val, ev->channel >= 0 && !chan ? " (channel)" : "",
			v->info.unmodelled && v->info.unmodelled[k]
			? " (the emulated machine does not model this event: it counts 0)" : "");
	}
}

/*
 * The counters among the built-ins metric M reads (fixed counters 0-3 and
 * the PERF_METRICS fields): each with its figure on E and what it is.
 */
static bool popup_explain_builtins(FILE *f, const struct layout *l, int m,
				   const struct sample_entity *e)
{
#define POPUP_BUILTIN_HELP(n, h) h,
	static const char *const help[LAYOUT_NBUILTINS] = { LAYOUT_BUILTINS(POPUP_BUILTIN_HELP) };
#undef POPUP_BUILTIN_HELP
	const int *vars;
	int n;
	bool head = false;

	if (!l->metrics[m].expr)
		return false;
	expr_vars(l->metrics[m].expr, &vars, &n);
	for (int i = 0; i < n; i++) {
		char val[32];
		int b = vars[i];

		if (b >= LAYOUT_NBUILTINS ||
		    (b > LAYOUT_B_ref_cycles && b < LAYOUT_B_slots))
			continue; /* an event, a metric; the TSC, time, the uncore's */
		if (!head)
			fprintf(f, "\nFrom the fixed counters (always counted, never scaled):\n");
		head = true;
		format_figure(e ? e->vars[b] : NAN, val, sizeof(val));
		fprintf(f, "  %-22s %8s  %s\n", layout_builtin_names[b], val, help[b]);
	}
	return head;
}

/*
 * A CHA group's metric M on socket entity E: each CHA's own (sample_box),
 * the least and the most and the CHAs that have them, then every CHA's.
 */
static void popup_explain_chas(FILE *f, const struct sample *s, const struct sample_entity *e,
			       int m)
{
	const struct layout *l = s->layout;
	int sk = (int)(e - s->sockets), lo = -1, hi = -1, n = 0;
	double sum = 0, lov = NAN, hiv = NAN;
	char a[32];

	if (!sample_nboxes(s) || e < s->sockets || sk >= s->nsockets || !sample_box_metric(l, m))
		return;
	for (int b = 0; b < sample_nboxes(s); b++) {
		double x = sample_metric(s, sample_box(s, sk, b), m);

		if (isnan(x))
			continue;
		if (lo < 0 || x < lov)
			lo = b, lov = x;
		if (hi < 0 || x > hiv)
			hi = b, hiv = x;
		sum += x;
		n++;
	}
	fprintf(f, "\nPer CHA (L3 slice) of socket %d: each CHA's counts alone (a rate its share "
		"of the socket's, a latency or ratio its own)", e->os_socket_id);
	if (!n) {
		fprintf(f, ": n/a\n");
		return;
	}
	pane_value(s, m, lov, a, sizeof(a));
	fprintf(f, "\n  least %s (CHA %d)", a, lo);
	pane_value(s, m, sum / n, a, sizeof(a));
	fprintf(f, ", mean %s", a);
	pane_value(s, m, hiv, a, sizeof(a));
	fprintf(f, ", most %s (CHA %d)\n", a, hi);
	for (int b = 0; b < sample_nboxes(s); b++) {
		pane_value(s, m, sample_metric(s, sample_box(s, sk, b), m), a, sizeof(a));
		fprintf(f, "%s CHA %3d %8s", b % 4 ? " " : "\n ", b, a);
	}
	fputc('\n', f);
}

static char *popup_explain_text(const struct view *v, const struct sample *s,
				const struct view_frame *fr)
{
	const struct layout *l = v->info.layout;
	int m;
	const struct sample_entity *e = pane_selected(v, s, fr, &m);
	const struct layout_metric *mt = &l->metrics[m];
	char *text = NULL, val[32], name[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	/* the perf source's runs: "perf", or an emulated machine's "... (perf)" */
	bool via_perf = s && s->source && (!strcmp(s->source, "perf") || strstr(s->source, "(perf)"));

	if (!f)
		return NULL;
	pane_value(s, m, e ? sample_metric(s, e, m) : NAN, val, sizeof(val));
	fprintf(f, "%s (%s, per %s) on %s: %s\n%s\n\n  %s = %s\n", mt->name, mt->unit,
		layout_scope_names[mt->scope], popup_entity_name(s, e, name, sizeof(name)), val,
		mt->help ? mt->help : "", mt->name, mt->formula);
	if (mt->na)
		fprintf(f, "\nNot counted here: %s.\n", mt->na);
	/* a hybrid: a metric of one kind of core is n/a on the other's */
	if (e && e->core >= 0 && layout_metric_coretype(l, m) &&
	    pane_core_kind(v->info.topo, e->core) != LAYOUT_CORES_ANY &&
	    pane_core_kind(v->info.topo, e->core) != (unsigned)layout_metric_coretype(l, m))
		fprintf(f, "\nn/a on this CPU: a metric of the %s, whose PMU (%s) and events this "
			"%s has not; its own kind's metrics show its figures (/ %s: that kind alone).\n",
			layout_metric_coretype(l, m) == LAYOUT_CORES_E ? "E-cores" : "P-cores",
			layout_metric_coretype(l, m) == LAYOUT_CORES_E ? "cpu_atom" : "cpu_core",
			layout_metric_coretype(l, m) == LAYOUT_CORES_E ? "P-core" : "E-core",
			layout_metric_coretype(l, m) == LAYOUT_CORES_E ? "P" : "E");
	if (mt->threshold_text) {
		int flag = e ? layout_metric_flagged(l, m, e->vars) : -1;

		fprintf(f, "\n%s: %s\n  %s here%s\n", mt->threshold_own ? "pmutop's threshold (the "
			"largest of its level: its vendor publishes none)" : "The vendor's threshold",
			mt->threshold_text,
			flag == 1 ? "over it: flagged" : flag == 0 ? "not over it" : "n/a",
			flag == 1 && mt->parent >= 0 ? " (and so is its parent, where the threshold "
			"names it)" : "");
	}
	if (mt->na) {
		/* nothing counted */
	} else if (popup_explain_builtins(f, l, m, e) && mt->group < 0) {
		/* said with the counters */
	} else if (mt->group < 0) {
		fprintf(f, "\nFrom the fixed counters and the TSC: always counted, never scaled.\n");
	} else {
		for (layout_groups u = mt->uses; u; u &= u - 1)
			popup_explain_group(f, v, s, e, m, layout_groups_first(u), via_perf);
		fprintf(f, "\nread: the counts while the group was live; scaled: over the whole "
			"interval (equal when it counted all of it)\n");
		if (layout_groups_count(mt->uses) > 1)
			fprintf(f, "Its events count in %d groups that take turns (more than the "
				"counters hold at once): each is scaled by its own group's time.\n",
				layout_groups_count(mt->uses));
		if (s && e)
			popup_explain_chas(f, s, e, m);
	}
	fclose(f);
	return text;
}

static char *popup_doctor_text(const struct view *v, const struct sample *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	/* the message line's warning in full first: it may be cut on the screen */
	if (s && s->warning[0])
		fprintf(f, "Now: %s\n\n", s->warning);
	if (v->info.doctor)
		fputs(v->info.doctor, f);
	else if (v->info.viewer)
		fputs("This pmutop views another one's run, read-only: the setup doctor checks the "
		      "machine the counters are on. Run 'pmutop --doctor' there, as the owner's user "
		      "(it programs nothing).", f);
	else if (v->info.replay)
		fputs("This is a recording: the setup doctor checks a live machine. Run 'pmutop "
		      "--doctor' on the machine that was recorded.", f);
	else
		fputs("The setup doctor is not available here: run 'pmutop --doctor' on the machine.",
		      f);
	fclose(f);
	return text;
}

static char *popup_messages_text(const struct view *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (!v->log_n)
		fputs("No message yet.", f);
	for (int i = 0; i < v->log_n; i++) {
		const struct view_log_entry *e = &v->log[(v->log_first + i) % VIEW_LOG_N];
		struct tm tm;
		char when[16];

		localtime_r(&e->t, &tm);
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
		fprintf(f, "%s  %s\n", when, e->text);
	}
	fclose(f);
	return text;
}

/* F2: the thread table's columns, each shown [x] or hidden [ ], the cursor on one. */
static void popup_columns(const struct view *v, const struct sample *s, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int y, x, h, w, row = 0, at = 0, first;

	popup_box(g, "Columns of the table: Up Down move, Space shows or hides, Esc closes", &y, &x,
		  &h, &w);
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

void popup_render(const struct view *v, const struct sample *s, struct view_frame *f,
		  struct grid *g)
{
	char *text = NULL;
	const char *title = "";

	switch (v->overlay) {
	case VIEW_OVERLAY_NONE:
		return;
	case VIEW_OVERLAY_COLUMNS:
		popup_columns(v, s, g);
		return;
	case VIEW_OVERLAY_HELP:
		text = popup_help_text(v);
		title = "Help";
		break;
	case VIEW_OVERLAY_EXPLAIN:
		text = panes_registry[v->focus]->explain ? panes_registry[v->focus]->explain(v, s) : NULL;
		if (!text)
			text = popup_explain_text(v, s, f);
		title = "Explain";
		break;
	case VIEW_OVERLAY_DOCTOR:
		text = popup_doctor_text(v, s);
		title = "Setup doctor";
		break;
	case VIEW_OVERLAY_MESSAGES:
		text = popup_messages_text(v);
		title = "Recent messages";
		break;
	}
	popup_text(v, g, f, title, text ? text : "(out of memory)");
	free(text);
}
