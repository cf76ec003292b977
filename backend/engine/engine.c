/*
 * engine: the loop, one for every source.  Each step takes the commands,
 * reads the source's live set, rotates it when sets take turns, reads the
 * per-socket PMUs, and at the end of an interval publishes the sample
 * engine_sample.c builds and starts the next one.  Pacing: how many slices
 * an interval has and how many steps a slice.  The source does the
 * programming, reading and checking (source_ops.h); the sampler thread
 * and the commands are engine_thread.c's, the state engine_int.h's.
 */
#include "engine.h"
#include "engine_int.h"
#include "pilock.h"
#include "xmalloc.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* The figures' clock for the uncore, which keeps the engine's */
static double engine_clock_of(void *ctx)
{
	return src_now(&((const struct engine *)ctx)->cfg);
}

/* Sets that take turns: the core's or the uncore's, whichever has more. */
static int engine_sets(const struct engine *e)
{
	return e->plan.nsets > uncore_nsets(e->unc) ? e->plan.nsets : uncore_nsets(e->unc);
}

/*
 * Slices per interval and steps per slice for the current plan and
 * interval: one slice without rotation; with it, whole rounds of the sets
 * in slices of about mux_s (longer when the last sweep was too slow for
 * it: measured on the real clock only, so stepped runs stay reproducible);
 * a source with a timer of its own (the emulated kernel) as often as it
 * needs.  Each slice is cut further when the uncore must be read more often.
 *
 * On the real clock one slice more than the rounds: the sets take turns
 * across the intervals' ends as if they were not there (the next interval
 * goes on from the set after the last one read), so each interval's turns
 * start a set later than the last's and every set's turns stay evenly
 * spaced, as the kernel's timer drifts against perf's intervals.  With
 * whole rounds from the same set, every set held the same places of every
 * interval, and a workload whose period divides the interval (phased_load.sh:
 * 0.4 s phases, 0.8 s intervals) was seen by each set at the same phase each
 * time: the run's mean was as far off as one interval (47.1-49.1 % against
 * 47.5).  Passing the next set over at each end instead (programmed and at
 * once replaced) left that set a hole of one turn where its interval
 * began: the interval after the short first one read 7.5 % off, its 15
 * turns in compute and 18 in memory.
 */
static void engine_pace(struct engine *e)
{
	int sets = engine_sets(e);
	double need = e->ops->tick_s ? e->ops->tick_s(e->src) : 0;

	e->nslices = 1;
	if (sets > 1) {
		double len = e->mux_s, rounds;

		if (!e->cfg.clock && !(e->cfg.mux_s > 0))
			len = fmax(len, e->rot_cost / ENGINE_MUX_MAX_COST);
		rounds = ceil(e->interval / (sets * len) - 1e-9);
		e->nslices = sets * (int)fmax(1, fmin(rounds, 1e6)) + (e->cfg.clock ? 0 : 1);
	} else if (need > 0) {
		e->nslices = (int)fmax(1, ceil(e->interval / need - 1e-9));
	}
	e->ticks = (int)ceil(e->interval / e->nslices / uncore_poll_s(e->unc) - 1e-9);
	if (e->ticks < 1)
		e->ticks = 1;
	e->tick = 0;
}

/* Plan the groups (again, after a change of what may be counted), then the pace. */
static void engine_plan(struct engine *e)
{
	e->ops->plan(e->src, e->groups, e->blocked, &e->plan);
	uncore_plan(e->unc, e->groups, e->plan.files);
	for (int g = 0; g < e->l->ngroups; g++)
		if (layout_pmu_kinds[e->l->groups[g].pmu].per_socket)
			snprintf(e->blocked[g], sizeof(e->blocked[g]), "%s",
				 uncore_group_blocked(e->unc, g));
	engine_pace(e);
	e->slice = 0;
	e->tick = 0;
}

/* Start an interval: program the live sets and take the baselines. */
static void engine_baseline(struct engine *e)
{
	e->ops->baseline(e->src);
	uncore_baseline(e->unc);
	e->t_start = src_real();
	e->slice = 0;
	e->tick = 0;
	e->need_baseline = false;
}

