/*
 * emu_model: event encodings -> per-cycle distributions and rates.
 * Pure functions.  Event codes and umasks are those of the seeds (000 Table 1
 * and Tables 30-32, 001 Tables 3-1 to 3-3, 002, 003, 004 Table 19-1) and,
 * for the Skylake core events no seed covers, of the SDM (Vol. 3B Table
 * 19-4, the same as libpfm4's skl table), which the layouts program; the
 * emulator knows nothing else.
 */
#include "emu_model.h"
#include "emu_model_int.h"
#include "pmu_regs.h"

#include <math.h>
#include <string.h>

#define UARCH_ALL (~0u)
#define UARCH_NHM_WSM (UARCH(CPUID_UARCH_NEHALEM) | UARCH(CPUID_UARCH_WESTMERE))
#define UARCH_SKL UARCH(CPUID_UARCH_SKYLAKE)
#define UARCH_NHM_WSM_SKL (UARCH_NHM_WSM | UARCH_SKL)
#define UARCH_CORE2 UARCH(CPUID_UARCH_CORE2)

double emu_clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

void emu_dist_zero(struct emu_dist *d)
{
	memset(d, 0, sizeof(*d));
	d->h[0] = 1;
	d->run_len = 1;
	d->run_side = EMU_RUN_LT;
}

/*
 * Value 0 with probability 1 - P_ACTIVE, else 1 + Binomial(WIDTH - 1, q)
 * with q chosen so that the mean is MEAN.  P(value == 0) is exact; that is
 * what cmask=1 stall counts see.
 */
void emu_dist_binomial(struct emu_dist *d, double p_active, double mean, unsigned width)
{
	double q, pw = 1;
	unsigned n = width - 1;

	emu_dist_zero(d);
	if (mean <= 0 || p_active <= 0)
		return;
	if (mean < p_active)
		p_active = mean; /* a value of at least 1 on every active cycle */
	if (mean > p_active * width)
		mean = p_active * width;
	q = n ? emu_clamp01((mean / p_active - 1) / n) : 0;
	d->h[0] = 1 - p_active;
	for (unsigned j = 0; j <= n && j + 1 < EMU_HIST_BINS; j++) {
		double c = 1; /* binomial coefficient n over j */

		for (unsigned i = 0; i < j; i++)
			c = c * (n - i) / (i + 1);
		pw = pow(q, j) * pow(1 - q, n - j);
		d->h[j + 1] = p_active * c * pw;
	}
}

void emu_dist_bernoulli(struct emu_dist *d, double p)
{
	emu_dist_zero(d);
	p = emu_clamp01(p);
	d->h[0] = 1 - p;
	d->h[1] = p;
}

/* Distribution of the number of busy ports among NQ independent ports busy with probabilities Q. */
void emu_poisson_binomial(const double *q, unsigned nq, double *pb)
{
	memset(pb, 0, sizeof(double) * EMU_HIST_BINS);
	pb[0] = 1;
	for (unsigned p = 0; p < nq; p++)
		for (int k = (int)nq; k >= 0; k--)
			pb[k] = pb[k] * (1 - q[p]) + (k ? pb[k - 1] * q[p] : 0);
}

double emu_dist_mean(const struct emu_dist *d)
{
	double m = 0;

	for (int k = 1; k < EMU_HIST_BINS; k++)
		m += k * d->h[k];
	return m;
}

double emu_dist_ge(const struct emu_dist *d, unsigned c)
{
	double p = 0;

	for (unsigned k = c; k < EMU_HIST_BINS; k++)
		p += d->h[k];
	return c == 0 ? 1 : p;
}

void emu_dist_convolve(const struct emu_dist *a, const struct emu_dist *b, struct emu_dist *out)
{
	struct emu_dist r = *a;

	memset(r.h, 0, sizeof(r.h));
	for (int i = 0; i < EMU_HIST_BINS; i++)
		for (int j = 0; j < EMU_HIST_BINS; j++) {
			int k = i + j < EMU_HIST_BINS ? i + j : EMU_HIST_BINS - 1;

			r.h[k] += a->h[i] * b->h[j];
		}
	*out = r;
}

