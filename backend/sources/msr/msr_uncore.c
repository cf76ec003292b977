/*
 * msr_uncore: the per-socket PMUs through their MSRs, and the Skylake
 * client memory controller's free-running counters through its MMIO window.
 * Registers: pmu_regs.h (seed 000 for Nehalem/Westmere, seed 001 for
 * Skylake client).  Each socket is reached through one CPU of it, its
 * reader; when an access there fails with ENXIO (the CPU went offline) the
 * next online CPU of the socket takes over, and the counters, which belong
 * to the socket, carry on.  Before a select is written again it is read
 * back, and once a sample the global control and the live selects are
 * checked: a socket another program took is left alone from then on.
 */
#include "counter.h"
#include "mmio.h"
#include "msr.h"
#include "msr_source.h"
#include "owner.h"
#include "plan.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSR_UNCORE_MAX_SLOTS 8        /* counters of one box kind on a socket, all boxes */
/* BAR + 5040H .. 5057H by offset / 4 (5040H, 5044H, 5048H, 5050H, 5054H; 504CH unused) */
#define MSR_UNCORE_IMC_COUNTERS ((SKL_IMC_DRAM_DATA_WRITES - SKL_IMC_DRAM_GT_REQUESTS) / 4 + 1)

/*
 * Where each programmable box kind's registers are: event selects at
 * EVTSEL0 + k, counters at CTR0 + k, boxes STRIDE apart (the CBo slices).
 * Counters and widths: layout_pmu_kinds.
 */
static const struct msr_uncore_bank {
	uint32_t evtsel0, ctr0, stride;
} msr_uncore_banks[LAYOUT_NPMUS] = {
	[LAYOUT_PMU_UNCORE] = { .evtsel0 = MSR_UNCORE_PERFEVTSEL0, .ctr0 = MSR_UNCORE_PMC0 },
	[LAYOUT_PMU_CBO] = { .evtsel0 = MSR_UNC_CBO_0_PERFEVTSEL0, .ctr0 = MSR_UNC_CBO_0_PERFCTR0,
			     .stride = SKL_UNC_CBO_STRIDE },
	[LAYOUT_PMU_ARB] = { .evtsel0 = MSR_UNC_ARB_PERFEVTSEL0, .ctr0 = MSR_UNC_ARB_PERFCTR0 },
};

/* Global enable and the fixed uncore clock of each uncore kind. */
static const struct msr_uncore_kind {
	uint32_t global_ctrl, fixed_ctrl, fixed_ctr;
	uint64_t global_bits, fixed_bits;
	unsigned fixed_width;
} msr_uncore_kinds[] = {
	[CPUMODEL_UNCORE_NHM] = { .global_ctrl = MSR_UNCORE_PERF_GLOBAL_CTRL,
			     .fixed_ctrl = MSR_UNCORE_FIXED_CTR_CTRL, .fixed_ctr = MSR_UNCORE_FIXED_CTR0,
			     .global_bits = 0xFFull | NHM_UNC_GLOBAL_FIXED,
			     .fixed_bits = NHM_UNC_FIXED_EN, .fixed_width = NHM_UNC_WIDTH },
	[CPUMODEL_UNCORE_SKL] = { .global_ctrl = MSR_UNC_PERF_GLOBAL_CTRL,
			     .fixed_ctrl = MSR_UNC_PERF_FIXED_CTRL, .fixed_ctr = MSR_UNC_PERF_FIXED_CTR,
			     .global_bits = SKL_UNC_GLOBAL_EN, .fixed_bits = SKL_UNC_FIXED_CNT_EN,
			     .fixed_width = SKL_UNC_FIXED_WIDTH },
};

/* What the transport keeps per socket beside the shared accumulators. */
struct msr_usock {
	uint64_t prev[LAYOUT_NPMUS][MSR_UNCORE_MAX_SLOTS];
	uint64_t fixed_prev;
	uint64_t imc_prev[MSR_UNCORE_IMC_COUNTERS];
	double t_set;             /* when the current set's counters were zeroed or last read */
};

