/*
 * engine: programming, reading, widening, multiplexing and the step; the
 * sample built from it is engine_sample.c's, the sampler thread and its
 * commands engine_thread.c's, the state they share engine_int.h's.  Register layouts: seed 000 Appendix II (PERFEVTSEL),
 * seed 004 section 19.1 (fixed counters, global control); see pmu_regs.h.
 */
#include "counter.h"
#include "cpuid.h"
#include "engine.h"
#include "engine_int.h"
#include "owner.h"
#include "expr.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>


/* Real monotonic seconds: what sweeps cost and when an interval ends on the real clock. */
double engine_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The figures' clock: the real one, or the emulator's manual clock in tests. */
double engine_now(const struct engine *e)
{
	return e->cfg.clock ? e->cfg.clock(e->cfg.clock_ctx) : engine_real();
}

/* engine_now for the uncore, which keeps the engine's clock */
static double engine_clock_of(void *ctx)
{
	return engine_now(ctx);
}

int engine_popcount(uint32_t v)
{
	return __builtin_popcount(v);
}

/* ---- packing groups into sets ----------------------------------------- */

/*
 * The architectural events (seed 004 Table 19-1, in CPUID.0AH:EBX bit
 * order).  When the CPU says one is not available, a group that programs
 * its encoding is blocked with that reason: its figures are n/a, never a
 * count of whatever the encoding happens to mean there.
 */
static const struct {
	unsigned event, umask;
	const char *name;
} engine_arch_events[CPUID_ARCH_EVENTS] = {
	{ 0x3C, 0x00, "UnHalted Core Cycles" },      { 0xC0, 0x00, "Instructions Retired" },
	{ 0x3C, 0x01, "UnHalted Reference Cycles" }, { 0x2E, 0x4F, "LLC Reference" },
	{ 0x2E, 0x41, "LLC Misses" },                { 0xC4, 0x00, "Branch Instruction Retired" },
	{ 0xC5, 0x00, "Branch Misses Retired" },
};

/* Why group G cannot count on this CPU (into WHY), or false when it can. */
bool engine_group_unavailable(const struct engine *e, int g, char *why, size_t len)
{
	const struct layout_group *grp = &e->l->groups[g];

	for (int i = 0; i < grp->nevents; i++) {
		const struct layout_event *ev = &e->l->events[grp->first_event + i];

		for (int n = 0; n < CPUID_ARCH_EVENTS; n++)
			if ((e->cfg.arch_events_absent & (1u << n)) &&
			    ev->event == engine_arch_events[n].event &&
			    ev->umask == engine_arch_events[n].umask) {
				snprintf(why, len, "%s (event %02XH umask %02XH) is not available on "
					 "this CPU (CPUID.0AH:EBX bit %d)", engine_arch_events[n].name,
					 ev->event, ev->umask, n);
				return true;
			}
	}
	return false;
}

/* Sets that take turns: the core's or the uncore's, whichever has more. */
static int engine_sets(const struct engine *e)
{
	return e->nsets > uncore_nsets(e->unc) ? e->nsets : uncore_nsets(e->unc);
}

/*
 * Slices per interval and steps per slice for the current plan and
 * interval: one slice without rotation; with it, whole rounds of the sets
 * in slices of about mux_s (longer when the last sweep was too slow for
 * it: measured on the real clock only, so stepped runs stay reproducible).
 */
void engine_pace(struct engine *e)
{
	int sets = engine_sets(e);

	if (engine_perf(e)) {
		engine_perf_pace(e);
		return;
	}
	e->nslices = 1;
	if (sets > 1) {
		double len = e->mux_s, rounds;

		if (!e->cfg.clock && !(e->cfg.mux_s > 0))
			len = fmax(len, e->rot_cost / ENGINE_MUX_MAX_COST);
		rounds = ceil(e->interval / (sets * len) - 1e-9);
		e->nslices = sets * (int)fmax(1, fmin(rounds, 1e6));
	}
	e->ticks = (int)ceil(e->interval / e->nslices / uncore_poll_s(e->unc) - 1e-9);
	if (e->ticks < 1)
		e->ticks = 1;
	e->tick = 0;
}

