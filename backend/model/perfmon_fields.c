/*
 * perfmon_fields: a vendor event's select fields with the formula's
 * modifiers; see perfmon_fields.h.
 */
#include "perfmon_fields.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static unsigned long perfmon_fields_num(const char *text)
{
	return strtoul(text ? text : "0", NULL, 0);
}

void perfmon_fields_of(const struct perfmon_event *e, bool amd, struct perfmon_fields *f)
{
	const char *mods = strchr(e->name, ':');

	*f = (struct perfmon_fields){
		.code = perfmon_fields_num(e->code),
		/* a core's UMaskExt (Lunar Lake on: version 6's UMASK2) is the umask's second byte */
		.umask = perfmon_fields_num(e->umask) | (amd ? 0 : perfmon_fields_num(e->umask_ext) << 8),
		.cmask = perfmon_fields_num(e->cmask),
		.inv = perfmon_fields_num(e->inv) != 0,
		.edge = perfmon_fields_num(e->edge) != 0,
		.any = perfmon_fields_num(e->any) != 0,
	};
	if (e->counter && !strncmp(e->counter, "Fixed counter ", 14)) {
		/* the architectural twins on a general-purpose counter (SDM Table 19-1) */
		f->code = strstr(e->base, "INST_RETIRED") ? 0xC0 : 0x3C;
		f->umask = strstr(e->base, "REF") ? 0x01 : 0x00;
	}
	/* the formula's modifiers over the event's own fields (perf's terms for Intel's metrics) */
	for (const char *m = mods; m && *m; m = strchr(m + 1, ':')) {
		size_t n = strcspn(m + 1, ":");

		if (m[1] == 'c' && isdigit((unsigned char)m[2]))
			f->cmask = strtoul(m + 2, NULL, 10);
		else if (m[1] == 'e' && m[2] == 'q' && isdigit((unsigned char)m[3]))
			f->eq = strtoul(m + 3, NULL, 10) != 0;
		else if (m[1] == 'e' && isdigit((unsigned char)m[2]))
			f->edge = strtoul(m + 2, NULL, 10) != 0;
		else if (m[1] == 'i' && isdigit((unsigned char)m[2]))
			f->inv = strtoul(m + 2, NULL, 10) != 0;
		else if (m[1] == 'u' && m[2] == '0' && m[3] == 'x')
			f->umask = strtoul(m + 2, NULL, 16); /* another umask of the same event */
		else if (n == 3 && !strncasecmp(m + 1, "sup", 3))
			f->ring = "kernel"; /* counted in the kernel only */
		else if (n == 4 && !strncmp(m + 1, "USER", 4))
			f->ring = "user";
	}
}

bool perfmon_fields_known(const char *name, char *why, size_t len)
{
	static const char *const words[] = { "perf_metrics", "SUP", "sup", "USER", "one_unit",
					     "retire_latency" };
	const char *m = strchr(name, ':');

	if (!strncmp(name, "UNC_", 4) || !strncmp(name, "FREERUN_", 8))
		return true; /* the uncore's own modifiers: perfmon_uncore.c */
	for (; m && *m; m = strchr(m + 1, ':')) {
		size_t n = strcspn(m + 1, ":");
		bool ok = (m[1] == 'c' || m[1] == 'e' || m[1] == 'i') &&
			  n >= 2 && strspn(m + 2, "0123456789") == n - 1;

		ok = ok || (n >= 3 && !strncmp(m + 1, "eq", 2) &&
			    strspn(m + 3, "0123456789") == n - 2);
		ok = ok || (n >= 4 && !strncmp(m + 1, "u0x", 3) &&
			    strspn(m + 4, "0123456789abcdefABCDEF") == n - 3);
		ok = ok || !strncmp(m + 1, "ocr_msr_val=", 12);
		for (size_t k = 0; !ok && k < sizeof(words) / sizeof(words[0]); k++)
			ok = strlen(words[k]) == n && !strncmp(m + 1, words[k], n);
		if (!ok) {
			snprintf(why, len, "%s: pmutop does not program the modifier :%.*s", name,
				 (int)n, m + 1);
			return false;
		}
	}
	return true;
}

unsigned long long perfmon_uncore_umask(const struct perfmon_event *e)
{
	unsigned long long umask = strtoull(e->umask ? e->umask : "0", NULL, 0) & 0xFF;
	unsigned long long ext = strtoull(e->umask_ext ? e->umask_ext : "0", NULL, 0);

	return (umask | ext << 8) & 0xFFFFFFFFFFull;
}

void perfmon_uncore_fields(struct layout_build_event *ev, const struct perfmon_event *e,
			   enum layout_pmu kind, unsigned long long umask)
{
	const struct layout_pmu_kind *k = &layout_pmu_kinds[kind];
	unsigned long cmask = strtoul(e->cmask ? e->cmask : "0", NULL, 0);
	unsigned long long filter1 = strtoull(e->filter1 ? e->filter1 : "0", NULL, 0);

	ev->event = (unsigned)(strtoul(e->code ? e->code : "0", NULL, 0) &
			       (k->event_max ? k->event_max : 0xFF));
	ev->umask = umask;
	if (!k->cmask_max)
		return;
	ev->cmask = (unsigned)(cmask & k->cmask_max);
	ev->inv = strtoul(e->inv ? e->inv : "0", NULL, 0) != 0;
	ev->edge = strtoul(e->edge ? e->edge : "0", NULL, 0) != 0;
	ev->has_filter1 = filter1 != 0;
	ev->filter1 = filter1 & 0xFFFFFFFFull;
}
