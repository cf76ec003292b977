/*
 * plan: which of the selected groups count together.  Pure functions of
 * the layout, the selection and the counters free: no machine, no clock,
 * no source (tests/check_plan.c drives them directly).  The sources plan
 * with them and add their own refusals (what a device or the kernel says).
 */
#ifndef PMUTOP_PLAN_H
#define PMUTOP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counter.h"
#include "layout.h"
#include "sample.h"

/*
 * Why group G of L cannot count on a CPU that lacks the architectural
 * events ABSENT (bit n: CPUID.0AH:EBX bit n, seed 004 Table 19-1), into
 * WHY; false when it can.  Its figures are then n/a, never a count of
 * whatever the encoding happens to mean there.
 */
bool plan_arch_unavailable(const struct layout *l, int g, uint32_t absent, char *why, size_t len);

/*
 * Pack the selected core groups (GROUPS, bit g) into sets over the
 * programmable counters USABLE (bit n: PMCn), first fit in layout order,
 * with each event's counter constraints and one value per offcore
 * response register.  A group that cannot count (an architectural event
 * in ABSENT, or it fits no set even alone) gets its reason in BLOCKED[g],
 * naming LOST, counters given up while running; every other core group's
 * BLOCKED[g] is "".  SETS has room for l->ngroups.  Returns the sets.
 */
int plan_core(const struct layout *l, layout_groups groups, uint32_t usable, uint32_t lost,
	      uint32_t absent, struct counter_set *sets, char (*blocked)[SAMPLE_WHY_MAX]);

/*
 * Pack the selected per-socket groups not already blocked (BLOCKED[g] "")
 * into sets over their box kind's counters (layout_pmu_kinds); groups of
 * a free-running kind need none and go into *FREE (bit g).  A group that
 * fits no set alone is blocked with the reason.  SETS has room for
 * l->ngroups.  Returns the sets.
 */
int plan_uncore(const struct layout *l, layout_groups groups, struct counter_set *sets,
		layout_groups *free, char (*blocked)[SAMPLE_WHY_MAX]);

/* The groups of SETS[0 .. N), bit g. */
layout_groups plan_groups(const struct counter_set *sets, int n);

#endif