static void engine_publish(struct engine *e, struct sample *s)
{
	struct sample *old;
	uint64_t one = 1;
	struct timespec ts;

	/* the end of its window (its counts read), not the end of building it (the who view) */
	clock_gettime(CLOCK_REALTIME, &ts);
	s->time = e->wall_sweep > 0 ? e->wall_sweep : (double)ts.tv_sec + ts.tv_nsec * 1e-9;
	pthread_mutex_lock(&e->lock);
	old = e->latest;
	e->latest = s;
	pthread_mutex_unlock(&e->lock);
	sample_release(old);
	if (write(e->efd, &one, sizeof(one)) < 0) {
		/* the counter saturates only if nobody reads for 2^64 samples */
	}
}

/* ---- the step --------------------------------------------------------- */

int engine_attach_now(struct engine *e, int pid, char *err, size_t errlen)
{
	err[0] = 0;
	if (!e->ops->attach) {
		snprintf(err, errlen, "the %s source counts whole CPUs, not one command",
			 e->ops->name);
		return -EOPNOTSUPP;
	}
	e->ops->attach(e->src, pid);
	e->pid = pid;
	engine_plan(e);
	e->need_baseline = true;
	return e->ops->attached(e->src, &e->plan, e->blocked, err, errlen);
}

/* The interval asked for: at once, or after the short first interval. */
static void engine_apply_interval(struct engine *e, double interval)
{
	if (interval == e->interval || interval == e->interval_after_first)
		return;
	if (e->interval_after_first > 0 && interval > ENGINE_FIRST_S) {
		/*
		 * still in the short first interval (the settings' interval arrives
		 * as the screen starts): the first figures come as soon as ever,
		 * the new interval after them
		 */
		e->interval_after_first = interval;
		return;
	}
	e->interval = interval;
	e->interval_after_first = 0;
	engine_pace(e);
	e->need_baseline = true;
}

static void engine_apply_commands(struct engine *e)
{
	layout_groups groups;
	double interval;
	bool paused, dirty;
	int pid;

	pthread_mutex_lock(&e->lock);
	pid = e->want_pid;
	/* a key counts the groups its metrics read too ("reads") */
	groups = layout_groups_counted(e->l, e->want_groups);
	interval = e->want_interval;
	paused = e->want_paused;
	dirty = e->dirty;
	e->dirty = false;
	e->flush |= e->want_flush;
	e->want_flush = false;
	pthread_mutex_unlock(&e->lock);
	if (!dirty)
		return;
	if (pid >= 0 && pid != e->pid) {
		char err[sizeof(e->attach_err)];
		int rc = engine_attach_now(e, pid, err, sizeof(err));

		pthread_mutex_lock(&e->lock);
		e->attach_rc = rc;
		snprintf(e->attach_err, sizeof(e->attach_err), "%s", err);
		e->attached = pid;
		pthread_cond_broadcast(&e->applied);
		pthread_mutex_unlock(&e->lock);
	}
	if (paused != e->paused) {
		e->paused = paused;
		e->need_baseline = true;
	}
	engine_apply_interval(e, interval);
	if (groups != e->groups) {
		e->groups = groups;
		engine_plan(e);
		e->need_baseline = true;
	}
}

/*
 * Whether this step ends the interval.  On the real clock an interval ends
 * on time even when sweeps ran late, but never before every set had its
 * slice: a loaded machine stretches the interval (its length is measured)
 * rather than leave a group out.
 */
static bool engine_final(const struct engine *e, double t_sweep)
{
	return e->slice + 1 >= e->nslices || e->flush ||
	       (!e->cfg.clock && e->slice + 1 >= engine_sets(e) &&
		t_sweep - e->t_start >= e->interval - 0.5 * engine_slice_s(e));
}

/* After a sample: every CPU and socket goes on from its last reading, the next interval begins. */
static void engine_next_interval(struct engine *e, double t_sweep)
{
	if (e->ops->lost && e->ops->lost(e->src)) {
		/* a counter was given up: plan again without it, from a fresh interval */
		engine_plan(e);
		e->need_baseline = true;
	}
	for (int i = 0; i < e->ncpus; i++)
		e->ops->restart(e->src, &e->cpus[i]);
	/* from the reading just taken: the counts go on while the sample is built */
	uncore_reset(e->unc);
	e->ops->clear_error(e->src);
	e->slice = 0;
	e->flush = false;
	e->t_start = t_sweep;
	if (e->interval_after_first > 0) {
		/* the short first interval is over: the one asked for from now on */
		e->interval = e->interval_after_first;
		e->interval_after_first = 0;
		engine_pace(e);
	}
	/* slow sweeps lengthen the next interval's slices (engine_pace) */
	if (!e->cfg.clock && e->rot_n) {
		e->rot_cost = e->rot_sum / e->rot_n;
		e->rot_sum = 0;
		e->rot_n = 0;
		engine_pace(e);
	}
}

