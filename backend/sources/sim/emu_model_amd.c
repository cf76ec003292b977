/*
 * emu_model_amd: AMD Zen's core events, as the kernel's perf tool data
 * (data/amd, from AMD's PPRs for families 17h, 19h and 1Ah) encodes them,
 * derived from a thread's truth after emu_model_smt.  Pure functions.
 *
 * The dispatch slots: W per cycle not in halt (6 on Zen 2 to 4, 8 on Zen
 * 5; the perf tool's total_dispatch_slots).  Each slot is, in the terms of
 * AMD's pipeline-utilisation tree: used by an op that retires (ex_ret_ops
 * / W), used by one that does not (bad speculation), left empty because
 * the front end supplied nothing, because the back end stalled, or
 * because the other thread of the core was selected (SMT contention: of
 * the slots the thread does not get while its sibling runs, 1 - slot_share,
 * those in which it had ops to dispatch; in the others it waited on its own
 * front end or back end, counted there).
 * The scenario's frontend_bound and bad_speculation are shares of the
 * thread's own slots; a truth asking more than the slots keeps retiring.
 */
#include "emu_model_int.h"

#include <math.h>

/* The slot shares of one thread: retiring, bad speculation, front end, back end, SMT. */
struct amd_slots {
	double ret, bs, fe, be, smt;
};

static void amd_slots_of(const struct emu_machine *m, const double *v, struct amd_slots *s)
{
	double w = m->dispatch_width ? m->dispatch_width : 6, own = emu_clamp01(v[SK_slot_share]);

	s->smt = 1 - own;
	s->ret = fmin(emu_uops_retired(v) / w, own);
	s->fe = emu_clamp01(v[SK_frontend_bound]) * own;
	s->bs = emu_clamp01(v[SK_bad_speculation]) * own;
	if (s->ret + s->fe + s->bs > own && s->fe + s->bs > 0) {
		double k = (own - s->ret) / (s->fe + s->bs);

		s->fe *= k;
		s->bs *= k;
	}
	s->be = fmax(0, own - s->ret - s->fe - s->bs);
	/*
	 * The sibling's slots: lost to SMT contention where this thread had ops to dispatch
	 * (as often as in its own slots), else empty for its own reasons (front end, back
	 * end) as in its own slots: a stalled thread loses nothing to a busy sibling.
	 */
	if (own > 0 && s->smt > 0) {
		double r = emu_clamp01((s->ret + s->bs) / own), rest = s->smt * (1 - r);

		s->smt *= r;
		if (s->fe + s->be > 0) {
			double fe = s->fe;

			s->fe += rest * fe / (fe + s->be);
			s->be += rest * s->be / (fe + s->be);
		}
	}
}

/*
 * A per-cycle count of W slots: a share ALL of the cycles has all W (the
 * whole cycle lost), the rest of MEAN (slots per cycle) spread binomially
 * over 0 .. W-1 in the other cycles.
 */
static void amd_slot_dist(struct emu_dist *d, unsigned w, double all, double mean)
{
	double rest = fmax(0, mean - all * w), q, others = 1 - all;

	emu_dist_zero(d);
	if (w + 1 > EMU_HIST_BINS || others <= 0) {
		d->h[0] = 1 - emu_clamp01(all);
		d->h[w < EMU_HIST_BINS ? w : EMU_HIST_BINS - 1] += emu_clamp01(all);
		return;
	}
	q = emu_clamp01(rest / (others * (w - 1)));
	d->h[0] = 0;
	for (unsigned j = 0; j <= w - 1; j++) {
		double c = 1;

		for (unsigned i = 0; i < j; i++)
			c = c * (w - 1 - i) / (i + 1);
		d->h[j] = others * c * pow(q, j) * pow(1 - q, w - 1 - j);
	}
	d->h[w] += all;
}

