/*
 * emu_create: an emulated machine made from "MACHINE[:SCENARIO|:PATH]"
 * (or a machine row and a parsed scenario), freed, and what it says of
 * itself: its machine, topology, scenario, channels, the CPUs taken
 * offline and the encodings it was asked for that it does not model.  See
 * emu.h; the registers are emu.c's.
 */
#include "emu.h"
#include "emu_int.h"
#include "emu_hybrid.h"
#include "emu_model.h"
#include "pmu_regs.h"
#include "pilock.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int emu_set_online(struct emu *e, int cpu, int online)
{
	if (cpu < 0 || cpu >= e->ncpus || e->cpus[cpu].core < 0)
		return -ENXIO;
	pthread_mutex_lock(&e->lock);
	e->cpus[cpu].online = online;
	pthread_mutex_unlock(&e->lock);
	/* the cores' idle shares (emu_cstate_core_count) were of the CPUs then online */
	pthread_mutex_lock(&e->srv_lock);
	for (int i = 0; e->c6_t && i < e->nsockets; i++)
		e->c6_t[i] = NAN;
	pthread_mutex_unlock(&e->srv_lock);
	return 0;
}

bool emu_models(const struct emu *e, bool e_core, unsigned event, unsigned umask, unsigned cmask,
		uint64_t offcore)
{
	double v[SK_COUNT];
	struct emu_dist d;

	for (int k = 0; k < SK_COUNT; k++)
		v[k] = scenario_keys[k].def;
	if (!emu_model_core(e_core && e->m->hybrid ? &e->e_m : e->m, event, umask, offcore, v, &d))
		return false;
	return !d.cond_cmask || cmask == d.cond_cmask;
}

const char *emu_unknown_events(struct emu *e, int *count)
{
	size_t len = 0;

	pthread_mutex_lock(&e->lock);
	e->unknown_text[0] = '\0';
	for (int i = 0; i < e->nunknown; i++)
		len += (size_t)snprintf(e->unknown_text + len, sizeof(e->unknown_text) - len,
					"%sselect 0x%016llx", i ? "\n" : "",
					(unsigned long long)e->unknown[i]);
	*count = e->nunknown;
	pthread_mutex_unlock(&e->lock);
	return e->unknown_text;
}

/* ---- life cycle ------------------------------------------------------------------ */

struct emu *emu_create_from(const struct emu_machine *m, struct scenario *sc)
{
	struct emu *e = xcalloc(1, sizeof(*e));
	char err[256], *xml;
	int rc;

	pilock_init(&e->lock);
	pilock_init(&e->srv_lock);
	pilock_init(&e->offcore_lock);
	e->m = m;
	e->model = cpumodel_find(m->amd ? CPUID_VENDOR_AMD : CPUID_VENDOR_INTEL, m->family,
				 m->model);
	e->uncore = e->model ? e->model->p->uncore : CPUMODEL_UNCORE_NONE;
	e->channels = m->channels ? m->channels : e->model ? e->model->p->channels : 0;
	e->offcore = e->model ? e->model->p->offcore : e->m->offcore_events[0] ? 2 : 0;
	e->sc = sc;
	e->e_m = *m;
	if (m->hybrid) {
		e->e_m.e_core = true;
		e->e_m.gp_counters = m->hybrid->e_gp_counters;
		e->e_m.fixed_counters = m->hybrid->e_fixed_counters;
		e->e_m.slots_width = m->hybrid->e_slots_width;
		e->e_m.perf_metrics = 0;
	}
	xml = m->hybrid ? emu_hybrid_xml(m->hybrid, m->brand) : NULL;
	rc = topo_load(xml ? xml : m->topology, &e->topo, err, sizeof(err));
	free(xml);
	if (rc) {
		fprintf(stderr, "pmutop: emulated machine %s: %s\n", m->name, err);
		abort(); /* the table is wrong: a bug, not a user error */
	}
	clock_gettime(CLOCK_MONOTONIC, &e->start);
	e->ncpus = e->topo->cpu_thread_len;
	e->cpus = xcalloc((size_t)e->ncpus, sizeof(*e->cpus));
	for (int i = 0; i < e->ncpus; i++)
		e->cpus[i].core = -1;
	for (int i = 0; i < e->topo->nonline; i++) {
		const struct topo_thread *th = &e->topo->threads[i];
		struct emu_cpu *c = &e->cpus[th->os_cpu];

		c->os_cpu = th->os_cpu;
		c->socket = th->socket;
		c->core = th->core;
		c->online = 1;
		c->e_core = emu_hybrid_is_e(m->hybrid, th->os_cpu);
		/* (the core's threads, at most EMU_CORE_THREADS: emu_core_truth fills no more) */
		c->seg_truth = xcalloc((size_t)(e->topo->cores[th->core].nthreads < EMU_CORE_THREADS
					       ? e->topo->cores[th->core].nthreads : EMU_CORE_THREADS),
				       sizeof(*c->seg_truth));
		for (int k = 0; k < PMU_MAX_GP; k++)
			c->gp[k].acc = -1;
		for (int k = 0; k < PMU_MAX_FIXED; k++)
			c->fixed[k].acc = -1;
		for (int k = 0; k < 3; k++)
			c->free[k].acc = -1;
		if (m->amd)
			emu_cpu_rebind(e, c); /* the free-running clocks count from the start */
	}
	e->nsockets = e->topo->nsockets;
	e->sockets = xcalloc((size_t)e->nsockets, sizeof(*e->sockets));
	for (int s = 0; s < e->nsockets; s++) {
		e->sockets[s].fixed.acc = -1;
		for (int k = 0; k < NHM_UNC_COUNTERS + 2; k++)
			e->sockets[s].ctr[k].acc = -1;
	}
	return e;
}

