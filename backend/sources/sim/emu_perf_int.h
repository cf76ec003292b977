/*
 * emu_perf_int: the emulated kernel's state, shared by emu_perf.c (the
 * system calls, the timer, the PMUs it describes, its life) and
 * emu_perf_sched.c (counters, scheduling groups onto them, multiplexing).
 * Not for any other module.
 */
#ifndef PMUTOP_EMU_PERF_INT_H
#define PMUTOP_EMU_PERF_INT_H

#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu_perf.h"
#include "perf.h"
#include "pmu_regs.h"

#define EK_FD_BASE 1000      /* its descriptors: EK_FD_BASE + slot, never a real one's number */
#define EK_WHO_FD_BASE 1000000 /* cgroup and task events: their own descriptors */
#define EK_HW_NONE (-1)
#define EK_HW_FIXED 100      /* + n: fixed counter n */
#define EK_HW_FREE 200       /* a free-running counter: nothing to schedule */
#define EK_EXTRA_REGS 3      /* the offcore response pair, MSR_PEBS_FRONTEND */
#define EK_EXTRA_FRONTEND 2
#define EK_HW_METRIC 300     /* + k: PERF_METRICS field k, read beside its leader's fixed counter 3 */
/* the core, and a Granite Rapids socket's 128 CHAs, 12 channels, 6 links and power */
#define EK_MAX_PMUS 160
#define EK_MAX_FREE 8        /* a free-running PMU's events */
#define EK_UNCORE_TYPE 20    /* the uncore PMUs' types: 20, 21, ... as the kernel numbers them */
#define EK_ATOM_TYPE 10      /* a hybrid's cpu_atom (Linux numbers it after the software PMUs) */
#define EK_UNC_FIXED_EVENT 0xFF /* the kernel's uncore convention: event 0xff is the fixed clock */
/* a 32-bit free-running IMC counter wraps in ~25 s at 10 GB/s: a look every second keeps up */
#define EK_WRAP_TICK_S 1.0

/*
 * EK_SRV: a server box only the kernel reaches (CHA, memory channel, UPI
 * link), EK_POWER RAPL's power PMU: no registers here, the kernel's counts
 * come from the model (emu_srv_count) while their group is scheduled.
 */
/*
 * EK_MSR: Linux's msr PMU (arch/x86/events/msr.c), free-running MSRs read
 * per CPU: tsc (event 0), aperf (1), mperf (2), irperf (6) on an AMD machine.
 */
enum ek_kind { EK_CORE, EK_NHM_UNC, EK_SKL_CBO, EK_SKL_ARB, EK_SKL_IMC, EK_SRV, EK_POWER, EK_MSR };

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
	int unit, box, nboxes;    /* EK_SRV, EK_POWER: emu_srv_unit, which of how many boxes */
	bool per_cpu;             /* its events count on the CPU opened (msr, amd_l3), not the socket's leader */
	unsigned core_gp, core_fixed; /* EK_CORE: its counters where not the machine's (cpu_atom's), 0 */
	uint64_t free_configs[EK_MAX_FREE]; /* EK_POWER: the configs of its events/ (all it counts) */
	int nfree;
};

/*
 * A free-running counter as the kernel names it (a PMU's events/ directory):
 * the IMC's (uncore_imc) with where they are in the emulated MCHBAR window
 * (seed 001 Table 3-1), the msr PMU's with the MSR each reads.
 */
struct ek_named_event {
	const char *name;
	unsigned event;
	uint32_t offset;          /* the MMIO offset, or the MSR */
};

extern const struct ek_named_event ek_imc_events[];
extern const int ek_nimc_events;
/* The msr PMU's events (arch/x86/events/msr.c) an AMD Zen has. */
extern const struct ek_named_event ek_msr_events[];
extern const int ek_nmsr_events;
/* The msr PMU's event of CONFIG, or NULL (an event this CPU has not). */
const struct ek_named_event *ek_msr_event(uint64_t config);