/* Ops per cycle spread over up to 8 a cycle (Zen retires 8 ops a cycle), none on retire stalls. */
static void amd_ops(struct emu_dist *d, double stall, double mean)
{
	emu_dist_binomial(d, emu_clamp01(fmin(1 - stall, mean)), mean, 8);
}

/*
 * LsAnyFillsFromSys (44H) and LsDmndFillsFromSys (43H): lines brought into
 * the L1D by source, one bit each (PPR 19h): 01H the local L2, 02H the L3
 * or another L2 of this CCX, 04H another CCX's cache on this node, 08H
 * DRAM or I/O of this node, 10H a cache of another node, 40H DRAM or I/O
 * of another node, 80H alternate memories (CXL: none emulated).  Demand fills are the scenario's demand reads and
 * RFOs; any fills add its prefetches (from DRAM: the cache sources count
 * every fill).
 */
static double amd_fills(const struct emu_core_ctx *c)
{
	const double *v = c->v;
	bool any = c->event == 0x44;
	double near = v[SK_local_dram_read_lines_per_s] + v[SK_local_dram_rfo_lines_per_s] +
		      (any ? v[SK_local_dram_pf_read_lines_per_s] + v[SK_local_dram_pf_rfo_lines_per_s] : 0);
	double far = v[SK_remote_dram_read_lines_per_s] + v[SK_remote_dram_rfo_lines_per_s] +
		     (any ? v[SK_remote_dram_pf_read_lines_per_s] + v[SK_remote_dram_pf_rfo_lines_per_s] : 0);

	return (c->umask & 0x01 ? v[SK_l1d_fills_l2_per_s] : 0) +
	       (c->umask & 0x02 ? v[SK_l1d_fills_ccx_per_s] : 0) +
	       (c->umask & 0x04 ? v[SK_l1d_fills_near_cache_per_s] : 0) +
	       (c->umask & 0x08 ? near : 0) +
	       (c->umask & 0x10 ? v[SK_l1d_fills_far_cache_per_s] : 0) +
	       (c->umask & 0x40 ? far : 0);
}

/*
 * The L2's requests and their outcome (PPR: L2RequestG1 60H, L2CacheReqStat
 * 64H, the L2 prefetcher's 70H-72H), from the same lines as the fills: the
 * L1D's demand misses are the lines it fills from beyond itself, reads
 * (RdBlkL, 60H bit 7) and stores (RdBlkX, bit 6: the scenario's RFOs); they
 * hit the L2 (64H bit 6, LsRdBlkLHitX) when the line came from it, else miss
 * it (bit 3, LsRdBlkC); instruction fetches that miss the L1I (60H bit 4,
 * CacheableIcRead) hit the L2 (64H bits 1-2; none of the truth misses it);
 * the L2 prefetcher's lines all miss the L2 and the L3 (72H): the
 * scenario's prefetches from DRAM.  Lines per second of the thread.
 */
static bool amd_l2(const struct emu_core_ctx *c, double *per_s)
{
	const double *v = c->v;
	double rfo = v[SK_local_dram_rfo_lines_per_s] + v[SK_remote_dram_rfo_lines_per_s];
	double beyond = v[SK_l1d_fills_ccx_per_s] + v[SK_l1d_fills_near_cache_per_s] +
			v[SK_l1d_fills_far_cache_per_s] + v[SK_local_dram_read_lines_per_s] +
			v[SK_remote_dram_read_lines_per_s] + rfo;
	double reads = v[SK_l1d_fills_l2_per_s] + beyond - rfo;
	double ic = v[SK_l1i_miss_per_inst] * v[SK_ipc] * c->cycles_per_s;
	double pf = v[SK_local_dram_pf_read_lines_per_s] + v[SK_local_dram_pf_rfo_lines_per_s] +
		    v[SK_remote_dram_pf_read_lines_per_s] + v[SK_remote_dram_pf_rfo_lines_per_s];
	unsigned u = c->umask;

	switch (c->event) {
	case 0x60:
		*per_s = (u & 0x80 ? reads : 0) + (u & 0x40 ? rfo : 0) + (u & 0x10 ? ic : 0);
		return u != 0;
	case 0x64:
		*per_s = (u & 0x40 ? v[SK_l1d_fills_l2_per_s] : 0) + (u & 0x08 ? beyond : 0) +
			 (u & 0x06 ? ic : 0);
		return u != 0;
	case 0x70:
	case 0x71:
	case 0x72:
		*per_s = c->event == 0x72 ? pf : 0;
		return u != 0;
	default:
		return false;
	}
}

