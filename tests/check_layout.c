/*
 * Tests for layout files: the shipped layouts parse, claim the right
 * models, program only encodings the documents give (expected values typed
 * in from seed 000 Table 1, seed 002, seed 003, seed 004 Table 19-1 and, for
 * Skylake's core events, SDM Vol. 3B Table 19-4), and every
 * event they program is one the emulated machine of their model knows.
 * Bad layouts: a table of inputs and the exact error line each gives.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr_source.h"
#include "check_main.h"
#include "counter.h"
#include "cpumodel.h"
#include "cpuid.h"
#include "emu.h"
#include "expr.h"
#include "engine.h"
#include "layout.h"
#include "paths.h"
#include "source_int.h"
#include "test_emu.h"

static struct layout *load(const char *name)
{
	struct layout *l;
	char err[512], path[512];

	snprintf(path, sizeof(path), "%s/%s.layout", LAYOUT_SRCDIR, name);
	ck_assert_msg(layout_load(path, &l, err, sizeof(err)) == 0, "%s", err);
	return l;
}

/* ---- encodings from the documents ---------------------------------------- */

struct enc {
	const char *layout, *event;
	unsigned code, umask, cmask, inv, edge, any;
	unsigned long long offcore;
};

static const struct enc encodings[] = {
	/* seed 000 Table 1 */
	/* the inv=0 twins of the stall events: UOPS_EXECUTED.PORT015_STALL_CYCLES etc. with inv 0 */
	{ "nehalem", "exec_active", 0xB1, 0x40, 1, 0, 0, 0, 0 },
	{ "nehalem", "issue_active", 0x0E, 0x01, 1, 0, 0, 0, 0 },
	{ "nehalem", "retire_active", 0xC2, 0x01, 1, 0, 0, 0, 0 },   /* UOPS_RETIRED.ACTIVE_CYCLES */
	{ "nehalem", "resource_stall", 0xA2, 0x01, 0, 0, 0, 0, 0 },  /* RESOURCE_STALLS.ANY */
	{ "nehalem", "load_stall", 0xA2, 0x02, 0, 0, 0, 0, 0 },
	{ "nehalem", "rs_full_stall", 0xA2, 0x04, 0, 0, 0, 0, 0 },
	{ "nehalem", "store_stall", 0xA2, 0x08, 0, 0, 0, 0, 0 },
	{ "nehalem", "rob_full_stall", 0xA2, 0x10, 0, 0, 0, 0, 0 },
	{ "nehalem", "uops_issued", 0x0E, 0x01, 0, 0, 0, 0, 0 },     /* UOPS_ISSUED.ANY */
	{ "nehalem", "uops_fused", 0x0E, 0x02, 0, 0, 0, 0, 0 },      /* UOPS_ISSUED.FUSED */
	{ "nehalem", "uops_retired", 0xC2, 0x01, 0, 0, 0, 0, 0 },    /* UOPS_RETIRED.ANY */
	{ "nehalem", "div_busy", 0x14, 0x01, 0, 0, 0, 0, 0 },        /* ARITH.CYCLES_DIV_BUSY */
	{ "nehalem", "uops_port0", 0xB1, 0x01, 0, 0, 0, 0, 0 },
	{ "nehalem", "uops_port1", 0xB1, 0x02, 0, 0, 0, 0, 0 },
	{ "nehalem", "uops_port5", 0xB1, 0x20, 0, 0, 0, 0, 0 },
	{ "nehalem", "uops_port2", 0xB1, 0x04, 0, 0, 0, 1, 0 },      /* PORT2_CORE, AT=1 */
	{ "nehalem", "uops_port3", 0xB1, 0x08, 0, 0, 0, 1, 0 },
	{ "nehalem", "uops_port4", 0xB1, 0x10, 0, 0, 0, 1, 0 },
	{ "nehalem", "core_stall", 0xB1, 0x3F, 1, 1, 0, 1, 0 },      /* CORE_STALL_CYCLES */
	{ "nehalem", "core_stall_count", 0xB1, 0x3F, 1, 1, 1, 1, 0 }, /* CORE_STALL_COUNT */
	{ "nehalem", "core_active", 0xB1, 0x3F, 1, 0, 0, 1, 0 },     /* CORE_ACTIVE_CYCLES */
	/* CPU_CLK_UNHALTED.THREAD_P (3CH) with cmask 1 and AnyThread: cycles either thread runs */
	{ "nehalem", "core_cycles", 0x3C, 0x00, 1, 0, 0, 1, 0 },
	/* seed 002 */
	{ "nehalem", "local_dram_loads", 0x0F, 0x20, 0, 0, 0, 0, 0 },
	{ "nehalem", "remote_dram_loads", 0x0F, 0x10, 0, 0, 0, 0, 0 },
	/*
	 * seed 000 offcore response (Table 9 and the predefined combinations):
	 * DATA_IN is request xx33 (bits 0, 1, 4, 5), DEMAND_DATA_RD xx01;
	 * LOCAL_DRAM is response 40xx (bit 14), REMOTE_DRAM 20xx (bit 13)
	 */
	{ "nehalem", "ocr_local_data_in", 0xB7, 0x01, 0, 0, 0, 0, 0x4033 },
	{ "nehalem", "ocr_remote_data_in", 0xB7, 0x01, 0, 0, 0, 0, 0x2033 },
	{ "nehalem", "ocr_dram_demand", 0xB7, 0x01, 0, 0, 0, 0, 0x6001 },
	/* seed 000: UOPS_ISSUED.CORE_CYCLES_ACTIVE is UOPS_ISSUED.ANY, cmask 1, AnyThread */
	{ "nehalem", "issue_core_active", 0x0E, 0x01, 1, 0, 0, 1, 0 },
	{ "nehalem", "core_uops_port0", 0xB1, 0x01, 0, 0, 0, 1, 0 },
	/* Westmere: same Table 1 events; its own MEM_UNCORE_RETIRED and offcore response bits */
	{ "westmere", "exec_active", 0xB1, 0x40, 1, 0, 0, 0, 0 },
	{ "westmere", "core_stall", 0xB1, 0x3F, 1, 1, 0, 1, 0 },
	{ "westmere", "uops_port2", 0xB1, 0x04, 0, 0, 0, 1, 0 },
	{ "westmere", "local_dram_loads", 0x0F, 0x08, 0, 0, 0, 0, 0 },
	{ "westmere", "ocr_local_data_in", 0xB7, 0x01, 0, 0, 0, 0, 0x1033 },
	{ "westmere", "ocr_remote_data_in", 0xBB, 0x01, 0, 0, 0, 0, 0x2033 },
	{ "westmere", "ocr_local_demand", 0xB7, 0x01, 0, 0, 0, 0, 0x1001 },
	{ "westmere", "ocr_remote_demand", 0xBB, 0x01, 0, 0, 0, 0, 0x2001 },
	/* seed 004 Table 19-1 */
	{ "arch", "llc_references", 0x2E, 0x4F, 0, 0, 0, 0, 0 },
	{ "arch", "llc_misses", 0x2E, 0x41, 0, 0, 0, 0, 0 },
	{ "arch", "branches", 0xC4, 0x00, 0, 0, 0, 0, 0 },
	{ "arch", "branch_misses", 0xC5, 0x00, 0, 0, 0, 0, 0 },
	/* Skylake: SDM Vol. 3B Table 19-4 (no seed covers Skylake core events) */
	{ "skylake", "not_delivered", 0x9C, 0x01, 0, 0, 0, 0, 0 },   /* IDQ_UOPS_NOT_DELIVERED.CORE */
	{ "skylake", "uops_issued", 0x0E, 0x01, 0, 0, 0, 0, 0 },     /* UOPS_ISSUED.ANY */
	{ "skylake", "retire_slots", 0xC2, 0x02, 0, 0, 0, 0, 0 },    /* UOPS_RETIRED.RETIRE_SLOTS */
	/* Intel's skylake_core.json: INT_MISC.RECOVERY_CYCLES_ANY and CPU_CLK_UNHALTED.THREAD_P_ANY, AnyThread 1 */
	{ "skylake", "recovery_any", 0x0D, 0x01, 0, 0, 0, 1, 0 },
	{ "skylake", "cycles_any", 0x3C, 0x00, 0, 0, 0, 1, 0 },
	{ "skylake", "stalls_total", 0xA3, 0x04, 4, 0, 0, 0, 0 },    /* CYCLE_ACTIVITY.STALLS_TOTAL */
	{ "skylake", "stalls_mem", 0xA3, 0x14, 20, 0, 0, 0, 0 },     /* .STALLS_MEM_ANY */
	{ "skylake", "stalls_l3_miss", 0xA3, 0x06, 6, 0, 0, 0, 0 },  /* .STALLS_L3_MISS */
	{ "skylake", "uops_port0", 0xA1, 0x01, 0, 0, 0, 0, 0 },      /* UOPS_DISPATCHED_PORT.PORT_0 */
	{ "skylake", "uops_port1", 0xA1, 0x02, 0, 0, 0, 0, 0 },
	{ "skylake", "uops_port2", 0xA1, 0x04, 0, 0, 0, 0, 0 },
	{ "skylake", "uops_port3", 0xA1, 0x08, 0, 0, 0, 0, 0 },
	{ "skylake", "uops_port4", 0xA1, 0x10, 0, 0, 0, 0, 0 },
	{ "skylake", "uops_port5", 0xA1, 0x20, 0, 0, 0, 0, 0 },
	{ "skylake", "uops_port6", 0xA1, 0x40, 0, 0, 0, 0, 0 },
	{ "skylake", "uops_port7", 0xA1, 0x80, 0, 0, 0, 0, 0 },
	/* Core 2: seed 003 (Table 19-23) and seed 004 Table 19-1 */
	{ "core2", "hit_drv", 0x7A, 0x00, 0, 0, 0, 0, 0 },       /* BUS_HIT_DRV, this agent */
	{ "core2", "hitm_drv", 0x7B, 0x00, 0, 0, 0, 0, 0 },      /* BUS_HITM_DRV, this agent */
	{ "core2", "l1i_misses", 0x81, 0x00, 0, 0, 0, 0, 0 },    /* L1I_MISSES */
	{ "core2", "itlb_misses", 0x82, 0x02 | 0x10, 0, 0, 0, 0, 0 }, /* ITLB.SMALL_MISS + LARGE_MISS */
	{ "core2", "llc_references", 0x2E, 0x4F, 0, 0, 0, 0, 0 },
	{ "core2", "llc_misses", 0x2E, 0x41, 0, 0, 0, 0, 0 },
	{ "core2", "branches", 0xC4, 0x00, 0, 0, 0, 0, 0 },
	{ "core2", "branch_misses", 0xC5, 0x00, 0, 0, 0, 0, 0 },
};

