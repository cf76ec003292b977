/*
 * perfmon_keys: which key of a layout made from the vendor's data each
 * vendor metric goes to, and the keys' names and titles: Intel's top-down
 * levels, TMA Info and the rest; AMD's pipeline-utilisation levels (Zen 4
 * on) or pmutop's dispatch figures (Zen 2 and 3), the caches and TLBs, the
 * rest.  Pure functions.
 */
#ifndef PMUTOP_PERFMON_KEYS_H
#define PMUTOP_PERFMON_KEYS_H

#include <stdbool.h>

#include "perfmon.h"

#define PERFMON_KEYS 8
#define PERFMON_TREE_KEYS 6       /* keys 1-6: the tree's levels */

struct perfmon_keyset {
	bool amd;                 /* AMD's data (data/amd) */
	bool amd_tree;            /* ... with the pipeline-utilisation tree; else key 1 dispatch */
};

/* The key set of the vendor data P. */
struct perfmon_keyset perfmon_keyset_of(const struct perfmon *p);

/* The key (1 .. PERFMON_KEYS) of metric M. */
int perfmon_key_of(const struct perfmon_keyset *ks, const struct perfmon_metric *m);

/* Key K's group name ("TmaL1", "PipelineL1", "Dispatch") and title. */
const char *perfmon_key_name(const struct perfmon_keyset *ks, int k);
const char *perfmon_key_title(const struct perfmon_keyset *ks, int k);

#endif
