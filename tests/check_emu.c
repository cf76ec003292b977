/*
 * Tests for the emulated machines at the register level: what software
 * that programs the PMU observes, checked against the documents (seed 000
 * Table 1 and Appendix II, seed 001, seed 004) and the scenario truth.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check_main.h"
#include "emu.h"
#include "emu_machine.h"
#include "emu_model.h"
#include "pmu_regs.h"

#define EN_USR_OS (EVTSEL_EN | EVTSEL_USR | EVTSEL_OS)

static uint64_t sel(unsigned event, unsigned umask, unsigned cmask, int inv, int edge, int any)
{
	return event | (uint64_t)umask << 8 | (uint64_t)cmask << 24 | (inv ? EVTSEL_INV : 0) |
	       (edge ? EVTSEL_EDGE : 0) | (any ? EVTSEL_ANY : 0) | EN_USR_OS;
}

static struct emu *make(const char *machine, const char *text)
{
	struct scenario *sc;
	char err[512];
	struct emu *e;

	ck_assert_msg(scenario_parse(text, "test.scn", &sc, err, sizeof(err)) == 0, "%s", err);
	e = emu_create_from(emu_machine_find(machine), sc);
	emu_set_clock(e, EMU_CLOCK_MANUAL);
	return e;
}

static void wr(struct emu *e, int cpu, uint32_t reg, uint64_t v)
{
	int rc = emu_msr_write(e, cpu, reg, v);

	ck_assert_msg(rc == 0, "write cpu %d reg 0x%x = 0x%llx: %d", cpu, reg, (unsigned long long)v, rc);
}

static uint64_t rd(struct emu *e, int cpu, uint32_t reg)
{
	uint64_t v = 0;
	int rc = emu_msr_read(e, cpu, reg, &v);

	ck_assert_msg(rc == 0, "read cpu %d reg 0x%x: %d", cpu, reg, rc);
	return v;
}

/* |A - B| <= TOL */
#define ck_near(a, b, tol) \
	ck_assert_msg(fabs((double)(a) - (double)(b)) <= (tol), "%s = %.6g, want %.6g +- %g", \
		      #a, (double)(a), (double)(b), (double)(tol))

#define STEADY "pmutop-scenario 1\nphase p 0\ncpu all util=1 ghz=2 kernel=0\n"

START_TEST(enable_needs_local_and_global_bits)
{
	struct emu *e = make("nehalem-ep", STEADY);

	wr(e, 0, IA32_PERFEVTSEL0, sel(0x3C, 0, 0, 0, 0, 0));
	emu_advance(e, 1);
	ck_assert_uint_eq(rd(e, 0, IA32_PMC0), 0); /* global bit off */
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_PMC(0));
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), 2e9, 1);
	wr(e, 0, IA32_PERFEVTSEL0, sel(0x3C, 0, 0, 0, 0, 0) & ~EVTSEL_EN);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), 2e9, 1); /* local bit off: frozen */
	wr(e, 0, IA32_PERFEVTSEL0, sel(0x3C, 0, 0, 0, 0, 0) & ~(EVTSEL_USR | EVTSEL_OS));
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), 2e9, 1); /* neither ring selected: nothing counts */
	ck_assert_uint_eq(rd(e, 1, IA32_PMC0), 0); /* other CPUs untouched */
	emu_free(e);
}
END_TEST

START_TEST(counter_wraps_at_its_width_and_sets_the_overflow_bit)
{
	struct emu *e = make("nehalem-ep", STEADY);

	/* a 32-bit write sign-extends to the counter width [SDM] */
	wr(e, 0, IA32_PMC0, 0xFFFFFFFFull);
	ck_assert_uint_eq(rd(e, 0, IA32_PMC0), pmu_width_mask(48));
	wr(e, 0, IA32_PERFEVTSEL0, sel(0x3C, 0, 0, 0, 0, 0));
	wr(e, 0, IA32_FIXED_CTR1, pmu_width_mask(48) - 9);
	wr(e, 0, IA32_FIXED_CTR_CTRL, (FIXED_CTRL_OS | FIXED_CTRL_USR) << FIXED_CTRL_SHIFT(1));
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_PMC(0) | GLOBAL_FIXED(1));
	ck_assert_uint_eq(rd(e, 0, IA32_PERF_GLOBAL_STATUS), 0);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), 2e9 - 1, 1);
	ck_near(rd(e, 0, IA32_FIXED_CTR1), 2e9 - 10, 1);
	ck_assert_uint_eq(rd(e, 0, IA32_PERF_GLOBAL_STATUS), GLOBAL_PMC(0) | GLOBAL_FIXED(1));
	wr(e, 0, IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_PMC(0));
	ck_assert_uint_eq(rd(e, 0, IA32_PERF_GLOBAL_STATUS), GLOBAL_FIXED(1));
	/* core 2 counters are 40 bits wide */
	emu_free(e);
	e = make("core2", STEADY);
	wr(e, 0, IA32_PMC0, 0xFFFFFFFFull);
	ck_assert_uint_eq(rd(e, 0, IA32_PMC0), pmu_width_mask(40));
	emu_free(e);
}
END_TEST

START_TEST(fixed_counters_follow_their_control_fields)
{
	struct emu *e = make("nehalem-ep", "pmutop-scenario 1\nphase p 0\n"
				       "cpu all util=0.5 ghz=2 ipc=1.5 kernel=0.1\n"
				       "cpu 8 util=0\n"); /* CPU 0 has its core to itself */
	uint64_t both = FIXED_CTRL_OS | FIXED_CTRL_USR;

	wr(e, 0, IA32_FIXED_CTR_CTRL, both | both << 4 | both << 8);
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_FIXED(0) | GLOBAL_FIXED(1) | GLOBAL_FIXED(2));
	wr(e, 1, IA32_FIXED_CTR_CTRL, FIXED_CTRL_USR << 4);
	wr(e, 1, IA32_PERF_GLOBAL_CTRL, GLOBAL_FIXED(1));
	emu_advance(e, 2);
	ck_near(rd(e, 0, IA32_FIXED_CTR1), 2e9, 2);          /* unhalted cycles */
	ck_near(rd(e, 0, IA32_FIXED_CTR0), 1.5 * 2e9, 2);    /* instructions */
	ck_near(rd(e, 0, IA32_FIXED_CTR2), 0.5 * 2 * 2.93e9, 2); /* reference cycles at TSC rate */
	ck_near(rd(e, 1, IA32_FIXED_CTR1), 0.9 * 2e9, 2);    /* user mode only */
	ck_assert_uint_eq(rd(e, 1, IA32_FIXED_CTR0), 0);     /* not enabled on CPU 1 */
	emu_free(e);
}
END_TEST

