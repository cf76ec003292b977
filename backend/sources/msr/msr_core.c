/*
 * msr_core: the register source's core side.  It saves what it will write
 * and enables the counters (fixed-counter control and global control),
 * packs the groups into sets over the programmable counters it may use,
 * programs a set by writing the selects and zeroing the counters, and
 * checks before each rewrite, and once a sample, that no other program
 * took a register it wrote: a taken select is given up for good (the
 * groups are planned again without it), a taken control leaves that CPU
 * alone.  Register layouts: seed 000 Appendix II (PERFEVTSEL), seed 004
 * section 19.1 (fixed counters, global control); see pmu_regs.h.  The
 * reads are msr_sweep.c's.
 */
#include "msr_core_int.h"
#include "msr_source.h"
#include "owner.h"
#include "plan.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int msr_core_read(struct msr_core *m, int i, uint32_t reg, uint64_t *v)
{
	return msr_core_access(m, i, reg, v, false, NULL);
}

static int msr_core_write(struct msr_core *m, int i, uint32_t reg, uint64_t v)
{
	return msr_core_access(m, i, reg, &v, true, NULL);
}

/* Add a line to what other programs took (each said once, in every sample from now on). */
static void msr_core_note_taken(struct msr_core *m, const char *what)
{
	size_t n;

	pthread_mutex_lock(&m->note_lock);
	n = strlen(m->taken_note);
	if (!strstr(m->taken_note, what))
		snprintf(m->taken_note + n, sizeof(m->taken_note) - n, "%s%s", n ? "; " : "", what);
	pthread_mutex_unlock(&m->note_lock);
}

/* One of the gp_counters selects, or (slot gp_counters) the fixed-counter control. */
unsigned msr_core_verify_slot(const struct msr_core *m)
{
	return (unsigned)m->verify % (m->cfg->gp_counters + 1);
}

/*
 * Whether another program took REG on CPU I since pmutop wrote it (one
 * read; none for a register pmutop has not written).  A register found
 * taken is given up for good (msr_release: never written again, left at
 * exit), and the CPU's figures of this interval are void: they may hold
 * the other's counts.
 */
static bool msr_core_taken(struct msr_core *m, int i, uint32_t reg)
{
	struct src_cpu *c = &m->env.cpus[i];
	uint64_t cur;

	if (msr_released(m->dev, c->os_cpu, reg))
		return true;
	if (m->mc[i].returning || m->mc[i].was_offline)
		return false; /* back from offline: what it holds is its reset or ours, until reprogrammed */
	if (!msr_wrote(m->dev, c->os_cpu, reg) || msr_core_read(m, i, reg, &cur) ||
	    !msr_taken(m->dev, c->os_cpu, reg, cur))
		return false;
	msr_release(m->dev, c->os_cpu, reg);
	c->failed = 1;
	return true;
}

/*
 * Checked before pmutop writes a select again: a taken PMC is given up on
 * that CPU, not used on any CPU from the next interval (the groups are
 * planned again without it), and every sample says so.
 */
bool msr_core_pmc_taken(struct msr_core *m, int i, uint32_t k)
{
	char what[768], who[600];
	int cpu = m->env.cpus[i].os_cpu;

	if (m->mc[i].taken & (1u << k))
		return true;
	if (!msr_core_taken(m, i, IA32_PERFEVTSEL0 + k))
		return false;
	owner_who(m->cfg->root, who, sizeof(who));
	m->mc[i].taken |= 1u << k;
	msr_release(m->dev, cpu, IA32_PMC0 + k); /* its count too: never zeroed */
	pthread_mutex_lock(&m->note_lock);
	m->gp_lost |= 1u << k;
	m->replan = true;
	pthread_mutex_unlock(&m->note_lock);
	snprintf(what, sizeof(what), "PMC%u on CPU %d was taken by %s: pmutop no longer uses "
		 "PMC%u", k, cpu, who, k);
	msr_core_note_taken(m, what);
	return true;
}

/*
 * Once a sample, cheaply: whether another program took CPU I's global
 * control and one of its selects or its fixed-counter control (a different
 * one each sample: all of them within gp_counters + 1 samples).  A control
 * taken: pmutop leaves the CPU alone from now on (n/a, named).
 */
