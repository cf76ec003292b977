/*
 * The Prometheus exposition (prom.c): every metric of every shipped layout
 * gets a valid family name of its own in base units; the figures are the
 * sample's, scaled to those units; what is n/a is left out; the _total
 * counters add up the intervals; label values and help text are escaped;
 * OpenMetrics names counter families without _total and ends in # EOF.
 */
#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "sim_samples.h"
#include "frontend.h"
#include "prom.h"

static struct session *sess;
static const struct sample *smp[2];

static void setup(void)
{
	sim_samples("nehalem-ep:memory-bound", "stalls,imc", 0.5, &sess, smp, 2);
}

static void teardown(void)
{
	sample_release(smp[0]);
	sample_release(smp[1]);
	session_close(sess);
}

/* The exposition of S (totals T) as a string (free it). */
static char *expose(const struct sample *s, const struct prom_totals *t,
		    const struct prom_about *a, bool om)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert_int_eq(prom_write(s, t, a, om, false, f), 0);
	fclose(f);
	return buf;
}

/* The value of the series that starts with PREFIX ("name{labels"), NaN when absent. */
static double series(const char *text, const char *prefix)
{
	const char *p = text;

	while ((p = strstr(p, prefix))) {
		if (p == text || p[-1] == '\n') {
			const char *sp = strchr(p, '}');

			return sp ? strtod(sp + 1, NULL) : NAN;
		}
		p++;
	}
	return NAN;
}

