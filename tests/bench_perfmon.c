/*
 * bench_perfmon: what Intel's perfmon data costs (make bench).  Not a test:
 * it measures and prints.  Loading each shipped platform file (parse,
 * compile every formula and threshold, link the tree), RUNS times each: the
 * median per file and the slowest; and evaluating every formula and
 * threshold of Sapphire Rapids for 224 hardware threads (2 sockets x 56
 * cores x 2), what one sample of the whole tree would take, as CPU time;
 * and making a platform's layout (plan, then build it: groups, events, formulas) for a 2 x 28 x 2
 * machine on 4 counters, what start-up adds on such a CPU.
 */
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expr.h"
#include "layout.h"
#include "perfmon.h"
#include "perfmon_layout.h"

#define BENCH_RUNS 11
#define BENCH_THREADS 224
#define BENCH_SAMPLES 20

static double bench_now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median load time of PATH, or a negative value on failure. */
static double bench_load(const char *path, int *metrics)
{
	double ms[BENCH_RUNS];
	char err[512];

	for (int i = 0; i < BENCH_RUNS; i++) {
		struct perfmon *p;
		double t0 = bench_now_ms(CLOCK_MONOTONIC);

		if (perfmon_load(path, &p, err, sizeof(err))) {
			fprintf(stderr, "bench_perfmon: %s\n", err);
			return -1;
		}
		ms[i] = bench_now_ms(CLOCK_MONOTONIC) - t0;
		*metrics = p->nmetrics;
		perfmon_free(p);
	}
	qsort(ms, BENCH_RUNS, sizeof(ms[0]), bench_cmp);
	return ms[BENCH_RUNS / 2];
}

static int bench_eval(const char *path)
{
	struct perfmon *p;
	char err[512];
	double *vars, cpu0, sink = 0;
	long evals = 0;

	if (perfmon_load(path, &p, err, sizeof(err))) {
		fprintf(stderr, "bench_perfmon: %s\n", err);
		return 1;
	}
	vars = malloc(sizeof(double) * (size_t)PERFMON_NVARS(p));
	for (int i = 0; i < PERFMON_NVARS(p); i++)
		vars[i] = 1e6 + i;
	cpu0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID);
	for (int s = 0; s < BENCH_SAMPLES; s++)
		for (int t = 0; t < BENCH_THREADS; t++)
			for (int m = 0; m < p->nmetrics; m++) {
				double v = expr_eval(p->metrics[m].formula, vars);

				vars[PERFMON_VAR_METRIC(p, m)] = v;
				sink += isnan(v) ? 0 : v;
				evals++;
				if (p->metrics[m].threshold) {
					sink += expr_eval(p->metrics[m].threshold, vars);
					evals++;
				}
			}
	printf("evaluating all %d metrics (and thresholds) of %s for %d threads: %.2f ms CPU per "
	       "sample = %.3f %% of a core at 1 s (%ld evaluations, checksum %g)\n", p->nmetrics,
	       p->platform, BENCH_THREADS,
	       (bench_now_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0) / BENCH_SAMPLES,
	       (bench_now_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0) / BENCH_SAMPLES / 10, evals, sink);
	free(vars);
	perfmon_free(p);
	return 0;
}

/* Median time to make and parse the layout of PATH's platform; negative on failure. */
static double bench_layout(const char *path, int *groups, size_t *bytes)
{
	static const struct perfmon_layout_config mc = {
		.gp_counters = 4, .ht_on = true, .threads_per_core = 2, .sockets = 2,
		.cores_per_socket = 28, .cpus = 112,
	};
	double ms[BENCH_RUNS];
	char err[1024];
	struct perfmon *p;

	if (perfmon_load(path, &p, err, sizeof(err))) {
		fprintf(stderr, "bench_perfmon: %s\n", err);
		return -1;
	}
	for (int i = 0; i < BENCH_RUNS; i++) {
		double t0 = bench_now_ms(CLOCK_MONOTONIC);
		struct layout *l;
		char *text;

		if (perfmon_layout(p, &mc, path, &l, &text, err, sizeof(err))) {
			fprintf(stderr, "bench_perfmon: %s\n", err);
			perfmon_free(p);
			return -1;
		}
		ms[i] = bench_now_ms(CLOCK_MONOTONIC) - t0;
		*groups = l->ngroups;
		*bytes = strlen(text);
		free(text);
		layout_free(l);
	}
	perfmon_free(p);
	qsort(ms, BENCH_RUNS, sizeof(ms[0]), bench_cmp);
	return ms[BENCH_RUNS / 2];
}

int main(void)
{
	DIR *d = opendir(PERFMON_SRCDIR);
	struct dirent *e;
	double worst = 0, sum = 0;
	char path[PATH_MAX], slowest[64] = "";
	int n = 0;

	if (!d) {
		perror(PERFMON_SRCDIR);
		return 1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		int metrics = 0;
		double ms;

		if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", PERFMON_SRCDIR, e->d_name);
		ms = bench_load(path, &metrics);
		if (ms < 0)
			return 1;
		if (!strcmp(e->d_name, "spr.json") || !strcmp(e->d_name, "gnr.json"))
			printf("load %-10s %3d metrics: median %.2f ms of %d\n", e->d_name, metrics, ms,
			       BENCH_RUNS);
		if (ms > worst) {
			worst = ms;
			snprintf(slowest, sizeof(slowest), "%s", e->d_name);
		}
		sum += ms;
		n++;
	}
	closedir(d);
	printf("load: %d platform files, mean %.2f ms, slowest %s %.2f ms (target: start-up under "
	       "150 ms)\n", n, sum / n, slowest, worst);
	for (size_t k = 0; k < 2; k++) {
		static const char *const files[] = { "skx.json", "spr.json" };
		int groups = 0;
		size_t bytes = 0;
		double ms;

		snprintf(path, sizeof(path), "%s/%s", PERFMON_SRCDIR, files[k]);
		if ((ms = bench_layout(path, &groups, &bytes)) < 0)
			return 1;
		printf("layout %-8s for 2 x 28 x 2 on 4 counters: median %.2f ms of %d (plan, build "
		       "through the builder, its text %zu bytes; %d groups)\n", files[k], ms,
		       BENCH_RUNS, bytes, groups);
	}
	snprintf(path, sizeof(path), "%s/spr.json", PERFMON_SRCDIR);
	return bench_eval(path);
}
