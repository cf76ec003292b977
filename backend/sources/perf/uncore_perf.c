/*
 * uncore_perf: the per-socket PMUs through the kernel's uncore PMUs
 * (uncore_config.perf set: the perf source).
 *
 * Each layout PMU is one or more kernel PMUs, found by name and described
 * by their sysfs format files (never a bit position of pmutop's own):
 * Nehalem/Westmere's "uncore", Skylake client's "uncore_cbox_N" (every
 * slice, summed as the msr path sums them), "uncore_arb", and "uncore_imc"
 * whose free-running counters are the kernel's named events (events/
 * data_reads, ...).  The uncore clock is the kernel's "clockticks" where it
 * names one, else its fixed-counter event 0xff on the first box.  Per
 * socket one perf group per layout group and box, opened on the socket's
 * CPU from the PMU's cpumask; the kernel multiplexes, each group's counts
 * are scaled by its enabled / running time and its share marks it.  A PMU
 * the kernel lacks blocks the groups that need it with its name.  Sampler
 * thread, after uncore_create.
 */
#include "uncore.h"
#include "uncore_int.h"
#include "counter.h"
#include "cpulist.h"
#include "perf.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNCORE_PERF_MAX_BOXES 8

struct uncore_perf {
	const struct perf_sys *sys;
	const struct perf_access *access;
	struct perf_pmu box[LAYOUT_NPMUS][UNCORE_PERF_MAX_BOXES];
	int nbox[LAYOUT_NPMUS];
	char missing[LAYOUT_NPMUS][160];  /* why a layout PMU has no kernel PMU */
	struct perf_pmu clock;
	bool has_clock;
	uint32_t open;                    /* uncore groups open */
	long fds_core;                    /* the open files the core's events take (uncore_perf_fds) */
	int *cpu;                         /* per socket: the CPU its events are opened on */
	struct perf_group *pg;            /* [socket][group][box] */
	struct perf_group *clock_pg;      /* per socket */
};

static struct perf_group *uncore_perf_pg(const struct uncore *u, int sock, int g, int b)
{
	return &u->perf->pg[((size_t)sock * (size_t)u->l->ngroups + (size_t)g) *
			    UNCORE_PERF_MAX_BOXES + (size_t)b];
}

/* The kernel's PMU names of layout PMU P: "uncore", "uncore_cbox_%d", "uncore_arb", "uncore_imc". */
static const char *uncore_perf_name(enum layout_pmu p, int box, char *buf, size_t len)
{
	switch (p) {
	case LAYOUT_PMU_UNCORE:
		return "uncore";
	case LAYOUT_PMU_CBO:
		snprintf(buf, len, "uncore_cbox_%d", box);
		return buf;
	case LAYOUT_PMU_ARB:
		return "uncore_arb";
	case LAYOUT_PMU_IMC:
		return "uncore_imc";
	default:
		return NULL;
	}
}

/* Find the kernel's PMUs for the layout's uncore and the uncore clock. */
static void uncore_perf_discover(struct uncore *u)
{
	struct uncore_perf *up = u->perf;
	char err[300], name[32];

	for (int p = LAYOUT_PMU_UNCORE; p < LAYOUT_NPMUS; p++) {
		for (int b = 0; b < UNCORE_PERF_MAX_BOXES; b++) {
			const char *n = uncore_perf_name((enum layout_pmu)p, b, name, sizeof(name));

			if (perf_sys_pmu(up->sys, u->cfg.root, n, &up->box[p][b], err, sizeof(err)))
				break;
			up->nbox[p]++;
			if (p != LAYOUT_PMU_CBO)
				break; /* one PMU per socket */
		}
		if (!up->nbox[p])
			snprintf(up->missing[p], sizeof(up->missing[p]), "the kernel has no %s PMU in "
				 "sysfs (pmutop --doctor lists its PMUs); --source msr counts it",
				 uncore_perf_name((enum layout_pmu)p, 0, name, sizeof(name)));
	}
	/* the clock: a PMU of its own on newer kernels, else the first box's fixed counter */
	up->has_clock = !perf_sys_pmu(up->sys, u->cfg.root, "uncore_clock", &up->clock, err,
				      sizeof(err));
	if (!up->has_clock && up->nbox[LAYOUT_PMU_UNCORE]) {
		up->clock = up->box[LAYOUT_PMU_UNCORE][0];
		up->has_clock = true;
	} else if (!up->has_clock && up->nbox[LAYOUT_PMU_CBO]) {
		up->clock = up->box[LAYOUT_PMU_CBO][0];
		up->has_clock = true;
	}
}

/* The CPU socket S's events open on: the one of the PMU's cpumask on S, else its reader. */
static int uncore_perf_cpu(const struct uncore *u, const struct uncore_socket *s,
			   const char *cpumask)
{
	const struct topo *t = u->cfg.topo;
	int *cpus = NULL, n = 0, cpu = s->reader;
	size_t col;

	if (*cpumask && cpulist_parse(cpumask, &cpus, &n, &col) == 0)
		for (int i = 0; i < t->nthreads; i++)
			if (t->threads[i].socket == s->index && cpulist_contains(cpus, n,
										 t->threads[i].os_cpu)) {
				cpu = t->threads[i].os_cpu;
				break;
			}
	free(cpus);
	return cpu;
}

