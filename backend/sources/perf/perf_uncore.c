/*
 * perf_uncore: the perf source's uncore side: the per-socket PMUs through
 * the kernel's uncore PMUs.
 *
 * Each layout PMU is one or more kernel PMUs, found by name and described
 * by their sysfs format files (never a bit position of pmutop's own):
 * Nehalem/Westmere's "uncore", Skylake client's "uncore_cbox_N" (every
 * slice, summed as the msr path sums them), "uncore_arb", and "uncore_imc"
 * whose free-running counters are the kernel's named events (events/
 * data_reads, ...).  The uncore clock is the kernel's "clockticks" where it
 * names one, else its fixed-counter event 0xff on the first box.  Per
 * socket one perf group per layout group and box, opened on the socket's
 * CPU from the PMU's cpumask; the kernel multiplexes, each box's counts
 * are scaled from its running time to pmutop's interval (perf_over) and
 * the group's share marks it.  A PMU the kernel lacks blocks the groups
 * that need it with its name.  Only an interval's last step reads.
 */
#include "counter.h"
#include "cpulist.h"
#include "perf.h"
#include "perf_source.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Boxes of one kind per socket: a 2-socket Granite Rapids has 128 CHAs a socket. */
#define UNCORE_PERF_MAX_BOXES 256

/*
 * What group G opens on box B of its kind (the same on every socket): its
 * events there (all of them on summed boxes; on memory-channel boxes those
 * of channel B and the channel-less ones), their configs, and the factor
 * that turns a count into the layout's unit (an alias's .scale, else 1).
 */
struct perf_uset {
	int n;
	int ev[PERF_GROUP_MAX];           /* layout event indices */
	double scale[PERF_GROUP_MAX];
	struct perf_pmu_config cfg[PERF_GROUP_MAX];
};

struct perf_uncore {
	struct src_uncore_env env;
	const struct uncore_config *cfg;
	const struct perf_source_config *pc; /* the source's own (cfg->source_cfg) */
	const struct layout *l;
	const struct perf_sys *sys;
	struct perf_pmu *box[LAYOUT_NPMUS]; /* the kind's boxes, in number order */
	int *boxno[LAYOUT_NPMUS];         /* each one's number (uncore_imc_N: channel N) */
	/*
	 * AMD's boxes of one socket (amd_umc_N, an amd_l3 CPU): its socket and
	 * the CPU it counts on; -1 for a PMU on every socket (its socket's CPU)
	 */
	int *boxsock[LAYOUT_NPMUS], *boxcpu[LAYOUT_NPMUS];
	int nbox[LAYOUT_NPMUS];
	char missing[LAYOUT_NPMUS][224];  /* why a layout PMU has no kernel PMU */
	struct perf_pmu clock;
	bool has_clock;
	layout_groups open;                    /* uncore groups open */
	int *cpu;                         /* per socket: the CPU its events are opened on */
	int *goff;                        /* per group: its first (group, box) slot */
	int nslots;                       /* (group, box) slots in all */
	struct perf_uset *set;            /* per slot */
	struct perf_group *pg;            /* [socket][slot] */
	struct perf_group *clock_pg;      /* per socket */
	double *scratch;                  /* one group's counts, summed over its boxes */
	char note[300];                   /* boxes missing between the kernel's numbers, "" none */
};

static struct perf_uncore *perf_uncore_of(struct src_uncore *u)
{
	return (struct perf_uncore *)u;
}

static struct perf_group *perf_uncore_pg(const struct perf_uncore *up, int sock, int g, int b)
{
	return &up->pg[(size_t)sock * (size_t)up->nslots + (size_t)(up->goff[g] + b)];
}

/* The kernel's PMU name of box BOX of kind P (layout_pmu_kinds: "uncore", "uncore_cbox_0", ...). */
static const char *perf_uncore_name(enum layout_pmu p, int box, char *buf, size_t len)
{
	if (layout_pmu_kinds[p].summed_boxes && !layout_pmu_kinds[p].cpu_boxes)
		snprintf(buf, len, "%s%d", layout_pmu_kinds[p].kernel, box);
	else
		snprintf(buf, len, "%s", layout_pmu_kinds[p].kernel);
	return buf;
}

