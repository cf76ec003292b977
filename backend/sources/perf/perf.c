/*
 * perf: groups and messages.  See perf_event.h.
 *
 * The read format with PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING (perf_event_open(2)): { nr, time_enabled,
 * time_running, values[nr] }.  The paranoid levels (kernel
 * Documentation/admin-guide/perf-security.rst): -1 everything; 0 no raw
 * tracepoints, CPU-wide counting allowed; 1 (the default before 4.6) own
 * processes, user and kernel; 2 (the default since 4.6) own processes,
 * user space only; distributions add 3 (nothing).  CAP_PERFMON (Linux 5.8)
 * or CAP_SYS_ADMIN lifts them.
 */
#include "perf.h"
#include "fdlimit.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "paths.h"
#include "rootfs.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#define PERF_CAP_SYS_ADMIN 21

/* Whether capability CAP is in this process's effective set (/proc/self/status CapEff). */
static bool perf_has_cap(int cap)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool has = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7)) {
			unsigned long long eff = strtoull(line + 7, NULL, 16);

			has = (eff >> cap) & 1;
			break;
		}
	fclose(f);
	return has;
}

void perf_access_read(const char *root, struct perf_access *a)
{
	char buf[64];
	struct rlimit rl;

	memset(a, 0, sizeof(*a));
	a->paranoid = rootfs_read_line(root, "proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf))
		      ? -99 : atoi(buf);
	a->nmi_watchdog = rootfs_read_line(root, "proc/sys/kernel/nmi_watchdog", buf, sizeof(buf))
			  ? -1 : atoi(buf);
	a->root = geteuid() == 0;
	a->cap_perfmon = perf_has_cap(CAP_PERFMON) || perf_has_cap(PERF_CAP_SYS_ADMIN);
	a->fd_limit = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
		      ? (long)rl.rlim_cur : -1;
	a->fd_raisable = true;
}

bool perf_access_system_wide(const struct perf_access *a, char *why, size_t len)
{
	if (a->cap_perfmon) {
		snprintf(why, len, "CAP_PERFMON%s: every CPU may be counted", a->root ? " (root)" : "");
		return true;
	}
	if (a->paranoid == -99) {
		snprintf(why, len, "kernel.perf_event_paranoid cannot be read: the kernel may lack "
			 "perf events (CONFIG_PERF_EVENTS)");
		return false;
	}
	if (a->paranoid <= 0) {
		snprintf(why, len, "kernel.perf_event_paranoid is %d (0 or less): every CPU may be "
			 "counted without privileges", a->paranoid);
		return true;
	}
	snprintf(why, len, "kernel.perf_event_paranoid is %d: counting whole CPUs needs 0 or less "
		 "(sysctl kernel.perf_event_paranoid=0) or CAP_PERFMON (setcap cap_perfmon+ep "
		 "pmutop); %s", a->paranoid, a->paranoid <= 2
		 ? "at 1 and 2 a user may count only their own processes, as pmutop "
		 "--command-only -- COMMAND does (or sudo pmutop)"
		 : "at 3 nothing may be counted without CAP_PERFMON");
	return false;
}

void perf_explain(int err, const char *what, bool system_wide, const struct perf_access *a,
			char *buf, size_t len)
{
	char why[300];

	switch (err) {
	case ENOENT:
		snprintf(buf, len, "%s: the kernel does not know this event or PMU (ENOENT): the "
			 "CPU model's events are not this kernel's; pmutop --doctor lists the PMUs "
			 "it has", what);
		break;
	case EOPNOTSUPP:
		snprintf(buf, len, "%s: the PMU cannot do what was asked (EOPNOTSUPP): %s", what,
			 system_wide ? "an uncore PMU counts whole sockets only, or the virtual "
			 "machine exposes no PMU" : "this PMU cannot count one process (uncore "
			 "events are per socket)");
		break;
	case EACCES:
	case EPERM:
		perf_access_system_wide(a, why, sizeof(why));
		snprintf(buf, len, "%s: not allowed (%s): %s", what, err == EACCES ? "EACCES"
			 : "EPERM", system_wide || a->paranoid > 2 ? why
			 : "counting kernel mode needs kernel.perf_event_paranoid 1 or less, or "
			 "CAP_PERFMON; use --user to count user mode only");
		break;
	case EMFILE:
		snprintf(buf, len, "%s: too many open files (EMFILE): perf needs one per event per "
			 "CPU and the limit is %ld; raise it (ulimit -n, LimitNOFILE= in a unit)", what,
			 a->fd_limit);
		break;
	case EINVAL:
		snprintf(buf, len, "%s: the kernel refused the event's settings (EINVAL): a raw "
			 "config this CPU does not have, or more events in a group than counters "
			 "(check the layout against pmutop --list-events)", what);
		break;
	case ENODEV:
		snprintf(buf, len, "%s: no such CPU, or it is offline (ENODEV)", what);
		break;
	case EBUSY:
		snprintf(buf, len, "%s: another user has the PMU exclusively (EBUSY): stop that "
			 "tool", what);
		break;
	default:
		snprintf(buf, len, "%s: perf_event_open failed: %s", what, strerror(err));
		break;
	}
}

int perf_check_fd_limit(long need, const struct perf_access *a, char *err, size_t errlen)
{
	char why[400];

	/* some files are pmutop's own: the terminal, the layouts, the lock */
	if (a->fd_limit < 0 || need + FDLIMIT_MARGIN <= a->fd_limit)
		return 0;
	if (a->fd_raisable) {
		/* raised as far as allowed (root raises the hard limit too) */
		if (fdlimit_raise(need + FDLIMIT_MARGIN, why, sizeof(why)) == 0)
			return 0;
		snprintf(err, errlen, "perf takes an open file per event per CPU: %s; or count "
			 "fewer groups", why);
		return -EMFILE;
	}
	snprintf(err, errlen, "perf needs %ld open files (one per event per CPU) and the limit is "
		 "%ld: raise it (ulimit -n %ld, or LimitNOFILE= in a systemd unit), or count fewer "
		 "groups", need, a->fd_limit, need + FDLIMIT_MARGIN);
	return -EMFILE;
}

/* ---- the kernel's side ------------------------------------------------ */

static int perf_real_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu,
			  int group_fd, unsigned long flags)
{
	int fd = (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			      PERF_FLAG_FD_CLOEXEC | flags);

	(void)ctx;
	return fd < 0 ? -errno : fd;
}

