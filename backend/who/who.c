/*
 * who: the collector's life and its snapshot (see who.h): each look reads
 * the tree, the processes, the counters and resctrl, then lays the cgroups
 * out as a tree (each parent before its children, the busiest child first)
 * with the figures of a parent made from its children where it was not
 * counted itself (perf counts a cgroup with its descendants, so a counted
 * parent's figures are its own), then the busiest processes.  Sampler
 * thread; who_create on the main thread.
 */
#define _GNU_SOURCE
#include "layout.h"
#include "text.h"
#include "who_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int who_create(const struct who_config *cfg, struct who **out, char *err, size_t errlen)
{
	struct who *w;
	long per_group;

	*out = NULL;
	if (cfg->top < 0 || cfg->top > WHO_TOP_MAX || cfg->procs < 0 || cfg->procs > WHO_PROCS_MAX) {
		snprintf(err, errlen, "--who-top takes 1 to %d groups, --who-procs 0 to %d processes",
			 WHO_TOP_MAX, WHO_PROCS_MAX);
		return -EINVAL;
	}
	w = xcalloc(1, sizeof(*w));
	w->cfg = *cfg;
	snprintf(w->root, sizeof(w->root), "%s", cfg->root && *cfg->root ? cfg->root : "/");
	w->cfg.root = w->root;
	if (cfg->access)
		w->access = *cfg->access;
	else
		perf_access_read(cfg->root, &w->access);
	w->clk_tck = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	w->top = cfg->top ? cfg->top : WHO_TOP_DEFAULT;
	who_td_init(w);
	who_rmt_init(w);
	/* one file per event per CPU per cgroup, two groups per process at most */
	per_group = (long)(cfg->ncpus > 0 ? cfg->ncpus : 1) * who_group_events(w);
	if (cfg->count) {
		char why[400];
		long procs = (long)(cfg->procs < w->top ? cfg->procs : w->top) * 2 *
			     who_group_events(w);

		while (w->top > 1 && perf_check_fd_limit(w->top * per_group + procs, &w->access, why,
							 sizeof(why)))
			w->top = w->top * 3 / 4;
		if (w->top < (cfg->top ? cfg->top : WHO_TOP_DEFAULT))
			snprintf(w->count_note, sizeof(w->count_note), "%d groups at once, not %d: the "
				 "open-file limit (%ld) holds no more (ulimit -n %ld for all)", w->top,
				 cfg->top ? cfg->top : WHO_TOP_DEFAULT, w->access.fd_limit,
				 (cfg->top ? cfg->top : WHO_TOP_DEFAULT) * per_group + procs + 256);
	}
	*out = w;
	return 0;
}

void who_free(struct who *w)
{
	if (!w)
		return;
	who_count_close(w);
	who_td_free(w);
	who_scan_free(w);
	free(w->cg);
	free(w->pr);
	free(w->mon);
	free(w);
}

/* ---- the snapshot ------------------------------------------------------------ */

struct who_lay {
	struct who *w;
	struct who_snap *s;
	double (*raw)[PERF_GROUP_MAX]; /* per row: the top-down group's events per second */
	bool *raw_ok;
	int *row_of;              /* cgroup -> row */
	int *kids, *nkids, *first; /* children by cgroup: first[c] into kids */
};

static int who_kid_cmp(const void *a, const void *b, void *ctx)
{
	const struct who *w = ctx;
	const struct who_cg *x = &w->cg[*(const int *)a], *y = &w->cg[*(const int *)b];
	double kx = isfinite(x->cpus) ? x->cpus : -1, ky = isfinite(y->cpus) ? y->cpus : -1;

	return kx < ky ? 1 : kx > ky ? -1 : strcmp(x->path, y->path);
}