/* ---- per-thread quantities derived from the truth ----------------------- */

double emu_uops_retired(const double *v)
{
	return v[SK_ipc] * v[SK_uops_per_inst];
}

/* Executed uops per unhalted cycle on each port (shares normalised over NPORTS). */
void emu_port_rates(const double *v, unsigned nports, double *rate)
{
	double total = 0, exec = emu_uops_retired(v) * v[SK_exec_ratio];

	for (unsigned p = 0; p < nports; p++)
		total += v[SK_port0 + p];
	for (unsigned p = 0; p < nports; p++)
		rate[p] = total > 0 ? exec * v[SK_port0 + p] / total : 0;
}

/* ---- hyper-threading: the core shared ---------------------------------- */

static unsigned emu_nports(const struct emu_machine *m)
{
	return emu_machine_uarch(m) == CPUID_UARCH_SKYLAKE ? 8 : 6;
}

void emu_model_smt(const struct emu_machine *m, double (*v)[SK_COUNT], int n)
{
	/* demand per unhalted cycle: issue, each port, the divider */
	enum { ISSUE, DIV, PORT0 };
	double demand[8][PORT0 + 8], total[PORT0 + 8] = { 0 }, k = 1, s[8];
	unsigned nports = emu_nports(m), nres = PORT0 + nports;

	for (int i = 0; i < n && i < 8; i++) {
		double rate[8];

		emu_port_rates(v[i], nports, rate);
		demand[i][ISSUE] = 1 - v[i][SK_issue_stall];
		demand[i][DIV] = v[i][SK_div_busy];
		for (unsigned p = 0; p < nports; p++)
			demand[i][PORT0 + p] = rate[p];
		for (unsigned r = 0; r < nres; r++)
			total[r] += v[i][SK_util] > 0 ? demand[i][r] : 0;
	}
	for (unsigned r = 0; r < nres; r++)
		k = fmax(k, total[r]);
	for (int i = 0; i < n && i < 8; i++) {
		double alone = 1, k_self = 1; /* the others all halted; what the thread asks alone */

		for (int j = 0; j < n && j < 8; j++)
			if (j != i)
				alone *= 1 - v[j][SK_util];
		for (unsigned r = 0; r < nres; r++)
			k_self = fmax(k_self, demand[i][r]);
		s[i] = alone / k_self + (1 - alone) / fmax(k, k_self);
	}
	for (int i = 0; i < n && i < 8; i++) {
		/* the issue slots: an equal turn with each sibling unhalted in the same cycle */
		double busy[9] = { 1 }, share = 0;
		int nb = 0;

		for (int j = 0; j < n && j < 8; j++) {
			if (j == i)
				continue;
			for (int b = ++nb; b > 0; b--)
				busy[b] = busy[b] * (1 - v[j][SK_util]) + busy[b - 1] * v[j][SK_util];
			busy[0] *= 1 - v[j][SK_util];
		}
		for (int b = 0; b <= nb; b++)
			share += busy[b] / (1 + b);
		v[i][SK_slot_share] = share;
	}
	for (int i = 0; i < n && i < 8; i++) {
		v[i][SK_ipc] *= s[i];
		v[i][SK_div_busy] *= s[i];
		v[i][SK_issue_stall] = 1 - (1 - v[i][SK_issue_stall]) * s[i];
		v[i][SK_exec_stall] = 1 - (1 - v[i][SK_exec_stall]) * s[i];
		v[i][SK_retire_stall] = 1 - (1 - v[i][SK_retire_stall]) * s[i];
	}
}

/* ---- core events ------------------------------------------------------- */



static void emu_ev_cycles(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_dist_bernoulli(d, 1);
	d->condition = true; /* AnyThread: the cycles any thread of the core is unhalted */
}

