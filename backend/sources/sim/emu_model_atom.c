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

#include <stddef.h>

/* The shares of the E-core's slots its events count (emu_model_atom_core's table). */
enum ea_share { EA_RET, EA_FE, EA_FE_LAT, EA_FE_BW, EA_BE, EA_BE_CORE, EA_BE_MEM, EA_BS,
		EA_BS_MISP, EA_BS_CLEARS, EA_NSHARES };

/* Each event (EVENT << 8 | UMASK) and the share it counts; SKYMONT: Skymont's code alone. */
static const struct {
	unsigned code;
	enum ea_share share;
	bool skymont;
} ea_events[] = {
	{ 0xC202, EA_RET, true },        /* TOPDOWN_RETIRING.ALL_P */
	{ 0x9C01, EA_FE, true },         /* TOPDOWN_FE_BOUND.ALL_P */
	{ 0xA402, EA_BE, true },         /* TOPDOWN_BE_BOUND.ALL_P */
	{ 0xC200, EA_RET, false },       /* TOPDOWN_RETIRING.ALL (Skymont: UOPS_RETIRED.ALL, a slot each) */
	{ 0x7100, EA_FE, false },        /* TOPDOWN_FE_BOUND.ALL (Skymont: ALL_NON_ARCH) */
	{ 0x7172, EA_FE_LAT, false },    /* TOPDOWN_FE_BOUND.FRONTEND_LATENCY */
	{ 0x718D, EA_FE_BW, false },     /* TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH */
	{ 0x7400, EA_BE, false },        /* TOPDOWN_BE_BOUND.ALL (Skymont: ALL_NON_ARCH) */
	{ 0x7401, EA_BE_CORE, false },   /* TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS: the core-bound part */
	{ 0x7402, EA_BE_MEM, false },    /* TOPDOWN_BE_BOUND.MEM_SCHEDULER: waiting on memory */
	{ 0x7300, EA_BS, false },        /* TOPDOWN_BAD_SPECULATION.ALL */
	{ 0x7304, EA_BS_MISP, false },   /* TOPDOWN_BAD_SPECULATION.MISPREDICT */
	{ 0x7303, EA_BS_CLEARS, false }, /* TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS */
};

bool emu_model_atom_core(const struct emu_machine *m, unsigned event, unsigned umask,
			 const double *v, struct emu_dist *d)
{
	bool skymont = m->hybrid && m->hybrid->e_skymont;
	double frac[PERF_METRICS_FIELDS], one[SK_COUNT], share[EA_NSHARES], be, mem;

	for (size_t i = 0; i < sizeof(ea_events) / sizeof(ea_events[0]); i++) {
		if (ea_events[i].code != (event << 8 | umask) || (ea_events[i].skymont && !skymont))
			continue;
		/* an E-core has no SMT: its slots are its own */
		for (int k = 0; k < SK_COUNT; k++)
			one[k] = v[k];
		one[SK_slot_share] = 1;
		emu_model_topdown(m, one, frac);
		be = frac[3];
		mem = be > 0 ? frac[7] / be : 0;
		share[EA_RET] = frac[0];
		share[EA_FE] = frac[2];
		share[EA_FE_LAT] = frac[6];
		share[EA_FE_BW] = frac[2] - frac[6];
		share[EA_BE] = be;
		share[EA_BE_CORE] = be * (1 - mem);
		share[EA_BE_MEM] = be * mem;
		share[EA_BS] = frac[1];
		share[EA_BS_MISP] = frac[5];
		share[EA_BS_CLEARS] = frac[1] - frac[5];
		emu_dist_slots(d, m->slots_width * share[ea_events[i].share]);
		return true;
	}
	/* the rest (Gracemont's UOPS_RETIRED.X87 is C2H/02H): the architectural events' rows */
	return false;
}
