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

#include "layout.h"
#include "perfmon.h"

struct perfmon_layout_config;

/*
 * Write the uncore groups for P on C into F, at most ROOM of them (memory,
 * power and links first, then the CHAs, the other memory metrics last);
 * TAKEN[m] is set for each
 * metric written (the others stay for the caller's "not counted" list,
 * with why in WHY[m] when it is an uncore metric left out here).
 */
/*
 * The layout's umask of Intel uncore event E: its UMask with the vendor's
 * UMaskExt above bit 8 (up to 40 bits: Sapphire Rapids' CXL filters).
 */
unsigned long long perfmon_uncore_umask(const struct perfmon_event *e);

/*
 * Uncore event E's select on a box of layout PMU kind KIND in the layout
 * language into F (" raw event=0x.. umask=0x.."): its code within the
 * kind's event select, UMASK, and where the data sets them and the kind's
 * select has them (a threshold: Intel's boxes, not AMD's amd_uncore) its
 * counter mask, invert and edge detect, and a Skylake-SP CHA's FILTER1
 * value.  The one writer of a vendor uncore event's fields, for the
 * vendor's metrics and pmutop's own over the vendor's events alike.
 */
void perfmon_uncore_fields(FILE *f, const struct perfmon_event *e, enum layout_pmu kind,
			   unsigned long long umask);

void perfmon_uncore_groups(const struct perfmon *p, const struct perfmon_layout_config *c,
			   int room, FILE *f, bool *taken, char (*why)[200]);

/* How many groups perfmon_uncore_groups writes in ROOM (a dry run). */
int perfmon_uncore_count(const struct perfmon *p, const struct perfmon_layout_config *c, int room);

#endif
