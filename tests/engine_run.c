/*
 * engine_run: the engine's Check programs' shared run and truth (engine_run.h).
 */
#include "engine_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cpuid.h"
#include "emu.h"
#include "emu_perf.h"
#include "engine.h"
#include "layout.h"
#include "msr.h"
#include "msr_source.h"
#include "pmu_regs.h"
#include "source_int.h"

/* ---- a run on an emulated machine with a manual clock ------------------- */

/* the next run_source counts through perf */
bool run_perf;

double run_clock(void *ctx)
{
	return ((struct run *)ctx)->t;
}

/*
 * The emulated machine of SIM ("machine:scenario") with the scenario's
 * noise turned off: its phases are steady, so the truth is exact.
 */
void run_source_path(struct run *r, const char *machine, const char *path)
{
	char err[512];
	struct scenario *sc;

	memset(r, 0, sizeof(*r));
	ck_assert_msg(scenario_load(path, &sc, err, sizeof(err)) == 0, "%s", err);
	sc->noise = 0;
	ck_assert_ptr_nonnull(emu_machine_find(machine));
	{
		struct emu *e = emu_create_from(emu_machine_find(machine), sc);

		/* manual from the start: emulated time 0 is the test's 0 */
		emu_set_clock(e, EMU_CLOCK_MANUAL);
		if (run_perf)
			ck_assert_msg(source_open_emu(e, true, &r->src, err, sizeof(err)) == 0,
				      "%s", err);
		else
			ck_assert_msg(source_open_emu(e, false, &r->src, err, sizeof(err)) == 0, "%s", err);
	}
}

void run_source(struct run *r, const char *sim)
{
	char machine[64], path[512];
	const char *colon = strchr(sim, ':');

	snprintf(machine, sizeof(machine), "%.*s", (int)(colon - sim), sim);
	snprintf(path, sizeof(path), "%s/%s.scn", SCENARIO_SRCDIR, colon + 1);
	run_source_path(r, machine, path);
}

/* MACHINE running the scenario TEXT (written to a temporary file). */
void run_source_text(struct run *r, const char *machine, const char *text)
{
	char path[] = "/tmp/pmutop-scn-XXXXXX.scn";
	int fd = mkstemps(path, 4);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	run_source_path(r, machine, path);
	unlink(path);
}

/* The rotation slice the next run_engine asks for (0: the default). */
double run_mux_s;
/* msr_source_config.readers for the next run_engine: 1 tries the per-socket readers on the emulator */
int run_readers;

/* The engine over R's source and layout R->l, groups GROUPS ("all" or names). */
void run_engine_layout(struct run *r, const char *groups, double interval,
		       engine_clock_fn clock)
{
	struct engine_config cfg = { 0 };
	char err[512];

	source_engine_config(r->src, &cfg);
	cfg.layout = r->l;
	cfg.uncore_taken = r->uncore_taken;
	cfg.arch_events_absent = r->arch_events_absent;
	cfg.channel_peak = r->src->dram_mts ? r->src->dram_mts * 8e6 : NAN;
	cfg.interval_s = interval;
	cfg.mux_s = run_mux_s;
	cfg.simulated = true;
	cfg.clock = clock;
	cfg.clock_ctx = r;
	r->src->regs.cfg.readers = run_readers; /* source_engine_config's, which cfg points at */
	for (int g = 0; g < r->l->ngroups; g++) {
		char words[256], *save = NULL;

		snprintf(words, sizeof(words), "%s", groups);
		for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			if (!strcmp(w, "all") || !strcmp(w, r->l->groups[g].name))
				cfg.groups |= LAYOUT_GROUP(g);
	}
	ck_assert_msg(engine_create(&cfg, &r->eng, err, sizeof(err)) == 0, "%s", err);
}

void run_engine_clock(struct run *r, const char *layout, const char *groups,
		      double interval, engine_clock_fn clock)
{
	char err[512], path[512];

	snprintf(path, sizeof(path), "%s/%s.layout", LAYOUT_SRCDIR, layout);
	ck_assert_msg(layout_load(path, &r->l, err, sizeof(err)) == 0, "%s", err);
	run_engine_layout(r, groups, interval, clock);
}

void run_engine(struct run *r, const char *layout, const char *groups, double interval)
{
	run_engine_clock(r, layout, groups, interval, run_clock);
}

void run_open(struct run *r, const char *sim, const char *layout, const char *groups,
	      double interval)
{
	run_source(r, sim);
	run_engine(r, layout, groups, interval);
}

/* run_source through perf: the emulated kernel over the emulated machine. */
void run_source_perf(struct run *r, const char *sim)
{
	run_perf = true;
	run_source(r, sim);
	run_perf = false;
}

