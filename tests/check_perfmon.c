/*
 * Tests for Intel's perfmon data as shipped in data/intel: every platform
 * loads and every formula and threshold compiles; the CPU -> platform map
 * follows the vendor's mapfile rows; the vendor's level-1 top-down formulas
 * give what their own text says; n/a comes with its reason; damaged files
 * get one message naming the file and the place.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "expr.h"
#include "perfmon.h"

#ifndef PERFMON_SRCDIR
#error "PERFMON_SRCDIR must name data/intel"
#endif

static struct perfmon *load(const char *file)
{
	char path[PATH_MAX], err[512];
	struct perfmon *p;

	snprintf(path, sizeof(path), "%s/%s", PERFMON_SRCDIR, file);
	ck_assert_msg(perfmon_load(path, &p, err, sizeof(err)) == 0, "%s", err);
	return p;
}

/* The metrics count models.csv gives for FILE (written by the converter). */
static int listed_metrics(const char *file)
{
	char path[PATH_MAX], line[512];
	FILE *f;
	int n = -1;

	snprintf(path, sizeof(path), "%s/models.csv", PERFMON_SRCDIR);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char *last = strrchr(line, ','), *name;

		if (!last)
			continue;
		*last = '\0';
		name = strrchr(line, ',');
		if (name && !strcmp(name + 1, file))
			n = atoi(last + 1);
	}
	fclose(f);
	return n;
}

START_TEST(every_formula_and_threshold_of_every_platform_compiles)
{
	DIR *d = opendir(PERFMON_SRCDIR);
	struct dirent *e;
	int platforms = 0, with_metrics = 0, metrics = 0, formulas = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct perfmon *p;

		if (n < 6 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		p = load(e->d_name);
		platforms++;
		ck_assert_int_eq(p->nmetrics, listed_metrics(e->d_name));
		with_metrics += p->nmetrics > 0;
		metrics += p->nmetrics;
		formulas += p->nformulas;
		for (int i = 0; i < p->nmetrics; i++) {
			ck_assert_ptr_nonnull(p->metrics[i].formula);
			ck_assert(!p->metrics[i].threshold_text || p->metrics[i].threshold);
		}
		perfmon_free(p);
	}
	closedir(d);
	/* the mapfile from Sandy Bridge on: 34 platforms, 21 with Intel's metric files */
	ck_assert_int_ge(platforms, 34);
	ck_assert_int_ge(with_metrics, 21);
	ck_assert_int_ge(metrics, 4000);
	printf("# perfmon: %d platforms, %d with metrics: %d metrics, %d formulas and thresholds "
	       "compiled\n", platforms, with_metrics, metrics, formulas);
}
END_TEST

START_TEST(cpus_map_to_the_vendors_platforms)
{
	static const struct {
		unsigned family, model, stepping, core_type;
		const char *file;
	} rows[] = {
		{ 6, 0x8F, 8, 0, "spr.json" },    /* Sapphire Rapids */
		{ 6, 0xCF, 2, 0, "emr.json" },    /* Emerald Rapids */
		{ 6, 0xAD, 1, 0, "gnr.json" },    /* Granite Rapids */
		{ 6, 0x55, 4, 0, "skx.json" },    /* Skylake-SP: steppings 0-4 */
		{ 6, 0x55, 7, 0, "clx.json" },    /* Cascade Lake: steppings 5-F */
		{ 6, 0x6A, 6, 0, "icx.json" },    /* Ice Lake-SP */
		{ 6, 0x8C, 1, 0, "tgl.json" },    /* Tiger Lake */
		{ 6, 0x3F, 2, 0, "hsx.json" },    /* Haswell-EP */
		{ 6, 0x2A, 7, 0, "snb.json" },    /* Sandy Bridge */
		{ 6, 0x97, 2, 0x40, "adl.json" }, /* Alder Lake P-core */
		{ 6, 0x97, 2, 0x20, "adl.json" }, /* and its E-core */
	};
	char path[PATH_MAX], err[256], want[PATH_MAX];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ck_assert_int_eq(perfmon_find(PERFMON_SRCDIR, rows[i].family, rows[i].model,
					      rows[i].stepping, rows[i].core_type, path, err,
					      sizeof(err)), 0);
		snprintf(want, sizeof(want), "%s/%s", PERFMON_SRCDIR, rows[i].file);
		ck_assert_str_eq(path, want);
	}
	/* Nehalem is pmutop's own layout, not a row here; a model Intel never made */
	ck_assert_int_eq(perfmon_find(PERFMON_SRCDIR, 6, 0x1A, 5, 0, path, err, sizeof(err)),
			 -ENOENT);
	ck_assert_int_eq(perfmon_find(PERFMON_SRCDIR, 6, 0x01, 0, 0, path, err, sizeof(err)),
			 -ENOENT);
}
END_TEST

