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

/* The emulator whose clock this thread holds (emu_clock_hold), and where. */
static _Thread_local const struct emu *emu_held;
static _Thread_local double emu_held_t;

void emu_clock_hold(struct emu *e, double t)
{
	emu_held = e;
	emu_held_t = t;
}

void emu_clock_release(struct emu *e)
{
	if (emu_held == e)
		emu_held = NULL;
}

double emu_clock_now(struct emu *e)
{
	struct timespec ts;

	if (emu_held == e)
		return emu_held_t;
	if (e->clock == EMU_CLOCK_MANUAL)
		return e->manual_now;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)(ts.tv_sec - e->start.tv_sec) + (double)(ts.tv_nsec - e->start.tv_nsec) / 1e9;
}

/* No register has been touched yet: every CPU and socket is still at time 0. */
static bool emu_untouched(const struct emu *e)
{
	for (int i = 0; i < e->ncpus; i++)
		if (e->cpus[i].t > 0)
			return false;
	for (int i = 0; i < e->nsockets; i++)
		if (e->sockets[i].t > 0)
			return false;
	return true;
}

void emu_set_clock(struct emu *e, enum emu_clock clock)
{
	pthread_mutex_lock(&e->lock);
	/*
	 * The manual clock goes on from now; on a machine nothing has read yet it
	 * starts at 0, so a stepped run sees the scenario's phases and noise slots
	 * at the same times on every run (the real clock has moved a little since
	 * the emulator was made).
	 */
	e->manual_now = clock == EMU_CLOCK_MANUAL && emu_untouched(e) ? 0 : emu_clock_now(e);
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
	if (e->m->perf_metrics)
		v |= GLOBAL_PERF_METRICS;
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
	/* Skylake's fields; the later cores of Intel's data have them too (Lion Cove's wider) */
	if (e->m->offcore_events[0])
		return pmu_offcore_mask(e->m->family, e->m->model);
	return e->model && e->model->p->uarch == CPUID_UARCH_SKYLAKE ? OFFCORE_RSP_SKL_MASK
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

		/* a new value, the same binding: what it counted up to now is overwritten */
		emu_cpu_ctrs(e, c);
		if (write)
			ctr->value = emu_pmc_write_value(*val, e->m->gp_width);
		else
			*val = ctr->value;
		return 1;
	}
	if (reg >= IA32_PERFEVTSEL0 && reg < IA32_PERFEVTSEL0 + ngp) {
		uint64_t *sel = &c->evtsel[reg - IA32_PERFEVTSEL0];

		/*
		 * AMD's EventSelect[11:8] at 35:32; on Intel the high half is reserved
		 * but, from version 6 (CPUID 23H, as emu_cpuid answers), EQ and UMASK2
		 */
		uint64_t high = *val >> 32 & ~(e->m->amd ? AMD_EVTSEL_EVENT_HI_MASK >> 32
					      : e->m->perfmon_version >= 6
					      ? (EVTSEL_EQ | 0xFF0000000000ull) >> 32 : 0);

		if (write && (high || (!(e->m->perfmon_version >= 3) && !e->m->amd &&
				      (*val & EVTSEL_ANY))))
			*rc = -EIO;
		else if (write)
			*sel = *val, emu_cpu_rebind(e, c);
		else
			*val = *sel;
		return 1;
	}
	if (v2 && reg >= IA32_FIXED_CTR0 && reg < IA32_FIXED_CTR0 + nfix) {
		struct emu_ctr *ctr = &c->fixed[reg - IA32_FIXED_CTR0];

		emu_cpu_ctrs(e, c);
		if (write)
			ctr->value = *val & pmu_width_mask(e->m->fixed_width);
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
		emu_cpu_ctrs(e, c); /* a wrap up to now */
		if (write)
			*rc = -EIO;
		else
			*val = c->global_status;
		return 1;
	case IA32_PERF_GLOBAL_OVF_CTRL:
		if (!v2)
			return 0;
		emu_cpu_ctrs(e, c); /* a wrap before the clear is cleared */
		if (write && (*val & ~(emu_global_valid(e) | 3ull << 62)))
			*rc = -EIO;
		else if (write)
			c->global_status &= ~*val;
		else
			*val = 0;
		return 1;
	case MSR_PERF_METRICS:
		/* Ice Lake and later; any write clears it (pmutop and the kernel write 0) */
		if (!e->m->perf_metrics)
			return 0;
		if (write)
			emu_cpu_clear_metrics(c, *val);
		else
			*val = emu_cpu_perf_metrics(e, c);
		return 1;
	case MSR_PEBS_FRONTEND:
		/* what FRONTEND_RETIRED counts: kept (the model counts those events as unknown) */
		if (!e->m->pebs_frontend)
			return 0;
		if (write && (*val & ~PEBS_FRONTEND_MASK))
			*rc = -EIO;
		else if (write)
			c->pebs_frontend = *val, emu_cpu_rebind(e, c);
		else
			*val = c->pebs_frontend;
		return 1;
	case IA32_PERF_CAPABILITIES:
		if (write)
			*rc = -EIO;
		else
			*val = e->m->perf_metrics ? PERF_CAP_PERF_METRICS : 0;
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
	case MSR_AMD_IRPERF_COUNT:
	case IA32_APERF:
	case IA32_MPERF:
		/* AMD's free-running counters (read only here: the kernel's msr PMU reads them) */
		if (!e->m->amd)
			return 0;
		emu_cpu_ctrs(e, c);
		if (write)
			*rc = -EIO;
		else
			*val = c->free[reg == MSR_AMD_IRPERF_COUNT ? EMU_FREE_IRPERF
				       : reg == IA32_APERF ? EMU_FREE_APERF : EMU_FREE_MPERF].value;
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

static int emu_msr_access_at(struct emu *e, int cpu, uint32_t reg, int write, uint64_t *val,
			     double now)
{
	struct emu_cpu *c;
	int rc;

	if (cpu < 0 || cpu >= e->ncpus || e->cpus[cpu].core < 0 || !e->cpus[cpu].online)
		return -ENXIO;
	c = &e->cpus[cpu];
	emu_cpu_sync(e, c, now);
	if (emu_core_reg(e, c, reg, write, val, &rc))
		return rc;
	if (emu_rapl_reg(e, c->socket, reg, write, val, &rc, now))
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

static int emu_msr_access(struct emu *e, int cpu, uint32_t reg, int write, uint64_t *val)
{
	return emu_msr_access_at(e, cpu, reg, write, val, emu_clock_now(e));
}

void emu_msr_batch(struct emu *e, struct emu_access *a, int n)
{
	double now;

	pthread_mutex_lock(&e->lock);
	now = emu_clock_now(e);
	for (int i = 0; i < n; i++) {
		uint64_t old;

		a[i].err = emu_msr_access_at(e, a[i].cpu, a[i].reg, 0, &old, now);
		if (a[i].err)
			continue;
		if (!a[i].write) {
			a[i].val = old;
			continue;
		}
		old = (a[i].val & a[i].wmask) | (old & ~a[i].wmask);
		a[i].err = emu_msr_access_at(e, a[i].cpu, a[i].reg, 1, &old, now);
	}
	pthread_mutex_unlock(&e->lock);
}

void emu_sync_all(struct emu *e)
{
	double now;

	pthread_mutex_lock(&e->lock);
	now = emu_clock_now(e);
	for (int i = 0; i < e->ncpus; i++)
		if (e->cpus[i].core >= 0 && e->cpus[i].online)
			emu_cpu_sync(e, &e->cpus[i], now);
	for (int sk = 0; e->uncore != CPUMODEL_UNCORE_NONE && sk < e->nsockets; sk++)
		emu_socket_sync(e, sk, now);
	pthread_mutex_unlock(&e->lock);
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

	if (cpu < 0 || cpu >= e->ncpus || e->cpus[cpu].core < 0)
		return -ENXIO;
	memset(regs, 0, 16);
	switch (leaf) {
	case 0:
		regs[0] = m->amd ? 0x10 : m->perfmon_version >= 6 ? 0x23 : m->hybrid ? 0x20 : 0xB;
		memcpy(&regs[1], m->amd ? "Auth" : "Genu", 4);
		memcpy(&regs[3], m->amd ? "enti" : "ineI", 4);
		memcpy(&regs[2], m->amd ? "cAMD" : "ntel", 4);
		break;
	case 1:
		/* family 0FH + extended family (AMD's 17h, 19h, 1Ah), extended model above it */
		regs[0] = m->stepping | (m->model & 0xF) << 4 |
			  (m->family > 0xF ? 0xFu << 8 | (m->family - 0xF) << 20 : (m->family & 0xF) << 8) |
			  (m->model >> 4) << 16;
		regs[1] = (uint32_t)cpu << 24; /* initial APIC id */
		regs[2] = m->hypervisor ? 1u << 31 : 0;
		break;
	case 7:
		if (m->hybrid && subleaf == 0)
			regs[3] = 1u << 15; /* Hybrid */
		break;
	case 0x1A:
		/* the core type of the CPU asked (40H Intel Core, 20H Intel Atom) */
		if (m->hybrid)
			regs[0] = (e->cpus[cpu].e_core ? 0x20u : 0x40u) << 24;
		break;
	case 0x80000001u:
		if (m->amd && m->gp_counters)
			regs[2] = 1u << 23; /* PerfCtrExtCore: six core counters */
		break;
	case 0x80000008u:
		if (m->amd)
			regs[1] = 1u << 1; /* IRPerf: the instructions-retired counter */
		break;
	case 0x80000022u:
		if (m->amd && m->perfmon_v2) {
			regs[0] = 1; /* PerfMonV2 */
			regs[1] = m->gp_counters;
		}
		break;
	case 0xA:
		if (m->amd)
			break; /* no architectural performance monitoring */
		regs[0] = m->perfmon_version | m->gp_counters << 8 | m->gp_width << 16 | 7u << 24;
		regs[1] = 0; /* all seven architectural events available */
		regs[3] = m->perfmon_version >= 2 ? m->fixed_counters | m->fixed_width << 5 : 0;
		break;
	case 0x80000000u:
		regs[0] = m->amd && m->perfmon_v2 ? 0x80000022u : 0x80000008u;
		break;
	case 0x23:
		/* version 6's select extensions: UMASK2 (bit 0) and EQ (bit 1) */
		if (!m->amd && m->perfmon_version >= 6 && subleaf == 0)
			regs[1] = 0x3;
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

int emu_watch(struct emu *e, int cpu, uint64_t sel, double *count)
{
	int rc = -ENXIO;

	pthread_mutex_lock(&e->lock);
	if (cpu >= 0 && cpu < e->ncpus && e->cpus[cpu].core >= 0 && e->cpus[cpu].online) {
		emu_cpu_sync(e, &e->cpus[cpu], emu_clock_now(e));
		rc = emu_cpu_watch(e, &e->cpus[cpu], sel, count);
	}
	pthread_mutex_unlock(&e->lock);
	return rc;
}
