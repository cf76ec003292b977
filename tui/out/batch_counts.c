/*
 * batch_counts: every event's count beside the metrics (--counts with
 * --format csv or json), so that a user can hold pmutop's figures against
 * perf stat's: per event, the count as read over the time its group was
 * counted, and the count scaled to the whole interval (the same when the
 * group did not rotate).  Core events per thread and core (a core's is its
 * threads' sum, a per-core event's their mean); per-socket events per
 * socket; a channel's per channel.  The fixed counters come first.  A count
 * not taken is null (JSON) or empty (CSV), never 0.  JSON gives each
 * count's window_s, the seconds it was live (a thread's own interval for the
 * fixed counters): scaled = count x interval_s / window_s, and every figure
 * is its formula over the scaled counts and interval_s.  Main thread.
 */
#include "batch.h"
#include "expr.h"

#include <jansson.h>
#include <math.h>
#include <string.h>
#include <stdio.h>

/* The fixed counters, as the built-ins the engine fills per thread and core. */
static const struct {
	enum layout_builtin var;
	const char *event;
} batch_fixed[] = {
	{ LAYOUT_B_instructions, "INST_RETIRED.ANY (fixed counter 0)" },
	{ LAYOUT_B_cycles, "CPU_CLK_UNHALTED.THREAD (fixed counter 1)" },
	{ LAYOUT_B_ref_cycles, "CPU_CLK_UNHALTED.REF_TSC (fixed counter 2)" },
	/* Ice Lake and later, where the layout reads them: as perf stat's slots and topdown-* */
	{ LAYOUT_B_slots, "TOPDOWN.SLOTS (fixed counter 3; perf: slots)" },
	{ LAYOUT_B_topdown_retiring, "PERF_METRICS.RETIRING x slots (perf: topdown-retiring)" },
	{ LAYOUT_B_topdown_bad_spec, "PERF_METRICS.BAD_SPECULATION x slots (perf: topdown-bad-spec)" },
	{ LAYOUT_B_topdown_fe_bound, "PERF_METRICS.FRONTEND_BOUND x slots (perf: topdown-fe-bound)" },
	{ LAYOUT_B_topdown_be_bound, "PERF_METRICS.BACKEND_BOUND x slots (perf: topdown-be-bound)" },
	{ LAYOUT_B_topdown_heavy_ops, "PERF_METRICS.HEAVY_OPERATIONS x slots (perf: topdown-heavy-ops)" },
	{ LAYOUT_B_topdown_br_mispredict,
	  "PERF_METRICS.BRANCH_MISPREDICTS x slots (perf: topdown-br-mispredict)" },
	{ LAYOUT_B_topdown_fetch_lat, "PERF_METRICS.FETCH_LATENCY x slots (perf: topdown-fetch-lat)" },
	{ LAYOUT_B_topdown_mem_bound, "PERF_METRICS.MEMORY_BOUND x slots (perf: topdown-mem-bound)" },
};

#define BATCH_NFIXED (sizeof(batch_fixed) / sizeof(batch_fixed[0]))

/* Whether fixed entry F is in L's output: fixed counters 0-2 always, slots and fields where read. */
static bool batch_fixed_shown(const struct layout *l, size_t f)
{
	unsigned fields = layout_topdown_fields(l);

	if (f < 3)
		return true;
	if (batch_fixed[f].var == LAYOUT_B_slots)
		return fields > 0;
	return (unsigned)(batch_fixed[f].var - LAYOUT_TOPDOWN_VAR(0)) < fields;
}

/*
 * Fixed entry F's count as read on E: a thread's fixed counter (slots and the
 * PERF_METRICS shares scale with fixed counter 3), else the scaled sum.
 */
static double batch_fixed_raw(const struct sample_entity *e, size_t f)
{
	enum layout_builtin v = batch_fixed[f].var;

	if (isnan(e->window) || !(e->window > 0))
		return e->vars[v];
	if (v <= LAYOUT_B_ref_cycles)
		return e->fixed_raw[v];
	/*
	 * fixed counter 3 and the fields it splits: the share of its count, a
	 * whole count as perf's topdown-* give it (the kernel's slots x field /
	 * 0xff is an integer too)
	 */
	return isnan(e->fixed_raw[3]) ? NAN
	       : nearbyint(e->vars[v] * e->fixed_raw[3] / e->vars[LAYOUT_B_slots]);
}

