/*
 * cpumodel: the CPU table; see cpumodel.h.  Models from the SDM Vol. 4
 * Table 2-1; uncore and channels from seed 000 (Nehalem-EP: three DDR3
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

enum {
	CPUMODEL_CORE2, CPUMODEL_NHM_EP, CPUMODEL_NHM_EX, CPUMODEL_WSM_EP, CPUMODEL_WSM_EX,
	CPUMODEL_SKL_CLIENT, CPUMODEL_ZEN2, CPUMODEL_ZEN3, CPUMODEL_ZEN4, CPUMODEL_ZEN5,
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
	[CPUMODEL_CORE2] = { .name = "Core 2", .uarch = CPUID_UARCH_CORE2, .layout = "core2",
			     .uncore = CPUMODEL_UNCORE_NONE },
	[CPUMODEL_NHM_EP] = { .name = "Nehalem-EP", .uarch = CPUID_UARCH_NEHALEM,
			      .layout = "nehalem", .uncore = CPUMODEL_UNCORE_NHM, .channels = 3,
			      .offcore = 1 },
	[CPUMODEL_NHM_EX] = { .name = "Nehalem-EX", .uarch = CPUID_UARCH_NEHALEM,
			      .layout = "nehalem", .uncore = CPUMODEL_UNCORE_NONE,
			      .uncore_why = CPUMODEL_EX_UNCORE, .offcore = 1 },
	[CPUMODEL_WSM_EP] = { .name = "Westmere-EP", .uarch = CPUID_UARCH_WESTMERE,
			      .layout = "westmere", .uncore = CPUMODEL_UNCORE_NHM, .channels = 3,
			      .offcore = 2 },
	[CPUMODEL_WSM_EX] = { .name = "Westmere-EX", .uarch = CPUID_UARCH_WESTMERE,
			      .layout = "westmere", .uncore = CPUMODEL_UNCORE_NONE,
			      .uncore_why = CPUMODEL_EX_UNCORE, .offcore = 2 },
	[CPUMODEL_SKL_CLIENT] = { .name = "Skylake client", .uarch = CPUID_UARCH_SKYLAKE,
				  .layout = "skylake", .uncore = CPUMODEL_UNCORE_SKL, .channels = 2,
				  .offcore = 2 },
	/* AMD: counted through perf only; the kernel's uncore PMUs are whatever it describes */
	[CPUMODEL_ZEN2] = { .name = "Zen 2", .uarch = CPUID_UARCH_ZEN2, .counts = ZEN_EARLY_COUNTS,
			    .sim = "vermeer", .no_tree = ZEN_EARLY_NO_TREE },
	[CPUMODEL_ZEN3] = { .name = "Zen 3", .uarch = CPUID_UARCH_ZEN3, .counts = ZEN_EARLY_COUNTS,
			    .sim = "vermeer", .no_tree = ZEN_EARLY_NO_TREE },
	[CPUMODEL_ZEN4] = { .name = "Zen 4", .uarch = CPUID_UARCH_ZEN4, .counts = ZEN_TREE_COUNTS,
			    .sim = "genoa" },
	[CPUMODEL_ZEN5] = { .name = "Zen 5", .uarch = CPUID_UARCH_ZEN5, .counts = ZEN_TREE_COUNTS,
			    .sim = "genoa" },
};

const int cpumodel_platform_count =
	(int)(sizeof(cpumodel_platforms) / sizeof(cpumodel_platforms[0]));

#define INTEL CPUID_VENDOR_INTEL
#define AMD CPUID_VENDOR_AMD
#define P(x) &cpumodel_platforms[CPUMODEL_##x]