int uncore_perf_create(struct uncore *u, const struct perf_sys *sys,
		       const struct perf_access *access)
{
	struct uncore_perf *up = xcalloc(1, sizeof(*up));

	u->perf = up;
	up->sys = sys;
	up->access = access;
	up->cpu = xcalloc((size_t)u->nsocks + 1, sizeof(int));
	up->pg = xcalloc((size_t)u->nsocks * (size_t)u->l->ngroups * UNCORE_PERF_MAX_BOXES + 1,
			 sizeof(*up->pg));
	up->clock_pg = xcalloc((size_t)u->nsocks + 1, sizeof(*up->clock_pg));
	if (!u->used || u->cfg.perf_task)
		return 0; /* counting one command: no uncore (uncore_perf_plan says why) */
	uncore_perf_discover(u);
	for (int i = 0; i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];
		const char *mask = up->has_clock ? up->clock.cpumask : "";

		for (int p = LAYOUT_PMU_UNCORE; p < LAYOUT_NPMUS && !*mask; p++)
			if (up->nbox[p])
				mask = up->box[p][0].cpumask;
		up->cpu[i] = s->reader >= 0 ? uncore_perf_cpu(u, s, mask) : -1;
		if (up->has_clock && up->cpu[i] >= 0) {
			struct perf_pmu_config c;
			char err[400];

			/* the kernel's name for the clock where it has one, else event 0xff */
			if (perf_pmu_alias(&up->clock, "clockticks", &c)) {
				memset(&c, 0, sizeof(c));
				c.type = up->clock.type;
				perf_pmu_set(&up->clock, "event", 0xFF, &c);
			}
			if (perf_group_open(&up->clock_pg[i], sys, &c, 1, -1, up->cpu[i], true, true,
					    "the uncore clock", access, err, sizeof(err)) ||
			    perf_group_enable(&up->clock_pg[i]))
				perf_group_close(&up->clock_pg[i]);
		}
	}
	return 0;
}

static void uncore_perf_close_group(struct uncore *u, int g)
{
	for (int i = 0; i < u->nsocks; i++)
		for (int b = 0; b < UNCORE_PERF_MAX_BOXES; b++)
			perf_group_close(uncore_perf_pg(u, i, g, b));
}

/* The configs of group G's events on box P: 0, or -errno with why in WHY. */
static int uncore_perf_encode(struct uncore *u, int g, const struct perf_pmu *p,
			      struct perf_pmu_config *cfg, char *why, size_t len)
{
	const struct layout_group *grp = &u->l->groups[g];

