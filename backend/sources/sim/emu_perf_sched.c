/*
 * emu_perf_sched: the emulated kernel's counters and scheduler: an event's
 * count from its register (widened) or the IMC window, a context's groups
 * put on the counters in order as Linux does (a group whose events do not
 * fit waits; the fixed counters for the generic events), times kept per
 * group, the list rotated at each tick.  See emu_perf_int.h.
 */
#include "emu_perf_int.h"
#include "emu_int.h"
#include "emu_machine.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct ek_named_event ek_imc_events[] = {
	{ "data_reads", 0x01, SKL_IMC_DRAM_DATA_READS },
	{ "data_writes", 0x02, SKL_IMC_DRAM_DATA_WRITES },
	{ "gt_requests", 0x03, SKL_IMC_DRAM_GT_REQUESTS },
	{ "ia_requests", 0x04, SKL_IMC_DRAM_IA_REQUESTS },
	{ "io_requests", 0x05, SKL_IMC_DRAM_IO_REQUESTS },
};

const int ek_nimc_events = (int)(sizeof(ek_imc_events) / sizeof(ek_imc_events[0]));

/* Linux's msr PMU (arch/x86/events/msr.c): the events an AMD Zen has, and the MSR each reads. */
const struct ek_named_event ek_msr_events[] = {
	{ "tsc", 0x00, IA32_TIME_STAMP_COUNTER },
	{ "aperf", 0x01, IA32_APERF },
	{ "mperf", 0x02, IA32_MPERF },
	{ "irperf", 0x06, MSR_AMD_IRPERF_COUNT },
};

const int ek_nmsr_events = (int)(sizeof(ek_msr_events) / sizeof(ek_msr_events[0]));

const struct ek_named_event *ek_msr_event(uint64_t config)
{
	for (int i = 0; i < ek_nmsr_events; i++)
		if (ek_msr_events[i].event == config)
			return &ek_msr_events[i];
	return NULL;
}

static uint64_t ek_hw_arch_select(const struct emu_perf *k, const struct ek_event *e)
{
	switch (e->config) {
	case PERF_COUNT_HW_INSTRUCTIONS:
		return 0x00C0; /* AMD's ex_ret_instr has the same select */
	case PERF_COUNT_HW_CPU_CYCLES:
		return k->amd ? 0x0076 : 0x003C; /* AMD: ls_not_halted_cyc */
	default:
		return 0x013C; /* ref-cycles: UNHALTED_REFERENCE_CYCLES */
	}
}

double ek_now(struct emu_perf *k)
{
	return emu_clock_now(k->emu);
}

void ek_slots_put(struct ek_slots *f, int slot)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->slot = xrealloc(f->slot, (size_t)f->cap, sizeof(*f->slot));
	}
	f->slot[f->n++] = slot;
}

int ek_slots_take(struct ek_slots *f)
{
	return f->n ? f->slot[--f->n] : -1;
}

struct ek_event *ek_event_of(struct emu_perf *k, int fd)
{
	int slot = fd - EK_FD_BASE;

	return slot >= 0 && slot < k->nev && k->ev[slot].used ? &k->ev[slot] : NULL;
}

struct ek_ctx *ek_ctx_of(struct emu_perf *k, const struct ek_event *e)
{
	return &k->cpus[e->cpu].ctx[e->pmu];
}

/*
 * The kernel's topdown-* events (event 00H, umask 80H + k: the cpu PMU's
 * events/ aliases): PERF_METRICS field k, or -1.
 */
int ek_metric_of(const struct ek_event *e)
{
	unsigned umask = (unsigned)(e->config >> EVTSEL_UMASK_SHIFT) & 0xFF;

	if (e->type != PERF_TYPE_RAW || (e->config & ~0xFF00ull) || umask < 0x80 || umask > 0x87)
		return -1;
	return (int)umask - 0x80;
}

/* The fixed counter a generic hardware event (or the raw "slots", 00H/04H) runs on, or -1. */
int ek_fixed_of(const struct ek_event *e)
{
	if (e->type == PERF_TYPE_RAW)
		return e->config == 0x0400 ? 3 : -1;
	if (e->type != PERF_TYPE_HARDWARE)
		return -1;
	switch (e->config) {
	case PERF_COUNT_HW_INSTRUCTIONS:
		return 0;
	case PERF_COUNT_HW_CPU_CYCLES:
		return 1;
	case PERF_COUNT_HW_REF_CPU_CYCLES:
		return 2;
	default:
		return -1;
	}
}

