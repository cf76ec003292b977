/*
 * emu_perf_tick: the emulated kernel's multiplexing timer, which rotates
 * every context whose groups do not all fit at each period of emulated
 * time, as Linux's hrtimer does whatever the machine's load.  See
 * emu_perf_int.h.
 */
#include "emu_perf.h"
#include "emu_perf_int.h"
#include "emu_int.h"
#include "xmalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <time.h>

/*
 * The PMUs whose contexts CPU may hold: all on a socket's leader or an L3's
 * CPU (amd_l3), else the core's alone (a server has a hundred uncore PMUs;
 * the msr PMU's counters run free and never rotate).
 */
static int ek_npmus_on(const struct emu_perf *k, int cpu)
{
	return k->cpus[cpu].uncore_cpu ? k->npmus : k->lowpower_pmu >= 0 ? k->lowpower_pmu + 1
	       : k->atom_pmu >= 0 ? k->atom_pmu + 1 : 1;
}

/* Whether context C has an enabled group that is not on the counters (kept by ek_schedule). */
static bool ek_rotate_necessary(const struct emu_perf *k, const struct ek_ctx *c)
{
	(void)k;
	return c->rotates;
}

/*
 * How often the timer must be called: every EK_TICK_CALL_S while some
 * context rotates (each call rotates once per multiplexing period since
 * the last, at its own emulated time, so the sampler need not wake at the
 * period: 250 wake-ups a second were a quarter of an emulated server's
 * cost); a second while the IMC's 32-bit free-running counters are open
 * (so they never wrap twice unseen); else never.
 */
double ek_tick_need(void *ctx)
{
	struct emu_perf *k = ctx;
	double need = 0;

	ek_lock(k);
	for (int cpu = 0; cpu < k->ncpus && need != EK_TICK_CALL_S; cpu++)
		for (int p = 0; p < ek_npmus_on(k, cpu); p++) {
			const struct ek_ctx *c = &k->cpus[cpu].ctx[p];

			if (c->norder > 1 && ek_rotate_necessary(k, c)) {
				need = EK_TICK_CALL_S;
				break;
			}
			if (c->norder && k->pmus[p].kind == EK_SKL_IMC)
				need = EK_WRAP_TICK_S;
		}
	ek_unlock(k);
	return need;
}

/* The calling thread's CPU time, s: what catching up costs (a preempted step costs nothing). */
static double ek_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Which groups of counted context C its schedule would put on the counters
 * with its order rotated R times: ON[i] for the group at c->order[i].  As
 * ek_schedule: in order, until the first that does not fit.
 */
static void ek_lazy_sets(struct emu_perf *k, const struct ek_ctx *c, int r, bool *on)
{
	uint32_t gp = 0, fixed = 0;

	for (int i = 0; i < c->norder; i++)
		on[i] = false;
	for (int q = 0; q < c->norder; q++) {
		int i = (r + q) % c->norder, hw[PERF_GROUP_MAX];
		const struct ek_event *l = &k->ev[c->order[i]];

		if (!l->enabled)
			continue;
		if (!ek_fit(k, c, l, gp, fixed, hw))
			break;
		on[i] = true;
		for (int m = 0; m < l->nmembers; m++)
			if (hw[m] >= EK_HW_FIXED && hw[m] < EK_HW_FREE)
				fixed |= 1u << (hw[m] - EK_HW_FIXED);
			else if (hw[m] >= 0 && hw[m] < EK_HW_FIXED)
				gp |= 1u << hw[m];
	}
}

/* Groups of a context whose rotations ek_lazy_apply works out without allocating. */
#define EK_LAZY_FEW 32

/*
 * A counted box's context (a server's CHA, link or fabric groups: the
 * model counts them, no register is written) rotates on paper: the timer
 * notes its periods, and the next time anything touches the context
 * (ek_sync: a read, an open, a close, an ioctl) they are applied at once,
 * each period's groups given its time and its counts (ek_defer sums them
 * within a segment of the truth).  Rescheduling 112 CHA contexts every
 * 4 ms was most of an emulated Sapphire Rapids' cost.
 */
void ek_lazy_apply(struct emu_perf *k, int cpu, int pmu)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];
	int n = c->lazy_n, no = c->norder;
	/* on the stack for the usual few groups: this runs at every read of every box */
	bool few[EK_LAZY_FEW * EK_LAZY_FEW], *on = few;
	double a = c->t;

	c->lazy_n = 0;
	if (n <= 0 || no < 1)
		return;
	if (no > EK_LAZY_FEW)
		on = xcalloc((size_t)no * (size_t)no, sizeof(*on));
	for (int r = 0; r < no; r++)
		ek_lazy_sets(k, c, r, on + (size_t)r * (size_t)no);
	/* before the J-th period's tick the order had turned J - 1 times */
	for (int j = 1; j <= n; j++) {
		double b = c->lazy_t0 + (j - 1) * EMU_PERF_TICK_S;
		const bool *set = on + (size_t)((j - 1) % no) * (size_t)no;
		uint64_t dt;

		if (!(b > a))
			continue;
		dt = (uint64_t)((b - a) * 1e9 + 0.5);
		for (int i = 0; i < no; i++) {
			struct ek_event *l = &k->ev[c->order[i]];

			if (!l->enabled)
				continue;
			l->enabled_ns += dt;
			if (!set[i])
				continue;
			l->running_ns += dt;
			for (int m = 0; m < l->nmembers; m++)
				ek_defer(k, &k->ev[l->members[m]], a, b);
		}
		a = b;
	}
	if (on != few)
		free(on);
	/* the order as the N rotations left it, its groups on the counters from the last tick */
	for (int r = 0; r < n % no; r++) {
		int first = c->order[0];

		memmove(c->order, c->order + 1, (size_t)(no - 1) * sizeof(int));
		c->order[no - 1] = first;
	}
	if (a > c->t)
		c->t = a;
	ek_unschedule(k, cpu, pmu);
	ek_schedule(k, cpu, pmu);
}