/* Add box PMU of kind P numbered NO, on socket SOCK's CPU CPU (-1, -1: every socket's). */
static void perf_uncore_add_box(struct perf_uncore *up, int p, const struct perf_pmu *pmu, int no,
				int sock, int cpu)
{
	int n = up->nbox[p];

	up->box[p] = xrealloc(up->box[p], (size_t)n + 1, sizeof(*pmu));
	up->boxno[p] = xrealloc(up->boxno[p], (size_t)n + 1, sizeof(int));
	up->boxsock[p] = xrealloc(up->boxsock[p], (size_t)n + 1, sizeof(int));
	up->boxcpu[p] = xrealloc(up->boxcpu[p], (size_t)n + 1, sizeof(int));
	up->box[p][n] = *pmu;
	up->boxno[p][n] = no;
	up->boxsock[p][n] = sock;
	up->boxcpu[p][n] = cpu;
	up->nbox[p]++;
}

/* Box B of kind P, a core's (cstate_core), counted N of event EV over LIVE s: into S's core column. */
static void perf_uncore_core_add(struct perf_uncore *up, struct src_socket *s, int p, int b, int ev,
				 double n, double live)
{
	const struct topo_thread *th = topo_thread_of_cpu(up->cfg->topo, up->boxcpu[p][b]);
	int j = s->core_ev[ev];

	if (!th || th->core < 0 || th->core >= s->ncore)
		return;
	s->core_acc[th->core * s->ncore_ev + j] += n;
	s->core_live[th->core * s->ncore_ev + j] += live;
}

/*
 * AMD's boxes of PMU (kind P): each CPU of its cpumask one box of that
 * CPU's socket (amd_l3: ALL), or its first CPU's socket the box's
 * (amd_umc_N); numbered in their socket in order (a UMC: its channel).
 */
static void perf_uncore_add_amd(struct perf_uncore *up, int p, const struct perf_pmu *pmu, bool all)
{
	int *cpus = NULL, n = 0;
	size_t col;

	if (cpulist_parse(pmu->cpumask, &cpus, &n, &col))
		n = 0;
	for (int i = 0; i < (all ? n : n > 0); i++) {
		const struct topo_thread *th = topo_thread_of_cpu(up->cfg->topo, cpus[i]);
		int sock = th ? th->socket : TOPO_NONE, rank = 0;

		if (sock < 0)
			continue; /* a CPU the topology lacks (offline) */
		for (int b = 0; b < up->nbox[p]; b++)
			rank += up->boxsock[p][b] == sock;
		perf_uncore_add_box(up, p, pmu, rank, sock, cpus[i]);
	}
	free(cpus);
}

/* Find the kernel's PMUs for the layout's uncore and the uncore clock. */
static void perf_uncore_discover(struct perf_uncore *up)
{
	char err[300], name[64];
	struct perf_pmu *pmu = xcalloc(1, sizeof(*pmu));

	for (int p = 0; p < LAYOUT_NPMUS; p++) {
		if (!layout_pmu_kinds[p].per_socket)
			continue;
		int nums[UNCORE_PERF_MAX_BOXES], n = 1;

		/* the numbers the kernel's uncore driver gave them (a box that failed: a gap) */
		nums[0] = 0;
		if (layout_pmu_kinds[p].summed_boxes && !layout_pmu_kinds[p].cpu_boxes)
			n = perf_sys_box_numbers(up->sys, up->cfg->root, layout_pmu_kinds[p].kernel,
						 nums, UNCORE_PERF_MAX_BOXES);
		for (int i = 0; i < n; i++) {
			const char *pn = perf_uncore_name((enum layout_pmu)p, nums[i], name, sizeof(name));

			/* one whose sysfs files are wrong is skipped (--list-pmus says why) */
			if (perf_sys_pmu(up->sys, up->cfg->root, pn, pmu, err, sizeof(err)))
				continue;
			if (layout_pmu_kinds[p].cpu_boxes || layout_pmu_kinds[p].socket_boxes)
				perf_uncore_add_amd(up, p, pmu, layout_pmu_kinds[p].cpu_boxes);
			else
				perf_uncore_add_box(up, p, pmu, nums[i], -1, -1);
		}
		/* a box missing between the numbers: its socket sums leave it out, said */
		if (up->nbox[p] && up->boxno[p][up->nbox[p] - 1] + 1 != up->nbox[p] && !up->note[0] &&
		    !layout_pmu_kinds[p].box_channels && !layout_pmu_kinds[p].cpu_boxes)
			snprintf(up->note, sizeof(up->note), "the kernel has %d of the %d %s boxes its "
				 "numbers run to (a box its uncore driver failed: dmesg): the sums over "
				 "them leave the others out", up->nbox[p], up->boxno[p][up->nbox[p] - 1] + 1,
				 layout_pmu_kinds[p].kernel);
		if (!up->nbox[p])
			snprintf(up->missing[p], sizeof(up->missing[p]), "the kernel has no %s PMU in "
				 "sysfs (pmutop --doctor lists its PMUs)%s",
				 perf_uncore_name((enum layout_pmu)p, 0, name, sizeof(name)),
				 p == LAYOUT_PMU_CSTATE_CORE || p == LAYOUT_PMU_CSTATE_PKG
				 ? ": a virtual machine (the cstate driver stays off under a "
				 "hypervisor), or a CPU the kernel's cstate driver does not list"
				 : layout_pmu_kinds[p].kernel_only ? ": a virtual machine, or a kernel "
				 "without this CPU's uncore driver" : "; --source msr counts it");
	}
	free(pmu);
	/* the clock: a PMU of its own on newer kernels, else the first programmable box's */
	up->has_clock = !perf_sys_pmu(up->sys, up->cfg->root, "uncore_clock", &up->clock, err,
				      sizeof(err));
	for (int p = 0; p < LAYOUT_NPMUS && !up->has_clock; p++)
		if (layout_pmu_kinds[p].per_socket && layout_pmu_kinds[p].counters &&
		    !layout_pmu_kinds[p].kernel_only && up->nbox[p]) {
			up->clock = up->box[p][0];
			up->has_clock = true;
		}
}