void engine_plan(struct engine *e)
{
	const struct layout *l = e->l;

	if (engine_perf(e)) {
		engine_perf_plan(e);
		engine_pace(e);
		e->cur = 0;
		e->slice = 0;
		e->tick = 0;
		return;
	}

	free(e->sets);
	e->sets = xcalloc((size_t)l->ngroups + 1, sizeof(*e->sets));
	e->nsets = 0;
	for (int g = 0; g < l->ngroups; g++) {
		struct counter_set alone = { 0 };
		int s;

		e->blocked[g][0] = 0;
		if (!(e->groups & (1u << g)) || l->groups[g].pmu != LAYOUT_PMU_CORE)
			continue;
		if (engine_group_unavailable(e, g, e->blocked[g], sizeof(e->blocked[g])))
			continue;
		if (!counter_set_add(e->l, &alone, g, e->gp_usable)) {
			snprintf(e->blocked[g], sizeof(e->blocked[g]),
				 "needs %d general-purpose counters (with its constraints), %d free%s",
				 l->groups[g].nevents, engine_popcount(e->gp_usable),
				 e->gp_lost ? " (another program took one while pmutop ran)" : "");
			continue;
		}
		for (s = 0; s < e->nsets; s++)
			if (counter_set_add(e->l, &e->sets[s], g, e->gp_usable))
				break;
		if (s == e->nsets)
			e->sets[e->nsets++] = alone;
	}
	uncore_plan(e->unc, e->groups);
	for (int g = 0; g < l->ngroups; g++)
		if (l->groups[g].pmu != LAYOUT_PMU_CORE)
			snprintf(e->blocked[g], sizeof(e->blocked[g]), "%s",
				 uncore_group_blocked(e->unc, g));
	engine_pace(e);
	e->cur = 0;
	e->slice = 0;
	e->tick = 0;
}

/* ---- registers --------------------------------------------------------- */

/*
 * Monotonic seconds for telling a slow access, whatever clock the figures
 * use: the coarse clock (a few ms resolution, against a 50 ms threshold)
 * costs almost nothing per register access.
 */
static double engine_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * One register access on CPU C, or none: a CPU that was slow earlier in
 * this interval is skipped (late, n/a this interval), so one slow CPU costs
 * one access per interval, not a sweep's worth per slice; a stop request
 * skips everything.
 * A CPU that went offline (ENXIO) is n/a with a warning, not a sampler error.
 * WHEN (or NULL) gets the engine clock at the middle of the access: the
 * moment a counter is taken to have been read or zeroed.
 */
static int engine_access(struct engine *e, struct engine_cpu *c, uint32_t reg, uint64_t *v,
			 bool write, double *when)
{
	double t0, w0 = when ? engine_now(e) : 0;
	int rc;

	if (c->late || c->gone || atomic_load(&e->stop)) {
		c->failed = 1;
		return c->gone ? -EBUSY : -ETIMEDOUT;
	}
	if (!write && e->batch_live) {
		/* read in this sweep's batch call, at its middle */
		for (int i = c->batch_at; i < c->batch_at + c->batch_n; i++)
			if (e->batch[i].reg == reg) {
				*v = e->batch[i].val;
				rc = e->batch[i].err;
				if (when)
					*when = e->batch_mid;
				goto done;
			}
	}
	t0 = engine_mono();
	rc = write ? msr_write(e->cfg.dev, c->os_cpu, reg, *v)
		   : msr_read(e->cfg.dev, c->os_cpu, reg, v);
	if (when)
		*when = (w0 + engine_now(e)) / 2;
	if (e->sampling && engine_mono() - t0 > ENGINE_SLOW_ACCESS_S)
		c->late = true;
done:
	c->offline |= rc == -ENXIO;
	if (rc && !c->failed && rc != -ENXIO) {
		pthread_mutex_lock(&e->note_lock);
		snprintf(e->error, sizeof(e->error), "%s", msr_thread_error());
		pthread_mutex_unlock(&e->note_lock);
	}
	c->failed |= rc != 0 || c->late;
	return rc;
}

static int engine_read(struct engine *e, struct engine_cpu *c, uint32_t reg, uint64_t *v)
{
	return engine_access(e, c, reg, v, false, NULL);
}

static int engine_write(struct engine *e, struct engine_cpu *c, uint32_t reg, uint64_t v)
{
	return engine_access(e, c, reg, &v, true, NULL);
}

/* Add a line to what other programs took (each said once, in every sample from now on). */
static void engine_note_taken(struct engine *e, const char *what)
{
	size_t n;

	pthread_mutex_lock(&e->note_lock);
	n = strlen(e->taken_note);
	if (!strstr(e->taken_note, what))
		snprintf(e->taken_note + n, sizeof(e->taken_note) - n, "%s%s", n ? "; " : "", what);
	pthread_mutex_unlock(&e->note_lock);
}

/*
 * The select this sample's check reads besides the global control: one of
 * the gp_counters selects, or (slot gp_counters) the fixed-counter control.
 */
static unsigned engine_verify_slot(const struct engine *e)
{
	return (unsigned)e->verify % (e->cfg.gp_counters + 1);
}

/*
 * Whether another program took REG on C since pmutop wrote it (one read;
 * none for a register pmutop has not written).  A register found taken is
 * given up for good (msr_release: never written again, left at exit), and
 * C's figures of this interval are void: they may hold the other's counts.
 */
static bool engine_taken(struct engine *e, struct engine_cpu *c, uint32_t reg)
{
	uint64_t cur;

	if (msr_released(e->cfg.dev, c->os_cpu, reg))
		return true;
	if (c->returning || c->was_offline)
		return false; /* back from offline: what it holds is its reset or ours, until reprogrammed */
	if (!msr_wrote(e->cfg.dev, c->os_cpu, reg) || engine_read(e, c, reg, &cur) ||
	    !msr_taken(e->cfg.dev, c->os_cpu, reg, cur))
		return false;
	msr_release(e->cfg.dev, c->os_cpu, reg);
	c->failed = 1;
	return true;
}

