/*
 * perfmon_layout: a layout from Intel's data; see perfmon_layout.h.
 */
#include "perfmon_layout.h"
#include "perfmon_layout_int.h"
#include "perfmon_own.h"
#include "perfmon_fields.h"
#include "expr.h"
#include "layout.h"
#include "layout_build.h"
#include "perfmon_keys.h"
#include "perfmon_plan.h"
#include "perfmon_uncore.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The built-ins that stand for the fixed counters and the TSC. */
static const struct {
	const char *event, *builtin;
} pl_builtins[] = {
	{ "INST_RETIRED.ANY", "instructions" },
	{ "CPU_CLK_UNHALTED.THREAD", "cycles" },
	{ "CPU_CLK_UNHALTED.CORE", "cycles" },
	{ "CPU_CLK_UNHALTED.REF_TSC", "ref_cycles" },
	{ "TSC", "tsc" },
	{ "TOPDOWN.SLOTS", "slots" },
	{ "PERF_METRICS.RETIRING", "topdown_retiring" },
	{ "PERF_METRICS.BAD_SPECULATION", "topdown_bad_spec" },
	{ "PERF_METRICS.FRONTEND_BOUND", "topdown_fe_bound" },
	{ "PERF_METRICS.BACKEND_BOUND", "topdown_be_bound" },
	{ "PERF_METRICS.HEAVY_OPERATIONS", "topdown_heavy_ops" },
	{ "PERF_METRICS.BRANCH_MISPREDICTS", "topdown_br_mispredict" },
	{ "PERF_METRICS.FETCH_LATENCY", "topdown_fetch_lat" },
	{ "PERF_METRICS.MEMORY_BOUND", "topdown_mem_bound" },
};

void perfmon_layout_name(const char *name, char *buf, size_t len)
{
	size_t k = 0;

	if (isdigit((unsigned char)name[0]) && k + 1 < len)
		buf[k++] = '_';
	for (; *name && k + 1 < len; name++)
		buf[k++] = *name == ':' || *name == '=' ? '.' : *name;
	buf[k] = 0;
}

static bool pl_is_tree(const struct perfmon_metric *m)
{
	return perfmon_in_tree(m);
}

/*
 * A metric a pane shows even where it cannot be counted (n/a with the
 * reason: an "unavailable" line): a node of the tree (the tree pane), one of
 * Intel's Bottleneck metrics (the bottleneck pane).
 */
static bool pl_shown_na(const struct perfmon_metric *m)
{
	return pl_is_tree(m) || !strncmp(m->name, "Bottleneck_", strlen("Bottleneck_"));
}

static int pl_key_of(const struct pl_gen *g, const struct perfmon_metric *m)
{
	return perfmon_key_of(&g->keyset, m);
}

static const char *pl_name(const struct pl_gen *g, int k)
{
	return perfmon_key_name(&g->keyset, k);
}

static const char *pl_title(const struct pl_gen *g, int k)
{
	return perfmon_key_title(&g->keyset, k);
}

static int pl_event_index(const struct perfmon *p, const char *name)
{
	for (int v = 0; v < p->nevents; v++)
		if (!strcmp(p->events[v].name, name))
			return v;
	return -1;
}

static const char *pl_builtin(const struct perfmon_event *e)
{
	for (size_t i = 0; i < sizeof(pl_builtins) / sizeof(pl_builtins[0]); i++)
		/* ":perf_metrics" (the perf tool's: slots read beside PERF_METRICS) is what slots is */
		if (!strcmp(e->base, pl_builtins[i].event) &&
		    (!strchr(e->name, ':') || !strcmp(strchr(e->name, ':'), ":perf_metrics")))
			return pl_builtins[i].builtin;
	return NULL;
}

