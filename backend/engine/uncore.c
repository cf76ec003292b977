/*
 * uncore: programming, reading and checking the per-socket PMUs.
 * Registers: pmu_regs.h (seed 000 for Nehalem/Westmere, seed 001 for
 * Skylake client).
 */
#include "counter.h"
#include "pmu_regs.h"
#include "uncore.h"
#include "owner.h"
#include "uncore_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- registers ----------------------------------------------------------- */

/* The next online CPU of S's socket after its reader, or -1. */
static int uncore_next_reader(struct uncore *u, struct uncore_socket *s)
{
	const struct topo *t = u->cfg.topo;
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

/*
 * Read or write a register of socket S through its reader; a reader gone
 * offline (ENXIO) hands over to the next online CPU of the socket.
 */
static int uncore_access(struct uncore *u, struct uncore_socket *s, uint32_t reg, uint64_t *v,
			 bool write)
{
	int first = s->reader;

	while (s->reader >= 0) {
		int rc = write ? msr_write(u->cfg.dev, s->reader, reg, *v)
			       : msr_read(u->cfg.dev, s->reader, reg, v);
		int next;
		size_t n;

		if (rc != -ENXIO) {
			if (rc && !s->failed && !u->error[0])
				snprintf(u->error, sizeof(u->error), "%s", msr_last_error(u->cfg.dev));
			s->failed |= rc != 0;
			return rc;
		}
		next = uncore_next_reader(u, s);
		if (next == first)
			next = -1;
		n = strlen(u->note);
		if (next >= 0)
			snprintf(u->note + n, sizeof(u->note) - n, "%ssocket %d's uncore is now read "
				 "through CPU %d (CPU %d went offline)", n ? "; " : "", s->index, next,
				 s->reader);
		else
			snprintf(u->note + n, sizeof(u->note) - n, "%ssocket %d's uncore has no online "
				 "CPU left to be read through", n ? "; " : "", s->index);
		s->reader = next;
	}
	s->failed = true;
	return -ENXIO;
}

static int uncore_rd(struct uncore *u, struct uncore_socket *s, uint32_t reg, uint64_t *v)
{
	return uncore_access(u, s, reg, v, false);
}

static int uncore_wr(struct uncore *u, struct uncore_socket *s, uint32_t reg, uint64_t v)
{
	return uncore_access(u, s, reg, &v, true);
}

/*
 * Uncore event select (seed 000 Appendix II; seed 001 Table 2-7): the core
 * layout without USR/OS/ANY; EN set, no PMI.
 *  31   24 23  22  21 20  19 18  17  16 15   8 7     0
 * +-------+---+---+--+---+--+---+---+--+------+-------+
 * | CMASK |INV|EN |  |PMI|  | E |   |  |UMASK | EVENT |
 * +-------+---+---+--+---+--+---+---+--+------+-------+
 */
static uint32_t uncore_reg(const struct uncore_bank *b, uint32_t base, int box, int k)
{
	return base + b->stride * (uint32_t)box + (uint32_t)k;
}

/* ---- planning ------------------------------------------------------------ */

/* Add group G to set S when it fits beside the set's events in its bank's counters. */
static bool uncore_set_add(const struct uncore *u, struct counter_set *s, int g)
{
	const struct uncore_bank *b = &uncore_banks[u->l->groups[g].pmu];

	return counter_set_add(u->l, s, g, (1u << b->counters) - 1);
}

/* Why group G cannot count on this machine at all, or NULL. */
static const char *uncore_unavailable(const struct uncore *u, const struct layout_group *grp,
				      char *buf, size_t len)
{
	enum layout_pmu want = u->cfg.kind == CPUMODEL_UNCORE_NHM ? LAYOUT_PMU_UNCORE : LAYOUT_PMU_CBO;
	int taken = 0;

	if (u->cfg.kind == CPUMODEL_UNCORE_NONE && u->cfg.kind_why) {
		snprintf(buf, len, "this CPU's uncore is not programmed: %s", u->cfg.kind_why);
		return buf;
	}
	if (u->cfg.kind == CPUMODEL_UNCORE_NONE)
		return "this CPU has no uncore PMU pmutop knows (see the doctor, d)";
	if (u->cfg.kind == CPUMODEL_UNCORE_NHM ? grp->pmu != want : grp->pmu == LAYOUT_PMU_UNCORE) {
		snprintf(buf, len, "pmu %s is not this CPU's uncore (%s)", layout_pmu_names[grp->pmu],
			 u->cfg.kind == CPUMODEL_UNCORE_NHM ? "uncore" : "cbo, arb, imc");
		return buf;
	}
	for (int s = 0; s < u->nsocks; s++)
		taken += u->socks[s].taken;
	if (u->nsocks && taken == u->nsocks)
		return "the uncore counters are in use by another program on every socket (left "
		       "alone; --force takes them)";
	if (grp->pmu == LAYOUT_PMU_IMC && !u->cfg.mmio && !u->cfg.perf_mode) {
		snprintf(buf, len, "%s", u->cfg.mmio_why && *u->cfg.mmio_why ? u->cfg.mmio_why
			 : "no memory controller window");
		return buf;
	}
	return NULL;
}

void uncore_plan(struct uncore *u, uint32_t groups)
{
	const struct layout *l = u->l;

	free(u->sets);
	u->sets = xcalloc((size_t)l->ngroups + 1, sizeof(*u->sets));
	u->nsets = 0;
	u->cur = 0;
	u->imc_groups = 0;
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];
		struct counter_set alone = { 0 };
		const char *why;
		int s;

		u->blocked[g][0] = 0;
		if (grp->pmu == LAYOUT_PMU_CORE || !(groups & (1u << g)))
			continue;
		why = uncore_unavailable(u, grp, u->blocked[g], sizeof(u->blocked[g]));
		if (why) {
			if (why != u->blocked[g])
				snprintf(u->blocked[g], sizeof(u->blocked[g]), "%s", why);
			continue;
		}
		if (u->cfg.perf_mode)
			continue; /* the kernel's PMUs: uncore_perf_plan */
		if (grp->pmu == LAYOUT_PMU_IMC) {
			u->imc_groups |= 1u << g;
			continue;
		}
		if (!uncore_set_add(u, &alone, g)) {
			snprintf(u->blocked[g], sizeof(u->blocked[g]), "needs %d %s counters (with its "
				 "constraints), %d per %s", grp->nevents, layout_pmu_names[grp->pmu],
				 uncore_banks[grp->pmu].counters,
				 grp->pmu == LAYOUT_PMU_CBO ? "slice" : "socket");
			continue;
		}
		for (s = 0; s < u->nsets; s++)
			if (uncore_set_add(u, &u->sets[s], g))
				break;
		if (s == u->nsets)
			u->sets[u->nsets++] = alone;
	}
	if (u->cfg.perf_mode)
		uncore_perf_plan(u, groups);
}

