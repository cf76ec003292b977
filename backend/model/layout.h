/*
 * layout: the declarative description of what pmutop measures on one
 * microarchitecture (format: layouts/README.md).
 *
 * A layout names the CPU models it covers, its event groups (each event
 * resolved to raw fields through libpfm4 or given raw), its metrics
 * (formulas, see expr.h, with a unit, a scope and colour thresholds).  Metrics
 * outside any group use only the built-ins (fixed counters, TSC, time) and
 * are always live.  A group's metrics may use the group's events, the
 * built-ins, the metrics outside groups and the group's earlier metrics:
 * that keeps a group self-contained, so it can be multiplexed as a unit.
 *
 * Variables of a formula are numbered in one space: built-ins first
 * (enum layout_builtin), then events (LAYOUT_NBUILTINS + event index), then
 * metrics (LAYOUT_NBUILTINS + nevents + metric index); layout_nvars() is its
 * size.  The engine fills such a vector per thread, core and socket.
 *
 * Parsed once, before the screen starts; immutable afterwards.
 */
#ifndef PMUTOP_LAYOUT_H
#define PMUTOP_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuid.h"

/* X(name, meaning); the first three are fixed counters 0, 1, 2 in that order */
#define LAYOUT_BUILTINS(X) \
	X(instructions, "instructions retired (fixed counter 0, INST_RETIRED.ANY)") \
	X(cycles,       "unhalted core cycles (fixed counter 1, CPU_CLK_UNHALTED.THREAD)") \
	X(ref_cycles,   "unhalted reference cycles (fixed counter 2, CPU_CLK_UNHALTED.REF)") \
	X(tsc,          "time-stamp counter ticks (nominal frequency)") \
	X(tsc_hz,       "TSC ticks per second: the nominal clock") \
	X(seconds,      "elapsed seconds") \
	X(threads,      "hardware threads in the scope (1 for a thread)") \
	X(uncore_clock, "uncore clock ticks (the uncore fixed counter; socket and channel scope)") \
	X(dram_peak,    "theoretical DRAM bandwidth, B/s: a channel's, or a socket's sum (n/a unless the DIMM speed is known)") \
	X(channels,     "memory channels in the scope (1 for a channel, a socket's count of channels with figures)") \
	X(slots,        "issue slots (fixed counter 3, TOPDOWN.SLOTS; Ice Lake and later)") \
	X(topdown_retiring,      "slots that retired (PERF_METRICS.RETIRING x slots)") \
	X(topdown_bad_spec,      "slots wasted on the wrong path (PERF_METRICS.BAD_SPECULATION x slots)") \
	X(topdown_fe_bound,      "slots the front end left empty (PERF_METRICS.FRONTEND_BOUND x slots)") \
	X(topdown_be_bound,      "slots the back end could not take (PERF_METRICS.BACKEND_BOUND x slots)") \
	X(topdown_heavy_ops,     "retiring slots of heavy operations (PERF_METRICS.HEAVY_OPERATIONS; Sapphire Rapids and later)") \
	X(topdown_br_mispredict, "slots lost to branch mispredicts (PERF_METRICS.BRANCH_MISPREDICTS; Sapphire Rapids and later)") \
	X(topdown_fetch_lat,     "front-end slots lost to fetch latency (PERF_METRICS.FETCH_LATENCY; Sapphire Rapids and later)") \
	X(topdown_mem_bound,     "back-end slots bound by memory (PERF_METRICS.MEMORY_BOUND; Sapphire Rapids and later)") \
	X(core_threads, "hardware threads of the thread's core (Intel's THREADS_PER_CORE: 2 with hyper-threading on; averaged over a scope)") \
	X(cores,        "cores in the scope (a thread: its share of its core, 1 / the core's threads)")

enum layout_builtin {
#define LAYOUT_BUILTIN_ENUM(n, h) LAYOUT_B_##n,
	LAYOUT_BUILTINS(LAYOUT_BUILTIN_ENUM)
#undef LAYOUT_BUILTIN_ENUM
	LAYOUT_NBUILTINS
};

extern const char *const layout_builtin_names[LAYOUT_NBUILTINS];

