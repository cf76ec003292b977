/*
 * emu_model_quantity: the truth quantities the rows of emu_model_events.c
 * name, worked out from one thread's truth (see that file for what each
 * means), and the distributions of the shapes that need more than one
 * figure (occupancies, decoder 0).  Pure functions.
 */
#include "emu_model_events_int.h"

#include <math.h>

void emu_stalls(const double *v, struct emu_stalls *s)
{
	/* a cycle that executes a uop executes at least one: stalls >= 1 - uops per cycle */
	s->all = fmax(v[SK_exec_stall], 1 - emu_uops_retired(v) * v[SK_exec_ratio]);
	s->mem = fmin(v[SK_mem_stall], s->all);
	s->l3 = fmin(v[SK_l3_miss_stall], s->mem);
	s->l1d = fmin(fmax(v[SK_l1d_miss_stall], s->l3), s->mem);
	s->l2 = fmin(fmax(v[SK_l2_miss_stall], s->l3), s->l1d);
	s->stores = fmin(v[SK_store_stall], s->all - s->mem);
	s->serial = fmin(v[SK_serialize_stall], s->all - s->mem - s->stores);
	s->core = fmax(0, s->all - s->mem - s->stores - s->serial);
}

double emu_exe_ports(const double *v, unsigned bits)
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
double emu_fe_latency(const double *v)
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

