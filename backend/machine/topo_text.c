/*
 * topo_text: print a topology model as compact text.  Pure formatting.
 *
 * A run of cores printed as one line ("cores 0-31: cpu 0-31 with siblings
 * 512-543") is exact: the k-th core of the run has the k-th CPU of each list.
 */
#include "topo_text.h"
#include "cpulist.h"
#include "xmalloc.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void topo_text_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	size_t u = 0;

	if (bytes == TOPO_BYTES_UNKNOWN) {
		snprintf(buf, len, "n/a");
		return;
	}
	while (v >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024.0;
		u++;
	}
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%" PRIu64 " %s", (uint64_t)v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
}

static void topo_text_core_name(const struct topo_core *c, int index, char *buf, size_t len)
{
	if (c->core_id != TOPO_NONE)
		snprintf(buf, len, "%d", c->core_id);
	else
		snprintf(buf, len, "#%d", index);
}

/*
 * Does core B continue a run ending in core A?  Pattern 'r' (ranks): each
 * hardware thread of B is the one of A plus one (Linux numbering, siblings
 * far apart).  Pattern 'c' (consecutive): B's first CPU follows A's last and
 * each core's CPUs are consecutive (siblings adjacent).
 */
static int topo_text_continues(const struct topo *t, const struct topo_core *a,
			       const struct topo_core *b, char pattern)
{
	const struct topo_thread *ta = &t->threads[a->thread_first];
	const struct topo_thread *tb = &t->threads[b->thread_first];

	if (a->nthreads != b->nthreads || a->core_id == TOPO_NONE || b->core_id <= a->core_id)
		return 0;
	for (int k = 0; k < a->nthreads; k++) {
		if (pattern == 'r' && tb[k].os_cpu != ta[k].os_cpu + 1)
			return 0;
		if (pattern == 'c' && tb[k].os_cpu != ta[a->nthreads - 1].os_cpu + 1 + k)
			return 0;
	}
	return 1;
}

/* Length of the run of cores starting at FIRST (at most LAST), and its pattern. */
static int topo_text_run(const struct topo *t, int first, int last, char *pattern)
{
	static const char patterns[] = { 'r', 'c' };
	int best = 1;

	*pattern = 'r';
	for (size_t p = 0; p < sizeof(patterns); p++) {
		int n = 1;

		while (first + n <= last &&
		       topo_text_continues(t, &t->cores[first + n - 1], &t->cores[first + n],
					   patterns[p]))
			n++;
		if (n > best) {
			best = n;
			*pattern = patterns[p];
		}
	}
	return best;
}

static void topo_text_run_line(const struct topo *t, int first, int n, char pattern, FILE *out)
{
	const struct topo_core *c0 = &t->cores[first];
	int nt = c0->nthreads;
	int *ids = xmalloc(sizeof(*ids) * (size_t)n);
	int *cpus = xmalloc(sizeof(*cpus) * (size_t)(n * nt));
	char *idlist, *list;

	for (int i = 0; i < n; i++)
		ids[i] = t->cores[first + i].core_id;
	idlist = cpulist_format(ids, n);
	if (pattern == 'c') {
		for (int i = 0; i < n * nt; i++)
			cpus[i] = t->threads[c0->thread_first + i].os_cpu;
		list = cpulist_format(cpus, n * nt);
		fprintf(out, "  cores %s: cpu %s, %d per core in order\n", idlist, list, nt);
		free(list);
	} else {
		fprintf(out, "  cores %s: cpu", idlist);
		for (int k = 0; k < nt; k++) {
			for (int i = 0; i < n; i++)
				cpus[i] = t->threads[t->cores[first + i].thread_first + k].os_cpu;
			list = cpulist_format(cpus, n);
			fprintf(out, "%s%s", k == 0 ? " " : k == 1 ? " with siblings " : ", ", list);
			free(list);
		}
		fputc('\n', out);
	}
	free(idlist);
	free(ids);
	free(cpus);
}

/* "core 3: cpu 3,11" items for cores FIRST..FIRST+N-1, packed to WIDTH. */
static void topo_text_core_items(const struct topo *t, int first, int n, int width, FILE *out)
{
	char (*items)[64] = xmalloc(sizeof(*items) * (size_t)n);
	int colw = 0, per_line;

	for (int i = 0; i < n; i++) {
		const struct topo_core *c = &t->cores[first + i];
		int cpus[64], nt = c->nthreads < 64 ? c->nthreads : 64;
		char name[16], *list;

		for (int k = 0; k < nt; k++)
			cpus[k] = t->threads[c->thread_first + k].os_cpu;
		list = cpulist_format(cpus, nt);
		topo_text_core_name(c, first + i, name, sizeof(name));
		snprintf(items[i], sizeof(items[i]), "core %s: cpu %s", name, list);
		free(list);
		if ((int)strlen(items[i]) > colw)
			colw = (int)strlen(items[i]);
	}
	colw += 3;
	per_line = (width - 2) / colw > 0 ? (width - 2) / colw : 1;
	for (int i = 0; i < n; i++) {
		bool last_on_line = (i + 1) % per_line == 0 || i == n - 1;

		if (i % per_line == 0)
			fputs("  ", out);
		if (last_on_line)
			fprintf(out, "%s\n", items[i]);
		else
			fprintf(out, "%-*s", colw, items[i]);
	}
	free(items);
}

