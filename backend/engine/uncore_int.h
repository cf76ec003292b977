/*
 * uncore_int: the per-socket PMUs' state, shared by uncore.c (planning,
 * programming, reading) and uncore_sample.c (the sample's socket and
 * channel figures and their checks).  Not for any other module.
 */
#ifndef PMUTOP_UNCORE_INT_H
#define PMUTOP_UNCORE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "counter.h"
#include "pmu_regs.h"
#include "uncore.h"

#define UNCORE_MAX_SLOTS 8            /* counters of one PMU kind on a socket, all boxes */
/* BAR + 5040H .. 5057H by offset / 4 (5040H, 5044H, 5048H, 5050H, 5054H; 504CH unused) */
#define UNCORE_IMC_COUNTERS ((SKL_IMC_DRAM_DATA_WRITES - SKL_IMC_DRAM_GT_REQUESTS) / 4 + 1)

/*
 * One bank of programmable uncore counters: event selects at EVTSEL0 + k,
 * counters at CTR0 + k, BOXES banks STRIDE apart (the CBo slices).
 */
struct uncore_bank {
	uint32_t evtsel0, ctr0, stride;
	int counters;
	unsigned width;
};

static const struct uncore_bank uncore_banks[LAYOUT_NPMUS] = {
	[LAYOUT_PMU_UNCORE] = { .evtsel0 = MSR_UNCORE_PERFEVTSEL0, .ctr0 = MSR_UNCORE_PMC0,
				.counters = NHM_UNC_COUNTERS, .width = NHM_UNC_WIDTH },
	[LAYOUT_PMU_CBO] = { .evtsel0 = MSR_UNC_CBO_0_PERFEVTSEL0, .ctr0 = MSR_UNC_CBO_0_PERFCTR0,
			     .stride = SKL_UNC_CBO_STRIDE, .counters = SKL_UNC_BOX_COUNTERS,
			     .width = SKL_UNC_WIDTH },
	[LAYOUT_PMU_ARB] = { .evtsel0 = MSR_UNC_ARB_PERFEVTSEL0, .ctr0 = MSR_UNC_ARB_PERFCTR0,
			     .counters = SKL_UNC_BOX_COUNTERS, .width = SKL_UNC_WIDTH },
};

/* Global enable and the fixed uncore clock of each uncore kind. */
static const struct uncore_kind_regs {
	uint32_t global_ctrl, fixed_ctrl, fixed_ctr;
	uint64_t global_bits, fixed_bits;
	unsigned fixed_width;
} uncore_kinds[] = {
	[CPUMODEL_UNCORE_NHM] = { .global_ctrl = MSR_UNCORE_PERF_GLOBAL_CTRL,
			     .fixed_ctrl = MSR_UNCORE_FIXED_CTR_CTRL, .fixed_ctr = MSR_UNCORE_FIXED_CTR0,
			     .global_bits = 0xFFull | NHM_UNC_GLOBAL_FIXED,
			     .fixed_bits = NHM_UNC_FIXED_EN, .fixed_width = NHM_UNC_WIDTH },
	[CPUMODEL_UNCORE_SKL] = { .global_ctrl = MSR_UNC_PERF_GLOBAL_CTRL,
			     .fixed_ctrl = MSR_UNC_PERF_FIXED_CTRL, .fixed_ctr = MSR_UNC_PERF_FIXED_CTR,
			     .global_bits = SKL_UNC_GLOBAL_EN, .fixed_bits = SKL_UNC_FIXED_CNT_EN,
			     .fixed_width = SKL_UNC_FIXED_WIDTH },
};


struct uncore_socket {
	int index;                /* topo socket index */
	int reader;               /* OS CPU its registers are reached through, -1: none online */
	bool taken;               /* someone else's: left alone */
	bool failed;              /* a register failed this interval: figures n/a */
	uint64_t prev[LAYOUT_NPMUS][UNCORE_MAX_SLOTS];
	uint64_t fixed_prev;
	uint64_t imc_prev[UNCORE_IMC_COUNTERS];
	double fixed_acc;
	double *acc, *live;       /* per layout event */
	bool *moved;              /* per layout event: counted something since the start */
	double t_start, t_last;   /* the interval's start, the last read (fixed, IMC) */
	double t_set;             /* when the current set's counters were zeroed or last read */
	int resets;
};

struct uncore {
	struct uncore_config cfg;
	const struct layout *l;
	int nboxes[LAYOUT_NPMUS];
	int nchan;                /* channels the layout counts per socket */
	struct uncore_socket *socks;
	int nsocks;
	struct counter_set *sets;
	int nsets, cur;
	uint32_t imc_groups;      /* selected IMC groups with a window to read */
	bool used;                /* a known uncore and a layout with uncore groups */
	char (*blocked)[SAMPLE_WHY_MAX];
	char note[1100];
	char taken_note[1024];    /* sockets whose uncore another program took while pmutop ran */
	char error[512];
	struct uncore_perf *perf;  /* the perf source's PMUs and groups, or NULL (uncore_perf.c) */
};

/* The perf source (uncore_perf.c): its side of create, plan, baseline, read and free. */
int uncore_perf_create(struct uncore *u, const struct perf_sys *sys,
		       const struct perf_access *access);
void uncore_perf_plan(struct uncore *u, uint32_t groups);
bool uncore_perf_live(const struct uncore *u, int g);
void uncore_perf_baseline(struct uncore *u);
void uncore_perf_read(struct uncore *u);
void uncore_perf_free(struct uncore *u);

/* The set of groups live now (NULL when none). */
const struct counter_set *uncore_cur(const struct uncore *u);

#endif
