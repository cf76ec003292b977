/*
 * perf: perf_event_open(2) groups and what the kernel allows.
 *
 * A group is a leader and its members opened on one CPU (or for one
 * process), enabled and read together with PERF_FORMAT_GROUP |
 * PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING: when the
 * kernel multiplexes, running < enabled, and a count is estimated as
 * count x enabled / running (and marked scaled, like pmutop's own
 * rotation).  Every errno of perf_event_open is turned into one message
 * that says what to do, from the access settings read under the --root
 * prefix (perf_event_paranoid, CAP_PERFMON, the open-file limit, the NMI
 * watchdog).  Second piece of the perf_event counter source (issue 17).
 * Any thread for a group it owns.
 */
#ifndef PMUTOP_PERF_H
#define PMUTOP_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf_pmu.h"

#define PERF_GROUP_MAX 16

struct perf_event_attr;

/*
 * The kernel's side of perf_event_open(2): the real system calls
 * (perf_sys_kernel) or an emulated kernel over an emulated machine
 * (emu_perf.h).  Each returns what the call returns, or -errno.  TICK, when
 * not NULL, is the emulated kernel's timer: the engine calls it every
 * rotation slice so the kernel multiplexes at the emulated time.  TSC, when
 * not NULL, reads the emulated machine's time-stamp counter.
 */
struct perf_sys {
	/* FLAGS: PERF_FLAG_PID_CGROUP (PID is a cgroup directory's fd), or 0 */
	int (*open)(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t len);
	int (*ioctl)(void *ctx, int fd, unsigned long req, unsigned long arg);
	void (*close)(void *ctx, int fd);
	void (*tick)(void *ctx);
	double tick_s;             /* the emulated kernel's multiplexing period */
	/*
	 * How often the emulated kernel needs its timer now: TICK_S while some
	 * group waits for counters (it multiplexes), longer when it only keeps
	 * narrow counters from wrapping unseen, 0 when nothing needs it; NULL:
	 * always TICK_S.
	 */
	double (*tick_need)(void *ctx);
	uint64_t (*tsc)(void *ctx); /* the emulated TSC; NULL: the processor's (rdtsc) */
	/* the PMU NAME's description; NULL: sysfs under the --root prefix */
	int (*pmu)(void *ctx, const char *name, struct perf_pmu *out);
	/* the names of its PMUs into NAMES (at most MAX), how many; NULL: sysfs's */
	int (*pmus)(void *ctx, char (*names)[64], int max);
	void *ctx;
};

extern const struct perf_sys perf_sys_kernel;

/*
 * PMU NAME as SYS knows it (NULL or the kernel: sysfs under ROOT).  0, or
 * -ENOENT (no such PMU) / -EINVAL with one line in ERR.
 */
int perf_sys_pmu(const struct perf_sys *sys, const char *root, const char *name,
		 struct perf_pmu *out, char *err, size_t errlen);

/*
 * The numbers N of the PMUs PREFIXN SYS has (the boxes of one kind the
 * kernel's uncore driver registered: a box that failed leaves a gap), in
 * order, into NUMS (at most MAX).  How many.
 */
int perf_sys_box_numbers(const struct perf_sys *sys, const char *root, const char *prefix,
			 int *nums, int max);
/* How many boxes PREFIXN SYS has (perf_sys_box_numbers' count). */
int perf_sys_boxes(const struct perf_sys *sys, const char *root, const char *prefix);
/*
 * The memory channels' span: the highest uncore_imc_N + 1 that is a channel,
 * not a client's controller (Alder Lake on: uncore_imc_0/1, whose format
 * has a channel mask, chmask, beside the free-running counters), 0 none.
 */
int perf_sys_channel_span(const struct perf_sys *sys, const char *root);
/* The memory channels' box numbers (uncore_imc_N, no controller's), sorted, at most MAX. */
int perf_sys_channel_numbers(const struct perf_sys *sys, const char *root, int *nums, int max);
/* The highest box number + 1 (memory channels keep their numbers across a gap), 0 none. */
int perf_sys_box_span(const struct perf_sys *sys, const char *root, const char *prefix);

