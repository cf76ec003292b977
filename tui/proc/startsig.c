/*
 * startsig: the start-up watcher.  See startsig.h.
 */
#include "startsig.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

static struct {
	pthread_t thread;
	bool running;
	int sigfd, efd;
	void (*restore)(void);
} startsig;

static void *startsig_watch(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = startsig.sigfd, .events = POLLIN },
			{ .fd = startsig.efd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(p, 2, -1) < 0)
			continue;
		if (p[1].revents || (p[0].revents & (POLLNVAL | POLLERR)))
			return NULL;
		if ((p[0].revents & POLLIN) && read(startsig.sigfd, &si, sizeof(si)) == sizeof(si)) {
			fprintf(stderr, "pmutop: stopped while starting (%s)\n",
				strsignal((int)si.ssi_signo));
			if (startsig.restore)
				startsig.restore();
			_exit(128 + (int)si.ssi_signo);
		}
	}
}

void startsig_begin(int sigfd, void (*restore)(void))
{
	if (startsig.running || sigfd < 0)
		return;
	startsig.sigfd = sigfd;
	startsig.restore = restore;
	startsig.efd = eventfd(0, EFD_CLOEXEC);
	if (startsig.efd < 0)
		return;
	if (pthread_create(&startsig.thread, NULL, startsig_watch, NULL)) {
		close(startsig.efd);
		return;
	}
	startsig.running = true;
}

void startsig_end(void)
{
	uint64_t one = 1;

	if (!startsig.running)
		return;
	if (write(startsig.efd, &one, sizeof(one)) != sizeof(one)) {
		/* an eventfd counter cannot be full after one write */
	}
	pthread_join(startsig.thread, NULL);
	close(startsig.efd);
	startsig.running = false;
}
