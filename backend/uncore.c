/*
 * uncore: programming, reading and checking the per-socket PMUs.
 * Registers: pmu_regs.h (seed 000 for Nehalem/Westmere, seed 001 for
 * Skylake client).
 */
#include "counter.h"
#include "pmu_regs.h"
#include "uncore.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNCORE_MAX_SLOTS 8            /* counters of one PMU kind on a socket, all boxes */
/* BAR + 5040H .. 5057H by offset / 4 (5040H, 5044H, 5048H, 5050H, 5054H; 504CH unused) */
#define UNCORE_IMC_COUNTERS ((SKL_IMC_DRAM_DATA_WRITES - SKL_IMC_DRAM_GT_REQUESTS) / 4 + 1)

/*
 * One bank of programmable uncore counters: event selects at EVTSEL0 + k,
 * counters at CTR0 + k, BOXES banks STRIDE apart (the CBo slices).
 */
struct uncore_bank {
	uint32_t evtsel0, ctr0, stride;
	int counters;
	unsigned width;
};

static const struct uncore_bank uncore_banks[LAYOUT_NPMUS] = {
	[LAYOUT_PMU_UNCORE] = { .evtsel0 = MSR_UNCORE_PERFEVTSEL0, .ctr0 = MSR_UNCORE_PMC0,
				.counters = NHM_UNC_COUNTERS, .width = NHM_UNC_WIDTH },
	[LAYOUT_PMU_CBO] = { .evtsel0 = MSR_UNC_CBO_0_PERFEVTSEL0, .ctr0 = MSR_UNC_CBO_0_PERFCTR0,
			     .stride = SKL_UNC_CBO_STRIDE, .counters = SKL_UNC_BOX_COUNTERS,
			     .width = SKL_UNC_WIDTH },
	[LAYOUT_PMU_ARB] = { .evtsel0 = MSR_UNC_ARB_PERFEVTSEL0, .ctr0 = MSR_UNC_ARB_PERFCTR0,
			     .counters = SKL_UNC_BOX_COUNTERS, .width = SKL_UNC_WIDTH },
};

/* Global enable and the fixed uncore clock of each uncore kind. */
static const struct uncore_kind_regs {
	uint32_t global_ctrl, fixed_ctrl, fixed_ctr;
	uint64_t global_bits, fixed_bits;
	unsigned fixed_width;
} uncore_kinds[] = {
	[CPUMODEL_UNCORE_NHM] = { .global_ctrl = MSR_UNCORE_PERF_GLOBAL_CTRL,
			     .fixed_ctrl = MSR_UNCORE_FIXED_CTR_CTRL, .fixed_ctr = MSR_UNCORE_FIXED_CTR0,
			     .global_bits = 0xFFull | NHM_UNC_GLOBAL_FIXED,
			     .fixed_bits = NHM_UNC_FIXED_EN, .fixed_width = NHM_UNC_WIDTH },
	[CPUMODEL_UNCORE_SKL] = { .global_ctrl = MSR_UNC_PERF_GLOBAL_CTRL,
			     .fixed_ctrl = MSR_UNC_PERF_FIXED_CTRL, .fixed_ctr = MSR_UNC_PERF_FIXED_CTR,
			     .global_bits = SKL_UNC_GLOBAL_EN, .fixed_bits = SKL_UNC_FIXED_CNT_EN,
			     .fixed_width = SKL_UNC_FIXED_WIDTH },
};


struct uncore_socket {
	int index;                /* topo socket index */
	int reader;               /* OS CPU its registers are reached through, -1: none online */
	bool taken;               /* someone else's: left alone */
	bool failed;              /* a register failed this interval: figures n/a */
	uint64_t prev[LAYOUT_NPMUS][UNCORE_MAX_SLOTS];
	uint64_t fixed_prev;
	uint64_t imc_prev[UNCORE_IMC_COUNTERS];
	double fixed_acc;
	double *acc, *live;       /* per layout event */
	bool *moved;              /* per layout event: counted something since the start */
	double t_start, t_last;
	int resets;
};

