/*
 * emu_model_tma: the top-down counters of Ice Lake and later (SDM Vol. 3B
 * "Performance Metrics"; Intel's perfmon data): fixed counter 3 counts
 * TOPDOWN.SLOTS, "the machine-width of the narrowest pipeline" per unhalted
 * cycle, "distributed among unhalted logical processors who share the same
 * physical core"; MSR_PERF_METRICS holds each top-down node's share of
 * those slots.  Pure functions; the table entry is emu_model.c's.
 */
#include "emu_model_int.h"

#include <math.h>

/*
 * TOPDOWN.SLOTS (event 00H, umask 04H, fixed counter 3): the machine's
 * slots_width x slot_share per unhalted cycle (slot_share: 1 alone, the
 * thread's turn beside busy siblings), as a two-point distribution.
 */
void emu_ev_tma_slots(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_dist_slots(d, c->m->slots_width * emu_clamp01(c->v[SK_slot_share]));
}

void emu_dist_slots(struct emu_dist *d, double mean)
{
	unsigned lo;

	emu_dist_zero(d);
	if (!(mean >= 0))
		return;
	lo = (unsigned)floor(mean);
	if (lo + 1 >= EMU_HIST_BINS)
		return;
	d->h[0] = 0;
	d->h[lo] = 1 - (mean - lo);
	d->h[lo + 1] += mean - lo;
}

void emu_model_topdown(const struct emu_machine *m, const double *v, double *frac)
{
	double slots = m->slots_width * emu_clamp01(v[SK_slot_share]);
	double ret = slots > 0 ? emu_clamp01(emu_uops_retired(v) / slots) : 0;
	double fe = emu_clamp01(v[SK_frontend_bound]), bs = emu_clamp01(v[SK_bad_speculation]);
	struct emu_stalls s;
	double be;

	/* a truth asking for more than all slots keeps retiring and shrinks the rest to fit */
	if (ret + fe + bs > 1) {
		double k = (1 - ret) / (fe + bs);

		fe *= k;
		bs *= k;
	}
	be = fmax(0, 1 - ret - fe - bs);
	/*
	 * Ice Lake and Tiger Lake (4 fields): the register keeps the slots of
	 * the clears' recovery in bad speculation, which Intel's formulas move
	 * to the back end (Backend_Bound adds, and Bad_Speculation leaves out,
	 * 5 x INT_MISC.CLEARS_COUNT / TOPDOWN.SLOTS: a machine-width of slots
	 * per clear), so the fields hold them there for the nodes to be the truth.
	 */
	if (m->perf_metrics == 4 && slots > 0) {
		double rec = fmin(be, (emu_mispredicts(v) + emu_machine_clears(v)) * m->slots_width / slots);

		be -= rec;
		bs += rec;
	}
	/* memory-bound share of the back end: stalls with a load outstanding or stores full */
	emu_stalls(v, &s);
	frac[0] = ret;
	frac[1] = bs;
	frac[2] = fe;
	frac[3] = be;
	frac[4] = ret * emu_clamp01(v[SK_heavy_ops_share]);
	frac[5] = bs * emu_clamp01(v[SK_mispredict_share]);
	frac[6] = fe * emu_clamp01(v[SK_fetch_latency_share]);
	frac[7] = be * (s.all > 0 ? emu_clamp01((s.mem + s.stores) / s.all) : 0);
}
