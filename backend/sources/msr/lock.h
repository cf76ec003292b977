/*
 * lock: one pmutop at a time per machine, held only by whoever may program
 * the counters.
 *
 * Two instances programming the same counters would corrupt each other's
 * counts and restores.  The lock is an exclusive flock on the counters' own
 * device nodes: ROOT/dev/cpu/N/msr and ROOT/dev/cpu/N/msr_safe of the
 * lowest-numbered CPU that has them.  Only a user who can open a device
 * (root, CAP_SYS_RAWIO with access to the file, msr-safe's group) can lock
 * it, so no other user can take the lock away from root's pmutop (a lock
 * file in a world-writable directory could be flocked by anyone), and no
 * file is created or written: nothing a planted link could redirect.  Root
 * locks both nodes that exist, a user those it can open, so root's pmutop
 * and a user's meet whichever driver the user has.  Who holds it is read
 * from /proc/locks (lock_holder), never from a file.  The lock goes away
 * with the last copy of its descriptors (the guardian keeps one while it
 * restores after a SIGKILL).  Main thread, at start-up.
 */
#ifndef PMUTOP_LOCK_H
#define PMUTOP_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The device nodes a lock may hold: msr and msr_safe. */
#define LOCK_NODES 2

struct lock {
	int fd[LOCK_NODES]; /* -1 where not held */
};

/* A lock not held. */
#define LOCK_NONE ((struct lock){ .fd = { -1, -1 } })

/*
 * Lock the counters' device nodes under ROOT.  0 (L held: keep it while
 * programming), or -EBUSY with "another pmutop (pid N) ..." in ERR, or
 * another -errno with the path in ERR.  When the holder has ended (its
 * guardian holds the lock while it restores), waits for the guardian, at
 * most 30 s, saying so on stderr once; a ^C meanwhile is start-up's.
 */
int lock_acquire(const char *root, struct lock *l, char *err, size_t errlen);

/* Whether L holds the lock. */
bool lock_held(const struct lock *l);

/* Let go (a no-op for a lock never held). */
void lock_release(struct lock *l);

/*
 * The process holding the counters' lock under ROOT (as /proc/locks names
 * it), or 0 when nobody holds it or it cannot be told.
 */
pid_t lock_holder(const char *root);

#endif
