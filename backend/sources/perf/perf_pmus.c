/*
 * perf_pmus: every PMU the kernel describes.  See perf_pmus.h.
 */
#include "perf_pmus.h"
#include "rootfs.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERF_PMUS_MAX 4096 /* a 2-socket Granite Rapids has some 600 */

/* NAME's kind and box: "uncore_imc_3" -> "uncore_imc", 3; "power" -> "power", -1. */
static void perf_pmus_split(const char *name, char *kind, size_t len, int *box)
{
	const char *us = strrchr(name, '_');
	size_t n = strlen(name);

	*box = -1;
	if (us && us[1]) {
		const char *d = us + 1;

		while (isdigit((unsigned char)*d))
			d++;
		if (!*d && d - us - 1 < 6) {
			*box = atoi(us + 1);
			n = (size_t)(us - name);
		}
	}
	snprintf(kind, len, "%.*s", (int)n, name);
}

/* The first CPUs of MASK ("0,28", "0-3,8") into CPUS (-1 after the last); 0 or -EINVAL. */
static int perf_pmus_cpus(const char *mask, int *cpus, int max)
{
	const char *p = mask;
	int n = 0;

	for (int i = 0; i < max; i++)
		cpus[i] = -1;
	while (*p && n < max) {
		char *end;
		long lo = strtol(p, &end, 10), hi;

		if (end == p || lo < 0 || lo > 1 << 20)
			return -EINVAL;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 1 << 20)
				return -EINVAL;
			p = end;
		}
		for (long c = lo; c <= hi && n < max; c++)
			cpus[n++] = (int)c;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
		else
			break;
	}
	return 0;
}

static int perf_pmus_field_cmp(const void *a, const void *b)
{
	return strcmp(((const struct perf_pmu_field *)a)->name,
		      ((const struct perf_pmu_field *)b)->name);
}

static int perf_pmus_alias_cmp(const void *a, const void *b)
{
	return strcmp(a, b); /* each alias starts with its name */
}

static int perf_pmus_cmp(const void *a, const void *b)
{
	const struct perf_pmus_entry *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);

	return c ? c : (x->box > y->box) - (x->box < y->box);
}

static void perf_pmus_skip(struct perf_pmus *out, const char *name, const char *why)
{
	struct perf_pmus_skipped *s;

	out->skipped = xrealloc(out->skipped, (size_t)out->nskipped + 1, sizeof(*out->skipped));
	s = &out->skipped[out->nskipped++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->why, sizeof(s->why), "%s", why);
}

int perf_pmus_scan(const struct perf_sys *sys, const char *root, struct perf_pmus *out,
		   char *err, size_t errlen)
{
	char (*names)[64] = xcalloc(PERF_PMUS_MAX, 64);
	int n;

	memset(out, 0, sizeof(*out));
	n = sys && sys->pmus ? sys->pmus(sys->ctx, names, PERF_PMUS_MAX)
			     : perf_pmu_list(root, "", names, PERF_PMUS_MAX);
	if (n < 0) {
		snprintf(err, errlen, "%s/sys/bus/event_source/devices: %s (a kernel without perf "
			 "events, or a --root tree without it)", root && strcmp(root, "/") ? root : "",
			 rootfs_strerror(n));
		free(names);
		return n;
	}
	out->pmu = xcalloc((size_t)n + 1, sizeof(*out->pmu));
	for (int i = 0; i < n; i++) {
		struct perf_pmus_entry *e = &out->pmu[out->n];
		char why[400];

		if (!perf_pmu_name_ok(names[i])) {
			perf_pmus_skip(out, names[i], "no kernel PMU has a name like that (letters, "
				       "digits, _ . -): not opened");
			continue;
		}
		if (perf_sys_pmu(sys, root, names[i], &e->pmu, why, sizeof(why))) {
			perf_pmus_skip(out, names[i], why);
			continue;
		}
		if (e->pmu.why_bad[0] && strcmp(names[i], "cpu") && strncmp(names[i], "cpu_", 4)) {
			perf_pmus_skip(out, names[i], e->pmu.why_bad);
			continue;
		}
		if (perf_pmus_cpus(e->pmu.cpumask, e->cpus, 8)) {
			char q[80];

			snprintf(why, sizeof(why), "its cpumask is not a CPU list: %s",
				 rootfs_quote(e->pmu.cpumask, q, sizeof(q)));
			perf_pmus_skip(out, names[i], why);
			continue;
		}
		perf_pmus_split(names[i], e->kind, sizeof(e->kind), &e->box);
		/* in name order, whatever order the directory gave */
		qsort(e->pmu.fields, (size_t)e->pmu.nfields, sizeof(e->pmu.fields[0]),
		      perf_pmus_field_cmp);
		qsort(e->pmu.alias, (size_t)e->pmu.naliases, sizeof(e->pmu.alias[0]),
		      perf_pmus_alias_cmp);
		out->n++;
	}
	free(names);
	qsort(out->pmu, (size_t)out->n, sizeof(*out->pmu), perf_pmus_cmp);
	return 0;
}

int perf_pmus_kind(const struct perf_pmus *p, const char *kind, int *n)
{
	int first = -1;

	*n = 0;
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->pmu[i].kind, kind)) {
			first = first < 0 ? i : first;
			(*n)++;
		}
	return first;
}

void perf_pmus_free(struct perf_pmus *p)
{
	free(p->pmu);
	free(p->skipped);
	memset(p, 0, sizeof(*p));
}
