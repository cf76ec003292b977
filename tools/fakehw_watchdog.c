/*
 * fakehw_watchdog: that a killed fakehw leaves no mount behind, whatever
 * fusermount3's auto_unmount watcher does (it was once seen to keep the
 * mount 60 s on a loaded machine).  Test tool: not installed.
 */
#define _GNU_SOURCE /* pipe2 */
#include "fakehw_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/*
 * The watchdog: a child that waits for its parent to be gone (the pipe's
 * other end closes with the parent, however it ends), then lazily unmounts
 * DEVDIR if the mount there is still FSNAME's (the parent's own: a new
 * fakehw may have mounted there since).  Forked before any thread or the
 * FUSE device exists, so it holds nothing the kernel waits for.
 */
void fakehw_watchdog(const char *devdir, const char *fsname)
{
	int fd[2];
	pid_t pid;

	/* close-on-exec: fusermount3, which libfuse runs later, must not hold the write end */
	if (pipe2(fd, O_CLOEXEC) != 0)
		return;
	pid = fork();
	if (pid != 0) {
		close(fd[0]);
		return; /* the parent keeps the write end open until it is gone */
	}
	for (int i = 0; i < 1024; i++)
		if (i != fd[0] && i != STDERR_FILENO)
			close(i);
	{
		char c, line[PATH_MAX + 512], want[PATH_MAX + 8], source[80];
		FILE *mi;
		bool ours = false;

		while (read(fd[0], &c, 1) < 0 && errno == EINTR)
			;
		snprintf(want, sizeof(want), " %s ", devdir);
		snprintf(source, sizeof(source), " %s ", fsname);
		mi = fopen("/proc/self/mountinfo", "r");
		while (mi && fgets(line, sizeof(line), mi))
			ours |= strstr(line, want) && strstr(line, source);
		if (mi)
			fclose(mi);
		if (ours)
			umount2(devdir, MNT_DETACH);
	}
	_exit(0);
}