/* Why cgroup C has no figures of its own this interval. */
static void who_cg_why(const struct who *w, const struct who_cg *c, char *buf, size_t len)
{
	if (!w->cfg.count)
		snprintf(buf, len, "%s", w->cfg.count_why ? w->cfg.count_why
				   : "counted per cgroup with --who (3 to 5 events per CPU per group)");
	else if (c->fig.why[0])
		snprintf(buf, len, "%s", c->fig.why);
	else if (c->fig.counting)
		snprintf(buf, len, "counted from this interval on: figures at the next");
	else if (!c->nprocs)
		snprintf(buf, len, "no process in it");
	else
		snprintf(buf, len, "not counted this interval: %d groups at once (--who-top), the "
			 "rest take turns", w->top);
}

/* Lay out cgroup C and its subtree from row s->nrows on; its figures from its children's. */
static void who_lay_cg(struct who_lay *L, int c)
{
	struct who *w = L->w;
	struct who_cg *g = &w->cg[c];
	int r = L->s->nrows++;
	struct who_row *row = &L->s->rows[r];
	bool own = g->fig.have && g->fig.t == w->t, any_kid = false;
	double sum[WHO_NEV] = { 0 }, rdt[3] = { 0 }, oncpu = 0, raw[PERF_GROUP_MAX] = { 0 };
	bool rdt_any = false, raw_any = false;

	L->row_of[c] = r;
	memset(row, 0, sizeof(*row));
	snprintf(row->path, sizeof(row->path), "%s", g->path);
	snprintf(row->name, sizeof(row->name), "%s", g->name);
	snprintf(row->where, sizeof(row->where), "%s", g->where);
	row->depth = g->depth;
	row->parent = g->parent >= 0 ? L->row_of[g->parent] : -1;
	row->nprocs = g->nprocs;
	row->cpus = g->cpus;
	for (int k = 0; k < WHO_NEV; k++)
		row->ev[k] = own || (g->fig.have && !g->nprocs) ? g->fig.ev[k] : NAN;
	row->oncpu = own || (g->fig.have && !g->nprocs) ? g->fig.oncpu : NAN;
	row->mbm_total = g->mbm_total;
	row->mbm_local = g->mbm_local;
	row->llc = g->llc;
	snprintf(row->rdt_why, sizeof(row->rdt_why), "%s", g->rdt_why);
	for (int i = 0; i < L->nkids[c]; i++) {
		int kid = L->kids[L->first[c] + i], kr = L->s->nrows;
		const struct who_row *k;

		who_lay_cg(L, kid);
		row = &L->s->rows[r];
		k = &L->s->rows[kr];
		row->nprocs += k->nprocs;
		if (k->nprocs && L->raw_ok[kr]) {
			raw_any = true;
			for (int e = 0; e < PERF_GROUP_MAX; e++)
				raw[e] += L->raw[kr][e];
		}
		if (k->nprocs) {
			any_kid = true;
			row->partial |= !k->counted || k->partial;
			for (int e = 0; e < WHO_NEV; e++)
				sum[e] += k->ev[e];
			oncpu += k->oncpu;
			row->scaled |= k->scaled;
		}
		if (isfinite(k->mbm_total) || isfinite(k->llc)) {
			rdt_any = true;
			rdt[0] += isfinite(k->mbm_total) ? k->mbm_total : 0;
			rdt[1] += isfinite(k->mbm_local) ? k->mbm_local : 0;
			rdt[2] += isfinite(k->llc) ? k->llc : 0;
		}
	}
	row = &L->s->rows[r];
	/* the top-down group's events: its own as its other figures, else its children's sum */
	if (g->fig.have && g->fig.td_have) {
		memcpy(L->raw[r], g->fig.td_ev, sizeof(L->raw[r]));
		L->raw_ok[r] = true;
	}
	if (!own && any_kid && !g->nprocs) {
		memcpy(L->raw[r], raw, sizeof(raw));
		L->raw_ok[r] = raw_any;
	}
	if (own) {
		row->counted = true;
		row->scaled = g->fig.scaled;
	} else if (any_kid && !g->nprocs) {
		/* nothing of its own: its children's sum (partial when one of them has none) */
		for (int e = 0; e < WHO_NEV; e++)
			row->ev[e] = sum[e];
		row->oncpu = oncpu;
		row->counted = !row->partial;
		if (!w->cfg.count)
			who_cg_why(w, g, row->why, sizeof(row->why));
		else if (row->partial)
			snprintf(row->why, sizeof(row->why), "the sum of the groups under it that were "
				 "counted (some were not)");
	} else if (g->fig.have) {
		for (int e = 0; e < WHO_NEV; e++)
			row->ev[e] = g->fig.ev[e];
		row->oncpu = g->fig.oncpu;
		row->age_s = w->t - g->fig.t;
		row->scaled = g->fig.scaled;
		who_cg_why(w, g, row->why, sizeof(row->why));
	} else {
		who_cg_why(w, g, row->why, sizeof(row->why));
	}
	if (w->no_misses && w->cfg.count)
		row->ev[WHO_CACHE_MISSES] = NAN;
	if (!g->path[0] && isfinite(w->rdt_dflt[0])) {
		/* the whole machine: every group's and the default group's (the tasks in none) */
		row->mbm_total = rdt[0] + w->rdt_dflt[0];
		row->mbm_local = rdt[1] + w->rdt_dflt[1];
		row->llc = rdt[2] + w->rdt_dflt[2];
		row->rdt_why[0] = '\0';
	} else if (rdt_any && !isfinite(row->mbm_total) && !isfinite(row->llc) && g->path[0]) {
		row->mbm_total = rdt[0];
		row->mbm_local = rdt[1];
		row->llc = rdt[2];
		row->rdt_why[0] = '\0';
	}
	if (L->raw_ok[r])
		who_td_eval(w, row->ev, L->raw[r], row->td);
	else
		for (int k = 0; k < WHO_TD_MAX; k++)
			row->td[k] = NAN;
}