/*
 * Whether PMC K of C is another program's now (checked before pmutop
 * writes its select again): then pmutop gives the counter up on C, stops
 * using it on every CPU from the next interval (the groups are planned
 * again without it) and says so in every sample.
 */
static bool engine_pmc_taken(struct engine *e, struct engine_cpu *c, uint32_t k)
{
	char what[768], who[600];

	if (c->taken & (1u << k))
		return true;
	if (!engine_taken(e, c, IA32_PERFEVTSEL0 + k))
		return false;
	owner_who(e->cfg.root, who, sizeof(who));
	c->taken |= 1u << k;
	msr_release(e->cfg.dev, c->os_cpu, IA32_PMC0 + k); /* its count too: never zeroed */
	pthread_mutex_lock(&e->note_lock);
	e->gp_lost |= 1u << k;
	e->replan = true;
	pthread_mutex_unlock(&e->note_lock);
	snprintf(what, sizeof(what), "PMC%u on CPU %d was taken by %s: pmutop no longer uses "
		 "PMC%u", k, c->os_cpu, who, k);
	engine_note_taken(e, what);
	return true;
}

/* Program set S on CPU C (after PREV, whose counters not reused are disabled). */
static void engine_program(struct engine *e, struct engine_cpu *c, const struct counter_set *prev,
			   const struct counter_set *s)
{
	uint32_t used = 0;

	for (int i = 0; s && i < s->nev; i++)
		used |= 1u << s->ctr[i];
	/* each select checked before it is written again: never over another program's */
	for (int i = 0; prev && i < prev->nev; i++)
		if (!(used & (1u << prev->ctr[i])) && !engine_pmc_taken(e, c, (uint32_t)prev->ctr[i]))
			engine_write(e, c, IA32_PERFEVTSEL0 + (uint32_t)prev->ctr[i], 0);
	for (int i = 0; s && i < s->nev; i++) {
		const struct layout_event *ev = &e->l->events[s->ev[i]];
		uint32_t k = (uint32_t)s->ctr[i];

		if (engine_pmc_taken(e, c, k))
			continue;
		if (ev->offcore_msr)
			engine_write(e, c, ev->offcore_msr, ev->offcore);
		engine_write(e, c, IA32_PERFEVTSEL0 + k,
			     counter_evtsel(ev, e->cfg.perfmon_version, e->cfg.count_user,
					   e->cfg.count_kernel));
		/* written last: the counter's live time starts here */
		engine_access(e, c, IA32_PMC0 + k, &(uint64_t){ 0 }, true, &c->gp_t[k]);
		c->gp_prev[k] = 0;
	}
}

static const struct counter_set *engine_cur_set(const struct engine *e)
{
	return e->nsets ? &e->sets[e->cur] : NULL;
}

void engine_reset_acc(struct engine *e, struct engine_cpu *c, double t)
{
	memset(c->fixed_acc, 0, sizeof(c->fixed_acc));
	c->tsc_acc = 0;
	for (int i = 0; i < e->l->nevents; i++)
		c->ev_acc[i] = c->ev_live[i] = 0;
	c->t_interval = c->t_read = t;
	c->resets = 0;
	c->failed = 0;
	c->offline = false;
	c->late = false;
}

/*
 * Read the fixed counters and the TSC of C: into the accumulators, or as a
 * baseline (which starts C's interval).  The interval ends at the middle of
 * the reads.
 */
static void engine_read_fixed(struct engine *e, struct engine_cpu *c, bool baseline)
{
	double t0 = engine_now(e), t, elapsed = t0 - c->t_read;
	uint64_t v;

	for (unsigned n = 0; n < e->cfg.fixed_counters && n < PMU_MAX_FIXED; n++) {
		if (!(e->fixed_usable & (1u << n)) || engine_read(e, c, IA32_FIXED_CTR0 + n, &v))
			continue;
		atomic_fetch_add_explicit(&e->reads, 1, memory_order_relaxed);
		if (!baseline)
			c->fixed_acc[n] += counter_widen(c->fixed_prev[n], v, e->cfg.fixed_width,
							elapsed, &c->resets);
		c->fixed_prev[n] = v & ((1ull << e->cfg.fixed_width) - 1);
	}
	if (!engine_read(e, c, IA32_TIME_STAMP_COUNTER, &v)) {
		atomic_fetch_add_explicit(&e->reads, 1, memory_order_relaxed);
		if (!baseline)
			c->tsc_acc += counter_widen(c->tsc_prev, v, 64, elapsed, &c->resets);
		c->tsc_prev = v;
	}
	t = e->batch_live ? e->batch_mid : (t0 + engine_now(e)) / 2;
	c->t_read = t;
	if (baseline)
		c->t_interval = t;
}

