/*
 * cpulist: parse and format "0-3,8"-style CPU lists.  Pure functions.
 */
#include "cpulist.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cpulist_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int cpulist_normalise(int *v, int n)
{
	int out = 0;

	qsort(v, (size_t)n, sizeof(*v), cpulist_cmp_int);
	for (int i = 0; i < n; i++)
		if (out == 0 || v[out - 1] != v[i])
			v[out++] = v[i];
	return out;
}

/* Read a decimal number at *P; advances *P.  -1 when there is none. */
static long cpulist_number(const char **p)
{
	long v = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v > CPULIST_MAX_CPU)
			v = CPULIST_MAX_CPU + 1; /* keep scanning, report range */
		(*p)++;
	}
	return v;
}

int cpulist_parse(const char *text, int **cpus, int *ncpus, size_t *err_col)
{
	const char *p = text;
	int *v = NULL;
	int n = 0, cap = 0;

	*cpus = NULL;
	*ncpus = 0;
	for (;;) {
		const char *start = p;
		long lo = cpulist_number(&p), hi;

		if (lo < 0)
			goto syntax;
		hi = lo;
		if (*p == '-') {
			p++;
			hi = cpulist_number(&p);
			if (hi < 0)
				goto syntax;
		}
		if (lo > CPULIST_MAX_CPU || hi > CPULIST_MAX_CPU || hi < lo) {
			*err_col = (size_t)(start - text) + 1;
			free(v);
			return -ERANGE;
		}
		for (long c = lo; c <= hi; c++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				v = xrealloc(v, (size_t)cap, sizeof(*v));
			}
			v[n++] = (int)c;
		}
		if (*p == '\0')
			break;
		if (*p != ',')
			goto syntax;
		p++;
	}
	*ncpus = cpulist_normalise(v, n);
	*cpus = v;
	return 0;
syntax:
	*err_col = (size_t)(p - text) + 1;
	free(v);
	return -EINVAL;
}

char *cpulist_format(const int *cpus, int n)
{
	int *v = xmalloc(sizeof(*v) * (size_t)(n ? n : 1));
	size_t cap = 16 * (size_t)n + 1, len = 0;
	char *out = xmalloc(cap);

	if (n > 0) {
		memcpy(v, cpus, sizeof(*v) * (size_t)n);
		n = cpulist_normalise(v, n);
	}
	out[0] = '\0';
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j == i)
			len += (size_t)snprintf(out + len, cap - len, "%s%d", len ? "," : "", v[i]);
		else
			len += (size_t)snprintf(out + len, cap - len, "%s%d-%d", len ? "," : "",
						v[i], v[j]);
		i = j + 1;
	}
	free(v);
	return out;
}

int cpulist_contains(const int *cpus, int n, int cpu)
{
	return bsearch(&cpu, cpus, (size_t)n, sizeof(*cpus), cpulist_cmp_int) != NULL;
}
