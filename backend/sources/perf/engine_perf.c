/*
 * engine_perf: the engine counting through perf_event_open(2) instead of
 * registers (engine_config.perf_cpu set: the perf source).
 *
 * Per CPU (system-wide, pid -1) one perf group per selected core group of
 * the layout, its events as raw configs of the kernel's "cpu" PMU (the bit
 * positions from its format files), and the three fixed-counter events as
 * the generic hardware events (instructions, cycles, ref-cycles).  pmutop
 * does not rotate: every group is open at once and the kernel multiplexes
 * them; each read gives the counts with the time the group was enabled and
 * the time it ran, so a count is scaled by enabled / running and its group
 * is marked scaled (rotating, with its live share) exactly as pmutop's own
 * rotation is.  No register is written; nothing is left to restore.  The
 * TSC is read once per interval (it is the same on every CPU).  Sampler
 * thread, like the rest of the engine.  See engine_int.h.
 */
#include "engine.h"
#include "engine_int.h"
#include "perf.h"
#include "perf_pmu.h"
#include "uncore.h"
#include "xmalloc.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static const struct {
	uint64_t config;
	const char *name;
} engine_perf_fixed[PMU_MAX_FIXED] = {
	{ PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
	{ PERF_COUNT_HW_CPU_CYCLES, "cycles" },
	{ PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles" },
};

bool engine_perf(const struct engine *e)
{
	return e->cfg.perf_cpu != NULL;
}

static const struct perf_sys *engine_perf_sys(const struct engine *e)
{
	return e->cfg.perf ? e->cfg.perf : &perf_sys_kernel;
}

/* The TSC now (one reading serves every CPU: it is invariant and synchronised), or NaN. */
static double engine_perf_tsc(const struct engine *e)
{
	const struct perf_sys *sys = engine_perf_sys(e);

	if (sys->tsc)
		return (double)sys->tsc(sys->ctx);
#if defined(__x86_64__) || defined(__i386__)
	return (double)__rdtsc();
#else
	return NAN;
#endif
}

static void engine_perf_close_group(struct engine *e, int g)
{
	for (int i = 0; i < e->ncpus; i++)
		perf_group_close(&e->cpus[i].perf[g]);
}

/*
 * Open group G (its N events in CFG) on every CPU.  0, or -errno with the
 * kernel's answer explained in WHY (nothing stays open).  A CPU the kernel
 * says is gone (ENODEV) is left without it: n/a there.
 */
static int engine_perf_open_all(struct engine *e, int g, const struct perf_pmu_config *cfg, int n,
				const char *name, char *why, size_t len)
{
	int opened = 0, rc = 0;

	for (int i = 0; i < e->ncpus; i++) {
		struct engine_cpu *c = &e->cpus[i];
		char what[128];

		snprintf(what, sizeof(what), "the %s group on CPU %d", name, c->os_cpu);
		rc = perf_group_open(&c->perf[g], e->cfg.perf, cfg, n, e->pid, c->os_cpu,
				     e->cfg.count_user, e->cfg.count_kernel, what, e->cfg.perf_access,
				     why, len);
		if (rc == -ENODEV) {
			rc = 0;
			continue;
		}
		if (rc)
			break;
		rc = perf_group_enable(&c->perf[g]);
		if (rc) {
			snprintf(why, len, "%s: enabling it failed: %s", what, strerror(-rc));
			break;
		}
		opened++;
	}
	if (rc || !opened) {
		e->perf_rc = rc ? rc : -ENODEV;
		engine_perf_close_group(e, g);
		if (!rc)
			snprintf(why, len, "the kernel counts the %s group on no CPU", name);
		return rc ? rc : -ENODEV;
	}
	return 0;
}

/* The fixed-counter events, once: those the kernel refuses are n/a (fixed_usable). */
void engine_perf_open_fixed(struct engine *e)
{
	e->fixed_usable = 0;
	e->perf_note[0] = 0;
	for (int n = 0; n < PMU_MAX_FIXED; n++) {
		struct perf_pmu_config cfg = { .type = PERF_TYPE_HARDWARE,
					       .config = { engine_perf_fixed[n].config } };
		char why[400];

		if (engine_perf_open_all(e, e->l->ngroups + n, &cfg, 1, engine_perf_fixed[n].name, why,
					 sizeof(why))) {
			size_t k = strlen(e->perf_note);

			snprintf(e->perf_note + k, sizeof(e->perf_note) - k, "%s%s (n/a)", k ? "; " : "",
				 why);
			continue;
		}
		e->fixed_usable |= 1u << n;
	}
}

void engine_perf_plan(struct engine *e)
{
	const struct layout *l = e->l;
	long need = 0;

	for (int g = 0; g < l->ngroups; g++)
		if (l->groups[g].pmu == LAYOUT_PMU_CORE)
			engine_perf_close_group(e, g);
	e->perf_open = 0;
	e->nsets = 0;
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];
		struct perf_pmu_config cfg[PERF_GROUP_MAX];
		char why[sizeof(e->blocked[g])];
		int rc = 0;

		e->blocked[g][0] = 0;
		if (!(e->groups & (1u << g)) || grp->pmu != LAYOUT_PMU_CORE)
			continue;
		if (e->cfg.perf_task && e->pid < 0) {
			snprintf(e->blocked[g], sizeof(e->blocked[g]), "waiting for the command to start");
			continue;
		}
		if (engine_group_unavailable(e, g, e->blocked[g], sizeof(e->blocked[g])))
			continue;
		if (grp->nevents > PERF_GROUP_MAX) {
			snprintf(e->blocked[g], sizeof(e->blocked[g]), "%d events, a perf group holds %d",
				 grp->nevents, PERF_GROUP_MAX);
			continue;
		}
		/* one open file per event per CPU, checked before the kernel says EMFILE */
		need += (long)grp->nevents * e->ncpus;
		if (perf_check_fd_limit(need + (long)PMU_MAX_FIXED * e->ncpus, e->cfg.perf_access, why,
					sizeof(why))) {
			snprintf(e->blocked[g], sizeof(e->blocked[g]), "%s", why);
			need -= (long)grp->nevents * e->ncpus;
			continue;
		}
		for (int i = 0; i < grp->nevents && !rc; i++)
			rc = perf_pmu_encode(e->cfg.perf_cpu, &l->events[grp->first_event + i], &cfg[i],
					     why, sizeof(why));
		if (!rc)
			rc = engine_perf_open_all(e, g, cfg, grp->nevents, grp->name, why, sizeof(why));
		if (rc) {
			snprintf(e->blocked[g], sizeof(e->blocked[g]), "%s", why);
			need -= (long)grp->nevents * e->ncpus;
			continue;
		}
		e->perf_open |= 1u << g;
	}
	uncore_perf_fds(e->unc, need + (long)PMU_MAX_FIXED * e->ncpus);
	uncore_plan(e->unc, e->groups);
	for (int g = 0; g < l->ngroups; g++)
		if (l->groups[g].pmu != LAYOUT_PMU_CORE)
			snprintf(e->blocked[g], sizeof(e->blocked[g]), "%s",
				 uncore_group_blocked(e->unc, g));
}