/*
 * The extra register a raw core event uses, as Linux's extra_regs table
 * says: 0 or 1 the offcore response pair (B7H/BBH, or the machine's 2AH/2BH),
 * 2 MSR_PEBS_FRONTEND (any other event with config1 set, where the machine
 * has it), or -1.
 */
static int ek_offcore_of(const struct emu_perf *k, const struct ek_event *e)
{
	const struct emu_machine *m;
	int r;

	if (e->type != PERF_TYPE_RAW || k->pmus[e->pmu].kind != EK_CORE)
		return -1;
	m = emu_machine(k->emu);
	r = emu_machine_offcore_reg(m, (unsigned)(e->config & EVTSEL_EVENT_MASK));
	if (r >= 0)
		return r;
	return m->pebs_frontend && e->config1 ? EK_EXTRA_FRONTEND : -1;
}

static const uint32_t ek_extra_regs[EK_EXTRA_REGS] = {
	MSR_OFFCORE_RSP_0, MSR_OFFCORE_RSP_1, MSR_PEBS_FRONTEND,
};

/* The MCHBAR offset of an IMC event, or 0. */
uint32_t ek_imc_offset(const struct ek_event *e)
{
	for (size_t i = 0; i < (size_t)ek_nimc_events; i++)
		if ((e->config & EVTSEL_EVENT_MASK) == ek_imc_events[i].event)
			return ek_imc_events[i].offset;
	return 0;
}

/* The register (or MMIO offset) of E's counter and its width. */
static uint32_t ek_counter_reg(const struct emu_perf *k, const struct ek_event *e, unsigned *width)
{
	const struct ek_pmu *p = &k->pmus[e->pmu];

	if (p->kind == EK_CORE) {
		*width = e->hw >= EK_HW_FIXED ? k->fixed_width : k->gp_width;
		return e->hw >= EK_HW_FIXED ? IA32_FIXED_CTR0 + (uint32_t)(e->hw - EK_HW_FIXED)
					    : IA32_PMC0 + (uint32_t)e->hw;
	}
	if (p->kind == EK_SKL_IMC) {
		*width = SKL_IMC_WIDTH;
		return ek_imc_offset(e);
	}
	if (p->kind == EK_MSR) {
		*width = 64;
		return ek_msr_event(e->config) ? ek_msr_event(e->config)->offset
		       : IA32_TIME_STAMP_COUNTER;
	}
	*width = e->hw >= EK_HW_FIXED ? p->fixed_width : p->width;
	return e->hw >= EK_HW_FIXED ? p->fixed_ctr : p->ctr0 + (uint32_t)e->hw;
}

/* E's counter now, and its WIDTH (or NULL). */
static int ek_counter_value(struct emu_perf *k, const struct ek_event *e, uint64_t *v,
			    unsigned *width)
{
	unsigned w;
	uint32_t reg = ek_counter_reg(k, e, width ? width : &w);

	if (k->pmus[e->pmu].kind == EK_SKL_IMC) {
		uint32_t v32 = 0;
		int rc = emu_mem_read(k->emu, EMU_SKL_MCHBAR + reg, &v32, sizeof(v32));

		*v = v32;
		return rc < 0 ? rc : 0; /* it answers the bytes read */
	}
	return emu_msr_read(k->emu, e->cpu, reg, v);
}

/* Bring the running counter of E up to date. */
static void ek_read_counter(struct emu_perf *k, struct ek_event *e)
{
	unsigned width;
	uint64_t v;

	if (e->hw == EK_HW_NONE || e->hw >= EK_HW_METRIC || ek_counted(&k->pmus[e->pmu]) ||
	    ek_counter_value(k, e, &v, &width))
		return;
	e->count += (v - e->prev) & (width >= 64 ? ~0ull : (1ull << width) - 1);
	e->prev = v;
}

/*
 * Group L led by "slots" on fixed counter 3 with topdown-* members: each
 * member adds its field's share of the slots counted since the last clear
 * (slots x field / 0xFF, as the kernel computes it), then fixed counter 3
 * and PERF_METRICS are cleared together (the kernel does at every read).
 */
