/*
 * perfmon_layout_reads: the groups of other keys a key's wide metrics read
 * (Intel's Bottleneck metrics read the tree's events: a layout's 128 groups
 * would not hold them twice); see perfmon_layout_int.h.
 */
#include "perfmon_layout_int.h"
#include "layout_build.h"
#include "xmalloc.h"

#include <stdlib.h>
#include <string.h>

/*
 * The groups of the keys before K (their ordinals in the layout's groups):
 * per event variable, the first that counts it, else -1 (FOREIGN).  A wide
 * metric of key K reads its events there rather than in passes of its own
 * (Intel's Bottleneck metrics read the tree's events: the 128 groups a layout
 * holds would not hold them twice).
 */
void perfmon_layout_foreign(const struct pl_gen *g, int k, int *foreign)
{
	for (int v = 0; v < g->p->nevents; v++)
		foreign[v] = -1;
	for (int j = 1; j < k; j++) {
		const struct perfmon_plan *pl = g->keys[j].plan;

		for (int s = 0; g->keys[j].first_group >= 0 && s < pl->npasses; s++)
			for (int e = 0; e < pl->passes[s].ngp; e++)
				if (foreign[pl->passes[s].gp[e]] < 0)
					foreign[pl->passes[s].gp[e]] = g->keys[j].first_group + s;
	}
}

void perfmon_layout_group_name(const struct pl_gen *g, int k, int s, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", g->coretype == LAYOUT_CORES_E ? "E_" : "",
		 perfmon_key_name(&g->keyset, k));
	if (s)
		snprintf(buf + strlen(buf), len - strlen(buf), ".%d", s + 1);
}

/* The layout's name of group ordinal ORD (perfmon_layout_foreign) into BUF. */
static void pl_group_name(const struct pl_gen *g, int ord, char *buf, size_t len)
{
	for (int j = 1; j <= PL_KEYS; j++) {
		int s = ord - g->keys[j].first_group;

		if (g->keys[j].first_group >= 0 && s >= 0 && s < g->keys[j].plan->npasses) {
			perfmon_layout_group_name(g, j, s, buf, len);
			return;
		}
	}
	snprintf(buf, len, "?");
}

/* The groups of other keys whose events the wide metrics of plan PL read ("reads"). */
void perfmon_layout_reads_line(struct pl_gen *g, const struct perfmon_plan *pl)
{
	layout_groups reads = 0;
	char (*names)[64] = xcalloc(LAYOUT_MAX_GROUPS, sizeof(*names));
	const char *list[LAYOUT_MAX_GROUPS];
	int n = 0;

	for (int i = 0; i < pl->nmetrics; i++)
		if (g->pm[pl->metrics[i]].state == PL_SPLIT)
			reads |= pl->reads[i];
	for (; reads && n < LAYOUT_MAX_GROUPS; reads &= reads - 1, n++) {
		pl_group_name(g, layout_groups_first(reads), names[n], sizeof(names[n]));
		list[n] = names[n];
	}
	if (n)
		layout_build_reads(g->b, list, n);
	free(names);
}
