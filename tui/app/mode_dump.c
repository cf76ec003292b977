/*
 * mode_dump: --dump draws the interactive screen after -n samples as text on
 * standard output (COLUMNS x LINES, default 160x50), without a terminal: for
 * bug reports and the golden tests.  An emulated machine steps its own
 * clock, so the same run gives the same screen every time.
 */
#include "app.h"
#include "grid.h"
#include "history.h"
#include "sink.h"
#include "startsig.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* --dump's largest screen side: a 1024-thread machine fits, memory stays small */
#define MODE_DUMP_MAX 2000

/* --dump: the interactive screen after -n samples, as text on standard output. */
int mode_dump(struct session *s, const struct options *opt, int sigfd, const char *doctor)
{
	struct pollfd pfd[2] = {
		{ .fd = session_fd(s), .events = POLLIN },
		{ .fd = sigfd, .events = POLLIN },
	};
	const char *cols = getenv("COLUMNS"), *lines = getenv("LINES");
	long want = opt->count ? opt->count : 1, got = 0;
	struct history *hist = history_new();
	struct sinks ks;
	int w, h;
	const struct sample *last = NULL;
	struct view_frame frame = { 0 };
	struct view_info in;
	struct grid *g;
	struct view v;
	char *text;

	startsig_end();
	w = cols && atoi(cols) > 0 ? atoi(cols) : 160;
	h = lines && atoi(lines) > 0 ? atoi(lines) : 50;
	if (w > MODE_DUMP_MAX || h > MODE_DUMP_MAX) {
		fprintf(stderr, "pmutop: --dump draws at most %d x %d characters, COLUMNS and LINES "
			"ask for %d x %d; set them smaller\n", MODE_DUMP_MAX, MODE_DUMP_MAX, w, h);
		history_free(hist);
		return OPTIONS_EXIT_USAGE;
	}
	sinks_build(&(struct sink_ctx){ .mode = SINK_DUMP, .hist = hist }, &ks);
	while (got < want) {
		/* an emulated machine steps its own clock: no waiting, the same figures every run */
		if (poll(pfd, 2, session_stepped(s) ? 0 : -1) < 0)
			continue;
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
				if (last)
					sample_release(last);
				sinks_free(&ks);
				history_free(hist);
				return 128 + (int)si.ssi_signo;
			}
		}
		if (session_stepped(s) ? session_step(s) == 1 : (pfd[0].revents & POLLIN) != 0) {
			const struct sample *smp;

			session_ack(s);
			smp = session_latest(s);
			if (!smp)
				continue;
			if (last)
				sample_release(last);
			last = smp;
			sinks_sample(&ks, smp);
			got++;
		}
	}
	sinks_free(&ks);
	app_view_info(opt, s, doctor, &in);
	view_init(&v, &in, session_groups(s), opt->interval);
	v.hist = hist;
	if (opt->pane)
		v.focus = v.lower = opt->pane;
	g = grid_new(w, h, in.utf8);
	view_render(&v, last, 0, g, &frame);
	text = grid_text(g);
	fputs(text, stdout);
	free(text);
	grid_free(g);
	view_free(&v);
	view_frame_free(&frame);
	sample_release(last);
	history_free(hist);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
