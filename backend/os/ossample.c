/*
 * ossample: utilisation and clock from /proc and sysfs; see ossample.h.
 */
#include "throttle.h"
#include "ossample.h"
#include "rootfs.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "who.h"
#include "xmalloc.h"

/* The metrics' formulas say what the figures mean; the values are set from /proc directly. */
static const char ossample_layout_text[] =
	"pmutop-layout 1\n"
	"layout os\n"
	"description \"No usable counters: utilisation from /proc/stat, clock from cpufreq\"\n"
	"models any\n"
	"metric util thread % = 100 * ref_cycles / tsc\n"
	"help \"Share of the time the CPU was not idle (/proc/stat: all but idle and iowait)\"\n"
	"metric ghz thread GHz = cycles / ref_cycles * tsc_hz / 1e9\n"
	"help \"Current clock of the CPU (cpufreq scaling_cur_freq); n/a without cpufreq\"\n";

struct ossample {
	char root[512];             /* "" for this machine */
	struct who *who;            /* who uses it (the session's), or NULL */
	struct throttle *thr;       /* the thermal throttle counters (the session's), or NULL */
	const struct topo *t;
	struct layout *l;
	int tfd;
	double interval;           /* seconds asked */
	double last;               /* the monotonic clock at the last sample taken, 0 none yet */
	bool paused;
	uint64_t seq;
	char reason[512];
	unsigned long long *busy, *total; /* previous /proc/stat figures, by topo thread */
	bool have_prev;
	int util, ghz;
};

static bool ossample_stat(struct ossample *o, unsigned long long *busy, unsigned long long *total);

static void ossample_arm(struct ossample *o)
{
	struct itimerspec its = { 0 };
	double s = o->interval;

	its.it_value.tv_sec = (time_t)s;
	its.it_value.tv_nsec = (long)((s - floor(s)) * 1e9);
	if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	its.it_interval = its.it_value;
	timerfd_settime(o->tfd, 0, &its, NULL);
}

int ossample_open(const char *root, const struct topo *t, double interval, const char *reason,
		  struct ossample **out, char *err, size_t errlen)
{
	struct ossample *o = xcalloc(1, sizeof(*o));
	char lerr[512];

	*out = NULL;
	snprintf(o->root, sizeof(o->root), "%s", root && strcmp(root, "/") ? root : "");
	if (layout_parse(ossample_layout_text, "(built-in os layout)", &o->l, lerr, sizeof(lerr))) {
		snprintf(err, errlen, "%s", lerr);
		free(o);
		return -EINVAL;
	}
	o->t = t;
	o->interval = interval;
	snprintf(o->reason, sizeof(o->reason), "%s", reason);
	o->busy = xcalloc((size_t)t->nthreads + 1, sizeof(*o->busy));
	o->total = xcalloc((size_t)t->nthreads + 1, sizeof(*o->total));
	o->util = layout_metric_find(o->l, "util");
	o->ghz = layout_metric_find(o->l, "ghz");
	o->have_prev = ossample_stat(o, o->busy, o->total); /* the first sample has a baseline */
	o->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (o->tfd < 0) {
		snprintf(err, errlen, "cannot create a timer: %s", strerror(errno));
		ossample_free(o);
		return -EIO;
	}
	ossample_arm(o);
	*out = o;
	return 0;
}

const struct layout *ossample_layout(const struct ossample *o)
{
	return o->l;
}

int ossample_fd(const struct ossample *o)
{
	return o->tfd;
}

void ossample_set_interval(struct ossample *o, double seconds)
{
	o->interval = seconds;
	ossample_arm(o);
}

void ossample_set_paused(struct ossample *o, bool paused)
{
	o->paused = paused;
}

/* Busy and total jiffies per OS CPU from /proc/stat into BUSY/TOTAL (by topo thread); false if unreadable. */
static bool ossample_stat(struct ossample *o, unsigned long long *busy, unsigned long long *total)
{
	char line[512];
	FILE *f = rootfs_fopen(o->root, "proc/stat");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		int cpu, th;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5)
			continue;
		if (cpu < 0 || cpu >= o->t->cpu_thread_len || (th = o->t->cpu_thread[cpu]) < 0)
			continue;
		/* user nice system idle iowait irq softirq steal: idle and iowait are not busy */
		busy[th] = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		total[th] = busy[th] + v[3] + v[4];
	}
	fclose(f);
	return true;
}

static double ossample_ghz(const struct ossample *o, int os_cpu)
{
	char path[128], buf[64], *end;
	double khz;

	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
		 os_cpu);
	if (rootfs_read(o->root, path, buf, sizeof(buf)) <= 0)
		return NAN;
	khz = strtod(buf, &end);
	return end == buf ? NAN : khz / 1e6;
}