int uncore_nsets(const struct uncore *u)
{
	return u->nsets;
}

bool uncore_group_live(const struct uncore *u, int g)
{
	if (u->cfg.perf_mode)
		return uncore_perf_live(u, g);
	if (u->imc_groups & (1u << g))
		return true;
	for (int s = 0; s < u->nsets; s++)
		if (u->sets[s].groups & (1u << g))
			return true;
	return false;
}

const char *uncore_group_blocked(const struct uncore *u, int g)
{
	return u->blocked[g];
}

int uncore_usable(const struct uncore *u)
{
	return u->cfg.kind == CPUMODEL_UNCORE_NHM ? NHM_UNC_COUNTERS
	       : u->cfg.kind == CPUMODEL_UNCORE_SKL ? SKL_UNC_BOX_COUNTERS : 0;
}

double uncore_poll_s(const struct uncore *u)
{
	return u->imc_groups ? UNCORE_IMC_POLL_S : INFINITY;
}

/* ---- programming and reading --------------------------------------------- */

const struct counter_set *uncore_cur(const struct uncore *u)
{
	return u->nsets ? &u->sets[u->cur] : NULL;
}

static double uncore_now(const struct uncore *u)
{
	return u->cfg.clock(u->cfg.clock_ctx);
}

/*
 * Whether another program took REG of socket S since pmutop wrote it (one
 * read; none for a register pmutop has not written).  Then the register is
 * given up for good and the socket left alone from now on: its figures are
 * n/a, this interval's too, and every sample says so.
 */