START_TEST(any_thread_counts_the_whole_core)
{
	/* CPUs 0 and 8 are the two threads of core 0 of socket 0 */
	struct emu *e = make("nehalem-ep", "pmutop-scenario 1\nphase p 0\n"
				       "cpu all ghz=2 kernel=0 ipc=1 uops_per_inst=1.2 issue_stall=0.6\n"
				       "cpu 0 util=0.6\ncpu 8 util=0.3\n"); /* together within the core */
	uint64_t both = FIXED_CTRL_OS | FIXED_CTRL_USR;

	wr(e, 0, IA32_FIXED_CTR_CTRL, (both | FIXED_CTRL_ANY) << 4);
	wr(e, 0, IA32_PERFEVTSEL0, sel(0xC2, 0x01, 0, 0, 0, 1));
	wr(e, 0, (IA32_PERFEVTSEL0 + 1), sel(0xC2, 0x01, 0, 0, 0, 0));
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_FIXED(1) | GLOBAL_PMC(0) | GLOBAL_PMC(1));
	wr(e, 8, (IA32_PERFEVTSEL0 + 1), sel(0xC2, 0x01, 0, 0, 0, 0));
	wr(e, 8, IA32_PERF_GLOBAL_CTRL, GLOBAL_PMC(1));
	emu_advance(e, 1);
	/*
	 * unhalted cycles with AnyThread: "core cycles when at least one thread on
	 * the physical core is not in halt state" (Intel's CPU_CLK_UNHALTED.THREAD_ANY):
	 * the union of the threads' unhalted time, each halting independently
	 */
	ck_near(rd(e, 0, IA32_FIXED_CTR1), (1 - 0.4 * 0.7) * 2e9, 2);
	/* an event that counts occurrences (uops) sums the threads' */
	ck_near(rd(e, 0, IA32_PMC0), rd(e, 0, (IA32_PMC0 + 1)) + rd(e, 8, (IA32_PMC0 + 1)), 2);
	ck_near(rd(e, 0, (IA32_PMC0 + 1)), 0.6 * 2e9 * 1.2, 2);
	emu_free(e);
}
END_TEST

/*
 * Hyper-threading: two busy threads share one core.  Each asks for issue in
 * 92 % of its cycles (the shipped compute-bound numbers): together they get
 * the core's cycles, no more; uop issue alternates, so the core's issue
 * cycles (AnyThread) are the threads' summed; each port dispatches at most
 * one uop a cycle and the divider is busy at most every cycle.  A thread
 * whose sibling is halted gets what it asked for.
 */
START_TEST(hyper_threads_share_the_core)
{
	struct emu *e = make("nehalem-ep", "pmutop-scenario 1\nphase p 0\n"
				       "cpu all util=1 ghz=2 kernel=0 ipc=2.6 uops_per_inst=1.05 "
				       "issue_ratio=1.02 exec_ratio=1.02 issue_stall=0.08 exec_stall=0.04 "
				       "retire_stall=0.12 port0=0.3 port1=0.2 port5=0.2 port2=0.2 "
				       "port3=0.05 port4=0.05 div_busy=0.7\n"
				       "cpu 9 util=0\n");
	const double cycles = 2e9;
	uint64_t issue[2], core_issue, p0[2], div[2], alone_issue;
	static const int cpus[2] = { 0, 8 };

	for (int i = 0; i < 2; i++) {
		int c = cpus[i];

		wr(e, c, IA32_PERFEVTSEL0, sel(0x0E, 0x01, 1, 0, 0, 0));     /* UOPS_ISSUED.ANY c=1 */
		wr(e, c, IA32_PERFEVTSEL0 + 1, sel(0xB1, 0x01, 0, 0, 0, 0)); /* UOPS_EXECUTED.PORT0 */
		wr(e, c, IA32_PERFEVTSEL0 + 2, sel(0x14, 0x01, 0, 0, 0, 0)); /* ARITH.CYCLES_DIV_BUSY */
		wr(e, c, IA32_PERFEVTSEL0 + 3, sel(0x0E, 0x01, 1, 0, 0, 1)); /* ... of the core */
		wr(e, c, IA32_PERF_GLOBAL_CTRL, 0xF);
	}
	wr(e, 1, IA32_PERFEVTSEL0, sel(0x0E, 0x01, 1, 0, 0, 0));
	wr(e, 1, IA32_PERF_GLOBAL_CTRL, 0x1);
	emu_advance(e, 1);
	for (int i = 0; i < 2; i++) {
		issue[i] = rd(e, cpus[i], IA32_PMC0);
		p0[i] = rd(e, cpus[i], IA32_PMC0 + 1);
		div[i] = rd(e, cpus[i], IA32_PMC0 + 2);
	}
	core_issue = rd(e, 0, IA32_PMC0 + 3);
	alone_issue = rd(e, 1, IA32_PMC0);
	/* 0.92 + 0.92 asked for: the core has 1 */
	ck_assert_double_le((double)issue[0] + (double)issue[1], cycles + 2);
	ck_near((double)issue[0] + (double)issue[1], (double)core_issue, 2);
	ck_near(core_issue, cycles, 2);
	/* issue binds (1.84 asked): each thread runs at 1 / 1.84 of its pace */
	ck_near(issue[0], cycles * 0.92 / 1.84, 2);
	/* port 0: 2.6 x 1.05 x 1.02 x 0.3 = 0.835 uops a cycle per thread asked */
	ck_near(p0[0], cycles * 2.6 * 1.05 * 1.02 * 0.3 / 1.84, 2);
	ck_assert_double_le((double)p0[0] + (double)p0[1], cycles + 2);
	ck_near(div[0], cycles * 0.7 / 1.84, 2);
	/* CPU 1's sibling (9) is halted: the core is its own */
	ck_near(alone_issue, cycles * 0.92, 2);
	emu_free(e);
}
END_TEST

