/*
 * msr_allow: the write allowlist as a table of register groups.
 * Addresses from pmu_regs.h; which models have which group from the SDM and
 * seeds 000/001/002 (see pmu_regs.h); a Skylake-or-later model it does not
 * name, from Intel's data (msr_allow_skl_on_by_data).  Main thread, at start-up.
 */
#include "msr_allow.h"
#include "cpumodel.h"
#include "paths.h"
#include "modelmap.h"
#include "perfmon.h"
#include "perfmon_plan.h"
#include "pmu_regs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define UA(u) (1u << (u))
/* Write masks computed from the CPU's counters (msr_allow_mask) [SDM 20.2]. */
#define MASK_FIXED_CTRL  1ull
#define MASK_GLOBAL_CTRL 2ull
/* a general-purpose select's writable bits: 31:0, and EQ from version 6 (pmu_regs.h) */
#define MASK_EVTSEL      3ull
/* the offcore response matrix of a core of Intel's data: pmu_offcore_mask */
#define MASK_OFFCORE     4ull
#define UA_ARCH_ALL (UA(CPUID_UARCH_ARCH) | UA(CPUID_UARCH_CORE2) | UA(CPUID_UARCH_NEHALEM) | \
		     UA(CPUID_UARCH_WESTMERE) | UA(CPUID_UARCH_SKYLAKE))
#define UA_NHM_WSM (UA(CPUID_UARCH_NEHALEM) | UA(CPUID_UARCH_WESTMERE))

enum msr_allow_count {
	ALLOW_ONE,      /* one register */
	ALLOW_PER_GP,   /* one per general-purpose counter (CPUID.0AH) */
	ALLOW_PER_FIXED,/* one per fixed counter */
	ALLOW_FIXED_N,  /* COUNT registers */
	ALLOW_PER_CBO,  /* per Skylake CBo slice: COUNT registers at BASE + STRIDE * slice */
	ALLOW_PER_OFFCORE, /* one per offcore response register of the model (cpumodel) */
	ALLOW_WITH_SLOTS, /* one, where the CPU has fixed counter 3 (TOPDOWN.SLOTS) */
	ALLOW_SKL_ON,   /* COUNT registers on a Skylake-or-later core (msr_allow_skl_on) */
};

/*
 * The Intel cores from Skylake on that have no row in the CPU table (their
 * layout is made from Intel's data): family 6 models as Intel's mapfile
 * names them (Skylake-SP/Cascade Lake, Ice Lake client and server, Tiger
 * Lake, Rocket Lake, Sapphire and Emerald Rapids, Granite Rapids; Comet
 * Lake's client parts; the hybrids Alder and Raptor Lake, Meteor Lake, Lunar
 * Lake, Arrow Lake, whose two kinds of core have these registers at the same
 * addresses).  They have the offcore response pair with Skylake's writable
 * bits (their data's values fit them) and MSR_PEBS_FRONTEND.
 */
static const unsigned msr_allow_skl_on_models[] = {
	0x55, 0x7D, 0x7E, 0x6A, 0x6C, 0x8C, 0x8D, 0xA7, 0x8F, 0xCF, 0xAD, 0xAE, 0xA5, 0xA6,
	0x97, 0x9A, 0xB7, 0xBA, 0xBF, 0xAA, 0xAC, 0xBD, 0xC5, 0xC6,
};

/*
 * A model the list does not name, of architectural perfmon 4 or later (the
 * version Skylake brought): which of these registers the events of Intel's
 * data for it (its map, paths_perfmon_dir; the layout made from them) go
 * through, by their MSRIndex: SKL_ON_OFFCORE for MSR_OFFCORE_RSP_0 and 1,
 * SKL_ON_FRONTEND for MSR_PEBS_FRONTEND; and into *OFFCORE_BITS the bits
 * their offcore values set, which the pair may then be written with beside
 * Skylake's (pmu_offcore_mask: a core newer than the kernel's tables that
 * pmutop names, like Lion Cove's wider matrix, is its data's word).  A
 * platform Intel publishes after the list was written is then its data
 * alone, no C; each register only where its layout uses it.  0 where the
 * data has no such model or cannot be read.
 */