static bool uncore_taken(struct uncore *u, struct uncore_socket *s, uint32_t reg)
{
	uint64_t cur;
	char who[600];
	size_t n;

	if (s->taken)
		return true;
	if (!msr_wrote(u->cfg.dev, s->reader, reg) || uncore_rd(u, s, reg, &cur) ||
	    !msr_taken(u->cfg.dev, s->reader, reg, cur))
		return false;
	msr_release(u->cfg.dev, s->reader, reg);
	s->taken = true;
	s->failed = true;
	owner_who(u->cfg.root, who, sizeof(who));
	n = strlen(u->taken_note);
	snprintf(u->taken_note + n, sizeof(u->taken_note) - n, "%ssocket %d's uncore MSR 0x%X was "
		 "changed by %s: pmutop leaves that socket's uncore alone (n/a)",
		 n ? "; " : "", s->index, reg, who);
	/* said in this interval's sample too */
	n = strlen(u->note);
	snprintf(u->note + n, sizeof(u->note) - n, "%s%s", n ? "; " : "",
		 strrchr(u->taken_note, ';') ? strrchr(u->taken_note, ';') + 2 : u->taken_note);
	return true;
}

/* Whether a select of set SET on socket S was taken (each box's select of each event). */
static bool uncore_set_taken(struct uncore *u, struct uncore_socket *s, const struct counter_set *set)
{
	for (int i = 0; set && i < set->nev; i++) {
		enum layout_pmu pmu = u->l->events[set->ev[i]].pmu;
		const struct uncore_bank *bk = &uncore_banks[pmu];

		for (int b = 0; b < u->nboxes[pmu]; b++)
			if (uncore_taken(u, s, uncore_reg(bk, bk->evtsel0, b, set->ctr[i])))
				return true;
	}
	return false;
}

void uncore_verify(struct uncore *u)
{
	const struct uncore_kind_regs *kr = &uncore_kinds[u->cfg.kind];

	for (int i = 0; u->used && i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];

		if (s->taken || s->reader < 0)
			continue;
		if (!uncore_taken(u, s, kr->global_ctrl))
			uncore_set_taken(u, s, uncore_cur(u));
	}
}

/*
 * Program set NEXT on socket S after PREV (whose counters not reused are
 * disabled).  The new counters are live from the middle of their zeroing.
 * PREV's selects are read back first: another program's are never written.
 */
static void uncore_program(struct uncore *u, struct uncore_socket *s,
			   const struct counter_set *prev, const struct counter_set *next)
{
	const struct layout *l = u->l;
	double t0;

	if (uncore_set_taken(u, s, prev) || uncore_set_taken(u, s, next))
		return;
	for (int i = 0; prev && i < prev->nev; i++) {
		enum layout_pmu pmu = l->events[prev->ev[i]].pmu;
		bool reused = false;

		for (int j = 0; next && j < next->nev; j++)
			reused |= l->events[next->ev[j]].pmu == pmu && next->ctr[j] == prev->ctr[i];
		for (int b = 0; !reused && b < u->nboxes[pmu]; b++)
			uncore_wr(u, s, uncore_reg(&uncore_banks[pmu], uncore_banks[pmu].evtsel0, b,
						   prev->ctr[i]), 0);
	}
	for (int i = 0; next && i < next->nev; i++) {
		const struct layout_event *ev = &l->events[next->ev[i]];
		const struct uncore_bank *bk = &uncore_banks[ev->pmu];

		for (int b = 0; b < u->nboxes[ev->pmu]; b++)
			uncore_wr(u, s, uncore_reg(bk, bk->evtsel0, b, next->ctr[i]), counter_uncore_evtsel(ev));
	}
	t0 = uncore_now(u);
	for (int i = 0; next && i < next->nev; i++) {
		const struct layout_event *ev = &l->events[next->ev[i]];
		const struct uncore_bank *bk = &uncore_banks[ev->pmu];

		for (int b = 0; b < u->nboxes[ev->pmu]; b++) {
			uncore_wr(u, s, uncore_reg(bk, bk->ctr0, b, next->ctr[i]), 0);
			s->prev[ev->pmu][b * bk->counters + next->ctr[i]] = 0;
		}
	}
	s->t_set = (t0 + uncore_now(u)) / 2;
}

