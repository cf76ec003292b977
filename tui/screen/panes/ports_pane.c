/*
 * ports_pane: execution-port uops per cycle of each core as bars, and the
 * wasted-work share.  Each port shows one scope: the core's own figure
 * (core_portN: uops of all its threads per core cycle) where the layout
 * has one, else the per-thread figure (portN, the mean of the threads per
 * thread cycle); the header says which, so a core's "core" columns add up
 * to its uops per cycle.  A layout made from Intel's data has the vendor's
 * Port_N instead (the share of core cycles port N dispatched a uop, in %:
 * ports 0-7 on Skylake-SP, those the data names singly on later cores).
 * UI thread.
 */
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Under the rows: the columns that are n/a because their group is off (or
 * blocked), each with the key that fills it ("p2 p3 p4: 5 ports_mem").
 */
static void ports_pane_missing(const struct view *v, const struct sample *s, const int *ports,
			       int np, int waste, int y, struct grid *g)
{
	const struct layout *l = v->info.layout;
	char line[256] = "";
	size_t n = 0;

	for (int gr = 0; gr < l->ngroups; gr++) {
		size_t at = n;
		bool blocked = s->groups[gr].state == SAMPLE_GROUP_BLOCKED;

		if (s->groups[gr].state != SAMPLE_GROUP_OFF && !blocked)
			continue;
		for (int p = 0; p < np + 1; p++) {
			int m = p < np ? ports[p] : waste;
			const char *name = m >= 0 ? l->metrics[m].name : "";

			if (m < 0 || l->metrics[m].group != gr || n >= sizeof(line))
				continue;
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s%s",
					      n == at && n ? "; " : n ? " " : "", p < np ? "p" : "wasted",
					      p < np ? name + strcspn(name, "0123456789") : " %");
		}
		if (n > at && n < sizeof(line) && blocked)
			n += (size_t)snprintf(line + n, sizeof(line) - n, ": group %s is blocked (e says "
					      "why)", l->groups[gr].name);
		else if (n > at && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, ": key %c (%s)",
					      l->groups[gr].key ? l->groups[gr].key : '?',
					      l->groups[gr].name);
	}
	if (n)
		grid_put(g, y, 2, g->w - 4, GRID_DIM, "n/a: %s", line);
}

#define PORTS_MAX 12 /* Golden Cove's ports 0-11 */