#define SKL_ON_OFFCORE  1u
#define SKL_ON_FRONTEND 2u
static unsigned msr_allow_skl_on_by_data(const struct cpuid_info *info, uint64_t *offcore_bits)
{
	const char *dir = paths_perfmon_dir(NULL);
	char path[PATH_MAX], err[PATH_MAX + 400], buf[64];
	struct perfmon *p;
	unsigned uses = 0;

	/* a hybrid part: the P-cores' data (core type 40H), as the layout is made */
	if (info->perfmon_version < 4 || !dir ||
	    modelmap_find(dir, "GenuineIntel", info->family, info->model, info->stepping,
			 info->hybrid ? 0x40 : info->core_type, path, err, sizeof(err)) ||
	    perfmon_load_platform(path, paths_atom_dir(NULL), &p, err, sizeof(err)))
		return 0;
	/* each event's extra register as the layout made from the data programs it */
	for (int i = 0; i < p->nevents; i++) {
		const char *v;

		switch (perfmon_plan_extra_kind(&p->events[i])) {
		case PERFMON_EXTRA_OFFCORE:
			uses |= SKL_ON_OFFCORE;
			/* "0x10003C0001", or one value per register of the pair */
			for (v = perfmon_plan_extra(&p->events[i], buf, sizeof(buf)); v && *v;
			     v += strcspn(v, ","), v += *v == ',')
				*offcore_bits |= strtoull(v, NULL, 16);
			break;
		case PERFMON_EXTRA_FRONTEND:
			uses |= SKL_ON_FRONTEND;
			break;
		default:
			break;
		}
	}
	perfmon_free(p);
	return uses;
}

/*
 * Which of the Skylake-and-later registers INFO's core has (SKL_ON_*), and
 * into *OFFCORE_BITS the offcore bits its data adds to its model's mask.
 */
static unsigned msr_allow_skl_on(const struct cpuid_info *info, uint64_t *offcore_bits)
{
	*offcore_bits = 0;
	if (info->vendor_id != CPUID_VENDOR_INTEL || info->family != 6)
		return 0;
	if (info->uarch == CPUID_UARCH_SKYLAKE)
		return SKL_ON_OFFCORE | SKL_ON_FRONTEND; /* the client (its pair is the table's group) */
	if (cpumodel_of(info))
		return 0;
	for (size_t i = 0; i < sizeof(msr_allow_skl_on_models) / sizeof(msr_allow_skl_on_models[0]); i++)
		if (info->model == msr_allow_skl_on_models[i])
			return SKL_ON_OFFCORE | SKL_ON_FRONTEND;
	return msr_allow_skl_on_by_data(info, offcore_bits);
}

