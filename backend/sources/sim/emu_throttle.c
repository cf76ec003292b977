/*
 * emu_throttle: an emulated Intel machine's thermal throttle counters, as
 * Linux's therm_throt keeps them in sysfs
 * (sys/devices/system/cpu/cpuN/thermal_throttle: package_throttle_count and
 * _total_time_ms, the same on every CPU of a package; core_throttle_count
 * and _total_time_ms, each core's): the scenario's pkg_throttle_* and
 * core_throttle_* integrated up to the emulated clock, whole counts and
 * milliseconds as the kernel writes them.  The power-limit notifications
 * (package_power_limit_count, core_power_limit_count) as a kernel booted
 * with int_pln_enable counts them, when the scenario gives any (else the
 * files are not there, as on a kernel booted without it).  Written for the
 * package's first CPU and each core's first, the files pmutop reads
 * (throttle.c); rewritten only when a value moved.  Callers hold nothing;
 * takes e->lock.
 */
#include "emu.h"
#include "emu_int.h"
#include "scenario.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ET_PKG_N, ET_PKG_MS, ET_CORE_N, ET_CORE_MS, ET_PKG_PL, ET_CORE_PL, ET_N };

struct emu_throttle {
	double t;                     /* integrated up to here */
	double (*acc)[ET_N];          /* per socket: the package's, and each of its cores' */
	unsigned long long (*shown)[ET_N]; /* what the files say, per socket */
	bool written;
	bool pl;                      /* the power-limit files: the scenario gives notifications */
};

/* Whether any phase of SC gives power-limit notifications. */
static bool emu_throttle_pl(const struct scenario *sc)
{
	for (int p = 0; p < sc->nphases; p++)
		for (int i = 0; i < sc->phases[p].nsets; i++)
			if ((sc->phases[p].sets[i].key == SK_pkg_power_limit_rate ||
			     sc->phases[p].sets[i].key == SK_core_power_limit_rate) &&
			    sc->phases[p].sets[i].value > 0)
				return true;
	return false;
}

void emu_throttle_free(struct emu_throttle *t)
{
	if (!t)
		return;
	free(t->acc);
	free(t->shown);
	free(t);
}

/* The scenario's throttling up to time NOW, segment by segment (its values change only at their ends). */
static void emu_throttle_advance(struct emu *e, struct emu_throttle *th, double now)
{
	double sock[SK_COUNT];

	while (th->t < now) {
		double end = fmin(scenario_next_change(e->sc, th->t), now), dt = end - th->t;

		if (!(dt > 0))
			break;
		for (int si = 0; si < e->nsockets; si++) {
			scenario_eval_socket_only(e->sc, th->t, si, e->channels, sock);
			th->acc[si][ET_PKG_N] += sock[SK_pkg_throttle_rate] * dt;
			th->acc[si][ET_PKG_MS] += sock[SK_pkg_throttle_share] * dt * 1e3;
			th->acc[si][ET_CORE_N] += sock[SK_core_throttle_rate] * dt;
			th->acc[si][ET_CORE_MS] += sock[SK_core_throttle_share] * dt * 1e3;
			th->acc[si][ET_PKG_PL] += sock[SK_pkg_power_limit_rate] * dt;
			th->acc[si][ET_CORE_PL] += sock[SK_core_power_limit_rate] * dt;
		}
		th->t = end;
	}
}

/*
 * CPU's files of kind PKG (else core) under DIR: the throttle count N, its
 * milliseconds MS and, when PL, the power-limit notifications PLN.
 */
static int emu_throttle_put(const char *dir, int cpu, bool pkg, unsigned long long n,
			    unsigned long long ms, bool pl, unsigned long long pln)
{
	const char *const names[] = { "throttle_count", "throttle_total_time_ms", "power_limit_count" };
	const unsigned long long v[] = { n, ms, pln };
	char sub[96], name[160], text[32];
	int rc;

	snprintf(sub, sizeof(sub), "sys/devices/system/cpu/cpu%d/thermal_throttle", cpu);
	if ((rc = emu_who_mkdir(dir, sub)))
		return rc;
	for (int k = 0; k < (pl ? 3 : 2) && !rc; k++) {
		snprintf(name, sizeof(name), "%s/%s_%s", sub, pkg ? "package" : "core", names[k]);
		snprintf(text, sizeof(text), "%llu\n", v[k]);
		rc = emu_who_put(dir, name, text);
	}
	return rc;
}

int emu_throttle_write(struct emu *e, const char *dir, char *err, size_t errlen)
{
	struct emu_throttle *th;
	int rc = 0;

	if (e->m->amd) /* therm_throt is Intel's thermal interrupt */
		return 0;
	pthread_mutex_lock(&e->lock);
	if (!e->thr) {
		e->thr = xcalloc(1, sizeof(*e->thr));
		e->thr->acc = xcalloc((size_t)e->nsockets + 1, sizeof(*e->thr->acc));
		e->thr->shown = xcalloc((size_t)e->nsockets + 1, sizeof(*e->thr->shown));
		e->thr->pl = emu_throttle_pl(e->sc);
	}
	th = e->thr;
	emu_throttle_advance(e, th, emu_clock_now(e));
	for (int si = 0; si < e->nsockets && !rc; si++) {
		unsigned long long v[ET_N];
		bool moved = !th->written;
		int first = -1;

		for (int k = 0; k < ET_N; k++) {
			v[k] = (unsigned long long)floor(th->acc[si][k]);
			moved |= v[k] != th->shown[si][k];
			th->shown[si][k] = v[k];
		}
		if (!moved)
			continue;
		for (int c = 0; c < e->ncpus && !rc; c++) {
			const struct emu_cpu *cpu = &e->cpus[c];
			bool core_first = true;

			if (!cpu->online || cpu->socket != si)
				continue;
			if (first < 0) {
				first = c;
				rc = emu_throttle_put(dir, c, true, v[ET_PKG_N], v[ET_PKG_MS], th->pl,
						      v[ET_PKG_PL]);
			}
			/* the core's first CPU: no lower CPU of the same core */
			for (int o = 0; o < c && core_first; o++)
				core_first = !(e->cpus[o].online && e->cpus[o].socket == si &&
					       e->cpus[o].core == cpu->core);
			if (core_first && !rc)
				rc = emu_throttle_put(dir, c, false, v[ET_CORE_N], v[ET_CORE_MS], th->pl,
						      v[ET_CORE_PL]);
		}
	}
	th->written = !rc;
	pthread_mutex_unlock(&e->lock);
	if (rc)
		snprintf(err, errlen, "%s: cannot write the emulated thermal throttle counters: %s", dir,
			 strerror(-rc));
	return rc;
}
