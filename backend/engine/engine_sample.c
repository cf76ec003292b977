/*
 * engine_sample: a published sample from the engine's accumulators: each
 * group's state, every thread's events scaled by the share of the interval
 * they were counted and its metrics, cores from their threads, sockets from
 * their cores and the uncore, warnings.  Sampler thread.  See engine_int.h.
 */
#include "engine.h"
#include "engine_int.h"
#include "expr.h"
#include "xmalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- metrics ----------------------------------------------------------- */

static bool engine_group_live(const struct engine *e, int g)
{
	if (g < 0)
		return true;
	if (layout_pmu_kinds[e->l->groups[g].pmu].per_socket)
		return uncore_group_live(e->unc, g);
	return e->plan.live & LAYOUT_GROUP(g);
}

static bool engine_group_counted(const void *ctx, int g)
{
	return engine_group_live(ctx, g);
}

/* Evaluate the metrics of scope at most SCOPE into VARS (their inputs already there). */
static void engine_eval(const struct engine *e, double *vars, enum layout_scope scope)
{
	sample_eval_metrics(e->l, vars, scope, engine_group_counted, e);
}

/* DST's raw counts += SRC's (each thread's own count of a per-core event: their mean). */
static void engine_add_raw(const struct layout *l, struct sample_entity *dst,
			   const struct sample_entity *src, bool first, bool per_core_mean,
			   int nthreads)
{
	for (int i = 0; i < l->nevents; i++) {
		double v = src->raw[i];

		if (layout_pmu_kinds[l->events[i].pmu].per_socket)
			continue;
		if (per_core_mean && l->events[i].per_core)
			v /= nthreads;
		dst->raw[i] = first || isnan(dst->raw[i]) ? v : dst->raw[i] + v;
	}
}

/*
 * DST[K] += V, or = V when FIRST; a figure one kind of core lacks (KINDS: a
 * hybrid's socket summing cores of both) leaves the sum of the others.
 */
static void engine_sum(double *dst, int k, double v, bool first, bool kinds)
{
	if (kinds && !first && isnan(v))
		return;
	dst[k] = first || (kinds && isnan(dst[k])) ? v : dst[k] + v;
}

/* DST += SRC over built-ins and events, as a coarser scope aggregates a finer one. */
static void engine_add(const struct layout *l, double *dst, const double *src, bool first,
		       bool per_core_mean, int nthreads, bool kinds)
{
	for (int b = 0; b < LAYOUT_NBUILTINS; b++) {
		double v = src[b];

		if (b == LAYOUT_B_seconds || b == LAYOUT_B_tsc_hz || b == LAYOUT_B_core_threads)
			v /= nthreads; /* averaged, not summed */
		engine_sum(dst, b, v, first, kinds);
	}
	for (int i = 0; i < l->nevents; i++) {
		int k = layout_event_var(l, i);
		double v = src[k];

		if (layout_pmu_kinds[l->events[i].pmu].per_socket)
			continue; /* per socket: uncore_fill */
		if (per_core_mean && l->events[i].per_core)
			v /= nthreads; /* every thread of the core counts the whole core */
		engine_sum(dst, k, v, first, kinds);
	}
}

/* Append TEXT (its lines joined) to the sample's warning line. */
static void engine_warn(struct sample *s, const char *text)
{
	size_t n = strlen(s->warning);

	if (!text || !*text)
		return;
	if (n && n + 2 < sizeof(s->warning)) {
		memcpy(s->warning + n, "; ", 3);
		n += 2;
	}
	for (; *text && n + 1 < sizeof(s->warning); text++)
		s->warning[n++] = *text == '\n' ? (text[1] ? ';' : ' ') : *text;
	s->warning[n] = 0;
}

/* Sets group G takes turns with: 1 when it counts the whole interval. */
static int engine_group_sets(const struct engine *e, int g)
{
	const struct layout_pmu_kind *k = &layout_pmu_kinds[e->l->groups[g].pmu];

	if (k->free_running)
		return 1;
	return !k->per_socket ? (e->plan.nsets ? e->plan.nsets : 1)
	       : (uncore_nsets(e->unc) ? uncore_nsets(e->unc) : 1);
}

/* Measured share of the interval core group G was counted: the mean over CPUs with figures. */
static double engine_core_share(const struct engine *e, int g)
{
	const struct layout_group *gr = &e->l->groups[g];
	double share = 0;
	int n = 0;

	for (int i = 0; i < e->ncpus && gr->nevents; i++) {
		const struct src_cpu *c = &e->cpus[i];
		double secs = c->t_read - c->t_interval;

		if (src_cpu_void(c) || !(secs > 0) || !layout_coretype_on(gr->coretype, c->kind))
			continue;
		share += c->ev[gr->first_event].live / secs;
		n++;
	}
	return n ? share / n : NAN;
}

