/*
 * perfmon_plan: packing a platform's metrics into passes; see perfmon_plan.h.
 */
#include "perfmon_plan.h"
#include "perfmon_fields.h"
#include "expr.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fixed counters by the events Intel's "FIXED" rows (the Atom servers) name. */
static const struct {
	const char *event;
	int counter;
} perfmon_plan_fixed_names[] = {
	{ "INST_RETIRED.ANY", 0 },
	{ "CPU_CLK_UNHALTED.THREAD", 1 },
	{ "CPU_CLK_UNHALTED.CORE", 1 },
	{ "CPU_CLK_UNHALTED.REF_TSC", 2 },
	{ "TOPDOWN.SLOTS", 3 },
};

/* "0,1,2,3" -> bits 0-3; 0 when the text is not a list of counters. */
static unsigned perfmon_plan_mask(const char *list)
{
	unsigned mask = 0;

	if (!list || !isdigit((unsigned char)*list))
		return 0;
	while (*list) {
		char *end;
		unsigned long c = strtoul(list, &end, 10);

		if (end == list || c >= PERFMON_PLAN_MAX_GP)
			return 0;
		mask |= 1u << c;
		list = end;
		if (*list == ',')
			list++;
		else if (*list)
			return 0;
	}
	return mask;
}

static unsigned perfmon_plan_event_mask(const struct perfmon_event *e, bool ht_off)
{
	/* a fixed counter's event counted on its general-purpose twin: any counter (layout plans) */
	if (e->counter && !strncmp(e->counter, "Fixed counter ", 14))
		return (1u << PERFMON_PLAN_MAX_GP) - 1;
	return perfmon_plan_mask(ht_off && e->counter_ht_off ? e->counter_ht_off : e->counter);
}

enum perfmon_need perfmon_plan_need(const struct perfmon *p, int v, int *fixed, char *why,
				    size_t len)
{
	const struct perfmon_event *e = &p->events[v];

	*fixed = -1;
	if (strstr(e->name, ":retire_latency")) {
		snprintf(why, len, "%s is a PEBS retire latency, which pmutop does not sample",
			 e->name);
		return PERFMON_NEED_NONE;
	}
	if (!strcmp(e->base, "TSC"))
		return PERFMON_NEED_FREE;
	if (strstr(e->name, ":percore")) {
		snprintf(why, len, "%s is summed over a core's threads (perf's :percore), which pmutop "
			 "does not do", e->name);
		return PERFMON_NEED_NONE;
	}
	if (!perfmon_fields_known(e->name, why, len))
		return PERFMON_NEED_NONE;
	if (!strncmp(e->base, "PERF_METRICS.", 13)) {
		*fixed = 3; /* read beside fixed counter 3, TOPDOWN.SLOTS */
		return PERFMON_NEED_FIXED;
	}
	if ((e->listed && e->unit) || !strncmp(e->base, "UNC_", 4) ||
	    !strncmp(e->base, "FREERUN_", 8)) {
		snprintf(why, len, "%s is a %s%s event, counted per socket", e->name,
			 e->unit ? e->unit : "socket", e->unit ? " box" : "");
		return PERFMON_NEED_SOCKET;
	}
	if (!e->listed) {
		snprintf(why, len, "%s is not in Intel's event list for %s", e->name, p->platform);
		return PERFMON_NEED_NONE;
	}
	if (e->counter && !strncmp(e->counter, "Fixed counter ", 14)) {
		*fixed = atoi(e->counter + 14);
		if (*fixed < 0 || *fixed >= PERFMON_PLAN_FIXED) {
			snprintf(why, len, "%s is on %s, which pmutop does not know", e->name,
				 e->counter);
			return PERFMON_NEED_NONE;
		}
		return PERFMON_NEED_FIXED;
	}
	if (e->counter && !strcmp(e->counter, "FIXED")) {
		for (size_t i = 0; i < sizeof(perfmon_plan_fixed_names) /
				       sizeof(perfmon_plan_fixed_names[0]); i++)
			if (!strcmp(e->base, perfmon_plan_fixed_names[i].event)) {
				*fixed = perfmon_plan_fixed_names[i].counter;
				return PERFMON_NEED_FIXED;
			}
	}
	if (perfmon_plan_mask(e->counter))
		return PERFMON_NEED_GP;
	snprintf(why, len, "%s names counters '%s', which pmutop does not read", e->name,
		 e->counter ? e->counter : "(none)");
	return PERFMON_NEED_NONE;
}

