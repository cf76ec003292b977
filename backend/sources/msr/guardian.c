/*
 * guardian: the process that restores the registers after pmutop died; see
 * guardian.h.
 */
#define _GNU_SOURCE /* pipe2 */
#include "guardian.h"
#include "msr_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The byte that says "restored, go without touching anything". */
#define GUARDIAN_RELEASE 'R'

static int guardian_fd = -1;
static pid_t guardian_child;

/* The guardian: wait for the release or for pmutop's end, then restore. */
static void guardian_run(struct msr_dev *d, int fd, pid_t parent)
{
	sigset_t all;
	char c;
	ssize_t n;
	int failed, null;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	setsid(); /* out of pmutop's process group: a kill of the group spares it */
	prctl(PR_SET_NAME, "pmutop-guard", 0, 0, 0);
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
	if (n == 1 && c == GUARDIAN_RELEASE)
		_exit(0);
	/* pmutop is gone without releasing: put back what it left of its own */
	d->guardian = true;
	failed = msr_restore_all(d);
	msr_restore_report(d, STDERR_FILENO);
	if (dprintf(STDERR_FILENO, "pmutop: pid %d ended without restoring the counters; its "
				   "guardian %s\n", (int)parent,
		    failed ? "could not restore everything (above)" : "put them back") < 0) {
		/* no stderr left: the registers are what matters */
	}
	_exit(failed ? 1 : 0);
}

int guardian_start(struct msr_dev *d, char *err, size_t errlen)
{
	int p[2];
	pid_t pid, self = getpid();

	if (msr_dev_kind(d) == MSR_KIND_OPS || guardian_fd >= 0)
		return 0;
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot create the guardian's pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		int rc = -errno;

		snprintf(err, errlen, "cannot start the guardian process: %s", strerror(-rc));
		close(p[0]);
		close(p[1]);
		return rc;
	}
	if (pid == 0) {
		close(p[1]);
		guardian_run(d, p[0], self);
	}
	close(p[0]);
	guardian_fd = p[1];
	guardian_child = pid;
	return 0;
}

void guardian_release(void)
{
	char c = GUARDIAN_RELEASE;

	if (guardian_fd < 0)
		return;
	if (write(guardian_fd, &c, 1) != 1) {
		/* the guardian is gone already: nothing to release */
	}
	close(guardian_fd);
	guardian_fd = -1;
	waitpid(guardian_child, NULL, 0);
	guardian_child = 0;
}

pid_t guardian_pid(void)
{
	return guardian_child;
}
