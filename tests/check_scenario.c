/*
 * Tests for scenario files: what a scenario author gets for each mistake
 * (file:line:col: expected ...), and that the truth follows the file:
 * selectors, phase inheritance and looping, deterministic noise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emu.h"
#include "scenario.h"

static const struct {
	const char *text;
	const char *error;
} bad_inputs[] = {
	{ "pmutop-scenario 2\n", "t.scn:1:1: expected 'pmutop-scenario 1' as the first line" },
	{ "", "t.scn:1:1: expected 'pmutop-scenario 1' as the first line" },
	{ "pmutop-scenario 1\nname x\n", "t.scn:2:1: expected at least one 'phase NAME SECONDS'" },
	{ "pmutop-scenario 1\ncpu all util=1\n",
	  "t.scn:2:1: expected 'phase NAME SECONDS' before the first 'cpu' line" },
	{ "pmutop-scenario 1\nphase a 0\ncpu all utill=1\n",
	  "t.scn:3:9: unknown cpu quantity 'utill'" },
	{ "pmutop-scenario 1\nphase a 0\ncpu all util=2\n",
	  "t.scn:3:14: expected util between 0 and 1, got 2" },
	{ "pmutop-scenario 1\nphase a 0\ncpu all util=high\n",
	  "t.scn:3:14: expected a number, got 'high'" },
	{ "pmutop-scenario 1\nphase a 0\ncpu 0-x util=1\n",
	  "t.scn:3:7: expected 'all', a list such as 0-3,8 or socket:N" },
	{ "pmutop-scenario 1\nphase a 0\ncpu all util\n", "t.scn:3:9: expected KEY=VALUE, got 'util'" },
	{ "pmutop-scenario 1\nphase a 0\ncpu all\n", "t.scn:3:8: expected at least one KEY=VALUE" },
	{ "pmutop-scenario 1\nphase a 0\nsocket all util=1\n",
	  "t.scn:3:12: unknown socket quantity 'util'" },
	{ "pmutop-scenario 1\nphase a 0\nchannel 0 read_lines_per_s=1\n",
	  "t.scn:3:9: expected 'all' or SOCKET.CHANNEL such as 0.2, 1.* or *.0" },
	{ "pmutop-scenario 1\nphase a 0\nchannel 0.x read_lines_per_s=1\n",
	  "t.scn:3:11: expected a channel number 0-63 or '*'" },
	{ "pmutop-scenario 1\nphase a\n", "t.scn:2:8: expected the phase duration in seconds (0: for ever)" },
	{ "pmutop-scenario 1\nphase a -1\n",
	  "t.scn:2:9: expected a duration of 0 (for ever) or from 0.01 to 86400 s" },
	{ "pmutop-scenario 1\nphase a 0.000001\n",
	  "t.scn:2:9: expected a duration of 0 (for ever) or from 0.01 to 86400 s" },
	{ "pmutop-scenario 1\nseed 1e300\nphase a 0\n",
	  "t.scn:2:6: expected a whole number from 0 to 9007199254740992" },
	{ "pmutop-scenario 1\nname \x1b]0;owned\x07\nphase a 0\n",
	  "t.scn:2:6: expected printable text, not control character 0x1B" },
	{ "pmutop-scenario 1\nphase a 0\r\ncpu all\ruti=1\n",
	  "t.scn:3:8: expected the end of the line after a carriage return" },
	{ "pmutop-scenario 1\nphase a 0\nphase b 1\n",
	  "t.scn:3:1: phase 'a' lasts for ever (0 s), so no phase can follow it" },
	{ "pmutop-scenario 1\nnoise 0.9\nphase a 0\n", "t.scn:2:7: expected noise between 0 and 0.5" },
	{ "pmutop-scenario 1\nseed -3\nphase a 0\n",
	  "t.scn:2:6: expected a whole number from 0 to 9007199254740992" },
	{ "pmutop-scenario 1\nfrobnicate 1\n",
	  "t.scn:2:1: expected one of name, description, seed, noise, noise_slot, min_sockets, socket_channels, "
	  "phase, cpu, socket, channel, task; got 'frobnicate'" },
	/* tasks: the who pane's processes and cgroups */
	{ "pmutop-scenario 1\nphase a 0\ntask 1 a.service cpus=0 share=1\n",
	  "t.scn:3:6: expected a PID from 2 to 4194304" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 /a.service cpus=0 share=1\n",
	  "t.scn:3:8: expected cgroup path parts that are names (no empty, '.' or '..' part, no "
	  "leading '/')" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a/../b cpus=0 share=1\n",
	  "t.scn:3:8: expected cgroup path parts that are names (no empty, '.' or '..' part, no "
	  "leading '/')" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a\"b cpus=0 share=1\n",
	  "t.scn:3:8: expected a cgroup path of letters, digits and . _ - @ : between slashes" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a cpus=0\n",
	  "t.scn:3:16: expected cpus=LIST and share=F (the share of those CPUs' time it takes)" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a cpus=0 share=0.5 nice=3\n",
	  "t.scn:3:27: unknown task key 'nice' (cpus, share, comm, mbm, mbm_local, llc_mb)" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a cpus=0 share=1.5\n",
	  "t.scn:3:23: expected a share between 0 and 1, got 1.5" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a cpus=0-1 share=0.7\ntask 6 b cpus=1 share=0.5\n",
	  "t.scn:4:1: expected the tasks on CPU 1 to share at most all of its time, got 1.2" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a cpus=0 share=0.5\ntask 5 b cpus=1 share=0.5\n",
	  "t.scn:4:6: task 5 is already described" },
	{ "pmutop-scenario 1\nphase a 0\ntask 5 a cpus=0 share=0.5 comm=abcdefghijklmnopq\n",
	  "t.scn:3:32: expected a command name of 1 to 15 bytes" },
	{ "pmutop-scenario 1\nname a b\n", "t.scn:2:8: expected the end of the line" },
};