/* A name of a formula as the layout writes it (perfmon_render_map's callback). */
static const char *pl_map(void *ctx, enum perfmon_name_kind kind, const char *name, char *buf,
			  size_t len)
{
	struct pl_gen *g = ctx;
	const struct perfmon *p = g->p;

	if (kind == PERFMON_NAME_METRIC) {
		int m = perfmon_metric_index(p, name);

		if (m < 0 || g->pm[m].state == PL_ABSENT) {
			snprintf(g->why, sizeof(g->why), "it reads metric %s, which is not counted "
				 "here", name);
			return name;
		}
		perfmon_layout_name(name, buf, len);
		return buf;
	}
	if (kind == PERFMON_NAME_CONST) {
		for (int c = 0; c < PERFMON_NCONST; c++) {
			double v = g->known[PERFMON_VAR_CONST(p, c)];

			if (strcmp(name, perfmon_const_names[c]))
				continue;
			/*
			 * The TMA formulas (toplev's) divide the TSC's count by the time
			 * ("Core_Frequency", "CPUs_Utilized"): there it is the ticks of
			 * the interval; the other metrics mean the rate.
			 */
			if (c == PERFMON_SYSTEM_TSC_FREQ)
				return g->tma ? "(tsc_hz * seconds)" : "tsc_hz";
			if (c == PERFMON_DURATIONTIMEINSECONDS)
				return "seconds";
			/*
			 * The CPUs the vendor's system-wide sum covers: the scope's own
			 * (Info_System_CPU_Utilization is then each thread's, core's and
			 * socket's utilisation, not a share of the whole machine)
			 */
			if (c == PERFMON_NUM_CPUS)
				return "threads";
			if (c == PERFMON_DURATIONTIMEINMILLISECONDS)
				return "(seconds * 1000)";
			if (isnan(v))
				break;
			snprintf(buf, len, "%g", v);
			return buf;
		}
		snprintf(g->why, sizeof(g->why), "it needs %s, which pmutop does not know here", name);
		return name;
	}
	{
		int v = pl_event_index(p, name), fixed;
		char why[200];
		const char *b;

		if (v < 0) {
			snprintf(g->why, sizeof(g->why), "event %s is not in the data", name);
			return name;
		}
		if (!g->needed[v])
			return "0"; /* in the branch of 'if' this machine does not take */
		switch (perfmon_plan_need_for(p, v, g->flags, &fixed, why, sizeof(why))) {
		case PERFMON_NEED_FREE:
			if ((b = pl_builtin(&p->events[v])))
				return b;
			snprintf(g->why, sizeof(g->why), "%s has no built-in in a layout", name);
			return name;
		case PERFMON_NEED_GP: {
			size_t n = (size_t)snprintf(buf, len, "%s", g->prefix);

			perfmon_layout_name(name, buf + (n < len ? n : len - 1), len - (n < len ? n : len - 1));
			return buf;
		}
		default:
			snprintf(g->why, sizeof(g->why), "%s", why);
			return name;
		}
	}
}

/* Render metric M's formula (THRESHOLD: its threshold) into BUF; false with g->why. */
static bool pl_render(struct pl_gen *g, int m, bool threshold, char *buf, size_t len)
{
	const struct perfmon_metric *pm = &g->p->metrics[m];

	g->why[0] = 0;
	g->tma = pm->category && !strcmp(pm->category, "TMA");
	for (int v = 0; v < PERFMON_NVARS(g->p); v++)
		g->needed[v] = false;
	expr_needed(pm->formula, g->known, g->needed);
	if (!perfmon_render_map(g->p, m, threshold, pl_map, g, buf, len) && !g->why[0])
		snprintf(g->why, sizeof(g->why), "its formula is longer than %zu bytes", len);
	return !g->why[0];
}

static const char *pl_unit(const struct perfmon_metric *m)
{
	if (!m->unit || !m->unit[0])
		return "";
	return !strcmp(m->unit, "percent") ? "%" : m->unit;
}

static enum layout_scope pl_scope(const struct pl_gen *g, const struct perfmon_metric *m)
{
	if (!m->resolution || strstr(m->resolution, "THREAD") || !g->c->ht_on)
		return LAYOUT_THREAD;
	return strstr(m->resolution, "CORE") ? LAYOUT_CORE : LAYOUT_SOCKET;
}

