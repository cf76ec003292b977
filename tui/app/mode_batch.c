/*
 * mode_batch: -b (and --serve without a screen): samples go to the run's
 * sinks (printed in --format, served, recorded, summed up for a command)
 * until -n is reached, a signal asks to stop or the command ends.  Stop
 * signals arrive through the signalfd; with a command running they go on to
 * it first, and the run ends when it has.  The caller restores the
 * registers on the way out.
 */
#include "app.h"
#include "sink.h"
#include "startsig.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* How long the loop waits for the sample that ends a run after its command ended. */
#define MODE_BATCH_LAST_SAMPLE_WAIT_S 2.5

/* Where the loop is: the run's end decided, and how long it may still take. */
struct mode_batch_state {
	double end_by;             /* > 0: the command ended; the run ends by then */
	double kill_at;            /* > 0: a stop was passed on; SIGKILL if it still runs then */
	int status;                /* pmutop's own exit status, once decided, else -1 */
	bool output_gone;          /* the output failed or its reader left: no summary */
};

/* A stop signal: the end of the run, or (with a command running) passed on to it. */
static void mode_batch_signal(struct extra *x, int sigfd, struct mode_batch_state *b)
{
	struct signalfd_siginfo si;

	if (read(sigfd, &si, sizeof(si)) != sizeof(si))
		return;
	if (!x->cmd || run_poll(x->cmd)) {
		b->status = 128 + (int)si.ssi_signo;
		return;
	}
	/* Ctrl-C stops the benchmark first (its status is the run's); samples go on until it ends */
	run_signal(x->cmd, (int)si.ssi_signo);
	if (b->kill_at == 0)
		b->kill_at = view_now() + APP_CMD_STOP_WAIT_S;
}

/* A new sample of S into the sinks; whether the run goes on. */
static bool mode_batch_sample(struct session *s, const struct options *opt, struct extra *x,
			      struct sinks *ks, struct mode_batch_state *b)
{
	const struct sample *smp;
	int rc;

	session_ack(s);
	smp = session_latest(s);
	if (!smp)
		return true;
	rc = sinks_sample(ks, smp);
	sample_release(smp);
	/* a reader that went away (pmutop -b | head) ends the run, as for any filter */
	if (rc) {
		if (rc != -EPIPE)
			fprintf(stderr, "pmutop: cannot write the output: %s\n", strerror(-rc));
		b->status = rc == -EPIPE ? EXIT_SUCCESS : EXIT_FAILURE;
		b->output_gone = true;
		return false;
	}
	if (b->end_by > 0)
		return false; /* the sample after the command's end: the run is whole */
	if (opt->count && ks->fed >= opt->count) {
		if (!x->cmd) {
			b->status = EXIT_SUCCESS;
			return false;
		}
		/* -n ends the run: the command too */
		if (b->kill_at == 0) {
			run_signal(x->cmd, SIGTERM);
			b->kill_at = view_now() + APP_CMD_STOP_WAIT_S;
		}
	}
	return true;
}

/* How long poll may wait: until the run's end, a look at the command, or its SIGKILL. */
static int mode_batch_timeout(const struct extra *x, const struct mode_batch_state *b)
{
	if (b->end_by > 0)
		return (int)fmax(0, (b->end_by - view_now()) * 1e3);
	if (x->cmd && run_fd(x->cmd) < 0)
		return 100; /* no pidfd: look for its end ten times a second */
	if (b->kill_at > 0)
		return (int)fmax(0, (b->kill_at - view_now()) * 1e3) + 1;
	return -1;
}

