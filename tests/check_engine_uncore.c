/*
 * Tests for the counter engine's uncore on the emulated machines: the
 * memory channels, home logic and links against the scenario truth
 * (engine_run.h), the channel counters' wrap, a socket reader going
 * offline, per-socket readers against one, the uncore's flags (phantom
 * channels, bandwidth past the peak, the IMC against the home logic) and
 * what blocks its groups (an EX part, counters taken, no IMC window).
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
#include "source_int.h"

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
	ck_assert_int_eq(sample_nchannels(s), 3);
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
		ck_assert_int_eq(sample_nchannels(s), 0); /* this controller has no per-channel counts */
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
	ck_assert_int_eq(msr_restore_all(r.src->regs.dev), 5);
	{
		char out[4096] = "";
		FILE *f = tmpfile();

		ck_assert_int_eq(msr_restore_report(r.src->regs.dev, fileno(f)), 5);
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
	ck_assert_msg(source_open_emu(emu_create_from(&ex, sc), false, &r.src, err, sizeof(err)) == 0, "%s",
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
	mmio_close(r.src->regs.mmio);
	r.src->regs.mmio = NULL;
	snprintf(r.src->regs.mmio_why, sizeof(r.src->regs.mmio_why), "kernel lockdown [integrity] refuses /dev/mem");
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

static Suite *engine_uncore_suite(void)
{
	Suite *s = suite_create("engine_uncore");

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
	CHECK_ADD(s, phantom_channel_is_flagged);
	CHECK_ADD(s, ex_model_uncore_is_not_programmed);
	CHECK_ADD(s, bandwidth_above_the_peak_is_flagged);
	CHECK_ADD(s, imc_disagreeing_with_home_logic_is_flagged);
	CHECK_ADD(s, uncore_taken_by_others_blocks_uncore_groups);
	CHECK_ADD(s, imc_without_its_window_is_blocked_with_the_reason);
	return s;
}

CHECK_MAIN(engine_uncore_suite)
