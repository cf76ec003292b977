/*
 * cpumodel: the CPU model table; see cpumodel.h.  Models from the SDM Vol. 4
 * Table 2-1; uncore and channels from seed 000 (Nehalem-EP: three DDR3
 * channels per socket, uncore PMU in MSRs 391H-3C7H) and seed 001 (Skylake
 * client: two channels, CBo/ARB MSRs, IMC counters in MMIO); offcore response
 * registers from seed 002 (1A6H, and 1A7H from Westmere on).
 */
#include "cpumodel.h"
#include "layout.h"

#include <stddef.h>

/* Nehalem-EX and Westmere-EX carry a different uncore (boxes behind other MSRs). */
#define CPUMODEL_EX_UNCORE "the Xeon 7500/E7 (-EX) uncore is not the -EP one pmutop programs"

const struct cpumodel_uncore_kind cpumodel_uncore_kinds[] = {
	[CPUMODEL_UNCORE_NONE] = { .name = "none" },
	[CPUMODEL_UNCORE_NHM] = { .name = "Nehalem/Westmere uncore", .pmus = 1u << LAYOUT_PMU_UNCORE },
	[CPUMODEL_UNCORE_SKL] = { .name = "Skylake client uncore",
				  .pmus = 1u << LAYOUT_PMU_CBO | 1u << LAYOUT_PMU_ARB | 1u << LAYOUT_PMU_IMC },
};

const struct cpumodel cpumodels[] = {
	{ .family = 6, .model = 0x0F, .name = "Core 2 (Merom)", .uarch = CPUID_UARCH_CORE2,
	  .layout = "core2" },
	{ .family = 6, .model = 0x17, .name = "Core 2 (Penryn)", .uarch = CPUID_UARCH_CORE2,
	  .layout = "core2" },
	{ .family = 6, .model = 0x1D, .name = "Xeon 7400 (Dunnington)", .uarch = CPUID_UARCH_CORE2,
	  .layout = "core2" },
	{ .family = 6, .model = 0x1A, .name = "Nehalem-EP, Core i7 9xx", .uarch = CPUID_UARCH_NEHALEM,
	  .uncore = CPUMODEL_UNCORE_NHM, .channels = 3, .offcore = 1, .layout = "nehalem" },
	{ .family = 6, .model = 0x1E, .name = "Lynnfield", .uarch = CPUID_UARCH_NEHALEM,
	  .uncore = CPUMODEL_UNCORE_NHM, .channels = 3, .offcore = 1, .layout = "nehalem" },
	{ .family = 6, .model = 0x1F, .name = "Havendale", .uarch = CPUID_UARCH_NEHALEM,
	  .uncore = CPUMODEL_UNCORE_NHM, .channels = 3, .offcore = 1, .layout = "nehalem" },
	{ .family = 6, .model = 0x2E, .name = "Nehalem-EX", .uarch = CPUID_UARCH_NEHALEM,
	  .uncore_why = CPUMODEL_EX_UNCORE, .offcore = 1, .layout = "nehalem" },
	{ .family = 6, .model = 0x25, .name = "Clarkdale, Arrandale", .uarch = CPUID_UARCH_WESTMERE,
	  .uncore = CPUMODEL_UNCORE_NHM, .channels = 3, .offcore = 2, .layout = "westmere" },
	{ .family = 6, .model = 0x2C, .name = "Westmere-EP", .uarch = CPUID_UARCH_WESTMERE,
	  .uncore = CPUMODEL_UNCORE_NHM, .channels = 3, .offcore = 2, .layout = "westmere" },
	{ .family = 6, .model = 0x2F, .name = "Westmere-EX", .uarch = CPUID_UARCH_WESTMERE,
	  .uncore_why = CPUMODEL_EX_UNCORE, .offcore = 2, .layout = "westmere" },
	{ .family = 6, .model = 0x4E, .name = "Skylake mobile", .uarch = CPUID_UARCH_SKYLAKE,
	  .uncore = CPUMODEL_UNCORE_SKL, .channels = 2, .offcore = 2, .layout = "skylake" },
	{ .family = 6, .model = 0x5E, .name = "Skylake desktop", .uarch = CPUID_UARCH_SKYLAKE,
	  .uncore = CPUMODEL_UNCORE_SKL, .channels = 2, .offcore = 2, .layout = "skylake" },
};

const int cpumodel_count = (int)(sizeof(cpumodels) / sizeof(cpumodels[0]));

const struct cpumodel *cpumodel_find(unsigned family, unsigned model)
{
	for (int i = 0; i < cpumodel_count; i++)
		if (cpumodels[i].family == family && cpumodels[i].model == model)
			return &cpumodels[i];
	return NULL;
}
