/*
 * emu_model_events_int: what the deeper tree's event table
 * (emu_model_events.c) and its truth quantities (emu_model_quantity.c)
 * share.  Not for other modules.
 */
#ifndef PMUTOP_EMU_MODEL_EVENTS_INT_H
#define PMUTOP_EMU_MODEL_EVENTS_INT_H

#include "emu_model_int.h"

enum emu_q {
	Q_ZERO,
	Q_STALLS, Q_STALLS_MEM, Q_STALLS_L1D, Q_STALLS_L2, Q_STALLS_L3, Q_STALLS_STORES,
	Q_STALLS_SERIAL, Q_STALLS_CORE,
	Q_EXE_PORTS,     /* ARG: bit k = cycles with k uops executed (bit 4: 4 or more) */
	Q_DIV,
	Q_FE_ICACHE, Q_FE_ITLB, Q_FE_CLEAR_RESTEER, Q_FE_UNKNOWN_BRANCH, Q_FE_BACLEARS,
	Q_FE_LCP, Q_FE_DSB_SWITCH, Q_FE_0_UOPS,
	Q_CLEARS, Q_MACHINE_CLEARS, Q_MO_CLEARS,
	Q_FP_ASSIST_CLEARS, Q_DISAMB_CLEARS, /* the E-cores' other clears: FP assists', the rest disambiguation */
	Q_MEM_SCHED,     /* E-cores' MEM_SCHEDULER_BLOCK bits: 01H the store buffer full, 02H loads, 04H none */
	Q_UOPS_RETIRED, Q_UOPS_ISSUED, Q_UOPS_EXECUTED, Q_UOPS_X87,
	Q_MS_RETIRED, Q_MS_ISSUED, Q_MITE_UOPS, Q_DEC0,
	Q_FP,            /* ARG: FP_ARITH_INST_RETIRED's umask bits */
	Q_MEM_UOPS, Q_MACRO_FUSED,
	Q_LOADS,         /* MEM_LOAD_RETIRED's umask bits */
	Q_FB_FULL, Q_ALL_LOADS, Q_ALL_STORES,
	/* offcore reads (the machine's bw_reads: the threshold of the vendor's MEM_Bandwidth) */
	Q_OCC_DATA_RD, Q_OCC_DEMAND_RD, Q_OCC_L3_MISS_DEMAND_RD, Q_OCC_L1D_MISS,
	Q_REQ_DEMAND_RD, Q_REQ_L3_MISS_DEMAND_RD, Q_REQ_DATA_RD, Q_REQ_ALL,
	Q_CYCLES_RFO, Q_CYCLES_CODE_RD, Q_CYCLES_MEM_ANY, Q_CYCLES_L1D_MISS, Q_SQ_FULL,
	/* TLBs: ARG which (TLB_*) */
	Q_STLB_HITS, Q_WALK_ACTIVE, Q_WALKS,
	Q_BRANCHES, Q_MISPREDICTS, Q_NOPS,
	/* Lion Cove's MEMORY_STALLS: the stall cycles each level of the hierarchy holds */
	Q_BOUND_L1, Q_BOUND_L2, Q_BOUND_L3, Q_FP_DIV, Q_FE_ICACHE_SKL, Q_BRANCHES_SKL,
	/* AMD's: data TLB misses and walks, instruction TLB and cache, op cache, ops by type */
	Q_DTLB_MISSES, Q_DTLB_WALKS, Q_ITLB_L2_HITS, Q_IC_FETCHES, Q_IC_MISSES, Q_OC_MISSES,
	Q_FP_OPS, Q_INT_OPS,
	/* a scenario key's events an instruction (ARG: the key), or its share of the cycles */
	Q_PER_INST, Q_KEY_CYCLES,
	/* the front end's bandwidth: uops a cycle from the legacy decoders, the uop cache; decoders busy */
	Q_IDQ_MITE, Q_IDQ_DSB, Q_DECODERS,
	Q_L1_MISS_LOADS, /* loads that missed the L1D, completed (fill-buffer hits apart) */
	/* the L2: its requests by type and outcome (L2_RQSTS' umask bits), lines in, lines out */
	Q_L2_RQSTS, Q_L1D_REPLACEMENT, Q_L2_LINES_IN, Q_L2_LINES_OUT,
	Q_ASSISTS,       /* by kind (ASSISTS' umask bits): the scenarios' assists are FP assists */
	Q_FP_DISPATCHED, /* FP uops by port (ARG: 0 Golden Cove's ports 0, 1, 5; 1 Lion Cove's V0-V3) */
	Q_PAUSE_INST,
	/* the reference clock's ticks with the sibling halted, and shared between the busy threads */
	Q_REF_ONE_THREAD, Q_REF_DISTRIBUTED,
	Q_OCR,           /* an offcore response matrix (ARG: OCR_*), the row's offcore value */
	Q_XSNP,          /* Skylake's L3-hit loads by snoop outcome (MEM_LOAD_L3_HIT_RETIRED's bits) */
	Q_XSNP_FWD,      /* Sunny and Golden Cove's: 04H the forwarded (modified or clean), no others */
	Q_FE_RETIRED,    /* instructions retired after a front-end event (ARG: FE_RETIRED_*) */
	Q_LICENSE,       /* the core's cycles at turbo licence ARG (0 none, 1 AVX2, 2 AVX-512), distributed */
	Q_BRANCHES_LNC, Q_MISPREDICTS_LNC, /* Lion Cove's: taken conditionals backward (01H) and forward (100H) */
	Q_BR_ATOM,       /* an E-core's branch events (ARG: BR_ATOM_*) */
	Q_DIV_UOPS,      /* divide uops retired (ARG 1: FP, 0: integer): one a divide */
	Q_FP_ATOM, Q_FLOPS_ATOM, /* Skymont's FP_INST_RETIRED (its umask bits), FP_FLOPS_RETIRED (01H FP64, 02H FP32) */
	Q_MISP_INDIRECT_EXEC, Q_FE_DSB_SWITCHES, Q_REQ_DEMAND_RFO, /* Skylake's */
};

