/*
 * The sinks (sink.h): each run gets the outputs it asked for, built once
 * from the registry, and every sample, mark and change reaches each of them
 * as it would alone: printed, recorded, summed up, served, kept in the
 * history.  An output that fails ends the run; a recording that failed does
 * not.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "sim_samples.h"
#include "frontend.h"
#include "history.h"
#include "record.h"
#include "replay.h"
#include "run.h"
#include "sink.h"

static struct session *sess;
static const struct sample *smp[2];

static void setup(void)
{
	sim_samples("nehalem-ep:memory-bound", "stalls", 0.5, &sess, smp, 2);
}

static void teardown(void)
{
	sample_release(smp[0]);
	sample_release(smp[1]);
	session_close(sess);
}

/* The kinds of KS by name, space-separated. */
static const char *kinds(const struct sinks *ks)
{
	static char buf[128];
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < ks->n; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "",
				      ks->kind[i]->name);
	return buf;
}

START_TEST(each_run_gets_the_outputs_it_asked_for)
{
	struct record *rec = NULL;
	struct history *h = history_new();
	struct sinks ks;

	sinks_build(&(struct sink_ctx){ .mode = SINK_PRINT, .out = stdout }, &ks);
	ck_assert_str_eq(kinds(&ks), "print");
	sinks_free(&ks);
	/* -b --record: printed and recorded (no summary without a command) */
	sinks_build(&(struct sink_ctx){ .mode = SINK_PRINT, .out = stdout, .rec = &rec }, &ks);
	ck_assert_str_eq(kinds(&ks), "print record");
	sinks_free(&ks);
	/* the screen: the history, the recording R may start */
	sinks_build(&(struct sink_ctx){ .mode = SINK_SCREEN, .hist = h, .rec = &rec }, &ks);
	ck_assert_str_eq(kinds(&ks), "history record");
	sinks_free(&ks);
	/* --dump: the history only */
	sinks_build(&(struct sink_ctx){ .mode = SINK_DUMP, .hist = h }, &ks);
	ck_assert_str_eq(kinds(&ks), "history");
	sinks_free(&ks);
	history_free(h);
}
END_TEST

/* Samples and a mark printed as -b prints them (JSON), in the order they came; counted. */
START_TEST(printing_goes_through_the_sink_as_batch_prints)
{
	char *got = NULL, *want = NULL;
	size_t gn = 0, wn = 0;
	FILE *g = open_memstream(&got, &gn), *w = open_memstream(&want, &wn);
	struct mark mk = { .time = smp[0]->time, .text = "phase B" };
	const struct batch_format *json = batch_format_find("json");
	struct sinks ks;

	sinks_build(&(struct sink_ctx){ .mode = SINK_PRINT, .format = json, .out = g,
					.t0 = smp[0]->time - 1 }, &ks);
	ck_assert_int_eq(sinks_sample(&ks, smp[0]), 0);
	ck_assert_int_eq(sinks_mark(&ks, &mk), 0);
	ck_assert_int_eq(sinks_sample(&ks, smp[1]), 0);
	ck_assert_int_eq(ks.fed, 2);
	sinks_free(&ks);
	ck_assert_int_eq(batch_print(smp[0], json, &(struct batch_opts){ 0 }, true, w), 0);
	ck_assert_int_eq(batch_print_mark(&mk, smp[0]->time - 1, json, w), 0);
	ck_assert_int_eq(batch_print(smp[1], json, &(struct batch_opts){ 0 }, false, w), 0);
	fclose(g);
	fclose(w);
	ck_assert_str_eq(got, want);
	ck_assert_ptr_nonnull(strstr(got, "phase B"));
	free(got);
	free(want);
}
END_TEST

static void count_failed(void *ctx)
{
	(*(int *)ctx)++;
}

/* An output that fails is the run's; a recording that fails is not, and is said once. */
START_TEST(a_failed_output_ends_the_run_a_failed_recording_does_not)
{
	FILE *full = fopen("/dev/full", "w");
	struct record *rec = NULL;
	struct record_about ra = { .host = "h", .source = "s", .brand = "b", .uarch = "u",
				   .topology = "t", .layout = smp[0]->layout, .interval_s = 0.5 };
	struct sinks ks;
	char err[512];
	int said = 0;

	ck_assert_ptr_nonnull(full);
	setvbuf(full, NULL, _IONBF, 0);
	sinks_build(&(struct sink_ctx){ .mode = SINK_PRINT, .format = batch_format_find("text"),
					.out = full }, &ks);
	ck_assert_int_eq(sinks_sample(&ks, smp[0]), -ENOSPC);
	sinks_free(&ks);
	fclose(full);
	/* recording to a full device: the callback hears it once, the samples go on */
	ck_assert_int_eq(record_open("/dev/full", &ra, &rec, err, sizeof(err)), 0);
	sinks_build(&(struct sink_ctx){ .mode = SINK_SCREEN, .rec = &rec,
					.rec_failed = count_failed, .rec_failed_ctx = &said }, &ks);
	ck_assert_int_eq(sinks_sample(&ks, smp[0]), 0);
	ck_assert_int_eq(sinks_sample(&ks, smp[1]), 0);
	ck_assert_int_eq(said, 1);
	ck_assert_ptr_nonnull(strstr(record_error(rec), "No space left on device"));
	ck_assert_int_eq(record_count(rec), 0);
	sinks_free(&ks);
	record_close(rec);
}
END_TEST

/* The summary of a command's run at the end: after the samples, with the mean and the peak. */
START_TEST(the_summary_comes_at_the_end)
{
	char *got = NULL;
	size_t gn = 0;
	FILE *g = open_memstream(&got, &gn);
	struct run_cmd *cmd = NULL;
	struct sinks ks;
	char err[256];
	char *argv[] = { "true", NULL };

	ck_assert_int_eq(run_start(&(struct run_config){ .argv = argv, .out_fd = -1 }, &cmd, err,
				   sizeof(err)), 0);
	sinks_build(&(struct sink_ctx){ .mode = SINK_PRINT, .format = batch_format_find("json"),
					.out = g, .cmd = cmd }, &ks);
	ck_assert_str_eq(kinds(&ks), "print summary");
	ck_assert_int_eq(sinks_sample(&ks, smp[0]), 0);
	ck_assert_int_eq(sinks_sample(&ks, smp[1]), 0);
	ck_assert_int_eq(sinks_end(&ks), 0);
	sinks_free(&ks);
	fclose(g);
	/* three JSON lines, the summary last */
	ck_assert_ptr_nonnull(strstr(got, "\"summary\""));
	ck_assert_ptr_null(strstr(strstr(got, "\"summary\""), "\n{"));
	ck_assert_int_eq((int)(strchr(got, '\n') - got) > 0, 1);
	free(got);
	run_stop(cmd, 9, 1);
	run_free(cmd);
}
END_TEST

static Suite *sink_suite(void)
{
	Suite *s = suite_create("sink");
	TCase *tc = tcase_create("sinks");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, each_run_gets_the_outputs_it_asked_for);
	tcase_add_test(tc, printing_goes_through_the_sink_as_batch_prints);
	tcase_add_test(tc, a_failed_output_ends_the_run_a_failed_recording_does_not);
	tcase_add_test(tc, the_summary_comes_at_the_end);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sink_suite)
