/*
 * plan: packing the selected groups into sets.  See plan.h.
 */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The architectural events (seed 004 Table 19-1, in CPUID.0AH:EBX bit order). */
static const struct {
	unsigned event, umask;
	const char *name;
} plan_arch_events[] = {
	{ 0x3C, 0x00, "UnHalted Core Cycles" },      { 0xC0, 0x00, "Instructions Retired" },
	{ 0x3C, 0x01, "UnHalted Reference Cycles" }, { 0x2E, 0x4F, "LLC Reference" },
	{ 0x2E, 0x41, "LLC Misses" },                { 0xC4, 0x00, "Branch Instruction Retired" },
	{ 0xC5, 0x00, "Branch Misses Retired" },
};

bool plan_arch_unavailable(const struct layout *l, int g, uint32_t absent, char *why, size_t len)
{
	const struct layout_group *grp = &l->groups[g];

	for (int i = 0; i < grp->nevents; i++) {
		const struct layout_event *ev = &l->events[grp->first_event + i];

		for (unsigned n = 0; n < sizeof(plan_arch_events) / sizeof(plan_arch_events[0]); n++)
			if ((absent & (1u << n)) && ev->event == plan_arch_events[n].event &&
			    ev->umask == plan_arch_events[n].umask) {
				snprintf(why, len, "%s (event %02XH umask %02XH) is not available on "
					 "this CPU (CPUID.0AH:EBX bit %u)", plan_arch_events[n].name,
					 ev->event, plan_arch_events[n].umask, n);
				return true;
			}
	}
	return false;
}

/* Put group G into the first of SETS[0 .. *N) it fits, else a new one (ALONE, where it fits). */
static void plan_place(const struct layout *l, struct counter_set *sets, int *n, int g,
		       uint32_t usable, const struct counter_set *alone)
{
	for (int s = 0; s < *n; s++)
		if (counter_set_add(l, &sets[s], g, usable))
			return;
	sets[(*n)++] = *alone;
}

/* Pack the selected core groups of kind KIND (every kind: LAYOUT_NCORETYPES) into SETS. */
static int plan_core_kind(const struct layout *l, layout_groups groups, uint32_t usable,
			  uint32_t lost, uint32_t absent, struct counter_set *sets, char (*blocked)[SAMPLE_WHY_MAX],
			  unsigned kind)
{
	int n = 0;

	for (int g = 0; g < l->ngroups; g++) {
		struct counter_set alone = { 0 };

		if (l->groups[g].pmu != LAYOUT_PMU_CORE ||
		    (kind < LAYOUT_NCORETYPES && l->groups[g].coretype != kind))
			continue;
		blocked[g][0] = 0;
		if (!(groups & LAYOUT_GROUP(g)))
			continue;
		if (plan_arch_unavailable(l, g, absent, blocked[g], SAMPLE_WHY_MAX))
			continue;
		if (!counter_set_add(l, &alone, g, usable)) {
			snprintf(blocked[g], SAMPLE_WHY_MAX, "needs %d general-purpose counters (with its "
				 "constraints), %d free%s", l->groups[g].nevents,
				 __builtin_popcount(usable),
				 lost ? " (another program took one while pmutop ran)" : "");
			continue;
		}
		plan_place(l, sets, &n, g, usable, &alone);
	}
	return n;
}

int plan_core(const struct layout *l, layout_groups groups, uint32_t usable, uint32_t lost,
	      uint32_t absent, struct counter_set *sets, char (*blocked)[SAMPLE_WHY_MAX])
{
	bool any = false, e = false;
	struct counter_set *es;
	int n, ne;

	for (int g = 0; g < l->ngroups; g++)
		if (l->groups[g].pmu == LAYOUT_PMU_CORE && (groups & LAYOUT_GROUP(g))) {
			any |= l->groups[g].coretype == LAYOUT_CORES_ANY;
			e |= l->groups[g].coretype == LAYOUT_CORES_E;
		}
	if (any || !e)
		return plan_core_kind(l, groups, usable, lost, absent, sets, blocked,
				      LAYOUT_NCORETYPES);
	/*
	 * A hybrid: a P-core's groups and an E-core's never meet on one CPU, so
	 * each kind is packed on its own and set K counts both kinds' Kth
	 */
	es = calloc((size_t)l->ngroups + 1, sizeof(*es));
	if (!es)
		return plan_core_kind(l, groups, usable, lost, absent, sets, blocked,
				      LAYOUT_NCORETYPES);
	n = plan_core_kind(l, groups, usable, lost, absent, sets, blocked, LAYOUT_CORES_P);
	ne = plan_core_kind(l, groups, usable, lost, absent, es, blocked, LAYOUT_CORES_E);
	for (int k = 0; k < ne; k++) {
		struct counter_set *s = &sets[k];

		if (k >= n)
			*s = (struct counter_set){ 0 };
		for (int i = 0; i < es[k].nev && s->nev < COUNTER_SET_MAX; i++) {
			s->ev[s->nev] = es[k].ev[i];
			s->ctr[s->nev++] = es[k].ctr[i];
		}
		s->groups |= es[k].groups;
	}
	free(es);
	return n > ne ? n : ne;
}

int plan_uncore(const struct layout *l, layout_groups groups, struct counter_set *sets,
		layout_groups *free, char (*blocked)[SAMPLE_WHY_MAX])
{
	int n = 0;

	*free = 0;
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];
		const struct layout_pmu_kind *k = &layout_pmu_kinds[grp->pmu];
		uint32_t usable = k->counters >= 32 ? ~0u : (1u << k->counters) - 1;
		struct counter_set alone = { 0 };

		if (!k->per_socket || !(groups & LAYOUT_GROUP(g)) || blocked[g][0])
			continue;
		if (k->free_running) {
			*free |= LAYOUT_GROUP(g);
			continue;
		}
		if (!counter_set_add(l, &alone, g, usable)) {
			snprintf(blocked[g], SAMPLE_WHY_MAX, "needs %d %s counters (with its "
				 "constraints), %d per %s", grp->nevents, k->name, k->counters, k->box);
			continue;
		}
		plan_place(l, sets, &n, g, usable, &alone);
	}
	return n;
}

layout_groups plan_groups(const struct counter_set *sets, int n)
{
	layout_groups g = 0;

	for (int s = 0; s < n; s++)
		g |= sets[s].groups;
	return g;
}