/*
 * Read every open group of C into its accumulators (SET false: as a
 * baseline, the counts dropped), the TSC reading TSC, at time T.
 */
static void engine_perf_read_cpu(struct engine *e, struct engine_cpu *c, bool set, double tsc,
				 double t)
{
	const struct layout *l = e->l;

	for (int g = 0; g < l->ngroups + PMU_MAX_FIXED; g++) {
		struct perf_group *pg = &c->perf[g];
		struct perf_group_delta d;
		int rc;

		if (!pg->n)
			continue;
		rc = perf_group_read(pg, &d);
		if (rc) {
			c->failed = 1;
			c->offline |= rc == -ENODEV;
			if (rc != -ENODEV)
				snprintf(e->error, sizeof(e->error), "reading perf events of CPU %d: %s",
					 c->os_cpu, strerror(-rc));
			continue;
		}
		atomic_fetch_add_explicit(&e->reads, 1, memory_order_relaxed);
		if (!set)
			continue;
		if (g >= l->ngroups) {
			c->fixed_acc[g - l->ngroups] += perf_scale(d.count[0], d.enabled_ns,
								   d.running_ns);
			continue;
		}
		for (int i = 0; i < pg->n; i++) {
			int ev = l->groups[g].first_event + i;

			c->ev_acc[ev] += (double)d.count[i];
			c->ev_live[ev] += (double)d.running_ns * 1e-9;
		}
	}
	if (set)
		c->tsc_acc += tsc - (double)c->tsc_prev;
	c->tsc_prev = isnan(tsc) ? 0 : (uint64_t)tsc;
	if (isnan(tsc))
		c->tsc_acc = NAN;
	c->t_read = t;
	if (!set)
		c->t_interval = t;
}

