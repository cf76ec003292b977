/*
 * guard: the process that undoes pmutop's changes after it died; see
 * guard.h.
 */
#define _GNU_SOURCE /* pipe2 */
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The byte that says "undone, go without touching anything". */
#define GUARD_RELEASE 'R'

/* The guard: wait for the release or for pmutop's end, then undo. */
static void guard_run(int fd, const char *name, int (*undo)(void *ctx, pid_t parent), void *ctx,
		      pid_t parent)
{
	sigset_t all;
	char c;
	ssize_t n;
	int null;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	setsid(); /* out of pmutop's process group: a kill of the group spares it */
	prctl(PR_SET_NAME, name, 0, 0, 0);
	/* not a reader or writer of pmutop's input and output: a pipeline ends with pmutop */
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && c == GUARD_RELEASE)
		_exit(0);
	/* pmutop is gone without releasing: undo what it left */
	_exit(undo(ctx, parent) ? 1 : 0);
}

int guard_start(struct guard *g, const char *name, int (*undo)(void *ctx, pid_t parent), void *ctx,
		char *err, size_t errlen)
{
	int p[2];
	pid_t pid, self = getpid();

	if (g->fd >= 0)
		return 0;
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot create the guard's pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		int rc = -errno;

		snprintf(err, errlen, "cannot start the guard process: %s", strerror(-rc));
		close(p[0]);
		close(p[1]);
		return rc;
	}
	if (pid == 0) {
		close(p[1]);
		guard_run(p[0], name, undo, ctx, self);
	}
	close(p[0]);
	g->fd = p[1];
	g->pid = pid;
	return 0;
}

void guard_release(struct guard *g)
{
	char c = GUARD_RELEASE;
	int fd;

	if (g->fd < 0)
		return;
	if (write(g->fd, &c, 1) != 1) {
		/* the guard is gone already: nothing to release */
	}
	fd = g->fd;
	g->fd = -1; /* before the close: guard_release_now never writes to a reused number */
	close(fd);
	waitpid(g->pid, NULL, 0);
	g->pid = 0;
}

void guard_release_now(const struct guard *g)
{
	char c = GUARD_RELEASE;
	int fd = g->fd;
	pid_t pid = g->pid;

	if (fd < 0 || pid <= 0)
		return;
	if (write(fd, &c, 1) != 1)
		return; /* the guard is gone already, or cannot be told: it undoes (harmless) */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
