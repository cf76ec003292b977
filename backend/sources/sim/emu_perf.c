/*
 * emu_perf: the emulated kernel's perf_event groups, scheduling and
 * multiplexing over the emulated core PMU.  See emu_perf.h.
 */
#include "emu_perf.h"
#include "emu_int.h"
#include "emu_machine.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EK_FD_BASE 1000      /* its descriptors: EK_FD_BASE + slot, never a real one's number */
#define EK_HW_NONE (-1)
#define EK_HW_FIXED 100      /* + n: fixed counter n */
#define EK_HW_FREE 200       /* a free-running counter: nothing to schedule */
#define EK_MAX_PMUS (2 + SKL_UNC_MAX_CBO + 2)
#define EK_UNCORE_TYPE 20    /* the uncore PMUs' types: 20, 21, ... as the kernel numbers them */
#define EK_UNC_FIXED_EVENT 0xFF /* the kernel's uncore convention: event 0xff is the fixed clock */
/* a 32-bit free-running IMC counter wraps in ~25 s at 10 GB/s: a look every second keeps up */
#define EK_WRAP_TICK_S 1.0

enum ek_kind { EK_CORE, EK_NHM_UNC, EK_SKL_CBO, EK_SKL_ARB, EK_SKL_IMC };

/*
 * One PMU of the emulated kernel: its sysfs description and where its
 * counters are (an uncore box: select and counter registers, the fixed
 * clock, or the IMC's free-running counters in MMIO).
 */
struct ek_pmu {
	struct perf_pmu desc;
	enum ek_kind kind;
	unsigned counters, width;
	uint32_t evtsel0, ctr0;
	bool fixed;               /* event 0xff counts the uncore clock here */
	uint32_t fixed_ctrl, fixed_ctr;
	uint64_t fixed_en;
	unsigned fixed_width;
};

/*
 * The IMC's free-running counters as the kernel's uncore_imc names them
 * (its events/ directory) and where they are in the emulated MCHBAR window
 * (seed 001 Table 3-1).
 */
static const struct {
	const char *name;
	unsigned event;
	uint32_t offset;
} ek_imc_events[] = {
	{ "data_reads", 0x01, SKL_IMC_DRAM_DATA_READS },
	{ "data_writes", 0x02, SKL_IMC_DRAM_DATA_WRITES },
	{ "gt_requests", 0x03, SKL_IMC_DRAM_GT_REQUESTS },
	{ "ia_requests", 0x04, SKL_IMC_DRAM_IA_REQUESTS },
	{ "io_requests", 0x05, SKL_IMC_DRAM_IO_REQUESTS },
};

struct ek_event {
	bool used;
	int cpu;                  /* the CPU whose context holds it (an uncore PMU's: its socket's) */
	int pmu;                  /* index into emu_perf.pmus */
	int leader;               /* slot of the group's leader (itself for a leader) */
	uint32_t type;
	uint64_t config, config1;
	bool exclude_user, exclude_kernel;
	uint64_t read_format;
	/* a leader's */
	bool enabled, scheduled;
	int members[PERF_GROUP_MAX];
	int nmembers;             /* the leader first */
	uint64_t enabled_ns, running_ns;
	/* its counter while the group is scheduled */
	int hw;
	uint64_t prev, count;
};

/* One CPU's context of one PMU: its groups in scheduling order, rotated at each tick. */
struct ek_ctx {
	int *order;
	int norder;
	double t;                 /* times and counts are up to here */
	uint64_t offcore[2];      /* MSR_OFFCORE_RSP_0/1 while a scheduled event uses it */
	int offcore_users[2];
};

struct ek_cpu {
	bool present;
	int leader;               /* the CPU that holds its socket's uncore events */
	struct ek_ctx ctx[EK_MAX_PMUS];
};

