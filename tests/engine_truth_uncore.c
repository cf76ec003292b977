/*
 * engine_truth_uncore: the uncore's truth of the engine's Check programs
 * (engine_run.h): the memory channels, home logic and links of a socket
 * from the scenario's quantities, and the check of a sample against it.
 */
#include "engine_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cpuid.h"
#include "emu.h"
#include "emu_perf.h"
#include "engine.h"
#include "layout.h"
#include "msr.h"
#include "msr_source.h"
#include "pmu_regs.h"
#include "source_int.h"

/* The truth of socket SOCKET (CH < 0) or of its channel CH, averaged over the last interval. */
void truth_unc(const struct run *r, int socket, int ch, double *v)
{
	const int n = 50;
	double one[SK_COUNT];

	memset(v, 0, sizeof(double) * SK_COUNT);
	for (int i = 0; i < n; i++) {
		double t = r->t_start + (r->t - r->t_start) * (i + 0.5) / n;
		double chan[8][SK_COUNT];
		int nch = r->src->channels < 8 ? r->src->channels : 8;

		/* the channels read what the home logic is asked for (seed 000: QHL = IMC reads) */
		scenario_eval_socket(emu_scenario(r->src->emu), t, socket, nch, one, chan);
		for (int k = 0; k < SK_COUNT; k++)
			v[k] += (ch < 0 ? one[k] : chan[ch][k]) / n;
	}
}

/* X / Y, NAN when nothing was asked for (Y == 0): the metric is n/a then. */
double ratio_or_nan(double x, double y)
{
	return y > 0 ? x / y : NAN;
}

/*
 * Uncore metric NAME of a socket (S its truth, C its channels' truths, NCH
 * of them; C = the one channel and NCH = 1 for a channel), from the seed
 * definitions: 64 bytes a line, occupancy / requests = latency (Little).
 */
double truth_uncore(const struct run *r, const char *name, const double *sk,
		    double (*c)[SK_COUNT], int nch)
{
	double rd = 0, wr = 0, peak = r->src->dram_mts * 8e6 * nch;

	for (int i = 0; i < nch; i++) {
		rd += c[i][SK_read_lines_per_s];
		wr += c[i][SK_write_lines_per_s];
	}
	if (!strcmp(name, "read_bytes_per_s"))
		return 64 * rd;
	if (!strcmp(name, "write_bytes_per_s"))
		return 64 * wr;
	if (!strcmp(name, "dram_peak_pct"))
		return 100 * 64 * (rd + wr) / peak;
	{
		/* seed 000 Tables 32, 33: queue occupancy / requests; busy = not empty (Poisson arrivals) */
		double occ = 0, rbusy = 0, wbusy = 0;

		for (int i = 0; i < nch; i++) {
			occ += c[i][SK_read_lines_per_s] * c[i][SK_imc_read_latency_ns] * 1e-9;
			rbusy += 1 - exp(-c[i][SK_read_lines_per_s] * c[i][SK_imc_read_latency_ns] * 1e-9);
			wbusy += 1 - exp(-c[i][SK_write_lines_per_s] * c[i][SK_imc_write_latency_ns] * 1e-9);
		}
		if (!strcmp(name, "imc_read_latency_ns"))
			return rd > 0 ? 1e9 * occ / rd : NAN;
		if (!strcmp(name, "imc_read_queue"))
			return occ;
		if (!strcmp(name, "read_busy_pct"))
			return 100 * rbusy / nch;
		if (!strcmp(name, "write_busy_pct"))
			return 100 * wbusy / nch;
	}
	if (!sk)
		return NAN; /* the rest are socket metrics */
	if (!strcmp(name, "partial_writes_per_s"))
		return sk[SK_partial_writes_per_s];
	/* RAPL: energy over time (power x time = energy); UPI: the vendor's 64/9 bytes a data flit */
	if (!strcmp(name, "package_watts"))
		return sk[SK_package_watts];
	if (!strcmp(name, "dram_watts"))
		return sk[SK_dram_watts];
	/* the residency counters count TSC ticks in the state: the share of the time, in % */
	if (!strcmp(name, "core_c6_pct"))
		return 100 * sk[SK_core_c6_share];
	if (!strcmp(name, "pkg_c6_pct"))
		return 100 * sk[SK_pkg_c6_share];
	if (!strcmp(name, "upi_tx_bytes_per_s"))
		return sk[SK_upi_tx_bytes_per_s];
	if (!strcmp(name, "upi_rx_bytes_per_s"))
		return sk[SK_upi_rx_bytes_per_s];
	/* seed 000 Table 39: the home logic's reads include the InvtoE of uncacheable writes */
	if (!strcmp(name, "uncacheable_writes_per_s"))
		return sk[SK_local_reads_per_s] + sk[SK_uc_writes_per_s] + sk[SK_remote_reads_per_s] +
		       sk[SK_ioh_reads_per_s] - rd;
	if (!strcmp(name, "remote_read_latency_ns"))
		return sk[SK_remote_reads_per_s] > 0 ? sk[SK_remote_read_latency_ns] : NAN;
	if (!strcmp(name, "ioh_read_latency_ns"))
		return sk[SK_ioh_reads_per_s] > 0 ? sk[SK_ioh_read_latency_ns] : NAN;
	{
		/* seed 000 Table 22: the read period is the data's time plus the GQ's bookkeeping */
		double hits = sk[SK_l3_hit_lines_per_s], misses = sk[SK_l3_miss_lines_per_s];

		if (!strcmp(name, "gq_read_period_ns"))
			return hits + misses > 0
			       ? (hits * sk[SK_l3_response_ns] + misses * sk[SK_l3_miss_latency_ns]) /
					 (hits + misses) + sk[SK_gq_overhead_ns]
			       : NAN;
		if (!strcmp(name, "l3_response_latency_ns"))
			return hits + misses > 0 ? sk[SK_l3_response_ns] : NAN;
	}
	if (!strcmp(name, "dram_by_local_bytes_per_s"))
		return 64 * (sk[SK_local_reads_per_s] + sk[SK_local_writes_per_s]);
	if (!strcmp(name, "dram_by_remote_bytes_per_s"))
		return 64 * (sk[SK_remote_reads_per_s] + sk[SK_remote_writes_per_s]);
	if (!strcmp(name, "dram_by_ioh_bytes_per_s"))
		return 64 * (sk[SK_ioh_reads_per_s] + sk[SK_ioh_writes_per_s]);
	if (!strcmp(name, "qpi_data_to_remote_bytes_per_s"))
		return 64 * sk[SK_remote_reads_per_s];
	if (!strcmp(name, "qpi_data_from_remote_bytes_per_s"))
		return 64 * sk[SK_remote_writes_per_s];
	if (!strcmp(name, "local_read_latency_ns"))
		return sk[SK_local_reads_per_s] > 0 ? sk[SK_read_latency_ns] : NAN;
	if (!strcmp(name, "l3_hit_ratio"))
		return ratio_or_nan(sk[SK_l3_hit_lines_per_s],
				    sk[SK_l3_hit_lines_per_s] + sk[SK_l3_miss_lines_per_s]);
	if (!strcmp(name, "l3_lines_in_per_s") || !strcmp(name, "l3_misses_per_s"))
		return sk[SK_l3_miss_lines_per_s];
	if (!strcmp(name, "l3_lines_out_per_s"))
		return sk[SK_l3_evict_lines_per_s];
	if (!strcmp(name, "l3_miss_latency_ns"))
		return sk[SK_l3_miss_lines_per_s] > 0 ? sk[SK_l3_miss_latency_ns] : NAN;
	if (!strcmp(name, "l3_lookups_per_s"))
		return sk[SK_l3_hit_lines_per_s] + sk[SK_l3_miss_lines_per_s];
	if (!strcmp(name, "xsnp_hitm_per_s"))
		return sk[SK_xsnp_hitm_per_s];
	/* seed 001: the tracker counts the cores' outgoing entries, not graphics' or I/O's */
	if (!strcmp(name, "arb_requests_per_s"))
		return rd + wr - sk[SK_gt_requests_per_s] - sk[SK_io_requests_per_s];
	if (!strcmp(name, "arb_latency_ns"))
		return rd + wr - sk[SK_gt_requests_per_s] - sk[SK_io_requests_per_s] > 0
		       ? sk[SK_read_latency_ns] : NAN;
	if (!strcmp(name, "arb_outstanding"))
		return (rd + wr - sk[SK_gt_requests_per_s] - sk[SK_io_requests_per_s]) *
		       sk[SK_read_latency_ns] * 1e-9;
	if (!strcmp(name, "gt_request_pct"))
		return ratio_or_nan(100 * sk[SK_gt_requests_per_s], rd + wr);
	if (!strcmp(name, "io_request_pct"))
		return ratio_or_nan(100 * sk[SK_io_requests_per_s], rd + wr);
	if (!strcmp(name, "ia_request_pct"))
		return ratio_or_nan(100 * (rd + wr - sk[SK_gt_requests_per_s] - sk[SK_io_requests_per_s]),
				    rd + wr);
	return NAN;
}