/* The raw encoding of GP event V (the twin of a fixed counter's event where it is one). */
static void pl_event_line(struct pl_gen *g, int v)
{
	const struct perfmon_event *e = &g->p->events[v];
	struct perfmon_fields f;
	const char *counters = g->c->ht_on || !e->counter_ht_off ? e->counter : e->counter_ht_off;
	char name[160], buf[48];
	struct layout_build_event ev = { 0 };
	const char *extra;
	size_t np = (size_t)snprintf(name, sizeof(name), "%s", g->prefix);
	unsigned long code;
	bool fixed = e->counter && !strncmp(e->counter, "Fixed counter ", 14);

	perfmon_fields_of(e, g->amd, &f);
	code = f.code;
	perfmon_layout_name(e->name, name + np, sizeof(name) - np);
	extra = perfmon_plan_extra(e, buf, sizeof(buf));
	if (extra && perfmon_plan_extra_kind(e) == PERFMON_EXTRA_OFFCORE) {
		/* the pair's first register holding another value: the second (the plan keeps to two) */
		uint64_t value = strtoull(extra, NULL, 0);
		int r = g->ocr_used[0] && g->ocr_value[0] != value ? 1 : 0;

		g->ocr_used[r] = true;
		g->ocr_value[r] = value;
		code = g->ocr[r];
	}
	/* AMD's event selects are 12 bits wide (PERF_CTL[35:32] and [7:0]) */
	ev.name = name;
	ev.event = (unsigned)(code & (g->amd ? AMD_EVENT_MAX : 0xFF));
	ev.umask = f.umask & (g->amd ? 0xFF : 0xFFFF);
	ev.has_offcore = extra && perfmon_plan_extra_kind(e) == PERFMON_EXTRA_OFFCORE;
	ev.has_frontend = extra && perfmon_plan_extra_kind(e) == PERFMON_EXTRA_FRONTEND;
	ev.offcore = ev.frontend = extra ? strtoull(extra, NULL, 0) : 0;
	ev.cmask = (unsigned)(f.cmask & 0xFF);
	ev.inv = f.inv;
	ev.edge = f.edge;
	ev.eq = f.eq;
	ev.ring = f.ring;
	ev.any_sum = f.any; /* the vendor's formulas sum it over the core's threads */
	if (!fixed && counters && isdigit((unsigned char)counters[0])) {
		/* the vendor's list, within the counters a layout names here */
		for (const char *c = counters; *c;) {
			char *end;
			unsigned long n = strtoul(c, &end, 10);

			if (end == c)
				break;
			if (n < (unsigned long)g->budget)
				ev.counters |= 1u << n;
			c = *end == ',' ? end + 1 : end;
		}
	}
	layout_build_event(g->b, &ev);
}

/* Whether metric M reads a general-purpose event on this machine (else: built-ins only). */
static bool pl_reads_gp(struct pl_gen *g, int m)
{
	const int *vars;
	int nvars;
	char why[200];

	for (int v = 0; v < PERFMON_NVARS(g->p); v++)
		g->needed[v] = false;
	expr_needed(g->p->metrics[m].formula, g->known, g->needed);
	expr_vars(g->p->metrics[m].formula, &vars, &nvars);
	for (int i = 0; i < nvars; i++) {
		int fixed;

		if (vars[i] < g->p->nevents && g->needed[vars[i]] &&
		    perfmon_plan_need_for(g->p, vars[i], g->flags, &fixed, why,
					  sizeof(why)) == PERFMON_NEED_GP)
			return true;
	}
	return false;
}

/* Plan key K's metrics; their states; the key's groups counted in g->ngroups. */
static int pl_plan_key(struct pl_gen *g, int k, char *err, size_t errlen)
{
	const struct perfmon *p = g->p;
	int *list = xcalloc((size_t)p->nmetrics + 1, sizeof(int)), n = 0, rc;
	int *foreign = xcalloc((size_t)p->nevents + 1, sizeof(int));
	struct perfmon_plan *pl;
	char *buf = g->buf;

	for (int m = 0; m < p->nmetrics; m++)
		if (pl_key_of(g, &p->metrics[m]) == k)
			list[n++] = m;
	g->keys[k].first_group = -1;
	perfmon_layout_foreign(g, k, foreign);
	rc = perfmon_plan_flags(p, list, n, g->budget, !g->c->ht_on, g->flags, foreign,
				&pl, err, errlen);
	free(foreign);
	if (rc) {
		free(list);
		return rc;
	}
	g->keys[k].plan = pl;
	if (pl->npasses && g->ngroups + pl->npasses <= LAYOUT_MAX_GROUPS) {
		g->keys[k].first_group = g->ngroups;
		g->ngroups += pl->npasses;
	}
	for (int i = 0; i < n; i++) {
		struct pl_metric *s = &g->pm[list[i]];

		s->key = k;
		s->pass = pl->pass[i];
		if (!pl_render(g, list[i], false, buf, PL_FORMULA_MAX))
			snprintf(s->why, sizeof(s->why), "%s", g->why);
		else if (pl->pass[i] < 0 && pl->why[i][0])
			snprintf(s->why, sizeof(s->why), "%s", pl->why[i]);
		else if (!pl_reads_gp(g, list[i]))
			s->state = PL_TOP;
		else if (g->keys[k].first_group < 0)
			snprintf(s->why, sizeof(s->why), "its group is left out: %s needs %d groups "
				 "and a layout holds %d (%d taken by the keys before it)", pl_name(g, k),
				 pl->npasses, LAYOUT_MAX_GROUPS, g->ngroups);
		else
			s->state = pl->split[i] ? PL_SPLIT : PL_GROUP;
		if (s->state == PL_ABSENT && pl_shown_na(&p->metrics[list[i]]))
			s->state = PL_UNAVAILABLE;
	}
	free(list);
	return 0;
}