/* Seed 000 Table 1: the stall encodings, and their identity with total cycles. */
START_TEST(table1_stall_encodings_add_up_to_total_cycles)
{
	struct emu *e = make("nehalem-ep", "pmutop-scenario 1\nphase p 0\n"
				       "cpu all util=0 ghz=2\n"
				       "cpu 0 util=0.5 ipc=1.6 exec_stall=0.3 stall_len=8 div_busy=0.1 "
				       "div_latency=20\n");
	uint64_t stall, active, total, count, count_first, core_stall, divs, div_busy;

	wr(e, 0, IA32_PERFEVTSEL0, sel(0xB1, 0x40, 1, 1, 0, 0)); /* PORT015_STALL_CYCLES */
	wr(e, 0, (IA32_PERFEVTSEL0 + 1), sel(0xB1, 0x40, 1, 0, 0, 0)); /* ... active cycles */
	wr(e, 0, (IA32_PERFEVTSEL0 + 2), sel(0x3C, 0x00, 2, 1, 0, 0)); /* CPU_CLK_UNHALTED.TOTAL_CYCLES */
	wr(e, 0, IA32_PERFEVTSEL0 + 3, sel(0xB1, 0x3F, 1, 1, 1, 1)); /* CORE_STALL_COUNT */
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0xF);
	emu_advance(e, 1.5);
	stall = rd(e, 0, IA32_PMC0);
	active = rd(e, 0, IA32_PMC0 + 1);
	total = rd(e, 0, IA32_PMC0 + 2);
	count_first = rd(e, 0, IA32_PMC0 + 3);
	ck_assert_uint_eq(stall + active, total);      /* exact, as on hardware */
	ck_near(total, 1.5 * 2e9, 1);                  /* all cycles, halted ones too */
	ck_near((double)stall / total, 0.5 + 0.5 * 0.3, 1e-6); /* halted cycles stall */

	wr(e, 0, IA32_PERFEVTSEL0, sel(0xB1, 0x3F, 1, 1, 0, 1)); /* CORE_STALL_CYCLES */
	wr(e, 0, (IA32_PERFEVTSEL0 + 1), sel(0x14, 0x01, 1, 1, 1, 0)); /* ARITH.DIV */
	wr(e, 0, (IA32_PERFEVTSEL0 + 2), sel(0x14, 0x01, 0, 0, 0, 0)); /* ARITH.CYCLES_DIV_BUSY */
	wr(e, 0, IA32_PMC0, 0);
	wr(e, 0, IA32_PMC0 + 1, 0);
	wr(e, 0, IA32_PMC0 + 2, 0);
	wr(e, 0, IA32_PMC0 + 3, 0);
	emu_advance(e, 1.5);
	core_stall = rd(e, 0, IA32_PMC0);
	count = rd(e, 0, IA32_PMC0 + 3);
	divs = rd(e, 0, IA32_PMC0 + 1);
	div_busy = rd(e, 0, IA32_PMC0 + 2);
	/* stall runs on the thread's unhalted cycles last stall_len on average */
	ck_assert(core_stall <= stall + 2);
	ck_near((double)count, 0.5 * 1.5 * 2e9 * ((double)core_stall / total - 0.5) / 0.5 / 8,
		1e-3 * count);
	/* the same encoding over the same 1.5 s counted the same before */
	ck_near((double)count_first, (double)count, 0.02 * count);
	ck_near((double)div_busy, 0.1 * 0.5 * 1.5 * 2e9, 2);
	ck_near((double)divs, div_busy / 20.0, 2);
	emu_free(e);
}
END_TEST

START_TEST(ports_add_up_to_executed_uops)
{
	/* the sibling is idle, so per-core port counts are this thread's */
	struct emu *e = make("nehalem-ep", "pmutop-scenario 1\nphase p 0\n"
				       "cpu all util=0 ghz=2\ncpu 0 util=1 ipc=1.6\n");
	uint64_t port[6], all, p015, p234;

	for (int half = 0; half < 2; half++) {
		for (int k = 0; k < 3; k++) {
			wr(e, 0, IA32_PERFEVTSEL0 + (unsigned)k, sel(0xB1, 1u << (3 * half + k), 0, 0, 0, 0));
			wr(e, 0, IA32_PMC0 + (unsigned)k, 0);
		}
		wr(e, 0, IA32_PERFEVTSEL0 + 3, sel(0xB1, 0x3F, 0, 0, 0, 1));
		wr(e, 0, IA32_PMC0 + 3, 0);
		wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0xF);
		emu_advance(e, 1);
		for (int k = 0; k < 3; k++)
			port[3 * half + k] = rd(e, 0, IA32_PMC0 + (unsigned)k);
		all = rd(e, 0, IA32_PMC0 + 3);
		wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0);
	}
	ck_near(port[0] + port[1] + port[2] + port[3] + port[4] + port[5], all, 6);
	ck_near(all, 2e9 * 1.6 * 1.1 * 1.05, 6); /* ipc x uops_per_inst x exec_ratio */
	wr(e, 0, IA32_PERFEVTSEL0, sel(0xB1, 0x40, 0, 0, 0, 0));
	wr(e, 0, (IA32_PERFEVTSEL0 + 1), sel(0xB1, 0x80, 0, 0, 0, 0));
	wr(e, 0, IA32_PMC0, 0);
	wr(e, 0, IA32_PMC0 + 1, 0);
	wr(e, 0, IA32_PMC0 + 3, 0);
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0xB);
	emu_advance(e, 1);
	p015 = rd(e, 0, IA32_PMC0);
	p234 = rd(e, 0, IA32_PMC0 + 1);
	ck_near(p015 + p234, rd(e, 0, IA32_PMC0 + 3), 3);
	emu_free(e);
}
END_TEST

START_TEST(unknown_encoding_counts_zero_and_is_logged)
{
	struct emu *e = make("nehalem-ep", STEADY);
	int n;

	wr(e, 0, IA32_PERFEVTSEL0, sel(0x77, 0x01, 0, 0, 0, 0));
	wr(e, 0, (IA32_PERFEVTSEL0 + 1), sel(0x3C, 0x00, 0, 0, 0, 0));
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 3);
	emu_advance(e, 1);
	ck_assert_uint_eq(rd(e, 0, IA32_PMC0), 0);
	ck_assert_uint_gt(rd(e, 0, (IA32_PMC0 + 1)), 0);
	ck_assert_ptr_nonnull(strstr(emu_unknown_events(e, &n), "0177"));
	ck_assert_int_eq(n, 1);
	emu_free(e);
}
END_TEST

#define MEMORY "pmutop-scenario 1\nphase p 0\n" \
	"socket all uncore_ghz=2.4 local_reads_per_s=3e8\n" \
	"channel all read_lines_per_s=8e7 write_lines_per_s=4e7\nchannel 0.1 read_lines_per_s=1.5e8\n"