/* Cores and sockets get the mean of their threads' figures (n/a ones left out), in one pass. */
static void ossample_means(struct sample *s, const struct topo *t, int var)
{
	int nc = t->ncores, ns = t->nsockets;
	double *sum = xcalloc((size_t)(nc + ns) + 1, sizeof(double));
	int *n = xcalloc((size_t)(nc + ns) + 1, sizeof(int));

	for (int i = 0; i < s->nthreads; i++) {
		double v = s->threads[i].vars[var];

		if (isnan(v))
			continue;
		sum[s->threads[i].core] += v;
		n[s->threads[i].core]++;
		sum[nc + s->threads[i].socket] += v;
		n[nc + s->threads[i].socket]++;
	}
	for (int k = 0; k < nc + ns; k++)
		(k < nc ? &s->cores[k] : &s->sockets[k - nc])->vars[var] = n[k] ? sum[k] / n[k] : NAN;
	free(sum);
	free(n);
}

struct sample *ossample_take(struct ossample *o)
{
	const struct topo *t = o->t;
	unsigned long long *busy, *total, ticks;
	struct sample *s;
	struct timespec now;
	bool ok;
	int n = 0;

	if (read(o->tfd, &ticks, sizeof(ticks)) != sizeof(ticks) || o->paused)
		return NULL;
	busy = xcalloc((size_t)t->nthreads + 1, sizeof(*busy));
	total = xcalloc((size_t)t->nthreads + 1, sizeof(*total));
	ok = ossample_stat(o, busy, total);
	s = sample_new(o->l, t->nonline, t->ncores, t->nsockets);
	s->seq = ++o->seq;
	clock_gettime(CLOCK_REALTIME, &now);
	s->time = (double)now.tv_sec + now.tv_nsec * 1e-9;
	{
		/* the window the counts cover: a timer that fires late (a loaded machine) stretches it */
		struct timespec m;
		double t_now;

		clock_gettime(CLOCK_MONOTONIC, &m);
		t_now = (double)m.tv_sec + m.tv_nsec * 1e-9;
		s->interval_s = o->last > 0 ? t_now - o->last : o->interval;
		o->last = t_now;
	}
	s->skew_us = NAN;
	s->source = "OS (no counters)";
	if (o->who) {
		struct timespec mono;

		clock_gettime(CLOCK_MONOTONIC, &mono);
		s->who = who_collect(o->who, (double)mono.tv_sec + mono.tv_nsec * 1e-9);
	}
	if (o->thr) {
		struct timespec mono;

		clock_gettime(CLOCK_MONOTONIC, &mono);
		s->throttle = throttle_look(o->thr, (double)mono.tv_sec + mono.tv_nsec * 1e-9);
	}
	snprintf(s->warning, sizeof(s->warning), "%s", o->reason);
	for (int th = 0; th < t->nthreads; th++) {
		struct sample_entity *e;

		if (!t->threads[th].online)
			continue;
		e = &s->threads[n++];
		e->index = t->threads[th].os_cpu;
		e->core = t->threads[th].core;
		e->socket = t->threads[th].socket;
		e->os_core_id = t->cores[e->core].core_id;
		e->os_socket_id = t->sockets[e->socket].os_id;
		if (ok && o->have_prev && total[th] > o->total[th])
			e->vars[layout_metric_var(o->l, o->util)] =
				100.0 * (double)(busy[th] - o->busy[th]) / (double)(total[th] - o->total[th]);
		e->vars[layout_metric_var(o->l, o->ghz)] = ossample_ghz(o, e->index);
	}
	for (int k = 0; k < t->ncores; k++) {
		s->cores[k].index = k;
		s->cores[k].core = k;
		s->cores[k].socket = t->cores[k].socket;
		s->cores[k].os_core_id = t->cores[k].core_id;
		s->cores[k].os_socket_id = t->sockets[t->cores[k].socket].os_id;
	}
	for (int k = 0; k < t->nsockets; k++) {
		s->sockets[k].index = k;
		s->sockets[k].socket = k;
		s->sockets[k].os_socket_id = t->sockets[k].os_id;
	}
	for (int m = 0; m < o->l->nmetrics; m++)
		ossample_means(s, t, layout_metric_var(o->l, m));
	free(o->busy);
	free(o->total);
	o->busy = busy;
	o->total = total;
	o->have_prev = ok;
	return s;
}

void ossample_free(struct ossample *o)
{
	if (!o)
		return;
	if (o->tfd >= 0)
		close(o->tfd);
	layout_free(o->l);
	free(o->busy);
	free(o->total);
	free(o);
}

void ossample_set_who(struct ossample *o, struct who *w)
{
	o->who = w;
}

void ossample_set_throttle(struct ossample *o, struct throttle *th)
{
	o->thr = th;
}
