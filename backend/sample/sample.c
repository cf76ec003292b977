/*
 * sample: allocation and reference counting.  One block per entity array;
 * the reference count is atomic because the UI thread and the sampler both
 * release.
 */
#include "sample.h"
#include "sample_kind.h"
#include "expr.h"
#include "xmalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* N entities, each with NVARS values and NRAW raw counts and live seconds after them, all NaN. */
static void sample_entities(struct sample_entity **out, int n, int nvars, int nraw)
{
	struct sample_entity *e = xcalloc((size_t)(n ? n : 1), sizeof(*e));
	size_t per = (size_t)nvars + 2 * (size_t)nraw;
	double *vars = xmalloc(sizeof(double) * (size_t)(n ? n : 1) * per);

	for (size_t i = 0; i < (size_t)(n ? n : 1) * per; i++)
		vars[i] = NAN;
	for (int i = 0; i < (n ? n : 1); i++) {
		e[i].vars = vars + (size_t)i * per;
		e[i].raw = e[i].vars + nvars;
		e[i].live = e[i].raw + nraw;
		e[i].window = NAN;
		for (int f = 0; f < 4; f++)
			e[i].fixed_raw[f] = e[i].fixed_window[f] = NAN;
	}
	*out = e;
}

struct sample *sample_new(const struct layout *layout, int nthreads, int ncores, int nsockets)
{
	struct sample *s = xcalloc(1, sizeof(*s));
	int nvars = layout_nvars(layout);

	s->layout = layout;
	s->nthreads = nthreads;
	s->ncores = ncores;
	s->nsockets = nsockets;
	sample_entities(&s->threads, nthreads, nvars, layout->nevents);
	sample_entities(&s->cores, ncores, nvars, layout->nevents);
	sample_entities(&s->sockets, nsockets, nvars, layout->nevents);
	s->groups = xcalloc((size_t)layout->ngroups + 1, sizeof(*s->groups));
	s->metric_scaled = xcalloc((size_t)layout->nmetrics + 1, sizeof(*s->metric_scaled));
	s->refs = 1;
	return s;
}

void sample_add_part(struct sample *s, enum sample_kind_id p, int per)
{
	struct sample_part *pt = &s->parts[p];
	int n = s->nsockets * per;
	bool raw = !sample_kinds[p].keeps;

	pt->per = per;
	sample_entities(&pt->rows, n, layout_nvars(s->layout), raw ? s->layout->nevents : 0);
	for (int i = 0; !raw && i < n; i++)
		pt->rows[i].raw = pt->rows[i].live = NULL;
}

int sample_part_per(const struct sample *s, enum sample_kind_id p)
{
	return p >= 0 && p < SAMPLE_NKINDS && s->parts[p].rows ? s->parts[p].per : 0;
}

struct sample_entity *sample_part(const struct sample *s, enum sample_kind_id p, int socket, int i)
{
	int per = sample_part_per(s, p);

	if (socket < 0 || socket >= s->nsockets || i < 0 || i >= per)
		return NULL;
	return &s->parts[p].rows[socket * per + i];
}

bool sample_in_part(const struct sample *s, enum sample_kind_id p, const struct sample_entity *e)
{
	int per = sample_part_per(s, p);

	return e && per && e >= s->parts[p].rows && e < s->parts[p].rows + s->nsockets * per;
}

void sample_entity_ids(struct sample_entity *e, int index, int socket, int os_socket_id)
{
	e->index = index;
	e->socket = socket;
	e->core = -1;
	e->os_core_id = -1;
	e->os_socket_id = os_socket_id;
}