/* Whether the layout has a metric line for perfmon metric J (of generator CTX). */
static bool pl_written(const void *ctx, int j)
{
	const struct pl_gen *g = ctx;

	return g->pm[j].state != PL_ABSENT && g->pm[j].state != PL_UNAVAILABLE;
}

/* "metric ..." (or "unavailable ...") with its help, tree and threshold lines. */
static void pl_metric(struct pl_gen *g, int m)
{
	const struct perfmon_metric *pm = &g->p->metrics[m];
	char name[160], *buf = g->buf;

	perfmon_layout_name(pm->name, name, sizeof(name));
	if (g->pm[m].state == PL_UNAVAILABLE) {
		layout_build_unavailable(g->b, name, pl_scope(g, pm), pl_unit(pm), g->pm[m].why);
	} else {
		pl_render(g, m, false, buf, PL_FORMULA_MAX);
		layout_build_metric(g->b, name, pl_scope(g, pm), pl_unit(pm), buf);
	}
	layout_build_help(g->b, pm->desc ? pm->desc : pm->name);
	if (pl_is_tree(pm)) {
		char parent[160];

		if (pm->parent >= 0)
			perfmon_layout_name(g->p->metrics[pm->parent].name, parent, sizeof(parent));
		layout_build_tree(g->b, pm->parent >= 0 ? parent : NULL, pm->level < 1 ? 1 : pm->level,
				  m);
	}
	if (pm->threshold_text) {
		size_t n = strlen(name);
		char *end;
		double over;

		if (pl_render(g, m, true, buf, PL_FORMULA_MAX)) {
			layout_build_threshold(g->b, false, buf);
			/*
			 * "NAME > N [& the parent's ...]": figures from N on in the alarm
			 * colour (not for n/a nodes; not where an alternative can flag it)
			 */
			if (g->pm[m].state != PL_UNAVAILABLE && !strncmp(buf, name, n) &&
			    !strncmp(buf + n, " > ", 3) && !strchr(buf, '|')) {
				over = strtod(buf + n + 3, &end);
				if (end != buf + n + 3 && isfinite(over))
					layout_build_thresholds(g->b, over, over);
			}
		}
		else
			layout_build_comment(g->b, "no threshold: %s", g->why);
	} else if (g->pm[m].state != PL_UNAVAILABLE &&
		   perfmon_own_tree_threshold(g->p, m, pl_written, g, buf, PL_FORMULA_MAX)) {
		layout_build_comment(g->b, "pmutop's: the largest of its level (its vendor publishes "
				     "no thresholds)");
		layout_build_threshold(g->b, true, buf);
	}
}