bool emu_model_amd_core(const struct emu_machine *m, unsigned event, unsigned umask,
			const double *v, struct emu_dist *d)
{
	double ghz = v[SK_ghz] > 0 ? v[SK_ghz] : m->nominal_ghz;
	struct emu_core_ctx c = { .m = m, .event = event, .umask = umask, .v = v,
				  .cycles_per_s = v[SK_util] * ghz * 1e9 };
	unsigned w = m->dispatch_width ? m->dispatch_width : 6;
	double misp = v[SK_branch_per_inst] * v[SK_branch_miss_ratio];
	double ms = emu_clamp01(v[SK_mispredict_share]);
	struct amd_slots s;

	amd_slots_of(m, v, &s);
	emu_dist_zero(d);
	switch (event) {
	case 0x76: /* ls_not_halted_cyc */
		if (umask)
			return false;
		emu_dist_bernoulli(d, 1);
		d->condition = true;
		return true;
	case 0xC0: /* ex_ret_instr */
		if (umask)
			return false;
		amd_ops(d, v[SK_retire_stall], v[SK_ipc]);
		return true;
	case 0xC1: /* ex_ret_ops */
		if (umask)
			return false;
		amd_ops(d, v[SK_retire_stall], emu_uops_retired(v));
		return true;
	case 0x1C2: /* ex_ret_ucode_ops: the retired ops from microcode */
		if (umask)
			return false;
		amd_ops(d, v[SK_retire_stall], emu_uops_retired(v) * emu_clamp01(v[SK_heavy_ops_share]));
		return true;
	case 0xC2: /* ex_ret_brn */
		if (umask)
			return false;
		emu_ev_per_inst(&c, d, v[SK_branch_per_inst]);
		return true;
	case 0xC3: /* ex_ret_brn_misp */
		if (umask)
			return false;
		emu_ev_per_inst(&c, d, misp);
		return true;
	case 0x96: /* resyncs_or_nc_redirects (Zen 4): the pipeline restarts beside mispredicts */
	case 0x9F: /* bp_redirects.resync (Zen 5) */
		if (event == 0x96 ? umask != 0 : umask != 0x01)
			return false;
		emu_ev_per_inst(&c, d, ms > 0 ? misp * (1 - ms) / ms : 0);
		return true;
	case 0xAA: /* de_src_op_disp.all: every op dispatched, retiring or not */
		if (umask != 0x07)
			return false;
		emu_dist_binomial(d, 1, (s.ret + s.bs) * w, w);
		return true;
	case 0x1A0: /* de_no_dispatch_per_slot: empty slots by reason */
		if (umask == 0x01) {
			/* whole cycles without ops from the front end: its latency share */
			amd_slot_dist(d, w, s.fe * emu_clamp01(v[SK_fetch_latency_share]), s.fe * w);
			return true;
		}
		if (umask == 0x60) {
			amd_slot_dist(d, w, s.smt, s.smt * w); /* the sibling's cycles: all slots */
			return true;
		}
		if (umask == 0x1E) {
			amd_slot_dist(d, w, 0, s.be * w);
			return true;
		}
		return false;
	case 0xD6: /* ex_no_retire: cycles the oldest op waits to complete (A2H: on a load) */
		if (umask == 0x02)
			emu_dist_bernoulli(d, v[SK_retire_stall]);
		else if (umask == 0xA2)
			emu_dist_bernoulli(d, fmin(v[SK_mem_stall], v[SK_retire_stall]));
		else
			return false;
		emu_ev_stall_runs(&c, d);
		return true;
	case 0xA9: /* de_dis_uop_queue_empty_di0: whole cycles the front end gave nothing */
	case 0x87: /* ic_fetch_stall.ic_stall_any (04H): the fetch stalled those cycles */
		if (event == 0xA9 ? umask != 0 : umask != 0x04)
			return false;
		emu_dist_bernoulli(d, s.fe * emu_clamp01(v[SK_fetch_latency_share]));
		return true;
	case 0xAF: /* de_dis_dispatch_token_stalls0/2.retire_token_stall (20H): the ROB full */
		if (umask != 0x20)
			return false;
		emu_dist_bernoulli(d, v[SK_rob_full_stall]);
		return true;
	case 0xAE: /* de_dis_dispatch_token_stalls1.load_queue (02H) */
		if (umask != 0x02)
			return false;
		emu_dist_bernoulli(d, v[SK_load_stall]);
		return true;
	case 0xD3: /* ex_div_busy */
		if (umask)
			return false;
		emu_dist_bernoulli(d, v[SK_div_busy]);
		return true;
	case 0x60: /* l2_request_g1 */
	case 0x64: /* l2_cache_req_stat */
	case 0x70: /* l2_pf_hit_l2 */
	case 0x71: /* l2_pf_miss_l2_hit_l3 */
	case 0x72: /* l2_pf_miss_l2_l3 */ {
		double per_s;

		if (!amd_l2(&c, &per_s))
			return false;
		emu_ev_per_second(&c, d, per_s);
		return true;
	}
	case 0x85: /* bp_l1_tlb_miss_l2_tlb_miss: instruction fetches missing both TLBs */
		if (!umask)
			return false;
		emu_ev_per_inst(&c, d, v[SK_itlb_miss_per_inst]);
		return true;
	case 0x43: /* ls_dmnd_fills_from_sys */
	case 0x44: /* ls_any_fills_from_sys */
		if (!umask)
			return false; /* 80H alternate memories (CXL): none here, 0 */
		emu_ev_per_second(&c, d, amd_fills(&c));
		return true;
	default:
		return false;
	}
}

