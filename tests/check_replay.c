/*
 * Record and replay: samples of an emulated machine written (record.c) and
 * read back (replay.c) with every metric computed again, identical; a
 * recording cut at every byte replays every whole sample and counts the
 * rest; every kind of bad line is one message with its line and byte.
 * Who's rows: every figure of the table the writers walk (who_cols) is
 * written and read back, each shown one under a heading that fits it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "batch_int.h"
#include "check_main.h"
#include "frontend.h"
#include "record.h"
#include "replay.h"
#include "replay_int.h"

#define NSAMPLES 3

static struct session *sess;
static const struct sample *orig[NSAMPLES];
static char path[64], *text;
static size_t text_len;
static long header_len;          /* bytes of the header line, its newline included */
static long line_end[NSAMPLES + 2]; /* byte after each line that follows the header */
static int nlines;

/*
 * NSAMPLES samples of a stepped Core 2 with every group taking turns on its
 * two counters (small enough to cut at every byte), recorded with a mark.
 */
static void setup(void)
{
	struct machine *m;
	struct session_config cfg = { .machine = NULL,
				      .layout_dir = LAYOUT_SRCDIR, .groups = "all",
				      .interval = 0.5, .stepped = true };
	struct session_about a;
	struct record_about ra;
	struct record *r;
	char err[1024];
	FILE *f;
	int got = 0;

	setenv("PMUTOP_SCENARIO_DIR", SCENARIO_SRCDIR, 1);
	ck_assert_msg(session_machine_open(NULL, "core2:false-sharing", true, &m, err,
					   sizeof(err)) == 0, "%s", err);
	cfg.machine = m;
	ck_assert_msg(session_open(&cfg, &sess, err, sizeof(err)) == 0, "%s", err);
	session_machine_free(m);
	while (got < NSAMPLES) {
		if (session_step(sess) == 1)
			orig[got++] = session_latest(sess);
	}
	session_about(sess, &a);
	ra = (struct record_about){ .host = "test", .source = a.source, .brand = a.brand,
				    .uarch = a.uarch, .topology = a.topo->source,
				    .simulated = a.simulated, .gp_counters = a.gp_counters,
				    .perfmon_version = a.perfmon_version, .sockets = a.topo->nsockets,
				    .cores = a.topo->ncores, .threads = a.topo->nonline,
				    .interval_s = 0.5, .layout = session_layout(sess) };
	snprintf(path, sizeof(path), "/tmp/pmutop-replay-XXXXXX");
	close(mkstemp(path));
	unlink(path); /* record_open makes it */
	ck_assert_msg(record_open(path, &ra, &r, err, sizeof(err)) == 0, "%s", err);
	for (int i = 0; i < NSAMPLES; i++) {
		ck_assert_int_eq(record_sample(r, orig[i]), 0);
		if (i == 0)
			ck_assert_int_eq(record_mark(r, orig[0]->time + 0.1, "phase 2"), 0);
	}
	ck_assert_int_eq(record_count(r), NSAMPLES);
	record_close(r);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	text_len = (size_t)ftell(f);
	rewind(f);
	text = malloc(text_len + 1);
	ck_assert_uint_eq(fread(text, 1, text_len, f), text_len);
	fclose(f);
	header_len = strchr(text, '\n') - text + 1;
	nlines = 0;
	for (size_t k = (size_t)header_len; k < text_len; k++)
		if (text[k] == '\n')
			line_end[nlines++] = (long)k + 1;
}

static void teardown(void)
{
	for (int i = 0; i < NSAMPLES; i++)
		sample_release(orig[i]);
	session_close(sess);
	free(text);
	unlink(path);
}

/* The first LEN bytes of the recording (then whatever EXTRA holds) into PATH. */
static void write_prefix(size_t len, const char *extra)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	if (extra)
		fputs(extra, f);
	fclose(f);
}

