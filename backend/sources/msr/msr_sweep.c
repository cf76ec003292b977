/*
 * msr_sweep: the register source's reads.  A sweep reads the live set of
 * every CPU (and at the end of an interval the fixed counters, the TSC and
 * the registers the ownership check looks at): register by register, in
 * one msr-safe batch call, or socket by socket with one reader thread per
 * socket beyond the first.  See msr_core_int.h.
 */
#define _GNU_SOURCE /* pthread_setaffinity_np */
#include "msr_core_int.h"
#include "msr_source.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Monotonic seconds for telling a slow access, whatever clock the figures
 * use: the coarse clock (a few ms resolution, against a 50 ms threshold)
 * costs almost nothing per register access.
 */
static double msr_sweep_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * A slow CPU costs one access per interval, not a sweep's worth per slice;
 * a CPU that went offline (ENXIO) is n/a with a warning, not a sampler error.
 */
int msr_core_access(struct msr_core *m, int i, uint32_t reg, uint64_t *v, bool write,
		    double *when)
{
	struct src_cpu *c = &m->env.cpus[i];
	struct msr_cpu *mc = &m->mc[i];
	double t0, w0 = when ? src_now(m->cfg) : 0;
	int rc;

	if (c->late || c->gone || atomic_load(m->env.stop)) {
		c->failed = 1;
		return c->gone ? -EBUSY : -ETIMEDOUT;
	}
	if (!write && m->batch_live) {
		/* read in this sweep's batch call, at its middle */
		for (int k = mc->batch_at; k < mc->batch_at + mc->batch_n; k++)
			if (m->batch[k].reg == reg) {
				*v = m->batch[k].val;
				rc = m->batch[k].err;
				/* each CPU at the same place in every batch: its slices as long as the batches' */
				if (when)
					*when = m->batch_mid, mc->spread = 0;
				goto done;
			}
	}
	t0 = msr_sweep_mono();
	rc = write ? msr_write(m->dev, c->os_cpu, reg, *v) : msr_read(m->dev, c->os_cpu, reg, v);
	if (when) {
		double w1 = src_now(m->cfg);

		*when = (w0 + w1) / 2;
		mc->spread = (w1 - w0) / 2;
	}
	/* a CPU is late only on a real clock behind a real device (msr_source_config.late_reads) */
	if (*m->env.sampling && msr_source_cfg(m->cfg->source_cfg)->late_reads &&
	    msr_sweep_mono() - t0 > ENGINE_SLOW_ACCESS_S)
		c->late = true;
done:
	c->offline |= rc == -ENXIO;
	if (rc && !c->failed && rc != -ENXIO) {
		pthread_mutex_lock(&m->note_lock);
		snprintf(m->error, sizeof(m->error), "%s", msr_thread_error());
		pthread_mutex_unlock(&m->note_lock);
	}
	c->failed |= rc != 0 || c->late;
	return rc;
}

/*
 * Read CPU I's live set S into the accumulators, each counter's turn over
 * its own live time (src_tally: each turn weighs alike).  A slice whose
 * start or end is unsure by more than MSR_UNSURE of it on any of the set's
 * counters (an access that waited for the CPU or the device) is unsure for
 * all of them: the figures are made of the events' other slices where they
 * have some (engine_sample), the same slices for every event of a group,
 * so that a ratio of two of them is not made of different slices (one
 * counter's slice left out, its group-mate's kept: two events of one group
 * scaled 12.6 % apart in CI).
 */
static void msr_sweep_read_set(struct msr_core *m, int i, const struct counter_set *s)
{
	struct src_cpu *c = &m->env.cpus[i];
	struct msr_cpu *mc = &m->mc[i];
	double inc[COUNTER_SET_MAX], live[COUNTER_SET_MAX];
	bool read[COUNTER_SET_MAX] = { false }, unsure = false;

	for (int k = 0; s && k < s->nev && k < COUNTER_SET_MAX; k++) {
		uint32_t ctr = (uint32_t)s->ctr[k];
		double when;
		uint64_t v;

		if (mc->taken & (1u << ctr) || !msr_core_here(m, i, s->ev[k]))
			continue; /* another program's count now; the other kind's event */
		if (msr_core_access(m, i, IA32_PMC0 + ctr, &v, false, &when))
			continue;
		atomic_fetch_add_explicit(m->env.reads, 1, memory_order_relaxed);
		live[k] = when - mc->gp_t[ctr];
		inc[k] = counter_widen(mc->gp_prev[ctr], v, m->cfg->gp_width, live[k], &c->resets);
		read[k] = true;
		src_tally_turn(&c->ev[s->ev[k]], inc[k], live[k]);
		unsure |= mc->spread + mc->gp_u[ctr] > MSR_UNSURE * live[k];
		mc->gp_prev[ctr] = v & ((1ull << m->cfg->gp_width) - 1);
		mc->gp_t[ctr] = when;
		mc->gp_u[ctr] = mc->spread;
	}
	for (int k = 0; unsure && k < s->nev && k < COUNTER_SET_MAX; k++)
		if (read[k])
			src_tally_turn(&c->uev[s->ev[k]], inc[k], live[k]);
}