enum perfmon_need perfmon_plan_need_for(const struct perfmon *p, int v, unsigned flags,
					int *fixed, char *why, size_t len)
{
	const struct perfmon_event *e = &p->events[v];
	enum perfmon_need need = perfmon_plan_need(p, v, fixed, why, len);
	char buf[48];

	if (!(flags & PERFMON_PLAN_LAYOUT))
		return need;
	if (need == PERFMON_NEED_GP && perfmon_plan_extra(e, buf, sizeof(buf)) &&
	    perfmon_plan_extra_kind(e) == PERFMON_EXTRA_OTHER) {
		snprintf(why, len, "%s needs MSR %s set, which pmutop does not program (it programs "
			 "the offcore response pair 1A6H/1A7H and MSR_PEBS_FRONTEND 3F7H)", e->name,
			 e->msr_index);
		return PERFMON_NEED_NONE;
	}
	if (need != PERFMON_NEED_FIXED)
		return need;
	if (*fixed == 3) {
		if (flags & PERFMON_PLAN_SLOTS)
			return PERFMON_NEED_FREE; /* the built-ins slots and topdown_* */
		snprintf(why, len, "%s is read through fixed counter 3 and PERF_METRICS, which this "
			 "machine does not have (CPUID leaf 0AH lists fewer than 4 fixed counters)",
			 e->name);
		return PERFMON_NEED_NONE;
	}
	if (e->any && !strcmp(e->any, "1"))
		return PERFMON_NEED_GP; /* AnyThread: the kernel counts it on a general-purpose counter */
	if (strchr(e->name, ':')) {
		snprintf(why, len, "%s: a fixed counter's event with modifiers", e->name);
		return PERFMON_NEED_NONE;
	}
	return PERFMON_NEED_FREE;
}

/* What occupies a fixed counter: PERF_METRICS.* and TOPDOWN.SLOTS share counter 3. */
static const char *perfmon_plan_fixed_key(const struct perfmon *p, int v)
{
	const struct perfmon_event *e = &p->events[v];

	if (!strncmp(e->base, "PERF_METRICS.", 13) || !strcmp(e->base, "TOPDOWN.SLOTS"))
		return "TOPDOWN.SLOTS";
	return e->name;
}

/* The extra register value an event sets (":ocr_msr_val=" overrides MSRValue), or NULL. */
/* Kuhn's augmenting path from event X over the counters MASKS allow (depth at most 16). */
static bool perfmon_plan_augment(const unsigned *masks, int x, unsigned *seen, int *owner)
{
	for (int c = 0; c < PERFMON_PLAN_MAX_GP; c++) {
		if (!(masks[x] & (1u << c)) || (*seen & (1u << c)))
			continue;
		*seen |= 1u << c;
		if (owner[c] < 0 || perfmon_plan_augment(masks, owner[c], seen, owner)) {
			owner[c] = x;
			return true;
		}
	}
	return false;
}

/* Can the GP events EV[0..N) each have their own counter (masks within BUDGET)? */
static bool perfmon_plan_match(const struct perfmon *p, const int *ev, int n, unsigned budget,
			       bool ht_off)
{
	unsigned masks[PERFMON_PLAN_MAX_GP];
	int owner[PERFMON_PLAN_MAX_GP];

	if (n > PERFMON_PLAN_MAX_GP)
		return false;
	for (int c = 0; c < PERFMON_PLAN_MAX_GP; c++)
		owner[c] = -1;
	for (int i = 0; i < n; i++)
		masks[i] = perfmon_plan_event_mask(&p->events[ev[i]], ht_off) & budget;
	for (int i = 0; i < n; i++) {
		unsigned seen = 0;

		if (!perfmon_plan_augment(masks, i, &seen, owner))
			return false;
	}
	return true;
}

