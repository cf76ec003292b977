/*
 * Tests for the interactive screen without a terminal: the grid (clipping,
 * boxes and bars in UTF-8 and ASCII, the text dump), number formatting,
 * what view_render draws from a sample (CPU numbers where hwloc puts them,
 * values, n/a, the scaled mark, the too-small message), what each key does,
 * the settings file (round trip, a bad line, atomic save) and pidcpus.
 */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>

#include "check_main.h"
#include "grid.h"
#include "layout.h"
#include "options.h"
#include "panes.h"
#include "panes/pane.h"
#include "pidcpus.h"
#include "rcfile.h"
#include "sample.h"
#include "topo.h"
#include "view.h"
#include "history.h"
#include "xmalloc.h"

/* Line Y of the grid as text. */
static char *line_of(const struct grid *g, int y)
{
	char *all = grid_text(g), *p = all;

	for (int i = 0; i < y && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	ck_assert_ptr_nonnull(p);
	p[strcspn(p, "\n")] = 0;
	memmove(all, p, strlen(p) + 1);
	return all;
}

START_TEST(grid_clips_and_dumps_what_it_draws)
{
	struct grid *g = grid_new(10, 3, true);
	char *t;

	ck_assert_int_eq(grid_put(g, 0, 6, 99, GRID_NORMAL, "%s", "abcdef"), 4);
	grid_put(g, 5, 0, 10, GRID_NORMAL, "outside"); /* no effect, no crash */
	grid_bar(g, 1, 0, 4, 0.5, GRID_BAR);
	grid_bar(g, 2, 0, 4, 1.0 / 32, GRID_BAR);
	t = grid_text(g);
	ck_assert_str_eq(t, "      abcd\n\u2588\u2588\n\u258F\n");
	free(t);
	grid_free(g);

	g = grid_new(6, 3, false);
	grid_box(g, 0, 0, 3, 6, GRID_DIM, NULL);
	grid_bar(g, 1, 1, 4, 0.5, GRID_BAR);
	t = grid_text(g);
	ck_assert_str_eq(t, "+----+\n|##  |\n+----+\n");
	free(t);
	grid_free(g);
}
END_TEST

START_TEST(numbers_fit_their_cells)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ NAN, "n/a" },     { 0, "0.00" },        { 0.347, "0.347" },  { 2.93, "2.93" },
		{ 99.46, "99.46" }, { 99.999, "100.0" },  { 100, "100.0" },    { 12345, "12.3k" },
		{ 3.1e7, "31.0M" }, { 2.5e9, "2.50G" },   { 0.005, "5.0e-03" }, { -4.5, "-4.50" },
		/* the suffix chosen after rounding */
		{ 999.6e3, "1.00M" }, { 99960, "100k" },  { 19996, "20.0k" },  { 999.4e3, "999k" },
		{ -999.7e6, "-1.00G" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_figure(cases[i].v, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, cases[i].want), "%g: '%s', want '%s'", cases[i].v, buf,
			      cases[i].want);
		ck_assert_int_le(strlen(buf), 7);
	}
}
END_TEST

/* ---- a screen from a hand-made sample -------------------------------------- */

struct fixture {
	struct layout *l;
	struct topo *t;
	struct sample *s;
	struct view v;
	struct view_frame frame;
	struct grid *g;
};