START_TEST(nehalem_uncore_is_shared_by_the_socket)
{
	struct emu *e = make("nehalem-ep", MEMORY);

	/* programmed through CPU 0, read through CPU 9: both on socket 0 */
	wr(e, 0, MSR_UNCORE_PERFEVTSEL0, 0x2C | 0x01 << 8 | EVTSEL_EN);     /* NORMAL_READS.CH0 */
	wr(e, 0, MSR_UNCORE_PERFEVTSEL0 + 1, 0x2C | 0x02 << 8 | EVTSEL_EN); /* .CH1 */
	wr(e, 0, MSR_UNCORE_PERFEVTSEL0 + 2, 0x2F | 0x07 << 8 | EVTSEL_EN); /* WRITES.FULL.ANY */
	wr(e, 0, MSR_UNCORE_FIXED_CTR_CTRL, NHM_UNC_FIXED_EN);
	wr(e, 0, MSR_UNCORE_PERF_GLOBAL_CTRL, 0x7 | NHM_UNC_GLOBAL_FIXED);
	emu_advance(e, 2);
	ck_near(rd(e, 9, MSR_UNCORE_PMC0), 2 * 8e7, 1);
	ck_near(rd(e, 9, MSR_UNCORE_PMC0 + 1), 2 * 1.5e8, 1);
	ck_near(rd(e, 0, MSR_UNCORE_PMC0 + 2), 2 * 3 * 4e7, 1);
	ck_near(rd(e, 9, MSR_UNCORE_FIXED_CTR0), 2 * 2.4e9, 1);
	ck_assert_uint_eq(rd(e, 4, MSR_UNCORE_PMC0), 0); /* socket 1 was not programmed */
	ck_assert_uint_eq(rd(e, 4, MSR_UNCORE_PERF_GLOBAL_CTRL), 0);
	/* 48-bit uncore counters wrap into the status register */
	wr(e, 8, MSR_UNCORE_PMC0, pmu_width_mask(48) - 5);
	emu_advance(e, 1);
	ck_assert_uint_eq(rd(e, 0, MSR_UNCORE_PERF_GLOBAL_STATUS) & 1, 1);
	wr(e, 0, MSR_UNCORE_PERF_GLOBAL_OVF_CTRL, 1);
	ck_assert_uint_eq(rd(e, 0, MSR_UNCORE_PERF_GLOBAL_STATUS) & 1, 0);
	emu_free(e);
}
END_TEST

START_TEST(skylake_uncore_cbo_arb_and_imc)
{
	struct emu *e = make("skylake", "pmutop-scenario 1\nphase p 0\n"
				    "socket all uncore_ghz=3 l3_hit_lines_per_s=4e8 l3_miss_lines_per_s=1e8\n"
				    "channel all read_lines_per_s=3.125e8 write_lines_per_s=1e8\n");
	uint64_t sum = 0, cfg = 0;
	uint32_t base, reads0, reads1;

	ck_assert_int_eq(emu_mem_read(e, EMU_SKL_MCHBAR + SKL_IMC_DRAM_DATA_READS, &base, 4), 4);
	ck_assert_uint_eq(rd(e, 0, MSR_UNC_CBO_CONFIG), 5); /* 4 slices: software subtracts one */
	for (unsigned n = 0; n < 4; n++)
		wr(e, 0, MSR_UNC_CBO_0_PERFEVTSEL0 + SKL_UNC_CBO_STRIDE * n,
		   0x34 | 0x8F << 8 | EVTSEL_EN); /* CACHE_LOOKUP.ANY_MESI */
	wr(e, 0, MSR_UNC_ARB_PERFEVTSEL0 + 1, 0x81 | 0x01 << 8 | EVTSEL_EN); /* TRK_REQUESTS.ALL on ctr 1 */
	wr(e, 0, MSR_UNC_PERF_FIXED_CTRL, SKL_UNC_FIXED_CNT_EN);
	emu_advance(e, 1);
	ck_assert_uint_eq(rd(e, 3, MSR_UNC_CBO_0_PERFCTR0), 0); /* global EN (bit 29) still off */
	wr(e, 0, MSR_UNC_PERF_GLOBAL_CTRL, SKL_UNC_GLOBAL_EN);
	emu_advance(e, 1);
	for (unsigned n = 0; n < 4; n++)
		sum += rd(e, 3, MSR_UNC_CBO_0_PERFCTR0 + SKL_UNC_CBO_STRIDE * n);
	ck_near(sum, 4e8 + 1e8, 4);
	ck_near(rd(e, 0, MSR_UNC_ARB_PERFCTR1), 2 * 3.125e8 + 2 * 1e8, 1);
	ck_near(rd(e, 0, MSR_UNC_PERF_FIXED_CTR), 3e9, 1);
	/* IMC: BAR from PCI 0:0.0 offset 48H, free-running 32-bit counters */
	ck_assert_int_eq(emu_pci_config_read(e, SKL_IMC_BAR_PCI_OFFSET, &cfg, 8), 8);
	ck_assert_uint_eq(cfg & SKL_IMC_BAR_MASK, EMU_SKL_MCHBAR);
	ck_assert_int_eq(emu_mem_read(e, EMU_SKL_MCHBAR + SKL_IMC_DRAM_DATA_READS, &reads0, 4), 4);
	ck_near((uint32_t)(reads0 - base), 2 * 2 * 3.125e8, 1); /* 2 s, 2 channels */
	emu_advance(e, 10); /* 40 GB/s for 10 s: 6.25e9 lines, more than 2^32 */
	emu_mem_read(e, EMU_SKL_MCHBAR + SKL_IMC_DRAM_DATA_READS, &reads1, 4);
	/* the 32-bit counter moved by the count modulo 2^32 (+-1 for the floor): it wrapped once */
	ck_assert_int_le(abs((int32_t)((uint32_t)(reads1 - reads0) -
				       (uint32_t)((uint64_t)6.25e9 - (1ull << 32)))), 1);
	emu_free(e);
}
END_TEST

