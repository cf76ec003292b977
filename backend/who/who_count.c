/*
 * who_count: the counters of the busiest cgroups and processes (who.h).
 * A cgroup is counted per CPU (PERF_FLAG_PID_CGROUP on its directory's fd),
 * a process on every CPU (pid, cpu -1, inheriting to the threads and
 * children it starts), each as one group of the kernel's generic events.
 * At most w->top cgroups are open at once: the busiest three quarters for
 * as long as they stay busiest, the last quarter taking turns among the
 * rest.  A group opened at one look has its figures at the next (the
 * interval between).  Sampler thread.
 */
#define _GNU_SOURCE
#include "who_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint64_t who_generic[WHO_NEV] = {
	[WHO_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
	[WHO_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
	[WHO_CACHE_MISSES] = PERF_COUNT_HW_CACHE_MISSES,
};

/* Close F's top-down groups (its other figures stay). */
static void who_td_close(struct who_fig *f)
{
	for (int i = 0; i < f->ntg; i++)
		perf_group_close(&f->tg[i]);
	free(f->tg);
	f->tg = NULL;
	f->ntg = 0;
}

void who_fig_close(struct who_fig *f)
{
	who_td_close(f);
	for (int i = 0; i < f->ng; i++)
		perf_group_close(&f->g[i]);
	free(f->g);
	f->g = NULL;
	f->ng = 0;
	if (f->dirfd >= 0)
		close(f->dirfd);
	f->dirfd = -1;
	f->counting = false;
}

/*
 * Each event's place in a group (AT[k], -1 when not counted): cycles,
 * instructions, cache misses unless the kernel has none, the remote-memory
 * pair where the layout has it.  How many.
 */
static int who_places(const struct who *w, int *at)
{
	int n = 0;

	for (int k = 0; k < WHO_NEV; k++) {
		bool on = k < WHO_LOCAL_MEM ? !(k == WHO_CACHE_MISSES && w->no_misses) : w->rmt.on;

		at[k] = on ? n++ : -1;
	}
	return n;
}

int who_group_events(const struct who *w)
{
	int at[WHO_NEV];

	return who_places(w, at);
}

/* The events of one group for core PMU type TYPE (0: the generic events' own). */
static int who_configs(const struct who *w, unsigned type, struct perf_pmu_config *c)
{
	int at[WHO_NEV], n = who_places(w, at);

	for (int k = 0; k < WHO_NEV; k++) {
		if (at[k] < 0)
			continue;
		if (k < WHO_LOCAL_MEM)
			c[at[k]] = (struct perf_pmu_config){
				.type = PERF_TYPE_HARDWARE,
				.config = { who_generic[k] | (uint64_t)type << 32 },
			};
		else
			c[at[k]] = w->rmt.cfg[k - WHO_LOCAL_MEM];
	}
	return n;
}

static unsigned who_cpu_type(const struct who *w, int cpu)
{
	return w->cfg.cpu_type && cpu >= 0 && cpu < w->cfg.ntypes ? w->cfg.cpu_type[cpu] : 0;
}

/*
 * Open and enable group G of the NE events C: cgroup directory DIRFD on CPU,
 * or (DIRFD < 0) process PID wherever it runs (CPU -1), user mode only
 * where paranoid 2 allows no more.  0, or -errno with ERR (nothing left open).
 */
static int who_group_open(struct who *w, struct perf_group *g, const struct perf_pmu_config *c,
			  int ne, int dirfd, int pid, int cpu, const char *what, char *err,
			  size_t errlen)
{
	bool user_only = w->access.paranoid >= 2 && !w->access.cap_perfmon, cg = dirfd >= 0;
	int rc = perf_group_open_flags(g, w->cfg.perf, c, ne, cg ? dirfd : pid, cpu, true,
				       cg || !user_only, cg ? PERF_FLAG_PID_CGROUP : 0, what,
				       &w->access, err, errlen);

	if (!rc && (rc = perf_group_enable(g)))
		perf_group_close(g);
	return rc;
}

/*
 * Open F's groups: cgroup directory DIRFD per CPU, or process PID once per
 * kind of core.  0, or -errno with the reason in F.
 */
static int who_fig_open(struct who *w, struct who_fig *f, int dirfd, int pid, const char *what)
{
	unsigned types[2] = { 0 };
	int n = dirfd >= 0 ? w->cfg.ncpus : 1, rc = 0;
	char err[400];

	if (dirfd < 0 && w->cfg.cpu_type) {
		/* a hybrid: one group per core PMU, each counting the process where it runs */
		n = 0;
		for (int i = 0; i < w->cfg.ntypes; i++) {
			unsigned t = w->cfg.cpu_type[i];

			if (t && (n == 0 || (types[0] != t && n < 2)))
				types[n++] = t;
		}
		if (!n)
			n = 1;
	}
	f->g = xcalloc((size_t)n, sizeof(*f->g));
	for (int i = 0; i < n; i++) {
		struct perf_pmu_config c[WHO_NEV];
		int cpu = dirfd >= 0 ? w->cfg.cpus[i] : -1;
		unsigned type = dirfd >= 0 ? who_cpu_type(w, cpu) : types[i];
		int ne = who_configs(w, type, c);

		rc = who_group_open(w, &f->g[i], c, ne, dirfd, pid, cpu, what, err, sizeof(err));
		/*
		 * An event the kernel has not (ENOENT): without cache misses (AMD's
		 * generic one is not the L3's), else without the remote-memory pair,
		 * else without both; what is dropped stays dropped
		 */
		for (int a = 0; rc == -ENOENT && a < 3 && (!w->no_misses || w->rmt.on); a++) {
			bool rmt = w->rmt.on;

			if (a == 0 && !w->no_misses) {
				w->no_misses = true;
			} else if (a == 1 && rmt) {
				w->no_misses = false;
				w->rmt.on = false;
			} else if (a == 2 && !w->no_misses) {
				w->no_misses = true;
			} else {
				continue;
			}
			ne = who_configs(w, type, c);
			rc = who_group_open(w, &f->g[i], c, ne, dirfd, pid, cpu, what, err, sizeof(err));
			if (!w->rmt.on && rmt)
				snprintf(w->rmt.why, sizeof(w->rmt.why), "the kernel has no %.60s "
					 "event (ENOENT)", w->rmt.name[1]);
		}
		if (rc) {
			f->ng = i;
			snprintf(f->why, sizeof(f->why), "%.199s", err);
			who_fig_close(f);
			f->dirfd = -1;
			return rc;
		}
	}
	f->ng = n;
	f->dirfd = dirfd;
	f->counting = true;
	f->why[0] = '\0';
	return 0;
}

/*
 * Open F's top-down group beside its others (W->td's events: per CPU of a
 * cgroup, once for a process).  Its figures come from the next read; a
 * refusal leaves level 1 n/a with the kernel's reason in F.
 */
static void who_td_open(struct who *w, struct who_fig *f, int pid, const char *what)
{
	bool cg = f->dirfd >= 0;
	int n = cg ? w->cfg.ncpus : 1;
	char err[400];

	f->tg = xcalloc((size_t)n, sizeof(*f->tg));
	for (int i = 0; i < n; i++) {
		if (who_group_open(w, &f->tg[i], w->td.cfg, w->td.nev, f->dirfd, pid,
				   cg ? w->cfg.cpus[i] : -1, what, err, sizeof(err))) {
			f->ntg = i;
			who_td_close(f);
			snprintf(w->td_fail, sizeof(w->td_fail), "top-down level 1 n/a for %.60s: %.140s",
				 what, err);
			return;
		}
		f->ntg = i + 1;
	}
}

/* Read F's top-down groups into f->td_ev (per second over the interval). */
static void who_td_read(struct who *w, struct who_fig *f)
{
	double sum[PERF_GROUP_MAX] = { 0 };

	f->td_have = false;
	for (int i = 0; i < f->ntg; i++) {
		struct perf_group_delta d;

		if (perf_group_read(&f->tg[i], &d))
			return;
		for (int k = 0; k < w->td.nev && k < f->tg[i].n; k++)
			if (d.running_ns)
				sum[k] += perf_scale(d.count[k], d.enabled_ns, d.running_ns);
		f->scaled |= d.scaled;
	}
	for (int k = 0; k < PERF_GROUP_MAX; k++)
		f->td_ev[k] = k < w->td.nev && w->dt > 0 ? sum[k] / w->dt : NAN;
	f->td_have = f->ntg > 0 && w->dt > 0;
}

/* Read F's groups: the figures of the interval that ends now. */
static void who_fig_read(struct who *w, struct who_fig *f)
{
	double sum[WHO_NEV] = { 0 }, run = 0;
	bool scaled = false;
	int at[WHO_NEV], ne = who_places(w, at);

	for (int i = 0; i < f->ng; i++) {
		struct perf_group_delta d;

		if (perf_group_read(&f->g[i], &d)) {
			snprintf(f->why, sizeof(f->why), "a read of its counters failed (the cgroup or "
				 "process went away)");
			return;
		}
		for (int k = 0; k < ne && k < f->g[i].n; k++)
			if (d.running_ns)
				sum[k] += perf_scale(d.count[k], d.enabled_ns, d.running_ns);
		run += (double)d.enabled_ns / 1e9;
		scaled |= d.scaled;
	}
	for (int k = 0; k < WHO_NEV; k++)
		f->ev[k] = at[k] >= 0 && w->dt > 0 ? sum[at[k]] / w->dt : NAN;
	f->oncpu = w->dt > 0 ? run / w->dt : NAN;
	f->scaled = scaled;
	f->have = true;
	f->t = w->t;
	if (f->ntg)
		who_td_read(w, f);
	else
		f->td_have = false;
}

static double who_key(const struct who_cg *c)
{
	return isfinite(c->cpus) ? c->cpus : isfinite(c->usage_s) ? c->usage_s * 1e-9 : -1;
}

static int who_cg_cmp(const void *a, const void *b, void *ctx)
{
	const struct who *w = ctx;
	double ka = who_key(&w->cg[*(const int *)a]), kb = who_key(&w->cg[*(const int *)b]);

	return ka < kb ? 1 : ka > kb ? -1 : strcmp(w->cg[*(const int *)a].path,
						  w->cg[*(const int *)b].path);
}

int who_turn_places(int top, int candidates)
{
	if (candidates <= top || top < 2)
		return 0;
	return top / 4 > 1 ? top / 4 : 1;
}

/* Which cgroups count next: WANT[i] for cgroup i. */
static void who_choose(struct who *w, bool *want)
{
	int *cand = xcalloc((size_t)w->ncg + 1, sizeof(int)), n = 0, fixed, rest, turns;

	for (int i = 0; i < w->ncg; i++)
		if (w->cg[i].path[0] && w->cg[i].nprocs > 0)
			cand[n++] = i;
	qsort_r(cand, (size_t)n, sizeof(int), who_cg_cmp, w);
	turns = who_turn_places(w->top, n);
	fixed = n > w->top ? w->top - turns : n;
	rest = n - fixed;
	for (int i = 0; i < fixed; i++)
		want[cand[i]] = true;
	for (int j = 0; rest > 0 && j < turns; j++)
		want[cand[fixed + (w->rot + j) % rest]] = true;
	if (rest > 0 && turns)
		w->rot = (w->rot + turns) % rest;
	free(cand);
}

/*
 * Follow the top-down wish (who_set_topdown): on where the layout has a
 * level 1 and the open-file limit holds its groups too, off closes them.
 */
static void who_td_switch(struct who *w)
{
	bool want = atomic_load(&w->td_wanted) && w->td.n > 0;
	char why[400];

	if (!want)
		w->td_note[0] = w->td_fail[0] = '\0';
	if (want == w->td_on)
		return;
	w->td_note[0] = '\0';
	if (want) {
		long procs = (long)(w->cfg.procs < w->top ? w->cfg.procs : w->top);
		long need = ((long)w->top * (w->cfg.ncpus > 0 ? w->cfg.ncpus : 1) + procs) *
			    (who_group_events(w) + w->td.nev);

		if (perf_check_fd_limit(need, &w->access, why, sizeof(why))) {
			snprintf(w->td_note, sizeof(w->td_note), "top-down level 1 not counted: %d groups "
				 "with its %d events more need %ld open files, past the limit (%ld): "
				 "ulimit -n %ld, or a smaller --who-top", w->top, w->td.nev, need,
				 w->access.fd_limit, need + 256);
			return;
		}
	}
	w->td_on = want;
	if (!want) {
		for (int i = 0; i < w->ncg; i++) {
			who_td_close(&w->cg[i].fig);
			w->cg[i].fig.td_have = false;
		}
		for (int i = 0; i < w->npr; i++) {
			who_td_close(&w->pr[i].fig);
			w->pr[i].fig.td_have = false;
		}
	}
}

/*
 * Whether this user may count cgroups (whole CPUs: CAP_PERFMON or paranoid
 * <= 0) and processes (their own at paranoid <= 2), and whether the ones
 * in the tree are this machine's (a --root tree's PIDs and cgroups are not,
 * unless an emulated kernel counts them): the reasons into W's whys.
 */
static void who_may(struct who *w, bool *cgroups, bool *procs)
{
	char why[400], rule[300];
	bool here = w->cfg.perf || !strcmp(w->root, "/");
	bool wide = perf_access_system_wide(&w->access, rule, sizeof(rule));

	const char *elsewhere = "the --root tree's cgroups and processes are not this machine's: "
				"counted on the machine itself only";
	bool own = w->access.cap_perfmon || (w->access.paranoid <= 2 && w->access.paranoid != -99);

	*cgroups = wide && here;
	if (!wide)
		snprintf(why, sizeof(why), "a cgroup is counted on whole CPUs: %s", rule);
	else
		snprintf(why, sizeof(why), "%s", elsewhere);
	for (int i = 0; i < w->ncg && !*cgroups; i++)
		snprintf(w->cg[i].fig.why, sizeof(w->cg[i].fig.why), "%.199s", why);
	*procs = here && own;
	if (!own)
		snprintf(why, sizeof(why), "kernel.perf_event_paranoid is %d: no process may be counted "
			 "without CAP_PERFMON (2 or less lets a user count their own: sysctl "
			 "kernel.perf_event_paranoid=2)", w->access.paranoid);
	else
		snprintf(why, sizeof(why), "%s", elsewhere);
	for (int i = 0; i < w->npr && !*procs; i++)
		snprintf(w->pr[i].fig.why, sizeof(w->pr[i].fig.why), "%.199s", why);
}

void who_count(struct who *w)
{
	bool *want, cgroups, procs;
	char what[WHO_PATH_MAX + 64];
	int nprocs;

	if (!w->cfg.count)
		return;
	who_may(w, &cgroups, &procs);
	who_td_switch(w);
	for (int i = 0; i < w->ncg; i++)
		if (w->cg[i].fig.counting)
			who_fig_read(w, &w->cg[i].fig);
	for (int i = 0; i < w->npr; i++)
		if (w->pr[i].fig.counting)
			who_fig_read(w, &w->pr[i].fig);
	want = xcalloc((size_t)w->ncg + 1, sizeof(bool));
	if (cgroups)
		who_choose(w, want);
	for (int i = 0; i < w->ncg; i++) {
		struct who_cg *c = &w->cg[i];
		int dfd;

		if (c->fig.counting && !want[i])
			who_fig_close(&c->fig);
		if (c->fig.counting || !want[i])
			continue;
		snprintf(what, sizeof(what), "%s/%s", w->cg_base, c->path);
		dfd = who_open(w, what, O_RDONLY | O_DIRECTORY);
		if (dfd < 0) {
			snprintf(c->fig.why, sizeof(c->fig.why), "its directory went away (%s)",
				 strerror(-dfd));
			continue;
		}
		snprintf(what, sizeof(what), "cgroup %s", c->path);
		if (who_fig_open(w, &c->fig, dfd, -1, what))
			close(dfd);
	}
	/* the top-down groups where the others count (a group counted before T was pressed too) */
	for (int i = 0; i < w->ncg && w->td_on; i++)
		if (w->cg[i].fig.counting && !w->cg[i].fig.ntg) {
			snprintf(what, sizeof(what), "cgroup %s", w->cg[i].path);
			who_td_open(w, &w->cg[i].fig, -1, what);
		}
	free(want);
	/* the busiest processes shown (who_procs_scan's order) are counted too, as many as cgroups */
	nprocs = !procs ? 0 : w->cfg.procs < w->top ? w->cfg.procs : w->top;
	for (int i = 0; i < w->npr; i++) {
		struct who_proc *p = &w->pr[i];

		if (p->fig.counting && i >= nprocs)
			who_fig_close(&p->fig);
		if (p->fig.counting || i >= nprocs)
			continue;
		snprintf(what, sizeof(what), "process %d (%s)", p->pid, p->comm);
		who_fig_open(w, &p->fig, -1, p->pid, what);
		if (p->fig.counting && w->td_on)
			who_td_open(w, &p->fig, p->pid, what);
	}
	for (int i = 0; i < nprocs && i < w->npr && w->td_on; i++)
		if (w->pr[i].fig.counting && !w->pr[i].fig.ntg) {
			snprintf(what, sizeof(what), "process %d (%s)", w->pr[i].pid, w->pr[i].comm);
			who_td_open(w, &w->pr[i].fig, w->pr[i].pid, what);
		}
}

void who_count_close(struct who *w)
{
	for (int i = 0; i < w->ncg; i++)
		who_fig_close(&w->cg[i].fig);
	for (int i = 0; i < w->npr; i++)
		who_fig_close(&w->pr[i].fig);
}