static unsigned uncore_imc_slot(uint32_t mmio)
{
	return (mmio - SKL_IMC_DRAM_GT_REQUESTS) / 4;
}

/* Read socket S's live counters; BASELINE: only remember the values. */
static void uncore_read_socket(struct uncore *u, struct uncore_socket *s, bool baseline)
{
	const struct layout *l = u->l;
	const struct counter_set *set = uncore_cur(u);
	const struct uncore_kind_regs *kr = &uncore_kinds[u->cfg.kind];
	double t0, t, elapsed, live, sum[COUNTER_SET_MAX];
	bool ok[COUNTER_SET_MAX];
	uint64_t v;

	/* nothing selected: not even the clock is read (it only serves uncore metrics) */
	if (!u->used || s->taken || s->reader < 0 || (!set && !u->imc_groups))
		return;
	t0 = uncore_now(u);
	for (int i = 0; set && i < set->nev; i++) {
		const struct layout_event *ev = &l->events[set->ev[i]];
		const struct uncore_bank *bk = &uncore_banks[ev->pmu];

		sum[i] = 0;
		ok[i] = true;
		for (int b = 0; b < u->nboxes[ev->pmu]; b++) {
			uint64_t *prev = &s->prev[ev->pmu][b * bk->counters + set->ctr[i]];

			if (uncore_rd(u, s, uncore_reg(bk, bk->ctr0, b, set->ctr[i]), &v)) {
				ok[i] = false;
				continue;
			}
			/* widened over the time it has counted so far, for the wrap test */
			if (!baseline)
				sum[i] += counter_widen(*prev, v, bk->width, uncore_now(u) - s->t_set,
							&s->resets);
			*prev = v & pmu_width_mask(bk->width);
		}
	}
	/* the set's counters count from the middle of their zeroing to the middle of their reads */
	t = (t0 + uncore_now(u)) / 2;
	elapsed = t - s->t_last;
	live = t - s->t_set;
	for (int i = 0; set && !baseline && i < set->nev; i++) {
		if (!ok[i])
			continue;
		s->acc[set->ev[i]] += sum[i];
		s->live[set->ev[i]] += live;
		s->moved[set->ev[i]] |= sum[i] > 0;
	}
	if (set)
		s->t_set = t;
	if (!uncore_rd(u, s, kr->fixed_ctr, &v)) {
		if (!baseline)
			s->fixed_acc += counter_widen(s->fixed_prev, v, kr->fixed_width, elapsed,
						     &s->resets);
		s->fixed_prev = v & pmu_width_mask(kr->fixed_width);
	}
	for (int k = 0; u->imc_groups && k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		unsigned slot = uncore_imc_slot(ev->mmio);
		uint32_t v32;
		double d;

		if (ev->pmu != LAYOUT_PMU_IMC || !(u->imc_groups & (1u << ev->group)))
			continue;
		if (mmio_read32(u->cfg.mmio, ev->mmio, &v32, u->error[0] ? NULL : u->error,
				u->error[0] ? 0 : sizeof(u->error))) {
			s->failed = true;
			continue;
		}
		if (!baseline) {
			d = counter_widen(s->imc_prev[slot], v32, SKL_IMC_WIDTH, elapsed, &s->resets);
			s->acc[k] += d;
			s->live[k] += elapsed;
			s->moved[k] |= d > 0;
		}
		s->imc_prev[slot] = v32;
	}
	s->t_last = t;
}