static void ek_read_topdown(struct emu_perf *k, struct ek_event *l)
{
	uint64_t metrics = 0, slots = l->prev;
	bool any = false;

	for (int m = 1; m < l->nmembers; m++)
		any |= k->ev[l->members[m]].hw >= EK_HW_METRIC;
	if (!any || emu_msr_read(k->emu, l->cpu, MSR_PERF_METRICS, &metrics))
		return;
	for (int m = 1; m < l->nmembers; m++) {
		struct ek_event *e = &k->ev[l->members[m]];

		if (e->hw >= EK_HW_METRIC)
			e->count += (uint64_t)((unsigned __int128)slots *
					       PERF_METRICS_FIELD(metrics, e->hw - EK_HW_METRIC) / 0xFF);
	}
	emu_msr_write(k->emu, l->cpu, MSR_PERF_METRICS, 0);
	emu_msr_write(k->emu, l->cpu, IA32_FIXED_CTR0 + 3, 0);
	l->prev = 0;
}

bool ek_counted(const struct ek_pmu *p)
{
	return p->kind == EK_SRV || p->kind == EK_POWER;
}

/* Event E of a box the kernel counts (ek_counted): what the model says it counted from T0 to T. */
static void ek_count_model(struct emu_perf *k, int cpu, int pmu, struct ek_event *e, double t0,
			   double t)
{
	const struct ek_pmu *p = &k->pmus[pmu];
	/* the format's umask (config:8-15,32-57): the vendor's UMask and UMaskExt */
	uint64_t umask = ((e->config >> 8) & 0xFF) | (e->config >> 32) << 8, c = e->config;
	unsigned event = (unsigned)(c & 0xFF);
	double v;

	if (t <= t0)
		return;
	/* AMD's formats (emu_perf_srv.c): the event's and umask's high bits elsewhere */
	if (p->unit == EMU_UNIT_AMD_L3 || p->unit == EMU_UNIT_AMD_UMC) {
		event |= (unsigned)(c >> 32 & 0xF) << 8;
		umask = c >> 8 & (p->unit == EMU_UNIT_AMD_UMC ? 0x3 : 0xFF);
	} else if (p->unit == EMU_UNIT_CHA && emu_machine(k->emu)->srv == EMU_SRV_SKX) {
		/* Skylake-SP's TOR: its FILTER1 (config1's high half) above the 8-bit umask */
		umask = (c >> 8 & 0xFF) | (e->config1 >> 32) << 8;
	} else if (p->unit == EMU_UNIT_AMD_DF) {
		bool v2 = emu_machine(k->emu)->perfmon_v2;

		event |= v2 ? (unsigned)(c >> 32 & 0x3F) << 8
			    : (unsigned)(c >> 32 & 0xF) << 8 | (unsigned)(c >> 59 & 0x3) << 12;
		umask = (c >> 8 & 0xFF) | (v2 ? (c >> 24 & 0xF) << 8 : 0);
	}
	/* a core's C6 residency: its own (c6-residency, event 02H), by how idle the core is */
	if (p->unit == EMU_UNIT_CSTATE_CORE && event == 0x02 && !umask)
		v = emu_cstate_core_count(k->emu, cpu, t0, t) + e->frac;
	else
		v = emu_srv_count(k->emu, k->cpus[cpu].socket, p->unit, p->box, p->nboxes, event,
				  umask, t0, t) + e->frac;
	e->count += (uint64_t)v;
	e->frac = v - floor(v);
}

/* Count E's pending time on the counters (ek_defer). */
void ek_flush(struct emu_perf *k, struct ek_event *e)
{
	if (e->pend_s > 0)
		ek_count_model(k, e->cpu, e->pmu, e, e->pend_t0, e->pend_t0 + e->pend_s);
	e->pend_s = 0;
}

/*
 * Event E of a counted box was on its counters from T0 to T: the model's
 * count of it, at once or later.  The emulated kernel's timer moves a
 * server's CHA groups every 4 ms, and each move counted every event of
 * every box (100 k model evaluations a second on 112 CHAs); within one
 * segment of the truth the count is the rate times the time, so the times
 * are summed and counted when the event is read or the truth moves on.
 */
