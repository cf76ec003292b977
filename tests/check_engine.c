/*
 * Tests for the counter engine on the emulated machines: the metrics of
 * the shipped layouts against the scenario truth (2 %, 5 % when groups
 * rotate), n/a where a metric is not defined, wrap-around and resets,
 * group packing constraints, and the register-read budget.
 *
 * The truth of a metric is written here from the scenario's quantities and
 * the documents' definitions, independently of the emulator's model; where
 * physics bounds a quantity (a cycle with a uop has at least one, so stall
 * cycles >= 1 - uops per cycle) the bound is part of the truth.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr_source.h"
#include "check_main.h"
#include "cpuid.h"
#include "emu.h"
#include "emu_perf.h"
#include "engine.h"
#include "layout.h"
#include "msr.h"
#include "pmu_regs.h"
#include "source.h"

/* ---- a run on an emulated machine with a manual clock ------------------- */

struct run {
	struct source *src;
	struct layout *l;
	struct engine *eng;
	double t;        /* seconds of emulated time since the start */
	double t_start;  /* start of the last sample's interval */
	uint32_t arch_events_absent; /* as CPUID.0AH would report (set before run_engine) */
	const bool *uncore_taken;    /* by socket (set before run_engine), or NULL */
};

/* The next run_source counts through perf: the emulated kernel over the emulated machine. */
static bool run_perf;

static double run_clock(void *ctx)
{
	return ((struct run *)ctx)->t;
}

/*
 * The emulated machine of SIM ("machine:scenario") with the scenario's
 * noise turned off: its phases are steady, so the truth is exact.
 */
static void run_source_path(struct run *r, const char *machine, const char *path)
{
	char err[512];
	struct scenario *sc;

	memset(r, 0, sizeof(*r));
	ck_assert_msg(scenario_load(path, &sc, err, sizeof(err)) == 0, "%s", err);
	sc->noise = 0;
	ck_assert_ptr_nonnull(emu_machine_find(machine));
	{
		struct emu *e = emu_create_from(emu_machine_find(machine), sc);

		/* manual from the start: emulated time 0 is the test's 0 */
		emu_set_clock(e, EMU_CLOCK_MANUAL);
		if (run_perf)
			ck_assert_msg(source_open_perf(NULL, e, NULL, false, &r->src, err, sizeof(err)) == 0,
				      "%s", err);
		else
			ck_assert_msg(source_open_emu(e, &r->src, err, sizeof(err)) == 0, "%s", err);
	}
}

static void run_source(struct run *r, const char *sim)
{
	char machine[64], path[512];
	const char *colon = strchr(sim, ':');

	snprintf(machine, sizeof(machine), "%.*s", (int)(colon - sim), sim);
	snprintf(path, sizeof(path), "%s/%s.scn", SCENARIO_SRCDIR, colon + 1);
	run_source_path(r, machine, path);
}

/* MACHINE running the scenario TEXT (written to a temporary file). */
static void run_source_text(struct run *r, const char *machine, const char *text)
{
	char path[] = "/tmp/pmutop-scn-XXXXXX.scn";
	int fd = mkstemps(path, 4);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	run_source_path(r, machine, path);
	unlink(path);
}

/* The rotation slice the next run_engine asks for (0: the default). */
static double run_mux_s;
/* engine_config.readers for the next run_engine: 1 tries the per-socket readers on the emulator */
static int run_readers;

/* The engine over R's source and layout R->l, groups GROUPS ("all" or names). */
static void run_engine_layout(struct run *r, const char *groups, double interval,
			      engine_clock_fn clock)
{
	struct engine_config cfg = { 0 };
	char err[512];

	source_engine_config(r->src, &cfg);
	cfg.layout = r->l;
	cfg.uncore_taken = r->uncore_taken;
	cfg.arch_events_absent = r->arch_events_absent;
	cfg.channel_peak = r->src->dram_mts ? r->src->dram_mts * 8e6 : NAN;
	cfg.interval_s = interval;
	cfg.mux_s = run_mux_s;
	cfg.simulated = true;
	cfg.clock = clock;
	cfg.clock_ctx = r;
	cfg.readers = run_readers;
	for (int g = 0; g < r->l->ngroups; g++) {
		char words[256], *save = NULL;

		snprintf(words, sizeof(words), "%s", groups);
		for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			if (!strcmp(w, "all") || !strcmp(w, r->l->groups[g].name))
				cfg.groups |= LAYOUT_GROUP(g);
	}
	ck_assert_msg(engine_create(&cfg, &r->eng, err, sizeof(err)) == 0, "%s", err);
}

static void run_engine_clock(struct run *r, const char *layout, const char *groups,
			     double interval, engine_clock_fn clock)
{
	char err[512], path[512];

	snprintf(path, sizeof(path), "%s/%s.layout", LAYOUT_SRCDIR, layout);
	ck_assert_msg(layout_load(path, &r->l, err, sizeof(err)) == 0, "%s", err);
	run_engine_layout(r, groups, interval, clock);
}

static void run_engine(struct run *r, const char *layout, const char *groups, double interval)
{
	run_engine_clock(r, layout, groups, interval, run_clock);
}

static void run_open(struct run *r, const char *sim, const char *layout, const char *groups,
		     double interval)
{
	run_source(r, sim);
	run_engine(r, layout, groups, interval);
}

/* run_source through perf: the emulated kernel over the emulated machine. */
static void run_source_perf(struct run *r, const char *sim)
{
	run_perf = true;
	run_source(r, sim);
	run_perf = false;
}

/* run_open through perf. */
static void run_open_perf(struct run *r, const char *sim, const char *layout, const char *groups,
			  double interval)
{
	run_source_perf(r, sim);
	run_engine(r, layout, groups, interval);
}

static void run_close(struct run *r)
{
	engine_free(r->eng);
	source_close(r->src);
	layout_free(r->l);
}

/* Advance slice by slice until a sample is published; return it. */
static const struct sample *run_sample(struct run *r)
{
	/* a baseline step, then the interval's slices (a whole number of rounds) */
	int most = 2 + (int)ceil(ENGINE_INTERVAL_MAX / ENGINE_MUX_MIN_S);

	r->t_start = r->t;
	for (int i = 0; i < most; i++) {
		double dt = engine_slice_s(r->eng);
		int rc;

		r->t += dt;
		emu_advance(r->src->emu, dt);
		rc = engine_step(r->eng);
		ck_assert_int_ge(rc, 0);
		if (rc == 1)
			return engine_latest(r->eng);
	}
	ck_abort_msg("no sample after %d slices", most);
	return NULL;
}

/* ---- truth --------------------------------------------------------------- */

static double ghz_of(const struct run *r, const double *v);
static double uops_retired(const double *v);
static double stall_bound(double stall, double uops_per_cycle);
static double port_rate(const double *v, int port, int nports);
static bool is_skylake(const struct run *r);

/*
 * Hyper-threads as the scenario README describes them: a thread's numbers
 * are what it does with the core to itself; while its siblings run (each
 * its util, independently) the threads' summed asks on a shared resource
 * (issue cycles: one thread per cycle; a port: one uop per cycle; the
 * divider: busy every cycle), when above 1, slow each of them down by that
 * factor, and a thread asking one port alone for more than a uop a cycle is
 * slowed by its own ask.  V[0..N-1] the core's threads; SELF's effective
 * truth into OUT.
 */
static void truth_hyperthreads(const struct run *r, double (*v)[SK_COUNT], int n, int self,
			       double *out)
{
	int nports = is_skylake(r) ? 8 : 6;
	double ask_all = 1, ask_self = 1, others_halted = 1, pace;

	for (int res = -2; res < nports; res++) {
		double sum = 0;

		for (int i = 0; i < n; i++) {
			double ask = res == -2 ? 1 - v[i][SK_issue_stall]
				   : res == -1 ? v[i][SK_div_busy] : port_rate(v[i], res, nports);

			if (v[i][SK_util] > 0)
				sum += ask;
			if (i == self)
				ask_self = fmax(ask_self, ask);
		}
		ask_all = fmax(ask_all, sum);
	}
	for (int i = 0; i < n; i++)
		if (i != self)
			others_halted *= 1 - v[i][SK_util];
	pace = others_halted / ask_self + (1 - others_halted) / fmax(ask_all, ask_self);
	memcpy(out, v[self], sizeof(double) * SK_COUNT);
	out[SK_ipc] *= pace;
	out[SK_div_busy] *= pace;
	out[SK_issue_stall] = 1 - (1 - out[SK_issue_stall]) * pace;
	out[SK_exec_stall] = 1 - (1 - out[SK_exec_stall]) * pace;
	out[SK_retire_stall] = 1 - (1 - out[SK_retire_stall]) * pace;
	/*
	 * the issue slots: the threads unhalted in a cycle take equal turns, so a
	 * thread beside k busy siblings has 1 / (1 + k) of them; its expectation
	 * over the siblings' independent utilisations
	 */
	{
		double share = 0;

		for (unsigned mask = 0; mask < (1u << n); mask++) {
			double p = 1;
			int busy = 0;

			if (mask & (1u << self))
				continue;
			for (int i = 0; i < n; i++)
				if (i != self) {
					p *= mask & (1u << i) ? v[i][SK_util] : 1 - v[i][SK_util];
					busy += !!(mask & (1u << i));
				}
			share += p / (1 + busy);
		}
		out[SK_slot_share] = share;
	}
}

/* Share of cycles a thread with (effective) truth V issues uops: seed 000's UOPS_ISSUED:c=1. */
static double issue_share(const double *v)
{
	return 1 - stall_bound(v[SK_issue_stall], uops_retired(v) * v[SK_issue_ratio] *
				  (1 - v[SK_fused_share]));
}

/*
 * The effective truth of CPU (OS number) at time T beside its hyper-thread
 * siblings; SIB_ISSUE (or NULL) gets the siblings' issue cycles per second
 * of time over its cycle rate's unit (sum of util x issue share).
 */
static void truth_cpu_at(const struct run *r, int cpu, int socket, double t, double *v,
			 double *sib_issue)
{
	const struct topo *topo = r->src->topo;
	double all[8][SK_COUNT], eff[SK_COUNT];
	int n = 0, self = 0;

	for (int i = 0; i < topo->nthreads; i++) {
		const struct topo_thread *th = &topo->threads[i];

		if (th->os_cpu != cpu)
			continue;
		for (int k = 0; k < topo->cores[th->core].nthreads && n < 8; k++) {
			int other = topo->threads[topo->cores[th->core].thread_first + k].os_cpu;

			if (other == cpu)
				self = n;
			scenario_eval_one(emu_scenario(r->src->emu), t, SCENARIO_CPU, other, socket,
					  all[n++]);
		}
	}
	truth_hyperthreads(r, all, n, self, v);
	if (sib_issue) {
		*sib_issue = 0;
		for (int i = 0; i < n; i++)
			if (i != self) {
				truth_hyperthreads(r, all, n, i, eff);
				*sib_issue += eff[SK_util] * issue_share(eff);
			}
	}
}

/* The truth of CPU (OS number) on SOCKET averaged over the last interval (SIB_ISSUE likewise). */
static void truth_cpu_sib(const struct run *r, int cpu, int socket, double *v, double *sib_issue)
{
	const int n = 200;
	double one[SK_COUNT], sib;

	memset(v, 0, sizeof(double) * SK_COUNT);
	*sib_issue = 0;
	for (int i = 0; i < n; i++) {
		double t = r->t_start + (r->t - r->t_start) * (i + 0.5) / n;

		truth_cpu_at(r, cpu, socket, t, one, &sib);
		for (int k = 0; k < SK_COUNT; k++)
			v[k] += one[k] / n;
		*sib_issue += sib / n;
	}
}

static void truth_cpu(const struct run *r, int cpu, int socket, double *v)
{
	double sib;

	truth_cpu_sib(r, cpu, socket, v, &sib);
}

/* The truth of socket SOCKET (CH < 0) or of its channel CH, averaged over the last interval. */
static void truth_unc(const struct run *r, int socket, int ch, double *v)
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
static double ratio_or_nan(double x, double y)
{
	return y > 0 ? x / y : NAN;
}

/*
 * Uncore metric NAME of a socket (S its truth, C its channels' truths, NCH
 * of them; C = the one channel and NCH = 1 for a channel), from the seed
 * definitions: 64 bytes a line, occupancy / requests = latency (Little).
 */