enum { TLB_LOAD, TLB_STORE, TLB_CODE };
enum { FE_RETIRED_DSB_MISS, FE_RETIRED_L2_MISS };
enum { BR_ATOM_CALLS, BR_ATOM_MISP_COND, BR_ATOM_MISP_COND_TAKEN, BR_ATOM_MISP_INDIRECT, BR_ATOM_MISP_RETURN };
/* the offcore responses the vendor's metrics read */
enum {
	OCR_NONE, OCR_DRD_L3_HITM, OCR_DRD_L3_FWD, OCR_RFO_L3_HITM, OCR_RFO_L3_MISS, OCR_READS_ANY,
	OCR_READS_L3_MISS, OCR_READS_LOCAL, OCR_READS_REMOTE, OCR_MODIFIED_WRITE, OCR_STREAMING_WR,
};

/* How a quantity shows per unhalted cycle. */
enum emu_shape {
	SH_COND,  /* a condition of the cycle: Bernoulli; the row's cmask (if any) asks for it */
	SH_RATE,  /* events a cycle, at most one a cycle */
	SH_EDGES, /* events a cycle counted as the edges of a condition (cmask 1, edge) */
	SH_UOPS,  /* uops a cycle, up to the machine's width, none in the stall cycles */
	SH_MS,    /* microcode uops: 4 a cycle in runs, a run per switch */
	SH_DEC0,  /* decoder 0's uops: 1 on its cycles, 2 on a few-uop instruction's */
	SH_OCC,   /* requests outstanding a cycle (an occupancy): its mean, cycles >= 1, >= bw_reads */
	SH_IDQ,   /* uops (or decoders) a cycle: cycles below the width, at it, none (emu_ev_idq) */
	SH_REF,   /* reference-clock ticks a cycle (nominal / actual GHz), the quantity's share of them */
};

struct emu_ev_row {
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
	/*
	 * The extra MSR value of an offcore response event (MSR_OFFCORE_RSP_x's
	 * matrix) or of FRONTEND_RETIRED (MSR_PEBS_FRONTEND's): the row answers
	 * that value only.
	 */
	uint64_t offcore;
};

/* The table: Intel's P-cores' rows (emu_model_event_rows.c), the others' (_other.c). */
extern const struct emu_ev_row emu_ev_rows[], emu_ev_rows_other[];
extern const size_t emu_ev_nrows, emu_ev_nrows_other;
/* the cores a row is for: bit 1 << enum emu_ports of each, and only the servers' */
#define EMU_EV_SERVERS_ONLY (1u << 8)

/* The quantity of row R for the event in C, per unhalted cycle of its thread. */
double emu_ev_q(const struct emu_core_ctx *c, const struct emu_ev_row *r);
/* The thread's fetch-latency cycles per unhalted cycle. */
double emu_fe_latency(const double *v);
/* SH_DEC0 and SH_OCC: the distributions those shapes need. */
void emu_ev_dec0(const struct emu_core_ctx *c, struct emu_dist *d);
void emu_ev_idq(const struct emu_core_ctx *c, const struct emu_ev_row *r, struct emu_dist *d);
void emu_ev_occupancy(const struct emu_core_ctx *c, const struct emu_ev_row *r, struct emu_dist *d);

#endif