/*
 * Start C's interval afresh: program the current set and take its baselines.
 * Reset first: a failed or late access while programming voids the interval.
 */
static int engine_setup_cpu(struct engine *e, struct engine_cpu *c);

static void engine_rebaseline_cpu(struct engine *e, struct engine_cpu *c)
{
	bool back = c->offline || c->was_offline;

	engine_reset_acc(e, c, engine_now(e));
	/*
	 * A CPU that was offline may come back with its counters reset (or
	 * reprogrammed by the kernel as it came up): program it whole again,
	 * the fixed and global controls included, and take what it holds for
	 * no other program's.  Still offline: again next interval.
	 */
	c->returning = back;
	if (back)
		engine_setup_cpu(e, c);
	engine_program(e, c, NULL, engine_cur_set(e));
	c->returning = false;
	c->was_offline = c->offline;
	engine_read_fixed(e, c, true);
}

/* Start an interval: program the current set and take the baselines. */
static void engine_baseline(struct engine *e)
{
	if (engine_perf(e)) {
		engine_perf_baseline(e);
		return;
	}
	for (int i = 0; i < e->ncpus; i++)
		engine_rebaseline_cpu(e, &e->cpus[i]);
	uncore_baseline(e->unc);
	e->t_start = engine_real();
	e->slice = 0;
	e->tick = 0;
	e->need_baseline = false;
}

/* First programming of CPU C: fixed counter control and global enables. */
/* A failed first write: refused (lockdown, a write filter, msr-safe) or another failure. */
static int engine_setup_rc(int rc)
{
	return rc == -EPERM || rc == -EACCES ? rc : -EIO;
}

static int engine_setup_cpu(struct engine *e, struct engine_cpu *c)
{
	uint64_t fixed_ctrl = 0, global = 0;
	int wrc;

	/* originals first, before any enable makes a counter move */
	for (unsigned k = 0; k < e->cfg.gp_counters && k < PMU_MAX_GP; k++)
		if (e->gp_usable & (1u << k)) {
			msr_save(e->cfg.dev, c->os_cpu, IA32_PMC0 + k);
			msr_save(e->cfg.dev, c->os_cpu, IA32_PERFEVTSEL0 + k);
		}
	/* the fixed counts move once enabled: saved now, put back at exit */
	for (unsigned n = 0; n < e->cfg.fixed_counters && n < PMU_MAX_FIXED; n++)
		if (e->fixed_usable & (1u << n))
			msr_save(e->cfg.dev, c->os_cpu, IA32_FIXED_CTR0 + n);
	for (int i = 0; i < e->l->nevents; i++) {
		const struct layout_event *ev = &e->l->events[i];
		int rc = ev->offcore_msr ? msr_save(e->cfg.dev, c->os_cpu, ev->offcore_msr) : 0;

		if (rc == -EACCES) {
			/* not on this CPU's allowlist: the layout is for another model */
			snprintf(e->error, sizeof(e->error), "layout %s: event %s needs MSR 0x%X (an "
				 "offcore response register), which this CPU does not have; use the "
				 "layout for this model (pmutop picks it without --layout)", e->l->name,
				 ev->name, ev->offcore_msr);
			return -EINVAL;
		}
		if (rc) {
			snprintf(e->error, sizeof(e->error), "%s", msr_last_error(e->cfg.dev));
			return rc;
		}
	}
	if (e->cfg.fixed_counters) {
		if (engine_read(e, c, IA32_FIXED_CTR_CTRL, &fixed_ctrl))
			return -EIO;
		for (unsigned n = 0; n < e->cfg.fixed_counters && n < PMU_MAX_FIXED; n++) {
			if (!(e->fixed_usable & (1u << n)))
				continue;
			fixed_ctrl &= ~(0xFull << FIXED_CTRL_SHIFT(n));
			fixed_ctrl |= ((e->cfg.count_kernel ? FIXED_CTRL_OS : 0) |
				       (e->cfg.count_user ? FIXED_CTRL_USR : 0)) << FIXED_CTRL_SHIFT(n);
		}
		wrc = engine_write(e, c, IA32_FIXED_CTR_CTRL, fixed_ctrl);
		if (wrc)
			return engine_setup_rc(wrc);
	}
	if (e->cfg.perfmon_version >= 2) {
		if (engine_read(e, c, IA32_PERF_GLOBAL_CTRL, &global))
			return -EIO;
		for (unsigned k = 0; k < e->cfg.gp_counters; k++)
			if (e->gp_usable & (1u << k))
				global |= GLOBAL_PMC(k);
		for (unsigned n = 0; n < e->cfg.fixed_counters && n < PMU_MAX_FIXED; n++)
			if (e->fixed_usable & (1u << n))
				global |= GLOBAL_FIXED(n);
		wrc = engine_write(e, c, IA32_PERF_GLOBAL_CTRL, global);
		if (wrc)
			return engine_setup_rc(wrc);
	}
	return 0;
}

