/*
 * guard: a process that undoes what pmutop changed on the machine when
 * pmutop dies in a way it cannot undo it itself (SIGKILL, the OOM killer).
 *
 * guard_start forks a small process that waits on a pipe.  A normal exit
 * undoes the change, then releases the guard (guard_release), which leaves
 * without touching anything.  When the pipe closes without that (pmutop
 * died), the guard calls UNDO in its own process and exits.  It is in its
 * own session with every signal blocked, so a signal or SIGKILL to pmutop's
 * process group does not take it along.  UNDO runs on the guard's copy of
 * pmutop's memory as it was at the fork: what it needs must be there then
 * (or in memory shared with pmutop, as the register journal is).  The
 * registers' guardian (sources/msr/guardian.c) and the resctrl groups
 * pmutop makes (who) each have one.  Main thread (fork); guard_release_now
 * from a fatal signal's handler.
 */
#ifndef PMUTOP_GUARD_H
#define PMUTOP_GUARD_H

#include <stddef.h>
#include <sys/types.h>

struct guard {
	int fd;                   /* the pipe's end pmutop keeps, -1 none */
	pid_t pid;
};

#define GUARD_NONE { .fd = -1, .pid = 0 }

/*
 * Fork G's process, named NAME (at most 15 bytes), that calls UNDO(CTX,
 * pmutop's pid) when pmutop ends without guard_release: its return (0 or
 * not) is the guard's exit status.  0, or -errno with why in ERR.
 */
int guard_start(struct guard *g, const char *name, int (*undo)(void *ctx, pid_t parent), void *ctx,
		char *err, size_t errlen);

/* After pmutop undid the change itself: the guard leaves, undoing nothing (waited for). */
void guard_release(struct guard *g);

/*
 * guard_release from a fatal signal's handler, after the handler undid the
 * change: async-signal-safe (write, waitpid), G left as it is.  Waited
 * for, so the guard is gone (with what it holds: the counters' lock) by
 * the time pmutop dies of the signal.
 */
void guard_release_now(const struct guard *g);

#endif
