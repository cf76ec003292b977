/*
 * topo_kinds: a hybrid CPU's kinds of core; see topo_kinds.h.  hwloc ranks
 * the kinds by efficiency (a higher value: more intrinsic performance) and
 * names Intel's in the CoreType info: IntelCore (P-cores), IntelAtom
 * (E-cores; a second, less efficient IntelAtom kind are the low-power
 * E-cores of Meteor Lake and Arrow Lake's SoC tile).
 */
#include "topo_kinds.h"
#include "cpulist.h"
#include "rootfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CoreType info of kind K, or "". */
static const char *topo_kinds_core_type(hwloc_topology_t h, unsigned k, int *efficiency)
{
	struct hwloc_info_s *infos = NULL;
	unsigned n = 0;

	if (hwloc_cpukinds_get_info(h, k, NULL, efficiency, &n, &infos, 0))
		return "";
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(infos[i].name, "CoreType"))
			return infos[i].value;
	return "";
}

/*
 * The kinds' names: IntelCore "P", IntelAtom "E" (two of them: the less
 * efficient "LP-E"); without a CoreType the most efficient "P", the rest "E".
 */
static void topo_kinds_name(struct topo *t)
{
	int best = 0, atoms = 0;

	for (int k = 0; k < t->ncorekinds; k++) {
		best = t->corekinds[k].efficiency > t->corekinds[best].efficiency ? k : best;
		atoms += topo_kind_atom(t, k);
	}
	for (int k = 0; k < t->ncorekinds; k++) {
		struct topo_corekind *kd = &t->corekinds[k];
		bool low = false;

		for (int o = 0; o < t->ncorekinds; o++)
			low |= o != k && topo_kind_atom(t, o) &&
			       t->corekinds[o].efficiency > kd->efficiency;
		if (!strcmp(kd->core_type, "IntelCore"))
			snprintf(kd->name, sizeof(kd->name), "P");
		else if (!strcmp(kd->core_type, "IntelLowPower"))
			snprintf(kd->name, sizeof(kd->name), "LP-E");
		else if (topo_kind_atom(t, k))
			snprintf(kd->name, sizeof(kd->name), "%s", atoms > 1 && low ? "LP-E" : "E");
		else
			snprintf(kd->name, sizeof(kd->name), "%s", k == best ? "P" : "E");
	}
}

/* The L2 above OS CPU CPU, or NULL. */
static hwloc_obj_t topo_kinds_l2(hwloc_topology_t h, int cpu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(h, (unsigned)cpu);

	return pu ? hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_L2CACHE, pu) : NULL;
}

/*
 * Each kind's modules: the cores that share an L2 (Intel's E-cores, four to
 * a 2 MiB L2 on Alder Lake), each such core's module its L2's index.
 */
static void topo_kinds_modules(struct topo *t, hwloc_topology_t h)
{
	for (int c = 0; c < t->ncores; c++) {
		struct topo_core *co = &t->cores[c];
		hwloc_obj_t l2 = co->nthreads ? topo_kinds_l2(h, t->threads[co->thread_first].os_cpu)
					      : NULL;
		int share;

		if (co->corekind < 0 || !l2)
			continue;
		share = hwloc_get_nbobjs_inside_cpuset_by_type(h, l2->cpuset, HWLOC_OBJ_CORE);
		if (share > t->corekinds[co->corekind].module_cores) {
			t->corekinds[co->corekind].module_cores = share;
			t->corekinds[co->corekind].l2_bytes = l2->attr ? l2->attr->cache.size : 0;
		}
		if (share > 1)
			co->module = (int)l2->logical_index;
	}
}

void topo_kinds_read(struct topo *t, hwloc_topology_t h)
{
	int nr = hwloc_cpukinds_get_nr(h, 0);
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	t->ncorekinds = 0;
	if (nr < 2 || nr > TOPO_MAX_KINDS || !set) {
		hwloc_bitmap_free(set);
		return; /* uniform (or more kinds than pmutop draws: shown as one) */
	}
	/* the most performant first (P, E, LP-E): POS[hwloc's index] is the kind's place */
	int eff[TOPO_MAX_KINDS], pos[TOPO_MAX_KINDS];
	char type[TOPO_MAX_KINDS][sizeof(t->corekinds[0].core_type)];

	for (int k = 0; k < nr; k++) {
		eff[k] = -1;
		snprintf(type[k], sizeof(type[k]), "%s", topo_kinds_core_type(h, (unsigned)k, &eff[k]));
	}
	for (int k = 0; k < nr; k++) {
		pos[k] = 0;
		for (int o = 0; o < nr; o++)
			pos[k] += eff[o] > eff[k] || (eff[o] == eff[k] && o < k);
		t->corekinds[pos[k]].efficiency = eff[k];
		memcpy(t->corekinds[pos[k]].core_type, type[k], sizeof(type[k]));
	}
	t->ncorekinds = nr;
	topo_kinds_name(t);
	/* each core's kind: its first thread's (a core's threads are of one kind) */
	for (int c = 0; c < t->ncores; c++) {
		struct topo_core *co = &t->cores[c];
		int k;

		if (!co->nthreads)
			continue;
		hwloc_bitmap_only(set, (unsigned)t->threads[co->thread_first].os_cpu);
		k = hwloc_cpukinds_get_by_cpuset(h, set, 0);
		if (k < 0 || k >= nr)
			continue;
		co->corekind = pos[k];
		t->corekinds[pos[k]].ncores++;
		t->corekinds[pos[k]].nthreads += co->nthreads;
	}
	topo_kinds_modules(t, h);
	hwloc_bitmap_free(set);
}