void engine_publish(struct engine *e, struct sample *s)
{
	struct sample *old;
	uint64_t one = 1;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	s->time = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
	pthread_mutex_lock(&e->lock);
	old = e->latest;
	e->latest = s;
	pthread_mutex_unlock(&e->lock);
	sample_release(old);
	if (write(e->efd, &one, sizeof(one)) < 0) {
		/* the counter saturates only if nobody reads for 2^64 samples */
	}
}

/* ---- the step --------------------------------------------------------- */

static void engine_apply_commands(struct engine *e)
{
	uint32_t groups;
	double interval;
	bool paused, dirty;
	int pid;

	pthread_mutex_lock(&e->lock);
	pid = e->want_pid;
	groups = e->want_groups;
	interval = e->want_interval;
	paused = e->want_paused;
	dirty = e->dirty;
	e->dirty = false;
	e->flush |= e->want_flush;
	e->want_flush = false;
	pthread_mutex_unlock(&e->lock);
	if (!dirty)
		return;
	if (pid >= 0 && pid != e->pid) {
		char err[sizeof(e->attach_err)];
		int rc = engine_perf_attach(e, pid, err, sizeof(err));

		pthread_mutex_lock(&e->lock);
		e->attach_rc = rc;
		snprintf(e->attach_err, sizeof(e->attach_err), "%s", err);
		e->attached = pid;
		pthread_cond_broadcast(&e->applied);
		pthread_mutex_unlock(&e->lock);
	}
	if (paused != e->paused) {
		e->paused = paused;
		e->need_baseline = true;
	}
	if (interval != e->interval && interval != e->interval_after_first) {
		if (e->interval_after_first > 0 && interval > ENGINE_FIRST_S) {
			/*
			 * still in the short first interval (the settings' interval arrives
			 * as the screen starts): the first figures come as soon as ever,
			 * the new interval after them
			 */
			e->interval_after_first = interval;
		} else {
			e->interval = interval;
			e->interval_after_first = 0;
			engine_pace(e);
			e->need_baseline = true;
		}
	}
	if (groups != e->groups) {
		const struct counter_set *old = engine_cur_set(e);
		struct counter_set prev = old ? *old : (struct counter_set){ 0 };

		e->groups = groups;
		engine_plan(e);
		for (int i = 0; i < e->ncpus; i++)
			engine_program(e, &e->cpus[i], &prev, NULL);
		e->need_baseline = true;
	}
}

/*
 * Once a sample, cheaply: whether another program took C's global control
 * and one of its selects or its fixed-counter control (a different one
 * each sample: all of them within gp_counters + 1 samples).  A select
 * taken: engine_pmc_taken.  A control taken: pmutop leaves the CPU alone
 * from now on (n/a, named).
 */
static void engine_verify(struct engine *e, struct engine_cpu *c)
{
	unsigned slot = engine_verify_slot(e);
	uint32_t ctl = 0;
	char what[768], who[600];

	if (c->gone)
		return;
	if (e->cfg.perfmon_version >= 2 && engine_taken(e, c, IA32_PERF_GLOBAL_CTRL))
		ctl = IA32_PERF_GLOBAL_CTRL;
	else if (slot < e->cfg.gp_counters && slot < PMU_MAX_GP)
		engine_pmc_taken(e, c, slot);
	else if (e->cfg.fixed_counters && engine_taken(e, c, IA32_FIXED_CTR_CTRL))
		ctl = IA32_FIXED_CTR_CTRL;
	if (!ctl)
		return;
	c->gone = true;
	owner_who(e->cfg.root, who, sizeof(who));
	snprintf(what, sizeof(what), "CPU %d's %s was changed by %s: pmutop leaves that CPU alone "
		 "(n/a)", c->os_cpu,
		 ctl == IA32_PERF_GLOBAL_CTRL ? "global counter control" : "fixed-counter control", who);
	engine_note_taken(e, what);
}

/*
 * A counter was given up (engine_pmc_taken): plan the groups again without
 * it, stop pmutop's use of it on every CPU, and start a fresh interval.
 */
static void engine_replan(struct engine *e)
{
	const struct counter_set *old = engine_cur_set(e);
	struct counter_set prev = old ? *old : (struct counter_set){ 0 };

	e->replan = false;
	e->gp_usable &= ~e->gp_lost;
	engine_plan(e);
	for (int i = 0; i < e->ncpus; i++)
		engine_program(e, &e->cpus[i], &prev, NULL);
	e->need_baseline = true;
}

