/*
 * emu_core: how the emulated core's counters advance: the rate of each
 * programmed condition from the scenario's truth for the thread and its
 * hyper-thread siblings (cmask, inv, edge, any-thread, USR/OS shares), the
 * fixed counters as their architectural events, and binding counters to
 * accumulators when selects change.  See emu_int.h.
 */
#include "emu_int.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* ---- core: counting --------------------------------------------------------- */

/* The index + 1 of offcore value V in E's registry (added if new; 0: none, or the registry full). */
static uint64_t emu_offcore_index(struct emu *e, uint64_t v)
{
	int i;

	if (!v)
		return 0;
	pthread_mutex_lock(&e->offcore_lock);
	for (i = 0; i < e->noffcore_vals && e->offcore_vals[i] != v; i++)
		;
	if (i == e->noffcore_vals && i < EMU_MAX_OFFCORE_VALS)
		e->offcore_vals[e->noffcore_vals++] = v;
	pthread_mutex_unlock(&e->offcore_lock);
	return i < EMU_MAX_OFFCORE_VALS ? (uint64_t)i + 1 : 0;
}

/* The offcore value of index + 1 IDX (0: none). */
static uint64_t emu_offcore_value(struct emu *e, uint64_t idx)
{
	uint64_t v;

	if (!idx)
		return 0;
	pthread_mutex_lock(&e->offcore_lock);
	v = idx <= (uint64_t)e->noffcore_vals ? e->offcore_vals[idx - 1] : 0;
	pthread_mutex_unlock(&e->offcore_lock);
	return v;
}

/* Accumulator key for a core event select (emu_int.h: EMU_KEY_*), its offcore value's index inside. */
static uint64_t emu_core_key(struct emu *e, uint64_t evtsel, uint64_t offcore)
{
	uint64_t sel = evtsel & (EVTSEL_EVENT_MASK | EVTSEL_UMASK_MASK | EVTSEL_USR | EVTSEL_OS |
				 EVTSEL_EDGE | EVTSEL_ANY | EVTSEL_CMASK_MASK);

	return sel | emu_offcore_index(e, offcore) << EMU_KEY_OFFCORE_SHIFT |
	       ((evtsel & EVTSEL_UMASK2_MASK) >> EVTSEL_UMASK2_SHIFT) << EMU_KEY_UMASK2_SHIFT |
	       (evtsel & EVTSEL_EQ ? EMU_KEY_EQ : 0) |
	       ((evtsel & EVTSEL_EQ) && (evtsel & EVTSEL_INV) && (evtsel & EVTSEL_CMASK_MASK) &&
			!(evtsel & EVTSEL_EDGE) ? EMU_KEY_NE : 0) |
	       ((evtsel & AMD_EVTSEL_EVENT_HI_MASK) >> AMD_EVTSEL_EVENT_HI_SHIFT)
		       << EMU_KEY_EVENT_HI_SHIFT;
}

/*
 * The extra MSR value event select EVTSEL reads: the offcore matrix of
 * B7H/BBH or the machine's own pair (2AH/2BH), MSR_PEBS_FRONTEND's for
 * FRONTEND_RETIRED (C6H).
 */
static uint64_t emu_offcore_for(const struct emu *e, const struct emu_cpu *c, uint64_t evtsel)
{
	unsigned event = (unsigned)(evtsel & EVTSEL_EVENT_MASK);
	int r = e->m->amd ? -1 : emu_machine_offcore_reg(e->m, event);

	if (event == 0xC6 && e->m->pebs_frontend)
		return c->pebs_frontend;
	return r >= 0 ? c->offcore[r] : 0;
}

/* P(value >= C), or with EQ P(value == C) (version 6's EQ bit), with NE P(0 < value != C). */
static double emu_dist_at(const struct emu_dist *d, unsigned c, bool eq, bool ne)
{
	if (ne)
		return emu_dist_ge(d, 1) - (emu_dist_ge(d, c) - emu_dist_ge(d, c + 1));
	return eq ? emu_dist_ge(d, c) - emu_dist_ge(d, c + 1) : emu_dist_ge(d, c);
}

