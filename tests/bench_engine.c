/*
 * bench_engine: what one sample costs the sampler.
 *
 * For the emulated nehalem-ep (the emulator answers in-process, so its own
 * work is part of the figure) and for a synthetic 1024-thread machine behind
 * a null register device (counters that simply advance: the engine's own
 * cost), with the default group and with every group rotating: CPU time of
 * the sampler per sample, register reads per sample against the counters it
 * had to read, register writes (the cost of rotating in 2 ms slices, against
 * the old scheme of one slice per set per interval), and the skew of the
 * sweep.  Not a test: it prints figures.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msr_source.h"
#include "emu.h"
#include "engine.h"
#include "layout.h"
#include "msr.h"
#include "pmu_regs.h"
#include "paths.h"
#include "source_int.h"
#include "test_emu.h"
#include "topo.h"

#define BENCH_SAMPLES 30

static double bench_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* the per-socket readers too */
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * A register device whose counters advance by a fixed amount per read and
 * whose controls hold what was written (pmutop checks that its selects are
 * still its own), all 0 at first: nobody's.
 */
#define BENCH_CPUS 1100
#define BENCH_CTLS 12

struct bench_null {
	_Atomic uint64_t reads, writes; /* the per-socket readers count at once */
	_Atomic uint64_t value;
	double access_ns;         /* busy-waited per access: a device's cost */
	uint64_t ctl[BENCH_CPUS][BENCH_CTLS];
};

/* The control slot of REG, or -1 for a count. */
static int bench_ctl(uint32_t reg)
{
	if (reg >= IA32_PERFEVTSEL0 && reg < IA32_PERFEVTSEL0 + 8)
		return (int)(reg - IA32_PERFEVTSEL0);
	switch (reg) {
	case IA32_FIXED_CTR_CTRL: return 8;
	case IA32_PERF_GLOBAL_CTRL: return 9;
	case 0x1A6: return 10;
	case 0x1A7: return 11;
	}
	return -1;
}

/* Busy-wait NS nanoseconds: the time one access of a real device takes. */
static void bench_spin(double ns)
{
	struct timespec a, b;

	if (ns <= 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec) < ns);
}

static int bench_null_read(void *ctx, int cpu, uint32_t reg, uint64_t *val)
{
	struct bench_null *n = ctx;
	int k = bench_ctl(reg);

	bench_spin(n->access_ns);
	atomic_fetch_add_explicit(&n->reads, 1, memory_order_relaxed);
	if (k >= 0 && cpu >= 0 && cpu < BENCH_CPUS) {
		*val = n->ctl[cpu][k];
		return 0;
	}
	*val = (atomic_fetch_add_explicit(&n->value, 1000003, memory_order_relaxed) + 1000003) &
	       ((1ull << 48) - 1);
	return 0;
}

static int bench_null_write(void *ctx, int cpu, uint32_t reg, uint64_t val)
{
	struct bench_null *n = ctx;
	int k = bench_ctl(reg);

	bench_spin(n->access_ns);
	atomic_fetch_add_explicit(&n->writes, 1, memory_order_relaxed);
	if (k >= 0 && cpu >= 0 && cpu < BENCH_CPUS)
		n->ctl[cpu][k] = val;
	return 0;
}

static const struct msr_ops bench_null_ops = { .read = bench_null_read, .write = bench_null_write };

struct bench_result {
	double cpu_ms, skew_us;
	double reads_per_sample, writes_per_sample;
	double checks_per_sample; /* device reads that are not counter reads (control checks) */
	int counters_per_sample;
};