void msr_core_verify(struct msr_core *m, int i)
{
	struct src_cpu *c = &m->env.cpus[i];
	unsigned slot = msr_core_verify_slot(m);
	uint32_t ctl = 0;
	char what[768], who[600];

	if (c->gone)
		return;
	if (m->cfg->perfmon_version >= 2 && msr_core_taken(m, i, IA32_PERF_GLOBAL_CTRL))
		ctl = IA32_PERF_GLOBAL_CTRL;
	else if (slot < m->cfg->gp_counters && slot < PMU_MAX_GP &&
		 (m->mc[i].gp_mine & (1u << slot)))
		msr_core_pmc_taken(m, i, slot);
	else if (m->cfg->fixed_counters && msr_core_taken(m, i, IA32_FIXED_CTR_CTRL))
		ctl = IA32_FIXED_CTR_CTRL;
	if (!ctl)
		return;
	c->gone = true;
	owner_who(m->cfg->root, who, sizeof(who));
	snprintf(what, sizeof(what), "CPU %d's %s was changed by %s: pmutop leaves that CPU alone "
		 "(n/a)", c->os_cpu,
		 ctl == IA32_PERF_GLOBAL_CTRL ? "global counter control" : "fixed-counter control", who);
	msr_core_note_taken(m, what);
}

/* Program set S on CPU I (after PREV, whose counters not reused are disabled). */
static void msr_core_program(struct msr_core *m, int i, const struct counter_set *prev,
			     const struct counter_set *s)
{
	const struct engine_config *cfg = m->cfg;
	struct msr_cpu *mc = &m->mc[i];
	uint32_t used = 0;

	for (int k = 0; s && k < s->nev; k++)
		used |= msr_core_here(m, i, s->ev[k]) ? 1u << s->ctr[k] : 0;
	/* each select checked before it is written again: never over another program's */
	for (int k = 0; prev && k < prev->nev; k++)
		if (!(used & (1u << prev->ctr[k])) && msr_core_here(m, i, prev->ev[k]) &&
		    !msr_core_pmc_taken(m, i, (uint32_t)prev->ctr[k]))
			msr_core_write(m, i, IA32_PERFEVTSEL0 + (uint32_t)prev->ctr[k], 0);
	for (int k = 0; s && k < s->nev; k++) {
		const struct layout_event *ev = &m->l->events[s->ev[k]];
		uint32_t ctr = (uint32_t)s->ctr[k];

		/* a hybrid: the other kind's events are not this core's (nor, maybe, the counter) */
		if (!msr_core_here(m, i, s->ev[k]) || msr_core_pmc_taken(m, i, ctr))
			continue;
		if (ev->offcore_msr)
			msr_core_write(m, i, ev->offcore_msr, ev->offcore);
		if (ev->has_frontend)
			msr_core_write(m, i, MSR_PEBS_FRONTEND, ev->frontend);
		msr_core_write(m, i, IA32_PERFEVTSEL0 + ctr,
			       counter_evtsel(ev, cfg->perfmon_version, cfg->count_user,
					      cfg->count_kernel));
		/* written last: the counter's live time starts here */
		msr_core_access(m, i, IA32_PMC0 + ctr, &(uint64_t){ 0 }, true, &mc->gp_t[ctr]);
		mc->gp_u[ctr] = mc->spread;
		mc->gp_prev[ctr] = 0;
	}
}

static const struct counter_set *msr_core_cur(const struct msr_core *m)
{
	return m->nsets ? &m->sets[m->cur] : NULL;
}

/*
 * Fixed counter 3 read as SLOTS on CPU I, with MSR_PERF_METRICS: the
 * fields are fractions (of 0xFF) of the slots counted since both were last
 * cleared, so both are cleared after each read (as the kernel does) and the
 * slots count as they stand.  A failed read or clear voids the interval.
 */