struct msr_uncore {
	struct src_uncore_env env;
	const struct uncore_config *cfg;
	const struct msr_source_config *mc; /* the source's own (cfg->source_cfg) */
	const struct layout *l;
	const struct msr_uncore_kind *kind;
	int nboxes[LAYOUT_NPMUS];
	struct msr_usock *us;     /* per socket */
	struct counter_set *sets;
	int nsets, cur;
	layout_groups imc_groups;      /* selected IMC groups with a window to read */
	char note[1100];
	char taken_note[1024];    /* sockets another program took while pmutop ran */
	char error[512];
};

static struct msr_uncore *msr_uncore_of(struct src_uncore *u)
{
	return (struct msr_uncore *)u;
}

/* ---- registers ----------------------------------------------------------- */

/* The next online CPU of S's socket after its reader, or -1. */
static int msr_uncore_next_reader(const struct msr_uncore *m, const struct src_socket *s)
{
	const struct topo *t = m->cfg->topo;
	bool after = s->reader < 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < t->nthreads; i++) {
			const struct topo_thread *th = &t->threads[i];

			if (th->socket != s->index || !th->online)
				continue;
			if (th->os_cpu == s->reader) {
				if (after)
					return -1; /* came round: none other */
				after = true;
				continue;
			}
			if (after)
				return th->os_cpu;
		}
	return -1;
}

/* Read or write a register of socket S through its reader (the next one when it went offline). */
static int msr_uncore_access(struct msr_uncore *m, struct src_socket *s, uint32_t reg,
			     uint64_t *v, bool write)
{
	int first = s->reader;

	while (s->reader >= 0) {
		int rc = write ? msr_write(m->mc->dev, s->reader, reg, *v)
			       : msr_read(m->mc->dev, s->reader, reg, v);
		int next;
		size_t n;

		if (rc != -ENXIO) {
			if (rc && !s->failed && !m->error[0])
				snprintf(m->error, sizeof(m->error), "%s", msr_last_error(m->mc->dev));
			s->failed |= rc != 0;
			return rc;
		}
		next = msr_uncore_next_reader(m, s);
		if (next == first)
			next = -1;
		n = strlen(m->note);
		if (next >= 0)
			snprintf(m->note + n, sizeof(m->note) - n, "%ssocket %d's uncore is now read "
				 "through CPU %d (CPU %d went offline)", n ? "; " : "", s->index, next,
				 s->reader);
		else
			snprintf(m->note + n, sizeof(m->note) - n, "%ssocket %d's uncore has no online "
				 "CPU left to be read through", n ? "; " : "", s->index);
		s->reader = next;
	}
	s->failed = true;
	return -ENXIO;
}

static int msr_uncore_rd(struct msr_uncore *m, struct src_socket *s, uint32_t reg, uint64_t *v)
{
	return msr_uncore_access(m, s, reg, v, false);
}

static int msr_uncore_wr(struct msr_uncore *m, struct src_socket *s, uint32_t reg, uint64_t v)
{
	return msr_uncore_access(m, s, reg, &v, true);
}

/* Register BASE of counter K in box BOX of kind P. */
static uint32_t msr_uncore_reg(enum layout_pmu p, uint32_t base, int box, int k)
{
	return base + msr_uncore_banks[p].stride * (uint32_t)box + (uint32_t)k;
}

static const struct counter_set *msr_uncore_cur(const struct msr_uncore *m)
{
	return m->nsets ? &m->sets[m->cur] : NULL;
}

static double msr_uncore_now(const struct msr_uncore *m)
{
	return m->cfg->clock(m->cfg->clock_ctx);
}

/*
 * Whether another program took REG of socket S since pmutop wrote it (one
 * read; none for a register pmutop has not written).  Then the register is
 * given up for good and the socket left alone from now on: its figures are
 * n/a, this interval's too, and every sample says so.
 */
static bool msr_uncore_taken(struct msr_uncore *m, struct src_socket *s, uint32_t reg)
{
	uint64_t cur;
	char who[600];
	size_t n;

	if (s->taken)
		return true;
	if (!msr_wrote(m->mc->dev, s->reader, reg) || msr_uncore_rd(m, s, reg, &cur) ||
	    !msr_taken(m->mc->dev, s->reader, reg, cur))
		return false;
	msr_release(m->mc->dev, s->reader, reg);
	s->taken = true;
	s->failed = true;
	owner_who(m->cfg->root, who, sizeof(who));
	n = strlen(m->taken_note);
	snprintf(m->taken_note + n, sizeof(m->taken_note) - n, "%ssocket %d's uncore MSR 0x%X was "
		 "changed by %s: pmutop leaves that socket's uncore alone (n/a)",
		 n ? "; " : "", s->index, reg, who);
	/* said in this interval's sample too */
	n = strlen(m->note);
	snprintf(m->note + n, sizeof(m->note) - n, "%s%s", n ? "; " : "",
		 strrchr(m->taken_note, ';') ? strrchr(m->taken_note, ';') + 2 : m->taken_note);
	return true;
}