/* The built-in of fixed counter N (0-3). */
#define LAYOUT_FIXED_VAR(n) ((n) < 3 ? (int)(n) : (int)LAYOUT_B_slots)
/* The built-in of MSR_PERF_METRICS field K (0-7, pmu_regs.h's order). */
#define LAYOUT_TOPDOWN_VAR(k) ((int)LAYOUT_B_topdown_retiring + (int)(k))

/*
 * Where a metric is computed: thread within core within socket; a memory
 * channel is within its socket too but holds no threads.
 */
enum layout_scope { LAYOUT_THREAD, LAYOUT_CORE, LAYOUT_SOCKET, LAYOUT_CHANNEL, LAYOUT_NSCOPES };

/*
 * The PMU a group's events count on.  CORE: every hardware thread's own
 * counters.  The rest are per socket, read through one CPU of it:
 * UNCORE the Nehalem/Westmere uncore PMU (8 counters), CBO the Skylake
 * client cache boxes (2 counters in each slice, summed over the slices),
 * ARB its arbitration unit (2 counters), IMC its free-running memory
 * controller counters (MMIO, nothing to program).
 */
enum layout_pmu { LAYOUT_PMU_CORE, LAYOUT_PMU_UNCORE, LAYOUT_PMU_CBO, LAYOUT_PMU_ARB,
		  LAYOUT_PMU_IMC, LAYOUT_PMU_CHA, LAYOUT_PMU_MC, LAYOUT_PMU_UPI, LAYOUT_PMU_POWER,
		  LAYOUT_PMU_IMC_FREE, LAYOUT_PMU_AMD_L3, LAYOUT_PMU_AMD_DF, LAYOUT_PMU_AMD_UMC,
		  LAYOUT_PMU_CSTATE_CORE, LAYOUT_PMU_CSTATE_PKG, LAYOUT_NPMUS };

/*
 * Each box kind as data, so that nothing else tests a kind by name: its
 * layout name, the kernel's PMU name for it (perf; with the box number
 * appended where each box is a PMU of its own), its programmable counters per box and their width (0
 * counters: free-running, nothing to program), whether it is per socket
 * (the uncore) and whether a socket has several boxes whose counts are
 * summed (the CBo slices), what one box is called in messages, and the
 * widest threshold (cmask) its event selects take.
 */
struct layout_pmu_kind {
	const char *name;
	const char *kernel;
	int counters;
	unsigned width;
	bool per_socket;
	bool free_running;
	bool summed_boxes;
	const char *box;
	unsigned cmask_max;     /* the widest counter mask (threshold) its selects take */
	/*
	 * The boxes only the kernel's uncore drivers reach (PCI configuration
	 * space, MMIO, discovery tables: the servers from Skylake-SP on, RAPL's
	 * power PMU): counted through perf, never programmed by pmutop.
	 */
	bool kernel_only;
	bool box_channels;      /* box N of a socket is its memory channel N (channel=N) */
	bool aliases;           /* its events are the kernel's named events (events/NAME, scaled) */
	uint64_t umask_max;     /* the widest umask its events take (0: 0xFF) */
	unsigned event_max;     /* the widest event select (0: 0xFF) */
	/*
	 * AMD's: each PMU of the kind is one socket's (amd_umc_N: its cpumask
	 * names one CPU, of that socket; box N of a socket is its Nth), or the
	 * kind is one PMU whose cpumask CPUs are its boxes (amd_l3: one CPU per
	 * L3, each of its socket), summed per socket.
	 */
	bool socket_boxes;
	bool cpu_boxes;
	/*
	 * Its boxes are the cores (cstate_core: one counter per core, on the
	 * core's first CPU): its metrics may have core scope, each core's figure
	 * from its own counter, the socket's from their sum.
	 */
	bool core_boxes;
	/*
	 * Counted beside the source's own counters (RAPL's energy, the C-state
	 * residencies): never a reason to choose one source over the other.
	 */
	bool beside;
};

extern const struct layout_pmu_kind layout_pmu_kinds[LAYOUT_NPMUS];