static const struct msr_allow_group {
	const char *name;   /* SDM name, or its stem before the index */
	const char *suffix; /* per CBo: the part after the slice number, before the counter index */
	uint32_t base;
	uint32_t stride;
	enum msr_allow_count count_from;
	unsigned count;
	unsigned uarchs;
	unsigned min_version; /* architectural perfmon version needed */
	uint64_t write_mask;
	bool uncore;
	bool counter;
	/*
	 * A counter's control: the select at CONTROL + STRIDE x index (+ the
	 * counter index within a CBo), or the one shared CONTROL register of
	 * all counters of the group.  A counter is pmutop's to restore only
	 * while its control is.
	 */
	uint32_t control;
	bool control_shared;
} msr_allow_groups[] = {
	{ .name = "IA32_PMC", .base = IA32_PMC0, .stride = 1, .count_from = ALLOW_PER_GP,
	  .uarchs = UA_ARCH_ALL, .min_version = 1, .write_mask = ~0ull, .counter = true,
	  .control = IA32_PERFEVTSEL0 },
	{ .name = "IA32_PERFEVTSEL", .base = IA32_PERFEVTSEL0, .stride = 1,
	  .count_from = ALLOW_PER_GP, .uarchs = UA_ARCH_ALL, .min_version = 1,
	  .write_mask = MASK_EVTSEL },
	{ .name = "IA32_FIXED_CTR", .base = IA32_FIXED_CTR0, .stride = 1,
	  .count_from = ALLOW_PER_FIXED, .uarchs = UA_ARCH_ALL, .min_version = 2,
	  .write_mask = ~0ull, .counter = true, .control = IA32_FIXED_CTR_CTRL,
	  .control_shared = true },
	/* write masks: 4 bits per fixed counter; PMCs at 0, fixed counters at 32, PERF_METRICS at 48 */
	{ .name = "IA32_FIXED_CTR_CTRL", .base = IA32_FIXED_CTR_CTRL, .count_from = ALLOW_ONE,
	  .uarchs = UA_ARCH_ALL, .min_version = 2, .write_mask = MASK_FIXED_CTRL },
	{ .name = "IA32_PERF_GLOBAL_CTRL", .base = IA32_PERF_GLOBAL_CTRL, .count_from = ALLOW_ONE,
	  .uarchs = UA_ARCH_ALL, .min_version = 2, .write_mask = MASK_GLOBAL_CTRL },
	/* the Skylake-and-later cores of Intel's data: their offcore pair, MSR_PEBS_FRONTEND */
	{ .name = "MSR_OFFCORE_RSP_", .base = MSR_OFFCORE_RSP_0, .stride = 1,
	  .count_from = ALLOW_SKL_ON, .count = 2, .uarchs = UA(CPUID_UARCH_ARCH), .min_version = 1,
	  .write_mask = MASK_OFFCORE },
	{ .name = "MSR_PEBS_FRONTEND", .base = MSR_PEBS_FRONTEND, .count_from = ALLOW_SKL_ON,
	  .count = 1, .uarchs = UA(CPUID_UARCH_ARCH) | UA(CPUID_UARCH_SKYLAKE), .min_version = 1,
	  .write_mask = PEBS_FRONTEND_MASK },
	/* cleared with fixed counter 3 at each read, its value put back at exit */
	{ .name = "MSR_PERF_METRICS", .base = MSR_PERF_METRICS, .count_from = ALLOW_WITH_SLOTS,
	  .uarchs = UA_ARCH_ALL, .min_version = 5, .write_mask = ~0ull, .counter = true,
	  .control = IA32_FIXED_CTR_CTRL, .control_shared = true },
	{ .name = "IA32_PERF_GLOBAL_OVF_CTRL", .base = IA32_PERF_GLOBAL_OVF_CTRL,
	  .count_from = ALLOW_ONE, .uarchs = UA_ARCH_ALL, .min_version = 2,
	  .write_mask = 0xC0000007000000FFull },
	/* Nehalem/Westmere: a 16-bit matrix, request type 7:0, response 15:8 [seed 000] */
	{ .name = "MSR_OFFCORE_RSP_", .base = MSR_OFFCORE_RSP_0, .stride = 1,
	  .count_from = ALLOW_PER_OFFCORE, .uarchs = UA_NHM_WSM, .min_version = 1,
	  .write_mask = OFFCORE_RSP_NHM_MASK },
	{ .name = "MSR_OFFCORE_RSP_", .base = MSR_OFFCORE_RSP_0, .stride = 1,
	  .count_from = ALLOW_PER_OFFCORE, .uarchs = UA(CPUID_UARCH_SKYLAKE), .min_version = 1,
	  .write_mask = OFFCORE_RSP_SKL_MASK },
	/* Nehalem / Westmere uncore, per socket */
	{ .name = "MSR_UNCORE_PERF_GLOBAL_CTRL", .base = MSR_UNCORE_PERF_GLOBAL_CTRL,
	  .count_from = ALLOW_ONE, .uarchs = UA_NHM_WSM, .write_mask = ~0ull, .uncore = true },
	{ .name = "MSR_UNCORE_PERF_GLOBAL_OVF_CTRL", .base = MSR_UNCORE_PERF_GLOBAL_OVF_CTRL,
	  .count_from = ALLOW_ONE, .uarchs = UA_NHM_WSM, .write_mask = ~0ull, .uncore = true },
	{ .name = "MSR_UNCORE_FIXED_CTR0", .base = MSR_UNCORE_FIXED_CTR0, .count_from = ALLOW_ONE,
	  .uarchs = UA_NHM_WSM, .write_mask = ~0ull, .uncore = true, .counter = true,
	  .control = MSR_UNCORE_FIXED_CTR_CTRL, .control_shared = true },
	{ .name = "MSR_UNCORE_FIXED_CTR_CTRL", .base = MSR_UNCORE_FIXED_CTR_CTRL,
	  .count_from = ALLOW_ONE, .uarchs = UA_NHM_WSM, .write_mask = 0x5ull, .uncore = true },
	{ .name = "MSR_UNCORE_PMC", .base = MSR_UNCORE_PMC0, .stride = 1,
	  .count_from = ALLOW_FIXED_N, .count = NHM_UNC_COUNTERS, .uarchs = UA_NHM_WSM,
	  .write_mask = ~0ull, .uncore = true, .counter = true, .control = MSR_UNCORE_PERFEVTSEL0 },
	{ .name = "MSR_UNCORE_PERFEVTSEL", .base = MSR_UNCORE_PERFEVTSEL0, .stride = 1,
	  .count_from = ALLOW_FIXED_N, .count = NHM_UNC_COUNTERS, .uarchs = UA_NHM_WSM,
	  .write_mask = 0xFFFFFFFFull, .uncore = true },
	/* Skylake client uncore, per socket [S1 Table 2-1] */
	{ .name = "MSR_UNC_PERF_GLOBAL_CTRL", .base = MSR_UNC_PERF_GLOBAL_CTRL,
	  .count_from = ALLOW_ONE, .uarchs = UA(CPUID_UARCH_SKYLAKE), .write_mask = 0xE000000Full,
	  .uncore = true },
	{ .name = "MSR_UNC_PERF_GLOBAL_STATUS", .base = MSR_UNC_PERF_GLOBAL_STATUS,
	  .count_from = ALLOW_ONE, .uarchs = UA(CPUID_UARCH_SKYLAKE), .write_mask = 0xBull,
	  .uncore = true },
	{ .name = "MSR_UNC_PERF_FIXED_CTRL", .base = MSR_UNC_PERF_FIXED_CTRL,
	  .count_from = ALLOW_ONE, .uarchs = UA(CPUID_UARCH_SKYLAKE), .write_mask = 0x500000ull,
	  .uncore = true },
	{ .name = "MSR_UNC_PERF_FIXED_CTR", .base = MSR_UNC_PERF_FIXED_CTR, .count_from = ALLOW_ONE,
	  .uarchs = UA(CPUID_UARCH_SKYLAKE), .write_mask = ~0ull, .uncore = true, .counter = true,
	  .control = MSR_UNC_PERF_FIXED_CTRL, .control_shared = true },
	{ .name = "MSR_UNC_ARB_PERFCTR", .base = MSR_UNC_ARB_PERFCTR0, .stride = 1,
	  .count_from = ALLOW_FIXED_N, .count = 2, .uarchs = UA(CPUID_UARCH_SKYLAKE),
	  .write_mask = ~0ull, .uncore = true, .counter = true, .control = MSR_UNC_ARB_PERFEVTSEL0 },
	{ .name = "MSR_UNC_ARB_PERFEVTSEL", .base = MSR_UNC_ARB_PERFEVTSEL0, .stride = 1,
	  .count_from = ALLOW_FIXED_N, .count = 2, .uarchs = UA(CPUID_UARCH_SKYLAKE),
	  .write_mask = 0x1FD4FFFFull, .uncore = true },
	{ .name = "MSR_UNC_CBO_", .suffix = "_PERFEVTSEL", .base = MSR_UNC_CBO_0_PERFEVTSEL0,
	  .stride = SKL_UNC_CBO_STRIDE, .count_from = ALLOW_PER_CBO, .count = 2,
	  .uarchs = UA(CPUID_UARCH_SKYLAKE), .write_mask = 0x1FD4FFFFull, .uncore = true },
	{ .name = "MSR_UNC_CBO_", .suffix = "_PERFCTR", .base = MSR_UNC_CBO_0_PERFCTR0,
	  .stride = SKL_UNC_CBO_STRIDE, .count_from = ALLOW_PER_CBO, .count = 2,
	  .uarchs = UA(CPUID_UARCH_SKYLAKE), .write_mask = ~0ull, .uncore = true, .counter = true,
	  .control = MSR_UNC_CBO_0_PERFEVTSEL0 },
};