/* Read C's live set S into the accumulators, each counter over its own live time. */
static void engine_read_set(struct engine *e, struct engine_cpu *c, const struct counter_set *s)
{
	for (int k = 0; s && k < s->nev; k++) {
		uint32_t ctr = (uint32_t)s->ctr[k];
		double when, live;
		uint64_t v;

		if (c->taken & (1u << ctr))
			continue; /* another program's count now */
		if (engine_access(e, c, IA32_PMC0 + ctr, &v, false, &when))
			continue;
		atomic_fetch_add_explicit(&e->reads, 1, memory_order_relaxed);
		live = when - c->gp_t[ctr];
		c->ev_acc[s->ev[k]] += counter_widen(c->gp_prev[ctr], v, e->cfg.gp_width, live,
						     &c->resets);
		c->ev_live[s->ev[k]] += live;
		c->gp_prev[ctr] = v & ((1ull << e->cfg.gp_width) - 1);
		c->gp_t[ctr] = when;
	}
}

/* Add REG of C to the sweep's batch. */
static void engine_batch_add(struct engine *e, struct engine_cpu *c, uint32_t reg)
{
	if (e->nbatch == e->batch_cap) {
		e->batch_cap = e->batch_cap ? 2 * e->batch_cap : 64;
		e->batch = xrealloc(e->batch, (size_t)e->batch_cap, sizeof(*e->batch));
	}
	e->batch[e->nbatch++] = (struct msr_batch_read){ .cpu = c->os_cpu, .reg = reg };
	c->batch_n++;
}

/*
 * The sweep of set S on the batch path: what engine_sweep_part will read
 * (S's counters; when FINAL the fixed counters, the TSC and the registers
 * engine_verify may check) in one call, then the sweep itself.  False when
 * there is no batch call (or it just failed for good): sweep register by
 * register.
 */
static bool engine_sweep_batch(struct engine *e, const struct counter_set *s, bool final)
{
	unsigned slot = engine_verify_slot(e);
	double t0, t1;

	if (!msr_batch_ready(e->cfg.dev) || atomic_load(&e->stop))
		return false;
	e->nbatch = 0;
	for (int i = 0; i < e->ncpus; i++) {
		struct engine_cpu *c = &e->cpus[i];

		c->batch_at = e->nbatch;
		c->batch_n = 0;
		if (c->late || c->gone)
			continue;
		for (int k = 0; s && k < s->nev; k++)
			if (!(c->taken & (1u << s->ctr[k])))
				engine_batch_add(e, c, IA32_PMC0 + (uint32_t)s->ctr[k]);
		if (!final)
			continue;
		for (unsigned n = 0; n < e->cfg.fixed_counters && n < PMU_MAX_FIXED; n++)
			if (e->fixed_usable & (1u << n))
				engine_batch_add(e, c, IA32_FIXED_CTR0 + n);
		engine_batch_add(e, c, IA32_TIME_STAMP_COUNTER);
		if (e->cfg.perfmon_version >= 2 && msr_wrote(e->cfg.dev, c->os_cpu,
							    IA32_PERF_GLOBAL_CTRL))
			engine_batch_add(e, c, IA32_PERF_GLOBAL_CTRL);
		if (slot < e->cfg.gp_counters && slot < PMU_MAX_GP &&
		    msr_wrote(e->cfg.dev, c->os_cpu, IA32_PERFEVTSEL0 + slot))
			engine_batch_add(e, c, IA32_PERFEVTSEL0 + slot);
		else if (e->cfg.fixed_counters && msr_wrote(e->cfg.dev, c->os_cpu, IA32_FIXED_CTR_CTRL))
			engine_batch_add(e, c, IA32_FIXED_CTR_CTRL);
	}
	t0 = engine_now(e);
	if (msr_read_batch(e->cfg.dev, e->batch, e->nbatch) == -EOPNOTSUPP) {
		/* said in every sample from now on: the skew grows back */
		snprintf(e->read_note, sizeof(e->read_note), "reads go %s",
			 msr_batch_status(e->cfg.dev));
		return false;
	}
	t1 = engine_now(e);
	e->batch_mid = (t0 + t1) / 2;
	if (final) {
		e->batch_span = t1 - t0;
		e->batch_final = true;
	}
	e->batch_live = true;
	engine_sweep_part(e, 0, e->ncpus, s, final);
	e->batch_live = false;
	return true;
}

void engine_sweep_part(struct engine *e, int from, int to, const struct counter_set *s, bool final)
{
	for (int k = from; k < to; k++) {
		struct engine_cpu *c = &e->cpus[e->order ? e->order[k] : k];

		engine_read_set(e, c, s);
		if (final) {
			engine_read_fixed(e, c, false);
			engine_verify(e, c);
		}
	}
}

