/*
 * emu_model_events: the core events of Ice Lake and later P-cores that the
 * vendor's top-down tree reads below its PERF_METRICS levels, as a table.
 *
 * Each row is one event as Intel's perfmon data encodes it (the row's name
 * is the vendor's EventName; tests/check_emu.c holds every row to the
 * platform's file in data/intel/), the truth quantity its description
 * names, and how that quantity shows per cycle (its shape).  A quantity is
 * worked out once from a thread's truth, whatever the event's spelling on
 * a core: Ice Lake's CYCLE_ACTIVITY.STALLS_L2_MISS and Sapphire Rapids'
 * MEMORY_ACTIVITY.STALLS_L2_MISS are two rows of one quantity.  A new core
 * whose events name known quantities is rows only.
 *
 * The quantities follow the descriptions' words:
 *   stalls      cycles no uop executes (CYCLE_ACTIVITY.STALLS_TOTAL), of
 *               them those with a load outstanding (STALLS_MEM_ANY,
 *               EXE_ACTIVITY.BOUND_ON_LOADS), an L1D / L2 / L3 miss
 *               outstanding (nested: L3 <= L2 <= L1D <= memory <= all),
 *               the store buffer full and no load (BOUND_ON_STORES), a
 *               serializing operation (RESOURCE_STALLS.SCOREBOARD, which
 *               leaves the RS empty: RS.EMPTY_RESOURCE) and the rest
 *               (EXE_BOUND_0_PORTS: RS not empty, no load, SB not full);
 *   ports       cycles with 1, 2, 3, 4 or more uops executed, the executed
 *               uops a cycle 1 + Binomial(3) with the thread's mean;
 *   front end   the fetch-latency cycles (the cycles the front end
 *               delivers nothing, as IDQ_UOPS_NOT_DELIVERED counts them)
 *               split by cause: instruction cache misses, ITLB misses,
 *               resteers after clears and unknown branches (a BAClear
 *               costs the 10 cycles the vendor's Branch_Resteers charges),
 *               length-changing prefixes, DSB-to-MITE switches, switches
 *               to the microcode sequencer (3 cycles each, the vendor's
 *               MS_Switches);
 *   clears      the mispredicted branches retired, and as many machine
 *               clears as make them the scenario's mispredict_share of all
 *               clears (the share Ice Lake's Branch_Mispredicts takes);
 *   retiring    uops retired, issued, executed; the microcode sequencer's
 *               uops (ms_heavy_share of the heavy-operation slots), x87,
 *               FP instructions by width, memory uops, macro-fused pairs;
 *   loads       retired loads by where they hit.
 * What the scenarios never do counts 0 by description (AMX, FP16, integer
 * vector code, C0.2 waits, dropped uops).  Pure functions.
 */
#include "emu_model_int.h"
#include "pmu_regs.h"

#include <math.h>

enum emu_q {
	Q_ZERO,
	Q_STALLS, Q_STALLS_MEM, Q_STALLS_L1D, Q_STALLS_L2, Q_STALLS_L3, Q_STALLS_STORES,
	Q_STALLS_SERIAL, Q_STALLS_CORE,
	Q_EXE_PORTS,     /* ARG: bit k = cycles with k uops executed (bit 4: 4 or more) */
	Q_DIV,
	Q_FE_ICACHE, Q_FE_ITLB, Q_FE_CLEAR_RESTEER, Q_FE_UNKNOWN_BRANCH, Q_FE_BACLEARS,
	Q_FE_LCP, Q_FE_DSB_SWITCH, Q_FE_0_UOPS,
	Q_CLEARS, Q_MACHINE_CLEARS, Q_MO_CLEARS,
	Q_UOPS_RETIRED, Q_UOPS_ISSUED, Q_UOPS_EXECUTED, Q_UOPS_X87,
	Q_MS_RETIRED, Q_MS_ISSUED, Q_MITE_UOPS, Q_DEC0,
	Q_FP,            /* ARG: FP_ARITH_INST_RETIRED's umask bits */
	Q_MEM_UOPS, Q_MACRO_FUSED,
	Q_LOADS,         /* MEM_LOAD_RETIRED's umask bits */
	Q_FB_FULL, Q_ALL_LOADS, Q_ALL_STORES,
};