static void uncore_reset_socket(struct uncore *u, struct uncore_socket *s)
{
	for (int i = 0; i < u->l->nevents; i++)
		s->acc[i] = s->live[i] = 0;
	s->fixed_acc = 0;
	s->t_start = s->t_last;
	s->failed = false;
	s->resets = 0;
}

/* Program socket S's current set and take its baselines. */
static void uncore_baseline_socket(struct uncore *u, struct uncore_socket *s)
{
	/* reset first: a failed read while programming voids the interval */
	s->t_last = s->t_set = uncore_now(u);
	uncore_reset_socket(u, s);
	if (!u->used || s->taken || s->reader < 0)
		return;
	uncore_program(u, s, NULL, uncore_cur(u));
	uncore_read_socket(u, s, true);
	s->t_start = s->t_last;
}

void uncore_baseline(struct uncore *u)
{
	u->note[0] = 0;
	if (u->cfg.perf_mode) {
		uncore_perf_baseline(u);
		return;
	}
	for (int i = 0; i < u->nsocks; i++)
		uncore_baseline_socket(u, &u->socks[i]);
}

void uncore_read(struct uncore *u)
{
	if (u->cfg.perf_mode) {
		uncore_perf_read(u);
		return;
	}
	for (int i = 0; i < u->nsocks; i++)
		uncore_read_socket(u, &u->socks[i], false);
}

double uncore_group_share(const struct uncore *u, int g)
{
	const struct layout_group *gr = &u->l->groups[g];
	double share = 0;
	int n = 0;

	for (int i = 0; i < u->nsocks; i++) {
		const struct uncore_socket *s = &u->socks[i];
		double secs = s->t_last - s->t_start;

		if (s->taken || s->reader < 0 || !(secs > 0) || !gr->nevents)
			continue;
		share += s->live[gr->first_event] / secs;
		n++;
	}
	return n ? share / n : NAN;
}

void uncore_rotate(struct uncore *u)
{
	const struct counter_set *prev = uncore_cur(u);

	if (u->nsets < 2 || !u->used)
		return;
	u->cur = (u->cur + 1) % u->nsets;
	for (int i = 0; i < u->nsocks; i++)
		if (!u->socks[i].taken && u->socks[i].reader >= 0)
			uncore_program(u, &u->socks[i], prev, uncore_cur(u));
}

void uncore_reset(struct uncore *u)
{
	/* what other programs took is said in every sample */
	snprintf(u->note, sizeof(u->note), "%s", u->taken_note);
	u->error[0] = 0;
	for (int i = 0; i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];

		/* its last readings may predate a failed read or a reset: start it afresh */
		if ((s->failed || s->resets) && !u->cfg.perf_mode)
			uncore_baseline_socket(u, s);
		else
			uncore_reset_socket(u, s);
	}
}

const char *uncore_note(const struct uncore *u)
{
	return u->note;
}

const char *uncore_error(const struct uncore *u)
{
	return u->error;
}

/* ---- life cycle ------------------------------------------------------------ */