static double truth_uncore(const struct run *r, const char *name, const double *sk,
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

static double ghz_of(const struct run *r, const double *v)
{
	return v[SK_ghz] > 0 ? v[SK_ghz] : emu_machine(r->src->emu)->nominal_ghz;
}

static double uops_retired(const double *v)
{
	return v[SK_ipc] * v[SK_uops_per_inst];
}

/* Stall share: at least 1 - (uops per cycle), since an active cycle moves at least one uop. */
static double stall_bound(double stall, double uops_per_cycle)
{
	return fmax(stall, 1 - uops_per_cycle);
}

static double port_rate(const double *v, int port, int nports)
{
	double total = 0;

	for (int p = 0; p < nports; p++)
		total += v[SK_port0 + p];
	return uops_retired(v) * v[SK_exec_ratio] * v[SK_port0 + port] / total;
}

static double alu_rate(const double *v)
{
	return port_rate(v, 0, 6) + port_rate(v, 1, 6) + port_rate(v, 5, 6);
}

static bool is_skylake(const struct run *r)
{
	const struct emu_machine *m = emu_machine(r->src->emu);

	return emu_machine_uarch(m) == CPUID_UARCH_SKYLAKE;
}

/*
 * Skylake's thread metrics: CYCLE_ACTIVITY stalls (no uop executed on any
 * port, so at least 1 - executed uops per cycle; memory and L3-miss stalls
 * nest inside) and top-down level 1 over 4 slots per cycle (retiring at
 * most the retiring cycles' 4 slots; bad speculation at least the issued
 * uops that did not retire).  NAN for other names.
 */
static double truth_skylake(const char *name, const double *v)
{
	double stall = stall_bound(v[SK_exec_stall], uops_retired(v) * v[SK_exec_ratio]);
	double mem = fmin(v[SK_mem_stall], stall);

	if (!strcmp(name, "exec_stall_pct"))
		return 100 * stall;
	if (!strcmp(name, "mem_stall_pct"))
		return 100 * mem;
	if (!strcmp(name, "l3_miss_stall_pct"))
		return 100 * fmin(v[SK_l3_miss_stall], mem);
	if (!strncmp(name, "port", 4) && name[4] >= '0' && name[4] <= '7' && !name[5])
		return port_rate(v, name[4] - '0', 8);
	return NAN;
}

/*
 * Skylake's top-down level 1 of thread CPU on SOCKET as Intel's formulas
 * have it (intel/perfmon skylake_metrics.json): the thread's slots are 4 x
 * CPU_CLK_UNHALTED.THREAD_ANY / threads per core (the cycles any thread of
 * the core is unhalted), bad speculation's recovery cycles the core's
 * (INT_MISC.RECOVERY_CYCLES_ANY: the siblings' never coincide) over the
 * threads per core; each a ratio of the interval's sums.  In the truth, a
 * thread's frontend_bound and bad_speculation are shares of its own issue
 * slots (4 x its cycles x slot_share); the issued uops that never retire
 * are part of the latter, recovery cycles the rest.  NAN for other names.
 */
static double truth_skl_topdown(const struct run *r, int cpu, int socket, const char *name)
{
	const struct topo *topo = r->src->topo;
	const int steps = 200;
	double fe = 0, ret = 0, bad = 0, slots = 0;
	int core = -1;

	for (int i = 0; i < topo->nthreads && core < 0; i++)
		if (topo->threads[i].os_cpu == cpu)
			core = topo->threads[i].core;
	if (core < 0 || (strcmp(name, "frontend_bound_pct") && strcmp(name, "retiring_pct") &&
			 strcmp(name, "bad_speculation_pct") && strcmp(name, "backend_bound_pct")))
		return NAN;
	for (int i = 0; i < steps; i++) {
		const struct topo_core *c = &topo->cores[core];
		double t = r->t_start + (r->t - r->t_start) * (i + 0.5) / steps, halted = 1, rec = 0;

		for (int k = 0; k < c->nthreads; k++) {
			double v[SK_COUNT], wasted, u;

			truth_cpu_at(r, topo->threads[c->thread_first + k].os_cpu, socket, t, v, NULL);
			u = v[SK_util];
			halted *= 1 - u;
			wasted = uops_retired(v) * (v[SK_issue_ratio] - 1) / 4;
			rec += u * fmax(0, v[SK_bad_speculation] * v[SK_slot_share] - wasted);
			if (topo->threads[c->thread_first + k].os_cpu != cpu)
				continue;
			fe += u * v[SK_frontend_bound] * v[SK_slot_share];
			ret += u * fmin(uops_retired(v), 4 * (1 - v[SK_retire_stall])) / 4;
			bad += u * wasted;
		}
		/* per unit of the clock: 4 slots a cycle any thread runs, shared by the core's threads */
		slots += (1 - halted) / c->nthreads;
		bad += rec / c->nthreads;
	}
	fe /= slots;
	ret /= slots;
	bad /= slots;
	if (!strcmp(name, "frontend_bound_pct"))
		return 100 * fe;
	if (!strcmp(name, "retiring_pct"))
		return 100 * ret;
	if (!strcmp(name, "bad_speculation_pct"))
		return 100 * bad;
	return 100 * fmax(0, 1 - fe - ret - bad);
}

/* Thread metric NAME's truth, NAN when this test does not define one. */
static double truth_thread(const struct run *r, const char *name, const double *v)
{
	double exec = 100 * stall_bound(v[SK_exec_stall], alu_rate(v));
	double issue = 100 * stall_bound(v[SK_issue_stall], uops_retired(v) * v[SK_issue_ratio] *
						     (1 - v[SK_fused_share]));
	double resource = 100 * (v[SK_load_stall] + v[SK_rs_full_stall] + v[SK_store_stall] +
				 v[SK_rob_full_stall]);
	double cycles_per_s = v[SK_util] * ghz_of(r, v) * 1e9;
	static const struct {
		const char *name;
		enum scenario_key key;
		double scale;
	} direct[] = {
		{ "util", SK_util, 100 },
		{ "ipc", SK_ipc, 1 },
		{ "load_stall_pct", SK_load_stall, 100 },
		{ "rs_full_stall_pct", SK_rs_full_stall, 100 },
		{ "store_stall_pct", SK_store_stall, 100 },
		{ "rob_full_stall_pct", SK_rob_full_stall, 100 },
		{ "div_busy_pct", SK_div_busy, 100 },
		{ "local_dram_loads_per_s", SK_local_dram_loads_per_s, 1 },
		{ "remote_dram_loads_per_s", SK_remote_dram_loads_per_s, 1 },
		{ "local_dram_demand_read_bytes_per_s", SK_local_dram_read_lines_per_s, 64 },
		{ "remote_dram_demand_read_bytes_per_s", SK_remote_dram_read_lines_per_s, 64 },
		{ "llc_miss_ratio", SK_llc_miss_ratio, 1 },
		{ "branch_miss_ratio", SK_branch_miss_ratio, 1 },

		{ "l1i_misses_per_kinst", SK_l1i_miss_per_inst, 1000 },
		{ "itlb_misses_per_kinst", SK_itlb_miss_per_inst, 1000 },
	};

	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		if (!strcmp(name, direct[i].name))
			return v[direct[i].key] * direct[i].scale;
	/* seed 000's read bandwidth: DATA_IN, demand and prefetch data reads and RFOs */
	if (!strcmp(name, "local_dram_read_bytes_per_s"))
		return 64 * (v[SK_local_dram_read_lines_per_s] + v[SK_local_dram_rfo_lines_per_s] +
			     v[SK_local_dram_pf_read_lines_per_s] + v[SK_local_dram_pf_rfo_lines_per_s]);
	if (!strcmp(name, "remote_dram_read_bytes_per_s"))
		return 64 * (v[SK_remote_dram_read_lines_per_s] + v[SK_remote_dram_rfo_lines_per_s] +
			     v[SK_remote_dram_pf_read_lines_per_s] +
			     v[SK_remote_dram_pf_rfo_lines_per_s]);
	if (!strcmp(name, "dram_demand_read_bytes_per_s"))
		return 64 * (v[SK_local_dram_read_lines_per_s] + v[SK_remote_dram_read_lines_per_s]);
	/* seed 003: bus cycles the pin is driven, snoop_drv_cycles per snoop response */
	if (!strcmp(name, "hit_drv_cycles_per_s"))
		return v[SK_snoop_hit_per_s] * v[SK_snoop_drv_cycles];
	if (!strcmp(name, "hitm_drv_cycles_per_s"))
		return v[SK_hitm_per_s] * v[SK_snoop_drv_cycles];
	if (is_skylake(r))
		return truth_skylake(name, v);
	if (!strcmp(name, "ghz"))
		return ghz_of(r, v);
	if (!strcmp(name, "exec_stall_pct"))
		return exec;
	if (!strcmp(name, "port015_busy_pct"))
		return 100 - exec;
	if (!strcmp(name, "issue_stall_pct"))
		return issue;
	if (!strcmp(name, "retire_stall_pct"))
		return 100 * stall_bound(v[SK_retire_stall], uops_retired(v));
	if (!strcmp(name, "resource_stall_pct"))
		return resource;
	if (!strcmp(name, "wasted_work_pct"))
		return 100 * (1 - 1 / v[SK_issue_ratio]);
	if (!strcmp(name, "port0"))
		return port_rate(v, 0, 6);
	if (!strcmp(name, "port1"))
		return port_rate(v, 1, 6);
	if (!strcmp(name, "port5"))
		return port_rate(v, 5, 6);
	if (!strcmp(name, "llc_misses_per_s"))
		return cycles_per_s * v[SK_ipc] * v[SK_llc_ref_per_inst] * v[SK_llc_miss_ratio];
	if (!strcmp(name, "remote_dram_share_pct"))
		return ratio_or_nan(100 * v[SK_remote_dram_loads_per_s],
				    v[SK_local_dram_loads_per_s] + v[SK_remote_dram_loads_per_s]);
	{
		/* seed 000 stall decomposition: count x penalty (Table 2: 40 cycles, 60 ns, 100 ns) */
		double l3 = 100 * 40 * v[SK_l3_hit_loads_per_s] / cycles_per_s;
		double local = 100 * 60e-9 * v[SK_local_dram_loads_per_s] / v[SK_util];
		double remote = 100 * 100e-9 * v[SK_remote_dram_loads_per_s] / v[SK_util];

		if (!strcmp(name, "cyc_executing_pct"))
			return 100 - exec;
		if (!strcmp(name, "cyc_l3_hit_pct"))
			return l3;
		if (!strcmp(name, "cyc_local_dram_pct"))
			return local;
		if (!strcmp(name, "cyc_remote_dram_pct"))
			return remote;
		if (!strcmp(name, "cyc_unaccounted_pct"))
			return exec - l3 - local - remote;
	}
	return NAN;
}

/* Core metric NAME's truth from the (effective) truths of the core's N threads. */
static double truth_core(const struct run *r, const char *name, double (*v)[SK_COUNT], int n)
{
	double none = 1, uops = 0, idle = 1;

	/* core_portN: the core's uops on port N over the cycles at least one thread ran */
	if (!strncmp(name, "core_port", 9) && name[9] >= '0' && name[9] <= '5' && !name[10]) {
		for (int i = 0; i < n; i++) {
			none *= 1 - v[i][SK_util];
			uops += v[i][SK_util] * port_rate(v[i], name[9] - '0', 6);
		}
		return uops / (1 - none);
	}
	/*
	 * Execution stalls of the core over its unhalted cycles: no uop on any
	 * port of any running thread (ALU stalls and the memory ports taken as
	 * independent, as are the threads); n/a when the core never ran.
	 */
	if (!strcmp(name, "core_exec_stall_pct")) {
		for (int i = 0; i < n; i++) {
			double quiet = stall_bound(v[i][SK_exec_stall], port_rate(v[i], 0, 6) +
						   port_rate(v[i], 1, 6) + port_rate(v[i], 5, 6));

			for (int p = 2; p <= 4; p++)
				quiet *= 1 - fmin(1, port_rate(v[i], p, 6));
			none *= 1 - v[i][SK_util];
			idle *= 1 - v[i][SK_util] * (1 - quiet);
		}
		return none < 1 ? 100 * (idle - none) / (1 - none) : NAN;
	}
	if (!strcmp(name, "avg_stall_cycles") && v[0][SK_util] == 1)
		return v[0][SK_stall_len];
	/* seed 000 wasted work per core: uops executed on all ports - uops retired, of executed */
	if (!strcmp(name, "wasted_work_core_pct")) {
		double exec = 0, retired = 0;

		for (int i = 0; i < n; i++) {
			exec += v[i][SK_util] * uops_retired(v[i]) * v[i][SK_exec_ratio];
			retired += v[i][SK_util] * uops_retired(v[i]);
		}
		return exec > 0 ? 100 * (exec - retired) / exec : NAN;
	}
	(void)r;
	return NAN;
}

/*
 * Within REL of the truth (with a floor of 0.1 percentage point or 0.001 of
 * a ratio).  A difference of two measured shares (fe_starvation_pct) is
 * held to REL of its larger operand, since each operand carries its own.
 */
static bool close_enough(double got, double want, double rel, const char *unit, double base)
{
	double floor = !strcmp(unit, "%") ? 0.1 : !strcmp(unit, "ratio") ? 1e-3 : 0;

	return fabs(got - want) <= rel * fmax(fabs(want), base) + floor;
}

/* Uncore metrics of every socket and channel against the truth; how many were checked. */
static int check_uncore_truth(struct run *r, const struct sample *s, double rel)
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
			for (int ch = 0; ch < s->nchannels && mt->scope == LAYOUT_CHANNEL; ch++) {
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

/*
 * Whether group G, or a group sharing its key, is off in S: a metric may read
 * the groups of its key (the first that has an event), n/a when one is off.
 */
static bool key_group_off(const struct layout *l, const struct sample *s, int g)
{
	for (int k = 0; k < l->ngroups; k++)
		if ((k == g || (l->groups[g].key && l->groups[k].key == l->groups[g].key)) &&
		    s->groups[k].state == SAMPLE_GROUP_OFF)
			return true;
	return false;
}

/* Check every metric with a truth; returns how many were checked. */
static int check_against_truth(struct run *r, const struct sample *s, double rel)
{
	const struct layout *l = r->l;
	const struct topo *t = r->src->topo;
	int checked = 0;

	for (int i = 0; i < s->nthreads; i++) {
		const struct sample_entity *te = &s->threads[i];
		double v[SK_COUNT], sib_issue;

		truth_cpu_sib(r, te->index, te->socket, v, &sib_issue);
		for (int m = 0; m < l->nmetrics; m++) {
			const char *name = l->metrics[m].name;
			double want, got = sample_metric(s, te, m);

			if (l->metrics[m].scope != LAYOUT_THREAD)
				continue;
			want = truth_thread(r, name, v);
			if (is_skylake(r) && isnan(want))
				want = truth_skl_topdown(r, te->index, te->socket, name);
			/*
			 * seed 000, HT on: cycles - UOPS_ISSUED.CORE_CYCLES_ACTIVE - RESOURCE_STALLS,
			 * never below 0 (a lower bound); the core issues for one thread a cycle, so
			 * its active cycles are this thread's and its siblings' summed
			 */
			if (!strcmp(name, "fe_starvation_pct") && !is_skylake(r))
				want = fmax(0, 100 * (1 - issue_share(v) - sib_issue / v[SK_util]) -
					       truth_thread(r, "resource_stall_pct", v));
			if (!strcmp(name, "sibling_issue_pct"))
				want = 100 * sib_issue / v[SK_util];
			if (isnan(want) || (isnan(got) && key_group_off(l, s, l->metrics[m].group)))
				continue;
			ck_assert_msg(close_enough(got, want, rel, l->metrics[m].unit,
						   !strcmp(l->metrics[m].name, "fe_starvation_pct")
						   ? truth_thread(r, "issue_stall_pct", v) : 0),
				      "cpu %d %s: %g, truth %g (%s)", te->index, l->metrics[m].name,
				      got, want, s->metric_scaled[m] ? "scaled" : "not scaled");
			checked++;
		}
	}
	for (int k = 0; k < s->ncores; k++) {
		const struct topo_core *c = &t->cores[k];
		double v[8][SK_COUNT];

		for (int i = 0; i < c->nthreads && i < 8; i++) {
			const struct topo_thread *th = &t->threads[c->thread_first + i];

			truth_cpu(r, th->os_cpu, th->socket, v[i]);
		}
		for (int m = 0; m < l->nmetrics; m++) {
			double want, got = sample_metric(s, &s->cores[k], m);

			if (l->metrics[m].scope != LAYOUT_CORE)
				continue;
			want = truth_core(r, l->metrics[m].name, v, c->nthreads);
			if (isnan(want) || isnan(got))
				continue;
			ck_assert_msg(close_enough(got, want, rel, l->metrics[m].unit, 0),
				      "core %d %s: %g, truth %g", k, l->metrics[m].name, got, want);
			checked++;
		}
	}
	return checked + check_uncore_truth(r, s, rel);
}

/* ---- the tests ----------------------------------------------------------- */

static const struct {
	const char *sim, *layout;
} cases[] = {
	{ "nehalem-ep:compute-bound", "nehalem" },
	{ "nehalem-ep:memory-bound", "nehalem" },
	{ "nehalem-ep:numa-remote", "nehalem" },
	{ "nehalem-ep:frontend-bound", "nehalem" },
	{ "nehalem-ep:idle", "nehalem" },
	{ "nehalem-ep:unbalanced-channels", "nehalem" },
	{ "westmere-ep:memory-bound", "westmere" },
	{ "westmere-ep:numa-remote", "westmere" },
	{ "arch:compute-bound", "arch" },
	{ "arch:memory-bound", "arch" },
	{ "skylake:compute-bound", "skylake" },
	{ "skylake:memory-bound", "skylake" },
	{ "skylake:frontend-bound", "skylake" },
	{ "skylake:idle", "skylake" },
	{ "core2:compute-bound", "core2" },
	{ "core2:frontend-bound", "core2" },
	{ "core2:false-sharing", "core2" },
};

#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

/*
 * Each group alone (no rotation): every metric with a truth within 2 %.
 * Loops NCASES and on: the same through perf (the emulated kernel programs
 * the emulated PMU): each core group counted the whole interval, the
 * uncore groups blocked with the reason.
 */
START_TEST(metrics_match_truth_one_group_at_a_time)
{
	int i = _i % NCASES;
	bool perf = _i >= NCASES;
	struct layout *l;
	char err[512], path[512];

	snprintf(path, sizeof(path), "%s/%s.layout", LAYOUT_SRCDIR, cases[i].layout);
	ck_assert_msg(layout_load(path, &l, err, sizeof(err)) == 0, "%s", err);
	for (int g = 0; g < l->ngroups; g++) {
		struct run r;
		const struct sample *s;

		if (perf)
			run_open_perf(&r, cases[i].sim, cases[i].layout, l->groups[g].name, 1.0);
		else
			run_open(&r, cases[i].sim, cases[i].layout, l->groups[g].name, 1.0);
		s = run_sample(&r);
		ck_assert_msg(s->groups[g].state == SAMPLE_GROUP_LIVE, "%s group %s: state %d %s%s",
			      cases[i].sim, l->groups[g].name, s->groups[g].state, s->groups[g].why,
			      perf ? " (perf)" : "");
		for (int m = 0; m < r.l->nmetrics; m++)
			ck_assert(!s->metric_scaled[m]);
		ck_assert_msg(check_against_truth(&r, s, 0.02) > 0, "%s group %s: nothing "
			      "checked%s", cases[i].sim, l->groups[g].name, perf ? " (perf)" : "");
		ck_assert_str_eq(s->source, r.src->name);
		sample_release(s);
		run_close(&r);
	}
	layout_free(l);
}
END_TEST

/* Every group at once: they rotate (when they do not fit), figures are scaled and marked, within 5 %. */
START_TEST(metrics_match_truth_when_multiplexed)
{
	struct run r;
	const struct sample *s;
	int need[LAYOUT_NPMUS] = { 0 };
	bool rot_core, rot_unc;

	run_open(&r, cases[_i].sim, cases[_i].layout, "all", 1.0);
	s = run_sample(&r);
	for (int k = 0; k < r.l->nevents; k++)
		need[r.l->events[k].pmu]++;
	/* core and uncore groups rotate when they need more counters than there are */
	rot_core = need[LAYOUT_PMU_CORE] > (int)r.src->info.gp_counters;
	rot_unc = need[LAYOUT_PMU_UNCORE] > NHM_UNC_COUNTERS || need[LAYOUT_PMU_CBO] > SKL_UNC_BOX_COUNTERS ||
		  need[LAYOUT_PMU_ARB] > SKL_UNC_BOX_COUNTERS;
	for (int g = 0; g < r.l->ngroups; g++) {
		enum layout_pmu pmu = r.l->groups[g].pmu;
		bool want = pmu == LAYOUT_PMU_CORE ? rot_core : pmu != LAYOUT_PMU_IMC && rot_unc;

		ck_assert_msg(s->groups[g].state == (want ? SAMPLE_GROUP_ROTATING : SAMPLE_GROUP_LIVE),
			      "group %s: state %d", r.l->groups[g].name, s->groups[g].state);
	}
	for (int m = 0; m < r.l->nmetrics; m++)
		ck_assert_int_eq(s->metric_scaled[m], r.l->metrics[m].group >= 0 &&
				 s->groups[r.l->metrics[m].group].state == SAMPLE_GROUP_ROTATING);
	ck_assert_int_gt(check_against_truth(&r, s, 0.05), 0);
	/* the shipped scenarios are physically consistent: nothing is flagged */
	ck_assert_msg(s->nflags == 0, "%s: flagged %s", cases[_i].sim, s->nflags ? s->flags[0].why : "");
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * Phases shorter than the interval, every group at once: each group takes
 * its turns many times per interval, so each sees the phases in the same
 * proportions as the interval.  The truth of a per-cycle share is the time
 * average of the phases' truths (the cycle rate is the same in both).
 */
static const char phased_scenario[] =
	"pmutop-scenario 1\nname phased\ndescription compute and memory phases\nseed 1\nnoise 0\n"
	"phase compute %s\n"
	"cpu all util=1 ipc=2.2 uops_per_inst=1.1 issue_ratio=1.04 exec_ratio=1.05\n"
	"cpu all exec_stall=0.07 issue_stall=0.12 retire_stall=0.18 load_stall=0.01 "
	"rs_full_stall=0.03 store_stall=0.01 rob_full_stall=0.02 div_busy=0.04\n"
	"socket all local_reads_per_s=1e6 local_writes_per_s=5e5 read_latency_ns=70\n"
	"channel all read_lines_per_s=3e5 write_lines_per_s=1.5e5\n"
	"phase memory %s\n"
	"cpu all ipc=0.3 exec_stall=0.88 issue_stall=0.74 retire_stall=0.81 load_stall=0.33 "
	"rs_full_stall=0.21 store_stall=0.04 rob_full_stall=0.09 div_busy=0\n"
	"socket all local_reads_per_s=2.4e8 local_writes_per_s=1.1e8 read_latency_ns=95\n"
	"channel all read_lines_per_s=8e7 write_lines_per_s=3.6e7\n";

START_TEST(phases_shorter_than_the_interval_are_not_aliased)
{
	/*
	 * With N sets a set sees one slice in every N: a phase must last many
	 * rounds (N x the slice) to be seen in its share.  0.2 s phases with the
	 * default slice; shorter ones with the shorter slice a user would ask for.
	 */
	static const char *const phases[][2] = { { "0.2", "0.2" }, { "0.03", "0.05" }, { "0.3", "0.1" } };
	static const double mux[] = { 0, 0.001, 0.002 };
	static const char *const names[] = {
		"exec_stall_pct", "issue_stall_pct", "retire_stall_pct", "resource_stall_pct",
		"load_stall_pct", "rs_full_stall_pct", "div_busy_pct", "port0", "port5",
	};
	char text[2048];
	struct run r;
	const struct sample *s;
	int checked = 0;
	double worst = 0;

	snprintf(text, sizeof(text), phased_scenario, phases[_i][0], phases[_i][1]);
	run_source_text(&r, "nehalem-ep", text);
	run_mux_s = mux[_i];
	run_engine(&r, "nehalem", "all", 1.0);
	run_mux_s = 0;
	sample_release(run_sample(&r));
	s = run_sample(&r); /* an interval that starts mid-phase */
	ck_assert_double_gt(s->rotation_s, 0);
	ck_assert_double_le(s->rotation_s, (mux[_i] ? mux[_i] : ENGINE_MUX_DEFAULT_S) * 1.0001);
	for (int i = 0; i < s->nthreads; i++) {
		const struct sample_entity *te = &s->threads[i];

		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			int m = layout_metric_find(r.l, names[k]);
			double want = 0, one[SK_COUNT], got = sample_metric(s, te, m);
			const int n = 1000;

			for (int j = 0; j < n; j++) {
				double t = r.t_start + (r.t - r.t_start) * (j + 0.5) / n;

				truth_cpu_at(&r, te->index, te->socket, t, one, NULL);
				want += truth_thread(&r, names[k], one) / n;
			}
			ck_assert(s->metric_scaled[m]);
			ck_assert_msg(close_enough(got, want, 0.05, r.l->metrics[m].unit, 0),
				      "phases %s/%s cpu %d %s: %g, truth %g", phases[_i][0], phases[_i][1],
				      te->index, names[k], got, want);
			if (want > 1)
				worst = fmax(worst, fabs(got - want) / want);
			checked++;
		}
	}
	/* the channels' bandwidth (the IMC group counts all the time) and the home logic's (rotating) */
	for (int k = 0; k < s->nsockets; k++) {
		int m = layout_metric_find(r.l, "dram_by_local_bytes_per_s");
		double want = 0, one[SK_COUNT];
		const int n = 1000;

		for (int j = 0; j < n; j++) {
			double t = r.t_start + (r.t - r.t_start) * (j + 0.5) / n;

			scenario_eval_one(emu_scenario(r.src->emu), t, SCENARIO_SOCKET, k, 0, one);
			want += 64 * (one[SK_local_reads_per_s] + one[SK_local_writes_per_s]) / n;
		}
		ck_assert(s->metric_scaled[m]);
		ck_assert_msg(close_enough(sample_metric(s, &s->sockets[k], m), want, 0.05, "B/s", 0),
			      "socket %d dram_by_local_bytes_per_s %g, truth %g", k,
			      sample_metric(s, &s->sockets[k], m), want);
	}
	ck_assert_int_gt(checked, 100);
	/* the measured error, for the README's accuracy table (in the test log) */
	fprintf(stderr, "# phases %s s / %s s, -g all, rotation %.0f ms: largest error %.1f %% "
		"(figures above 1)\n", phases[_i][0], phases[_i][1], s->rotation_s * 1e3, 100 * worst);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * A group's live time runs from its own counters' zeroing to their read:
 * time spent programming the other sets on a slow device is not counted
 * as live.  The emulated clock moves during each register access here.
 */
static double slow_clock(void *ctx)
{
	struct run *r = ctx;

	/* every look at the clock is half a register access later: 5 us each */
	r->t += 5e-6;
	emu_advance(r->src->emu, 5e-6);
	return r->t;
}

START_TEST(live_time_excludes_programming_time)
{
	struct run r;
	const struct sample *s;
	int m;

	run_source(&r, "nehalem-ep:memory-bound");
	run_engine_clock(&r, "nehalem", "all", 1.0, slow_clock);
	sample_release(run_sample(&r));
	s = run_sample(&r);
	m = layout_metric_find(r.l, "exec_stall_pct");
	for (int i = 0; i < s->nthreads; i++) {
		double v[SK_COUNT];

		truth_cpu(&r, s->threads[i].index, s->threads[i].socket, v);
		ck_assert(s->metric_scaled[m]);
		ck_assert_msg(close_enough(sample_metric(s, &s->threads[i], m),
					   truth_thread(&r, "exec_stall_pct", v), 0.01, "%", 0),
			      "cpu %d exec_stall_pct %g, truth %g", s->threads[i].index,
			      sample_metric(s, &s->threads[i], m), truth_thread(&r, "exec_stall_pct", v));
	}
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * A core whose threads never ran has no execution-stall share (n/a), not
 * 100 %: UOPS_EXECUTED.CORE_STALL_CYCLES also counts halted cycles (seed
 * 000), so the share is taken over the unhalted core cycles.  A half-idle
 * core's share is over the cycles it ran.
 */
START_TEST(idle_core_has_no_stall_share)
{
	struct run r;
	const struct sample *s;
	int m;

	run_source_text(&r, "nehalem-ep", "pmutop-scenario 1\nname i\nnoise 0\nphase p 0\n"
			"cpu all util=1 ipc=1.2 exec_stall=0.3\ncpu 0,8 util=0\ncpu 9 util=0\n");
	run_engine(&r, "nehalem", "core_stalls", 1.0);
	s = run_sample(&r);
	m = layout_metric_find(r.l, "core_exec_stall_pct");
	ck_assert(isnan(sample_metric(s, &s->cores[0], m)));
	/* core 1: CPU 1 runs, its sibling 9 is halted: the share is CPU 1's own, over its cycles */
	{
		double v[8][SK_COUNT];

		truth_cpu(&r, 1, 0, v[0]);
		truth_cpu(&r, 9, 0, v[1]);
		ck_assert_double_eq_tol(sample_metric(s, &s->cores[1], m),
					truth_core(&r, "core_exec_stall_pct", v, 2), 0.5);
		ck_assert_double_lt(sample_metric(s, &s->cores[1], m), 50);
	}
	sample_release(s);
	run_close(&r);
}
END_TEST

/* An architectural event the CPU reports unavailable blocks its group: n/a with the reason. */
START_TEST(unavailable_architectural_event_blocks_its_group)
{
	struct run r;
	const struct sample *s;
	int g;

	run_source(&r, "arch:compute-bound");
	r.arch_events_absent = 1u << 4; /* LLC Misses */
	run_engine(&r, "arch", "all", 1.0);
	s = run_sample(&r);
	g = layout_group_find(r.l, "cache");
	ck_assert_int_eq(s->groups[g].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_ptr_nonnull(strstr(s->groups[g].why, "LLC Misses"));
	ck_assert_ptr_nonnull(strstr(s->groups[g].why, "CPUID.0AH:EBX bit 4"));
	ck_assert(isnan(sample_metric(s, &s->threads[0], layout_metric_find(r.l, "llc_miss_ratio"))));
	/* the other group and the fixed counters still count */
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "branches")].state, SAMPLE_GROUP_LIVE);
	ck_assert_double_eq_tol(sample_metric(s, &s->threads[0],
					      layout_metric_find(r.l, "branch_miss_ratio")), 0.005, 1e-4);
	{
		double v[SK_COUNT];

		/* the scenario's 2.6, shared with the busy hyper-thread sibling */
		truth_cpu(&r, s->threads[0].index, s->threads[0].socket, v);
		ck_assert_double_lt(v[SK_ipc], 2.6);
		ck_assert_double_eq_tol(sample_metric(s, &s->threads[0],
						      layout_metric_find(r.l, "ipc")), v[SK_ipc], 0.05);
	}
	sample_release(s);
	run_close(&r);
}
END_TEST

/* A metric of a group that is off is n/a, never 0; core metrics are n/a per thread. */
START_TEST(unmeasured_metrics_are_nan)
{
	struct run r;
	const struct sample *s;
	int stalls, port2;

	run_open(&r, "nehalem-ep:compute-bound", "nehalem", "ports_mem", 1.0);
	s = run_sample(&r);
	stalls = layout_metric_find(r.l, "exec_stall_pct");
	port2 = layout_metric_find(r.l, "core_port2");
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "stalls")].state, SAMPLE_GROUP_OFF);
	ck_assert(isnan(sample_metric(s, &s->threads[0], stalls)));
	ck_assert(isnan(sample_metric(s, &s->threads[0], port2)));
	ck_assert(!isnan(sample_metric(s, &s->cores[0], port2)));
	ck_assert(!isnan(sample_metric(s, &s->sockets[1], port2)));
	/* always-live metrics are there at every scope */
	ck_assert(!isnan(sample_metric(s, &s->sockets[0], layout_metric_find(r.l, "ipc"))));
	sample_release(s);
	run_close(&r);
}
END_TEST

