/*
 * fakehw_spawn: start tools/fakehw for a test and stop it afterwards.
 *
 * fakehw_start() forks the helper (path in $FAKEHW, set by make check) on a
 * new temporary directory, waits until its FUSE mount is up, and returns the
 * directory; the helper dies with the test process (PR_SET_PDEATHSIG).
 * fakehw_stop() sends SIGTERM, waits, checks that nothing is left mounted
 * and removes the directory.  Test code only.
 */
#ifndef PMUTOP_FAKEHW_SPAWN_H
#define PMUTOP_FAKEHW_SPAWN_H

#include <sys/types.h>

struct fakehw {
	pid_t pid;
	char dir[64];
};

/* 0, or -1 with a message on stderr. */
int fakehw_start(struct fakehw *f, const char *machine);

/* The same with one option of the helper's (OPT: "--msr-safe", or NULL). */
int fakehw_start_opt(struct fakehw *f, const char *machine, const char *opt);

/* 0 when the helper exited and DIR/dev is no longer a mount point. */
int fakehw_stop(struct fakehw *f, int sig);

/* 1 when PATH is a mount point (per /proc/self/mountinfo). */
int fakehw_is_mounted(const char *path);

#endif