START_TEST(replay_gives_every_metric_back)
{
	struct replay *r;
	struct replay_item it;
	char err[1024];
	int k = 0, marks = 0;
	const struct layout *l;

	write_prefix(text_len, NULL);
	ck_assert_msg(replay_open(path, &r, err, sizeof(err)) == 0, "%s", err);
	l = replay_about(r)->layout;
	ck_assert_str_eq(replay_about(r)->source, orig[0]->source);
	ck_assert_int_eq(l->nmetrics, orig[0]->layout->nmetrics);
	while (replay_next(r, &it, err, sizeof(err)) == 0 && it.kind != REPLAY_END) {
		const struct sample *a, *b;
		int compared = 0;

		if (it.kind == REPLAY_MARK) {
			ck_assert_str_eq(it.mark.text, "phase 2");
			ck_assert_int_eq(k, 1); /* where it was recorded: after the first sample */
			marks++;
			continue;
		}
		ck_assert_int_eq(it.kind, REPLAY_SAMPLE);
		a = orig[k];
		b = it.sample;
		ck_assert_int_eq(a->seq, b->seq);
		ck_assert(a->time == b->time && a->interval_s == b->interval_s);
		ck_assert_int_eq(a->nthreads, b->nthreads);
		ck_assert_int_eq(sample_nchannels(a), sample_nchannels(b));
		ck_assert_int_eq(a->nflags, b->nflags);
		ck_assert_str_eq(a->warning, b->warning);
		for (int g = 0; g < l->ngroups; g++)
			ck_assert_int_eq(a->groups[g].state, b->groups[g].state);
		for (int m = 0; m < l->nmetrics; m++) {
			ck_assert_int_eq(a->metric_scaled[m], b->metric_scaled[m]);
			for (int i = 0; i < a->nthreads + a->ncores + a->nsockets; i++) {
				const struct sample_entity *ea = i < a->nthreads ? &a->threads[i]
					: i < a->nthreads + a->ncores ? &a->cores[i - a->nthreads]
					: &a->sockets[i - a->nthreads - a->ncores];
				const struct sample_entity *eb = i < b->nthreads ? &b->threads[i]
					: i < b->nthreads + b->ncores ? &b->cores[i - b->nthreads]
					: &b->sockets[i - b->nthreads - b->ncores];
				double x = sample_metric(a, ea, m), y = sample_metric(b, eb, m);

				/* the same inputs, the same formulas: the same double */
				ck_assert_msg((isnan(x) && isnan(y)) || x == y, "sample %d %s: %.17g "
					      "live, %.17g replayed", k, l->metrics[m].name, x, y);
				compared += !isnan(x);
			}
			for (int c = 0; c < a->nsockets * sample_nchannels(a); c++) {
				double x = sample_metric(a, &a->parts[SAMPLE_KIND_CHANNEL].rows[c], m);
				double y = sample_metric(b, &b->parts[SAMPLE_KIND_CHANNEL].rows[c], m);

				ck_assert((isnan(x) && isnan(y)) || x == y);
			}
		}
		ck_assert_int_gt(compared, 40);
		sample_release(it.sample);
		k++;
	}
	ck_assert_int_eq(k, NSAMPLES);
	ck_assert_int_eq(marks, 1);
	ck_assert_int_eq(replay_trailing(r), 0);
	replay_close(r);
}
END_TEST

/* Cut at every byte: every whole line replays, the rest is counted, nothing fails. */
START_TEST(a_recording_cut_anywhere_replays_its_whole_samples)
{
	for (size_t cut = 0; cut < text_len; cut += (long)cut < header_len - 1 ? 41 : 1) {
		struct replay *r;
		struct replay_item it;
		char err[1024];
		int items = 0, want = 0, rc;
		long last = header_len;

		write_prefix(cut, NULL);
		rc = replay_open(path, &r, err, sizeof(err));
		if ((long)cut < header_len) {
			ck_assert_int_eq(rc, -EINVAL);
			ck_assert_ptr_nonnull(strstr(err, "line 1 (byte 0)"));
			continue;
		}
		ck_assert_msg(rc == 0, "cut at %zu: %s", cut, err);
		for (int i = 0; i < nlines; i++)
			if (line_end[i] <= (long)cut) {
				want++;
				last = line_end[i];
			}
		while ((rc = replay_next(r, &it, err, sizeof(err))) == 0 && it.kind != REPLAY_END) {
			if (it.kind == REPLAY_SAMPLE)
				sample_release(it.sample);
			items++;
		}
		ck_assert_msg(rc == 0, "cut at %zu: %s", cut, err);
		ck_assert_int_eq(items, want);
		ck_assert_int_eq(replay_trailing(r), (long)cut - last);
		replay_close(r);
	}
}
END_TEST