/* The socket aggregates: util is the mean, rates add up, ghz stays a clock. */
START_TEST(socket_scope_aggregates_threads)
{
	struct run r;
	const struct sample *s;
	int util, ghz, loads;
	double sum = 0;

	run_open(&r, "nehalem-ep:numa-remote", "nehalem", "dram", 1.0);
	s = run_sample(&r);
	util = layout_metric_find(r.l, "util");
	ghz = layout_metric_find(r.l, "ghz");
	loads = layout_metric_find(r.l, "remote_dram_loads_per_s");
	for (int i = 0; i < s->nthreads; i++)
		if (s->threads[i].socket == 0)
			sum += sample_metric(s, &s->threads[i], loads);
	ck_assert_double_eq_tol(sample_metric(s, &s->sockets[0], loads), sum, sum * 1e-9);
	ck_assert_double_eq_tol(sum, 8 * 3e6, 8 * 3e6 * 0.02);
	ck_assert_double_eq_tol(sample_metric(s, &s->sockets[0], util), 100, 2);
	ck_assert_double_eq_tol(sample_metric(s, &s->sockets[1], util), 2, 0.1);
	ck_assert_double_eq_tol(sample_metric(s, &s->sockets[0], ghz), 2.93, 0.03);
	sample_release(s);
	run_close(&r);
}
END_TEST