/* Read CPUs ORDER[FROM .. TO): set S's counters; when FINAL, the fixed ones and the checks. */
static void msr_sweep_part(struct msr_core *m, int from, int to, const struct counter_set *s,
			   bool final)
{
	for (int k = from; k < to; k++) {
		int i = m->order ? m->order[k] : k;

		msr_sweep_read_set(m, i, s);
		if (final) {
			msr_core_read_fixed(m, i, false);
			msr_core_verify(m, i);
		}
	}
}

/* Add REG of CPU I to the sweep's batch. */
static void msr_sweep_batch_add(struct msr_core *m, int i, uint32_t reg)
{
	if (m->nbatch == m->batch_cap) {
		m->batch_cap = m->batch_cap ? 2 * m->batch_cap : 64;
		m->batch = xrealloc(m->batch, (size_t)m->batch_cap, sizeof(*m->batch));
	}
	m->batch[m->nbatch++] = (struct msr_batch_read){ .cpu = m->env.cpus[i].os_cpu, .reg = reg };
	m->mc[i].batch_n++;
}

/* What the final sweep reads of CPU I besides its set: fixed counters, TSC, a checked control. */
static void msr_sweep_batch_final(struct msr_core *m, int i, unsigned slot)
{
	const struct engine_config *cfg = m->cfg;
	int cpu = m->env.cpus[i].os_cpu;

	bool tsc = false;

	/* the TSC beside REF_TSC, which counts at its rate (msr_core_read_fixed) */
	for (unsigned n = 0; n < cfg->fixed_counters && n < PMU_MAX_FIXED; n++)
		if (m->mc[i].fixed_mine & (1u << n)) {
			msr_sweep_batch_add(m, i, IA32_FIXED_CTR0 + n);
			if (n == 2) {
				msr_sweep_batch_add(m, i, IA32_TIME_STAMP_COUNTER);
				tsc = true;
			}
		}
	if (m->mc[i].topdown_mine)
		msr_sweep_batch_add(m, i, MSR_PERF_METRICS);
	if (!tsc)
		msr_sweep_batch_add(m, i, IA32_TIME_STAMP_COUNTER);
	if (cfg->perfmon_version >= 2 && msr_wrote(m->dev, cpu, IA32_PERF_GLOBAL_CTRL))
		msr_sweep_batch_add(m, i, IA32_PERF_GLOBAL_CTRL);
	if (slot < cfg->gp_counters && slot < PMU_MAX_GP && (m->mc[i].gp_mine & (1u << slot)) &&
	    msr_wrote(m->dev, cpu, IA32_PERFEVTSEL0 + slot))
		msr_sweep_batch_add(m, i, IA32_PERFEVTSEL0 + slot);
	else if (cfg->fixed_counters && msr_wrote(m->dev, cpu, IA32_FIXED_CTR_CTRL))
		msr_sweep_batch_add(m, i, IA32_FIXED_CTR_CTRL);
}

/*
 * The sweep of set S on the batch path: what msr_sweep_part will read in
 * one call, then the sweep itself.  False when there is no batch call (or
 * it just failed for good): sweep register by register.  *SPAN: the
 * call's seconds.
 */