static ssize_t perf_real_read(void *ctx, int fd, void *buf, size_t len)
{
	ssize_t got = read(fd, buf, len);

	(void)ctx;
	return got < 0 ? -errno : got;
}

static int perf_real_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	(void)ctx;
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static void perf_real_close(void *ctx, int fd)
{
	(void)ctx;
	close(fd);
}

const struct perf_sys perf_sys_kernel = {
	.open = perf_real_open, .read = perf_real_read, .ioctl = perf_real_ioctl,
	.close = perf_real_close,
};

int perf_sys_pmu(const struct perf_sys *sys, const char *root, const char *name,
		 struct perf_pmu *out, char *err, size_t errlen)
{
	int rc;

	if (!sys || !sys->pmu)
		return perf_pmu_load(root, name, out, err, errlen);
	rc = sys->pmu(sys->ctx, name, out);
	if (rc)
		snprintf(err, errlen, "the kernel has no perf PMU '%s'", name);
	return rc;
}

static int perf_int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int perf_sys_box_numbers(const struct perf_sys *sys, const char *root, const char *prefix,
			 int *nums, int max)
{
	enum { MAX_NAMES = 4096 };
	char (*names)[64] = xcalloc(MAX_NAMES, 64);
	size_t plen = strlen(prefix);
	int n, k = 0;

	n = sys && sys->pmus ? sys->pmus(sys->ctx, names, MAX_NAMES)
			     : perf_pmu_list(root, prefix, names, MAX_NAMES);
	for (int i = 0; i < n && k < max; i++) {
		const char *num = names[i] + plen;
		char *end;
		long v;

		/* PREFIX then a number alone: uncore_imc_3, not uncore_imc_free_running_0 */
		if (strncmp(names[i], prefix, plen) || !isdigit((unsigned char)*num))
			continue;
		v = strtol(num, &end, 10);
		if (!*end && v >= 0 && v < 1 << 20)
			nums[k++] = (int)v;
	}
	free(names);
	qsort(nums, (size_t)k, sizeof(int), perf_int_cmp);
	return k;
}

int perf_sys_channel_numbers(const struct perf_sys *sys, const char *root, int *nums, int max)
{
	int n = perf_sys_box_numbers(sys, root, "uncore_imc_", nums, max), c = 0;
	struct perf_pmu *p = xcalloc(1, sizeof(*p));
	char name[64], err[300];

	for (int i = 0; i < n; i++) {
		bool controller = false;

		snprintf(name, sizeof(name), "uncore_imc_%d", nums[i]);
		if (!perf_sys_pmu(sys, root, name, p, err, sizeof(err)))
			for (int f = 0; f < p->nfields; f++)
				controller |= !strcmp(p->fields[f].name, "chmask");
		if (!controller)
			nums[c++] = nums[i];
	}
	free(p);
	return c;
}