/* How a quantity shows per unhalted cycle. */
enum emu_shape {
	SH_COND,  /* a condition of the cycle: Bernoulli; the row's cmask (if any) asks for it */
	SH_RATE,  /* events a cycle, at most one a cycle */
	SH_EDGES, /* events a cycle counted as the edges of a condition (cmask 1, edge) */
	SH_UOPS,  /* uops a cycle, up to the machine's width, none in the stall cycles */
	SH_MS,    /* microcode uops: 4 a cycle in runs, a run per switch */
	SH_DEC0,  /* decoder 0's uops: 1 on its cycles, 2 on a few-uop instruction's */
};

#define SNC (1u << EMU_PORTS_SUNNY_COVE)  /* Ice Lake, Tiger Lake */
#define GLC (1u << EMU_PORTS_GOLDEN_COVE) /* Sapphire and Granite Rapids, Alder Lake's P-cores */
#define SRV (1u << 8)                     /* only the servers' cores (AMX, FP16) */
#define GLC_SRV (GLC | SRV)

static const struct emu_ev_row {
	unsigned cores;
	const char *name; /* the vendor's EventName */
	unsigned event, umask, cmask;
	enum emu_shape shape;
	enum emu_q q;
	unsigned arg;
	/*
	 * The umask is a set of bits (FP_ARITH_INST_RETIRED: one per width and
	 * precision; MEM_LOAD_RETIRED: one per source): the row answers every
	 * non-empty subset, and NAME is the family's (each member NAME.*).
	 */
	bool bits;
} emu_ev_rows[] = {
	/* the back end's stalls */
	{ SNC | GLC, "CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, 4, SH_COND, Q_STALLS, 0, false },
	{ SNC, "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x14, 20, SH_COND, Q_STALLS_MEM, 0, false },
	{ SNC, "CYCLE_ACTIVITY.STALLS_L1D_MISS", 0xA3, 0x0C, 12, SH_COND, Q_STALLS_L1D, 0, false },
	{ SNC, "CYCLE_ACTIVITY.STALLS_L2_MISS", 0xA3, 0x05, 5, SH_COND, Q_STALLS_L2, 0, false },
	{ SNC, "CYCLE_ACTIVITY.STALLS_L3_MISS", 0xA3, 0x06, 6, SH_COND, Q_STALLS_L3, 0, false },
	{ GLC, "EXE_ACTIVITY.BOUND_ON_LOADS", 0xA6, 0x21, 5, SH_COND, Q_STALLS_MEM, 0, false },
	{ GLC, "MEMORY_ACTIVITY.STALLS_L1D_MISS", 0x47, 0x03, 3, SH_COND, Q_STALLS_L1D, 0, false },
	{ GLC, "MEMORY_ACTIVITY.STALLS_L2_MISS", 0x47, 0x05, 5, SH_COND, Q_STALLS_L2, 0, false },
	{ GLC, "MEMORY_ACTIVITY.STALLS_L3_MISS", 0x47, 0x09, 9, SH_COND, Q_STALLS_L3, 0, false },
	{ SNC | GLC, "EXE_ACTIVITY.BOUND_ON_STORES", 0xA6, 0x40, 2, SH_COND, Q_STALLS_STORES, 0, false },
	{ SNC | GLC, "EXE_ACTIVITY.EXE_BOUND_0_PORTS", 0xA6, 0x80, 0, SH_COND, Q_STALLS_CORE, 0, false },
	/* Ice Lake's metrics ask for the same cycles as EXE_ACTIVITY.3_PORTS_UTIL with umask 80H */
	{ SNC, "EXE_ACTIVITY.3_PORTS_UTIL:u0x80", 0xA6, 0x80, 0, SH_COND, Q_STALLS_CORE, 0, false },
	/* (the first of two rows of one encoding answers: both are the same quantity) */
	{ SNC | GLC, "L1D_PEND_MISS.FB_FULL", 0x48, 0x02, 0, SH_COND, Q_FB_FULL, 0, false },
	{ SNC | GLC, "RESOURCE_STALLS.SCOREBOARD", 0xA2, 0x02, 0, SH_COND, Q_STALLS_SERIAL, 0, false },
	{ GLC, "RS.EMPTY_RESOURCE", 0xA5, 0x01, 0, SH_COND, Q_STALLS_SERIAL, 0, false },
	{ SNC | GLC, "EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, 0, SH_COND, Q_EXE_PORTS, 1u << 1, false },
	{ SNC | GLC, "EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, 0, SH_COND, Q_EXE_PORTS, 1u << 2, false },
	{ SNC | GLC, "EXE_ACTIVITY.3_PORTS_UTIL", 0xA6, 0x08, 0, SH_COND, Q_EXE_PORTS, 1u << 3, false },
	{ GLC, "EXE_ACTIVITY.2_3_PORTS_UTIL", 0xA6, 0x0C, 0, SH_COND, Q_EXE_PORTS, 3u << 2, false },
	{ SNC, "ARITH.DIVIDER_ACTIVE", 0x14, 0x09, 1, SH_COND, Q_DIV, 0, false },
	{ GLC, "ARITH.DIV_ACTIVE", 0xB0, 0x09, 1, SH_COND, Q_DIV, 0, false },
	{ GLC, "CPU_CLK_UNHALTED.C02", 0xEC, 0x20, 0, SH_COND, Q_ZERO, 0, false },
	{ GLC_SRV, "EXE.AMX_BUSY", 0xB7, 0x02, 0, SH_COND, Q_ZERO, 0, false },
	/* the front end's latency */
	{ SNC | GLC, "ICACHE_DATA.STALLS", 0x80, 0x04, 0, SH_COND, Q_FE_ICACHE, 0, false },
	{ SNC | GLC, "ICACHE_TAG.STALLS", 0x83, 0x04, 0, SH_COND, Q_FE_ITLB, 0, false },
	{ SNC, "INT_MISC.CLEAR_RESTEER_CYCLES", 0x0D, 0x80, 0, SH_COND, Q_FE_CLEAR_RESTEER, 0, false },
	{ GLC, "INT_MISC.CLEAR_RESTEER_CYCLES", 0xAD, 0x80, 0, SH_COND, Q_FE_CLEAR_RESTEER, 0, false },
	{ GLC, "INT_MISC.UNKNOWN_BRANCH_CYCLES", 0xAD, 0x40, 0, SH_COND, Q_FE_UNKNOWN_BRANCH, 0, false },
	{ SNC, "BACLEARS.ANY", 0xE6, 0x01, 0, SH_RATE, Q_FE_BACLEARS, 0, false },
	{ GLC, "BACLEARS.ANY", 0x60, 0x01, 0, SH_RATE, Q_FE_BACLEARS, 0, false },
	{ SNC | GLC, "DECODE.LCP", 0x87, 0x01, 0, SH_COND, Q_FE_LCP, 0, false },
	{ SNC, "DSB2MITE_SWITCHES.PENALTY_CYCLES", 0xAB, 0x02, 0, SH_COND, Q_FE_DSB_SWITCH, 0, false },
	{ GLC, "DSB2MITE_SWITCHES.PENALTY_CYCLES", 0x61, 0x02, 0, SH_COND, Q_FE_DSB_SWITCH, 0, false },
	{ SNC, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0x9C, 0x01, 5, SH_COND, Q_FE_0_UOPS, 0,
	  false },
	{ SNC, "INT_MISC.UOP_DROPPING", 0x0D, 0x10, 0, SH_RATE, Q_ZERO, 0, false },
	{ GLC, "INT_MISC.UOP_DROPPING", 0xAD, 0x10, 0, SH_RATE, Q_ZERO, 0, false },
	/* clears */
	{ SNC, "INT_MISC.CLEARS_COUNT", 0x0D, 0x01, 1, SH_EDGES, Q_CLEARS, 0, false },
	{ GLC, "INT_MISC.CLEARS_COUNT", 0xAD, 0x01, 1, SH_EDGES, Q_CLEARS, 0, false },
	{ SNC | GLC, "MACHINE_CLEARS.COUNT", 0xC3, 0x01, 1, SH_EDGES, Q_MACHINE_CLEARS, 0, false },
	{ SNC | GLC, "MACHINE_CLEARS.MEMORY_ORDERING", 0xC3, 0x02, 0, SH_RATE, Q_MO_CLEARS, 0, false },
	/* retiring */
	{ SNC | GLC, "UOPS_RETIRED.SLOTS", 0xC2, 0x02, 0, SH_UOPS, Q_UOPS_RETIRED, 0, false },
	{ SNC, "UOPS_ISSUED.ANY", 0x0E, 0x01, 0, SH_UOPS, Q_UOPS_ISSUED, 0, false },
	{ GLC, "UOPS_ISSUED.ANY", 0xAE, 0x01, 0, SH_UOPS, Q_UOPS_ISSUED, 0, false },
	{ SNC | GLC, "UOPS_EXECUTED.THREAD", 0xB1, 0x01, 0, SH_UOPS, Q_UOPS_EXECUTED, 0, false },
	{ SNC | GLC, "UOPS_EXECUTED.X87", 0xB1, 0x10, 0, SH_RATE, Q_UOPS_X87, 0, false },
	{ GLC, "UOPS_RETIRED.MS", 0xC2, 0x04, 0, SH_MS, Q_MS_RETIRED, 0, false },
	{ SNC, "IDQ.MS_UOPS", 0x79, 0x30, 0, SH_MS, Q_MS_ISSUED, 0, false },
	{ SNC, "IDQ.MITE_UOPS", 0x79, 0x04, 0, SH_RATE, Q_MITE_UOPS, 0, false },
	{ SNC, "UOPS_DECODED.DEC0", 0x56, 0x01, 0, SH_DEC0, Q_DEC0, 0, false },
	{ SNC | GLC, "FP_ARITH_INST_RETIRED", 0xC7, 0xFF, 0, SH_RATE, Q_FP, 0, true },
	{ GLC_SRV, "FP_ARITH_INST_RETIRED2", 0xCF, 0x1F, 0, SH_RATE, Q_ZERO, 0, true },
	{ GLC, "INT_VEC_RETIRED", 0xE7, 0xFF, 0, SH_RATE, Q_ZERO, 0, true },
	{ SNC, "MEM_INST_RETIRED.ANY", 0xD0, 0x83, 0, SH_RATE, Q_MEM_UOPS, 0, false },
	{ SNC | GLC, "MEM_INST_RETIRED.ALL_LOADS", 0xD0, 0x81, 0, SH_RATE, Q_ALL_LOADS, 0, false },
	{ SNC | GLC, "MEM_INST_RETIRED.ALL_STORES", 0xD0, 0x82, 0, SH_RATE, Q_ALL_STORES, 0, false },
	{ GLC, "MEM_UOP_RETIRED.ANY", 0xE5, 0x03, 0, SH_RATE, Q_MEM_UOPS, 0, false },
	{ GLC, "INST_RETIRED.MACRO_FUSED", 0xC0, 0x10, 0, SH_RATE, Q_MACRO_FUSED, 0, false },
	{ SNC | GLC, "MEM_LOAD_RETIRED", 0xD1, 0x7F, 0, SH_RATE, Q_LOADS, 0, true },
};

static bool emu_ev_row_matches(const struct emu_ev_row *r, unsigned event, unsigned umask)
{
	if (r->event != event)
		return false;
	return r->bits ? umask && !(umask & ~r->umask) : umask == r->umask;
}

/* The stall cycles, nested as the descriptions nest them (see emu_ev_skl_cycle_activity). */
struct emu_stalls {
	double all, mem, l1d, l2, l3, stores, serial, core;
};

static void emu_stalls(const double *v, struct emu_stalls *s)
{
	s->all = fmax(v[SK_exec_stall], 1 - emu_uops_retired(v) * v[SK_exec_ratio]);
	s->all = emu_clamp01(s->all);
	s->mem = fmin(v[SK_mem_stall], s->all);
	s->l3 = fmin(v[SK_l3_miss_stall], s->mem);
	s->l1d = fmin(fmax(v[SK_l1d_miss_stall], s->l3), s->mem);
	s->l2 = fmin(fmax(v[SK_l2_miss_stall], s->l3), s->l1d);
	s->stores = fmin(v[SK_store_stall], s->all - s->mem);
	s->serial = fmin(v[SK_serialize_stall], s->all - s->mem - s->stores);
	s->core = fmax(0, s->all - s->mem - s->stores - s->serial);
}

/* Cycles with k uops executed, for each bit k of BITS (4: four or more), as EXE_ACTIVITY counts. */
static double emu_exe_ports(const double *v, unsigned bits)
{
	struct emu_stalls s;
	double exec = emu_uops_retired(v) * v[SK_exec_ratio], q, p = 0;

	emu_stalls(v, &s);
	q = s.all < 1 ? emu_clamp01((exec / (1 - s.all) - 1) / 3) : 0;
	for (unsigned k = 1; k <= 4; k++)
		if (bits & (1u << k)) {
			double comb = k == 1 || k == 4 ? 1 : 3; /* 3 over k - 1 */

			p += (1 - s.all) * comb * pow(q, k - 1) * pow(1 - q, 4 - k);
		}
	return p;
}

/*
 * The thread's fetch-latency cycles per unhalted cycle: the front end
 * delivers it nothing, and it loses its slots of the cycle, so the cycles'
 * share is Fetch_Latency's share of its slots, and each cause's cycles
 * (ICACHE_DATA.STALLS, ...) add up to that node.  The core-wide count of
 * cycles with no uop delivered (CYCLES_0_UOPS_DELIV.CORE, which Ice Lake's
 * Fetch_Latency multiplies by the machine's width and divides by the
 * thread's slots) is the thread's turn of those: x slot_share.
 */
static double emu_fe_latency(const double *v)
{
	return emu_clamp01(v[SK_frontend_bound]) * emu_clamp01(v[SK_fetch_latency_share]);
}

double emu_mispredicts(const double *v)
{
	return v[SK_ipc] * v[SK_branch_per_inst] * v[SK_branch_miss_ratio];
}

double emu_machine_clears(const double *v)
{
	double ms = v[SK_mispredict_share];

	return ms > 0 ? emu_mispredicts(v) * (1 - ms) / ms : 0;
}

/* The microcode sequencer's uops retired per cycle. */
static double emu_ms_uops(const struct emu_machine *m, const double *v)
{
	double slots = m->slots_width * emu_clamp01(v[SK_slot_share]);
	double frac[8];

	emu_model_topdown(m, v, frac);
	return frac[0] * slots * emu_clamp01(v[SK_heavy_ops_share]) * emu_clamp01(v[SK_ms_heavy_share]);
}

/*
 * FP_ARITH_INST_RETIRED umask bits: 01H scalar double, 02H scalar single,
 * 04H/08H 128-bit double/single, 10H/20H 256, 40H/80H 512.
 */
static double emu_fp(const double *v, unsigned bits)
{
	double single = emu_clamp01(v[SK_fp_single_share]), w256 = emu_clamp01(v[SK_fp_256_share]);
	double w512 = fmin(emu_clamp01(v[SK_fp_512_share]), 1 - w256), w128 = 1 - w256 - w512;
	double sc = v[SK_fp_scalar_per_inst], vec = v[SK_fp_vector_per_inst];
	const double share[8] = { sc * (1 - single), sc * single, vec * w128 * (1 - single),
				  vec * w128 * single, vec * w256 * (1 - single), vec * w256 * single,
				  vec * w512 * (1 - single), vec * w512 * single };
	double per_inst = 0;

	for (unsigned b = 0; b < 8; b++)
		if (bits & (1u << b))
			per_inst += share[b];
	return v[SK_ipc] * per_inst;
}

/*
 * MEM_LOAD_RETIRED umask bits: 01H L1_HIT, 02H L2_HIT, 04H L3_HIT, 08H
 * L1_MISS, 10H L2_MISS, 20H L3_MISS, 40H FB_HIT; per cycle.  Each retired
 * load has one source: the L1D, a fill buffer, the L2, the L3, memory.
 */
static double emu_loads(const struct emu_core_ctx *c, unsigned bits)
{
	const double *v = c->v;
	double per_s = c->cycles_per_s > 0 ? 1 / c->cycles_per_s : 0;
	double l1 = v[SK_ipc] * v[SK_l1_hit_loads_per_inst], fb = v[SK_ipc] * v[SK_fb_hit_loads_per_inst];
	double l2 = v[SK_ipc] * v[SK_l2_hit_loads_per_inst], l3 = v[SK_l3_hit_loads_per_s] * per_s;
	double dram = (v[SK_local_dram_loads_per_s] + v[SK_remote_dram_loads_per_s]) * per_s;
	double n = 0;

	n += bits & 0x01 ? l1 : 0;
	n += bits & 0x02 ? l2 : 0;
	n += bits & 0x04 ? l3 : 0;
	n += bits & 0x08 ? l2 + l3 + dram : 0;
	n += bits & 0x10 ? l3 + dram : 0;
	n += bits & 0x20 ? dram : 0;
	n += bits & 0x40 ? fb : 0;
	return n;
}

static double emu_ev_q(const struct emu_core_ctx *c, const struct emu_ev_row *r)
{
	const double *v = c->v;
	struct emu_stalls s;
	double fe = emu_fe_latency(v), issued = emu_uops_retired(v) * v[SK_issue_ratio];

	emu_stalls(v, &s);
	switch (r->q) {
	case Q_ZERO: return 0;
	case Q_STALLS: return s.all;
	case Q_STALLS_MEM: return s.mem;
	case Q_STALLS_L1D: return s.l1d;
	case Q_STALLS_L2: return s.l2;
	case Q_STALLS_L3: return s.l3;
	case Q_STALLS_STORES: return s.stores;
	case Q_STALLS_SERIAL: return s.serial;
	case Q_STALLS_CORE: return s.core;
	case Q_EXE_PORTS: return emu_exe_ports(v, r->arg);
	case Q_DIV: return v[SK_div_busy];
	case Q_FE_ICACHE: return fe * v[SK_fe_icache_share];
	case Q_FE_ITLB: return fe * v[SK_fe_itlb_share];
	case Q_FE_CLEAR_RESTEER: return fe * v[SK_fe_resteer_share] * (1 - v[SK_fe_unknown_branch_share]);
	case Q_FE_UNKNOWN_BRANCH: return fe * v[SK_fe_resteer_share] * v[SK_fe_unknown_branch_share];
	case Q_FE_BACLEARS: return fe * v[SK_fe_resteer_share] * v[SK_fe_unknown_branch_share] / 10;
	case Q_FE_LCP: return fe * v[SK_fe_lcp_share];
	case Q_FE_DSB_SWITCH: return fe * v[SK_fe_dsb_switch_share];
	case Q_FE_0_UOPS: return fe * emu_clamp01(v[SK_slot_share]);
	case Q_CLEARS: return emu_mispredicts(v) + emu_machine_clears(v);
	case Q_MACHINE_CLEARS: return emu_machine_clears(v);
	case Q_MO_CLEARS: return emu_machine_clears(v) * v[SK_mo_clear_share];
	case Q_UOPS_RETIRED: return emu_uops_retired(v);
	case Q_UOPS_ISSUED: return issued;
	case Q_UOPS_EXECUTED: return emu_uops_retired(v) * v[SK_exec_ratio];
	case Q_UOPS_X87: return emu_uops_retired(v) * v[SK_exec_ratio] * v[SK_x87_share];
	case Q_MS_RETIRED: return emu_ms_uops(c->m, v);
	case Q_MS_ISSUED: return emu_ms_uops(c->m, v) * v[SK_issue_ratio];
	case Q_MITE_UOPS: return fmax(0, issued * (1 - v[SK_dsb_coverage]) -
				      emu_ms_uops(c->m, v) * v[SK_issue_ratio]);
	case Q_DEC0: return 0; /* SH_DEC0 works it out */
	case Q_FP: return emu_fp(v, c->umask);
	case Q_MEM_UOPS: return emu_uops_retired(v) * v[SK_mem_uops_share];
	case Q_MACRO_FUSED: return v[SK_ipc] * v[SK_macro_fused_per_inst];
	case Q_LOADS: return emu_loads(c, c->umask);
	case Q_FB_FULL: return emu_clamp01(v[SK_fb_full_stall]);
	/* the retired loads are those of MEM_LOAD_RETIRED's sources; the other memory uops store */
	case Q_ALL_LOADS: return fmin(emu_loads(c, 0x01 | 0x08 | 0x40), emu_uops_retired(v));
	case Q_ALL_STORES: return fmax(0, emu_uops_retired(v) * v[SK_mem_uops_share] -
				       emu_loads(c, 0x01 | 0x08 | 0x40));
	}
	return 0;
}

/*
 * UOPS_DECODED.DEC0: the uops decoder 0 decodes a cycle.  It takes every
 * instruction of more than one uop, and Ice Lake's Heavy_Operations counts
 * the uops beyond one a cycle (DEC0 - DEC0:c1) as the few-uop share of the
 * MITE uops: those are the heavy non-microcode slots' share of MITE's.
 */
static void emu_ev_dec0(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const double *v = c->v;
	struct emu_ev_row mite = { .q = Q_MITE_UOPS };
	double frac[8], mite_uops = emu_ev_q(c, &mite), few;

	emu_model_topdown(c->m, v, frac);
	few = frac[0] > 0 ? emu_clamp01(v[SK_heavy_ops_share]) * (1 - emu_clamp01(v[SK_ms_heavy_share]))
			  : 0;
	/* extra uops (value 2 over 1) a cycle = few x MITE's uops; decoder-0 cycles a quarter of MITE's */
	emu_dist_zero(d);
	d->h[2] = emu_clamp01(few * mite_uops);
	d->h[1] = emu_clamp01(fmax(0, mite_uops / 4 - d->h[2]));
	d->h[0] = 1 - d->h[1] - d->h[2];
}

bool emu_model_events(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const struct emu_machine *m = c->m;

	if (m->ports == EMU_PORTS_NONE || m->e_core)
		return false;
	for (size_t i = 0; i < sizeof(emu_ev_rows) / sizeof(emu_ev_rows[0]); i++) {
		const struct emu_ev_row *r = &emu_ev_rows[i];
		double q;

		if (!(r->cores & (1u << m->ports)) || ((r->cores & SRV) && !m->l3_miss_sources) ||
		    !emu_ev_row_matches(r, c->event, c->umask))
			continue;
		q = emu_ev_q(c, r);
		emu_dist_zero(d);
		switch (r->shape) {
		case SH_COND:
			emu_dist_bernoulli(d, q);
			d->cond_cmask = r->cmask;
			emu_ev_stall_runs(c, d);
			if (r->q == Q_DIV) { /* busy runs of one divide each */
				d->run_len = c->v[SK_div_latency];
				d->run_side = EMU_RUN_GE;
			}
			if (r->q == Q_FB_FULL) /* a wait for a fill buffer lasts stall_len */
				d->run_side = EMU_RUN_GE;
			break;
		case SH_RATE:
			emu_dist_bernoulli(d, q);
			break;
		case SH_EDGES:
			/* each event a run of one cycle: cmask 1 with edge counts the events */
			emu_dist_bernoulli(d, q);
			d->run_len = 1;
			d->run_side = EMU_RUN_GE;
			break;
		case SH_UOPS:
			emu_dist_binomial(d, fmin(1, fmax(q / m->slots_width, 1 - (r->q == Q_UOPS_RETIRED
					? c->v[SK_retire_stall] : r->q == Q_UOPS_ISSUED
					? c->v[SK_issue_stall] : c->v[SK_exec_stall]))),
					  q, m->slots_width);
			break;
		case SH_MS: {
			/* 4 uops a cycle while it delivers; a run per switch (fe_ms_switch_share / 3) */
			double switches = emu_fe_latency(c->v) * c->v[SK_fe_ms_switch_share] / 3;
			double cyc = emu_clamp01(q / 4);

			if (r->q == Q_MS_RETIRED)
				switches /= c->v[SK_issue_ratio]; /* retired: the issued runs, fewer */
			d->h[0] = 1 - cyc;
			d->h[4] = cyc;
			d->run_len = switches > 0 ? fmax(1, cyc / switches) : 1;
			d->run_side = EMU_RUN_GE;
			break;
		}
		case SH_DEC0:
			emu_ev_dec0(c, d);
			break;
		}
		return true;
	}
	return false;
}

/* The table, for tests: row I's name, encoding and cores (false past the end). */
bool emu_model_event_row(size_t i, const char **name, unsigned *event, unsigned *umask,
			 unsigned *cmask, bool *bits, bool *sunny_cove, bool *golden_cove, bool *server)
{
	if (i >= sizeof(emu_ev_rows) / sizeof(emu_ev_rows[0]))
		return false;
	*name = emu_ev_rows[i].name;
	*event = emu_ev_rows[i].event;
	*umask = emu_ev_rows[i].umask;
	*cmask = emu_ev_rows[i].cmask;
	*bits = emu_ev_rows[i].bits;
	*sunny_cove = emu_ev_rows[i].cores & SNC;
	*golden_cove = emu_ev_rows[i].cores & GLC;
	*server = emu_ev_rows[i].cores & SRV;
	return true;
}
