/*
 * emu_perf_who: the emulated kernel's events of a cgroup (PERF_FLAG_PID_CGROUP,
 * a cgroup directory's fd, per CPU) and of a scenario's task (its PID, per
 * CPU or on every CPU, cpu -1).  Linux puts such events on the counters only
 * while the cgroup's or task's threads run on the CPU, so they never wait
 * for a counter behind each other; here each counts its share (the
 * scenario's) of what the CPU's condition counts, integrated by the
 * emulator without a counter (emu_watch), and its times run whenever it is
 * enabled (its times are its target's time on the CPUs, as Linux keeps a
 * cgroup's or a task's: the share of their unhalted time, read on the
 * reference clock).  The generic events a who view asks for (cycles, instructions,
 * cache misses as Linux maps them: 412EH on Intel, none here on AMD) and raw
 * core events (event and umask).  Called from emu_perf.c under its lock.
 */
#include "emu_perf_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <string.h>

bool ek_who_fd(int fd)
{
	return fd >= EK_WHO_FD_BASE;
}

static struct ek_who_ev *ek_who_of(struct emu_perf *k, int fd)
{
	int slot = fd - EK_WHO_FD_BASE;

	return slot >= 0 && slot < k->nwev && k->wev[slot].used ? &k->wev[slot] : NULL;
}

/*
 * The condition ATTR asks for on this machine, or 0 (ENOENT): a raw event's
 * select (event, umask, edge, cmask; AMD's event bits 11:8), the cpu PMU's
 * slots and topdown-* events (event 00H, umask 04H and 80H + field) where
 * the machine has PERF_METRICS, the generic events as Linux maps them.  An
 * inverted threshold is not counted for a cgroup here.
 */
static uint64_t ek_who_select(const struct emu_perf *k, const struct perf_event_attr *attr)
{
	if (attr->type == PERF_TYPE_RAW || (attr->type >= EK_ATOM_TYPE && attr->type < EK_UNCORE_TYPE)) {
		uint64_t c = attr->config;
		unsigned umask = (unsigned)(c >> 8 & 0xFF);

		if ((c & 0xFF) == 0 && attr->type == PERF_TYPE_RAW && k->perf_metrics &&
		    (umask == 0x04 || (umask >= 0x80 && umask < 0x80 + k->perf_metrics)))
			return umask == 0x04 ? EMU_WATCH_SLOTS : EMU_WATCH_TD(umask - 0x80);
		if (c & EVTSEL_INV)
			return 0;
		return c & (EVTSEL_EVENT_MASK | EVTSEL_UMASK_MASK | EVTSEL_EDGE | EVTSEL_CMASK_MASK |
			    (k->amd ? AMD_EVTSEL_EVENT_HI_MASK : 0));
	}
	if (attr->type != PERF_TYPE_HARDWARE)
		return 0;
	switch (attr->config & 0xFFFFFFFFu) {
	case PERF_COUNT_HW_CPU_CYCLES:
		return k->amd ? 0x76 : 0x3C;
	case PERF_COUNT_HW_INSTRUCTIONS:
		return 0xC0;
	case PERF_COUNT_HW_CACHE_MISSES:
		/* Linux: intel_perfmon_event_map's LONGEST_LAT_CACHE.MISS; AMD's is an L2 count */
		return k->amd ? 0 : 0x412E;
	default:
		return 0;
	}
}

/* E's value now of condition SEL: its target's share of its CPUs' (0 where none). */
static double ek_who_value_of(struct emu_perf *k, const struct ek_who_ev *e, uint64_t sel)
{
	double sum = 0;

	for (int cpu = e->cpu < 0 ? 0 : e->cpu; cpu < (e->cpu < 0 ? k->ncpus : e->cpu + 1); cpu++) {
		double share = emu_who_share(k->emu, e->cgroup, e->task, cpu), v;

		if (share > 0 && !emu_watch(k->emu, cpu, sel, &v))
			sum += share * v;
	}
	return sum;
}

static double ek_who_value(struct emu_perf *k, const struct ek_who_ev *e)
{
	return ek_who_value_of(k, e, e->sel);
}

/* Seconds its target has run on its CPUs so far: unhalted reference cycles at the nominal clock. */
static double ek_who_run(struct emu_perf *k, const struct ek_who_ev *e)
{
	return ek_who_value_of(k, e, EMU_WATCH_MPERF) / (emu_machine(k->emu)->nominal_ghz * 1e9);
}

