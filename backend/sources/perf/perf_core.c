/*
 * perf_core: the perf source's core side, counting through
 * perf_event_open(2) instead of registers.
 *
 * Per CPU (system-wide, pid -1; or one command and what it starts) one perf
 * group per selected core group of the layout, its events as raw configs of
 * the kernel's "cpu" PMU (the bit positions from its format files), and the
 * three fixed-counter events as the generic hardware events (instructions,
 * cycles, ref-cycles; on AMD, which has no fixed counters, the msr PMU's
 * free-running irperf, aperf and mperf, which take no counter from the
 * groups), and where the kernel has them "slots" (fixed
 * counter 3) leading the topdown-* events of MSR_PERF_METRICS.  pmutop does not rotate: every group is open at once
 * and the kernel multiplexes them; each read gives the counts with the time
 * the group was enabled and the time it ran, so a group that ran less than
 * the interval is marked scaled with its live share, as pmutop's own
 * rotation is.  No register is written; nothing is left to restore.  The
 * TSC is read once per interval (it is the same on every CPU).
 */
#include "counter.h"
#include "cpulist.h"
#include "perf.h"
#include "perf_pmu.h"
#include "perf_source.h"
#include "plan.h"
#include "xmalloc.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/*
 * Each fixed counter's event, and on a CPU without fixed counters (AMD) the
 * msr PMU's free-running counter that stands for it: IRPerfCount for
 * instructions, APERF for cycles, MPERF for the reference clock.
 */