/* The CPU socket S's events open on: the one of the PMU's cpumask on S, else its reader. */
static int perf_uncore_cpu(const struct perf_uncore *up, const struct src_socket *s,
			   const char *cpumask)
{
	const struct topo *t = up->cfg->topo;
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

/* Socket I's uncore clock: the kernel's name for it where it has one, else event 0xff. */
static void perf_uncore_open_clock(struct perf_uncore *up, int i)
{
	struct perf_pmu_config c;
	char err[400];

	if (perf_pmu_alias(&up->clock, "clockticks", &c)) {
		memset(&c, 0, sizeof(c));
		c.type = up->clock.type;
		perf_pmu_set(&up->clock, "event", 0xFF, &c);
	}
	if (perf_group_open(&up->clock_pg[i], up->sys, &c, 1, -1, up->cpu[i], true, true,
			    "the uncore clock", up->pc->access, err, sizeof(err)) ||
	    perf_group_enable(&up->clock_pg[i]))
		perf_group_close(&up->clock_pg[i]);
}

static void perf_uncore_close_group(struct perf_uncore *up, int g)
{
	for (int i = 0; i < up->env.nsocks; i++)
		for (int b = 0; b < up->nbox[up->l->groups[g].pmu]; b++)
			perf_group_close(perf_uncore_pg(up, i, g, b));
}

/* Whether event EV counts on box B of its kind (a box's events, channel events: that box only). */
static bool perf_uncore_on_box(const struct perf_uncore *up, const struct layout_event *ev, int b)
{
	int no = up->boxno[ev->pmu][b];

	if (ev->box >= 0)
		return ev->box == no;
	return !layout_pmu_kinds[ev->pmu].box_channels || ev->channel < 0 || ev->channel == no;
}

/* How many of group G's events count on box B of its kind: one perf group's members. */
static int perf_uncore_set_size(const struct perf_uncore *up, int g, int b)
{
	const struct layout_group *grp = &up->l->groups[g];
	int n = 0;

	for (int i = 0; i < grp->nevents; i++)
		n += perf_uncore_on_box(up, &up->l->events[grp->first_event + i], b);
	return n;
}

/* The set of group G on box B (P): 0, or -errno with why in WHY. */
static int perf_uncore_encode(struct perf_uncore *up, int g, int b, const struct perf_pmu *p,
			      struct perf_uset *set, char *why, size_t len)
{
	const struct layout_group *grp = &up->l->groups[g];

	set->n = 0;
	if (perf_uncore_set_size(up, g, b) > PERF_GROUP_MAX) {
		snprintf(why, len, "%d events on %s, a perf group holds %d",
			 perf_uncore_set_size(up, g, b), p->name, PERF_GROUP_MAX);
		return -EINVAL;
	}
	for (int i = 0; i < grp->nevents; i++) {
		const struct layout_event *ev = &up->l->events[grp->first_event + i];
		struct perf_pmu_config *c = &set->cfg[set->n];
		const char *name = NULL;
		int rc, a;

		if (!perf_uncore_on_box(up, ev, b))
			continue;
		set->ev[set->n] = grp->first_event + i;
		set->scale[set->n] = 1;
		if (layout_pmu_kinds[grp->pmu].aliases) {
			/* the kernel's named event, its count in the unit its .scale gives */
			name = ev->spec;
		} else if (!layout_pmu_kinds[grp->pmu].free_running) {
			rc = perf_pmu_encode(p, ev, c, why, len);
			if (rc)
				return rc;
			set->n++;
			continue;
		} else {
			/* a free-running counter is one of the kernel's named events */
			name = counter_perf_imc_name(ev->mmio);
		}
		if (!name || perf_pmu_alias(p, name, c)) {
			snprintf(why, len, "event %s: the kernel's %s has no event %s (%s/events)",
				 ev->name, p->name, name ? name : "for its counter", p->name);
			return -EOPNOTSUPP;
		}
		for (a = 0; a < p->naliases; a++)
			if (!strcmp(p->alias[a].name, name))
				set->scale[set->n] = p->alias[a].scale;
		set->n++;
	}
	return 0;
}

/* Open group G on every socket and box.  0, or -errno with the kernel's answer in WHY. */
static int perf_uncore_open_group(struct perf_uncore *up, int g, char *why, size_t len)
{
	const struct layout_group *grp = &up->l->groups[g];
	int opened = 0;

	for (int b = 0; b < up->nbox[grp->pmu]; b++) {
		struct perf_uset *set = &up->set[up->goff[g] + b];
		int rc = perf_uncore_encode(up, g, b, &up->box[grp->pmu][b], set, why, len);

		for (int i = 0; !rc && set->n && i < up->env.nsocks; i++) {
			struct perf_group *pg = perf_uncore_pg(up, i, g, b);
			int sock = up->boxsock[grp->pmu][b], cpu = up->boxcpu[grp->pmu][b];
			char what[96];

			if (up->cpu[i] < 0 || up->env.socks[i].taken || (sock >= 0 && sock != i))
				continue;
			snprintf(what, sizeof(what), "the %.24s group on %.24s of socket %d", grp->name,
				 up->box[grp->pmu][b].name, i);
			rc = perf_group_open(pg, up->sys, set->cfg, set->n, -1, cpu >= 0 ? cpu : up->cpu[i],
					     true, true, what, up->pc->access, why, len);
			if (!rc && (rc = perf_group_enable(pg)) != 0)
				snprintf(why, len, "%.96s: enabling it failed: %.40s", what, strerror(-rc));
			opened += !rc;
		}
		if (rc) {
			perf_uncore_close_group(up, g);
			return rc;
		}
	}
	return opened ? 0 : -ENODEV;
}

/* Open selected group G (not blocked yet): 0, or -errno with why in BLOCKED. */
static int perf_uncore_plan_group(struct perf_uncore *up, int g, long *need, char *blocked)
{
	const struct layout_group *grp = &up->l->groups[g];
	long files = 0;

	/* one open file per event on each box it counts on, on every socket (AMD's: on its own) */
	for (int b = 0; b < up->nbox[grp->pmu]; b++)
		files += perf_uncore_set_size(up, g, b) *
			 (up->boxsock[grp->pmu][b] >= 0 ? 1 : up->env.nsocks);

	if (up->pc->task) {
		snprintf(blocked, SAMPLE_WHY_MAX, "counting one command: the uncore counts whole "
			 "sockets, which needs kernel.perf_event_paranoid 0 or less, or CAP_PERFMON");
		return -EPERM;
	}
	if (!up->nbox[grp->pmu]) {
		snprintf(blocked, SAMPLE_WHY_MAX, "%s", up->missing[grp->pmu]);
		return -ENOENT;
	}
	/* its files counted with everything else's before it is opened */
	*need += files;
	if (perf_check_fd_limit(*need, up->pc->access, blocked, SAMPLE_WHY_MAX)) {
		*need -= files;
		return -EMFILE;
	}
	if (perf_uncore_open_group(up, g, blocked, SAMPLE_WHY_MAX)) {
		if (!blocked[0])
			snprintf(blocked, SAMPLE_WHY_MAX, "the kernel counts the %s group on no socket",
				 grp->name);
		return -ENODEV;
	}
	return 0;
}

static void perf_uncore_plan(struct src_uncore *su, layout_groups groups, long core_files,
			     char (*blocked)[SAMPLE_WHY_MAX], struct src_uplan *out)
{
	struct perf_uncore *up = perf_uncore_of(su);
	const struct layout *l = up->l;
	long need = core_files + up->env.nsocks; /* the core's, and each socket's clock */

	up->open = 0;
	for (int g = 0; g < l->ngroups; g++) {
		if (!layout_pmu_kinds[l->groups[g].pmu].per_socket)
			continue;
		perf_uncore_close_group(up, g);
		/* off, or blocked by the uncore's own checks */
		if ((groups & LAYOUT_GROUP(g)) && !blocked[g][0] &&
		    !perf_uncore_plan_group(up, g, &need, blocked[g]))
			up->open |= LAYOUT_GROUP(g);
	}
	*out = (struct src_uplan){ .live = up->open, .poll_s = INFINITY };
}

/* Read socket S's groups and clock; BASELINE: only start their deltas. */
static void perf_uncore_read_socket(struct perf_uncore *up, struct src_socket *s, bool baseline)
{
	const struct layout *l = up->l;
	double t = up->cfg->clock(up->cfg->clock_ctx), secs = t - s->t_last;
	struct perf_group_delta d;

	if (up->clock_pg[s->index].n) {
		if (perf_group_read(&up->clock_pg[s->index], &d))
			s->failed = true;
		else if (!baseline)
			s->fixed_acc += perf_over(d.count[0], d.running_ns, secs);
	} else {
		s->fixed_acc = NAN;
	}
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];
		double share = 0, *scaled = up->scratch;
		int boxes = 0;

		if (!(up->open & LAYOUT_GROUP(g)))
			continue;
		/* NaN: counted on no box (yet) */
		for (int i = 0; i < grp->nevents; i++)
			scaled[i] = NAN;
		for (int b = 0; b < up->nbox[grp->pmu]; b++) {
			struct perf_group *pg = perf_uncore_pg(up, s->index, g, b);
			const struct perf_uset *set = &up->set[up->goff[g] + b];
			double live; /* the seconds of SECS the box counted */

			if (!pg->n)
				continue;
			if (perf_group_read(pg, &d)) {
				s->failed = true;
				continue;
			}
			if (baseline || !d.enabled_ns)
				continue;
			/* each box's counts over its own running time, the boxes summed as msr sums them */
			share += (double)d.running_ns / (double)d.enabled_ns;
			boxes++;
			live = secs * d.running_ns / d.enabled_ns;
			for (int i = 0; i < pg->n && d.running_ns; i++) {
				double *acc = &scaled[set->ev[i] - grp->first_event], v;
				double n = perf_over(d.count[i], d.enabled_ns, secs) * set->scale[i];
				int j = s->nbox > b ? s->box_ev[set->ev[i]] : -1;

				v = perf_over(d.count[i], d.running_ns, secs) * set->scale[i];
				*acc = (isnan(*acc) ? 0 : *acc) + v;
				s->moved[set->ev[i]] |= d.count[i] > 0;
				if (j >= 0) { /* the CHA alone: its count over the time it counted */
					s->box_acc[b * s->nbox_ev + j] += n;
					s->box_live[b * s->nbox_ev + j] += live;
				}
				if (s->ncore && s->core_ev[set->ev[i]] >= 0)
					perf_uncore_core_add(up, s, grp->pmu, b, set->ev[i], n, live);
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
			if (isnan(scaled[i]))
				continue; /* on no box the kernel has (a channel whose box is missing) */
			s->ev[grp->first_event + i].acc += scaled[i] * share;
			s->ev[grp->first_event + i].live += share * secs;
		}
	}
	s->t_last = t;
}

