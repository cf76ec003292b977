/*
 * who_td: the top-down level 1 per cgroup and process (who_int.h's
 * who_td).  The run's layout says what level 1 is on this CPU: the roots of
 * the vendor's tree (Frontend_Bound, Bad_Speculation, Backend_Bound,
 * Retiring on Intel's data; AMD's pipeline utilisation on Zen 4 and 5),
 * each a formula over built-ins, core events and other metrics.  The
 * events those formulas read, with "slots" and the topdown-* fields where
 * they read them, make one more perf group per counted CPU or process; the
 * formulas are evaluated on a cgroup's or a process's own counts by the
 * layout's own evaluation (sample_eval_metrics), as a CPU's are.  Where a formula needs what a cgroup
 * cannot be counted with (the time stamp counter, an uncore box, an event
 * that counts the whole core), level 1 is n/a with that reason.  Sampler
 * thread; who_td_init on the main thread.
 */
#include "expr.h"
#include "layout.h"
#include "sample.h"
#include "who_int.h"
#include "xmalloc.h"

#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHO_TD_DEPTH 64 /* metrics over metrics, as deep as a layout nests them */

/* The group's member for variable VAR (its index), adding it; -1 with why in W->td. */
static int who_td_member(struct who *w, int var)
{
	const struct layout *l = w->cfg.layout;
	struct who_td *td = &w->td;
	char why[200];

	for (int i = 0; i < td->nev; i++)
		if (td->var[i] == var)
			return i;
	if (td->nev >= PERF_GROUP_MAX) {
		snprintf(td->why, sizeof(td->why), "level 1 reads more than %d events, more than a "
			 "perf group holds", PERF_GROUP_MAX);
		return -1;
	}
	if (var >= LAYOUT_NBUILTINS) {
		const struct layout_event *ev = &l->events[var - LAYOUT_NBUILTINS];

		if (l->groups[ev->group].pmu != LAYOUT_PMU_CORE) {
			snprintf(td->why, sizeof(td->why), "level 1 reads %s, an uncore event: a cgroup "
				 "is counted on the cores only", ev->name);
			return -1;
		}
		if (ev->per_core || ev->any) {
			snprintf(td->why, sizeof(td->why), "level 1 reads %s, which counts both threads "
				 "of a core (AnyThread), not one cgroup's", ev->name);
			return -1;
		}
		if (perf_pmu_encode(w->cfg.perf_cpu, ev, &td->cfg[td->nev], why, sizeof(why))) {
			snprintf(td->why, sizeof(td->why), "%.199s", why);
			return -1;
		}
	} else if (var == LAYOUT_B_ref_cycles) {
		td->cfg[td->nev] = (struct perf_pmu_config){ .type = PERF_TYPE_HARDWARE,
							     .config = { PERF_COUNT_HW_REF_CPU_CYCLES } };
	} else {
		const char *name = var == LAYOUT_B_slots ? "slots"
				   : perf_topdown_events[var - LAYOUT_TOPDOWN_VAR(0)];

		if (perf_pmu_alias(w->cfg.perf_cpu, name, &td->cfg[td->nev])) {
			snprintf(td->why, sizeof(td->why), "level 1 reads the kernel's %s event, which "
				 "this kernel's cpu PMU has not (events/%s)", name, name);
			return -1;
		}
	}
	td->var[td->nev] = var;
	return td->nev++;
}