struct uncore {
	struct uncore_config cfg;
	const struct layout *l;
	int nboxes[LAYOUT_NPMUS];
	int nchan;                /* channels the layout counts per socket */
	struct uncore_socket *socks;
	int nsocks;
	struct counter_set *sets;
	int nsets, cur;
	uint32_t imc_groups;      /* selected IMC groups with a window to read */
	bool used;                /* a known uncore and a layout with uncore groups */
	char (*blocked)[160];
	char note[512];
	char error[512];
};

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
	if (grp->pmu == LAYOUT_PMU_IMC && !u->cfg.mmio) {
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
}

int uncore_nsets(const struct uncore *u)
{
	return u->nsets;
}

bool uncore_group_live(const struct uncore *u, int g)
{
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

static const struct counter_set *uncore_cur(const struct uncore *u)
{
	return u->nsets ? &u->sets[u->cur] : NULL;
}

/* Program set NEXT on socket S after PREV (whose counters not reused are disabled). */
static void uncore_program(struct uncore *u, struct uncore_socket *s,
			   const struct counter_set *prev, const struct counter_set *next)
{
	const struct layout *l = u->l;

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

		for (int b = 0; b < u->nboxes[ev->pmu]; b++) {
			uncore_wr(u, s, uncore_reg(bk, bk->evtsel0, b, next->ctr[i]), counter_uncore_evtsel(ev));
			uncore_wr(u, s, uncore_reg(bk, bk->ctr0, b, next->ctr[i]), 0);
			s->prev[ev->pmu][b * bk->counters + next->ctr[i]] = 0;
		}
	}
}

static unsigned uncore_imc_slot(uint32_t mmio)
{
	return (mmio - SKL_IMC_DRAM_GT_REQUESTS) / 4;
}

