/*
 * counter: widening and event-select values; see counter.h.  PERFEVTSEL
 * layout from seed 000 Appendix II (pmu_regs.h); the uncore select of the
 * Nehalem uncore and the Skylake CBo/ARB has the same low fields [S1 2-7].
 */
#include "counter.h"
#include "pmu_regs.h"

#include <math.h>
#include <stdio.h>

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

/* The fields core and uncore selects share, with EN (an AMD event's high bits at 35:32). */
static uint64_t counter_fields(const struct layout_event *ev)
{
	return ((uint64_t)(ev->event & 0xFF) << EVTSEL_EVENT_SHIFT) |
	       ((uint64_t)(ev->event >> 8) << AMD_EVTSEL_EVENT_HI_SHIFT) |
	       ((uint64_t)(ev->umask & 0xFF) << EVTSEL_UMASK_SHIFT) |
	       ((uint64_t)(ev->umask >> 8 & 0xFF) << EVTSEL_UMASK2_SHIFT) |
	       ((uint64_t)ev->cmask << EVTSEL_CMASK_SHIFT) | (ev->inv ? EVTSEL_INV : 0) |
	       (ev->edge ? EVTSEL_EDGE : 0) | EVTSEL_EN;
}

uint64_t counter_evtsel(const struct layout_event *ev, unsigned perfmon_version, bool user,
			bool kernel)
{
	user = user && ev->ring != LAYOUT_RING_KERNEL;
	kernel = kernel && ev->ring != LAYOUT_RING_USER;
	return counter_fields(ev) | (ev->any && perfmon_version >= 3 ? EVTSEL_ANY : 0) |
	       (ev->eq ? EVTSEL_EQ : 0) | (user ? EVTSEL_USR : 0) | (kernel ? EVTSEL_OS : 0);
}

/* The kernel's names of the IMC's free-running counters (its uncore_imc events/), by MCHBAR offset. */
static const struct {
	uint32_t offset;
	const char *name;
} counter_imc_names[] = {
	{ SKL_IMC_DRAM_DATA_READS, "data_reads" },
	{ SKL_IMC_DRAM_DATA_WRITES, "data_writes" },
	{ SKL_IMC_DRAM_GT_REQUESTS, "gt_requests" },
	{ SKL_IMC_DRAM_IA_REQUESTS, "ia_requests" },
	{ SKL_IMC_DRAM_IO_REQUESTS, "io_requests" },
};

const char *counter_perf_imc_name(uint32_t mmio)
{
	for (size_t k = 0; k < sizeof(counter_imc_names) / sizeof(counter_imc_names[0]); k++)
		if (counter_imc_names[k].offset == mmio)
			return counter_imc_names[k].name;
	return NULL;
}

const struct counter_filter1_field counter_filter1_fields[] = {
	{ "filter_rem", 0, 1 }, { "filter_loc", 1, 1 }, { "filter_all_op", 3, 1 },
	{ "filter_nm", 4, 1 }, { "filter_not_nm", 5, 1 }, { "filter_opc0", 9, 10 },
	{ "filter_opc1", 19, 10 }, { "filter_nc", 30, 1 }, { "filter_isoc", 31, 1 },
};

const size_t counter_filter1_nfields = sizeof(counter_filter1_fields) / sizeof(counter_filter1_fields[0]);

uint32_t counter_filter1_reserved(void)
{
	uint32_t covered = 0;

	for (size_t i = 0; i < counter_filter1_nfields; i++)
		covered |= (uint32_t)((UINT64_C(1) << counter_filter1_fields[i].width) - 1)
			   << counter_filter1_fields[i].shift;
	return ~covered;
}

void counter_perf_event(const struct layout_event *ev, char *buf, size_t len)
{
	const struct layout_pmu_kind *k = &layout_pmu_kinds[ev->pmu];
	char pmu[40];
	size_t n;

	/* one PMU per box: "uncore_cbox_N" stands for each of them */
	snprintf(pmu, sizeof(pmu), "%s%s", k->kernel, k->summed_boxes ? "N" : "");
	if (k->free_running) {
		const char *name = counter_perf_imc_name(ev->mmio);

		snprintf(buf, len, "%s/%s/", pmu, name ? name : "?");
		return;
	}
	/* the format fields' names, as the kernel's sysfs gives them for these PMUs */
	n = (size_t)snprintf(buf, len, "%s/event=0x%02x", pmu, ev->event);
	if (ev->umask && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",umask=0x%02llx", (unsigned long long)ev->umask);
	if (ev->cmask && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",cmask=%u", ev->cmask);
	if (ev->inv && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",inv");
	if (ev->edge && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",edge");
	if (ev->any && !k->per_socket && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",any");
	if (ev->has_offcore && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",offcore_rsp=0x%llx",
				      (unsigned long long)ev->offcore);
	if (ev->has_frontend && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",frontend=0x%x", ev->frontend);
	if (ev->eq && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",eq=1");
	for (size_t i = 0; ev->has_filter1 && i < counter_filter1_nfields && n < len; i++) {
		const struct counter_filter1_field *f = &counter_filter1_fields[i];
		uint32_t v = (uint32_t)((ev->filter1 >> f->shift) & ((UINT64_C(1) << f->width) - 1));

		if (v)
			n += (size_t)snprintf(buf + n, len - n, ",%s=0x%x", f->name, v);
	}
	/* perf's modifiers: k counts the kernel only, u user space only */
	if (n < len)
		snprintf(buf + n, len - n, "/%s", ev->ring == LAYOUT_RING_KERNEL ? "k"
			 : ev->ring == LAYOUT_RING_USER ? "u" : "");
}

uint64_t counter_perf_config(const struct layout_event *ev)
{
	return (counter_fields(ev) & ~EVTSEL_EN) | (ev->eq ? EVTSEL_EQ : 0) |
	       (ev->any && !layout_pmu_kinds[ev->pmu].per_socket ? EVTSEL_ANY : 0);
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
		/* one MSR_PEBS_FRONTEND value for all the counters */
		for (int j = 0; j < t.nev && a->has_frontend; j++) {
			const struct layout_event *b = &l->events[t.ev[j]];

			if (b->has_frontend && b->frontend != a->frontend)
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
	t.groups |= LAYOUT_GROUP(g);
	*s = t;
	return true;
}