bool topo_kind_atom(const struct topo *t, int k)
{
	return k >= 0 && k < t->ncorekinds && (!strcmp(t->corekinds[k].core_type, "IntelAtom") ||
					     !strcmp(t->corekinds[k].core_type, "IntelLowPower"));
}

/*
 * The kernel's core PMUs of a hybrid (arch/x86/events/intel/core.c's
 * intel_hybrid_pmu_type_map) and the CoreType hwloc gives their kind.
 */
static const struct {
	const char *pmu, *core_type;
	int efficiency;           /* the order where hwloc gives none: P above E above LP-E */
} topo_kind_pmus[] = {
	{ "cpu_core", "IntelCore", 2 }, { "cpu_atom", "IntelAtom", 1 },
	{ "cpu_lowpower", "IntelLowPower", 0 },
};
#define TOPO_KIND_PMUS ((int)(sizeof(topo_kind_pmus) / sizeof(topo_kind_pmus[0])))

/* Which of topo_kind_pmus counts OS CPU CPU (IN[p][cpu]), -1 none. */
static int topo_kinds_pmu_of(unsigned char (*in)[TOPO_KIND_MAX_CPU], int cpu)
{
	for (int p = 0; p < TOPO_KIND_PMUS && cpu >= 0 && cpu < TOPO_KIND_MAX_CPU; p++)
		if (in[p][cpu])
			return p;
	return -1;
}

void topo_kinds_from_pmus(struct topo *t, const char *root)
{
	unsigned char (*in)[TOPO_KIND_MAX_CPU] = calloc(TOPO_KIND_PMUS, TOPO_KIND_MAX_CPU);
	int found = 0, kind_of[TOPO_KIND_PMUS];
	bool named = false;

	if (!in)
		return;
	for (int p = 0; p < TOPO_KIND_PMUS; p++) {
		char rel[96], line[4096];
		int *cpus = NULL, n = 0;
		size_t col;

		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/cpus", topo_kind_pmus[p].pmu);
		if (rootfs_read_line(root, rel, line, sizeof(line)) || cpulist_parse(line, &cpus, &n, &col))
			continue;
		for (int i = 0; i < n; i++)
			if (cpus[i] >= 0 && cpus[i] < TOPO_KIND_MAX_CPU)
				in[p][cpus[i]] = 1;
		found += n > 0;
		free(cpus);
	}
	if (found < 2) {
		free(in); /* one kind, or no hybrid PMUs: hwloc's kinds stand */
		return;
	}
	if (!t->ncorekinds) {
		/* hwloc knows no kinds (before 2.4, or a tree without them): the PMUs' */
		for (int p = 0; p < TOPO_KIND_PMUS; p++) {
			kind_of[p] = -1;
			for (int c = 0; c < t->ncores && kind_of[p] < 0; c++)
				if (t->cores[c].nthreads &&
				    topo_kinds_pmu_of(in, t->threads[t->cores[c].thread_first].os_cpu) == p)
					kind_of[p] = t->ncorekinds++;
			if (kind_of[p] >= 0) {
				memset(&t->corekinds[kind_of[p]], 0, sizeof(t->corekinds[0]));
				t->corekinds[kind_of[p]].efficiency = -1;
			}
		}
		for (int c = 0; c < t->ncores; c++) {
			int p = t->cores[c].nthreads
				? topo_kinds_pmu_of(in, t->threads[t->cores[c].thread_first].os_cpu) : -1;

			t->cores[c].corekind = p >= 0 ? kind_of[p] : TOPO_NONE;
			if (p >= 0) {
				t->corekinds[kind_of[p]].ncores++;
				t->corekinds[kind_of[p]].nthreads += t->cores[c].nthreads;
			}
		}
	}
	/* a kind without hwloc's CoreType: the PMU that counts its cores names it */
	for (int k = 0; k < t->ncorekinds; k++) {
		struct topo_corekind *kd = &t->corekinds[k];
		int p = -2;

		for (int c = 0; c < t->ncores; c++) {
			int q;

			if (t->cores[c].corekind != k || !t->cores[c].nthreads)
				continue;
			q = topo_kinds_pmu_of(in, t->threads[t->cores[c].thread_first].os_cpu);
			p = p == -2 || p == q ? q : -1; /* the kind's cores under two PMUs: none */
		}
		if (kd->core_type[0] || p < 0)
			continue;
		snprintf(kd->core_type, sizeof(kd->core_type), "%s", topo_kind_pmus[p].core_type);
		if (kd->efficiency < 0)
			kd->efficiency = topo_kind_pmus[p].efficiency;
		kd->from_pmu = true;
		named = true;
	}
	if (named)
		topo_kinds_name(t);
	free(in);
}

bool topo_has_atom(const struct topo *t)
{
	for (int k = 0; k < t->ncorekinds; k++)
		if (topo_kind_atom(t, k))
			return true;
	return false;
}