/* Add what metric M reads (and what the metrics it reads read); false with why in W->td. */
static bool who_td_need(struct who *w, int m, int depth)
{
	const struct layout *l = w->cfg.layout;
	const struct layout_metric *mt = &l->metrics[m];
	const int *vars;
	int nvars, metric0 = LAYOUT_NBUILTINS + l->nevents;

	if (mt->na) {
		snprintf(w->td.why, sizeof(w->td.why), "%s is not counted on this CPU: %.150s",
			 mt->name, mt->na);
		return false;
	}
	if (depth > WHO_TD_DEPTH || !mt->expr)
		return false;
	if (mt->group >= 0 && l->groups[mt->group].pmu != LAYOUT_PMU_CORE) {
		snprintf(w->td.why, sizeof(w->td.why), "%s is an uncore metric", mt->name);
		return false;
	}
	if (mt->group >= 0)
		w->td.groups |= LAYOUT_GROUP(mt->group);
	expr_vars(mt->expr, &vars, &nvars);
	for (int i = 0; i < nvars; i++) {
		int v = vars[i];

		if (v >= metric0) {
			if (!who_td_need(w, v - metric0, depth + 1))
				return false;
			continue;
		}
		switch (v) {
		case LAYOUT_B_instructions:
		case LAYOUT_B_cycles:
		case LAYOUT_B_seconds:
		case LAYOUT_B_threads:
			continue; /* the three events' group; per second; one thread's view */
		default:
			break;
		}
		if (v < LAYOUT_NBUILTINS && v != LAYOUT_B_ref_cycles && v != LAYOUT_B_slots &&
		    (v < LAYOUT_TOPDOWN_VAR(0) || v >= LAYOUT_TOPDOWN_VAR(PERF_METRICS_FIELDS))) {
			snprintf(w->td.why, sizeof(w->td.why), "%s reads %s (%s), which a cgroup is not "
				 "counted with", mt->name, layout_builtin_names[v],
				 v == LAYOUT_B_tsc || v == LAYOUT_B_tsc_hz ? "the time stamp counter"
				 : v == LAYOUT_B_core_threads ? "its core's other threads"
				 : "an uncore figure");
			return false;
		}
		if (who_td_member(w, v) < 0)
			return false;
	}
	return true;
}

/* Put "slots" first (the kernel wants it leading the topdown-* events), the fields next. */
static void who_td_order(struct who_td *td)
{
	int k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = k; i < td->nev; i++) {
			bool want = pass == 0 ? td->var[i] == LAYOUT_B_slots
				    : td->var[i] >= LAYOUT_TOPDOWN_VAR(0) &&
				      td->var[i] < LAYOUT_TOPDOWN_VAR(PERF_METRICS_FIELDS);

			if (want) {
				struct perf_pmu_config c = td->cfg[i];
				int v = td->var[i];

				memmove(&td->cfg[k + 1], &td->cfg[k], (size_t)(i - k) * sizeof(*td->cfg));
				memmove(&td->var[k + 1], &td->var[k], (size_t)(i - k) * sizeof(*td->var));
				td->cfg[k] = c;
				td->var[k++] = v;
			}
		}
}

void who_td_init(struct who *w)
{
	const struct layout *l = w->cfg.layout;
	struct who_td *td = &w->td;

	memset(td, 0, sizeof(*td));
	if (!w->cfg.count) {
		snprintf(td->why, sizeof(td->why), "%s", w->cfg.count_why ? w->cfg.count_why
			 : "counted per cgroup with --who");
		return;
	}
	if (!l || !w->cfg.perf_cpu) {
		snprintf(td->why, sizeof(td->why), "no layout with a top-down tree for this CPU");
		return;
	}
	if (w->cfg.cpu_type) {
		snprintf(td->why, sizeof(td->why), "a hybrid's P- and E-cores have trees of their own: "
			 "level 1 per cgroup is counted on one kind of core only, not here");
		return;
	}
	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		int nev = td->nev;

		if (mt->level != 1 || mt->parent >= 0)
			continue;
		if (td->n == WHO_TD_MAX)
			break;
		if (!who_td_need(w, m, 0)) {
			td->nev = nev;
			td->n = 0;
			return;
		}
		td->metric[td->n++] = m;
	}
	if (!td->n) {
		snprintf(td->why, sizeof(td->why), "the layout (%s) has no top-down tree: the vendor "
			 "publishes none for this CPU", l->name);
		return;
	}
	who_td_order(td);
	td->vars = xcalloc((size_t)layout_nvars(l), sizeof(double));
}

void who_td_free(struct who *w)
{
	free(w->td.vars);
	w->td.vars = NULL;
}

/* Whether group G's metrics are evaluated: those level 1 reads (CTX: W's who_td). */
static bool who_td_counted(const void *ctx, int g)
{
	const struct who_td *td = ctx;

	return td->groups & LAYOUT_GROUP(g);
}

