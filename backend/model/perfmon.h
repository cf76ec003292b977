/*
 * perfmon: Intel's published event and metric data for one platform, as
 * tools/perfmon-convert writes it from the intel/perfmon repository into
 * data/intel/ (one <platform>.json per platform, models.csv to find it).
 *
 * A loaded platform is its events (with the vendor's encodings), its
 * constants and its metrics: each metric's formula and threshold compiled
 * by expr over one variable space:
 *   [0, nvars_event)                       the events as metrics name them
 *                                          (with modifiers, "X.Y:c1:e1")
 *   [PERFMON_VAR_CONST(p, c)]              the constants (enum perfmon_const)
 *   [PERFMON_VAR_METRIC(p, m)]             the metrics, for thresholds
 * Metrics form the vendor's tree: parent and children by index.
 *
 * Loaded once before the sampler starts, then immutable: any thread reads.
 */
#ifndef PMUTOP_PERFMON_H
#define PMUTOP_PERFMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct expr;

/* The vendor's constants (Constants[].Name in the metric files, or inline). */
enum perfmon_const {
	PERFMON_HYPERTHREADING_ON,
	PERFMON_THREADS_PER_CORE,
	PERFMON_DURATIONTIMEINMILLISECONDS,
	PERFMON_DURATIONTIMEINSECONDS,      /* written inline, without an alias */
	PERFMON_SYSTEM_TSC_FREQ,
	PERFMON_SOCKET_COUNT,
	PERFMON_CHAS_PER_SOCKET,
	PERFMON_CORES_PER_SOCKET,
	PERFMON_NUM_CPUS,
	PERFMON_NCONST
};

extern const char *const perfmon_const_names[PERFMON_NCONST];

/* One event as metrics name it: the vendor's row (NULL fields: not published). */
struct perfmon_event {
	const char *name;           /* as written: "CPU_CLK_UNHALTED.THREAD:c1" */
	char *base;                 /* without modifiers: "CPU_CLK_UNHALTED.THREAD" */
	bool listed;                /* in the platform's event table */
	const char *code, *umask;   /* "0x3C", "0x00" (EventCode may be "0x2A,0x2B") */
	const char *umask_ext;      /* an uncore box's UMaskExt ("0x00c817fe"), the umask's bits above 8 */
	const char *rdwrmask;       /* AMD's memory channel: RdWrMask, reads 1, writes 2 */
	/*
	 * Skylake-SP's and Cascade Lake's CHA: the box's FILTER1 register the
	 * event needs (FILTER_VALUE where its Filter is "Filter1": the TOR's
	 * opcode, locality and memory-type match), else NULL
	 */
	const char *filter1;
	const char *cmask, *inv, *edge, *any;
	const char *msr_index, *msr_value;
	const char *counter;        /* "0,1,2,3", "Fixed counter 1" */
	const char *counter_ht_off; /* the same with hyper-threading off, where it differs */
	bool taken_alone;           /* TakenAlone: one such event per pass */
	const char *unit;           /* an uncore box ("iMC", "CHA"); NULL for the core */
	const char *desc;
};

struct perfmon_metric {
	const char *name;           /* MetricName: "Frontend_Bound", "cpi" */
	const char *desc, *unit, *category, *domain, *groups, *resolution;
	int level;                  /* 1 .. 6 in the tree; 1 for the rest */
	int parent;                 /* metric index, or -1 */
	int *children;
	int nchildren;
	struct expr *formula;
	const char *formula_text;
	struct expr *threshold;     /* NULL: none */
	const char *threshold_text;
	void *json;                 /* the metric's object in the file (its alias tables) */
};

struct perfmon {
	char *path;
	const char *platform;       /* "SPR", "Zen 4" */
	const char *vendor;         /* "GenuineIntel" (Intel's perfmon), "AuthenticAMD" (data/amd) */
	const char *info;           /* the vendor's header line */
	const char *commit;         /* the upstream commit the data came from */
	/*
	 * Where the metrics come from when not PATH (perfmon_load_platform: the
	 * kernel's metrics of its cores, data/atom) and that file's upstream; NULL
	 */
	const char *metrics_path, *metrics_commit;
	struct perfmon_event *events;
	int nevents;                /* variables [0, nevents) */
	struct perfmon_metric *metrics;
	int nmetrics;
	int nformulas;              /* formulas and thresholds compiled */
	void *doc;                  /* the parsed file (owns the strings) */
};