/* What one metric needs: its general-purpose events and its fixed counters. */
struct perfmon_req {
	int gp[PERFMON_PLAN_METRIC_GP];
	int ngp;
	int fixed[PERFMON_PLAN_FIXED];
	bool wide;                         /* more events than counters: spread over passes */
	char why[200];                     /* "": countable */
};

static void perfmon_plan_req(const struct perfmon *p, int m, int gp_counters, bool ht_off,
			     unsigned flags, const double *known, bool *needed, struct perfmon_req *r)
{
	const int *vars;
	int nvars, big = 0;

	memset(r, 0, sizeof(*r));
	for (int f = 0; f < PERFMON_PLAN_FIXED; f++)
		r->fixed[f] = -1;
	expr_vars(p->metrics[m].formula, &vars, &nvars);
	for (int i = 0; i < nvars; i++)
		needed[vars[i]] = false;
	/* "A if HYPERTHREADING_ON else B": only the events of the branch taken here */
	expr_needed(p->metrics[m].formula, known, needed);
	for (int i = 0; i < nvars && !r->why[0]; i++) {
		int v = vars[i], fixed;
		enum perfmon_need need;

		if (v >= p->nevents || !needed[v])
			continue; /* a constant, or an event of a branch not taken */
		need = perfmon_plan_need_for(p, v, flags, &fixed, r->why, sizeof(r->why));
		if (need == PERFMON_NEED_FIXED) {
			if (r->fixed[fixed] >= 0 &&
			    strcmp(perfmon_plan_fixed_key(p, r->fixed[fixed]),
				   perfmon_plan_fixed_key(p, v)))
				snprintf(r->why, sizeof(r->why), "%s and %s both need fixed counter %d",
					 p->events[r->fixed[fixed]].name, p->events[v].name, fixed);
			r->fixed[fixed] = v;
		} else if (need == PERFMON_NEED_GP) {
			if (!(perfmon_plan_event_mask(&p->events[v], ht_off) &
			      ((1u << gp_counters) - 1)))
				snprintf(r->why, sizeof(r->why), "%s may use counters %s, none of the %d "
					 "here", p->events[v].name, p->events[v].counter, gp_counters);
			else if (r->ngp < PERFMON_PLAN_METRIC_GP)
				r->gp[r->ngp++] = v;
			else
				big++;
		}
	}
	if (!r->why[0] && big)
		snprintf(r->why, sizeof(r->why), "reads %d general-purpose events, more than %d",
			 r->ngp + big, PERFMON_PLAN_METRIC_GP);
	else if (!r->why[0] && r->ngp > gp_counters && (flags & PERFMON_PLAN_LAYOUT))
		r->wide = true;
	else if (!r->why[0] && r->ngp > gp_counters)
		snprintf(r->why, sizeof(r->why), "needs %d general-purpose counters at once, %d here",
			 r->ngp, gp_counters);
}

/* Whether the union U of GP events (N) keeps the extra registers and TakenAlone rules. */
static bool perfmon_plan_extras_ok(const struct perfmon *p, const int *u, int n)
{
	struct { const char *reg; char value[48]; } seen[PERFMON_PLAN_MAX_GP];
	int nseen = 0, alone = 0;

	for (int i = 0; i < n; i++) {
		const struct perfmon_event *e = &p->events[u[i]];
		char buf[48];
		const char *v = perfmon_plan_extra(e, buf, sizeof(buf));
		int regs = 1, distinct = 1;
		bool dup = false;

		alone += e->taken_alone;
		if (!v)
			continue;
		for (const char *c = e->msr_index; *c; c++)
			regs += *c == ','; /* "0x1a6,0x1a7": the offcore pair holds two values */
		for (int k = 0; k < nseen; k++)
			if (!strcmp(seen[k].reg, e->msr_index)) {
				if (!strcmp(seen[k].value, v))
					dup = true;
				else
					distinct++;
			}
		if (dup)
			continue;
		if (distinct > regs)
			return false;
		seen[nseen].reg = e->msr_index;
		snprintf(seen[nseen].value, sizeof(seen[nseen].value), "%s", v);
		nseen++;
	}
	return alone <= 1;
}