void who_td_eval(struct who *w, const double *ev, const double *td_ev, double *out)
{
	const struct layout *l = w->cfg.layout;
	int nvars;

	for (int k = 0; k < WHO_TD_MAX; k++)
		out[k] = NAN;
	if (!w->td.n)
		return;
	nvars = layout_nvars(l);
	for (int i = 0; i < nvars; i++)
		w->td.vars[i] = NAN;
	/* per second: instructions and cycles from the three events, the rest from the group */
	w->td.vars[LAYOUT_B_instructions] = ev[WHO_INSTRUCTIONS];
	w->td.vars[LAYOUT_B_cycles] = ev[WHO_CYCLES];
	w->td.vars[LAYOUT_B_seconds] = 1;
	w->td.vars[LAYOUT_B_threads] = 1;
	for (int i = 0; i < w->td.nev; i++) {
		if (!isfinite(td_ev[i]))
			return;
		w->td.vars[w->td.var[i]] = td_ev[i];
	}
	/*
	 * the layout's own evaluation, in its order (a metric reads earlier ones):
	 * a cgroup's counts are summed over its CPUs, as a socket's are
	 */
	sample_eval_metrics(l, w->td.vars, LAYOUT_SOCKET, who_td_counted, &w->td);
	for (int k = 0; k < w->td.n; k++)
		out[k] = w->td.vars[layout_metric_var(l, w->td.metric[k])];
}

/*
 * The vendor's events for the loads or fills served by local and by remote
 * memory, by their names in Intel's and AMD's data: on Intel's servers the
 * retired loads that missed the L3 (MEM_LOAD_L3_MISS_RETIRED, D3H), on AMD
 * Zen 4 and 5 the demand fills of the data cache from DRAM or I/O of this
 * node or another (ls_dmnd_fills_from_sys, 43H), on Zen 2 and 3 the
 * refills from local or remote DRAM (ls_refills_from_sys).
 */
static const char *const who_rmt_pairs[][2] = {
	{ "MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM", "MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM" },
	{ "ls_dmnd_fills_from_sys.dram_io_near", "ls_dmnd_fills_from_sys.dram_io_far" },
	{ "ls_refills_from_sys.ls_mabresp_lcl_dram", "ls_refills_from_sys.ls_mabresp_rmt_dram" },
};

/* The layout's core event NAME, or NULL. */
static const struct layout_event *who_rmt_event(const struct layout *l, const char *name)
{
	for (int i = 0; i < l->nevents; i++)
		if (!strcmp(l->events[i].name, name) && l->groups[l->events[i].group].pmu ==
		    LAYOUT_PMU_CORE)
			return &l->events[i];
	return NULL;
}

void who_rmt_init(struct who *w)
{
	const struct layout *l = w->cfg.layout;
	struct who_rmt *r = &w->rmt;
	char why[200];

	memset(r, 0, sizeof(*r));
	if (!w->cfg.count) {
		snprintf(r->why, sizeof(r->why), "counted per cgroup with --who");
		return;
	}
	if (!l || !w->cfg.perf_cpu || w->cfg.cpu_type) {
		snprintf(r->why, sizeof(r->why), "%s", w->cfg.cpu_type
			 ? "a hybrid's core kinds have events of their own: not counted here"
			 : "no layout naming this CPU's events");
		return;
	}
	for (size_t p = 0; p < sizeof(who_rmt_pairs) / sizeof(who_rmt_pairs[0]); p++) {
		const struct layout_event *ev[2] = { who_rmt_event(l, who_rmt_pairs[p][0]),
						     who_rmt_event(l, who_rmt_pairs[p][1]) };

		if (!ev[0] || !ev[1])
			continue;
		for (int k = 0; k < 2; k++) {
			if (perf_pmu_encode(w->cfg.perf_cpu, ev[k], &r->cfg[k], why, sizeof(why))) {
				snprintf(r->why, sizeof(r->why), "%.159s", why);
				return;
			}
			snprintf(r->name[k], sizeof(r->name[k]), "%s", ev[k]->name);
		}
		r->on = true;
		return;
	}
	snprintf(r->why, sizeof(r->why), "the layout (%s) has no events for loads from local and "
		 "remote memory (a one-socket part, or the vendor publishes none)", l->name);
}