#define PERFMON_VAR_CONST(p, c) ((p)->nevents + (c))
#define PERFMON_VAR_METRIC(p, m) ((p)->nevents + PERFMON_NCONST + (m))
#define PERFMON_NVARS(p) ((p)->nevents + PERFMON_NCONST + (p)->nmetrics)

/*
 * Load PATH.  0 and *OUT, or -errno with one line in ERR naming the file and
 * the place: "FILE: metric Frontend_Bound: formula column 12: expected ...".
 */
int perfmon_load(const char *path, struct perfmon **out, char *err, size_t errlen);

/* The same over TEXT (LEN bytes) read elsewhere, named PATH in messages. */
int perfmon_load_buffer(const char *text, size_t len, const char *path, struct perfmon **out,
			char *err, size_t errlen);

/*
 * The other core type CORE_TYPE ("0x20": a hybrid part's E-cores) of the
 * platform file PATH: its events (the file's OtherCoreTypes) with the
 * metrics of METRICS_PATH (data/atom, tools/atom-convert), as one platform;
 * CORE_TYPE NULL: PATH's own events, as PATH's platform.
 */
int perfmon_load_cores(const char *path, const char *core_type, const char *metrics_path,
		       struct perfmon **out, char *err, size_t errlen);

/*
 * PATH's platform with the metrics of its cores: PATH alone, or where PATH
 * publishes none and its cores are another platform's other kind (its
 * CoresOf: Alder Lake-N's Gracemont cores are ADL's E-cores), its events
 * with those cores' metrics from ATOM_DIR (data/atom, the kernel's; NULL:
 * PATH alone).  perfmon_load's returns.
 */
int perfmon_load_platform(const char *path, const char *atom_dir, struct perfmon **out,
			  char *err, size_t errlen);

/* A platform file is a few hundred kB; anything past this is not one. */
#define PERFMON_MAX_FILE (32 << 20)


/*
 * Metric M's formula (or with THRESHOLD its threshold) as the vendor wrote it,
 * each alias replaced by the event, constant or metric it stands for, into
 * BUF (LEN): "100 * ( PERF_METRICS.FRONTEND_BOUND / ( ... ) )".
 */
void perfmon_render(const struct perfmon *p, int m, bool threshold, char *buf, size_t len);

/* What a name of a formula is: an event, a constant, or (in a threshold) a metric. */
enum perfmon_name_kind { PERFMON_NAME_EVENT, PERFMON_NAME_CONST, PERFMON_NAME_METRIC };

/*
 * The text FN gives for NAME of KIND (BUF, LEN: room it may use), or NULL
 * to keep NAME.
 */
typedef const char *(*perfmon_name_fn)(void *ctx, enum perfmon_name_kind kind, const char *name,
				       char *buf, size_t len);

/* As perfmon_render, each name through FN (NULL: as named); false when BUF was too short. */
bool perfmon_render_map(const struct perfmon *p, int m, bool threshold, perfmon_name_fn fn,
			void *ctx, char *buf, size_t len);

/*
 * Whether M is a node of the vendor's tree: it has a parent or children, or
 * it is one of AMD's (Category "Pipeline"), whose level 1 has a leaf of its
 * own (smt_contention).
 */
bool perfmon_in_tree(const struct perfmon_metric *m);

/* Metric index of NAME, or -1. */
int perfmon_metric_index(const struct perfmon *p, const char *name);

void perfmon_free(struct perfmon *p);

/*
 * Event NAME of P's event table (whether a metric reads it or not: the
 * converters keep them) into *E, every field the row has, its strings P's;
 * false where the table has no such event.
 */
bool perfmon_event_find(const struct perfmon *p, const char *name, struct perfmon_event *e);

#endif
