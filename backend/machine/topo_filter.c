/*
 * topo_filter: CPU lists, sockets and kinds of core as a user names them.
 * See topo_filter.h.
 */
#include "topo_filter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpulist.h"
#include "xmalloc.h"

void topo_filter_cpus_text(const struct topo *t, char *buf, size_t len)
{
	int *cpus = xcalloc((size_t)t->nthreads + 1, sizeof(int)), n = 0;
	char *list;

	for (int i = 0; i < t->nthreads; i++)
		cpus[n++] = t->threads[i].os_cpu;
	list = cpulist_format(cpus, n);
	snprintf(buf, len, "%s", list);
	free(list);
	free(cpus);
}

/* The topo socket whose physical id (else index) is ID, or -1. */
static int topo_filter_socket(const struct topo *t, long id)
{
	for (int k = 0; k < t->nsockets; k++)
		if (t->sockets[k].os_id == id || (t->sockets[k].os_id < 0 && k == id))
			return k;
	return -1;
}

/* A hybrid's kind of core named TOK (any case), or -1. */
static int topo_filter_kind(const struct topo *t, const char *tok)
{
	for (int k = 0; k < t->ncorekinds; k++)
		if (!strcasecmp(tok, t->corekinds[k].name))
			return k;
	return -1;
}

/* Mark TOK's CPUs in SHOWN (N long); 0, or -errno with ERR. */
static int topo_filter_token(const struct topo *t, const char *tok, bool *shown, int n, char *err,
			     size_t len)
{
	int *cpus, ncpus, rc, kind = t->ncorekinds > 1 ? topo_filter_kind(t, tok) : -1;
	size_t col = 0;
	char have[160];

	if (kind >= 0) {
		for (int i = 0; i < t->nonline; i++)
			if (t->cores[t->threads[i].core].corekind == kind && t->threads[i].os_cpu < n)
				shown[t->threads[i].os_cpu] = true;
		return 0;
	}
	if (!strncmp(tok, "socket", 6)) {
		char *end;
		long id = strtol(tok + 6, &end, 10);
		int k = end == tok + 6 || *end ? -1 : topo_filter_socket(t, id);

		if (k < 0) {
			snprintf(err, len, "no %s on this machine (it has %d socket%s)", tok, t->nsockets,
				 t->nsockets == 1 ? "" : "s");
			return -EINVAL;
		}
		for (int i = 0; i < t->sockets[k].nthreads; i++)
			if (t->sockets[k].cpus[i] < n)
				shown[t->sockets[k].cpus[i]] = true;
		return 0;
	}
	rc = cpulist_parse(tok, &cpus, &ncpus, &col);
	if (rc == -ERANGE) {
		snprintf(err, len, "a range is reversed or above %d", CPULIST_MAX_CPU);
		return rc;
	}
	if (rc) {
		snprintf(err, len, "expected CPU lists or socketN%s, such as 0-3,8 or socket1",
			 t->ncorekinds > 1 ? " (or a kind of core: P, E)" : "");
		return rc;
	}
	for (int i = 0; i < ncpus; i++) {
		if (cpus[i] >= n || t->cpu_thread[cpus[i]] == TOPO_NONE) {
			topo_filter_cpus_text(t, have, sizeof(have));
			snprintf(err, len, "CPU %d is not on this machine (CPUs %s)", cpus[i], have);
			free(cpus);
			return -EINVAL;
		}
		shown[cpus[i]] = true;
	}
	free(cpus);
	return 0;
}

int topo_filter_parse(const struct topo *t, const char *text, bool **shown, char *err, size_t len)
{
	int n = t->cpu_thread_len;
	char *copy = xstrdup(text), *save = NULL;
	int rc = 0;

	*shown = xcalloc((size_t)n + 1, sizeof(bool));
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
		rc = topo_filter_token(t, tok, *shown, n, err, len);
	free(copy);
	if (rc) {
		free(*shown);
		*shown = NULL;
	}
	return rc;
}