/* Read socket S's live counters; BASELINE: only remember the values. */
static void uncore_read_socket(struct uncore *u, struct uncore_socket *s, double t, bool baseline)
{
	const struct layout *l = u->l;
	const struct counter_set *set = uncore_cur(u);
	const struct uncore_kind_regs *kr = &uncore_kinds[u->cfg.kind];
	double elapsed = t - s->t_last;
	uint64_t v;

	/* nothing selected: not even the clock is read (it only serves uncore metrics) */
	if (!u->used || s->taken || s->reader < 0 || (!set && !u->imc_groups))
		return;
	for (int i = 0; set && i < set->nev; i++) {
		const struct layout_event *ev = &l->events[set->ev[i]];
		const struct uncore_bank *bk = &uncore_banks[ev->pmu];
		double sum = 0;
		bool ok = true;

		for (int b = 0; b < u->nboxes[ev->pmu]; b++) {
			uint64_t *prev = &s->prev[ev->pmu][b * bk->counters + set->ctr[i]];

			if (uncore_rd(u, s, uncore_reg(bk, bk->ctr0, b, set->ctr[i]), &v)) {
				ok = false;
				continue;
			}
			if (!baseline)
				sum += counter_widen(*prev, v, bk->width, elapsed, &s->resets);
			*prev = v & pmu_width_mask(bk->width);
		}
		if (baseline || !ok)
			continue;
		s->acc[set->ev[i]] += sum;
		s->live[set->ev[i]] += elapsed;
		s->moved[set->ev[i]] |= sum > 0;
	}
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

static void uncore_reset_socket(struct uncore *u, struct uncore_socket *s, double t)
{
	for (int i = 0; i < u->l->nevents; i++)
		s->acc[i] = s->live[i] = 0;
	s->fixed_acc = 0;
	s->t_start = s->t_last = t;
	s->failed = false;
	s->resets = 0;
}

/* Program socket S's current set and take its baselines. */
static void uncore_baseline_socket(struct uncore *u, struct uncore_socket *s, double t)
{
	if (!u->used || s->taken || s->reader < 0)
		return;
	/* reset first: a failed read while programming voids the interval */
	uncore_reset_socket(u, s, t);
	uncore_program(u, s, NULL, uncore_cur(u));
	uncore_read_socket(u, s, t, true);
}

void uncore_baseline(struct uncore *u, double t)
{
	u->note[0] = 0;
	for (int i = 0; i < u->nsocks; i++)
		uncore_baseline_socket(u, &u->socks[i], t);
}

void uncore_read(struct uncore *u, double t)
{
	for (int i = 0; i < u->nsocks; i++)
		uncore_read_socket(u, &u->socks[i], t, false);
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

void uncore_reset(struct uncore *u, double t)
{
	u->note[0] = 0;
	u->error[0] = 0;
	for (int i = 0; i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];
		bool stale = s->failed || s->resets;

		uncore_reset_socket(u, s, t);
		/* its last readings may predate a failed read or a reset: start it afresh */
		if (stale)
			uncore_baseline_socket(u, s, t);
	}
}

/* ---- into the sample ------------------------------------------------------ */

void uncore_fill(struct uncore *u, struct sample *s)
{
	const struct layout *l = u->l;

	s->unc_usable = uncore_usable(u);
	if (u->nchan)
		sample_add_channels(s, u->nchan);
	for (int i = 0; i < u->nsocks && i < s->nsockets; i++) {
		struct uncore_socket *us = &u->socks[i];
		double *sv = s->sockets[i].vars;
		double secs = us->t_last - us->t_start;

		for (int c = 0; c < u->nchan; c++) {
			struct sample_entity *ce = sample_channel(s, i, c);

			ce->index = c;
			ce->socket = i;
			ce->core = -1;
			ce->os_core_id = -1;
			ce->os_socket_id = s->sockets[i].os_socket_id;
		}
		s->resets += us->resets;
		/* a failed read or a reset leaves nothing true to say about the interval */
		if (!u->used || us->taken || us->reader < 0 || us->failed || us->resets || secs <= 0)
			continue; /* n/a */
		if (isnan(sv[LAYOUT_B_seconds]))
			sv[LAYOUT_B_seconds] = secs;
		sv[LAYOUT_B_uncore_clock] = us->fixed_acc;
		sv[LAYOUT_B_dram_peak] = u->cfg.channel_peak * (u->nchan ? u->nchan : u->cfg.channels);
		for (int c = 0; c < u->nchan; c++) {
			double *cv = sample_channel(s, i, c)->vars;

			cv[LAYOUT_B_seconds] = sv[LAYOUT_B_seconds];
			cv[LAYOUT_B_uncore_clock] = us->fixed_acc;
			cv[LAYOUT_B_dram_peak] = u->cfg.channel_peak;
		}
		for (int k = 0; k < l->nevents; k++) {
			const struct layout_event *ev = &l->events[k];
			double v;

			if (ev->pmu == LAYOUT_PMU_CORE || !uncore_group_live(u, ev->group))
				continue;
			/*
			 * The count over the socket's seconds (its cores' interval, which
			 * the formulas divide by), from the rate over the time counted:
			 * the uncore's own reads need not span exactly the same time.
			 */
			v = us->live[k] > 0 ? us->acc[k] * sv[LAYOUT_B_seconds] / us->live[k] : NAN;
			if (ev->channel >= 0) {
				sample_channel(s, i, ev->channel)->vars[ev->var] = v;
				sv[ev->var] = isnan(sv[ev->var]) ? v : sv[ev->var] + v;
			} else {
				sv[ev->var] = v;
			}
		}
	}
}

static void uncore_flag_group(struct sample *s, int sock, int ch, uint32_t groups, const char *why)
{
	const struct layout *l = s->layout;

	for (int m = 0; m < l->nmetrics; m++)
		if (l->metrics[m].group >= 0 && (groups & (1u << l->metrics[m].group)))
			sample_flag(s, sock, ch, m, "%s", why);
}

/* Bandwidth figures (unit B/s) of entity E above its theoretical peak PEAK. */
static void uncore_check_peak(struct sample *s, const struct sample_entity *e, int ch, double peak)
{
	const struct layout *l = s->layout;

	if (!(peak > 0))
		return;
	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		double v = sample_metric(s, e, m);

		if (mt->group < 0 || l->groups[mt->group].pmu == LAYOUT_PMU_CORE ||
		    strcmp(mt->unit, "B/s") || !(v > peak * (1 + UNCORE_PEAK_TOLERANCE)))
			continue;
		sample_flag(s, e->socket, ch, m, "%s %.2f GB/s is above the %s's theoretical peak "
			    "%.2f GB/s", mt->name, v / 1e9, ch >= 0 ? "channel" : "socket", peak / 1e9);
	}
}