void ek_defer(struct emu_perf *k, struct ek_event *e, double t0, double t)
{
	const struct scenario *sc = emu_scenario(k->emu);

	if (t <= t0)
		return;
	if (e->pend_s > 0 && t > e->pend_end)
		ek_flush(k, e);
	if (e->pend_s <= 0) {
		e->pend_t0 = t0;
		e->pend_end = sc ? scenario_next_change(sc, t0) : t0;
	}
	if (t <= e->pend_end)
		e->pend_s += t - t0;
	else /* the truth changes within: counted now */
		ek_count_model(k, e->cpu, e->pmu, e, t0, t);
}

/* Times and counts of context PMU of CPU up to T. */
void ek_sync(struct emu_perf *k, int cpu, int pmu, double t)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];
	uint64_t dt;

	if (c->lazy_n)
		ek_lazy_apply(k, cpu, pmu);
	dt = t > c->t ? (uint64_t)((t - c->t) * 1e9 + 0.5) : 0;
	for (int i = 0; i < c->norder; i++) {
		struct ek_event *l = &k->ev[c->order[i]];

		if (!l->enabled)
			continue;
		l->enabled_ns += dt;
		if (!l->scheduled)
			continue;
		l->running_ns += dt;
		for (int m = 0; m < l->nmembers; m++)
			if (ek_counted(&k->pmus[pmu]) && k->ev[l->members[m]].hw != EK_HW_NONE)
				ek_defer(k, &k->ev[l->members[m]], c->t, t);
			else
				ek_read_counter(k, &k->ev[l->members[m]]);
		if (l->hw == EK_HW_FIXED + 3 && k->pmus[pmu].kind == EK_CORE)
			ek_read_topdown(k, l);
	}
	if (t > c->t)
		c->t = t;
}

/* Take every group of the context off its counters (their counts already synced). */
void ek_unschedule(struct emu_perf *k, int cpu, int pmu)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];
	const struct ek_pmu *p = &k->pmus[pmu];

	for (int i = 0; i < c->norder; i++) {
		struct ek_event *l = &k->ev[c->order[i]];

		for (int m = 0; l->scheduled && m < l->nmembers; m++) {
			struct ek_event *e = &k->ev[l->members[m]];

			if (e->hw >= 0 && e->hw < EK_HW_FIXED && !ek_counted(p))
				emu_msr_write(k->emu, cpu, p->kind == EK_CORE
					      ? IA32_PERFEVTSEL0 + (uint32_t)e->hw
					      : p->evtsel0 + (uint32_t)e->hw, 0);
			e->hw = EK_HW_NONE;
		}
		l->scheduled = false;
	}
	if (p->kind == EK_CORE && k->fixed)
		emu_msr_write(k->emu, cpu, IA32_FIXED_CTR_CTRL,
			      k->watchdog ? (FIXED_CTRL_OS | FIXED_CTRL_USR) << FIXED_CTRL_SHIFT(1) : 0);
	if (p->fixed)
		emu_msr_write(k->emu, cpu, p->fixed_ctrl, 0);
	for (int o = 0; o < EK_EXTRA_REGS; o++)
		c->offcore_users[o] = 0;
}

/* The vendor's "Counter": "0" events: a CHA's TOR occupancy (36H) counts on counter 0 only. */
static bool ek_counter0_only(const struct ek_pmu *p, const struct ek_event *e)
{
	return p->kind == EK_SRV && p->unit == EMU_UNIT_CHA && (e->config & 0xFF) == 0x36;
}

/*
 * Counters for group L given what is taken (GP, FIXED, the offcore values
 * in use): true and the assignment in HW, or false when it does not fit.
 */
