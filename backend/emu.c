/*
 * emu: the emulated machine's registers and how counters advance.
 *
 * Per CPU: the core PMU registers and a small set of accumulators, one per
 * counting condition programmed so far.  Per socket: the uncore registers
 * and theirs (emu_uncore.c; the state both share is in emu_int.h).  A CPU (socket) is brought up to "now" lazily, whenever one of
 * its registers is touched, in steps that never straddle a change of the
 * scenario's truth.  All entry points hold e->lock.
 */
#include "emu.h"
#include "emu_int.h"
#include "emu_model.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- time ----------------------------------------------------------------- */

double emu_clock_now(struct emu *e)
{
	struct timespec ts;

	if (e->clock == EMU_CLOCK_MANUAL)
		return e->manual_now;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)(ts.tv_sec - e->start.tv_sec) + (double)(ts.tv_nsec - e->start.tv_nsec) / 1e9;
}

void emu_set_clock(struct emu *e, enum emu_clock clock)
{
	pthread_mutex_lock(&e->lock);
	e->manual_now = emu_clock_now(e);
	e->clock = clock;
	pthread_mutex_unlock(&e->lock);
}

void emu_advance(struct emu *e, double seconds)
{
	pthread_mutex_lock(&e->lock);
	e->manual_now += seconds;
	pthread_mutex_unlock(&e->lock);
}

/* ---- accumulators --------------------------------------------------------- */

void emu_note_unknown(struct emu *e, uint64_t key)
{
	for (int i = 0; i < e->nunknown; i++)
		if (e->unknown[i] == key)
			return;
	if (e->nunknown < EMU_MAX_UNKNOWN)
		e->unknown[e->nunknown++] = key;
}