START_TEST(faults_missing_registers_and_offline_cpus)
{
	struct emu *e = make("nehalem-ep", STEADY);
	uint64_t v;

	ck_assert_int_eq(emu_msr_write(e, 0, IA32_PERFEVTSEL0, 1ull << 32), -EIO); /* reserved bits */
	ck_assert_int_eq(emu_msr_write(e, 0, IA32_PERF_GLOBAL_STATUS, 1), -EIO);  /* read-only */
	ck_assert_int_eq(emu_msr_write(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_PMC(4)), -EIO);
	ck_assert_int_eq(emu_msr_read(e, 0, 0x123, &v), -EIO);                   /* not implemented */
	ck_assert_int_eq(emu_msr_read(e, 0, MSR_OFFCORE_RSP_1, &v), -EIO);       /* Westmere only */
	ck_assert_int_eq(emu_msr_read(e, 0, MSR_UNC_PERF_GLOBAL_CTRL, &v), -EIO); /* Skylake only */
	ck_assert_int_eq(emu_msr_read(e, 99, IA32_PMC0, &v), -ENXIO);
	ck_assert_int_eq(emu_set_online(e, 5, 0), 0);
	ck_assert_int_eq(emu_msr_read(e, 5, IA32_PMC0, &v), -ENXIO);
	ck_assert_int_eq(emu_set_online(e, 5, 1), 0);
	ck_assert_int_eq(emu_msr_read(e, 5, IA32_PMC0, &v), 0);
	emu_free(e);
	e = make("westmere-ep", STEADY);
	ck_assert_int_eq(emu_msr_read(e, 0, MSR_OFFCORE_RSP_1, &v), 0);
	emu_free(e);
}
END_TEST

START_TEST(offcore_response_is_selected_by_msr_1a6)
{
	struct emu *e = make("nehalem-ep", "pmutop-scenario 1\nphase p 0\n"
				       "cpu all util=1 ghz=2 local_dram_read_lines_per_s=3e7 "
				       "remote_dram_read_lines_per_s=1e7\n");

	wr(e, 0, MSR_OFFCORE_RSP_0, 0x2001); /* DEMAND_DATA_RD . REMOTE_DRAM (seed 000 Table 9) */
	wr(e, 0, IA32_PERFEVTSEL0, sel(0xB7, 0x01, 0, 0, 0, 0));
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 1);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), 1e7, 1);
	wr(e, 0, MSR_OFFCORE_RSP_0, 0x6001); /* ... ANY_DRAM */
	wr(e, 0, IA32_PMC0, 0);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), 4e7, 1);
	emu_free(e);
}
END_TEST

/* Skylake CYCLE_ACTIVITY (A3H): cmask = umask counts cycles where all conditions hold. */
START_TEST(skylake_cycle_activity_stalls_nest_and_need_cmask_equal_umask)
{
	struct emu *e = make("skylake", "pmutop-scenario 1\nphase p 0\n"
				    "cpu all util=1 ghz=2 kernel=0 exec_stall=0.5 mem_stall=0.3 "
				    "l3_miss_stall=0.2\ncpu 1 mem_stall=0.7 l3_miss_stall=0.9\n"
				    "cpu 4-7 util=0\n"); /* the siblings halted: each core is one thread's */
	uint64_t total, mem, l3, inv;
	int n;

	wr(e, 0, IA32_PERFEVTSEL0, sel(0xA3, 0x04, 4, 0, 0, 0));      /* STALLS_TOTAL */
	wr(e, 0, IA32_PERFEVTSEL0 + 1, sel(0xA3, 0x14, 20, 0, 0, 0)); /* STALLS_MEM_ANY */
	wr(e, 0, IA32_PERFEVTSEL0 + 2, sel(0xA3, 0x06, 6, 0, 0, 0));  /* STALLS_L3_MISS */
	wr(e, 0, IA32_PERFEVTSEL0 + 3, sel(0xA3, 0x04, 4, 1, 0, 0));  /* not stalled */
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0xF);
	emu_advance(e, 1);
	total = rd(e, 0, IA32_PMC0);
	mem = rd(e, 0, IA32_PMC0 + 1);
	l3 = rd(e, 0, IA32_PMC0 + 2);
	inv = rd(e, 0, IA32_PMC0 + 3);
	ck_near(total, 0.5 * 2e9, 1);
	ck_near(mem, 0.3 * 2e9, 1);
	ck_near(l3, 0.2 * 2e9, 1);
	ck_near(total + inv, 2e9, 1); /* stall + active = cycles */
	emu_unknown_events(e, &n);
	ck_assert_int_eq(n, 0);

	/* a truth asking for more memory stalls than stalls gets the stalls */
	wr(e, 1, IA32_PERFEVTSEL0, sel(0xA3, 0x14, 20, 0, 0, 0));
	wr(e, 1, IA32_PERFEVTSEL0 + 1, sel(0xA3, 0x06, 6, 0, 0, 0));
	wr(e, 1, IA32_PERFEVTSEL0 + 2, sel(0xA3, 0x04, 1, 0, 0, 0)); /* cmask != umask */
	wr(e, 1, IA32_PERF_GLOBAL_CTRL, 0x7);
	emu_advance(e, 1);
	ck_near(rd(e, 1, IA32_PMC0), 0.5 * 2e9, 1);
	ck_near(rd(e, 1, IA32_PMC0 + 1), 0.5 * 2e9, 1);
	ck_assert_uint_eq(rd(e, 1, IA32_PMC0 + 2), 0);
	ck_assert_ptr_nonnull(strstr(emu_unknown_events(e, &n), "0x00000000010304a3"));
	emu_free(e);
}
END_TEST

/* Top-down level 1 from its four events: the shares add up to the slots. */
START_TEST(skylake_topdown_events_give_the_slot_shares)
{
	struct emu *e = make("skylake", "pmutop-scenario 1\nphase p 0\n"
				    "cpu all util=1 ghz=2 kernel=0 ipc=2 uops_per_inst=1 issue_ratio=1.1 "
				    "issue_stall=0.2 retire_stall=0.3 frontend_bound=0.2 bad_speculation=0.1\n"
				    "cpu 4-7 util=0\n");
	double slots = 4 * 2e9, fe, retiring, bad;

	wr(e, 0, IA32_PERFEVTSEL0, sel(0x9C, 0x01, 0, 0, 0, 0));     /* IDQ_UOPS_NOT_DELIVERED.CORE */
	wr(e, 0, IA32_PERFEVTSEL0 + 1, sel(0x0E, 0x01, 0, 0, 0, 0)); /* UOPS_ISSUED.ANY */
	wr(e, 0, IA32_PERFEVTSEL0 + 2, sel(0xC2, 0x02, 0, 0, 0, 0)); /* UOPS_RETIRED.RETIRE_SLOTS */
	wr(e, 0, IA32_PERFEVTSEL0 + 3, sel(0x0D, 0x01, 0, 0, 0, 0)); /* INT_MISC.RECOVERY_CYCLES */
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0xF);
	emu_advance(e, 1);
	fe = rd(e, 0, IA32_PMC0) / slots;
	retiring = rd(e, 0, IA32_PMC0 + 2) / slots;
	bad = ((double)rd(e, 0, IA32_PMC0 + 1) - (double)rd(e, 0, IA32_PMC0 + 2) +
	       4.0 * (double)rd(e, 0, IA32_PMC0 + 3)) / slots;
	ck_near(fe, 0.2, 1e-6);
	ck_near(retiring, 2 * 1.0 / 4, 1e-6);
	ck_near(bad, 0.1, 1e-6);
	ck_near(1 - fe - retiring - bad, 0.2, 1e-6); /* back-end bound */
	emu_free(e);
}
END_TEST