bool ek_fit(struct emu_perf *k, const struct ek_ctx *c, const struct ek_event *l,
		   uint32_t gp, uint32_t fixed, int *hw)
{
	const struct ek_pmu *p = &k->pmus[l->pmu];
	unsigned ngp = p->kind == EK_CORE ? ek_pmu_gp(k, p) : p->counters;
	uint64_t offcore[EK_EXTRA_REGS];
	int users[EK_EXTRA_REGS];

	memcpy(offcore, c->offcore, sizeof(offcore));
	memcpy(users, c->offcore_users, sizeof(users));

	for (int m = 0; m < l->nmembers; m++) {
		const struct ek_event *e = &k->ev[l->members[m]];
		int n = p->kind == EK_CORE ? ek_fixed_of(e)
			: p->fixed && (e->config & EVTSEL_EVENT_MASK) == EK_UNC_FIXED_EVENT ? 0 : -1;
		int o = ek_offcore_of(k, e), td = p->kind == EK_CORE ? ek_metric_of(e) : -1;

		if (p->kind == EK_SKL_IMC || p->kind == EK_POWER || p->kind == EK_MSR) {
			hw[m] = EK_HW_FREE;
			continue;
		}
		/* a topdown-* event: no counter of its own, only beside "slots" leading its group */
		if (td >= 0) {
			if (!m || hw[0] != EK_HW_FIXED + 3 || (unsigned)td >= k->perf_metrics)
				return false;
			hw[m] = EK_HW_METRIC + td;
			continue;
		}
		if (n >= 0 && !((p->kind == EK_CORE && (unsigned)n >= ek_pmu_fixed(k, p)) ||
				(fixed & (1u << n)))) {
			fixed |= 1u << n;
			hw[m] = EK_HW_FIXED + n;
			continue;
		}
		/* a generic event whose fixed counter is taken goes on a general one, as Linux does */
		if (n >= 0 && (p->kind != EK_CORE || e->type != PERF_TYPE_HARDWARE))
			return false;
		/* the shared extra register: one value at a time (Linux's extra_reg constraint) */
		if (o >= 0) {
			if (users[o] && offcore[o] != e->config1)
				return false;
			offcore[o] = e->config1;
			users[o]++;
		}
		hw[m] = EK_HW_NONE;
	}
	/*
	 * The general counters, the most constrained events first, as Linux's
	 * perf_assign_events places them by weight: an event that only counter 0
	 * takes gets it whatever comes before it in the group (a CHA group led by
	 * its clockticks holds a TOR occupancy)
	 */
	for (int pass = 0; pass < 2; pass++)
		for (int m = 0; m < l->nmembers; m++) {
			const struct ek_event *e = &k->ev[l->members[m]];
			bool only0 = ek_counter0_only(p, e);

			if (hw[m] != EK_HW_NONE || only0 != (pass == 0))
				continue;
			for (unsigned g = 0; g < ngp && hw[m] == EK_HW_NONE; g++)
				if (!(gp & (1u << g)) && (g == 0 || !only0)) {
					gp |= 1u << g;
					hw[m] = (int)g;
				}
			if (hw[m] == EK_HW_NONE)
				return false;
		}
	return true;
}

/* Program group L on its counters HW; FIXED_CTRL gathers the core's fixed-counter control. */
static void ek_program(struct emu_perf *k, struct ek_ctx *c, struct ek_event *l, const int *hw,
		       uint64_t *fixed_ctrl)
{
	const struct ek_pmu *p = &k->pmus[l->pmu];

	for (int m = 0; m < l->nmembers; m++) {
		struct ek_event *e = &k->ev[l->members[m]];
		uint64_t priv = (e->exclude_user ? 0 : EVTSEL_USR) | (e->exclude_kernel ? 0 : EVTSEL_OS);
		/* (Intel's version 6: the format's eq and umask's second byte, config:36 and 40-47) */
		uint64_t sel = e->type == PERF_TYPE_HARDWARE ? ek_hw_arch_select(k, e)
			       : e->config & (0xFFFFFFFFull | (k->amd ? AMD_EVTSEL_EVENT_HI_MASK
								     : EVTSEL_EQ | EVTSEL_UMASK2_MASK)) &
				 ~(EVTSEL_USR | EVTSEL_OS | EVTSEL_INT);
		int o = ek_offcore_of(k, e);
		unsigned width;

		e->hw = hw[m];
		e->prev = 0;
		if (e->hw >= EK_HW_METRIC)
			continue; /* PERF_METRICS: read beside the leader's fixed counter 3 */
		if (ek_counted(p))
			continue; /* the model counts from the context's time on (ek_sync) */
		if (e->hw == EK_HW_FREE) {
			/* free-running: counting from now is counting from its value now */
			ek_counter_value(k, e, &e->prev, NULL);
			continue;
		}
		if (e->hw >= EK_HW_FIXED) {
			unsigned n = (unsigned)(e->hw - EK_HW_FIXED);

			if (p->kind == EK_CORE)
				*fixed_ctrl |= ((e->exclude_kernel ? 0 : FIXED_CTRL_OS) |
						(e->exclude_user ? 0 : FIXED_CTRL_USR)) << FIXED_CTRL_SHIFT(n);
			else
				emu_msr_write(k->emu, e->cpu, p->fixed_ctrl, p->fixed_en);
			emu_msr_write(k->emu, e->cpu, ek_counter_reg(k, e, &width), 0);
			if (p->kind == EK_CORE && n == 3 && k->perf_metrics)
				emu_msr_write(k->emu, e->cpu, MSR_PERF_METRICS, 0); /* with its slots */
			continue;
		}
		if (o >= 0) {
			c->offcore[o] = e->config1;
			c->offcore_users[o]++;
			emu_msr_write(k->emu, e->cpu, ek_extra_regs[o], e->config1);
		}
		/* the raw config is the select's own bits (the PMU's format), enabled */
		if (p->kind == EK_CORE)
			emu_msr_write(k->emu, e->cpu, IA32_PERFEVTSEL0 + (uint32_t)e->hw,
				      sel | priv | EVTSEL_EN);
		else
			emu_msr_write(k->emu, e->cpu, p->evtsel0 + (uint32_t)e->hw, sel | EVTSEL_EN);
		emu_msr_write(k->emu, e->cpu, ek_counter_reg(k, e, &width), 0);
	}
	l->scheduled = true;
}