START_TEST(bad_inputs_give_file_line_column_and_what_was_expected)
{
	for (size_t i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		struct scenario *sc = (struct scenario *)1;
		char err[512] = "";

		ck_assert_int_eq(scenario_parse(bad_inputs[i].text, "t.scn", &sc, err, sizeof(err)),
				 -EINVAL);
		ck_assert_ptr_null(sc);
		ck_assert_msg(strcmp(err, bad_inputs[i].error) == 0, "input %zu:\n got  %s\n want %s",
			      i, err, bad_inputs[i].error);
	}
}
END_TEST

static struct scenario *parse(const char *text)
{
	struct scenario *sc;
	char err[512];

	ck_assert_msg(scenario_parse(text, "t.scn", &sc, err, sizeof(err)) == 0, "%s", err);
	return sc;
}

/* The work per sample stays bounded whatever the file holds. */
START_TEST(huge_scenarios_are_refused_with_the_limit)
{
	size_t cap = 1 << 20, n;
	char *text = malloc(cap), err[512];
	struct scenario *sc;

	n = (size_t)snprintf(text, cap, "pmutop-scenario 1\nphase a 0\n");
	for (int i = 0; i < SCENARIO_MAX_SETTINGS + 1; i++)
		n += (size_t)snprintf(text + n, cap - n, "cpu all util=1\n");
	ck_assert_int_eq(scenario_parse(text, "t.scn", &sc, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "t.scn:4099:9: expected at most 4096 KEY=VALUE settings"), "%s", err);
	n = (size_t)snprintf(text, cap, "pmutop-scenario 1\n");
	for (int i = 0; i < SCENARIO_MAX_PHASES + 1; i++)
		n += (size_t)snprintf(text + n, cap - n, "phase p%d 0.5\n", i);
	ck_assert_int_eq(scenario_parse(text, "t.scn", &sc, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "t.scn:1002:1: expected at most 1000 phases"), "%s", err);
	free(text);
}
END_TEST

