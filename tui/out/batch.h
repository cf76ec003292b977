/*
 * batch: samples as text, CSV or JSON lines on a stream, for scripts and
 * tests; and --list-events, the reviewable list of what pmutop writes.
 *
 * Text and CSV show n/a (text) or an empty field (CSV) where a value is not
 * available, never 0; a scaled (multiplexed) value carries a '*' in text and
 * is listed in the CSV "scaled" column and the JSON "scaled" arrays.
 * Emulated data says SIMULATED in every format.  Main thread.
 */
#ifndef PMUTOP_BATCH_H
#define PMUTOP_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "frontend.h"
#include "marks.h"

struct batch_run;

/*
 * A format of -b's output (--format NAME): text, csv (a row per thread,
 * core, socket, channel), json (an object a line); long (CSV, one figure a
 * row); perf-csv and perf-json (perf stat -I -A -x, and -j's records).
 * Each is a const struct batch_format in the file that writes it; the
 * registry (BATCH_FORMATS_ALL in batch.c) is the one list, which --format,
 * its error and --help read.  A new format is its file and a registry line.
 */
struct batch_format {
	const char *name;   /* --format NAME */
	const char *help;   /* what it writes, for --help */
	bool counts;        /* it carries --counts (every event's count beside the metrics) */
	/* Sample S as the run R asks (batch_int.h); FIRST: the run's first (a header). 0 or -errno. */
	int (*sample)(const struct sample *s, const struct batch_run *r, bool first, FILE *out);
	/* A phase mark TEXT at WHEN (ISO 8601), ELAPSED s into the run; NULL: marks are not written. */
	int (*mark)(const char *text, const char *when, double elapsed, FILE *out);
	/* The run's MEAN and PEAK samples, ABOUT what ran; NULL: no summary. */
	int (*summary)(const struct sample *mean, const struct sample *peak, const char *about,
		       const struct batch_run *r, bool first, FILE *out);
};

/* Every format, in --help's order, the default (text) first; NULL after the last. */
extern const struct batch_format *const batch_formats[];
/* The format FMT stands for: itself, or the default (text) for NULL (--format not given). */
const struct batch_format *batch_format_of(const struct batch_format *fmt);
/* The format called NAME, or NULL. */
const struct batch_format *batch_format_find(const char *name);
/* Their names for a message: "text, csv, json, long, perf-csv or perf-json". */
const char *batch_format_list(void);

/*
 * The JSON lines' schema and its version: data/schema/pmutop-batch-2.schema.json
 * (installed beside the layouts), its $id; the first sample says it
 */
#define BATCH_SCHEMA "pmutop-batch/2"

/* What a run's printed samples carry beyond the format. */
/*
 * The rows --per-* picks (bits of batch_opts.scopes): each kind of entity's
 * (enum sample_kind_id, whose first are enum layout_scope's), then the who
 * view's.
 */
enum { BATCH_SCOPE_CGROUP = SAMPLE_NKINDS, BATCH_SCOPE_PROCESS };
_Static_assert((int)LAYOUT_CHANNEL == (int)SAMPLE_KIND_CHANNEL && BATCH_SCOPE_PROCESS < 32,
	       "--per-* bits are sample_kinds' numbers, the layout's scopes first");

struct batch_opts {
	bool counts;          /* --counts (CSV, JSON): every event's count beside the metrics */
	/*
	 * --metrics: the metrics written (NULL: every one counted), a comma list
	 * of names, shell globs ("Info_Memory_*"), group names or keys ("9", "Memory")
	 */
	const char *metrics;
	double t0;            /* the run's start (wall clock; NaN: unknown): perf's shapes' times */
	/*
	 * --per-thread, --per-core, --per-socket, --per-channel, --per-cha,
	 * --per-cgroup, --per-process: bit 1 << enum layout_scope or BATCH_SCOPE_*
	 * (0: all)
	 */
	unsigned scopes;
	const int *cpus;      /* --cpus: the rows of these OS CPUs alone (sorted), NULL all */
	int ncpus;
	/* the machine (a hybrid's kind of core per thread and core: P, E, LP-E), or NULL */
	const struct topo *topo;
};

/*
 * Print S; FIRST is true for the first sample of the run (CSV header).  What
 * is written: the metrics of the groups that are not off (among O->metrics);
 * the CSV header gives each one's unit ("util (%)").  0 or -errno.
 */