static void who_lay_procs(struct who *w, struct who_snap *s)
{
	int n = w->cfg.procs < w->npr ? w->cfg.procs : w->npr;

	for (int i = 0; i < n; i++) {
		struct who_proc *p = &w->pr[i];
		struct who_row *row = &s->rows[s->nrows++];

		memset(row, 0, sizeof(*row));
		row->pid = p->pid;
		row->parent = -1;
		row->nprocs = 1;
		snprintf(row->name, sizeof(row->name), "%s", p->comm);
		if (who_pid_cgroup(w, p->pid, row->path, sizeof(row->path)))
			row->path[0] = '\0';
		row->cpus = p->cpus;
		row->mbm_total = row->mbm_local = row->llc = NAN;
		snprintf(row->rdt_why, sizeof(row->rdt_why), "resctrl counts groups: see its cgroup");
		row->counted = p->fig.have && p->fig.t == w->t;
		for (int k = 0; k < WHO_NEV; k++)
			row->ev[k] = row->counted ? p->fig.ev[k] : NAN;
		row->oncpu = row->counted ? p->fig.oncpu : NAN;
		row->scaled = p->fig.scaled;
		if (!row->counted)
			snprintf(row->why, sizeof(row->why), "%s", !w->cfg.count
				 ? (w->cfg.count_why ? w->cfg.count_why : "counted with --who")
				 : p->fig.why[0] ? p->fig.why : "counted from this interval on");
		if (w->no_misses && w->cfg.count)
			row->ev[WHO_CACHE_MISSES] = NAN;
		if (row->counted && p->fig.td_have)
			who_td_eval(w, row->ev, p->fig.td_ev, row->td);
		else
			for (int k = 0; k < WHO_TD_MAX; k++)
				row->td[k] = NAN;
	}
}