/* Whether a select of set SET on socket S was taken (each box's select of each event). */
static bool msr_uncore_set_taken(struct msr_uncore *m, struct src_socket *s,
				 const struct counter_set *set)
{
	for (int i = 0; set && i < set->nev; i++) {
		enum layout_pmu p = m->l->events[set->ev[i]].pmu;

		for (int b = 0; b < m->nboxes[p]; b++)
			if (msr_uncore_taken(m, s, msr_uncore_reg(p, msr_uncore_banks[p].evtsel0, b,
								  set->ctr[i])))
				return true;
	}
	return false;
}

/*
 * Program set NEXT on socket S after PREV (whose counters not reused are
 * disabled).  The new counters are live from the middle of their zeroing.
 * PREV's selects are read back first: another program's are never written.
 */
static void msr_uncore_program(struct msr_uncore *m, struct src_socket *s,
			       const struct counter_set *prev, const struct counter_set *next)
{
	const struct layout *l = m->l;
	double t0;

	if (msr_uncore_set_taken(m, s, prev) || msr_uncore_set_taken(m, s, next))
		return;
	for (int i = 0; prev && i < prev->nev; i++) {
		enum layout_pmu p = l->events[prev->ev[i]].pmu;
		bool reused = false;

		for (int j = 0; next && j < next->nev; j++)
			reused |= l->events[next->ev[j]].pmu == p && next->ctr[j] == prev->ctr[i];
		for (int b = 0; !reused && b < m->nboxes[p]; b++)
			msr_uncore_wr(m, s, msr_uncore_reg(p, msr_uncore_banks[p].evtsel0, b,
							   prev->ctr[i]), 0);
	}
	for (int i = 0; next && i < next->nev; i++) {
		const struct layout_event *ev = &l->events[next->ev[i]];

		for (int b = 0; b < m->nboxes[ev->pmu]; b++)
			msr_uncore_wr(m, s, msr_uncore_reg(ev->pmu, msr_uncore_banks[ev->pmu].evtsel0,
							   b, next->ctr[i]),
				      counter_uncore_evtsel(ev));
	}
	t0 = msr_uncore_now(m);
	for (int i = 0; next && i < next->nev; i++) {
		const struct layout_event *ev = &l->events[next->ev[i]];
		int per_box = layout_pmu_kinds[ev->pmu].counters;

		for (int b = 0; b < m->nboxes[ev->pmu]; b++) {
			msr_uncore_wr(m, s, msr_uncore_reg(ev->pmu, msr_uncore_banks[ev->pmu].ctr0, b,
							   next->ctr[i]), 0);
			m->us[s->index].prev[ev->pmu][b * per_box + next->ctr[i]] = 0;
		}
	}
	m->us[s->index].t_set = (t0 + msr_uncore_now(m)) / 2;
}

static unsigned msr_uncore_imc_slot(uint32_t mmio)
{
	return (mmio - SKL_IMC_DRAM_GT_REQUESTS) / 4;
}

/* The live set's counters of S, each summed over its boxes: into SUM (OK: all read). */
static void msr_uncore_read_set(struct msr_uncore *m, struct src_socket *s,
				const struct counter_set *set, bool baseline, double *sum, bool *ok)
{
	struct msr_usock *us = &m->us[s->index];
	uint64_t v;

	for (int i = 0; set && i < set->nev; i++) {
		const struct layout_event *ev = &m->l->events[set->ev[i]];
		const struct layout_pmu_kind *k = &layout_pmu_kinds[ev->pmu];

		sum[i] = 0;
		ok[i] = true;
		for (int b = 0; b < m->nboxes[ev->pmu]; b++) {
			uint64_t *prev = &us->prev[ev->pmu][b * k->counters + set->ctr[i]];

			if (msr_uncore_rd(m, s, msr_uncore_reg(ev->pmu, msr_uncore_banks[ev->pmu].ctr0,
							       b, set->ctr[i]), &v)) {
				ok[i] = false;
				continue;
			}
			/* widened over the time it has counted so far, for the wrap test */
			if (!baseline)
				sum[i] += counter_widen(*prev, v, k->width,
							msr_uncore_now(m) - us->t_set, &s->resets);
			*prev = v & pmu_width_mask(k->width);
		}
	}
}