/* Clock calls so far, for the ticking clock: each call is a microsecond later. */
static long tick_calls;

static double tick_clock(void *ctx)
{
	return ((struct run *)ctx)->t + 1e-6 * (double)tick_calls++;
}

/*
 * A sample says how long its interval was, its sequence number, where it
 * comes from, and the skew its sweep had: with a clock that moves a
 * microsecond at each look, the 16 CPUs' reads are at 16 different times,
 * and the skew is what the final sweep spanned between the first CPU's
 * read and the last's: at least 15 looks, at most every look it took.
 */
START_TEST(interval_and_skew_are_reported)
{
	struct run r;
	const struct sample *s;
	long before, after;

	run_source(&r, "nehalem-ep:compute-bound");
	tick_calls = 0;
	run_engine_clock(&r, "nehalem", "stalls", 2.0, tick_clock);
	s = run_sample(&r);
	ck_assert_double_eq_tol(s->interval_s, 2.0, 1e-3);
	ck_assert_int_eq(s->seq, 1);
	ck_assert(s->simulated);
	ck_assert_str_eq(s->source, "SIMULATED nehalem-ep:compute-bound");
	sample_release(s);
	/* the next sample's final sweep alone: the steps before it take no reads */
	for (;;) {
		double dt = engine_slice_s(r.eng);
		int rc;

		r.t += dt;
		emu_advance(r.src->emu, dt);
		before = tick_calls;
		rc = engine_step(r.eng);
		after = tick_calls;
		if (rc == 1)
			break;
	}
	s = engine_latest(r.eng);
	ck_assert_int_eq(s->seq, 2);
	ck_assert_msg(s->skew_us >= 15 && s->skew_us <= (double)(after - before),
		      "skew %.1f us; the sweep looked at the clock %ld times", s->skew_us,
		      after - before);
	sample_release(s);
	run_close(&r);
}
END_TEST

START_TEST(widen_handles_wrap_and_reset)
{
	int resets = 0;
	const uint64_t top = 1ull << 48;

	/* a 48-bit counter wrapping: the delta across the boundary */
	ck_assert_double_eq(counter_widen(top - 100, 50, 48, 1.0, &resets), 150);
	ck_assert_int_eq(resets, 0);
	/* a 40-bit counter (Core 2) wraps at 2^40 */
	ck_assert_double_eq(counter_widen((1ull << 40) - 10, 5, 40, 1.0, &resets), 15);
	/* bits above the width are ignored */
	ck_assert_double_eq(counter_widen(10, (1ull << 48) | 30, 48, 1.0, &resets), 20);
	/* far below the previous value and not near the top: someone reset it */
	ck_assert_double_eq(counter_widen(1000000000000ull, 5000000, 48, 1.0, &resets), 5000000);
	ck_assert_int_eq(resets, 1);
}
END_TEST

/* End to end: the cycle counter wraps between two reads; a reset gives no spike. */
START_TEST(fixed_counter_wrap_and_reset_end_to_end)
{
	struct run r;
	const struct sample *s;
	const int cycles = LAYOUT_B_cycles;
	double per_s = 2.93e9;

	run_source(&r, "nehalem-ep:compute-bound");
	/* CPU 0's cycle counter starts 1 M cycles below 2^48: it wraps in the first interval */
	ck_assert_int_eq(emu_msr_write(r.src->emu, 0, IA32_FIXED_CTR1, (1ull << 48) - 1000000), 0);
	run_engine(&r, "nehalem", "stalls", 1.0);
	s = run_sample(&r);
	ck_assert_int_eq(s->resets, 0);
	ck_assert_double_eq_tol(s->threads[0].vars[cycles], per_s, per_s * 0.001);
	sample_release(s);
	sample_release(run_sample(&r));
	/* someone else writes a small value: a reset; that CPU is n/a for the interval (the
	 * count since the reset is no figure for it), never a spike nor a small number */
	ck_assert_int_eq(emu_msr_write(r.src->emu, 0, IA32_FIXED_CTR1, 1000), 0);
	s = run_sample(&r);
	ck_assert_int_eq(s->resets, 1);
	ck_assert(strstr(s->warning, "reset"));
	ck_assert(isnan(s->threads[0].vars[cycles]));
	ck_assert(isnan(sample_metric(s, &s->threads[0], layout_metric_find(r.l, "util"))));
	ck_assert_double_eq_tol(s->threads[1].vars[cycles], per_s, per_s * 0.001);
	sample_release(s);
	s = run_sample(&r);
	ck_assert_int_eq(s->resets, 0);
	ck_assert_double_eq_tol(s->threads[0].vars[cycles], per_s, per_s * 0.001);
	sample_release(s);
	run_close(&r);
}
END_TEST

