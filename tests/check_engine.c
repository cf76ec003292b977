/*
 * Tests for the counter engine on the emulated machines, the cores: the
 * metrics of the shipped layouts against the scenario truth (2 %, 5 % when
 * groups rotate; engine_run.h writes the truth), n/a where a metric is not
 * defined, wrap-around and resets, group packing constraints, the
 * register-read budget, the batch device path, the sampler thread.  The
 * uncore's are check_engine_uncore.c, the perf source's check_engine_perf.c.
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

#include "engine_run.h"
#include "check_main.h"
#include "cpuid.h"
#include "emu.h"
#include "emu_perf.h"
#include "engine.h"
#include "layout.h"
#include "msr.h"
#include "msr_source.h"
#include "pmu_regs.h"
#include "paths.h"
#include "source_int.h"
#include "test_emu.h"


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
		if (!perf && layout_pmu_kinds[l->groups[g].pmu].kernel_only &&
		    layout_pmu_kinds[l->groups[g].pmu].beside) {
			/* the C-states: the kernel's cstate PMUs only, and the group says so */
			ck_assert_msg(s->groups[g].state == SAMPLE_GROUP_BLOCKED &&
				      strstr(s->groups[g].why, "--source perf counts them"),
				      "%s group %s: state %d %s", cases[i].sim, l->groups[g].name,
				      s->groups[g].state, s->groups[g].why);
			sample_release(s);
			run_close(&r);
			continue;
		}
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

		if (layout_pmu_kinds[pmu].kernel_only && layout_pmu_kinds[pmu].beside) {
			/* the C-states: the kernel's cstate PMUs alone count them */
			ck_assert_msg(s->groups[g].state == SAMPLE_GROUP_BLOCKED, "group %s: state %d",
				      r.l->groups[g].name, s->groups[g].state);
			continue;
		}
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
 * Each thread's metrics NAMES of sample S against their truth over its
 * interval, the time average: scaled, and within REL (HOW says of what).
 * *WORST: the largest relative error of a figure above 1.  Returns the
 * figures checked.
 */
static int check_time_means(const struct run *r, const struct sample *s, const char *const *names,
			    size_t nnames, double rel, const char *how, double *worst)
{
	const int n = 1600;
	int checked = 0;

	for (int i = 0; i < s->nthreads; i++)
		for (size_t k = 0; k < nnames; k++) {
			const struct sample_entity *te = &s->threads[i];
			int m = layout_metric_find(r->l, names[k]);
			double got = sample_metric(s, te, m), want = 0, one[SK_COUNT];

			for (int j = 0; j < n; j++) {
				truth_cpu_at(r, te->index, te->socket,
					     r->t_start + (r->t - r->t_start) * (j + 0.5) / n, one, NULL);
				want += truth_thread(r, names[k], one) / n;
			}
			ck_assert(s->metric_scaled[m]);
			ck_assert_msg(close_enough(got, want, rel, r->l->metrics[m].unit, 0),
				      "%s: cpu %d %s: %g, truth %g", how, te->index, names[k], got, want);
			if (want > 1)
				*worst = fmax(*worst, fabs(got - want) / want);
			checked++;
		}
	return checked;
}

/*
 * Phases shorter than the interval, every group at once: each group takes
 * its turns many times per interval, so each sees the phases in the same
 * proportions as the interval.  The truth of a per-cycle share is the time
 * average of the phases' truths (the cycle rate is the same in both).
 */
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
	char text[2048], how[64];
	struct run r;
	const struct sample *s;
	int checked = 0;
	double worst = 0;

	phased_scenario_text(text, sizeof(text), phases[_i][0], phases[_i][1]);
	run_source_text(&r, "nehalem-ep", text);
	run_mux_s = mux[_i];
	run_engine(&r, "nehalem", "all", 1.0);
	run_mux_s = 0;
	sample_release(run_sample(&r));
	s = run_sample(&r); /* an interval that starts mid-phase */
	ck_assert_double_gt(s->rotation_s, 0);
	ck_assert_double_le(s->rotation_s, (mux[_i] ? mux[_i] : ENGINE_MUX_DEFAULT_S) * 1.0001);
	snprintf(how, sizeof(how), "phases %s/%s", phases[_i][0], phases[_i][1]);
	checked = check_time_means(&r, s, names, sizeof(names) / sizeof(names[0]), 0.05, how, &worst);
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
 * A read that comes late stretches one turn and shortens the next (a vCPU
 * the host woke late, then the slices it missed at once: ENGINE_CATCH_UP_S).
 * The turns stay on their grid, one per set per round, so each is one look
 * at the workload: a figure weighs them alike, not by their length.  Two
 * sets of 10 ms turns, phases of 40 ms; in the memory phases every round is
 * 19 ms for the first set and 1 ms for the second, the uncore's two sets
 * alike.  Weighed by their lengths the first set's figures leaned to
 * memory (exec_stall_pct 73.9 % for 67.6 %), the second's to compute
 * (load_stall_pct 3.9 % for 17 %), and the home logic's bandwidth read
 * 14.7 GB/s for 11.2; alike, each is the interval's time average (within
 * 1 %: exact here).
 */