/* The memory controller's free-running counters of the selected IMC groups, over ELAPSED. */
static void msr_uncore_read_imc(struct msr_uncore *m, struct src_socket *s, bool baseline,
				double elapsed)
{
	const struct layout *l = m->l;
	struct msr_usock *us = &m->us[s->index];

	for (int k = 0; m->imc_groups && k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		unsigned slot = msr_uncore_imc_slot(ev->mmio);
		uint32_t v32;
		double d;

		if (!layout_pmu_kinds[ev->pmu].free_running || !(m->imc_groups & (1u << ev->group)))
			continue;
		if (mmio_read32(m->mc->mmio, ev->mmio, &v32, m->error[0] ? NULL : m->error,
				m->error[0] ? 0 : sizeof(m->error))) {
			s->failed = true;
			continue;
		}
		if (!baseline) {
			d = counter_widen(us->imc_prev[slot], v32, layout_pmu_kinds[ev->pmu].width,
					  elapsed, &s->resets);
			s->ev[k].acc += d; /* free-running: counted throughout, no turns */
			s->ev[k].live += elapsed;
			s->moved[k] |= d > 0;
		}
		us->imc_prev[slot] = v32;
	}
}

/* Read socket S's live counters; BASELINE: only remember the values. */
static void msr_uncore_read_socket(struct msr_uncore *m, struct src_socket *s, bool baseline)
{
	const struct counter_set *set = msr_uncore_cur(m);
	struct msr_usock *us = &m->us[s->index];
	double t0, t1, t, elapsed, live, sum[COUNTER_SET_MAX];
	bool ok[COUNTER_SET_MAX];
	uint64_t v;

	/* nothing selected: not even the clock is read (it only serves uncore metrics) */
	if (s->taken || s->reader < 0 || (!set && !m->imc_groups) || (s->failed && !baseline))
		return; /* (a failed interval is n/a: its next starts afresh) */
	t0 = msr_uncore_now(m);
	msr_uncore_read_set(m, s, set, baseline, sum, ok);
	t1 = msr_uncore_now(m);
	/* the set's counters count from the middle of their zeroing to the middle of their reads */
	t = (t0 + t1) / 2;
	/* a read this slow leaves its time unsure by half of it: n/a, afresh next (a late CPU's) */
	if (!s->failed && m->mc->late_reads && t1 - t0 > ENGINE_SLOW_ACCESS_S) {
		s->failed = true;
		snprintf(m->note + strlen(m->note), sizeof(m->note) - strlen(m->note),
			 "%ssocket %d's uncore answered late (n/a)", m->note[0] ? "; " : "", s->index);
	}
	elapsed = t - s->t_last;
	live = t - us->t_set;
	for (int i = 0; set && !baseline && i < set->nev; i++) {
		if (!ok[i])
			continue;
		struct src_tally *tally = &s->ev[set->ev[i]];

		/* turns where the sets take them; else counted throughout, by its time */
		if (m->nsets > 1) {
			src_tally_turn(tally, sum[i], live);
		} else {
			tally->acc += sum[i];
			tally->live += live;
		}
		s->moved[set->ev[i]] |= sum[i] > 0;
	}
	if (set)
		us->t_set = t;
	if (!msr_uncore_rd(m, s, m->kind->fixed_ctr, &v)) {
		if (!baseline)
			s->fixed_acc += counter_widen(us->fixed_prev, v, m->kind->fixed_width, elapsed,
						     &s->resets);
		us->fixed_prev = v & pmu_width_mask(m->kind->fixed_width);
	}
	msr_uncore_read_imc(m, s, baseline, elapsed);
	s->t_last = t;
}

/* ---- the operations -------------------------------------------------------- */