void sample_flag(struct sample *s, int socket, int ch, int m, const char *fmt, ...)
{
	struct sample_flag *f;
	va_list ap;

	s->flags = xrealloc(s->flags, (size_t)s->nflags + 1, sizeof(*s->flags));
	f = &s->flags[s->nflags++];
	*f = (struct sample_flag){ .socket = socket, .channel = ch, .metric = m };
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

const struct sample_flag *sample_flag_find(const struct sample *s, int socket, int ch, int m)
{
	for (int i = 0; i < s->nflags; i++) {
		const struct sample_flag *f = &s->flags[i];

		if (f->socket == socket && f->channel == ch && (f->metric < 0 || f->metric == m))
			return f;
	}
	return NULL;
}

const struct sample *sample_ref(const struct sample *cs)
{
	/* the holder count is the one mutable part of a published sample */
	struct sample *s = (struct sample *)cs;
	int was = __atomic_fetch_add(&s->refs, 1, __ATOMIC_RELAXED);

	assert(was > 0); /* a released sample is gone: nobody may take it again */
	(void)was;
	return s;
}

void sample_release(const struct sample *cs)
{
	struct sample *s = (struct sample *)cs;
	int left;

	if (!s)
		return;
	left = __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
	assert(left >= 0); /* released once more than taken */
	if (left)
		return;
	free(s->threads[0].vars);
	free(s->cores[0].vars);
	free(s->sockets[0].vars);
	free(s->threads);
	free(s->cores);
	free(s->sockets);
	for (int p = 0; p < SAMPLE_NKINDS; p++)
		if (s->parts[p].rows) {
			free(s->parts[p].rows[0].vars);
			free(s->parts[p].rows);
		}
	free(s->flags);
	free(s->groups);
	who_snap_free(s->who);
	if (s->throttle)
		free(s->throttle->s);
	free(s->throttle);
	free(s->metric_scaled);
	free(s);
}

double sample_metric(const struct sample *s, const struct sample_entity *e, int m)
{
	return e->vars[layout_metric_var(s->layout, m)];
}

const char *const sample_group_state_names[4] = {
	[SAMPLE_GROUP_OFF] = "off", [SAMPLE_GROUP_LIVE] = "live",
	[SAMPLE_GROUP_ROTATING] = "rotating", [SAMPLE_GROUP_BLOCKED] = "blocked",
};

void sample_eval_metrics(const struct layout *l, double *vars, enum layout_scope scope,
			 bool (*counted)(const void *ctx, int g), const void *ctx)
{
	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		double v = NAN;

		/* an event not counted is n/a (NaN) in VARS: its group or the others of its copies */
		if (layout_scope_computed(mt->scope, scope) && (mt->group < 0 || counted(ctx, mt->group)) &&
		    !mt->na)
			v = expr_eval(mt->expr, vars);
		vars[layout_metric_var(l, m)] = isfinite(v) ? v : NAN;
	}
}

/* Whether group G counted in the sample CTX. */
static bool sample_group_counted(const void *ctx, int g)
{
	const struct sample *s = ctx;

	return s->groups[g].state == SAMPLE_GROUP_LIVE || s->groups[g].state == SAMPLE_GROUP_ROTATING;
}

static void sample_eval(const struct sample *s, double *vars, enum layout_scope scope)
{
	sample_eval_metrics(s->layout, vars, scope, sample_group_counted, s);
}

/* Whether metric M is a rate: its unit per second (MB/sec, B/s, /s). */
static bool sample_rate(const struct layout_metric *m)
{
	return strstr(m->unit, "/s") != NULL;
}

bool sample_box_event(const struct layout *l, int k)
{
	return l->events[k].pmu == LAYOUT_PMU_CHA;
}

bool sample_box_metric(const struct layout *l, int m)
{
	return l->metrics[m].group >= 0 && l->groups[l->metrics[m].group].pmu == LAYOUT_PMU_CHA;
}

void sample_eval_boxes(struct sample *s)
{
	const struct layout *l = s->layout;
	int *ms = xmalloc(sizeof(int) * ((size_t)l->nmetrics + 1)), n = 0, per = sample_nboxes(s);

	/* the boxes' metrics that counted, the same for every box */
	for (int m = 0; m < l->nmetrics; m++)
		if (sample_box_metric(l, m) && !l->metrics[m].na &&
		    sample_group_counted(s, l->metrics[m].group) &&
		    layout_scope_computed(l->metrics[m].scope, LAYOUT_SOCKET))
			ms[n++] = m;
	for (int i = 0; i < s->nsockets * per; i++) {
		double *vars = s->parts[SAMPLE_KIND_CHA].rows[i].vars;

		for (int k = 0; k < n && !isnan(vars[LAYOUT_B_seconds]); k++) {
			const struct layout_metric *mt = &l->metrics[ms[k]];
			/* the CHA's counts stand for the socket's (x the CHAs): a rate back to its share */
			double v = expr_eval(mt->expr, vars);

			if (isfinite(v) && sample_rate(mt))
				v /= per;
			vars[layout_metric_var(l, ms[k])] = isfinite(v) ? v : NAN;
		}
	}
	free(ms);
}

void sample_recompute(struct sample *s)
{
	for (int i = 0; i < s->nthreads; i++)
		if (!isnan(s->threads[i].vars[LAYOUT_B_threads]))
			sample_eval(s, s->threads[i].vars, LAYOUT_THREAD);
	for (int i = 0; i < s->ncores; i++)
		if (!isnan(s->cores[i].vars[LAYOUT_B_threads]))
			sample_eval(s, s->cores[i].vars, LAYOUT_CORE);
	for (int i = 0; i < s->nsockets; i++)
		if (!isnan(s->sockets[i].vars[LAYOUT_B_seconds]))
			sample_eval(s, s->sockets[i].vars, LAYOUT_SOCKET);
	/* a socket's parts with inputs of their own (the channels), at their kind's scope */
	for (int k = 0; k < SAMPLE_NKINDS; k++) {
		int n = s->nsockets * sample_part_per(s, (enum sample_kind_id)k);

		if (sample_kinds[k].keeps)
			continue; /* the CHAs: sample_eval_boxes */
		for (int i = 0; i < n; i++)
			sample_eval(s, s->parts[k].rows[i].vars, sample_kinds[k].scope);
	}
	sample_eval_boxes(s);
}

void who_snap_free(struct who_snap *s)
{
	if (!s)
		return;
	free(s->rows);
	free(s);
}