START_TEST(encodings_equal_the_documents)
{
	const struct enc *x = &encodings[_i];
	struct layout *l = load(x->layout);
	const struct layout_event *ev = NULL;

	for (int i = 0; i < l->nevents; i++)
		if (!strcmp(l->events[i].name, x->event))
			ev = &l->events[i];
	ck_assert_msg(ev != NULL, "%s has no event %s", x->layout, x->event);
	ck_assert_uint_eq(ev->event, x->code);
	ck_assert_uint_eq(ev->umask, x->umask);
	ck_assert_uint_eq(ev->cmask, x->cmask);
	ck_assert_uint_eq(ev->inv, x->inv);
	ck_assert_uint_eq(ev->edge, x->edge);
	ck_assert_uint_eq(ev->any, x->any);
	ck_assert_uint_eq(ev->has_offcore, x->offcore != 0);
	ck_assert_uint_eq(ev->offcore, x->offcore);
	layout_free(l);
}
END_TEST

/*
 * Uncore events, typed in from seed 000 (Nehalem/Westmere: Table 22 GQ,
 * Table 30 L3, Table 31 QHL, Table 32 IMC) and seed 001 (Skylake client:
 * Table 3-1 CBo, 3-2 ARB, 3-3 IMC offsets).  CHANNEL -1 for a socket event.
 */
static const struct unc_enc {
	const char *layout, *event;
	int channel;
	enum layout_pmu pmu;
	unsigned code, umask;
	uint32_t mmio;
} unc_encodings[] = {
	{ "nehalem", "reads", 0, LAYOUT_PMU_UNCORE, 0x2C, 0x01, 0 },   /* UNC_IMC_NORMAL_READS.CH0 */
	{ "nehalem", "reads", 1, LAYOUT_PMU_UNCORE, 0x2C, 0x02, 0 },
	{ "nehalem", "reads", 2, LAYOUT_PMU_UNCORE, 0x2C, 0x04, 0 },
	{ "nehalem", "writes", 0, LAYOUT_PMU_UNCORE, 0x2F, 0x01, 0 },  /* UNC_IMC_WRITES.FULL.CH0 */
	{ "nehalem", "writes", 1, LAYOUT_PMU_UNCORE, 0x2F, 0x02, 0 },
	{ "nehalem", "writes", 2, LAYOUT_PMU_UNCORE, 0x2F, 0x04, 0 },
	{ "nehalem", "qhl_ioh_reads", -1, LAYOUT_PMU_UNCORE, 0x20, 0x01, 0 },
	{ "nehalem", "qhl_ioh_writes", -1, LAYOUT_PMU_UNCORE, 0x20, 0x02, 0 },
	{ "nehalem", "qhl_remote_reads", -1, LAYOUT_PMU_UNCORE, 0x20, 0x04, 0 },
	{ "nehalem", "qhl_remote_writes", -1, LAYOUT_PMU_UNCORE, 0x20, 0x08, 0 },
	{ "nehalem", "qhl_local_reads", -1, LAYOUT_PMU_UNCORE, 0x20, 0x10, 0 },
	{ "nehalem", "qhl_local_writes", -1, LAYOUT_PMU_UNCORE, 0x20, 0x20, 0 },
	{ "nehalem", "imc_reads_any", -1, LAYOUT_PMU_UNCORE, 0x2C, 0x07, 0 }, /* NORMAL_READS.ANY */
	{ "nehalem", "partial_writes", -1, LAYOUT_PMU_UNCORE, 0x2F, 0x38, 0 }, /* WRITES.PARTIAL.ANY */
	/* seed 000 Table 31: QHL occupancy 23H, 01H IOH, 02H remote, 04H local */
	{ "nehalem", "lat_local_occupancy", -1, LAYOUT_PMU_UNCORE, 0x23, 0x04, 0 },
	{ "nehalem", "lat_remote_occupancy", -1, LAYOUT_PMU_UNCORE, 0x23, 0x02, 0 },
	{ "nehalem", "lat_ioh_occupancy", -1, LAYOUT_PMU_UNCORE, 0x23, 0x01, 0 },
	/* Table 22: TRACKER_OCCUP 02H and ALLOC 03H, RT 01H, RT_TO_LLC_RESP 04H */
	{ "nehalem", "gq_rt_occupancy", -1, LAYOUT_PMU_UNCORE, 0x02, 0x01, 0 },
	{ "nehalem", "gq_rt_allocs", -1, LAYOUT_PMU_UNCORE, 0x03, 0x01, 0 },
	{ "nehalem", "gq_llc_resp_occupancy", -1, LAYOUT_PMU_UNCORE, 0x02, 0x04, 0 },
	{ "nehalem", "gq_llc_resp_allocs", -1, LAYOUT_PMU_UNCORE, 0x03, 0x04, 0 },
	/* Table 32: NORMAL_OCCUPANCY 2AH per channel; Table 33: BUSY 29H, reads 01H-04H, writes 08H-20H */
	{ "nehalem", "read_occupancy", 1, LAYOUT_PMU_UNCORE, 0x2A, 0x02, 0 },
	{ "nehalem", "read_busy", 2, LAYOUT_PMU_UNCORE, 0x29, 0x04, 0 },
	{ "nehalem", "write_busy", 0, LAYOUT_PMU_UNCORE, 0x29, 0x08, 0 },
	{ "nehalem", "llc_hits", -1, LAYOUT_PMU_UNCORE, 0x08, 0x03, 0 },      /* UNC_LLC_HITS.ANY */
	{ "nehalem", "llc_misses", -1, LAYOUT_PMU_UNCORE, 0x09, 0x03, 0 },
	{ "nehalem", "llc_lines_in", -1, LAYOUT_PMU_UNCORE, 0x0A, 0x0F, 0 },
	{ "nehalem", "llc_lines_out", -1, LAYOUT_PMU_UNCORE, 0x0B, 0x1F, 0 },
	{ "nehalem", "gq_miss_occupancy", -1, LAYOUT_PMU_UNCORE, 0x02, 0x02, 0 }, /* TRACKER_OCCUP.RT_LLC_MISS */
	{ "nehalem", "gq_miss_allocs", -1, LAYOUT_PMU_UNCORE, 0x03, 0x02, 0 },    /* GQ_ALLOC.RT_LLC_MISS */
	{ "westmere", "reads", 2, LAYOUT_PMU_UNCORE, 0x2C, 0x04, 0 },
	{ "westmere", "writes", 1, LAYOUT_PMU_UNCORE, 0x2F, 0x02, 0 },
	{ "westmere", "qhl_remote_reads", -1, LAYOUT_PMU_UNCORE, 0x20, 0x04, 0 },
	{ "westmere", "lat_local_occupancy", -1, LAYOUT_PMU_UNCORE, 0x23, 0x04, 0 },
	{ "westmere", "gq_miss_allocs", -1, LAYOUT_PMU_UNCORE, 0x03, 0x02, 0 },
	{ "skylake", "l3_lookups", -1, LAYOUT_PMU_CBO, 0x34, 0x8F, 0 },   /* CACHE_LOOKUP.ANY_MESI */
	{ "skylake", "l3_misses", -1, LAYOUT_PMU_CBO, 0x34, 0x88, 0 },    /* CACHE_LOOKUP.ANY_I */
	{ "skylake", "xsnp_hitm", -1, LAYOUT_PMU_CBO, 0x22, 0x48, 0 },    /* XSNP_RESPONSE.HITM_XCORE */
	{ "skylake", "arb_requests", -1, LAYOUT_PMU_ARB, 0x81, 0x01, 0 }, /* TRK_REQUESTS.ALL */
	{ "skylake", "arb_occupancy", -1, LAYOUT_PMU_ARB, 0x80, 0x01, 0 },/* TRK_OCCUPANCY.ALL */
	{ "skylake", "gt_requests", -1, LAYOUT_PMU_IMC, 0, 0, 0x5040 },
	{ "skylake", "ia_requests", -1, LAYOUT_PMU_IMC, 0, 0, 0x5044 },
	{ "skylake", "io_requests", -1, LAYOUT_PMU_IMC, 0, 0, 0x5048 },
	{ "skylake", "dram_reads", -1, LAYOUT_PMU_IMC, 0, 0, 0x5050 },
	{ "skylake", "dram_writes", -1, LAYOUT_PMU_IMC, 0, 0, 0x5054 },
};