/* Which emulated machines have at least MIN sockets, as advice for a message. */
static void emu_machines_with_sockets(int min, char *buf, size_t len)
{
	size_t n = 0;
	int most = 0;

	buf[0] = 0;
	for (int i = 0; i < emu_nmachines; i++) {
		int socks = 1;

		/* every machine's synthetic topology starts with its packages (a hybrid has one) */
		sscanf(emu_machines[i].topology, "pack:%d", &socks);
		most = socks > most ? socks : most;
		if (socks >= min && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "use ",
					      emu_machines[i].name);
	}
	if (!n)
		snprintf(buf, len, "no emulated machine has that many (the most is %d)", most);
}

int emu_create(const char *spec, const char *scenario_dir, struct emu **out, char *err,
	       size_t errlen)
{
	char name[64], path[4096];
	const char *colon = strchr(spec, ':'), *scn;
	const struct emu_machine *m;
	struct scenario *sc;
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	int rc;

	*out = NULL;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, spec, n);
	name[n] = '\0';
	m = emu_machine_find(name);
	if (!m) {
		snprintf(err, errlen, "--sim %s: unknown machine '%s'; emulated machines are %s",
			 spec, name, emu_machine_names());
		return -EINVAL;
	}
	scn = colon && colon[1] ? colon + 1 : m->default_scenario;
	if (strchr(scn, '/') || (strlen(scn) > 4 && !strcmp(scn + strlen(scn) - 4, ".scn")))
		snprintf(path, sizeof(path), "%s", scn);
	else
		snprintf(path, sizeof(path), "%s/%s.scn", scenario_dir, scn);
	rc = scenario_load(path, &sc, err, errlen);
	if (rc == -ENOENT && !strchr(scn, '/'))
		snprintf(err, errlen, "--sim %s: no scenario '%s' (looked for %s); shipped "
			 "scenarios are idle, compute-bound, memory-bound, numa-remote, "
			 "frontend-bound, unbalanced-channels, false-sharing, topdown, smt-contended, "
			 "cross-ccx, hybrid-split, hybrid-lowpower, shared-server, or give a file path", spec, scn, path);
	if (rc)
		return rc == -EIO ? rc : -EINVAL; /* the scenario is the user's input */
	*out = emu_create_from(m, sc);
	if (sc->min_sockets > (*out)->topo->nsockets) {
		char fit[256];

		emu_machines_with_sockets(sc->min_sockets, fit, sizeof(fit));
		snprintf(err, errlen, "--sim %s: scenario '%s' needs %d sockets and %s has %d; %s",
			 spec, sc->name, sc->min_sockets, m->name, (*out)->topo->nsockets, fit);
		emu_free(*out);
		*out = NULL;
		return -EINVAL;
	}
	for (int i = 0; i < sc->ntasks; i++)
		for (int c = 0; c < sc->tasks[i].ncpus; c++) {
			int cpu = sc->tasks[i].cpus[c];

			if (cpu < (*out)->ncpus && (*out)->cpus[cpu].core >= 0)
				continue;
			snprintf(err, errlen, "--sim %s: scenario '%s' runs task %d on CPU %d, which %s "
				 "does not have (CPUs 0-%d)", spec, sc->name, sc->tasks[i].pid, cpu,
				 m->name, (*out)->ncpus - 1);
			emu_free(*out);
			*out = NULL;
			return -EINVAL;
		}
	return 0;
}

void emu_free(struct emu *e)
{
	if (!e)
		return;
	topo_free(e->topo);
	emu_who_free(e->who);
	emu_throttle_free(e->thr);
	scenario_free(e->sc);
	for (int i = 0; e->cpus && i < e->ncpus; i++)
		free(e->cpus[i].seg_truth);
	free(e->cpus);
	free(e->sockets);
	free(e->srv_truth);
	free(e->c6_t);
	free(e->c6_mean);
	free(e->c6_idle);
	pthread_mutex_destroy(&e->srv_lock);
	pthread_mutex_destroy(&e->offcore_lock);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

enum cpumodel_uncore emu_uncore(const struct emu *e)
{
	return e->uncore;
}

int emu_channels(const struct emu *e)
{
	return e->channels;
}

const struct emu_machine *emu_machine(const struct emu *e)
{
	return e->m;
}

const struct topo *emu_topo(const struct emu *e)
{
	return e->topo;
}

const struct scenario *emu_scenario(const struct emu *e)
{
	return e->sc;
}