static void emu_ev_ref_cycles(const struct emu_core_ctx *c, struct emu_dist *d)
{
	double ghz = c->v[SK_ghz] > 0 ? c->v[SK_ghz] : c->m->nominal_ghz;

	emu_dist_binomial(d, 1, c->m->nominal_ghz / ghz, EMU_HIST_BINS - 1);
}

static void emu_ev_inst(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_dist_binomial(d, 1 - c->v[SK_retire_stall], c->v[SK_ipc], 4);
}

/* A per-instruction event counted at most once per cycle. */
void emu_ev_per_inst(const struct emu_core_ctx *c, struct emu_dist *d, double per_inst)
{
	emu_dist_bernoulli(d, c->v[SK_ipc] * per_inst);
}

static void emu_ev_llc(const struct emu_core_ctx *c, struct emu_dist *d)
{
	double refs = c->v[SK_llc_ref_per_inst];

	emu_ev_per_inst(c, d, c->umask == 0x41 ? refs * c->v[SK_llc_miss_ratio] : refs);
}

static void emu_ev_branches(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_ev_per_inst(c, d, c->v[SK_branch_per_inst]);
}

static void emu_ev_branch_misses(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_ev_per_inst(c, d, c->v[SK_branch_per_inst] * c->v[SK_branch_miss_ratio]);
}

void emu_ev_stall_runs(const struct emu_core_ctx *c, struct emu_dist *d)
{
	d->run_len = c->v[SK_stall_len];
	d->run_side = EMU_RUN_LT;
}

/*
 * UOPS_EXECUTED (B1H): umask bits 0-5 select ports 0-5, 40H = ports 0,1,5,
 * 80H = ports 2,3,4.  Model: on a fraction exec_stall of the unhalted cycles
 * no ALU port (0, 1, 5) dispatches; on the others at least one does, the
 * ports being independent given that (a zero-truncated product, whose
 * probabilities Q are solved so that each port's mean is its rate).  The
 * memory ports are independent of the ALU ports.  Thus P(nothing on 0,1,5)
 * is exec_stall exactly, and the mean over any port set is the sum of its
 * rates.  A scenario asking for fewer stalls than its uop rate allows
 * (sum of ALU rates < 1 - exec_stall) gets the least stall that is possible.
 */