/* The microcode sequencer's uops retired per cycle: its share of the heavy operations' uops. */
static double emu_ms_uops(const double *v)
{
	return emu_uops_retired(v) * emu_clamp01(v[SK_heavy_ops_share]) *
	       emu_clamp01(v[SK_ms_heavy_share]);
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

/* Events a cycle from a rate a second of the thread. */
static double emu_per_cycle(const struct emu_core_ctx *c, double per_s)
{
	return c->cycles_per_s > 0 ? per_s / c->cycles_per_s : 0;
}

/*
 * MEM_LOAD_RETIRED umask bits: 01H L1_HIT, 02H L2_HIT, 04H L3_HIT, 08H
 * L1_MISS, 10H L2_MISS, 20H L3_MISS, 40H FB_HIT; per cycle.  Each retired
 * load has one source: the L1D, a fill buffer, the L2, the L3, memory.
 */
static double emu_loads(const struct emu_core_ctx *c, unsigned bits)
{
	const double *v = c->v;
	double l1 = v[SK_ipc] * v[SK_l1_hit_loads_per_inst], fb = v[SK_ipc] * v[SK_fb_hit_loads_per_inst];
	double l2 = v[SK_ipc] * v[SK_l2_hit_loads_per_inst];
	double l3 = emu_per_cycle(c, v[SK_l3_hit_loads_per_s]);
	double dram = emu_per_cycle(c, v[SK_local_dram_loads_per_s] + v[SK_remote_dram_loads_per_s]);
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

/* ---- offcore reads, TLBs, branches ------------------------------------- */

/* Nanoseconds in the thread's cycles. */

static double emu_ns_cycles(const struct emu_core_ctx *c, double ns)
{
	double ghz = c->v[SK_ghz] > 0 ? c->v[SK_ghz] : c->m->nominal_ghz;

	return ns * ghz;
}

/* Demand data reads (L1D prefetcher included) and all data reads served by memory, a cycle. */
static double emu_dram_demand(const struct emu_core_ctx *c)
{
	const double *v = c->v;

	return emu_per_cycle(c, v[SK_local_dram_read_lines_per_s] + v[SK_remote_dram_read_lines_per_s]);
}

static double emu_dram_reads(const struct emu_core_ctx *c)
{
	const double *v = c->v;

	return emu_dram_demand(c) + emu_per_cycle(c, v[SK_local_dram_pf_read_lines_per_s] +
						  v[SK_remote_dram_pf_read_lines_per_s]);
}

static double emu_l3_hits(const struct emu_core_ctx *c)
{
	return emu_per_cycle(c, c->v[SK_l3_hit_loads_per_s]);
}

/*
 * An occupancy: OCC requests outstanding on average, at least one in P1 of
 * the cycles, at least T (0: no threshold asked) in PT of them.  The cycles
 * with 1 to T-1 hold one value, those with T or more another, each spread
 * over two neighbouring bins so that the mean is OCC where the three agree.
 */
static void emu_dist_occupancy(struct emu_dist *d, double occ, double p1, double pt, unsigned t)
{
	unsigned top = EMU_HIST_BINS - 1;
	double a, b;

	emu_dist_zero(d);
	p1 = emu_clamp01(fmax(p1, fmin(1, occ / top)));
	if (!(p1 > 0) || !(occ > 0))
		return;
	if (!t || t > top)
		t = top + 1, pt = 0;
	pt = fmin(pt, p1);
	b = t;
	a = p1 > pt ? (occ - pt * b) / (p1 - pt) : 1;
	if (a < 1)
		a = 1;
	if (t <= top && a > t - 1) {
		a = t - 1;
		b = pt > 0 ? fmin(top, fmax(t, (occ - (p1 - pt) * a) / pt)) : t;
	} else if (a > top) {
		a = top;
	}
	d->h[0] = 1 - p1;
	d->h[(unsigned)a] += (p1 - pt) * (1 - (a - floor(a)));
	if (a - floor(a) > 0)
		d->h[(unsigned)a + 1] += (p1 - pt) * (a - floor(a));
	if (pt > 0) {
		d->h[(unsigned)b] += pt * (1 - (b - floor(b)));
		if (b - floor(b) > 0 && (unsigned)b < top)
			d->h[(unsigned)b + 1] += pt * (b - floor(b));
	}
}

void emu_ev_occupancy(const struct emu_core_ctx *c, const struct emu_ev_row *r,
			     struct emu_dist *d)
{
	const double *v = c->v;
	double mem = emu_ns_cycles(c, v[SK_mem_latency_ns]), l3 = emu_ns_cycles(c, v[SK_l3_latency_ns]);
	double all = emu_dram_reads(c) * mem + emu_l3_hits(c) * l3;
	double p1 = fmax(v[SK_data_rd_cycles], v[SK_l3_miss_stall]), pt = v[SK_mem_bw_cycles], occ;

	switch (r->q) {
	case Q_OCC_DATA_RD:
		occ = all;
		break;
	case Q_OCC_DEMAND_RD:
		occ = emu_dram_demand(c) * mem + emu_l3_hits(c) * l3;
		break;
	case Q_OCC_L3_MISS_DEMAND_RD:
		occ = emu_dram_demand(c) * mem;
		break;
	default: /* L1D misses: the L2's hits (the 4.4 ns Intel's L2_Hit_Latency charges), the L3's, memory's */
		occ = v[SK_ipc] * v[SK_l2_hit_loads_per_inst] * emu_ns_cycles(c, 4.4) +
		      emu_l3_hits(c) * l3 + emu_dram_demand(c) * mem;
		emu_dist_occupancy(d, occ, fmax(v[SK_l1d_miss_active], v[SK_l1d_miss_stall]), 0, 0);
		return;
	}
	/* the demand reads' share of the cycles: as their share of the occupancy */
	if (r->q != Q_OCC_DATA_RD && all > 0) {
		p1 *= occ / all;
		pt *= occ / all;
	}
	emu_dist_occupancy(d, occ, p1, pt, c->m->bw_reads);
}

static double emu_tlb(const struct emu_core_ctx *c, const struct emu_ev_row *r)
{
	const double *v = c->v;
	double ipc = v[SK_ipc], walks, w2m = v[SK_walk_2m_share], w1g = v[SK_walk_1g_share];

	walks = ipc * (r->arg == TLB_LOAD ? v[SK_dtlb_load_walks_per_inst] : r->arg == TLB_STORE
		       ? v[SK_dtlb_store_walks_per_inst] : v[SK_itlb_miss_per_inst]);
	if (r->arg == TLB_CODE)
		w2m = v[SK_itlb_large_share], w1g = 0;
	switch (r->q) {
	case Q_STLB_HITS:
		return ipc * (r->arg == TLB_LOAD ? v[SK_dtlb_load_stlb_hits_per_inst]
					       : v[SK_dtlb_store_stlb_hits_per_inst]);
	case Q_WALK_ACTIVE:
		return fmin(1, walks * v[SK_walk_cycles]);
	default:
		w1g = fmin(w1g, 1 - w2m);
		return walks * ((c->umask & 0x02 ? 1 - w2m - w1g : 0) + (c->umask & 0x04 ? w2m : 0) +
				(c->umask & 0x08 ? w1g : 0));
	}
}

/*
 * BR_INST_RETIRED umask bits: 01H COND_TAKEN, 02H NEAR_CALL, 08H
 * NEAR_RETURN (as many as calls), 10H COND_NTAKEN, 20H NEAR_TAKEN (taken
 * conditionals, calls, returns, other jumps), 40H FAR_BRANCH (none);
 * BR_MISP_RETIRED: 01H COND_TAKEN, 08H RET, 10H COND_NTAKEN, 20H
 * NEAR_TAKEN (the taken ones: conditionals, returns, indirect), 80H
 * INDIRECT; the other bits none.  Per cycle.
 */
static double emu_branches(const struct emu_core_ctx *c, bool mispredicted)
{
	const double *v = c->v;
	double cond = v[SK_br_cond_share], tk = v[SK_br_cond_taken_share], n = 0, per_inst;

	if (!mispredicted) {
		double call = v[SK_br_call_share];

		per_inst = v[SK_branch_per_inst];
		n += c->umask & 0x01 ? cond * tk : 0;
		n += c->umask & 0x02 ? call : 0;
		n += c->umask & 0x08 ? call : 0;
		n += c->umask & 0x10 ? cond * (1 - tk) : 0;
		n += c->umask & 0x20 ? cond * tk + 2 * call + v[SK_br_jump_share] : 0;
	} else {
		double mc = v[SK_misp_cond_share], ret = v[SK_misp_ret_share];
		double ind = v[SK_misp_indirect_share];

		per_inst = v[SK_branch_per_inst] * v[SK_branch_miss_ratio];
		n += c->umask & 0x01 ? mc * tk : 0;
		n += c->umask & 0x08 ? ret : 0;
		n += c->umask & 0x10 ? mc * (1 - tk) : 0;
		n += c->umask & 0x20 ? mc * tk + ret + ind : 0;
		n += c->umask & 0x80 ? ind : 0;
	}
	return v[SK_ipc] * per_inst * n;
}

/*
 * The L2's requests a cycle by type (L2_RQSTS' umask bits 01H demand data
 * reads, 02H RFOs, 04H code reads, 08H software prefetches, 10H hardware
 * prefetches) and outcome (20H miss; 40H or C0H hit): the loads that missed
 * the L1D by where they hit (MEM_LOAD_RETIRED), the stores whose line the
 * L2 held (l2_hit_stores_per_inst) or memory gave (the demand RFO lines),
 * the instruction-cache misses (code_l2_miss_share of them beyond the L2),
 * the L2 prefetcher's reads and RFOs from memory (all misses); no software
 * prefetches.  The L1D fills a line per demand read and RFO
 * (L1D.REPLACEMENT); the L2 one per miss (L2_LINES_IN.ALL), and evicts as
 * many (L2_LINES_OUT: 02H NON_SILENT the lines stores wrote, 01H SILENT
 * the rest, 04H USELESS_HWPF none: the prefetched lines are all used).
 */
static void emu_l2_requests(const struct emu_core_ctx *c, double hit[5], double miss[5])
{
	const double *v = c->v;
	double code = v[SK_ipc] * v[SK_l1i_miss_per_inst], cm = emu_clamp01(v[SK_code_l2_miss_share]);

	hit[0] = emu_loads(c, 0x02);
	miss[0] = emu_loads(c, 0x10);
	hit[1] = v[SK_ipc] * v[SK_l2_hit_stores_per_inst];
	miss[1] = emu_per_cycle(c, v[SK_local_dram_rfo_lines_per_s] + v[SK_remote_dram_rfo_lines_per_s]);
	hit[2] = code * (1 - cm);
	miss[2] = code * cm;
	hit[3] = miss[3] = hit[4] = 0;
	miss[4] = emu_per_cycle(c, v[SK_local_dram_pf_read_lines_per_s] + v[SK_remote_dram_pf_read_lines_per_s] +
				       v[SK_local_dram_pf_rfo_lines_per_s] + v[SK_remote_dram_pf_rfo_lines_per_s]);
}

static double emu_l2(const struct emu_core_ctx *c, enum emu_q q)
{
	double hit[5], miss[5], n = 0;

	emu_l2_requests(c, hit, miss);
	switch (q) {
	case Q_L1D_REPLACEMENT: return hit[0] + miss[0] + hit[1] + miss[1];
	case Q_L2_LINES_IN: return miss[0] + miss[1] + miss[2] + miss[4];
	case Q_L2_LINES_OUT:
		return (c->umask & 0x01 ? miss[0] + miss[2] + miss[4] : 0) + (c->umask & 0x02 ? miss[1] : 0);
	default:
		for (unsigned t = 0; t < 5; t++)
			if (c->umask & (1u << t))
				n += (c->umask & 0xC0 ? hit[t] : 0) + (c->umask & 0x20 ? miss[t] : 0);
		return n;
	}
}

/*
 * The offcore responses (OCR.*, Skylake's OFFCORE_RESPONSE.*) a cycle: the
 * demand reads that hit the L3 with another core's modified or forwarded
 * line; the RFOs that hit a modified line there, or missed it (memory's
 * RFO lines); every read that left the L2 (the L2's lines in), those that
 * missed the L3 (memory's read and RFO lines, demand and prefetch), the
 * local and the remote ones; the modified lines written back (as many as
 * stores filled); the streaming stores.
 */
static double emu_ocr(const struct emu_core_ctx *c, unsigned kind)
{
	const double *v = c->v;
	double local = v[SK_local_dram_read_lines_per_s] + v[SK_local_dram_pf_read_lines_per_s] +
		       v[SK_local_dram_rfo_lines_per_s] + v[SK_local_dram_pf_rfo_lines_per_s];
	double remote = v[SK_remote_dram_read_lines_per_s] + v[SK_remote_dram_pf_read_lines_per_s] +
			v[SK_remote_dram_rfo_lines_per_s] + v[SK_remote_dram_pf_rfo_lines_per_s];
	double hit[5], miss[5];

	emu_l2_requests(c, hit, miss);
	switch (kind) {
	case OCR_DRD_L3_HITM: return emu_l3_hits(c) * v[SK_l3_hit_hitm_share];
	case OCR_DRD_L3_FWD: return emu_l3_hits(c) * v[SK_l3_hit_fwd_share];
	case OCR_RFO_L3_HITM: return v[SK_ipc] * v[SK_rfo_hitm_per_inst];
	case OCR_RFO_L3_MISS: case OCR_MODIFIED_WRITE: return miss[1];
	case OCR_READS_ANY: return miss[0] + miss[1] + miss[2] + miss[4];
	case OCR_READS_L3_MISS: return emu_per_cycle(c, local + remote);
	case OCR_READS_LOCAL: return emu_per_cycle(c, local);
	case OCR_READS_REMOTE: return emu_per_cycle(c, remote);
	case OCR_STREAMING_WR: return v[SK_ipc] * v[SK_streaming_stores_per_inst];
	default: return 0;
	}
}

double emu_ev_q(const struct emu_core_ctx *c, const struct emu_ev_row *r)
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
	case Q_FE_BACLEARS:
		return fe * v[SK_fe_resteer_share] * v[SK_fe_unknown_branch_share] /
		       (c->m->baclear_cycles ? c->m->baclear_cycles : 10);
	case Q_FE_ICACHE_SKL: /* stalls + 2 a miss, a miss per run of stall_len: stalls x (1 + 2 / len) */
		return fe * v[SK_fe_icache_share] * v[SK_stall_len] / (v[SK_stall_len] + 2);
	case Q_FE_LCP: return fe * v[SK_fe_lcp_share];
	case Q_FE_DSB_SWITCH: return fe * v[SK_fe_dsb_switch_share];
	case Q_FE_DSB_SWITCHES: return fe * v[SK_fe_dsb_switch_share] / fmax(1, v[SK_dsb_switch_cycles]);
	case Q_FE_0_UOPS: return fe * emu_clamp01(v[SK_slot_share]);
	case Q_CLEARS: return emu_mispredicts(v) + emu_machine_clears(v);
	case Q_MACHINE_CLEARS: return emu_machine_clears(v);
	case Q_MO_CLEARS: return emu_machine_clears(v) * v[SK_mo_clear_share];
	/* an E-core's clears not of memory ordering: an FP assist's (each one), the rest a load passing a store */
	case Q_FP_ASSIST_CLEARS: case Q_DISAMB_CLEARS: {
		double other = emu_machine_clears(v) * (1 - emu_clamp01(v[SK_mo_clear_share]));
		double fp = fmin(other, v[SK_ipc] * v[SK_assists_per_inst]);

		return r->q == Q_FP_ASSIST_CLEARS ? fp : other - fp;
	}
	case Q_MEM_SCHED: return (c->umask & 0x01 ? s.stores : 0) + (c->umask & 0x02 ? s.mem : 0);
	case Q_UOPS_RETIRED: return emu_uops_retired(v);
	case Q_UOPS_ISSUED: return issued;
	case Q_UOPS_EXECUTED: return emu_uops_retired(v) * v[SK_exec_ratio];
	case Q_UOPS_X87: return emu_uops_retired(v) * v[SK_exec_ratio] * v[SK_x87_share];
	case Q_MS_RETIRED: return emu_ms_uops(v);
	case Q_MS_ISSUED: return emu_ms_uops(v) * v[SK_issue_ratio];
	case Q_MITE_UOPS: return fmax(0, issued * (1 - v[SK_dsb_coverage]) -
				      emu_ms_uops(v) * v[SK_issue_ratio]);
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
	case Q_OCC_DATA_RD: case Q_OCC_DEMAND_RD: case Q_OCC_L3_MISS_DEMAND_RD: case Q_OCC_L1D_MISS:
		return 0; /* SH_OCC works them out */
	case Q_REQ_DEMAND_RD: return emu_dram_demand(c) + emu_l3_hits(c);
	case Q_REQ_L3_MISS_DEMAND_RD: return emu_dram_demand(c);
	/* the demand RFOs that left the L2: memory's lines, and those another core's L3 line held */
	case Q_REQ_DEMAND_RFO:
		return emu_per_cycle(c, v[SK_local_dram_rfo_lines_per_s] + v[SK_remote_dram_rfo_lines_per_s]) +
		       v[SK_ipc] * v[SK_rfo_hitm_per_inst];
	case Q_REQ_DATA_RD: return emu_dram_reads(c) + emu_l3_hits(c);
	case Q_REQ_ALL:
		return emu_dram_reads(c) + emu_l3_hits(c) +
		       emu_per_cycle(c, v[SK_local_dram_rfo_lines_per_s] + v[SK_remote_dram_rfo_lines_per_s] +
				     v[SK_local_dram_pf_rfo_lines_per_s] + v[SK_remote_dram_pf_rfo_lines_per_s]);
	case Q_CYCLES_RFO:
		return fmin(1, emu_per_cycle(c, v[SK_local_dram_rfo_lines_per_s] +
					     v[SK_remote_dram_rfo_lines_per_s]) *
				       emu_ns_cycles(c, v[SK_mem_latency_ns]));
	case Q_CYCLES_CODE_RD: return fe * v[SK_fe_icache_share] * v[SK_code_l2_miss_share];
	case Q_CYCLES_MEM_ANY: return fmax(v[SK_load_active], s.mem);
	case Q_CYCLES_L1D_MISS: return fmax(v[SK_l1d_miss_active], s.l1d);
	case Q_SQ_FULL: return emu_clamp01(v[SK_sq_full_stall]);
	case Q_STLB_HITS: case Q_WALK_ACTIVE: case Q_WALKS: return emu_tlb(c, r);
	case Q_DTLB_MISSES:
		return v[SK_ipc] * (v[SK_dtlb_load_stlb_hits_per_inst] + v[SK_dtlb_load_walks_per_inst] +
				    v[SK_dtlb_store_stlb_hits_per_inst] + v[SK_dtlb_store_walks_per_inst]);
	case Q_DTLB_WALKS:
		return v[SK_ipc] * (v[SK_dtlb_load_walks_per_inst] + v[SK_dtlb_store_walks_per_inst]);
	case Q_ITLB_L2_HITS: return v[SK_ipc] * v[SK_itlb_stlb_hits_per_inst];
	case Q_IC_FETCHES: return v[SK_ipc] * v[SK_ic_fetches_per_inst];
	case Q_IC_MISSES: return v[SK_ipc] * v[SK_l1i_miss_per_inst];
	/* the op cache misses what it does not deliver */
	case Q_OC_MISSES: return v[SK_ipc] * v[SK_ic_fetches_per_inst] * (1 - v[SK_dsb_coverage]);
	/* ops by type: FP instructions (one op each) and x87 ops; integer the rest */
	case Q_FP_OPS: return fmin(issued, v[SK_ipc] * (v[SK_fp_scalar_per_inst] + v[SK_fp_vector_per_inst]) +
					    emu_uops_retired(v) * v[SK_x87_share]);
	case Q_INT_OPS:
		return fmax(0, issued - v[SK_ipc] * (v[SK_fp_scalar_per_inst] + v[SK_fp_vector_per_inst]) -
				       emu_uops_retired(v) * v[SK_x87_share]);
	case Q_L1_MISS_LOADS: return emu_loads(c, 0x08);
	case Q_L2_RQSTS: case Q_L1D_REPLACEMENT: case Q_L2_LINES_IN: case Q_L2_LINES_OUT: return emu_l2(c, r->q);
	case Q_IDQ_MITE: case Q_IDQ_DSB: case Q_DECODERS: return 0; /* SH_IDQ works them out */
	case Q_ASSISTS: return c->umask & 0x02 ? v[SK_ipc] * v[SK_assists_per_inst] : 0;
	case Q_FP_DISPATCHED: {
		/* one uop an FP instruction; Golden Cove's ports by the scenario's port shares, Lion Cove's V0-V3 alike */
		double fp = emu_fp(v, 0xFF), p0 = v[SK_port0], p1 = v[SK_port1], p5 = v[SK_port5];
		double sum = p0 + p1 + p5;

		if (r->arg == 1)
			return fp * __builtin_popcount(c->umask & 0x0F) / 4;
		return sum > 0 ? fp * ((c->umask & 0x01 ? p0 : 0) + (c->umask & 0x02 ? p1 : 0) +
				       (c->umask & 0x04 ? p5 : 0)) / sum : 0;
	}
	/* PAUSE instructions: the pause cycles at the cycles each takes (Slow_Pause's) */
	case Q_PAUSE_INST: return emu_clamp01(v[SK_pause_cycles]) / (c->m->pause_cycles ? c->m->pause_cycles : 140);
	/*
	 * the sibling's share of this thread's cycles: slot_share is 1 - u / 2
	 * beside a sibling busy u of the time (two threads a core; 1 alone)
	 */
	case Q_REF_ONE_THREAD: return emu_clamp01(1 - 2 * (1 - emu_clamp01(v[SK_slot_share])));
	case Q_REF_DISTRIBUTED: return emu_clamp01(v[SK_slot_share]);
	case Q_OCR: return emu_ocr(c, r->arg);
	case Q_BR_ATOM: {
		double misp = v[SK_ipc] * v[SK_branch_per_inst] * v[SK_branch_miss_ratio];

		switch (r->arg) {
		case BR_ATOM_CALLS: return v[SK_ipc] * v[SK_branch_per_inst] * v[SK_br_call_share];
		case BR_ATOM_MISP_COND: return misp * v[SK_misp_cond_share];
		case BR_ATOM_MISP_COND_TAKEN: return misp * v[SK_misp_cond_share] * v[SK_br_cond_taken_share];
		case BR_ATOM_MISP_INDIRECT: return misp * v[SK_misp_indirect_share];
		default: return misp * v[SK_misp_ret_share];
		}
	}
	/* a divide a div_latency run of the divider's busy cycles, FP ones fp_div_share of them */
	case Q_DIV_UOPS:
		return v[SK_div_busy] / fmax(1, v[SK_div_latency]) *
		       (r->arg ? v[SK_fp_div_share] : 1 - v[SK_fp_div_share]);
	/* Skymont: 01H scalar single, 02H scalar double, 04H/08H 128-bit single/double, 10H/20H 256 */
	case Q_FP_ATOM:
		return emu_fp(v, (c->umask & 0x01 ? 0x02u : 0) | (c->umask & 0x02 ? 0x01u : 0) |
				 (c->umask & 0x04 ? 0x08u : 0) | (c->umask & 0x08 ? 0x04u : 0) |
				 (c->umask & 0x10 ? 0x20u : 0) | (c->umask & 0x20 ? 0x10u : 0));
	case Q_FLOPS_ATOM: /* the FP instructions' lanes: 1 scalar, 2 or 4 in 128 bits, 4 or 8 in 256 */
		return (c->umask & 0x01 ? emu_fp(v, 0x01) + 2 * emu_fp(v, 0x04) + 4 * emu_fp(v, 0x10) : 0) +
		       (c->umask & 0x02 ? emu_fp(v, 0x02) + 4 * emu_fp(v, 0x08) + 8 * emu_fp(v, 0x20) : 0);
	case Q_LICENSE: {
		/* the core's cycles, shared between its busy threads as CPU_CLK_UNHALTED.DISTRIBUTED */
		double l1 = emu_clamp01(v[SK_avx2_license_cycles]), l2 = emu_clamp01(v[SK_avx512_license_cycles]);
		double share = r->arg == 2 ? l2 : r->arg == 1 ? fmin(l1, 1 - l2) : fmax(0, 1 - l1 - l2);

		return share * emu_clamp01(v[SK_slot_share]);
	}
	/* instructions whose uops the uop cache did not deliver; whose code read missed the L2 */
	case Q_FE_RETIRED:
		return v[SK_ipc] * (r->arg == FE_RETIRED_DSB_MISS ? 1 - emu_clamp01(v[SK_dsb_coverage])
				    : v[SK_l1i_miss_per_inst] * emu_clamp01(v[SK_code_l2_miss_share]));
	case Q_XSNP: /* 01H XSNP_MISS (none), 02H XSNP_HIT, 04H XSNP_HITM, 08H XSNP_NONE: the rest */
		return emu_l3_hits(c) * ((c->umask & 0x02 ? v[SK_l3_hit_fwd_share] : 0) +
					 (c->umask & 0x04 ? v[SK_l3_hit_hitm_share] : 0) +
					 (c->umask & 0x08 ? fmax(0, 1 - v[SK_l3_hit_fwd_share] -
								       v[SK_l3_hit_hitm_share]) : 0));
	/*
	 * Sunny Cove on: 01H XSNP_MISS and 02H XSNP_NO_FWD (a snoop hit whose data the L3 gave:
	 * none), 04H XSNP_FWD (a modified or clean line another core forwarded), 08H XSNP_NONE
	 */
	case Q_XSNP_FWD: {
		double fwd = fmin(1, v[SK_l3_hit_fwd_share] + v[SK_l3_hit_hitm_share]);

		return emu_l3_hits(c) * ((c->umask & 0x04 ? fwd : 0) + (c->umask & 0x08 ? 1 - fwd : 0));
	}
	case Q_PER_INST: return v[SK_ipc] * v[r->arg];
	case Q_KEY_CYCLES: return emu_clamp01(v[r->arg]);
	case Q_BRANCHES: return emu_branches(c, false);
	case Q_BRANCHES_SKL: { /* 01H COND: every conditional; 10H NOT_TAKEN: the conditionals not taken */
		double cond = v[SK_br_cond_share], tk = v[SK_br_cond_taken_share], call = v[SK_br_call_share];
		double n = (c->umask & 0x01 ? cond : 0) + (c->umask & 0x02 ? call : 0) +
			   (c->umask & 0x08 ? call : 0) + (c->umask & 0x10 ? cond * (1 - tk) : 0) +
			   (c->umask & 0x20 ? cond * tk + 2 * call + v[SK_br_jump_share] : 0);

		return v[SK_ipc] * v[SK_branch_per_inst] * n;
	}
	case Q_MISPREDICTS: return emu_branches(c, true);
	case Q_MISP_INDIRECT_EXEC:
		return v[SK_ipc] * v[SK_branch_per_inst] * v[SK_branch_miss_ratio] * v[SK_misp_indirect_share] *
		       v[SK_issue_ratio];
	case Q_BRANCHES_LNC: case Q_MISPREDICTS_LNC: {
		/* Lion Cove: 01H the taken conditionals backward, 100H forward; the rest as Golden Cove's */
		struct emu_core_ctx g = *c;
		double bwd = emu_clamp01(v[SK_br_taken_bwd_share]), taken;

		g.umask = 0x01;
		taken = emu_branches(&g, r->q == Q_MISPREDICTS_LNC);
		g.umask = c->umask & 0xFE;
		return (g.umask ? emu_branches(&g, r->q == Q_MISPREDICTS_LNC) : 0) +
		       (c->umask & 0x01 ? taken * bwd : 0) + (c->umask & 0x100 ? taken * (1 - bwd) : 0);
	}
	case Q_NOPS: return v[SK_ipc] * v[SK_nop_per_inst];
	case Q_BOUND_L1: return s.mem - s.l1d;
	case Q_BOUND_L2: return s.l1d - s.l2;
	case Q_BOUND_L3: return s.l2 - s.l3;
	case Q_FP_DIV: return v[SK_div_busy] * v[SK_fp_div_share];
	}
	return 0;
}