/* Whether metric requirement R joins pass PS on BUDGET; the union in U (NU). */
static bool perfmon_plan_fits(const struct perfmon *p, const struct perfmon_pass *ps,
			      const struct perfmon_req *r, int gp_counters, bool ht_off, int *u,
			      int *nu)
{
	*nu = 0;
	for (int i = 0; i < ps->ngp; i++)
		u[(*nu)++] = ps->gp[i];
	for (int i = 0; i < r->ngp; i++) {
		bool have = false;

		for (int k = 0; k < ps->ngp; k++)
			have |= ps->gp[k] == r->gp[i];
		if (have)
			continue;
		if (*nu >= gp_counters)
			return false;
		u[(*nu)++] = r->gp[i];
	}
	for (int f = 0; f < PERFMON_PLAN_FIXED; f++)
		if (ps->fixed[f] >= 0 && r->fixed[f] >= 0 &&
		    strcmp(perfmon_plan_fixed_key(p, ps->fixed[f]), perfmon_plan_fixed_key(p, r->fixed[f])))
			return false;
	return perfmon_plan_match(p, u, *nu, (1u << gp_counters) - 1, ht_off) &&
	       perfmon_plan_extras_ok(p, u, *nu);
}

/* A new pass of PL, empty; its index. */
static int perfmon_plan_new_pass(struct perfmon_plan *pl)
{
	struct perfmon_pass empty = { .ngp = 0 };

	for (int f = 0; f < PERFMON_PLAN_FIXED; f++)
		empty.fixed[f] = -1;
	pl->passes = xrealloc(pl->passes, (size_t)pl->npasses + 1, sizeof(*pl->passes));
	pl->passes[pl->npasses] = empty;
	return pl->npasses++;
}

/* Whether pass PS counts GP event V. */
static bool perfmon_plan_has(const struct perfmon_pass *ps, int v)
{
	for (int e = 0; e < ps->ngp; e++)
		if (ps->gp[e] == v)
			return true;
	return false;
}

/* Add GP event V to pass AT of PL when it fits there; whether it did. */
static bool perfmon_plan_join(const struct perfmon *p, struct perfmon_plan *pl, int at, int v,
			      bool ht_off)
{
	struct perfmon_req one = { .gp = { v }, .ngp = 1 };
	int u[PERFMON_PLAN_MAX_GP], nu = 0;

	for (int f = 0; f < PERFMON_PLAN_FIXED; f++)
		one.fixed[f] = -1;
	if (!perfmon_plan_fits(p, &pl->passes[at], &one, pl->gp_counters, ht_off, u, &nu))
		return false;
	memcpy(pl->passes[at].gp, u, sizeof(int) * (size_t)nu);
	pl->passes[at].ngp = nu;
	return true;
}

/*
 * Metric I of PL, wider than the counters (R): each of its events in a pass
 * that counts it already, else read in the FOREIGN group that counts it
 * (reads[i]), else in the first pass with room, else in a new one (the
 * fewest passes: each takes a larger share of the time).  Its figure mixes
 * the passes' times (split[i]).  Its pass is the first of its own that
 * counts one of its events (the last pass when the others count them all).
 */