int engine_step(struct engine *e)
{
	const struct counter_set *set;

	/* the sampler thread owns the registers while it runs; engine_step is its own */
	assert(!e->running || engine_owner == e);
	bool final;
	double tmin = INFINITY, tmax = -INFINITY, t_sweep;
	int rotate;

	engine_apply_commands(e);
	if (e->paused)
		return 0;
	if (e->need_baseline) {
		e->error[0] = 0;
		engine_baseline(e);
		return 0;
	}
	if (engine_perf(e))
		return engine_perf_step(e);
	if (++e->tick < e->ticks && !e->flush) {
		uncore_read(e->unc); /* between slices: no wrap of an IMC counter lost */
		return 0;
	}
	e->tick = 0;
	set = engine_cur_set(e);
	t_sweep = engine_real();
	/*
	 * On the real clock an interval ends on time even when sweeps ran late,
	 * but never before every set had its slice: a loaded machine stretches
	 * the interval (its length is measured) rather than leave a group out.
	 */
	final = e->slice + 1 >= e->nslices || e->flush ||
		(!e->cfg.clock && e->slice + 1 >= engine_sets(e) &&
		 t_sweep - e->t_start >= e->interval - 0.5 * engine_slice_s(e));
	rotate = e->nsets > 1;
	/* every CPU read first, then reprogrammed: the reads stay close together (skew) */
	e->batch_final = false;
	if (engine_sweep_batch(e, set, final)) {
		/* every CPU's reads in one call */
	} else if (e->nreaders) {
		/* the readers take the other sockets meanwhile */
		e->sweep_set = set;
		e->sweep_final = final;
		pthread_barrier_wait(&e->sweep_go);
		engine_sweep_part(e, 0, e->own, set, final);
		pthread_barrier_wait(&e->sweep_done);
	} else {
		engine_sweep_part(e, 0, e->ncpus, set, final);
	}
	for (int i = 0; final && i < e->ncpus; i++) {
		tmin = fmin(tmin, e->cpus[i].t_read);
		tmax = fmax(tmax, e->cpus[i].t_read);
	}
	if (final)
		e->verify++;
	for (int i = 0; rotate && i < e->ncpus; i++)
		engine_program(e, &e->cpus[i], set, &e->sets[(e->cur + 1) % e->nsets]);
	if (rotate)
		e->cur = (e->cur + 1) % e->nsets;
	uncore_read(e->unc);
	uncore_rotate(e->unc);
	if (rotate || uncore_nsets(e->unc) > 1) {
		e->rot_sum += engine_real() - t_sweep;
		e->rot_n++;
	}
	if (!final) {
		e->slice++;
		return 0;
	}
	uncore_verify(e->unc);
	/*
	 * On the real clock, the slice the interval had: sweeps that take longer
	 * than the slice asked (a slow device, a sanitizer build) leave fewer,
	 * longer slices, and that is the rotation the figures had.
	 */
	e->rot_achieved = !e->cfg.clock && (rotate || uncore_nsets(e->unc) > 1)
			  ? (t_sweep - e->t_start) / (e->slice + 1) : 0;
	engine_publish(e, engine_build(e, e->batch_final ? e->batch_span
					   : e->ncpus && tmax >= tmin ? tmax - tmin : 0));
	if (e->replan)
		engine_replan(e);
	for (int i = 0; i < e->ncpus; i++) {
		struct engine_cpu *c = &e->cpus[i];

		/* a CPU whose last readings may predate a failed read starts afresh */
		if (engine_cpu_void(c))
			engine_rebaseline_cpu(e, c);
		else
			engine_reset_acc(e, c, c->t_read);
	}
	/* from the reading just taken: the counts go on while the sample is built */
	uncore_reset(e->unc);
	engine_next_interval(e, t_sweep);
	/* slow sweeps lengthen the next interval's slices (engine_pace) */
	if (!e->cfg.clock && e->rot_n) {
		e->rot_cost = e->rot_sum / e->rot_n;
		e->rot_sum = 0;
		e->rot_n = 0;
		engine_pace(e);
	}
	return 1;
}

void engine_next_interval(struct engine *e, double t_sweep)
{
	e->error[0] = 0;
	e->slice = 0;
	e->flush = false;
	e->t_start = t_sweep;
	if (e->interval_after_first > 0) {
		/* the short first interval is over: the one asked for from now on */
		e->interval = e->interval_after_first;
		e->interval_after_first = 0;
		engine_pace(e);
	}
}

double engine_slice_s(const struct engine *e)
{
	return e->interval / e->nslices / e->ticks;
}

double engine_rotation_s(const struct engine *e)
{
	int sets = engine_sets(e);

	if (sets < 2)
		return 0;
	return e->rot_achieved > 0 ? e->rot_achieved : e->interval / e->nslices;
}

/* ---- life cycle -------------------------------------------------------- */