/*
 * The writable bits of a control (MASK_*) on INFO's CPU: enable, AnyThread
 * and PMI nibbles of its fixed counters; the global enables of its PMCs,
 * its fixed counters and, with fixed counter 3, PERF_METRICS.
 */
static uint64_t msr_allow_mask(const struct cpuid_info *info, uint64_t which)
{
	unsigned gp = info->gp_counters < PMU_MAX_GP ? info->gp_counters : PMU_MAX_GP;
	unsigned fixed = info->fixed_counters < PMU_MAX_FIXED ? info->fixed_counters : PMU_MAX_FIXED;

	if (fixed < 3)
		fixed = 3; /* version 2 and later name three [SDM] */
	if (which == MASK_OFFCORE)
		return pmu_offcore_mask(info->family, info->model);
	if (which == MASK_EVTSEL)
		return 0xFFFFFFFFull | (info->evtsel_eq ? EVTSEL_EQ : 0) |
		       (info->evtsel_umask2 ? EVTSEL_UMASK2_MASK : 0);
	if (which == MASK_FIXED_CTRL)
		return (1ull << (4 * fixed)) - 1;
	return ((1ull << gp) - 1) | (((1ull << fixed) - 1) << 32) |
	       (fixed >= 4 ? GLOBAL_PERF_METRICS : 0);
}