struct emu_perf {
	struct emu *emu;
	struct perf_sys sys;
	pthread_mutex_t lock;
	struct ek_event *ev;
	int nev;
	struct ek_cpu *cpus;      /* by OS CPU number */
	int ncpus;
	struct ek_pmu pmus[EK_MAX_PMUS];
	int npmus;
	unsigned gp, fixed, gp_width, fixed_width;
	bool watchdog;            /* the NMI watchdog's pinned cycles event holds fixed counter 1 */
};

/* The architectural encodings of the generic hardware events, for a general counter [SDM 18.2.1.2]. */
static uint64_t ek_hw_arch_select(const struct ek_event *e)
{
	switch (e->config) {
	case PERF_COUNT_HW_INSTRUCTIONS:
		return 0x00C0;
	case PERF_COUNT_HW_CPU_CYCLES:
		return 0x003C;
	default:
		return 0x013C; /* ref-cycles: UNHALTED_REFERENCE_CYCLES */
	}
}

static double ek_now(struct emu_perf *k)
{
	return emu_clock_now(k->emu);
}

static struct ek_event *ek_event_of(struct emu_perf *k, int fd)
{
	int slot = fd - EK_FD_BASE;

	return slot >= 0 && slot < k->nev && k->ev[slot].used ? &k->ev[slot] : NULL;
}

static struct ek_ctx *ek_ctx_of(struct emu_perf *k, const struct ek_event *e)
{
	return &k->cpus[e->cpu].ctx[e->pmu];
}

/* The fixed counter a generic hardware event runs on, or -1. */
static int ek_fixed_of(const struct ek_event *e)
{
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

/* Which offcore response register a raw core event uses: 0 (B7H), 1 (BBH), or -1. */
static int ek_offcore_of(const struct ek_event *e)
{
	unsigned code = (unsigned)(e->config & EVTSEL_EVENT_MASK);

	if (e->type != PERF_TYPE_RAW)
		return -1;
	return code == 0xB7 ? 0 : code == 0xBB ? 1 : -1;
}

/* The MCHBAR offset of an IMC event, or 0. */
static uint32_t ek_imc_offset(const struct ek_event *e)
{
	for (size_t i = 0; i < sizeof(ek_imc_events) / sizeof(ek_imc_events[0]); i++)
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

	if (e->hw == EK_HW_NONE || ek_counter_value(k, e, &v, &width))
		return;
	e->count += (v - e->prev) & (width >= 64 ? ~0ull : (1ull << width) - 1);
	e->prev = v;
}

/* Times and counts of context PMU of CPU up to T. */
static void ek_sync(struct emu_perf *k, int cpu, int pmu, double t)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];
	uint64_t dt = t > c->t ? (uint64_t)((t - c->t) * 1e9 + 0.5) : 0;

	for (int i = 0; i < c->norder; i++) {
		struct ek_event *l = &k->ev[c->order[i]];

		if (!l->enabled)
			continue;
		l->enabled_ns += dt;
		if (!l->scheduled)
			continue;
		l->running_ns += dt;
		for (int m = 0; m < l->nmembers; m++)
			ek_read_counter(k, &k->ev[l->members[m]]);
	}
	if (t > c->t)
		c->t = t;
}