static void perf_uncore_baseline(struct src_uncore *su, struct src_socket *s)
{
	perf_uncore_read_socket(perf_uncore_of(su), s, true);
}

static void perf_uncore_read(struct src_uncore *su, struct src_socket *s, bool final)
{
	if (final)
		perf_uncore_read_socket(perf_uncore_of(su), s, false);
}

/* The kernel's counts are deltas since the last read: every socket goes on from it. */
static void perf_uncore_restart(struct src_uncore *su, struct src_socket *s)
{
	src_socket_restart(s, perf_uncore_of(su)->l->nevents);
}

static const char *perf_uncore_none(const struct src_uncore *su)
{
	(void)su;
	return "";
}

static const char *perf_uncore_note(const struct src_uncore *su)
{
	return ((const struct perf_uncore *)su)->note;
}

static void perf_uncore_clear(struct src_uncore *su)
{
	(void)su;
}

static void perf_uncore_free(struct src_uncore *su)
{
	struct perf_uncore *up = perf_uncore_of(su);

	if (!up)
		return;
	for (int g = 0; g < up->l->ngroups; g++)
		perf_uncore_close_group(up, g);
	for (int i = 0; i < up->env.nsocks; i++)
		perf_group_close(&up->clock_pg[i]);
	for (int p = 0; p < LAYOUT_NPMUS; p++) {
		free(up->box[p]);
		free(up->boxno[p]);
		free(up->boxsock[p]);
		free(up->boxcpu[p]);
	}
	src_boxes_free(up->env.socks, up->env.nsocks);
	free(up->pg);
	free(up->set);
	free(up->goff);
	free(up->scratch);
	free(up->clock_pg);
	free(up->cpu);
	free(up);
}

