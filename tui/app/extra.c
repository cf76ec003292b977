/*
 * extra: what goes with a run besides its samples: the phase-mark FIFO (a
 * warning when it cannot be made), --record, and the command after "--"
 * (started held when it is counted alone, so that its events are open
 * before it runs).  See app.h.
 */
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double extra_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The CPUs of socket SOCKET of the topology CTX into PIN; how many. */
static int extra_socket_cpus(void *ctx, int socket, bool *pin)
{
	const struct topo *t = ctx;
	int n = 0;

	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].online && t->threads[i].socket == socket) {
			pin[t->threads[i].os_cpu] = true;
			n++;
		}
	return n;
}

/* --pin's CPUs (NULL without --pin) into *PIN.  0, or the exit status (the message printed). */
static int extra_pin(const struct options *opt, const struct topo *t, bool **pin)
{
	char err[768];

	*pin = NULL;
	if (!opt->pin)
		return 0;
	*pin = calloc((size_t)t->cpu_thread_len + 1, sizeof(bool));
	if (!*pin || run_parse_pin(opt->pin, t->cpu_thread_len, extra_socket_cpus, (void *)t,
				   *pin, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", *pin ? err : "out of memory");
		free(*pin);
		*pin = NULL;
		return OPTIONS_EXIT_USAGE;
	}
	return 0;
}

/* A command that could not start (RC): its exit status as a shell gives it. */
static int extra_start_status(int rc)
{
	/* 127 not found, 126 found but not runnable */
	return rc == -ENOENT ? 127 : rc == -EINVAL ? OPTIONS_EXIT_USAGE : 126;
}

/* A command counted alone: attached before it is let go.  0, or the exit status. */
static int extra_attach(struct session *s, struct extra *x, char *err, size_t errlen)
{
	char why[400];
	int rc;

	if (session_attach(s, run_pid(x->cmd), why, sizeof(why))) {
		fprintf(stderr, "pmutop: cannot count the command: %s\n", why);
		run_stop(x->cmd, SIGKILL, APP_CMD_STOP_WAIT_S);
		run_free(x->cmd);
		x->cmd = NULL;
		return EXIT_FAILURE;
	}
	rc = run_release(x->cmd, err, errlen);
	if (rc) {
		run_free(x->cmd);
		x->cmd = NULL;
		fprintf(stderr, "pmutop: %s\n", err);
		return extra_start_status(rc);
	}
	return 0;
}

int extra_start(const struct options *opt, struct session *s, int out_fd, struct extra *x)
{
	char err[768];
	bool *pin = NULL;
	struct session_about a;
	int rc;

	memset(x, 0, sizeof(*x));
	x->t0 = extra_wall();
	if (marks_open(&x->marks, err, sizeof(err)))
		fprintf(stderr, "pmutop: phase marks are off: %s\n", err);
	session_about(s, &a);
	if (opt->record) {
		struct record_about ra;

		app_record_about(opt, s, &ra);
		if (record_open(opt->record, &ra, &x->rec, err, sizeof(err))) {
			fprintf(stderr, "pmutop: %s\n", err);
			return OPTIONS_EXIT_USAGE;
		}
	}
	if (!opt->command)
		return 0;
	if ((rc = extra_pin(opt, a.topo, &pin)))
		return rc;
	rc = run_start(&(struct run_config){
			       .argv = opt->command, .pin = pin, .npin = a.topo->cpu_thread_len,
			       .out_fd = out_fd, .null_stdin = out_fd >= 0 && !opt->batch,
			       .mark_fifo = x->marks ? marks_path(x->marks) : NULL,
			       /* counted alone: its events are opened before it runs */
			       .hold = session_counts_command(s),
		       }, &x->cmd, err, sizeof(err));
	free(pin);
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return extra_start_status(rc);
	}
	return session_counts_command(s) ? extra_attach(s, x, err, sizeof(err)) : 0;
}

void extra_stop(struct extra *x)
{
	if (x->cmd && !run_poll(x->cmd))
		run_stop(x->cmd, SIGTERM, APP_CMD_STOP_WAIT_S);
	run_free(x->cmd);
	marks_close(x->marks);
	/* a recording that failed said so when it did */
	if (x->rec && !record_error(x->rec)[0])
		fprintf(stderr, "pmutop: recorded %ld samples to %s\n", record_count(x->rec),
			record_path(x->rec));
	record_close(x->rec);
	memset(x, 0, sizeof(*x));
}