/* Take every group of the context off its counters (their counts already synced). */
static void ek_unschedule(struct emu_perf *k, int cpu, int pmu)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];
	const struct ek_pmu *p = &k->pmus[pmu];

	for (int i = 0; i < c->norder; i++) {
		struct ek_event *l = &k->ev[c->order[i]];

		for (int m = 0; l->scheduled && m < l->nmembers; m++) {
			struct ek_event *e = &k->ev[l->members[m]];

			if (e->hw >= 0 && e->hw < EK_HW_FIXED)
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
	c->offcore_users[0] = c->offcore_users[1] = 0;
}

/*
 * Counters for group L given what is taken (GP, FIXED, the offcore values
 * in use): true and the assignment in HW, or false when it does not fit.
 */
static bool ek_fit(struct emu_perf *k, const struct ek_ctx *c, const struct ek_event *l,
		   uint32_t gp, uint32_t fixed, int *hw)
{
	const struct ek_pmu *p = &k->pmus[l->pmu];
	unsigned ngp = p->kind == EK_CORE ? k->gp : p->counters;
	uint64_t offcore[2] = { c->offcore[0], c->offcore[1] };
	int users[2] = { c->offcore_users[0], c->offcore_users[1] };

	for (int m = 0; m < l->nmembers; m++) {
		const struct ek_event *e = &k->ev[l->members[m]];
		int n = p->kind == EK_CORE ? ek_fixed_of(e)
			: p->fixed && (e->config & EVTSEL_EVENT_MASK) == EK_UNC_FIXED_EVENT ? 0 : -1;
		int o = ek_offcore_of(e);

		if (p->kind == EK_SKL_IMC) {
			hw[m] = EK_HW_FREE;
			continue;
		}
		if (n >= 0 && !((p->kind == EK_CORE && (unsigned)n >= k->fixed) || (fixed & (1u << n)))) {
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
		for (unsigned g = 0; g < ngp && hw[m] == EK_HW_NONE; g++)
			if (!(gp & (1u << g))) {
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
		uint64_t sel = e->type == PERF_TYPE_HARDWARE ? ek_hw_arch_select(e)
			       : e->config & 0xFFFFFFFFull & ~(EVTSEL_USR | EVTSEL_OS | EVTSEL_INT);
		int o = ek_offcore_of(e);
		unsigned width;

		e->hw = hw[m];
		e->prev = 0;
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
			continue;
		}
		if (o >= 0) {
			c->offcore[o] = e->config1;
			c->offcore_users[o]++;
			emu_msr_write(k->emu, e->cpu, o ? MSR_OFFCORE_RSP_1 : MSR_OFFCORE_RSP_0,
				      e->config1);
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
static void ek_schedule(struct emu_perf *k, int cpu, int pmu)
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
}

/* The context's groups again from scratch at T (after a change); ROTATE: the list moves on by one. */
static void ek_resched(struct emu_perf *k, int cpu, int pmu, double t, bool rotate)
{
	struct ek_ctx *c = &k->cpus[cpu].ctx[pmu];

	ek_sync(k, cpu, pmu, t);
	ek_unschedule(k, cpu, pmu);
	if (rotate && c->norder > 1) {
		int first = c->order[0];

		memmove(c->order, c->order + 1, (size_t)(c->norder - 1) * sizeof(int));
		c->order[c->norder - 1] = first;
	}
	ek_schedule(k, cpu, pmu);
}

/* ---- the system calls ----------------------------------------------------- */

/* The PMU of TYPE, or -1. */
static int ek_pmu_of(const struct emu_perf *k, uint32_t type)
{
	if (type == PERF_TYPE_HARDWARE)
		return 0;
	for (int i = 0; i < k->npmus; i++)
		if (k->pmus[i].desc.type == type)
			return i;
	return -1;
}

static int ek_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd)
{
	struct emu_perf *k = ctx;
	struct ek_event *e, *l = NULL;
	int slot, lslot, rc = 0, hw[PERF_GROUP_MAX], pmu;
	uint32_t type = attr->type;

	pthread_mutex_lock(&k->lock);
	pmu = ek_pmu_of(k, type);
	if (pmu < 0) {
		rc = -ENOENT;
		goto out;
	}
	if (cpu < 0 || cpu >= k->ncpus || !k->cpus[cpu].present) {
		/* this kernel counts per CPU (for a task too); a CPU it lacks is ENODEV as Linux says */
		rc = -ENODEV;
		goto out;
	}
	if (pid != -1 && (pmu > 0 || (pid > 0 && kill(pid, 0) && errno == ESRCH))) {
		/* the uncore has no task context (EINVAL); a task that is gone: ESRCH */
		rc = pmu > 0 ? -EINVAL : -ESRCH;
		goto out;
	}
	if (pmu > 0)
		cpu = k->cpus[cpu].leader; /* an uncore event counts on its socket's CPU */
	if (type == PERF_TYPE_HARDWARE && ek_fixed_of(&(struct ek_event){ .type = type,
							 .config = attr->config }) < 0) {
		rc = -ENOENT;
		goto out;
	}
	if (k->pmus[pmu].kind == EK_SKL_IMC && !ek_imc_offset(&(struct ek_event){
		    .config = attr->config })) {
		rc = -EINVAL;
		goto out;
	}
	if (group_fd >= 0) {
		l = ek_event_of(k, group_fd);
		if (!l || l->leader != group_fd - EK_FD_BASE || l->cpu != cpu || l->pmu != pmu ||
		    l->nmembers >= PERF_GROUP_MAX) {
			rc = -EINVAL;
			goto out;
		}
	}
	lslot = l ? l->leader : -1;
	k->ev = xrealloc(k->ev, (size_t)k->nev + 1, sizeof(*k->ev));
	slot = k->nev++;
	l = lslot >= 0 ? &k->ev[lslot] : NULL; /* the array moved */
	e = &k->ev[slot];
	*e = (struct ek_event){
		.used = true, .cpu = cpu, .pmu = pmu, .leader = l ? l->leader : slot, .type = type,
		.config = attr->config, .config1 = attr->config1,
		.exclude_user = attr->exclude_user, .exclude_kernel = attr->exclude_kernel,
		.read_format = attr->read_format, .hw = EK_HW_NONE,
	};
	if (!l) {
		struct ek_ctx *c = ek_ctx_of(k, e);

		e->members[e->nmembers++] = slot;
		e->enabled = !attr->disabled;
		c->order = xrealloc(c->order, (size_t)c->norder + 1, sizeof(int));
		ek_sync(k, cpu, pmu, ek_now(k));
		c->order[c->norder++] = slot;
		if (e->enabled)
			ek_resched(k, cpu, pmu, ek_now(k), false);
	} else {
		/* a group that could never run on an empty PMU is refused, as validate_group does */
		struct ek_ctx empty = { 0 };

		l->members[l->nmembers++] = slot;
		if (!ek_fit(k, &empty, l, 0, 0, hw)) {
			l->nmembers--;
			e->used = false;
			k->nev--;
			rc = -EINVAL;
			goto out;
		}
		if (l->enabled)
			ek_resched(k, cpu, pmu, ek_now(k), false);
	}
	rc = EK_FD_BASE + slot;
out:
	pthread_mutex_unlock(&k->lock);
	return rc;
}

static ssize_t ek_read(void *ctx, int fd, void *buf, size_t len)
{
	struct emu_perf *k = ctx;
	struct ek_event *e, *l;
	uint64_t *out = buf;
	size_t need;

	pthread_mutex_lock(&k->lock);
	e = ek_event_of(k, fd);
	if (!e) {
		pthread_mutex_unlock(&k->lock);
		return -EBADF;
	}
	l = &k->ev[e->leader];
	ek_sync(k, e->cpu, e->pmu, ek_now(k));
	need = (3 + (size_t)l->nmembers) * sizeof(uint64_t);
	if (!(e->read_format & PERF_FORMAT_GROUP) || e != l ||
	    (e->read_format & (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)) !=
	    (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING) || len < need) {
		/* only the reads pmutop makes: a group leader's, with both times */
		pthread_mutex_unlock(&k->lock);
		return len < need ? -ENOSPC : -EINVAL;
	}
	out[0] = (uint64_t)l->nmembers;
	out[1] = l->enabled_ns;
	out[2] = l->running_ns;
	for (int m = 0; m < l->nmembers; m++)
		out[3 + m] = k->ev[l->members[m]].count;
	pthread_mutex_unlock(&k->lock);
	return (ssize_t)need;
}

static int ek_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	struct emu_perf *k = ctx;
	struct ek_event *e;
	int rc = 0;

	(void)arg;
	pthread_mutex_lock(&k->lock);
	e = ek_event_of(k, fd);
	if (!e) {
		rc = -EBADF;
	} else if (req == PERF_EVENT_IOC_ENABLE || req == PERF_EVENT_IOC_DISABLE) {
		struct ek_event *l = &k->ev[e->leader];

		ek_sync(k, e->cpu, e->pmu, ek_now(k));
		l->enabled = req == PERF_EVENT_IOC_ENABLE;
		ek_resched(k, e->cpu, e->pmu, ek_now(k), false);
	} else {
		rc = -ENOTTY;
	}
	pthread_mutex_unlock(&k->lock);
	return rc;
}

static void ek_close(void *ctx, int fd)
{
	struct emu_perf *k = ctx;
	struct ek_event *e;

	pthread_mutex_lock(&k->lock);
	e = ek_event_of(k, fd);
	if (e) {
		int slot = fd - EK_FD_BASE, cpu = e->cpu, pmu = e->pmu;
		struct ek_ctx *c = ek_ctx_of(k, e);
		struct ek_event *l = &k->ev[e->leader];

		ek_sync(k, cpu, pmu, ek_now(k));
		ek_unschedule(k, cpu, pmu);
		if (l == e) {
			for (int i = 0; i < c->norder; i++)
				if (c->order[i] == slot) {
					memmove(c->order + i, c->order + i + 1,
						(size_t)(c->norder - i - 1) * sizeof(int));
					c->norder--;
					break;
				}
			/* its members (closed first by pmutop) would go on alone; here they end with it */
			for (int m = 1; m < l->nmembers; m++)
				k->ev[l->members[m]].used = false;
		} else {
			for (int m = 1; m < l->nmembers; m++)
				if (l->members[m] == slot) {
					memmove(l->members + m, l->members + m + 1,
						(size_t)(l->nmembers - m - 1) * sizeof(int));
					l->nmembers--;
					break;
				}
		}
		e->used = false;
		ek_schedule(k, cpu, pmu);
	}
	pthread_mutex_unlock(&k->lock);
}

/*
 * Whether context C has an enabled group that is not on the counters: only
 * then does rotating it change anything (Linux's rotate_necessary).
 */
static bool ek_rotate_necessary(const struct emu_perf *k, const struct ek_ctx *c)
{
	for (int i = 0; i < c->norder; i++) {
		const struct ek_event *l = &k->ev[c->order[i]];

		if (l->enabled && !l->scheduled)
			return true;
	}
	return false;
}

/*
 * How often the timer is needed: the multiplexing period while some
 * context rotates; a second while the IMC's 32-bit free-running counters
 * are open (so they never wrap twice unseen); else never.
 */
static double ek_tick_need(void *ctx)
{
	struct emu_perf *k = ctx;
	double need = 0;

	pthread_mutex_lock(&k->lock);
	for (int cpu = 0; cpu < k->ncpus && need != EMU_PERF_TICK_S; cpu++)
		for (int p = 0; p < k->npmus; p++) {
			const struct ek_ctx *c = &k->cpus[cpu].ctx[p];

			if (c->norder > 1 && ek_rotate_necessary(k, c)) {
				need = EMU_PERF_TICK_S;
				break;
			}
			if (c->norder && k->pmus[p].kind == EK_SKL_IMC)
				need = EK_WRAP_TICK_S;
		}
	pthread_mutex_unlock(&k->lock);
	return need;
}

/* The timer: every context whose groups do not all fit rotates by one, at the emulated time. */
static void ek_tick(void *ctx)
{
	struct emu_perf *k = ctx;
	double t;

	pthread_mutex_lock(&k->lock);
	t = ek_now(k);
	for (int cpu = 0; cpu < k->ncpus; cpu++)
		for (int p = 0; p < k->npmus; p++)
			if (k->cpus[cpu].ctx[p].norder > 1 &&
			    ek_rotate_necessary(k, &k->cpus[cpu].ctx[p]))
				ek_resched(k, cpu, p, t, true);
			else if (k->cpus[cpu].ctx[p].norder && k->pmus[p].kind == EK_SKL_IMC)
				ek_sync(k, cpu, p, t); /* 32-bit free-running counters wrap: keep up */
	pthread_mutex_unlock(&k->lock);
}

static uint64_t ek_tsc(void *ctx)
{
	struct emu_perf *k = ctx;
	uint64_t v = 0;

	for (int cpu = 0; cpu < k->ncpus; cpu++)
		if (k->cpus[cpu].present && !emu_msr_read(k->emu, cpu, IA32_TIME_STAMP_COUNTER, &v))
			break;
	return v;
}

static int ek_pmu_desc(void *ctx, const char *name, struct perf_pmu *out)
{
	struct emu_perf *k = ctx;

	for (int i = 0; i < k->npmus; i++)
		if (!strcmp(k->pmus[i].desc.name, name)) {
			*out = k->pmus[i].desc;
			return 0;
		}
	return -ENOENT;
}

/* ---- life cycle ----------------------------------------------------------- */

/* A PMU description: NAME, TYPE, the formats (NAME=TEXT pairs), the uncore CPUs in CPUMASK. */
static struct ek_pmu *ek_add_pmu(struct emu_perf *k, const char *name, uint32_t type,
				 enum ek_kind kind, const char *cmask, const char *cpumask)
{
	static const char *const core[][2] = {
		{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "edge", "config:18" },
		{ "pc", "config:19" }, { "any", "config:21" }, { "inv", "config:23" },
		{ "cmask", "config:24-31" }, { "offcore_rsp", "config1:0-63" },
	};
	struct ek_pmu *p = &k->pmus[k->npmus++];

	memset(p, 0, sizeof(*p));
	p->kind = kind;
	snprintf(p->desc.name, sizeof(p->desc.name), "%s", name);
	p->desc.type = type;
	snprintf(p->desc.cpumask, sizeof(p->desc.cpumask), "%s", cpumask);
	if (kind == EK_CORE) {
		for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++)
			perf_pmu_add_field(&p->desc, core[i][0], core[i][1]);
		return p;
	}
	perf_pmu_add_field(&p->desc, "event", "config:0-7");
	perf_pmu_add_field(&p->desc, "umask", "config:8-15");
	if (kind == EK_SKL_IMC) {
		for (size_t i = 0; i < sizeof(ek_imc_events) / sizeof(ek_imc_events[0]); i++) {
			char terms[32];

			snprintf(terms, sizeof(terms), "event=0x%02x", ek_imc_events[i].event);
			perf_pmu_add_alias(&p->desc, ek_imc_events[i].name, terms);
		}
		return p;
	}
	perf_pmu_add_field(&p->desc, "edge", "config:18");
	perf_pmu_add_field(&p->desc, "inv", "config:23");
	perf_pmu_add_field(&p->desc, "cmask", cmask);
	return p;
}

/* The uncore PMUs of the emulated machine, as Linux's intel_uncore driver names them. */
static void ek_add_uncore(struct emu_perf *k, const char *cpumask)
{
	const struct emu_machine *m = emu_machine(k->emu);
	struct ek_pmu *p;
	char name[32];

	switch (emu_uncore(k->emu)) {
	case CPUMODEL_UNCORE_NHM:
		p = ek_add_pmu(k, "uncore", EK_UNCORE_TYPE, EK_NHM_UNC, "config:24-31", cpumask);
		p->counters = NHM_UNC_COUNTERS;
		p->width = NHM_UNC_WIDTH;
		p->evtsel0 = MSR_UNCORE_PERFEVTSEL0;
		p->ctr0 = MSR_UNCORE_PMC0;
		p->fixed = true;
		p->fixed_ctrl = MSR_UNCORE_FIXED_CTR_CTRL;
		p->fixed_ctr = MSR_UNCORE_FIXED_CTR0;
		p->fixed_en = NHM_UNC_FIXED_EN;
		p->fixed_width = NHM_UNC_WIDTH;
		break;
	case CPUMODEL_UNCORE_SKL:
		for (int b = 0; b < m->cbo && b < SKL_UNC_MAX_CBO; b++) {
			snprintf(name, sizeof(name), "uncore_cbox_%d", b);
			p = ek_add_pmu(k, name, EK_UNCORE_TYPE + (uint32_t)b, EK_SKL_CBO,
				       "config:24-28", cpumask);
			p->counters = SKL_UNC_BOX_COUNTERS;
			p->width = SKL_UNC_WIDTH;
			p->evtsel0 = MSR_UNC_CBO_0_PERFEVTSEL0 + SKL_UNC_CBO_STRIDE * (uint32_t)b;
			p->ctr0 = MSR_UNC_CBO_0_PERFCTR0 + SKL_UNC_CBO_STRIDE * (uint32_t)b;
			/* the uncore clock is counted by the first box's fixed counter */
			p->fixed = b == 0;
			p->fixed_ctrl = MSR_UNC_PERF_FIXED_CTRL;
			p->fixed_ctr = MSR_UNC_PERF_FIXED_CTR;
			p->fixed_en = SKL_UNC_FIXED_CNT_EN;
			p->fixed_width = SKL_UNC_FIXED_WIDTH;
		}
		p = ek_add_pmu(k, "uncore_arb", EK_UNCORE_TYPE + SKL_UNC_MAX_CBO, EK_SKL_ARB,
			       "config:24-28", cpumask);
		p->counters = SKL_UNC_BOX_COUNTERS;
		p->width = SKL_UNC_WIDTH;
		p->evtsel0 = MSR_UNC_ARB_PERFEVTSEL0;
		p->ctr0 = MSR_UNC_ARB_PERFCTR0;
		ek_add_pmu(k, "uncore_imc", EK_UNCORE_TYPE + SKL_UNC_MAX_CBO + 1, EK_SKL_IMC, "",
			   cpumask);
		break;
	default:
		break;
	}
}

struct emu_perf *emu_perf_create(struct emu *emu)
{
	const struct emu_machine *m = emu_machine(emu);
	const struct topo *t = emu_topo(emu);
	enum cpumodel_uncore unc = emu_uncore(emu);
	char cpumask[256] = "";
	struct emu_perf *k;

	if (!m->gp_counters)
		return NULL;
	k = xcalloc(1, sizeof(*k));
	k->emu = emu;
	k->gp = m->gp_counters < PMU_MAX_GP ? m->gp_counters : PMU_MAX_GP;
	k->fixed = m->fixed_counters < PMU_MAX_FIXED ? m->fixed_counters : PMU_MAX_FIXED;
	k->gp_width = m->gp_width;
	k->fixed_width = m->fixed_width;
	pthread_mutex_init(&k->lock, NULL);
	k->ncpus = t->cpu_thread_len;
	k->cpus = xcalloc((size_t)k->ncpus + 1, sizeof(*k->cpus));
	/* each socket's uncore is reached through its first CPU: the PMUs' cpumask */
	for (int sk = 0; sk < t->nsockets; sk++)
		for (int i = 0; i < t->nthreads; i++)
			if (t->threads[i].socket == sk) {
				snprintf(cpumask + strlen(cpumask), sizeof(cpumask) - strlen(cpumask),
					 "%s%d", cpumask[0] ? "," : "", t->threads[i].os_cpu);
				for (int j = 0; j < t->nthreads; j++)
					if (t->threads[j].socket == sk && t->threads[j].os_cpu < k->ncpus)
						k->cpus[t->threads[j].os_cpu].leader = t->threads[i].os_cpu;
				break;
			}
	ek_add_pmu(k, "cpu", PERF_TYPE_RAW, EK_CORE, "", "");
	ek_add_uncore(k, cpumask);
	for (int i = 0; i < t->nthreads; i++) {
		int cpu = t->threads[i].os_cpu;
		uint64_t global = 0;

		if (cpu < 0 || cpu >= k->ncpus)
			continue;
		k->cpus[cpu].present = true;
		for (int p = 0; p < k->npmus; p++)
			k->cpus[cpu].ctx[p].t = emu_clock_now(emu);
		/* the kernel owns the PMU: every counter enabled globally, selects decide */
		for (unsigned g = 0; g < k->gp; g++)
			global |= GLOBAL_PMC(g);
		for (unsigned n = 0; n < k->fixed; n++)
			global |= GLOBAL_FIXED(n);
		if (m->perfmon_version >= 2)
			emu_msr_write(emu, cpu, IA32_PERF_GLOBAL_CTRL, global);
		if (k->cpus[cpu].leader != cpu)
			continue;
		if (unc == CPUMODEL_UNCORE_NHM)
			emu_msr_write(emu, cpu, MSR_UNCORE_PERF_GLOBAL_CTRL, 0xFFull | NHM_UNC_GLOBAL_FIXED);
		else if (unc == CPUMODEL_UNCORE_SKL)
			emu_msr_write(emu, cpu, MSR_UNC_PERF_GLOBAL_CTRL, SKL_UNC_GLOBAL_EN);
	}
	k->sys = (struct perf_sys){
		.open = ek_open, .read = ek_read, .ioctl = ek_ioctl, .close = ek_close,
		.tick = ek_tick, .tick_s = EMU_PERF_TICK_S, .tick_need = ek_tick_need, .tsc = ek_tsc,
		.pmu = ek_pmu_desc,
		.ctx = k,
	};
	return k;
}

const struct perf_sys *emu_perf_sys(struct emu_perf *k)
{
	return &k->sys;
}

void emu_perf_cpu_pmu(const struct emu_perf *k, struct perf_pmu *out)
{
	*out = k->pmus[0].desc;
}

void emu_perf_set_watchdog(struct emu_perf *k, bool on)
{
	pthread_mutex_lock(&k->lock);
	k->watchdog = on && k->fixed > 1;
	for (int cpu = 0; cpu < k->ncpus; cpu++)
		if (k->cpus[cpu].present)
			ek_resched(k, cpu, 0, ek_now(k), false);
	pthread_mutex_unlock(&k->lock);
}

int emu_perf_hide_pmu(struct emu_perf *k, const char *name)
{
	for (int i = 1; i < k->npmus; i++)
		if (!strcmp(k->pmus[i].desc.name, name)) {
			/* its type stays taken: events opened with it are ENOENT as for any unknown */
			snprintf(k->pmus[i].desc.name, sizeof(k->pmus[i].desc.name), "(hidden)");
			k->pmus[i].desc.type = 0x7FFF0000u + (uint32_t)i;
			return 0;
		}
	return -ENOENT;
}

int emu_perf_open_events(struct emu_perf *k)
{
	int n = 0;

	pthread_mutex_lock(&k->lock);
	for (int i = 0; i < k->nev; i++)
		n += k->ev[i].used;
	pthread_mutex_unlock(&k->lock);
	return n;
}

void emu_perf_free(struct emu_perf *k)
{
	if (!k)
		return;
	for (int i = 0; i < k->ncpus; i++)
		for (int p = 0; p < EK_MAX_PMUS; p++)
			free(k->cpus[i].ctx[p].order);
	free(k->cpus);
	free(k->ev);
	pthread_mutex_destroy(&k->lock);
	free(k);
}
