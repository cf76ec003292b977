/*
 * cpumodel: the CPU table; see cpumodel.h.  Its rows are data/models.csv
 * (models from the SDM Vol. 4 Table 2-1 and AMD's PPRs); here the platforms:
 * uncore and channels from seed 000 (Nehalem-EP: three DDR3
 * channels per socket, uncore PMU in MSRs 391H-3C7H) and seed 001 (Skylake
 * client: two channels, CBo/ARB MSRs, IMC counters in MMIO); offcore response
 * registers from seed 002 (1A6H, and 1A7H from Westmere on).  AMD's Zen
 * generations by family and model as AMD's Processor Programming References
 * (PPR) for family 17h, 19h and 1Ah name the parts; their events and metrics
 * come from data/amd (tools/amd-convert), whose models.csv also maps the
 * models this table does not name.
 */
#include "cpumodel.h"
#include "layout.h"
#include "modelmap.h"

#include <stddef.h>
#include <stdio.h>

/* Nehalem-EX and Westmere-EX carry a different uncore (boxes behind other MSRs). */
#define CPUMODEL_EX_UNCORE "the Xeon 7500/E7 (-EX) uncore is not the -EP one pmutop programs"

const struct cpumodel_uncore_kind cpumodel_uncore_kinds[] = {
	[CPUMODEL_UNCORE_NONE] = { .name = "none" },
	[CPUMODEL_UNCORE_NHM] = { .name = "Nehalem/Westmere uncore", .pmus = 1u << LAYOUT_PMU_UNCORE },
	[CPUMODEL_UNCORE_SKL] = { .name = "Skylake client uncore",
				  .pmus = 1u << LAYOUT_PMU_CBO | 1u << LAYOUT_PMU_ARB | 1u << LAYOUT_PMU_IMC },
	[CPUMODEL_UNCORE_KERNEL] = { .name = "the kernel's uncore PMUs",
				     .pmus = 1u << LAYOUT_PMU_CHA | 1u << LAYOUT_PMU_MC |
					     1u << LAYOUT_PMU_UPI | 1u << LAYOUT_PMU_POWER |
					     1u << LAYOUT_PMU_IMC_FREE | 1u << LAYOUT_PMU_AMD_L3 |
					     1u << LAYOUT_PMU_AMD_DF | 1u << LAYOUT_PMU_AMD_UMC |
					     1u << LAYOUT_PMU_CSTATE_CORE | 1u << LAYOUT_PMU_CSTATE_PKG },
	[CPUMODEL_UNCORE_RAPL] = { .name = "RAPL's energy MSRs", .pmus = 1u << LAYOUT_PMU_POWER },
};

bool cpumodel_uncore_free_running(enum cpumodel_uncore kind)
{
	for (int p = 0; p < LAYOUT_NPMUS; p++)
		if ((cpumodel_uncore_kinds[kind].pmus & (1u << p)) && layout_pmu_kinds[p].free_running &&
		    !layout_pmu_kinds[p].kernel_only)
			return true;
	return false;
}

/* The platforms by name, as data/models.csv's rows name them (upper case, "_" for the rest). */
enum {
	CPUMODEL_P_CORE_2, CPUMODEL_P_NEHALEM_EP, CPUMODEL_P_NEHALEM_EX, CPUMODEL_P_WESTMERE_EP,
	CPUMODEL_P_WESTMERE_EX, CPUMODEL_P_SKYLAKE_CLIENT, CPUMODEL_P_ZEN_2, CPUMODEL_P_ZEN_3,
	CPUMODEL_P_ZEN_4, CPUMODEL_P_ZEN_5,
};

/* What pmutop counts on AMD's Zen, by whether AMD publishes its pipeline-utilisation tree */
#define ZEN_TREE_COUNTS \
	"AMD's pipeline-utilisation tree (front end, bad speculation, back end, SMT contention, " \
	"retiring; level 2 below), L1D fills by source, L2, TLB and branch metrics, each memory " \
	"channel's bandwidth (amd_umc), the L3 of each CCX (amd_l3) and package power"
#define ZEN_EARLY_COUNTS \
	"IPC, dispatch and stall shares (AMD defines the pipeline tree from Zen 4 on), L2, TLB " \
	"and branch metrics, the L3 of each CCX (amd_l3), the data fabric (amd_df) and package power"
#define ZEN_EARLY_NO_TREE \
	"No pipeline-utilisation tree: AMD defines one from Zen 4 on. Key 1 counts dispatch and " \
	"stall shares here instead (threads pane), with IPC."