static double bench_wall(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Run BENCH_SAMPLES samples through ENG synchronously; time only the sampler's work. */
static void bench_run(struct engine *eng, int nthreads, int gp_per_sample, struct bench_result *r)
{
	double cpu = 0, skew = 0;
	uint64_t reads0 = engine_counter_reads(eng);
	int published = 0;

	while (published < BENCH_SAMPLES) {
		double t0 = bench_cpu_now();
		int rc = engine_step(eng);

		cpu += bench_cpu_now() - t0;
		if (rc == 1) {
			const struct sample *s = engine_latest(eng);

			skew += s->skew_us;
			sample_release(s);
			published++;
		}
	}
	r->cpu_ms = cpu / BENCH_SAMPLES * 1e3;
	r->skew_us = skew / BENCH_SAMPLES;
	r->reads_per_sample = (double)(engine_counter_reads(eng) - reads0) / BENCH_SAMPLES;
	/* fixed counters + TSC + the programmable counters of every set, per thread */
	r->counters_per_sample = nthreads * (3 + 1 + gp_per_sample);
}

static void bench_print(const char *what, const struct bench_result *r)
{
	printf("%-90s %8.3f ms  %6.3f %%  %9.0f reads (counters: %d)  skew %7.0f us", what,
	       r->cpu_ms, r->cpu_ms / 1e3 * 100, r->reads_per_sample, r->counters_per_sample,
	       r->skew_us);
	if (r->writes_per_sample >= 0)
		printf("  %9.0f writes  %7.0f control checks", r->writes_per_sample,
		       r->checks_per_sample);
	printf("\n");
}

static int bench_gp_per_sample(const struct layout *l, uint32_t groups)
{
	int n = 0;

	for (int g = 0; g < l->ngroups; g++)
		if ((groups & (1u << g)) && l->groups[g].pmu == LAYOUT_PMU_CORE)
			n += l->groups[g].nevents;
	return n;
}

/*
 * LABEL's rows on the null device over topology TOPO: GROUPS at slice MUX,
 * each register access costing ACCESS_US (busy-waited) on top.
 */
static int bench_null_run(const struct layout *l, const char *topo, const char *label,
			  uint32_t groups, double mux, const char *what_groups, double access_us,
			  bool readers)
{
	struct topo *t;
	static struct bench_null null;
	struct msr_allowlist allow;
	struct cpuid_info info = { .family = 6, .model = 0x1A, .perfmon_version = 3,
				   .gp_counters = 4, .fixed_counters = 3,
				   .uarch = CPUID_UARCH_NEHALEM };
	struct msr_dev *dev;
	struct engine *eng;
	struct engine_config cfg = { 0 };
	struct bench_result r;
	char err[512], what[128];
	int *cpus;

	if (topo_load(topo, &t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	memset(&null, 0, sizeof(null));
	null.access_ns = access_us * 1e3;
	cpus = calloc((size_t)t->nonline, sizeof(int));
	for (int i = 0; i < t->nonline; i++)
		cpus[i] = t->threads[i].os_cpu;
	msr_allow_build(&info, 0, &allow);
	dev = msr_open_ops(&bench_null_ops, &null, cpus, t->nonline, &allow);
	cfg = (struct engine_config){
		.core_ops = &msr_core_ops, .uncore_ops = &msr_uncore_ops,
		.topo = t, .layout = l,
		.source_cfg = &(struct msr_source_config){ .dev = dev, .readers = readers ? 1 : -1 },
		.perfmon_version = 3,
		.gp_counters = 4, .gp_width = 48, .fixed_counters = 3, .fixed_width = 48,
		.interval_s = 1, .mux_s = mux, .groups = groups & ((1u << l->ngroups) - 1),
		.source = "null", .clock = bench_wall,
	};
	if (engine_create(&cfg, &eng, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	null.writes = 0;
	null.reads = 0;
	engine_use_readers(eng, readers);
	bench_run(eng, t->nonline, bench_gp_per_sample(l, cfg.groups), &r);
	engine_use_readers(eng, false);
	r.writes_per_sample = (double)null.writes / BENCH_SAMPLES;
	r.checks_per_sample = (double)null.reads / BENCH_SAMPLES - r.reads_per_sample;
	snprintf(what, sizeof(what), "%s (null device), %s", label, what_groups);
	bench_print(what, &r);
	engine_free(eng);
	msr_close(dev);
	free(cpus);
	topo_free(t);
	return 0;
}

int main(void)
{
	struct layout *l;
	char err[512];
	struct bench_result r;
	/* the default group; every group in 2 ms slices; every group, one slice per set per interval */
	const uint32_t groups[3] = { 1, ~0u, ~0u };
	const double mux[3] = { 0, 0, 1.0 };
	const char *names[3] = { "default group (stalls)", "all core groups rotating every 2 ms",
				 "all core groups, one slice each per interval" };

	if (layout_load(LAYOUT_SRCDIR "/nehalem.layout", &l, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("per sample at a 1 s interval: sampler CPU time, share of one core, register "
	       "reads, skew (%d samples each)\n", BENCH_SAMPLES);
	for (int k = 0; k < 3; k++) {
		struct source *src;
		struct engine *eng;
		uint32_t mask = groups[k] & ((1u << l->ngroups) - 1);
		struct engine_config cfg = { 0 };
		char what[96];

		setenv("PMUTOP_SCENARIO_DIR", SCENARIO_SRCDIR, 1);
		if (source_open_emu(test_emu("nehalem-ep:memory-bound"), false, &src, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		cfg = (struct engine_config){
			.core_ops = &msr_core_ops, .uncore_ops = &msr_uncore_ops,
			.topo = src->topo, .layout = l,
		.source_cfg = &(struct msr_source_config){ .dev = src->regs.dev }, .perfmon_version = 3,
			.gp_counters = 4, .gp_width = 48, .fixed_counters = 3, .fixed_width = 48,
			.interval_s = 1, .mux_s = mux[k], .groups = mask, .source = src->name,
			.clock = bench_wall,
		};
		if (engine_create(&cfg, &eng, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		bench_run(eng, src->topo->nonline, bench_gp_per_sample(l, mask), &r);
		r.writes_per_sample = -1;
		snprintf(what, sizeof(what), "nehalem-ep (16 threads, emulator), %s", names[k]);
		bench_print(what, &r);
		engine_free(eng);
		source_close(src);
	}
	for (int k = 0; k < 3; k++)
		if (bench_null_run(l, "pack:4 [numa] l3:1 core:128 pu:2", "synthetic 1024 threads",
				   groups[k], mux[k], names[k], 0, false))
			return 1;
	/*
	 * The per-register path by machine size, default group: the engine alone
	 * (null device), then with each access costing 2 us, about one pread of
	 * the msr driver with its IPI to the target CPU (an assumed figure: these
	 * machines have no msr device to time): the skew grows with the CPUs read
	 * one after the other.
	 */
	for (int n = 0; n < 3; n++)
		for (int c = 0; c < 3; c++) {
			static const char *const topos[] = { "pack:2 [numa] l3:1 core:4 pu:2",
							     "pack:2 [numa] l3:1 core:64 pu:2",
							     "pack:4 [numa] l3:1 core:128 pu:2" };
			static const char *const sizes[] = { "synthetic 16 threads",
							     "synthetic 256 threads",
							     "synthetic 1024 threads" };
			static const char *const how[] = { "default group",
							   "default group, 2 us per access",
							   "default group, 2 us per access, per-socket readers" };

			if (bench_null_run(l, topos[n], sizes[n], groups[0], mux[0], how[c],
					   c ? 2.0 : 0, c == 2))
				return 1;
		}
	layout_free(l);
	return 0;
}