/* Memory channels per socket a layout may name (channel=N). */
#define LAYOUT_MAX_CHANNELS 16
/*
 * A set of a layout's groups (engine, session, settings, panes): bit g is
 * LAYOUT_GROUP(g).  128 wide: a two-socket server's vendor tree, its Info
 * metrics and the uncore's groups take more than 64 (Sapphire Rapids 64
 * without pmutop's Ports group; Skylake-SP's key 7 had no room).
 */
typedef unsigned __int128 layout_groups;
#define LAYOUT_GROUP(g) ((layout_groups)1 << (g))
#define LAYOUT_MAX_GROUPS 128
/* the groups below G (all of them at LAYOUT_MAX_GROUPS) */
#define LAYOUT_GROUPS_BELOW(g) ((g) >= LAYOUT_MAX_GROUPS ? ~(layout_groups)0 : LAYOUT_GROUP(g) - 1)

/* the lowest group of a set that is not empty */
static inline int layout_groups_first(layout_groups set)
{
	uint64_t lo = (uint64_t)set;

	return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(set >> 64));
}

/* the groups in a set */
static inline int layout_groups_count(layout_groups set)
{
	return __builtin_popcountll((uint64_t)set) + __builtin_popcountll((uint64_t)(set >> 64));
}

/* Keys the TUI keeps for itself; a group key is 1-9 or another lowercase letter. */
#define LAYOUT_RESERVED_KEYS "adehmpqrs"

extern const char *const layout_scope_names[LAYOUT_NSCOPES];

/*
 * Names a part (pmutop's own files, layout_parse_part) may use for facts of
 * the machine, which the layouts made from the vendor's data write as
 * numbers where they take the part in: "chas" (a socket's CHAs), "links"
 * (a socket's UPI links).
 */
enum layout_part_fact { LAYOUT_FACT_CHAS, LAYOUT_FACT_LINKS, LAYOUT_NFACTS };
extern const char *const layout_part_facts[LAYOUT_NFACTS];

/* An event's own privilege levels (Intel's metrics: ":USER", ":SUP"), within the run's. */
enum layout_ring { LAYOUT_RING_ALL, LAYOUT_RING_USER, LAYOUT_RING_KERNEL };

struct layout_event {
	char *name;
	char *spec;          /* as written: libpfm4 name or "raw ..." */
	char *canonical;     /* libpfm4's full name, or NULL for a raw event */
	int line;
	int group;
	unsigned event, cmask;
	uint64_t umask;      /* a server CHA's carries the vendor's UMaskExt above bit 8 (40 bits) */
	bool inv, edge, any;
	bool eq;             /* counter mask compared for equality (EVTSEL_EQ, version 6) */
	enum layout_ring ring; /* the privilege levels it counts, within the run's (user, kernel) */
	bool per_core;       /* counts for the whole core (any=1 unless 'sum', or declared per-core) */
	bool summed;         /* 'sum': summed over a core's threads like a thread's event, any=1 too */
	bool has_offcore;
	uint64_t offcore;    /* OFFCORE_RSP value, when has_offcore */
	uint32_t offcore_msr; /* MSR_OFFCORE_RSP_0 or _1 */
	bool has_frontend;
	uint32_t frontend;   /* MSR_PEBS_FRONTEND value (FRONTEND_RETIRED's kind), when has_frontend */
	bool has_filter1;
	uint32_t filter1;    /* Skylake-SP's CHA: its FILTER1 register's value (filter1=), when has_filter1 */
	uint32_t counters;   /* general-purpose counters it may use (bit n = PMCn) */
	enum layout_pmu pmu; /* its group's */
	int channel;         /* memory channel it counts (channel=N), -1 for none */
	int box;             /* the one box of its kind it counts (box=N: a UPI link), -1 all */
	uint32_t mmio;       /* LAYOUT_PMU_IMC: offset of the counter from the BAR */
	int var;             /* its variable; events of one name on different channels share it */
};