struct perf_group {
	const struct perf_sys *sys; /* NULL: the kernel's */
	int fd[PERF_GROUP_MAX];    /* fd[0] the leader */
	int n;
	uint64_t last[PERF_GROUP_MAX], last_enabled, last_running;
};

/* One read of a group since the one before: counts and the times they cover. */
struct perf_group_delta {
	uint64_t count[PERF_GROUP_MAX];
	uint64_t enabled_ns, running_ns;
	bool scaled;               /* running < enabled: the kernel shared the counters */
};

/* What the kernel lets this process count, and where it would run short. */
struct perf_access {
	int paranoid;              /* kernel.perf_event_paranoid; -99 when unreadable */
	bool cap_perfmon;          /* CAP_PERFMON (or CAP_SYS_ADMIN) effective */
	bool root;
	int nmi_watchdog;          /* kernel.nmi_watchdog: 1 takes a counter on each CPU; -1 unknown */
	long fd_limit;             /* RLIMIT_NOFILE's soft limit */
	bool fd_raisable;          /* this process's: raised when short (fdlimit.h), as allowed */
};

/* The settings under ROOT (NULL or "/": this machine's; capabilities are this process's). */
void perf_access_read(const char *root, struct perf_access *a);

/*
 * Whether per-CPU system-wide counting (pid -1) is allowed: paranoid <= 0,
 * or CAP_PERFMON; per-process counting of one's own processes needs
 * paranoid <= 2.  WHY says which rule decides, in a line for the doctor.
 */
bool perf_access_system_wide(const struct perf_access *a, char *why, size_t len);

/*
 * One message for errno ERR of perf_event_open on WHAT ("the stalls group on
 * CPU 3"), SYSTEM_WIDE for pid -1, with the settings A: what it means and
 * what to do.
 */
void perf_explain(int err, const char *what, bool system_wide, const struct perf_access *a,
			char *buf, size_t len);

/*
 * NEED open files in all (one per event per CPU) against the limit, raised
 * when it is this process's and may be: 0, or -EMFILE with the message and
 * the fix in ERR, before anything is opened.
 */
int perf_check_fd_limit(long need, const struct perf_access *a, char *err, size_t errlen);

/*
 * Open N events (C[0] the leader) as one group for PID on CPU (-1: any)
 * through SYS (NULL: the kernel),
 * disabled; perf_group_enable starts them.  0, or -errno (the message from
 * perf_explain in ERR, WHAT naming the group); nothing stays open on
 * failure.
 */
int perf_group_open(struct perf_group *g, const struct perf_sys *sys,
		    const struct perf_pmu_config *c, int n, pid_t pid, int cpu, bool user,
		    bool kernel, const char *what, const struct perf_access *a, char *err,
		    size_t errlen);
/*
 * The same with FLAGS for perf_event_open(2): PERF_FLAG_PID_CGROUP counts
 * the cgroup whose directory PID is an fd of, on CPU (no inheritance: the
 * cgroup holds its tasks' children already).
 */
int perf_group_open_flags(struct perf_group *g, const struct perf_sys *sys,
			  const struct perf_pmu_config *c, int n, pid_t pid, int cpu, bool user,
			  bool kernel, unsigned long flags, const char *what,
			  const struct perf_access *a, char *err, size_t errlen);
int perf_group_enable(struct perf_group *g);

/* The counts and times since the previous read (the first: since enabled).  0 or -errno. */
int perf_group_read(struct perf_group *g, struct perf_group_delta *d);

/* COUNT over RUNNING of ENABLED nanoseconds: the estimate for the whole time (NaN: never ran). */
double perf_scale(uint64_t count, uint64_t enabled_ns, uint64_t running_ns);
/*
 * COUNT, counted over NS of the kernel's time (a delta's time running, to
 * scale it, or enabled), over SECS instead: the time pmutop's clock says
 * the figures span.  The two differ when one of many boxes is read later
 * in this interval's read than in the last (NaN: NS 0).
 */
double perf_over(uint64_t count, uint64_t ns, double secs);

void perf_group_close(struct perf_group *g);

#endif