static double emu_ghz(const struct emu *e, const double *v)
{
	return v[SK_ghz] > 0 ? v[SK_ghz] : e->m->nominal_ghz;
}

/* Share of unhalted cycles counted under privilege mask PRIV. */
static double emu_priv_share(unsigned priv, const double *v)
{
	return (priv & EMU_PRIV_USR ? 1 - v[SK_kernel] : 0) + (priv & EMU_PRIV_OS ? v[SK_kernel] : 0);
}

/* Rate of total cycles (halted ones count as kernel time) under PRIV. */
static double emu_cycle_rate(const struct emu *e, unsigned priv, const double *v)
{
	double r = emu_ghz(e, v) * 1e9, u = v[SK_util];

	return r * ((priv & EMU_PRIV_USR ? u * (1 - v[SK_kernel]) : 0) +
		    (priv & EMU_PRIV_OS ? (1 - u) + u * v[SK_kernel] : 0));
}

/*
 * Per second on CPU C with truth V under PRIV: fixed counter 3's slots
 * (FIELD -1), or the slots of PERF_METRICS field FIELD; 0 on a machine
 * (or a hybrid's E-core) without them.
 */
static double emu_topdown_rate(const struct emu *e, const struct emu_cpu *c, unsigned priv,
			       const double *v, int field)
{
	const struct emu_machine *cm = emu_cpu_m(e, c);
	double frac[PERF_METRICS_FIELDS], slots;

	if (!cm->slots_width || !cm->perf_metrics || field >= (int)cm->perf_metrics ||
	    field >= PERF_METRICS_FIELDS)
		return 0;
	slots = emu_cycle_rate(e, priv, v) * cm->slots_width * v[SK_slot_share];
	if (field < 0)
		return slots;
	emu_model_topdown(e->m, v, frac);
	return slots * frac[field];
}

/*
 * Rate per second of the accumulator KEY on CPU C at time T.  SIB holds
 * the truth of every thread of C's core (C's own first).
 */