START_TEST(each_turn_weighs_alike_when_a_read_comes_late)
{
	static const char *const names[] = { "exec_stall_pct", "issue_stall_pct", "load_stall_pct",
					      "rs_full_stall_pct" };
	char text[2048];
	struct run r;
	const struct sample *s;
	int rc = 0, j, g_stalls, g_res;
	double worst = 0;

	phased_scenario_text(text, sizeof(text), "0.04", "0.04");
	run_source_text(&r, "nehalem-ep", text);
	run_mux_s = 0.01;
	run_engine(&r, "nehalem", "stalls resources qhl l3", 0.16);
	run_mux_s = 0;
	ck_assert_double_eq_tol(engine_slice_s(r.eng), 0.01, 1e-9);
	sample_release(run_sample(&r));
	r.t_start = r.t;
	/* the interval starts on a phase's edge, so no pair of turns straddles one */
	ck_assert_double_lt(fmod(r.t_start + 1e-9, 0.04), 1e-6);
	/* the slices on a 10 ms grid: in a memory phase each pair of turns is 19 ms and 1 ms */
	for (j = 0; j < 100 && rc != 1; j++) {
		double at = r.t_start + 0.01 * (j & ~1), dt = 0.01;
		bool memory = fmod(at + 1e-9, 0.08) >= 0.04;

		if (memory)
			dt = j % 2 ? at + 0.02 - r.t : 0.019;
		r.t += dt;
		emu_advance(r.src->emu, dt);
		rc = engine_step(r.eng);
	}
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(j, 16);
	s = engine_latest(r.eng);
	ck_assert_double_eq_tol(s->interval_s, 0.16, 1e-6);
	g_stalls = layout_group_find(r.l, "stalls");
	g_res = layout_group_find(r.l, "resources");
	ck_assert_int_eq(s->groups[g_stalls].state, SAMPLE_GROUP_ROTATING);
	ck_assert_int_eq(s->groups[g_res].state, SAMPLE_GROUP_ROTATING);
	ck_assert_int_gt(check_time_means(&r, s, names, sizeof(names) / sizeof(names[0]), 0.01,
					  "late read", &worst), 30);
	/* the uncore's two sets (qhl, l3: 13 events on 8 counters) take the same turns */
	ck_assert_int_eq(s->groups[layout_group_find(r.l, "qhl")].state, SAMPLE_GROUP_ROTATING);
	for (int k = 0; k < s->nsockets; k++) {
		int m = layout_metric_find(r.l, "dram_by_local_bytes_per_s");
		double want = 0, one[SK_COUNT], got = sample_metric(s, &s->sockets[k], m);
		const int n = 1600;

		for (int q = 0; q < n; q++) {
			scenario_eval_one(emu_scenario(r.src->emu),
					  r.t_start + (r.t - r.t_start) * (q + 0.5) / n, SCENARIO_SOCKET, k,
					  0, one);
			want += 64 * (one[SK_local_reads_per_s] + one[SK_local_writes_per_s]) / n;
		}
		ck_assert(s->metric_scaled[m]);
		ck_assert_msg(close_enough(got, want, 0.01, "B/s", 0),
			      "late read: socket %d dram_by_local_bytes_per_s %g, truth %g", k, got, want);
	}
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
	ck_assert(source_open_emu(test_emu("nehalem-ep:compute-bound"), false, &src, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/nehalem.layout", LAYOUT_SRCDIR);
	ck_assert(layout_load(path, &l, err, sizeof(err)) == 0);
	/* someone else's counter on PMC2 of every CPU */
	for (int c = 0; c < 16; c++)
		ck_assert_int_eq(emu_msr_write(src->emu, c, IA32_PERFEVTSEL0 + 2, 0x43003C), 0);
	cfg = (struct engine_config){
		.core_ops = &msr_core_ops, .uncore_ops = &msr_uncore_ops,
		.topo = src->topo, .layout = l,
		.source_cfg = &(struct msr_source_config){ .dev = src->regs.dev }, .perfmon_version = 3,
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
	msr_close(r->src->regs.dev);
	r->src->regs.dev = msr_open_ops(&batch_emu_ops, r->src->emu, cpus, n, &r->src->regs.allow);
	msr_set_sockets(r->src->regs.dev, sock, t->cpu_thread_len);
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


START_TEST(sampler_thread_publishes_and_stops)
{
	struct engine_config cfg = { 0 };
	struct source *src;
	struct layout *l;
	struct engine *eng;
	const struct sample *s;
	char err[512], path[512];

	setenv("PMUTOP_SCENARIO_DIR", SCENARIO_SRCDIR, 1);
	ck_assert(source_open_emu(test_emu("nehalem-ep:compute-bound"), false, &src, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/nehalem.layout", LAYOUT_SRCDIR);
	ck_assert(layout_load(path, &l, err, sizeof(err)) == 0);
	cfg = (struct engine_config){
		.core_ops = &msr_core_ops, .uncore_ops = &msr_uncore_ops,
		.topo = src->topo, .layout = l,
		.source_cfg = &(struct msr_source_config){ .dev = src->regs.dev }, .perfmon_version = 3,
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

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("truth");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, metrics_match_truth_one_group_at_a_time, 0, 2 * NCASES);
	tcase_add_loop_test(tc, metrics_match_truth_when_multiplexed, 0, NCASES);
	tcase_add_loop_test(tc, phases_shorter_than_the_interval_are_not_aliased, 0, 3);
	tcase_add_test(tc, live_time_excludes_programming_time);
	tcase_add_test(tc, each_turn_weighs_alike_when_a_read_comes_late);
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
#ifndef NDEBUG
	{
		TCase *dbg = tcase_create("debug_build_asserts_that_the_sampler_owns_the_registers");

		tcase_add_test_raise_signal(dbg, debug_build_asserts_that_the_sampler_owns_the_registers,
					    SIGABRT);
		suite_add_tcase(s, dbg);
	}
#endif
	return s;
}

CHECK_MAIN(engine_suite)