static void emu_ev_uops_executed(const struct emu_core_ctx *c, struct emu_dist *d)
{
	static const unsigned alu[3] = { 0, 1, 5 }, mem[3] = { 2, 3, 4 };
	double rate[6], q[3], qs[3], qm[3], none_alu = 1, sum_alu = 0, s, pb[EMU_HIST_BINS];
	struct emu_dist a, m;
	unsigned ports = c->umask & 0x3F, ns = 0, nm = 0;

	if (c->umask & 0x40)
		ports |= BIT(0) | BIT(1) | BIT(5);
	if (c->umask & 0x80)
		ports |= BIT(2) | BIT(3) | BIT(4);
	emu_port_rates(c->v, 6, rate);
	for (unsigned k = 0; k < 3; k++)
		sum_alu += rate[alu[k]];
	s = emu_clamp01(fmax(c->v[SK_exec_stall], 1 - sum_alu));
	emu_dist_zero(&a);
	if (s < 1 && sum_alu <= (1 - s) * (1 + 1e-12)) {
		/* as few stalls as the uops allow: every active cycle dispatches exactly one uop */
		double sel = 0;

		for (unsigned k = 0; k < 3; k++)
			if (ports & BIT(alu[k]))
				sel += rate[alu[k]] / sum_alu;
		a.h[0] = s + (1 - s) * (1 - sel);
		a.h[1] = (1 - s) * sel;
	} else if (s < 1) {
		/*
		 * Solve z = P(at least one busy) = 1 - prod(1 - z c_k), c_k = rate_k / (1 - s),
		 * for its non-zero root by bisection (sum c_k > 1 makes it exist), so that
		 * q_k = z c_k gives each port its rate exactly.
		 */
		double cr[3], lo = 1e-12, hi = 1;

		for (unsigned k = 0; k < 3; k++)
			cr[k] = rate[alu[k]] / (1 - s);
		for (int it = 0; it < 100; it++) {
			double z = (lo + hi) / 2, none = 1;

			for (unsigned k = 0; k < 3; k++)
				none *= 1 - emu_clamp01(z * cr[k]);
			if (1 - none > z)
				lo = z;
			else
				hi = z;
		}
		for (unsigned k = 0; k < 3; k++)
			q[k] = emu_clamp01(lo * cr[k]);
		for (unsigned k = 0; k < 3; k++) {
			none_alu *= 1 - q[k];
			if (ports & BIT(alu[k]))
				qs[ns++] = q[k];
		}
		emu_poisson_binomial(qs, ns, pb);
		/* condition on at least one ALU port busy: remove the all-idle case */
		pb[0] -= none_alu;
		for (int k = 0; k < EMU_HIST_BINS; k++)
			a.h[k] = (1 - s) * pb[k] / (1 - none_alu) + (k == 0 ? s : 0);
	}
	emu_dist_zero(&m);
	for (unsigned k = 0; k < 3; k++)
		if (ports & BIT(mem[k]))
			qm[nm++] = emu_clamp01(rate[mem[k]]);
	emu_poisson_binomial(qm, nm, m.h);
	emu_dist_convolve(&a, &m, d);
	/* seed 000: the memory ports 2, 3, 4 count per core, never per thread */
	d->core_wide = (ports & (BIT(2) | BIT(3) | BIT(4))) != 0;
	emu_ev_stall_runs(c, d);
}

/*
 * UOPS_ISSUED (0EH): 01H ANY counts a fused pair once, 02H FUSED counts the
 * fused pairs, so ANY + FUSED is every uop issued (seed 000, "Wasted Work").
 */
static void emu_ev_uops_issued(const struct emu_core_ctx *c, struct emu_dist *d)
{
	double issued = emu_uops_retired(c->v) * c->v[SK_issue_ratio];
	double fused = issued * c->v[SK_fused_share];

	if (c->umask == 0x02)
		emu_dist_bernoulli(d, fused);
	else
		emu_dist_binomial(d, 1 - c->v[SK_issue_stall], issued - fused, 4);
	emu_ev_stall_runs(c, d);
	d->exclusive = true;
}

static void emu_ev_uops_retired(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_dist_binomial(d, 1 - c->v[SK_retire_stall], emu_uops_retired(c->v), 4);
	emu_ev_stall_runs(c, d);
}

/* RESOURCE_STALLS (A2H): 01H any, 02H load, 04H RS full, 08H store, 10H ROB full. */
static void emu_ev_resource_stalls(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const double *v = c->v;
	unsigned u = c->umask & 0x01 ? 0x1E : c->umask;
	double p = (u & 0x02 ? v[SK_load_stall] : 0) + (u & 0x04 ? v[SK_rs_full_stall] : 0) +
		   (u & 0x08 ? v[SK_store_stall] : 0) + (u & 0x10 ? v[SK_rob_full_stall] : 0);

	emu_dist_bernoulli(d, p);
}

/* ARITH.CYCLES_DIV_BUSY (14H/01H); with cmask 1, inv, edge it counts divides. */
static void emu_ev_div(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_dist_bernoulli(d, c->v[SK_div_busy]);
	d->run_len = c->v[SK_div_latency];
	d->run_side = EMU_RUN_GE;
}

/* A rate per second of the thread, spread over its unhalted cycles. */
void emu_ev_per_second(const struct emu_core_ctx *c, struct emu_dist *d, double per_s)
{
	emu_dist_bernoulli(d, c->cycles_per_s > 0 ? per_s / c->cycles_per_s : 0);
}

