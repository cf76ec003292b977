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

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

_Thread_local const struct engine *engine_owner;

/* The source's helper threads (the per-socket readers) around the sampler's loop. */
static void engine_helpers(struct engine *e, bool on)
{
	if (e->ops->helpers)
		e->ops->helpers(e->src, on);
}

void engine_use_readers(struct engine *e, bool on)
{
	engine_helpers(e, on);
}

/*
 * Where pmutop rotates the groups itself (the register source), the turns
 * are only as regular as the sampler's wake-ups: beside busy loops a thread
 * of normal priority waits for a CPU now and then, a set's slice stretches
 * over part of a phase and a phased run's interval read 11.5 % off.  The
 * kernel multiplexes perf groups from its timer whatever the load; the
 * nearest a program gets is the lowest real-time priority, for a thread that
 * sleeps between slices and whose sweeps the slice's pacing keeps to a tenth
 * of it (and the kernel's real-time throttling to 95 % of a CPU at worst).
 * The per-socket readers it starts after this inherit it (a command run
 * under pmutop is forked by the main thread, which keeps its normal
 * priority).  Without the privilege it stays as it was.
 */
static void engine_priority(struct engine *e)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (!e->ops->rotate || e->cfg.normal_priority || e->cfg.clock)
		return;
	e->realtime = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
}

bool engine_realtime(const struct engine *e)
{
	return e->realtime;
}

static void *engine_thread(void *arg)
{
	struct engine *e = arg;
	struct timespec now;
	double next;

	engine_owner = e;
	engine_priority(e);
	engine_helpers(e, true);
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
		/*
		 * absolute deadlines: no drift, and the slices of a late wake-up
		 * follow at once (ENGINE_CATCH_UP_S); after a long stall or a
		 * command, start afresh
		 */
		next += engine_slice_s(e);
		if (next + ENGINE_CATCH_UP_S <= tnow || e->need_baseline || rc != ETIMEDOUT)
			next = tnow + engine_slice_s(e);
		pthread_mutex_lock(&e->lock);
	}
	pthread_mutex_unlock(&e->lock);
	engine_helpers(e, false);
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

static void engine_command(struct engine *e, layout_groups groups, double interval, bool paused)
{
	pthread_mutex_lock(&e->lock);
	e->want_groups = groups;
	e->want_interval = interval;
	e->want_paused = paused;
	e->dirty = true;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
}

void engine_set_groups(struct engine *e, layout_groups groups)
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
		return engine_attach_now(e, pid, err, errlen);
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
