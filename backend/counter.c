/*
 * counter: widening and event-select values; see counter.h.  PERFEVTSEL
 * layout from seed 000 Appendix II (pmu_regs.h); the uncore select of the
 * Nehalem uncore and the Skylake CBo/ARB has the same low fields [S1 2-7].
 */
#include "counter.h"
#include "pmu_regs.h"

#include <math.h>

double counter_widen(uint64_t prev, uint64_t now, unsigned width, double elapsed, int *resets)
{
	uint64_t mask = pmu_width_mask(width);
	double wrapped;

	now &= mask;
	if (now >= prev)
		return (double)(now - prev);
	wrapped = (double)(now + (mask - prev) + 1);
	if (wrapped <= COUNTER_MAX_EVENTS_PER_S * fmax(elapsed, 1e-3))
		return wrapped;
	(*resets)++;
	return (double)now;
}

/* The fields core and uncore selects share, with EN. */
static uint64_t counter_fields(const struct layout_event *ev)
{
	return ((uint64_t)ev->event << EVTSEL_EVENT_SHIFT) |
	       ((uint64_t)ev->umask << EVTSEL_UMASK_SHIFT) |
	       ((uint64_t)ev->cmask << EVTSEL_CMASK_SHIFT) | (ev->inv ? EVTSEL_INV : 0) |
	       (ev->edge ? EVTSEL_EDGE : 0) | EVTSEL_EN;
}

uint64_t counter_evtsel(const struct layout_event *ev, unsigned perfmon_version, bool user,
			bool kernel)
{
	return counter_fields(ev) | (ev->any && perfmon_version >= 3 ? EVTSEL_ANY : 0) |
	       (user ? EVTSEL_USR : 0) | (kernel ? EVTSEL_OS : 0);
}

uint64_t counter_perf_config(const struct layout_event *ev)
{
	return (counter_fields(ev) & ~EVTSEL_EN) |
	       (ev->any && ev->pmu == LAYOUT_PMU_CORE ? EVTSEL_ANY : 0);
}

uint64_t counter_uncore_evtsel(const struct layout_event *ev)
{
	return counter_fields(ev);
}

bool counter_set_add(const struct layout *l, struct counter_set *s, int g, uint32_t usable)
{
	const struct layout_group *grp = &l->groups[g];
	struct counter_set t = *s;
	int ev[COUNTER_SET_MAX] = { 0 }, ctr[COUNTER_SET_MAX], pos[COUNTER_SET_MAX], n = 0;

	if (t.nev + grp->nevents > COUNTER_SET_MAX)
		return false;
	for (int i = 0; i < grp->nevents; i++) {
		const struct layout_event *a = &l->events[grp->first_event + i];

		/* one offcore response register per OFFCORE_RESPONSE event code */
		for (int j = 0; j < t.nev && a->offcore_msr; j++) {
			const struct layout_event *b = &l->events[t.ev[j]];

			if (b->offcore_msr == a->offcore_msr && b->offcore != a->offcore)
				return false;
		}
		t.ev[t.nev++] = grp->first_event + i;
	}
	/* the counters of the group's bank, shared with the set's other events of that bank */
	for (int i = 0; i < t.nev; i++)
		if (l->events[t.ev[i]].pmu == grp->pmu) {
			pos[n] = i;
			ctr[n] = -1;
			ev[n++] = t.ev[i];
		}
	if (!layout_assign_counters(l, ev, n, usable, ctr))
		return false;
	for (int i = 0; i < n; i++)
		t.ctr[pos[i]] = ctr[i];
	t.groups |= 1u << g;
	*s = t;
	return true;
}