static void msr_allow_add(struct msr_allowlist *l, const struct msr_allow_group *g, uint32_t reg,
			  unsigned index, unsigned sub, const struct cpuid_info *info)
{
	struct msr_allow_entry *e;

	if (l->n >= MSR_ALLOW_MAX)
		return;
	e = &l->e[l->n++];
	e->reg = reg;
	e->write_mask = g->write_mask == MASK_FIXED_CTRL || g->write_mask == MASK_GLOBAL_CTRL ||
			g->write_mask == MASK_EVTSEL || g->write_mask == MASK_OFFCORE
			? msr_allow_mask(info, g->write_mask) : g->write_mask;
	e->uncore = g->uncore;
	e->counter = g->counter;
	if (g->control)
		e->control = g->control_shared ? g->control : g->control + g->stride * index + sub;
	if (g->count_from == ALLOW_PER_CBO)
		snprintf(e->name, sizeof(e->name), "%s%u%s%u", g->name, index, g->suffix, sub);
	else if (g->count_from == ALLOW_ONE || (g->count_from == ALLOW_SKL_ON && g->count == 1))
		snprintf(e->name, sizeof(e->name), "%s", g->name);
	else
		snprintf(e->name, sizeof(e->name), "%s%u", g->name, index);
}

void msr_allow_build(const struct cpuid_info *info, int ncbo, struct msr_allowlist *out)
{
	const struct cpumodel *model = cpumodel_of(info);
	uint64_t offcore_bits;
	unsigned skl_on = msr_allow_skl_on(info, &offcore_bits);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(msr_allow_groups) / sizeof(msr_allow_groups[0]); i++) {
		const struct msr_allow_group *g = &msr_allow_groups[i];
		unsigned n = 1;

		if (!(g->uarchs & UA(info->uarch)) || info->perfmon_version < g->min_version)
			continue;
		switch (g->count_from) {
		case ALLOW_ONE:
			n = 1;
			break;
		case ALLOW_PER_GP:
			n = info->gp_counters < PMU_MAX_GP ? info->gp_counters : PMU_MAX_GP;
			break;
		case ALLOW_PER_FIXED:
			n = info->fixed_counters < PMU_MAX_FIXED ? info->fixed_counters : PMU_MAX_FIXED;
			break;
		case ALLOW_FIXED_N:
			n = g->count;
			break;
		case ALLOW_PER_OFFCORE:
			n = model ? (unsigned)model->p->offcore : 0;
			break;
		case ALLOW_WITH_SLOTS:
			n = info->fixed_counters >= 4;
			break;
		case ALLOW_SKL_ON:
			/* each group's uarchs keep the pair to the CPUs without a row in the table */
			n = skl_on & (g->base == MSR_PEBS_FRONTEND ? SKL_ON_FRONTEND : SKL_ON_OFFCORE)
			    ? g->count : 0;
			break;
		case ALLOW_PER_CBO:
			for (int s = 0; s < ncbo && s < SKL_UNC_MAX_CBO; s++)
				for (unsigned k = 0; k < g->count; k++)
					msr_allow_add(out, g, g->base + g->stride * (unsigned)s + k,
						      (unsigned)s, k, info);
			continue;
		}
		for (unsigned k = 0; k < n; k++)
			msr_allow_add(out, g, g->base + g->stride * k, k, 0, info);
	}
	/* the offcore bits a newer core's data sets, beside its model's mask */
	for (int i = 0; i < out->n; i++)
		if (out->e[i].reg == MSR_OFFCORE_RSP_0 || out->e[i].reg == MSR_OFFCORE_RSP_1)
			out->e[i].write_mask |= offcore_bits;
}