int emu_acc_find(struct emu_acc *acc, uint64_t key)
{
	int free_slot = -1;

	for (int i = 0; i < EMU_MAX_ACC; i++) {
		if (acc[i].in_use && acc[i].key == key)
			return i;
		if (!acc[i].in_use && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return -1;
	acc[free_slot] = (struct emu_acc){ .key = key, .in_use = 1 };
	return free_slot;
}

/* The counter's F: the integer its value has advanced by since binding. */
double emu_ctr_f(const struct emu_ctr *c, const struct emu_acc *acc, const double *cyc)
{
	double g = floor(acc[c->acc].g);

	return c->inv ? floor(cyc[c->priv]) - g : g;
}

/* Bring C up to date; sets *WRAPPED when the value crossed its width. */
void emu_ctr_update(struct emu_ctr *c, const struct emu_acc *acc, const double *cyc,
			   unsigned width, int *wrapped)
{
	double f;
	uint64_t inc, mask = pmu_width_mask(width);

	if (c->acc < 0)
		return;
	f = emu_ctr_f(c, acc, cyc);
	inc = f > c->last_f ? (uint64_t)(f - c->last_f) : 0;
	c->last_f = f;
	if (inc > mask - c->value)
		*wrapped = 1;
	c->value = (c->value + inc) & mask;
}

/* ---- core: counting --------------------------------------------------------- */

/* Accumulator key for a core event select; the offcore value rides in the high bits. */
static uint64_t emu_core_key(uint64_t evtsel, uint64_t offcore)
{
	uint64_t sel = evtsel & (EVTSEL_EVENT_MASK | EVTSEL_UMASK_MASK | EVTSEL_USR | EVTSEL_OS |
				 EVTSEL_EDGE | EVTSEL_ANY | EVTSEL_CMASK_MASK);

	return sel | (offcore & 0xFFFFFFull) << 32;
}

static uint64_t emu_offcore_for(const struct emu_cpu *c, uint64_t evtsel)
{
	unsigned ev = (unsigned)(evtsel & EVTSEL_EVENT_MASK);

	return ev == 0xB7 ? c->offcore[0] : ev == 0xBB ? c->offcore[1] : 0;
}

static double emu_ghz(const struct emu *e, const double *v)
{
	return v[SK_ghz] > 0 ? v[SK_ghz] : e->m->nominal_ghz;
}

/* Share of unhalted cycles counted under privilege mask PRIV. */
static double emu_priv_share(unsigned priv, const double *v)
{
	return (priv & EMU_PRIV_USR ? 1 - v[SK_kernel] : 0) + (priv & EMU_PRIV_OS ? v[SK_kernel] : 0);
}

/* Rate of total cycles (halted ones count as kernel time) under PRIV. */
static double emu_cycle_rate(const struct emu *e, unsigned priv, const double *v)
{
	double r = emu_ghz(e, v) * 1e9, u = v[SK_util];

	return r * ((priv & EMU_PRIV_USR ? u * (1 - v[SK_kernel]) : 0) +
		    (priv & EMU_PRIV_OS ? (1 - u) + u * v[SK_kernel] : 0));
}

/*
 * Rate per second of the accumulator KEY on CPU C at time T.  SIB holds
 * the truth of every thread of C's core (C's own first).
 */
static double emu_core_rate(struct emu *e, const struct emu_cpu *c, uint64_t key,
			    double (*sib)[SK_COUNT], int nsib)
{
	unsigned event = (unsigned)(key & EVTSEL_EVENT_MASK);
	unsigned umask = (unsigned)((key & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT);
	unsigned cmask = (unsigned)((key & EVTSEL_CMASK_MASK) >> EVTSEL_CMASK_SHIFT);
	unsigned priv = (key & EVTSEL_USR ? EMU_PRIV_USR : 0) | (key & EVTSEL_OS ? EMU_PRIV_OS : 0);
	uint64_t offcore = key >> 32;
	int edge = (key & EVTSEL_EDGE) != 0, any = (key & EVTSEL_ANY) != 0;
	const double *v = sib[0];
	double r = emu_ghz(e, v) * 1e9, share = emu_priv_share(priv, v), rate, all_halted;
	struct emu_dist d, core;

	if (!priv)
		return 0;
	if (!emu_model_core(e->m, event, umask, offcore, v, &d)) {
		emu_note_unknown(e, key);
		return 0;
	}
	if (d.cmask_is_umask) {
		if (cmask != umask) {
			emu_note_unknown(e, key);
			return 0;
		}
		cmask = 1;
	}
	if (edge && cmask == 0)
		cmask = 1; /* seed 000: edge detect needs a non-zero cmask */
	if (!any && !d.core_wide) {
		double p_ge = emu_dist_ge(&d, cmask ? cmask : 1);

		if (edge) {
			double p_side = d.run_side == EMU_RUN_GE ? p_ge : 1 - p_ge;

			return r * v[SK_util] * share * p_side / d.run_len;
		}
		return r * v[SK_util] * share * (cmask ? p_ge : emu_dist_mean(&d));
	}
	/* the whole core: threads summed, each halted (value 0) outside its util */
	if (cmask == 0) {
		rate = 0;
		for (int i = 0; i < nsib; i++) {
			struct emu_dist di;

			emu_model_core(e->m, event, umask, offcore, sib[i], &di);
			rate += emu_ghz(e, sib[i]) * 1e9 * sib[i][SK_util] * emu_dist_mean(&di);
		}
		return rate * share;
	}
	memset(&core, 0, sizeof(core));
	core.h[0] = 1;
	all_halted = 1;
	for (int i = 0; i < nsib; i++) {
		struct emu_dist di;

		all_halted *= 1 - sib[i][SK_util];
		emu_model_core(e->m, event, umask, offcore, sib[i], &di);
		for (int k = 0; k < EMU_HIST_BINS; k++)
			di.h[k] *= sib[i][SK_util];
		di.h[0] += 1 - sib[i][SK_util];
		emu_dist_convolve(&core, &di, &core);
	}
	{
		double p_ge = emu_dist_ge(&core, cmask);

		if (edge) {
			/* runs happen while the core runs: halted time is one long run, not many */
			double p_side = d.run_side == EMU_RUN_GE ? p_ge : 1 - p_ge - all_halted;

			return r * share * fmax(0, p_side) / d.run_len;
		}
		rate = r * p_ge * share;
	}
	/* never more cycles at or above cmask than cycles counted */
	return fmin(rate, emu_cycle_rate(e, priv, v));
}

/* Fixed counter N as an equivalent event select, or 0 when it is off. */
static uint64_t emu_fixed_as_evtsel(const struct emu_cpu *c, int n)
{
	static const uint64_t events[PMU_MAX_FIXED] = {
		0xC0,        /* INST_RETIRED.ANY, seed 004 Table 19-2 */
		0x3C,        /* CPU_CLK_UNHALTED.THREAD */
		0x3C | 0x100 /* CPU_CLK_UNHALTED.REF */
	};
	uint64_t ctl = (c->fixed_ctrl >> FIXED_CTRL_SHIFT(n)) & 0xF;
	uint64_t sel = events[n];

	if (!(ctl & (FIXED_CTRL_OS | FIXED_CTRL_USR)))
		return 0;
	if (ctl & FIXED_CTRL_OS)
		sel |= EVTSEL_OS;
	if (ctl & FIXED_CTRL_USR)
		sel |= EVTSEL_USR;
	if (ctl & FIXED_CTRL_ANY)
		sel |= EVTSEL_ANY;
	return sel;
}

static int emu_gp_live(const struct emu *e, const struct emu_cpu *c, int i)
{
	return (c->evtsel[i] & EVTSEL_EN) &&
	       (e->m->perfmon_version < 2 || (c->global_ctrl & GLOBAL_PMC(i)));
}

static int emu_fixed_live(const struct emu_cpu *c, int i)
{
	return emu_fixed_as_evtsel(c, i) && (c->global_ctrl & GLOBAL_FIXED(i));
}

/* Truth of every thread of CPU C's core at T, C's own first; returns how many. */
static int emu_core_truth(struct emu *e, const struct emu_cpu *c, double t, double (*sib)[SK_COUNT])
{
	const struct topo_core *core = &e->topo->cores[c->core];
	int n = 1;

	scenario_eval_one(e->sc, t, SCENARIO_CPU, c->os_cpu, c->socket, sib[0]);
	for (int k = 0; k < core->nthreads && n < 8; k++) {
		int other = e->topo->threads[core->thread_first + k].os_cpu;

		if (other != c->os_cpu)
			scenario_eval_one(e->sc, t, SCENARIO_CPU, other, c->socket, sib[n++]);
	}
	return n;
}

/* Integrate CPU C from c->t to T and bring its live counters up to date. */
static void emu_cpu_sync(struct emu *e, struct emu_cpu *c, double t)
{
	int wrapped;

	while (c->t < t) {
		double step_end = fmin(t, scenario_next_change(e->sc, c->t));
		double dt = step_end - c->t, sib[8][SK_COUNT];
		int nsib = emu_core_truth(e, c, c->t, sib);

		for (unsigned p = 1; p <= 3; p++)
			c->cyc[p] += emu_cycle_rate(e, p, sib[0]) * dt;
		for (int i = 0; i < EMU_MAX_ACC; i++)
			if (c->acc[i].in_use)
				c->acc[i].g += emu_core_rate(e, c, c->acc[i].key, sib, nsib) * dt;
		c->t = step_end;
	}
	for (int i = 0; i < (int)e->m->gp_counters; i++) {
		wrapped = 0;
		emu_ctr_update(&c->gp[i], c->acc, c->cyc, e->m->gp_width, &wrapped);
		if (wrapped)
			c->global_status |= GLOBAL_PMC(i);
	}
	for (int i = 0; i < (int)e->m->fixed_counters; i++) {
		wrapped = 0;
		emu_ctr_update(&c->fixed[i], c->acc, c->cyc, e->m->fixed_width, &wrapped);
		if (wrapped)
			c->global_status |= GLOBAL_FIXED(i);
	}
}

/* (Re)bind counter CTR to event select SEL (0 or not live: stop counting). */
static void emu_ctr_bind(struct emu *e, struct emu_cpu *c, struct emu_ctr *ctr, uint64_t sel,
			 int live)
{
	uint64_t key;

	ctr->acc = -1;
	if (!live || !sel)
		return;
	key = emu_core_key(sel, emu_offcore_for(c, sel));
	ctr->acc = emu_acc_find(c->acc, key);
	if (ctr->acc < 0)
		return; /* more distinct conditions than slots: this one stays at zero */
	ctr->priv = (sel & EVTSEL_USR ? EMU_PRIV_USR : 0) | (sel & EVTSEL_OS ? EMU_PRIV_OS : 0);
	ctr->inv = (sel & EVTSEL_INV) && (sel & EVTSEL_CMASK_MASK) && !(sel & EVTSEL_EDGE);
	ctr->last_f = emu_ctr_f(ctr, c->acc, c->cyc);
}

static void emu_cpu_rebind(struct emu *e, struct emu_cpu *c)
{
	for (int i = 0; i < (int)e->m->gp_counters; i++)
		emu_ctr_bind(e, c, &c->gp[i], c->evtsel[i], emu_gp_live(e, c, i));
	for (int i = 0; i < (int)e->m->fixed_counters; i++)
		emu_ctr_bind(e, c, &c->fixed[i], emu_fixed_as_evtsel(c, i), emu_fixed_live(c, i));
	/* drop accumulators no counter uses any more */
	for (int a = 0; a < EMU_MAX_ACC; a++) {
		int used = 0;

		for (int i = 0; i < (int)e->m->gp_counters; i++)
			used |= c->gp[i].acc == a;
		for (int i = 0; i < (int)e->m->fixed_counters; i++)
			used |= c->fixed[i].acc == a;
		if (!used)
			c->acc[a].in_use = 0;
	}
}

/* ---- registers -------------------------------------------------------------- */

/* Writes of a 32-bit value to IA32_PMCx sign-extend bit 31 [SDM]. */
static uint64_t emu_pmc_write_value(uint64_t v, unsigned width)
{
	uint64_t low = v & 0xFFFFFFFFull;

	if (low & 0x80000000ull)
		low |= ~0xFFFFFFFFull;
	return low & pmu_width_mask(width);
}

static uint64_t emu_global_valid(const struct emu *e)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < e->m->gp_counters; i++)
		v |= GLOBAL_PMC(i);
	for (unsigned i = 0; i < e->m->fixed_counters; i++)
		v |= GLOBAL_FIXED(i);
	return v;
}

static uint64_t emu_fixed_ctrl_valid(const struct emu *e)
{
	uint64_t v = 0, per = FIXED_CTRL_OS | FIXED_CTRL_USR | FIXED_CTRL_PMI |
			    (e->m->perfmon_version >= 3 ? FIXED_CTRL_ANY : 0);

	for (unsigned i = 0; i < e->m->fixed_counters; i++)
		v |= per << FIXED_CTRL_SHIFT(i);
	return v;
}

static int emu_is_offcore(const struct emu *e, uint32_t reg)
{
	return reg >= MSR_OFFCORE_RSP_0 && reg < MSR_OFFCORE_RSP_0 + (uint32_t)e->offcore;
}

/* Writing a reserved bit of the offcore matrix faults (#GP: EIO through the driver). */
static uint64_t emu_offcore_valid(const struct emu *e)
{
	return e->model && e->model->uarch == CPUID_UARCH_SKYLAKE ? OFFCORE_RSP_SKL_MASK
								  : OFFCORE_RSP_NHM_MASK;
}

/* The core's numbered registers: counters, selects, fixed counters, offcore matrices. */
static int emu_core_numbered_reg(struct emu *e, struct emu_cpu *c, uint32_t reg, int write,
				 uint64_t *val, int *rc)
{
	unsigned ngp = e->m->gp_counters, nfix = e->m->fixed_counters;
	int v2 = e->m->perfmon_version >= 2;

	*rc = 0;
	if (reg >= IA32_PMC0 && reg < IA32_PMC0 + ngp) {
		struct emu_ctr *ctr = &c->gp[reg - IA32_PMC0];

		if (write) {
			ctr->value = emu_pmc_write_value(*val, e->m->gp_width);
			emu_cpu_rebind(e, c);
		} else {
			*val = ctr->value;
		}
		return 1;
	}
	if (reg >= IA32_PERFEVTSEL0 && reg < IA32_PERFEVTSEL0 + ngp) {
		uint64_t *sel = &c->evtsel[reg - IA32_PERFEVTSEL0];

		if (write && ((*val >> 32) || (!(e->m->perfmon_version >= 3) && (*val & EVTSEL_ANY))))
			*rc = -EIO;
		else if (write)
			*sel = *val, emu_cpu_rebind(e, c);
		else
			*val = *sel;
		return 1;
	}
	if (v2 && reg >= IA32_FIXED_CTR0 && reg < IA32_FIXED_CTR0 + nfix) {
		struct emu_ctr *ctr = &c->fixed[reg - IA32_FIXED_CTR0];

		if (write)
			ctr->value = *val & pmu_width_mask(e->m->fixed_width), emu_cpu_rebind(e, c);
		else
			*val = ctr->value;
		return 1;
	}
	if (emu_is_offcore(e, reg)) {
		uint64_t *off = &c->offcore[reg - MSR_OFFCORE_RSP_0];

		if (write && (*val & ~emu_offcore_valid(e)))
			*rc = -EIO;
		else if (write)
			*off = *val, emu_cpu_rebind(e, c);
		else
			*val = *off;
		return 1;
	}
	return 0;
}

/* The core's control registers and the few others pmutop reads. */
static int emu_core_control_reg(struct emu *e, struct emu_cpu *c, uint32_t reg, int write,
				uint64_t *val, int *rc)
{
	int v2 = e->m->perfmon_version >= 2;

	*rc = 0;
	switch (reg) {
	case IA32_FIXED_CTR_CTRL:
		if (!v2)
			return 0;
		if (write && (*val & ~emu_fixed_ctrl_valid(e)))
			*rc = -EIO;
		else if (write)
			c->fixed_ctrl = *val, emu_cpu_rebind(e, c);
		else
			*val = c->fixed_ctrl;
		return 1;
	case IA32_PERF_GLOBAL_CTRL:
		if (!v2)
			return 0;
		if (write && (*val & ~emu_global_valid(e)))
			*rc = -EIO;
		else if (write)
			c->global_ctrl = *val, emu_cpu_rebind(e, c);
		else
			*val = c->global_ctrl;
		return 1;
	case IA32_PERF_GLOBAL_STATUS:
		if (!v2)
			return 0;
		if (write)
			*rc = -EIO;
		else
			*val = c->global_status;
		return 1;
	case IA32_PERF_GLOBAL_OVF_CTRL:
		if (!v2)
			return 0;
		if (write && (*val & ~(emu_global_valid(e) | 3ull << 62)))
			*rc = -EIO;
		else if (write)
			c->global_status &= ~*val;
		else
			*val = 0;
		return 1;
	case IA32_MISC_ENABLE: /* bit 7: performance monitoring available */
		if (!write)
			*val = 0x850089;
		return 1;
	case MSR_PLATFORM_INFO:
		if (write)
			*rc = -EIO;
		else
			*val = (uint64_t)lround(e->m->nominal_ghz /
				(e->uncore == CPUMODEL_UNCORE_NHM ? 0.13333 : 0.1)) << 8;
		return 1;
	case IA32_TIME_STAMP_COUNTER:
		if (write)
			*rc = -EIO;
		else
			*val = (uint64_t)(emu_clock_now(e) * e->m->nominal_ghz * 1e9);
		return 1;
	}
	return 0;
}

/* Core PMU and the few other registers pmutop reads; 1 if REG is one of them. */
static int emu_core_reg(struct emu *e, struct emu_cpu *c, uint32_t reg, int write, uint64_t *val,
			int *rc)
{
	return emu_core_numbered_reg(e, c, reg, write, val, rc) ||
	       emu_core_control_reg(e, c, reg, write, val, rc);
}

static int emu_msr_access(struct emu *e, int cpu, uint32_t reg, int write, uint64_t *val)
{
	struct emu_cpu *c;
	double now;
	int rc;

	if (cpu < 0 || cpu >= e->ncpus || e->cpus[cpu].core < 0 || !e->cpus[cpu].online)
		return -ENXIO;
	c = &e->cpus[cpu];
	now = emu_clock_now(e);
	emu_cpu_sync(e, c, now);
	if (emu_core_reg(e, c, reg, write, val, &rc))
		return rc;
	if (e->uncore != CPUMODEL_UNCORE_NONE) {
		struct emu_socket *s = &e->sockets[c->socket];
		int hit;

		emu_socket_sync(e, c->socket, now);
		hit = e->uncore == CPUMODEL_UNCORE_NHM ? emu_nhm_uncore_reg(e, s, reg, write, val, &rc)
						     : emu_skl_uncore_reg(e, s, reg, write, val, &rc);
		if (hit)
			return rc;
	}
	return -EIO;
}

int emu_msr_read(struct emu *e, int cpu, uint32_t reg, uint64_t *val)
{
	int rc;

	pthread_mutex_lock(&e->lock);
	rc = emu_msr_access(e, cpu, reg, 0, val);
	pthread_mutex_unlock(&e->lock);
	return rc;
}

int emu_msr_write(struct emu *e, int cpu, uint32_t reg, uint64_t val)
{
	int rc;

	pthread_mutex_lock(&e->lock);
	rc = emu_msr_access(e, cpu, reg, 1, &val);
	pthread_mutex_unlock(&e->lock);
	return rc;
}

/* ---- CPUID, PCI, memory ------------------------------------------------------- */

int emu_cpuid(struct emu *e, int cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	const struct emu_machine *m = e->m;

	(void)subleaf;
	if (cpu < 0 || cpu >= e->ncpus || e->cpus[cpu].core < 0)
		return -ENXIO;
	memset(regs, 0, 16);
	switch (leaf) {
	case 0:
		regs[0] = 0xB;
		memcpy(&regs[1], "Genu", 4);
		memcpy(&regs[3], "ineI", 4);
		memcpy(&regs[2], "ntel", 4);
		break;
	case 1:
		regs[0] = m->stepping | (m->model & 0xF) << 4 | (m->family & 0xF) << 8 |
			  (m->model >> 4) << 16;
		regs[1] = (uint32_t)cpu << 24; /* initial APIC id */
		break;
	case 0xA:
		regs[0] = m->perfmon_version | m->gp_counters << 8 | m->gp_width << 16 | 7u << 24;
		regs[1] = 0; /* all seven architectural events available */
		regs[3] = m->perfmon_version >= 2 ? m->fixed_counters | m->fixed_width << 5 : 0;
		break;
	case 0x80000000u:
		regs[0] = 0x80000008u;
		break;
	case 0x80000002u:
	case 0x80000003u:
	case 0x80000004u: {
		char brand[49] = { 0 };

		snprintf(brand, sizeof(brand), "%s", m->brand);
		memcpy(regs, brand + 16 * (leaf - 0x80000002u), 16);
		break;
	}
	}
	return 0;
}

int emu_cpuid_leaf(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	return emu_cpuid(ctx, 0, leaf, subleaf, regs);
}

static int emu_ops_read(void *ctx, int cpu, uint32_t reg, uint64_t *val)
{
	return emu_msr_read(ctx, cpu, reg, val);
}

static int emu_ops_write(void *ctx, int cpu, uint32_t reg, uint64_t val)
{
	return emu_msr_write(ctx, cpu, reg, val);
}

const struct msr_ops emu_msr_ops = { .read = emu_ops_read, .write = emu_ops_write };

static int emu_ops_pci_config(void *ctx, uint64_t off, void *buf, size_t len)
{
	return emu_pci_config_read(ctx, off, buf, len);
}

static int emu_ops_mem(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return emu_mem_read(ctx, addr, buf, len);
}

const struct mmio_ops emu_mmio_ops = { .pci_config = emu_ops_pci_config, .mem = emu_ops_mem };

int emu_set_online(struct emu *e, int cpu, int online)
{
	if (cpu < 0 || cpu >= e->ncpus || e->cpus[cpu].core < 0)
		return -ENXIO;
	pthread_mutex_lock(&e->lock);
	e->cpus[cpu].online = online;
	pthread_mutex_unlock(&e->lock);
	return 0;
}

const char *emu_unknown_events(struct emu *e, int *count)
{
	size_t len = 0;

	pthread_mutex_lock(&e->lock);
	e->unknown_text[0] = '\0';
	for (int i = 0; i < e->nunknown; i++)
		len += (size_t)snprintf(e->unknown_text + len, sizeof(e->unknown_text) - len,
					"%sselect 0x%016llx", i ? "\n" : "",
					(unsigned long long)e->unknown[i]);
	*count = e->nunknown;
	pthread_mutex_unlock(&e->lock);
	return e->unknown_text;
}

/* ---- life cycle ------------------------------------------------------------------ */

struct emu *emu_create_from(const struct emu_machine *m, struct scenario *sc)
{
	struct emu *e = xcalloc(1, sizeof(*e));
	char err[256];

	pthread_mutex_init(&e->lock, NULL);
	e->m = m;
	e->model = cpumodel_find(m->family, m->model);
	e->uncore = e->model ? e->model->uncore : CPUMODEL_UNCORE_NONE;
	e->channels = e->model ? e->model->channels : 0;
	e->offcore = e->model ? e->model->offcore : 0;
	e->sc = sc;
	if (topo_load(m->topology, &e->topo, err, sizeof(err))) {
		fprintf(stderr, "pmutop: emulated machine %s: %s\n", m->name, err);
		abort(); /* the table is wrong: a bug, not a user error */
	}
	clock_gettime(CLOCK_MONOTONIC, &e->start);
	e->ncpus = e->topo->cpu_thread_len;
	e->cpus = xcalloc((size_t)e->ncpus, sizeof(*e->cpus));
	for (int i = 0; i < e->ncpus; i++)
		e->cpus[i].core = -1;
	for (int i = 0; i < e->topo->nonline; i++) {
		const struct topo_thread *th = &e->topo->threads[i];
		struct emu_cpu *c = &e->cpus[th->os_cpu];

		c->os_cpu = th->os_cpu;
		c->socket = th->socket;
		c->core = th->core;
		c->online = 1;
		for (int k = 0; k < PMU_MAX_GP; k++)
			c->gp[k].acc = -1;
		for (int k = 0; k < PMU_MAX_FIXED; k++)
			c->fixed[k].acc = -1;
	}
	e->nsockets = e->topo->nsockets;
	e->sockets = xcalloc((size_t)e->nsockets, sizeof(*e->sockets));
	for (int s = 0; s < e->nsockets; s++) {
		e->sockets[s].fixed.acc = -1;
		for (int k = 0; k < NHM_UNC_COUNTERS + 2; k++)
			e->sockets[s].ctr[k].acc = -1;
	}
	return e;
}

/* Which emulated machines have at least MIN sockets, as advice for a message. */
static void emu_machines_with_sockets(int min, char *buf, size_t len)
{
	size_t n = 0;
	int most = 0;

	buf[0] = 0;
	for (int i = 0; i < emu_nmachines; i++) {
		int socks = 1;

		/* every machine's synthetic topology starts with its packages */
		sscanf(emu_machines[i].topology, "pack:%d", &socks);
		most = socks > most ? socks : most;
		if (socks >= min && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "use ",
					      emu_machines[i].name);
	}
	if (!n)
		snprintf(buf, len, "no emulated machine has that many (the most is %d)", most);
}

int emu_create(const char *spec, const char *scenario_dir, struct emu **out, char *err,
	       size_t errlen)
{
	char name[64], path[4096];
	const char *colon = strchr(spec, ':'), *scn;
	const struct emu_machine *m;
	struct scenario *sc;
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	int rc;

	*out = NULL;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, spec, n);
	name[n] = '\0';
	m = emu_machine_find(name);
	if (!m) {
		snprintf(err, errlen, "--sim %s: unknown machine '%s'; emulated machines are %s",
			 spec, name, emu_machine_names());
		return -EINVAL;
	}
	scn = colon && colon[1] ? colon + 1 : m->default_scenario;
	if (strchr(scn, '/') || (strlen(scn) > 4 && !strcmp(scn + strlen(scn) - 4, ".scn")))
		snprintf(path, sizeof(path), "%s", scn);
	else
		snprintf(path, sizeof(path), "%s/%s.scn", scenario_dir, scn);
	rc = scenario_load(path, &sc, err, errlen);
	if (rc == -ENOENT && !strchr(scn, '/'))
		snprintf(err, errlen, "--sim %s: no scenario '%s' (looked for %s); shipped "
			 "scenarios are idle, compute-bound, memory-bound, numa-remote, "
			 "frontend-bound, unbalanced-channels, false-sharing, or give a file path", spec, scn, path);
	if (rc)
		return rc == -EIO ? rc : -EINVAL; /* the scenario is the user's input */
	*out = emu_create_from(m, sc);
	if (sc->min_sockets > (*out)->topo->nsockets) {
		char fit[256];

		emu_machines_with_sockets(sc->min_sockets, fit, sizeof(fit));
		snprintf(err, errlen, "--sim %s: scenario '%s' needs %d sockets and %s has %d; %s",
			 spec, sc->name, sc->min_sockets, m->name, (*out)->topo->nsockets, fit);
		emu_free(*out);
		*out = NULL;
		return -EINVAL;
	}
	return 0;
}

void emu_free(struct emu *e)
{
	if (!e)
		return;
	topo_free(e->topo);
	scenario_free(e->sc);
	free(e->cpus);
	free(e->sockets);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

enum cpumodel_uncore emu_uncore(const struct emu *e)
{
	return e->uncore;
}

int emu_channels(const struct emu *e)
{
	return e->channels;
}

const struct emu_machine *emu_machine(const struct emu *e)
{
	return e->m;
}

const struct topo *emu_topo(const struct emu *e)
{
	return e->topo;
}

const struct scenario *emu_scenario(const struct emu *e)
{
	return e->sc;
}
