/*
 * perfmon_regs: what registers an event of Intel's data needs beside its
 * select: the extra register its MSRIndex names (the offcore response pair,
 * MSR_PEBS_FRONTEND, others pmutop does not program) with its value, the
 * events that read the offcore pair on a platform, and whether the platform
 * has fixed counter 3.  Pure; any thread.
 */
#include "perfmon_plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum perfmon_extra perfmon_plan_extra_kind(const struct perfmon_event *e)
{
	char idx[32];
	size_t n = 0;

	if (!e->msr_index)
		return PERFMON_EXTRA_NONE;
	/* "0x1a6,0x1a7", "0x1A6, 0x1A7": without blanks, lower case */
	for (const char *c = e->msr_index; *c && n + 1 < sizeof(idx); c++)
		if (*c != ' ')
			idx[n++] = (char)tolower((unsigned char)*c);
	idx[n] = 0;
	if (!strcmp(idx, "0") || !strcmp(idx, "0x00") || !strcmp(idx, "0x0") || !n)
		return PERFMON_EXTRA_NONE;
	if (!strcmp(idx, "0x1a6,0x1a7"))
		return PERFMON_EXTRA_OFFCORE;
	if (!strcmp(idx, "0x3f7"))
		return PERFMON_EXTRA_FRONTEND;
	return PERFMON_EXTRA_OTHER;
}

int perfmon_plan_offcore_events(const struct perfmon *p, unsigned *ev)
{
	for (int v = 0; v < p->nevents; v++) {
		const struct perfmon_event *e = &p->events[v];
		char *end;

		if (!e->listed || perfmon_plan_extra_kind(e) != PERFMON_EXTRA_OFFCORE || !e->code)
			continue;
		/* "0x2A,0x2B" or "0xB7, 0xBB": the events reading MSR_OFFCORE_RSP_0 and _1 */
		ev[0] = (unsigned)strtoul(e->code, &end, 0);
		while (*end == ',' || *end == ' ')
			end++;
		ev[1] = (unsigned)strtoul(end, NULL, 0);
		if (ev[0] && ev[1] && ev[0] <= 0xFF && ev[1] <= 0xFF)
			return 0;
	}
	return -ENOENT;
}

bool perfmon_plan_has_slots(const struct perfmon *p)
{
	for (int v = 0; v < p->nevents; v++)
		if (p->events[v].listed && !strcmp(p->events[v].base, "TOPDOWN.SLOTS") &&
		    p->events[v].counter && !strcmp(p->events[v].counter, "Fixed counter 3"))
			return true;
	return false;
}


const char *perfmon_plan_extra(const struct perfmon_event *e, char *buf, size_t len)
{
	const char *o = strstr(e->name, ":ocr_msr_val=");

	if (!e->msr_index || !strcmp(e->msr_index, "0") || !strcmp(e->msr_index, "0x00") ||
	    !strcmp(e->msr_index, "0x0"))
		return NULL;
	if (o) {
		snprintf(buf, len, "%.*s", (int)strcspn(o + 13, ":"), o + 13);
		return buf;
	}
	return e->msr_value ? e->msr_value : "";
}