/*
 * Slots whose fds were closed, reused first: a who view's turns open and
 * close groups every interval, and slots reused only from the end grew the
 * tables (and the process) for as long as it ran.
 */
struct ek_slots {
	int *slot;
	int n, cap;
};

void ek_slots_put(struct ek_slots *f, int slot);
int ek_slots_take(struct ek_slots *f); /* -1: none free */

struct ek_event {
	bool used;                /* counting (a member whose leader closed: no longer) */
	bool fd_open;             /* its fd not yet closed: the slot is not reused until it is */
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
	double frac;              /* EK_SRV, EK_POWER: the part of a count not yet whole */
	/*
	 * EK_SRV, EK_POWER: time on the counters not yet counted, all within one
	 * segment of the scenario's truth (constant until pend_end), from
	 * pend_t0: counted at once when read or when the truth moves on, as
	 * the model is linear within a segment (ek_sync).
	 */
	double pend_t0, pend_s, pend_end;
};

/* One CPU's context of one PMU: its groups in scheduling order, rotated at each tick. */
struct ek_ctx {
	int *order;
	int norder;
	double t;                 /* times and counts are up to here */
	uint64_t offcore[EK_EXTRA_REGS]; /* MSR_OFFCORE_RSP_0/1, MSR_PEBS_FRONTEND while in use */
	int offcore_users[EK_EXTRA_REGS];
	bool rotates;             /* an enabled group is off the counters (Linux's rotate_necessary) */
	/* a counted box's rotations not yet applied: LAZY_N, every period from LAZY_T0 (ek_lazy_apply) */
	int lazy_n;
	double lazy_t0;
};

struct ek_cpu {
	bool present;
	int leader;               /* the CPU that holds its socket's uncore events */
	bool uncore_cpu;          /* it holds uncore contexts: its socket's leader, an L3's CPU */
	int socket;               /* its socket (topology index) */
	struct ek_ctx ctx[EK_MAX_PMUS];
};

/* A cgroup's or a scenario task's event (emu_perf_who.c): no counter, its share of the CPU's. */
struct ek_who_ev {
	bool used;
	bool fd_open;             /* its fd not yet closed: the slot is not reused until it is */
	int cpu;                  /* -1: a task on every CPU */
	int cgroup, task;         /* emu_who's cgroup index, or the scenario's task index (-1 the other) */
	uint64_t sel;             /* the condition (event select's event and umask) */
	uint64_t read_format;
	int leader;
	int members[PERF_GROUP_MAX];
	int nmembers;
	bool enabled;             /* a leader's */
	double run_base;          /* a leader's: its target's time on its CPUs at the last sync, s */
	double time_ns;           /* the time its target ran there while enabled (Linux: a cgroup's
				     or a task's own time, not the wall clock's) */
	double count, base;       /* counted while enabled; its value at the last sync */
};

struct emu_perf {
	struct emu *emu;
	struct perf_sys sys;
	pthread_mutex_t lock;
	struct ek_event *ev;
	int nev;
	struct ek_slots free_ev;  /* closed slots of ev, reused first (a kernel's lowest free fd) */
	struct ek_cpu *cpus;      /* by OS CPU number */
	int ncpus;
	struct ek_pmu pmus[EK_MAX_PMUS];
	int npmus;
	unsigned gp, fixed, gp_width, fixed_width;
	unsigned perf_metrics;    /* PERF_METRICS fields (topdown-* events), 0 none */
	int atom_pmu;             /* a hybrid's cpu_atom (pmus[] index; cpu_core is 0), -1 none */
	int lowpower_pmu;         /* its cpu_lowpower (the low-power E-cores'), -1 none */
	bool watchdog;            /* the NMI watchdog's pinned cycles event holds fixed counter 1 */
	bool amd;                 /* AMD's core PMU: 12-bit selects, generic events on counters */
	struct ek_who_ev *wev;    /* cgroup and task events, EK_WHO_FD_BASE + slot */
	int nwev, wev_cap;        /* in use (the last slot used), allocated */
	struct ek_slots free_wev; /* closed slots of wev, reused first */
	/*
	 * The multiplexing timer: armed when a context first has a group off the
	 * counters (at that emulated time, as Linux starts its hrtimer then), off
	 * when a tick finds nothing to rotate; the time of its last expiry.
	 */
	bool timer_on;
	double t_rot;
};

