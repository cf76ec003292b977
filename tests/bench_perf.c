/*
 * bench_perf: what reading through perf_event_open costs the sampler (make
 * bench).  Not a test: it measures and prints.
 *
 * The perf source reads one group per layout group and per CPU each
 * interval (one read(2) each, PERF_FORMAT_GROUP with both times).  These
 * machines have no hardware events, so the groups here are of software
 * events (cpu-clock), opened per CPU (pid -1) where the kernel allows it,
 * else for this process: the system call and the kernel's group read are
 * the same path; a hardware counter's read adds an rdpmc-like register
 * read on the CPU (an IPI when it is another CPU's, as for the msr device).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perf.h"

#define BENCH_GROUPS 17   /* Nehalem's core groups with -g all, and the 3 fixed events */
#define BENCH_EVENTS 4
#define BENCH_READS 200

static double bench_now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	static struct perf_group g[64][BENCH_GROUPS];
	struct perf_pmu_config c[BENCH_EVENTS];
	struct perf_access a;
	char err[600];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	bool wide;
	int opened = 0;
	double t0, c0, wall, cpu;

	perf_access_read(NULL, &a);
	wide = perf_access_system_wide(&a, err, sizeof(err));
	if (ncpu > 64)
		ncpu = 64;
	for (int i = 0; i < BENCH_EVENTS; i++)
		c[i] = (struct perf_pmu_config){ .type = PERF_TYPE_SOFTWARE,
						 .config = { PERF_COUNT_SW_CPU_CLOCK } };
	for (long cpu_n = 0; cpu_n < (wide ? ncpu : 1); cpu_n++)
		for (int k = 0; k < BENCH_GROUPS; k++) {
			if (perf_group_open(&g[cpu_n][k], NULL, c, BENCH_EVENTS, wide ? -1 : 0,
					    wide ? (int)cpu_n : -1, true, a.paranoid < 2 || wide, "bench",
					    &a, err, sizeof(err)) ||
			    perf_group_enable(&g[cpu_n][k])) {
				printf("perf reads: cannot open software events here: %s\n", err);
				return 0;
			}
			opened++;
		}
	t0 = bench_now(CLOCK_MONOTONIC);
	c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
	for (int r = 0; r < BENCH_READS; r++)
		for (long cpu_n = 0; cpu_n < (wide ? ncpu : 1); cpu_n++)
			for (int k = 0; k < BENCH_GROUPS; k++) {
				struct perf_group_delta d;

				if (perf_group_read(&g[cpu_n][k], &d)) {
					printf("perf reads: a read failed: %s\n", strerror(errno));
					return 0;
				}
			}
	wall = (bench_now(CLOCK_MONOTONIC) - t0) / ((double)BENCH_READS * opened);
	cpu = (bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0) / ((double)BENCH_READS * opened);
	printf("perf reads (%s, %d groups of %d software events): %.2f us per group read "
	       "(%.2f us CPU); a sample of %d groups on 1024 CPUs: %.1f ms of sampler time\n",
	       wide ? "per CPU, pid -1" : "this process", opened, BENCH_EVENTS, wall * 1e6,
	       cpu * 1e6, BENCH_GROUPS, wall * BENCH_GROUPS * 1024 * 1e3);
	for (long cpu_n = 0; cpu_n < (wide ? ncpu : 1); cpu_n++)
		for (int k = 0; k < BENCH_GROUPS; k++)
			perf_group_close(&g[cpu_n][k]);
	return 0;
}
