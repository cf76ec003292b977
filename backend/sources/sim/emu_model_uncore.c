/*
 * emu_model_uncore: the per-socket event model: what each uncore encoding
 * (Nehalem/Westmere uncore, Skylake CBo and ARB) and each Skylake IMC
 * counter counts per second, from the scenario's socket and channel truth.
 * Pure functions; see emu_model.h.
 */
#include "emu_model.h"
#include "pmu_regs.h"
#include <math.h>
#include <string.h>


static double emu_chan_sum(const double (*chan)[SK_COUNT], int nchan, unsigned mask,
			   enum scenario_key key)
{
	double s = 0;

	for (int ch = 0; ch < nchan; ch++)
		if (mask & BIT(ch))
			s += chan[ch][key];
	return s;
}

/* Occupancy integral per second (requests x time each, Little's law) in uncore cycles. */
static double emu_occupancy(double per_s, double ns, const double *sock)
{
	return per_s * ns * 1e-9 * sock[SK_uncore_ghz] * 1e9;
}

/* Uncore cycles per second a queue of mean occupancy (PER_S x NS) is not empty: Poisson. */
static double emu_busy(double per_s, double ns, const double *sock)
{
	return sock[SK_uncore_ghz] * 1e9 * (1 - exp(-per_s * ns * 1e-9));
}

/* Over the channels in MASK (bits 0-2): read or write queue occupancy, or its busy cycles. */
static double emu_chan_each(const double (*chan)[SK_COUNT], int nchan, unsigned mask,
			    const double *sock, bool write, bool busy)
{
	double s = 0;

	for (int ch = 0; ch < nchan; ch++) {
		double n = chan[ch][write ? SK_write_lines_per_s : SK_read_lines_per_s];
		double ns = chan[ch][write ? SK_imc_write_latency_ns : SK_imc_read_latency_ns];

		if (mask & BIT(ch))
			s += busy ? emu_busy(n, ns, sock) : emu_occupancy(n, ns, sock);
	}
	return s;
}

bool emu_model_nhm_uncore(unsigned event, unsigned umask, const double *sock,
			  const double (*chan)[SK_COUNT], int nchan, double *per_s)
{
	/* the GQ read tracker: every core read scans the L3; misses wait for the fill */
	double reads = sock[SK_l3_hit_lines_per_s] + sock[SK_l3_miss_lines_per_s];

	*per_s = 0;
	switch (event) {
	case 0x2A: /* UNC_IMC_NORMAL_OCCUPANCY.CH0-2, seed 000 Table 32 */
		if (!umask || (umask & ~0x07u))
			return false;
		*per_s = emu_chan_each(chan, nchan, umask, sock, false, false);
		return true;
	case 0x29: /* UNC_IMC_BUSY.READ.CH0-2 (01H-04H), .WRITE.CH0-2 (08H-20H), Table 33 */
		if (!umask || (umask & ~0x3Fu))
			return false;
		*per_s = emu_chan_each(chan, nchan, umask & 0x07, sock, false, true) +
			 emu_chan_each(chan, nchan, (umask >> 3) & 0x07, sock, true, true);
		return true;
	case 0x2C: /* UNC_IMC_NORMAL_READS.CH0-2 / ANY, seed 000 Table 32 */
		if (!umask || (umask & ~0x07u))
			return false;
		*per_s = emu_chan_sum(chan, nchan, umask, SK_read_lines_per_s);
		return true;
	case 0x2F: /* UNC_IMC_WRITES.FULL.CH0-2 / ANY; PARTIAL (08H-20H, ANY 38H): the socket's, spread evenly */
		if (!umask || (umask & ~0x3Fu))
			return false;
		*per_s = emu_chan_sum(chan, nchan, umask & 0x07, SK_write_lines_per_s);
		for (int ch = 0; ch < nchan && nchan > 0; ch++)
			if (umask & BIT(3 + ch))
				*per_s += sock[SK_partial_writes_per_s] / nchan;
		return true;
	case 0x20: /* UNC_QHL_REQUESTS, seed 000 Table 31 */
		if (!umask || (umask & ~0x3Fu))
			return false;
		*per_s = (umask & 0x01 ? sock[SK_ioh_reads_per_s] : 0) +
			 (umask & 0x02 ? sock[SK_ioh_writes_per_s] : 0) +
			 (umask & 0x04 ? sock[SK_remote_reads_per_s] : 0) +
			 (umask & 0x08 ? sock[SK_remote_writes_per_s] : 0) +
			 /* local reads include the InvtoE of uncacheable writes (seed 000, Table 39) */
			 (umask & 0x10 ? sock[SK_local_reads_per_s] + sock[SK_uc_writes_per_s] : 0) +
			 (umask & 0x20 ? sock[SK_local_writes_per_s] : 0);
		return true;
	case 0x23: /* UNC_QHL_OCCUPANCY: 01H IOH, 02H remote, 04H local tracker (reads) */
		if (!umask || (umask & ~0x07u))
			return false;
		*per_s = (umask & 0x01 ? emu_occupancy(sock[SK_ioh_reads_per_s],
						       sock[SK_ioh_read_latency_ns], sock) : 0) +
			 (umask & 0x02 ? emu_occupancy(sock[SK_remote_reads_per_s],
						       sock[SK_remote_read_latency_ns], sock) : 0) +
			 (umask & 0x04 ? emu_occupancy(sock[SK_local_reads_per_s],
						       sock[SK_read_latency_ns], sock) : 0);
		return true;
	case 0x03: /* UNC_GQ_ALLOC, seed 000 Table 22: 01H RT, 02H RT_LLC_MISS, 04H RT_TO_LLC_RESP */
		if (umask == 0x01 || umask == 0x04)
			*per_s = reads;
		else if (umask == 0x02)
			*per_s = sock[SK_l3_miss_lines_per_s];
		else
			return false;
		return true;
	case 0x02: /* UNC_GQ_TRACKER_OCCUP (same umasks): Little's law, uncore cycles */
		if (umask == 0x01) /* the read period: data latency plus bookkeeping */
			*per_s = emu_occupancy(sock[SK_l3_hit_lines_per_s],
					       sock[SK_l3_response_ns] + sock[SK_gq_overhead_ns], sock) +
				 emu_occupancy(sock[SK_l3_miss_lines_per_s],
					       sock[SK_l3_miss_latency_ns] + sock[SK_gq_overhead_ns], sock);
		else if (umask == 0x02)
			*per_s = emu_occupancy(sock[SK_l3_miss_lines_per_s],
					       sock[SK_l3_miss_latency_ns], sock);
		else if (umask == 0x04)
			*per_s = emu_occupancy(reads, sock[SK_l3_response_ns], sock);
		else
			return false;
		return true;
	case 0x08: /* UNC_LLC_HITS.ANY, seed 000 Table 30 */
		if (umask != 0x03)
			return false;
		*per_s = sock[SK_l3_hit_lines_per_s];
		return true;
	case 0x09: /* UNC_LLC_MISS.ANY */
		if (umask != 0x03)
			return false;
		*per_s = sock[SK_l3_miss_lines_per_s];
		return true;
	case 0x0A: /* UNC_LLC_LINES_IN.ANY */
		if (umask != 0x0F)
			return false;
		*per_s = sock[SK_l3_miss_lines_per_s];
		return true;
	case 0x0B: /* UNC_LLC_LINES_OUT.ANY */
		if (umask != 0x1F)
			return false;
		*per_s = sock[SK_l3_evict_lines_per_s];
		return true;
	}
	return false;
}

