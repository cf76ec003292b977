/*
 * emu_model_event_rows_other: the rows of emu_model_event_rows.c's table
 * for the cores that are not Intel's P-cores: AMD Zen 2 to 5 (what
 * emu_model_amd.c does not count) and a hybrid's E-cores (Gracemont,
 * Skymont: Intel's data's other core type).  The same kind of row, the
 * same quantities (see that file).
 */
#include "emu_model_event_rows.h"

#include <stddef.h>

const struct emu_ev_row emu_ev_rows_other[] = {
	/* AMD Zen (12-bit event selects): what emu_model_amd.c does not count */
	{ .cores = ZEN, .name = "ls_l1_d_tlb_miss.all", .event = 0x45, .umask = 0xFF, .shape = SH_RATE,
	  .q = Q_DTLB_MISSES },
	{ .cores = ZEN, .name = "ls_l1_d_tlb_miss.all_l2_miss", .event = 0x45, .umask = 0xF0,
	  .shape = SH_RATE, .q = Q_DTLB_WALKS },
	{ .cores = ZEN, .name = "l2_dtlb_misses", .event = 0x45, .umask = 0xF0, .shape = SH_RATE,
	  .q = Q_DTLB_WALKS }, /* Zen 2's name */
	{ .cores = ZEN, .name = "bp_l1_tlb_miss_l2_tlb_hit", .event = 0x84, .umask = 0x00, .shape = SH_RATE,
	  .q = Q_ITLB_L2_HITS },
	{ .cores = ZEN, .name = "bp_l1_tlb_miss_l2_hit", .event = 0x84, .umask = 0x00, .shape = SH_RATE,
	  .q = Q_ITLB_L2_HITS }, /* Zen 2's name */
	{ .cores = ZEN, .name = "ic_tag_hit_miss.all_instruction_cache_accesses", .event = 0x18E,
	  .umask = 0x1F, .shape = SH_RATE, .q = Q_IC_FETCHES },
	{ .cores = ZEN, .name = "ic_tag_hit_miss.instruction_cache_miss", .event = 0x18E, .umask = 0x18,
	  .shape = SH_RATE, .q = Q_IC_MISSES },
	{ .cores = ZEN, .name = "op_cache_hit_miss.all_op_cache_accesses", .event = 0x28F, .umask = 0x07,
	  .shape = SH_RATE, .q = Q_IC_FETCHES },
	{ .cores = ZEN, .name = "op_cache_hit_miss.op_cache_miss", .event = 0x28F, .umask = 0x04,
	  .shape = SH_RATE, .q = Q_OC_MISSES },
	/* no TLB flushes in the scenarios, by any of the generations' names and umasks */
	{ .cores = ZEN, .name = "ls_tlb_flush", .event = 0x78, .umask = 0xFF, .shape = SH_RATE, .q = Q_ZERO,
	  .bits = true },
	{ .cores = ZEN, .name = "all_tlbs_flushed", .event = 0x78, .umask = 0xFF, .shape = SH_RATE,
	  .q = Q_ZERO, .bits = true },
	{ .cores = ZEN, .name = "fp_disp_faults.sse_avx_all", .event = 0x0E, .umask = 0x0E, .shape = SH_RATE,
	  .q = Q_ZERO },
	{ .cores = ZEN, .name = "sse_avx_stalls", .event = 0x0E, .umask = 0x0E, .shape = SH_RATE,
	  .q = Q_ZERO }, /* Zen 2: no SSE/AVX mixing */
	{ .cores = ZEN, .name = "de_dis_cops_from_decoder.disp_op_type.any_fp_dispatch", .event = 0xAB,
	  .umask = 0x04, .shape = SH_RATE, .q = Q_FP_OPS },
	{ .cores = ZEN, .name = "de_dis_cops_from_decoder.disp_op_type.any_integer_dispatch", .event = 0xAB,
	  .umask = 0x08, .shape = SH_UOPS, .q = Q_INT_OPS },
	/* Zen 4's and Zen 5's names of the same */
	{ .cores = ZEN, .name = "de_dis_ops_from_decoder.any_fp_dispatch", .event = 0xAB, .umask = 0x04,
	  .shape = SH_RATE, .q = Q_FP_OPS },
	{ .cores = ZEN, .name = "de_dis_ops_from_decoder.disp_op_type.any_integer_dispatch", .event = 0xAB,
	  .umask = 0x08, .shape = SH_UOPS, .q = Q_INT_OPS },
	{ .cores = ZEN, .name = "de_dis_ops_from_decoder.any_integer_dispatch", .event = 0xAB, .umask = 0x08,
	  .shape = SH_UOPS, .q = Q_INT_OPS },
	/* a hybrid's E-cores (Intel's data's other core type): memory uops, branches, divides, FP */
	{ .cores = ATOM, .name = "MEM_UOPS_RETIRED.ALL_LOADS", .event = 0xD0, .umask = 0x81, .shape = SH_RATE,
	  .q = Q_ALL_LOADS },
	{ .cores = ATOM, .name = "MEM_UOPS_RETIRED.ALL_STORES", .event = 0xD0, .umask = 0x82, .shape = SH_RATE,
	  .q = Q_ALL_STORES },
	{ .cores = ATOM, .name = "MEM_UOPS_RETIRED.LOCK_LOADS", .event = 0xD0, .umask = 0x21, .shape = SH_RATE,
	  .q = Q_PER_INST, .arg = SK_lock_loads_per_inst },
	{ .cores = ATOM, .name = "MEM_UOPS_RETIRED.SPLIT_LOADS", .event = 0xD0, .umask = 0x41, .shape = SH_RATE,
	  .q = Q_PER_INST, .arg = SK_split_loads_per_inst },
	{ .cores = ATOM, .name = "BR_INST_RETIRED.NEAR_CALL", .event = 0xC4, .umask = 0xF9, .shape = SH_RATE,
	  .q = Q_BR_ATOM, .arg = BR_ATOM_CALLS },
	{ .cores = ATOM, .name = "BR_MISP_RETIRED.COND", .event = 0xC5, .umask = 0x7E, .shape = SH_RATE,
	  .q = Q_BR_ATOM, .arg = BR_ATOM_MISP_COND },
	{ .cores = ATOM, .name = "BR_MISP_RETIRED.COND_TAKEN", .event = 0xC5, .umask = 0xFE, .shape = SH_RATE,
	  .q = Q_BR_ATOM, .arg = BR_ATOM_MISP_COND_TAKEN },
	{ .cores = ATOM, .name = "BR_MISP_RETIRED.INDIRECT", .event = 0xC5, .umask = 0xEB, .shape = SH_RATE,
	  .q = Q_BR_ATOM, .arg = BR_ATOM_MISP_INDIRECT },
	{ .cores = ATOM, .name = "BR_MISP_RETIRED.RETURN", .event = 0xC5, .umask = 0xF7, .shape = SH_RATE,
	  .q = Q_BR_ATOM, .arg = BR_ATOM_MISP_RETURN },
	{ .cores = ATOM, .name = "MACHINE_CLEARS.MEMORY_ORDERING", .event = 0xC3, .umask = 0x02, .shape = SH_RATE,
	  .q = Q_MO_CLEARS },
	/* the other clears by kind: FP assists', the rest memory disambiguation; no renaming, page or SMC clears */
	{ .cores = ATOM, .name = "MACHINE_CLEARS.FP_ASSIST", .event = 0xC3, .umask = 0x04, .shape = SH_RATE,
	  .q = Q_FP_ASSIST_CLEARS },
	{ .cores = ATOM, .name = "MACHINE_CLEARS.DISAMBIGUATION", .event = 0xC3, .umask = 0x08, .shape = SH_RATE,
	  .q = Q_DISAMB_CLEARS },
	{ .cores = GRM, .name = "MACHINE_CLEARS.MRN_NUKE", .event = 0xC3, .umask = 0x80, .shape = SH_RATE,
	  .q = Q_ZERO },
	{ .cores = SKM, .name = "MACHINE_CLEARS.MRN_NUKE", .event = 0xC3, .umask = 0x10, .shape = SH_RATE,
	  .q = Q_ZERO },
	{ .cores = ATOM, .name = "MACHINE_CLEARS.PAGE_FAULT", .event = 0xC3, .umask = 0x20, .shape = SH_RATE,
	  .q = Q_ZERO },
	{ .cores = GRM, .name = "MACHINE_CLEARS.SMC", .event = 0xC3, .umask = 0x01, .shape = SH_RATE,
	  .q = Q_ZERO },
	/*
	 * the memory scheduler blocked: the store buffer full, the loads waiting (the stalls with
	 * a load outstanding), no RSV full (the RS full is the non-memory scheduler's); the load
	 * at the head stalled on an L1 hit, the stalls with a demand load's L1 miss
	 */
	{ .cores = ATOM, .name = "MEM_SCHEDULER_BLOCK", .event = 0x04, .umask = 0x07, .shape = SH_COND,
	  .q = Q_MEM_SCHED, .bits = true },
	{ .cores = ATOM, .name = "LD_HEAD.L1_BOUND_AT_RET", .event = 0x05, .umask = 0xF4, .shape = SH_COND,
	  .q = Q_BOUND_L1 },
	{ .cores = GRM, .name = "MEM_BOUND_STALLS.LOAD", .event = 0x34, .umask = 0x07, .shape = SH_COND,
	  .q = Q_STALLS_L1D },
	{ .cores = SKM, .name = "MEM_BOUND_STALLS_LOAD.ALL", .event = 0x34, .umask = 0x7F, .shape = SH_COND,
	  .q = Q_STALLS_L1D },
	{ .cores = ATOM, .name = "BACLEARS.ANY", .event = 0xE6, .umask = 0x01, .shape = SH_RATE,
	  .q = Q_FE_BACLEARS },
	{ .cores = ATOM, .name = "UOPS_RETIRED.MS", .event = 0xC2, .umask = 0x01, .shape = SH_RATE,
	  .q = Q_MS_RETIRED },
	{ .cores = GRM, .name = "UOPS_RETIRED.X87", .event = 0xC2, .umask = 0x02, .shape = SH_RATE,
	  .q = Q_UOPS_X87 },
	{ .cores = SKM, .name = "UOPS_RETIRED.X87", .event = 0xC2, .umask = 0x20, .shape = SH_RATE,
	  .q = Q_UOPS_X87 },
	{ .cores = ATOM, .name = "UOPS_RETIRED.FPDIV", .event = 0xC2, .umask = 0x08, .shape = SH_RATE,
	  .q = Q_DIV_UOPS, .arg = 1 },
	{ .cores = ATOM, .name = "UOPS_RETIRED.IDIV", .event = 0xC2, .umask = 0x10, .shape = SH_RATE,
	  .q = Q_DIV_UOPS, .arg = 0 },
	{ .cores = SKM, .name = "FP_INST_RETIRED", .event = 0xC7, .umask = 0x3F, .shape = SH_RATE,
	  .q = Q_FP_ATOM, .bits = true },
	{ .cores = SKM, .name = "FP_FLOPS_RETIRED", .event = 0xC8, .umask = 0x03, .shape = SH_RATE,
	  .q = Q_FLOPS_ATOM, .bits = true },
};

const size_t emu_ev_nrows_other = sizeof(emu_ev_rows_other) / sizeof(emu_ev_rows_other[0]);