/*
 * Ice Lake and later: fixed counter 3 counts the pipeline's width of slots
 * per unhalted cycle (shared by busy siblings); MSR_PERF_METRICS gives each
 * level-1 (and from Sapphire Rapids level-2) node's share of the slots
 * since it was last written, in 255ths; it moves only while fixed counter 3
 * and its global enable (bit 48) count; PERF_CAPABILITIES bit 15 says it
 * exists, and older machines have neither.
 */
START_TEST(perf_metrics_give_the_slot_shares_since_the_last_clear)
{
	struct emu *e = make("sapphire-rapids", "pmutop-scenario 1\nphase p 0\n"
				    "cpu all util=1 ghz=2 kernel=0 ipc=1.5 uops_per_inst=1.2 "
				    "frontend_bound=0.2 bad_speculation=0.1 fetch_latency_share=0.5 "
				    "heavy_ops_share=0.25 mispredict_share=0.6\n"
				    "cpu 112-223 util=0\n"); /* CPU 0 alone on its core */
	uint64_t both = FIXED_CTRL_OS | FIXED_CTRL_USR, m, o;
	double ret = 1.5 * 1.2 / 6, fields[7] = { ret, 0.1, 0.2, 1 - ret - 0.3, ret * 0.25, 0.06,
						  0.1 };
	unsigned sum = 0;

	ck_assert(rd(e, 0, IA32_PERF_CAPABILITIES) & PERF_CAP_PERF_METRICS);
	wr(e, 0, IA32_FIXED_CTR_CTRL, both << 12);
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_FIXED(3)); /* PERF_METRICS not enabled yet */
	wr(e, 0, MSR_PERF_METRICS, 0x1234);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_FIXED_CTR0 + 3), 6 * 2e9, 2); /* 6 slots a cycle, core alone */
	ck_assert_uint_eq(rd(e, 0, MSR_PERF_METRICS), 0x1234); /* held: nothing counted */
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_FIXED(3) | GLOBAL_PERF_METRICS);
	emu_advance(e, 1);
	m = rd(e, 0, MSR_PERF_METRICS);
	for (int k = 0; k < 7; k++)
		ck_near(PERF_METRICS_FIELD(m, k), 255 * fields[k], 0.5 + 1e-9);
	for (int k = 0; k < 4; k++)
		sum += (unsigned)PERF_METRICS_FIELD(m, k);
	ck_assert_uint_ge(sum, 253); /* level 1 adds up, each field rounded */
	ck_assert_uint_le(sum, 257);
	/* a write starts afresh: the same shares again over the next second */
	wr(e, 0, MSR_PERF_METRICS, 0);
	emu_advance(e, 1);
	ck_assert_uint_eq(rd(e, 0, MSR_PERF_METRICS), m);
	emu_free(e);
	/* before Ice Lake: no register, no bit 48, no bit 15 */
	e = make("skylake-sp", STEADY);
	ck_assert_int_eq(emu_msr_read(e, 0, MSR_PERF_METRICS, &o), -EIO);
	ck_assert_int_eq(emu_msr_write(e, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_PERF_METRICS), -EIO);
	ck_assert_uint_eq(rd(e, 0, IA32_PERF_CAPABILITIES) & PERF_CAP_PERF_METRICS, 0);
	emu_free(e);
}
END_TEST

START_TEST(skylake_ports_0_to_7_add_up_to_dispatched_uops)
{
	struct emu *e = make("skylake", "pmutop-scenario 1\nphase p 0\n"
				    "cpu all util=1 ghz=2 kernel=0 ipc=2 uops_per_inst=1 exec_ratio=1\n"
				    "cpu all port0=0.2 port1=0.2 port2=0.15 port3=0.15 port4=0.05 port5=0.1 "
				    "port6=0.1 port7=0.05\ncpu 4-7 util=0\n");
	static const double share[8] = { 0.2, 0.2, 0.15, 0.15, 0.05, 0.1, 0.1, 0.05 };
	double sum = 0;

	for (int quarter = 0; quarter < 2; quarter++) {
		for (unsigned k = 0; k < 4; k++) {
			unsigned port = 4 * (unsigned)quarter + k;

			wr(e, 0, IA32_PERFEVTSEL0 + k, sel(0xA1, 1u << port, 0, 0, 0, 0));
			wr(e, 0, IA32_PMC0 + k, 0);
		}
		wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0xF);
		emu_advance(e, 1);
		for (unsigned k = 0; k < 4; k++) {
			uint64_t n = rd(e, 0, IA32_PMC0 + k);

			ck_near(n, 2e9 * 2 * share[4 * quarter + (int)k], 1);
			sum += (double)n;
		}
		wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0);
	}
	wr(e, 0, IA32_PERFEVTSEL0, sel(0xA1, 0xFF, 0, 0, 0, 0));
	wr(e, 0, IA32_PMC0, 0);
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 1);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), sum, 8);
	ck_near(sum, 2e9 * 2, 8); /* ipc x uops_per_inst x exec_ratio */
	emu_free(e);
}
END_TEST