bool emu_model_skl_cbo(unsigned event, unsigned umask, const double *sock, int ncbo, double *per_s)
{
	/* UNC_CBO_CACHE_LOOKUP (34H): states M 01H, E 02H, S 04H, I 08H; request 10H read, 20H write, 80H any */
	unsigned states = umask & 0x0F, req = umask & 0xF0;

	*per_s = 0;
	if (event == 0x34 && states && req && !(req & 0x40)) {
		/* the truth has lookups, not their read/write split: count them as reads */
		double lines = 0;

		if (req & (0x10 | 0x80)) {
			if (states & 0x07)
				lines += sock[SK_l3_hit_lines_per_s];
			if (states & 0x08)
				lines += sock[SK_l3_miss_lines_per_s];
		}
		*per_s = lines / ncbo;
		return true;
	}
	if (event == 0x22 && umask == 0x48) { /* UNC_CBO_XSNP_RESPONSE.HITM_XCORE */
		*per_s = sock[SK_xsnp_hitm_per_s] / ncbo;
		return true;
	}
	return false;
}

bool emu_model_skl_arb(unsigned event, unsigned umask, unsigned thr, const double *sock,
		       const double (*chan)[SK_COUNT], int nchan, double *per_s)
{
	/*
	 * Seed 001 Table 3-2: TRK_REQUESTS.ALL and TRK_OCCUPANCY.ALL count the
	 * cores' outgoing entries; CYCLES_WITH_ANY_REQUEST (cmask 1) counts
	 * requests of the cores, the graphics unit or the LLC.  The I/O's
	 * requests do not pass the tracker.
	 */
	double all = emu_chan_sum(chan, nchan, ~0u, SK_read_lines_per_s) +
		     emu_chan_sum(chan, nchan, ~0u, SK_write_lines_per_s);
	double cores = fmax(0, all - sock[SK_gt_requests_per_s] - sock[SK_io_requests_per_s]);
	double with_gt = fmax(0, all - sock[SK_io_requests_per_s]);
	double uclk = sock[SK_uncore_ghz] * 1e9, lat = sock[SK_read_latency_ns] * 1e-9;

	*per_s = 0;
	if (event == 0x81 && umask == 0x01) { /* UNC_ARB_TRK_REQUESTS.ALL */
		*per_s = cores;
		return true;
	}
	if (event == 0x80 && umask == 0x01) { /* UNC_ARB_TRK_OCCUPANCY.ALL / CYCLES_WITH_ANY_REQUEST */
		/* mean outstanding by Little's law; Poisson: P(n >= 1) = 1 - exp(-mean) */
		*per_s = thr ? uclk * (1 - exp(-with_gt * lat)) : cores * lat * uclk;
		return true;
	}
	return false;
}

bool emu_model_skl_imc(uint32_t offset, const double *sock, const double (*chan)[SK_COUNT],
		       int nchan, double *per_s)
{
	double rd = emu_chan_sum(chan, nchan, ~0u, SK_read_lines_per_s);
	double wr = emu_chan_sum(chan, nchan, ~0u, SK_write_lines_per_s);
	double ia = rd + wr - sock[SK_gt_requests_per_s] - sock[SK_io_requests_per_s];

	switch (offset) {
	case SKL_IMC_DRAM_GT_REQUESTS:
		*per_s = sock[SK_gt_requests_per_s];
		return true;
	case SKL_IMC_DRAM_IA_REQUESTS:
		*per_s = ia > 0 ? ia : 0;
		return true;
	case SKL_IMC_DRAM_IO_REQUESTS:
		*per_s = sock[SK_io_requests_per_s];
		return true;
	case SKL_IMC_DRAM_DATA_READS:
		*per_s = rd;
		return true;
	case SKL_IMC_DRAM_DATA_WRITES:
		*per_s = wr;
		return true;
	}
	*per_s = 0;
	return false;
}
