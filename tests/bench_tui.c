/*
 * bench_tui: what the interactive screen costs.
 *
 * At 16, 256 and 1024 hardware threads (hwloc synthetic topologies, the
 * nehalem layout, a sample with every thread's figures set): the time to
 * render a frame into the grid and to turn it into terminal output with
 * curses (a real terminal type, output to /dev/null), both for a refresh
 * with new figures and for a key (heatmap metric) that changes every cell;
 * and the time from the start of the process to the first frame of an
 * emulated nehalem-ep (session opened, topology and layout on screen).
 * Not a test: it prints figures.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grid.h"
#include "history.h"
#include "layout.h"
#include "record.h"
#include "paths.h"
#include "sample.h"
#include "session.h"
#include "topo.h"
#include "ui.h"
#include "view.h"

#define BENCH_FRAMES 200

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median and 99th percentile of N times, in ms. */
static void bench_stats(double *t, int n, double *med, double *p99)
{
	qsort(t, (size_t)n, sizeof(double), bench_cmp);
	*med = t[n / 2] * 1e3;
	*p99 = t[n * 99 / 100] * 1e3;
}

static void bench_machine(const char *name, const char *synthetic, struct layout *l)
{
	struct topo *t;
	struct sample *s;
	struct view v;
	struct view_frame vf = { 0 };
	struct view_info in;
	struct grid *g = grid_new(COLS, LINES, true);
	double frame[BENCH_FRAMES], key[BENCH_FRAMES], fm, fp, km, kp;
	char err[512];

	if (topo_load(synthetic, &t, err, sizeof(err))) {
		fprintf(stderr, "bench_tui: %s\n", err);
		exit(1);
	}
	s = sample_new(l, t->nthreads, t->ncores, t->nsockets);
	for (int i = 0; i < t->nthreads; i++) {
		s->threads[i].index = t->threads[i].os_cpu;
		s->threads[i].socket = t->threads[i].socket;
		s->threads[i].core = t->threads[i].core;
		s->threads[i].os_core_id = t->cores[t->threads[i].core].core_id;
		for (int m = 0; m < l->nmetrics; m++)
			s->threads[i].vars[layout_metric_var(l, m)] = fmod(i * 7.3 + m, 100);
	}
	in = (struct view_info){ .host = "bench", .brand = "synthetic", .uarch = "Nehalem",
				 .source = "bench", .layout = l, .topo = t, .gp_counters = 4,
				 .perfmon_version = 3, .count_user = true, .count_kernel = true,
				 .utf8 = true };
	view_init(&v, &in, 1, 1);
	for (int f = 0; f < BENCH_FRAMES; f++) {
		double t0 = bench_now();

		/* new figures: every cell changes */
		for (int i = 0; i < t->nthreads; i++)
			s->threads[i].vars[layout_metric_var(l, v.heat_metric)] = fmod(i * 3.1 + f, 100);
		view_render(&v, s, 0, g, &vf);
		ui_blit(g);
		frame[f] = bench_now() - t0;
		t0 = bench_now();
		view_key(&v, &vf, 'm');
		view_render(&v, s, 0, g, &vf);
		ui_blit(g);
		key[f] = bench_now() - t0;
	}
	bench_stats(frame, BENCH_FRAMES, &fm, &fp);
	bench_stats(key, BENCH_FRAMES, &km, &kp);
	fprintf(stderr, "%-5s %5d threads  frame %6.2f ms (p99 %6.2f)  key to screen %6.2f ms (p99 %6.2f)\n",
		name, t->nthreads, fm, fp, km, kp);
	{
		/* the run recorded (record.h) and kept for the sparklines (history.h), per sample */
		struct record_about ra = { .host = "bench", .source = "bench", .layout = l,
					   .sockets = t->nsockets, .cores = t->ncores,
					   .threads = t->nthreads, .interval_s = 1 };
		struct history *h = history_new();
		char file[] = "/tmp/pmutop-bench-XXXXXX";
		struct record *r;
		double rec[BENCH_FRAMES], hist[BENCH_FRAMES], rm, rp, hm, hp;
		int fd = mkstemp(file);
		long size;
		FILE *f;

		close(fd);
		/* the worst case: every group counted, every event an input */
		for (int gi = 0; gi < l->ngroups; gi++)
			s->groups[gi].state = SAMPLE_GROUP_ROTATING;
		for (int i = 0; i < t->nthreads; i++)
			for (int k = 0; k < LAYOUT_NBUILTINS + l->nevents; k++)
				s->threads[i].vars[k] = 1e9 + i * 12345.678 + k;
		if (record_open(file, &ra, &r, err, sizeof(err))) {
			fprintf(stderr, "bench_tui: %s\n", err);
			exit(1);
		}
		for (int k = 0; k < BENCH_FRAMES; k++) {
			double t0 = bench_now();

			s->seq = (uint64_t)k + 1;
			record_sample(r, s);
			rec[k] = bench_now() - t0;
			t0 = bench_now();
			history_add(h, s);
			hist[k] = bench_now() - t0;
		}
		f = fopen(file, "rb");
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fclose(f);
		bench_stats(rec, BENCH_FRAMES, &rm, &rp);
		bench_stats(hist, BENCH_FRAMES, &hm, &hp);
		fprintf(stderr, "%-5s %5d threads  record a sample (every group on) %6.2f ms (p99 %6.2f), "
			"%ld KB each;  history %6.3f ms\n", name, t->nthreads, rm, rp,
			size / BENCH_FRAMES / 1024, hm);
		/* the default: the stalls group */
		for (int gi = 0; gi < l->ngroups; gi++)
			s->groups[gi].state = gi == 0 ? SAMPLE_GROUP_LIVE : SAMPLE_GROUP_OFF;
		for (int k = 0; k < BENCH_FRAMES; k++) {
			double t0 = bench_now();

			record_sample(r, s);
			rec[k] = bench_now() - t0;
		}
		bench_stats(rec, BENCH_FRAMES, &rm, &rp);
		fprintf(stderr, "%-5s %5d threads  record a sample (the stalls group) %6.2f ms (p99 %6.2f)\n",
			name, t->nthreads, rm, rp);
		for (int gi = 0; gi < l->ngroups; gi++)
			s->groups[gi].state = SAMPLE_GROUP_OFF;
		record_close(r);
		unlink(file);
		history_free(h);
	}
	view_free(&v);
	view_frame_free(&vf);
	sample_release(s);
	topo_free(t);
	grid_free(g);
}