	for (int i = 0; i < grp->nevents; i++) {
		const struct layout_event *ev = &u->l->events[grp->first_event + i];
		const char *name = NULL;
		int rc;

		if (grp->pmu != LAYOUT_PMU_IMC) {
			rc = perf_pmu_encode(p, ev, &cfg[i], why, len);
			if (rc)
				return rc;
			continue;
		}
		name = counter_perf_imc_name(ev->mmio);
		if (!name || perf_pmu_alias(p, name, &cfg[i])) {
			snprintf(why, len, "event %s: the kernel's %s has no event %s (%s/events)",
				 ev->name, p->name, name ? name : "for its counter", p->name);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* Open group G on every socket and box.  0, or -errno with the kernel's answer in WHY. */
static int uncore_perf_open_group(struct uncore *u, int g, char *why, size_t len)
{
	struct uncore_perf *up = u->perf;
	const struct layout_group *grp = &u->l->groups[g];
	struct perf_pmu_config cfg[PERF_GROUP_MAX];
	int opened = 0;

	if (grp->nevents > PERF_GROUP_MAX) {
		snprintf(why, len, "%d events, a perf group holds %d", grp->nevents, PERF_GROUP_MAX);
		return -EINVAL;
	}
	for (int b = 0; b < up->nbox[grp->pmu]; b++) {
		int rc = uncore_perf_encode(u, g, &up->box[grp->pmu][b], cfg, why, len);

		for (int i = 0; !rc && i < u->nsocks; i++) {
			struct perf_group *pg = uncore_perf_pg(u, i, g, b);
			char what[96];

			if (up->cpu[i] < 0 || u->socks[i].taken)
				continue;
			snprintf(what, sizeof(what), "the %.24s group on %.24s of socket %d", grp->name,
				 up->box[grp->pmu][b].name, i);
			rc = perf_group_open(pg, up->sys, cfg, grp->nevents, -1, up->cpu[i], true, true,
					     what, up->access, why, len);
			if (!rc && (rc = perf_group_enable(pg)) != 0)
				snprintf(why, len, "%.96s: enabling it failed: %.40s", what, strerror(-rc));
			opened += !rc;
		}
		if (rc) {
			uncore_perf_close_group(u, g);
			return rc;
		}
	}
	return opened ? 0 : -ENODEV;
}

void uncore_perf_fds(struct uncore *u, long core)
{
	if (u->perf)
		u->perf->fds_core = core;
}

void uncore_perf_plan(struct uncore *u, uint32_t groups)
{
	struct uncore_perf *up = u->perf;
	const struct layout *l = u->l;
	long need = up->fds_core + u->nsocks; /* the core's, and each socket's clock */

	up->open = 0;
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];

		if (grp->pmu == LAYOUT_PMU_CORE)
			continue;
		uncore_perf_close_group(u, g);
		if (!(groups & (1u << g)) || u->blocked[g][0])
			continue; /* off, or blocked by uncore_plan's own checks */
		if (u->cfg.perf_task) {
			snprintf(u->blocked[g], sizeof(u->blocked[g]), "counting one command: the uncore "
				 "counts whole sockets, which needs kernel.perf_event_paranoid 0 or less, or "
				 "CAP_PERFMON");
			continue;
		}
		if (!up->nbox[grp->pmu]) {
			snprintf(u->blocked[g], sizeof(u->blocked[g]), "%s", up->missing[grp->pmu]);
			continue;
		}
		/* its files counted with everything else's before it is opened */
		need += (long)grp->nevents * up->nbox[grp->pmu] * u->nsocks;
		if (perf_check_fd_limit(need, up->access, u->blocked[g], sizeof(u->blocked[g]))) {
			need -= (long)grp->nevents * up->nbox[grp->pmu] * u->nsocks;
			continue;
		}
		if (uncore_perf_open_group(u, g, u->blocked[g], sizeof(u->blocked[g]))) {
			if (!u->blocked[g][0])
				snprintf(u->blocked[g], sizeof(u->blocked[g]), "the kernel counts the "
					 "%s group on no socket", grp->name);
			continue;
		}
		up->open |= 1u << g;
	}
}

bool uncore_perf_live(const struct uncore *u, int g)
{
	return u->perf->open & (1u << g);
}

/* Read socket S's groups and clock; BASELINE: only start their deltas. */
static void uncore_perf_read_socket(struct uncore *u, struct uncore_socket *s, bool baseline)
{
	struct uncore_perf *up = u->perf;
	const struct layout *l = u->l;
	double t = u->cfg.clock(u->cfg.clock_ctx), secs = t - s->t_last;
	struct perf_group_delta d;

	if (up->clock_pg[s->index].n) {
		if (perf_group_read(&up->clock_pg[s->index], &d))
			s->failed = true;
		else if (!baseline)
			s->fixed_acc += perf_scale(d.count[0], d.enabled_ns, d.running_ns);
	} else {
		s->fixed_acc = NAN;
	}
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];
		double share = 0, scaled[PERF_GROUP_MAX] = { 0 };
		int boxes = 0;

		if (!(up->open & (1u << g)))
			continue;
		for (int b = 0; b < up->nbox[grp->pmu]; b++) {
			struct perf_group *pg = uncore_perf_pg(u, s->index, g, b);

			if (!pg->n)
				continue;
			if (perf_group_read(pg, &d)) {
				s->failed = true;
				continue;
			}
			if (baseline || !d.enabled_ns)
				continue;
			/* each box's counts over its own running time: the boxes summed, as msr sums them */
			share += (double)d.running_ns / (double)d.enabled_ns;
			boxes++;
			for (int i = 0; i < pg->n && d.running_ns; i++) {
				scaled[i] += perf_scale(d.count[i], d.enabled_ns, d.running_ns);
				s->moved[grp->first_event + i] |= d.count[i] > 0;
			}
		}
		if (!boxes)
			continue;
		/*
		 * The group's share of the interval is the boxes' mean; acc and live
		 * both carry it, so acc x seconds / live is the scaled sum and
		 * live / seconds the share that marks the group.
		 */
		share /= boxes;
		for (int i = 0; i < grp->nevents; i++) {
			s->acc[grp->first_event + i] += scaled[i] * share;
			s->live[grp->first_event + i] += share * secs;
		}
	}
	s->t_last = t;
}

void uncore_perf_baseline(struct uncore *u)
{
	for (int i = 0; i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];

		s->t_last = u->cfg.clock(u->cfg.clock_ctx);
		for (int k = 0; k < u->l->nevents; k++)
			s->acc[k] = s->live[k] = 0;
		s->fixed_acc = 0;
		s->failed = false;
		s->resets = 0;
		if (u->used && !s->taken && s->reader >= 0)
			uncore_perf_read_socket(u, s, true);
		s->t_start = s->t_last;
	}
}

void uncore_perf_read(struct uncore *u)
{
	for (int i = 0; i < u->nsocks; i++) {
		struct uncore_socket *s = &u->socks[i];

		if (u->used && !s->taken && s->reader >= 0)
			uncore_perf_read_socket(u, s, false);
	}
}

void uncore_perf_free(struct uncore *u)
{
	struct uncore_perf *up = u->perf;

	if (!up)
		return;
	for (int g = 0; g < u->l->ngroups; g++)
		uncore_perf_close_group(u, g);
	for (int i = 0; i < u->nsocks; i++)
		perf_group_close(&up->clock_pg[i]);
	free(up->pg);
	free(up->clock_pg);
	free(up->cpu);
	free(up);
	u->perf = NULL;
}
