/*
 * bottleneck_pane: Intel's Bottleneck metrics (TMA 4's bottleneck view, the
 * vendor's Bottleneck_* metrics): what each kind of bottleneck costs, in %
 * of the pipeline slots, as one stacked bar per thread, core or socket (the
 * aggregation, key a), the largest bottleneck named after the bar, red when
 * it is over the vendor's threshold.  Useful_Work, the slots that did useful
 * work, closes the bar as a plain '='.  The metrics are the layout's in its
 * order, whatever their number; one the layout could not count here is
 * listed under the legend with the layout's reason.  Explain (e) on a row
 * tells its largest one: the vendor's description, formula and threshold,
 * and the groups that counted it.  UI thread.
 */
#include "pane.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BN_PREFIX   "Bottleneck_"
#define BN_USEFUL   "Bottleneck_Useful_Work"
#define BN_MAX_SEGS 16
#define BN_LABEL    16 /* "  cpu core sock " */

struct bn_seg {
	int m;              /* layout metric */
	char mark;
	enum grid_style style;
	const char *name;   /* the vendor's name without the prefix */
};

/* The styles the segments take in turn (as the Cycles pane's). */
static const enum grid_style bn_styles[] = { GRID_HEAT2, GRID_HEAT1, GRID_HEAT3, GRID_HEAT4 };

/* A letter of NAME not yet in USED (its initial if it can): the legend and the bar share it. */
static char bn_mark(const char *name, const bool *used)
{
	for (const char *c = name; *c; c++) {
		int u = toupper((unsigned char)*c);

		if (isalpha(u) && !used[u])
			return (char)u;
	}
	for (int u = 'A'; u <= 'Z'; u++)
		if (!used[u])
			return (char)u;
	return '#';
}

/*
 * The segments: every Bottleneck_* metric of the layout, Useful_Work last;
 * those the layout cannot count (an "unavailable" line) into NA (*NNA).
 * Returns the number counted.
 */
static int bn_segments(const struct layout *l, struct bn_seg *seg, int *na, int *nna)
{
	bool used[256] = { false };
	int n = 0, useful = -1;

	used['='] = true;
	*nna = 0;
	for (int m = 0; m < l->nmetrics; m++) {
		const char *name = l->metrics[m].name;

		if (strncmp(name, BN_PREFIX, strlen(BN_PREFIX)))
			continue;
		if (l->metrics[m].na) {
			if (*nna < BN_MAX_SEGS)
				na[(*nna)++] = m;
			continue;
		}
		if (!strcmp(name, BN_USEFUL)) {
			useful = m;
			continue;
		}
		if (n == BN_MAX_SEGS - 1)
			continue;
		seg[n] = (struct bn_seg){ .m = m, .name = name + strlen(BN_PREFIX),
					  .style = bn_styles[n % 4] };
		seg[n].mark = bn_mark(seg[n].name, used);
		used[(unsigned char)seg[n].mark] = true;
		n++;
	}
	if (useful >= 0)
		seg[n++] = (struct bn_seg){ .m = useful, .mark = '=', .style = GRID_DIM,
					    .name = l->metrics[useful].name + strlen(BN_PREFIX) };
	return n;
}

/* One entity's bar from X, W wide: the segments' shares of their sum, so the bar is whole. */
static void bn_bar(const struct bn_seg *seg, const double *val, int nsegs, int y, int x, int w,
		   struct grid *g)
{
	double sum = 0, at_sum = 0;
	int at = 0;

	for (int k = 0; k < nsegs; k++)
		sum += isnan(val[k]) ? 0 : fmax(0, val[k]);
	if (!(sum > 0))
		return;
	for (int k = 0; k < nsegs; k++) {
		int end;

		at_sum += isnan(val[k]) ? 0 : fmax(0, val[k]);
		end = (int)lround(at_sum / sum * w);
		for (; at < end; at++)
			grid_put(g, y, x + at, 1, seg[k].style, "%c", seg[k].mark);
	}
}