/* The loop until the run ends; its status (-1: not decided, the command's then). */
static void mode_batch_loop(struct session *s, const struct options *opt, int sigfd,
			    struct extra *x, struct sinks *ks, struct mode_batch_state *b)
{
	while (b->status < 0) {
		struct pollfd pfd[4] = {
			{ .fd = session_fd(s), .events = POLLIN },
			{ .fd = sigfd, .events = POLLIN },
			{ .fd = run_fd(x->cmd), .events = POLLIN },
			{ .fd = marks_fd(x->marks), .events = POLLIN },
		};
		struct mark mk[MARKS_PER_TAKE];
		int nmk;

		if (poll(pfd, 4, mode_batch_timeout(x, b)) < 0)
			continue; /* EINTR: only unblocked signals interrupt, and none matter here */
		if (pfd[1].revents & POLLIN)
			mode_batch_signal(x, sigfd, b);
		if (b->status >= 0)
			break;
		if (b->kill_at > 0 && b->end_by == 0 && view_now() >= b->kill_at) {
			run_signal(x->cmd, SIGKILL);
			b->kill_at = 0;
		}
		nmk = marks_take(x->marks, mk, MARKS_PER_TAKE, NULL);
		for (int i = 0; i < nmk; i++)
			if (sinks_mark(ks, &mk[i]) == -EPIPE) {
				b->status = EXIT_SUCCESS;
				b->output_gone = true;
				return;
			}
		if (x->cmd && b->end_by == 0 && run_poll(x->cmd)) {
			/* the part of the interval it ran in: a sample now, not at the interval's end */
			session_flush(s);
			b->end_by = view_now() + (session_is_os(s) ? 0 : MODE_BATCH_LAST_SAMPLE_WAIT_S);
		}
		if ((pfd[0].revents & POLLIN) && !mode_batch_sample(s, opt, x, ks, b))
			return;
		if (b->end_by > 0 && view_now() >= b->end_by)
			return;
	}
}

int mode_batch(struct session *s, const struct options *opt, int sigfd, struct serve *srv)
{
	struct mode_batch_state b = { .status = -1 };
	struct session_about sa;
	struct sinks ks;
	struct extra x;
	int rc, *cpus = NULL, ncpus = 0;

	if (opt->metrics) {
		char err[512];

		if (batch_metrics_check(session_layout(s), opt->metrics, err, sizeof(err))) {
			fprintf(stderr, "pmutop: %s\n", err);
			return EXIT_FAILURE;
		}
	}
	if (opt->cpus) {
		char err[1024];

		session_about(s, &sa);
		if (batch_cpus_resolve(sa.topo, opt->cpus, &cpus, &ncpus, err, sizeof(err))) {
			fprintf(stderr, "pmutop: %s\n", err);
			return OPTIONS_EXIT_USAGE;
		}
	}
	/* the command's output goes to stderr: stdout carries the samples */
	rc = extra_start(opt, s, STDERR_FILENO, &x);
	if (rc) {
		extra_stop(&x);
		free(cpus);
		return rc;
	}
	session_about(s, &sa);
	/* --serve alone is headless: the samples go to the server only */
	sinks_build(&(struct sink_ctx){
			    .mode = opt->serve && !opt->batch ? SINK_SERVE_ONLY : SINK_PRINT,
			    .format = opt->format,
			    .counts = opt->counts, .metrics = opt->metrics, .scopes = opt->scopes,
			    .cpus = cpus, .ncpus = ncpus,
			    .topo = sa.topo, .out = stdout,
			    .t0 = x.t0, .srv = srv,
			    .rec = x.rec ? &x.rec : NULL, .cmd = x.cmd,
		    }, &ks);
	startsig_end();
	mode_batch_loop(s, opt, sigfd, &x, &ks, &b);
	rc = b.output_gone ? 0 : sinks_end(&ks);
	if (rc && rc != -EPIPE) {
		fprintf(stderr, "pmutop: cannot write the output: %s\n", strerror(-rc));
		b.status = EXIT_FAILURE;
	}
	if (x.cmd && b.status < 0) {
		char about[256];

		run_describe(x.cmd, about, sizeof(about));
		fprintf(stderr, "pmutop: %s\n", about);
		b.status = run_status(x.cmd);
	}
	sinks_free(&ks);
	free(cpus);
	extra_stop(&x);
	return b.status < 0 ? EXIT_SUCCESS : b.status;
}
