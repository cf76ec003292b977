/*
 * throttle: the kernel's thermal throttle counters each interval.  See
 * throttle.h.
 */
#include "throttle.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rootfs.h"
#include "xmalloc.h"

enum { TH_COUNT, TH_MS, TH_PL, TH_N };

/*
 * One counter file, read afresh at each look (no descriptor held: a big
 * machine's 2 a core would count against the perf source's open files);
 * its last value.
 */
struct th_file {
	char rel[96];            /* "" not there */
	unsigned long long prev;
};

struct throttle {
	char *root;
	void (*refresh)(void *ctx);
	void *ctx;
	int nsockets, ncores;
	struct th_file (*pkg)[TH_N];  /* per topo socket */
	struct th_file (*core)[TH_N]; /* per topo core */
	int *core_socket;
	bool time, pl;
	double t_prev;           /* the last look's time, NaN none */
	char why[200];
};

static const char *const th_names[2][TH_N] = {
	{ "package_throttle_count", "package_throttle_total_time_ms", "package_power_limit_count" },
	{ "core_throttle_count", "core_throttle_total_time_ms", "core_power_limit_count" },
};

/* The counter's value now, or -1 (not there, unreadable, not a number). */
static long long th_read(const char *root, const struct th_file *f)
{
	char buf[32], *end;
	unsigned long long v;

	if (!f->rel[0] || rootfs_read_line(root, f->rel, buf, sizeof(buf)))
		return -1;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (end == buf || errno || *end || v > (unsigned long long)LLONG_MAX)
		return -1;
	return (long long)v;
}

static void th_open(const char *root, int cpu, int pkg, struct th_file *f)
{
	for (int k = 0; k < TH_N; k++) {
		snprintf(f[k].rel, sizeof(f[k].rel), "sys/devices/system/cpu/cpu%d/thermal_throttle/%s",
			 cpu, th_names[pkg ? 0 : 1][k]);
		if (!rootfs_exists(root, f[k].rel))
			f[k].rel[0] = 0;
		f[k].prev = 0;
	}
}

/* The growth of F since the last read (a counter that went back: from 0), NaN unreadable. */
static double th_delta(const char *root, struct th_file *f)
{
	long long v = th_read(root, f);
	double d;

	if (v < 0)
		return NAN;
	d = (unsigned long long)v >= f->prev ? (double)((unsigned long long)v - f->prev) : (double)v;
	f->prev = (unsigned long long)v;
	return d;
}

struct throttle *throttle_open(const char *root, const struct topo *t, void (*refresh)(void *ctx),
			       void *ctx)
{
	struct throttle *th = xcalloc(1, sizeof(*th));

	th->root = root ? xstrdup(root) : NULL;
	th->t_prev = NAN;
	th->refresh = refresh;
	th->ctx = ctx;
	th->nsockets = t->nsockets;
	th->ncores = t->ncores;
	th->pkg = xcalloc((size_t)th->nsockets + 1, sizeof(*th->pkg));
	th->core = xcalloc((size_t)th->ncores + 1, sizeof(*th->core));
	th->core_socket = xcalloc((size_t)th->ncores + 1, sizeof(int));
	if (refresh)
		refresh(ctx);
	for (int k = 0; k < th->nsockets; k++) {
		if (t->sockets[k].nthreads > 0)
			th_open(root, t->sockets[k].cpus[0], 1, th->pkg[k]);

	}
	for (int c = 0; c < th->ncores; c++) {
		th->core_socket[c] = t->cores[c].socket;
		if (t->cores[c].nthreads > 0)
			th_open(root, t->threads[t->cores[c].thread_first].os_cpu, 0, th->core[c]);

	}
	if (!th->nsockets || !th->pkg[0][TH_COUNT].rel[0])
		snprintf(th->why, sizeof(th->why), "no thermal throttle counters (/sys/devices/system/"
			 "cpu/cpu%d/thermal_throttle): a virtual machine, an AMD CPU (Linux's "
			 "therm_throt is Intel's), or a kernel without it", th->nsockets && t->sockets[0].nthreads
			 ? t->sockets[0].cpus[0] : 0);
	th->time = !th->why[0] && th->pkg[0][TH_MS].rel[0];
	/* only with int_pln_enable on the kernel's command line (therm_throt.c) */
	th->pl = !th->why[0] && th->pkg[0][TH_PL].rel[0];
	/* the baseline: the first look covers the time since */
	for (int k = 0; k < th->nsockets; k++)
		for (int i = 0; i < TH_N; i++)
			th_delta(th->root, &th->pkg[k][i]);
	for (int c = 0; c < th->ncores; c++)
		for (int i = 0; i < TH_N; i++)
			th_delta(th->root, &th->core[c][i]);
	return th;
}

struct sample_throttle *throttle_look(struct throttle *th, double t)
{
	struct sample_throttle *out = xcalloc(1, sizeof(*out));

	out->window_s = t - th->t_prev; /* NaN the first time: the baseline's moment is not the clock's */
	th->t_prev = t;
	if (th->why[0]) {
		snprintf(out->why, sizeof(out->why), "%s", th->why);
		return out;
	}
	if (th->refresh)
		th->refresh(th->ctx);
	out->nsockets = th->nsockets;
	out->time = th->time;
	out->power_limit = th->pl;
	out->s = xcalloc((size_t)th->nsockets + 1, sizeof(*out->s));
	for (int k = 0; k < th->nsockets; k++) {
		out->s[k].pkg_events = th_delta(th->root, &th->pkg[k][TH_COUNT]);
		out->s[k].pkg_ms = th->time ? th_delta(th->root, &th->pkg[k][TH_MS]) : NAN;
		out->s[k].core_ms = th->time ? 0 : NAN;
		out->s[k].pkg_pl_events = th->pl ? th_delta(th->root, &th->pkg[k][TH_PL]) : NAN;
		out->s[k].core_pl_events = th->pl ? 0 : NAN;
	}
	for (int c = 0; c < th->ncores; c++) {
		int k = th->core_socket[c];
		double n = th_delta(th->root, &th->core[c][TH_COUNT]), ms = th->time ? th_delta(th->root, &th->core[c][TH_MS]) : NAN;

		if (k < 0 || k >= th->nsockets || isnan(n))
			continue;
		out->s[k].core_events += n;
		if (!isnan(ms))
			out->s[k].core_ms += ms;
		out->s[k].cores += n > 0 || ms > 0;
		if (th->pl) {
			double pl = th_delta(th->root, &th->core[c][TH_PL]);

			if (!isnan(pl))
				out->s[k].core_pl_events += pl;
		}
	}
	return out;
}

void throttle_free(struct throttle *th)
{
	if (!th)
		return;
	free(th->root);
	free(th->pkg);
	free(th->core);
	free(th->core_socket);
	free(th);
}
