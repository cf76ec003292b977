/*
 * view_prompt: what the view's prompts do with the text typed: the CPU
 * filter (CPU lists and sockets), F3's find, F6's sort by name, a PID, a
 * replay's time, the question before quitting with a command running.
 * UI thread.
 */
#include "view.h"
#include "view_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "frontend.h"
#include "topo_filter.h"
#include "panes.h"
#include "pane.h"

/*
 * Parse a CPU filter: CPU lists, socketN and a hybrid's kinds of core (P,
 * E, LP-E), comma-separated ("0-3,8", "socket1", "socket0,12", "E"), ""
 * clears it.  A CPU or socket the machine does
 * not have is refused, saying which it has.
 */
static int view_set_filter(struct view *v, const char *text)
{
	bool *shown;
	char why[200];
	int rc;

	if (!*text) {
		free(v->cpu_shown);
		v->cpu_shown = NULL;
		v->filter[0] = 0;
		return 0;
	}
	rc = topo_filter_parse(v->info.topo, text, &shown, why, sizeof(why));
	if (rc) {
		snprintf(v->status, sizeof(v->status), "CPU filter '%s': %s", text, why);
		return rc;
	}
	free(v->cpu_shown);
	v->cpu_shown = shown;
	snprintf(v->filter, sizeof(v->filter), "%s", text);
	v->sel = v->scroll = 0;
	return 0;
}

/*
 * F3: select a CPU ("12") or a core ("c3") in the table; the table's render
 * finds its row.  One the machine lacks, or the filter or zoom hides, is
 * said at once.
 */
static enum view_cmd view_find(struct view *v, const char *text)
{
	const struct topo *t = v->info.topo;
	char *end, have[160];
	bool core = text[0] == 'c', exists = false, hidden = true;
	long n = strtol(text + core, &end, 10);

	if (!text[core] || *end || n < 0 || n > 0xFFFFF) {
		snprintf(v->status, sizeof(v->status), "find: '%s' is neither a CPU number nor c and a "
			 "core id", text);
		return VIEW_CMD_REDRAW;
	}
	for (int i = 0; i < t->nthreads; i++) {
		const struct topo_thread *th = &t->threads[i];

		if (core ? th->core < 0 || t->cores[th->core].core_id != n : th->os_cpu != n)
			continue;
		exists = true;
		hidden &= !(pane_cpu_shown(v, th->os_cpu) &&
			    (v->zoom_socket < 0 || th->socket == v->zoom_socket));
	}
	if (!exists) {
		topo_filter_cpus_text(t, have, sizeof(have));
		snprintf(v->status, sizeof(v->status), core ? "find: no core %ld on this machine"
			 : "find: no CPU %ld on this machine (CPUs %s)", n, have);
		return VIEW_CMD_REDRAW;
	}
	if (hidden) {
		snprintf(v->status, sizeof(v->status), "find: %s %ld is hidden by %s", core ? "core"
			 : "CPU", n, v->zoom_socket >= 0 ? "the zoom (Esc shows all)"
			 : "the CPU filter (/ changes it)");
		return VIEW_CMD_REDRAW;
	}
	v->find_cpu = core ? -1 : (int)n;
	v->find_core = core ? (int)n : -1;
	v->agg = core ? VIEW_AGG_CORE : VIEW_AGG_THREAD;
	v->focus = v->lower = VIEW_PANE_TABLE;
	return VIEW_CMD_REDRAW;
}

/*
 * F6: sort by the column named TEXT (or the only one it starts), "none" for
 * topology order; on a hybrid "kind" groups the rows by kind of core.
 */
static enum view_cmd view_sort_by(struct view *v, const char *text)
{
	const struct layout *l = v->info.layout;
	int found = -1, n = 0;

	if (!strcmp(text, "none") || !text[0]) {
		v->sort_metric = -1;
		v->sort_kind = false;
		return VIEW_CMD_REDRAW;
	}
	if (!strcmp(text, "kind") && v->info.topo->ncorekinds > 1) {
		/* a hybrid: rows by kind of core (P, E, LP-E), each kind by the sort column */
		v->sort_kind = !v->sort_kind;
		snprintf(v->status, sizeof(v->status), "sort: rows %sgrouped by kind of core",
			 v->sort_kind ? "" : "no longer ");
		return VIEW_CMD_REDRAW;
	}
	for (int m = 0; m < l->nmetrics; m++) {
		int g = l->metrics[m].group;

		if (l->metrics[m].scope != LAYOUT_THREAD || (g >= 0 && !(v->groups & LAYOUT_GROUP(g))) ||
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
	v->col_metric = found; /* the column cursor goes with it */
	v->focus = v->lower = VIEW_PANE_TABLE;
	return VIEW_CMD_REDRAW;
}

enum view_cmd view_prompt_key(struct view *v, int key)
{
	size_t len = strlen(v->input);

	if (v->prompt == VIEW_PROMPT_QUIT) {
		/* y or q: stop the command and quit; l: quit, leaving it running; else stay */
		v->prompt = VIEW_PROMPT_NONE;
		if (key == 'y' || key == 'q' || key == VIEW_KEY_F10)
			return VIEW_CMD_QUIT;
		if (key == 'l')
			return VIEW_CMD_QUIT_LEAVE;
		return VIEW_CMD_REDRAW;
	}
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
		if (p == VIEW_PROMPT_WHO) {
			who_pane_set_filter(v, v->input);
			v->sel = v->scroll = 0;
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