/* A channel whose counter reads all ones, or has never moved while its siblings move. */
static void uncore_check_phantom(struct uncore *u, struct sample *s, int sock)
{
	const struct layout *l = u->l;
	const struct uncore_socket *us = &u->socks[sock];

	for (int k = 0; k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		const struct sample_entity *ce = sample_channel(s, sock, ev->channel);
		char busy[64] = "";
		size_t n = 0;

		if (ev->channel < 0 || !ce || !uncore_group_live(u, ev->group) || us->moved[k])
			continue;
		for (int j = 0; j < l->nevents; j++) {
			const struct layout_event *o = &l->events[j];
			const struct sample_entity *oe = sample_channel(s, sock, o->channel);

			if (j == k || o->var != ev->var || !oe || !(oe->vars[o->var] > 0))
				continue;
			n += (size_t)snprintf(busy + n, sizeof(busy) - n, "%s%d", n ? ", " : "",
					      o->channel);
			if (n >= sizeof(busy))
				break;
		}
		if (busy[0] && !sample_flag_find(s, sock, ev->channel, -1))
			sample_flag(s, sock, ev->channel, -1, "channel %d's %s has never counted "
				    "while channel %s did: no DIMM on it, or a phantom channel",
				    ev->channel, ev->name, busy);
	}
	for (int i = 0; i < (uncore_cur(u) ? uncore_cur(u)->nev : 0); i++) {
		const struct counter_set *set = uncore_cur(u);
		const struct layout_event *ev = &l->events[set->ev[i]];
		const struct uncore_bank *bk = &uncore_banks[ev->pmu];

		if (ev->channel >= 0 && us->prev[ev->pmu][set->ctr[i]] == pmu_width_mask(bk->width) &&
		    !sample_flag_find(s, sock, ev->channel, -1))
			sample_flag(s, sock, ev->channel, -1, "channel %d's %s counter reads all ones: "
				    "a phantom channel or a broken counter", ev->channel, ev->name);
	}
}

/*
 * Nehalem/Westmere: IMC reads and full-line writes against the home
 * logic's read and write requests (seed 000, Table 39 and the text above
 * it).  Recognised by encoding: UNC_QMC_NORMAL_READS 2CH, UNC_QMC_WRITES.FULL
 * 2FH umask 01H-07H, UNC_QHL_REQUESTS 20H (reads: 01H IOH, 04H remote, 10H
 * local; writes: 02H, 08H, 20H).  Only when every channel and every source
 * is counted.
 */
