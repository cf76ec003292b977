/*
 * topo_kinds: a hybrid CPU's kinds of core from hwloc's CPU kinds, into a
 * loaded topology model (topo.c's; not for other modules).  Main thread.
 */
#ifndef PMUTOP_TOPO_KINDS_H
#define PMUTOP_TOPO_KINDS_H

#include <hwloc.h>

#include "topo.h"

/*
 * T's kinds and each core's, from H (T's cores and threads already built):
 * none where hwloc knows fewer than two kinds (a uniform CPU).
 */
void topo_kinds_read(struct topo *t, hwloc_topology_t h);

#define TOPO_KIND_MAX_CPU 8192 /* cpulist_parse's highest */

/*
 * A hybrid's kinds as the kernel counts them: each kind hwloc names no
 * CoreType of (hwloc before 2.13 on a tree, or one that reads CPUID only on
 * a live machine: 2.9 on a --root tree) takes it from the core PMU whose
 * "cpus" file lists its CPUs under ROOT (cpu_core IntelCore, cpu_atom
 * IntelAtom, cpu_lowpower IntelLowPower); without hwloc's kinds at all, the
 * PMUs' make them.  Nothing where fewer than two such PMUs list CPUs.
 */
void topo_kinds_from_pmus(struct topo *t, const char *root);

#endif