/* Two OFFCORE_RESPONSE_0 programmings never share a set; Westmere's two registers can. */
START_TEST(offcore_register_is_not_shared)
{
	struct run r;
	const struct sample *s;

	run_open(&r, "nehalem-ep:numa-remote", "nehalem", "dram dram_remote", 1.0);
	s = run_sample(&r);
	/* 3 + 1 counters would fit in 4, but both need MSR 1A6H: they rotate */
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "dram")].state, SAMPLE_GROUP_ROTATING);
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "dram_remote")].state,
			 SAMPLE_GROUP_ROTATING);
	ck_assert_int_gt(check_against_truth(&r, s, 0.05), 0);
	sample_release(s);
	run_close(&r);
	run_open(&r, "westmere-ep:numa-remote", "westmere", "dram", 1.0);
	s = run_sample(&r);
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "dram")].state, SAMPLE_GROUP_LIVE);
	ck_assert_int_gt(check_against_truth(&r, s, 0.02), 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/* Register reads per sample: one per counter read, nothing redundant. */
START_TEST(register_reads_equal_counters_read)
{
	struct run r;
	uint64_t before;
	int nthreads;

	run_open(&r, "nehalem-ep:compute-bound", "nehalem", "stalls", 1.0);
	nthreads = r.src->topo->nonline;
	before = engine_counter_reads(r.eng);
	sample_release(run_sample(&r));
	/* 4 programmable + 3 fixed + the TSC per thread */
	ck_assert_uint_eq(engine_counter_reads(r.eng) - before, (uint64_t)nthreads * 8);
	run_close(&r);
}
END_TEST

/* A group needing more counters than are free is blocked with the reason, not crashed. */
START_TEST(counters_taken_by_others_are_left_alone)
{
	struct engine_config cfg = { 0 };
	struct source *src;
	struct layout *l;
	struct engine *eng;
	const struct sample *s;
	char err[512], path[512];
	uint64_t sel;

	setenv("PMUTOP_SCENARIO_DIR", SCENARIO_SRCDIR, 1);
	ck_assert(source_open("nehalem-ep:compute-bound", NULL, &src, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/nehalem.layout", LAYOUT_SRCDIR);
	ck_assert(layout_load(path, &l, err, sizeof(err)) == 0);
	/* someone else's counter on PMC2 of every CPU */
	for (int c = 0; c < 16; c++)
		ck_assert_int_eq(emu_msr_write(src->emu, c, IA32_PERFEVTSEL0 + 2, 0x43003C), 0);
	cfg = (struct engine_config){
		.core_ops = &msr_core_ops, .uncore_ops = &msr_uncore_ops,
		.topo = src->topo, .layout = l, .dev = src->dev, .perfmon_version = 3,
		.gp_counters = 4, .gp_width = 48, .fixed_counters = 3, .fixed_width = 48,
		.gp_taken = 1u << 2, .interval_s = 1, .source = src->name,
		.groups = (1u << layout_group_find(l, "stalls")) |
			  (1u << layout_group_find(l, "dram")),
	};
	ck_assert_msg(engine_create(&cfg, &eng, err, sizeof(err)) == 0, "%s", err);
	emu_set_clock(src->emu, EMU_CLOCK_MANUAL);
	for (int i = 0; i < 8 && engine_step(eng) != 1; i++)
		emu_advance(src->emu, engine_slice_s(eng));
	s = engine_latest(eng);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(s->gp_usable, 3);
	ck_assert_int_eq(s->groups[layout_group_find(l, "stalls")].state, SAMPLE_GROUP_BLOCKED);
	ck_assert(strstr(s->groups[layout_group_find(l, "stalls")].why, "3 free"));
	ck_assert_int_eq(s->groups[layout_group_find(l, "dram")].state, SAMPLE_GROUP_LIVE);
	/* the foreign event select is untouched */
	ck_assert_int_eq(emu_msr_read(src->emu, 5, IA32_PERFEVTSEL0 + 2, &sel), 0);
	ck_assert_uint_eq(sel, 0x43003C);
	sample_release(s);
	engine_free(eng);
	source_close(src);
	layout_free(l);
}
END_TEST

/* The sampler thread publishes on its own, wakes the fd, and stops promptly. */
/* ---- uncore ------------------------------------------------------------- */

static double unc_metric(const struct run *r, const struct sample *s, int sock, int ch,
			 const char *name)
{
	int m = layout_metric_find(r->l, name);

	ck_assert_msg(m >= 0, "no metric %s", name);
	return sample_metric(s, ch < 0 ? &s->sockets[sock] : sample_channel(s, sock, ch), m);
}

/* Socket 0's threads read socket 1's memory: socket 1's channels, remote and QPI figures rise. */
START_TEST(numa_remote_traffic_shows_on_the_home_socket)
{
	struct run r;
	const struct sample *s;

	run_open(&r, "nehalem-ep:numa-remote", "nehalem", "imc", 1.0);
	s = run_sample(&r);
	ck_assert_int_eq(s->nchannels, 3);
	for (int ch = 0; ch < 3; ch++)
		ck_assert(unc_metric(&r, s, 1, ch, "read_bytes_per_s") >
			  20 * unc_metric(&r, s, 0, ch, "read_bytes_per_s"));
	ck_assert_int_gt(check_uncore_truth(&r, s, 0.02), 0);
	sample_release(s);
	run_close(&r);

	run_open(&r, "nehalem-ep:numa-remote", "nehalem", "qhl", 1.0);
	s = run_sample(&r);
	ck_assert(unc_metric(&r, s, 1, -1, "dram_by_remote_bytes_per_s") > 7e9);
	ck_assert(unc_metric(&r, s, 0, -1, "dram_by_remote_bytes_per_s") == 0);
	ck_assert(unc_metric(&r, s, 1, -1, "qpi_data_to_remote_bytes_per_s") > 7e9);
	ck_assert(unc_metric(&r, s, 1, -1, "dram_by_remote_bytes_per_s") >
		  50 * unc_metric(&r, s, 1, -1, "dram_by_local_bytes_per_s"));
	ck_assert_int_gt(check_uncore_truth(&r, s, 0.02), 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/* Every page on channel 0: it runs near its peak, the others idle; each within 2 %. */
START_TEST(unbalanced_channels_show_the_saturated_one)
{
	struct run r;
	const struct sample *s;

	run_open(&r, "nehalem-ep:unbalanced-channels", "nehalem", "imc", 1.0);
	s = run_sample(&r);
	for (int k = 0; k < 2; k++) {
		ck_assert(unc_metric(&r, s, k, 0, "dram_peak_pct") > 90);
		ck_assert(unc_metric(&r, s, k, 1, "dram_peak_pct") < 5);
		ck_assert(unc_metric(&r, s, k, 0, "read_bytes_per_s") >
			  20 * unc_metric(&r, s, k, 2, "read_bytes_per_s"));
	}
	ck_assert_int_gt(check_uncore_truth(&r, s, 0.02), 0);
	ck_assert_int_eq(s->nflags, 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * Skylake's 32-bit DRAM_DATA_READS at 40 GB/s wraps every 6.9 s: with a
 * 10 s interval the engine reads it often enough to lose none of the wraps.
 */
START_TEST(imc_32bit_counter_wraps_within_a_long_interval)
{
	struct run r;
	const struct sample *s;
	double lines = 40e9 / 64;

	run_source_text(&r, "skylake", "pmutop-scenario 1\nname bw40\nphase p 0\ncpu all util=1\n"
			"channel all read_lines_per_s=3.125e8 write_lines_per_s=0\n");
	run_engine(&r, "skylake", "imc", 10.0);
	ck_assert(engine_slice_s(r.eng) <= UNCORE_IMC_POLL_S + 1e-9);
	for (int i = 0; i < 2; i++) {
		s = run_sample(&r);
		ck_assert_double_eq_tol(s->interval_s, 10.0, 1e-6);
		/* more than 2^32 lines went by in the interval: at least one wrap */
		ck_assert(lines * s->interval_s > 4294967296.0);
		ck_assert_double_eq_tol(unc_metric(&r, s, 0, -1, "read_bytes_per_s"), 40e9, 40e9 * 0.02);
		ck_assert_int_eq(s->resets, 0);
		ck_assert_int_eq(s->nchannels, 0); /* this controller has no per-channel counts */
		sample_release(s);
	}
	run_close(&r);
}
END_TEST

/* The CPU the uncore is read through goes offline: the next one of the socket takes over. */
START_TEST(uncore_reader_going_offline_hands_over)
{
	struct run r;
	const struct sample *s;
	uint64_t v;

	run_open(&r, "nehalem-ep:memory-bound", "nehalem", "imc", 1.0);
	s = run_sample(&r);
	sample_release(s);
	ck_assert_int_eq(emu_set_online(r.src->emu, 0, 0), 0);
	s = run_sample(&r);
	ck_assert_msg(strstr(s->warning, "socket 0's uncore is now read through CPU"), "%s",
		      s->warning);
	ck_assert_msg(strstr(s->warning, "CPU 0 is offline"), "%s", s->warning);
	ck_assert_str_eq(s->error, "");
	ck_assert(isnan(sample_metric(s, &s->threads[0], layout_metric_find(r.l, "util"))));
	ck_assert_int_gt(check_uncore_truth(&r, s, 0.02), 0);
	sample_release(s);
	/* the hand-over is said once; the socket keeps counting */
	s = run_sample(&r);
	ck_assert(!strstr(s->warning, "now read through"));
	ck_assert_int_gt(check_uncore_truth(&r, s, 0.02), 0);
	sample_release(s);
	/* restored through a CPU of the socket that is still online (CPU 0's own registers
	 * cannot be reached while it is offline) */
	/* CPU 0's fixed control, global control and three fixed counts cannot be */
	ck_assert_int_eq(msr_restore_all(r.src->dev), 5);
	{
		char out[4096] = "";
		FILE *f = tmpfile();

		ck_assert_int_eq(msr_restore_report(r.src->dev, fileno(f)), 5);
		rewind(f);
		ck_assert_uint_gt(fread(out, 1, sizeof(out) - 1, f), 0);
		fclose(f);
		ck_assert_msg(strstr(out, "pmutop: MSR 0x38f on CPU 0 could not be restored (the CPU "
				      "is offline); to restore it by hand: wrmsr -p 0 0x38f 0x0"), "%s",
			      out);
		ck_assert_msg(!strstr(out, "socket"), "%s", out); /* the uncore went back */
	}
	ck_assert_int_eq(emu_msr_read(r.src->emu, 1, MSR_UNCORE_PERF_GLOBAL_CTRL, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(emu_msr_read(r.src->emu, 1, MSR_UNCORE_PERFEVTSEL0, &v), 0);
	ck_assert_uint_eq(v, 0);
	run_close(&r);
}
END_TEST

/*
 * Per-socket readers (a thread per socket beyond the first) read the same
 * figures as one sampler reading every CPU: two runs of the same machine,
 * two groups rotating, one with readers, sample for sample equal, and true.
 * (Under ThreadSanitizer in CI: the readers share the sweep's state.)
 */
/*
 * Sample N of runs A and B, read two ways (HOW_A, HOW_B), gives the same
 * figure for every metric of every thread, and B's match the truth.
 */
static void same_figures(struct run *a, const struct sample *sa, struct run *b,
			 const struct sample *sb, int n, const char *how_a, const char *how_b)
{
	int same = 0;

	ck_assert_int_eq(sa->nthreads, sb->nthreads);
	for (int i = 0; i < sa->nthreads; i++)
		for (int m = 0; m < a->l->nmetrics; m++) {
			double x = sample_metric(sa, &sa->threads[i], m);
			double y = sample_metric(sb, &sb->threads[i], m);

			if (isnan(x) && isnan(y))
				continue;
			ck_assert_msg(fabs(x - y) <= 1e-9 * fmax(1, fabs(x)), "sample %d CPU %d %s: "
				      "%g %s, %g %s", n, sa->threads[i].index, a->l->metrics[m].name, x,
				      how_a, y, how_b);
			same++;
		}
	ck_assert_int_gt(same, 50);
	ck_assert_int_gt(check_against_truth(b, sb, 0.03), 0);
}

START_TEST(per_socket_readers_read_what_one_reader_reads)
{
	struct run a, b;

	/* two groups taking turns (two sets): rotation as well as reading */
	run_open(&a, "nehalem-ep:memory-bound", "nehalem", "stalls dram", 1.0);
	run_readers = 1;
	run_open(&b, "nehalem-ep:memory-bound", "nehalem", "stalls dram", 1.0);
	run_readers = 0;
	engine_use_readers(b.eng, true);
	for (int n = 0; n < 2; n++) {
		const struct sample *sa = run_sample(&a), *sb = run_sample(&b);

		ck_assert_int_eq(sa->nthreads, sb->nthreads);
		same_figures(&a, sa, &b, sb, n + 1, "with one reader", "with per-socket readers");
		sample_release(sa);
		sample_release(sb);
	}
	engine_use_readers(b.eng, false);
	run_close(&a);
	run_close(&b);
}
END_TEST

/* The emulator's registers behind a batch call (as msr-safe's would be): each read in turn. */
static int batch_emu_read(void *ctx, int cpu, uint32_t reg, uint64_t *val)
{
	return emu_msr_ops.read(ctx, cpu, reg, val);
}

static int batch_emu_write(void *ctx, int cpu, uint32_t reg, uint64_t val)
{
	return emu_msr_ops.write(ctx, cpu, reg, val);
}

static int batch_emu_calls;

static int batch_emu_read_batch(void *ctx, struct msr_batch_read *rd, int n)
{
	int first = 0;

	batch_emu_calls++;
	for (int i = 0; i < n; i++) {
		rd[i].err = emu_msr_ops.read(ctx, rd[i].cpu, rd[i].reg, &rd[i].val);
		if (rd[i].err && !first)
			first = rd[i].err;
	}
	return first;
}

static const struct msr_ops batch_emu_ops = {
	.read = batch_emu_read, .write = batch_emu_write, .read_batch = batch_emu_read_batch,
};

/* R's source reads through batch_emu_ops from now on. */
static void run_batch_device(struct run *r)
{
	const struct topo *t = r->src->topo;
	int *cpus = calloc((size_t)t->nthreads, sizeof(int));
	int *sock = calloc((size_t)t->cpu_thread_len + 1, sizeof(int));
	int n = 0;

	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].online) {
			cpus[n++] = t->threads[i].os_cpu;
			sock[t->threads[i].os_cpu] = t->threads[i].socket;
		}
	msr_close(r->src->dev);
	r->src->dev = msr_open_ops(&batch_emu_ops, r->src->emu, cpus, n, &r->src->allow);
	msr_set_sockets(r->src->dev, sock, t->cpu_thread_len);
	free(cpus);
	free(sock);
}

/*
 * The batch path (one call per sweep for every CPU's reads, as with
 * msr-safe's batch device) gives exactly the figures of reading register
 * by register, with two groups taking turns; one call per slice.
 */
START_TEST(batch_path_reads_what_register_reads_read)
{
	struct run a, b;

	run_open(&a, "nehalem-ep:memory-bound", "nehalem", "stalls dram", 1.0);
	run_source(&b, "nehalem-ep:memory-bound");
	run_batch_device(&b);
	run_engine(&b, "nehalem", "stalls dram", 1.0);
	for (int n = 0; n < 2; n++) {
		const struct sample *sa, *sb;
		int calls;

		sa = run_sample(&a);
		batch_emu_calls = 0;
		sb = run_sample(&b);
		calls = batch_emu_calls;
		ck_assert(!sa->batched);
		ck_assert(sb->batched);
		/* a call per slice (two sets rotating in 2 ms slices over 1 s), not per register */
		ck_assert_int_ge(calls, 400);
		ck_assert_int_le(calls, 600);
		same_figures(&a, sa, &b, sb, n + 1, "register by register", "batched");
		sample_release(sa);
		sample_release(sb);
	}
	run_close(&a);
	run_close(&b);
}
END_TEST

/*
 * engine_flush (a command run under pmutop ended): the interval ends at the
 * next slice, its sample covers the part that ran, with the figures of the
 * workload; the next interval has the length asked for again.
 */
START_TEST(flush_ends_the_interval_at_once)
{
	struct run r;
	const struct sample *s;
	int rc = 0;

	run_open(&r, "nehalem-ep:memory-bound", "nehalem", "stalls", 1.0);
	sample_release(run_sample(&r)); /* a whole interval */
	/* 0.3 s into the next one (one group: the engine steps once per interval) */
	r.t_start = r.t;
	r.t += 0.3;
	emu_advance(r.src->emu, 0.3);
	engine_flush(r.eng);
	rc = engine_step(r.eng);
	ck_assert_int_eq(rc, 1);
	s = engine_latest(r.eng);
	ck_assert_msg(fabs(s->interval_s - 0.3) < 0.01, "interval %g", s->interval_s);
	ck_assert_int_gt(check_against_truth(&r, s, 0.02), 0);
	sample_release(s);
	s = run_sample(&r);
	ck_assert_msg(fabs(s->interval_s - 1.0) < 0.01, "then %g", s->interval_s);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * On the real clock a loaded machine runs its sweeps late: here every
 * sweep comes 60 ms after the last, so a 0.1 s interval would be over
 * after two slices.  The interval stretches instead until every set had
 * its slice: each rotating group is counted (live share above 0) and its
 * figures are there.  A flush after one slice cuts the interval short:
 * the groups that had no turn are named in the warning, never n/a
 * without a word.
 */
START_TEST(every_group_has_its_turn_when_sweeps_run_late)
{
	struct run r;
	const struct sample *s = NULL;
	int rc = 0, m = -1, rotating = 0;

	run_source(&r, "nehalem-ep:memory-bound");
	run_engine_clock(&r, "nehalem", "all", 0.1, NULL);
	for (int i = 0; i < 100 && rc != 1; i++) {
		usleep(60000);
		emu_advance(r.src->emu, 0.06);
		rc = engine_step(r.eng);
	}
	ck_assert_int_eq(rc, 1);
	s = engine_latest(r.eng);
	for (int g = 0; g < r.l->ngroups; g++) {
		if (s->groups[g].state != SAMPLE_GROUP_ROTATING)
			continue;
		rotating++;
		ck_assert_msg(s->groups[g].live_share > 0, "group %s had no slice (share %g)",
			      r.l->groups[g].name, s->groups[g].live_share);
	}
	ck_assert_int_gt(rotating, 2);
	/* two late slices would have ended it at 0.12 s */
	ck_assert_msg(s->interval_s > 0.2, "interval %g s", s->interval_s);
	for (m = 0; m < r.l->nmetrics; m++)
		if (r.l->metrics[m].group >= 0 && r.l->metrics[m].scope == LAYOUT_THREAD)
			ck_assert_msg(!isnan(sample_metric(s, &s->threads[0], m)) ||
				      s->warning[0], "%s n/a without a warning", r.l->metrics[m].name);
	ck_assert_str_eq(s->warning, "");
	sample_release(s);

	/* one slice, then a flush: the rest had no turn, and the warning says so */
	usleep(60000);
	emu_advance(r.src->emu, 0.06);
	engine_flush(r.eng);
	ck_assert_int_eq(engine_step(r.eng), 1);
	s = engine_latest(r.eng);
	ck_assert_msg(strstr(s->warning, "not counted: the interval ended before"), "warning '%s'",
		      s->warning);
	for (int g = 0; g < r.l->ngroups; g++)
		if (s->groups[g].state == SAMPLE_GROUP_ROTATING && s->groups[g].live_share == 0)
			ck_assert_msg(strstr(s->warning, r.l->groups[g].name), "%s not named in '%s'",
				      r.l->groups[g].name, s->warning);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * A CPU goes offline and comes back, its counters reset as it came up (loop
 * 0) or as it left them (loop 1): n/a while away, then it counts again with
 * figures that match the truth, and what it held on return is not taken
 * for another program's.
 */
START_TEST(cpu_back_from_offline_counts_again)
{
	static const uint32_t regs[] = { IA32_PERFEVTSEL0, IA32_PERFEVTSEL0 + 1, IA32_PERFEVTSEL0 + 2,
					 IA32_PERFEVTSEL0 + 3, IA32_PMC0, IA32_PMC0 + 1, IA32_PMC0 + 2,
					 IA32_PMC0 + 3, IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL };
	struct run r;
	const struct sample *s;
	int util, at = -1;

	run_open(&r, "nehalem-ep:compute-bound", "nehalem", "stalls", 1.0);
	util = layout_metric_find(r.l, "util");
	s = run_sample(&r);
	for (int i = 0; i < s->nthreads; i++)
		if (s->threads[i].index == 2)
			at = i; /* the row of OS CPU 2 */
	ck_assert_int_ge(at, 0);
	sample_release(s);
	ck_assert_int_eq(emu_set_online(r.src->emu, 2, 0), 0);
	s = run_sample(&r);
	ck_assert_msg(strstr(s->warning, "CPU 2 is offline"), "%s", s->warning);
	ck_assert(isnan(sample_metric(s, &s->threads[at], util)));
	sample_release(s);
	s = run_sample(&r); /* still away */
	ck_assert(isnan(sample_metric(s, &s->threads[at], util)));
	sample_release(s);
	ck_assert_int_eq(emu_set_online(r.src->emu, 2, 1), 0);
	for (size_t k = 0; _i == 0 && k < sizeof(regs) / sizeof(regs[0]); k++)
		ck_assert_int_eq(emu_msr_write(r.src->emu, 2, regs[k], 0), 0);
	/* the interval it came back in starts afresh; the next one has figures */
	sample_release(run_sample(&r));
	s = run_sample(&r);
	ck_assert_msg(!strstr(s->warning, "offline") && !strstr(s->warning, "another program"),
		      "%s", s->warning);
	ck_assert(!isnan(sample_metric(s, &s->threads[at], util)));
	ck_assert_int_ge(check_against_truth(&r, s, 0.02), 16);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * Nehalem-EX (06_2E) has another uncore than the -EP one: its row in the CPU
 * model table says so, the uncore groups are n/a with that reason, nothing
 * is written to the -EP uncore registers, the cores count as usual.
 */
START_TEST(ex_model_uncore_is_not_programmed)
{
	struct emu_machine ex = *emu_machine_find("nehalem-ep");
	struct scenario *sc;
	const struct sample *s;
	struct run r;
	char err[512];
	uint64_t v = 0;
	int imc, stalls;

	ex.model = 0x2E;
	memset(&r, 0, sizeof(r));
	ck_assert_msg(scenario_load(SCENARIO_SRCDIR "/memory-bound.scn", &sc, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_msg(source_open_emu(emu_create_from(&ex, sc), &r.src, err, sizeof(err)) == 0, "%s",
		      err);
	emu_set_clock(r.src->emu, EMU_CLOCK_MANUAL);
	ck_assert_int_eq(r.src->uncore, CPUMODEL_UNCORE_NONE);
	ck_assert_int_eq(r.src->info.uarch, CPUID_UARCH_NEHALEM);
	run_engine(&r, "nehalem", "stalls imc", 1.0);
	s = run_sample(&r);
	imc = layout_group_find(r.l, "imc");
	stalls = layout_group_find(r.l, "stalls");
	ck_assert_int_eq(s->groups[imc].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_msg(strstr(s->groups[imc].why, "uncore is not programmed: the Xeon 7500/E7 (-EX) "
			     "uncore is not the -EP one"), "%s", s->groups[imc].why);
	ck_assert_int_eq(s->groups[stalls].state, SAMPLE_GROUP_LIVE);
	ck_assert(isnan(unc_metric(&r, s, 0, -1, "read_bytes_per_s")));
	ck_assert_int_gt(check_against_truth(&r, s, 0.02), 0);
	/* the -EP uncore's global control was never written (the -EX has none there) */
	ck_assert(emu_msr_read(r.src->emu, 0, MSR_UNCORE_PERF_GLOBAL_CTRL, &v) != 0 || v == 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/* A channel that never counts while its siblings do is flagged, and still shown. */
START_TEST(phantom_channel_is_flagged)
{
	struct run r;
	const struct sample *s;
	const struct sample_flag *f;

	run_source_text(&r, "nehalem-ep", "pmutop-scenario 1\nname p\nphase p 0\ncpu all util=1\n"
			"channel all read_lines_per_s=5e7 write_lines_per_s=2e7\n"
			"channel 0.2 read_lines_per_s=0 write_lines_per_s=0\n");
	run_engine(&r, "nehalem", "imc", 1.0);
	s = run_sample(&r);
	f = sample_flag_find(s, 0, 2, layout_metric_find(r.l, "read_bytes_per_s"));
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->why, "never counted while channel 0, 1 did"), "%s", f->why);
	ck_assert_double_eq(unc_metric(&r, s, 0, 2, "read_bytes_per_s"), 0); /* marked, not hidden */
	ck_assert_ptr_null(sample_flag_find(s, 0, 0, -1));
	ck_assert_ptr_null(sample_flag_find(s, 1, 2, -1));
	sample_release(s);
	run_close(&r);
}
END_TEST

/* Bandwidth above what the DIMMs can carry (DDR3-1333: 10.66 GB/s a channel) is flagged. */
START_TEST(bandwidth_above_the_peak_is_flagged)
{
	struct run r;
	const struct sample *s;
	const struct sample_flag *f;
	int m;

	run_source_text(&r, "nehalem-ep", "pmutop-scenario 1\nname p\nphase p 0\ncpu all util=1\n"
			"channel all read_lines_per_s=5e7 write_lines_per_s=2e7\n"
			"channel 1.1 read_lines_per_s=2e8\n");
	run_engine(&r, "nehalem", "imc", 1.0);
	s = run_sample(&r);
	m = layout_metric_find(r.l, "read_bytes_per_s");
	f = sample_flag_find(s, 1, 1, m);
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->why, "above the channel's theoretical peak 10.66 GB/s"), "%s", f->why);
	ck_assert_double_eq_tol(unc_metric(&r, s, 1, 1, "read_bytes_per_s"), 64 * 2e8, 64 * 2e8 * 0.02);
	ck_assert_ptr_null(sample_flag_find(s, 1, 0, m));
	ck_assert_ptr_null(sample_flag_find(s, 0, 1, m));
	sample_release(s);
	run_close(&r);

	/* reads and writes each below the peak, their sum (11.5 GB/s, 108 %) above it */
	run_source_text(&r, "nehalem-ep", "pmutop-scenario 1\nname p\nphase p 0\ncpu all util=1\n"
			"channel all read_lines_per_s=5e7 write_lines_per_s=2e7\n"
			"channel 0.2 read_lines_per_s=1.2e8 write_lines_per_s=6e7\n");
	run_engine(&r, "nehalem", "imc", 1.0);
	s = run_sample(&r);
	ck_assert_ptr_null(sample_flag_find(s, 0, 2, layout_metric_find(r.l, "read_bytes_per_s")));
	ck_assert_ptr_null(sample_flag_find(s, 0, 2, layout_metric_find(r.l, "write_bytes_per_s")));
	f = sample_flag_find(s, 0, 2, layout_metric_find(r.l, "dram_peak_pct"));
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->why, "dram_peak_pct 108 %: reads and writes together are above the "
			     "channel's theoretical peak 10.66 GB/s"), "%s", f->why);
	ck_assert_ptr_null(sample_flag_find(s, 0, 1, -1));
	sample_release(s);
	run_close(&r);
}
END_TEST

/* The IMC reading more lines than the home logic was asked for cannot be true (seed 000). */
START_TEST(imc_disagreeing_with_home_logic_is_flagged)
{
	struct run r;
	const struct sample *s;
	const struct sample_flag *f;

	run_source_text(&r, "nehalem-ep", "pmutop-scenario 1\nname p\nphase p 0\ncpu all util=1\n"
			"socket all local_reads_per_s=1e8 local_writes_per_s=3e7\n"
			"socket 1 local_reads_per_s=5e7\n"
			"channel all read_lines_per_s=3.3e7 write_lines_per_s=1e7\n");
	run_engine(&r, "nehalem", "imc qhl", 1.0);
	s = run_sample(&r);
	f = sample_flag_find(s, 1, -1, layout_metric_find(r.l, "dram_by_local_bytes_per_s"));
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->why, "more than the"), "%s", f->why);
	ck_assert_ptr_nonnull(sample_flag_find(s, 1, -1, layout_metric_find(r.l, "read_bytes_per_s")));
	/* socket 0's IMC reads 9.9e7 of the 1e8 asked for: consistent */
	ck_assert_ptr_null(sample_flag_find(s, 0, -1, -1));
	sample_release(s);
	run_close(&r);
}
END_TEST

/* Uncore counters someone else uses are left alone: the groups are blocked, with the reason. */
START_TEST(uncore_taken_by_others_blocks_uncore_groups)
{
	static const bool taken[2] = { true, true };
	struct run r;
	const struct sample *s;
	int imc, stalls;
	uint64_t v;

	run_source(&r, "nehalem-ep:memory-bound");
	r.uncore_taken = taken;
	run_engine(&r, "nehalem", "imc stalls", 1.0);
	imc = layout_group_find(r.l, "imc");
	stalls = layout_group_find(r.l, "stalls");
	s = run_sample(&r);
	ck_assert_int_eq(s->groups[imc].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_msg(strstr(s->groups[imc].why, "in use by another program"), "%s", s->groups[imc].why);
	ck_assert_int_eq(s->groups[stalls].state, SAMPLE_GROUP_LIVE);
	ck_assert(isnan(unc_metric(&r, s, 0, 0, "read_bytes_per_s")));
	/* never written: no enable, no event select */
	ck_assert_int_eq(emu_msr_read(r.src->emu, 0, MSR_UNCORE_PERF_GLOBAL_CTRL, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(emu_msr_read(r.src->emu, 4, MSR_UNCORE_PERFEVTSEL0, &v), 0);
	ck_assert_uint_eq(v, 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/* Without the memory controller's window (no /dev/mem, lockdown) the IMC group says why. */
START_TEST(imc_without_its_window_is_blocked_with_the_reason)
{
	struct run r;
	const struct sample *s;
	int imc, l3;

	run_source(&r, "skylake:memory-bound");
	mmio_close(r.src->mmio);
	r.src->mmio = NULL;
	snprintf(r.src->mmio_why, sizeof(r.src->mmio_why), "kernel lockdown [integrity] refuses /dev/mem");
	run_engine(&r, "skylake", "imc l3", 1.0);
	imc = layout_group_find(r.l, "imc");
	l3 = layout_group_find(r.l, "l3");
	s = run_sample(&r);
	ck_assert_int_eq(s->groups[imc].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_str_eq(s->groups[imc].why, "kernel lockdown [integrity] refuses /dev/mem");
	ck_assert_int_eq(s->groups[l3].state, SAMPLE_GROUP_LIVE);
	ck_assert(isnan(unc_metric(&r, s, 0, -1, "read_bytes_per_s")));
	ck_assert_int_gt(check_uncore_truth(&r, s, 0.02), 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

START_TEST(sampler_thread_publishes_and_stops)
{
	struct engine_config cfg = { 0 };
	struct source *src;
	struct layout *l;
	struct engine *eng;
	const struct sample *s;
	char err[512], path[512];

	setenv("PMUTOP_SCENARIO_DIR", SCENARIO_SRCDIR, 1);
	ck_assert(source_open("nehalem-ep:compute-bound", NULL, &src, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/nehalem.layout", LAYOUT_SRCDIR);
	ck_assert(layout_load(path, &l, err, sizeof(err)) == 0);
	cfg = (struct engine_config){
		.core_ops = &msr_core_ops, .uncore_ops = &msr_uncore_ops,
		.topo = src->topo, .layout = l, .dev = src->dev, .perfmon_version = 3,
		.gp_counters = 4, .gp_width = 48, .fixed_counters = 3, .fixed_width = 48,
		.interval_s = 0.1, .source = src->name, .groups = 1,
	};
	ck_assert(engine_create(&cfg, &eng, err, sizeof(err)) == 0);
	ck_assert_int_eq(engine_start(eng), 0);
	for (int i = 0; i < 50 && !(s = engine_latest(eng)); i++)
		usleep(20000);
	ck_assert_ptr_nonnull(s);
	ck_assert_double_eq_tol(s->interval_s, 0.1, 0.05);
	ck_assert_double_eq_tol(sample_metric(s, &s->threads[0], 0), 100, 2); /* util */
	sample_release(s);
	engine_stop(eng);
	engine_free(eng);
	source_close(src);
	layout_free(l);
}
END_TEST

#ifndef NDEBUG
/*
 * --enable-debug keeps the assertions the headers promise: another thread
 * stepping the engine while the sampler owns the registers stops the
 * program (SIGABRT) instead of racing it.
 */
START_TEST(debug_build_asserts_that_the_sampler_owns_the_registers)
{
	struct run r;

	run_open(&r, "nehalem-ep:compute-bound", "nehalem", "stalls", 1.0);
	ck_assert_int_eq(engine_start(r.eng), 0);
	engine_step(r.eng); /* not the sampler thread: aborts */
	engine_stop(r.eng);
	run_close(&r);
}
END_TEST
#endif


/* ---- the perf source, over the emulated kernel ------------------------------ */

/*
 * Every group at once through perf: more events than counters, so the
 * kernel multiplexes (its tick every 4 ms of emulated time): every core
 * group, the fixed events' too, ran part of the interval; each is marked
 * rotating with its share, its metrics marked scaled, and the scaled
 * figures, the uncore's through the kernel's uncore PMUs too, are within
 * 5 % of the truth.
 */
START_TEST(perf_kernel_multiplexing_is_scaled_and_marked)
{
	struct run r;
	const struct sample *s;
	int need = 0, core_groups = 0;

	run_open_perf(&r, cases[_i].sim, cases[_i].layout, "all", 1.0);
	sample_release(run_sample(&r));
	s = run_sample(&r);
	for (int k = 0; k < r.l->nevents; k++)
		need += r.l->events[k].pmu == LAYOUT_PMU_CORE;
	for (int g = 0; g < r.l->ngroups; g++) {
		if (r.l->groups[g].pmu != LAYOUT_PMU_CORE) {
			/* the kernel's uncore PMUs multiplex too, where the groups do not fit */
			ck_assert_msg(s->groups[g].state == SAMPLE_GROUP_LIVE ||
				      (s->groups[g].state == SAMPLE_GROUP_ROTATING &&
				       s->groups[g].live_share > 0.02 && s->groups[g].live_share < 0.99),
				      "group %s: state %d, share %g %s", r.l->groups[g].name,
				      s->groups[g].state, s->groups[g].live_share, s->groups[g].why);
			continue;
		}
		core_groups++;
		if (need <= (int)r.src->info.gp_counters) {
			ck_assert_int_eq(s->groups[g].state, SAMPLE_GROUP_LIVE);
			continue;
		}
		ck_assert_msg(s->groups[g].state == SAMPLE_GROUP_ROTATING, "group %s: state %d",
			      r.l->groups[g].name, s->groups[g].state);
		ck_assert_msg(s->groups[g].live_share > 0.02 && s->groups[g].live_share < 0.99,
			      "group %s: share %g", r.l->groups[g].name, s->groups[g].live_share);
	}
	ck_assert_int_gt(core_groups, 0);
	for (int m = 0; m < r.l->nmetrics; m++)
		ck_assert_int_eq(s->metric_scaled[m], r.l->metrics[m].group >= 0 &&
				 s->groups[r.l->metrics[m].group].state == SAMPLE_GROUP_ROTATING);
	ck_assert_int_gt(check_against_truth(&r, s, 0.05), 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * Through perf, phases of 0.2 s in a 1 s interval with every group: the
 * kernel's 4 ms rotation sees the phases in their shares; within 5 %.
 */
START_TEST(perf_phases_shorter_than_the_interval)
{
	static const char *const names[] = {
		"exec_stall_pct", "issue_stall_pct", "retire_stall_pct", "load_stall_pct", "port0",
	};
	char text[2048];
	struct run r;
	const struct sample *s;
	double worst = 0;

	snprintf(text, sizeof(text), phased_scenario, "0.2", "0.2");
	run_perf = true;
	run_source_text(&r, "nehalem-ep", text);
	run_perf = false;
	run_engine(&r, "nehalem", "all", 1.0);
	sample_release(run_sample(&r));
	s = run_sample(&r);
	for (int i = 0; i < s->nthreads; i++)
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			int m = layout_metric_find(r.l, names[k]);
			double want = 0, one[SK_COUNT], got = sample_metric(s, &s->threads[i], m);

			for (int j = 0; j < 1000; j++) {
				double t = r.t_start + (r.t - r.t_start) * (j + 0.5) / 1000;

				truth_cpu_at(&r, s->threads[i].index, s->threads[i].socket, t, one, NULL);
				want += truth_thread(&r, names[k], one) / 1000;
			}
			ck_assert(s->metric_scaled[m]);
			ck_assert_msg(close_enough(got, want, 0.05, r.l->metrics[m].unit, 0),
				      "cpu %d %s: %g, truth %g", s->threads[i].index, names[k], got, want);
			if (want > 1)
				worst = fmax(worst, fabs(got - want) / want);
		}
	fprintf(stderr, "# perf: phases 0.2 s / 0.2 s, -g all, the kernel's 4 ms rotation: largest "
		"error %.1f %% (figures above 1)\n", 100 * worst);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * A kernel whose cpu PMU has no "any" format field (too old for AnyThread):
 * the groups with a per-core event are blocked with the field named, the
 * others count.  Groups switched off close their events; at the end none
 * is left open in the kernel.
 */
START_TEST(perf_missing_format_field_blocks_its_groups_and_files_are_closed)
{
	struct run r;
	const struct sample *s;
	int blocked = 0, live = 0;

	run_source_perf(&r, "nehalem-ep:memory-bound");
	for (int f = 0; f < r.src->perf_cpu.nfields; f++)
		if (!strcmp(r.src->perf_cpu.fields[f].name, "any"))
			r.src->perf_cpu.fields[f] = r.src->perf_cpu.fields[--r.src->perf_cpu.nfields];
	run_engine(&r, "nehalem", "all", 1.0);
	s = run_sample(&r);
	for (int g = 0; g < r.l->ngroups; g++) {
		const struct layout_group *grp = &r.l->groups[g];
		bool any = false;

		if (grp->pmu != LAYOUT_PMU_CORE)
			continue;
		for (int i = 0; i < grp->nevents; i++)
			any |= r.l->events[grp->first_event + i].any;
		if (any) {
			ck_assert_int_eq(s->groups[g].state, SAMPLE_GROUP_BLOCKED);
			ck_assert_msg(strstr(s->groups[g].why, "any"), "%s", s->groups[g].why);
			blocked++;
		} else {
			ck_assert_int_ne(s->groups[g].state, SAMPLE_GROUP_BLOCKED);
			live++;
		}
	}
	ck_assert_int_gt(blocked, 0);
	ck_assert_int_gt(live, 0);
	sample_release(s);
	ck_assert_int_gt(emu_perf_open_events(r.src->perf_kernel), 0);
	/* one group left: the others' events are closed */
	{
		int before = emu_perf_open_events(r.src->perf_kernel);

		engine_set_groups(r.eng, 1u << layout_group_find(r.l, "stalls"));
		sample_release(run_sample(&r));
		ck_assert_int_lt(emu_perf_open_events(r.src->perf_kernel), before);
	}
	engine_free(r.eng);
	ck_assert_int_eq(emu_perf_open_events(r.src->perf_kernel), 0);
	source_close(r.src);
	layout_free(r.l);
}
END_TEST

/*
 * A kernel without one of the uncore PMUs the layout needs (uncore_arb
 * here): the groups on it are blocked with the PMU named, the other uncore
 * groups (the cache boxes, the IMC's free-running counters) count and
 * match the truth.
 */
START_TEST(perf_kernel_without_a_pmu_blocks_only_its_groups)
{
	struct run r;
	const struct sample *s;
	int blocked = 0, counted = 0;

	run_source_perf(&r, "skylake:memory-bound");
	ck_assert_int_eq(emu_perf_hide_pmu(r.src->perf_kernel, "uncore_arb"), 0);
	run_engine(&r, "skylake", "all", 1.0);
	s = run_sample(&r);
	for (int g = 0; g < r.l->ngroups; g++) {
		enum layout_pmu pmu = r.l->groups[g].pmu;

		if (pmu == LAYOUT_PMU_ARB) {
			ck_assert_int_eq(s->groups[g].state, SAMPLE_GROUP_BLOCKED);
			ck_assert_msg(strstr(s->groups[g].why, "no uncore_arb PMU"), "%s",
				      s->groups[g].why);
			blocked++;
		} else if (pmu != LAYOUT_PMU_CORE) {
			ck_assert_msg(s->groups[g].state != SAMPLE_GROUP_BLOCKED, "%s: %s",
				      r.l->groups[g].name, s->groups[g].why);
			counted++;
		}
	}
	ck_assert_int_gt(blocked, 0);
	ck_assert_int_gt(counted, 1);
	ck_assert_int_gt(check_uncore_truth(&r, s, 0.05), 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * The server uncore through the kernel's own PMUs (Sapphire Rapids: every
 * box only the kernel reaches): a layout of the kernel's box kinds (mc:
 * uncore_imc_N a channel each; upi; power's named events) counts each
 * channel, RAPL's energy and the links within 2 % of the truth, the
 * channels summing to the socket; a kernel without the UPI driver's PMUs
 * blocks only the link group, naming the PMU; and the msr source, which
 * cannot reach these boxes, says to use perf.
 */
static const char kernel_uncore_layout[] =
	"pmutop-layout 1\nlayout srv\ndescription \"the kernel's server uncore\"\n"
	"models any\nmetric util thread % = 100 * ref_cycles / tsc\n\n"
	"group mem\n  key 9\n  pmu mc\n"
	"  event rd raw event=0x05 umask=0xCF channel=0\n  event rd raw event=0x05 umask=0xCF channel=1\n"
	"  event rd raw event=0x05 umask=0xCF channel=2\n  event rd raw event=0x05 umask=0xCF channel=3\n"
	"  event rd raw event=0x05 umask=0xCF channel=4\n  event rd raw event=0x05 umask=0xCF channel=5\n"
	"  event rd raw event=0x05 umask=0xCF channel=6\n  event rd raw event=0x05 umask=0xCF channel=7\n"
	"  event wr raw event=0x05 umask=0xF0 channel=0\n  event wr raw event=0x05 umask=0xF0 channel=1\n"
	"  event wr raw event=0x05 umask=0xF0 channel=2\n  event wr raw event=0x05 umask=0xF0 channel=3\n"
	"  event wr raw event=0x05 umask=0xF0 channel=4\n  event wr raw event=0x05 umask=0xF0 channel=5\n"
	"  event wr raw event=0x05 umask=0xF0 channel=6\n  event wr raw event=0x05 umask=0xF0 channel=7\n"
	"  metric read_bytes_per_s channel B/s = 64 * rd / seconds\n"
	"  metric write_bytes_per_s channel B/s = 64 * wr / seconds\n"
	"  metric dram_peak_pct channel % = 100 * (read_bytes_per_s + write_bytes_per_s) / dram_peak\n"
	"end\n\n"
	"group links\n  key u\n  pmu upi\n"
	"  event tx raw event=0x02 umask=0x0F\n  event rx raw event=0x03 umask=0x0F\n"
	"  metric upi_tx_bytes_per_s socket B/s = tx * 64 / 9 / seconds\n"
	"  metric upi_rx_bytes_per_s socket B/s = rx * 64 / 9 / seconds\n"
	"end\n\n"
	"group energy\n  key w\n  pmu power\n"
	"  event pkg energy-pkg\n  event ram energy-ram\n"
	"  metric package_watts socket W = pkg / seconds\n"
	"  metric dram_watts socket W = ram / seconds\n"
	"end\n";

static void run_engine_text(struct run *r, const char *text, double interval)
{
	char err[512];

	ck_assert_msg(layout_parse(text, "srv.layout", &r->l, err, sizeof(err)) == 0, "%s", err);
	run_engine_layout(r, "all", interval, run_clock);
}

START_TEST(perf_kernel_server_uncore_counts_the_truth)
{
	struct run r;
	const struct sample *s;
	int links = -1;

	run_source_perf(&r, "sapphire-rapids:numa-remote");
	ck_assert_int_eq(r.src->uncore, CPUMODEL_UNCORE_KERNEL);
	ck_assert_int_eq(r.src->channels, 8);
	run_engine_text(&r, kernel_uncore_layout, 1.0);
	s = run_sample(&r);
	ck_assert_int_eq(s->nchannels, 8);
	/* both sockets: 3 metrics of each channel and of the socket, the links, the energy: 2 x 31 */
	ck_assert_int_eq(check_uncore_truth(&r, s, 0.02), 62);
	for (int k = 0; k < s->nsockets; k++) {
		int m = layout_metric_find(r.l, "read_bytes_per_s");
		double sum = 0;

		for (int ch = 0; ch < s->nchannels; ch++)
			sum += sample_metric(s, sample_channel(s, k, ch), m);
		ck_assert_msg(fabs(sum - sample_metric(s, &s->sockets[k], m)) <= 1e-6 * sum,
			      "socket %d: channels %g, socket %g", k, sum,
			      sample_metric(s, &s->sockets[k], m));
	}
	sample_release(s);
	run_close(&r);

	/* a kernel without the UPI driver: the link group blocked, named; the rest counts */
	run_source_perf(&r, "sapphire-rapids:numa-remote");
	for (int b = 0; b < 4; b++) {
		char name[32];

		snprintf(name, sizeof(name), "uncore_upi_%d", b);
		ck_assert_int_eq(emu_perf_hide_pmu(r.src->perf_kernel, name), 0);
	}
	run_engine_text(&r, kernel_uncore_layout, 1.0);
	s = run_sample(&r);
	links = layout_group_find(r.l, "links");
	ck_assert_int_eq(s->groups[links].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_msg(strstr(s->groups[links].why, "no uncore_upi_0 PMU"), "%s", s->groups[links].why);
	ck_assert_int_eq(check_uncore_truth(&r, s, 0.02), 58);
	sample_release(s);
	run_close(&r);

	/* a box the kernel's driver failed (uncore_imc_3 missing): the others keep their channels */
	run_source_perf(&r, "sapphire-rapids:numa-remote");
	ck_assert_int_eq(emu_perf_hide_pmu(r.src->perf_kernel, "uncore_imc_3"), 0);
	run_engine_text(&r, kernel_uncore_layout, 1.0);
	s = run_sample(&r);
	{
		int m = layout_metric_find(r.l, "read_bytes_per_s");
		double c2 = sample_metric(s, sample_channel(s, 1, 2), m);
		double c3 = sample_metric(s, sample_channel(s, 1, 3), m);
		double c4 = sample_metric(s, sample_channel(s, 1, 4), m);

		ck_assert_msg(isnan(c3), "channel 3 without its box: %g", c3);
		/* numa-remote: socket 1's channels each read 4.1e7 lines a second (no noise at 1 %) */
		ck_assert_msg(fabs(c2 - 64 * 4.1e7) < 0.05 * 64 * 4.1e7 &&
			      fabs(c4 - 64 * 4.1e7) < 0.05 * 64 * 4.1e7, "channels 2 and 4: %g %g",
			      c2, c4);
	}
	sample_release(s);
	run_close(&r);

	/* the msr source: these boxes are the kernel's alone */
	run_source(&r, "sapphire-rapids:numa-remote");
	run_engine_text(&r, kernel_uncore_layout, 1.0);
	s = run_sample(&r);
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "mem")].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_msg(strstr(s->groups[layout_group_find(r.l, "mem")].why, "--source perf counts them"),
		      "%s", s->groups[layout_group_find(r.l, "mem")].why);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * RAPL through the msr device (read only) on a CPU whose uncore only the
 * kernel reaches: package and DRAM power within 2 % of the truth at every
 * 60 s interval for 30 minutes (486 kJ of package energy at 270 W: the
 * 32-bit total in 61 uJ units wraps after 262 kJ; 72 kJ of DRAM energy at
 * 40 W, in 15.3 uJ units wrapping after 65.7 kJ); a client without the DRAM
 * domain blocks that group, naming the register.
 */
static const char rapl_layout[] =
	"pmutop-layout 1\nlayout rapl\ndescription \"RAPL\"\nmodels any\n"
	"metric util thread % = 100 * ref_cycles / tsc\n\n"
	"group energy\n  key w\n  pmu power\n  event pkg energy-pkg\n  event ram energy-ram\n"
	"  metric package_watts socket W = pkg / seconds\n"
	"  metric dram_watts socket W = ram / seconds\nend\n";

START_TEST(msr_rapl_reads_energy_across_wraps)
{
	struct run r;
	const struct sample *s;

	run_source(&r, "sapphire-rapids:memory-bound");
	ck_assert_int_eq(r.src->uncore, CPUMODEL_UNCORE_RAPL);
	run_engine_text(&r, rapl_layout, 60.0);
	for (int i = 0; i < 30; i++) {
		s = run_sample(&r);
		ck_assert_int_eq(s->groups[0].state, SAMPLE_GROUP_LIVE);
		/* both sockets: the two metrics each */
		ck_assert_int_eq(check_uncore_truth(&r, s, 0.02), 4);
		sample_release(s);
	}
	run_close(&r);

	run_source(&r, "tigerlake:memory-bound");
	ck_assert_int_eq(r.src->uncore, CPUMODEL_UNCORE_RAPL);
	run_engine_text(&r, rapl_layout, 1.0);
	s = run_sample(&r);
	ck_assert_int_eq(s->groups[0].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_msg(strstr(s->groups[0].why, "no MSR_DRAM_ENERGY_STATUS (0x619)"), "%s",
		      s->groups[0].why);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * Counting one command through perf (--command-only, or a user at
 * perf_event_paranoid 1-2): nothing counts until the command is named (its
 * groups say they wait for it), then each CPU's figures are its figures
 * (the emulated machine runs nothing else) within 2 % of the truth; the
 * uncore cannot count a command and says why; a command that is gone is
 * the kernel's ESRCH, said.
 */
START_TEST(perf_counts_a_command_once_attached)
{
	struct run r;
	const struct sample *s;
	char err[400];
	int stalls;

	run_source_perf(&r, "nehalem-ep:memory-bound");
	r.src->perf_task = true;
	run_engine(&r, "nehalem", "stalls imc", 1.0);
	stalls = layout_group_find(r.l, "stalls");
	s = run_sample(&r);
	ck_assert_int_eq(s->groups[stalls].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_str_eq(s->groups[stalls].why, "waiting for the command to start");
	ck_assert(isnan(sample_metric(s, &s->threads[0], layout_metric_find(r.l, "ipc"))));
	sample_release(s);
	ck_assert_int_eq(engine_attach(r.eng, INT_MAX, err, sizeof(err)), -ESRCH);
	ck_assert_msg(strstr(err, "No such process"), "%s", err);
	ck_assert_msg(engine_attach(r.eng, (int)getpid(), err, sizeof(err)) == 0, "%s", err);
	sample_release(run_sample(&r)); /* the attach restarts the interval */
	s = run_sample(&r);
	ck_assert_int_eq(s->groups[stalls].state, SAMPLE_GROUP_LIVE);
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "imc")].state, SAMPLE_GROUP_BLOCKED);
	ck_assert_msg(strstr(s->groups[layout_group_find(r.l, "imc")].why, "counts whole sockets"),
		      "%s", s->groups[layout_group_find(r.l, "imc")].why);
	ck_assert_int_gt(check_against_truth(&r, s, 0.02), 0);
	sample_release(s);
	run_close(&r);
}
END_TEST

/*
 * Through perf each event takes an open file per CPU: with a limit too low
 * for every group, the groups that fit are opened and the rest are blocked
 * with the message (checked before opening, never EMFILE half-way); no
 * group is left half open.
 */
START_TEST(perf_file_limit_blocks_groups_with_the_fix)
{
	struct run r;
	const struct sample *s;
	int blocked = 0, counted = 0;

	run_source_perf(&r, "nehalem-ep:memory-bound");
	r.src->perf_access.fd_limit = 300; /* 16 CPUs: the fixed events and a few groups */
	r.src->perf_access.fd_raisable = false; /* a limit this process may not raise */
	run_engine(&r, "nehalem", "all", 1.0);
	s = run_sample(&r);
	for (int g = 0; g < r.l->ngroups; g++) {
		if (r.l->groups[g].pmu != LAYOUT_PMU_CORE)
			continue;
		if (s->groups[g].state == SAMPLE_GROUP_BLOCKED) {
			ck_assert_msg(strstr(s->groups[g].why, "open files (one per event per CPU) and "
					     "the limit is 300: raise it (ulimit -n"), "%s", s->groups[g].why);
			blocked++;
		} else {
			counted++;
		}
	}
	ck_assert_int_gt(blocked, 0);
	ck_assert_int_gt(counted, 0);
	/* what is open fits the limit, with pmutop's own files beside it */
	ck_assert_int_le(emu_perf_open_events(r.src->perf_kernel) + 64, 300);
	/* and what is open counts */
	ck_assert(!isnan(sample_metric(s, &s->threads[0], layout_metric_find(r.l, "ipc"))));
	sample_release(s);
	run_close(&r);
}
END_TEST

/* A raw core event read as a group with both times, as pmutop opens them. */
static struct perf_event_attr raw_attr(void)
{
	return (struct perf_event_attr){ .size = sizeof(struct perf_event_attr),
					 .type = PERF_TYPE_RAW,
					 .read_format = PERF_FORMAT_GROUP |
							PERF_FORMAT_TOTAL_TIME_ENABLED |
							PERF_FORMAT_TOTAL_TIME_RUNNING };
}

/*
 * The emulated kernel's extra registers, as Linux's extra_regs: an event of
 * the offcore pair (2AH/2BH on Sapphire Rapids) programs its matrix from
 * config1, any other event with config1 MSR_PEBS_FRONTEND; a second value
 * for a register in use waits (the group does not fit) until it is free.
 */
START_TEST(perf_extra_registers_are_programmed_one_value_each)
{
	struct run r;
	const struct perf_sys *k;
	struct perf_event_attr a = raw_attr();
	uint64_t v = 0, buf[4];
	int ocr, fe, fe2;

	run_source_perf(&r, "sapphire-rapids:compute-bound");
	k = r.src->perf_sys;
	a.config = 0x012A;
	a.config1 = 0x10003C0002;
	ocr = k->open(k->ctx, &a, -1, 0, -1, 0);
	a.config = 0x01C6;
	a.config1 = 0x13;
	fe = k->open(k->ctx, &a, -1, 0, -1, 0);
	a.config1 = 0x1;
	fe2 = k->open(k->ctx, &a, -1, 0, -1, 0);
	ck_assert_int_ge(ocr, 0);
	ck_assert_int_ge(fe, 0);
	ck_assert_int_ge(fe2, 0);
	k->ioctl(k->ctx, ocr, PERF_EVENT_IOC_ENABLE, 0);
	k->ioctl(k->ctx, fe, PERF_EVENT_IOC_ENABLE, 0);
	k->ioctl(k->ctx, fe2, PERF_EVENT_IOC_ENABLE, 0);
	ck_assert_int_eq(emu_msr_read(r.src->emu, 0, MSR_OFFCORE_RSP_0, &v), 0);
	ck_assert_uint_eq(v, 0x10003C0002);
	ck_assert_int_eq(emu_msr_read(r.src->emu, 0, MSR_PEBS_FRONTEND, &v), 0);
	ck_assert_uint_eq(v, 0x13);
	emu_advance(r.src->emu, 0.5);
	ck_assert_int_gt(k->read(k->ctx, fe2, buf, sizeof(buf)), 0);
	ck_assert_uint_eq(buf[2], 0); /* waited: the register held the other value */
	k->close(k->ctx, fe);
	ck_assert_int_eq(emu_msr_read(r.src->emu, 0, MSR_PEBS_FRONTEND, &v), 0);
	ck_assert_uint_eq(v, 0x1); /* its turn now */
	k->close(k->ctx, fe2);
	k->close(k->ctx, ocr);
	source_close(r.src);
}
END_TEST

/*
 * The emulated kernel's top-down group, as Linux has it: "slots" (fixed
 * counter 3) must lead the topdown-* events; a field the CPU lacks (level 2
 * before Sapphire Rapids) is refused; read as a group, each topdown-* is its
 * field's share of the slots, and they add up to them.
 */
START_TEST(perf_topdown_events_need_slots_leading_their_group)
{
	struct run r;
	const struct perf_sys *k;
	struct perf_event_attr a = raw_attr();
	uint64_t buf[3 + 8];
	int lead, fd[4];
	double sum = 0;

	run_source_perf(&r, "tigerlake:compute-bound");
	k = r.src->perf_sys;
	a.config = 0x8000; /* topdown-retiring alone */
	ck_assert_int_eq(k->open(k->ctx, &a, -1, 0, -1, 0), -EINVAL);
	a.config = 0x0400; /* slots */
	lead = k->open(k->ctx, &a, -1, 0, -1, 0);
	ck_assert_int_ge(lead, 0);
	for (int f = 0; f < 4; f++) {
		a.config = 0x8000 + 0x100 * (uint64_t)f;
		fd[f] = k->open(k->ctx, &a, -1, 0, lead, 0);
		ck_assert_int_ge(fd[f], 0);
	}
	a.config = 0x8400; /* topdown-heavy-ops: Tiger Lake has 4 fields */
	ck_assert_int_eq(k->open(k->ctx, &a, -1, 0, lead, 0), -EINVAL);
	ck_assert_int_eq(k->ioctl(k->ctx, lead, PERF_EVENT_IOC_ENABLE, 0), 0);
	emu_advance(r.src->emu, 1);
	ck_assert_int_eq(k->read(k->ctx, lead, buf, sizeof(buf)), (ssize_t)(8 * 8));
	ck_assert_uint_eq(buf[0], 5);
	for (int f = 0; f < 4; f++)
		sum += (double)buf[4 + f];
	ck_assert_msg(buf[3] > 0 && fabs(sum - (double)buf[3]) <= 0.01 * (double)buf[3],
		      "slots %llu, fields %g", (unsigned long long)buf[3], sum);
	for (int f = 3; f >= 0; f--)
		k->close(k->ctx, fd[f]);
	k->close(k->ctx, lead);
	source_close(r.src);
}
END_TEST

/*
 * A long run opens and closes groups every interval (the who view's turns)
 * while other events stay open: the emulated kernel reuses a closed fd's
 * slot, as a kernel hands out the lowest free fd, so its tables (and the
 * process) stay flat; it grew by every turn while slots came back only from
 * the end.  A member whose leader was closed keeps its fd (and slot) until
 * it is closed itself: a new event never takes an fd pmutop still holds.
 */
START_TEST(perf_closed_slots_are_reused)
{
	struct run r;
	const struct perf_sys *k;
	struct perf_event_attr a = raw_attr();
	int keep, lead, mem, fresh, most = 0;

	run_source_perf(&r, "icelake-sp:compute-bound");
	k = r.src->perf_sys;
	a.config = 0x003C;
	for (int turn = 0; turn < 2000; turn++) {
		lead = k->open(k->ctx, &a, -1, turn % 4, -1, 0);
		mem = k->open(k->ctx, &a, -1, turn % 4, lead, 0);
		ck_assert_int_ge(lead, 0);
		ck_assert_int_ge(mem, 0);
		if (turn == 0)
			keep = k->open(k->ctx, &a, -1, 1, -1, 0); /* open for the whole run */
		most = mem > most ? mem : most;
		most = lead > most ? lead : most;
		if (turn % 2) {
			k->close(k->ctx, mem);
			k->close(k->ctx, lead);
		} else {
			/* the leader first: its member's fd is still pmutop's */
			k->close(k->ctx, lead);
			fresh = k->open(k->ctx, &a, -1, 0, -1, 0);
			ck_assert_int_ne(fresh, mem);
			k->close(k->ctx, fresh);
			k->close(k->ctx, mem);
		}
	}
	/* the fds of 2,000 turns came from a handful of slots */
	ck_assert_int_lt(most - keep, 8);
	k->close(k->ctx, keep);
	source_close(r.src);
}
END_TEST

/*
 * The NMI watchdog holds fixed counter 1 on every CPU (a pinned cycles
 * event): through perf pmutop's cycles event goes on a general counter, so
 * a group of four events and the cycles no longer fit together on a
 * 4-counter core: the kernel multiplexes them, the group is marked with
 * its share, and its figures stay within 5 % of the truth.  Without the
 * watchdog the same group counts the whole interval.
 */
START_TEST(perf_nmi_watchdog_takes_a_counter)
{
	for (int on = 0; on < 2; on++) {
		struct run r;
		const struct sample *s;
		int g;

		run_source_perf(&r, "nehalem-ep:memory-bound");
		emu_perf_set_watchdog(r.src->perf_kernel, on);
		run_engine(&r, "nehalem", "stalls", 1.0);
		g = layout_group_find(r.l, "stalls");
		sample_release(run_sample(&r));
		s = run_sample(&r);
		if (on) {
			ck_assert_int_eq(s->groups[g].state, SAMPLE_GROUP_ROTATING);
			ck_assert_msg(s->groups[g].live_share > 0.2 && s->groups[g].live_share < 0.8,
				      "share %g", s->groups[g].live_share);
		} else {
			ck_assert_int_eq(s->groups[g].state, SAMPLE_GROUP_LIVE);
		}
		ck_assert_int_gt(check_against_truth(&r, s, 0.05), 0);
		sample_release(s);
		run_close(&r);
	}
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("truth");
	int n = (int)(sizeof(cases) / sizeof(cases[0]));

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, metrics_match_truth_one_group_at_a_time, 0, 2 * n);
	tcase_add_loop_test(tc, metrics_match_truth_when_multiplexed, 0, n);
	tcase_add_loop_test(tc, phases_shorter_than_the_interval_are_not_aliased, 0, 3);
	tcase_add_test(tc, live_time_excludes_programming_time);
	tcase_add_loop_test(tc, perf_kernel_multiplexing_is_scaled_and_marked, 0, n);
	tcase_add_test(tc, perf_phases_shorter_than_the_interval);
	tcase_add_test(tc, perf_missing_format_field_blocks_its_groups_and_files_are_closed);
	tcase_add_test(tc, perf_kernel_without_a_pmu_blocks_only_its_groups);
	tcase_add_test(tc, perf_kernel_server_uncore_counts_the_truth);
	tcase_add_test(tc, msr_rapl_reads_energy_across_wraps);
	tcase_add_test(tc, perf_counts_a_command_once_attached);
	tcase_add_test(tc, perf_file_limit_blocks_groups_with_the_fix);
	tcase_add_test(tc, perf_nmi_watchdog_takes_a_counter);
	tcase_add_test(tc, perf_topdown_events_need_slots_leading_their_group);
	tcase_add_test(tc, perf_closed_slots_are_reused);
	tcase_add_test(tc, perf_extra_registers_are_programmed_one_value_each);
	suite_add_tcase(s, tc);
	CHECK_ADD(s, unmeasured_metrics_are_nan);
	CHECK_ADD(s, idle_core_has_no_stall_share);
	CHECK_ADD(s, unavailable_architectural_event_blocks_its_group);
	CHECK_ADD(s, socket_scope_aggregates_threads);
	CHECK_ADD(s, interval_and_skew_are_reported);
	CHECK_ADD(s, widen_handles_wrap_and_reset);
	CHECK_ADD(s, fixed_counter_wrap_and_reset_end_to_end);
	CHECK_ADD(s, offcore_register_is_not_shared);
	CHECK_ADD(s, register_reads_equal_counters_read);
	CHECK_ADD(s, counters_taken_by_others_are_left_alone);
	CHECK_ADD(s, sampler_thread_publishes_and_stops);
	CHECK_ADD(s, numa_remote_traffic_shows_on_the_home_socket);
	CHECK_ADD(s, unbalanced_channels_show_the_saturated_one);
	CHECK_ADD(s, imc_32bit_counter_wraps_within_a_long_interval);
	CHECK_ADD(s, uncore_reader_going_offline_hands_over);
	{
		/* slow under the sanitizers: two engines, every slice of two intervals */
		TCase *readers = tcase_create("per_socket_readers_read_what_one_reader_reads");

		tcase_set_timeout(readers, 120);
		tcase_add_test(readers, per_socket_readers_read_what_one_reader_reads);
		suite_add_tcase(s, readers);
	}
	{
		TCase *back = tcase_create("cpu_back_from_offline_counts_again");

		tcase_add_loop_test(back, cpu_back_from_offline_counts_again, 0, 2);
		suite_add_tcase(s, back);
	}
	{
		/* two engines, every slice of two intervals (slow under the sanitizers) */
		TCase *batch = tcase_create("batch_path_reads_what_register_reads_read");

		tcase_set_timeout(batch, 120);
		tcase_add_test(batch, batch_path_reads_what_register_reads_read);
		suite_add_tcase(s, batch);
	}
	CHECK_ADD(s, flush_ends_the_interval_at_once);
	CHECK_ADD(s, every_group_has_its_turn_when_sweeps_run_late);
	CHECK_ADD(s, phantom_channel_is_flagged);
	CHECK_ADD(s, ex_model_uncore_is_not_programmed);
#ifndef NDEBUG
	{
		TCase *dbg = tcase_create("debug_build_asserts_that_the_sampler_owns_the_registers");

		tcase_add_test_raise_signal(dbg, debug_build_asserts_that_the_sampler_owns_the_registers,
					    SIGABRT);
		suite_add_tcase(s, dbg);
	}
#endif
	CHECK_ADD(s, bandwidth_above_the_peak_is_flagged);
	CHECK_ADD(s, imc_disagreeing_with_home_logic_is_flagged);
	CHECK_ADD(s, uncore_taken_by_others_blocks_uncore_groups);
	CHECK_ADD(s, imc_without_its_window_is_blocked_with_the_reason);
	return s;
}

CHECK_MAIN(engine_suite)