int ek_who_open(struct emu_perf *k, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		unsigned long flags)
{
	bool cg = flags & PERF_FLAG_PID_CGROUP;
	int target = cg ? emu_who_cgroup_of(k->emu, pid) : emu_who_task(k->emu, pid), slot;
	struct ek_who_ev *e, *l = NULL;
	uint64_t sel = ek_who_select(k, attr);

	if (target < 0)
		return cg ? -EBADF : -ESRCH;
	/* a cgroup is counted per CPU (Linux: EINVAL for cpu -1); a CPU it lacks is ENODEV */
	if ((cg && cpu < 0) || cpu >= k->ncpus || (cpu >= 0 && !k->cpus[cpu].present))
		return cg && cpu < 0 ? -EINVAL : -ENODEV;
	if (!sel)
		return -ENOENT;
	if (group_fd >= 0) {
		l = ek_who_of(k, group_fd);
		if (!l || l->leader != group_fd - EK_WHO_FD_BASE || l->cpu != cpu ||
		    l->nmembers >= PERF_GROUP_MAX)
			return -EINVAL;
	}
	/* Linux: a topdown-* event only in a group that "slots" leads */
	if ((sel & EMU_WATCH_SLOTS) && (sel & 0xF) && (!l || l->sel != EMU_WATCH_SLOTS))
		return -EINVAL;
	slot = ek_slots_take(&k->free_wev);
	if (slot < 0) {
		if (k->nwev == k->wev_cap) {
			/* doubled: a who view opens thousands (groups x events x CPUs) one at a time */
			k->wev_cap = k->wev_cap ? 2 * k->wev_cap : 256;
			k->wev = xrealloc(k->wev, (size_t)k->wev_cap, sizeof(*k->wev));
		}
		slot = k->nwev++;
	}
	e = &k->wev[slot];
	*e = (struct ek_who_ev){
		.used = true, .fd_open = true, .cpu = cpu, .cgroup = cg ? target : -1, .task = cg ? -1 : target,
		.sel = sel, .leader = group_fd >= 0 ? group_fd - EK_WHO_FD_BASE : slot,
		.read_format = attr->read_format,
	};
	l = &k->wev[e->leader];
	l->members[l->nmembers++] = slot;
	if (e->leader == slot && !attr->disabled)
		e->enabled = true;
	if (e->leader == slot)
		e->run_base = ek_who_run(k, e);
	e->base = ek_who_value(k, e);
	return EK_WHO_FD_BASE + slot;
}

/* Bring leader L's times and its members' counts up to now. */
static void ek_who_sync(struct emu_perf *k, struct ek_who_ev *l)
{
	double run = ek_who_run(k, l);

	if (l->enabled)
		l->time_ns += (run - l->run_base) * 1e9;
	l->run_base = run;
	for (int m = 0; m < l->nmembers; m++) {
		struct ek_who_ev *e = &k->wev[l->members[m]];
		double v = ek_who_value(k, e);

		if (l->enabled)
			e->count += v - e->base;
		e->base = v;
	}
}

ssize_t ek_who_read(struct emu_perf *k, int fd, void *buf, size_t len)
{
	struct ek_who_ev *e = ek_who_of(k, fd), *l;
	uint64_t *out = buf;
	size_t need;

	if (!e)
		return -EBADF;
	l = &k->wev[e->leader];
	need = (3 + (size_t)l->nmembers) * sizeof(uint64_t);
	if (e != l || !(e->read_format & PERF_FORMAT_GROUP) || len < need)
		return len < need ? -ENOSPC : -EINVAL;
	ek_who_sync(k, l);
	out[0] = (uint64_t)l->nmembers;
	out[1] = out[2] = (uint64_t)l->time_ns;
	for (int m = 0; m < l->nmembers; m++)
		out[3 + m] = (uint64_t)k->wev[l->members[m]].count;
	return (ssize_t)need;
}

int ek_who_ioctl(struct emu_perf *k, int fd, unsigned long req)
{
	struct ek_who_ev *e = ek_who_of(k, fd), *l;

	if (!e)
		return -EBADF;
	if (req != PERF_EVENT_IOC_ENABLE && req != PERF_EVENT_IOC_DISABLE)
		return -ENOTTY;
	l = &k->wev[e->leader];
	ek_who_sync(k, l);
	l->enabled = req == PERF_EVENT_IOC_ENABLE;
	return 0;
}

void ek_who_close(struct emu_perf *k, int fd)
{
	struct ek_who_ev *e = ek_who_of(k, fd);
	int slot = fd - EK_WHO_FD_BASE;

	if (slot >= 0 && slot < k->nwev && k->wev[slot].fd_open) {
		/* the slot is free once its fd is closed, counting or not (its leader closed first) */
		k->wev[slot].fd_open = false;
		ek_slots_put(&k->free_wev, slot);
	}
	if (!e)
		return;
	if (e->leader == slot)
		for (int m = 0; m < e->nmembers; m++)
			k->wev[e->members[m]].used = false;
	e->used = false;
}