/* Each group's state in sample S, and which metrics are scaled. */
static void engine_build_groups(const struct engine *e, struct sample *s)
{
	const struct layout *l = e->l;
	char unturned[400] = "";
	int kernel_idle = 0;

	for (int g = 0; g < l->ngroups; g++) {
		struct sample_group *sg = &s->groups[g];

		if (!(e->groups & LAYOUT_GROUP(g))) {
			sg->state = SAMPLE_GROUP_OFF;
		} else if (e->blocked[g][0]) {
			sg->state = SAMPLE_GROUP_BLOCKED;
			snprintf(sg->why, sizeof(sg->why), "%s", e->blocked[g]);
		} else if (e->ops->kernel_multiplexes) {
			/* the kernel multiplexed it when it ran less than the interval */
			double share = !layout_pmu_kinds[l->groups[g].pmu].per_socket
				       ? engine_core_share(e, g) : uncore_group_share(e->unc, g);
			bool shared = share < ENGINE_PERF_FULL;

			sg->state = shared ? SAMPLE_GROUP_ROTATING : SAMPLE_GROUP_LIVE;
			sg->live_share = shared ? share : 1;
			if (share == 0)
				kernel_idle++;
		} else {
			int n = engine_group_sets(e, g);

			sg->state = n > 1 ? SAMPLE_GROUP_ROTATING : SAMPLE_GROUP_LIVE;
			sg->live_share = n == 1 ? 1
					 : !layout_pmu_kinds[l->groups[g].pmu].per_socket
					 ? engine_core_share(e, g) : uncore_group_share(e->unc, g);
			if (n > 1 && sg->live_share == 0) {
				size_t k = strlen(unturned);

				snprintf(unturned + k, sizeof(unturned) - k, "%s%s", k ? ", " : "",
					 l->groups[g].name);
			}
		}
	}
	if (kernel_idle) {
		char why[128];

		snprintf(why, sizeof(why), "%d group(s) got no counter from the kernel this interval "
			 "(other users, the NMI watchdog): n/a", kernel_idle);
		engine_warn(s, why);
	}
	if (unturned[0]) {
		char why[sizeof(unturned) + 64];

		/* an interval cut short (a flush, the run's end) before these groups' turn */
		snprintf(why, sizeof(why), "%s not counted: the interval ended before %s turn (n/a)",
			 unturned, strchr(unturned, ',') ? "their" : "its");
		engine_warn(s, why);
	}
	for (int m = 0; m < l->nmetrics; m++) {
		s->metric_scaled[m] = false;
		for (layout_groups u = l->metrics[m].uses; u; u &= u - 1) {
			int g = layout_groups_first(u);

			s->metric_scaled[m] |= s->groups[g].state == SAMPLE_GROUP_ROTATING &&
					       engine_group_live(e, g);
		}
	}
}

/*
 * The threads of sample S from the accumulators; CORE_N counts each core's
 * threads with figures, OFFLINE names the CPUs without.  Returns the longest
 * interval a thread counted.
 */