static void msr_uncore_plan(struct src_uncore *su, layout_groups groups, long core_files,
			    char (*blocked)[SAMPLE_WHY_MAX], struct src_uplan *out)
{
	struct msr_uncore *m = msr_uncore_of(su);
	const struct layout *l = m->l;

	(void)core_files;
	/* the memory controller's counters need its window */
	for (int g = 0; g < l->ngroups; g++)
		if ((groups & LAYOUT_GROUP(g)) && !blocked[g][0] &&
		    layout_pmu_kinds[l->groups[g].pmu].free_running && !m->mc->mmio)
			snprintf(blocked[g], SAMPLE_WHY_MAX, "%s",
				 m->mc->mmio_why && *m->mc->mmio_why ? m->mc->mmio_why
				 : "no memory controller window");
	m->nsets = plan_uncore(l, groups, m->sets, &m->imc_groups, blocked);
	m->cur = 0;
	*out = (struct src_uplan){ .nsets = m->nsets, .live = plan_groups(m->sets, m->nsets) |
			      m->imc_groups, .poll_s = m->imc_groups ? UNCORE_IMC_POLL_S : INFINITY };
}

static void msr_uncore_baseline(struct src_uncore *su, struct src_socket *s)
{
	struct msr_uncore *m = msr_uncore_of(su);

	m->us[s->index].t_set = s->t_last;
	msr_uncore_program(m, s, NULL, msr_uncore_cur(m));
	msr_uncore_read_socket(m, s, true);
}

static void msr_uncore_read(struct src_uncore *su, struct src_socket *s, bool final)
{
	(void)final; /* between slices too: no wrap of an IMC counter lost */
	msr_uncore_read_socket(msr_uncore_of(su), s, false);
}

static void msr_uncore_rotate(struct src_uncore *su)
{
	struct msr_uncore *m = msr_uncore_of(su);
	const struct counter_set *prev = msr_uncore_cur(m);

	if (m->nsets < 2)
		return;
	m->cur = (m->cur + 1) % m->nsets;
	for (int i = 0; i < m->env.nsocks; i++)
		if (!m->env.socks[i].taken && m->env.socks[i].reader >= 0)
			msr_uncore_program(m, &m->env.socks[i], prev, msr_uncore_cur(m));
}

static void msr_uncore_verify(struct src_uncore *su)
{
	struct msr_uncore *m = msr_uncore_of(su);

	for (int i = 0; i < m->env.nsocks; i++) {
		struct src_socket *s = &m->env.socks[i];

		if (s->taken || s->reader < 0)
			continue;
		if (!msr_uncore_taken(m, s, m->kind->global_ctrl))
			msr_uncore_set_taken(m, s, msr_uncore_cur(m));
	}
}

/* Its last readings may predate a failed read or a reset: then it starts afresh. */
static void msr_uncore_restart(struct src_uncore *su, struct src_socket *s)
{
	bool afresh = s->failed || s->resets;

	src_socket_restart(s, msr_uncore_of(su)->l->nevents);
	if (afresh && !s->taken && s->reader >= 0) {
		s->t_last = msr_uncore_now(msr_uncore_of(su));
		msr_uncore_baseline(su, s);
		s->t_start = s->t_last;
	}
}

static bool msr_uncore_all_ones(const struct src_uncore *su, const struct src_socket *s, int k)
{
	const struct msr_uncore *m = (const struct msr_uncore *)su;
	const struct counter_set *set = msr_uncore_cur(m);
	const struct layout_event *ev = &m->l->events[k];

	for (int i = 0; set && i < set->nev; i++)
		if (set->ev[i] == k)
			return m->us[s->index].prev[ev->pmu][set->ctr[i]] ==
			       pmu_width_mask(layout_pmu_kinds[ev->pmu].width);
	return false;
}

static const char *msr_uncore_note(const struct src_uncore *su)
{
	return ((const struct msr_uncore *)su)->note;
}

static const char *msr_uncore_error(const struct src_uncore *su)
{
	return ((const struct msr_uncore *)su)->error;
}

/* What other programs took is said in every sample. */
static void msr_uncore_clear(struct src_uncore *su)
{
	struct msr_uncore *m = msr_uncore_of(su);

	snprintf(m->note, sizeof(m->note), "%s", m->taken_note);
	m->error[0] = 0;
}

