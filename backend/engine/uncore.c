/*
 * uncore: the per-socket PMUs' frame: what this CPU's uncore can count, the
 * sockets' accumulators and readers, and the calls into the source's
 * transport (source_ops.h).  The sample's part is uncore_sample.c's.
 */
#include "uncore.h"
#include "uncore_int.h"
#include "xmalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first online CPU of socket S, or -1: its PMUs are reached through it. */
static int uncore_first_reader(const struct topo *t, int s)
{
	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].socket == s && t->threads[i].online)
			return t->threads[i].os_cpu;
	return -1;
}

/* The layout names of the box kinds in PMUS, ", " between. */
static void uncore_kind_names(uint32_t pmus, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int p = 0; p < LAYOUT_NPMUS && n < len; p++)
		if (pmus & (1u << p))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      layout_pmu_kinds[p].name);
}

/* Why group GRP cannot count on this machine at all (into BUF), or false. */
static bool uncore_unavailable(const struct uncore *u, const struct layout_group *grp, char *buf,
			       size_t len)
{
	uint32_t pmus = cpumodel_uncore_kinds[u->cfg.kind].pmus;
	char names[64];
	int taken = 0;

	/* counted beside the cores through perf: the kernel has the PMU or says it has not */
	if (layout_pmu_kinds[grp->pmu].beside && u->cfg.ops && u->cfg.ops->beside)
		return false;
	if (layout_pmu_kinds[grp->pmu].kernel_only && u->cfg.kind != CPUMODEL_UNCORE_KERNEL) {
		if (grp->pmu == LAYOUT_PMU_CSTATE_CORE || grp->pmu == LAYOUT_PMU_CSTATE_PKG)
			snprintf(buf, len, "pmu %s: the kernel's cstate driver reads these residency "
				 "MSRs; --source perf counts them", layout_pmu_kinds[grp->pmu].name);
		else
			snprintf(buf, len, "pmu %s: only the kernel's uncore drivers reach these boxes "
				 "(PCI, MMIO, RAPL); --source perf counts them",
				 layout_pmu_kinds[grp->pmu].name);
		return true;
	}
	if (u->cfg.kind == CPUMODEL_UNCORE_NONE) {
		if (u->cfg.kind_why)
			snprintf(buf, len, "this CPU's uncore is not programmed: %s", u->cfg.kind_why);
		else
			snprintf(buf, len, "this CPU has no uncore PMU pmutop knows (see the doctor, d)");
		return true;
	}
	if (!(pmus & (1u << grp->pmu))) {
		uncore_kind_names(pmus, names, sizeof(names));
		snprintf(buf, len, "pmu %s is not this CPU's uncore (%s)", layout_pmu_kinds[grp->pmu].name,
			 names);
		return true;
	}
	for (int s = 0; s < u->nsocks; s++)
		taken += u->socks[s].taken;
	if (u->nsocks && taken == u->nsocks) {
		snprintf(buf, len, "the uncore counters are in use by another program on every socket "
			 "(left alone; --force takes them)");
		return true;
	}
	return false;
}

void uncore_plan(struct uncore *u, layout_groups groups, long core_files)
{
	const struct layout *l = u->l;

	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];

		u->blocked[g][0] = 0;
		if (layout_pmu_kinds[grp->pmu].per_socket && (groups & LAYOUT_GROUP(g)))
			uncore_unavailable(u, grp, u->blocked[g], sizeof(u->blocked[g]));
	}
	u->plan = (struct src_uplan){ .poll_s = INFINITY };
	if (u->t)
		u->cfg.ops->plan(u->t, groups, core_files, u->blocked, &u->plan);
}

int uncore_nsets(const struct uncore *u)
{
	return u->plan.nsets;
}

bool uncore_group_live(const struct uncore *u, int g)
{
	return u->plan.live & LAYOUT_GROUP(g);
}

const char *uncore_group_blocked(const struct uncore *u, int g)
{
	return u->blocked[g];
}

int uncore_usable(const struct uncore *u)
{
	uint32_t pmus = cpumodel_uncore_kinds[u->cfg.kind].pmus;
	int most = 0;

	for (int p = 0; p < LAYOUT_NPMUS; p++)
		if ((pmus & (1u << p)) && layout_pmu_kinds[p].counters > most)
			most = layout_pmu_kinds[p].counters;
	return most;
}

double uncore_poll_s(const struct uncore *u)
{
	return u->plan.poll_s;
}

static double uncore_now(const struct uncore *u)
{
	return u->cfg.clock(u->cfg.clock_ctx);
}