/* Schedule the context's enabled groups in order until one does not fit. */
void ek_schedule(struct emu_perf *k, int cpu, int pmu)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];
	bool core = k->pmus[pmu].kind == EK_CORE;
	/* the watchdog's event is pinned: scheduled before every flexible group */
	uint32_t gp = 0, fixed = core && k->watchdog ? 1u << 1 : 0;
	uint64_t fixed_ctrl = core && k->watchdog ? (FIXED_CTRL_OS | FIXED_CTRL_USR) << FIXED_CTRL_SHIFT(1)
						  : 0;

	for (int i = 0; i < c->norder; i++) {
		struct ek_event *l = &k->ev[c->order[i]];
		int hw[PERF_GROUP_MAX];

		if (!l->enabled)
			continue;
		if (!ek_fit(k, c, l, gp, fixed, hw))
			break; /* Linux stops at the first flexible group that does not fit */
		ek_program(k, c, l, hw, &fixed_ctrl);
		for (int m = 0; m < l->nmembers; m++)
			if (hw[m] >= EK_HW_FIXED && hw[m] < EK_HW_FREE)
				fixed |= 1u << (hw[m] - EK_HW_FIXED);
			else if (hw[m] >= 0 && hw[m] < EK_HW_FIXED)
				gp |= 1u << hw[m];
	}
	if (k->pmus[pmu].kind == EK_CORE && k->fixed)
		emu_msr_write(k->emu, cpu, IA32_FIXED_CTR_CTRL, fixed_ctrl);
	c->rotates = false;
	for (int i = 0; i < c->norder; i++)
		c->rotates |= k->ev[c->order[i]].enabled && !k->ev[c->order[i]].scheduled;
	if (c->rotates && !k->timer_on) {
		k->timer_on = true;
		k->t_rot = ek_now(k); /* the hold of the call that scheduled it */
	}
}

/*
 * The context's groups again from scratch at T (after a change); ROTATE:
 * the first group on the counters goes to the end of the list (the first
 * of the list when none is), as Linux's ctx_event_to_rotate and rotate_ctx
 * do.  With every group enabled that is the list's first.
 */
void ek_resched(struct emu_perf *k, int cpu, int pmu, double t, bool rotate)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];
	int at = 0;

	ek_sync(k, cpu, pmu, t);
	if (rotate)
		for (int i = 0; i < c->norder; i++)
			if (k->ev[c->order[i]].enabled && k->ev[c->order[i]].scheduled) {
				at = i;
				break;
			}
	ek_unschedule(k, cpu, pmu);
	if (rotate && c->norder > 1) {
		int moved = c->order[at];

		memmove(c->order + at, c->order + at + 1, (size_t)(c->norder - at - 1) * sizeof(int));
		c->order[c->norder - 1] = moved;
	}
	ek_schedule(k, cpu, pmu);
}
