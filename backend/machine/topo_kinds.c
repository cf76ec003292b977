/*
 * topo_kinds: a hybrid CPU's kinds of core; see topo_kinds.h.  hwloc ranks
 * the kinds by efficiency (a higher value: more intrinsic performance) and
 * names Intel's in the CoreType info: IntelCore (P-cores), IntelAtom
 * (E-cores; a second, less efficient IntelAtom kind are the low-power
 * E-cores of Meteor Lake and Arrow Lake's SoC tile).
 */
#include "topo_kinds.h"

#include <stdio.h>
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
	return k >= 0 && k < t->ncorekinds && !strcmp(t->corekinds[k].core_type, "IntelAtom");
}

bool topo_has_atom(const struct topo *t)
{
	for (int k = 0; k < t->ncorekinds; k++)
		if (topo_kind_atom(t, k))
			return true;
	return false;
}