static void msr_core_read_metrics(struct msr_core *m, int i, uint64_t slots, bool baseline)
{
	struct src_cpu *c = &m->env.cpus[i];
	uint64_t metrics;

	if (msr_core_read(m, i, MSR_PERF_METRICS, &metrics)) {
		c->failed = 1;
		return;
	}
	atomic_fetch_add_explicit(m->env.reads, 1, memory_order_relaxed);
	if (msr_core_write(m, i, MSR_PERF_METRICS, 0) ||
	    msr_core_write(m, i, IA32_FIXED_CTR0 + 3, 0)) {
		c->failed = 1;
		return;
	}
	slots &= m->cfg->fixed_width >= 64 ? ~0ull : (1ull << m->cfg->fixed_width) - 1;
	if (baseline)
		return;
	c->fixed_acc[3] += (double)slots;
	for (int k = 0; k < PERF_METRICS_FIELDS; k++)
		if (m->topdown & (1u << k) && m->mc[i].topdown_mine)
			c->td_acc[k] += (double)slots * (double)PERF_METRICS_FIELD(metrics, k) / 255.0;
}

/* The time stamp counter of CPU I, into its accumulator. */
static void msr_core_read_tsc(struct msr_core *m, int i, bool baseline, double elapsed)
{
	struct src_cpu *c = &m->env.cpus[i];
	struct msr_cpu *mc = &m->mc[i];
	uint64_t v;

	if (msr_core_read(m, i, IA32_TIME_STAMP_COUNTER, &v))
		return;
	atomic_fetch_add_explicit(m->env.reads, 1, memory_order_relaxed);
	if (!baseline)
		c->tsc_acc += counter_widen(mc->tsc_prev, v, 64, elapsed, &c->resets);
	mc->tsc_prev = v;
}

/* The interval ends at the middle of the reads. */
void msr_core_read_fixed(struct msr_core *m, int i, bool baseline)
{
	const struct engine_config *cfg = m->cfg;
	struct src_cpu *c = &m->env.cpus[i];
	struct msr_cpu *mc = &m->mc[i];
	double t0 = src_now(cfg), t, elapsed = t0 - c->t_read;
	bool tsc = false;
	uint64_t v;

	for (unsigned n = 0; n < cfg->fixed_counters && n < PMU_MAX_FIXED; n++) {
		if (!(mc->fixed_mine & (1u << n)) || msr_core_read(m, i, IA32_FIXED_CTR0 + n, &v))
			continue;
		atomic_fetch_add_explicit(m->env.reads, 1, memory_order_relaxed);
		if (n == 3 && mc->topdown_mine) {
			msr_core_read_metrics(m, i, v, baseline);
			continue;
		}
		if (!baseline)
			c->fixed_acc[n] += counter_widen(mc->fixed_prev[n], v, cfg->fixed_width,
							elapsed, &c->resets);
		mc->fixed_prev[n] = v & ((1ull << cfg->fixed_width) - 1);
		/*
		 * the TSC right after REF_TSC (fixed counter 2), which counts at its
		 * rate: a delay between the two reads (fixed counter 3 and
		 * PERF_METRICS were read between them) moved their ratio, the
		 * utilisation, by the delay over the interval (1.0155 in a loaded CI)
		 */
		if (n == 2) {
			msr_core_read_tsc(m, i, baseline, elapsed);
			tsc = true;
		}
	}
	if (!tsc)
		msr_core_read_tsc(m, i, baseline, elapsed);
	t = m->batch_live ? m->batch_mid : (t0 + src_now(cfg)) / 2;
	c->t_read = t;
	if (baseline)
		c->t_interval = t;
}

/* A failed first write: refused (lockdown, a write filter, msr-safe) or another failure. */
static int msr_core_setup_rc(int rc)
{
	return rc == -EPERM || rc == -EACCES ? rc : -EIO;
}