static bool msr_sweep_batch(struct msr_core *m, const struct counter_set *s, bool final,
			    double *span)
{
	unsigned slot = msr_core_verify_slot(m);
	double t0, t1;

	if (!msr_batch_ready(m->dev) || atomic_load(m->env.stop))
		return false;
	m->nbatch = 0;
	for (int i = 0; i < m->env.ncpus; i++) {
		const struct src_cpu *c = &m->env.cpus[i];

		m->mc[i].batch_at = m->nbatch;
		m->mc[i].batch_n = 0;
		if (c->late || c->gone)
			continue;
		for (int k = 0; s && k < s->nev; k++)
			if (!(m->mc[i].taken & (1u << s->ctr[k])) && msr_core_here(m, i, s->ev[k]))
				msr_sweep_batch_add(m, i, IA32_PMC0 + (uint32_t)s->ctr[k]);
		if (final)
			msr_sweep_batch_final(m, i, slot);
	}
	t0 = src_now(m->cfg);
	if (msr_read_batch(m->dev, m->batch, m->nbatch) == -EOPNOTSUPP) {
		/* said in every sample from now on: the skew grows back */
		snprintf(m->read_note, sizeof(m->read_note), "reads go %s", msr_batch_status(m->dev));
		return false;
	}
	t1 = src_now(m->cfg);
	m->batch_mid = (t0 + t1) / 2;
	*span = t1 - t0;
	m->batch_live = true;
	msr_sweep_part(m, 0, m->env.ncpus, s, final);
	m->batch_live = false;
	return true;
}

/* Every CPU read first, then reprogrammed (msr_core_rotate): the reads stay close together. */
void msr_core_sweep(struct src_core *sc, bool final, struct src_sweep *out)
{
	struct msr_core *m = msr_core_of(sc);
	const struct counter_set *set = m->nsets ? &m->sets[m->cur] : NULL;
	double tmin = INFINITY, tmax = -INFINITY, span = 0;

	out->batched = msr_sweep_batch(m, set, final, &span);
	if (out->batched) {
		/* every CPU's reads in one call */
	} else if (m->nreaders) {
		/* the readers take the other sockets meanwhile */
		m->sweep_set = set;
		m->sweep_final = final;
		pthread_barrier_wait(&m->sweep_go);
		msr_sweep_part(m, 0, m->own, set, final);
		pthread_barrier_wait(&m->sweep_done);
	} else {
		msr_sweep_part(m, 0, m->env.ncpus, set, final);
	}
	if (!final)
		return;
	m->verify++;
	for (int i = 0; i < m->env.ncpus; i++) {
		tmin = fmin(tmin, m->env.cpus[i].t_read);
		tmax = fmax(tmax, m->env.cpus[i].t_read);
	}
	out->skew = out->batched ? span : m->env.ncpus && tmax >= tmin ? tmax - tmin : 0;
}

/* ---- the per-socket readers ---------------------------------------------- */

/* A per-socket reader: its share of each sweep, between the sampler's two barriers. */
static void *msr_reader_main(void *arg)
{
	struct msr_reader *r = arg;
	struct msr_core *m = r->m;
	bool abort;

	/* every reader started, or none reads: msr_readers_start opens the gate */
	pthread_mutex_lock(&m->note_lock);
	while (!m->gate)
		pthread_cond_wait(&m->gate_cond, &m->note_lock);
	abort = m->readers_abort;
	pthread_mutex_unlock(&m->note_lock);
	if (abort)
		return NULL; /* not every reader could start: no barrier to meet */
	/*
	 * Always to the barrier: msr_readers_stop sets sweep_quit and then
	 * waits there for every reader, so a reader must not leave before it
	 */
	for (;;) {
		pthread_barrier_wait(&m->sweep_go);
		if (m->sweep_quit)
			break;
		msr_sweep_part(m, r->first, r->first + r->n, m->sweep_set, m->sweep_final);
		pthread_barrier_wait(&m->sweep_done);
	}
	return NULL;
}

/* Open the readers' gate: to read (barriers ready) or, with readers_abort set, to leave. */
static void msr_readers_gate(struct msr_core *m)
{
	pthread_mutex_lock(&m->note_lock);
	m->gate = true;
	pthread_cond_broadcast(&m->gate_cond);
	pthread_mutex_unlock(&m->note_lock);
}

/* ORDER: the CPUs socket by socket; FIRST[s] where socket s's start.  Returns the sockets with CPUs. */
static int msr_readers_order(struct msr_core *m, int *first)
{
	const struct topo *t = m->cfg->topo;
	int at = 0, nsock = 0;

	for (int sk = 0; sk < t->nsockets; sk++) {
		first[sk] = at;
		for (int i = 0; i < m->env.ncpus; i++)
			if (t->threads[m->env.cpus[i].thread].socket == sk)
				m->order[at++] = i;
		nsock += at > first[sk];
	}
	first[t->nsockets] = at;
	return nsock;
}

