/*
 * signals: pmutop's stop signals and crashes.  Asynchronous stop signals
 * are blocked and taken through a signalfd, so they end pmutop the normal
 * way (registers restored, exit 128 + signal); synchronous ones (a crash,
 * abort, a seccomp kill) cannot wait and restore in app_fatal.  See app.h.
 */
#include "app.h"
#include "startsig.h"
#include "ui.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* Signals whose default action ends the process. */
static const int app_stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPWR, SIGXCPU, SIGXFSZ,
	SIGVTALRM, SIGPROF, SIGSTKFLT, SIGIO,
};
static const int app_fatal_signals[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
					 SIGSYS };

/* The stop set: app_stop_signals and the real-time signals. */
static void app_stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(app_stop_signals) / sizeof(app_stop_signals[0]); i++)
		sigaddset(set, app_stop_signals[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

int app_signals(void (*restore)(void))
{
	sigset_t stop;
	int sigfd;

	/*
	 * The sampler thread inherits this mask: stop signals reach only the
	 * signalfd, and SIGWINCH only the UI thread (ui_run unblocks it there).
	 */
	app_stop_set(&stop);
	sigaddset(&stop, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	sigdelset(&stop, SIGWINCH);
	signal(SIGPIPE, SIG_IGN);
	sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	if (sigfd < 0) {
		fprintf(stderr, "pmutop: cannot create a signalfd: %s\n", strerror(errno));
		return -1;
	}
	startsig_begin(sigfd, restore);
	return sigfd;
}

void app_sigfd_close(int sigfd)
{
	startsig_end();
	if (sigfd >= 0)
		close(sigfd);
}

/*
 * A crash: put the terminal and the registers back (pread/pwrite on memory
 * allocated at open), say what could not be restored, die of the same
 * signal.  Installed before the first register write; the register layer
 * keeps its device until the last restore is done.
 */
static void app_fatal(int sig)
{
	ui_emergency_restore(); /* the terminal first, so the message is readable */
	session_emergency_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

void app_restore_now(void)
{
	session_emergency_restore();
}

void app_fatal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = app_fatal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(app_fatal_signals) / sizeof(app_fatal_signals[0]); i++)
		sigaction(app_fatal_signals[i], &sa, NULL);
}

/*
 * With one of descriptors 0-2 closed, a device file would take its number
 * and output meant for it would reach the device (on the msr driver, a
 * write to MSR 0).
 */
bool app_std_fds(void)
{
	bool stdout_closed = false;

	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int nul = open("/dev/null", fd ? O_WRONLY : O_RDONLY);

			if (nul < 0 || (nul != fd && (dup2(nul, fd) < 0 || close(nul) < 0)))
				_exit(EXIT_FAILURE);
			stdout_closed |= fd == STDOUT_FILENO;
		}
	return stdout_closed;
}