/* vendor, family, model, steppings (0: all), core type (0: any), name, platform */
const struct cpumodel cpumodels[] = {
	{ INTEL, 6, 0x0F, 0, 0, "Core 2 (Merom)", P(CORE2) },
	{ INTEL, 6, 0x17, 0, 0, "Core 2 (Penryn)", P(CORE2) },
	{ INTEL, 6, 0x1D, 0, 0, "Xeon 7400 (Dunnington)", P(CORE2) },
	{ INTEL, 6, 0x1A, 0, 0, "Nehalem-EP, Core i7 9xx", P(NHM_EP) },
	{ INTEL, 6, 0x1E, 0, 0, "Lynnfield", P(NHM_EP) },
	{ INTEL, 6, 0x1F, 0, 0, "Havendale", P(NHM_EP) },
	{ INTEL, 6, 0x2E, 0, 0, "Nehalem-EX", P(NHM_EX) },
	{ INTEL, 6, 0x25, 0, 0, "Clarkdale, Arrandale", P(WSM_EP) },
	{ INTEL, 6, 0x2C, 0, 0, "Westmere-EP", P(WSM_EP) },
	{ INTEL, 6, 0x2F, 0, 0, "Westmere-EX", P(WSM_EX) },
	{ INTEL, 6, 0x4E, 0, 0, "Skylake mobile", P(SKL_CLIENT) },
	{ INTEL, 6, 0x5E, 0, 0, "Skylake desktop", P(SKL_CLIENT) },
	{ AMD, 0x17, 0x31, 0, 0, "EPYC 7002 (Rome), Threadripper 3000 (Castle Peak)", P(ZEN2) },
	{ AMD, 0x17, 0x60, 0, 0, "Ryzen 4000 mobile (Renoir)", P(ZEN2) },
	{ AMD, 0x17, 0x68, 0, 0, "Ryzen 5000 mobile (Lucienne)", P(ZEN2) },
	{ AMD, 0x17, 0x71, 0, 0, "Ryzen 3000 (Matisse)", P(ZEN2) },
	{ AMD, 0x17, 0x90, 0, 0, "Van Gogh (Steam Deck)", P(ZEN2) },
	{ AMD, 0x17, 0xA0, 0, 0, "Ryzen 7020 (Mendocino)", P(ZEN2) },
	{ AMD, 0x19, 0x01, 0, 0, "EPYC 7003 (Milan)", P(ZEN3) },
	{ AMD, 0x19, 0x08, 0, 0, "Threadripper PRO 5000 (Chagall)", P(ZEN3) },
	{ AMD, 0x19, 0x21, 0, 0, "Ryzen 5000 (Vermeer)", P(ZEN3) },
	{ AMD, 0x19, 0x44, 0, 0, "Ryzen 6000 mobile (Rembrandt)", P(ZEN3) },
	{ AMD, 0x19, 0x50, 0, 0, "Ryzen 5000 APU (Cezanne)", P(ZEN3) },
	{ AMD, 0x19, 0x11, 0, 0, "EPYC 9004 (Genoa)", P(ZEN4) },
	{ AMD, 0x19, 0x18, 0, 0, "Threadripper 7000 (Storm Peak)", P(ZEN4) },
	{ AMD, 0x19, 0x61, 0, 0, "Ryzen 7000 (Raphael)", P(ZEN4) },
	{ AMD, 0x19, 0x74, 0, 0, "Ryzen 7040 mobile (Phoenix)", P(ZEN4) },
	{ AMD, 0x19, 0x78, 0, 0, "Ryzen 8040 mobile (Phoenix 2)", P(ZEN4) },
	{ AMD, 0x19, 0xA0, 0, 0, "EPYC 97x4 (Bergamo), EPYC 8004 (Siena)", P(ZEN4) },
	{ AMD, 0x1A, 0x02, 0, 0, "EPYC 9005 (Turin)", P(ZEN5) },
	{ AMD, 0x1A, 0x11, 0, 0, "EPYC 9005 dense (Turin)", P(ZEN5) },
	{ AMD, 0x1A, 0x24, 0, 0, "Ryzen AI 300 (Strix Point)", P(ZEN5) },
	{ AMD, 0x1A, 0x44, 0, 0, "Ryzen 9000 (Granite Ridge)", P(ZEN5) },
	{ AMD, 0x1A, 0x70, 0, 0, "Ryzen AI Max (Strix Halo)", P(ZEN5) },
};

const int cpumodel_count = (int)(sizeof(cpumodels) / sizeof(cpumodels[0]));

/* The first row that matches: the most specific rows (a stepping, a core type) come first. */
static const struct cpumodel *cpumodel_match(enum cpuid_vendor vendor, unsigned family,
					     unsigned model, int stepping, unsigned core_type)
{
	for (int i = 0; i < cpumodel_count; i++) {
		const struct cpumodel *m = &cpumodels[i];

		if (m->vendor != vendor || m->family != family || m->model != model)
			continue;
		if (m->steppings && (stepping < 0 || !(m->steppings & (1u << stepping))))
			continue;
		if (m->core_type && m->core_type != core_type)
			continue;
		return m;
	}
	return NULL;
}

const struct cpumodel *cpumodel_of(const struct cpuid_info *info)
{
	return cpumodel_match(info->vendor_id, info->family, info->model, (int)info->stepping,
			      info->core_type);
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