/* A sweep's cost, the slices' pacing (engine_pace): the reads and the programs, not the build. */
static void engine_rot_cost(struct engine *e, bool rotate, double spent)
{
	if (rotate || uncore_nsets(e->unc) > 1) {
		e->rot_sum += spent;
		e->rot_n++;
	}
}

int engine_step(struct engine *e)
{
	/* the sampler thread owns the registers while it runs; engine_step is its own */
	assert(!e->running || engine_owner == e);
	bool final, rotate;
	double t_sweep, t_read, t_built;
	struct timespec wall;

	engine_apply_commands(e);
	if (e->paused)
		return 0;
	if (e->need_baseline) {
		e->ops->clear_error(e->src);
		engine_baseline(e);
		return 0;
	}
	if (e->ops->tick)
		e->ops->tick(e->src);
	if (++e->tick < e->ticks && !e->flush) {
		uncore_read(e->unc, false); /* between slices: no wrap of an IMC counter lost */
		return 0;
	}
	e->tick = 0;
	t_sweep = src_real();
	final = engine_final(e, t_sweep);
	rotate = e->plan.nsets > 1 && e->ops->rotate;
	/* every CPU read first, then reprogrammed: the reads stay close together (skew) */
	if (final || rotate)
		e->ops->sweep(e->src, final, &e->sweep);
	if (rotate && !final)
		e->ops->rotate(e->src);
	uncore_read(e->unc, final);
	/* the sample's time: its counts all read (a slow device's sweep included), not yet built */
	clock_gettime(CLOCK_REALTIME, &wall);
	e->wall_sweep = (double)wall.tv_sec + wall.tv_nsec * 1e-9;
	if (!final) {
		uncore_rotate(e->unc);
		engine_rot_cost(e, rotate, src_real() - t_sweep);
		e->slice++;
		return 0;
	}
	uncore_verify(e->unc);
	/*
	 * On the real clock, the slice the interval had: sweeps that take longer
	 * than the slice asked (a slow device, a sanitizer build) leave fewer,
	 * longer slices, and that is the rotation the figures had.
	 */
	e->rot_achieved = !e->cfg.clock && (rotate || uncore_nsets(e->unc) > 1)
			  ? (t_sweep - e->t_start) / (e->slice + 1) : 0;
	t_read = src_real();
	engine_publish(e, engine_build(e));
	/*
	 * The next sets go on once the sample is built, not before, so that no
	 * set counts through the build and the publish (0.2-0.4 ms of building,
	 * -g all on the emulated Nehalem-EP; with the sets programmed before it,
	 * one set's slice at the same place of every interval ran 8-10 ms beside
	 * busy loops, and a phased run's interval read 14 % off when that set
	 * held the figure: phased_load.sh).  What the set on the counters made
	 * meanwhile is dropped: the next set's program clears its counters and
	 * its live time starts there.
	 */
	t_built = src_real();
	/* the set after the last one read (engine_pace: the turns go on across the end) */
	if (rotate)
		e->ops->rotate(e->src);
	uncore_rotate(e->unc);
	engine_rot_cost(e, rotate, (t_read - t_sweep) + (src_real() - t_built));
	engine_next_interval(e, t_sweep);
	return 1;
}

double engine_slice_s(const struct engine *e)
{
	return e->interval / e->nslices / e->ticks;
}

double engine_rotation_s(const struct engine *e)
{
	int sets = engine_sets(e);

	if (sets < 2)
		return 0;
	return e->rot_achieved > 0 ? e->rot_achieved : e->interval / e->nslices;
}

/* ---- life cycle -------------------------------------------------------- */

/* The online CPUs of the topology, each with its accumulators. */
static void engine_cpus(struct engine *e)
{
	const struct topo *t = e->cfg.topo;

	e->cpus = xcalloc((size_t)t->nonline + 1, sizeof(*e->cpus));
	for (int i = 0; i < t->nthreads; i++) {
		struct src_cpu *c;

		if (!t->threads[i].online)
			continue;
		c = &e->cpus[e->ncpus++];
		c->os_cpu = t->threads[i].os_cpu;
		c->thread = i;
		c->kind = e->cfg.cpu_kind && c->os_cpu < e->cfg.ncpu_kind ? e->cfg.cpu_kind[c->os_cpu]
			  : LAYOUT_CORES_ANY;
		c->ev = xcalloc((size_t)e->l->nevents + 1, sizeof(*c->ev));
		c->uev = xcalloc((size_t)e->l->nevents + 1, sizeof(*c->uev));
	}
}