int perf_sys_channel_span(const struct perf_sys *sys, const char *root)
{
	int nums[1024], n = perf_sys_channel_numbers(sys, root, nums, 1024);

	return n ? nums[n - 1] + 1 : 0;
}

int perf_sys_boxes(const struct perf_sys *sys, const char *root, const char *prefix)
{
	int nums[1024];

	return perf_sys_box_numbers(sys, root, prefix, nums, 1024);
}

int perf_sys_box_span(const struct perf_sys *sys, const char *root, const char *prefix)
{
	int nums[1024], n = perf_sys_box_numbers(sys, root, prefix, nums, 1024);

	return n ? nums[n - 1] + 1 : 0;
}

static const struct perf_sys *perf_sys_of(const struct perf_group *g)
{
	return g->sys ? g->sys : &perf_sys_kernel;
}

int perf_group_open(struct perf_group *g, const struct perf_sys *sys,
		    const struct perf_pmu_config *c, int n, pid_t pid, int cpu, bool user,
		    bool kernel, const char *what, const struct perf_access *a, char *err,
		    size_t errlen)
{
	return perf_group_open_flags(g, sys, c, n, pid, cpu, user, kernel, 0, what, a, err,
				     errlen);
}

int perf_group_open_flags(struct perf_group *g, const struct perf_sys *sys,
			  const struct perf_pmu_config *c, int n, pid_t pid, int cpu, bool user,
			  bool kernel, unsigned long flags, const char *what,
			  const struct perf_access *a, char *err, size_t errlen)
{
	bool cgroup = flags & PERF_FLAG_PID_CGROUP;

	memset(g, 0, sizeof(*g));
	g->sys = sys;
	if (n < 1 || n > PERF_GROUP_MAX) {
		snprintf(err, errlen, "%s: %d events, a group holds 1 to %d", what, n, PERF_GROUP_MAX);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr), .type = c[i].type, .config = c[i].config[0],
			.config1 = c[i].config[1], .config2 = c[i].config[2],
			.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
			.disabled = i == 0,
			.exclude_user = !user || c[i].ring == LAYOUT_RING_KERNEL,
			.exclude_kernel = !kernel || c[i].ring == LAYOUT_RING_USER,
			.exclude_hv = !kernel || c[i].ring == LAYOUT_RING_USER,
			/* a process: its threads and children from now on too */
			.inherit = pid >= 0 && !cgroup,
		};
		int fd = perf_sys_of(g)->open(perf_sys_of(g)->ctx, &attr, pid, cpu,
					      i ? g->fd[0] : -1, flags);

		if (fd < 0) {
			/* a cgroup is counted per CPU, as system-wide counting is */
			perf_explain(-fd, what, pid == -1 || cgroup, a, err, errlen);
			perf_group_close(g);
			return fd;
		}
		g->fd[g->n++] = fd;
	}
	return 0;
}

int perf_group_enable(struct perf_group *g)
{
	return perf_sys_of(g)->ioctl(perf_sys_of(g)->ctx, g->fd[0], PERF_EVENT_IOC_ENABLE,
				     PERF_IOC_FLAG_GROUP);
}

int perf_group_read(struct perf_group *g, struct perf_group_delta *d)
{
	uint64_t buf[3 + PERF_GROUP_MAX];
	ssize_t want = (ssize_t)((3 + (size_t)g->n) * sizeof(uint64_t)), got;

	got = perf_sys_of(g)->read(perf_sys_of(g)->ctx, g->fd[0], buf, sizeof(buf));
	if (got < 0)
		return (int)got;
	if (got < want || buf[0] != (uint64_t)g->n)
		return -EIO;
	memset(d, 0, sizeof(*d));
	d->enabled_ns = buf[1] - g->last_enabled;
	d->running_ns = buf[2] - g->last_running;
	d->scaled = d->running_ns < d->enabled_ns;
	for (int i = 0; i < g->n; i++) {
		d->count[i] = buf[3 + i] - g->last[i];
		g->last[i] = buf[3 + i];
	}
	g->last_enabled = buf[1];
	g->last_running = buf[2];
	return 0;
}

double perf_scale(uint64_t count, uint64_t enabled_ns, uint64_t running_ns)
{
	if (running_ns == 0)
		return NAN;
	return (double)count * ((double)enabled_ns / (double)running_ns);
}

double perf_over(uint64_t count, uint64_t ns, double secs)
{
	return ns ? (double)count * secs / ((double)ns * 1e-9) : NAN;
}

void perf_group_close(struct perf_group *g)
{
	/* members first, the leader last, as the kernel tears a group down */
	for (int i = g->n - 1; i >= 0; i--)
		perf_sys_of(g)->close(perf_sys_of(g)->ctx, g->fd[i]);
	g->n = 0;
}