const struct msr_allow_entry *msr_allow_find(const struct msr_allowlist *l, uint32_t reg)
{
	for (int i = 0; i < l->n; i++)
		if (l->e[i].reg == reg)
			return &l->e[i];
	return NULL;
}

const char *msr_allow_name(const struct msr_allowlist *l, uint32_t reg, char *buf, size_t len)
{
	const struct msr_allow_entry *e = l ? msr_allow_find(l, reg) : NULL;

	if (e)
		snprintf(buf, len, "0x%X (%s)", reg, e->name);
	else if (reg == IA32_MISC_ENABLE)
		snprintf(buf, len, "0x%X (IA32_MISC_ENABLE)", reg);
	else if (reg == IA32_PERF_GLOBAL_STATUS)
		snprintf(buf, len, "0x%X (IA32_PERF_GLOBAL_STATUS)", reg);
	else
		snprintf(buf, len, "0x%X", reg);
	return buf;
}

void msr_allow_print_msr_safe(const struct msr_allowlist *l, FILE *out)
{
	fprintf(out, "# msr-safe allowlist for pmutop: address, write mask, name\n");
	/* read, never written: the interval's clock and the overflow status */
	fprintf(out, "0x%08X 0x0000000000000000 # IA32_TIME_STAMP_COUNTER (read)\n",
		IA32_TIME_STAMP_COUNTER);
	fprintf(out, "0x%08X 0x0000000000000000 # IA32_PERF_GLOBAL_STATUS (read)\n",
		IA32_PERF_GLOBAL_STATUS);
	if (msr_allow_find(l, MSR_PERF_METRICS))
		fprintf(out, "0x%08X 0x0000000000000000 # IA32_PERF_CAPABILITIES (read)\n",
			IA32_PERF_CAPABILITIES);
	/* RAPL's energy, read where the uncore is the kernel's (pmu power through msr) */
	fprintf(out, "0x%08X 0x0000000000000000 # MSR_RAPL_POWER_UNIT (read)\n"
		"0x%08X 0x0000000000000000 # MSR_PKG_ENERGY_STATUS (read)\n"
		"0x%08X 0x0000000000000000 # MSR_DRAM_ENERGY_STATUS (read)\n"
		"0x%08X 0x0000000000000000 # MSR_PP0_ENERGY_STATUS (read)\n"
		"0x%08X 0x0000000000000000 # MSR_PLATFORM_ENERGY_STATUS (read)\n", MSR_RAPL_POWER_UNIT,
		MSR_PKG_ENERGY_STATUS, MSR_DRAM_ENERGY_STATUS, MSR_PP0_ENERGY_STATUS,
		MSR_PLATFORM_ENERGY_STATUS);
	for (int i = 0; i < l->n; i++)
		fprintf(out, "0x%08X 0x%016llX # %s\n", l->e[i].reg,
			(unsigned long long)l->e[i].write_mask, l->e[i].name);
}