/* The groups of key K: one per pass, its events, the metrics at home there. */
static void pl_groups(struct pl_gen *g, int k)
{
	const struct perfmon_plan *pl = g->keys[k].plan;
	char name[64], text[300];

	for (int s = 0; g->keys[k].first_group >= 0 && s < pl->npasses; s++) {
		const struct perfmon_pass *ps = &pl->passes[s];

		perfmon_layout_group_name(g, k, s, name, sizeof(name));
		layout_build_group(g->b, name);
		layout_build_key(g->b, (char)('0' + k));
		snprintf(text, sizeof(text), "%s%s", g->coretype == LAYOUT_CORES_E ? "E-cores: "
			 : g->coretype ? "P-cores: " : "", pl_title(g, k));
		layout_build_title(g->b, text);
		layout_build_default(g->b, k == 1);
		if (g->coretype)
			layout_build_coretype(g->b, g->coretype);
		if (!s)
			perfmon_layout_reads_line(g, pl);
		if (!s) {
			snprintf(text, sizeof(text), "The vendor's metrics of %s, counted in %d group%s "
				 "that take turns%s", pl_name(g, k), pl->npasses, pl->npasses > 1 ? "s" : "",
				 pl->npasses > 1 ? " (their figures are scaled)" : "");
			layout_build_help(g->b, text);
		}
		g->ocr_used[0] = g->ocr_used[1] = false;
		for (int e = 0; e < ps->ngp; e++)
			pl_event_line(g, ps->gp[e]);
		for (int i = 0; i < pl->nmetrics; i++) {
			int m = pl->metrics[i];

			/* a metric over several groups comes last, when all its events are known */
			if ((g->pm[m].state == PL_GROUP && g->pm[m].pass == s) ||
			    (g->pm[m].state == PL_SPLIT && s == pl->npasses - 1))
				pl_metric(g, m);
		}
		layout_build_end(g->b);
	}
}

/* G for P on C, counted on BUDGET counters of the cores of kind KIND. */
static void pl_init(struct pl_gen *g, const struct perfmon *p, const struct perfmon_layout_config *c,
		    int budget, enum layout_coretype kind)
{
	*g = (struct pl_gen){ .p = p, .c = c, .amd = !strcmp(p->vendor, "AuthenticAMD"),
			      .flags = PERFMON_PLAN_LAYOUT |
				       (c->slots && kind != LAYOUT_CORES_E ? PERFMON_PLAN_SLOTS : 0u),
			      .budget = budget < PMU_MAX_GP ? budget : PMU_MAX_GP,
			      .coretype = kind, .prefix = kind == LAYOUT_CORES_E ? "atom_" : "" };
	g->keyset = perfmon_keyset_of(p);
	g->known = xcalloc((size_t)PERFMON_NVARS(p), sizeof(double));
	g->needed = xcalloc((size_t)PERFMON_NVARS(p), sizeof(bool));
	g->pm = xcalloc((size_t)p->nmetrics + 1, sizeof(*g->pm));
	g->buf = xmalloc(PL_FORMULA_MAX);
	for (int v = 0; v < PERFMON_NVARS(p); v++)
		g->known[v] = NAN;
	/* an E-core has no SMT (Gracemont, Crestmont, Skymont) */
	g->known[PERFMON_VAR_CONST(p, PERFMON_HYPERTHREADING_ON)] = kind != LAYOUT_CORES_E && c->ht_on;
	g->known[PERFMON_VAR_CONST(p, PERFMON_THREADS_PER_CORE)] =
		kind == LAYOUT_CORES_E ? 1 : c->threads_per_core;
	g->known[PERFMON_VAR_CONST(p, PERFMON_SOCKET_COUNT)] = c->sockets;
	g->known[PERFMON_VAR_CONST(p, PERFMON_CORES_PER_SOCKET)] = c->cores_per_socket;
	g->known[PERFMON_VAR_CONST(p, PERFMON_NUM_CPUS)] = c->cpus;
}

static void pl_release(struct pl_gen *g)
{
	for (int k = 1; k <= PL_KEYS; k++)
		perfmon_plan_free(g->keys[k].plan);
	free(g->known);
	free(g->needed);
	free(g->pm);
	free(g->buf);
}

/* The metrics of G in state STATE, at the top level (outside groups). */
static void pl_metrics_in(struct pl_gen *g, enum pl_state state)
{
	for (int m = 0; m < g->p->nmetrics; m++)
		if (g->pm[m].state == state)
			pl_metric(g, m);
}

