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
 *               MS_Switches); its bandwidth: the cycles the legacy
 *               decoders (MITE) and the uop cache (DSB) deliver fewer
 *               uops than their width, decoder 0 alone (emu_ev_idq);
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
#include "emu_model_events_int.h"

#include <math.h>

#define SNC (1u << EMU_PORTS_SUNNY_COVE)  /* Ice Lake, Tiger Lake */
#define GLC_ (1u << EMU_PORTS_GOLDEN_COVE) /* Sapphire and Granite Rapids, Alder Lake's P-cores */
#define LNC (1u << EMU_PORTS_LION_COVE)   /* Lunar and Arrow Lake's P-cores */
#define SKL (1u << EMU_PORTS_SKYLAKE)     /* Skylake client and server (with emu_model_skl.c) */
#define ZEN (1u << EMU_PORTS_ZEN)         /* AMD Zen 2 to 5 (with emu_model_amd.c) */
/* Golden Cove's encodings, Lion Cove's the same where its data has the event */
#define GLC (GLC_ | LNC)
#define SRV (1u << 8) /* only the servers' cores (AMX, FP16) */
#define GLC_SRV (GLC_ | SRV)

static const struct emu_ev_row emu_ev_rows[] = {
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
	{ SNC | GLC | SKL, "L1D_PEND_MISS.FB_FULL", 0x48, 0x02, 0, SH_COND, Q_FB_FULL, 0, false },
	{ SNC | GLC_, "RESOURCE_STALLS.SCOREBOARD", 0xA2, 0x02, 0, SH_COND, Q_STALLS_SERIAL, 0, false },
	{ LNC, "BE_STALLS.SCOREBOARD", 0xA2, 0x02, 0, SH_COND, Q_STALLS_SERIAL, 0, false },
	{ GLC, "RS.EMPTY_RESOURCE", 0xA5, 0x01, 0, SH_COND, Q_STALLS_SERIAL, 0, false },
	{ SNC | GLC, "EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, 0, SH_COND, Q_EXE_PORTS, 1u << 1, false },
	{ SNC | GLC, "EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, 0, SH_COND, Q_EXE_PORTS, 1u << 2, false },
	{ SNC | GLC, "EXE_ACTIVITY.3_PORTS_UTIL", 0xA6, 0x08, 0, SH_COND, Q_EXE_PORTS, 1u << 3, false },
	{ GLC, "EXE_ACTIVITY.2_3_PORTS_UTIL", 0xA6, 0x0C, 0, SH_COND, Q_EXE_PORTS, 3u << 2, false },
	{ SNC, "ARITH.DIVIDER_ACTIVE", 0x14, 0x09, 1, SH_COND, Q_DIV, 0, false },
	{ SNC, "ARITH.FP_DIVIDER_ACTIVE", 0x14, 0x01, 1, SH_COND, Q_FP_DIV, 0, false },
	{ SKL, "ARITH.DIVIDER_ACTIVE", 0x14, 0x01, 1, SH_COND, Q_DIV, 0, false },
	{ SKL, "PARTIAL_RAT_STALLS.SCOREBOARD", 0x59, 0x01, 0, SH_COND, Q_STALLS_SERIAL, 0, false },
	{ SKL, "UOPS_RETIRED.MACRO_FUSED", 0xC2, 0x04, 0, SH_RATE, Q_MACRO_FUSED, 0, false },
	{ GLC, "ARITH.FPDIV_ACTIVE", 0xB0, 0x01, 1, SH_COND, Q_FP_DIV, 0, false },
	{ LNC, "MEMORY_STALLS.L1", 0x46, 0x01, 0, SH_COND, Q_BOUND_L1, 0, false },
	{ LNC, "MEMORY_STALLS.L2", 0x46, 0x02, 0, SH_COND, Q_BOUND_L2, 0, false },
	{ LNC, "MEMORY_STALLS.L3", 0x46, 0x04, 0, SH_COND, Q_BOUND_L3, 0, false },
	{ LNC, "MEMORY_STALLS.MEM", 0x46, 0x08, 0, SH_COND, Q_STALLS_L3, 0, false },
	{ LNC, "L1D_MISS.FB_FULL", 0x49, 0x02, 0, SH_COND, Q_FB_FULL, 0, false },
	{ LNC, "L1D_MISS.L2_STALLS", 0x49, 0x04, 0, SH_COND, Q_ZERO, 0, false },
	{ GLC, "ARITH.DIV_ACTIVE", 0xB0, 0x09, 1, SH_COND, Q_DIV, 0, false },
	{ GLC, "CPU_CLK_UNHALTED.C02", 0xEC, 0x20, 0, SH_COND, Q_ZERO, 0, false },
	{ GLC_SRV, "EXE.AMX_BUSY", 0xB7, 0x02, 0, SH_COND, Q_ZERO, 0, false },
	/* the front end's latency */
	{ SNC | GLC, "ICACHE_DATA.STALLS", 0x80, 0x04, 0, SH_COND, Q_FE_ICACHE, 0, false },
	/*
	 * Skylake's ICache_Misses adds 2 cycles a miss to the stall cycles it
	 * counts: the stalls are the rest, in runs of stall_len (a run a miss)
	 */
	{ SKL, "ICACHE_16B.IFDATA_STALL", 0x80, 0x04, 0, SH_COND, Q_FE_ICACHE_SKL, 0, false },
	{ SNC | GLC | SKL, "ICACHE_TAG.STALLS", 0x83, 0x04, 0, SH_COND, Q_FE_ITLB, 0, false },
	{ SNC | SKL, "INT_MISC.CLEAR_RESTEER_CYCLES", 0x0D, 0x80, 0, SH_COND, Q_FE_CLEAR_RESTEER, 0, false },
	{ GLC, "INT_MISC.CLEAR_RESTEER_CYCLES", 0xAD, 0x80, 0, SH_COND, Q_FE_CLEAR_RESTEER, 0, false },
	{ GLC, "INT_MISC.UNKNOWN_BRANCH_CYCLES", 0xAD, 0x40, 0, SH_COND, Q_FE_UNKNOWN_BRANCH, 0, false },
	{ SNC | SKL, "BACLEARS.ANY", 0xE6, 0x01, 0, SH_RATE, Q_FE_BACLEARS, 0, false },
	{ GLC, "BACLEARS.ANY", 0x60, 0x01, 0, SH_RATE, Q_FE_BACLEARS, 0, false },
	{ SNC | GLC | SKL, "DECODE.LCP", 0x87, 0x01, 0, SH_COND, Q_FE_LCP, 0, false },
	{ SNC | SKL, "DSB2MITE_SWITCHES.PENALTY_CYCLES", 0xAB, 0x02, 0, SH_COND, Q_FE_DSB_SWITCH, 0, false },
	{ GLC, "DSB2MITE_SWITCHES.PENALTY_CYCLES", 0x61, 0x02, 0, SH_COND, Q_FE_DSB_SWITCH, 0, false },
	{ SNC, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0x9C, 0x01, 5, SH_COND, Q_FE_0_UOPS, 0,
	  false },
	{ SNC, "INT_MISC.UOP_DROPPING", 0x0D, 0x10, 0, SH_RATE, Q_ZERO, 0, false },
	{ GLC, "INT_MISC.UOP_DROPPING", 0xAD, 0x10, 0, SH_RATE, Q_ZERO, 0, false },
	/* the memory's bandwidth and latency (Little's law over the scenario's lines and latencies) */
	{ GLC, "OFFCORE_REQUESTS_OUTSTANDING.DATA_RD", 0x20, 0x08, 0, SH_OCC, Q_OCC_DATA_RD, 0, false },
	{ SNC | SKL, "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD", 0x60, 0x08, 0, SH_OCC, Q_OCC_DATA_RD, 0, false },
	{ GLC, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x20, 0x01, 0, SH_OCC, Q_OCC_DEMAND_RD, 0, false },
	{ SNC | SKL, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", 0x60, 0x01, 0, SH_OCC, Q_OCC_DEMAND_RD, 0, false },
	{ GLC, "OFFCORE_REQUESTS_OUTSTANDING.L3_MISS_DEMAND_DATA_RD", 0x20, 0x10, 0, SH_OCC,
	  Q_OCC_L3_MISS_DEMAND_RD, 0, false },
	{ GLC, "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_RFO", 0x20, 0x04, 1, SH_COND, Q_CYCLES_RFO, 0,
	  false },
	{ SNC | SKL, "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_RFO", 0x60, 0x04, 1, SH_COND, Q_CYCLES_RFO, 0,
	  false },
	{ GLC, "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_CODE_RD", 0x20, 0x02, 1, SH_COND,
	  Q_CYCLES_CODE_RD, 0, false },
	{ SNC | SKL, "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_CODE_RD", 0x60, 0x02, 1, SH_COND,
	  Q_CYCLES_CODE_RD, 0, false },
	{ GLC, "OFFCORE_REQUESTS.DEMAND_DATA_RD", 0x21, 0x01, 0, SH_RATE, Q_REQ_DEMAND_RD, 0, false },
	{ SNC | SKL, "OFFCORE_REQUESTS.DEMAND_DATA_RD", 0xB0, 0x01, 0, SH_RATE, Q_REQ_DEMAND_RD, 0, false },
	{ GLC, "OFFCORE_REQUESTS.L3_MISS_DEMAND_DATA_RD", 0x21, 0x10, 0, SH_RATE, Q_REQ_L3_MISS_DEMAND_RD, 0,
	  false },
	{ SNC | SKL, "OFFCORE_REQUESTS.ALL_DATA_RD", 0xB0, 0x08, 0, SH_RATE, Q_REQ_DATA_RD, 0, false },
	{ GLC, "OFFCORE_REQUESTS.ALL_REQUESTS", 0x21, 0x80, 0, SH_RATE, Q_REQ_ALL, 0, false },
	{ SNC | SKL, "OFFCORE_REQUESTS.ALL_REQUESTS", 0xB0, 0x80, 0, SH_RATE, Q_REQ_ALL, 0, false },
	{ SNC | GLC_ | SKL, "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0, SH_OCC, Q_OCC_L1D_MISS, 0, false },
	{ LNC, "L1D_PENDING.LOAD", 0x48, 0x01, 0, SH_OCC, Q_OCC_L1D_MISS, 0, false },
	{ SNC | GLC | SKL, "CYCLE_ACTIVITY.CYCLES_MEM_ANY", 0xA3, 0x10, 16, SH_COND, Q_CYCLES_MEM_ANY, 0, false },
	{ SNC | SKL, "CYCLE_ACTIVITY.CYCLES_L1D_MISS", 0xA3, 0x08, 8, SH_COND, Q_CYCLES_L1D_MISS, 0, false },
	{ GLC, "MEMORY_ACTIVITY.CYCLES_L1D_MISS", 0x47, 0x02, 2, SH_COND, Q_CYCLES_L1D_MISS, 0, false },
	{ GLC_, "XQ.FULL_CYCLES", 0x2D, 0x01, 1, SH_COND, Q_SQ_FULL, 0, false },
	{ LNC, "XQ.FULL", 0x2D, 0x01, 1, SH_COND, Q_SQ_FULL, 0, false },
	{ GLC, "L1D_PEND_MISS.L2_STALLS", 0x48, 0x04, 0, SH_COND, Q_ZERO, 0, false },
	{ SNC, "L1D_PEND_MISS.L2_STALL", 0x48, 0x04, 0, SH_COND, Q_SQ_FULL, 0, false },
	{ GLC_SRV, "INT_MISC.MBA_STALLS", 0xAD, 0x20, 0, SH_COND, Q_ZERO, 0, false },
	/*
	 * the TLBs: STLB hits, the walker (one walk at a time: pending = active),
	 * the walks by page size (bits 02H 4K, 04H 2M/4M, 08H 1G)
	 */
	{ SNC | SKL, "DTLB_LOAD_MISSES.STLB_HIT", 0x08, 0x20, 0, SH_RATE, Q_STLB_HITS, TLB_LOAD, false },
	{ SNC | SKL, "DTLB_LOAD_MISSES.WALK_PENDING", 0x08, 0x10, 0, SH_RATE, Q_WALK_ACTIVE, TLB_LOAD, false },
	{ SNC | SKL, "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x08, 0x0E, 0, SH_RATE, Q_WALKS, TLB_LOAD, true },
	{ GLC, "DTLB_LOAD_MISSES.STLB_HIT", 0x12, 0x20, 0, SH_RATE, Q_STLB_HITS, TLB_LOAD, false },
	{ GLC, "DTLB_LOAD_MISSES.WALK_PENDING", 0x12, 0x10, 0, SH_RATE, Q_WALK_ACTIVE, TLB_LOAD, false },
	{ GLC, "DTLB_LOAD_MISSES.WALK_COMPLETED", 0x12, 0x0E, 0, SH_RATE, Q_WALKS, TLB_LOAD, true },
	{ SNC | SKL, "DTLB_STORE_MISSES.STLB_HIT", 0x49, 0x20, 0, SH_RATE, Q_STLB_HITS, TLB_STORE, false },
	{ SNC | SKL, "DTLB_STORE_MISSES.WALK_PENDING", 0x49, 0x10, 0, SH_RATE, Q_WALK_ACTIVE, TLB_STORE, false },
	{ SNC | SKL, "DTLB_STORE_MISSES.WALK_COMPLETED", 0x49, 0x0E, 0, SH_RATE, Q_WALKS, TLB_STORE, true },
	{ GLC, "DTLB_STORE_MISSES.STLB_HIT", 0x13, 0x20, 0, SH_RATE, Q_STLB_HITS, TLB_STORE, false },
	{ GLC, "DTLB_STORE_MISSES.WALK_PENDING", 0x13, 0x10, 0, SH_RATE, Q_WALK_ACTIVE, TLB_STORE, false },
	{ GLC, "DTLB_STORE_MISSES.WALK_COMPLETED", 0x13, 0x0E, 0, SH_RATE, Q_WALKS, TLB_STORE, true },
	{ SNC | SKL, "ITLB_MISSES.WALK_PENDING", 0x85, 0x10, 0, SH_RATE, Q_WALK_ACTIVE, TLB_CODE, false },
	{ SNC | SKL, "ITLB_MISSES.WALK_COMPLETED", 0x85, 0x0E, 0, SH_RATE, Q_WALKS, TLB_CODE, true },
	{ GLC, "ITLB_MISSES.WALK_PENDING", 0x11, 0x10, 0, SH_RATE, Q_WALK_ACTIVE, TLB_CODE, false },
	{ GLC, "ITLB_MISSES.WALK_COMPLETED", 0x11, 0x0E, 0, SH_RATE, Q_WALKS, TLB_CODE, true },
	/* branches by kind, retired and mispredicted */
	/* (Lion Cove splits the taken conditionals into forward and backward: not modelled) */
	{ SNC | GLC_, "BR_INST_RETIRED", 0xC4, 0x7B, 0, SH_RATE, Q_BRANCHES, 0, true },
	{ SNC | GLC_, "BR_MISP_RETIRED", 0xC5, 0xFF, 0, SH_RATE, Q_MISPREDICTS, 0, true },
	/* Skylake's: 01H COND (taken or not), 10H NOT_TAKEN */
	{ SKL, "BR_INST_RETIRED", 0xC4, 0x7B, 0, SH_RATE, Q_BRANCHES_SKL, 0, true },
	{ SNC | GLC | SKL, "INST_RETIRED.NOP", 0xC0, 0x02, 0, SH_RATE, Q_NOPS, 0, false },
	/* AMD Zen (12-bit event selects): what emu_model_amd.c does not count */
	{ ZEN, "ls_l1_d_tlb_miss.all", 0x45, 0xFF, 0, SH_RATE, Q_DTLB_MISSES, 0, false },
	{ ZEN, "ls_l1_d_tlb_miss.all_l2_miss", 0x45, 0xF0, 0, SH_RATE, Q_DTLB_WALKS, 0, false },
	{ ZEN, "l2_dtlb_misses", 0x45, 0xF0, 0, SH_RATE, Q_DTLB_WALKS, 0, false }, /* Zen 2's name */
	{ ZEN, "bp_l1_tlb_miss_l2_tlb_hit", 0x84, 0x00, 0, SH_RATE, Q_ITLB_L2_HITS, 0, false },
	{ ZEN, "bp_l1_tlb_miss_l2_hit", 0x84, 0x00, 0, SH_RATE, Q_ITLB_L2_HITS, 0, false }, /* Zen 2's name */
	{ ZEN, "ic_tag_hit_miss.all_instruction_cache_accesses", 0x18E, 0x1F, 0, SH_RATE, Q_IC_FETCHES, 0,
	  false },
	{ ZEN, "ic_tag_hit_miss.instruction_cache_miss", 0x18E, 0x18, 0, SH_RATE, Q_IC_MISSES, 0, false },
	{ ZEN, "op_cache_hit_miss.all_op_cache_accesses", 0x28F, 0x07, 0, SH_RATE, Q_IC_FETCHES, 0, false },
	{ ZEN, "op_cache_hit_miss.op_cache_miss", 0x28F, 0x04, 0, SH_RATE, Q_OC_MISSES, 0, false },
	/* no TLB flushes in the scenarios, by any of the generations' names and umasks */
	{ ZEN, "ls_tlb_flush", 0x78, 0xFF, 0, SH_RATE, Q_ZERO, 0, true },
	{ ZEN, "all_tlbs_flushed", 0x78, 0xFF, 0, SH_RATE, Q_ZERO, 0, true },
	{ ZEN, "fp_disp_faults.sse_avx_all", 0x0E, 0x0E, 0, SH_RATE, Q_ZERO, 0, false },
	{ ZEN, "sse_avx_stalls", 0x0E, 0x0E, 0, SH_RATE, Q_ZERO, 0, false }, /* Zen 2: no SSE/AVX mixing */
	{ ZEN, "de_dis_cops_from_decoder.disp_op_type.any_fp_dispatch", 0xAB, 0x04, 0, SH_RATE, Q_FP_OPS, 0,
	  false },
	{ ZEN, "de_dis_cops_from_decoder.disp_op_type.any_integer_dispatch", 0xAB, 0x08, 0, SH_UOPS,
	  Q_INT_OPS, 0, false },
	/* Zen 4's and Zen 5's names of the same */
	{ ZEN, "de_dis_ops_from_decoder.any_fp_dispatch", 0xAB, 0x04, 0, SH_RATE, Q_FP_OPS, 0, false },
	{ ZEN, "de_dis_ops_from_decoder.disp_op_type.any_integer_dispatch", 0xAB, 0x08, 0, SH_UOPS,
	  Q_INT_OPS, 0, false },
	{ ZEN, "de_dis_ops_from_decoder.any_integer_dispatch", 0xAB, 0x08, 0, SH_UOPS, Q_INT_OPS, 0, false },
	/* what a scenario key names directly: events an instruction, or cycles */
	{ SNC | GLC | SKL, "MEM_INST_RETIRED.LOCK_LOADS", 0xD0, 0x21, 0, SH_RATE, Q_PER_INST,
	  SK_lock_loads_per_inst, false },
	{ SNC | GLC | SKL, "MEM_INST_RETIRED.SPLIT_LOADS", 0xD0, 0x41, 0, SH_RATE, Q_PER_INST,
	  SK_split_loads_per_inst, false },
	{ SNC | GLC | SKL, "MEM_INST_RETIRED.SPLIT_STORES", 0xD0, 0x42, 0, SH_RATE, Q_PER_INST,
	  SK_split_stores_per_inst, false },
	{ SNC | SKL, "LD_BLOCKS.STORE_FORWARD", 0x03, 0x02, 0, SH_RATE, Q_PER_INST,
	  SK_store_fwd_blocks_per_inst, false },
	{ GLC, "LD_BLOCKS.STORE_FORWARD", 0x03, 0x82, 0, SH_RATE, Q_PER_INST, SK_store_fwd_blocks_per_inst,
	  false },
	{ SNC, "ASSISTS.ANY", 0xC1, 0x07, 0, SH_RATE, Q_PER_INST, SK_assists_per_inst, false },
	{ GLC_, "ASSISTS.ANY", 0xC1, 0x1B, 0, SH_RATE, Q_PER_INST, SK_assists_per_inst, false },
	{ LNC, "ASSISTS.ANY", 0xC1, 0x1F, 0, SH_RATE, Q_PER_INST, SK_assists_per_inst, false },
	{ SKL, "OTHER_ASSISTS.ANY", 0xC1, 0x3F, 0, SH_RATE, Q_PER_INST, SK_assists_per_inst, false },
	{ SNC | GLC, "ASSISTS", 0xC1, 0x1F, 0, SH_RATE, Q_ASSISTS, 0, true },
	{ SNC | SKL, "LD_BLOCKS.NO_SR", 0x03, 0x08, 0, SH_RATE, Q_PER_INST, SK_no_sr_blocks_per_inst, false },
	{ GLC, "LD_BLOCKS.NO_SR", 0x03, 0x88, 0, SH_RATE, Q_PER_INST, SK_no_sr_blocks_per_inst, false },
	{ SNC | SKL, "LD_BLOCKS_PARTIAL.ADDRESS_ALIAS", 0x07, 0x01, 0, SH_RATE, Q_PER_INST,
	  SK_alias_blocks_per_inst, false },
	{ SNC, "MISC_RETIRED.PAUSE_INST", 0xCC, 0x40, 0, SH_RATE, Q_PAUSE_INST, 0, false },
	{ GLC_, "FP_ARITH_DISPATCHED", 0xB3, 0x07, 0, SH_RATE, Q_FP_DISPATCHED, 0, true },
	{ LNC, "FP_ARITH_DISPATCHED", 0xB3, 0x0F, 0, SH_RATE, Q_FP_DISPATCHED, 1, true },
	/* what the scenarios never do: REP string iterations, C0.1/C0.2 waits, uncacheable loads, split locks, SSE/AVX mixing */
	{ GLC, "INST_RETIRED.REP_ITERATION", 0xC0, 0x08, 0, SH_RATE, Q_ZERO, 0, false },
	{ GLC, "CPU_CLK_UNHALTED.C0_WAIT", 0xEC, 0x70, 0, SH_COND, Q_ZERO, 0, false },
	{ SNC | GLC | SKL, "MEM_LOAD_MISC_RETIRED.UC", 0xD4, 0x04, 0, SH_RATE, Q_ZERO, 0, false },
	{ SNC, "SQ_MISC.BUS_LOCK", 0xF4, 0x10, 0, SH_RATE, Q_ZERO, 0, false },
	{ GLC, "SQ_MISC.BUS_LOCK", 0x2C, 0x10, 0, SH_RATE, Q_ZERO, 0, false },
	{ SNC | SKL, "UOPS_ISSUED.VECTOR_WIDTH_MISMATCH", 0x0E, 0x02, 0, SH_RATE, Q_ZERO, 0, false },
	{ GLC, "LOCK_CYCLES.CACHE_LOCK_DURATION", 0x42, 0x02, 0, SH_COND, Q_KEY_CYCLES, SK_lock_cycles,
	  false },
	{ GLC, "MISC2_RETIRED.LFENCE", 0xE0, 0x20, 0, SH_RATE, Q_PER_INST, SK_lfence_per_inst, false },
	{ GLC, "CPU_CLK_UNHALTED.PAUSE", 0xEC, 0x40, 0, SH_COND, Q_KEY_CYCLES, SK_pause_cycles, false },
	{ GLC, "CPU_CLK_UNHALTED.C01", 0xEC, 0x10, 0, SH_COND, Q_ZERO, 0, false },
	/* clears */
	{ SNC, "INT_MISC.CLEARS_COUNT", 0x0D, 0x01, 1, SH_EDGES, Q_CLEARS, 0, false },
	{ GLC, "INT_MISC.CLEARS_COUNT", 0xAD, 0x01, 1, SH_EDGES, Q_CLEARS, 0, false },
	{ SNC | GLC | SKL, "MACHINE_CLEARS.COUNT", 0xC3, 0x01, 1, SH_EDGES, Q_MACHINE_CLEARS, 0, false },
	{ SNC | GLC | SKL, "MACHINE_CLEARS.MEMORY_ORDERING", 0xC3, 0x02, 0, SH_RATE, Q_MO_CLEARS, 0, false },
	/* retiring */
	{ SNC | GLC, "UOPS_RETIRED.SLOTS", 0xC2, 0x02, 0, SH_UOPS, Q_UOPS_RETIRED, 0, false },
	{ SNC, "UOPS_ISSUED.ANY", 0x0E, 0x01, 0, SH_UOPS, Q_UOPS_ISSUED, 0, false },
	{ GLC, "UOPS_ISSUED.ANY", 0xAE, 0x01, 0, SH_UOPS, Q_UOPS_ISSUED, 0, false },
	{ SNC | GLC | SKL, "UOPS_EXECUTED.THREAD", 0xB1, 0x01, 0, SH_UOPS, Q_UOPS_EXECUTED, 0, false },
	{ SNC | GLC | SKL, "UOPS_EXECUTED.X87", 0xB1, 0x10, 0, SH_RATE, Q_UOPS_X87, 0, false },
	{ GLC, "UOPS_RETIRED.MS", 0xC2, 0x04, 0, SH_MS, Q_MS_RETIRED, 0, false },
	{ SNC | SKL, "IDQ.MS_UOPS", 0x79, 0x30, 0, SH_MS, Q_MS_ISSUED, 0, false },
	{ GLC, "IDQ.MS_UOPS", 0x79, 0x20, 0, SH_MS, Q_MS_ISSUED, 0, false },
	/* the front end's bandwidth: the legacy decoders, the uop cache (no loop stream detector) */
	{ SNC | GLC_ | SKL, "IDQ.MITE_UOPS", 0x79, 0x04, 0, SH_IDQ, Q_IDQ_MITE, 0, false },
	{ SNC | GLC_ | SKL, "IDQ.DSB_UOPS", 0x79, 0x08, 0, SH_IDQ, Q_IDQ_DSB, 0, false },
	{ SKL, "IDQ.ALL_MITE_CYCLES_ANY_UOPS", 0x79, 0x24, 1, SH_IDQ, Q_IDQ_MITE, 0, false },
	{ SKL, "IDQ.DSB_CYCLES_ANY", 0x79, 0x18, 1, SH_IDQ, Q_IDQ_DSB, 0, false },
	{ SNC | SKL, "INST_DECODED.DECODERS", 0x55, 0x01, 0, SH_IDQ, Q_DECODERS, 0, false },
	{ GLC_, "INST_DECODED.DECODERS", 0x75, 0x01, 0, SH_IDQ, Q_DECODERS, 0, false },
	{ SNC | GLC, "LSD.UOPS", 0xA8, 0x01, 0, SH_RATE, Q_ZERO, 0, false },
	{ SNC, "UOPS_DECODED.DEC0", 0x56, 0x01, 0, SH_DEC0, Q_DEC0, 0, false },
	{ SNC | GLC_ | SKL, "FP_ARITH_INST_RETIRED", 0xC7, 0xFF, 0, SH_RATE, Q_FP, 0, true },
	{ LNC, "FP_ARITH_OPS_RETIRED", 0xC7, 0xFF, 0, SH_RATE, Q_FP, 0, true },
	{ GLC_SRV, "FP_ARITH_INST_RETIRED2", 0xCF, 0x1F, 0, SH_RATE, Q_ZERO, 0, true },
	{ GLC, "INT_VEC_RETIRED", 0xE7, 0xFF, 0, SH_RATE, Q_ZERO, 0, true },
	{ SNC | SKL, "MEM_INST_RETIRED.ANY", 0xD0, 0x83, 0, SH_RATE, Q_MEM_UOPS, 0, false },
	{ SNC | GLC | SKL, "MEM_INST_RETIRED.ALL_LOADS", 0xD0, 0x81, 0, SH_RATE, Q_ALL_LOADS, 0, false },
	{ SNC | GLC | SKL, "MEM_INST_RETIRED.ALL_STORES", 0xD0, 0x82, 0, SH_RATE, Q_ALL_STORES, 0, false },
	{ GLC_, "MEM_UOP_RETIRED.ANY", 0xE5, 0x03, 0, SH_RATE, Q_MEM_UOPS, 0, false },
	{ LNC, "MEM_UOP_RETIRED.ANY", 0xE5, 0x0F, 0, SH_RATE, Q_MEM_UOPS, 0, false },
	{ GLC_, "INST_RETIRED.MACRO_FUSED", 0xC0, 0x10, 0, SH_RATE, Q_MACRO_FUSED, 0, false },
	{ LNC, "INST_RETIRED.MACRO_FUSED", 0xC0, 0x30, 0, SH_RATE, Q_MACRO_FUSED, 0, false },
	/* the scenarios' macro-fused pairs are all compare-and-branch */
	{ LNC, "INST_RETIRED.BR_FUSED", 0xC0, 0x10, 0, SH_RATE, Q_MACRO_FUSED, 0, false },
	{ SNC | GLC | SKL, "MEM_LOAD_RETIRED", 0xD1, 0x7F, 0, SH_RATE, Q_LOADS, 0, true },
	/* the L2's requests, fills and evictions; no software prefetches */
	{ SNC | GLC | SKL, "L2_RQSTS", 0x24, 0xFF, 0, SH_RATE, Q_L2_RQSTS, 0, true },
	{ SNC | GLC_ | SKL, "L1D.REPLACEMENT", 0x51, 0x01, 0, SH_RATE, Q_L1D_REPLACEMENT, 0, false },
	{ SNC | SKL, "L2_LINES_IN.ALL", 0xF1, 0x1F, 0, SH_RATE, Q_L2_LINES_IN, 0, false },
	{ GLC, "L2_LINES_IN.ALL", 0x25, 0x1F, 0, SH_RATE, Q_L2_LINES_IN, 0, false },
	{ SNC | SKL, "L2_LINES_OUT", 0xF2, 0x07, 0, SH_RATE, Q_L2_LINES_OUT, 0, true },
	{ GLC, "L2_LINES_OUT", 0x26, 0x07, 0, SH_RATE, Q_L2_LINES_OUT, 0, true },
	{ SNC | SKL, "SW_PREFETCH_ACCESS", 0x32, 0x0F, 0, SH_RATE, Q_ZERO, 0, true },
	{ GLC_, "SW_PREFETCH_ACCESS", 0x40, 0x0F, 0, SH_RATE, Q_ZERO, 0, true },
	{ GLC, "MEM_INST_RETIRED.ALL_SWPF", 0xD0, 0x84, 0, SH_RATE, Q_ZERO, 0, false },
	/* the uops the whole core executes (both threads'): its cycles with 1, 2, 3 or more */
	{ SNC | GLC | SKL, "UOPS_EXECUTED.CORE_CYCLES_GE_1", 0xB1, 0x02, 1, SH_UOPS, Q_UOPS_EXECUTED, 1, false },
	{ GLC_, "MEM_LOAD_COMPLETED.L1_MISS_ANY", 0x43, 0xFD, 0, SH_RATE, Q_L1_MISS_LOADS, 0, false },
	{ GLC, "MEM_STORE_RETIRED.L2_HIT", 0x44, 0x01, 0, SH_RATE, Q_PER_INST, SK_l2_hit_stores_per_inst,
	  false },
};

static bool emu_ev_row_matches(const struct emu_ev_row *r, unsigned event, unsigned umask)
{
	if (r->event != event)
		return false;
	return r->bits ? umask && !(umask & ~r->umask) : umask == r->umask;
}

int emu_model_event_find(unsigned core, bool server, unsigned event, unsigned umask)
{
	for (size_t i = 0; i < sizeof(emu_ev_rows) / sizeof(emu_ev_rows[0]); i++) {
		const struct emu_ev_row *r = &emu_ev_rows[i];

		if ((r->cores & (1u << core)) && (!(r->cores & SRV) || server) &&
		    emu_ev_row_matches(r, event, umask))
			return (int)i;
	}
	return -1;
}

bool emu_model_events(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const struct emu_machine *m = c->m;
	const struct emu_ev_row *r;
	double q;
	int i;

	if ((m->ports == EMU_PORTS_NONE && !m->amd) || m->e_core)
		return false;
	i = emu_model_event_find(m->amd ? EMU_PORTS_ZEN : m->ports, m->l3_miss_sources, c->event,
				 c->umask);
	if (i < 0)
		return false;
	r = &emu_ev_rows[i];
	q = emu_ev_q(c, r);
	emu_dist_zero(d);
	switch (r->shape) {
	case SH_COND:
		/* the condition holds in runs (its edges count them): a stall's stall_len, a divide's latency */
		emu_dist_bernoulli(d, q);
		d->cond_cmask = r->cmask;
		d->run_len = r->q == Q_DIV ? c->v[SK_div_latency] : c->v[SK_stall_len];
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
	case SH_UOPS: {
		unsigned w = m->slots_width ? m->slots_width : m->dispatch_width ? m->dispatch_width : 4;

		emu_dist_binomial(d, fmin(1, fmax(q / w, 1 - (r->q == Q_UOPS_RETIRED
				? c->v[SK_retire_stall] : r->q == Q_UOPS_EXECUTED
				? c->v[SK_exec_stall] : c->v[SK_issue_stall]))),
				  q, w);
		d->core_wide = r->arg == 1; /* the core's: the threads' summed */
		break;
	}
	case SH_MS: {
		/* 4 uops a cycle while it delivers; a run per switch (the vendor's cycles a switch) */
		double switches = emu_fe_latency(c->v) * c->v[SK_fe_ms_switch_share] /
				  (m->ms_switch_cycles ? m->ms_switch_cycles : 3);
		double cyc, per;

		if (r->q == Q_MS_RETIRED)
			switches /= c->v[SK_issue_ratio]; /* retired: the issued runs, fewer */
		/* up to 4 a cycle, in at least a cycle a switch: fewer a cycle when switches are many */
		cyc = emu_clamp01(fmax(q / 4, fmin(switches, q)));
		per = cyc > 0 ? fmin(4, fmax(1, q / cyc)) : 0;
		d->h[0] = 1 - cyc;
		if (cyc > 0) {
			unsigned lo = (unsigned)floor(per);

			d->h[lo] += cyc * (1 - (per - lo));
			if (lo < 4)
				d->h[lo + 1] += cyc * (per - lo);
		}
		d->run_len = switches > 0 ? fmax(1, cyc / switches) : 1;
		d->run_side = EMU_RUN_GE;
		break;
	}
	case SH_DEC0:
		emu_ev_dec0(c, d);
		break;
	case SH_OCC:
		emu_ev_occupancy(c, r, d);
		break;
	case SH_IDQ:
		emu_ev_idq(c, r, d);
		break;
	}
	return true;
}

/* The table, for tests: row I's name, encoding and cores (false past the end). */
bool emu_model_event_row(size_t i, const char **name, unsigned *event, unsigned *umask,
			 unsigned *cmask, bool *bits, unsigned *cores, bool *server)
{
	if (i >= sizeof(emu_ev_rows) / sizeof(emu_ev_rows[0]))
		return false;
	*name = emu_ev_rows[i].name;
	*event = emu_ev_rows[i].event;
	*umask = emu_ev_rows[i].umask;
	*cmask = emu_ev_rows[i].cmask;
	*bits = emu_ev_rows[i].bits;
	*cores = emu_ev_rows[i].cores & ~SRV;
	*server = emu_ev_rows[i].cores & SRV;
	return true;
}