/*
 * MEM_UNCORE_RETIRED (0FH): 10H remote DRAM on both; local DRAM is 20H on
 * Nehalem (seed 002) and 08H LOCAL_DRAM_AND_REMOTE_CACHE_HIT on Westmere,
 * where 20H means OTHER_LLC_MISS (libpfm4's wsm_dp table).  The truth has
 * no remote cache hits, so 08H is the local DRAM loads.
 */
static void emu_ev_mem_uncore_retired(const struct emu_core_ctx *c, struct emu_dist *d)
{
	bool wsm = emu_machine_uarch(c->m) ==
		   CPUID_UARCH_WESTMERE;
	unsigned local = wsm ? 0x08 : 0x20;
	double per_s = (c->umask & 0x10 ? c->v[SK_remote_dram_loads_per_s] : 0) +
		       (c->umask & local ? c->v[SK_local_dram_loads_per_s] : 0);

	emu_ev_per_second(c, d, per_s);
}

/*
 * MEM_LOAD_L3_MISS_RETIRED (D3H; Intel's data for the servers from
 * Skylake-SP on): 01H LOCAL_DRAM, 02H REMOTE_DRAM, the retired loads that
 * missed the L3 and were served by this socket's memory or another's; the
 * truth has no remote cache hits (04H REMOTE_HITM, 08H REMOTE_FWD: none).
 */
static void emu_ev_l3_miss_retired(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_ev_per_second(c, d, (c->umask & 0x01 ? c->v[SK_local_dram_loads_per_s] : 0) +
				(c->umask & 0x02 ? c->v[SK_remote_dram_loads_per_s] : 0));
}

/* MEM_LOAD_RETIRED.LLC_UNSHARED_HIT (CBH/04H, seed 000): retired loads that hit the L3 unshared. */
static void emu_ev_mem_load_retired(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_ev_per_second(c, d, c->v[SK_l3_hit_loads_per_s]);
}

/*
 * OFF_CORE_RESPONSE_0/1 (B7H, BBH, umask 01H) with the request/response
 * matrix in MSR 1A6H/1A7H (seed 000 Table 9): the truth has lines from local
 * or remote DRAM by request type: demand data reads (bit 0, which includes
 * the L1D prefetcher), demand RFOs (bit 1), L2 prefetcher data reads (bit 4)
 * and RFOs (bit 5); instruction fetches, writebacks and "other" bring none.
 * An event counts the lines of every selected request type from every
 * selected response.  Response bits: remote DRAM is bit 13 on both; local
 * DRAM is bit 14 on Nehalem and bit 12 LOCAL_DRAM_AND_REMOTE_CACHE_HIT on
 * Westmere, where bit 14 is OTHER_LLC_MISS (libpfm4's wsm_dp table).
 */
static void emu_ev_offcore(const struct emu_core_ctx *c, struct emu_dist *d)
{
	static const struct {
		unsigned bit;
		enum scenario_key local, remote;
	} requests[] = {
		{ 0, SK_local_dram_read_lines_per_s, SK_remote_dram_read_lines_per_s },
		{ 1, SK_local_dram_rfo_lines_per_s, SK_remote_dram_rfo_lines_per_s },
		{ 4, SK_local_dram_pf_read_lines_per_s, SK_remote_dram_pf_read_lines_per_s },
		{ 5, SK_local_dram_pf_rfo_lines_per_s, SK_remote_dram_pf_rfo_lines_per_s },
	};
	bool wsm = emu_machine_uarch(c->m) ==
		   CPUID_UARCH_WESTMERE;
	uint64_t local = wsm ? BIT(12) : BIT(14);
	double per_s = 0;

	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
		if (!(c->offcore & BIT(requests[i].bit)))
			continue;
		if (c->offcore & local)
			per_s += c->v[requests[i].local];
		if (c->offcore & BIT(13))
			per_s += c->v[requests[i].remote];
	}
	emu_ev_per_second(c, d, per_s);
}