/* Uncore metrics of every socket and channel against the truth; how many were checked. */
int check_uncore_truth(struct run *r, const struct sample *s, double rel)
{
	const struct layout *l = r->l;
	int checked = 0, nch = r->src->channels;

	for (int k = 0; k < s->nsockets; k++) {
		double sk[SK_COUNT], c[8][SK_COUNT];

		truth_unc(r, k, -1, sk);
		for (int ch = 0; ch < nch && ch < 8; ch++)
			truth_unc(r, k, ch, c[ch]);
		for (int m = 0; m < l->nmetrics; m++) {
			const struct layout_metric *mt = &l->metrics[m];
			double want, got;

			if (mt->group < 0 || l->groups[mt->group].pmu == LAYOUT_PMU_CORE ||
			    s->groups[mt->group].state == SAMPLE_GROUP_OFF ||
			    s->groups[mt->group].state == SAMPLE_GROUP_BLOCKED)
				continue;
			got = sample_metric(s, &s->sockets[k], m);
			want = truth_uncore(r, mt->name, sk, c, nch);
			if (!isnan(want) || !isnan(got)) {
				/* a difference of counts is held to REL of its operands, as each carries its own */
				double base = !strcmp(mt->name, "uncacheable_writes_per_s")
					      ? sk[SK_local_reads_per_s] + sk[SK_remote_reads_per_s] +
						sk[SK_ioh_reads_per_s] : 0;

				ck_assert_msg(close_enough(got, want, rel, mt->unit, base), "socket %d %s: "
					      "%g, truth %g", k, mt->name, got, want);
				checked++;
			}
			for (int ch = 0; ch < sample_nchannels(s) && mt->scope == LAYOUT_CHANNEL; ch++) {
				got = sample_metric(s, sample_channel(s, k, ch), m);
				want = truth_uncore(r, mt->name, NULL, &c[ch], 1);
				ck_assert_msg(close_enough(got, want, rel, mt->unit, 0), "socket %d channel "
					      "%d %s: %g, truth %g", k, ch, mt->name, got, want);
				checked++;
			}
		}
	}
	return checked;
}