/* Save what CPU I will be written (before any enable makes a counter move). */
static int msr_core_save(struct msr_core *m, int i)
{
	const struct engine_config *cfg = m->cfg;
	int cpu = m->env.cpus[i].os_cpu;

	for (unsigned k = 0; k < cfg->gp_counters && k < PMU_MAX_GP; k++)
		if (m->mc[i].gp_mine & (1u << k)) {
			msr_save(m->dev, cpu, IA32_PMC0 + k);
			msr_save(m->dev, cpu, IA32_PERFEVTSEL0 + k);
		}
	/* the fixed counts move once enabled: saved now, put back at exit */
	for (unsigned n = 0; n < cfg->fixed_counters && n < PMU_MAX_FIXED; n++)
		if (m->mc[i].fixed_mine & (1u << n))
			msr_save(m->dev, cpu, IA32_FIXED_CTR0 + n);
	if (m->mc[i].topdown_mine)
		msr_save(m->dev, cpu, MSR_PERF_METRICS); /* cleared at each read */
	for (int k = 0; k < m->l->nevents; k++) {
		const struct layout_event *ev = &m->l->events[k];
		uint32_t extra = ev->offcore_msr ? ev->offcore_msr : ev->has_frontend ? MSR_PEBS_FRONTEND : 0;
		int rc;

		if (ev->pmu != LAYOUT_PMU_CORE || !msr_core_here(m, i, k))
			continue;
		rc = ev->offcore_msr ? msr_save(m->dev, cpu, ev->offcore_msr) : 0;

		if (!rc && ev->has_frontend)
			rc = msr_save(m->dev, cpu, extra = MSR_PEBS_FRONTEND);
		if (rc == -EACCES) {
			/* not on this CPU's allowlist: the layout is for another model */
			snprintf(m->error, sizeof(m->error), "layout %s: event %s needs MSR 0x%X (%s), "
				 "which this CPU does not have; use the layout for this model (pmutop "
				 "picks it without --layout)", m->l->name, ev->name, extra,
				 extra == MSR_PEBS_FRONTEND ? "MSR_PEBS_FRONTEND"
				 : "an offcore response register");
			return -EINVAL;
		}
		if (rc) {
			snprintf(m->error, sizeof(m->error), "%s", msr_last_error(m->dev));
			return rc;
		}
	}
	return 0;
}

/*
 * The MSR_PERF_METRICS fields counted: those the layout reads, where fixed
 * counter 3 is pmutop's and IA32_PERF_CAPABILITIES says the register
 * exists (read on the first CPU; one CPU model per machine).
 */
static uint32_t msr_core_topdown(struct msr_core *m)
{
	uint64_t caps;

	if (!m->cfg->topdown_fields || !(m->fixed_usable & (1u << 3)) || !m->env.ncpus ||
	    msr_read(m->dev, m->env.cpus[0].os_cpu, IA32_PERF_CAPABILITIES, &caps) ||
	    !(caps & PERF_CAP_PERF_METRICS))
		return 0;
	return (1u << (m->cfg->topdown_fields > PERF_METRICS_FIELDS ? PERF_METRICS_FIELDS
								   : m->cfg->topdown_fields)) - 1;
}

/* First programming of CPU I: originals saved, fixed-counter control and global enables. */
static int msr_core_setup_cpu(struct msr_core *m, int i)
{
	const struct engine_config *cfg = m->cfg;
	uint64_t fixed_ctrl = 0, global = 0;
	int rc = msr_core_save(m, i);

	if (rc)
		return rc;
	if (cfg->fixed_counters) {
		if (msr_core_read(m, i, IA32_FIXED_CTR_CTRL, &fixed_ctrl))
			return -EIO;
		for (unsigned n = 0; n < cfg->fixed_counters && n < PMU_MAX_FIXED; n++) {
			if (!(m->mc[i].fixed_mine & (1u << n)))
				continue;
			fixed_ctrl &= ~(0xFull << FIXED_CTRL_SHIFT(n));
			fixed_ctrl |= ((cfg->count_kernel ? FIXED_CTRL_OS : 0) |
				       (cfg->count_user ? FIXED_CTRL_USR : 0)) << FIXED_CTRL_SHIFT(n);
		}
		rc = msr_core_write(m, i, IA32_FIXED_CTR_CTRL, fixed_ctrl);
		if (rc)
			return msr_core_setup_rc(rc);
	}
	if (cfg->perfmon_version >= 2) {
		if (msr_core_read(m, i, IA32_PERF_GLOBAL_CTRL, &global))
			return -EIO;
		for (unsigned k = 0; k < cfg->gp_counters; k++)
			if (m->mc[i].gp_mine & (1u << k))
				global |= GLOBAL_PMC(k);
		for (unsigned n = 0; n < cfg->fixed_counters && n < PMU_MAX_FIXED; n++)
			if (m->mc[i].fixed_mine & (1u << n))
				global |= GLOBAL_FIXED(n);
		if (m->mc[i].topdown_mine)
			global |= GLOBAL_PERF_METRICS;
		rc = msr_core_write(m, i, IA32_PERF_GLOBAL_CTRL, global);
		if (rc)
			return msr_core_setup_rc(rc);
	}
	return 0;
}