START_TEST(selectors_pick_cpus_sockets_and_channels)
{
	struct scenario *sc = parse("pmutop-scenario 1\n"
				    "phase p 0  # comment\n"
				    "cpu all util=0.5\n"
				    "cpu 0-3,8 ipc=2\n"
				    "cpu socket:1 util=0.25\n"
				    "socket 1 local_reads_per_s=7\n"
				    "channel *.0 read_lines_per_s=100\n"
				    "channel 1.2 write_lines_per_s=9\n");
	double v[SK_COUNT];

	scenario_eval_one(sc, 3, SCENARIO_CPU, 8, 0, v);
	ck_assert_double_eq(v[SK_util], 0.5);
	ck_assert_double_eq(v[SK_ipc], 2);
	scenario_eval_one(sc, 3, SCENARIO_CPU, 4, 1, v);
	ck_assert_double_eq(v[SK_util], 0.25);
	ck_assert_double_eq(v[SK_ipc], scenario_keys[SK_ipc].def);
	scenario_eval_one(sc, 3, SCENARIO_SOCKET, 1, 0, v);
	ck_assert_double_eq(v[SK_local_reads_per_s], 7);
	scenario_eval_one(sc, 3, SCENARIO_SOCKET, 0, 0, v);
	ck_assert_double_eq(v[SK_local_reads_per_s], 0);
	scenario_eval_one(sc, 3, SCENARIO_CHANNEL, 1, 0, v);
	ck_assert_double_eq(v[SK_read_lines_per_s], 100);
	scenario_eval_one(sc, 3, SCENARIO_CHANNEL, 1, 2, v);
	ck_assert_double_eq(v[SK_read_lines_per_s], 0);
	ck_assert_double_eq(v[SK_write_lines_per_s], 9);
	scenario_free(sc);
}
END_TEST

/*
 * Seed 000: the home logic's read requests are what the memory controller
 * reads (the InvtoE of uncacheable writes aside).  With noise drawn for
 * each quantity alone the QHL and the IMC disagreed by up to 1.5 % of the
 * traffic, and uncacheable writes computed from them read millions a second
 * where there were none; the channels now carry the home's total in every
 * noise slot (the scenario's channels sum to it: 2.5e8), split as the
 * scenario splits it.
 */
START_TEST(channels_read_what_the_home_logic_is_asked_for)
{
	struct scenario *sc = parse("pmutop-scenario 1\n"
				    "noise 0.05\n"
				    "phase p 0\n"
				    "socket all local_reads_per_s=2e8 remote_reads_per_s=4e7 "
				    "ioh_reads_per_s=1e7 uc_writes_per_s=3e5\n"
				    "channel all read_lines_per_s=6.25e7\n"
				    "channel *.0 read_lines_per_s=1.25e8\n");
	double sock[SK_COUNT], chan[3][SK_COUNT];

	for (int slot = 0; slot < 40; slot++) {
		double t = slot * 0.5 + 0.25, sum = 0, home;

		scenario_eval_socket(sc, t, slot % 2, 3, sock, chan);
		for (int c = 0; c < 3; c++)
			sum += chan[c][SK_read_lines_per_s];
		home = sock[SK_local_reads_per_s] + sock[SK_remote_reads_per_s] +
		       sock[SK_ioh_reads_per_s];
		ck_assert_msg(fabs(sum - home) <= 1e-9 * home, "t %g: channels %g, home %g", t, sum,
			      home);
		/* the split is the scenario's (channel 0 twice the others), noisy */
		ck_assert_msg(chan[0][SK_read_lines_per_s] > 1.6 * chan[1][SK_read_lines_per_s] &&
			      chan[0][SK_read_lines_per_s] < 2.4 * chan[1][SK_read_lines_per_s],
			      "t %g: %g vs %g", t, chan[0][SK_read_lines_per_s],
			      chan[1][SK_read_lines_per_s]);
	}
	scenario_free(sc);
}
END_TEST

/*
 * socket_channels: the socket rates were written for a socket of 3 channels;
 * on 8 they are 8/3 as large (the links' and CHAs' with them), each channel
 * reads its scenario share of them and the channels carry the home's reads
 * and writes (Sapphire Rapids' read 42.9 GB/s while its CHAs asked for 16.1).
 */