struct layout_metric {
	char *name;
	char *unit;
	char *help;
	char *formula;
	enum layout_scope scope;
	int group;           /* -1: always live (built-ins only) */
	int line;
	double warn, crit;   /* colour thresholds on screen ("thresholds" line), NaN when none */
	struct expr *expr;
	/*
	 * The groups whose counts the formula reads (bit g): its own, and the
	 * other groups of its key when one metric's events need more counters
	 * than one group holds ("groups that share a key": an event of one
	 * name may stand in several groups, each its own count; a metric reads
	 * its own group's, else the first of its key's).  0 for a metric
	 * outside any group.  Its figure is scaled when one of them took turns;
	 * n/a when its own group did not count, or an event it reads was not.
	 */
	layout_groups uses;
	char *na;            /* "unavailable" line: never counted here, and why; NULL otherwise */
	/*
	 * A node of a tree of metrics ("tree" and "threshold" lines; the
	 * vendor's top-down tree): its parent (metric index, -1 a root), its
	 * level (1 = a root, 0 not in a tree), and the vendor's condition for
	 * the node to be flagged, over metrics of any group (NULL: none).
	 */
	int parent;
	int level;
	char *threshold_text;
	struct expr *threshold;
	int threshold_line;
	/* the threshold is pmutop's ("threshold own: ..."): its vendor publishes none */
	bool threshold_own;
	char *parent_name;   /* as the tree line wrote it; NULL for a root */
	int tree_line;
	int tree_pos;        /* its place among its siblings (the tree line's third number), 0 */
};

/*
 * The kind of core a core group counts on, on a hybrid CPU ("coretype"
 * line): every core, or only the performance cores (Intel's Core Role
 * "Core", the kernel's cpu_core PMU) or the efficient ones ("Atom",
 * cpu_atom), whose events and metrics differ.  Elsewhere its figures are
 * n/a (layout_coretype_na).
 */
enum layout_coretype { LAYOUT_CORES_ANY, LAYOUT_CORES_P, LAYOUT_CORES_E, LAYOUT_NCORETYPES };

extern const char *const layout_coretype_names[LAYOUT_NCORETYPES];

/*
 * A CPU's kind only (no group is bound to it): a low-power E-core (Arrow
 * Lake-H's, the kernel's cpu_lowpower), whose events are another core's than
 * the E-cores': groups of every core count there, E-core groups do not.
 */
#define LAYOUT_CPU_LPE ((unsigned)LAYOUT_NCORETYPES)

/* Whether a group bound to GROUP counts on a CPU of kind CPU (ANY: every kind, or one kind). */
static inline bool layout_coretype_on(enum layout_coretype group, unsigned cpu)
{
	return group == LAYOUT_CORES_ANY || cpu == LAYOUT_CORES_ANY || (unsigned)group == cpu;
}

struct layout_group {
	char *name;
	char *title;
	char *help;
	char key;            /* '1'..'9' or a free lowercase letter, or 0 */
	enum layout_pmu pmu;
	enum layout_coretype coretype;
	bool default_on;
	int first_event, nevents;
	int line;
	/*
	 * "reads GROUP...": groups of other keys whose events this key's
	 * metrics read too (Intel's Bottleneck metrics read the tree's); its
	 * key counts them with its own (layout_groups_counted)
	 */
	layout_groups reads;
};

struct layout {
	char *file;
	/*
	 * The layout as one self-contained text, equivalent to the file with
	 * its includes spliced in (what a recording or a viewer carries).
	 */
	char *text;
	char *name;
	char *description;
	char *libpfm_pmu;    /* libpfm4 PMU for named events, NULL when every event is raw */
	char *libpfm_uncore; /* libpfm4 PMU for named uncore events (nhm_unc, wsm_unc), or NULL */
	enum cpuid_vendor vendor; /* "vendor": whose event selects its raw events are (intel) */
	bool fallback;       /* "models any": any CPU of its vendor with architectural perfmon */
	/*
	 * "offcore none": no event code reads the offcore response registers
	 * (a layout made from the vendor's data, where OFFCORE_RESPONSE moved
	 * to 2AH/2BH and B7H counts other things); else B7H and BBH do (seed 002)
	 */
	bool no_offcore;
	/* the events that read MSR_OFFCORE_RSP_0 and _1 ("offcore EV0 EV1"); 0: B7H and BBH */
	unsigned offcore_event[2];
	unsigned topdown_fields;  /* layout_topdown_fields(), found once at parse */
	/*
	 * "models": the CPUs a layout of one's own is for (--layout FILE);
	 * the shipped layouts have none, the CPU table (cpumodel) picks them.
	 */
	unsigned (*models)[2]; /* family, model */
	int nmodels;
	struct layout_event *events;
	int nevents;
	struct layout_metric *metrics;
	int nmetrics;
	struct layout_group *groups;
	int ngroups;
};

