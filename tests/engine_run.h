/*
 * engine_run: what the engine's Check programs share (check_engine.c, the
 * core; check_engine_uncore.c, the uncore; check_engine_perf.c, the perf
 * source over the emulated kernel): a run on an emulated machine with a
 * manual clock, and the truth of a metric written from the scenario's
 * quantities and the documents' definitions, independently of the
 * emulator's model; where physics bounds a quantity (a cycle with a uop has
 * at least one, so stall cycles >= 1 - uops per cycle) the bound is part of
 * the truth.
 */
#ifndef PMUTOP_ENGINE_RUN_H
#define PMUTOP_ENGINE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"
#include "engine.h"
#include "layout.h"
#include "scenario.h"
#include "source.h"

struct run {
	struct source *src;
	struct layout *l;
	struct engine *eng;
	double t;        /* seconds of emulated time since the start */
	double t_start;  /* start of the last sample's interval */
	uint32_t arch_events_absent; /* as CPUID.0AH would report (set before run_engine) */
	const bool *uncore_taken;    /* by socket (set before run_engine), or NULL */
};

/* The next run_source counts through perf: the emulated kernel over the emulated machine. */
extern bool run_perf;
/* The next run_engine's rotation period (0: the default) and its per-socket readers (0: one). */
extern double run_mux_s;
extern int run_readers;

/* The machines and scenarios the truth tests loop over, and their layouts. */
struct engine_case {
	const char *sim, *layout;
};

extern const struct engine_case cases[];
extern const int ncases;
#define NCASES ncases

/* A scenario of compute and memory phases, every CPU alike, of COMPUTE_S and MEMORY_S seconds. */
void phased_scenario_text(char *buf, size_t len, const char *compute_s, const char *memory_s);

double run_clock(void *ctx);

void run_source_path(struct run *r, const char *machine, const char *path);

void run_source(struct run *r, const char *sim);

void run_source_text(struct run *r, const char *machine, const char *text);

void run_engine_layout(struct run *r, const char *groups, double interval,
		       engine_clock_fn clock);

void run_engine_clock(struct run *r, const char *layout, const char *groups,
		      double interval, engine_clock_fn clock);

void run_engine(struct run *r, const char *layout, const char *groups, double interval);

void run_open(struct run *r, const char *sim, const char *layout, const char *groups,
	      double interval);

void run_source_perf(struct run *r, const char *sim);

void run_open_perf(struct run *r, const char *sim, const char *layout, const char *groups,
		   double interval);

void run_close(struct run *r);

const struct sample *run_sample(struct run *r);

void truth_hyperthreads(const struct run *r, double (*v)[SK_COUNT], int n, int self,
			       double *out);

double issue_share(const double *v);

void truth_cpu_at(const struct run *r, int cpu, int socket, double t, double *v,
		  double *sib_issue);

void truth_cpu_sib(const struct run *r, int cpu, int socket, double *v, double *sib_issue);

void truth_cpu(const struct run *r, int cpu, int socket, double *v);

void truth_unc(const struct run *r, int socket, int ch, double *v);

double ratio_or_nan(double x, double y);

double truth_uncore(const struct run *r, const char *name, const double *sk,
		    double (*c)[SK_COUNT], int nch);

double ghz_of(const struct run *r, const double *v);

double uops_retired(const double *v);

double stall_bound(double stall, double uops_per_cycle);

double port_rate(const double *v, int port, int nports);

double alu_rate(const double *v);

bool is_skylake(const struct run *r);

double truth_skylake(const char *name, const double *v);

double truth_skl_topdown(const struct run *r, int cpu, int socket, const char *name);

double truth_thread(const struct run *r, const char *name, const double *v);

double truth_core(const struct run *r, const char *name, double (*v)[SK_COUNT], int n);

bool close_enough(double got, double want, double rel, const char *unit, double base);

int check_uncore_truth(struct run *r, const struct sample *s, double rel);

bool key_group_off(const struct layout *l, const struct sample *s, int g);

int check_against_truth(struct run *r, const struct sample *s, double rel);

void same_figures(struct run *a, const struct sample *sa, struct run *b,
		  const struct sample *sb, int n, const char *how_a, const char *how_b);

#endif