START_TEST(every_layout_metric_has_a_valid_name_of_its_own)
{
	DIR *d = opendir(LAYOUT_SRCDIR);
	struct dirent *de;
	regex_t re;
	int layouts = 0;

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(regcomp(&re, "^pmutop_[a-z0-9_]*[a-z0-9]$", REG_EXTENDED | REG_NOSUB), 0);
	while ((de = readdir(d))) {
		char path[600], err[512], names[256][160];
		struct layout *l;
		size_t n = strlen(de->d_name);

		if (n < 8 || strcmp(de->d_name + n - 7, ".layout"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", LAYOUT_SRCDIR, de->d_name);
		ck_assert_msg(layout_load(path, &l, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_le(l->nmetrics, 256);
		for (int m = 0; m < l->nmetrics; m++) {
			double f = prom_metric_name(l, m, names[m], sizeof(names[m]));

			ck_assert_msg(regexec(&re, names[m], 0, NULL, 0) == 0, "%s: %s -> '%s'",
				      de->d_name, l->metrics[m].name, names[m]);
			ck_assert_msg(!strstr(names[m], "__"), "%s", names[m]);
			ck_assert(f > 0);
			/* a share is a ratio, a time in seconds, a rate per second */
			if (!strcmp(l->metrics[m].unit, "%"))
				ck_assert_msg(strstr(names[m], "_ratio") && f == 0.01, "%s", names[m]);
			if (!strcmp(l->metrics[m].unit, "ns"))
				ck_assert_msg(strstr(names[m], "_seconds") && f == 1e-9, "%s", names[m]);
			if (strstr(l->metrics[m].unit, "/s"))
				ck_assert_msg(strstr(names[m], "_per_second"), "%s", names[m]);
			for (int k = 0; k < m; k++)
				ck_assert_msg(strcmp(names[k], names[m]), "%s: %s and %s are both %s",
					      de->d_name, l->metrics[k].name, l->metrics[m].name,
					      names[m]);
		}
		layout_free(l);
		layouts++;
	}
	closedir(d);
	regfree(&re);
	ck_assert_int_ge(layouts, 5);
}
END_TEST

START_TEST(names_follow_prometheus_units)
{
	const struct layout *l = smp[0]->layout;
	static const struct {
		const char *metric, *family;
		double factor;
	} want[] = {
		{ "util", "pmutop_util_ratio", 0.01 },
		{ "ghz", "pmutop_clock_hertz", 1e9 },
		{ "ipc", "pmutop_ipc_ratio", 1 },
		{ "exec_stall_pct", "pmutop_exec_stall_ratio", 0.01 },
		{ "read_bytes_per_s", "pmutop_read_bytes_per_second", 1 },
		{ "imc_read_latency_ns", "pmutop_imc_read_latency_seconds", 1e-9 },
		{ "port0", "pmutop_port0_uops_per_cycle", 1 },
		{ "l3_lines_in_per_s", "pmutop_l3_lines_in_per_second", 1 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int m = layout_metric_find(l, want[i].metric);
		char name[160];

		ck_assert_msg(m >= 0, "%s", want[i].metric);
		ck_assert_double_eq(prom_metric_name(l, m, name, sizeof(name)), want[i].factor);
		ck_assert_str_eq(name, want[i].family);
	}
}
END_TEST

START_TEST(figures_are_the_samples_in_base_units)
{
	const struct sample *s = smp[1];
	const struct layout *l = s->layout;
	int m_stall = layout_metric_find(l, "exec_stall_pct");
	int m_read = layout_metric_find(l, "read_bytes_per_s");
	int m_port = layout_metric_find(l, "port0");
	char prefix[200], *text = expose(s, NULL, NULL, false);
	int checked = 0;

	for (int i = 0; i < s->nthreads; i++) {
		const struct sample_entity *e = &s->threads[i];
		double want = sample_metric(s, e, m_stall) * 0.01, got;

		snprintf(prefix, sizeof(prefix), "pmutop_exec_stall_ratio{cpu=\"%d\",core=\"%d\","
			 "socket=\"%d\",group=\"stalls\",source=\"sim\",simulated=\"true\"}",
			 e->index, e->core, e->socket);
		got = series(text, prefix);
		ck_assert_msg(fabs(got - want) <= 1e-12 * fabs(want) && want > 0.3, "%s: %g != %g",
			      prefix, got, want);
		checked++;
	}
	for (int i = 0; i < s->nsockets * sample_nchannels(s); i++) {
		const struct sample_entity *e = &s->parts[SAMPLE_KIND_CHANNEL].rows[i];
		double want = sample_metric(s, e, m_read);

		if (!isfinite(want))
			continue;
		snprintf(prefix, sizeof(prefix), "pmutop_read_bytes_per_second{socket=\"%d\","
			 "channel=\"%d\",group=\"imc\"", e->socket, e->index);
		ck_assert_msg(fabs(series(text, prefix) - want) <= 1e-9 * want && want > 1e8, "%s",
			      prefix);
		checked++;
	}
	ck_assert_int_eq(checked, s->nthreads + 6); /* 16 threads, 3 channels on each socket */
	/* ports are off: n/a is left out, never 0 */
	ck_assert(!isfinite(sample_metric(s, &s->threads[0], m_port)));
	ck_assert_ptr_null(strstr(text, "pmutop_port0_uops_per_cycle"));
	ck_assert_ptr_nonnull(strstr(text, "pmutop_group_live_ratio{group=\"ports\",source=\"sim\","
				     "simulated=\"true\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(text, "# TYPE pmutop_exec_stall_ratio gauge\n"));
	free(text);
}
END_TEST

START_TEST(totals_add_up_the_intervals)
{
	const struct layout *l = smp[0]->layout;
	struct prom_totals *t0 = prom_totals_next(NULL, smp[0]);
	struct prom_totals *t1 = prom_totals_next(t0, smp[1]);
	int ev = -1;
	char prefix[200], *text;
	double want;

	for (int e = 0; e < l->nevents; e++)
		if (!strcmp(l->events[e].name, "exec_active"))
			ev = e;
	ck_assert_int_ge(ev, 0);
	want = smp[0]->threads[3].vars[layout_event_var(l, ev)] +
	       smp[1]->threads[3].vars[layout_event_var(l, ev)];
	text = expose(smp[1], t1, NULL, false);
	snprintf(prefix, sizeof(prefix), "pmutop_event_exec_active_total{cpu=\"%d\",",
		 smp[1]->threads[3].index);
	ck_assert_msg(fabs(series(text, prefix) - want) <= 1e-9 * want && want > 1e6, "%g vs %g",
		      series(text, prefix), want);
	want = smp[0]->threads[3].vars[LAYOUT_B_cycles] + smp[1]->threads[3].vars[LAYOUT_B_cycles];
	snprintf(prefix, sizeof(prefix), "pmutop_cycles_total{cpu=\"%d\",",
		 smp[1]->threads[3].index);
	ck_assert(fabs(series(text, prefix) - want) <= 1e-9 * want);
	ck_assert_ptr_nonnull(strstr(text, "# TYPE pmutop_cycles_total counter\n"));
	ck_assert_ptr_null(strstr(text, "# EOF"));
	free(text);
	/* OpenMetrics: the family without _total, its samples with it; # EOF last */
	text = expose(smp[1], t1, NULL, true);
	ck_assert_ptr_nonnull(strstr(text, "# TYPE pmutop_cycles counter\n"));
	ck_assert_ptr_nonnull(strstr(text, "\npmutop_cycles_total{"));
	ck_assert_str_eq(text + strlen(text) - 6, "# EOF\n");
	free(text);
	prom_totals_free(t0);
	prom_totals_free(t1);
}
END_TEST

START_TEST(label_values_are_escaped)
{
	struct prom_about a = { .host = "a\"b\\c\nd", .uarch = "Nehalem", .owner_pid = 42 };
	char *text = expose(smp[0], NULL, &a, false);

	/* a quote and a backslash escaped as the format says; a line break never gets there raw */
	ck_assert_ptr_nonnull(strstr(text, "pmutop_info{host=\"a\\\"b\\\\c\\\\x0ad\",uarch=\"Nehalem\""));
	ck_assert_ptr_nonnull(strstr(text, "pid=\"42\",source=\"sim\",simulated=\"true\"} 1\n"));
	free(text);
}
END_TEST

/*
 * Every series names its thread, core, socket and channel as the JSON
 * tables do (sample_kind.h): the OS's CPU, core id and physical package id,
 * not pmutop's own order, which differs where the ids are sparse.
 */
START_TEST(labels_are_the_os_numbers_json_writes)
{
	struct sample *s = (struct sample *)smp[1];
	struct sample_entity *kinds[] = { s->threads, s->cores, s->sockets, s->parts[SAMPLE_KIND_CHANNEL].rows };
	int counts[] = { s->nthreads, s->ncores, s->nsockets, s->nsockets * sample_nchannels(s) };
	char prefix[200], *text, *p;
	int sockets = 0, saved[4][64][2];

	/* sparse ids, as a machine with a socket's cores numbered 0-3, 8-11 has */
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < counts[k]; i++) {
			ck_assert_int_lt(i, 64);
			saved[k][i][0] = kinds[k][i].os_socket_id;
			saved[k][i][1] = kinds[k][i].os_core_id;
			kinds[k][i].os_socket_id = 7 + kinds[k][i].socket;
			if (kinds[k][i].core >= 0)
				kinds[k][i].os_core_id = 100 + 2 * kinds[k][i].core;
		}
	text = expose(s, NULL, NULL, false);
	for (int i = 0; i < s->nthreads; i++) {
		const struct sample_entity *e = &s->threads[i];

		snprintf(prefix, sizeof(prefix), "pmutop_exec_stall_ratio{cpu=\"%d\",core=\"%d\","
			 "socket=\"%d\",", e->index, 100 + 2 * e->core, 7 + e->socket);
		ck_assert_msg(isfinite(series(text, prefix)), "no series %s", prefix);
	}
	snprintf(prefix, sizeof(prefix), "pmutop_read_bytes_per_second{socket=\"8\",channel=\"2\",");
	ck_assert_msg(isfinite(series(text, prefix)), "no series %s", prefix);
	/* no family, the stable ones included, names a socket by pmutop's own index */
	for (p = text; (p = strstr(p, "socket=\"")); p++, sockets++)
		ck_assert_msg(p[8] == '7' || p[8] == '8', "%.60s", p - 40 > text ? p - 40 : text);
	ck_assert_int_gt(sockets, 20);
	free(text);
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < counts[k]; i++) {
			kinds[k][i].os_socket_id = saved[k][i][0];
			kinds[k][i].os_core_id = saved[k][i][1];
		}
}
END_TEST

static Suite *prom_suite(void)
{
	Suite *s = suite_create("prom");
	TCase *tc = tcase_create("exposition");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, names_follow_prometheus_units);
	tcase_add_test(tc, figures_are_the_samples_in_base_units);
	tcase_add_test(tc, totals_add_up_the_intervals);
	tcase_add_test(tc, label_values_are_escaped);
	tcase_add_test(tc, labels_are_the_os_numbers_json_writes);
	suite_add_tcase(s, tc);
	CHECK_ADD(s, every_layout_metric_has_a_valid_name_of_its_own);
	return s;
}

CHECK_MAIN(prom_suite)
