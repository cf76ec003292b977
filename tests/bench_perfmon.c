/*
 * bench_perfmon: what Intel's perfmon data costs (make bench).  Not a test:
 * it measures and prints.  Loading each shipped platform file (parse,
 * compile every formula and threshold, link the tree), RUNS times each: the
 * median per file and the slowest; and evaluating every formula and
 * threshold of Sapphire Rapids for 224 hardware threads (2 sockets x 56
 * cores x 2), what one sample of the whole tree would take, as CPU time.
 */
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expr.h"
#include "perfmon.h"

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
	snprintf(path, sizeof(path), "%s/spr.json", PERFMON_SRCDIR);
	return bench_eval(path);
}