/* Under the legend: the metrics not counted here, grouped by the layout's reason. */
static int bn_na_lines(const struct layout *l, const int *na, int nna, int y, int maxy,
		       struct grid *g)
{
	bool done[BN_MAX_SEGS] = { false };
	int lines = 0;

	for (int i = 0; i < nna && y + lines < maxy; i++) {
		char names[400] = "";
		size_t len = 0;

		if (done[i])
			continue;
		for (int j = i; j < nna; j++)
			if (!done[j] && !strcmp(l->metrics[na[j]].na, l->metrics[na[i]].na)) {
				done[j] = true;
				len += (size_t)snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0,
							"%s%s", len ? ", " : "",
							l->metrics[na[j]].name + strlen(BN_PREFIX));
				if (len >= sizeof(names))
					len = sizeof(names) - 1;
			}
		lines += grid_put_wrap(g, y + lines, 2, g->w - 3, maxy - y - lines, GRID_DIM,
				       "n/a here: %s: %s", names, l->metrics[na[i]].na);
	}
	return lines;
}

/* The table from row Y to MAXY: a header, then a row per entity with its bar and largest one. */
static void bn_table(const struct view *v, const struct sample *s, const struct bn_seg *seg,
		     int nsegs, int y, int maxy, struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	static const char *const heads[] = { "  cpu core sock", " core sock", " socket" };
	int agg = v->agg == VIEW_AGG_CHANNEL ? VIEW_AGG_SOCKET : v->agg;
	int namew = 0, barw, shown, first, row = 0, rows;
	int *list;
	const struct sample_entity *ents;

	/* the largest's letter, name and figure whole: the longest name and 8 more */
	for (int k = 0; k < nsegs; k++)
		if ((int)strlen(seg[k].name) > namew)
			namew = (int)strlen(seg[k].name);
	namew += 10;
	barw = g->w - BN_LABEL - namew - 1;
	if (barw < 10) {
		barw = 10;
		namew = g->w - BN_LABEL - barw - 1;
	}
	grid_blank(g, y, 0, g->w, GRID_HEADER);
	grid_put(g, y, 0, BN_LABEL, GRID_HEADER, "%s", heads[agg]);
	grid_put(g, y, BN_LABEL, barw, GRID_HEADER, barw >= 34 ? "the slots, by bottleneck "
		 "(their sum)" : "the slots");
	grid_put(g, y, BN_LABEL + barw + 1, namew, GRID_HEADER, "largest bottleneck, %%");
	shown = pane_entity_rows(v, s, &list, &ents);
	rows = maxy - y - 2;
	first = pane_scroll(v, f, shown, rows);
	for (int r = first; r < shown && row < rows; r++) {
		const struct sample_entity *e = &ents[list[r]];
		double val[BN_MAX_SEGS];
		int big = -1;
		char buf[32];

		if (agg == VIEW_AGG_THREAD)
			grid_put(g, y + 1 + row, 0, BN_LABEL, GRID_NORMAL, " %4d %4d %4d", e->index,
				 e->os_core_id, e->os_socket_id);
		else if (agg == VIEW_AGG_CORE)
			grid_put(g, y + 1 + row, 0, BN_LABEL, GRID_NORMAL, " %4d %4d", e->os_core_id,
				 e->os_socket_id);
		else
			grid_put(g, y + 1 + row, 0, BN_LABEL, GRID_NORMAL, " %6d", e->os_socket_id);
		for (int k = 0; k < nsegs; k++) {
			/* a thread's row shows its core's figure where the vendor counts per core
			 * (Skylake-SP's AnyThread metrics with hyper-threading on) */
			val[k] = agg == VIEW_AGG_THREAD ? pane_thread_value(s, list[r], seg[k].m)
							 : sample_metric(s, e, seg[k].m);
			if (seg[k].mark != '=' && !isnan(val[k]) && (big < 0 || val[k] > val[big]))
				big = k;
		}
		bn_bar(seg, val, nsegs, y + 1 + row, BN_LABEL, barw, g);
		if (big >= 0) {
			int flag = layout_metric_flagged(l, seg[big].m, e->vars);

			pane_value(s, seg[big].m, val[big], buf, sizeof(buf));
			grid_put(g, y + 1 + row, BN_LABEL + barw + 1, namew,
				 flag == 1 ? GRID_CRIT : GRID_NORMAL, "%c %s %s", seg[big].mark,
				 seg[big].name, buf);
		} else {
			grid_put(g, y + 1 + row, BN_LABEL + barw + 1, namew, GRID_DIM, "n/a");
		}
		pane_hit(f, y + 1 + row, 0, g->w, r, e->socket,
			 (enum view_agg)agg, list[r]);
		/* explain (e) on a row: its largest bottleneck, the vendor's formula and threshold */
		f->hits[f->nhits - 1].metric = big >= 0 ? seg[big].m : seg[0].m;
		row++;
	}
	if (shown > first + row)
		grid_put(g, y + 1 + row, 1, g->w - 2, GRID_DIM, "+%d more (Tab here, then Up and "
			 "Down scroll; a: threads, cores, sockets)", shown - first - row);
	free(list);
}