/* ---- Core 2 events (seed 003, SDM Vol. 3B Table 19-23) ------------------ */

/*
 * BUS_HIT_DRV (7AH) / BUS_HITM_DRV (7BH), THIS_AGENT: "the number of bus
 * cycles during which the processor drives the HIT# / HITM# pin" (seed
 * 003): each snoop that hits a clean / modified line here drives the pin for
 * snoop_drv_cycles bus cycles.  The truth is per CPU and is spread over its
 * unhalted cycles (a halted core's snoop responses are not modelled).
 */
static void emu_ev_core2_hit_drv(const struct emu_core_ctx *c, struct emu_dist *d)
{
	double snoops = c->event == 0x7B ? c->v[SK_hitm_per_s] : c->v[SK_snoop_hit_per_s];

	emu_ev_per_second(c, d, snoops * c->v[SK_snoop_drv_cycles]);
}

/* L1I_MISSES (81H/00H): instruction fetches that miss the IFU, once per miss. */
static void emu_ev_core2_l1i(const struct emu_core_ctx *c, struct emu_dist *d)
{
	emu_ev_per_inst(c, d, c->v[SK_l1i_miss_per_inst]);
}

/* ITLB (82H): 02H SMALL_MISS, 10H LARGE_MISS (12H both). */
static void emu_ev_core2_itlb(const struct emu_core_ctx *c, struct emu_dist *d)
{
	double large = c->v[SK_itlb_large_share];

	emu_ev_per_inst(c, d, c->v[SK_itlb_miss_per_inst] * ((c->umask & 0x02 ? 1 - large : 0) +
							   (c->umask & 0x10 ? large : 0)));
}

