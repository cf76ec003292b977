/*
 * perfmon_plan: which of a platform's metrics can be counted together.  From
 * the metrics asked for, the core events each needs and the counters there
 * are, packs the metrics into passes (sets of events programmed at once,
 * taking turns when there are several), as the vendor's data constrains
 * them: general-purpose counters and the ones each event may use (Counter),
 * fixed counters (one event each), extra registers (MSRIndex/MSRValue: one
 * value per register, the offcore pair two), TakenAlone events one per
 * pass.  A metric's events all count in one pass, so its ratios are of the
 * same time.  A metric that cannot be counted says why (an uncore or power
 * event, a PEBS retire latency, an event the data does not list, more
 * events than counters).  Pure; any thread.
 */
#ifndef PMUTOP_PERFMON_PLAN_H
#define PMUTOP_PERFMON_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "perfmon.h"

#define PERFMON_PLAN_FIXED 4    /* fixed counters 0-3: instructions, cycles, reference, slots */
#define PERFMON_PLAN_MAX_GP 16
/*
 * The general-purpose events one metric may read (its events spread over
 * passes in a layout): Intel's widest, Sapphire Rapids'
 * Bottleneck_Other_Bottlenecks, reads 76.
 */
#define PERFMON_PLAN_METRIC_GP 128

/* What an event needs, as the plan reads the vendor's row. */
enum perfmon_need {
	PERFMON_NEED_GP,        /* a general-purpose counter */
	PERFMON_NEED_FIXED,     /* a fixed counter (which: perfmon_plan_fixed) */
	PERFMON_NEED_FREE,      /* nothing: the TSC, PERF_METRICS beside fixed counter 3 */
	PERFMON_NEED_SOCKET,    /* an uncore or power event: counted per socket, not here */
	PERFMON_NEED_NONE,      /* cannot be counted (the reason: perfmon_plan_why) */
};

struct perfmon_pass {
	int gp[PERFMON_PLAN_MAX_GP];       /* event variables on general-purpose counters */
	int ngp;
	int fixed[PERFMON_PLAN_FIXED];     /* the event on each fixed counter, or -1 */
	int nmetrics;
};

struct perfmon_plan {
	int gp_counters;                   /* the budget it was made for */
	struct perfmon_pass *passes;
	int npasses;
	int *metrics;                      /* the metrics asked for */
	int nmetrics;
	int *pass;                         /* per metric asked for: its pass, or -1 */
	bool *split;                       /* per metric asked for: its events in several passes */
	layout_groups *reads;              /* per metric asked for: the foreign groups it reads */
	char (*why)[200];                  /* per metric asked for, pass -1: why */
};

/* What event variable V of P needs (and for FIXED, which counter in *FIXED). */
enum perfmon_need perfmon_plan_need(const struct perfmon *p, int v, int *fixed, char *why,
				    size_t len);

/*
 * Pack the N metrics METRICS of P into passes on GP_COUNTERS general-purpose
 * counters (the counter lists of the vendor's rows are read with hyper-
 * threading on unless HT_OFF, which takes CounterHTOff where it is given).
 * 0 and *OUT (perfmon_plan_free), or -EINVAL with ERR (a counter budget
 * out of range).
 */
int perfmon_plan(const struct perfmon *p, const int *metrics, int n, int gp_counters, bool ht_off,
		 struct perfmon_plan **out, char *err, size_t errlen);

/*
 * How a plan is made for a layout (perfmon_layout): fixed counters 0-2 are
 * the layout's built-ins (always counted: no pass needs them), an
 * any-thread event of fixed counter 1 is its general-purpose twin (as the
 * kernel counts it), events of fixed counter 3 are built-ins where the
 * machine has it (PERFMON_PLAN_SLOTS), the offcore response pair and
 * MSR_PEBS_FRONTEND are programmed with their events (other extra
 * registers are not); and a metric wider than the counters has its
 * events spread over passes (split[i]: its figure mixes the passes' times).
 */
#define PERFMON_PLAN_LAYOUT 1u
/*
 * With PERFMON_PLAN_LAYOUT: the machine has fixed counter 3 and
 * MSR_PERF_METRICS (Ice Lake and later), so TOPDOWN.SLOTS and PERF_METRICS.*
 * are built-ins too (slots, topdown_*); without it they are unavailable.
 */
#define PERFMON_PLAN_SLOTS 2u

/* The extra register an event sets (MSRIndex): none, the offcore response pair, MSR_PEBS_FRONTEND. */
enum perfmon_extra { PERFMON_EXTRA_NONE, PERFMON_EXTRA_OFFCORE, PERFMON_EXTRA_FRONTEND,
		     PERFMON_EXTRA_OTHER };

enum perfmon_extra perfmon_plan_extra_kind(const struct perfmon_event *e);

/* The extra register value E sets (":ocr_msr_val=" overrides MSRValue), in BUF or E's; NULL none. */
const char *perfmon_plan_extra(const struct perfmon_event *e, char *buf, size_t len);

/*
 * The event codes that read MSR_OFFCORE_RSP_0 and _1 on P's platform (B7H
 * and BBH; 2AH and 2BH from Ice Lake-SP's OCR events on), into EV[2]: 0, or
 * -ENOENT when its data has none.
 */
int perfmon_plan_offcore_events(const struct perfmon *p, unsigned *ev);

/* Whether P's platform has fixed counter 3 (TOPDOWN.SLOTS) and so PERF_METRICS. */
bool perfmon_plan_has_slots(const struct perfmon *p);

/* perfmon_plan_need as a plan with FLAGS reads it (PERFMON_PLAN_LAYOUT: fixed 0-2 are FREE). */
enum perfmon_need perfmon_plan_need_for(const struct perfmon *p, int v, unsigned flags,
					int *fixed, char *why, size_t len);

/*
 * perfmon_plan with FLAGS (PERFMON_PLAN_*).  FOREIGN (NULL: none), per
 * event variable of P: the group of another plan (a layout's earlier keys)
 * that counts it, else -1.  A metric spread over passes reads an event
 * there rather than count it again (reads[i]: those groups, bit g).
 */
int perfmon_plan_flags(const struct perfmon *p, const int *metrics, int n, int gp_counters,
		       bool ht_off, unsigned flags, const int *foreign, struct perfmon_plan **out,
		       char *err, size_t errlen);

/*
 * The metrics of P that the words of LIST (comma-separated) name: the
 * vendor's metric groups (MetricGroup: TmaL1, MemoryBW, ...), metric names,
 * or "tree" (every node of the top-down tree).  0 with *OUT (malloc'd) and
 * *N, or -EINVAL with the unknown word in ERR.
 */
int perfmon_select(const struct perfmon *p, const char *list, int **out, int *n, char *err,
		   size_t errlen);

/* The general-purpose counters the vendor's rows of P name (hyper-threading on, or off). */
int perfmon_plan_counters(const struct perfmon *p, bool ht_off);

void perfmon_plan_free(struct perfmon_plan *pl);

#endif