/* Save what socket S's uncore will be written, then enable its clock and counters. */
static int uncore_setup_socket(struct uncore *u, struct uncore_socket *s)
{
	const struct uncore_kind_regs *kr = &uncore_kinds[u->cfg.kind];
	uint64_t v;
	int rc;

	for (int pmu = 0; pmu < LAYOUT_NPMUS; pmu++) {
		const struct uncore_bank *bk = &uncore_banks[pmu];

		for (int b = 0; b < u->nboxes[pmu]; b++)
			for (int k = 0; k < bk->counters; k++) {
				msr_save(u->cfg.dev, s->reader, uncore_reg(bk, bk->ctr0, b, k));
				msr_save(u->cfg.dev, s->reader, uncore_reg(bk, bk->evtsel0, b, k));
			}
	}
	msr_save(u->cfg.dev, s->reader, kr->fixed_ctr);
	if (uncore_rd(u, s, kr->fixed_ctrl, &v))
		return -EIO;
	rc = uncore_wr(u, s, kr->fixed_ctrl, v | kr->fixed_bits);
	if (!rc && uncore_rd(u, s, kr->global_ctrl, &v))
		return -EIO;
	if (!rc)
		rc = uncore_wr(u, s, kr->global_ctrl, v | kr->global_bits);
	/* a refused write (lockdown, a write filter) is said as such: msr is not usable here */
	return rc == -EPERM || rc == -EACCES ? rc : rc ? -EIO : 0;
}

int uncore_create(const struct uncore_config *cfg, struct uncore **out, char *err, size_t errlen)
{
	struct uncore *u = xcalloc(1, sizeof(*u));
	const struct layout *l = cfg->layout;
	bool used = cfg->kind != CPUMODEL_UNCORE_NONE && layout_has_uncore(l);
	int rc;

	*out = NULL;
	u->cfg = *cfg;
	u->l = l;
	u->used = used;
	u->blocked = xcalloc((size_t)l->ngroups + 1, sizeof(*u->blocked));
	for (int k = 0; k < l->nevents; k++)
		if (l->events[k].channel + 1 > u->nchan)
			u->nchan = l->events[k].channel + 1;
	u->nsocks = cfg->topo->nsockets;
	u->socks = xcalloc((size_t)u->nsocks + 1, sizeof(*u->socks));
	if (cfg->kind == CPUMODEL_UNCORE_NHM)
		u->nboxes[LAYOUT_PMU_UNCORE] = 1;
	for (int i = 0; i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];

		s->index = i;
		s->reader = -1;
		s->reader = uncore_next_reader(u, s);
		s->taken = cfg->socket_taken && cfg->socket_taken[i];
		s->acc = xcalloc((size_t)l->nevents + 1, sizeof(double));
		s->live = xcalloc((size_t)l->nevents + 1, sizeof(double));
		s->moved = xcalloc((size_t)l->nevents + 1, sizeof(bool));
	}
	if (cfg->perf_mode) {
		/* the kernel programs its uncore PMUs: nothing saved, nothing enabled here */
		uncore_perf_create(u, cfg->perf, cfg->perf_access);
		*out = u;
		return 0;
	}
	if (used && cfg->kind == CPUMODEL_UNCORE_SKL) {
		uint64_t v = 0;

		/* NO_CBO_BANKS minus one is the number of slices with counters [S1 2.4.1] */
		for (int i = 0; i < u->nsocks && !v; i++)
			if (u->socks[i].reader >= 0 && uncore_rd(u, &u->socks[i], MSR_UNC_CBO_CONFIG, &v))
				v = 0;
		u->nboxes[LAYOUT_PMU_CBO] = (v & 0xF) > 1 ? (int)(v & 0xF) - 1 : 0;
		if (u->nboxes[LAYOUT_PMU_CBO] > SKL_UNC_MAX_CBO)
			u->nboxes[LAYOUT_PMU_CBO] = SKL_UNC_MAX_CBO;
		u->nboxes[LAYOUT_PMU_ARB] = 1;
	}
	for (int i = 0; used && i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];

		if (s->taken || s->reader < 0)
			continue;
		rc = uncore_setup_socket(u, s);
		if (rc) {
			snprintf(err, errlen, "%s", u->error);
			uncore_free(u);
			return rc;
		}
	}
	*out = u;
	return 0;
}

void uncore_free(struct uncore *u)
{
	if (!u)
		return;
	uncore_perf_free(u);
	for (int i = 0; i < u->nsocks; i++) {
		free(u->socks[i].acc);
		free(u->socks[i].live);
		free(u->socks[i].moved);
	}
	free(u->socks);
	free(u->sets);
	free(u->blocked);
	free(u);
}