static void uncore_check_qhl(struct uncore *u, struct sample *s, int sock)
{
	const struct layout *l = u->l;
	double imc_r = 0, imc_w = 0, qhl_r = 0, qhl_w = 0, secs = s->sockets[sock].vars[LAYOUT_B_seconds];
	/* rotating uncore sets make every figure here a scaled estimate */
	double tol = u->nsets > 1 ? UNCORE_QHL_TOLERANCE_SCALED : UNCORE_QHL_TOLERANCE;
	double slack = UNCORE_SLACK_LINES_PER_S * secs;
	unsigned mr = 0, mw = 0, mq = 0;
	uint32_t groups = 0;
	char why[200];

	for (int k = 0; k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		const struct sample_entity *ce = sample_channel(s, sock, ev->channel);
		double v = ev->channel >= 0 ? (ce ? ce->vars[ev->var] : NAN)
					    : s->sockets[sock].vars[ev->var];

		if (ev->pmu != LAYOUT_PMU_UNCORE || !isfinite(v) || ev->cmask || ev->inv || ev->edge)
			continue;
		if (ev->event == 0x2C) {
			imc_r += v, mr |= ev->umask & 0x07;
		} else if (ev->event == 0x2F && !(ev->umask & ~0x07u)) {
			imc_w += v, mw |= ev->umask;
		} else if (ev->event == 0x20) {
			qhl_r += (ev->umask & 0x15) == ev->umask ? v : 0;
			qhl_w += (ev->umask & 0x2A) == ev->umask ? v : 0;
			mq |= (ev->umask & 0x15) == ev->umask || (ev->umask & 0x2A) == ev->umask
			      ? ev->umask : 0;
		} else {
			continue;
		}
		groups |= 1u << ev->group;
	}
	if (!(secs > 0))
		return;

	if (mr == 0x07 && (mq & 0x15) == 0x15 && imc_r > qhl_r * (1 + tol) + slack) {
		snprintf(why, sizeof(why), "the memory controller read %.3g lines/s, more than the "
			 "%.3g the home logic was asked for: the IMC cannot read more than it is asked",
			 imc_r / secs, qhl_r / secs);
		uncore_flag_group(s, sock, -1, groups, why);
	} else if (mw == 0x07 && (mq & 0x2A) == 0x2A && imc_w < qhl_w * (1 - tol) - slack) {
		snprintf(why, sizeof(why), "the memory controller wrote %.3g lines/s, fewer than the "
			 "%.3g writes the home logic received: every one of them ends in a full-line "
			 "write", imc_w / secs, qhl_w / secs);
		uncore_flag_group(s, sock, -1, groups, why);
	}
}

void uncore_check(struct uncore *u, struct sample *s)
{
	for (int i = 0; i < u->nsocks && i < s->nsockets; i++) {
		const struct uncore_socket *us = &u->socks[i];

		if (us->taken || us->reader < 0 || us->failed)
			continue;
		uncore_check_peak(s, &s->sockets[i], -1, s->sockets[i].vars[LAYOUT_B_dram_peak]);
		for (int c = 0; c < u->nchan; c++)
			uncore_check_peak(s, sample_channel(s, i, c), c, u->cfg.channel_peak);
		uncore_check_phantom(u, s, i);
		if (u->cfg.kind == CPUMODEL_UNCORE_NHM)
			uncore_check_qhl(u, s, i);
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

	for (int pmu = 0; pmu < LAYOUT_NPMUS; pmu++) {
		const struct uncore_bank *bk = &uncore_banks[pmu];

		for (int b = 0; b < u->nboxes[pmu]; b++)
			for (int k = 0; k < bk->counters; k++) {
				msr_save(u->cfg.dev, s->reader, uncore_reg(bk, bk->ctr0, b, k));
				msr_save(u->cfg.dev, s->reader, uncore_reg(bk, bk->evtsel0, b, k));
			}
	}
	msr_save(u->cfg.dev, s->reader, kr->fixed_ctr);
	if (uncore_rd(u, s, kr->fixed_ctrl, &v) || uncore_wr(u, s, kr->fixed_ctrl, v | kr->fixed_bits))
		return -EIO;
	if (uncore_rd(u, s, kr->global_ctrl, &v) || uncore_wr(u, s, kr->global_ctrl, v | kr->global_bits))
		return -EIO;
	return 0;
}

int uncore_create(const struct uncore_config *cfg, struct uncore **out, char *err, size_t errlen)
{
	struct uncore *u = xcalloc(1, sizeof(*u));
	const struct layout *l = cfg->layout;
	bool used = cfg->kind != CPUMODEL_UNCORE_NONE && layout_has_uncore(l);

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
		if (uncore_setup_socket(u, s)) {
			snprintf(err, errlen, "%s", u->error);
			uncore_free(u);
			return -EIO;
		}
	}
	*out = u;
	return 0;
}

void uncore_free(struct uncore *u)
{
	if (!u)
		return;
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