/* Every group of C enabled: each rotation then moves the list's first (a cyclic shift). */
static bool ek_all_enabled(const struct emu_perf *k, const struct ek_ctx *c)
{
	for (int i = 0; i < c->norder; i++)
		if (!k->ev[c->order[i]].enabled)
			return false;
	return true;
}

/* A counted context's rotation at T: noted, applied by ek_lazy_apply (at once if off its grid). */
static void ek_lazy_tick(struct emu_perf *k, int cpu, int pmu, double t)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];

	if (c->lazy_n && fabs(t - (c->lazy_t0 + c->lazy_n * EMU_PERF_TICK_S)) > 1e-9)
		ek_lazy_apply(k, cpu, pmu);
	if (!c->lazy_n)
		c->lazy_t0 = t;
	c->lazy_n++;
}

/* Rotate every context that needs it by one at emulated time T; false when none did. */
static bool ek_rotate_all(struct emu_perf *k, double t)
{
	bool any = false;

	for (int cpu = 0; cpu < k->ncpus; cpu++)
		for (int p = 0; p < ek_npmus_on(k, cpu); p++) {
			struct ek_ctx *c = &k->cpus[cpu].ctx[p];

			if (c->norder > 1 && ek_rotate_necessary(k, c)) {
				/*
				 * a read may have synced the context a little after T, and
				 * something else the CPU's counters (they count to then)
				 */
				double at = fmax(t, c->t);

				if (!ek_counted(&k->pmus[p]) && cpu < k->emu->ncpus)
					at = fmax(at, k->emu->cpus[cpu].t);
				if (ek_counted(&k->pmus[p]) && ek_all_enabled(k, c))
					ek_lazy_tick(k, cpu, p, at);
				else
					ek_resched(k, cpu, p, at, true);
				any = true;
			}
		}
	return any;
}

/*
 * The timer: Linux's hrtimer fires every period whatever else the machine
 * does, so every period boundary since the last rotation is one rotation, at
 * its own emulated time, however late the sampler calls (a loaded machine
 * runs it every 20-50 ms: rotating once a call gave groups of a 0.5 s
 * interval no turn at all); a backlog past EK_TICK_STEPS periods is
 * shared out in that many rotations of equal length, each group's turn
 * longer, none left out.  A backlog past EK_TICK_CATCHUP periods (the
 * process stopped), or what is left when catching up has taken
 * EK_TICK_BUDGET_S of CPU time (a sanitizer build's 384 CPUs: each step
 * costs milliseconds, and a sampler that cannot stop in time is left
 * behind), is dropped, not replayed.
 */
void ek_tick(void *ctx)
{
	struct emu_perf *k = ctx;
	double t, t0 = ek_cpu_s(), step = EMU_PERF_TICK_S;
	int n = 0;

	ek_lock(k);
	t = ek_now(k);
	if (k->timer_on && t - k->t_rot > EK_TICK_CATCHUP * EMU_PERF_TICK_S)
		k->t_rot = t - EMU_PERF_TICK_S;
	/* a backlog past EK_TICK_STEPS periods: that many rotations share it out evenly */
	if (k->timer_on && t - k->t_rot > EK_TICK_STEPS * EMU_PERF_TICK_S)
		step = (t - k->t_rot) / EK_TICK_STEPS;
	while (k->timer_on && k->t_rot + step <= t + 1e-9 && n++ < EK_TICK_CATCHUP) {
		k->t_rot += step;
		/* the registers as they were then: each group counts its own periods */
		emu_clock_hold(k->emu, k->t_rot);
		if (!ek_rotate_all(k, k->t_rot)) {
			k->timer_on = false; /* nothing rotates: off until something must */
			break;
		}
		if (ek_cpu_s() - t0 > EK_TICK_BUDGET_S) {
			k->t_rot = t; /* no time left: the rest is dropped */
			break;
		}
	}
	emu_clock_hold(k->emu, t);
	for (int cpu = 0; cpu < k->ncpus; cpu++)
		for (int p = 0; p < ek_npmus_on(k, cpu); p++)
			if (k->cpus[cpu].ctx[p].norder && k->pmus[p].kind == EK_SKL_IMC)
				ek_sync(k, cpu, p, t); /* 32-bit free-running counters wrap: keep up */
	ek_unlock(k);
}