/*
 * Start CPU I's interval afresh: program the current set and take its
 * baselines.  Reset first: a failed or late access while programming
 * voids the interval.  A CPU that was offline may come back with its
 * counters reset (or reprogrammed by the kernel as it came up): it is
 * programmed whole again, the controls included, and what it holds is
 * taken for no other program's.  Still offline: again next interval.
 */
static void msr_core_rebaseline(struct msr_core *m, int i)
{
	struct src_cpu *c = &m->env.cpus[i];
	struct msr_cpu *mc = &m->mc[i];
	bool back = c->offline || mc->was_offline;

	src_cpu_restart(c, m->l->nevents, src_now(m->cfg));
	mc->returning = back;
	if (back)
		msr_core_setup_cpu(m, i);
	msr_core_program(m, i, NULL, msr_core_cur(m));
	mc->returning = false;
	mc->was_offline = c->offline;
	msr_core_read_fixed(m, i, true);
}

/* ---- the operations -------------------------------------------------------- */

static void msr_core_free(struct src_core *sc)
{
	struct msr_core *m = msr_core_of(sc);

	if (!m)
		return;
	msr_readers_stop(m);
	pthread_mutex_destroy(&m->note_lock);
	free(m->mc);
	free(m->batch);
	free(m->sets);
	free(m);
}

/*
 * Each CPU's own counters: every one pmutop may use, but on a hybrid's
 * E-core those its events may take (Gracemont has 6) and no fixed counter 3
 * or PERF_METRICS, whose figures are n/a there.
 */
static void msr_core_kinds(struct msr_core *m)
{
	uint32_t e_gp = 0;

	for (int k = 0; k < m->l->nevents; k++)
		if (m->l->events[k].pmu == LAYOUT_PMU_CORE &&
		    m->l->groups[m->l->events[k].group].coretype == LAYOUT_CORES_E)
			e_gp |= m->l->events[k].counters;
	for (int i = 0; i < m->env.ncpus; i++) {
		struct msr_cpu *mc = &m->mc[i];
		/* an E-core, or a low-power one (no fixed counter 3 on either) */
		bool e = m->env.cpus[i].kind == LAYOUT_CORES_E || m->env.cpus[i].kind == LAYOUT_CPU_LPE;

		mc->gp_mine = m->gp_usable & (e && e_gp ? e_gp : ~0u);
		mc->fixed_mine = m->fixed_usable & (e ? ~(1u << 3) : ~0u);
		mc->topdown_mine = m->topdown && !e;
		m->env.cpus[i].fixed_na = e ? 1u << 3 : 0;
	}
}

static int msr_core_create(const struct src_env *env, struct src_core **out, char *err,
			   size_t errlen)
{
	const struct engine_config *cfg = env->cfg;
	struct msr_core *m = xcalloc(1, sizeof(*m));

	*out = NULL;
	m->env = *env;
	m->cfg = cfg;
	m->l = cfg->layout;
	m->dev = msr_source_cfg(cfg->source_cfg)->dev;
	m->mc = xcalloc((size_t)env->ncpus + 1, sizeof(*m->mc));
	m->sets = xcalloc((size_t)m->l->ngroups + 1, sizeof(*m->sets));
	pthread_mutex_init(&m->note_lock, NULL);
	m->gp_usable = ((cfg->gp_counters >= 32 ? 0 : (1u << cfg->gp_counters)) - 1) & ~cfg->gp_taken;
	m->gp_usable &= (1u << PMU_MAX_GP) - 1;
	m->fixed_usable = ((1u << cfg->fixed_counters) - 1) & ~cfg->fixed_taken;
	m->fixed_usable &= (1u << PMU_MAX_FIXED) - 1;
	m->topdown = msr_core_topdown(m);
	msr_core_kinds(m);
	for (int i = 0; i < env->ncpus; i++) {
		int rc = msr_core_setup_cpu(m, i);

		if (rc) {
			snprintf(err, errlen, "%s", m->error);
			msr_core_free((struct src_core *)m);
			/* -EINVAL: the layout does not fit; refused writes: msr is not usable here */
			return rc == -EINVAL || rc == -EPERM || rc == -EACCES ? rc : -EIO;
		}
	}
	*out = (struct src_core *)m;
	return 0;
}