static double engine_build_threads(struct engine *e, struct sample *s, int *core_n, char *offline,
				   size_t offline_len)
{
	const struct layout *l = e->l;
	const struct topo *t = e->cfg.topo;
	double interval = 0;

	/*
	 * the sample's interval, the longest a thread counted: every count is
	 * scaled to it from the time it was live, and every figure divides by it
	 * (a figure is its formula over the printed counts and interval_s)
	 */
	for (int i = 0; i < e->ncpus; i++)
		interval = fmax(interval, e->cpus[i].t_read - e->cpus[i].t_interval);
	for (int i = 0; i < e->ncpus; i++) {
		struct src_cpu *c = &e->cpus[i];
		const struct topo_thread *th = &t->threads[c->thread];
		struct sample_entity *te = &s->threads[i];
		double *v = te->vars, secs = c->t_read - c->t_interval;
		double to_interval = secs > 0 ? interval / secs : NAN;

		te->index = c->os_cpu;
		te->core = th->core;
		te->socket = th->socket;
		te->os_core_id = t->cores[th->core].core_id;
		te->os_socket_id = t->sockets[th->socket].os_id;
		s->resets += c->resets;
		if ((c->offline || c->late) && !c->gone) {
			size_t n = strlen(offline);

			snprintf(offline + n, offline_len - n, "%sCPU %d %s", n ? ", " : "",
				 c->os_cpu, c->offline ? "is offline" : "answered late (n/a)");
		}
		/* a reset count says nothing about the interval: n/a, never a small number */
		if (src_cpu_void(c))
			continue; /* all n/a */
		te->window = secs;
		for (int n = 0; n < PMU_MAX_FIXED; n++) {
			/* a counter the kernel shared out: its count over the seconds it ran */
			bool shared = !isnan(c->fixed_run[n]);
			double scale = !shared ? to_interval
				       : c->fixed_run[n] > 0 ? interval / c->fixed_run[n] : NAN;

			te->fixed_raw[n] = e->plan.fixed & ~c->fixed_na & (1u << n) && !isnan(scale)
					   ? c->fixed_acc[n] : NAN;
			te->fixed_window[n] = shared && !isnan(te->fixed_raw[n]) ? c->fixed_run[n] : NAN;
			v[LAYOUT_FIXED_VAR(n)] = te->fixed_raw[n] * scale;
			/* PERF_METRICS' fields split fixed counter 3's slots: its window */
			if (n == 3)
				for (int k = 0; k < PERF_METRICS_FIELDS; k++)
					v[LAYOUT_TOPDOWN_VAR(k)] = e->plan.topdown & (1u << k) &&
								   !(c->fixed_na & (1u << 3))
								   ? c->td_acc[k] * scale : NAN;
		}
		v[LAYOUT_B_tsc] = c->tsc_acc * to_interval;
		v[LAYOUT_B_seconds] = interval;
		v[LAYOUT_B_tsc_hz] = secs > 0 ? c->tsc_acc / secs : NAN;
		v[LAYOUT_B_threads] = 1;
		v[LAYOUT_B_core_threads] = t->cores[th->core].nthreads;
		v[LAYOUT_B_cores] = 1.0 / (t->cores[th->core].nthreads > 0 ? t->cores[th->core].nthreads
					     : 1);
		for (int k = 0; k < l->nevents; k++) {
			/*
			 * the sure turns where there are any, else every one (uev); each
			 * turn weighs alike where the source rotated them (src_tally): the
			 * window given with the raw count is the one it is scaled by
			 */
			const struct src_tally *a = &c->ev[k], *u = &c->uev[k];
			struct src_tally sure = *a;
			double raw, live;

			if (a->live - u->live > 0)
				sure = (struct src_tally){ .acc = a->acc - u->acc, .live = a->live - u->live,
							   .rates = a->rates - u->rates,
							   .turns = a->turns - u->turns };
			raw = sure.acc;
			live = src_tally_window(&sure);
			v[layout_event_var(l, k)] = live > 0 ? raw * interval / live : NAN;
			te->raw[k] = live > 0 ? raw : NAN;
			te->live[k] = live > 0 ? live : NAN;
		}
		engine_eval(e, v, LAYOUT_THREAD);
		core_n[th->core]++;
	}
	return interval;
}

/*
 * A hybrid's sockets: each metric of a group bound to one kind of core from
 * the cores of that kind alone (their cycles, their slots), never from a sum
 * over both kinds, whose slots differ in width.  CORE_N: each core's threads
 * with figures.
 */
static void engine_sockets_by_kind(struct engine *e, struct sample *s, const int *core_n)
{
	const struct layout *l = e->l;
	const struct topo *t = e->cfg.topo;
	int nv = layout_nvars(l);
	unsigned char *kind = xcalloc((size_t)t->ncores + 1, 1);
	double *v = xcalloc((size_t)nv + 1, sizeof(double));

	for (int i = 0; i < e->ncpus; i++)
		kind[t->threads[e->cpus[i].thread].core] = e->cpus[i].kind;
	for (int sk = 0; sk < t->nsockets; sk++)
		for (unsigned k = LAYOUT_CORES_P; k < LAYOUT_NCORETYPES; k++) {
			int n = 0;

			for (int c = 0; c < t->ncores; c++)
				n += t->cores[c].socket == sk && core_n[c] && kind[c] == k;
			if (!n)
				continue;
			for (int i = 0; i < nv; i++)
				v[i] = NAN;
			for (int c = 0, first = 1; c < t->ncores; c++)
				if (t->cores[c].socket == sk && core_n[c] && kind[c] == k) {
					engine_add(l, v, s->cores[c].vars, first, false, n, true);
					first = 0;
				}
			engine_eval(e, v, LAYOUT_SOCKET);
			for (int m = 0; m < l->nmetrics; m++)
				if (l->metrics[m].group >= 0 &&
				    l->groups[l->metrics[m].group].coretype == k)
					s->sockets[sk].vars[layout_metric_var(l, m)] =
						v[layout_metric_var(l, m)];
		}
	free(v);
	free(kind);
}

