/*
 * tree_path: the vendor's top-down tree as the tree pane and the bottleneck
 * line read it (pane.h): which nodes a kind of core has, their children in
 * the vendor's order, and the bottleneck as toplev follows it, from level 1
 * down through the flagged child with the largest share.
 *
 * The bottleneck line (row 3, under the message line) says that path for
 * each socket shown, the sockets with one path together, and what the next
 * level needs: the key that counts it while it is off, "settling" while it
 * is on and not yet counted.  With D (drill, --drill) pmutop counts that
 * level itself, a level under the flagged node at a time: the groups the
 * flagged node's children read (their formulas and thresholds), not the
 * level's whole key, and those of the path's nodes and their siblings
 * (which of them is largest is the path); and turns off again what it
 * turned on that the path no longer needs, so the counters hold the path
 * and little else.  UI thread.
 */
#include "pane.h"
#include "expr.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BNECK_MAX_PATH 16

const char *tree_node_name(const char *name)
{
	/* a layout name cannot start with a digit ("_4K_Aliasing") */
	return name[0] == '_' && name[1] >= '0' && name[1] <= '9' ? name + 1 : name;
}

unsigned tree_shown_kind(const struct view *v)
{
	const struct layout *l = v->info.layout;
	const struct topo *t = v->info.topo;
	bool hybrid = false;

	for (int g = 0; g < l->ngroups && !hybrid; g++)
		hybrid = l->groups[g].coretype != LAYOUT_CORES_ANY;
	for (int i = 0; hybrid && i < t->nonline; i++)
		if (pane_cpu_shown(v, t->threads[i].os_cpu) &&
		    (v->zoom_socket < 0 || t->threads[i].socket == v->zoom_socket))
			return pane_core_kind(t, t->threads[i].core);
	return LAYOUT_CORES_ANY;
}

bool tree_node_of(const struct layout *l, int m, unsigned kind)
{
	return l->metrics[m].level > 0 && layout_coretype_on(layout_metric_coretype(l, m), kind);
}

/* Whether B comes before A among siblings (the tree line's place, then layout order). */
static bool tree_before(const struct layout *l, int a, int b)
{
	int pa = l->metrics[a].tree_pos, pb = l->metrics[b].tree_pos;

	return pb < pa || (pb == pa && b < a);
}

int tree_children(const struct layout *l, int m, int *out, unsigned kind)
{
	int n = 0;

	for (int k = 0; k < l->nmetrics; k++) {
		if (!tree_node_of(l, k, kind) || l->metrics[k].parent != m)
			continue;
		int at = n++;

		while (at > 0 && tree_before(l, out[at - 1], k)) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = k;
	}
	return n;
}

int tree_bottleneck(const struct layout *l, const double *vars, int *path, int max, unsigned kind)
{
	int *kids = xcalloc((size_t)l->nmetrics + 1, sizeof(int)), n = 0, at = -1;

	for (;;) {
		int nk = tree_children(l, at, kids, kind), best = -1;
		double top = -INFINITY;

		for (int i = 0; i < nk; i++) {
			double val = vars[layout_metric_var(l, kids[i])];

			if (layout_metric_flagged(l, kids[i], vars) == 1 && val > top) {
				top = val;
				best = kids[i];
			}
		}
		if (best < 0 || n >= max)
			break;
		path[n++] = at = best;
	}
	free(kids);
	return n;
}

/* The groups of the key that counts metric M (0: none, or always live). */
static layout_groups bneck_key_set(const struct layout *l, int m)
{
	return l->metrics[m].group >= 0 ? layout_key_groups(l, l->metrics[m].group) : 0;
}

/*
 * The groups node M needs to be counted and judged: those its formula reads,
 * and those of what its threshold reads (the vendor's thresholds read the
 * parent's and other nodes' figures).  Drill turns on these alone, not the
 * whole level's key.
 */
