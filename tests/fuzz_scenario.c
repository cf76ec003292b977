/*
 * fuzz_scenario: the scenario parser, and the emulator running what it
 * accepts, against mutated scenario files (fuzz_lib.h says how it is built
 * and run).  Every input must either parse or fail with one line
 * "fuzz.scn:LINE:COL: ..."; an accepted one must drive the emulator through
 * a second of counting on every CPU within a bounded time (the work per
 * sample is bounded whatever the file says); nothing leaked, no sanitizer
 * report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu.h"
#include "emu_machine.h"
#include "fuzz_lib.h"
#include "pmu_regs.h"
#include "scenario.h"

/* CPU seconds the emulator may take for one emulated second of the worst scenario */
#define FUZZ_SCN_MAX_CPU_S 2.0

static int fuzz_one(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[512];
	struct scenario *sc = NULL;
	struct emu *e;
	clock_t t0;
	int rc;

	err[0] = 0;
	rc = scenario_parse(text, "fuzz.scn", &sc, err, sizeof(err));
	free(text);
	if (rc) {
		if (rc != -EINVAL || sc) {
			fprintf(stderr, "bad failure: rc %d, message '%s'\n", rc, err);
			abort();
		}
		fuzz_check_message(err, "fuzz.scn", 1);
		return 0;
	}
	if (sc->min_sockets > 2) {
		scenario_free(sc);
		return 1;
	}
	/* two sockets, the uncore: the widest use of the scenario's settings */
	e = emu_create_from(emu_machine_find("nehalem-ep"), sc);
	emu_set_clock(e, EMU_CLOCK_MANUAL);
	t0 = clock();
	for (int cpu = 0; cpu < 16; cpu++) {
		uint64_t v;

		emu_msr_write(e, cpu, IA32_PERFEVTSEL0, 0x4301C2); /* UOPS_RETIRED.ANY */
		emu_msr_write(e, cpu, IA32_FIXED_CTR_CTRL, 0x333);
		emu_msr_write(e, cpu, IA32_PERF_GLOBAL_CTRL, 0x700000001ull);
		emu_msr_write(e, cpu, MSR_UNCORE_PERFEVTSEL0, 0x40012C);
		emu_msr_write(e, cpu, MSR_UNCORE_PERF_GLOBAL_CTRL, 1);
		emu_advance(e, 1.0 / 16);
		emu_msr_read(e, cpu, IA32_PMC0, &v);
		emu_msr_read(e, cpu, MSR_UNCORE_PMC0, &v);
	}
	if ((double)(clock() - t0) / CLOCKS_PER_SEC > FUZZ_SCN_MAX_CPU_S) {
		fprintf(stderr, "an emulated second took %.1f s of CPU\n",
			(double)(clock() - t0) / CLOCKS_PER_SEC);
		abort();
	}
	emu_free(e);
	return 1;
}

#ifdef PMUTOP_LIBFUZZER
FUZZ_LIBFUZZER_TARGET(fuzz_one)
#else
int main(void)
{
	static const char *const tokens[] = {
		"=", "\n", " ", "#", "phase p 0.01\n", "phase q 0\n", "cpu all util=1\n",
		"channel all read_lines_per_s=1e9\n", "socket all ", "0-3", "socket:1", "*.0",
		"1e300", "-1", "nan", "inf", "noise 0.5\n", "noise_slot 0.01\n", "seed 1e300\n",
		"min_sockets 64\n", "\r", "\x1b[", ",", ".",
	};
	static const char *const seeds[] = {
		SCENARIO_SRCDIR "/memory-bound.scn", SCENARIO_SRCDIR "/numa-remote.scn",
		SCENARIO_SRCDIR "/unbalanced-channels.scn", SCENARIO_SRCDIR "/compute-bound.scn",
	};

	fuzz_loop("scenarios", seeds, sizeof(seeds) / sizeof(seeds[0]), 1500, tokens,
		  sizeof(tokens) / sizeof(tokens[0]), fuzz_one);
	return 0;
}
#endif
