/*
 * emu_model_frontend: the distributions of the table's front-end events
 * that need more than a mean a cycle: decoder 0's uops (SH_DEC0), the uops
 * the legacy decoders and the uop cache deliver a cycle and the decoders
 * busy (SH_IDQ).  Pure functions.
 */
#include "emu_model_events_int.h"

#include <math.h>

/*
 * UOPS_DECODED.DEC0: the uops decoder 0 decodes a cycle.  It takes every
 * instruction of more than one uop, and Ice Lake's Heavy_Operations counts
 * the uops beyond one a cycle (DEC0 - DEC0:c1) as the few-uop share of the
 * MITE uops: those are the heavy non-microcode slots' share of MITE's.
 */
void emu_ev_dec0(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const double *v = c->v;
	struct emu_ev_row mite = { .q = Q_MITE_UOPS };
	double mite_uops = emu_ev_q(c, &mite);
	double few = emu_clamp01(v[SK_heavy_ops_share]) * (1 - emu_clamp01(v[SK_ms_heavy_share]));

	/* extra uops (value 2 over 1) a cycle = few x MITE's uops; decoder-0 cycles a quarter of MITE's */
	emu_dist_zero(d);
	d->h[2] = emu_clamp01(few * mite_uops);
	d->h[1] = emu_clamp01(fmax(0, mite_uops / 4 - d->h[2]));
	d->h[0] = 1 - d->h[1] - d->h[2];
}

/*
 * The front end's bandwidth.  The vendor's MITE and DSB nodes are
 * (CYCLES_ANY - CYCLES_OK) / CORE_CLKS / 2: the cycles a path delivers
 * some uops but fewer than its width (CYCLES_OK's cmask: 4 on Skylake, 5
 * on Sunny Cove, 6 on Golden Cove), each losing about half of the cycle's
 * slots.  Those cycles are 2 x the node's truth (Fetch_Bandwidth x
 * fb_mite_share or fb_dsb_share, a share of the thread's slots) x
 * CORE_CLKS a cycle: CPU_CLK_UNHALTED.DISTRIBUTED, slot_share (Skylake's
 * THREAD_ANY / 2 is the same while both threads run).  Of MITE's, the
 * mite_4wide_share deliver 4 uops (Ice and Tiger Lake's MITE_4wide, where
 * the width is 5), the others fewer; the cycles at the width carry the rest
 * of the path's uops (the MITE uops of Q_MITE_UOPS, the DSB's dsb_coverage
 * of the issued).  The decoders (INST_DECODED.DECODERS) are busy in MITE's
 * cycles, decoder 0 alone in mite_dec0_alone_share of its lost cycles.
 */
static double emu_idq_dist(const struct emu_core_ctx *c, bool dsb, struct emu_dist *d)
{
	const double *v = c->v;
	unsigned w = c->m->slots_width ? c->m->slots_width : 4;
	double fb = emu_clamp01(v[SK_frontend_bound]) * (1 - emu_clamp01(v[SK_fetch_latency_share]));
	double node = fb * emu_clamp01(dsb ? v[SK_fb_dsb_share] : v[SK_fb_mite_share]);
	double p = emu_clamp01(2 * emu_clamp01(v[SK_slot_share]) * node);
	struct emu_ev_row mite = { .q = Q_MITE_UOPS };
	double u = dsb ? emu_uops_retired(v) * v[SK_issue_ratio] * emu_clamp01(v[SK_dsb_coverage])
		       : emu_ev_q(c, &mite);
	double r4 = !dsb && w > 4 ? emu_clamp01(v[SK_mite_4wide_share]) : 0;
	double x = 2, xmax = w > 4 ? 3 : w - 1, f;

	emu_dist_zero(d);
	f = (u - p * (4 * r4 + (1 - r4) * x)) / w;
	if (f < 0) {
		f = 0;
		if (p > 0 && r4 < 1)
			x = fmin(xmax, fmax(1, (u / p - 4 * r4) / (1 - r4)));
	}
	f = fmin(f, 1 - p);
	d->h[w] = f;
	d->h[4] += p * r4;
	d->h[(unsigned)x] += p * (1 - r4) * (1 - (x - floor(x)));
	if (x - floor(x) > 0)
		d->h[(unsigned)x + 1] += p * (1 - r4) * (x - floor(x));
	d->h[0] = fmax(0, 1 - p - f);
	return node;
}

void emu_ev_idq(const struct emu_core_ctx *c, const struct emu_ev_row *r, struct emu_dist *d)
{
	double mite = emu_idq_dist(c, r->q == Q_IDQ_DSB, d), busy, alone;

	if (r->q != Q_DECODERS)
		return;
	busy = 1 - d->h[0];
	alone = fmin(busy, 2 * emu_clamp01(c->v[SK_slot_share]) * mite *
		     emu_clamp01(c->v[SK_mite_dec0_alone_share]));
	emu_dist_zero(d);
	d->h[0] = 1 - busy;
	d->h[1] = alone;
	d->h[4] = busy - alone;
}
