/*
 * bench_topo: how long loading the topology model takes (make bench).
 *
 * Not a test: it measures and prints.  Each source is loaded RUNS times;
 * the median, minimum and maximum wall-clock times are reported, plus the
 * CPU time of the whole loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "topo.h"

#define BENCH_RUNS 50

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

static int bench_one(const char *label, const char *spec)
{
	double ms[BENCH_RUNS], cpu0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID);
	int threads = 0;

	for (int i = 0; i < BENCH_RUNS; i++) {
		char err[512];
		struct topo *t;
		double t0 = bench_now_ms(CLOCK_MONOTONIC);

		if (topo_load(spec, &t, err, sizeof(err))) {
			fprintf(stderr, "bench_topo: %s\n", err);
			return 1;
		}
		ms[i] = bench_now_ms(CLOCK_MONOTONIC) - t0;
		threads = t->nthreads;
		topo_free(t);
	}
	qsort(ms, BENCH_RUNS, sizeof(ms[0]), bench_cmp);
	printf("%-34s %5d threads  median %7.2f ms  min %7.2f  max %7.2f  cpu/load %7.2f ms\n",
	       label, threads, ms[BENCH_RUNS / 2], ms[0], ms[BENCH_RUNS - 1],
	       (bench_now_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0) / BENCH_RUNS);
	return 0;
}

int main(void)
{
	int rc = 0;

	printf("topology load time, %d runs each\n", BENCH_RUNS);
	rc |= bench_one("synthetic 2x4x2 (Xeon 5500)", "pack:2 [numa] l3:1 core:4 pu:2");
	rc |= bench_one("synthetic 4x32x2", "pack:4 [numa] l3:1 core:32 pu:2");
	rc |= bench_one("synthetic 16x32x2 (1024 threads)",
			"pack:16 [numa] l3:1 core:32 pu:2(indexes=2*512:1*2)");
	rc |= bench_one("this machine (hwloc + libnuma)", NULL);
	return rc;
}