/* Whether socket S is counted: a transport, not another program's, an online CPU to reach it. */
static bool uncore_counted(const struct uncore *u, const struct src_socket *s)
{
	return u->t && !s->taken && s->reader >= 0;
}

void uncore_baseline(struct uncore *u)
{
	if (u->t)
		u->cfg.ops->clear(u->t);
	for (int i = 0; i < u->nsocks; i++) {
		struct src_socket *s = &u->socks[i];

		/* reset first: a failed read while programming voids the interval */
		s->t_last = uncore_now(u);
		src_socket_restart(s, u->l->nevents);
		if (!uncore_counted(u, s))
			continue;
		u->cfg.ops->baseline(u->t, s);
		s->t_start = s->t_last;
	}
}

void uncore_read(struct uncore *u, bool final)
{
	for (int i = 0; i < u->nsocks; i++)
		if (uncore_counted(u, &u->socks[i]))
			u->cfg.ops->read(u->t, &u->socks[i], final);
}

double uncore_group_share(const struct uncore *u, int g)
{
	const struct layout_group *gr = &u->l->groups[g];
	double share = 0;
	int n = 0;

	for (int i = 0; i < u->nsocks; i++) {
		const struct src_socket *s = &u->socks[i];
		double secs = s->t_last - s->t_start;

		if (s->taken || s->reader < 0 || !(secs > 0) || !gr->nevents)
			continue;
		share += s->ev[gr->first_event].live / secs;
		n++;
	}
	return n ? share / n : NAN;
}

void uncore_rotate(struct uncore *u)
{
	if (u->t && u->cfg.ops->rotate && u->plan.nsets > 1)
		u->cfg.ops->rotate(u->t);
}

void uncore_verify(struct uncore *u)
{
	if (u->t && u->cfg.ops->verify)
		u->cfg.ops->verify(u->t);
}

void uncore_reset(struct uncore *u)
{
	if (u->t)
		u->cfg.ops->clear(u->t);
	for (int i = 0; i < u->nsocks; i++) {
		if (u->t)
			u->cfg.ops->restart(u->t, &u->socks[i]);
		else
			src_socket_restart(&u->socks[i], u->l->nevents);
	}
}

const char *uncore_note(const struct uncore *u)
{
	return u->t ? u->cfg.ops->note(u->t) : "";
}

const char *uncore_error(const struct uncore *u)
{
	return u->t ? u->cfg.ops->error(u->t) : "";
}

/* ---- life cycle ------------------------------------------------------------ */

int uncore_create(const struct uncore_config *cfg, struct uncore **out, char *err, size_t errlen)
{
	struct uncore *u = xcalloc(1, sizeof(*u));
	const struct layout *l = cfg->layout;
	int rc;

	*out = NULL;
	u->cfg = *cfg;
	u->l = l;
	u->used = cfg->kind != CPUMODEL_UNCORE_NONE && layout_has_uncore(l) && cfg->ops;
	u->blocked = xcalloc((size_t)l->ngroups + 1, sizeof(*u->blocked));
	u->plan.poll_s = INFINITY;
	for (int k = 0; k < l->nevents; k++)
		if (l->events[k].channel + 1 > u->nchan)
			u->nchan = l->events[k].channel + 1;
	u->nsocks = cfg->topo->nsockets;
	u->socks = xcalloc((size_t)u->nsocks + 1, sizeof(*u->socks));
	for (int i = 0; i < u->nsocks; i++) {
		struct src_socket *s = &u->socks[i];

		s->index = i;
		s->reader = uncore_first_reader(cfg->topo, i);
		s->taken = cfg->socket_taken && cfg->socket_taken[i];
		s->ev = xcalloc((size_t)l->nevents + 1, sizeof(*s->ev));
		s->moved = xcalloc((size_t)l->nevents + 1, sizeof(bool));
	}
	if (u->used) {
		struct src_uncore_env env = { .cfg = &u->cfg, .socks = u->socks, .nsocks = u->nsocks };

		rc = cfg->ops->create(&env, &u->t, err, errlen);
		if (rc) {
			uncore_free(u);
			return rc;
		}
	}
	*out = u;
	return 0;
}

void uncore_free(struct uncore *u)
{
	if (!u)
		return;
	if (u->t)
		u->cfg.ops->free(u->t);
	for (int i = 0; i < u->nsocks; i++) {
		free(u->socks[i].ev);
		free(u->socks[i].moved);
	}
	free(u->socks);
	free(u->blocked);
	free(u);
}
