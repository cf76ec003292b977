/*
 * perfmon_keys: the keys of a layout made from the vendor's data; see
 * perfmon_keys.h.
 */
#include "perfmon_keys.h"

#include <string.h>

static const char *const pk_titles[PERFMON_KEYS + 1] = {
	[1] = "Top-down level 1 (the vendor's TMA tree)",
	[2] = "Top-down level 2", [3] = "Top-down level 3", [4] = "Top-down level 4",
	[5] = "Top-down level 5", [6] = "Top-down level 6",
	[7] = "Top-down info metrics (TMA Info)",
	[8] = "The vendor's other metrics",
};

static const char *const pk_names[PERFMON_KEYS + 1] = {
	[1] = "TmaL1", [2] = "TmaL2", [3] = "TmaL3", [4] = "TmaL4", [5] = "TmaL5", [6] = "TmaL6",
	[7] = "TmaInfo", [8] = "Vendor",
};

/*
 * AMD's (the kernel's perf tool's data): the pipeline-utilisation tree of
 * Zen 4 and Zen 5 (its MetricGroups PipelineL1, PipelineL2), the cache and
 * TLB metrics (l1_dcache, l2_cache, tlb), the rest.
 */
static const char *const pk_amd_titles[PERFMON_KEYS + 1] = {
	[1] = "Pipeline utilisation level 1 (AMD's tree)", [2] = "Pipeline utilisation level 2",
	[3] = "Pipeline utilisation level 3", [4] = "Pipeline utilisation level 4",
	[5] = "Pipeline utilisation level 5", [6] = "Pipeline utilisation level 6",
	[7] = "Caches and TLBs: where the data came from (AMD's metrics)",
	[8] = "The vendor's other metrics (branches, decoder, op cache)",
};

static const char *const pk_amd_names[PERFMON_KEYS + 1] = {
	[1] = "PipelineL1", [2] = "PipelineL2", [3] = "PipelineL3", [4] = "PipelineL4",
	[5] = "PipelineL5", [6] = "PipelineL6", [7] = "Caches", [8] = "Vendor",
};

static bool pk_category(const struct perfmon_metric *m, const char *name)
{
	return m->category && !strcmp(m->category, name);
}

struct perfmon_keyset perfmon_keyset_of(const struct perfmon *p)
{
	struct perfmon_keyset ks = { .amd = !strcmp(p->vendor, "AuthenticAMD") };

	for (int m = 0; m < p->nmetrics && ks.amd; m++)
		ks.amd_tree |= pk_category(&p->metrics[m], "Pipeline");
	return ks;
}

int perfmon_key_of(const struct perfmon_keyset *ks, const struct perfmon_metric *m)
{
	if (perfmon_in_tree(m))
		return m->level < 1 ? 1 : m->level > PERFMON_TREE_KEYS ? PERFMON_TREE_KEYS : m->level;
	if (ks->amd)
		return pk_category(m, "Dispatch") ? 1
		       : pk_category(m, "l1_dcache") || pk_category(m, "l2_cache") ||
			 pk_category(m, "tlb") ? 7 : 8;
	return pk_category(m, "TMA") ? 7 : 8;
}

const char *perfmon_key_name(const struct perfmon_keyset *ks, int k)
{
	if (ks->amd && k == 1 && !ks->amd_tree)
		return "Dispatch";
	return ks->amd ? pk_amd_names[k] : pk_names[k];
}

const char *perfmon_key_title(const struct perfmon_keyset *ks, int k)
{
	if (ks->amd && k == 1 && !ks->amd_tree)
		return "Dispatch, stalls and ops retired (pmutop's, over AMD's documented events: "
		       "no pipeline-utilisation tree before Zen 4)";
	return ks->amd ? pk_amd_titles[k] : pk_titles[k];
}
