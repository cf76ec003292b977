/*
 * lock: one pmutop at a time per machine.
 *
 * Two instances programming the same counters would corrupt each other's
 * counts and restores.  lock_acquire() takes an exclusive flock on
 * ROOT/run/lock/pmutop.lock (the system's lock directory, open to every
 * user, so root's pmutop and a user's with msr-safe or a capability meet
 * there) and writes our pid into it when it may; the lock goes away with
 * the process (or lock_release).  Main thread, at start-up.
 */
#ifndef PMUTOP_LOCK_H
#define PMUTOP_LOCK_H

#include <stddef.h>

/*
 * 0 and *FD (keep it open while programming), or -EBUSY with "another
 * pmutop (pid N) ..." in ERR, or another -errno with the path in ERR.
 */
int lock_acquire(const char *root, int *fd, char *err, size_t errlen);

void lock_release(int fd);

#endif