/* Whether readers help: device files, the real clock, two sockets or more, no batch call. */
static bool msr_readers_help(const struct msr_core *m)
{
	enum msr_kind kind = msr_dev_kind(m->dev);
	const char *serial = getenv("PMUTOP_SERIAL_SWEEP");
	int readers = msr_source_cfg(m->cfg->source_cfg)->readers;

	/* the emulator answers under one lock, and stepped clocks are single-threaded */
	/* with a batch call every CPU is read at once already */
	return !m->nreaders && readers >= 0 && m->cfg->topo->nsockets >= 2 &&
	       !msr_batch_ready(m->dev) && !(serial && *serial && strcmp(serial, "0")) &&
	       !(readers == 0 &&
		 (m->cfg->clock || (kind != MSR_KIND_MSR && kind != MSR_KIND_MSR_SAFE)));
}

/* The readers that exist so far (CREATED of them) leave: no thread for every socket. */
static void msr_readers_abandon(struct msr_core *m, int created)
{
	m->readers_abort = true;
	msr_readers_gate(m);
	for (int k = 0; k < created; k++)
		pthread_join(m->readers[k].thread, NULL);
	free(m->readers);
	free(m->order);
	m->readers = NULL;
	m->order = NULL;
	m->nreaders = 0;
	pthread_cond_destroy(&m->gate_cond);
}

void msr_readers_start(struct msr_core *m)
{
	const struct topo *t = m->cfg->topo;
	int *first, created = 0;

	if (!msr_readers_help(m))
		return;
	m->order = xcalloc((size_t)m->env.ncpus + 1, sizeof(int));
	first = xcalloc((size_t)t->nsockets + 1, sizeof(int));
	if (msr_readers_order(m, first) < 2) {
		free(first);
		free(m->order);
		m->order = NULL;
		return;
	}
	m->readers = xcalloc((size_t)t->nsockets, sizeof(*m->readers));
	/* the sampler reads the first socket with CPUs, a reader each of the others */
	m->own = -1;
	for (int sk = 0; sk < t->nsockets; sk++) {
		if (first[sk + 1] == first[sk])
			continue;
		if (m->own < 0)
			m->own = first[sk + 1];
		else
			m->readers[m->nreaders++] = (struct msr_reader){
				.m = m, .first = first[sk], .n = first[sk + 1] - first[sk] };
	}
	free(first);
	pthread_cond_init(&m->gate_cond, NULL);
	m->gate = false;
	m->sweep_quit = false;
	m->readers_abort = false;
	for (; created < m->nreaders; created++) {
		struct msr_reader *r = &m->readers[created];
		cpu_set_t set;

		if (pthread_create(&r->thread, NULL, msr_reader_main, r))
			break;
		/* on its socket: the accesses' IPIs stay there (a CPU the host lacks: not pinned) */
		CPU_ZERO(&set);
		for (int j = r->first; j < r->first + r->n; j++)
			if (m->env.cpus[m->order[j]].os_cpu < CPU_SETSIZE)
				CPU_SET(m->env.cpus[m->order[j]].os_cpu, &set);
		if (pthread_setaffinity_np(r->thread, sizeof(set), &set)) {
			/* a fake tree's CPUs, or a cpuset that excludes them: unpinned, still parallel */
		}
	}
	if (created < m->nreaders) {
		/* no threads to be had: the sampler reads every socket itself */
		msr_readers_abandon(m, created);
		return;
	}
	pthread_barrier_init(&m->sweep_go, NULL, (unsigned)m->nreaders + 1);
	pthread_barrier_init(&m->sweep_done, NULL, (unsigned)m->nreaders + 1);
	msr_readers_gate(m);
}

void msr_readers_stop(struct msr_core *m)
{
	if (!m->nreaders)
		return;
	m->sweep_quit = true;
	pthread_barrier_wait(&m->sweep_go);
	for (int k = 0; k < m->nreaders; k++)
		pthread_join(m->readers[k].thread, NULL);
	pthread_barrier_destroy(&m->sweep_go);
	pthread_barrier_destroy(&m->sweep_done);
	pthread_cond_destroy(&m->gate_cond);
	free(m->readers);
	free(m->order);
	m->readers = NULL;
	m->order = NULL;
	m->nreaders = 0;
}