START_TEST(uncore_encodings_equal_the_documents)
{
	const struct unc_enc *x = &unc_encodings[_i];
	struct layout *l = load(x->layout);
	const struct layout_event *ev = NULL;

	for (int i = 0; i < l->nevents; i++)
		if (!strcmp(l->events[i].name, x->event) && l->events[i].channel == x->channel)
			ev = &l->events[i];
	ck_assert_msg(ev != NULL, "%s has no event %s on channel %d", x->layout, x->event, x->channel);
	ck_assert_int_eq(ev->pmu, x->pmu);
	ck_assert_uint_eq(ev->event, x->code);
	ck_assert_uint_eq(ev->umask, x->umask);
	ck_assert_uint_eq(ev->cmask, 0);
	ck_assert_uint_eq(ev->mmio, x->mmio);
	/* events of one name on several channels are one variable */
	for (int i = 0; i < l->nevents; i++)
		if (!strcmp(l->events[i].name, x->event))
			ck_assert_int_eq(l->events[i].var, ev->var);
	layout_free(l);
}
END_TEST

/* ---- shipped layouts against their models -------------------------------- */

static const struct {
	const char *layout;
	enum cpuid_uarch uarch;
	const char *sim;
} shipped[] = {
	{ "nehalem", CPUID_UARCH_NEHALEM, "nehalem-ep:memory-bound" },
	{ "westmere", CPUID_UARCH_WESTMERE, "westmere-ep:memory-bound" },
	{ "arch", CPUID_UARCH_ARCH, "arch:compute-bound" },
	{ "skylake", CPUID_UARCH_SKYLAKE, "skylake:memory-bound" },
	{ "core2", CPUID_UARCH_CORE2, "core2:compute-bound" },
};

/* Each claimed model is that microarchitecture, and every event is known to its machine. */
START_TEST(shipped_layouts_fit_their_models)
{
	struct layout *l = load(shipped[_i].layout);
	struct engine_config cfg = { 0 };
	struct source *src;
	struct engine *eng;
	char err[512];
	int unknown = -1;

	/* the CPU table's rows that name this layout are of its microarchitecture */
	for (int i = 0; i < cpumodel_count; i++)
		if (cpumodels[i].p->layout && !strcmp(cpumodels[i].p->layout, l->name))
			ck_assert_int_eq(cpumodels[i].p->uarch, shipped[_i].uarch);
	ck_assert_int_eq(l->nmodels, 0); /* the table picks a shipped layout, not a models line */
	/* some metrics carry colour thresholds, and every group has a key */
	{
		int with = 0;

		for (int m = 0; m < l->nmetrics; m++)
			with += !isnan(l->metrics[m].warn) || !isnan(l->metrics[m].crit);
		ck_assert_msg(with > 0, "layout %s: no thresholds", l->name);
	}
	for (int g = 0; g < l->ngroups; g++)
		ck_assert_msg(l->groups[g].key, "group %s has no key", l->groups[g].name);
	setenv("PMUTOP_SCENARIO_DIR", SCENARIO_SRCDIR, 1);
	ck_assert_msg(source_open_emu(test_emu(shipped[_i].sim), false, &src, err, sizeof(err)) == 0, "%s", err);
	cfg = (struct engine_config){
		.core_ops = &msr_core_ops, .uncore_ops = &msr_uncore_ops,
		.topo = src->topo, .layout = l,
		.source_cfg = &(struct msr_source_config){ .dev = src->regs.dev, .mmio = src->regs.mmio },
		.perfmon_version = src->info.perfmon_version,
		.gp_counters = src->info.gp_counters, .gp_width = src->info.gp_width,
		.fixed_counters = src->info.fixed_counters, .fixed_width = src->info.fixed_width,
		.interval_s = 1, .source = src->name, .groups = (1u << l->ngroups) - 1,
		.uncore = src->uncore, .channels = src->channels,
		.channel_peak = NAN,
	};
	ck_assert_msg(engine_create(&cfg, &eng, err, sizeof(err)) == 0, "%s", err);
	for (int i = 0; i < 2 * l->ngroups + 2; i++)
		ck_assert_int_ge(engine_step(eng), 0);
	emu_unknown_events(src->emu, &unknown);
	ck_assert_msg(unknown == 0, "%s programs encodings %s does not know:\n%s", l->file,
		      shipped[_i].sim, emu_unknown_events(src->emu, &unknown));
	engine_free(eng);
	source_close(src);
	layout_free(l);
}
END_TEST

/* INFO for Intel family 6 MODEL with architectural perfmon. */
static struct cpuid_info intel_info(unsigned model)
{
	struct cpuid_info info = { .vendor = "GenuineIntel", .vendor_id = CPUID_VENDOR_INTEL,
				   .family = 6, .model = model, .perfmon_version = 3 };

	return info;
}

/*
 * The CPU table is the one authority: each row's layout is shipped and is
 * the one pmutop picks for it, and every shipped layout but the fallback is
 * named by a row (none lies unused).
 */
START_TEST(cpu_table_names_the_layouts)
{
	for (int i = 0; i < cpumodel_count; i++) {
		const struct cpumodel *m = &cpumodels[i];
		struct cpuid_info info = intel_info(m->model);
		struct layout *l;
		char err[512];

		info.vendor_id = m->vendor;
		info.family = m->family;
		if (!m->p->layout) {
			/* the vendor's data makes its layout (check_perfmon): no file stands in */
			ck_assert_int_ne(layout_find(LAYOUT_SRCDIR, &info, &l, err, sizeof(err)), 0);
			ck_assert_msg(strstr(err, "vendor's data"), "%s", err);
			ck_assert_int_eq(cpumodel_uarch_of(&info), m->p->uarch);
			continue;
		}
		ck_assert_msg(layout_find(LAYOUT_SRCDIR, &info, &l, err, sizeof(err)) == 0, "%s", err);
		ck_assert_msg(!strcmp(l->name, m->p->layout), "%02X_%02X: table says %s, pmutop picks %s",
			      m->family, m->model, m->p->layout, l->name);
		ck_assert(layout_covers(l, &info));
		ck_assert_int_eq(cpumodel_uarch_of(&info), m->p->uarch);
		ck_assert_msg(m->p->uncore != CPUMODEL_UNCORE_NONE || m->p->channels == 0, "%s", m->name);
		layout_free(l);
	}
	for (size_t k = 0; k < sizeof(shipped) / sizeof(shipped[0]); k++) {
		struct layout *l = load(shipped[k].layout);
		bool named = l->fallback;

		for (int i = 0; i < cpumodel_count; i++)
			named |= cpumodels[i].p->layout && !strcmp(cpumodels[i].p->layout, l->name);
		ck_assert_msg(named, "layout %s: no row of the CPU table names it", l->name);
		layout_free(l);
	}
}
END_TEST

START_TEST(layout_find_picks_by_model)
{
	static const struct {
		unsigned model;
		const char *name;
	} picks[] = {
		{ 0x1A, "nehalem" }, { 0x2E, "nehalem" }, { 0x2C, "westmere" }, { 0x25, "westmere" },
		{ 0x3F, "arch" },    { 0x55, "arch" },     { 0x5E, "skylake" }, { 0x4E, "skylake" },
		{ 0x0F, "core2" },   { 0x17, "core2" },    { 0x1D, "core2" },
	};
	struct cpuid_info info = intel_info(0x1A);
	struct layout *l;
	char err[512];

	for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++) {
		info = intel_info(picks[i].model);
		ck_assert_msg(layout_find(LAYOUT_SRCDIR, &info, &l, err, sizeof(err)) == 0, "%s", err);
		ck_assert_str_eq(l->name, picks[i].name);
		layout_free(l);
	}
	info = intel_info(0x1A);
	ck_assert_int_eq(layout_find(TEST_DATADIR, &info, &l, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "the layout nehalem that the CPU table names"), "%s", err);
	ck_assert_int_eq(layout_find("/nonexistent", &info, &l, err, sizeof(err)), -ENOENT);
	ck_assert(strstr(err, "PMUTOP_LAYOUT_DIR"));
	/* no row and no architectural perfmon (AMD's Bulldozer): no layout, and why */
	info = (struct cpuid_info){ .vendor = "AuthenticAMD", .vendor_id = CPUID_VENDOR_AMD,
				    .family = 0x15, .model = 0x01 };
	ck_assert_int_eq(layout_find(LAYOUT_SRCDIR, &info, &l, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "AuthenticAMD family 0x15 model 0x01"), "%s", err);
	ck_assert(strstr(err, "--layout FILE"));
	/* a Zen 4 has a row whose layout the vendor's data makes: no file, and why */
	info.family = 0x19;
	info.model = 0x11;
	ck_assert_int_eq(layout_find(LAYOUT_SRCDIR, &info, &l, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "EPYC 9004 (Genoa), Zen 4") && strstr(err, "data/amd"), "%s", err);
}
END_TEST