/*
 * AMD's uncore, as the kernel's data encodes it:
 *   L3 (amd_l3, one box per CCX; each counts its share of the socket's
 *   lookups): L3LookupState 04H, umask 01H misses, FEH hits, FFH all
 *   coherent accesses; Zen 4 on: XiSampledLatency ACH (the sampled
 *   misses' cycles / 10) and XiSampledLatencyRequests ADH, umask 3FH, the
 *   perf tool's l3_read_miss_latency = ACH x 10 / ADH core clocks; Zen 2
 *   and 3: XiSysFillLatency 90H (cycles / 16) over XiCcxSdpReq1 9AH 3FH.
 *   The truth's l3_miss_latency_ns at the nominal clock.
 *   UMC (amd_umc_N, a channel): UmcMemClk 00H, the DRAM clock (half the
 *   transfer rate); UmcCasCmd 0AH, RdWrMask 1 reads, 2 writes, 0 both.
 */
bool emu_model_amd_uncore(const struct emu_machine *m, enum emu_srv_unit unit, unsigned event,
			  uint64_t umask, const double *sock, const double *chan, int nboxes,
			  double *per_s)
{
	double hits = sock[SK_l3_hit_lines_per_s] / nboxes, misses = sock[SK_l3_miss_lines_per_s] / nboxes;
	double lat = sock[SK_l3_miss_latency_ns] * m->nominal_ghz;

	*per_s = 0;
	switch (unit) {
	case EMU_UNIT_AMD_L3:
		if (event == 0x04 && (umask == 0x01 || umask == 0xFE || umask == 0xFF)) {
			*per_s = (umask & 0x01 ? misses : 0) + (umask & 0xFE ? hits : 0);
			return true;
		}
		if (m->zen >= 4 && (event == 0xAC || event == 0xAD) && umask == 0x3F) {
			*per_s = event == 0xAD ? misses : misses * lat / 10;
			return true;
		}
		if (m->zen < 4 && ((event == 0x90 && !umask) || (event == 0x9A && umask == 0x3F))) {
			*per_s = event == 0x9A ? misses : misses * lat / 16;
			return true;
		}
		return false;
	case EMU_UNIT_AMD_UMC:
		if (!chan)
			return false;
		if (event == 0x00 && !umask) {
			*per_s = m->dram_mts / 2.0 * 1e6;
			return true;
		}
		if (event == 0x0A && umask <= 3) {
			*per_s = (umask != 2 ? chan[SK_read_lines_per_s] : 0) +
				 (umask != 1 ? chan[SK_write_lines_per_s] : 0);
			return true;
		}
		return false;
	default:
		return false;
	}
}