/* Rotations one late call of the timer makes up for at most (1 s of periods). */
#define EK_TICK_CATCHUP 250
/* How often the sampler calls the timer while groups rotate, s (a multiple of the period). */
#define EK_TICK_CALL_S (10 * EMU_PERF_TICK_S)
/*
 * Rotations one call makes at most: a longer backlog (a loaded machine called
 * the timer late) is shared out in this many rotations of equal length, so
 * that each group still has its turns in it (a call that rotated only as far
 * as its CPU time allowed left groups of a 224-CPU server no turn in an
 * interval beside a loaded suite).
 */
#define EK_TICK_STEPS 25
/* CPU time one call of the timer may spend catching up, s. */
#define EK_TICK_BUDGET_S 0.05

/* ---- emu_perf.c: the system calls ------------------------------------------- */

/* The kernel's lock, and the emulated time held while it is taken. */
void ek_lock(struct emu_perf *k);
void ek_unlock(struct emu_perf *k);

/* ---- emu_perf_tick.c: the multiplexing timer -------------------------------- */

/* How often the timer is needed, s (0: never); the timer itself (struct perf_sys's). */
double ek_tick_need(void *ctx);
void ek_tick(void *ctx);

/* The architectural encodings of the generic hardware events, for a general counter [SDM 18.2.1.2]. */

/* ---- emu_perf_linux.c: the drivers' facts ------------------------------------ */

/* A format field as the driver names it (format/NAME holds BITS). */
struct ek_field {
	const char *name, *bits;
};

/* An events/ alias: NAME's TERMS, with its .scale and .unit where the driver gives them. */
struct ek_event_desc {
	const char *name, *terms;
	double scale;             /* 0: no .scale (1) */
	const char *unit;
};

/* How many boxes of a type the driver registers on the emulated machine. */
enum ek_boxes {
	EK_BOXES_ONE, EK_BOXES_TWO,
	EK_BOXES_CHAS,            /* the machine's CHAs */
	EK_BOXES_CHANNELS,        /* its memory channels */
	EK_BOXES_CONTROLLERS,     /* its controllers: two channels each */
	EK_BOXES_LINKS,           /* its UPI links */
	EK_BOXES_CBOS,            /* a client's L3 slices: one a core (P-core on a hybrid) */
};

/*
 * One intel_uncore_type: Linux names its PMUs uncore_NAME, or uncore_NAME_N
 * where it has more than one box; COUNTERS general counters a box (0: free
 * running, its events the ALIASES only); FORMAT and ALIASES end with a zero row.
 */
struct ek_type {
	const char *name;
	int unit;                 /* enum emu_srv_unit: what the model counts for it */
	enum ek_boxes boxes;
	unsigned counters;
	const struct ek_field *format;
	const struct ek_event_desc *aliases;
};

/* A driver's PMUs on one platform, and rapl.c's power events there. */
struct ek_driver {
	int srv;                  /* enum emu_srv, EMU_SRV_AMD for AMD's */
	const char *driver, *kernel;
	const struct ek_type *types;
	const struct ek_event_desc *rapl;
};

extern const struct ek_driver ek_drivers[];
/* The table of platform SRV, or NULL. */
const struct ek_driver *ek_driver_of(int srv);
/* AMD's uncore formats for UNIT of a CPU of FAMILY (amd/uncore.c). */
const struct ek_field *ek_amd_formats(int unit, unsigned family, bool perfmon_v2);

/* ---- emu_perf_sched.c ------------------------------------------------------ */

double ek_now(struct emu_perf *k);
/* emu_perf_pmus.c: the PMU of TYPE (-1: none); a free-running PMU's config is one of its
 * events; the bits of config word WORD that P's format fields place */
