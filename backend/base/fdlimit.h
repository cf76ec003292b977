/*
 * fdlimit: room for the open files pmutop needs.
 *
 * The msr source keeps one device open per CPU, the perf source one event
 * per event per CPU: thousands on a big machine, past the usual soft limit
 * of 1024 and sometimes past the hard one.  fdlimit_room raises the soft
 * limit to the hard one, and where pmutop may (root: CAP_SYS_RESOURCE) the
 * hard one too, up to the kernel's fs.nr_open, as servers that need many
 * descriptors do.  Where that is not allowed it says the figure needed and
 * how to get it.  Main thread, at start-up.
 */
#ifndef PMUTOP_FDLIMIT_H
#define PMUTOP_FDLIMIT_H

#include <stddef.h>

/* Descriptors kept free for pmutop's own files (terminal, layouts, sockets, lock). */
#define FDLIMIT_MARGIN 64

/*
 * Make room for NEED more open files than are open now (plus the margin).
 * 0, or -EMFILE with a sentence in WHY (may be NULL): the limit, what is
 * needed, and the command that gives it.
 */
int fdlimit_room(long need, char *why, size_t len);

/* The same for a soft limit of at least WANT descriptors in all. */
int fdlimit_raise(long want, char *why, size_t len);

/* The soft limit now (-1: none). */
long fdlimit_soft(void);

/* Descriptors open now. */
long fdlimit_open_now(void);

#endif