static const struct emu_core_row {
	unsigned event;
	unsigned umask;      /* the umask bits this row answers for */
	bool umask_exact;    /* umask must equal UMASK, else any non-empty subset */
	unsigned uarchs;
	bool l3_miss_sources; /* only where the machine has the event (emu_machine.l3_miss_sources) */
	emu_core_fn *fn;
} emu_core_rows[] = {
	/* architectural events, seed 004 Table 19-1 */
	{ .event = 0x3C, .umask = 0x00, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_cycles },
	{ .event = 0x3C, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_ref_cycles },
	{ .event = 0xC0, .umask = 0x00, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_inst },
	{ .event = 0x2E, .umask = 0x4F, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_llc },
	{ .event = 0x2E, .umask = 0x41, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_llc },
	{ .event = 0xC4, .umask = 0x00, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_branches },
	{ .event = 0xC5, .umask = 0x00, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_branch_misses },
	/* Nehalem / Westmere, seed 000 Table 1, seed 002 */
	{ .event = 0xC0, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_inst },
	{ .event = 0xB1, .umask = 0xFF, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_uops_executed },
	{ .event = 0x0E, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_uops_issued },
	{ .event = 0x0E, .umask = 0x02, .umask_exact = true, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_uops_issued },
	{ .event = 0xC2, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_NHM_WSM_SKL, .fn = emu_ev_uops_retired },
	{ .event = 0xC2, .umask = 0x02, .umask_exact = true, .uarchs = UARCH_NHM_WSM_SKL, .fn = emu_ev_uops_retired },
	{ .event = 0xA2, .umask = 0x1F, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_resource_stalls },
	{ .event = 0x14, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_div },
	{ .event = 0x0F, .umask = 0x30, .uarchs = UARCH(CPUID_UARCH_NEHALEM), .fn = emu_ev_mem_uncore_retired },
	{ .event = 0x0F, .umask = 0x18, .uarchs = UARCH(CPUID_UARCH_WESTMERE), .fn = emu_ev_mem_uncore_retired },
	{ .event = 0xCB, .umask = 0x04, .umask_exact = true, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_mem_load_retired },
	{ .event = 0xB7, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_NHM_WSM, .fn = emu_ev_offcore },
	{ .event = 0xBB, .umask = 0x01, .umask_exact = true, .uarchs = UARCH(CPUID_UARCH_WESTMERE), .fn = emu_ev_offcore },
	/* Skylake client: C2H above; SDM Vol. 3B Table 19-4 */
	{ .event = 0x0E, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_uops_issued },
	{ .event = 0x0D, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_recovery },
	{ .event = 0x9C, .umask = 0x01, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_not_delivered },
	{ .event = 0xA3, .umask = 0x04, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_cycle_activity },
	{ .event = 0xA3, .umask = 0x14, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_cycle_activity },
	{ .event = 0xA3, .umask = 0x06, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_cycle_activity },
	{ .event = 0xA3, .umask = 0x0C, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_cycle_activity },
	{ .event = 0xA3, .umask = 0x05, .umask_exact = true, .uarchs = UARCH_SKL, .fn = emu_ev_skl_cycle_activity },
	{ .event = 0xA1, .umask = 0xFF, .uarchs = UARCH_SKL, .fn = emu_ev_skl_ports },
	{ .event = 0xA6, .umask = 0x5F, .uarchs = UARCH_SKL, .fn = emu_ev_skl_exe_activity },
	/* the servers from Skylake-SP on: loads served by local and remote memory */
	{ .event = 0xD3, .umask = 0x0F, .uarchs = UARCH_ALL, .l3_miss_sources = true,
	  .fn = emu_ev_l3_miss_retired },
	/* Ice Lake and later: TOPDOWN.SLOTS, fixed counter 3's event (emu_model_tma.c) */
	{ .event = 0x00, .umask = 0x04, .umask_exact = true, .uarchs = UARCH_ALL, .fn = emu_ev_tma_slots },
	/* Core 2, seed 003 */
	{ .event = 0x7A, .umask = 0x00, .umask_exact = true, .uarchs = UARCH_CORE2, .fn = emu_ev_core2_hit_drv },
	{ .event = 0x7B, .umask = 0x00, .umask_exact = true, .uarchs = UARCH_CORE2, .fn = emu_ev_core2_hit_drv },
	{ .event = 0x81, .umask = 0x00, .umask_exact = true, .uarchs = UARCH_CORE2, .fn = emu_ev_core2_l1i },
	{ .event = 0x82, .umask = 0x12, .uarchs = UARCH_CORE2, .fn = emu_ev_core2_itlb },
};

bool emu_model_core(const struct emu_machine *m, unsigned event, unsigned umask, uint64_t offcore,
		    const double *v, struct emu_dist *d)
{
	enum cpuid_uarch ua = emu_machine_uarch(m);
	double ghz = v[SK_ghz] > 0 ? v[SK_ghz] : m->nominal_ghz;
	struct emu_core_ctx c = {
		.m = m, .event = event, .umask = umask, .offcore = offcore, .v = v,
		.cycles_per_s = v[SK_util] * ghz * 1e9,
	};

	if (m->amd)
		return emu_model_amd_core(m, event, umask, v, d) || emu_model_events(&c, d);
	if (m->e_core && emu_model_atom_core(m, event, umask, v, d))
		return true;
	if (!m->e_core && emu_model_ports(m, event, umask, v, d))
		return true;
	if (emu_model_events(&c, d))
		return true;
	for (size_t i = 0; i < sizeof(emu_core_rows) / sizeof(emu_core_rows[0]); i++) {
		const struct emu_core_row *r = &emu_core_rows[i];

		if (r->event != event || !(r->uarchs & UARCH(ua)) ||
		    (r->l3_miss_sources && !m->l3_miss_sources))
			continue;
		if (r->umask_exact ? umask != r->umask : (umask == 0 || (umask & ~r->umask)))
			continue;
		emu_dist_zero(d);
		r->fn(&c, d);
		return true;
	}
	emu_dist_zero(d);
	return false;
}