int batch_print(const struct sample *s, const struct batch_format *fmt, const struct batch_opts *o,
		bool first, FILE *out);

/* ---- batch_select.c: --metrics, --cpus ---- */

/*
 * --cpus' TEXT on machine T (CPU lists, socketN, kinds of core: the
 * screen's CPU filter): *CPUS the xmalloc'd sorted OS CPUs, *NCPUS of them;
 * 0, or -EINVAL with ERR saying what T has.
 */
struct topo;
int batch_cpus_resolve(const struct topo *t, const char *text, int **cpus, int *ncpus, char *err,
		       size_t len);

/* Per metric of L: whether a pattern of LIST names it, its group or its key (the caller frees). */
bool *batch_metrics_listed(const struct layout *l, const char *list);

/* Whether every pattern of LIST names something of L: 0, or -EINVAL with the one that does not. */
int batch_metrics_check(const struct layout *l, const char *list, char *err, size_t len);

/*
 * A phase mark (T0: the run's start, wall clock): "# mark" in text, {"mark": ...} in JSON, none
 * in the formats that are tables of figures.
 */
int batch_print_mark(const struct mark *mk, double t0, const struct batch_format *fmt, FILE *out);

/*
 * The run's summary (summary.h): MEAN and PEAK over its samples (seq: how
 * many, interval_s: the seconds they cover), ABOUT what ran.  Text: a
 * "# summary" line and both tables; CSV: rows whose seq is "mean" or
 * "peak" (FIRST: print the header, no sample came before); JSON: one
 * {"summary": {about, samples, seconds, mean, peak}} line; perf's shapes and
 * the long CSV none (the samples' records alone, as perf stat -I's).  0 or -errno.
 */
int batch_print_summary(const struct sample *mean, const struct sample *peak, const char *about,
			const struct batch_format *fmt, const struct batch_opts *o, bool first,
			FILE *out);

/* ---- batch_counts.c: the events' counts (--counts) ---- */

/* Whether event K of L is reported at SCOPE: core events per thread and core, the rest where they count. */
bool batch_counts_at(const struct layout *l, int k, enum layout_scope scope);

/*
 * Each count of E at SCOPE, as --counts names them (the fixed counters
 * first; none of a group that is off): FN's NAME, EVENT (what it is, as
 * perf stat would name it), COUNT as read, SCALED to the interval, WINDOW
 * the seconds it counted (NaN: not counted).
 */
typedef void (*batch_count_fn)(const char *name, const char *event, double count, double scaled,
			       double window, void *ctx);
void batch_counts_each(const struct sample *s, const struct sample_entity *e,
		       enum layout_scope scope, batch_count_fn fn, void *ctx);

/* {"NAME": {"count": as read, "scaled": to the interval}} of E's events at SCOPE (null: not counted). */
struct json_t;
struct json_t *batch_counts_json(const struct sample *s, const struct sample_entity *e,
				 enum layout_scope scope);

/*
 * Each metric of L: its formula and the counts it reads, by the names
 * --counts prints them (a name of several groups' counts: NAME@GROUP, the one
 * the formula reads), so a figure can be recomputed from the printed counts.
 */
struct json_t *batch_counts_formulas(const struct layout *l);

/* The CSV columns: "count.NAME,scaled.NAME" per event (the fixed counters first); how many. */
int batch_counts_ncols(const struct layout *l);
void batch_counts_csv_header(const struct layout *l, FILE *out);
void batch_counts_csv_row(const struct sample *s, const struct sample_entity *e,
			  enum layout_scope scope, FILE *out);

/*
 * Every event of L with its resolved fields, the PERFEVTSEL value written
 * (counter_evtsel: what the engine programs on a CPU with PERFMON_VERSION),
 * the offcore register and value, and the counters it may use (GP_COUNTERS
 * of them exist).  PERF: instead, each event as perf stat -e names it
 * through the kernel's PMUs (what --source perf opens).
 */
struct source_terms;
/*
 * UNMODELLED (or NULL): per layout event, an emulated machine counts it 0
 * (marked, and summed up against the layout's CORE_EVENTS).
 */
void batch_list_events(const struct layout *l, unsigned gp_counters, unsigned perfmon_version,
		       bool user, bool kernel, bool perf, struct source_terms *k,
		       const bool *unmodelled, int core_events, FILE *out);

#endif