START_TEST(socket_rates_scale_to_the_channels)
{
	struct scenario *sc = parse("pmutop-scenario 1\n"
				    "noise 0.02\n"
				    "socket_channels 3\n"
				    "phase p 0\n"
				    "socket all local_reads_per_s=3e8 local_writes_per_s=1.5e8 "
				    "upi_tx_bytes_per_s=6e9 package_watts=200 read_latency_ns=85\n"
				    "channel all read_lines_per_s=1e8 write_lines_per_s=5e7\n"
				    "channel *.0 read_lines_per_s=3e8\n");
	double sock[SK_COUNT], chan[8][SK_COUNT], base[SK_COUNT];

	ck_assert_int_eq(sc->socket_channels, 3);
	for (int slot = 0; slot < 20; slot++) {
		double t = slot * 0.5 + 0.25, rd = 0, wr = 0;

		scenario_eval_socket(sc, t, slot % 2, 8, sock, chan);
		scenario_eval_one(sc, t, SCENARIO_SOCKET, slot % 2, 0, base);
		for (int c = 0; c < 8; c++) {
			rd += chan[c][SK_read_lines_per_s];
			wr += chan[c][SK_write_lines_per_s];
		}
		/* the rates scaled, the noise kept; clocks, latencies and watts as written */
		ck_assert_double_eq_tol(sock[SK_local_reads_per_s], base[SK_local_reads_per_s] * 8 / 3, 1);
		ck_assert_double_eq_tol(sock[SK_upi_tx_bytes_per_s], base[SK_upi_tx_bytes_per_s] * 8 / 3, 1);
		ck_assert_double_eq(sock[SK_package_watts], base[SK_package_watts]);
		ck_assert_double_eq(sock[SK_read_latency_ns], 85);
		/* the written socket's channels summed 5e8 against its 3e8 reads: that ratio holds */
		ck_assert_msg(fabs(rd - sock[SK_local_reads_per_s] * 5.0 / 3) < 1e-6 * rd, "%g %g", rd,
			      sock[SK_local_reads_per_s]);
		ck_assert_msg(fabs(wr - sock[SK_local_writes_per_s]) < 1e-6 * wr, "%g %g", wr,
			      sock[SK_local_writes_per_s]);
		/* channel 0 three times as busy as each of the 7 others */
		ck_assert_msg(fabs(chan[0][SK_read_lines_per_s] / chan[3][SK_read_lines_per_s] - 3) < 0.2,
			      "%g", chan[0][SK_read_lines_per_s] / chan[3][SK_read_lines_per_s]);
	}
	/* the socket's figures alone are the same */
	scenario_eval_socket_only(sc, 1.25, 1, 8, base);
	scenario_eval_socket(sc, 1.25, 1, 8, sock, chan);
	ck_assert_double_eq(base[SK_local_reads_per_s], sock[SK_local_reads_per_s]);
	scenario_free(sc);
}
END_TEST

START_TEST(phases_inherit_and_repeat)
{
	struct scenario *sc = parse("pmutop-scenario 1\n"
				    "phase warm 2\ncpu all util=0.2 ipc=3\n"
				    "phase hot 3\ncpu all util=0.9\n");
	double v[SK_COUNT], start;

	scenario_eval_one(sc, 1, SCENARIO_CPU, 0, 0, v);
	ck_assert_double_eq(v[SK_util], 0.2);
	scenario_eval_one(sc, 2.5, SCENARIO_CPU, 0, 0, v);
	ck_assert_double_eq(v[SK_util], 0.9);
	ck_assert_double_eq(v[SK_ipc], 3); /* inherited from "warm" */
	ck_assert_int_eq(scenario_phase_at(sc, 6, &start), 0); /* 5 s cycle: back to warm */
	ck_assert_double_eq(start, 5);
	ck_assert_double_eq(scenario_next_change(sc, 6), 7);
	scenario_free(sc);
}
END_TEST

/*
 * Short phases keep their shares for ever: walking from change to change,
 * each phase of 0.2 s holds half the time, even where t / cycle rounds down
 * (1.2 / 0.4 = 2.999...) and would put t past its cycle's end.
 */
START_TEST(short_phases_keep_their_share_at_every_boundary)
{
	struct scenario *sc = parse("pmutop-scenario 1\nnoise 0\n"
				    "phase a 0.2\ncpu all util=1\nphase b 0.2\ncpu all util=0.5\n");
	double t = 0, in_b = 0, start;

	while (t < 100) {
		double next = scenario_next_change(sc, t);

		ck_assert_double_le(next - t, 0.2 + 1e-9);
		if (scenario_phase_at(sc, t, &start) == 1)
			in_b += fmin(next, 100) - t;
		t = next;
	}
	ck_assert_double_eq_tol(in_b, 50, 1e-6);
	scenario_free(sc);
}
END_TEST