void engine_perf_baseline(struct engine *e)
{
	double tsc = engine_perf_tsc(e), t = engine_now(e);

	for (int i = 0; i < e->ncpus; i++) {
		struct engine_cpu *c = &e->cpus[i];

		engine_reset_acc(e, c, t);
		engine_perf_read_cpu(e, c, false, tsc, t);
	}
	uncore_baseline(e->unc);
	e->t_start = engine_real();
	e->slice = 0;
	e->need_baseline = false;
}

int engine_perf_step(struct engine *e)
{
	const struct perf_sys *sys = engine_perf_sys(e);
	double t_sweep = engine_real(), t0, tsc;
	bool final;

	/* the emulated kernel's timer: it multiplexes at the emulated time */
	if (sys->tick)
		sys->tick(sys->ctx);
	final = e->slice + 1 >= e->nslices || e->flush ||
		(!e->cfg.clock && t_sweep - e->t_start >= e->interval - 0.5 * engine_slice_s(e));
	if (!final) {
		e->slice++;
		return 0;
	}
	t0 = engine_real();
	tsc = engine_perf_tsc(e);
	for (int i = 0; i < e->ncpus; i++)
		engine_perf_read_cpu(e, &e->cpus[i], true, tsc, engine_now(e));
	uncore_read(e->unc);
	engine_publish(e, engine_build(e, engine_real() - t0));
	for (int i = 0; i < e->ncpus; i++) {
		struct engine_cpu *c = &e->cpus[i];

		engine_reset_acc(e, c, c->t_read);
	}
	uncore_reset(e->unc);
	engine_next_interval(e, t_sweep);
	return 1;
}

void engine_perf_pace(struct engine *e)
{
	const struct perf_sys *sys = engine_perf_sys(e);

	/*
	 * the real kernel multiplexes on its own timer: one step per interval;
	 * the emulated one is stepped as often as it says it needs (not at all
	 * when every group has its counters: nothing rotates)
	 */
	double need = !sys->tick ? 0 : sys->tick_need ? sys->tick_need(sys->ctx) : sys->tick_s;

	e->nslices = need > 0 ? (int)fmax(1, ceil(e->interval / need - 1e-9)) : 1;
	e->ticks = 1;
	e->tick = 0;
}

int engine_perf_attach(struct engine *e, int pid, char *err, size_t errlen)
{
	const struct layout *l = e->l;

	err[0] = 0;
	for (int n = 0; n < PMU_MAX_FIXED; n++)
		engine_perf_close_group(e, l->ngroups + n);
	e->pid = pid;
	e->perf_rc = 0;
	engine_perf_open_fixed(e);
	engine_plan(e);
	e->need_baseline = true;
	if (!e->fixed_usable && !e->perf_open) {
		/* nothing of the command can be counted: say why, once */
		snprintf(err, errlen, "%s", e->perf_note[0] ? e->perf_note : "no event can be counted");
		for (int g = 0; g < l->ngroups && !e->perf_note[0]; g++)
			if (e->blocked[g][0]) {
				snprintf(err, errlen, "%s", e->blocked[g]);
				break;
			}
		return e->perf_rc ? e->perf_rc : -ENODEV;
	}
	return 0;
}

void engine_perf_free(struct engine *e)
{
	for (int i = 0; i < e->ncpus; i++) {
		struct engine_cpu *c = &e->cpus[i];

		for (int g = 0; c->perf && g < e->l->ngroups + PMU_MAX_FIXED; g++)
			perf_group_close(&c->perf[g]);
		free(c->perf);
		c->perf = NULL;
	}
}
