/*
 * engine_thread: the sampler thread and the way other threads talk to it:
 * start, stop (bounded: a stuck register access is left behind after
 * ENGINE_STOP_WAIT_S), the latest sample (one-way, reference-counted), the
 * eventfd that says one was published, and the commands taken at the next
 * slice.  See engine.h for the shutdown order, engine_int.h for the state.
 */
#define _GNU_SOURCE /* pthread_timedjoin_np */
#include "engine.h"
#include "engine_int.h"
#include "xmalloc.h"
#include "msr.h"

#include <assert.h>
#include <string.h>
#include <stdlib.h>
#include <sched.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

_Thread_local const struct engine *engine_owner;

/* A per-socket reader: its share of each sweep, between the sampler's two barriers. */
static void *engine_reader_main(void *arg)
{
	struct engine_reader *r = arg;
	struct engine *e = r->e;

	bool abort;

	/* every reader started, or none reads: engine_readers_start opens the gate */
	pthread_mutex_lock(&e->note_lock);
	while (!e->gate)
		pthread_cond_wait(&e->gate_cond, &e->note_lock);
	abort = e->readers_abort;
	pthread_mutex_unlock(&e->note_lock);
	if (abort)
		return NULL; /* not every reader could start: no barrier to meet */
	/*
	 * Always to the barrier: engine_readers_stop sets sweep_quit and then
	 * waits there for every reader, so a reader must not leave before it
	 */
	for (;;) {
		pthread_barrier_wait(&e->sweep_go);
		if (e->sweep_quit)
			break;
		engine_sweep_part(e, r->first, r->first + r->n, e->sweep_set, e->sweep_final);
		pthread_barrier_wait(&e->sweep_done);
	}
	return NULL;
}

/* Open the readers' gate: to read (barriers ready) or, with sweep_quit set, to leave. */
static void engine_readers_gate(struct engine *e)
{
	pthread_mutex_lock(&e->note_lock);
	e->gate = true;
	pthread_cond_broadcast(&e->gate_cond);
	pthread_mutex_unlock(&e->note_lock);
}

/* ORDER: E's CPUs socket by socket; FIRST[s] where socket s's start.  Returns the sockets with CPUs. */
static int engine_order(struct engine *e, int *first)
{
	const struct topo *t = e->cfg.topo;
	int at = 0, nsock = 0;

	for (int sk = 0; sk < t->nsockets; sk++) {
		first[sk] = at;
		for (int i = 0; i < e->ncpus; i++)
			if (t->threads[e->cpus[i].thread].socket == sk)
				e->order[at++] = i;
		nsock += at > first[sk];
	}
	first[t->nsockets] = at;
	return nsock;
}

void engine_readers_start(struct engine *e)
{
	const struct topo *t = e->cfg.topo;
	enum msr_kind kind = e->cfg.dev ? msr_dev_kind(e->cfg.dev) : MSR_KIND_OPS;
	const char *serial = getenv("PMUTOP_SERIAL_SWEEP");
	int *first, created = 0;

	/* the emulator answers under one lock, and stepped clocks are single-threaded */
	/* with a batch call every CPU is read at once already */
	if (e->nreaders || e->cfg.readers < 0 || t->nsockets < 2 || !e->cfg.dev ||
	    msr_batch_ready(e->cfg.dev) ||
	    (serial && *serial && strcmp(serial, "0")) ||
	    (e->cfg.readers == 0 && (e->cfg.clock || (kind != MSR_KIND_MSR && kind != MSR_KIND_MSR_SAFE))))
		return;
	e->order = xcalloc((size_t)e->ncpus + 1, sizeof(int));
	first = xcalloc((size_t)t->nsockets + 1, sizeof(int));
	if (engine_order(e, first) < 2) {
		free(first);
		free(e->order);
		e->order = NULL;
		return;
	}
	e->readers = xcalloc((size_t)t->nsockets, sizeof(*e->readers));
	/* the sampler reads the first socket with CPUs, a reader each of the others */
	e->own = -1;
	for (int sk = 0; sk < t->nsockets; sk++) {
		if (first[sk + 1] == first[sk])
			continue;
		if (e->own < 0)
			e->own = first[sk + 1];
		else
			e->readers[e->nreaders++] = (struct engine_reader){
				.e = e, .first = first[sk], .n = first[sk + 1] - first[sk] };
	}
	free(first);
	pthread_cond_init(&e->gate_cond, NULL);
	e->gate = false;
	e->sweep_quit = false;
	e->readers_abort = false;
	for (; created < e->nreaders; created++) {
		struct engine_reader *r = &e->readers[created];
		cpu_set_t set;

		if (pthread_create(&r->thread, NULL, engine_reader_main, r))
			break;
		/* on its socket: the accesses' IPIs stay there (a CPU the host lacks: not pinned) */
		CPU_ZERO(&set);
		for (int j = r->first; j < r->first + r->n; j++)
			if (e->cpus[e->order[j]].os_cpu < CPU_SETSIZE)
				CPU_SET(e->cpus[e->order[j]].os_cpu, &set);
		if (pthread_setaffinity_np(r->thread, sizeof(set), &set)) {
			/* a fake tree's CPUs, or a cpuset that excludes them: unpinned, still parallel */
		}
	}
	if (created < e->nreaders) {
		/* no threads to be had: the sampler reads every socket itself */
		e->readers_abort = true;
		engine_readers_gate(e);
		for (int k = 0; k < created; k++)
			pthread_join(e->readers[k].thread, NULL);
		free(e->readers);
		free(e->order);
		e->readers = NULL;
		e->order = NULL;
		e->nreaders = 0;
		pthread_cond_destroy(&e->gate_cond);
		return;
	}
	pthread_barrier_init(&e->sweep_go, NULL, (unsigned)e->nreaders + 1);
	pthread_barrier_init(&e->sweep_done, NULL, (unsigned)e->nreaders + 1);
	engine_readers_gate(e);
}

