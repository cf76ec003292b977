/*
 * emu_perf_tick: the emulated kernel's multiplexing timer, which rotates
 * every context whose groups do not all fit at each period of emulated
 * time, as Linux's hrtimer does whatever the machine's load.  See
 * emu_perf_int.h.
 */
#include "emu_perf.h"
#include "emu_perf_int.h"
#include "emu_int.h"

#include <math.h>
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

/*
 * Whether context C has an enabled group that is not on the counters: only
 * then does rotating it change anything (Linux's rotate_necessary).
 */
static bool ek_rotate_necessary(const struct emu_perf *k, const struct ek_ctx *c)
{
	for (int i = 0; i < c->norder; i++) {
		const struct ek_event *l = &k->ev[c->order[i]];

		if (l->enabled && !l->scheduled)
			return true;
	}
	return false;
}

/*
 * How often the timer is needed: the multiplexing period while some
 * context rotates; a second while the IMC's 32-bit free-running counters
 * are open (so they never wrap twice unseen); else never.
 */
double ek_tick_need(void *ctx)
{
	struct emu_perf *k = ctx;
	double need = 0;

	ek_lock(k);
	for (int cpu = 0; cpu < k->ncpus && need != EMU_PERF_TICK_S; cpu++)
		for (int p = 0; p < ek_npmus_on(k, cpu); p++) {
			const struct ek_ctx *c = &k->cpus[cpu].ctx[p];

			if (c->norder > 1 && ek_rotate_necessary(k, c)) {
				need = EMU_PERF_TICK_S;
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

/* Rotate every context that needs it by one at emulated time T; false when none did. */
static bool ek_rotate_all(struct emu_perf *k, double t)
{
	bool any = false;

	for (int cpu = 0; cpu < k->ncpus; cpu++)
		for (int p = 0; p < ek_npmus_on(k, cpu); p++) {
			struct ek_ctx *c = &k->cpus[cpu].ctx[p];

			if (c->norder > 1 && ek_rotate_necessary(k, c)) {
				/* a read may have synced the context a little after T */
				ek_resched(k, cpu, p, fmax(t, c->t), true);
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
 * interval no turn at all).  A backlog past EK_TICK_CATCHUP periods (the
 * process stopped), or what is left when catching up has taken
 * EK_TICK_BUDGET_S of CPU time (a sanitizer build's 384 CPUs: each step
 * costs milliseconds, and a sampler that cannot stop in time is left
 * behind), is dropped, not replayed.
 */
void ek_tick(void *ctx)
{
	struct emu_perf *k = ctx;
	double t, t0 = ek_cpu_s();
	int n = 0;

	ek_lock(k);
	t = ek_now(k);
	if (!(k->t_rot > 0) || t - k->t_rot > EK_TICK_CATCHUP * EMU_PERF_TICK_S)
		k->t_rot = t - EMU_PERF_TICK_S;
	while (k->t_rot + EMU_PERF_TICK_S <= t + 1e-9 && n++ < EK_TICK_CATCHUP) {
		k->t_rot += EMU_PERF_TICK_S;
		/* the registers as they were then: each group counts its own periods */
		emu_clock_hold(k->emu, k->t_rot);
		if (!ek_rotate_all(k, k->t_rot) || ek_cpu_s() - t0 > EK_TICK_BUDGET_S) {
			/* nothing rotates (the timer is off until something must), or no time left */
			k->t_rot = t;
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