/* The snapshot's optional columns: the remote pair's events and level 1's metrics, or why none. */
static void who_snap_columns(const struct who *w, struct who_snap *s)
{
	for (int k = 0; k < 2 && w->rmt.on; k++)
		snprintf(s->rmt_events[k], sizeof(s->rmt_events[k]), "%s", w->rmt.name[k]);
	if (!w->rmt.on)
		snprintf(s->rmt_why, sizeof(s->rmt_why), "%s", w->rmt.why);
	if (w->td_on) {
		s->ntd = w->td.n;
		for (int k = 0; k < w->td.n; k++) {
			const struct layout_metric *mt = &w->cfg.layout->metrics[w->td.metric[k]];

			snprintf(s->td_name[k], sizeof(s->td_name[k]), "%s", mt->name);
			if (k == 0)
				snprintf(s->td_unit, sizeof(s->td_unit), "%s", mt->unit ? mt->unit : "");
		}
		snprintf(s->td_why, sizeof(s->td_why), "%.199s", w->td_fail);
	} else if (w->td_note[0]) {
		snprintf(s->td_why, sizeof(s->td_why), "%.199s", w->td_note);
	} else if (!w->td.n) {
		snprintf(s->td_why, sizeof(s->td_why), "top-down level 1 per cgroup: n/a: %.160s",
			 w->td.why);
	} else {
		snprintf(s->td_why, sizeof(s->td_why), "top-down level 1 per cgroup: T in the who "
			 "pane, or --who-topdown (%d events more per CPU per group)", w->td.nev);
	}
}

/*
 * Every string of S as safe text (text.h): cgroup, process and resctrl
 * names are any user's, and what a snapshot holds reaches root's terminal,
 * CSV, JSON, recordings and Prometheus.
 */
static void who_snap_clean(struct who_snap *s)
{
#define WHO_CLEAN(f) text_clean_in_place((f), sizeof(f))
	for (int i = 0; i < s->nrows; i++) {
		struct who_row *r = &s->rows[i];

		WHO_CLEAN(r->path);
		WHO_CLEAN(r->name);
		WHO_CLEAN(r->why);
		WHO_CLEAN(r->rdt_why);
		WHO_CLEAN(r->where);
	}
	WHO_CLEAN(s->why);
	WHO_CLEAN(s->note);
	WHO_CLEAN(s->rdt_note);
	WHO_CLEAN(s->rmt_why);
	WHO_CLEAN(s->td_why);
#undef WHO_CLEAN
}

static struct who_snap *who_snapshot(struct who *w)
{
	struct who_snap *s = xcalloc(1, sizeof(*s));
	struct who_lay L = { .w = w, .s = s };
	int n = 0;