void engine_use_readers(struct engine *e, bool on)
{
	if (on)
		engine_readers_start(e);
	else
		engine_readers_stop(e);
}

void engine_readers_stop(struct engine *e)
{
	if (!e->nreaders)
		return;
	e->sweep_quit = true;
	pthread_barrier_wait(&e->sweep_go);
	for (int k = 0; k < e->nreaders; k++)
		pthread_join(e->readers[k].thread, NULL);
	pthread_barrier_destroy(&e->sweep_go);
	pthread_barrier_destroy(&e->sweep_done);
	pthread_cond_destroy(&e->gate_cond);
	free(e->readers);
	free(e->order);
	e->readers = NULL;
	e->order = NULL;
	e->nreaders = 0;
}

static void *engine_thread(void *arg)
{
	struct engine *e = arg;
	struct timespec now;
	double next;

	engine_owner = e;
	engine_readers_start(e);
	clock_gettime(CLOCK_MONOTONIC, &now);
	next = (double)now.tv_sec + now.tv_nsec * 1e-9 + engine_slice_s(e);
	pthread_mutex_lock(&e->lock);
	while (!e->quit) {
		struct timespec dl = { .tv_sec = (time_t)next,
				       .tv_nsec = (long)((next - (double)(time_t)next) * 1e9) };
		double tnow;
		int rc = 0;

		while (!e->quit && !e->dirty && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&e->wake, &e->lock, &dl);
		if (e->quit)
			break;
		pthread_mutex_unlock(&e->lock);
		engine_step(e);
		clock_gettime(CLOCK_MONOTONIC, &now);
		tnow = (double)now.tv_sec + now.tv_nsec * 1e-9;
		/* absolute deadlines: no drift; after a stall or a command, start afresh */
		next += engine_slice_s(e);
		if (next <= tnow || e->need_baseline || rc != ETIMEDOUT)
			next = tnow + engine_slice_s(e);
		pthread_mutex_lock(&e->lock);
	}
	pthread_mutex_unlock(&e->lock);
	engine_readers_stop(e);
	return NULL;
}

int engine_start(struct engine *e)
{
	int rc;

	assert(!e->running && !e->stuck);
	/* running before the thread exists: its first step must see it so */
	e->running = true;
	rc = pthread_create(&e->thread, NULL, engine_thread, e);

	if (rc) {
		e->running = false;
		return -rc;
	}
	return 0;
}

int engine_stop(struct engine *e)
{
	struct timespec dl;
	int rc;

	if (!e || !e->running)
		return e && e->stuck ? -ETIMEDOUT : 0;
	atomic_store(&e->stop, true);
	pthread_mutex_lock(&e->lock);
	e->quit = true;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
	/* a register access that never returns must not keep pmutop from restoring and leaving */
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += ENGINE_STOP_WAIT_S;
	rc = pthread_timedjoin_np(e->thread, NULL, &dl);
	e->running = false;
	if (rc) {
		e->stuck = true;
		pthread_detach(e->thread);
		return -ETIMEDOUT;
	}
	return 0;
}

const struct sample *engine_latest(struct engine *e)
{
	const struct sample *s;

	pthread_mutex_lock(&e->lock);
	s = e->latest ? sample_ref(e->latest) : NULL;
	pthread_mutex_unlock(&e->lock);
	return s;
}

int engine_fd(const struct engine *e)
{
	return e->efd;
}

void engine_ack(struct engine *e)
{
	uint64_t n;

	if (read(e->efd, &n, sizeof(n)) < 0) {
		/* EAGAIN: nothing published since the last ack */
	}
}

static void engine_command(struct engine *e, uint32_t groups, double interval, bool paused)
{
	pthread_mutex_lock(&e->lock);
	e->want_groups = groups;
	e->want_interval = interval;
	e->want_paused = paused;
	e->dirty = true;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
}

void engine_set_groups(struct engine *e, uint32_t groups)
{
	engine_command(e, groups, e->want_interval, e->want_paused);
}

void engine_set_interval(struct engine *e, double seconds)
{
	seconds = fmin(fmax(seconds, ENGINE_INTERVAL_MIN), ENGINE_INTERVAL_MAX);
	engine_command(e, e->want_groups, seconds, e->want_paused);
}

void engine_set_paused(struct engine *e, bool paused)
{
	engine_command(e, e->want_groups, e->want_interval, paused);
}

void engine_flush(struct engine *e)
{
	pthread_mutex_lock(&e->lock);
	e->want_flush = true;
	e->dirty = true;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
}


int engine_attach(struct engine *e, int pid, char *err, size_t errlen)
{
	struct timespec dl;
	int rc = 0;

	err[0] = 0;
	if (!e->running)
		return engine_perf_attach(e, pid, err, errlen);
	pthread_mutex_lock(&e->lock);
	e->want_pid = pid;
	e->dirty = true;
	pthread_cond_signal(&e->wake);
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += ENGINE_ATTACH_WAIT_S;
	while (e->attached != pid && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&e->applied, &e->lock, &dl);
	if (e->attached == pid) {
		rc = e->attach_rc;
		snprintf(err, errlen, "%s", e->attach_err);
	} else {
		rc = -ETIMEDOUT;
		snprintf(err, errlen, "the sampler did not take the command on within %d s",
			 ENGINE_ATTACH_WAIT_S);
	}
	pthread_mutex_unlock(&e->lock);
	return rc;
}
