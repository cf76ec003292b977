/*
 * pidcpus: where a process's threads ran, from /proc.
 *
 * Each thread's /proc/PID/task/TID/stat gives its CPU time and the CPU it
 * last ran on.  A scan marks the last CPU of every thread that used CPU
 * time since the previous scan (the first scan: of every thread), so the
 * marks answer "where did this process run during the last interval" to
 * the resolution /proc offers (a thread that moved within the interval
 * shows only where it was last).  Paths under ROOT (--root).  UI thread.
 */
#ifndef PMUTOP_PIDCPUS_H
#define PMUTOP_PIDCPUS_H

#include <stdbool.h>
#include <stddef.h>

struct pidcpus;

/*
 * Follow process PID (with TREE, its descendants too, found again at each
 * scan: a benchmark's workers) on a machine with NCPUS CPU numbers; -ESRCH
 * etc. with the reason in ERR.
 */
int pidcpus_open(const char *root, int pid, bool tree, int ncpus, struct pidcpus **out, char *err,
		 size_t errlen);

/* The CPUs (by OS number, NCPUS of them) where it ran since the last scan; caller frees. */
bool *pidcpus_scan(struct pidcpus *p);

void pidcpus_free(struct pidcpus *p);

#endif