/* Values for SPR's variables: every event N/A but the ones set. */
static double *vars_for(const struct perfmon *p)
{
	double *v = malloc(sizeof(double) * (size_t)PERFMON_NVARS(p));

	for (int i = 0; i < PERFMON_NVARS(p); i++)
		v[i] = NAN;
	return v;
}

static void set_event(const struct perfmon *p, double *v, const char *name, double x)
{
	for (int i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i].name, name)) {
			v[i] = x;
			return;
		}
	ck_abort_msg("no event %s", name);
}

static double metric(const struct perfmon *p, const double *v, const char *name, int *why)
{
	int m = perfmon_metric_index(p, name);

	ck_assert_msg(m >= 0, "no metric %s", name);
	return expr_eval_why(p->metrics[m].formula, v, why);
}

/*
 * Sapphire Rapids' level 1 from PERF_METRICS: the vendor's Frontend_Bound is
 * "frontend_bound / (the four) - uop_dropping / slots", Backend_Bound and
 * Retiring their share of the four, Bad_Speculation what the other three
 * leave: with shares 20/10/40/30 and 1 % of slots dropped, 19, 11, 30, 40,
 * summing to 100.
 */
START_TEST(level_one_is_the_vendors_arithmetic_and_sums_to_100)
{
	struct perfmon *p = load("spr.json");
	double *v = vars_for(p), fe, bs, be, ret;
	int why, m, th;

	set_event(p, v, "PERF_METRICS.FRONTEND_BOUND", 200);
	set_event(p, v, "PERF_METRICS.BAD_SPECULATION", 100);
	set_event(p, v, "PERF_METRICS.RETIRING", 400);
	set_event(p, v, "PERF_METRICS.BACKEND_BOUND", 300);
	set_event(p, v, "INT_MISC.UOP_DROPPING", 10);
	set_event(p, v, "TOPDOWN.SLOTS:perf_metrics", 1000);
	fe = metric(p, v, "Frontend_Bound", &why);
	bs = metric(p, v, "Bad_Speculation", &why);
	be = metric(p, v, "Backend_Bound", &why);
	ret = metric(p, v, "Retiring", &why);
	ck_assert_double_eq_tol(fe, 19, 1e-9);
	ck_assert_double_eq_tol(bs, 11, 1e-9);
	ck_assert_double_eq_tol(be, 30, 1e-9);
	ck_assert_double_eq_tol(ret, 40, 1e-9);
	ck_assert_double_eq_tol(fe + bs + be + ret, 100, 1e-9);

	/* the tree: Memory_Bound is Backend_Bound's child; level 1 has no parent */
	m = perfmon_metric_index(p, "Memory_Bound");
	ck_assert_int_eq(p->metrics[m].level, 2);
	ck_assert_str_eq(p->metrics[p->metrics[m].parent].name, "Backend_Bound");
	ck_assert_int_eq(p->metrics[perfmon_metric_index(p, "Backend_Bound")].parent, -1);

	/* thresholds over metrics: Fetch_Latency > 10 and its parent > 15 */
	m = perfmon_metric_index(p, "Fetch_Latency");
	th = perfmon_metric_index(p, "Frontend_Bound");
	v[PERFMON_VAR_METRIC(p, m)] = 12;
	v[PERFMON_VAR_METRIC(p, th)] = 19;
	ck_assert_double_eq(expr_eval(p->metrics[m].threshold, v), 1);
	v[PERFMON_VAR_METRIC(p, th)] = 14;
	ck_assert_double_eq(expr_eval(p->metrics[m].threshold, v), 0);
	free(v);
	perfmon_free(p);
}
END_TEST

