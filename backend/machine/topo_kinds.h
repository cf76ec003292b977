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

#endif