/* Nehalem-EP's topology and layout; thread metric util = 10 x OS CPU number, cpu 5 n/a. */
static void fixture_open(struct fixture *f, int w, int h)
{
	char err[512], path[512];
	struct view_info in = { 0 };
	int util;

	snprintf(path, sizeof(path), "%s/nehalem.layout", LAYOUT_SRCDIR);
	ck_assert_msg(layout_load(path, &f->l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(topo_load("pack:2 [numa(memory=12GiB)] l3:1(size=8MiB) core:4 "
				"pu:2(indexes=2*8:1*2)", &f->t, err, sizeof(err)) == 0, "%s", err);
	f->s = sample_new(f->l, f->t->nthreads, f->t->ncores, f->t->nsockets);
	f->s->seq = 7;
	f->s->source = "SIMULATED test";
	f->s->simulated = true;
	f->s->gp_usable = 4;
	util = layout_metric_find(f->l, "util");
	for (int i = 0; i < f->t->nthreads; i++) {
		const struct topo_thread *th = &f->t->threads[i];
		struct sample_entity *e = &f->s->threads[i];

		e->index = th->os_cpu;
		e->core = th->core;
		e->socket = th->socket;
		e->os_core_id = f->t->cores[th->core].core_id;
		e->os_socket_id = th->socket;
		e->vars[layout_metric_var(f->l, util)] = th->os_cpu == 5 ? NAN : 10.0 * th->os_cpu;
	}
	for (int k = 0; k < f->t->ncores; k++) {
		f->s->cores[k].index = k;
		f->s->cores[k].socket = f->t->cores[k].socket;
		f->s->cores[k].os_core_id = f->t->cores[k].core_id;
	}
	in = (struct view_info){ .host = "box", .brand = "Xeon X5570", .uarch = "Nehalem",
				 .source = "SIMULATED test", .simulated = true, .layout = f->l,
				 .topo = f->t, .gp_counters = 4, .perfmon_version = 3,
				 .count_user = true, .count_kernel = true, .utf8 = true };
	view_init(&f->v, &in, 1, 1.0);
	f->frame = (struct view_frame){ 0 };
	f->g = grid_new(w, h, true);
}

static void fixture_close(struct fixture *f)
{
	grid_free(f->g);
	view_free(&f->v);
	view_frame_free(&f->frame);
	sample_release(f->s);
	topo_free(f->t);
	layout_free(f->l);
}

static char *render(struct fixture *f)
{
	view_render(&f->v, f->s, 0.25, f->g, &f->frame);
	return grid_text(f->g);
}

START_TEST(screen_shows_sockets_cpus_and_values)
{
	struct fixture f;
	char *t;

	fixture_open(&f, 160, 50);
	t = render(&f);
	ck_assert_ptr_nonnull(strstr(t, "Socket 0"));
	ck_assert_ptr_nonnull(strstr(t, "cpus 0-3,8-11"));
	ck_assert_ptr_nonnull(strstr(t, "cpus 4-7,12-15"));
	ck_assert_ptr_nonnull(strstr(t, "SIMULATED test"));
	ck_assert_ptr_nonnull(strstr(t, "sample 7"));
	/* cpu 12 (core 4's sibling) in socket 1's box with its value; cpu 5 n/a */
	ck_assert_ptr_nonnull(strstr(t, "  12  120.0"));
	ck_assert_ptr_nonnull(strstr(t, "   5    n/a"));
	/* the thread table: cpu 8 is core 0 of socket 0 */
	ck_assert_msg(strstr(t, "    8    0    0    80.00") != NULL, "%s", t);
	free(t);
	f.s->metric_scaled[layout_metric_find(f.l, "util")] = true;
	t = render(&f);
	ck_assert_ptr_nonnull(strstr(t, "120.0*"));
	ck_assert_ptr_null(strstr(t, "n/a*")); /* n/a is never marked scaled */
	free(t);
	fixture_close(&f);
}
END_TEST

START_TEST(too_small_says_so)
{
	struct fixture f;
	char *t;

	fixture_open(&f, 60, 20);
	t = render(&f);
	ck_assert_ptr_nonnull(strstr(t, "Terminal 60x20 is too small"));
	ck_assert_ptr_nonnull(strstr(t, "80x24"));
	ck_assert_ptr_null(strstr(t, "Socket"));
	free(t);
	fixture_close(&f);
}
END_TEST

START_TEST(sorting_filtering_and_aggregation)
{
	struct fixture f;
	char *row;

	fixture_open(&f, 160, 50);
	f.v.focus = VIEW_PANE_TABLE;
	f.v.sort_metric = layout_metric_find(f.l, "util");
	free(render(&f));
	row = line_of(f.g, 11); /* first row under the table header */
	ck_assert_msg(strstr(row, "   15    7    1[") != NULL, "largest first: %s", row);
	free(row);
	view_key(&f.v, &f.frame, 'r');
	free(render(&f));
	row = line_of(f.g, 11);
	ck_assert_msg(strstr(row, "    0    0    0") != NULL, "reversed: %s", row);
	free(row);
	/* the CPU filter through its prompt */
	view_key(&f.v, &f.frame, '/');
	view_key(&f.v, &f.frame, '9');
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	free(render(&f));
	ck_assert_int_eq(f.frame.nrows, 1);
	view_key(&f.v, &f.frame, '/');
	view_key(&f.v, &f.frame, 'x');
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_ptr_nonnull(strstr(f.v.status, "expected CPU lists or socketN"));
	ck_assert_str_eq(f.v.filter, "9"); /* a bad filter keeps the old one */
	/* a CPU the machine lacks is said, not taken silently; a socket is a filter */
	view_key(&f.v, &f.frame, '/');
	view_key(&f.v, &f.frame, VIEW_KEY_BACKSPACE); /* the prompt starts with the filter, 9 */
	for (const char *p = "99"; *p; p++)
		view_key(&f.v, &f.frame, *p);
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_msg(strstr(f.v.status, "CPU 99 is not on this machine (CPUs 0-15)"), "%s",
		      f.v.status);
	ck_assert_str_eq(f.v.filter, "9");
	view_key(&f.v, &f.frame, '/');
	view_key(&f.v, &f.frame, VIEW_KEY_BACKSPACE);
	for (const char *p = "socket1"; *p; p++)
		view_key(&f.v, &f.frame, *p);
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_str_eq(f.v.filter, "socket1");
	free(render(&f));
	ck_assert_int_eq(f.frame.nrows, 8); /* cpus 4-7, 12-15 */
	view_key(&f.v, &f.frame, '/');
	for (const char *p = "socket1"; *p; p++)
		view_key(&f.v, &f.frame, VIEW_KEY_BACKSPACE);
	view_key(&f.v, &f.frame, '9');
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_str_eq(f.v.filter, "9");
	/* F3: a CPU that is not there, or that the filter hides, is said */
	view_key(&f.v, &f.frame, VIEW_KEY_F3);
	view_key(&f.v, &f.frame, '7');
	view_key(&f.v, &f.frame, '7');
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_msg(strstr(f.v.status, "find: no CPU 77 on this machine"), "%s", f.v.status);
	view_key(&f.v, &f.frame, VIEW_KEY_F3);
	view_key(&f.v, &f.frame, '3');
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_msg(strstr(f.v.status, "find: CPU 3 is hidden by the CPU filter"), "%s",
		      f.v.status);
	view_key(&f.v, &f.frame, 'a');
	ck_assert_int_eq(f.v.agg, VIEW_AGG_CORE);
	free(render(&f));
	ck_assert_int_eq(f.frame.nrows, 1); /* core 1 holds cpu 9 */
	fixture_close(&f);
}
END_TEST

START_TEST(keys_change_state_and_ask_the_backend)
{
	struct fixture f;
	int heat;

	fixture_open(&f, 160, 50);
	ck_assert_int_eq(view_key(&f.v, &f.frame, '4'), VIEW_CMD_GROUPS);
	ck_assert_uint_eq(f.v.groups, 1u | 1u << layout_group_find(f.l, "ports"));
	ck_assert_int_eq(view_key(&f.v, &f.frame, '4'), VIEW_CMD_GROUPS);
	ck_assert_uint_eq(f.v.groups, 1);
	ck_assert_int_eq(view_key(&f.v, &f.frame, 'j'), VIEW_CMD_REDRAW); /* nehalem binds no j */
	ck_assert_ptr_nonnull(strstr(f.v.status, "no group on key j"));
	ck_assert_double_gt(f.v.status_until, view_now()); /* shown for a while, then the warning again */
	/* p on an emulated machine: this host's processes do not run on its CPUs */
	ck_assert_int_eq(view_key(&f.v, &f.frame, 'p'), VIEW_CMD_REDRAW);
	ck_assert_int_eq(f.v.prompt, VIEW_PROMPT_NONE);
	ck_assert_ptr_nonnull(strstr(f.v.status, "emulated machine runs none of this host's processes"));
	ck_assert_int_eq(view_key(&f.v, &f.frame, '+'), VIEW_CMD_INTERVAL);
	ck_assert_double_eq(f.v.interval, 2);
	for (int i = 0; i < 20; i++)
		view_key(&f.v, &f.frame, '-');
	ck_assert_double_eq(f.v.interval, 0.1);
	ck_assert_int_eq(view_key(&f.v, &f.frame, '-'), VIEW_CMD_NONE);
	ck_assert_int_eq(view_key(&f.v, &f.frame, ' '), VIEW_CMD_PAUSE);
	ck_assert(f.v.paused);
	heat = f.v.heat_metric;
	view_key(&f.v, &f.frame, 'm');
	ck_assert_int_ne(f.v.heat_metric, heat);
	ck_assert_int_eq(f.l->metrics[f.v.heat_metric].scope, LAYOUT_THREAD);
	view_key(&f.v, &f.frame, 'M');
	ck_assert_int_eq(f.v.heat_metric, heat);
	view_key(&f.v, &f.frame, 'h');
	ck_assert_int_eq(f.v.overlay, VIEW_OVERLAY_HELP);
	/* in a popup, keys act on the popup only: x does nothing, q closes it */
	ck_assert_int_eq(view_key(&f.v, &f.frame, 'x'), VIEW_CMD_NONE);
	ck_assert_int_eq(f.v.overlay, VIEW_OVERLAY_HELP);
	ck_assert_uint_eq(f.v.groups, 1);
	ck_assert_int_eq(view_key(&f.v, &f.frame, '4'), VIEW_CMD_NONE); /* no group toggled */
	ck_assert_uint_eq(f.v.groups, 1);
	ck_assert_int_eq(view_key(&f.v, &f.frame, 'q'), VIEW_CMD_REDRAW); /* closes, does not quit */
	ck_assert_str_eq(f.v.status, "");
	ck_assert_int_eq(f.v.overlay, VIEW_OVERLAY_NONE);
	ck_assert_int_eq(view_key(&f.v, &f.frame, VIEW_KEY_TAB), VIEW_CMD_REDRAW);
	ck_assert_int_eq(f.v.focus, VIEW_PANE_TABLE);
	ck_assert_int_eq(view_key(&f.v, &f.frame, 'q'), VIEW_CMD_QUIT);
	fixture_close(&f);
}
END_TEST

/*
 * A table wider than the screen scrolls sideways: the header says how many
 * columns are out of sight, Right and Left move, and a new sort column
 * scrolls into sight.  A click on a header sorts by it (again: reversed),
 * a click on a pane's tab switches to it.
 */
START_TEST(table_scrolls_sideways_and_the_mouse_sorts_and_switches)
{
	struct fixture f;
	char *row;
	int hit_header = -1, hit_tab = -1, head = -1;

	fixture_open(&f, 80, 30);
	f.v.groups = ~0u; /* every group: far more columns than 80 */
	for (int g = 0; g < f.l->ngroups; g++)
		f.s->groups[g].state = SAMPLE_GROUP_LIVE;
	view_key(&f.v, &f.frame, VIEW_KEY_TAB); /* the table has the focus */
	free(render(&f));
	ck_assert_int_gt(f.frame.ncols, f.frame.shown_cols);
	ck_assert_int_eq(f.frame.hcol, 0);
	for (int y = 0; y < f.g->h && head < 0; y++) {
		row = line_of(f.g, y);
		if (strstr(row, "cpu core sock"))
			head = y;
		free(row);
	}
	ck_assert_int_ge(head, 0);
	row = line_of(f.g, head);
	ck_assert_msg(strstr(row, ">") != NULL, "header without the out-of-sight mark: %s", row);
	free(row);
	/* Right moves the column cursor; the table scrolls when it passes the last column shown */
	ck_assert_int_eq(f.frame.col_metric, f.frame.col_ids[0]);
	ck_assert_int_eq(view_key(&f.v, &f.frame, VIEW_KEY_RIGHT), VIEW_CMD_REDRAW);
	free(render(&f));
	ck_assert_int_eq(f.frame.col_metric, f.frame.col_ids[1]);
	ck_assert_int_eq(f.frame.hcol, 0);
	for (int i = 1; i < f.frame.shown_cols; i++)
		view_key(&f.v, &f.frame, VIEW_KEY_RIGHT);
	free(render(&f));
	ck_assert_int_eq(f.frame.col_metric, f.frame.col_ids[f.frame.shown_cols]);
	ck_assert_int_eq(f.frame.hcol, 1);
	row = line_of(f.g, head);
	ck_assert_msg(strstr(row, "<1") != NULL, "header after Right: %s", row);
	free(row);
	/* e explains the cell under the cursor: its metric */
	{
		int want = f.frame.col_metric;

		view_key(&f.v, &f.frame, 'e');
		free(render(&f));
		row = line_of(f.g, 2);
		ck_assert_msg(strstr(row, f.l->metrics[want].name), "explain is not about %s: %s",
			      f.l->metrics[want].name, row);
		free(row);
		view_key(&f.v, &f.frame, VIEW_KEY_ESC);
	}
	for (int i = 0; i < f.frame.shown_cols + 1; i++)
		view_key(&f.v, &f.frame, VIEW_KEY_LEFT);
	free(render(&f));
	ck_assert_int_eq(f.frame.hcol, 0);
	ck_assert_int_eq(f.frame.col_metric, f.frame.col_ids[0]);
	/* sorting onto a column out of sight brings it into sight */
	for (int i = 0; i < 12; i++)
		view_key(&f.v, &f.frame, 's');
	free(render(&f));
	{
		bool seen = false;

		for (int i = 0; i < f.frame.nhits; i++)
			seen |= f.frame.hits[i].what == VIEW_HIT_HEADER &&
				f.frame.hits[i].metric == f.v.sort_metric;
		ck_assert_msg(seen, "sort column %s not in sight", f.l->metrics[f.v.sort_metric].name);
	}
	for (int i = 0; i < f.frame.nhits; i++) {
		if (f.frame.hits[i].what == VIEW_HIT_HEADER && hit_header < 0 &&
		    f.frame.hits[i].metric != f.v.sort_metric)
			hit_header = i;
		if (f.frame.hits[i].what == VIEW_HIT_TAB && f.frame.hits[i].pane == view_pane_find("imc"))
			hit_tab = i;
	}
	ck_assert_int_ge(hit_header, 0);
	ck_assert(view_click(&f.v, &f.frame, f.frame.hits[hit_header].y, f.frame.hits[hit_header].x + 1));
	ck_assert_int_eq(f.v.sort_metric, f.frame.hits[hit_header].metric);
	ck_assert(!f.v.sort_rev);
	ck_assert(view_click(&f.v, &f.frame, f.frame.hits[hit_header].y, f.frame.hits[hit_header].x + 1));
	ck_assert(f.v.sort_rev);
	ck_assert_int_ge(hit_tab, 0);
	ck_assert(view_click(&f.v, &f.frame, f.frame.hits[hit_tab].y, f.frame.hits[hit_tab].x));
	ck_assert_int_eq(f.v.lower, view_pane_find("imc"));
	ck_assert_int_eq(f.v.focus, view_pane_find("imc"));
	fixture_close(&f);
}
END_TEST

/* htop's keys: F3 finds a CPU or a core, F4 filters, F6 sorts by a named column. */
START_TEST(htop_keys_find_filter_and_sort)
{
	struct fixture f;
	const char *k;

	fixture_open(&f, 160, 50);
	free(render(&f));
	ck_assert_int_eq(view_key(&f.v, &f.frame, VIEW_KEY_F3), VIEW_CMD_REDRAW);
	ck_assert_int_eq(f.v.prompt, VIEW_PROMPT_FIND);
	for (k = "13"; *k; k++)
		view_key(&f.v, &f.frame, *k);
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	free(render(&f));
	ck_assert_int_eq(f.v.focus, VIEW_PANE_TABLE);
	ck_assert(f.frame.found);
	/* the selected row is CPU 13's */
	for (int i = 0; i < f.frame.nhits; i++)
		if (f.frame.hits[i].what == VIEW_HIT_CELL && f.frame.hits[i].pane == VIEW_PANE_TABLE &&
		    f.frame.hits[i].pos == f.frame.sel)
			ck_assert_int_eq(f.s->threads[f.frame.hits[i].entity].index, 13);
	view_key(&f.v, &f.frame, VIEW_KEY_DOWN); /* then the selection moves freely */
	ck_assert_int_eq(f.v.find_cpu, -1);
	view_key(&f.v, &f.frame, VIEW_KEY_F3);
	for (k = "c2"; *k; k++)
		view_key(&f.v, &f.frame, *k);
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_int_eq(f.v.agg, VIEW_AGG_CORE);
	free(render(&f));
	ck_assert(f.frame.found);
	view_key(&f.v, &f.frame, VIEW_KEY_F3);
	view_key(&f.v, &f.frame, 'x');
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_ptr_nonnull(strstr(f.v.status, "neither a CPU number nor c and a core id"));
	/* F4 is the filter */
	view_key(&f.v, &f.frame, VIEW_KEY_F4);
	ck_assert_int_eq(f.v.prompt, VIEW_PROMPT_FILTER);
	view_key(&f.v, &f.frame, VIEW_KEY_ESC);
	/* F6: a column by its name or the start of it */
	view_key(&f.v, &f.frame, VIEW_KEY_F6);
	ck_assert_int_eq(f.v.prompt, VIEW_PROMPT_SORT);
	for (k = "ip"; *k; k++)
		view_key(&f.v, &f.frame, *k);
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_int_eq(f.v.sort_metric, layout_metric_find(f.l, "ipc"));
	view_key(&f.v, &f.frame, VIEW_KEY_F6);
	for (k = "port0"; *k; k++) /* group ports is off: no such column */
		view_key(&f.v, &f.frame, *k);
	view_key(&f.v, &f.frame, VIEW_KEY_ENTER);
	ck_assert_ptr_nonnull(strstr(f.v.status, "no column 'port0'"));
	ck_assert_int_eq(f.v.sort_metric, layout_metric_find(f.l, "ipc"));
	fixture_close(&f);
}
END_TEST

/* F2 chooses the table's columns; the choice is a setting ("hide"), saved and read back. */
START_TEST(column_chooser_hides_columns_and_is_saved)
{
	struct fixture f;
	char text[4096], err[256];
	int ipc, cols_before;
	char *t;

	fixture_open(&f, 160, 50);
	ipc = layout_metric_find(f.l, "ipc");
	view_key(&f.v, &f.frame, VIEW_KEY_TAB);
	free(render(&f));
	cols_before = f.frame.ncols;
	ck_assert_int_eq(view_key(&f.v, &f.frame, VIEW_KEY_F2), VIEW_CMD_REDRAW);
	ck_assert_int_eq(f.v.overlay, VIEW_OVERLAY_COLUMNS);
	while (f.v.chooser < ipc)
		view_key(&f.v, &f.frame, VIEW_KEY_DOWN);
	ck_assert_int_eq(f.v.chooser, ipc);
	view_key(&f.v, &f.frame, ' ');
	ck_assert(f.v.col_hidden[ipc]);
	t = render(&f);
	ck_assert_msg(strstr(t, "[ ] ipc") != NULL, "the chooser shows ipc hidden: %s", t);
	free(t);
	view_key(&f.v, &f.frame, VIEW_KEY_ESC);
	ck_assert_int_eq(f.v.overlay, VIEW_OVERLAY_NONE);
	free(render(&f));
	ck_assert_int_eq(f.frame.ncols, cols_before - 1);
	for (int i = 0; i < f.frame.nhits; i++)
		ck_assert(f.frame.hits[i].what != VIEW_HIT_HEADER || f.frame.hits[i].metric != ipc);
	ck_assert_int_eq(view_settings_format(&f.v, text, sizeof(text)), 0);
	ck_assert_ptr_nonnull(strstr(text, "hide ipc\n"));
	memset(f.v.col_hidden, 0, sizeof(bool) * (size_t)f.l->nmetrics);
	ck_assert_int_eq(view_setting_apply(&f.v, "hide", "ipc,ghz", err, sizeof(err)), 0);
	ck_assert(f.v.col_hidden[ipc] && f.v.col_hidden[layout_metric_find(f.l, "ghz")]);
	ck_assert_int_eq(view_setting_apply(&f.v, "hide", "nosuch", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "hide: layout nehalem has no metric 'nosuch'");
	fixture_close(&f);
}
END_TEST

/* The selected topology cell's OS CPU, or -1. */
static int topo_selected_cpu(const struct fixture *f)
{
	for (int i = 0; i < f->frame.nhits; i++) {
		const struct view_hit *h = &f->frame.hits[i];

		if (h->pane == VIEW_PANE_TOPO && h->what == VIEW_HIT_CELL && h->pos == f->frame.sel &&
		    h->kind == VIEW_AGG_THREAD && h->entity >= 0)
			return f->s->threads[h->entity].index;
	}
	return -1;
}

/* Arrows on the topology go where they point on the screen, not in list order. */
START_TEST(topology_arrows_move_as_drawn)
{
	struct fixture f;

	fixture_open(&f, 160, 50);
	free(render(&f));
	for (int i = 0; i < f.frame.nhits; i++)
		if (f.frame.hits[i].pane == VIEW_PANE_TOPO && f.frame.hits[i].kind == VIEW_AGG_THREAD &&
		    f.s->threads[f.frame.hits[i].entity].index == 0)
			f.frame.sel = f.frame.hits[i].pos;
	ck_assert_int_eq(topo_selected_cpu(&f), 0);
	/* cpu 0 is core 0's first thread; core 1 (cpu 1) is drawn to its right, cpu 8 below it */
	view_key(&f.v, &f.frame, VIEW_KEY_RIGHT);
	free(render(&f));
	ck_assert_int_eq(topo_selected_cpu(&f), 1);
	view_key(&f.v, &f.frame, VIEW_KEY_DOWN);
	free(render(&f));
	ck_assert_int_eq(topo_selected_cpu(&f), 9);
	view_key(&f.v, &f.frame, VIEW_KEY_LEFT);
	free(render(&f));
	ck_assert_int_eq(topo_selected_cpu(&f), 8);
	view_key(&f.v, &f.frame, VIEW_KEY_UP);
	free(render(&f));
	ck_assert_int_eq(topo_selected_cpu(&f), 0);
	fixture_close(&f);
}
END_TEST

START_TEST(settings_round_trip_and_bad_values)
{
	struct fixture f;
	struct view w;
	char text[1024], err[256], *save = NULL;

	fixture_open(&f, 160, 50);
	f.v.interval = 5;
	f.v.groups = 1u << 3 | 1u << 6;
	f.v.heat_metric = layout_metric_find(f.l, "ipc");
	f.v.agg = VIEW_AGG_SOCKET;
	f.v.sort_metric = layout_metric_find(f.l, "exec_stall_pct");
	f.v.sort_rev = true;
	f.v.lower = view_pane_find("ports");
	ck_assert_int_eq(view_settings_format(&f.v, text, sizeof(text)), 0);
	view_init(&w, &f.v.info, 1, 1);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		*sp = 0;
		ck_assert_msg(view_setting_apply(&w, line, sp + 1, err, sizeof(err)) == 0, "%s", err);
	}
	ck_assert_double_eq(w.interval, 5);
	ck_assert_uint_eq(w.groups, f.v.groups);
	ck_assert_int_eq(w.heat_metric, f.v.heat_metric);
	ck_assert_int_eq(w.agg, VIEW_AGG_SOCKET);
	ck_assert_int_eq(w.sort_metric, f.v.sort_metric);
	ck_assert(w.sort_rev);
	ck_assert_int_eq(w.lower, view_pane_find("ports"));
	ck_assert_int_eq(view_setting_apply(&w, "interval", "100", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "0.1 to 60"));
	ck_assert_int_eq(view_setting_apply(&w, "groups", "stalls,bogus", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "'bogus'"));
	ck_assert_int_eq(view_setting_apply(&w, "heat", "port2", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(view_setting_apply(&w, "colour", "red", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "unknown setting 'colour'"));
	ck_assert_double_eq(w.interval, 5); /* bad values change nothing */
	view_free(&w);
	fixture_close(&f);
}
END_TEST

START_TEST(rc_file_warns_with_file_line_and_saves_atomically)
{
	char dir[] = "/tmp/pmutop-rc-XXXXXX", path[256], warn[512], err[256], buf[512];
	struct fixture f;
	FILE *fp;
	size_t n;

	fixture_open(&f, 160, 50);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub/pmutoprc", dir);
	ck_assert_int_eq(rcfile_load(path, &f.v, warn, sizeof(warn)), 0); /* missing: no warning */
	ck_assert_str_eq(warn, "");
	f.v.interval = 2;
	ck_assert_int_eq(rcfile_save(path, &f.v, err, sizeof(err)), 0);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "interval 2\n"));
	{
		/* the directory holds the file and nothing else: no temporary left behind */
		DIR *d;
		struct dirent *de;
		int entries = 0;

		snprintf(buf, sizeof(buf), "%s/sub", dir);
		d = opendir(buf);
		ck_assert_ptr_nonnull(d);
		while ((de = readdir(d)))
			entries += de->d_name[0] != '.';
		closedir(d);
		ck_assert_int_eq(entries, 1);
	}

	fp = fopen(path, "w");
	fputs("# comment\ninterval 5\naggregation planet\nsort ipc\n", fp);
	fclose(fp);
	f.v.interval = 1;
	ck_assert_int_eq(rcfile_load(path, &f.v, warn, sizeof(warn)), 0);
	ck_assert_msg(strstr(warn, "pmutoprc:3: aggregation 'planet'") != NULL, "%s", warn);
	ck_assert_ptr_nonnull(strstr(warn, "using the default"));
	ck_assert_double_eq(f.v.interval, 5);
	ck_assert_int_eq(f.v.agg, VIEW_AGG_THREAD);
	ck_assert_int_eq(f.v.sort_metric, layout_metric_find(f.l, "ipc"));
	unlink(path);
	snprintf(buf, sizeof(buf), "%s/sub", dir);
	rmdir(buf);
	/* a directory that cannot be made: the message names the file */
	snprintf(path, sizeof(path), "%s/file", dir);
	fclose(fopen(path, "w"));
	strcat(path, "/pmutoprc");
	ck_assert_int_lt(rcfile_save(path, &f.v, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "pmutoprc"));
	snprintf(path, sizeof(path), "%s/file", dir);
	unlink(path);
	rmdir(dir);
	fixture_close(&f);
}
END_TEST

/*
 * Every pane in the registry is reachable by its name and draws under its
 * own tab: adding a pane is its file and a registry line, nothing else.
 */
/* The whole file at PATH (at most LEN - 1 bytes), NUL-terminated; its length. */
static size_t slurp(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = 0;
	fclose(fp);
	return n;
}

START_TEST(rc_file_reports_every_bad_line_and_keeps_it)
{
	char dir[] = "/tmp/pmutop-rc-XXXXXX", path[256], warn[2048], err[512], buf[2048];
	static const char text[] = "# mine\n"
				   "interval 5\n"
				   "groups stalls,nosuchgroup\n"
				   "colour blue\n"
				   "sort ipc\n"
				   "aggregation \0planet\n"
				   "future_setting 42\n";
	struct fixture f;
	FILE *fp;
	size_t n;

	fixture_open(&f, 160, 50);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/pmutoprc", dir);
	fp = fopen(path, "w");
	fwrite(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	ck_assert_int_eq(rcfile_load(path, &f.v, warn, sizeof(warn)), 0);
	/* each bad line, with its number, on a line of its own */
	ck_assert_msg(strstr(warn, "pmutoprc:3: groups: layout nehalem has no group 'nosuchgroup'"),
		      "%s", warn);
	ck_assert_msg(strstr(warn, "pmutoprc:4: unknown setting 'colour'"), "%s", warn);
	ck_assert_msg(strstr(warn, "pmutoprc:6: a NUL byte at column 13"), "%s", warn);
	ck_assert_msg(!strstr(warn, "line too long"), "%s", warn);
	ck_assert_msg(strstr(warn, "pmutoprc:7: unknown setting 'future_setting'"), "%s", warn);
	ck_assert_int_eq((int)(strchr(warn, '\n') - warn) > 0, 1);
	/* the good ones applied */
	ck_assert_double_eq(f.v.interval, 5);
	ck_assert_int_eq(f.v.sort_metric, layout_metric_find(f.l, "ipc"));
	/* saved at quit: the understood settings take the new values, the rest stays as written */
	f.v.interval = 2;
	ck_assert_int_eq(rcfile_save(path, &f.v, err, sizeof(err)), 0);
	n = slurp(path, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "# mine\ninterval 2\ngroups stalls,nosuchgroup\ncolour blue\n"
			      "sort ipc\n"), "%s", buf);
	{
		static const char kept[] = "aggregation \0planet\nfuture_setting 42\n";

		ck_assert_msg(memmem(buf, n, kept, sizeof(kept) - 1), "%s", buf);
	}
	/* the settings the file lacked (or had wrong) come after the user's lines, the layout first */
	ck_assert_msg(memmem(buf, n, "future_setting 42\nlayout nehalem\ngroups ", 40), "%s", buf);
	ck_assert(memmem(buf, n, "\naggregation thread\n", 20));
	ck_assert(!memmem(buf, n, "written on quit", 15));
	/* loading it again: the same bad lines, no more */
	ck_assert_int_eq(rcfile_load(path, &f.v, warn, sizeof(warn)), 0);
	ck_assert_msg(strstr(warn, "pmutoprc:3: groups") && strstr(warn, "pmutoprc:7: unknown"),
		      "%s", warn);
	ck_assert_double_eq(f.v.interval, 2);
	unlink(path);
	rmdir(dir);
	fixture_close(&f);
}
END_TEST

START_TEST(every_registered_pane_is_reachable_and_drawn)
{
	struct fixture f;

	fixture_open(&f, 160, 50);
	for (int p = 0; p < view_npanes; p++) {
		const struct pane *pn = panes_registry[p];
		char want[64], err[256], *text;

		ck_assert_ptr_nonnull(pn->name);
		ck_assert_ptr_nonnull(pn->title);
		ck_assert_ptr_nonnull(pn->help);
		ck_assert_ptr_nonnull(pn->draw);
		ck_assert_int_eq(view_pane_find(pn->name), p);
		if (p == VIEW_PANE_TOPO)
			continue; /* always drawn on top, never a tab */
		ck_assert_int_eq(view_setting_apply(&f.v, "pane", pn->name, err, sizeof(err)), 0);
		f.v.focus = f.v.lower;
		text = render(&f);
		snprintf(want, sizeof(want), "[%s]", pn->title);
		ck_assert_msg(strstr(text, want), "pane %s: no tab %s", pn->name, want);
		free(text);
		/* its help line is on the help screen */
		f.v.overlay = VIEW_OVERLAY_HELP;
		text = render(&f);
		ck_assert_msg(strstr(text, pn->name), "pane %s is not on the help screen", pn->name);
		free(text);
		f.v.overlay = VIEW_OVERLAY_NONE;
	}
	fixture_close(&f);
}
END_TEST

/* One list of pane names: --pane, the settings file, its old name, the man page. */
START_TEST(pane_names_are_one_list)
{
	struct options o;
	char err[256], text[2048], man[16384] = "", *argv[] = { "pmutop", "--dump", "--pane",
							      "threads", NULL };
	struct fixture f;
	FILE *fp;

	ck_assert_str_eq(view_lower_pane_list(), "threads, ports, uncore, imc, memory, cycles, tree, bottleneck or who");
	ck_assert_int_eq(options_parse(4, argv, &o, err, sizeof(err)), 0);
	ck_assert_int_eq(o.pane, VIEW_PANE_TABLE);
	fixture_open(&f, 160, 50);
	ck_assert_int_eq(view_setting_apply(&f.v, "pane", "imc", err, sizeof(err)), 0);
	ck_assert_int_eq(f.v.lower, view_pane_find("imc"));
	ck_assert_int_eq(view_setting_apply(&f.v, "pane", "table", err, sizeof(err)), 0);
	ck_assert_int_eq(f.v.lower, VIEW_PANE_TABLE);
	ck_assert_int_eq(view_settings_format(&f.v, text, sizeof(text)), 0);
	ck_assert_ptr_nonnull(strstr(text, "pane threads\n"));
	ck_assert_int_eq(view_setting_apply(&f.v, "pane", "topology", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "pane 'topology': expected threads, ports, uncore, imc, memory, cycles, tree, bottleneck or who");
	fixture_close(&f);
	fp = fopen(TEST_DATADIR "/../man/pmutop.1", "r");
	ck_assert_ptr_nonnull(fp);
	man[fread(man, 1, sizeof(man) - 1, fp)] = 0;
	fclose(fp);
	ck_assert_msg(strstr(man, view_lower_pane_list()), "the man page's --pane does not list %s",
		      view_lower_pane_list());
}
END_TEST

/* Saving never follows a planted link, keeps the file's mode and a symlinked file's target. */
START_TEST(rc_file_save_is_safe)
{
	char dir[] = "/tmp/pmutop-rc-XXXXXX", path[256], other[320], victim[256], buf[512],
	     err[256], warn[512];
	struct fixture f;
	struct stat st;
	char *longdir;
	FILE *fp;
	size_t n;

	fixture_open(&f, 160, 50);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/pmutoprc", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	fp = fopen(victim, "w");
	fputs("precious\n", fp);
	fclose(fp);
	/* the old fixed temporary name, planted as a link to another file */
	snprintf(other, sizeof(other), "%s.tmp.%d", path, (int)getpid());
	ck_assert_int_eq(symlink(victim, other), 0);
	ck_assert_int_eq(rcfile_save(path, &f.v, err, sizeof(err)), 0);
	fp = fopen(victim, "r");
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	ck_assert_str_eq(buf, "precious\n");
	unlink(other);
	/* the file's own mode is kept */
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(rcfile_save(path, &f.v, err, sizeof(err)), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	/* a symlinked settings file: the link stays, its target gets the settings */
	snprintf(other, sizeof(other), "%s/dotfiles-pmutoprc", dir);
	ck_assert_int_eq(rename(path, other), 0);
	ck_assert_int_eq(symlink("dotfiles-pmutoprc", path), 0);
	f.v.interval = 7;
	ck_assert_int_eq(rcfile_save(path, &f.v, err, sizeof(err)), 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	fp = fopen(other, "r");
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "interval 7\n"));
	/* a stray carriage return is named with its line */
	fp = fopen(other, "w");
	fputs("interval 3\nsort ipc\r\n", fp);
	fclose(fp);
	ck_assert_int_eq(rcfile_load(path, &f.v, warn, sizeof(warn)), 0);
	ck_assert_msg(strstr(warn, "pmutoprc:2: stray carriage return at column 9"), "%s", warn);
	ck_assert_ptr_null(strchr(warn, '\r'));
	unlink(path);
	unlink(other);
	unlink(victim);
	rmdir(dir);
	/* a path too long is refused, never cut to another file's name */
	longdir = xmalloc(PATH_MAX + 100);
	memset(longdir, 'a', PATH_MAX + 99);
	longdir[0] = '/';
	longdir[PATH_MAX + 99] = 0;
	setenv("XDG_CONFIG_HOME", longdir, 1);
	{
		char p[PATH_MAX];

		ck_assert_int_eq(rcfile_path(p, sizeof(p)), -ENAMETOOLONG);
	}
	unsetenv("XDG_CONFIG_HOME");
	free(longdir);
	fixture_close(&f);
}
END_TEST

/*
 * Where this process ran: pinned to one CPU it may use, it burns CPU time
 * there, and that CPU is marked and no other (whatever the machine has and
 * whatever else runs on it).
 */
START_TEST(pidcpus_finds_where_this_process_runs)
{
	struct pidcpus *p;
	char err[256];
	bool *ran;
	cpu_set_t was, one;
	volatile double x = 0;
	int cpu = -1, n = (int)sysconf(_SC_NPROCESSORS_CONF);

	ck_assert_int_eq(pidcpus_open("/", 0x7FFFFFF0, false, n, &p, err, sizeof(err)), -ESRCH);
	ck_assert_ptr_nonnull(strstr(err, "no such process"));
	ck_assert_int_eq(sched_getaffinity(0, sizeof(was), &was), 0);
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &was) && c < n)
			cpu = c; /* the first CPU this process may use */
	ck_assert_int_ge(cpu, 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	ck_assert_int_eq(pidcpus_open("/", (int)getpid(), false, n, &p, err, sizeof(err)), 0);
	free(pidcpus_scan(p));
	{
		/* use CPU time so the next scan sees it: 50 ms of it, however long a loaded CPU takes */
		struct timespec t0, t1;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		do {
			for (int i = 0; i < 100000; i++)
				x += i;
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		} while ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6 < 50);
	}
	ck_assert(x > 0);
	ran = pidcpus_scan(p);
	sched_setaffinity(0, sizeof(was), &was);
	for (int c = 0; c < n; c++)
		ck_assert_msg(ran[c] == (c == cpu), "CPU %d %s, the process ran on CPU %d only", c,
			      ran[c] ? "marked" : "not marked", cpu);
	free(ran);
	pidcpus_free(p);
}
END_TEST

/* F's sample again with util = VALUE on every CPU (NaN: its group off), TIME and INTERVAL. */
static struct sample *history_sample(struct fixture *f, double value, double time)
{
	struct sample *s = sample_new(f->l, f->t->nthreads, f->t->ncores, f->t->nsockets);
	int util = layout_metric_find(f->l, "util");

	s->time = time;
	s->interval_s = 1.0;
	for (int i = 0; i < f->t->nthreads; i++) {
		s->threads[i] = (struct sample_entity){ .index = f->s->threads[i].index,
			.core = f->s->threads[i].core, .socket = f->s->threads[i].socket,
			.os_core_id = f->s->threads[i].os_core_id,
			.os_socket_id = f->s->threads[i].os_socket_id, .vars = s->threads[i].vars,
			.raw = s->threads[i].raw };
		s->threads[i].vars[layout_metric_var(f->l, util)] = value * (i + 1) / 16.0;
	}
	return s;
}

/*
 * The history: values in order, a gap where the figure was not measured (a
 * group off: NaN, never 0), the ring keeping the newest, the time the
 * slots cover, marks by time; the table's history column draws it.
 */
START_TEST(history_keeps_values_gaps_and_marks)
{
	struct fixture f;
	struct history *h = history_new();
	signed char lv[8];
	const char *last = NULL;
	int util;
	char *t;

	fixture_open(&f, 160, 50);
	util = layout_metric_find(f.l, "util");
	/* 16, 32, gap, 64, 80, 96 % on the last CPU (row 15) */
	for (int k = 0; k < 6; k++) {
		struct sample *s = history_sample(&f, k == 2 ? NAN : 16.0 * (k + 1), 1000.0 + k);

		history_add(h, s);
		sample_release(s);
	}
	history_mark(h, 1002.5, "phase 2");
	ck_assert_int_eq(history_len(h, HISTORY_THREAD, false), 6);
	ck_assert(fabs(history_value(h, HISTORY_THREAD, false, 15, util, 0) - 96) < 1e-4);
	ck_assert(isnan(history_value(h, HISTORY_THREAD, false, 15, util, 3)));
	ck_assert(isnan(history_value(h, HISTORY_THREAD, false, 15, util, 6))); /* before the first */
	ck_assert(fabs(history_span(h, false, 4) - 4.0) < 1e-9);
	ck_assert_int_eq(history_marks_in(h, 1002.0, 1003.0, &last), 1);
	ck_assert_str_eq(last, "phase 2");
	ck_assert_int_eq(history_marks_in(h, 1003.0, 1005.0, NULL), 0);
	/* levels on 0-100: the gap is a gap, the rest rises; two cells before the first sample are gaps */
	history_spark(h, HISTORY_THREAD, false, 15, util, 8, 100, lv);
	ck_assert_int_eq(lv[0], -1);
	ck_assert_int_eq(lv[1], -1);
	ck_assert_int_eq(lv[4], -1);
	ck_assert(lv[2] < lv[3] && lv[3] < lv[5] && lv[5] < lv[6] && lv[6] < lv[7]);
	ck_assert_int_eq(lv[7], 7); /* 96 % is in the top eighth */
	/* the ring: the oldest go */
	for (int k = 0; k < 300; k++) {
		struct sample *s = history_sample(&f, 50, 2000.0 + k);

		history_add(h, s);
		sample_release(s);
	}
	ck_assert_int_eq(history_len(h, HISTORY_THREAD, false), HISTORY_ROWS_MAX);
	ck_assert(fabs(history_time(h, false, 0) - 2299.0) < 1e-9);
	/* drawn: the table's history column, named after the metric it follows */
	f.v.hist = h;
	t = render(&f);
	ck_assert_ptr_nonnull(strstr(t, "util history"));
	ck_assert_ptr_nonnull(strstr(t, "\u2584\u2584\u2584\u2584"));
	free(t);
	f.v.hist = NULL;
	history_free(h);
	fixture_close(&f);
}
END_TEST

/*
 * A benchmark's workers are its descendants: with the tree, the CPU of a
 * busy grandchild is found; without it, the parent (asleep in wait) ran
 * nowhere.
 */
START_TEST(pidcpus_follows_the_process_tree)
{
	struct pidcpus *tree, *alone;
	char err[256];
	bool *ran_tree, *ran_alone;
	int any_tree = 0, any_alone = 0, n = (int)sysconf(_SC_NPROCESSORS_CONF);
	pid_t sh = fork();

	if (sh == 0) {
		setpgid(0, 0); /* its own group: the test kills the whole tree */
		execl("/bin/sh", "sh", "-c", "sh -c 'while :; do :; done' & wait", (char *)NULL);
		_exit(127);
	}
	usleep(200000);
	ck_assert_int_eq(pidcpus_open("/", (int)sh, true, n, &tree, err, sizeof(err)), 0);
	ck_assert_int_eq(pidcpus_open("/", (int)sh, false, n, &alone, err, sizeof(err)), 0);
	free(pidcpus_scan(tree));
	free(pidcpus_scan(alone));
	usleep(400000);
	ran_tree = pidcpus_scan(tree);
	ran_alone = pidcpus_scan(alone);
	for (int c = 0; c < n; c++) {
		any_tree += ran_tree[c];
		any_alone += ran_alone[c];
	}
	kill(-sh, SIGKILL);
	waitpid(sh, NULL, 0);
	ck_assert_int_ge(any_tree, 1);
	ck_assert_int_eq(any_alone, 0);
	free(ran_tree);
	free(ran_alone);
	pidcpus_free(tree);
	pidcpus_free(alone);
}
END_TEST

static Suite *view_suite(void)
{
	Suite *s = suite_create("view");

	CHECK_ADD(s, grid_clips_and_dumps_what_it_draws);
	CHECK_ADD(s, pidcpus_follows_the_process_tree);
	CHECK_ADD(s, history_keeps_values_gaps_and_marks);
	CHECK_ADD(s, numbers_fit_their_cells);
	CHECK_ADD(s, screen_shows_sockets_cpus_and_values);
	CHECK_ADD(s, too_small_says_so);
	CHECK_ADD(s, sorting_filtering_and_aggregation);
	CHECK_ADD(s, keys_change_state_and_ask_the_backend);
	CHECK_ADD(s, table_scrolls_sideways_and_the_mouse_sorts_and_switches);
	CHECK_ADD(s, htop_keys_find_filter_and_sort);
	CHECK_ADD(s, column_chooser_hides_columns_and_is_saved);
	CHECK_ADD(s, topology_arrows_move_as_drawn);
	CHECK_ADD(s, settings_round_trip_and_bad_values);
	CHECK_ADD(s, rc_file_warns_with_file_line_and_saves_atomically);
	CHECK_ADD(s, rc_file_save_is_safe);
	CHECK_ADD(s, rc_file_reports_every_bad_line_and_keeps_it);
	CHECK_ADD(s, pane_names_are_one_list);
	CHECK_ADD(s, every_registered_pane_is_reachable_and_drawn);
	{
		/* pinned to one CPU that other processes may be loading: time enough for its turn */
		TCase *tc = tcase_create("pidcpus_finds_where_this_process_runs");

		tcase_add_test(tc, pidcpus_finds_where_this_process_runs);
		tcase_set_timeout(tc, 60);
		suite_add_tcase(s, tc);
	}
	return s;
}

CHECK_MAIN(view_suite)