/* A layout of one's own names its CPUs on a models line; the fallback covers its vendor only. */
START_TEST(own_layouts_cover_what_their_models_line_names)
{
	struct cpuid_info nhm = intel_info(0x1A), skl = intel_info(0x5E), amd = {
		.vendor = "AuthenticAMD", .vendor_id = CPUID_VENDOR_AMD, .family = 0x19, .model = 1 };
	struct layout *l;
	char err[512];
	const char *own = "pmutop-layout 1\nlayout mine\nmodels 06_5E\n"
			  "metric ipc thread ratio = instructions / cycles\n";

	ck_assert_msg(layout_parse(own, "mine.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert(layout_covers(l, &skl));
	ck_assert(!layout_covers(l, &nhm));
	layout_free(l);
	l = load("arch");
	ck_assert(layout_covers(l, &nhm));
	ck_assert(!layout_covers(l, &amd));
	layout_free(l);
	l = load("nehalem");
	ck_assert(layout_covers(l, &nhm));
	ck_assert(!layout_covers(l, &skl));
	layout_free(l);
}
END_TEST

/*
 * AMD's event selects are 12 bits (AMD64 APM Vol. 2, 13.2.1: EventSelect[7:0]
 * in bits 7:0, [11:8] in 35:32); Intel's stay 8 (the bad-layout table).
 */
START_TEST(amd_layouts_take_twelve_bit_event_selects)
{
	struct layout *l;
	char err[512];
	const char *text = "pmutop-layout 1\nlayout zen\nvendor amd\nmodels 19_11\n"
			   "metric ipc thread ratio = instructions / cycles\n"
			   "group g\n  event wide raw event=0x1C0 umask=0x02\n"
			   "  metric w thread count = wide\nend\n";
	struct cpuid_info zen = { .vendor = "AuthenticAMD", .vendor_id = CPUID_VENDOR_AMD,
				  .family = 0x19, .model = 0x11 };
	struct cpuid_info nhm = { .vendor = "GenuineIntel", .vendor_id = CPUID_VENDOR_INTEL,
				  .family = 0x19, .model = 0x11, .perfmon_version = 3 };

	ck_assert_msg(layout_parse(text, "zen.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(l->vendor, CPUID_VENDOR_AMD);
	ck_assert_uint_eq(l->events[0].event, 0x1C0);
	/* USR (16), OS (17), EN (22) and the high nibble at bit 32 */
	ck_assert_uint_eq(counter_evtsel(&l->events[0], 0, true, true), 0x1004302C0ull);
	ck_assert_uint_eq(counter_perf_config(&l->events[0]), 0x1000002C0ull);
	/* its models line names an AMD CPU, not an Intel one of the same numbers */
	ck_assert(layout_covers(l, &zen));
	ck_assert(!layout_covers(l, &nhm));
	layout_free(l);
}
END_TEST

/* ---- layouts that include others ----------------------------------------- */

/* Write TEXT to DIR/NAME. */
static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

#define BASE "pmutop-layout 1\nlayout base\ndescription \"the base\"\n" \
	"metric ipc thread ratio = instructions / cycles\n" \
	"group a\n  key 1\n  event ea raw event=0xB1 umask=0x01\n  metric ma thread count = ea\nend\n" \
	"group b\n  key 2\n  event eb raw event=0x0E umask=0x01\n  metric mb thread count = eb\nend\n" \
	"group c\n  key 3\n  event ec raw event=0xC2 umask=0x01\n  metric mc thread count = ec\nend\n"

/*
 * include: the included groups in their order, a group defined again
 * replaced at its place, a dropped one left out, the includer's header and
 * extra groups; the self-contained text parses to the same layout.
 */
START_TEST(include_splices_replaces_and_drops)
{
	char dir[] = "/tmp/pmutop-layout-XXXXXX", path[512], err[512];
	struct layout *l, *again;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	put_file(dir, "base.layout", BASE);
	put_file(dir, "variant.layout", "pmutop-layout 1\nlayout variant\ninclude base\ndrop c\n"
		 "group b\n  key 2\n  event eb2 raw event=0x0E umask=0x02\n"
		 "  metric mb2 thread count = eb2\nend\n"
		 "group d\n  key 4\n  event ed raw event=0x14 umask=0x01\n"
		 "  metric md thread count = ed\nend\n");
	snprintf(path, sizeof(path), "%s/variant.layout", dir);
	ck_assert_msg(layout_load(path, &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(l->name, "variant");
	ck_assert_ptr_null(l->description); /* the included header is the includer's to give */
	ck_assert_int_eq(l->ngroups, 3);
	ck_assert_str_eq(l->groups[0].name, "a");
	ck_assert_str_eq(l->groups[1].name, "b");   /* replaced where it stood */
	ck_assert_str_eq(l->events[l->groups[1].first_event].name, "eb2");
	ck_assert_str_eq(l->groups[2].name, "d");
	ck_assert_int_eq(layout_group_find(l, "c"), -1);
	ck_assert_int_ge(layout_metric_find(l, "ipc"), 0);
	/* the self-contained text: no include left, the same groups and events */
	ck_assert_ptr_null(strstr(l->text, "include"));
	ck_assert_msg(layout_parse(l->text, "flat.layout", &again, err, sizeof(err)) == 0, "%s\n%s",
		      err, l->text);
	ck_assert_int_eq(again->ngroups, l->ngroups);
	ck_assert_int_eq(again->nevents, l->nevents);
	for (int i = 0; i < l->nevents; i++) {
		ck_assert_str_eq(again->events[i].name, l->events[i].name);
		ck_assert_uint_eq(again->events[i].event, l->events[i].event);
		ck_assert_uint_eq(again->events[i].umask, l->events[i].umask);
	}
	layout_free(again);
	layout_free(l);
	/* the errors name the file and the place */
	put_file(dir, "drop.layout", "pmutop-layout 1\nlayout x\ninclude base\ndrop z\n");
	snprintf(path, sizeof(path), "%s/drop.layout", dir);
	ck_assert_int_eq(layout_load(path, &l, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "drop.layout:4:6: expected a group of an included layout after "
			     "'drop': none has 'z'"), "%s", err);
	put_file(dir, "missing.layout", "pmutop-layout 1\nlayout x\ninclude nosuch\n");
	snprintf(path, sizeof(path), "%s/missing.layout", dir);
	ck_assert_int_eq(layout_load(path, &l, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "missing.layout:3:9: expected a layout to include beside this file "
			     "(cannot open layout"), "%s", err);
	put_file(dir, "bad.layout", "pmutop-layout 1\nlayout bad\ngroup q\n  event e raw event=0x1FF\nend\n");
	put_file(dir, "inc.layout", "pmutop-layout 1\nlayout x\ninclude bad\n");
	snprintf(path, sizeof(path), "%s/inc.layout", dir);
	ck_assert_int_eq(layout_load(path, &l, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bad.layout:4:15: expected a number from 0 to 0xff"), "%s", err);
	put_file(dir, "nest.layout", "pmutop-layout 1\nlayout nest\ninclude variant\n");
	snprintf(path, sizeof(path), "%s/nest.layout", dir);
	ck_assert_int_eq(layout_load(path, &l, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "variant.layout:3:1: expected no 'include' in an included layout "
			     "(one level)"), "%s", err);
	put_file(dir, "late.layout", "pmutop-layout 1\nlayout late\n"
		 "metric ipc2 thread ratio = instructions / cycles\ninclude base\n");
	snprintf(path, sizeof(path), "%s/late.layout", dir);
	ck_assert_int_eq(layout_load(path, &l, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "late.layout:4:1: expected the 'include' line before the layout's "
			     "own metrics and groups"), "%s", err);
	put_file(dir, "amd.layout", "pmutop-layout 1\nlayout amd\nvendor amd\ninclude base2\n");
	put_file(dir, "base2.layout", "pmutop-layout 1\nlayout base2\nvendor intel\n"
		 "metric ipc thread ratio = instructions / cycles\n");
	snprintf(path, sizeof(path), "%s/amd.layout", dir);
	ck_assert_int_eq(layout_load(path, &l, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "base2.layout:3:8: expected the including layout's vendor"), "%s",
		      err);
	for (const char *f = "base\0variant\0drop\0missing\0bad\0inc\0nest\0late\0amd\0base2\0"; *f;
	     f += strlen(f) + 1) {
		snprintf(path, sizeof(path), "%s/%s.layout", dir, f);
		unlink(path);
	}
	rmdir(dir);
}
END_TEST

/* Every shipped layout's self-contained text is the same layout (what recordings carry). */
START_TEST(shipped_layouts_round_trip_through_their_text)
{
	struct layout *l = load(shipped[_i].layout), *again;
	char err[512];

	ck_assert_msg(layout_parse(l->text, "flat.layout", &again, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(again->name, l->name);
	ck_assert_int_eq(again->ngroups, l->ngroups);
	ck_assert_int_eq(again->nevents, l->nevents);
	ck_assert_int_eq(again->nmetrics, l->nmetrics);
	for (int i = 0; i < l->nevents; i++) {
		ck_assert_str_eq(again->events[i].name, l->events[i].name);
		ck_assert_uint_eq(counter_evtsel(&again->events[i], 3, true, true),
				  counter_evtsel(&l->events[i], 3, true, true));
		ck_assert_uint_eq(again->events[i].offcore, l->events[i].offcore);
	}
	for (int m = 0; m < l->nmetrics; m++)
		ck_assert_str_eq(again->metrics[m].formula, l->metrics[m].formula);
	layout_free(again);
	layout_free(l);
}
END_TEST

/* Westmere is Nehalem plus its differences: most of its groups are Nehalem's text. */
START_TEST(westmere_shares_nehalems_groups)
{
	struct layout *nhm = load("nehalem"), *wsm = load("westmere");
	int shared = 0;

	for (int g = 0; g < wsm->ngroups; g++) {
		int k = layout_group_find(nhm, wsm->groups[g].name);

		shared += k >= 0 && !strcmp(wsm->groups[g].title, nhm->groups[k].title) &&
			  wsm->groups[g].nevents == nhm->groups[k].nevents;
	}
	ck_assert_int_eq(layout_group_find(wsm, "dram_remote"), -1);
	ck_assert_int_ge(shared, wsm->ngroups - 3);
	/* its own encodings: the local-DRAM umask is 08H on Westmere, 20H on Nehalem */
	ck_assert_uint_eq(wsm->events[layout_event_find(wsm, "cyc_local_dram")].umask, 0x08);
	ck_assert_uint_eq(nhm->events[layout_event_find(nhm, "cyc_local_dram")].umask, 0x20);
	layout_free(nhm);
	layout_free(wsm);
}
END_TEST

/* ---- bad layouts --------------------------------------------------------- */

#define HEAD "pmutop-layout 1\nlayout t\nmodels 06_1A\nlibpfm nhm\n"

static const struct {
	const char *text;
	const char *err;
} bad[] = {
	{ "", "t.layout:1:1: expected 'pmutop-layout 1' as the first line" },
	{ "pmutop-layout 2\n", "t.layout:1:1: expected 'pmutop-layout 1' as the first line" },
	{ "pmutop-layout 1\nmodels 06_1A\n", "t.layout:3:1: expected a 'layout NAME' line" },
	{ "pmutop-layout 1\nlayout t\n", "t.layout:3:1: expected at least one 'metric NAME thread ...' line: the screen colours each hardware thread by one" },
	{ HEAD "vendor arm\n", "t.layout:5:8: expected intel or amd, not 'arm'" },
	{ HEAD "vendor\n", "t.layout:5:7: expected the vendor: intel or amd after 'vendor'" },
	{ HEAD "group g\nevent e raw event=0x3C\nend\nvendor amd\n", "t.layout:8:1: expected the 'vendor' line before the first event" },
	{ "pmutop-layout 1\nlayout t\nvendor amd\ngroup g\nevent e raw event=0x1000\nend\n", "t.layout:5:13: expected a number from 0 to 0xfff in 'event=0x1000'" },
	{ HEAD "models 6_1A\n", "t.layout:5:8: expected a model as FAMILY_MODEL in hex (06_1A) or 'any', not '6_1A'" },
	{ HEAD "colour red\n", "t.layout:5:1: expected layout, description, vendor, offcore, libpfm, libpfm_uncore, models, include, drop, metric, unavailable, help, thresholds, tree, threshold or group, not 'colour'" },
	{ HEAD "layout u\n", "t.layout:5:1: expected one 'layout' line, this is the second" },
	{ HEAD "description \"open\n", "t.layout:5:13: expected a closing '\"' for this string" },
	{ HEAD "metric util thread % = 100 * ref_cycles / tsc\nmetric util thread % = 1\n",
	  "t.layout:6:8: expected a new name: 'util' is already a metric" },
	{ HEAD "metric u galaxy % = 1\n", "t.layout:5:10: expected a scope (thread, core, socket or channel), not 'galaxy'" },
	{ HEAD "metric u thread %\n", "t.layout:5:18: expected 'metric NAME SCOPE UNIT = FORMULA'" },
	{ HEAD "metric u thread % = 100 * (cycles\n", "t.layout:5:34: expected ')'" },
	{ HEAD "metric u thread % = 100 * cycels\n",
	  "t.layout:5:27: expected a known name: 'cycels' is not an event, metric or built-in" },
	{ HEAD "group g\nkey 1\nevent e UOPS_ISSUED:ANY\nend\nmetric u thread % = e / cycles\n",
	  "t.layout:9:21: expected event 'e' belongs to group 'g': a metric uses only its own group's events" },
	{ HEAD "group g\nevent e UOPS_ISSUED:ANY\nmetric c core % = e\nmetric t thread % = c\nend\n",
	  "t.layout:8:21: expected metric 'c' has scope core: a thread metric cannot use it" },
	{ HEAD "group g\nevent e NO_SUCH_EVENT\nend\n",
	  "t.layout:6:9: expected an event libpfm4 knows for PMU nhm: 'NO_SUCH_EVENT': event not found" },
	{ HEAD "group g\nevent e UOPS_ISSUED:ANY:zz=1\nend\n",
	  "t.layout:6:9: expected an event libpfm4 knows for PMU nhm: 'UOPS_ISSUED:ANY:zz=1': invalid event attribute" },
	{ HEAD "group g\nevent e raw umask=1\nend\n", "t.layout:6:12: expected event=CODE after 'raw'" },
	{ HEAD "group g\nevent e raw event=0x1FF\nend\n", "t.layout:6:13: expected a number from 0 to 0xff in 'event=0x1FF'" },
	{ HEAD "group g\nevent e raw event=0x3C colour=2\nend\n",
	  "t.layout:6:24: expected a raw field (event, umask, cmask, inv, edge, any, offcore, frontend, eq, ring), not 'colour'" },
	{ HEAD "group g\nevent e raw event=0x3C ring=umask=0x41\nend\n",
	  "t.layout:6:29: expected ring=user or ring=kernel, not 'umask=0x41'" },
	{ HEAD "group g\nevent e raw event=0xB7 umask=1\nend\n",
	  "t.layout:6:9: expected offcore=VALUE: event 0xB7 reads the offcore response register" },
	{ HEAD "group g\nevent e raw event=0x3C offcore=1\nend\n",
	  "t.layout:6:9: expected no offcore value: event 0x3C is not an OFFCORE_RESPONSE event" },
	{ HEAD "group g\nevent e raw event=0xC6 frontend=0x800000\nend\n",
	  "t.layout:6:24: expected a number from 0 to 0x7fffff in 'frontend=0x800000'" },
	{ HEAD "offcore 0x2A\ngroup g\nevent e raw event=0x3C\nend\n",
	  "t.layout:5:9: expected 'none' (no event reads the offcore response registers) or two event codes, not '0x2A'" },
	{ HEAD "offcore 0x2A 0x12B\ngroup g\nevent e raw event=0x3C\nend\n",
	  "t.layout:5:14: expected a number from 0 to 0xff in '0x12B'" },
	{ HEAD "offcore 0x2A 0x2B\ngroup g\nevent e raw event=0x2A umask=1\nend\n",
	  "t.layout:7:9: expected offcore=VALUE: event 0x2A reads the offcore response register" },
	{ HEAD "group g\nevent e raw event=0x3C counters=9\nend\n",
	  "t.layout:6:24: expected counter numbers below 8 in 'counters=9'" },
	{ HEAD "group g\nevent e raw event=0x3C sideways\nend\n",
	  "t.layout:6:24: expected 'per-core', 'counters=LIST', 'channel=N' or 'box=N', not 'sideways'" },
	{ HEAD "group g\nkey 0\n", "t.layout:6:5: expected a key from 1 to 9 or a lowercase letter other than adehmpqrs (the screen's own keys), not '0'" },
	{ HEAD "group g\nkey q\n", "t.layout:6:5: expected a key from 1 to 9 or a lowercase letter other than adehmpqrs (the screen's own keys), not 'q'" },
	{ HEAD "group g\nkey 1\nevent e raw event=0x3C\nend\ngroup h\nkey 2\nevent e raw event=0x3C\nend\ngroup i\nkey 1\n",
	  "t.layout:14:5: expected a free key: 1 already toggles group 'g' (groups that share a key follow each other)" },
	{ HEAD "group g\nkey 1\nevent e raw event=0x3C\nend\ngroup h\nkey 2\nevent f raw event=0x3C\nmetric m thread % = e\n",
	  "t.layout:12:21: expected event 'e' belongs to group 'g': a metric uses only its own group's events" },
	/* "reads": groups of other keys, named before, core groups of the same kind, before metrics */
	{ HEAD "group g\nkey 1\nevent e raw event=0x3C\nend\ngroup h\nkey 2\nreads x\n",
	  "t.layout:11:7: expected a group defined before this one, not 'x'" },
	{ HEAD "group g\nkey 1\nevent e raw event=0x3C\nend\ngroup h\nkey 1\nreads g\n",
	  "t.layout:11:7: expected a group of another key: 'g' is this key's own" },
	{ HEAD "group g\nkey 1\nevent e raw event=0x3C\nend\ngroup h\nkey 2\nreads\n",
	  "t.layout:11:6: expected the groups of other keys whose events this key's metrics read after 'reads'" },
	{ HEAD "group g\nkey 1\npmu uncore\nevent e raw event=0x07 channel=0\nend\ngroup h\nkey 2\nreads g\n",
	  "t.layout:12:7: expected a core group of the same kind of core, not 'g'" },
	{ HEAD "group g\nkey 1\nevent e raw event=0x3C\nend\ngroup h\nkey 2\nevent f raw event=0x3C\n"
	  "metric m thread % = f\nreads g\n",
	  "t.layout:13:1: expected 'reads' in a core group, before its metrics" },
	{ HEAD "group g\nkey 1\nevent e raw event=0x3C\nend\ngroup h\nkey 1\nevent e raw event=0x3C umask=1\n",
	  "t.layout:11:7: expected the encoding of 'e' in group 'g': an event of one name counts one thing" },
	/* a channel of a name in another group of its key: another encoding allowed, one channel once */
	{ HEAD "group g\nkey 9\npmu uncore\nevent e raw event=0x07 channel=0\nend\ngroup h\nkey 9\npmu uncore\n"
	  "event e raw event=0x47 channel=0\n",
	  "t.layout:13:7: expected the encoding of 'e' in group 'g': an event of one name counts one thing" },
	{ HEAD "metric u thread % = 1\ntree nobody 2\n",
	  "t.layout:6:6: expected a parent metric of the layout for 'u', not 'nobody'" },
	{ HEAD "metric u thread % = 1\ntree - 0\n", "t.layout:6:8: expected a level from 1 to 9" },
	{ HEAD "metric u thread % = 1\ntree -\n",
	  "t.layout:6:5: expected a parent metric (or '-'), a level and its place among its siblings after 'tree'" },
	{ HEAD "metric u thread % = 1\ntree v 2\nmetric v thread % = 2\ntree u 2\n",
	  "t.layout:6:6: expected a tree without loops: 'u' is its own ancestor" },
	{ HEAD "metric u thread % = 1\nthreshold u > \n",
	  "t.layout:6:14: expected a threshold over metrics for 'u': a number, a name or '(' before the end" },
	{ HEAD "metric u thread % = 1\nthreshold u > 5 & w < 2\n",
	  "t.layout:6:19: expected a threshold over metrics for 'u': a known name: 'w' is not an event, metric or built-in" },
	{ HEAD "tree - 1\n", "t.layout:5:1: expected a metric line before 'tree'" },
	{ HEAD "metric u thread % = 1\nunavailable n core % \"\"\n",
	  "t.layout:6:22: expected the reason it is not counted, not \"\"" },
	{ HEAD "metric u thread % = 1\nunavailable n core %\n",
	  "t.layout:6:12: expected NAME SCOPE UNIT \"why it is not counted here\" after 'unavailable'" },
	{ HEAD "group g\npmu galaxy\n", "t.layout:6:5: expected a PMU (core, uncore, cbo, arb or imc), not 'galaxy'" },
	{ HEAD "group g\nevent e raw event=0x3C\npmu uncore\n", "t.layout:7:1: expected 'pmu' before the group's first event and metric" },
	{ HEAD "group g\nevent e raw event=0x3C channel=1\n",
	  "t.layout:6:24: expected no channel=N in a core group: channels belong to a memory controller ('pmu uncore')" },
	{ HEAD "group g\npmu uncore\nevent e raw event=0x2C box=1\n",
	  "t.layout:7:24: expected no box=N here: one box of a kind the kernel numbers (pmu cha, upi; a channel is channel=N)" },
	{ HEAD "group g\npmu upi\nevent e raw event=0x02 umask=0x0F box=256\n",
	  "t.layout:7:35: expected a number from 0 to 0xff in 'box=256'" },
	{ HEAD "group g\npmu uncore\nevent e raw event=0x2C channel=16\n",
	  "t.layout:7:24: expected a number from 0 to 0xf in 'channel=16'" },
	{ HEAD "group g\npmu uncore\nevent r raw event=0x2C umask=1 channel=0\nevent r raw event=0x2C umask=2 channel=0\n",
	  "t.layout:8:7: expected a new channel for event 'r': channel 0 is already counted" },
	{ HEAD "group g\npmu uncore\nevent r raw event=0x2C umask=1 channel=0\nevent r raw event=0x2C umask=2\n",
	  "t.layout:8:7: expected a new name: 'r' is already an event" },
	{ HEAD "group g\npmu uncore\nevent e raw event=0x2C any=1\n",
	  "t.layout:7:24: expected a raw field (event, umask, cmask, inv, edge), not 'any'" },
	{ HEAD "group g\npmu uncore\nevent e raw event=0x2C filter1=0x40433\n",
	  "t.layout:7:24: expected no filter1= here: the CHA's FILTER1 register belongs to an event of 'pmu cha'" },
	{ HEAD "group g\npmu cha\nevent e raw event=0x35 umask=0x21 filter1=0x40437\n",
	  "t.layout:7:43: expected a FILTER1 value with no reserved bit set (its fields: remote, local, all opcodes, memory types, two opcodes, non-coherent, isochronous), not '0x40437'" },
	{ HEAD "group g\npmu cha\nevent e raw event=0x35 umask=0x21 filter1=0x140433000\n",
	  "t.layout:7:35: expected a number from 0 to 0xffffffff in 'filter1=0x140433000'" },
	{ HEAD "group g\npmu cbo\nevent e raw event=0x34 cmask=32\n",
	  "t.layout:7:24: expected a number from 0 to 0x1f in 'cmask=32'" },
	{ HEAD "group g\npmu imc\nevent e DRAM_DATA_EATS\n",
	  "t.layout:7:9: expected an IMC counter (DRAM_GT_REQUESTS, DRAM_IA_REQUESTS, DRAM_IO_REQUESTS, DRAM_DATA_READS, DRAM_DATA_WRITES), not 'DRAM_DATA_EATS'" },
	{ HEAD "group g\npmu uncore\nevent e UNC_LLC_HITS:ANY\n",
	  "t.layout:7:9: expected 'raw FIELD=VALUE...' (no 'libpfm_uncore PMU' line before this event names the libpfm4 PMU)" },
	{ HEAD "libpfm_uncore nhm_unc\ngroup g\npmu uncore\nevent e UNC_IMC_NORMAL_READS:CH0\n",
	  "t.layout:8:9: expected an event libpfm4 knows for PMU nhm_unc: 'UNC_IMC_NORMAL_READS:CH0': event not found" },
	{ HEAD "group g\npmu uncore\nevent e raw event=0x2C\nmetric m thread % = e\n",
	  "t.layout:8:10: expected scope socket or channel in an uncore group: uncore counts belong to sockets and channels, core counts to threads, cores and sockets" },
	{ HEAD "metric u channel B/s = seconds\n",
	  "t.layout:5:10: expected scope thread, core or socket outside an uncore group: uncore counts belong to sockets and channels, core counts to threads, cores and sockets" },
	{ HEAD "group g\npmu uncore\nevent e raw event=0x2C channel=0\nmetric s socket B/s = e\nmetric c channel B/s = s\n",
	  "t.layout:9:24: expected metric 's' has scope socket: a channel metric cannot use it" },
	{ HEAD "group g\nend\n", "t.layout:6:1: expected at least one event in group 'g' before 'end'" },
	{ HEAD "group g\nevent e raw event=0x3C\n", "t.layout:7:1: expected 'end' to close group 'g' before the end of the file" },
	{ HEAD "group g\nevent e raw event=0x3C\nend\ngroup g\n", "t.layout:8:7: expected a new group name: 'g' is already a group" },
	{ HEAD "metric c core % = cycles\n",
	  "t.layout:6:1: expected at least one 'metric NAME thread ...' line: the screen colours each hardware thread by one" },
	{ HEAD "description \"\x1b[2Jgone\"\n", "t.layout:5:14: expected printable text, not control character 0x1B" },
	{ HEAD "metric u thread % = " "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((cycles\n",
	  "t.layout:5:85: expected a formula nested at most 64 deep (parentheses, calls and signs)" },
	{ HEAD "metric u thread % = " "------------------------------------------------------------------cycles\n",
	  "t.layout:5:85: expected a formula nested at most 64 deep (parentheses, calls and signs)" },
	{ HEAD "group g\nevent cycles raw event=0x3C\n", "t.layout:6:7: expected a new name: 'cycles' is already a built-in" },
	{ HEAD "group g\nevent e raw event=0x3C\nmetric m thread % = min(e, x)\n",
	  "t.layout:7:28: expected a known name: 'x' is not an event, metric or built-in" },
	{ HEAD "thresholds warn 1\n", "t.layout:5:1: expected a metric line before 'thresholds'" },
	{ HEAD "metric u thread % = 1\nthresholds warn\n", "t.layout:6:11: expected warn N and/or crit N after 'thresholds'" },
	{ HEAD "metric u thread % = 1\nthresholds warm 3\n", "t.layout:6:12: expected warn N or crit N, not 'warm'" },
	{ HEAD "metric u thread % = 1\nthresholds warn 5 crit\n", "t.layout:6:23: expected a number after 'crit'" },
	{ HEAD "metric u thread % = 1\nthresholds warn 50 crit 10\n", "t.layout:6:12: expected warn at most crit (50 > 10)" },
	{ HEAD "pane p\n", "t.layout:5:1: expected layout, description, vendor, offcore, libpfm, libpfm_uncore, models, include, drop, metric, unavailable, help, thresholds, tree, threshold or group, not 'pane'" },
	{ HEAD "end\n", "t.layout:5:1: expected a 'group' before 'end'" },
	{ HEAD "help \"x\"\n", "t.layout:5:1: expected a metric line before 'help'" },
	{ HEAD "metric u thread % = 1 + e\n", "t.layout:5:25: expected a known name: 'e' is not an event, metric or built-in" },
	{ "pmutop-layout 1\nlayout t\nmodels 06_1A\ngroup g\nevent e UOPS_ISSUED:ANY\n",
	  "t.layout:5:9: expected 'raw FIELD=VALUE...' (no 'libpfm PMU' line before this event names the libpfm4 PMU)" },
};

START_TEST(bad_layouts_give_one_line)
{
	struct layout *l;
	char err[512];

	ck_assert_int_eq(layout_parse(bad[_i].text, "t.layout", &l, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(l);
	ck_assert_str_eq(err, bad[_i].err);
}
END_TEST

/*
 * AMD's fabric counts each channel with an event of its own, four to a group:
 * one name's channels in the groups of one key are one variable, and a
 * channel metric in the last group reads them all.
 */
START_TEST(channels_of_one_name_span_a_keys_groups)
{
	static const char text[] =
		"pmutop-layout 1\nlayout t\nvendor amd\n"
		"group m\nkey 9\npmu df\nevent beats raw event=0x07 umask=0x38 channel=0\nend\n"
		"group m.2\nkey 9\npmu df\nevent beats raw event=0x47 umask=0x38 channel=1\n"
		"metric bw channel MB/s = beats * 64 / 1e6 / seconds\nend\n"
		"metric ipc thread ratio = instructions / cycles\n";
	struct layout *l;
	char err[512];

	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(l->nevents, 2);
	ck_assert_int_eq(l->events[0].var, l->events[1].var);
	ck_assert_int_eq(l->events[1].event, 0x47);
	ck_assert(l->metrics[0].uses & LAYOUT_GROUP(0));
	ck_assert(l->metrics[0].uses & LAYOUT_GROUP(1));
	layout_free(l);
}
END_TEST

START_TEST(metrics_may_use_earlier_metrics_and_builtins)
{
	struct layout *l;
	char err[512];
	double vars[64];
	int m;

	ck_assert_msg(layout_parse(HEAD "metric ipc thread ratio = instructions / cycles\n"
				   "group g\nkey 1\nevent s raw event=0x0E umask=1 cmask=1 inv=1\n"
				   "metric s_pct thread % = 100 * s / cycles\n"
				   "metric both thread % = s_pct * ipc # a comment\nend\n",
				   "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(layout_nvars(l), LAYOUT_NBUILTINS + 1 + 3);
	for (int i = 0; i < 64; i++)
		vars[i] = NAN;
	vars[LAYOUT_B_instructions] = 300;
	vars[LAYOUT_B_cycles] = 200;
	vars[layout_event_var(l, 0)] = 50;
	for (m = 0; m < l->nmetrics; m++)
		vars[layout_metric_var(l, m)] = expr_eval(l->metrics[m].expr, vars);
	ck_assert_double_eq(vars[layout_metric_var(l, 2)], 25 * 1.5);
	ck_assert_str_eq(l->metrics[2].formula, "s_pct * ipc");
	layout_free(l);
}
END_TEST

START_TEST(unreadable_files_say_so)
{
	struct layout *l;
	char err[512];

	ck_assert_int_eq(layout_load("/nonexistent.layout", &l, err, sizeof(err)), -ENOENT);
	ck_assert(strstr(err, "cannot open layout /nonexistent.layout"));
	ck_assert_int_ne(layout_load(TEST_DATADIR, &l, err, sizeof(err)), 0);
	ck_assert(strstr(err, TEST_DATADIR));
}
END_TEST

/* TEXT: a layout of N groups of one event each. */
static void groups_layout(char *text, size_t len, int n)
{
	size_t k = (size_t)snprintf(text, len, HEAD "metric u thread %% = cycles\n");

	for (int g = 0; g < n; g++)
		k += (size_t)snprintf(text + k, len - k, "group g%d\nevent e%d raw "
				      "event=0x3C\nend\n", g, g);
}

/*
 * Group masks are 128 bits wide: 128 groups are a layout, the last one on
 * bit 127 (a two-socket server's vendor tree, Info metrics and uncore take
 * more than 64); a 129th group is refused, never aliased onto another.
 * Sets across both halves count and find their first group.
 */
START_TEST(at_most_128_groups)
{
	char text[32768], err[512];
	struct layout *l;

	groups_layout(text, sizeof(text), LAYOUT_MAX_GROUPS);
	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(l->ngroups, 128);
	ck_assert_int_eq(layout_group_find(l, "g127"), 127);
	ck_assert_str_eq(l->events[l->groups[127].first_event].name, "e127");
	ck_assert(layout_key_groups(l, 100) == LAYOUT_GROUP(100));
	ck_assert(layout_groups_counted(l, LAYOUT_GROUP(127)) == LAYOUT_GROUP(127));
	ck_assert_int_eq(layout_groups_first(LAYOUT_GROUP(127) | LAYOUT_GROUP(64)), 64);
	ck_assert_int_eq(layout_groups_first(LAYOUT_GROUP(127) | LAYOUT_GROUP(3)), 3);
	ck_assert_int_eq(layout_groups_count(LAYOUT_GROUPS_BELOW(LAYOUT_MAX_GROUPS)), 128);
	ck_assert_int_eq(layout_groups_count(LAYOUT_GROUPS_BELOW(70)), 70);
	layout_free(l);
	groups_layout(text, sizeof(text), LAYOUT_MAX_GROUPS + 1);
	ck_assert_int_eq(layout_parse(text, "t.layout", &l, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "t.layout:390:1: expected at most 128 groups in a layout");
}
END_TEST

/*
 * One metric over more events than the counters: the groups of one key
 * take turns; an event may stand in several of them (each its own count);
 * a metric reads its own group's copy first, else another group's of its
 * key, and is n/a unless all the groups it reads counted.  The tree lines
 * give parents (named before or after), levels and the vendor's thresholds.
 */
/*
 * Ice Lake-SP and later read the offcore matrices with their OCR events
 * (2AH/2BH on Sapphire Rapids): "offcore 0x2A 0x2B" says so, the register
 * of each follows; B7H is then an event like any other.  frontend=VALUE is
 * MSR_PEBS_FRONTEND's value: one per set, like an offcore register's.
 */
START_TEST(offcore_events_and_the_frontend_register)
{
	static const char text[] =
		"pmutop-layout 1\nlayout t\nmodels 06_8F\noffcore 0x2A 0x2B\n"
		"metric util thread % = 100 * ref_cycles / tsc\n"
		"group a\nevent x raw event=0x2A umask=1 offcore=0x10003C0002\n"
		"event y raw event=0x2B umask=1 offcore=0x10800\nevent amx raw event=0xB7 umask=0x10\n"
		"event fe raw event=0xC6 umask=1 frontend=0x13\nend\n"
		"group b\nevent z raw event=0x2B umask=1 offcore=0x10003C0002\n"
		"event fe2 raw event=0xC6 umask=1 frontend=0x1\nend\n";
	struct layout *l;
	struct counter_set set = { 0 };
	char err[512];

	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(l->events[0].offcore_msr, MSR_OFFCORE_RSP_0);
	ck_assert_uint_eq(l->events[1].offcore_msr, MSR_OFFCORE_RSP_1);
	ck_assert_uint_eq(l->events[2].offcore_msr, 0);
	ck_assert(!l->events[2].has_offcore);
	ck_assert(l->events[3].has_frontend);
	ck_assert_uint_eq(l->events[3].frontend, 0x13);
	/* group b's front-end value differs from a's: they cannot share the counters */
	ck_assert(counter_set_add(l, &set, 0, 0xFF));
	ck_assert(!counter_set_add(l, &set, 1, 0xFF));
	layout_free(l);
}
END_TEST

/*
 * A set the events cannot share is refused (by a matching: the search would
 * try 8! orders of nine events on eight counters first); one
 * that fits only one way (an event on counter 0 alone, another on 0 or 1)
 * is found, each event on a counter it may use.
 */
START_TEST(counters_that_cannot_fit_are_refused_at_once)
{
	char text[2048] = "pmutop-layout 1\nlayout t\nmodels 06_8F\n"
			  "metric util thread % = 100 * ref_cycles / tsc\ngroup a\n";
	struct layout *l;
	int ev[9], ctr[9];
	char err[512];

	for (int i = 0; i < 9; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "event e%d raw event=0x%X umask=1%s\n", i, 0x10 + i,
			 i == 7 ? " counters=0,1" : i == 8 ? " counters=0" : "");
	strcat(text, "end\n");
	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	for (int i = 0; i < 9; i++)
		ev[i] = i, ctr[i] = -1;
	ck_assert(!layout_assign_counters(l, ev, 9, 0xFF, ctr));
	/* eight of them fit: e8 takes counter 0, e7 counter 1, the rest 2-7 */
	ck_assert(layout_assign_counters(l, ev + 1, 8, 0xFF, ctr));
	ck_assert_int_eq(ctr[7], 0);
	ck_assert_int_eq(ctr[6], 1);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < i; j++)
			ck_assert_int_ne(ctr[i], ctr[j]);
	/* and not on counters 1-7 only */
	for (int i = 0; i < 9; i++)
		ctr[i] = -1;
	ck_assert(!layout_assign_counters(l, ev + 1, 8, 0xFE, ctr));
	layout_free(l);
}
END_TEST

START_TEST(groups_of_one_key_and_the_tree)
{
	struct layout *l;
	char err[512];
	double vars[64];

	ck_assert_msg(layout_parse(HEAD "metric u thread % = 100 * ref_cycles / tsc\n"
				   "group a\nkey 1\nevent x.y raw event=0x0E umask=1\n"
				   "event z raw event=0xC2 umask=2\n"
				   "metric top thread % = 100 * x.y / cycles\ntree - 1 2\n"
				   "threshold top > 20 & kid > 5\nend\n"
				   "group a.2\nkey 1\nevent x.y raw event=0x0E umask=1\n"
				   "event w raw event=0x9C umask=1\n"
				   "metric kid thread % = 100 * (w + z) / x.y\ntree top 2\nend\n"
				   "unavailable gone thread % \"needs what is not here\"\ntree top 2 1\n",
				   "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(l->ngroups, 2);
	ck_assert_int_eq(layout_key_groups(l, 1), LAYOUT_GROUP(0) | LAYOUT_GROUP(1));
	ck_assert_int_eq(l->nevents, 4);
	/* x.y stands in both groups, each its own count; kid reads its own, w and a's z */
	{
		int kid = layout_metric_find(l, "kid"), top = layout_metric_find(l, "top");
		int gone = layout_metric_find(l, "gone");

		ck_assert_int_ne(layout_event_var(l, 0), layout_event_var(l, 2));
		ck_assert_int_eq(l->metrics[kid].uses, LAYOUT_GROUP(0) | LAYOUT_GROUP(1));
		ck_assert_int_eq(l->metrics[top].uses, LAYOUT_GROUP(0));
		ck_assert(layout_metric_reads(l, kid, 1) && layout_metric_reads(l, kid, 2) &&
			  layout_metric_reads(l, kid, 3) && !layout_metric_reads(l, kid, 0));
		ck_assert_int_eq(l->metrics[kid].parent, top);
		ck_assert_int_eq(l->metrics[gone].parent, top);
		ck_assert_int_eq(l->metrics[top].level, 1);
		ck_assert_int_eq(l->metrics[gone].tree_pos, 1);
		ck_assert_str_eq(l->metrics[gone].na, "needs what is not here");
		for (int i = 0; i < 64; i++)
			vars[i] = NAN;
		vars[LAYOUT_B_cycles] = 100;
		vars[layout_event_var(l, 0)] = 40;     /* a's x.y */
		vars[layout_event_var(l, 2)] = 40;     /* a.2's x.y */
		vars[layout_event_var(l, 1)] = 4;      /* z */
		vars[layout_event_var(l, 3)] = 0;      /* w */
		vars[layout_metric_var(l, top)] = expr_eval(l->metrics[top].expr, vars);
		vars[layout_metric_var(l, kid)] = expr_eval(l->metrics[kid].expr, vars);
		ck_assert_double_eq_tol(vars[layout_metric_var(l, top)], 40, 1e-9);
		ck_assert_double_eq_tol(vars[layout_metric_var(l, kid)], 10, 1e-9);
		ck_assert_int_eq(layout_metric_flagged(l, top, vars), 1);   /* 40 > 20 and 10 > 5 */
		vars[layout_event_var(l, 1)] = 1;
		vars[layout_metric_var(l, kid)] = expr_eval(l->metrics[kid].expr, vars);
		ck_assert_int_eq(layout_metric_flagged(l, top, vars), 0);   /* kid 2.5 */
		ck_assert_int_eq(layout_metric_flagged(l, kid, vars), -1);  /* no threshold */
	}
	layout_free(l);
}
END_TEST

/*
 * A key whose metrics read another key's events says so ("reads"): its
 * metrics read them there, and selecting it counts those groups too.
 */
START_TEST(a_key_reads_another_keys_groups)
{
	struct layout *l;
	char err[512];

	ck_assert_msg(layout_parse(HEAD "group a\nkey 3\nevent x raw event=0x0E umask=1\nend\n"
				   "group a.2\nkey 3\nevent y raw event=0x9C umask=1\nend\n"
				   "group b\nkey 7\nreads a.2\nevent z raw event=0xC2 umask=2\n"
				   "metric wide thread % = 100 * (y + z) / cycles\nend\n"
				   "group c\nkey 8\nevent w raw event=0xC2 umask=4\nend\n",
				   "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(l->groups[2].reads, LAYOUT_GROUP(1));
	/* wide reads a.2's y and its own z; selecting key 7 counts a.2, not a, nor key 8 */
	ck_assert_int_eq(l->metrics[layout_metric_find(l, "wide")].uses, LAYOUT_GROUP(1) | LAYOUT_GROUP(2));
	ck_assert_int_eq(layout_groups_counted(l, LAYOUT_GROUP(2)), LAYOUT_GROUP(1) | LAYOUT_GROUP(2));
	ck_assert_int_eq(layout_groups_counted(l, LAYOUT_GROUP(0) | LAYOUT_GROUP(3)),
			 LAYOUT_GROUP(0) | LAYOUT_GROUP(3));
	/* the toggles stay the key's own groups */
	ck_assert_int_eq(layout_key_groups(l, 2), LAYOUT_GROUP(2));
	layout_free(l);
	/* without the line, another key's event is refused */
	ck_assert_int_ne(layout_parse(HEAD "group a\nkey 3\nevent y raw event=0x9C umask=1\nend\n"
				      "group b\nkey 7\nevent z raw event=0xC2 umask=2\n"
				      "metric wide thread % = y + z\nend\n", "t.layout", &l, err,
				      sizeof(err)), 0);
	ck_assert_str_eq(err, "t.layout:12:24: expected event 'y' belongs to group 'a': a metric "
			 "uses only its own group's events");
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *enc = tcase_create("encodings_equal_the_documents");
	TCase *ship = tcase_create("shipped_layouts_fit_their_models");
	TCase *b = tcase_create("bad_layouts_give_one_line");

	tcase_add_loop_test(enc, encodings_equal_the_documents, 0,
			    (int)(sizeof(encodings) / sizeof(encodings[0])));
	tcase_add_loop_test(enc, uncore_encodings_equal_the_documents, 0,
			    (int)(sizeof(unc_encodings) / sizeof(unc_encodings[0])));
	suite_add_tcase(s, enc);
	tcase_add_loop_test(ship, shipped_layouts_fit_their_models, 0,
			    (int)(sizeof(shipped) / sizeof(shipped[0])));
	/* each runs an emulated machine on the real clock: Check's 4 s are too few on a loaded CI */
	tcase_set_timeout(ship, 60);
	suite_add_tcase(s, ship);
	CHECK_ADD(s, layout_find_picks_by_model);
	tcase_add_loop_test(b, bad_layouts_give_one_line, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	suite_add_tcase(s, b);
	CHECK_ADD(s, metrics_may_use_earlier_metrics_and_builtins);
	CHECK_ADD(s, channels_of_one_name_span_a_keys_groups);
	CHECK_ADD(s, a_key_reads_another_keys_groups);
	CHECK_ADD(s, unreadable_files_say_so);
	CHECK_ADD(s, at_most_128_groups);
	CHECK_ADD(s, groups_of_one_key_and_the_tree);
	CHECK_ADD(s, offcore_events_and_the_frontend_register);
	CHECK_ADD(s, counters_that_cannot_fit_are_refused_at_once);
	CHECK_ADD(s, cpu_table_names_the_layouts);
	CHECK_ADD(s, own_layouts_cover_what_their_models_line_names);
	CHECK_ADD(s, amd_layouts_take_twelve_bit_event_selects);
	CHECK_ADD(s, include_splices_replaces_and_drops);
	CHECK_ADD(s, westmere_shares_nehalems_groups);
	{
		TCase *tc = tcase_create("shipped_layouts_round_trip_through_their_text");

		tcase_add_loop_test(tc, shipped_layouts_round_trip_through_their_text, 0,
				    (int)(sizeof(shipped) / sizeof(shipped[0])));
		suite_add_tcase(s, tc);
	}
	return s;
}

CHECK_MAIN(layout_suite)