/*
 * The data fabric (amd_df), as the kernel's data encodes its events: one
 * per channel (a coherent station, CS) at event + 40H x N, one per link:
 *   Zen 2/3  DramChannelDataController 07H + 40H N, umask 38H: channel N's
 *            data beats of 64 bytes, reads and writes;
 *            RemoteOutboundDataController 7C7H + 40H N, umask 02H: link N's
 *            outbound beats of 32 bytes
 *   Zen 4    CS N 1FH + 40H N: umask 7FEH reads for this socket's cores,
 *            7FFH their writes, BFEH and BFFH those of the other socket's
 *            (64-byte beats); link N B5FH + 40H N, umask F3EH: outbound
 *            beats of 64 bytes.
 * A channel's lines split by requester as the home logic's local and remote
 * reads (writes) share them; links as four xGMI links sharing the
 * socket's link traffic.
 */
bool emu_model_amd_df(const struct emu_machine *m, unsigned event, uint64_t umask,
		      const double *sock, const double *chan, int nchan, double *per_s)
{
	enum { LINKS = 4 };
	unsigned first = m->perfmon_v2 ? 0x1F : 0x07, link0 = m->perfmon_v2 ? 0xB5F : 0x7C7;
	unsigned n = (event - first) / 0x40;
	double lr = sock[SK_local_reads_per_s], rr = sock[SK_remote_reads_per_s];
	double lw = sock[SK_local_writes_per_s], rw = sock[SK_remote_writes_per_s];
	double rd_local = lr + rr > 0 ? lr / (lr + rr) : 1, wr_local = lw + rw > 0 ? lw / (lw + rw) : 1;

	*per_s = 0;
	if (event >= link0 && (event - link0) % 0x40 == 0 && (event - link0) / 0x40 < 8) {
		if (umask != (m->perfmon_v2 ? 0xF3Eu : 0x02u))
			return false;
		/* the socket's outbound link bytes, in beats of 64 (32 before Zen 4) bytes */
		if ((event - link0) / 0x40 < LINKS)
			*per_s = sock[SK_upi_tx_bytes_per_s] / (m->perfmon_v2 ? 64.0 : 32.0) / LINKS;
		return true;
	}
	if (event < first || (event - first) % 0x40 || n >= 16)
		return false;
	if (n >= (unsigned)nchan || !chan)
		return true; /* a station with no channel behind it: nothing */
	chan += (size_t)n * SK_COUNT;
	if (!m->perfmon_v2) {
		if (umask != 0x38)
			return false;
		*per_s = chan[SK_read_lines_per_s] + chan[SK_write_lines_per_s];
		return true;
	}
	switch (umask) {
	case 0x7FE: *per_s = chan[SK_read_lines_per_s] * rd_local; return true;
	case 0xBFE: *per_s = chan[SK_read_lines_per_s] * (1 - rd_local); return true;
	case 0x7FF: *per_s = chan[SK_write_lines_per_s] * wr_local; return true;
	case 0xBFF: *per_s = chan[SK_write_lines_per_s] * (1 - wr_local); return true;
	default: return false;
	}
}
