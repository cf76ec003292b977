/*
 * perfmon_uncore: the uncore part of a layout made from Intel's data (see
 * perfmon_layout.h): the vendor's metrics over the servers' uncore boxes
 * that the kernel's uncore driver exposes (memory channels uncore_imc_N,
 * CHAs uncore_cha_N, UPI links uncore_upi_N), and RAPL's power PMU.
 *
 * A metric is taken when every event it reads is an uncore event of one
 * such box kind (the vendor's Unit "iMC"/"IMC", "CHA", "UPI LL") with at
 * most the ":one_unit" modifier, its events fit one box's four counters
 * (at most one of the events the vendor confines to counter 0), and it
 * reads no other metric.  Such metrics are packed into groups of their box
 * kind that take turns (the kernel multiplexes them); each is written at
 * the finest resolution pmutop has among the vendor's ResolutionLevels:
 * per memory channel (CHANNEL: the events once per channel, channel=N),
 * else per socket (its events summed over the socket's boxes).  The
 * vendor's constants are the socket's own: SOCKET_COUNT is 1 (a socket's
 * figure sums one socket's boxes), CHAS_PER_SOCKET the CHAs found; an
 * event's ":one_unit" (one box's count) is the socket's sum over its
 * boxes.  Keys: 9 memory, o the other memory-controller metrics, l the
 * CHAs, u UPI, w power.  Pure; any thread.
 */
#ifndef PMUTOP_PERFMON_UNCORE_H
#define PMUTOP_PERFMON_UNCORE_H

#include <stdbool.h>
#include <stdio.h>

#include "layout_build.h"

#include "layout.h"
#include "perfmon.h"

struct perfmon_layout_config;

/*
 * Make the uncore groups for P on C through B, at most ROOM of them (memory,
 * power and links first, then the CHAs, the other memory metrics last);
 * TAKEN[m] is set for each
 * metric written (the others stay for the caller's "not counted" list,
 * with why in WHY[m] when it is an uncore metric left out here).
 */
void perfmon_uncore_groups(const struct perfmon *p, const struct perfmon_layout_config *c,
			   int room, struct layout_build *b, bool *taken, char (*why)[200]);

/* How many groups perfmon_uncore_groups writes in ROOM (a dry run). */
int perfmon_uncore_count(const struct perfmon *p, const struct perfmon_layout_config *c, int room);

#endif