START_TEST(na_says_which_event_or_the_division)
{
	struct perfmon *p = load("spr.json");
	double *v = vars_for(p);
	int why;

	/* cpi = CPU_CLK_UNHALTED.THREAD / INST_RETIRED.ANY: the first one missing */
	set_event(p, v, "INST_RETIRED.ANY", 100);
	ck_assert(isnan(metric(p, v, "cpi", &why)));
	ck_assert_int_ge(why, 0);
	ck_assert_str_eq(p->events[why].name, "CPU_CLK_UNHALTED.THREAD");
	ck_assert(p->events[why].listed);
	ck_assert_str_eq(p->events[why].code, "0x00");
	set_event(p, v, "CPU_CLK_UNHALTED.THREAD", 300);
	ck_assert_double_eq_tol(metric(p, v, "cpi", &why), 3, 1e-12);
	ck_assert_int_eq(why, EXPR_WHY_NONE);
	set_event(p, v, "INST_RETIRED.ANY", 0);
	ck_assert(isnan(metric(p, v, "cpi", &why)));
	ck_assert_int_eq(why, EXPR_WHY_DIV0);

	/* a constant the caller did not give is n/a too, named as such */
	ck_assert(isnan(metric(p, v, "cpu_operating_frequency", &why)));
	v[PERFMON_VAR_CONST(p, PERFMON_SYSTEM_TSC_FREQ)] = 2e9;
	set_event(p, v, "CPU_CLK_UNHALTED.REF_TSC", 200);
	ck_assert_double_eq_tol(metric(p, v, "cpu_operating_frequency", &why), 3.0, 1e-12);
	free(v);
	perfmon_free(p);
}
END_TEST

/* Write TEXT as a data file and load it: the error, or "" when it loads. */
static const char *load_text(const char *text)
{
	static char err[512];
	char path[] = "/tmp/pmutop-perfmon-XXXXXX";
	struct perfmon *p;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err[0] = '\0';
	if (perfmon_load(path, &p, err, sizeof(err)) == 0)
		perfmon_free(p);
	unlink(path);
	return strstr(err, ": ") ? strstr(err, ": ") + 2 : err;
}

START_TEST(damaged_files_name_the_place)
{
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[]}"), "");
	ck_assert_ptr_nonnull(strstr(load_text("{\"Events\":{},\"Metr"), "a damaged data file"));
	ck_assert_str_eq(load_text("{\"Metrics\":[]}"),
			 "not pmutop's perfmon data (no Events or Metrics): run "
			 "tools/perfmon-convert");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"a * \",\"Events\":{\"a\":\"E\"}}]}"),
			 "metric x: formula column 5: expected a number, a name or '(' before "
			 "the end");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"a\",\"Constants\":{\"a\":\"WARP_FACTOR\"}}]}"),
			 "metric x: formula names the constant WARP_FACTOR, which this pmutop does "
			 "not know: data newer than the program (update pmutop)");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\",\"Threshold\":{\"Formula\":\"a > 1\","
				   "\"Metrics\":{\"a\":\"y\"}}}]}"),
			 "metric x: threshold names y, which this file does not define");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\",\"ParentCategory\":\"y\"}]}"),
			 "metric x: its parent y is not a metric of the file");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\",\"ParentCategory\":\"y\"},{\"MetricName\":\"y\","
				   "\"Formula\":\"1\",\"ParentCategory\":\"x\"}]}"),
			 "metric x: its parents form a loop");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\"},{\"MetricName\":\"x\",\"Formula\":\"2\"}]}"),
			 "metric x is defined twice (metrics 1 and 2)");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\\ny\","
				   "\"Formula\":\"1\"}]}"),
			 "metric 1: a MetricName of letters, digits, '_' and '.' (at most 100)");
}
END_TEST

static Suite *perfmon_suite(void)
{
	Suite *s = suite_create("perfmon");

	CHECK_ADD(s, every_formula_and_threshold_of_every_platform_compiles);
	CHECK_ADD(s, cpus_map_to_the_vendors_platforms);
	CHECK_ADD(s, level_one_is_the_vendors_arithmetic_and_sums_to_100);
	CHECK_ADD(s, na_says_which_event_or_the_division);
	CHECK_ADD(s, damaged_files_name_the_place);
	return s;
}

CHECK_MAIN(perfmon_suite)