	s->available = w->v2;
	snprintf(s->why, sizeof(s->why), "%s", w->why);
	s->top = w->top;
	s->counting = w->cfg.count;
	snprintf(s->rdt_note, sizeof(s->rdt_note), "%s", w->rdt_note);
	s->rows = xcalloc((size_t)w->ncg + (size_t)w->cfg.procs + 1, sizeof(*s->rows));
	L.row_of = xcalloc((size_t)w->ncg + 1, sizeof(int));
	L.kids = xcalloc((size_t)w->ncg + 1, sizeof(int));
	L.nkids = xcalloc((size_t)w->ncg + 1, sizeof(int));
	L.first = xcalloc((size_t)w->ncg + 1, sizeof(int));
	L.raw = xcalloc((size_t)w->ncg + 1, sizeof(*L.raw));
	L.raw_ok = xcalloc((size_t)w->ncg + 1, sizeof(bool));
	for (int i = 0; i < w->ncg; i++)
		if (w->cg[i].parent >= 0)
			L.nkids[w->cg[i].parent]++;
	for (int i = 0; i < w->ncg; i++) {
		L.first[i] = n;
		n += L.nkids[i];
		L.nkids[i] = 0;
	}
	for (int i = 0; i < w->ncg; i++)
		if (w->cg[i].parent >= 0)
			L.kids[L.first[w->cg[i].parent] + L.nkids[w->cg[i].parent]++] = i;
	for (int i = 0; i < w->ncg; i++)
		qsort_r(L.kids + L.first[i], (size_t)L.nkids[i], sizeof(int), who_kid_cmp, w);
	for (int i = 0; i < w->ncg; i++)
		if (w->cg[i].parent < 0)
			who_lay_cg(&L, i);
	s->ncgroups = s->nrows;
	for (int i = 0; i < w->ncg; i++) {
		s->candidates += w->cg[i].path[0] && w->cg[i].nprocs > 0;
		s->counted += w->cg[i].fig.have && w->cg[i].fig.t == w->t;
	}
	if (w->cfg.procs)
		who_lay_procs(w, s);
	if (w->cfg.count) {
		int turns = who_turn_places(w->top, s->candidates);
		int fixed = s->candidates > w->top ? w->top - turns : s->candidates;
		const char *more = w->count_note[0] ? "; " : "";

		if (s->candidates <= w->top)
			snprintf(s->note, sizeof(s->note), "%d of %d groups counted%s%s", s->candidates,
				 s->candidates, more, w->count_note);
		else if (turns)
			snprintf(s->note, sizeof(s->note), "%d of %d groups counted at a time: the %d "
				 "busiest, the other %d take turns for %d places (figures from a turn "
				 "marked ~ with their age)%s%s", w->top, s->candidates, fixed,
				 s->candidates - fixed, turns, more, w->count_note);
		else
			snprintf(s->note, sizeof(s->note), "%d of %d groups counted: the busiest; the "
				 "other %d are not (no place to take turns: --who-top 2 or more)%s%s",
				 w->top, s->candidates, s->candidates - w->top, more, w->count_note);
	}
	if (w->left_out)
		snprintf(s->why, sizeof(s->why), "%s%ld cgroups without processes left out: the tree "
			 "has %s%ld, the %d shown are every one with processes (the busiest first), then "
			 "the machine's own", w->counting ? "at least " : "", w->left_out,
			 w->counting ? "at least " : "", w->left_out + w->ncg - 1, w->ncg);
	free(L.row_of);
	free(L.kids);
	free(L.nkids);
	free(L.first);
	free(L.raw);
	free(L.raw_ok);
	who_snap_columns(w, s);
	who_snap_clean(s);
	return s;
}

void who_set_wanted(struct who *w, bool on)
{
	atomic_store(&w->wanted, on);
}

void who_set_topdown(struct who *w, bool on)
{
	atomic_store(&w->td_wanted, on);
}

struct who_snap *who_collect(struct who *w, double t)
{
	const char *moved = w->cfg.follow ? w->cfg.follow(w->cfg.follow_ctx) : NULL;

	if (!atomic_load(&w->wanted)) {
		if (w->have_t) {
			/* nobody looks: nothing open, and the next look starts afresh */
			who_count_close(w);
			w->have_t = false;
			for (int i = 0; i < w->ncg; i++)
				w->cg[i].looked = false;
			w->npr = 0;
			w->nmon = 0;
		}
		return NULL;
	}
	if (w->cfg.unavailable) {
		struct who_snap *s = xcalloc(1, sizeof(*s));

		snprintf(s->why, sizeof(s->why), "%s", w->cfg.unavailable);
		return s;
	}
	if (w->cfg.refresh)
		w->cfg.refresh(w->cfg.refresh_ctx);
	w->dt = w->have_t ? t - w->t : 0;
	w->t = t;
	/* the processes first: every cgroup holding one is kept, whatever the tree holds */
	who_procs_scan(w);
	who_tree_scan(w);
	who_count(w);
	who_rdt_read(w);
	if (moved) /* --who-resctrl's groups could not take a cgroup's new process: said */
		snprintf(w->rdt_note + strlen(w->rdt_note), sizeof(w->rdt_note) - strlen(w->rdt_note),
			 "%s%s", w->rdt_note[0] ? "; " : "", moved);
	w->have_t = true;
	return who_snapshot(w);
}