static double emu_core_rate(struct emu *e, const struct emu_cpu *c, uint64_t key,
			    const double (*sib)[SK_COUNT], int nsib)
{
	unsigned event = (unsigned)(key & EVTSEL_EVENT_MASK) |
			 (unsigned)(key >> EMU_KEY_EVENT_HI_SHIFT & 0xF) << 8;
	/* with version 6's UMASK2 as the umask's second byte (Lion Cove's 9-bit umasks) */
	unsigned umask = (unsigned)((key & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT) |
			 (unsigned)(key >> EMU_KEY_UMASK2_SHIFT & 0xFF) << 8;
	unsigned cmask = (unsigned)((key & EVTSEL_CMASK_MASK) >> EVTSEL_CMASK_SHIFT);
	unsigned priv = (key & EVTSEL_USR ? EMU_PRIV_USR : 0) | (key & EVTSEL_OS ? EMU_PRIV_OS : 0);
	uint64_t offcore = emu_offcore_value(e, key >> EMU_KEY_OFFCORE_SHIFT & EMU_KEY_OFFCORE_MASK);
	bool eq = key & EMU_KEY_EQ; /* the cycles the value equals cmask, not those at or above it */
	bool ne = key & EMU_KEY_NE; /* with INV: neither cmask nor 0 (emu_int.h) */
	int edge = (key & EVTSEL_EDGE) != 0, any = (key & EVTSEL_ANY) != 0;
	const double *v = sib[0];
	double r = emu_ghz(e, v) * 1e9, share = emu_priv_share(priv, v), rate, all_halted;
	struct emu_dist d, core;

	if (!priv)
		return 0;
	if (key & EMU_KEY_MPERF) /* the P0 reference clock while unhalted */
		return e->m->nominal_ghz * 1e9 * v[SK_util] * share;
	if (key & EMU_KEY_SLOTS) /* the slots (low bits 0) or a field's (1 + the field) */
		return emu_topdown_rate(e, c, priv, v, (int)(key & 0xF) - 1);
	if (!emu_model_core(emu_cpu_m(e, c), event, umask, offcore, v, &d)) {
		emu_note_unknown(e, key);
		return 0;
	}
	if (d.cond_cmask) {
		if (cmask != d.cond_cmask) {
			emu_note_unknown(e, key);
			return 0;
		}
		cmask = 1;
	}
	if (edge && cmask == 0)
		cmask = 1; /* seed 000: edge detect needs a non-zero cmask */
	if (any && d.condition && cmask == 0)
		cmask = 1; /* the cycles any thread has it: the union below */
	if (!any && !d.core_wide) {
		double p_ge = emu_dist_at(&d, cmask ? cmask : 1, eq, ne);

		if (edge) {
			double p_side = d.run_side == EMU_RUN_GE ? p_ge : 1 - p_ge;

			return r * v[SK_util] * share * p_side / d.run_len;
		}
		return r * v[SK_util] * share * (cmask ? p_ge : emu_dist_mean(&d));
	}
	/* the whole core: threads summed, each halted (value 0) outside its util */
	if (cmask == 0) {
		rate = 0;
		for (int i = 0; i < nsib; i++) {
			struct emu_dist di;

			emu_model_core(emu_cpu_m(e, c), event, umask, offcore, sib[i], &di);
			rate += emu_ghz(e, sib[i]) * 1e9 * sib[i][SK_util] * emu_dist_mean(&di);
		}
		return rate * share;
	}
	if (d.exclusive && !edge) {
		/* one thread has the core in a cycle: the core's cycles are the threads' summed */
		rate = 0;
		for (int i = 0; i < nsib; i++) {
			struct emu_dist di;

			emu_model_core(emu_cpu_m(e, c), event, umask, offcore, sib[i], &di);
			rate += sib[i][SK_util] * emu_dist_at(&di, cmask, eq, ne);
		}
		return fmin(r * share * rate, emu_cycle_rate(e, priv, v));
	}
	memset(&core, 0, sizeof(core));
	core.h[0] = 1;
	all_halted = 1;
	for (int i = 0; i < nsib; i++) {
		struct emu_dist di;

		all_halted *= 1 - sib[i][SK_util];
		emu_model_core(emu_cpu_m(e, c), event, umask, offcore, sib[i], &di);
		for (int k = 0; k < EMU_HIST_BINS; k++)
			di.h[k] *= sib[i][SK_util];
		di.h[0] += 1 - sib[i][SK_util];
		emu_dist_convolve(&core, &di, &core);
	}
	{
		double p_ge = emu_dist_at(&core, cmask, eq, ne);

		if (edge) {
			/* runs happen while the core runs: halted time is one long run, not many */
			double p_side = d.run_side == EMU_RUN_GE ? p_ge : 1 - p_ge - all_halted;

			return r * share * fmax(0, p_side) / d.run_len;
		}
		rate = r * p_ge * share;
	}
	/* never more cycles at or above cmask than cycles counted (the core's, with AnyThread) */
	return fmin(rate, any ? r * share * (1 - all_halted) : emu_cycle_rate(e, priv, v));
}

/* Fixed counter N as an equivalent event select, or 0 when it is off. */
static uint64_t emu_fixed_as_evtsel(const struct emu_cpu *c, int n)
{
	static const uint64_t events[PMU_MAX_FIXED] = {
		0xC0,         /* INST_RETIRED.ANY, seed 004 Table 19-2 */
		0x3C,         /* CPU_CLK_UNHALTED.THREAD */
		0x3C | 0x100, /* CPU_CLK_UNHALTED.REF */
		0x00 | 0x400, /* TOPDOWN.SLOTS (Intel's perfmon data: event 00H, umask 04H) */
	};
	uint64_t ctl = (c->fixed_ctrl >> FIXED_CTRL_SHIFT(n)) & 0xF;
	uint64_t sel = events[n];

	if (!(ctl & (FIXED_CTRL_OS | FIXED_CTRL_USR)))
		return 0;
	if (ctl & FIXED_CTRL_OS)
		sel |= EVTSEL_OS;
	if (ctl & FIXED_CTRL_USR)
		sel |= EVTSEL_USR;
	if (ctl & FIXED_CTRL_ANY)
		sel |= EVTSEL_ANY;
	return sel;
}

static int emu_gp_live(const struct emu *e, const struct emu_cpu *c, int i)
{
	return (c->evtsel[i] & EVTSEL_EN) &&
	       (e->m->perfmon_version < 2 || (c->global_ctrl & GLOBAL_PMC(i)));
}

static int emu_fixed_live(const struct emu_cpu *c, int i)
{
	return emu_fixed_as_evtsel(c, i) && (c->global_ctrl & GLOBAL_FIXED(i));
}

/* Truth of every thread of CPU C's core at T, C's own first; returns how many. */
static int emu_core_truth(struct emu *e, const struct emu_cpu *c, double t, double (*sib)[SK_COUNT])
{
	const struct topo_core *core = &e->topo->cores[c->core];
	int n = 1;

	scenario_eval_one(e->sc, t, SCENARIO_CPU, c->os_cpu, c->socket, sib[0]);
	for (int k = 0; k < core->nthreads && n < EMU_CORE_THREADS; k++) {
		int other = e->topo->threads[core->thread_first + k].os_cpu;

		if (other != c->os_cpu)
			scenario_eval_one(e->sc, t, SCENARIO_CPU, other, c->socket, sib[n++]);
	}
	emu_model_smt(e->m, sib, n); /* the threads share the core */
	return n;
}

/* The slots and PERF_METRICS fields per second of CPU C with truth V (machines that have them). */
static void emu_cpu_topdown_rates(const struct emu *e, struct emu_cpu *c, const double *v)
{
	c->slots_rate = emu_topdown_rate(e, c, EMU_PRIV_USR | EMU_PRIV_OS, v, -1);
	for (int k = 0; k < PERF_METRICS_FIELDS; k++)
		c->td_rate[k] = emu_topdown_rate(e, c, EMU_PRIV_USR | EMU_PRIV_OS, v, k);
}

uint64_t emu_cpu_perf_metrics(const struct emu *e, const struct emu_cpu *c)
{
	double slots = c->slots_g - c->slots_base;
	uint64_t v = 0;

	if (slots <= 0)
		return c->metrics_written; /* nothing counted since it was written */
	/* each field the share of the slots since the clear, in 1/255ths (rounded) */
	for (unsigned k = 0; k < e->m->perf_metrics && k < PERF_METRICS_FIELDS; k++) {
		double f = (c->td_g[k] - c->td_base[k]) / slots * 255.0 + 0.5;

		v |= (uint64_t)(f < 0 ? 0 : f > 255 ? 255 : f) << (8 * k);
	}
	return v;
}

void emu_cpu_clear_metrics(struct emu_cpu *c, uint64_t v)
{
	c->metrics_written = v;
	c->slots_base = c->slots_g;
	for (int k = 0; k < PERF_METRICS_FIELDS; k++)
		c->td_base[k] = c->td_g[k];
}

/* The rate of condition KEY already found in this segment, if it was. */
static bool emu_rate_seen(const struct emu_cpu *c, uint64_t key, double *rate)
{
	for (int i = 0; i < c->nseen; i++)
		if (c->seen_key[i] == key) {
			*rate = c->seen_rate[i];
			return true;
		}
	return false;
}

static void emu_rate_keep(struct emu_cpu *c, uint64_t key, double rate)
{
	if (c->nseen < EMU_RATE_SEEN) {
		c->seen_key[c->nseen] = key;
		c->seen_rate[c->nseen++] = rate;
	}
}

/*
 * Integrate CPU C's conditions from c->t to T (its counters follow in
 * emu_cpu_ctrs).  Rates are computed once per truth segment (and for an accumulator bound
 * in the middle of one, when first needed).
 */
void emu_cpu_sync(struct emu *e, struct emu_cpu *c, double t)
{
	while (c->t < t) {
		double step_end, dt;

		if (c->t >= c->seg_end) {
			c->seg_end = scenario_next_change(e->sc, c->t);
			for (int i = 0; i < EMU_MAX_ACC; i++)
				c->acc[i].rate_ok = 0;
			c->nseen = 0;
			c->seg_nsib = emu_core_truth(e, c, c->t, c->seg_truth);
			for (unsigned p = 1; p <= 3; p++)
				c->cyc_rate[p] = emu_cycle_rate(e, p, c->seg_truth[0]);
			emu_cpu_topdown_rates(e, c, c->seg_truth[0]);
		}
		step_end = fmin(t, c->seg_end);
		dt = step_end - c->t;
		for (unsigned p = 1; p <= 3; p++)
			c->cyc[p] += c->cyc_rate[p] * dt;
		/* PERF_METRICS moves with fixed counter 3 and its own global enable */
		if (emu_cpu_m(e, c)->perf_metrics && emu_fixed_live(c, 3) && (c->global_ctrl & GLOBAL_PERF_METRICS)) {
			c->slots_g += c->slots_rate * dt;
			for (int k = 0; k < PERF_METRICS_FIELDS; k++)
				c->td_g[k] += c->td_rate[k] * dt;
		}
		for (uint64_t live = c->acc_live; live; live &= live - 1) {
			struct emu_acc *a = &c->acc[__builtin_ctzll(live)];

			if (!a->rate_ok) {
				if (!emu_rate_seen(c, a->key, &a->rate)) {
					a->rate = emu_core_rate(e, c, a->key, c->seg_truth, c->seg_nsib);
					emu_rate_keep(c, a->key, a->rate);
				}
				a->rate_ok = 1;
			}
			a->g += a->rate * dt;
		}
		c->t = step_end;
	}
}

void emu_cpu_ctrs(struct emu *e, struct emu_cpu *c)
{
	int wrapped;

	if (c->ctr_t == c->t)
		return;
	c->ctr_t = c->t;
	for (int i = 0; i < (int)e->m->gp_counters; i++) {
		wrapped = 0;
		emu_ctr_update(&c->gp[i], c->acc, c->cyc, e->m->gp_width, &wrapped);
		if (wrapped)
			c->global_status |= GLOBAL_PMC(i);
	}
	for (int i = 0; i < (int)e->m->fixed_counters; i++) {
		wrapped = 0;
		emu_ctr_update(&c->fixed[i], c->acc, c->cyc, e->m->fixed_width, &wrapped);
		if (wrapped)
			c->global_status |= GLOBAL_FIXED(i);
	}
	for (int i = 0; e->m->amd && i < 3; i++)
		emu_ctr_update(&c->free[i], c->acc, c->cyc, 64, &wrapped);
}

/* (Re)bind counter CTR to event select SEL (0 or not live: stop counting). */
static void emu_ctr_bind(struct emu *e, struct emu_cpu *c, struct emu_ctr *ctr, uint64_t sel,
			 int live)
{
	uint64_t key, extra;
	unsigned priv;
	int inv;

	if (!live || !sel) {
		ctr->acc = -1;
		return;
	}
	/*
	 * The same select, extra register and enables as at the last bind, and
	 * bound: nothing to do (the CPU was synced before the write, so its last
	 * F is now's).  A rebind follows every register write: a rotation writes
	 * a dozen a CPU, and each key costs the offcore table's lock.
	 */
	extra = emu_offcore_for(e, c, sel);
	if (ctr->acc >= 0 && c->acc[ctr->acc].in_use && ctr->bound_sel == sel &&
	    ctr->bound_extra == extra)
		return;
	ctr->bound_sel = sel;
	ctr->bound_extra = extra;
	key = emu_core_key(e, sel, extra);
	priv = (sel & EVTSEL_USR ? EMU_PRIV_USR : 0) | (sel & EVTSEL_OS ? EMU_PRIV_OS : 0);
	inv = (sel & EVTSEL_INV) && (sel & EVTSEL_CMASK_MASK) && !(sel & EVTSEL_EDGE) &&
	      !(key & EMU_KEY_NE); /* (EQ with INV: counted as such, not inverted) */
	/* another select of the same condition: the count goes on */
	if (ctr->acc >= 0 && c->acc[ctr->acc].in_use && c->acc[ctr->acc].key == key &&
	    ctr->priv == priv && ctr->inv == inv)
		return;
	ctr->acc = emu_acc_find(c->acc, key);
	if (ctr->acc < 0)
		return; /* more distinct conditions than slots: this one stays at zero */
	ctr->priv = priv;
	ctr->inv = inv;
	ctr->last_f = emu_ctr_f(ctr, c->acc, c->cyc);
}

/*
 * AMD's free-running counters as conditions: instructions retired
 * (ex_ret_instr, C0H), cycles not in halt (ls_not_halted_cyc, 76H), the
 * reference clock while unhalted; every privilege level.
 */
static const uint64_t emu_free_sel[3] = {
	[EMU_FREE_IRPERF] = 0xC0 | EVTSEL_USR | EVTSEL_OS,
	[EMU_FREE_APERF] = 0x76 | EVTSEL_USR | EVTSEL_OS,
	[EMU_FREE_MPERF] = EMU_KEY_MPERF | EVTSEL_USR | EVTSEL_OS,
};

/* Bind free-running counter CTR to the condition KEY once; it keeps counting across rebinds. */
static void emu_free_bind(struct emu_cpu *c, struct emu_ctr *ctr, uint64_t key)
{
	if (ctr->acc >= 0 && c->acc[ctr->acc].in_use && c->acc[ctr->acc].key == key)
		return;
	ctr->acc = emu_acc_find(c->acc, key);
	if (ctr->acc < 0)
		return;
	ctr->priv = EMU_PRIV_USR | EMU_PRIV_OS;
	ctr->inv = 0;
	ctr->last_f = emu_ctr_f(ctr, c->acc, c->cyc);
}

void emu_cpu_rebind(struct emu *e, struct emu_cpu *c)
{
	emu_cpu_ctrs(e, c); /* what each counted up to now, as it was bound */
	for (int i = 0; i < (int)e->m->gp_counters; i++)
		emu_ctr_bind(e, c, &c->gp[i], c->evtsel[i], emu_gp_live(e, c, i));
	for (int i = 0; i < (int)e->m->fixed_counters; i++)
		emu_ctr_bind(e, c, &c->fixed[i], emu_fixed_as_evtsel(c, i), emu_fixed_live(c, i));
	for (int i = 0; e->m->amd && i < 3; i++)
		emu_free_bind(c, &c->free[i], emu_free_sel[i]);
	/* drop accumulators no counter uses any more */
	uint64_t used = 0;

	_Static_assert(EMU_MAX_ACC <= 64, "one bit an accumulator");
	for (int i = 0; i < (int)e->m->gp_counters; i++)
		used |= c->gp[i].acc >= 0 ? 1ull << c->gp[i].acc : 0;
	for (int i = 0; i < (int)e->m->fixed_counters; i++)
		used |= c->fixed[i].acc >= 0 ? 1ull << c->fixed[i].acc : 0;
	for (int i = 0; e->m->amd && i < 3; i++)
		used |= c->free[i].acc >= 0 ? 1ull << c->free[i].acc : 0;
	for (int w = 0; w < c->nwatch; w++)
		used |= c->watch_acc[w] >= 0 ? 1ull << c->watch_acc[w] : 0;
	for (int a = 0; a < EMU_MAX_ACC; a++)
		if (!(used >> a & 1))
			c->acc[a].in_use = 0;
	c->acc_live = used;
}


int emu_cpu_watch(struct emu *e, struct emu_cpu *c, uint64_t sel, double *count)
{
	/* the reference clock while unhalted (MPERF), which no select names: the tasks' time */
	uint64_t key = sel & EMU_KEY_MPERF ? EMU_KEY_MPERF | EVTSEL_USR | EVTSEL_OS
		       : sel & EMU_KEY_SLOTS ? (sel & (EMU_KEY_SLOTS | 0xF)) | EVTSEL_USR | EVTSEL_OS
		       : emu_core_key(e, sel | EVTSEL_USR | EVTSEL_OS, 0);
	int w;

	for (w = 0; w < c->nwatch && c->watch_key[w] != key; w++)
		;
	if (w == c->nwatch) {
		int a = w < EMU_MAX_WATCH ? emu_acc_find(c->acc, key) : -1;

		if (a < 0)
			return -ENOSPC;
		c->watch_key[w] = key;
		c->watch_acc[w] = a;
		c->acc_live |= 1ull << a;
		c->nwatch++;
	}
	*count = c->acc[c->watch_acc[w]].g;
	return 0;
}