int ek_pmu_of(const struct emu_perf *k, uint32_t type);
bool ek_free_config_ok(const struct ek_pmu *p, uint64_t config);
uint64_t ek_format_mask(const struct perf_pmu *p, int word);
struct ek_event *ek_event_of(struct emu_perf *k, int fd);
struct ek_ctx *ek_ctx_of(struct emu_perf *k, const struct ek_event *e);
int ek_fixed_of(const struct ek_event *e);
int ek_metric_of(const struct ek_event *e);
uint32_t ek_imc_offset(const struct ek_event *e);
/* ---- emu_perf_srv.c ------------------------------------------------------- */

/* Add the server uncore's PMUs and RAPL's (of a machine with emu_machine.srv), on CPUMASK. */
void ek_add_server(struct emu_perf *k, const char *cpumask);
/*
 * The cstate driver's cstate_core (on each core's first CPU) and cstate_pkg
 * (PKGMASK: one CPU per socket) where its table has the model (emu_perf_srv.c).
 */
void ek_add_cstate(struct emu_perf *k, const char *pkgmask);

/* Whether P's boxes are the kernel's own (EK_SRV, EK_POWER): counted by the model, no registers. */
bool ek_counted(const struct ek_pmu *p);
void ek_sync(struct emu_perf *k, int cpu, int pmu, double t);
/* Count what a counted box's event E was on its counters for and not yet counted (before a read). */
void ek_flush(struct emu_perf *k, struct ek_event *e);
/* Counted box event E was on its counters from T0 to T: count it now or with the rest of its segment. */
void ek_defer(struct emu_perf *k, struct ek_event *e, double t0, double t);
/* Apply a counted context's pending rotations (emu_perf_tick.c): before anything else touches it. */
void ek_lazy_apply(struct emu_perf *k, int cpu, int pmu);
void ek_unschedule(struct emu_perf *k, int cpu, int pmu);
bool ek_fit(struct emu_perf *k, const struct ek_ctx *c, const struct ek_event *l,
		   uint32_t gp, uint32_t fixed, int *hw);
void ek_schedule(struct emu_perf *k, int cpu, int pmu);
void ek_resched(struct emu_perf *k, int cpu, int pmu, double t, bool rotate);

/* A PMU description: NAME, TYPE, KIND, the format of cmask CMASK, the uncore CPUs in CPUMASK. */
struct ek_pmu *ek_add_pmu(struct emu_perf *k, const char *name, uint32_t type, enum ek_kind kind,
			  const char *cmask, const char *cpumask);

/* The core PMUs: "cpu", or a hybrid's "cpu_core" and "cpu_atom" (emu_perf_pmus.c). */
void ek_add_core_pmus(struct emu_perf *k);

/* The core PMU (pmus[] index) that counts on CPU: a hybrid's E-core's cpu_atom, else 0. */
int ek_core_pmu(const struct emu_perf *k, int cpu);

/* CORE PMU P's counters: its own where it has them (cpu_atom's), else the machine's. */
static inline unsigned ek_pmu_gp(const struct emu_perf *k, const struct ek_pmu *p)
{
	return p->core_gp ? p->core_gp : k->gp;
}

static inline unsigned ek_pmu_fixed(const struct emu_perf *k, const struct ek_pmu *p)
{
	return p->core_fixed ? p->core_fixed : k->fixed;
}

/* ---- emu_perf_who.c --------------------------------------------------------- */

bool ek_who_fd(int fd);
/* An event of a cgroup (FLAGS PERF_FLAG_PID_CGROUP) or scenario task PID: its fd or -errno. */
int ek_who_open(struct emu_perf *k, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		unsigned long flags);
ssize_t ek_who_read(struct emu_perf *k, int fd, void *buf, size_t len);
int ek_who_ioctl(struct emu_perf *k, int fd, unsigned long req);
void ek_who_close(struct emu_perf *k, int fd);

#endif