/*
 * Parse TEXT (named FILE in messages).  0 and *OUT, or -EINVAL with
 * "FILE:LINE:COL: expected ..." in ERR.
 */
int layout_parse(const char *text, const char *file, struct layout **out, char *err, size_t errlen);

/*
 * Parse TEXT as a part: groups (and metrics) that other layouts take in
 * (pmutop's own, layouts/own), checked as layout_parse checks a layout but
 * for the thread metric a whole layout needs.
 */
int layout_parse_part(const char *text, const char *file, struct layout **out, char *err,
		      size_t errlen);

/* FILE's text into *OUT (malloc'd): a regular, trusted file of text; -errno and ERR. */
int layout_read_text(const char *path, char **out, char *err, size_t errlen);

/*
 * The kind of core metric M is of: its group's, or a P-core's when it reads
 * fixed counter 3 or PERF_METRICS (which an E-core has not); ANY otherwise.
 */
enum layout_coretype layout_metric_coretype(const struct layout *l, int m);

/* Read and parse a file; -errno and one line in ERR. */
int layout_load(const char *path, struct layout **out, char *err, size_t errlen);

/*
 * The layout in DIR for the CPU INFO describes: the one its row in the CPU
 * table names, else the architectural fallback of its vendor (Intel's
 * arch.layout) when it has architectural perfmon.  -ENOENT with a message
 * when there is none.
 */
int layout_find(const char *dir, const struct cpuid_info *info, struct layout **out, char *err,
		size_t errlen);

void layout_free(struct layout *l);

/*
 * Whether L is for INFO's CPU: the layout its CPU table row names, a
 * fallback of its vendor, or one whose own models line names it.
 */
bool layout_covers(const struct layout *l, const struct cpuid_info *info);

/* Is a metric of scope M computed at scope AT (at its own and every coarser scope)? */
bool layout_scope_computed(enum layout_scope m, enum layout_scope at);

/*
 * Give each of the N events EV (layout indexes) a distinct counter from
 * USABLE (bit n = counter n) within its counters= constraint, into CTR
 * (entries -1 on entry).  false when they do not fit.
 */
bool layout_assign_counters(const struct layout *l, const int *ev, int n, uint32_t usable,
			    int *ctr);

/* Does any group of L count on a per-socket PMU? */
bool layout_has_uncore(const struct layout *l);

/*
 * The MSR_PERF_METRICS fields L reads: 0 none, 4 level 1 (Ice Lake's), 8
 * when it reads a level-2 field too (Sapphire Rapids and later).  A layout
 * is for the CPUs its models line names: one that reads a field its CPU
 * lacks reads zero there, as the register does.
 */
unsigned layout_topdown_fields(const struct layout *l);

int layout_nvars(const struct layout *l);
/* Variable index of event E / metric M. */
int layout_event_var(const struct layout *l, int e);
int layout_metric_var(const struct layout *l, int m);

/*
 * The groups that toggle with group G (bit g): those of its key, one set
 * of metrics counted in several groups that take turns; G alone when it
 * has no key or the only one.
 */
layout_groups layout_key_groups(const struct layout *l, int g);

/*
 * The groups that count when GROUPS are selected: those, and the groups
 * their "reads" lines name (a key counts what its metrics read).
 */
layout_groups layout_groups_counted(const struct layout *l, layout_groups groups);

/* Does metric M's formula read layout event E? */
bool layout_metric_reads(const struct layout *l, int m, int e);

/* Is metric M's flag raised (its threshold true) in VARS?  -1 n/a, 0 no, 1 yes. */
int layout_metric_flagged(const struct layout *l, int m, const double *vars);

/* Index of the group / metric called NAME, or -1. */
int layout_group_find(const struct layout *l, const char *name);
int layout_metric_find(const struct layout *l, const char *name);
int layout_event_find(const struct layout *l, const char *name);

#endif