/* A bad line after a good header: one message naming its line and byte. */
START_TEST(bad_lines_are_named_with_line_and_byte)
{
	static const char *const bad[] = {
		"not json\n",
		"[1, 2, 3]\n",
		"{\"seq\": 1}\n",
		"{\"seq\":1,\"time\":1,\"interval_s\":1,\"groups\":[],\"scaled\":[],\"threads\":[],"
		"\"cores\":[],\"sockets\":[],\"channels\":[],\"flags\":[],\"nchannels\":0}\n",
		"{\"seq\":1,\"time\":1,\"interval_s\":1,\"groups\":[],\"scaled\":[],\"threads\":[],"
		"\"cores\":[],\"sockets\":[],\"channels\":[],\"flags\":[],\"nchannels\":-3}\n",
		"{\"seq\":1,\"time\":1,\"interval_s\":1,\"groups\":[],\"scaled\":[],"
		"\"threads\":[[1,2,3]],\"cores\":[],\"sockets\":[],\"channels\":[],\"flags\":[],"
		"\"nchannels\":0}\n",
		"{\"seq\": 1, \"seq\": 2}\n",
	};
	char err[1024], want[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct replay *r;
		struct replay_item it;

		write_prefix((size_t)header_len, bad[i]);
		ck_assert_int_eq(replay_open(path, &r, err, sizeof(err)), 0);
		ck_assert_int_eq(replay_next(r, &it, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "line 2 (byte %ld): ", header_len);
		ck_assert_msg(strstr(err, want) != NULL, "%s", err);
		replay_close(r);
	}
	/* a real sample line changed: out of the layout's shape, a scaled metric or a flag out of range */
	{
		/* after the key: what goes in, and what comes between it and what was there */
		static const char *const edits[][3] = {
			{ "\"scaled\":[", "100000", "a scaled metric is not one of" },
			{ "\"flags\":[", "[99,0,0,\"x\"]", "a flag names a socket" },
			{ "\"threads\":{\"rows\":[", "[0,0,0,0,0,[],[]]", "inputs or raw counts" },
			{ "\"groups\":[[\"", "sideways-", "a group's state" },
			/* CHAs that do not fit the sockets */
			{ "\"kinds\":{", "\"chas\":{\"per_socket\":2,\"rows\":[[0]]}",
			  "rows of a socket's part (per_socket, rows) do not fit its sockets" },
		};

		for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
			size_t len = (size_t)(line_end[0] - header_len);
			char *line = strndup(text + header_len, len - 1), *at = strstr(line, edits[i][0]);
			struct replay *r;
			struct replay_item it;
			FILE *f;

			ck_assert_ptr_nonnull(at);
			write_prefix((size_t)header_len, NULL);
			f = fopen(path, "ab");
			at += strlen(edits[i][0]);
			fprintf(f, "%.*s%s%s%s\n", (int)(at - line), line, edits[i][1],
				*at == ']' || i == 3 ? "" : ",", at);
			fclose(f);
			free(line);
			ck_assert_int_eq(replay_open(path, &r, err, sizeof(err)), 0);
			ck_assert_int_eq(replay_next(r, &it, err, sizeof(err)), -EINVAL);
			ck_assert_msg(strstr(err, edits[i][2]) != NULL, "%s", err);
			ck_assert_msg(strstr(err, want) != NULL, "%s", err);
			replay_close(r);
		}
	}
}
END_TEST

/*
 * Every figure of a who row that the batch JSON (and so a recording)
 * writes, replay reads back as it was, and the computed ones follow; each
 * key once; a heading of the text table or the pane fits its column (a
 * wider one pushes every heading after it off its figures).
 */