int main(void)
{
	double start = bench_now(), first;
	struct session_config cfg = { .machine = NULL,
				      .layout_dir = paths_layout_dir(NULL), .interval = 1 };
	struct session *ss;
	struct machine *m;
	struct view_info in;
	struct view v;
	struct view_frame frame = { 0 };
	struct layout *l;
	struct grid *g;
	char err[1024], path[512];
	FILE *out = fopen("/dev/null", "w"), *inp = fopen("/dev/null", "r");

	if (!newterm("xterm-256color", out, inp)) {
		fprintf(stderr, "bench_tui: no terminfo entry for xterm-256color\n");
		return 1;
	}
	resizeterm(50, 160);
	ui_init_styles();
	/* time to the first frame: session (emulator, layout, engine) and a frame */
	if (session_machine_open(NULL, "nehalem-ep:memory-bound", false, &m, err, sizeof(err))) {
		fprintf(stderr, "bench_tui: %s\n", err);
		return 1;
	}
	cfg.machine = m;
	if (session_open(&cfg, &ss, err, sizeof(err))) {
		fprintf(stderr, "bench_tui: %s\n", err);
		return 1;
	}
	in = (struct view_info){ .host = "bench", .brand = ss->src->info.brand,
				 .uarch = ss->src->info.uarch_name, .source = ss->src->name,
				 .simulated = true, .layout = ss->layout, .topo = ss->src->topo,
				 .gp_counters = 4, .perfmon_version = 3, .utf8 = true };
	view_init(&v, &in, ss->groups, 1);
	g = grid_new(COLS, LINES, true);
	view_render(&v, NULL, 0, g, &frame);
	ui_blit(g);
	first = bench_now() - start;
	grid_free(g);
	view_free(&v);
	view_frame_free(&frame);
	session_close(ss);
	session_machine_free(m);
	fprintf(stderr, "first frame (nehalem-ep, 160x50, from process start without exec): %.1f ms\n",
		first * 1e3);

	snprintf(path, sizeof(path), "%s/nehalem.layout", LAYOUT_SRCDIR);
	if (layout_load(path, &l, err, sizeof(err))) {
		fprintf(stderr, "bench_tui: %s\n", err);
		return 1;
	}
	bench_machine("16", "pack:2 [numa] l3:1 core:4 pu:2", l);
	bench_machine("256", "pack:2 [numa] l3:1 core:64 pu:2", l);
	bench_machine("1024", "pack:4 [numa] l3:1 core:128 pu:2", l);
	layout_free(l);
	endwin();
	return 0;
}