static void topo_text_socket(const struct topo *t, int si, int width, FILE *out)
{
	const struct topo_socket *s = &t->sockets[si];
	char *cpus = cpulist_format(s->cpus, s->nthreads);
	char total[32], freeb[32];

	if (s->os_id != TOPO_NONE)
		fprintf(out, "socket %d: cpu %s", s->os_id, cpus);
	else
		fprintf(out, "socket #%d: cpu %s", si, cpus);
	free(cpus);
	for (int i = 0; i < s->nnuma; i++) {
		const struct topo_numa *m = &t->numa[s->numa[i]];

		topo_text_bytes(m->mem_total, total, sizeof(total));
		topo_text_bytes(m->mem_free, freeb, sizeof(freeb));
		fprintf(out, "%s%d", i ? ", " : " | NUMA node ", m->os_node);
		if (m->mem_total == TOPO_BYTES_UNKNOWN)
			fputs(" (memory n/a)", out);
		else if (m->mem_free == TOPO_BYTES_UNKNOWN)
			fprintf(out, " (%s)", total);
		else
			fprintf(out, " (%s, %s free)", total, freeb);
	}
	/* the L3s as they are: "2 x 16 MiB", or unequal ones apart (Strix Point: 16 MiB + 8 MiB) */
	for (int i = 0; i < s->nl3;) {
		uint64_t b = t->l3s[s->l3_first + i].size_bytes;
		int same = 1;

		while (i + same < s->nl3 && t->l3s[s->l3_first + i + same].size_bytes == b)
			same++;
		topo_text_bytes(b, total, sizeof(total));
		fprintf(out, "%s", i ? " + " : " | L3 ");
		if (same > 1)
			fprintf(out, "%d x ", same);
		fputs(total, out);
		i += same;
	}
	fprintf(out, " | %d cores, %d threads", s->ncores, s->nthreads);
	/* a hybrid CPU: the socket's cores of each kind */
	for (int k = 0; k < t->ncorekinds; k++) {
		int n = 0;

		for (int c = s->core_first; c < s->core_first + s->ncores; c++)
			n += t->cores[c].corekind == k;
		fprintf(out, "%s%d %s", k ? " + " : ": ", n, t->corekinds[k].name);
	}
	fputc('\n', out);

	if (s->ncores <= TOPO_TEXT_MAX_LISTED_CORES) {
		topo_text_core_items(t, s->core_first, s->ncores, width, out);
		return;
	}
	for (int c = s->core_first; c < s->core_first + s->ncores;) {
		char pattern;
		int n = topo_text_run(t, c, s->core_first + s->ncores - 1, &pattern);

		if (n >= 3)
			topo_text_run_line(t, c, n, pattern, out);
		else
			topo_text_core_items(t, c, n, width, out);
		c += n;
	}
}

void topo_text_print(const struct topo *t, FILE *out, int width)
{
	switch (t->kind) {
	case TOPO_KIND_SYSTEM:
		if (t->root && strcmp(t->root, "/"))
			fprintf(out, "topology of the machine under %s\n", t->root);
		else
			fputs("topology of this machine\n", out);
		break;
	case TOPO_KIND_XML:
		if (t->xml_text && !t->xml_file)
			fputs("topology from an emulated machine's hwloc XML\n", out);
		else
			fprintf(out, "topology from hwloc XML %s\n", t->source);
		break;
	case TOPO_KIND_SYNTHETIC:
		fprintf(out, "topology from synthetic description '%s'\n", t->source);
		break;
	}
	fprintf(out, "%d socket%s, %d NUMA node%s, %d cores, %d threads online\n",
		t->nsockets, t->nsockets == 1 ? "" : "s", t->nnuma, t->nnuma == 1 ? "" : "s",
		t->ncores, t->nonline);
	if (t->ncorekinds) {
		fputs("hybrid:", out);
		for (int k = 0; k < t->ncorekinds; k++)
		{
			const struct topo_corekind *kd = &t->corekinds[k];
			char l2[32];

			fprintf(out, "%s %s-cores (%s%s, hwloc efficiency %d): %d cores, %d threads",
				k ? ";" : "", kd->name, kd->core_type[0] ? kd->core_type : "no core type",
				kd->from_pmu ? " by the kernel's core PMU" : "", kd->efficiency, kd->ncores,
				kd->nthreads);
			/* Intel's E-cores: modules of four sharing an L2 */
			topo_text_bytes(kd->l2_bytes, l2, sizeof(l2));
			if (kd->module_cores > 1)
				fprintf(out, ", in modules of %d sharing a %s L2", kd->module_cores, l2);
		}
		fputc('\n', out);
	}
	for (int s = 0; s < t->nsockets; s++)
		topo_text_socket(t, s, width, out);
	if (t->nthreads > t->nonline) {
		int n = t->nthreads - t->nonline;
		int *off = xmalloc(sizeof(*off) * (size_t)n);
		char *list;

		for (int i = 0; i < n; i++)
			off[i] = t->threads[t->nonline + i].os_cpu;
		list = cpulist_format(off, n);
		fprintf(out, "offline: cpu %s\n", list);
		free(list);
		free(off);
	}
}