/* Save what socket S's uncore will be written, then enable its clock and counters. */
static int msr_uncore_setup_socket(struct msr_uncore *m, struct src_socket *s)
{
	const struct msr_uncore_kind *kr = m->kind;
	uint64_t v;
	int rc;

	for (int p = 0; p < LAYOUT_NPMUS; p++)
		for (int b = 0; b < m->nboxes[p]; b++)
			for (int k = 0; k < layout_pmu_kinds[p].counters; k++) {
				msr_save(m->mc->dev, s->reader,
					 msr_uncore_reg(p, msr_uncore_banks[p].ctr0, b, k));
				msr_save(m->mc->dev, s->reader,
					 msr_uncore_reg(p, msr_uncore_banks[p].evtsel0, b, k));
			}
	msr_save(m->mc->dev, s->reader, kr->fixed_ctr);
	if (msr_uncore_rd(m, s, kr->fixed_ctrl, &v))
		return -EIO;
	rc = msr_uncore_wr(m, s, kr->fixed_ctrl, v | kr->fixed_bits);
	if (!rc && msr_uncore_rd(m, s, kr->global_ctrl, &v))
		return -EIO;
	if (!rc)
		rc = msr_uncore_wr(m, s, kr->global_ctrl, v | kr->global_bits);
	/* a refused write (lockdown, a write filter) is said as such: msr is not usable here */
	return rc == -EPERM || rc == -EACCES ? rc : rc ? -EIO : 0;
}

static void msr_uncore_free(struct src_uncore *su)
{
	struct msr_uncore *m = msr_uncore_of(su);

	if (!m)
		return;
	free(m->us);
	free(m->sets);
	free(m);
}

/*
 * The boxes each socket has: the Nehalem uncore one; on Skylake client the
 * slices with counters, NO_CBO_BANKS minus one [S1 2.4.1], and one ARB.
 */
static void msr_uncore_boxes(struct msr_uncore *m)
{
	uint32_t pmus = cpumodel_uncore_kinds[m->cfg->kind].pmus;
	uint64_t v = 0;

	for (int p = 0; p < LAYOUT_NPMUS; p++)
		if (pmus & (1u << p) && layout_pmu_kinds[p].counters)
			m->nboxes[p] = 1;
	if (!(pmus & (1u << LAYOUT_PMU_CBO)))
		return;
	for (int i = 0; i < m->env.nsocks && !v; i++)
		if (m->env.socks[i].reader >= 0 &&
		    msr_uncore_rd(m, &m->env.socks[i], MSR_UNC_CBO_CONFIG, &v))
			v = 0;
	m->nboxes[LAYOUT_PMU_CBO] = (v & 0xF) > 1 ? (int)(v & 0xF) - 1 : 0;
	if (m->nboxes[LAYOUT_PMU_CBO] > SKL_UNC_MAX_CBO)
		m->nboxes[LAYOUT_PMU_CBO] = SKL_UNC_MAX_CBO;
}

static int msr_uncore_create(const struct src_uncore_env *env, struct src_uncore **out, char *err,
			     size_t errlen)
{
	struct msr_uncore *m = xcalloc(1, sizeof(*m));

	*out = NULL;
	m->env = *env;
	m->cfg = env->cfg;
	m->mc = msr_source_cfg(env->cfg->source_cfg);
	m->l = env->cfg->layout;
	m->kind = &msr_uncore_kinds[env->cfg->kind];
	m->us = xcalloc((size_t)env->nsocks + 1, sizeof(*m->us));
	m->sets = xcalloc((size_t)m->l->ngroups + 1, sizeof(*m->sets));
	msr_uncore_boxes(m);
	for (int i = 0; i < env->nsocks; i++) {
		struct src_socket *s = &env->socks[i];
		int rc;

		if (s->taken || s->reader < 0)
			continue;
		rc = msr_uncore_setup_socket(m, s);
		if (rc) {
			snprintf(err, errlen, "%s", m->error);
			msr_uncore_free((struct src_uncore *)m);
			return rc;
		}
	}
	*out = (struct src_uncore *)m;
	return 0;
}

const struct src_uncore_ops msr_uncore_ops = {
	.create = msr_uncore_create,
	.plan = msr_uncore_plan,
	.baseline = msr_uncore_baseline,
	.read = msr_uncore_read,
	.rotate = msr_uncore_rotate,
	.verify = msr_uncore_verify,
	.restart = msr_uncore_restart,
	.all_ones = msr_uncore_all_ones,
	.note = msr_uncore_note,
	.error = msr_uncore_error,
	.clear = msr_uncore_clear,
	.free = msr_uncore_free,
};
