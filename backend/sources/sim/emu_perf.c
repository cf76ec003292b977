/*
 * emu_perf: the emulated kernel's perf_event groups, scheduling and
 * multiplexing over the emulated core PMU.  See emu_perf.h.
 */
#include "emu_perf.h"
#include "emu_perf_int.h"
#include "emu_int.h"
#include "emu_machine.h"
#include "pmu_regs.h"
#include "pilock.h"
#include "xmalloc.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the system calls ----------------------------------------------------- */

/*
 * The kernel's lock, and the emulated time held for the operation: every
 * register it reads or writes, and the times it keeps, are of one instant.
 */
void ek_lock(struct emu_perf *k)
{
	pthread_mutex_lock(&k->lock);
	emu_clock_hold(k->emu, ek_now(k));
}

void ek_unlock(struct emu_perf *k)
{
	emu_clock_release(k->emu);
	pthread_mutex_unlock(&k->lock);
}

static int ek_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		   unsigned long flags)
{
	struct emu_perf *k = ctx;
	struct ek_event *e, *l = NULL;
	int slot, lslot, rc = 0, hw[PERF_GROUP_MAX], pmu;
	bool task_ok;
	uint32_t type = attr->type;

	ek_lock(k);
	if ((flags & PERF_FLAG_PID_CGROUP) || (pid > 0 && emu_who_task(k->emu, pid) >= 0)) {
		rc = ek_who_open(k, attr, pid, cpu, group_fd, flags);
		goto out;
	}
	if (cpu < 0 || cpu >= k->ncpus || !k->cpus[cpu].present) {
		/* this kernel counts per CPU (for a task too); a CPU it lacks is ENODEV as Linux says */
		rc = -ENODEV;
		goto out;
	}
	/* a generic event: the core PMU its extended type names (hybrid), else the CPU's */
	pmu = type != PERF_TYPE_HARDWARE ? ek_pmu_of(k, type)
	      : attr->config >> 32 ? ek_pmu_of(k, (uint32_t)(attr->config >> 32)) : ek_core_pmu(k, cpu);
	if (pmu < 0 || (k->pmus[pmu].kind == EK_CORE && pmu != ek_core_pmu(k, cpu))) {
		rc = -ENOENT; /* no such PMU, or a hybrid core PMU for the other kind's CPU */
		goto out;
	}
	if (k->pmus[pmu].kind == EK_CORE && type != PERF_TYPE_HARDWARE)
		type = PERF_TYPE_RAW; /* cpu_atom's raw events as the core's */
	/* the uncore has no task context (EINVAL; the core and msr PMUs have); a task gone: ESRCH */
	task_ok = k->pmus[pmu].kind == EK_CORE || k->pmus[pmu].kind == EK_MSR;
	if (pid != -1 && (!task_ok || (pid > 0 && kill(pid, 0) && errno == ESRCH))) {
		rc = !task_ok ? -EINVAL : -ESRCH;
		goto out;
	}
	if (k->pmus[pmu].kind != EK_CORE && !k->pmus[pmu].per_cpu)
		cpu = k->cpus[cpu].leader; /* an uncore event counts on its socket's CPU */
	/* Linux on AMD maps cycles and instructions, not ref-cycles (amd_zen*_perfmon_event_map) */
	if (type == PERF_TYPE_HARDWARE && (ek_fixed_of(&(struct ek_event){ .type = type,
							 .config = attr->config & 0xFFFFFFFFu }) < 0 ||
					   (k->amd && attr->config == PERF_COUNT_HW_REF_CPU_CYCLES))) {
		rc = -ENOENT;
		goto out;
	}
	if (k->pmus[pmu].kind == EK_MSR && !ek_msr_event(attr->config)) {
		rc = -EINVAL; /* an msr event this CPU has not */
		goto out;
	}
	/* a topdown-* event only in a group led by "slots", as Linux requires */
	if (k->pmus[pmu].kind == EK_CORE &&
	    ek_metric_of(&(struct ek_event){ .type = type, .config = attr->config }) >= 0 &&
	    (group_fd < 0 || !ek_event_of(k, group_fd) ||
	     ek_fixed_of(&k->ev[ek_event_of(k, group_fd)->leader]) != 3)) {
		rc = -EINVAL;
		goto out;
	}
	/*
	 * RAPL: a domain this machine has (cores 01H, pkg 02H, ram 03H); a free-running
	 * counter: one of its events; nothing else in config (Linux: EINVAL)
	 */
	if (k->pmus[pmu].kind == EK_POWER && !ek_free_config_ok(&k->pmus[pmu], attr->config)) {
		rc = -EINVAL;
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
	slot = ek_slots_take(&k->free_ev);
	if (slot < 0) {
		k->ev = xrealloc(k->ev, (size_t)k->nev + 1, sizeof(*k->ev));
		slot = k->nev++;
	}
	l = lslot >= 0 ? &k->ev[lslot] : NULL; /* the array moved */
	e = &k->ev[slot];
	*e = (struct ek_event){
		.used = true, .fd_open = true, .cpu = cpu, .pmu = pmu, .leader = l ? l->leader : slot, .type = type,
		.config = type == PERF_TYPE_HARDWARE ? attr->config & 0xFFFFFFFFu : attr->config,
		.config1 = attr->config1,
		.exclude_user = attr->exclude_user, .exclude_kernel = attr->exclude_kernel,
		.read_format = attr->read_format, .hw = EK_HW_NONE,
	};
	/*
	 * a counted box keeps the bits its format names and drops the rest, as
	 * uncore_pmu_event_init masks config with the type's event_mask: an
	 * encoding the driver does not place counts another event
	 */
	if (k->pmus[pmu].kind == EK_SRV)
		e->config &= ek_format_mask(&k->pmus[pmu].desc, 0);
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
			e->fd_open = false;
			ek_slots_put(&k->free_ev, slot);
			rc = -EINVAL;
			goto out;
		}
		if (l->enabled)
			ek_resched(k, cpu, pmu, ek_now(k), false);
	}
	rc = EK_FD_BASE + slot;