#define SAMPLE_TH(f) .offset = offsetof(struct sample_throttle_socket, f)

const struct sample_throttle_col sample_throttle_cols[] = {
	{ .name = "package_events", .figure = "throttle_package_events", .unit = "events",
	  SAMPLE_TH(pkg_events), .prom = "pmutop_throttle_events", .prom_scope = "package",
	  .prom_help = "Thermal throttle episodes in the last interval (the kernel's "
		       "package_throttle_count, and core_throttle_count summed over the socket's "
		       "cores)" },
	{ .name = "package_ms", .figure = "throttle_package_ms", .unit = "ms", SAMPLE_TH(pkg_ms),
	  .prom = "pmutop_throttle_ratio", .prom_scope = "package", .prom_share = true,
	  .prom_help = "Share of the last interval throttled: the package "
		       "(package_throttle_total_time_ms), or its cores' mean "
		       "(core_throttle_total_time_ms)" },
	{ .name = "cores", .figure = "throttle_cores", .unit = "cores", SAMPLE_TH(cores), .whole = true },
	{ .name = "core_events", .figure = "throttle_core_events", .unit = "events",
	  SAMPLE_TH(core_events), .prom = "pmutop_throttle_events", .prom_scope = "core" },
	{ .name = "core_ms", .figure = "throttle_core_ms", .unit = "ms", SAMPLE_TH(core_ms),
	  .prom = "pmutop_throttle_ratio", .prom_scope = "core", .prom_share = true },
	{ .name = "package_power_limit_events", .figure = "power_limit_package_events",
	  .unit = "events", SAMPLE_TH(pkg_pl_events), .power_limit = true,
	  .prom = "pmutop_power_limit_events", .prom_scope = "package",
	  .prom_help = "Power-limit notifications in the last interval (the kernel's "
		       "package_power_limit_count, and core_power_limit_count summed over the "
		       "socket's cores; counted when the kernel was booted with int_pln_enable)" },
	{ .name = "core_power_limit_events", .figure = "power_limit_core_events", .unit = "events",
	  SAMPLE_TH(core_pl_events), .power_limit = true, .prom = "pmutop_power_limit_events",
	  .prom_scope = "core" },
};
const int sample_throttle_ncols = (int)(sizeof(sample_throttle_cols) / sizeof(sample_throttle_cols[0]));

double sample_throttle_get(const struct sample_throttle_socket *x, const struct sample_throttle_col *c)
{
	const char *p = (const char *)x + c->offset;

	return c->whole ? *(const int *)(const void *)p : *(const double *)(const void *)p;
}

void sample_throttle_set(struct sample_throttle_socket *x, const struct sample_throttle_col *c, double v)
{
	char *p = (char *)x + c->offset;

	if (c->whole)
		*(int *)(void *)p = isfinite(v) ? (int)v : 0;
	else
		*(double *)(void *)p = v;
}

bool sample_throttle_text(const struct sample *s, char *buf, size_t len)
{
	const struct sample_throttle *t = s->throttle;
	size_t n = 0;

	buf[0] = 0;
	for (int k = 0; t && k < t->nsockets && k < s->nsockets && n < len; k++) {
		const struct sample_throttle_socket *x = &t->s[k];
		bool pkg = x->pkg_events > 0 || x->pkg_ms > 0;
		double pl = (x->pkg_pl_events > 0 ? x->pkg_pl_events : 0) +
			    (x->core_pl_events > 0 ? x->core_pl_events : 0);
		int w;

		if (!pkg && !x->cores && !(pl > 0))
			continue;
		w = snprintf(buf + n, len - n, "%sS%d:", n ? "; " : "", s->sockets[k].os_socket_id);
		n += w > 0 ? (size_t)w : 0;
		if (pkg && n < len) {
			w = isnan(x->pkg_ms) ? snprintf(buf + n, len - n, " package %.0f events", x->pkg_events)
			    : snprintf(buf + n, len - n, " package %.0f ms (%.0f event%s)", x->pkg_ms,
				       x->pkg_events, x->pkg_events == 1 ? "" : "s");
			n += w > 0 ? (size_t)w : 0;
		}
		if (x->cores && n < len) {
			w = snprintf(buf + n, len - n, "%s %d core%s", pkg ? "," : "", x->cores,
				     x->cores == 1 ? "" : "s");
			n += w > 0 ? (size_t)w : 0;
		}
		if (pl > 0 && n < len) {
			/* the RAPL limit held the clock down: the package's notifications, the cores' */
			w = snprintf(buf + n, len - n, "%s power limit %.0f package, %.0f core notification%s",
				     pkg || x->cores ? "," : "", x->pkg_pl_events > 0 ? x->pkg_pl_events : 0,
				     x->core_pl_events > 0 ? x->core_pl_events : 0,
				     x->core_pl_events == 1 ? "" : "s");
			n += w > 0 ? (size_t)w : 0;
		}
	}
	if (n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return buf[0] != 0;
}