/* Seed 003's Core 2 events: HIT#/HITM# drives, L1I misses, ITLB misses by page size. */
START_TEST(core2_bus_snoop_l1i_and_itlb_events)
{
	struct emu *e = make("core2", "pmutop-scenario 1\nphase p 0\n"
				 "cpu all util=1 ghz=3 kernel=0 ipc=1.5 snoop_hit_per_s=2e6 hitm_per_s=5e5 "
				 "l1i_miss_per_inst=0.004 itlb_miss_per_inst=0.0002 itlb_large_share=0.25\n");
	double inst = 1.5 * 3e9;
	int n;

	ck_assert_int_eq(emu_machine_find("core2")->gp_counters, 2);
	wr(e, 0, IA32_PERFEVTSEL0, sel(0x7A, 0x00, 0, 0, 0, 0));     /* BUS_HIT_DRV.THIS_AGENT */
	wr(e, 0, IA32_PERFEVTSEL0 + 1, sel(0x7B, 0x00, 0, 0, 0, 0)); /* BUS_HITM_DRV.THIS_AGENT */
	wr(e, 0, IA32_PERF_GLOBAL_CTRL, 0x3);
	emu_advance(e, 2);
	ck_near(rd(e, 0, IA32_PMC0), 2 * 2e6, 1);
	ck_near(rd(e, 0, IA32_PMC0 + 1), 2 * 5e5, 1);

	wr(e, 0, IA32_PERFEVTSEL0, sel(0x81, 0x00, 0, 0, 0, 0));     /* L1I_MISSES */
	wr(e, 0, IA32_PERFEVTSEL0 + 1, sel(0x82, 0x12, 0, 0, 0, 0)); /* ITLB.MISSES */
	wr(e, 0, IA32_PMC0, 0);
	wr(e, 0, IA32_PMC0 + 1, 0);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), inst * 0.004, 1);
	ck_near(rd(e, 0, IA32_PMC0 + 1), inst * 0.0002, 1);

	wr(e, 0, IA32_PERFEVTSEL0, sel(0x82, 0x02, 0, 0, 0, 0));     /* ITLB.SMALL_MISS */
	wr(e, 0, IA32_PERFEVTSEL0 + 1, sel(0x82, 0x10, 0, 0, 0, 0)); /* ITLB.LARGE_MISS */
	wr(e, 0, IA32_PMC0, 0);
	wr(e, 0, IA32_PMC0 + 1, 0);
	emu_advance(e, 1);
	ck_near(rd(e, 0, IA32_PMC0), inst * 0.0002 * 0.75, 1);
	ck_near(rd(e, 0, IA32_PMC0 + 1), inst * 0.0002 * 0.25, 1);
	emu_unknown_events(e, &n);
	ck_assert_int_eq(n, 0);

	/* ALL_AGENTS (umask 20H) needs the other die's truth: not modelled */
	wr(e, 0, IA32_PERFEVTSEL0, sel(0x7A, 0x20, 0, 0, 0, 0));
	wr(e, 0, IA32_PMC0, 0);
	emu_advance(e, 1);
	ck_assert_uint_eq(rd(e, 0, IA32_PMC0), 0);
	ck_assert_ptr_nonnull(strstr(emu_unknown_events(e, &n), "207a"));
	emu_free(e);
}
END_TEST

/*
 * Every row of the deeper tree's event table (emu_model_events.c) is the
 * vendor's event as Intel's perfmon data (data/intel/, which keeps the
 * events the metrics read) encodes it on each platform of its cores that
 * has it, and on one at least: the name, event code, umask and cmask; a
 * family's members (NAME, NAME.*, NAME_*) all within its umask; "NAME:u0xNN" the
 * vendor's event NAME asked with umask NN, as the vendor's metrics do.
 */
/* PLATFORM's file; "adl:atom": its E-cores' events (OtherCoreTypes), under "Events" as the P-cores'. */
static json_t *vendor_events(const char *platform)
{
	char path[512];
	json_error_t err;
	json_t *root, *atom;
	const char *colon = strchr(platform, ':');

	snprintf(path, sizeof(path), "%s/%.*s.json", PERFMON_SRCDIR,
		 colon ? (int)(colon - platform) : (int)strlen(platform), platform);
	root = json_load_file(path, 0, &err);
	ck_assert_msg(root, "%s: %s", path, err.text);
	if (!colon)
		return root;
	atom = json_object_get(json_object_get(json_object_get(root, "OtherCoreTypes"), "0x20"), "Events");
	ck_assert_msg(atom, "%s: no E-core events", path);
	atom = json_pack("{sO}", "Events", atom);
	json_decref(root);
	return atom;
}

static unsigned vendor_hex(const json_t *ev, const char *field)
{
	const char *t = json_string_value(json_object_get(ev, field));

	return t ? (unsigned)strtoul(t, NULL, 0) : 0;
}

/* A core event's umask with its UMaskExt as the second byte (version 6's UMASK2: Lion Cove). */
static unsigned vendor_umask(const json_t *ev)
{
	return vendor_hex(ev, "UMask") | vendor_hex(ev, "UMaskExt") << 8;
}

/*
 * An event's extra MSR value: an offcore response matrix (MSRIndex 1A6H) or
 * FRONTEND_RETIRED's MSR_PEBS_FRONTEND (3F7H), its MSRValue; else 0.
 */
static uint64_t vendor_offcore(const json_t *ev)
{
	const char *idx = json_string_value(json_object_get(ev, "MSRIndex"));
	const char *val = json_string_value(json_object_get(ev, "MSRValue"));
	unsigned long msr = idx ? strtoul(idx, NULL, 0) : 0;

	/* (the emulator keys FRONTEND_RETIRED by it; others that name 3F7H count without it) */
	return val && (msr == 0x1A6 || (msr == 0x3F7 && vendor_hex(ev, "EventCode") == 0xC6))
	       ? strtoull(val, NULL, 0) : 0;
}