static void perfmon_plan_spread(const struct perfmon *p, struct perfmon_plan *pl, int i,
				const struct perfmon_req *r, bool ht_off, const int *foreign)
{
	pl->split[i] = true;
	for (int k = 0; k < r->ngp; k++) {
		int at = -1;

		for (int s = 0; s < pl->npasses && at < 0; s++)
			if (perfmon_plan_has(&pl->passes[s], r->gp[k]))
				at = s;
		/* counted by another plan's group already: read there (where this one has a pass) */
		if (at < 0 && foreign && foreign[r->gp[k]] >= 0 && pl->npasses) {
			pl->reads[i] |= UINT64_C(1) << foreign[r->gp[k]];
			continue;
		}
		for (int s = 0; s < pl->npasses && at < 0; s++)
			if (perfmon_plan_join(p, pl, s, r->gp[k], ht_off))
				at = s;
		if (at < 0) {
			at = perfmon_plan_new_pass(pl);
			perfmon_plan_join(p, pl, at, r->gp[k], ht_off);
		}
		if (pl->pass[i] < 0) {
			pl->pass[i] = at;
			pl->passes[at].nmetrics++;
		}
	}
	if (pl->pass[i] < 0) { /* every event read elsewhere: written with the last pass */
		pl->pass[i] = pl->npasses - 1;
		pl->passes[pl->pass[i]].nmetrics++;
	}
}

int perfmon_plan(const struct perfmon *p, const int *metrics, int n, int gp_counters, bool ht_off,
		 struct perfmon_plan **out, char *err, size_t errlen)
{
	return perfmon_plan_flags(p, metrics, n, gp_counters, ht_off, 0, NULL, out, err, errlen);
}

int perfmon_plan_flags(const struct perfmon *p, const int *metrics, int n, int gp_counters,
		       bool ht_off, unsigned flags, const int *foreign, struct perfmon_plan **out,
		       char *err, size_t errlen)
{
	struct perfmon_plan *pl;
	struct perfmon_req *req;
	double *known;
	bool *needed;
	int *order;

	*out = NULL;
	if (gp_counters < 1 || gp_counters > PERFMON_PLAN_MAX_GP) {
		snprintf(err, errlen, "%d general-purpose counters: from 1 to %d", gp_counters,
			 PERFMON_PLAN_MAX_GP);
		return -EINVAL;
	}
	pl = xcalloc(1, sizeof(*pl));
	pl->gp_counters = gp_counters;
	pl->nmetrics = n;
	pl->metrics = xcalloc((size_t)n + 1, sizeof(*pl->metrics));
	pl->pass = xcalloc((size_t)n + 1, sizeof(*pl->pass));
	pl->why = xcalloc((size_t)n + 1, sizeof(*pl->why));
	pl->split = xcalloc((size_t)n + 1, sizeof(*pl->split));
	pl->reads = xcalloc((size_t)n + 1, sizeof(*pl->reads));
	req = xcalloc((size_t)n + 1, sizeof(*req));
	order = xcalloc((size_t)n + 1, sizeof(*order));
	known = xcalloc((size_t)PERFMON_NVARS(p), sizeof(*known));
	needed = xcalloc((size_t)PERFMON_NVARS(p), sizeof(*needed));
	for (int v = 0; v < PERFMON_NVARS(p); v++)
		known[v] = NAN;
	known[PERFMON_VAR_CONST(p, PERFMON_HYPERTHREADING_ON)] = !ht_off;
	known[PERFMON_VAR_CONST(p, PERFMON_THREADS_PER_CORE)] = ht_off ? 1 : 2;
	for (int i = 0; i < n; i++) {
		pl->metrics[i] = metrics[i];
		pl->pass[i] = -1;
		perfmon_plan_req(p, metrics[i], gp_counters, ht_off, flags, known, needed, &req[i]);
		order[i] = i;
	}
	free(known);
	free(needed);
	/* the widest first (first fit decreasing), stable: insertion sort on the event count */
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && req[order[k]].ngp > req[order[k - 1]].ngp; k--) {
			int t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (int oi = 0; oi < n; oi++) {
		int i = order[oi], u[PERFMON_PLAN_MAX_GP], nu, at = -1;
		struct perfmon_pass *ps;

		if (req[i].why[0]) {
			snprintf(pl->why[i], sizeof(pl->why[i]), "%s", req[i].why);
			continue;
		}
		if (req[i].wide)
			continue; /* after the others, into their passes where it can */
		if ((flags & PERFMON_PLAN_LAYOUT) && !req[i].ngp)
			continue; /* built-ins only (PERF_METRICS too): always counted, no pass */
		for (int k = 0; k < pl->npasses && at < 0; k++)
			if (perfmon_plan_fits(p, &pl->passes[k], &req[i], gp_counters, ht_off, u, &nu))
				at = k;
		if (at < 0) {
			struct perfmon_pass empty = { .ngp = 0 };

			for (int f = 0; f < PERFMON_PLAN_FIXED; f++)
				empty.fixed[f] = -1;
			if (!perfmon_plan_fits(p, &empty, &req[i], gp_counters, ht_off, u, &nu)) {
				snprintf(pl->why[i], sizeof(pl->why[i]), "its %d events cannot share the "
					 "counters (the counters each may use, an extra register or "
					 "two events that must be alone)", req[i].ngp);
				continue;
			}
			at = perfmon_plan_new_pass(pl);
		}
		ps = &pl->passes[at];
		memcpy(ps->gp, u, sizeof(int) * (size_t)nu);
		ps->ngp = nu;
		for (int f = 0; f < PERFMON_PLAN_FIXED; f++)
			if (req[i].fixed[f] >= 0 && ps->fixed[f] < 0)
				ps->fixed[f] = req[i].fixed[f];
		ps->nmetrics++;
		pl->pass[i] = at;
	}
	for (int oi = 0; oi < n; oi++)
		if (req[order[oi]].wide)
			perfmon_plan_spread(p, pl, order[oi], &req[order[oi]], ht_off, foreign);
	free(req);
	free(order);
	*out = pl;
	return 0;
}