out:
	ek_unlock(k);
	return rc;
}

static ssize_t ek_read(void *ctx, int fd, void *buf, size_t len)
{
	struct emu_perf *k = ctx;
	struct ek_event *e, *l;
	uint64_t *out = buf;
	size_t need;

	ek_lock(k);
	if (ek_who_fd(fd)) {
		ssize_t got = ek_who_read(k, fd, buf, len);

		ek_unlock(k);
		return got;
	}
	e = ek_event_of(k, fd);
	if (!e) {
		ek_unlock(k);
		return -EBADF;
	}
	l = &k->ev[e->leader];
	ek_sync(k, e->cpu, e->pmu, ek_now(k));
	need = (3 + (size_t)l->nmembers) * sizeof(uint64_t);
	if (!(e->read_format & PERF_FORMAT_GROUP) || e != l ||
	    (e->read_format & (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)) !=
	    (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING) || len < need) {
		/* only the reads pmutop makes: a group leader's, with both times */
		ek_unlock(k);
		return len < need ? -ENOSPC : -EINVAL;
	}
	out[0] = (uint64_t)l->nmembers;
	out[1] = l->enabled_ns;
	out[2] = l->running_ns;
	for (int m = 0; m < l->nmembers; m++) {
		ek_flush(k, &k->ev[l->members[m]]);
		out[3 + m] = k->ev[l->members[m]].count;
	}
	ek_unlock(k);
	return (ssize_t)need;
}

static int ek_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	struct emu_perf *k = ctx;
	struct ek_event *e;
	int rc = 0;

	(void)arg;
	ek_lock(k);
	e = ek_event_of(k, fd);
	if (ek_who_fd(fd)) {
		rc = ek_who_ioctl(k, fd, req);
	} else if (!e) {
		rc = -EBADF;
	} else if (req == PERF_EVENT_IOC_ENABLE || req == PERF_EVENT_IOC_DISABLE) {
		struct ek_event *l = &k->ev[e->leader];

		ek_sync(k, e->cpu, e->pmu, ek_now(k));
		l->enabled = req == PERF_EVENT_IOC_ENABLE;
		ek_resched(k, e->cpu, e->pmu, ek_now(k), false);
	} else {
		rc = -ENOTTY;
	}
	ek_unlock(k);
	return rc;
}

