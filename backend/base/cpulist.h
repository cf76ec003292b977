/*
 * cpulist: the Linux "cpu list" notation ("0-3,8,10-11") in both directions.
 *
 * Used wherever a set of OS CPU numbers meets a human: --topology-only output,
 * the --cpu option, the interactive CPU filter.  Lists are plain arrays of OS
 * CPU numbers; parse returns them sorted and without duplicates.  Pure
 * functions: any thread may call them.
 */
#ifndef PMUTOP_CPULIST_H
#define PMUTOP_CPULIST_H

#include <stddef.h>

/* Highest CPU number accepted by cpulist_parse (Linux NR_CPUS tops out at 8192). */
#define CPULIST_MAX_CPU 65535

/*
 * Parse TEXT ("0-3,8").  On success *CPUS is an xmalloc'd sorted array of
 * *NCPUS distinct numbers and 0 is returned.  On a syntax error returns
 * -EINVAL and sets *ERR_COL to the 1-based column of the offending character;
 * a number above CPULIST_MAX_CPU or a reversed range gives -ERANGE.
 */
int cpulist_parse(const char *text, int **cpus, int *ncpus, size_t *err_col);

/*
 * Format N CPU numbers (any order, duplicates allowed) as ranges, e.g.
 * {8,0,1,2,3} -> "0-3,8".  Returns an xmalloc'd string ("" for N == 0).
 */
char *cpulist_format(const int *cpus, int n);

/* Sort the N numbers in V and drop duplicates, in place; returns the new length. */
int cpulist_normalise(int *v, int n);

/* Nonzero when CPU is in the sorted array CPUS of length N. */
int cpulist_contains(const int *cpus, int n, int cpu);

#endif