START_TEST(every_who_figure_is_written_and_read_back)
{
	struct who_row rows[2] = { { .path = "system.slice/a.service", .name = "a.service", .parent = -1 },
				   { .path = "system.slice/a.service", .name = "a", .pid = 4242 } };
	struct who_snap w = { .available = true, .nrows = 2, .rows = rows, .ncgroups = 1, .ntd = 2,
			      .td_name = { "Retiring", "Bad_Speculation" }, .td_unit = "%" };
	struct sample s = { .who = &w };
	struct who_snap *back = NULL;
	json_t *o;

	for (int i = 0; i < 2; i++)
		for (int k = 0; k < who_ncols; k++) {
			const struct who_col *c = &who_cols[k];
			char *p = (char *)&rows[i] + c->offset;

			if (c->get)
				continue;
			if (c->type == WHO_COL_NUM)
				*(double *)(void *)p = 1e6 * (i + 1) + k + 0.25;
			else if (c->type == WHO_COL_INT)
				*(int *)(void *)p = 100 * i + k;
			else if (c->type == WHO_COL_BOOL)
				*(bool *)(void *)p = (i + k) % 2;
			else if (c->type == WHO_COL_TEXT)
				snprintf(p, c->size, "text %d of row %d", k, i);
			else
				for (int t = 0; t < WHO_TD_MAX; t++)
					rows[i].td[t] = t < w.ntd ? 10.5 * (t + 1) + i : NAN;
		}
	rows[0].age_s = 0; /* a figure of this interval (the rest test the marks) */
	o = batch_who_json(&s, &(struct batch_run){ 0 });
	ck_assert_ptr_null(replay_who(o, &back));
	ck_assert_int_eq(back->nrows, 2);
	ck_assert_int_eq(back->ncgroups, 1);
	ck_assert_int_eq(back->rows[1].pid, 4242);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < who_ncols; k++) {
			const struct who_col *c = &who_cols[k];
			const char *a = (const char *)&rows[i] + c->offset;
			const char *b = (const char *)&back->rows[i] + c->offset;

			if (c->type == WHO_COL_TEXT)
				ck_assert_msg(!strcmp(a, b), "row %d, %s: %s read back as %s", i, c->key, a, b);
			else if (c->type == WHO_COL_TOPDOWN)
				for (int t = 0; t < w.ntd; t++)
					ck_assert_double_eq(rows[i].td[t], back->rows[i].td[t]);
			else
				ck_assert_msg(who_col_value(c, &rows[i]) == who_col_value(c, &back->rows[i]),
					      "row %d, %s: %g read back as %g", i, c->key,
					      who_col_value(c, &rows[i]), who_col_value(c, &back->rows[i]));
		}
	ck_assert_msg(isfinite(who_row_ipc(&back->rows[0])), "a computed figure follows");
	for (int k = 0; k < who_ncols; k++) {
		const struct who_col *c = &who_cols[k];

		for (int j = 0; j < k; j++)
			ck_assert_msg(strcmp(c->key, who_cols[j].key), "%s named twice", c->key);
		ck_assert_msg(!c->text.head || (int)strlen(c->text.head) <= c->text.width,
			      "%s: the text table's heading is wider than its column", c->key);
		ck_assert_msg(!c->pane.head || (int)strlen(c->pane.head) <= c->pane.width,
			      "%s: the pane's heading is wider than its column", c->key);
		ck_assert_msg(!c->prom || c->prom_help || (k && who_cols[k - 1].prom &&
			      !strcmp(who_cols[k - 1].prom, c->prom)),
			      "%s: a Prometheus family without its help", c->key);
	}
	who_snap_free(back);
	json_decref(o);
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("replay");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, replay_gives_every_metric_back);
	tcase_add_test(tc, a_recording_cut_anywhere_replays_its_whole_samples);
	tcase_add_test(tc, bad_lines_are_named_with_line_and_byte);
	tcase_add_test(tc, every_who_figure_is_written_and_read_back);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(replay_suite)
