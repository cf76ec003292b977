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
 * Level 3 splits those by the scenario's causes (ea_fe_causes,
 * ea_be_causes; the machine clears by mo_clear_share).  Pure functions.
 */
#include "emu_model_int.h"
#include "pmu_regs.h"

#include <math.h>
#include <stddef.h>

/* The shares of the E-core's slots its events count (emu_model_atom_core's table). */
enum ea_share { EA_RET, EA_FE, EA_FE_LAT, EA_FE_BW, EA_BE, EA_BE_CORE, EA_BE_MEM, EA_BS,
		EA_BS_MISP, EA_BS_CLEARS, EA_FE_ICACHE, EA_FE_ITLB, EA_FE_RESTEER, EA_FE_DETECT,
		EA_ZERO, EA_BE_ALLOC, EA_BE_NON_MEM, EA_BE_SERIAL, EA_BE_ROB, EA_BS_NUKE, EA_BS_FAST,
		EA_NSHARES };

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
	{ 0x7401, EA_BE_ALLOC, false },  /* TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS: the core part's rest */
	{ 0x7408, EA_BE_NON_MEM, false }, /* TOPDOWN_BE_BOUND.NON_MEM_SCHEDULER: the RS full */
	{ 0x7410, EA_BE_SERIAL, false }, /* TOPDOWN_BE_BOUND.SERIALIZATION: scoreboards */
	{ 0x7420, EA_ZERO, false },      /* TOPDOWN_BE_BOUND.REGISTER: never full in the scenarios */
	{ 0x7440, EA_BE_ROB, false },    /* TOPDOWN_BE_BOUND.REORDER_BUFFER: the ROB full */
	/* the front end's latency by cause (BACLEARS: branch detect; BTCLEARS: resteer) */
	{ 0x7120, EA_FE_ICACHE, false }, /* TOPDOWN_FE_BOUND.ICACHE */
	{ 0x7110, EA_FE_ITLB, false },   /* TOPDOWN_FE_BOUND.ITLB */
	{ 0x7140, EA_FE_RESTEER, false }, /* TOPDOWN_FE_BOUND.BRANCH_RESTEER */
	{ 0x7102, EA_FE_DETECT, false }, /* TOPDOWN_FE_BOUND.BRANCH_DETECT */
	/* its bandwidth: the scenarios name no E-core cause: OTHER */
	{ 0x7180, EA_FE_BW, false },     /* TOPDOWN_FE_BOUND.OTHER */
	{ 0x7101, EA_ZERO, false },      /* TOPDOWN_FE_BOUND.CISC */
	{ 0x7104, EA_ZERO, false },      /* TOPDOWN_FE_BOUND.PREDECODE */
	{ 0x7108, EA_ZERO, false },      /* TOPDOWN_FE_BOUND.DECODE */
	{ 0x7301, EA_BS_NUKE, false },   /* TOPDOWN_BAD_SPECULATION.NUKE: the other machine clears */
	{ 0x7302, EA_BS_FAST, false },   /* TOPDOWN_BAD_SPECULATION.FASTNUKE: memory ordering's */
	{ 0x7402, EA_BE_MEM, false },    /* TOPDOWN_BE_BOUND.MEM_SCHEDULER: waiting on memory */
	{ 0x7300, EA_BS, false },        /* TOPDOWN_BAD_SPECULATION.ALL */
	{ 0x7304, EA_BS_MISP, false },   /* TOPDOWN_BAD_SPECULATION.MISPREDICT */
	{ 0x7303, EA_BS_CLEARS, false }, /* TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS */
};

/*
 * The front end's latency slots LAT by the E-core's four causes, in the
 * proportions the scenario gives the P-core's (instruction cache, ITLB,
 * resteers after clears, branches the predictor did not know): an E-core's
 * fetch latency has no other cause (no uop cache, no LCP).
 */
static void ea_fe_causes(const double *v, double lat, double *share)
{
	double c[4] = { v[SK_fe_icache_share], v[SK_fe_itlb_share],
			v[SK_fe_resteer_share] * (1 - v[SK_fe_unknown_branch_share]),
			v[SK_fe_resteer_share] * v[SK_fe_unknown_branch_share] };
	double sum = c[0] + c[1] + c[2] + c[3];

	share[EA_FE_ICACHE] = sum > 0 ? lat * c[0] / sum : lat;
	share[EA_FE_ITLB] = sum > 0 ? lat * c[1] / sum : 0;
	share[EA_FE_RESTEER] = sum > 0 ? lat * c[2] / sum : 0;
	share[EA_FE_DETECT] = sum > 0 ? lat * c[3] / sum : 0;
}

/*
 * The back end's core-bound slots CORE by resource: the RS, scoreboards
 * and the ROB full in the shares of the stall cycles without a load or the
 * store buffer full that the scenario gives them; the rest are the
 * allocation's other restrictions.
 */
static void ea_be_causes(const double *v, double core, double *share)
{
	double stall = emu_clamp01(v[SK_exec_stall]), other;
	double mem = fmin(v[SK_mem_stall], stall), st = fmin(v[SK_store_stall], stall - mem);
	double k, r[3] = { v[SK_rs_full_stall], v[SK_serialize_stall], v[SK_rob_full_stall] };

	other = stall - mem - st;
	k = other > 0 ? 1 / fmax(other, r[0] + r[1] + r[2]) : 0;
	share[EA_BE_NON_MEM] = core * r[0] * k;
	share[EA_BE_SERIAL] = core * r[1] * k;
	share[EA_BE_ROB] = core * r[2] * k;
	share[EA_BE_ALLOC] = core - share[EA_BE_NON_MEM] - share[EA_BE_SERIAL] - share[EA_BE_ROB];
}

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
		share[EA_BS_FAST] = share[EA_BS_CLEARS] * emu_clamp01(v[SK_mo_clear_share]);
		share[EA_BS_NUKE] = share[EA_BS_CLEARS] - share[EA_BS_FAST];
		share[EA_ZERO] = 0;
		ea_fe_causes(v, frac[6], share);
		ea_be_causes(v, share[EA_BE_CORE], share);
		emu_dist_slots(d, m->slots_width * share[ea_events[i].share]);
		return true;
	}
	/* the rest (Gracemont's UOPS_RETIRED.X87 is C2H/02H): the architectural events' rows */
	return false;
}