static int bottleneck_pane_draw(const struct view *v, const struct sample *s, int y, int h,
				struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	struct bn_seg seg[BN_MAX_SEGS];
	int na[BN_MAX_SEGS], nna, nsegs = bn_segments(l, seg, na, &nna), legend = 1, x = 2, off = -1;
	int maxy = y + h;

	if (!nsegs && !nna) {
		grid_put_wrap(g, y, 2, g->w - 4, h, GRID_DIM, "Layout %s has no Bottleneck metrics: "
			      "Intel publishes them (Top-down 4, Bottleneck_*) for its cores from Skylake "
			      "on. The Tree and Cycles panes show where the slots go.", l->name);
		return h;
	}
	for (int k = 0; k < nsegs && off < 0; k++) {
		int gr = l->metrics[seg[k].m].group;

		if (gr >= 0 && s->groups[gr].state != SAMPLE_GROUP_LIVE &&
		    s->groups[gr].state != SAMPLE_GROUP_ROTATING)
			off = gr;
	}
	if (off >= 0) {
		/* the key's name: its groups' without the ".N" of the second and later */
		int namelen = (int)strcspn(l->groups[off].name, ".");

		grid_put_wrap(g, y, 2, g->w - 4, h, GRID_WARN, "Intel's Bottleneck metrics are off: "
			      "press %c (%.*s)%s%s", l->groups[off].key, namelen, l->groups[off].name,
			      s->groups[off].state == SAMPLE_GROUP_BLOCKED ? ": " : "",
			      s->groups[off].state == SAMPLE_GROUP_BLOCKED ? s->groups[off].why : "");
		return h;
	}
	grid_put_wrap(g, y, 1, g->w - 2, 1, GRID_BOLD, g->w >= 100
		      ? "Intel's Bottleneck metrics: what each kind of bottleneck costs, in %% of the "
			"slots; the largest named:"
		      : "Intel's Bottleneck metrics, %% of the slots; the largest named:");
	/* legend: each letter and its name, on as many lines as it takes */
	for (int k = 0; k < nsegs; k++) {
		int len = (int)strlen(seg[k].name);

		if (x + len + 4 > g->w - 1 && x > 2) {
			legend++;
			x = 2;
		}
		grid_put(g, y + legend, x, 1, seg[k].style, "%c", seg[k].mark);
		x += 2 + grid_put(g, y + legend, x + 2, g->w - 3 - x, GRID_NORMAL, "%s", seg[k].name) + 2;
	}
	legend++;
	legend += bn_na_lines(l, na, nna, y + legend, maxy - 3, g);
	y += legend;
	if (!nsegs)
		return h;
	bn_table(v, s, seg, nsegs, y, maxy, g, f);
	return h;
}

const struct pane bottleneck_pane = {
	.name = "bottleneck", .title = "Bottleneck",
	.help = "Intel's Bottleneck metrics: what each kind of bottleneck costs in % of the slots, as "
		"one stacked bar per thread, core or socket (key a), the largest named, red over the "
		"vendor's threshold",
	.draw = bottleneck_pane_draw,
};