/* The kernel programs its uncore PMUs: nothing saved, nothing enabled here. */
static int perf_uncore_create(const struct src_uncore_env *env, struct src_uncore **out,
			      char *err, size_t errlen)
{
	struct perf_uncore *up = xcalloc(1, sizeof(*up));

	(void)err;
	(void)errlen;
	up->env = *env;
	up->cfg = env->cfg;
	up->pc = perf_source_cfg(env->cfg->source_cfg);
	up->l = env->cfg->layout;
	up->sys = up->pc->sys ? up->pc->sys : &perf_sys_kernel;
	up->cpu = xcalloc((size_t)env->nsocks + 1, sizeof(int));
	up->clock_pg = xcalloc((size_t)env->nsocks + 1, sizeof(*up->clock_pg));
	up->goff = xcalloc((size_t)up->l->ngroups + 1, sizeof(int));
	up->scratch = xcalloc((size_t)up->l->nevents + 1, sizeof(double));
	*out = (struct src_uncore *)up;
	if (!up->pc->task)
		perf_uncore_discover(up);
	/* one slot per group and box of its kind: opened once, read once an interval */
	for (int g = 0; g < up->l->ngroups; g++) {
		up->goff[g] = up->nslots;
		if (layout_pmu_kinds[up->l->groups[g].pmu].per_socket)
			up->nslots += up->nbox[up->l->groups[g].pmu];
	}
	/* the CHAs one by one, beside their sum */
	src_boxes_alloc(env->socks, env->nsocks, up->l, LAYOUT_PMU_CHA, up->nbox[LAYOUT_PMU_CHA]);
	/* and each core's C-state residency, beside its socket's sum */
	if (up->nbox[LAYOUT_PMU_CSTATE_CORE])
		src_cores_alloc(env->socks, env->nsocks, up->l, up->cfg->topo->ncores);
	up->set = xcalloc((size_t)up->nslots + 1, sizeof(*up->set));
	up->pg = xcalloc((size_t)env->nsocks * (size_t)up->nslots + 1, sizeof(*up->pg));
	if (up->pc->task)
		return 0; /* counting one command: no uncore (perf_uncore_plan says why) */
	for (int i = 0; i < env->nsocks; i++) {
		const struct src_socket *s = &env->socks[i];
		const char *mask = up->has_clock ? up->clock.cpumask : "";

		for (int p = 0; p < LAYOUT_NPMUS && !*mask; p++)
			if (up->nbox[p])
				mask = up->box[p][0].cpumask;
		up->cpu[i] = s->reader >= 0 ? perf_uncore_cpu(up, s, mask) : -1;
		if (up->has_clock && up->cpu[i] >= 0)
			perf_uncore_open_clock(up, i);
	}
	return 0;
}

const struct src_uncore_ops perf_uncore_ops = {
	.beside = true,
	.create = perf_uncore_create,
	.plan = perf_uncore_plan,
	.baseline = perf_uncore_baseline,
	.read = perf_uncore_read,
	.restart = perf_uncore_restart,
	.note = perf_uncore_note,
	.error = perf_uncore_none,
	.clear = perf_uncore_clear,
	.free = perf_uncore_free,
};