/* The per-socket PMUs through the source's transport.  0, or -errno with ERR. */
static int engine_uncore(struct engine *e, char *err, size_t errlen)
{
	const struct engine_config *cfg = &e->cfg;
	struct uncore_config uc = {
		.topo = cfg->topo, .layout = e->l, .ops = cfg->uncore_ops,
		.source_cfg = cfg->source_cfg, .kind = cfg->uncore, .kind_why = cfg->uncore_why,
		.socket_taken = cfg->uncore_taken,
		.channels = cfg->channels, .channel_peak = cfg->channel_peak,
		.clock = engine_clock_of, .clock_ctx = e, .root = cfg->root,
	};
	int rc = uncore_create(&uc, &e->unc, err, errlen);

	/* refused writes: msr is not usable here (--source auto goes on to perf) */
	return !rc ? 0 : rc == -EPERM || rc == -EACCES ? rc : -EIO;
}

/* The engine's own state: clock, threads' means of talking, CPUs.  0 or -errno with ERR. */
static int engine_init(struct engine *e, const struct engine_config *cfg, char *err, size_t errlen)
{
	pthread_condattr_t ca;

	e->cfg = *cfg;
	e->l = cfg->layout;
	e->ops = cfg->core_ops;
	if (!e->cfg.count_user && !e->cfg.count_kernel)
		e->cfg.count_user = e->cfg.count_kernel = true;
	e->interval = cfg->interval_s;
	if (!cfg->clock && e->interval > ENGINE_FIRST_S) {
		e->interval_after_first = e->interval;
		e->interval = ENGINE_FIRST_S;
	}
	e->mux_s = cfg->mux_s > 0 ? fmin(fmax(cfg->mux_s, ENGINE_MUX_MIN_S), ENGINE_MUX_MAX_S)
				  : ENGINE_MUX_DEFAULT_S;
	e->groups = layout_groups_counted(e->l, cfg->groups);
	e->blocked = xcalloc((size_t)e->l->ngroups + 1, sizeof(*e->blocked));
	engine_cpus(e);
	pilock_init(&e->lock);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&e->wake, &ca);
	pthread_cond_init(&e->applied, &ca);
	pthread_condattr_destroy(&ca);
	e->want_groups = cfg->groups;
	e->want_interval = cfg->interval_s;
	e->pid = e->want_pid = e->attached = -1;
	e->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (e->efd < 0) {
		snprintf(err, errlen, "cannot create an eventfd: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

int engine_create(const struct engine_config *cfg, struct engine **out, char *err, size_t errlen)
{
	struct engine *e = xcalloc(1, sizeof(*e));
	struct src_env env;
	int rc;

	*out = NULL;
	e->efd = -1;
	rc = engine_init(e, cfg, err, errlen);
	if (!rc && !e->ops) {
		snprintf(err, errlen, "no counter source given");
		rc = -EINVAL;
	}
	if (!rc)
		rc = engine_uncore(e, err, errlen);
	if (!rc) {
		env = (struct src_env){ .cfg = &e->cfg, .cpus = e->cpus, .ncpus = e->ncpus,
					.stop = &e->stop, .sampling = &e->sampling, .reads = &e->reads };
		rc = e->ops->create(&env, &e->src, err, errlen);
	}
	if (rc) {
		engine_free(e);
		return rc;
	}
	engine_plan(e);
	engine_baseline(e);
	for (int i = 0; i < e->ncpus; i++)
		if (e->cpus[i].failed) {
			snprintf(err, errlen, "%s", e->ops->error(e->src));
			engine_free(e);
			return -EIO;
		}
	e->sampling = true;
	*out = e;
	return 0;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	engine_stop(e);
	if (e->stuck)
		return; /* the thread may still touch it; the process is about to end */
	if (e->src)
		e->ops->free(e->src);
	for (int i = 0; i < e->ncpus; i++) {
		free(e->cpus[i].ev);
		free(e->cpus[i].uev);
	}
	free(e->cpus);
	uncore_free(e->unc);
	free(e->blocked);
	sample_release(e->latest);
	if (e->efd >= 0)
		close(e->efd);
	pthread_mutex_destroy(&e->lock);
	pthread_cond_destroy(&e->wake);
	pthread_cond_destroy(&e->applied);
	free(e);
}

uint64_t engine_counter_reads(const struct engine *e)
{
	return atomic_load(&e->reads);
}