int perfmon_plan_counters(const struct perfmon *p, bool ht_off)
{
	unsigned all = 0;
	int n = 0;

	for (int v = 0; v < p->nevents; v++)
		if (!p->events[v].unit) /* the core's counters, not a box's (nor a fixed one) */
			all |= perfmon_plan_mask(ht_off && p->events[v].counter_ht_off
						 ? p->events[v].counter_ht_off : p->events[v].counter);
	while (n < PERFMON_PLAN_MAX_GP && (all >> n))
		n++;
	return n;
}

/* Whether the MetricGroup list GROUPS ("A;B;C") holds WORD (LEN bytes). */
static bool perfmon_plan_in_groups(const char *groups, const char *word, size_t len)
{
	while (groups && *groups) {
		size_t n = strcspn(groups, ";");

		if (n == len && !strncmp(groups, word, len))
			return true;
		groups += n + (groups[n] == ';');
	}
	return false;
}

int perfmon_select(const struct perfmon *p, const char *list, int **out, int *n, char *err,
		   size_t errlen)
{
	char *picked = xcalloc((size_t)p->nmetrics + 1, 1);

	*out = NULL;
	*n = 0;
	while (*list) {
		size_t len = strcspn(list, ",");
		bool any = false;

		for (int m = 0; m < p->nmetrics; m++) {
			const struct perfmon_metric *pm = &p->metrics[m];
			bool hit = (len == 4 && !strncmp(list, "tree", 4) &&
				    perfmon_in_tree(pm)) ||
				   perfmon_plan_in_groups(pm->groups, list, len) ||
				   (strlen(pm->name) == len && !strncmp(pm->name, list, len));

			if (hit)
				picked[m] = 1;
			any |= hit;
		}
		if (!any) {
			snprintf(err, errlen, "%s has no metric or metric group '%.*s' (pmutop "
				 "--list-metrics lists them, with their groups)", p->platform, (int)len,
				 list);
			free(picked);
			return -EINVAL;
		}
		list += len + (list[len] == ',');
	}
	*out = xcalloc((size_t)p->nmetrics + 1, sizeof(**out));
	for (int m = 0; m < p->nmetrics; m++)
		if (picked[m])
			(*out)[(*n)++] = m;
	free(picked);
	return 0;
}

void perfmon_plan_free(struct perfmon_plan *pl)
{
	if (!pl)
		return;
	free(pl->passes);
	free(pl->metrics);
	free(pl->pass);
	free(pl->why);
	free(pl->split);
	free(pl->reads);
	free(pl);
}