START_TEST(noise_is_small_seeded_and_repeatable)
{
	struct scenario *sc = parse("pmutop-scenario 1\nseed 9\nnoise 0.01\n"
				    "phase p 0\ncpu all util=0.5 ghz=2\n");
	double a[SK_COUNT], b[SK_COUNT], sum = 0;
	int moved = 0;

	for (int i = 0; i < 400; i++) {
		scenario_eval_one(sc, i * 0.5, SCENARIO_CPU, 1, 0, a);
		scenario_eval_one(sc, i * 0.5 + 0.1, SCENARIO_CPU, 1, 0, b);
		ck_assert_double_eq(a[SK_util], b[SK_util]); /* same slot, same value */
		ck_assert(fabs(a[SK_util] / 0.5 - 1) < 0.06);
		ck_assert_double_eq(a[SK_ghz], 2); /* clocks do not move */
		moved += a[SK_util] != 0.5;
		sum += a[SK_util];
	}
	ck_assert_int_gt(moved, 390);
	ck_assert(fabs(sum / 400 / 0.5 - 1) < 0.003);
	scenario_free(sc);
}
END_TEST

START_TEST(shipped_scenarios_load_on_every_machine_where_they_make_sense)
{
	static const char *const names[] = { "idle", "compute-bound", "memory-bound", "numa-remote",
					     "frontend-bound", "unbalanced-channels", "false-sharing" };

	for (int m = 0; m < emu_nmachines; m++)
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			char spec[128], err[512] = "";
			struct emu *e;
			int rc;

			snprintf(spec, sizeof(spec), "%s:%s", emu_machines[m].name, names[i]);
			rc = emu_create(spec, SCENARIO_SRCDIR, &e, err, sizeof(err));
			if (strcmp(names[i], "numa-remote") == 0 &&
			    (strstr(emu_machines[m].topology, "pack:1 ") || emu_machines[m].hybrid)) {
				ck_assert_int_eq(rc, -EINVAL);
				ck_assert_msg(strstr(err, "needs 2 sockets"), "%s", err);
				continue;
			}
			ck_assert_msg(rc == 0, "%s: %s", spec, err);
			ck_assert_str_eq(emu_scenario(e)->name, names[i]);
			emu_free(e);
		}
}
END_TEST

START_TEST(sim_spec_errors_name_what_exists)
{
	char err[512];
	struct emu *e;

	ck_assert_int_eq(emu_create("pentium4:idle", SCENARIO_SRCDIR, &e, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "unknown machine 'pentium4'"));
	ck_assert_ptr_nonnull(strstr(err, "nehalem-ep, westmere-ep, skylake, skylake-sp, icelake-sp, sapphire-rapids, granite-rapids, tigerlake, alderlake, lunarlake, arrowlake-h, genoa, vermeer, epyc-vm, core2, arch"));
	/* a scenario is the user's input: every way it cannot be read is bad input (exit 2) */
	ck_assert_int_eq(emu_create("skylake:busy", SCENARIO_SRCDIR, &e, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "no scenario 'busy'"));
	ck_assert_int_eq(emu_create("skylake:/nonexistent.scn", SCENARIO_SRCDIR, &e, err,
				    sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent.scn"));
	ck_assert_int_eq(emu_create("skylake:/tmp", SCENARIO_SRCDIR, &e, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "/tmp: not a scenario file"));
}
END_TEST

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");

	CHECK_ADD(s, bad_inputs_give_file_line_column_and_what_was_expected);
	CHECK_ADD(s, short_phases_keep_their_share_at_every_boundary);
	CHECK_ADD(s, selectors_pick_cpus_sockets_and_channels);
	CHECK_ADD(s, huge_scenarios_are_refused_with_the_limit);
	CHECK_ADD(s, phases_inherit_and_repeat);
	CHECK_ADD(s, channels_read_what_the_home_logic_is_asked_for);
	CHECK_ADD(s, socket_rates_scale_to_the_channels);
	CHECK_ADD(s, noise_is_small_seeded_and_repeatable);
	CHECK_ADD(s, shipped_scenarios_load_on_every_machine_where_they_make_sense);
	CHECK_ADD(s, sim_spec_errors_name_what_exists);
	return s;
}

CHECK_MAIN(scenario_suite)