/* run_open through perf. */
void run_open_perf(struct run *r, const char *sim, const char *layout, const char *groups,
		   double interval)
{
	run_source_perf(r, sim);
	run_engine(r, layout, groups, interval);
}

void run_close(struct run *r)
{
	engine_free(r->eng);
	source_close(r->src);
	layout_free(r->l);
}

/* Advance slice by slice until a sample is published; return it. */
const struct sample *run_sample(struct run *r)
{
	/* a baseline step, then the interval's slices (a whole number of rounds) */
	int most = 2 + (int)ceil(ENGINE_INTERVAL_MAX / ENGINE_MUX_MIN_S);

	r->t_start = r->t;
	for (int i = 0; i < most; i++) {
		double dt = engine_slice_s(r->eng);
		int rc;

		r->t += dt;
		emu_advance(r->src->emu, dt);
		rc = engine_step(r->eng);
		ck_assert_int_ge(rc, 0);
		if (rc == 1)
			return engine_latest(r->eng);
	}
	ck_abort_msg("no sample after %d slices", most);
	return NULL;
}

const struct engine_case cases[] = {
	{ "nehalem-ep:compute-bound", "nehalem" },
	{ "nehalem-ep:memory-bound", "nehalem" },
	{ "nehalem-ep:numa-remote", "nehalem" },
	{ "nehalem-ep:frontend-bound", "nehalem" },
	{ "nehalem-ep:idle", "nehalem" },
	{ "nehalem-ep:unbalanced-channels", "nehalem" },
	{ "westmere-ep:memory-bound", "westmere" },
	{ "westmere-ep:numa-remote", "westmere" },
	{ "arch:compute-bound", "arch" },
	{ "arch:memory-bound", "arch" },
	{ "skylake:compute-bound", "skylake" },
	{ "skylake:memory-bound", "skylake" },
	{ "skylake:frontend-bound", "skylake" },
	{ "skylake:idle", "skylake" },
	{ "core2:compute-bound", "core2" },
	{ "core2:frontend-bound", "core2" },
	{ "core2:false-sharing", "core2" },
};

const int ncases = (int)(sizeof(cases) / sizeof(cases[0]));

/*
 * Sample N of runs A and B, read two ways (HOW_A, HOW_B), gives the same
 * figure for every metric of every thread, and B's match the truth.
 */
void same_figures(struct run *a, const struct sample *sa, struct run *b,
		  const struct sample *sb, int n, const char *how_a, const char *how_b)
{
	int same = 0;

	ck_assert_int_eq(sa->nthreads, sb->nthreads);
	for (int i = 0; i < sa->nthreads; i++)
		for (int m = 0; m < a->l->nmetrics; m++) {
			double x = sample_metric(sa, &sa->threads[i], m);
			double y = sample_metric(sb, &sb->threads[i], m);

			if (isnan(x) && isnan(y))
				continue;
			ck_assert_msg(fabs(x - y) <= 1e-9 * fmax(1, fabs(x)), "sample %d CPU %d %s: "
				      "%g %s, %g %s", n, sa->threads[i].index, a->l->metrics[m].name, x,
				      how_a, y, how_b);
			same++;
		}
	ck_assert_int_gt(same, 50);
	ck_assert_int_gt(check_against_truth(b, sb, 0.03), 0);
}

/* Compute and memory phases (printf: the two phases' lengths in seconds). */
static const char phased_scenario[] =
	"pmutop-scenario 1\nname phased\ndescription compute and memory phases\nseed 1\nnoise 0\n"
	"phase compute %s\n"
	"cpu all util=1 ipc=2.2 uops_per_inst=1.1 issue_ratio=1.04 exec_ratio=1.05\n"
	"cpu all exec_stall=0.07 issue_stall=0.12 retire_stall=0.18 load_stall=0.01 "
	"rs_full_stall=0.03 store_stall=0.01 rob_full_stall=0.02 div_busy=0.04\n"
	"socket all local_reads_per_s=1e6 local_writes_per_s=5e5 read_latency_ns=70\n"
	"channel all read_lines_per_s=3e5 write_lines_per_s=1.5e5\n"
	"phase memory %s\n"
	"cpu all ipc=0.3 exec_stall=0.88 issue_stall=0.74 retire_stall=0.81 load_stall=0.33 "
	"rs_full_stall=0.21 store_stall=0.04 rob_full_stall=0.09 div_busy=0\n"
	"socket all local_reads_per_s=2.4e8 local_writes_per_s=1.1e8 read_latency_ns=95\n"
	"channel all read_lines_per_s=8e7 write_lines_per_s=3.6e7\n";

void phased_scenario_text(char *buf, size_t len, const char *compute_s, const char *memory_s)
{
	snprintf(buf, len, phased_scenario, compute_s, memory_s);
}