/* The seconds fixed entry F's count on thread E covers: its counter's, or the thread's window. */
static double batch_fixed_window(const struct sample_entity *e, size_t f)
{
	enum layout_builtin v = batch_fixed[f].var;
	double w = e->fixed_window[v <= LAYOUT_B_ref_cycles ? (int)v : 3];

	return isnan(w) ? e->window : w;
}

bool batch_counts_at(const struct layout *l, int k, enum layout_scope scope)
{
	const struct layout_event *ev = &l->events[k];

	if (!layout_pmu_kinds[ev->pmu].per_socket)
		return scope == LAYOUT_THREAD || scope == LAYOUT_CORE;
	return ev->channel >= 0 ? scope == LAYOUT_CHANNEL : scope == LAYOUT_SOCKET;
}

static json_t *batch_counts_num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* A count as read: an integer (a per-core event's core count, its threads' mean, may not be one). */
static json_t *batch_counts_int(double v)
{
	if (!isnan(v) && fabs(v) < 9007199254740992.0 && v == floor(v))
		return json_integer((json_int_t)v);
	return batch_counts_num(v);
}

static json_t *batch_counts_one(const char *event, double count, double scaled, double window)
{
	json_t *o = json_object();

	json_object_set_new(o, "window_s", batch_counts_num(window));

	json_object_set_new(o, "event", json_string(event));
	json_object_set_new(o, "count", batch_counts_int(count));
	json_object_set_new(o, "scaled", batch_counts_num(scaled));
	return o;
}

/* What EV is, for a reader with perf stat beside: libpfm4's name, or the raw fields and the box. */
static void batch_counts_event(const struct layout_event *ev, char *buf, size_t len)
{
	if (ev->canonical) {
		snprintf(buf, len, "%s", ev->canonical);
		return;
	}
	if (layout_pmu_kinds[ev->pmu].free_running) {
		snprintf(buf, len, "%s %s (free-running)", layout_pmu_kinds[ev->pmu].name, ev->name);
		return;
	}
	snprintf(buf, len, "%s event=0x%02x,umask=0x%02llx%s%.0u%s%s%s", layout_pmu_kinds[ev->pmu].name,
		 ev->event, (unsigned long long)ev->umask, ev->cmask ? ",cmask=" : "", ev->cmask, ev->inv ? ",inv" : "",
		 ev->edge ? ",edge" : "", ev->any ? ",any" : "");
}

/*
 * Event K's name in the output: its own, or NAME@GROUP when an earlier event
 * has that name (the same event counted in several groups of a layout made
 * from the vendor's data: each group's count is its own), on its channel
 * (a channel's CAS counts in the groups of keys 9 and o).
 */
static const char *batch_counts_name(const struct layout *l, int k, char *buf, size_t len)
{
	for (int i = 0; i < k; i++)
		if (!strcmp(l->events[i].name, l->events[k].name) &&
		    (l->events[i].channel < 0 || l->events[i].channel == l->events[k].channel)) {
			snprintf(buf, len, "%s@%s", l->events[k].name,
				 l->groups[l->events[k].group].name);
			return buf;
		}
	return l->events[k].name;
}

/*
 * A core's count: its threads' counts summed (a core-wide event's, their
 * mean) to the nearest whole count, as perf stat --per-core prints it.
 */
static double batch_count_whole(double v, enum layout_scope scope)
{
	return scope == LAYOUT_CORE ? nearbyint(v) : v;
}

void batch_counts_each(const struct sample *s, const struct sample_entity *e,
		       enum layout_scope scope, batch_count_fn fn, void *ctx)
{
	const struct layout *l = s->layout;