/* The current set's counters stopped on every CPU, then the groups packed again. */
static void msr_core_plan(struct src_core *sc, layout_groups groups,
			  char (*blocked)[SAMPLE_WHY_MAX], struct src_plan *out)
{
	struct msr_core *m = msr_core_of(sc);
	const struct counter_set *old = msr_core_cur(m);
	struct counter_set prev = old ? *old : (struct counter_set){ 0 };

	for (int i = 0; old && i < m->env.ncpus; i++)
		msr_core_program(m, i, &prev, NULL);
	m->replan = false;
	m->gp_usable &= ~m->gp_lost;
	m->nsets = plan_core(m->l, groups, m->gp_usable, m->gp_lost, m->cfg->arch_events_absent,
			     m->sets, blocked);
	m->cur = 0;
	*out = (struct src_plan){ .nsets = m->nsets, .gp_usable = __builtin_popcount(m->gp_usable),
				  .fixed = m->fixed_usable, .topdown = m->topdown,
				  .live = plan_groups(m->sets, m->nsets) };
	for (int k = 0; k < m->nsets; k++) {
		uint32_t ctrs = 0; /* a hybrid's set: both kinds' events, on the same counters */

		for (int e = 0; e < m->sets[k].nev; e++)
			ctrs |= 1u << m->sets[k].ctr[e];
		if (__builtin_popcount(ctrs) > out->gp_used)
			out->gp_used = __builtin_popcount(ctrs);
	}
}

static void msr_core_baseline(struct src_core *sc)
{
	struct msr_core *m = msr_core_of(sc);

	for (int i = 0; i < m->env.ncpus; i++)
		msr_core_rebaseline(m, i);
}

static void msr_core_rotate(struct src_core *sc)
{
	struct msr_core *m = msr_core_of(sc);
	const struct counter_set *set = msr_core_cur(m);

	if (m->nsets < 2)
		return;
	for (int i = 0; i < m->env.ncpus; i++)
		msr_core_program(m, i, set, &m->sets[(m->cur + 1) % m->nsets]);
	m->cur = (m->cur + 1) % m->nsets;
}

static bool msr_core_lost(struct src_core *sc)
{
	return msr_core_of(sc)->replan;
}

/* A CPU whose last readings may predate a failed read starts afresh; the rest from their read. */
static void msr_core_restart(struct src_core *sc, struct src_cpu *c)
{
	struct msr_core *m = msr_core_of(sc);

	if (src_cpu_void(c))
		msr_core_rebaseline(m, (int)(c - m->env.cpus));
	else
		src_cpu_restart(c, m->l->nevents, c->t_read);
}

static void msr_core_helpers(struct src_core *sc, bool on)
{
	if (on)
		msr_readers_start(msr_core_of(sc));
	else
		msr_readers_stop(msr_core_of(sc));
}

static void msr_core_notes(const struct src_core *sc, void (*add)(void *ctx, const char *text),
			   void *ctx)
{
	const struct msr_core *m = (const struct msr_core *)sc;

	add(ctx, m->taken_note);
	add(ctx, m->read_note);
}

static const char *msr_core_error(const struct src_core *sc)
{
	return ((const struct msr_core *)sc)->error;
}

static void msr_core_clear_error(struct src_core *sc)
{
	msr_core_of(sc)->error[0] = 0;
}

const struct src_core_ops msr_core_ops = {
	.name = "msr",
	.create = msr_core_create,
	.plan = msr_core_plan,
	.baseline = msr_core_baseline,
	.sweep = msr_core_sweep,
	.rotate = msr_core_rotate,
	.lost = msr_core_lost,
	.restart = msr_core_restart,
	.helpers = msr_core_helpers,
	.notes = msr_core_notes,
	.error = msr_core_error,
	.clear_error = msr_core_clear_error,
	.free = msr_core_free,
};