int engine_create(const struct engine_config *cfg, struct engine **out, char *err, size_t errlen)
{
	struct engine *e = xcalloc(1, sizeof(*e));
	const struct topo *t = cfg->topo;
	pthread_condattr_t ca;

	*out = NULL;
	e->cfg = *cfg;
	e->l = cfg->layout;
	if (!e->cfg.count_user && !e->cfg.count_kernel)
		e->cfg.count_user = e->cfg.count_kernel = true;
	e->interval = cfg->interval_s;
	if (!cfg->clock && e->interval > ENGINE_FIRST_S) {
		e->interval_after_first = e->interval;
		e->interval = ENGINE_FIRST_S;
	}
	e->mux_s = cfg->mux_s > 0 ? fmin(fmax(cfg->mux_s, ENGINE_MUX_MIN_S), ENGINE_MUX_MAX_S)
				  : ENGINE_MUX_DEFAULT_S;
	if (cfg->perf_cpu) {
		/* the kernel owns the PMU: no register is touched, no reader thread helps */
		e->cfg.readers = -1;
		e->cfg.fixed_counters = PMU_MAX_FIXED;
	}
	e->gp_usable = ((cfg->gp_counters >= 32 ? 0 : (1u << cfg->gp_counters)) - 1) & ~cfg->gp_taken;
	e->gp_usable &= (1u << PMU_MAX_GP) - 1;
	e->fixed_usable = ((1u << cfg->fixed_counters) - 1) & ~cfg->fixed_taken;
	e->groups = cfg->groups;
	e->blocked = xcalloc((size_t)e->l->ngroups + 1, sizeof(*e->blocked));
	e->cpus = xcalloc((size_t)t->nonline + 1, sizeof(*e->cpus));
	for (int i = 0; i < t->nthreads; i++) {
		struct engine_cpu *c;

		if (!t->threads[i].online)
			continue;
		c = &e->cpus[e->ncpus++];
		c->os_cpu = t->threads[i].os_cpu;
		c->thread = i;
		c->ev_acc = xcalloc((size_t)e->l->nevents + 1, sizeof(double));
		c->ev_live = xcalloc((size_t)e->l->nevents + 1, sizeof(double));
		if (cfg->perf_cpu)
			c->perf = xcalloc((size_t)e->l->ngroups + PMU_MAX_FIXED, sizeof(*c->perf));
	}
	pthread_mutex_init(&e->lock, NULL);
	pthread_mutex_init(&e->note_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&e->wake, &ca);
	pthread_cond_init(&e->applied, &ca);
	pthread_condattr_destroy(&ca);
	e->want_groups = e->groups;
	e->want_interval = cfg->interval_s;
	e->pid = e->want_pid = e->attached = -1;
	e->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (e->efd < 0) {
		snprintf(err, errlen, "cannot create an eventfd: %s", strerror(errno));
		engine_free(e);
		return -EIO;
	}
	{
		struct uncore_config uc = {
			.topo = t, .layout = e->l, .dev = cfg->dev, .kind = cfg->uncore,
			.kind_why = cfg->uncore_why,
			.mmio = cfg->mmio, .mmio_why = cfg->mmio_why, .socket_taken = cfg->uncore_taken,
			.channels = cfg->channels, .channel_peak = cfg->channel_peak,
			.clock = engine_clock_of, .clock_ctx = e, .root = cfg->root,
			.perf_mode = cfg->perf_cpu != NULL, .perf_task = cfg->perf_task, .perf = cfg->perf,
			.perf_access = cfg->perf_access,
		};

		int rc = uncore_create(&uc, &e->unc, err, errlen);

		if (rc) {
			engine_free(e);
			/* refused writes: msr is not usable here (--source auto goes on to perf) */
			return rc == -EPERM || rc == -EACCES ? rc : -EIO;
		}
	}
	if (engine_perf(e) && !cfg->perf_task) {
		engine_perf_open_fixed(e);
		if (!e->fixed_usable && e->perf_note[0]) {
			/* the kernel counts nothing here: say why instead of a screen of n/a */
			snprintf(err, errlen, "%s", e->perf_note);
			engine_free(e);
			return -ENODEV;
		}
	}
	engine_plan(e);
	for (int i = 0; i < e->ncpus && !engine_perf(e); i++) {
		int rc = engine_setup_cpu(e, &e->cpus[i]);

		if (rc) {
			snprintf(err, errlen, "%s", e->error);
			engine_free(e);
			/* -EINVAL: the layout does not fit; refused writes: msr is not usable here */
			return rc == -EINVAL || rc == -EPERM || rc == -EACCES ? rc : -EIO;
		}
	}
	engine_baseline(e);
	for (int i = 0; i < e->ncpus; i++)
		if (e->cpus[i].failed) {
			snprintf(err, errlen, "%s", e->error);
			engine_free(e);
			return -EIO;
		}
	e->sampling = true;
	*out = e;
	return 0;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	engine_stop(e);
	if (e->stuck)
		return; /* the thread may still touch it; the process is about to end */
	engine_perf_free(e);
	for (int i = 0; i < e->ncpus; i++) {
		free(e->cpus[i].ev_acc);
		free(e->cpus[i].ev_live);
	}
	free(e->cpus);
	free(e->batch);
	free(e->sets);
	uncore_free(e->unc);
	free(e->blocked);
	sample_release(e->latest);
	if (e->efd >= 0)
		close(e->efd);
	pthread_mutex_destroy(&e->lock);
	pthread_mutex_destroy(&e->note_lock);
	pthread_cond_destroy(&e->wake);
	pthread_cond_destroy(&e->applied);
	free(e);
}

uint64_t engine_counter_reads(const struct engine *e)
{
	return atomic_load(&e->reads);
}