static int ports_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			   struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	const struct topo *t = v->info.topo;
	int ports[PORTS_MAX], np = 0, waste = layout_metric_find(l, "wasted_work_pct"), per, bar;
	int row = 0, num[PORTS_MAX];
	bool any = false, per_core[PORTS_MAX], vendor = false, sets;
	char buf[32], keys[256];

	/* pmutop's over the vendor's port sets (port_0 .. port_7_8: every port of the core), in order */
	for (int m = 0; m < l->nmetrics && np < PORTS_MAX; m++) {
		const char *name = l->metrics[m].name;

		if (strncmp(name, "port_", 5) || name[5] < '0' || name[5] > '9')
			continue;
		num[np] = atoi(name + 5);
		ports[np] = m;
		per_core[np] = true;
		for (int q = np++; q > 0 && num[q - 1] > num[q]; q--) {
			int swap = num[q];

			num[q] = num[q - 1];
			num[q - 1] = swap;
			swap = ports[q];
			ports[q] = ports[q - 1];
			ports[q - 1] = swap;
		}
	}
	sets = np > 0;
	vendor = sets;
	for (int p = 0; p < PORTS_MAX && !sets; p++) {
		int thr;

		snprintf(buf, sizeof(buf), "core_port%d", p);
		ports[np] = layout_metric_find(l, buf);
		snprintf(buf, sizeof(buf), "port%d", p);
		thr = layout_metric_find(l, buf);
		/* the core's own figure, unless its group is off and the per-thread one counts */
		if (ports[np] >= 0 && thr >= 0 &&
		    s->groups[l->metrics[ports[np]].group].state == SAMPLE_GROUP_OFF &&
		    s->groups[l->metrics[thr].group].state != SAMPLE_GROUP_OFF)
			ports[np] = -1;
		per_core[np] = ports[np] >= 0;
		if (ports[np] < 0)
			ports[np] = thr;
		if (ports[np] < 0) {
			/* the vendor's, in % of the core's cycles */
			snprintf(buf, sizeof(buf), "Port_%d", p);
			ports[np] = layout_metric_find(l, buf);
			vendor |= ports[np] >= 0;
			per_core[np] = true;
		}
		num[np] = p;
		if (ports[np] >= 0)
			np++;
	}
	if (!np) {
		grid_put(g, y, 2, g->w - 4, GRID_DIM, "Layout %s has no execution-port metrics.", l->name);
		return h;
	}
	per = (g->w - 16 - (waste >= 0 ? 12 : 0)) / np;
	bar = per - 9 > 1 ? per - 9 : 1;
	grid_blank(g, y, 0, g->w, GRID_HEADER);
	{
		/* narrow columns drop the scope from each header: the first cell says it for all */
		int ncore = 0;

		for (int p = 0; p < np; p++)
			ncore += per_core[p];
		grid_put(g, y, 0, 16, GRID_HEADER, "%s", vendor ? " % of core cyc" : per > 8
			 ? " core (cpus)" : ncore == np ? " uops/core cyc" : !ncore ? " uops/thr cyc"
			 : " core (cpus)");
	}
	for (int p = 0; p < np; p++) {
		/* as much of "p0 /core cyc" as the column holds, never into the next one */
		if (sets) {
			/* "port_2_3_10": ports 2, 3 and 10, as "p2,3,10" */
			char head[32];

			snprintf(head, sizeof(head), "p%s", l->metrics[ports[p]].name + 5);
			for (char *c = head; *c; c++)
				*c = *c == '_' ? ',' : *c;
			grid_put(g, y, 16 + p * per, per - 1, GRID_HEADER, "%s", head);
		} else if (vendor)
			grid_put(g, y, 16 + p * per, per - 1, GRID_HEADER, "%s",
				 l->metrics[ports[p]].name);
		else if (per > 15)
			grid_put(g, y, 16 + p * per, per - 1, GRID_HEADER, "p%d %s", num[p],
				 per_core[p] ? "/core cyc" : "/thread cyc");
		else if (per > 8)
			grid_put(g, y, 16 + p * per, per - 1, GRID_HEADER, "p%d/%s", num[p],
				 per_core[p] ? "core" : "thr");
		else
			grid_put(g, y, 16 + p * per, per - 1, GRID_HEADER, "p%d", num[p]);
	}
	if (waste >= 0)
		grid_put(g, y, 16 + np * per, 12, GRID_HEADER, " wasted %%");
	/* the cores shown; more than the rows: they scroll (Up, Down) and "+N more" says so */
	int *shown = xcalloc((size_t)s->ncores + 1, sizeof(int)), nshown = 0, rows = h - 2, scroll = 0;

	for (int k = 0; k < s->ncores; k++)
		if (v->zoom_socket < 0 || s->cores[k].socket == v->zoom_socket)
			shown[nshown++] = k;
	if (nshown > rows)
		rows--;
	scroll = pane_scroll(v, f, nshown, rows);
	for (int i = scroll; i < nshown && row < rows; i++) {
		int k = shown[i];
		const struct sample_entity *e = &s->cores[k];
		const struct topo_core *c = &t->cores[k];
		int cpus[8], n = 0;
		char *list;

		for (int j = 0; j < c->nthreads && j < 8; j++)
			cpus[n++] = t->threads[c->thread_first + j].os_cpu;
		list = cpulist_format(cpus, n);
		grid_put(g, y + 1 + row, 0, 16, GRID_NORMAL, " %3d (%s)", e->os_core_id, list);
		free(list);
		for (int p = 0; p < np; p++) {
			double val = sample_metric(s, e, ports[p]);

			any |= !isnan(val);
			grid_bar(g, y + 1 + row, 16 + p * per, bar, isnan(val) ? 0 : vendor ? val / 100 : val,
				 GRID_BAR);
			pane_value(s, ports[p], val, buf, sizeof(buf));
			grid_put_right(g, y + 1 + row, 16 + p * per + bar, 7, isnan(val) ? GRID_DIM : GRID_NORMAL,
				       buf);
		}
		if (waste >= 0) {
			double val = sample_metric(s, e, waste);

			pane_value(s, waste, val, buf, sizeof(buf));
			grid_put_right(g, y + 1 + row, 16 + np * per, 9, isnan(val) ? GRID_DIM : GRID_NORMAL,
				       buf);
		}
		pane_hit(f, y + 1 + row, 0, g->w, i, e->socket, VIEW_AGG_CORE, k);
		row++;
	}
	if (nshown > scroll + row)
		grid_put(g, y + 1 + row, 1, g->w - 2, GRID_DIM, "+%d more (Tab here, then Up and Down "
			 "scroll)", nshown - scroll - row);
	free(shown);
	if (!any) {
		pane_group_keys(l, sets ? "port_" : vendor ? "Port_" : "port", keys, sizeof(keys));
		grid_put(g, y + h - 1, 2, g->w - 4, GRID_WARN, "Port counts are off: press %s", keys);
	} else {
		ports_pane_missing(v, s, ports, np, waste, y + h - 1, g);
	}
	return h;
}

const struct pane ports_pane = {
	.name = "ports", .title = "Ports",
	.help = "execution-port uops per cycle of each core (per core cycle where the core "
		"counts its own, else the mean per thread cycle), and the wasted work",
	.draw = ports_pane_draw,
};