/* Cores of sample S from their threads, sockets from their cores (and the uncore). */
static void engine_build_cores_sockets(struct engine *e, struct sample *s, const int *core_n)
{
	const struct layout *l = e->l;
	const struct topo *t = e->cfg.topo;
	int *sock_n = xcalloc((size_t)t->nsockets + 1, sizeof(int));

	for (int i = 0; i < e->ncpus; i++) {
		const struct topo_thread *th = &t->threads[e->cpus[i].thread];
		struct sample_entity *ce = &s->cores[th->core];

		if (src_cpu_void(&e->cpus[i]))
			continue;
		engine_add_raw(l, ce, &s->threads[i], isnan(ce->vars[LAYOUT_B_threads]), true,
			       core_n[th->core]);
		engine_add(l, ce->vars, s->threads[i].vars, isnan(ce->vars[LAYOUT_B_threads]), true,
			   core_n[th->core], false);
	}
	/* the per-core uncore counters (cstate_core) before the cores' figures */
	uncore_fill_cores(e->unc, s);
	for (int k = 0; k < t->ncores; k++) {
		struct sample_entity *ce = &s->cores[k];

		ce->index = k;
		ce->core = k;
		ce->socket = t->cores[k].socket;
		ce->os_core_id = t->cores[k].core_id;
		ce->os_socket_id = t->sockets[ce->socket].os_id;
		if (!core_n[k])
			continue;
		engine_eval(e, ce->vars, LAYOUT_CORE);
		sock_n[ce->socket]++;
	}
	for (int k = 0; k < t->ncores; k++) {
		struct sample_entity *se = &s->sockets[t->cores[k].socket];

		if (!core_n[k])
			continue;
		engine_add_raw(l, se, &s->cores[k], isnan(se->vars[LAYOUT_B_threads]), false,
			       sock_n[t->cores[k].socket]);
		engine_add(l, se->vars, s->cores[k].vars, isnan(se->vars[LAYOUT_B_threads]), false,
			   sock_n[t->cores[k].socket], e->cfg.cpu_kind != NULL);
	}
	for (int k = 0; k < t->nsockets; k++) {
		struct sample_entity *se = &s->sockets[k];

		se->index = k;
		se->core = -1;
		se->socket = k;
		se->os_core_id = -1;
		se->os_socket_id = t->sockets[k].os_id;
	}
	uncore_fill(e->unc, s);
	uncore_fill_boxes(e->unc, s);
	for (int k = 0; k < t->nsockets; k++) {
		/* seconds and tsc_hz were averaged per core; threads is a plain sum */
		if (!isnan(s->sockets[k].vars[LAYOUT_B_seconds]))
			engine_eval(e, s->sockets[k].vars, LAYOUT_SOCKET);
		for (int c = 0; c < sample_nchannels(s); c++)
			engine_eval(e, sample_channel(s, k, c)->vars, LAYOUT_CHANNEL);
	}
	if (e->cfg.cpu_kind)
		engine_sockets_by_kind(e, s, core_n);
	uncore_check(e->unc, s);
	free(sock_n);
}

/* Append a note of the source's to the sample's warning line. */
static void engine_warn_note(void *ctx, const char *text)
{
	engine_warn(ctx, text);
}

struct sample *engine_build(struct engine *e)
{
	const struct topo *t = e->cfg.topo;
	struct sample *s = sample_new(e->l, e->ncpus, t->ncores, t->nsockets);
	int *core_n = xcalloc((size_t)t->ncores + 1, sizeof(int));
	char offline[160] = "";
	const char *err = e->ops->error(e->src);

	s->seq = ++e->seq;
	s->source = e->cfg.source;
	s->simulated = e->cfg.simulated;
	s->skew_us = e->sweep.skew * 1e6;
	s->batched = e->sweep.batched;
	s->warmup = e->interval_after_first > 0;
	s->gp_usable = e->plan.gp_usable;
	s->gp_used = e->plan.gp_used;
	s->rotation_s = engine_rotation_s(e);
	engine_build_groups(e, s);
	s->interval_s = engine_build_threads(e, s, core_n, offline, sizeof(offline));
	engine_build_cores_sockets(e, s, core_n);
	free(core_n);
	engine_warn(s, e->cfg.warning);
	e->ops->notes(e->src, engine_warn_note, s);
	engine_warn(s, offline);
	engine_warn(s, uncore_note(e->unc));
	if (s->resets)
		snprintf(s->warning + strlen(s->warning), sizeof(s->warning) - strlen(s->warning),
			 "%s%d counter(s) were reset by someone else during the interval (their CPUs "
			 "n/a)",
			 s->warning[0] ? "; " : "", s->resets);
	snprintf(s->error, sizeof(s->error), "%s", err[0] ? err : uncore_error(e->unc));
	if (e->cfg.who_look)
		s->who = e->cfg.who_look(e->cfg.who_ctx, src_now(&e->cfg));
	if (e->cfg.throttle_look)
		s->throttle = e->cfg.throttle_look(e->cfg.throttle_ctx, src_now(&e->cfg));
	return s;
}
