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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EK_FD_BASE 1000      /* its descriptors: EK_FD_BASE + slot, never a real one's number */
#define EK_HW_NONE (-1)
#define EK_HW_FIXED 100      /* + n: fixed counter n */

struct ek_event {
	bool used;
	int cpu;
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

struct ek_cpu {
	int *order;               /* the leaders in scheduling order (rotated at each tick) */
	int norder;
	double t;                 /* times and counts are up to here */
	uint64_t offcore[2];      /* MSR_OFFCORE_RSP_0/1 while a scheduled event uses it */
	int offcore_users[2];
};

struct emu_perf {
	struct emu *emu;
	struct perf_sys sys;
	pthread_mutex_t lock;
	struct ek_event *ev;
	int nev;
	struct ek_cpu *cpus;      /* by OS CPU number */
	int ncpus;
	unsigned gp, fixed, gp_width, fixed_width;
};

static double ek_now(struct emu_perf *k)
{
	return emu_clock_now(k->emu);
}

static struct ek_event *ek_event_of(struct emu_perf *k, int fd)
{
	int slot = fd - EK_FD_BASE;

	return slot >= 0 && slot < k->nev && k->ev[slot].used ? &k->ev[slot] : NULL;
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

/* Which offcore response register a raw event uses: 0 (B7H), 1 (BBH), or -1. */
static int ek_offcore_of(const struct ek_event *e)
{
	unsigned code = (unsigned)(e->config & EVTSEL_EVENT_MASK);

	if (e->type != PERF_TYPE_RAW)
		return -1;
	return code == 0xB7 ? 0 : code == 0xBB ? 1 : -1;
}

/* Bring the running counter of E up to date. */
static void ek_read_counter(struct emu_perf *k, struct ek_event *e)
{
	uint32_t reg;
	unsigned width;
	uint64_t v;

	if (e->hw == EK_HW_NONE)
		return;
	if (e->hw >= EK_HW_FIXED) {
		reg = IA32_FIXED_CTR0 + (uint32_t)(e->hw - EK_HW_FIXED);
		width = k->fixed_width;
	} else {
		reg = IA32_PMC0 + (uint32_t)e->hw;
		width = k->gp_width;
	}
	if (emu_msr_read(k->emu, e->cpu, reg, &v))
		return;
	e->count += (v - e->prev) & (width >= 64 ? ~0ull : (1ull << width) - 1);
	e->prev = v;
}

/* Times and counts of CPU's groups up to T. */
static void ek_sync(struct emu_perf *k, int cpu, double t)
{
	struct ek_cpu *c = &k->cpus[cpu];
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

/* Take every group of CPU off the counters (their counts already synced). */
static void ek_unschedule(struct emu_perf *k, int cpu)
{
	struct ek_cpu *c = &k->cpus[cpu];
	uint64_t fixed_ctrl = 0;

	for (int i = 0; i < c->norder; i++) {
		struct ek_event *l = &k->ev[c->order[i]];

		for (int m = 0; l->scheduled && m < l->nmembers; m++) {
			struct ek_event *e = &k->ev[l->members[m]];

			if (e->hw != EK_HW_NONE && e->hw < EK_HW_FIXED)
				emu_msr_write(k->emu, cpu, IA32_PERFEVTSEL0 + (uint32_t)e->hw, 0);
			e->hw = EK_HW_NONE;
		}
		l->scheduled = false;
	}
	if (k->fixed)
		emu_msr_write(k->emu, cpu, IA32_FIXED_CTR_CTRL, fixed_ctrl);
	c->offcore_users[0] = c->offcore_users[1] = 0;
}

/*
 * Counters for group L given what is taken (GP, FIXED, OFFCORE values in
 * use): true and the assignment in HW, or false when it does not fit.
 */
static bool ek_fit(struct emu_perf *k, const struct ek_cpu *c, const struct ek_event *l,
		   uint32_t gp, uint32_t fixed, int *hw)
{
	uint64_t offcore[2] = { c->offcore[0], c->offcore[1] };
	int users[2] = { c->offcore_users[0], c->offcore_users[1] };

	for (int m = 0; m < l->nmembers; m++) {
		const struct ek_event *e = &k->ev[l->members[m]];
		int n = ek_fixed_of(e), o = ek_offcore_of(e);

		if (n >= 0) {
			if ((unsigned)n >= k->fixed || (fixed & (1u << n)))
				return false;
			fixed |= 1u << n;
			hw[m] = EK_HW_FIXED + n;
			continue;
		}
		/* the shared extra register: one value at a time (Linux's extra_reg constraint) */
		if (o >= 0) {
			if (users[o] && offcore[o] != e->config1)
				return false;
			offcore[o] = e->config1;
			users[o]++;
		}
		hw[m] = EK_HW_NONE;
		for (unsigned g = 0; g < k->gp && hw[m] == EK_HW_NONE; g++)
			if (!(gp & (1u << g))) {
				gp |= 1u << g;
				hw[m] = (int)g;
			}
		if (hw[m] == EK_HW_NONE)
			return false;
	}
	return true;
}

/* Program group L on its counters HW. */
static void ek_program(struct emu_perf *k, struct ek_cpu *c, struct ek_event *l, const int *hw,
		       uint64_t *fixed_ctrl)
{
	for (int m = 0; m < l->nmembers; m++) {
		struct ek_event *e = &k->ev[l->members[m]];
		uint64_t priv = (e->exclude_user ? 0 : EVTSEL_USR) | (e->exclude_kernel ? 0 : EVTSEL_OS);
		int o = ek_offcore_of(e);

		e->hw = hw[m];
		e->prev = 0;
		if (e->hw >= EK_HW_FIXED) {
			unsigned n = (unsigned)(e->hw - EK_HW_FIXED);

			*fixed_ctrl |= ((e->exclude_kernel ? 0 : FIXED_CTRL_OS) |
					(e->exclude_user ? 0 : FIXED_CTRL_USR)) << FIXED_CTRL_SHIFT(n);
			emu_msr_write(k->emu, e->cpu, IA32_FIXED_CTR0 + n, 0);
			continue;
		}
		if (o >= 0) {
			c->offcore[o] = e->config1;
			c->offcore_users[o]++;
			emu_msr_write(k->emu, e->cpu, o ? MSR_OFFCORE_RSP_1 : MSR_OFFCORE_RSP_0,
				      e->config1);
		}
		/* the raw config is the select's own bits (the cpu PMU's format), enabled */
		emu_msr_write(k->emu, e->cpu, IA32_PERFEVTSEL0 + (uint32_t)e->hw,
			      (e->config & 0xFFFFFFFFull & ~(EVTSEL_USR | EVTSEL_OS | EVTSEL_INT)) |
			      priv | EVTSEL_EN);
		emu_msr_write(k->emu, e->cpu, IA32_PMC0 + (uint32_t)e->hw, 0);
	}
	l->scheduled = true;
}

/* Schedule CPU's enabled groups in order until one does not fit. */
static void ek_schedule(struct emu_perf *k, int cpu)
{
	struct ek_cpu *c = &k->cpus[cpu];
	uint32_t gp = 0, fixed = 0;
	uint64_t fixed_ctrl = 0;

	for (int i = 0; i < c->norder; i++) {
		struct ek_event *l = &k->ev[c->order[i]];
		int hw[PERF_GROUP_MAX];

		if (!l->enabled)
			continue;
		if (!ek_fit(k, c, l, gp, fixed, hw))
			break; /* Linux stops at the first flexible group that does not fit */
		ek_program(k, c, l, hw, &fixed_ctrl);
		for (int m = 0; m < l->nmembers; m++)
			if (hw[m] >= EK_HW_FIXED)
				fixed |= 1u << (hw[m] - EK_HW_FIXED);
			else
				gp |= 1u << hw[m];
	}
	if (k->fixed)
		emu_msr_write(k->emu, cpu, IA32_FIXED_CTR_CTRL, fixed_ctrl);
}

/* CPU's groups again from scratch at T (after a change), ROTATE: the list moves on by one. */
static void ek_resched(struct emu_perf *k, int cpu, double t, bool rotate)
{
	struct ek_cpu *c = &k->cpus[cpu];

	ek_sync(k, cpu, t);
	ek_unschedule(k, cpu);
	if (rotate && c->norder > 1) {
		int first = c->order[0];

		memmove(c->order, c->order + 1, (size_t)(c->norder - 1) * sizeof(int));
		c->order[c->norder - 1] = first;
	}
	ek_schedule(k, cpu);
}

/* ---- the system calls ----------------------------------------------------- */

static int ek_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd)
{
	struct emu_perf *k = ctx;
	struct ek_event *e, *l = NULL;
	int slot, lslot, rc = 0, hw[PERF_GROUP_MAX];
	uint32_t type = attr->type;

	pthread_mutex_lock(&k->lock);
	if (type != PERF_TYPE_RAW && type != PERF_TYPE_HARDWARE) {
		rc = -ENOENT;
		goto out;
	}
	if (pid != -1 || cpu < 0 || cpu >= k->ncpus || !k->cpus[cpu].order) {
		/* this kernel counts per CPU only; a CPU it lacks is ENODEV as Linux says */
		rc = pid != -1 ? -EOPNOTSUPP : -ENODEV;
		goto out;
	}
	if (type == PERF_TYPE_HARDWARE && attr->config != PERF_COUNT_HW_INSTRUCTIONS &&
	    attr->config != PERF_COUNT_HW_CPU_CYCLES && attr->config != PERF_COUNT_HW_REF_CPU_CYCLES) {
		rc = -ENOENT;
		goto out;
	}
	if (group_fd >= 0) {
		l = ek_event_of(k, group_fd);
		if (!l || l->leader != group_fd - EK_FD_BASE || l->cpu != cpu ||
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
		.used = true, .cpu = cpu, .leader = l ? l->leader : slot, .type = type,
		.config = attr->config, .config1 = attr->config1,
		.exclude_user = attr->exclude_user, .exclude_kernel = attr->exclude_kernel,
		.read_format = attr->read_format, .hw = EK_HW_NONE,
	};
	if (!l) {
		struct ek_cpu *c = &k->cpus[cpu];

		e->members[e->nmembers++] = slot;
		e->enabled = !attr->disabled;
		c->order = xrealloc(c->order, (size_t)c->norder + 1, sizeof(int));
		ek_sync(k, cpu, ek_now(k));
		c->order[c->norder++] = slot;
		if (e->enabled)
			ek_resched(k, cpu, ek_now(k), false);
	} else {
		/* a group that could never run on an empty PMU is refused, as validate_group does */
		struct ek_cpu empty = { 0 };

		l->members[l->nmembers++] = slot;
		if (!ek_fit(k, &empty, l, 0, 0, hw)) {
			l->nmembers--;
			e->used = false;
			k->nev--;
			rc = -EINVAL;
			goto out;
		}
		if (l->enabled)
			ek_resched(k, cpu, ek_now(k), false);
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
	ek_sync(k, e->cpu, ek_now(k));
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

		ek_sync(k, e->cpu, ek_now(k));
		l->enabled = req == PERF_EVENT_IOC_ENABLE;
		ek_resched(k, e->cpu, ek_now(k), false);
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
		int slot = fd - EK_FD_BASE, cpu = e->cpu;
		struct ek_cpu *c = &k->cpus[cpu];
		struct ek_event *l = &k->ev[e->leader];

		ek_sync(k, cpu, ek_now(k));
		ek_unschedule(k, cpu);
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
		ek_schedule(k, cpu);
	}
	pthread_mutex_unlock(&k->lock);
}

/* The timer: every CPU's groups rotate by one, at the emulated time. */
static void ek_tick(void *ctx)
{
	struct emu_perf *k = ctx;
	double t;

	pthread_mutex_lock(&k->lock);
	t = ek_now(k);
	for (int cpu = 0; cpu < k->ncpus; cpu++)
		if (k->cpus[cpu].norder > 1)
			ek_resched(k, cpu, t, true);
	pthread_mutex_unlock(&k->lock);
}

static uint64_t ek_tsc(void *ctx)
{
	struct emu_perf *k = ctx;
	uint64_t v = 0;

	for (int cpu = 0; cpu < k->ncpus; cpu++)
		if (k->cpus[cpu].order && !emu_msr_read(k->emu, cpu, IA32_TIME_STAMP_COUNTER, &v))
			break;
	return v;
}

/* ---- life cycle ----------------------------------------------------------- */

struct emu_perf *emu_perf_create(struct emu *emu)
{
	const struct emu_machine *m = emu_machine(emu);
	const struct topo *t = emu_topo(emu);
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
	for (int i = 0; i < t->nthreads; i++) {
		int cpu = t->threads[i].os_cpu;
		uint64_t global = 0;

		if (cpu < 0 || cpu >= k->ncpus)
			continue;
		k->cpus[cpu].order = xcalloc(1, sizeof(int));
		k->cpus[cpu].t = emu_clock_now(emu);
		/* the kernel owns the PMU: every counter enabled globally, selects decide */
		for (unsigned g = 0; g < k->gp; g++)
			global |= GLOBAL_PMC(g);
		for (unsigned n = 0; n < k->fixed; n++)
			global |= GLOBAL_FIXED(n);
		if (m->perfmon_version >= 2)
			emu_msr_write(emu, cpu, IA32_PERF_GLOBAL_CTRL, global);
	}
	k->sys = (struct perf_sys){
		.open = ek_open, .read = ek_read, .ioctl = ek_ioctl, .close = ek_close,
		.tick = ek_tick, .tick_s = EMU_PERF_TICK_S, .tsc = ek_tsc, .ctx = k,
	};
	return k;
}

const struct perf_sys *emu_perf_sys(struct emu_perf *k)
{
	return &k->sys;
}

void emu_perf_cpu_pmu(const struct emu_perf *k, struct perf_pmu *out)
{
	static const char *const formats[][2] = {
		{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "edge", "config:18" },
		{ "pc", "config:19" }, { "any", "config:21" }, { "inv", "config:23" },
		{ "cmask", "config:24-31" }, { "offcore_rsp", "config1:0-63" },
	};

	(void)k;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "cpu");
	out->type = PERF_TYPE_RAW;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		perf_pmu_add_field(out, formats[i][0], formats[i][1]);
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
		free(k->cpus[i].order);
	free(k->cpus);
	free(k->ev);
	pthread_mutex_destroy(&k->lock);
	free(k);
}