	if (scope == LAYOUT_THREAD || scope == LAYOUT_CORE)
		for (size_t f = 0; f < BATCH_NFIXED; f++)
			if (batch_fixed_shown(l, f))
				fn(layout_builtin_names[batch_fixed[f].var], batch_fixed[f].event,
				   batch_count_whole(batch_fixed_raw(e, f), scope), e->vars[batch_fixed[f].var],
				   scope == LAYOUT_THREAD ? batch_fixed_window(e, f) : NAN, ctx);
	for (int k = 0; k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		char what[160];

		if (!batch_counts_at(l, k, scope))
			continue;
		/* a group that is off writes nothing (its state says off) */
		if (ev->group >= 0 && s->groups[ev->group].state == SAMPLE_GROUP_OFF)
			continue;
		/* a channel's own event: the others' of one name are one variable, not its count */
		if (scope == LAYOUT_CHANNEL && ev->channel >= 0 && ev->channel != e->index)
			continue;
		char name[200];

		batch_counts_event(ev, what, sizeof(what));
		fn(batch_counts_name(l, k, name, sizeof(name)), what,
		   e->raw ? batch_count_whole(e->raw[k], scope) : NAN,
		   e->vars[layout_event_var(l, k)], e->live ? e->live[k] : NAN, ctx);
	}
}

static void batch_counts_json_one(const char *name, const char *event, double count, double scaled,
				  double window, void *ctx)
{
	json_object_set_new(ctx, name, batch_counts_one(event, count, scaled, window));
}

json_t *batch_counts_json(const struct sample *s, const struct sample_entity *e,
			  enum layout_scope scope)
{
	json_t *o = json_object();

	batch_counts_each(s, e, scope, batch_counts_json_one, o);
	return o;
}

void batch_counts_csv_header(const struct layout *l, FILE *out)
{
	for (size_t f = 0; f < BATCH_NFIXED; f++)
		if (batch_fixed_shown(l, f))
			fprintf(out, ",count.%s,scaled.%s", layout_builtin_names[batch_fixed[f].var],
				layout_builtin_names[batch_fixed[f].var]);
	for (int k = 0; k < l->nevents; k++) {
		char name[200];

		batch_counts_name(l, k, name, sizeof(name));
		fprintf(out, ",count.%s,scaled.%s", batch_counts_name(l, k, name, sizeof(name)),
			batch_counts_name(l, k, name, sizeof(name)));
	}
}

int batch_counts_ncols(const struct layout *l)
{
	int n = 2 * l->nevents;

	for (size_t f = 0; f < BATCH_NFIXED; f++)
		n += batch_fixed_shown(l, f) ? 2 : 0;
	return n;
}

static void batch_counts_field(double v, FILE *out)
{
	if (isnan(v))
		fputc(',', out);
	else
		fprintf(out, ",%.17g", v);
}

void batch_counts_csv_row(const struct sample *s, const struct sample_entity *e,
			  enum layout_scope scope, FILE *out)
{
	const struct layout *l = s->layout;
	bool core = scope == LAYOUT_THREAD || scope == LAYOUT_CORE;

	for (size_t f = 0; f < BATCH_NFIXED; f++) {
		double v = core ? e->vars[batch_fixed[f].var] : NAN;

		if (!batch_fixed_shown(l, f))
			continue;
		batch_counts_field(v, out);
		batch_counts_field(v, out);
	}
	for (int k = 0; k < l->nevents; k++) {
		bool at = batch_counts_at(l, k, scope);

		batch_counts_field(at && e->raw ? e->raw[k] : NAN, out);
		batch_counts_field(at ? e->vars[layout_event_var(l, k)] : NAN, out);
	}
}

json_t *batch_counts_formulas(const struct layout *l)
{
	json_t *o = json_object();

	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		json_t *fo = json_object(), *reads = json_array();
		const int *vars;
		int nv;

		expr_vars(mt->expr, &vars, &nv);
		for (int i = 0; i < nv; i++) {
			char name[200];
			const char *what = NULL;

			if (vars[i] < LAYOUT_NBUILTINS)
				what = layout_builtin_names[vars[i]];
			for (int k = 0; k < l->nevents && !what; k++)
				if (layout_event_var(l, k) == vars[i])
					what = batch_counts_name(l, k, name, sizeof(name));
			for (int k = 0; k < l->nmetrics && !what; k++)
				if (layout_metric_var(l, k) == vars[i])
					what = l->metrics[k].name;
			if (what)
				json_array_append_new(reads, json_string(what));
		}
		json_object_set_new(fo, "formula", json_string(mt->formula));
		json_object_set_new(fo, "reads", reads);
		json_object_set_new(o, mt->name, fo);
	}
	return o;
}