static void ek_close(void *ctx, int fd)
{
	struct emu_perf *k = ctx;
	struct ek_event *e;

	ek_lock(k);
	if (ek_who_fd(fd))
		ek_who_close(k, fd);
	e = ek_who_fd(fd) ? NULL : ek_event_of(k, fd);
	if (!ek_who_fd(fd) && fd - EK_FD_BASE >= 0 && fd - EK_FD_BASE < k->nev &&
	    k->ev[fd - EK_FD_BASE].fd_open) {
		/* the fd's slot is free once closed, counting or not (a member whose leader closed) */
		k->ev[fd - EK_FD_BASE].fd_open = false;
		ek_slots_put(&k->free_ev, fd - EK_FD_BASE);
	}
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
	ek_unlock(k);
}

static uint64_t ek_tsc(void *ctx)
{
	struct emu_perf *k = ctx;

	/*
	 * The TSC is the emulated clock at the nominal rate (as emu.c answers
	 * the register), worked out here: reading the register would bring a
	 * CPU's counters up to now, past the times its context's groups were
	 * last accounted at, and the timer's next rotation would give the
	 * group leaving the counters counts beyond its running time (CPU 0's
	 * figures of a rotated group 17 % off in a sanitizer build).
	 */
	return (uint64_t)(emu_clock_now(k->emu) * emu_machine(k->emu)->nominal_ghz * 1e9);
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

static int ek_pmu_names(void *ctx, char (*names)[64], int max)
{
	struct emu_perf *k = ctx;
	int n = 0;

	for (int i = 0; i < k->npmus && n < max; i++)
		if (strcmp(k->pmus[i].desc.name, "(hidden)"))
			snprintf(names[n++], 64, "%s", k->pmus[i].desc.name);
	return n;
}

/* ---- life cycle ----------------------------------------------------------- */

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
	ek_add_server(k, cpumask);
	ek_add_cstate(k, cpumask);
}

/* The emulated kernel of EMU; DESCRIBE: its PMUs' descriptions alone (no register written). */
static struct emu_perf *ek_create(struct emu *emu, bool describe)
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
	k->perf_metrics = m->slots_width ? m->perf_metrics : 0;
	k->amd = m->amd;
	pilock_init(&k->lock);
	k->ncpus = t->cpu_thread_len;
	k->cpus = xcalloc((size_t)k->ncpus + 1, sizeof(*k->cpus));
	/* each socket's uncore is reached through its first CPU: the PMUs' cpumask */
	for (int sk = 0; sk < t->nsockets; sk++)
		for (int i = 0; i < t->nthreads; i++)
			if (t->threads[i].socket == sk) {
				snprintf(cpumask + strlen(cpumask), sizeof(cpumask) - strlen(cpumask),
					 "%s%d", cpumask[0] ? "," : "", t->threads[i].os_cpu);
				for (int j = 0; j < t->nthreads; j++)
					if (t->threads[j].socket == sk && t->threads[j].os_cpu < k->ncpus) {
						k->cpus[t->threads[j].os_cpu].leader = t->threads[i].os_cpu;
						k->cpus[t->threads[j].os_cpu].socket = sk;
					}
				k->cpus[t->threads[i].os_cpu].uncore_cpu = true;
				break;
			}
	ek_add_core_pmus(k);
	if (k->amd)
		ek_add_pmu(k, "msr", EK_UNCORE_TYPE - 1, EK_MSR, "", ""); /* per CPU: no cpumask */
	ek_add_uncore(k, cpumask);
	for (int i = 0; i < t->nthreads && !describe; i++) {
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
		if (k->perf_metrics)
			global |= GLOBAL_PERF_METRICS;
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
		.pmu = ek_pmu_desc, .pmus = ek_pmu_names,
		.ctx = k,
	};
	return k;
}

struct emu_perf *emu_perf_create(struct emu *emu)
{
	return ek_create(emu, false);
}

struct emu_perf *emu_perf_describe(struct emu *emu)
{
	return ek_create(emu, true);
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
	ek_lock(k);
	k->watchdog = on && k->fixed > 1;
	for (int cpu = 0; cpu < k->ncpus; cpu++)
		if (k->cpus[cpu].present)
			ek_resched(k, cpu, 0, ek_now(k), false);
	ek_unlock(k);
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

	ek_lock(k);
	for (int i = 0; i < k->nev; i++)
		n += k->ev[i].used;
	ek_unlock(k);
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
	free(k->wev);
	free(k->free_ev.slot);
	free(k->free_wev.slot);
	pthread_mutex_destroy(&k->lock);
	free(k);
}