static layout_groups bneck_groups(const struct layout *l, int m)
{
	layout_groups g = l->metrics[m].uses;
	const int *vars;
	int n;

	if (!l->metrics[m].threshold)
		return g;
	expr_vars(l->metrics[m].threshold, &vars, &n);
	for (int i = 0; i < n; i++) {
		int at = vars[i] - LAYOUT_NBUILTINS;

		if (at >= l->nevents && at - l->nevents < l->nmetrics)
			g |= l->metrics[at - l->nevents].uses;
		else if (at >= 0 && at < l->nevents && l->events[at].group >= 0)
			g |= LAYOUT_GROUP(l->events[at].group);
	}
	return g;
}

/*
 * What the level under the end of PATH (N nodes; 0: the roots) needs in
 * sample S: the groups of its nodes into *NEED, those off into *OFF, and
 * whether every node of it is n/a (not counted yet) into *PENDING.  false
 * when there is no level under it (the deepest node of the tree).
 */
static bool bneck_next(const struct layout *l, const struct sample *s, const struct sample_entity *e,
		       const int *path, int n, unsigned kind, layout_groups *need, layout_groups *off,
		       bool *pending)
{
	int *kids = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	int nk = tree_children(l, n ? path[n - 1] : -1, kids, kind);

	*need = *off = 0;
	*pending = nk > 0;
	for (int i = 0; i < nk; i++) {
		int g = l->metrics[kids[i]].group;

		if (l->metrics[kids[i]].na)
			continue; /* the layout says it cannot be counted here */
		*need |= bneck_groups(l, kids[i]);
		if (g >= 0 && s->groups[g].state == SAMPLE_GROUP_OFF)
			*off |= bneck_key_set(l, kids[i]);
		if (!isnan(sample_metric(s, e, kids[i])))
			*pending = false;
	}
	free(kids);
	return nk > 0;
}