static const struct {
	uint64_t config;
	const char *name;
	const char *msr;
} perf_core_fixed[PMU_MAX_FIXED] = {
	{ PERF_COUNT_HW_INSTRUCTIONS, "instructions", "irperf" },
	{ PERF_COUNT_HW_CPU_CYCLES, "cycles", "aperf" },
	{ PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles", "mperf" },
	{ 0, "slots", NULL },  /* the cpu PMU's events/slots: fixed counter 3, the top-down group's leader */
};


struct perf_core {
	struct src_env env;
	const struct engine_config *cfg;
	const struct perf_source_config *pc; /* the source's own (cfg->source_cfg) */
	const struct layout *l;
	const struct perf_sys *sys;
	struct perf_group *pg;           /* per CPU: each layout group, then the fixed events */
	int stride;                      /* groups per CPU in PG */
	uint32_t fixed_usable;
	uint32_t topdown;                /* fields counted in the slots group, bit k */
	int td_field[PERF_GROUP_MAX];    /* the slots group's member m (from 1): its field */
	long fixed_files;                /* open files of the fixed events per CPU */
	layout_groups open;                   /* the core groups open */
	uint32_t gp_usable;
	double *tsc_prev;                /* per CPU: the TSC at its last read */
	unsigned char *lowpower;         /* per CPU: a low-power E-core, counted through cpu_lowpower */
	int pid;                         /* the task counted, -1 whole CPUs */
	int rc;                          /* the kernel's last refusal (-errno), 0 none */
	char note[400];                  /* fixed events the kernel refused, in every sample */
	char error[512];
};

static struct perf_core *perf_core_of(struct src_core *s)
{
	return (struct perf_core *)s;
}

static struct perf_group *perf_core_pg(const struct perf_core *p, int cpu, int g)
{
	return &p->pg[(size_t)cpu * (size_t)p->stride + (size_t)g];
}

/* The TSC now (one reading serves every CPU: it is invariant and synchronised), or NaN. */
static double perf_core_tsc(const struct perf_core *p)
{
	if (p->sys->tsc)
		return (double)p->sys->tsc(p->sys->ctx);
#if defined(__x86_64__) || defined(__i386__)
	return (double)__rdtsc();
#else
	return NAN;
#endif
}

static void perf_core_close_group(struct perf_core *p, int g)
{
	for (int i = 0; i < p->env.ncpus; i++)
		perf_group_close(perf_core_pg(p, i, g));
}

/*
 * Open group G (its N events in CFG, on a hybrid's E-cores CFG_E) on every
 * CPU; a CPU whose kind has no configuration (NULL) is left without it.  0,
 * or -errno with the kernel's answer explained in WHY (nothing stays open).
 * A CPU the kernel says is gone (ENODEV) is left without it: n/a there.
 */
static int perf_core_open_all(struct perf_core *p, int g, const struct perf_pmu_config *cfg,
			      const struct perf_pmu_config *cfg_e, int n, const char *name,
			      char *why, size_t len)
{
	int opened = 0, rc = 0;

	for (int i = 0; i < p->env.ncpus; i++) {
		struct perf_group *pg = perf_core_pg(p, i, g);
		unsigned kind = p->env.cpus[i].kind;
		const struct perf_pmu_config *c = kind == LAYOUT_CORES_E || kind == LAYOUT_CPU_LPE
						  ? cfg_e : cfg;
		struct perf_pmu_config lp[PERF_GROUP_MAX];
		char what[128];

		/*
		 * a low-power E-core: the fixed events through its own PMU (cpu_lowpower's
		 * type); the layout's groups are another core's events: n/a there
		 */
		if (c && p->lowpower[i] && p->pc->lowpower) {
			if (g < p->l->ngroups) {
				c = NULL;
			} else {
				for (int k = 0; k < n && k < PERF_GROUP_MAX; k++) {
					lp[k] = c[k];
					if (lp[k].type == PERF_TYPE_HARDWARE)
						lp[k].config[0] = (lp[k].config[0] & 0xFFFFFFFFull) |
								  (uint64_t)p->pc->lowpower->type << 32;
					else
						lp[k].type = p->pc->lowpower->type;
				}
				c = lp;
			}
		}
		if (!c) {
			if (g >= p->l->ngroups) /* a fixed counter this kind has not */
				p->env.cpus[i].fixed_na |= 1u << (g - p->l->ngroups);
			continue;
		}
		snprintf(what, sizeof(what), "the %s group on CPU %d", name, p->env.cpus[i].os_cpu);
		rc = perf_group_open(pg, p->pc->sys, c, n, p->pid, p->env.cpus[i].os_cpu,
				     p->cfg->count_user, p->cfg->count_kernel, what,
				     p->pc->access, why, len);
		if (rc == -ENODEV) {
			rc = 0;
			continue;
		}
		if (rc)
			break;
		rc = perf_group_enable(pg);
		if (rc) {
			snprintf(why, len, "%s: enabling it failed: %s", what, strerror(-rc));
			break;
		}
		opened++;
	}
	if (rc || !opened) {
		p->rc = rc ? rc : -ENODEV;
		perf_core_close_group(p, g);
		if (!rc)
			snprintf(why, len, "the kernel counts the %s group on no CPU", name);
		return rc ? rc : -ENODEV;
	}
	return 0;
}

/*
 * The slots group: the kernel's "slots" event (fixed counter 3) leading the
 * topdown-* events of the fields the layout reads (each the slots of its
 * field, as the kernel computes them from MSR_PERF_METRICS at every read).
 * Into CFG; how many events, 0 when the kernel has no slots event.
 */
static int perf_core_slots_group(struct perf_core *p, struct perf_pmu_config *cfg)
{
	int n = 0;

	p->topdown = 0;
	if (!p->pc->cpu || perf_pmu_alias(p->pc->cpu, "slots", &cfg[n]))
		return 0;
	n++;
	for (unsigned k = 0; k < p->cfg->topdown_fields && k < PERF_METRICS_FIELDS; k++)
		if (n < PERF_GROUP_MAX &&
		    !perf_pmu_alias(p->pc->cpu, perf_topdown_events[k], &cfg[n])) {
			p->td_field[n++] = (int)k;
			p->topdown |= 1u << k;
		}
	return n;
}

/*
 * A generic event's config on the core PMU PMU of a hybrid (Linux's extended
 * type: the PMU's type in bits 63:32, PERF_PMU_TYPE_SHIFT), else as it is.
 */
static uint64_t perf_core_generic(const struct perf_core *p, const struct perf_pmu *pmu,
				  uint64_t config)
{
	return p->cfg->cpu_kind && pmu ? config | (uint64_t)pmu->type << 32 : config;
}

/* The fixed-counter events, once: those the kernel refuses are n/a (fixed_usable). */
static void perf_core_open_fixed(struct perf_core *p)
{
	p->fixed_usable = 0;
	p->fixed_files = 0;
	p->note[0] = 0;
	for (int i = 0; i < p->env.ncpus; i++)
		p->env.cpus[i].fixed_na = 0;
	for (int n = 0; n < PMU_MAX_FIXED; n++) {
		struct perf_pmu_config cfg[PERF_GROUP_MAX] = {
			{ .type = PERF_TYPE_HARDWARE,
			  .config = { perf_core_generic(p, p->pc->cpu, perf_core_fixed[n].config) } } };
		/* an E-core's: its PMU's generic event; no fixed counter 3 (slots) there */
		struct perf_pmu_config cfg_e = {
			.type = PERF_TYPE_HARDWARE,
			.config = { perf_core_generic(p, p->pc->atom, perf_core_fixed[n].config) } };
		bool e_ok = n < 3 && (!p->cfg->cpu_kind || p->pc->atom);
		const char *msr = p->pc->msr ? perf_core_fixed[n].msr : NULL;
		struct perf_pmu_config free_running;
		int nev = n < 3 ? 1 : perf_core_slots_group(p, cfg);
		char why[400];

		if (!nev)
			continue; /* no fixed counter 3 here (before Ice Lake, most virtual machines) */
		if (msr && !perf_pmu_alias(p->pc->msr, msr, &free_running))
			cfg[0] = free_running;
		else
			msr = NULL;
		if (perf_core_open_all(p, p->l->ngroups + n, cfg, e_ok ? &cfg_e : NULL, nev,
				       msr ? msr : perf_core_fixed[n].name, why, sizeof(why))) {
			size_t k = strlen(p->note);

			if (n == 3)
				p->topdown = 0;
			snprintf(p->note + k, sizeof(p->note) - k, "%s%s (n/a)", k ? "; " : "", why);
			continue;
		}
		p->fixed_usable |= 1u << n;
		p->fixed_files += nev;
	}
	for (int i = 0; i < p->env.ncpus && p->pc->lowpower; i++)
		if (p->lowpower[i]) {
			size_t k = strlen(p->note);

			/* their events are another core's (Crestmont beside Skymont): not the E-cores' */
			snprintf(p->note + k, sizeof(p->note) - k, "%sthe low-power E-cores (%s, "
				 "cpu_lowpower) count the built-in figures only: the layout's E-core "
				 "groups are another core's events", k ? "; " : "",
				 p->pc->lowpower->cpus);
			break;
		}
	for (int i = 0; i < p->env.ncpus && p->cfg->cpu_kind && !p->pc->atom; i++)
		if (p->env.cpus[i].kind == LAYOUT_CORES_E) {
			size_t k = strlen(p->note);

			/* a hybrid whose kernel counts one kind: the other's figures are n/a */
			snprintf(p->note + k, sizeof(p->note) - k, "%sthe E-cores are n/a: the kernel has "
				 "no cpu_atom PMU to count them with", k ? "; " : "");
			break;
		}
}

/* Open core group G of the selection.  0, or -errno with why in BLOCKED. */
static int perf_core_open_group(struct perf_core *p, int g, long *need, char *blocked)
{
	const struct layout_group *grp = &p->l->groups[g];
	struct perf_pmu_config cfg[PERF_GROUP_MAX], cfg_e[PERF_GROUP_MAX];
	char why[SAMPLE_WHY_MAX];
	int rc = 0;

	if (p->pc->task && p->pid < 0) {
		snprintf(blocked, SAMPLE_WHY_MAX, "waiting for the command to start");
		return -EAGAIN;
	}
	if (plan_arch_unavailable(p->l, g, p->cfg->arch_events_absent, blocked, SAMPLE_WHY_MAX))
		return -EINVAL;
	if (grp->nevents > PERF_GROUP_MAX) {
		snprintf(blocked, SAMPLE_WHY_MAX, "%d events, a perf group holds %d", grp->nevents,
			 PERF_GROUP_MAX);
		return -EINVAL;
	}
	if (grp->coretype == LAYOUT_CORES_E && !p->pc->atom) {
		snprintf(blocked, SAMPLE_WHY_MAX, "an E-core group, and the kernel has no cpu_atom PMU "
			 "to count the E-cores with (%s)", p->cfg->cpu_kind
			 ? "a kernel before 5.13, or E-cores it does not know" : "no E-cores here");
		return -ENOENT;
	}
	/* one open file per event per CPU, checked before the kernel says EMFILE */
	*need += (long)grp->nevents * p->env.ncpus;
	if (perf_check_fd_limit(*need + p->fixed_files * p->env.ncpus, p->pc->access,
				why, sizeof(why)))
		rc = -EMFILE;
	/* each kind's own PMU: the P-cores' (or the only one), the E-cores' (cpu_atom) */
	for (int i = 0; i < grp->nevents && !rc && grp->coretype != LAYOUT_CORES_E; i++)
		rc = perf_pmu_encode(p->pc->cpu, &p->l->events[grp->first_event + i], &cfg[i],
				     why, sizeof(why));
	for (int i = 0; i < grp->nevents && !rc && p->pc->atom &&
			grp->coretype != LAYOUT_CORES_P; i++)
		rc = perf_pmu_encode(p->pc->atom, &p->l->events[grp->first_event + i],
				     &cfg_e[i], why, sizeof(why));
	if (!rc)
		rc = perf_core_open_all(p, g, grp->coretype == LAYOUT_CORES_E ? NULL : cfg,
					grp->coretype != LAYOUT_CORES_P && p->pc->atom ? cfg_e
					: !p->cfg->cpu_kind ? cfg : NULL,
					grp->nevents, grp->name, why, sizeof(why));
	if (rc) {
		snprintf(blocked, SAMPLE_WHY_MAX, "%s", why);
		*need -= (long)grp->nevents * p->env.ncpus;
	}
	return rc;
}

static void perf_core_plan(struct src_core *sc, layout_groups groups,
			   char (*blocked)[SAMPLE_WHY_MAX], struct src_plan *out)
{
	struct perf_core *p = perf_core_of(sc);
	const struct layout *l = p->l;
	long need = 0;

	p->open = 0;
	for (int g = 0; g < l->ngroups; g++) {
		if (l->groups[g].pmu != LAYOUT_PMU_CORE)
			continue;
		perf_core_close_group(p, g);
		blocked[g][0] = 0;
		if ((groups & LAYOUT_GROUP(g)) && !perf_core_open_group(p, g, &need, blocked[g]))
			p->open |= LAYOUT_GROUP(g);
	}
	*out = (struct src_plan){ .gp_usable = __builtin_popcount(p->gp_usable),
				  .fixed = p->fixed_usable, .topdown = p->topdown, .live = p->open,
				  .files = need + p->fixed_files * p->env.ncpus };
}

/*
 * Read every open group of CPU I into its accumulators (SET false: as a
 * baseline, the counts dropped), the TSC reading TSC, at time T.
 */
static void perf_core_read_cpu(struct perf_core *p, int i, bool set, double tsc, double t)
{
	const struct layout *l = p->l;
	struct src_cpu *c = &p->env.cpus[i];

	bool tsc_read = false;

	for (int g = 0; g < p->stride; g++) {
		struct perf_group *pg = perf_core_pg(p, i, g);
		struct perf_group_delta d;
		int rc;

		if (!pg->n)
			continue;
		if (g >= l->ngroups && !tsc_read && !isnan(tsc)) {
			/* the TSC around the fixed counters' read: their window and its the same */
			double before = perf_core_tsc(p);

			rc = perf_group_read(pg, &d);
			tsc = (before + perf_core_tsc(p)) / 2;
			tsc_read = true;
		} else {
			rc = perf_group_read(pg, &d);
		}
		if (rc) {
			c->failed = 1;
			c->offline |= rc == -ENODEV;
			if (rc != -ENODEV)
				snprintf(p->error, sizeof(p->error), "reading perf events of CPU %d: %s",
					 c->os_cpu, strerror(-rc));
			continue;
		}
		atomic_fetch_add_explicit(p->env.reads, 1, memory_order_relaxed);
		if (!set)
			continue;
		if (g >= l->ngroups) {
			int n = g - l->ngroups;

			/*
			 * the counts as read and the seconds they ran: the engine scales them
			 * to the interval, so a count stays a whole count (perf_scale's would not)
			 */
			c->fixed_acc[n] += (double)d.count[0];
			c->fixed_run[n] = (isnan(c->fixed_run[n]) ? 0 : c->fixed_run[n]) +
					  (double)d.running_ns * 1e-9;
			for (int k = 1; k < pg->n; k++) /* the slots group's topdown-* */
				c->td_acc[p->td_field[k]] += (double)d.count[k];
			continue;
		}
		for (int k = 0; k < pg->n; k++) {
			int ev = l->groups[g].first_event + k;

			c->ev[ev].acc += (double)d.count[k];
			c->ev[ev].live += (double)d.running_ns * 1e-9;
		}
	}
	if (set)
		c->tsc_acc += tsc - p->tsc_prev[i];
	p->tsc_prev[i] = isnan(tsc) ? 0 : tsc;
	if (isnan(tsc))
		c->tsc_acc = NAN;
	c->t_read = t;
	if (!set)
		c->t_interval = t;
}

/* ---- the operations -------------------------------------------------------- */

static void perf_core_free(struct src_core *sc)
{
	struct perf_core *p = perf_core_of(sc);

	if (!p)
		return;
	for (int i = 0; i < p->env.ncpus; i++)
		for (int g = 0; g < p->stride; g++)
			perf_group_close(perf_core_pg(p, i, g));
	free(p->pg);
	free(p->tsc_prev);
	free(p->lowpower);
	free(p);
}

static int perf_core_create(const struct src_env *env, struct src_core **out, char *err,
			    size_t errlen)
{
	const struct engine_config *cfg = env->cfg;
	struct perf_core *p = xcalloc(1, sizeof(*p));

	*out = NULL;
	p->env = *env;
	p->cfg = cfg;
	p->pc = perf_source_cfg(cfg->source_cfg);
	p->l = cfg->layout;
	p->sys = p->pc->sys ? p->pc->sys : &perf_sys_kernel;
	p->pid = -1;
	p->stride = p->l->ngroups + PMU_MAX_FIXED;
	p->pg = xcalloc((size_t)env->ncpus * (size_t)p->stride + 1, sizeof(*p->pg));
	p->tsc_prev = xcalloc((size_t)env->ncpus + 1, sizeof(double));
	p->lowpower = xcalloc((size_t)env->ncpus + 1, 1);
	if (p->pc->lowpower) {
		int *cpus = NULL, n = 0;
		size_t col;

		if (!cpulist_parse(p->pc->lowpower->cpus, &cpus, &n, &col))
			for (int i = 0; i < env->ncpus; i++)
				for (int k = 0; k < n; k++)
					p->lowpower[i] |= env->cpus[i].os_cpu == cpus[k];
		free(cpus);
	}
	p->gp_usable = ((cfg->gp_counters >= 32 ? 0 : (1u << cfg->gp_counters)) - 1) & ~cfg->gp_taken;
	p->gp_usable &= (1u << PMU_MAX_GP) - 1;
	if (!p->pc->task) {
		perf_core_open_fixed(p);
		if (!p->fixed_usable && p->note[0]) {
			/* the kernel counts nothing here: say why instead of a screen of n/a */
			snprintf(err, errlen, "%s", p->note);
			perf_core_free((struct src_core *)p);
			return -ENODEV;
		}
	}
	*out = (struct src_core *)p;
	return 0;
}

/*
 * The real kernel multiplexes on its own timer: one step per interval; the
 * emulated one is stepped as often as it says it needs (not at all when
 * every group has its counters: nothing rotates).
 */
static double perf_core_tick_s(const struct src_core *sc)
{
	const struct perf_sys *sys = ((const struct perf_core *)sc)->sys;

	return !sys->tick ? 0 : sys->tick_need ? sys->tick_need(sys->ctx) : sys->tick_s;
}

/* The emulated kernel's timer: it multiplexes at the emulated time. */
static void perf_core_tick(struct src_core *sc)
{
	const struct perf_sys *sys = perf_core_of(sc)->sys;

	if (sys->tick)
		sys->tick(sys->ctx);
}

static void perf_core_baseline(struct src_core *sc)
{
	struct perf_core *p = perf_core_of(sc);
	double t = src_now(p->cfg);

	/* each CPU's TSC as its counters are read: see perf_core_sweep */
	for (int i = 0; i < p->env.ncpus; i++) {
		src_cpu_restart(&p->env.cpus[i], p->l->nevents, t);
		perf_core_read_cpu(p, i, false, perf_core_tsc(p), t);
	}
}

/* The kernel counts between reads: only the interval's last step reads. */
static void perf_core_sweep(struct src_core *sc, bool final, struct src_sweep *out)
{
	struct perf_core *p = perf_core_of(sc);
	double t0;

	if (!final)
		return;
	t0 = src_real();
	/*
	 * Each CPU's TSC read around its fixed counters (perf_core_read_cpu): one
	 * TSC for the whole sweep gave the CPUs read last a window as far off
	 * theirs as the sweep's skew moved between two sweeps (utilisation 100.6 %
	 * on 224 CPUs under load).
	 */
	for (int i = 0; i < p->env.ncpus; i++)
		perf_core_read_cpu(p, i, true, perf_core_tsc(p), src_now(p->cfg));
	out->skew = src_real() - t0;
	out->batched = false;
}

/* The kernel's counts are deltas since the last read: every CPU goes on from it. */
static void perf_core_restart(struct src_core *sc, struct src_cpu *c)
{
	src_cpu_restart(c, perf_core_of(sc)->l->nevents, c->t_read);
}

static void perf_core_attach(struct src_core *sc, int pid)
{
	struct perf_core *p = perf_core_of(sc);

	for (int n = 0; n < PMU_MAX_FIXED; n++)
		perf_core_close_group(p, p->l->ngroups + n);
	p->pid = pid;
	p->rc = 0;
	perf_core_open_fixed(p);
}

/* Nothing of the command can be counted: say why, once. */
static int perf_core_attached(struct src_core *sc, const struct src_plan *plan,
			      char (*blocked)[SAMPLE_WHY_MAX], char *err, size_t errlen)
{
	struct perf_core *p = perf_core_of(sc);

	err[0] = 0;
	if (plan->fixed || plan->live)
		return 0;
	snprintf(err, errlen, "%s", p->note[0] ? p->note : "no event can be counted");
	for (int g = 0; g < p->l->ngroups && !p->note[0]; g++)
		if (blocked[g][0]) {
			snprintf(err, errlen, "%s", blocked[g]);
			break;
		}
	return p->rc ? p->rc : -ENODEV;
}

static void perf_core_notes(const struct src_core *sc, void (*add)(void *ctx, const char *text),
			    void *ctx)
{
	add(ctx, ((const struct perf_core *)sc)->note);
}

static const char *perf_core_error(const struct src_core *sc)
{
	return ((const struct perf_core *)sc)->error;
}

static void perf_core_clear_error(struct src_core *sc)
{
	perf_core_of(sc)->error[0] = 0;
}

const struct src_core_ops perf_core_ops = {
	.name = "perf",
	.kernel_multiplexes = true,
	.create = perf_core_create,
	.plan = perf_core_plan,
	.tick_s = perf_core_tick_s,
	.tick = perf_core_tick,
	.baseline = perf_core_baseline,
	.sweep = perf_core_sweep,
	.restart = perf_core_restart,
	.attach = perf_core_attach,
	.attached = perf_core_attached,
	.notes = perf_core_notes,
	.error = perf_core_error,
	.clear_error = perf_core_clear_error,
	.free = perf_core_free,
};