const struct cpumodel_platform cpumodel_platforms[] = {
	[CPUMODEL_P_CORE_2] = {
		.name = "Core 2", .uarch = CPUID_UARCH_CORE2, .layout = "core2",
		.uncore = CPUMODEL_UNCORE_NONE },
	[CPUMODEL_P_NEHALEM_EP] = {
		.name = "Nehalem-EP", .uarch = CPUID_UARCH_NEHALEM, .layout = "nehalem",
		.uncore = CPUMODEL_UNCORE_NHM, .channels = 3, .offcore = 1 },
	[CPUMODEL_P_NEHALEM_EX] = {
		.name = "Nehalem-EX", .uarch = CPUID_UARCH_NEHALEM, .layout = "nehalem",
		.uncore = CPUMODEL_UNCORE_NONE, .uncore_why = CPUMODEL_EX_UNCORE, .offcore = 1 },
	[CPUMODEL_P_WESTMERE_EP] = {
		.name = "Westmere-EP", .uarch = CPUID_UARCH_WESTMERE, .layout = "westmere",
		.uncore = CPUMODEL_UNCORE_NHM, .channels = 3, .offcore = 2 },
	[CPUMODEL_P_WESTMERE_EX] = {
		.name = "Westmere-EX", .uarch = CPUID_UARCH_WESTMERE, .layout = "westmere",
		.uncore = CPUMODEL_UNCORE_NONE, .uncore_why = CPUMODEL_EX_UNCORE, .offcore = 2 },
	[CPUMODEL_P_SKYLAKE_CLIENT] = {
		.name = "Skylake client", .uarch = CPUID_UARCH_SKYLAKE, .layout = "skylake",
		.uncore = CPUMODEL_UNCORE_SKL, .channels = 2, .offcore = 2 },
	/* AMD: counted through perf only; the kernel's uncore PMUs are whatever it describes */
	[CPUMODEL_P_ZEN_2] = {
		.name = "Zen 2", .uarch = CPUID_UARCH_ZEN2, .counts = ZEN_EARLY_COUNTS,
		.sim = "vermeer", .no_tree = ZEN_EARLY_NO_TREE },
	[CPUMODEL_P_ZEN_3] = {
		.name = "Zen 3", .uarch = CPUID_UARCH_ZEN3, .counts = ZEN_EARLY_COUNTS,
		.sim = "vermeer", .no_tree = ZEN_EARLY_NO_TREE },
	[CPUMODEL_P_ZEN_4] = {
		.name = "Zen 4", .uarch = CPUID_UARCH_ZEN4, .counts = ZEN_TREE_COUNTS, .sim = "genoa" },
	[CPUMODEL_P_ZEN_5] = {
		.name = "Zen 5", .uarch = CPUID_UARCH_ZEN5, .counts = ZEN_TREE_COUNTS, .sim = "genoa" },
};

const int cpumodel_platform_count =
	(int)(sizeof(cpumodel_platforms) / sizeof(cpumodel_platforms[0]));

/* data/models.csv, in its order (tools/models-gen) */
const struct cpumodel cpumodels[] = {
#include "cpumodels.inc"
};

const int cpumodel_count = (int)(sizeof(cpumodels) / sizeof(cpumodels[0]));

/* The first row that matches: the most specific rows (a stepping, a core type) come first. */
static const struct cpumodel *cpumodel_match(enum cpuid_vendor vendor, unsigned family,
					     unsigned model, int stepping, unsigned core_type)
{
	const char *v = cpuid_vendor_string(vendor);

	for (int i = 0; *v && i < cpumodel_count; i++)
		if (modelmap_match(cpumodels[i].match, v, family, model, stepping) &&
		    modelmap_core_type(cpumodels[i].core_type, core_type))
			return &cpumodels[i];
	return NULL;
}

const struct cpumodel *cpumodel_of(const struct cpuid_info *info)
{
	return cpumodel_match(info->vendor_id, info->family, info->model, (int)info->stepping,
			      info->core_type);
}

enum cpuid_uarch cpumodel_uarch_of(const struct cpuid_info *info)
{
	const struct cpumodel *m = cpumodel_of(info);

	if (m)
		return m->p->uarch;
	return info->vendor_id == CPUID_VENDOR_INTEL && info->perfmon_version > 0
	       ? CPUID_UARCH_ARCH : CPUID_UARCH_UNKNOWN;
}

void cpumodel_classify(struct cpuid_info *info)
{
	info->uarch = cpumodel_uarch_of(info);
	info->uarch_name = cpuid_uarch_name(info->uarch);
}

const struct cpumodel *cpumodel_find(enum cpuid_vendor vendor, unsigned family, unsigned model)
{
	return cpumodel_match(vendor, family, model, -1, 0);
}

void cpumodel_vendor_span(enum cpuid_vendor vendor, char *buf, size_t len)
{
	const struct cpumodel_platform *first = NULL, *last = NULL;
	unsigned fams[16];
	int nf = 0;
	size_t at;

	/* the platforms in the table's order (oldest first), the families as the rows meet them */
	for (int p = 0; p < cpumodel_platform_count; p++)
		for (int i = 0; i < cpumodel_count; i++)
			if (cpumodels[i].vendor == vendor && cpumodels[i].p == &cpumodel_platforms[p]) {
				if (!first)
					first = cpumodels[i].p;
				last = cpumodels[i].p;
				break;
			}
	for (int i = 0; i < cpumodel_count; i++) {
		int f = 0;

		while (f < nf && fams[f] != cpumodels[i].family)
			f++;
		if (cpumodels[i].vendor == vendor && f == nf && nf < 16)
			fams[nf++] = cpumodels[i].family;
	}
	if (!first) {
		snprintf(buf, len, "none");
		return;
	}
	at = (size_t)snprintf(buf, len, first == last ? "%s" : "%s to %s", first->name, last->name);
	for (int f = 0; f < nf && at < len; f++)
		at += (size_t)snprintf(buf + at, len - at, vendor == CPUID_VENDOR_AMD ? "%s%Xh" : "%s%u",
				       f ? ", " : " (family ", fams[f]);
	if (nf && at < len)
		snprintf(buf + at, len - at, ")");
}

const char *cpumodel_vendor_first_tree(enum cpuid_vendor vendor)
{
	for (int p = 0; p < cpumodel_platform_count; p++)
		for (int i = 0; i < cpumodel_count; i++)
			if (cpumodels[i].vendor == vendor && cpumodels[i].p == &cpumodel_platforms[p]) {
				if (!cpumodel_platforms[p].no_tree)
					return cpumodel_platforms[p].name;
				break;
			}
	return NULL;
}
