/*
 * emu_model_skl: the Skylake core's events (client and server parts share
 * the core), SDM Vol. 3B Table 19-4 and Intel's perfmon event data for
 * Skylake-SP: the top-down level 1 and 2 events, CYCLE_ACTIVITY,
 * EXE_ACTIVITY and the ports.  Pure functions; the table is emu_model.c's.
 */
#include "emu_model_int.h"

#include <math.h>
#include <string.h>

/* ---- Skylake client core events (SDM Vol. 3B Table 19-4; libpfm4 skl) --- */

#define SKL_SLOTS 4 /* issue width: the top-down slots per cycle */

/*
 * Top-down (per thread): the thread's slots are 4 x its unhalted cycles x
 * slot_share, its share of the core's issue cycles (1 alone; beside a busy
 * sibling the two take turns, as the vendor's formulas assume when they
 * divide the core's cycles between the threads).  Retiring is
 * UOPS_RETIRED.RETIRE_SLOTS; bad speculation is issued - retired plus 4
 * slots per recovery cycle; front-end bound is IDQ_UOPS_NOT_DELIVERED.CORE;
 * back-end bound the rest.  The truth gives frontend_bound and
 * bad_speculation as shares of the thread's slots; the recovery cycles make
 * up the part of bad_speculation the issued - retired uops do not.
 */
static double emu_skl_issued(const double *v)
{
	return emu_uops_retired(v) * v[SK_issue_ratio];
}

/* UOPS_ISSUED.ANY (0EH/01H): every uop the RAT issued. */
void emu_ev_skl_uops_issued(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_dist_binomial(d, 1 - c->v[SK_issue_stall], emu_skl_issued(c->v), SKL_SLOTS);
	emu_ev_stall_runs(c, d);
	d->exclusive = true;
}

/*
 * INT_MISC.RECOVERY_CYCLES (0DH/01H): cycles the allocator waits after a
 * clear.  The allocator serves one thread a cycle: the siblings' recovery
 * cycles never coincide, so with AnyThread (RECOVERY_CYCLES_ANY) the core's
 * count is their sum.  Each clear (a mispredict or a machine clear) starts
 * one recovery: its edges (cmask 1, edge: INT_MISC.CLEARS_COUNT, "clears
 * speculative count") are the clears.
 */
void emu_ev_skl_recovery(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const double *v = c->v;
	double wasted = (emu_skl_issued(v) - emu_uops_retired(v)) / SKL_SLOTS;
	double p = emu_clamp01(v[SK_slot_share] * v[SK_bad_speculation] - wasted);
	double clears = emu_mispredicts(v) + emu_machine_clears(v);

	emu_dist_bernoulli(d, p);
	d->exclusive = true;
	d->run_side = EMU_RUN_GE;
	d->run_len = clears > 0 && p > 0 ? fmax(1, p / clears) : 1;
}

/*
 * IDQ_UOPS_NOT_DELIVERED.CORE (9CH/01H): slots (0-4) the front end left
 * empty per cycle while the back end could take uops.  A share
 * fetch_latency_share of them come in cycles that deliver nothing (4: what
 * cmask=4, CYCLES_0_UOPS_DELIV.CORE, counts: fetch latency), the rest as
 * 0 to 3 per cycle (fetch bandwidth).
 */
void emu_ev_skl_not_delivered(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const double *v = c->v;
	double fe = emu_clamp01(v[SK_frontend_bound]) * v[SK_slot_share];
	double lat = fe * emu_clamp01(v[SK_fetch_latency_share]);
	double rest = lat < 1 ? SKL_SLOTS * (fe - lat) / (1 - lat) : 0;
	double q = emu_clamp01(rest / (SKL_SLOTS - 1));

	emu_dist_zero(d);
	if (fe <= 0)
		return;
	d->h[0] = 0;
	for (unsigned j = 0; j < SKL_SLOTS; j++) {
		double comb = j == 0 || j == 3 ? 1 : 3; /* 3 over j */

		d->h[j] = (1 - lat) * comb * pow(q, j) * pow(1 - q, SKL_SLOTS - 1 - j);
	}
	d->h[SKL_SLOTS] = lat;
}

/*
 * EXE_ACTIVITY (A6H): the executed-uops count of a cycle, 0 on the stall
 * cycles of CYCLE_ACTIVITY.STALLS_TOTAL, else 1 + Binomial(3) with the
 * thread's executed-uop rate as its mean.  Umask 02H, 04H, 08H, 10H: cycles
 * of 1, 2, 3, 4 or more uops; 40H BOUND_ON_STORES: stall cycles with the
 * store buffer full and no load outstanding; 01H EXE_BOUND_0_PORTS: the
 * other stall cycles without a load.  Bits add (disjoint cycles).
 */
void emu_ev_skl_exe_activity(const struct emu_core_ctx *c, struct emu_dist *d)
{
	struct emu_stalls s;
	double p = emu_exe_ports(c->v, c->umask & 0x1E);

	emu_stalls(c->v, &s);
	if (c->umask & 0x40)
		p += s.stores;
	if (c->umask & 0x01)
		p += s.all - s.mem - s.stores;
	emu_dist_bernoulli(d, p);
	emu_ev_stall_runs(c, d);
}

/*
 * CYCLE_ACTIVITY (A3H): umask 04H no uop executed, 10H a load outstanding,
 * 08H an L1D miss, 01H an L2 miss, 02H an L3 miss outstanding; cmask =
 * umask counts the cycles where all hold (STALLS_TOTAL 04H, STALLS_MEM_ANY
 * 14H, STALLS_L1D_MISS 0CH, STALLS_L2_MISS 05H, STALLS_L3_MISS 06H).
 * Nested as on hardware: L3-miss <= L2-miss <= L1D-miss <= memory stalls
 * <= stalls.  A truth asking for fewer stalls than its uop rate allows gets
 * the least that is possible, as UOPS_EXECUTED does on Nehalem.
 */
void emu_ev_skl_cycle_activity(const struct emu_core_ctx *c, struct emu_dist *d)
{
	struct emu_stalls s;

	emu_stalls(c->v, &s);
	emu_dist_bernoulli(d, c->umask == 0x04 ? s.all : c->umask == 0x14 ? s.mem
			   : c->umask == 0x0C ? s.l1d : c->umask == 0x05 ? s.l2 : s.l3);
	d->cond_cmask = c->umask;
	emu_ev_stall_runs(c, d);
}

/* UOPS_DISPATCHED_PORT (A1H): umask bit N = port N (0-7), at most one uop per port per cycle. */
void emu_ev_skl_ports(const struct emu_core_ctx *c, struct emu_dist *d)
{
	double rate[8], q[8];
	unsigned n = 0;

	emu_port_rates(c->v, 8, rate);
	for (unsigned p = 0; p < 8; p++)
		if (c->umask & BIT(p))
			q[n++] = emu_clamp01(rate[p]);
	emu_dist_zero(d);
	emu_poisson_binomial(q, n, d->h);
}