/* printf to BUF at *AT (LEN bytes in all), *AT kept within it */
static void bneck_add(char *buf, size_t len, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void bneck_add(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	*at = n < 0 ? len : *at + (size_t)n;
}

#define BNECK_MAX_SOCKETS 64

/* The sockets the line is about (at most BNECK_MAX_SOCKETS): the zoomed one, else all; their count. */
static int bneck_sockets(const struct view *v, const struct sample *s, int *idx)
{
	int n = 0;

	for (int i = 0; i < s->nsockets && n < BNECK_MAX_SOCKETS; i++)
		if (v->zoom_socket < 0 || s->sockets[i].socket == v->zoom_socket)
			idx[n++] = i;
	return n;
}

/* A node's name on the path: the vendor's, without "_Bound" and the E-cores' "tma_". */
static void bneck_short(const char *name, char *buf, size_t len)
{
	size_t n;

	name = tree_node_name(name);
	if (!strncasecmp(name, "tma_", 4))
		name += 4;
	n = strlen(name);
	if (n > 6 && !strcasecmp(name + n - 6, "_bound"))
		n -= 6;
	snprintf(buf, len, "%.*s", (int)n, name);
}

/* Entity E's path as text (names only) into BUF; the path into PATH, its length. */
static int bneck_path_text(const struct layout *l, const struct sample_entity *e, unsigned kind,
			   int *path, char *buf, size_t len)
{
	int n = tree_bottleneck(l, e->vars, path, BNECK_MAX_PATH, kind);
	size_t at = 0;

	buf[0] = 0;
	for (int k = 0; k < n && at < len; k++) {
		char name[64];

		if (k < n - 1)
			bneck_short(l->metrics[path[k]].name, name, sizeof(name));
		else
			snprintf(name, sizeof(name), "%s", tree_node_name(l->metrics[path[k]].name));
		bneck_add(buf, len, &at, "%s%s", k ? " > " : "", name);
	}
	return n;
}

/* " | cpu 12: Backend > Memory > DRAM_Bound 41 %": SEL's path, the thread or core selected. */
static void bneck_selected(const struct layout *l, const struct sample *s, const struct sample_entity *sel,
			   unsigned kind, char *buf, size_t len, size_t *at)
{
	int path[BNECK_MAX_PATH], n, last;
	char text[512];

	if (sel >= s->threads && sel < s->threads + s->nthreads)
		bneck_add(buf, len, at, " | cpu %d", sel->index);
	else if (sel >= s->cores && sel < s->cores + s->ncores)
		bneck_add(buf, len, at, " | core %d", sel->os_core_id);
	else
		return;
	n = bneck_path_text(l, sel, kind, path, text, sizeof(text));
	if (!n) {
		bneck_add(buf, len, at, ": no node over the vendor's threshold");
		return;
	}
	last = path[n - 1];
	bneck_add(buf, len, at, ": %s %.0f%s%s", text, sample_metric(s, sel, last),
		  l->metrics[last].unit && !strcmp(l->metrics[last].unit, "%") ? " %" : "",
		  s->metric_scaled[last] ? "*" : "");
}

/*
 * " | cgroup system.slice/db.service: Backend_Bound 61 %": the who pane's
 * selected cgroup or process, where its level 1 is counted (T, or
 * --who-topdown): the node over the vendor's threshold with the largest
 * share, as for a socket, from the row's own figures (its levels below are
 * not counted per cgroup).
 */
static void bneck_who(const struct view *v, const struct sample *s, unsigned kind, char *buf,
		      size_t len, size_t *at)
{
	const struct layout *l = v->info.layout;
	const struct who_snap *w = s->who;
	int r = who_pane_focused(v) ? who_pane_selected(v, s) : -1, path[BNECK_MAX_PATH], n;
	const struct who_row *row;
	double *vars;
	bool any = false;

	if (r < 0 || !w->ntd)
		return;
	row = &w->rows[r];
	vars = xcalloc((size_t)layout_nvars(l) + 1, sizeof(double));
	for (int i = 0; i < layout_nvars(l); i++)
		vars[i] = NAN;
	for (int k = 0; k < w->ntd; k++) {
		int m = layout_metric_find(l, w->td_name[k]);

		if (m >= 0 && !isnan(row->td[k])) {
			vars[layout_metric_var(l, m)] = row->td[k];
			any = true;
		}
	}
	/* its name as the who pane shows it ("docker 3f2a9c1b7d4e", a process's command) */
	bneck_add(buf, len, at, " | %s %s", row->pid ? "process" : "cgroup", row->name);
	n = any ? tree_bottleneck(l, vars, path, BNECK_MAX_PATH, kind) : 0;
	if (!any)
		bneck_add(buf, len, at, ": settling (its level 1 is counted in turns)");
	else if (!n)
		bneck_add(buf, len, at, ": no node over the vendor's threshold");
	else
		bneck_add(buf, len, at, ": %s %.0f%s%s", tree_node_name(l->metrics[path[n - 1]].name),
			  vars[layout_metric_var(l, path[n - 1])], !strcmp(w->td_unit, "%") ? " %" : "",
			  row->age_s > 0 ? "~" : row->scaled ? "*" : "");
	free(vars);
}

bool bneck_line(const struct view *v, const struct sample *s, const struct sample_entity *sel,
		char *buf, size_t len, size_t *sel_at)
{
	const struct layout *l = v->info.layout;
	unsigned kind = tree_shown_kind(v);
	int idx[BNECK_MAX_SOCKETS], n = s ? bneck_sockets(v, s, idx) : 0, *roots, nroots;
	int path[BNECK_MAX_SOCKETS][BNECK_MAX_PATH], np[BNECK_MAX_SOCKETS];
	char (*text)[512];
	bool done[BNECK_MAX_SOCKETS] = { false };
	size_t at = 0;

	/* a layout with no tree for these cores: no line */
	roots = xcalloc((size_t)l->nmetrics + 1, sizeof(int));
	nroots = tree_children(l, -1, roots, kind);
	free(roots);
	if (!nroots)
		return false;
	bneck_add(buf, len, &at, "bottleneck%s", v->drill ? " (drill)" : "");
	if (!s) {
		bneck_add(buf, len, &at, ": waiting for the first sample");
		if (sel_at)
			*sel_at = strlen(buf);
		return true;
	}
	text = xcalloc((size_t)n + 1, sizeof(*text));
	for (int i = 0; i < n; i++)
		np[i] = bneck_path_text(l, &s->sockets[idx[i]], kind, path[i], text[i], sizeof(text[i]));
	for (int i = 0; i < n && at < len; i++) {
		const struct sample_entity *e = &s->sockets[idx[i]];
		int last = np[i] ? path[i][np[i] - 1] : -1;
		layout_groups need, off;
		bool pending, deeper;

		if (done[i])
			continue;
		/* the sockets with the same path, together */
		bneck_add(buf, len, &at, "%s", i ? " |" : "");
		if (n > 1)
			bneck_add(buf, len, &at, " S%d", e->os_socket_id);
		for (int j = i + 1; j < n; j++)
			if (!strcmp(text[j], text[i])) {
				done[j] = true;
				bneck_add(buf, len, &at, ",S%d", s->sockets[idx[j]].os_socket_id);
			}
		deeper = bneck_next(l, s, e, path[i], np[i], kind, &need, &off, &pending);
		if (last < 0) {
			/* nothing over the vendor's thresholds, or level 1 not counted (OFF: its key's) */
			if (off)
				bneck_add(buf, len, &at, ": n/a (key %c counts the tree)",
					  l->groups[layout_groups_first(off)].key);
			else if (pending)
				bneck_add(buf, len, &at, ": settling");
			else
				bneck_add(buf, len, &at, ": no node over the vendor's threshold");
			continue;
		}
		bneck_add(buf, len, &at, ": %s %.0f%s%s", text[i], sample_metric(s, e, last),
			  l->metrics[last].unit && !strcmp(l->metrics[last].unit, "%") ? " %" : "",
			  s->metric_scaled[last] ? "*" : "");
		if (deeper && off)
			bneck_add(buf, len, &at, v->drill ? " (settling: key %c on)"
				  : " (key %c goes deeper)", l->groups[layout_groups_first(off)].key);
		else if (deeper && pending)
			bneck_add(buf, len, &at, " (settling)");
	}
	free(text);
	if (sel_at)
		*sel_at = at < len ? at : len - 1;
	if (sel)
		bneck_selected(l, s, sel, kind, buf, len, &at);
	else if (s->who)
		bneck_who(v, s, kind, buf, len, &at);
	if (at >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return true;
}

/*
 * Drill: the groups to count after sample S, the level under each socket's
 * bottleneck on, the levels drill turned on (*DRILLED, updated) that the
 * path no longer needs off; the user's own groups stay as they are.
 */
static layout_groups bneck_drill(const struct view *v, const struct sample *s,
				 layout_groups *drilled)
{
	const struct layout *l = v->info.layout;
	unsigned kind = tree_shown_kind(v);
	int idx[BNECK_MAX_SOCKETS], n = bneck_sockets(v, s, idx);
	layout_groups need = 0, want = 0, groups;

	for (int i = 0; i < n; i++) {
		const struct sample_entity *e = &s->sockets[idx[i]];
		int path[BNECK_MAX_PATH], np = tree_bottleneck(l, e->vars, path, BNECK_MAX_PATH, kind);
		layout_groups nx, off;
		bool pending;

		/*
		 * each level of the path with its siblings (which of them is the largest
		 * flagged is the path), and the level under its end
		 */
		for (int k = 0; k <= np; k++)
			if (bneck_next(l, s, e, path, k, kind, &nx, &off, &pending)) {
				need |= nx;
				want |= nx & ~v->groups;
			}
	}
	/* on: the next level's; off again: what drill turned on that the path no longer needs */
	groups = (v->groups | want) & ~(*drilled & ~need & ~want);
	*drilled = (*drilled | (want & ~v->groups)) & groups;
	return groups;
}

/* (view.h: with the tree's walk it drives) */
enum view_cmd view_drill(struct view *v, const struct sample *s)
{
	layout_groups groups;

	if (!v->drill || !s || v->info.replay || v->info.viewer)
		return VIEW_CMD_NONE;
	groups = bneck_drill(v, s, &v->drilled);
	if (groups == v->groups)
		return VIEW_CMD_NONE;
	v->groups = groups;
	return VIEW_CMD_GROUPS;
}