START_TEST(event_table_rows_are_the_vendors_encodings)
{
	static const struct {
		const char *platform;
		enum emu_ports core;
		bool server;
	} platforms[] = {
		{ "icx", EMU_PORTS_SUNNY_COVE, true }, { "tgl", EMU_PORTS_SUNNY_COVE, false },
		{ "spr", EMU_PORTS_GOLDEN_COVE, true }, { "gnr", EMU_PORTS_GOLDEN_COVE, true },
		{ "adl", EMU_PORTS_GOLDEN_COVE, false }, { "lnl", EMU_PORTS_LION_COVE, false },
		{ "arl", EMU_PORTS_LION_COVE, false }, { "skx", EMU_PORTS_SKYLAKE, true },
		{ "skl", EMU_PORTS_SKYLAKE, false }, { "../amd/zen2", EMU_PORTS_ZEN, true },
		{ "../amd/zen3", EMU_PORTS_ZEN, true }, { "../amd/zen4", EMU_PORTS_ZEN, true },
		{ "../amd/zen5", EMU_PORTS_ZEN, true }, { "adl:atom", EMU_PORTS_GRACEMONT, false },
		{ "lnl:atom", EMU_PORTS_SKYMONT, false }, { "arl:atom", EMU_PORTS_SKYMONT, false },
	};
	size_t nrows = 0;
	unsigned found[512] = { 0 };

	for (size_t p = 0; p < sizeof(platforms) / sizeof(platforms[0]); p++) {
		json_t *root = vendor_events(platforms[p].platform);
		json_t *events = json_object_get(root, "Events");
		const char *name;
		unsigned event, umask, cmask, cores;
		uint64_t off;
		bool bits, srv;

		for (size_t i = 0; emu_model_event_row(i, &name, &event, &umask, &cmask, &bits, &cores,
						       &srv, &off); i++) {
			char base[128];
			const char *u = strstr(name, ":u0x");
			/* a metric's own matrix for a vendor event (ICX's OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=) */
			const char *o = strstr(name, ":ocr_msr_val=");
			const json_t *ev;

			nrows = i + 1;
			if (!(cores & (1u << platforms[p].core)) || (srv && !platforms[p].server))
				continue;
			snprintf(base, sizeof(base), "%.*s", u ? (int)(u - name) : o ? (int)(o - name)
							  : (int)strlen(name), name);
			if (bits) {
				const char *key;
				json_t *v;
				int members = 0;

				json_object_foreach(events, key, v)
					if (!strncmp(key, base, strlen(base)) &&
					    strchr("._", key[strlen(base)]) &&
					    vendor_hex(v, "EventCode") == event) {
						members++;
						ck_assert_msg(!(vendor_umask(v) & ~umask),
							      "%s: %s umask 0x%x outside the row's 0x%x",
							      platforms[p].platform, key,
							      vendor_umask(v), umask);
					}
				found[i] += members > 0;
				continue;
			}
			ev = json_object_get(events, base);
			if (!ev)
				continue;
			found[i]++;
			ck_assert_msg(vendor_hex(ev, "EventCode") == event, "%s: %s event code 0x%x, row 0x%x",
				      platforms[p].platform, name, vendor_hex(ev, "EventCode"), event);
			ck_assert_msg((u ? (unsigned)strtoul(u + 2, NULL, 16) : vendor_umask(ev)) == umask,
				      "%s: %s umask, row 0x%x", platforms[p].platform, name, umask);
			ck_assert_msg(vendor_hex(ev, "CounterMask") == cmask, "%s: %s cmask %u, row %u",
				      platforms[p].platform, name, vendor_hex(ev, "CounterMask"), cmask);
			ck_assert_msg((o ? strtoull(o + 13, NULL, 0) : vendor_offcore(ev)) == off,
				      "%s: %s offcore matrix 0x%llx, row 0x%llx", platforms[p].platform, name,
				      (unsigned long long)vendor_offcore(ev), (unsigned long long)off);
		}
		/*
		 * and the other way: every event of the platform the table answers
		 * (at the row's cmask: other cmasks ask the same distribution) is
		 * answered by the row of that very event, never by another's
		 */
		{
			const char *key;
			json_t *v;

			json_object_foreach(events, key, v) {
				int i;

				if (json_object_get(v, "Unit") || json_object_get(v, "Deprecated"))
					continue;
				i = emu_model_event_find(platforms[p].core, platforms[p].server,
							 vendor_hex(v, "EventCode"), vendor_umask(v),
							 vendor_offcore(v));
				if (i < 0)
					continue;
				emu_model_event_row((size_t)i, &name, &event, &umask, &cmask, &bits, &cores,
						    &srv, &off);
				if (vendor_hex(v, "CounterMask") != cmask)
					continue;
				/* a row of its own further on, for this name on these cores (Zen 2's names) */
				{
					const char *n2;
					unsigned e2, u2, c2, k2;
					uint64_t o2;
					bool b2, s2, own = false;

					for (size_t j = 0; emu_model_event_row(j, &n2, &e2, &u2, &c2, &b2, &k2, &s2, &o2);
					     j++)
						own |= !strcmp(n2, key) && e2 == event && u2 == umask &&
						       (k2 & (1u << platforms[p].core));
					if (own)
						continue;
				}
				/* the vendor's alias of the row's event (Ice Lake's ICACHE_16B.IFDATA_STALL) */
				if (!bits && json_object_get(events, name) &&
				    vendor_hex(json_object_get(events, name), "EventCode") == event &&
				    vendor_umask(json_object_get(events, name)) == umask &&
				    vendor_hex(json_object_get(events, name), "CounterMask") == cmask)
					continue;
				ck_assert_msg(bits ? !strncmp(key, name, strlen(name)) &&
						     strchr("._", key[strlen(name)])
						   : !strcmp(key, name) || (strstr(name, ":u0x") &&
						     !strncmp(key, name, (size_t)(strstr(name, ":u0x") - name))),
					      "%s: %s is answered by the row of %s", platforms[p].platform,
					      key, name);
			}
		}
		json_decref(root);
	}
	ck_assert_uint_gt(nrows, 40);
	ck_assert_uint_le(nrows, sizeof(found) / sizeof(found[0]));
	for (size_t i = 0; i < nrows; i++) {
		const char *name;
		unsigned event, umask, cmask, cores;
		uint64_t off;
		bool bits, srv;

		emu_model_event_row(i, &name, &event, &umask, &cmask, &bits, &cores, &srv, &off);
		ck_assert_msg(found[i] > 0, "no platform of its cores has %s", name);
	}
}
END_TEST

static Suite *emu_suite(void)
{
	Suite *s = suite_create("emu");

	CHECK_ADD(s, enable_needs_local_and_global_bits);
	CHECK_ADD(s, counter_wraps_at_its_width_and_sets_the_overflow_bit);
	CHECK_ADD(s, fixed_counters_follow_their_control_fields);
	CHECK_ADD(s, any_thread_counts_the_whole_core);
	CHECK_ADD(s, hyper_threads_share_the_core);
	CHECK_ADD(s, table1_stall_encodings_add_up_to_total_cycles);
	CHECK_ADD(s, ports_add_up_to_executed_uops);
	CHECK_ADD(s, unknown_encoding_counts_zero_and_is_logged);
	CHECK_ADD(s, nehalem_uncore_is_shared_by_the_socket);
	CHECK_ADD(s, skylake_uncore_cbo_arb_and_imc);
	CHECK_ADD(s, faults_missing_registers_and_offline_cpus);
	CHECK_ADD(s, offcore_response_is_selected_by_msr_1a6);
	CHECK_ADD(s, skylake_cycle_activity_stalls_nest_and_need_cmask_equal_umask);
	CHECK_ADD(s, skylake_topdown_events_give_the_slot_shares);
	CHECK_ADD(s, perf_metrics_give_the_slot_shares_since_the_last_clear);
	CHECK_ADD(s, skylake_ports_0_to_7_add_up_to_dispatched_uops);
	CHECK_ADD(s, core2_bus_snoop_l1i_and_itlb_events);
	CHECK_ADD(s, event_table_rows_are_the_vendors_encodings);
	return s;
}

CHECK_MAIN(emu_suite)
