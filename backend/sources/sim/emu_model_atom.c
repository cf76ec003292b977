/*
 * emu_model_atom: the E-core's own events of Intel's hybrid CPUs (Intel's
 * perfmon data for Gracemont, Alder Lake's E-cores, whose top-down level 1
 * and 2 Intel's E-core metrics in the kernel's perf tool read): each
 * counts issue slots by reason, E_SLOTS_WIDTH (5) "every cycle", of which
 * the retiring ones (TOPDOWN_RETIRING.ALL), those "not consumed by the
 * backend due to frontend stalls" (TOPDOWN_FE_BOUND.ALL, its latency and
 * bandwidth parts), "due to backend stalls" (TOPDOWN_BE_BOUND.ALL, the
 * allocation restrictions and the memory scheduler of it) and those "wasted
 * due to a mispredicted jump or a machine clear" (TOPDOWN_BAD_SPECULATION,
 * which Gracemont counts by kind only).  The shares come from the thread's
 * truth as for a P-core's PERF_METRICS (emu_model_topdown) over the E-core's
 * own slots, so that both kinds show one truth through their own events.
 * Skymont (Lunar Lake's E-cores, 8 slots) counts level 1 with the
 * architectural _P events instead (9CH/01H, C2H/02H, A4H/02H).
 * The finer nodes (the front end's causes, the back end's other resources)
 * are not modelled: zero, listed as unknown encodings.  Pure functions.
 */
#include "emu_model_int.h"
#include "pmu_regs.h"

#include <math.h>

/* A count of MEAN slots a cycle (0 .. the width), as a two-point distribution. */
static void ea_slots(struct emu_dist *d, double mean)
{
	unsigned lo;

	emu_dist_zero(d);
	if (!(mean > 0))
		return;
	lo = (unsigned)floor(mean);
	if (lo + 1 >= EMU_HIST_BINS)
		return;
	d->h[0] = 0;
	d->h[lo] = 1 - (mean - lo);
	d->h[lo + 1] += mean - lo;
}

bool emu_model_atom_core(const struct emu_machine *m, unsigned event, unsigned umask,
			 const double *v, struct emu_dist *d)
{
	double frac[PERF_METRICS_FIELDS], w = m->slots_width, mem_share, be;
	double one[SK_COUNT];

	/* an E-core has no SMT: its slots are its own */
	for (int k = 0; k < SK_COUNT; k++)
		one[k] = v[k];
	one[SK_slot_share] = 1;
	emu_model_topdown(m, one, frac);
	be = frac[3];
	mem_share = be > 0 ? frac[7] / be : 0;
	if (m->hybrid && m->hybrid->e_skymont) {
		/* Skymont: level 1 as the architectural _P events (and the old codes, "NON_ARCH") */
		switch (event << 8 | umask) {
		case 0xC202: /* TOPDOWN_RETIRING.ALL_P */
			ea_slots(d, w * frac[0]);
			return true;
		case 0x9C01: /* TOPDOWN_FE_BOUND.ALL_P */
			ea_slots(d, w * frac[2]);
			return true;
		case 0xA402: /* TOPDOWN_BE_BOUND.ALL_P */
			ea_slots(d, w * be);
			return true;
		case 0xC200: /* UOPS_RETIRED.ALL: a slot each */
			ea_slots(d, w * frac[0]);
			return true;
		}
	} else if (event == 0xC2 && umask != 0) {
		return false; /* Gracemont's UOPS_RETIRED.X87 and the like */
	}
	switch (event << 8 | umask) {
	case 0xC200: /* TOPDOWN_RETIRING.ALL */
		ea_slots(d, w * frac[0]);
		return true;
	case 0x7100: /* TOPDOWN_FE_BOUND.ALL */
		ea_slots(d, w * frac[2]);
		return true;
	case 0x7172: /* TOPDOWN_FE_BOUND.FRONTEND_LATENCY */
		ea_slots(d, w * frac[6]);
		return true;
	case 0x718D: /* TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH */
		ea_slots(d, w * (frac[2] - frac[6]));
		return true;
	case 0x7400: /* TOPDOWN_BE_BOUND.ALL */
		ea_slots(d, w * be);
		return true;
	case 0x7401: /* TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS: the core-bound part */
		ea_slots(d, w * be * (1 - mem_share));
		return true;
	case 0x7402: /* TOPDOWN_BE_BOUND.MEM_SCHEDULER: waiting on memory */
		ea_slots(d, w * be * mem_share);
		return true;
	case 0x7300: /* TOPDOWN_BAD_SPECULATION.ALL */
		ea_slots(d, w * frac[1]);
		return true;
	case 0x7304: /* TOPDOWN_BAD_SPECULATION.MISPREDICT */
		ea_slots(d, w * frac[5]);
		return true;
	case 0x7303: /* TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS */
		ea_slots(d, w * (frac[1] - frac[5]));
		return true;
	}
	return false;
}