int perfmon_layout(const struct perfmon *p, const struct perfmon_layout_config *cin,
		   const char *file, struct layout **out, char **text, char *err, size_t errlen)
{
	struct perfmon_layout_config cc = *cin;
	const struct perfmon_layout_config *c = &cc;
	struct perfmon_own own;
	struct pl_gen g, e = { 0 };
	int rc = 0, nports = 0;
	bool *taken;
	char (*uwhy)[200];

	if (out)
		*out = NULL;
	if (text)
		*text = NULL;
	if (c->gp_counters < 1 || c->gp_counters > PERFMON_PLAN_MAX_GP || c->threads_per_core < 1 ||
	    c->sockets < 1 || c->cores_per_socket < 1 || c->cpus < 1) {
		snprintf(err, errlen, "a machine of %d counters, %d threads per core, %d sockets, %d "
			 "cores per socket, %d CPUs: each at least 1 (counters at most %d)",
			 c->gp_counters, c->threads_per_core, c->sockets, c->cores_per_socket, c->cpus,
			 PERFMON_PLAN_MAX_GP);
		return -EINVAL;
	}
	rc = perfmon_own_load(c->layout_dir, &own, err, errlen);
	if (rc)
		return rc;
	cc.own = &own;
	pl_init(&g, p, c, c->gp_counters, c->atom ? LAYOUT_CORES_P : LAYOUT_CORES_ANY);
	if (c->atom)
		pl_init(&e, c->atom, c, c->atom_gp_counters > 0 ? c->atom_gp_counters
					: perfmon_layout_counters(c->atom), LAYOUT_CORES_E);
	taken = xcalloc((size_t)p->nmetrics + 1, sizeof(bool));
	uwhy = xcalloc((size_t)p->nmetrics + 1, sizeof(*uwhy));
	/* key by key, the P-cores' groups then the E-cores' (a key's groups follow each other) */
	for (int k = 1; k <= PL_KEYS && !rc; k++) {
		rc = pl_plan_key(&g, k, err, errlen);
		if (!rc && c->atom && e.budget > 0) {
			e.ngroups = g.ngroups;
			rc = pl_plan_key(&e, k, err, errlen);
			g.ngroups = e.ngroups;
		}
	}
	if (!rc) {
		/*
		 * pmutop's group of every execution port, where the layout's 128 groups leave it
		 * room after the uncore's (a dry run of the uncore counts what it takes)
		 */
		nports = perfmon_uncore_count(p, c, LAYOUT_MAX_GROUPS - g.ngroups) <
			 LAYOUT_MAX_GROUPS - g.ngroups ? perfmon_own_ports(p, c->atom != NULL, g.budget, NULL)
			 : 0;
		g.b = e.b = layout_build_new(file);
		perfmon_layout_header(g.b, p, c, g.amd, g.ocr);
		memcpy(e.ocr, g.ocr, sizeof(e.ocr));
		pl_metrics_in(&g, PL_TOP);
		for (int k = 1; k <= PL_KEYS; k++) {
			pl_groups(&g, k);
			if (c->atom && e.budget > 0)
				pl_groups(&e, k);
			/* pmutop's own beside the vendor's level 6: every execution port of the (P-)cores */
			if (k == 6 && nports)
				perfmon_own_ports(p, c->atom != NULL, g.budget, g.b);
		}
		perfmon_uncore_groups(p, c, LAYOUT_MAX_GROUPS - g.ngroups - nports, g.b, taken, uwhy);
		if (!nports && perfmon_own_ports(p, c->atom != NULL, g.budget, NULL)) {
			layout_build_blank(g.b);
			layout_build_comment(g.b, "not counted: pmutop's group Ports (every execution "
					     "port): the layout's %d groups are taken by the vendor's "
					     "and the uncore's", LAYOUT_MAX_GROUPS);
		}
		layout_build_blank(g.b);
		pl_metrics_in(&g, PL_UNAVAILABLE);
		if (c->atom)
			pl_metrics_in(&e, PL_UNAVAILABLE);
		for (int m = 0; m < p->nmetrics; m++)
			if (g.pm[m].state == PL_ABSENT && (g.pm[m].why[0] || uwhy[m][0]) && !taken[m])
				layout_build_comment(g.b, "not counted: %s: %s", p->metrics[m].name,
						     uwhy[m][0] ? uwhy[m] : g.pm[m].why);
		/* the E-cores' metrics over built-ins alone (IPC): the layout's own cover them */
		for (int m = 0; c->atom && m < c->atom->nmetrics; m++)
			if (e.pm[m].state == PL_TOP || (e.pm[m].state == PL_ABSENT && e.pm[m].why[0]))
				layout_build_comment(g.b, "not counted on the E-cores: %s: %s",
						     c->atom->metrics[m].name, e.pm[m].state == PL_TOP
						     ? "over the fixed counters alone, as the layout's ipc, "
						       "ghz and util" : e.pm[m].why);
		rc = layout_build_finish(g.b, out, text, err, errlen);
	}
	pl_release(&g);
	if (c->atom)
		pl_release(&e);
	free(taken);
	free(uwhy);
	perfmon_own_free(&own);
	return rc;
}
