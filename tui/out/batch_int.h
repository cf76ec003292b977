/*
 * batch_int: what the batch formats share (batch.c), and their parts that
 * live in files of their own (batch_who.c: who uses the machine;
 * batch_json.c: the JSON tables), for the formats' files alone.  Main thread.
 */
#ifndef PMUTOP_BATCH_INT_H
#define PMUTOP_BATCH_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "batch.h"
#include "frontend.h"

struct batch_run;
/* The "# who" lines of S (none when S has no who figures): the rows R's --per-* pick. */
void batch_who_text(const struct sample *s, const struct batch_run *r, FILE *out);
/* The who_* CSV columns (after the others), empty ones for a machine row, and S's who rows. */
void batch_who_csv_header(const struct sample *s, FILE *out);
void batch_who_csv_empty(const struct sample *s, FILE *out);
/* Each row: BEFORE (seq to skew_us, as text), its scope, then METRIC_COLS empty columns and its own. */
void batch_who_csv_rows(const struct sample *s, const struct batch_run *r, const char *before,
			int metric_cols, FILE *out);
/* {"available", "note", "cgroups": [...], "processes": [...]}, or NULL without who figures. */
struct json_t;
struct json_t *batch_who_json(const struct sample *s, const struct batch_run *r);
/*
 * S's tables into sample object O (batch_json.c): "scaled", then "threads",
 * "cores", "sockets", "channels" and "chas", each written when its rows are
 * asked for, as {"columns", "data", "na"}.
 */
void batch_json_tables(const struct sample *s, const struct batch_run *r, struct json_t *o);
/* S's throttle table, every socket's (a recording's), or NULL when nothing looked. */
struct json_t *batch_throttle_json(const struct sample *s);
/* Wall-clock time T as ISO 8601 in UTC, to the millisecond ("2026-11-29T06:42:16.499Z"). */
void batch_iso_time(double t, char *buf, size_t len);
/* V to the batch formats' significant digits. */
double batch_round(double v);

/* What one print writes beyond its format: batch_opts resolved for the sample's layout. */
struct batch_run {
	bool counts;
	bool *listed;         /* per metric: among --metrics (NULL: every one) */
	double t0;            /* the run's start (wall clock), NaN unknown: perf's shapes' times */
	unsigned scopes;      /* the rows written, batch_opts.scopes (0: every kind) */
	const struct topo *topo; /* the machine, or NULL */
	/*
	 * --cpus: per sample thread, core and socket (their arrays' order),
	 * whether its row is written: a listed CPU, a core or socket holding
	 * one; NULL every row
	 */
	bool *thread_on, *core_on, *socket_on;
};

/* R for printing S with options O (--metrics resolved, --cpus' rows); batch_run_free after. */
void batch_run_make(struct batch_run *r, const struct sample *s, const struct batch_opts *o);
void batch_run_free(struct batch_run *r);

/* A hybrid's kind of core of thread or core entity E ("P", "E", "LP-E"), or NULL (one kind). */
const char *batch_core_kind(const struct batch_run *r, const struct sample_entity *e);

/* Whether rows of SCOPE are written (--per-thread, --per-core, --per-socket, --per-channel). */
static inline bool batch_scope_on(const struct batch_run *r, int scope)
{
	return !r->scopes || (r->scopes & 1u << scope);
}

/* Whether row I of SCOPE (index into the sample's threads, cores or sockets: a channel's or
 * CHA's its socket's) is written: its kind asked for, and of a --cpus CPU. */
static inline bool batch_row_on(const struct batch_run *r, enum layout_scope scope, int i)
{
	const bool *on = scope == LAYOUT_THREAD ? r->thread_on
			 : scope == LAYOUT_CORE ? r->core_on : r->socket_on;

	return batch_scope_on(r, scope) && (!on || on[i]);
}
/*
 * Whether row I of kind K (sample_kinds: its index in the kind's rows) is
 * written: its kind asked for, and of a --cpus CPU (a channel's or CHA's
 * socket holding one).
 */
static inline bool batch_kind_row_on(const struct sample *s, const struct batch_run *r,
				     enum sample_kind_id k, int i)
{
	enum sample_kind_id by;
	int o = sample_kind_owner(s, k, i, &by);
	const bool *on = by == SAMPLE_KIND_THREAD ? r->thread_on
			 : by == SAMPLE_KIND_CORE ? r->core_on : r->socket_on;

	return batch_scope_on(r, (int)k) && (!on || on[o]);
}
/*
 * Whether kind K's rows are written at all in S: asked for, it has rows, and
 * (a kind written on demand: the channels, the CHAs) one of its figures is.
 */
bool batch_kind_written(const struct sample *s, const struct batch_run *r, const struct sample_kind *k);
/*
 * Each written row of socket K's parts (the kinds that are a socket's part:
 * its channels, its CHAs), kind by kind as the kinds table has them, the
 * text's and perf's order: FN(CTX, kind, row index).
 */
void batch_socket_parts(const struct sample *s, const struct batch_run *r, int k,
			void (*fn)(void *ctx, enum sample_kind_id kind, int i), void *ctx);
/* Is metric M written: among --metrics, and always-live or its group was selected. */
static inline bool batch_metric_shown(const struct sample *s, const struct batch_run *r, int m)
{
	int g = s->layout->metrics[m].group;

	return (!r->listed || r->listed[m]) && (g < 0 || s->groups[g].state != SAMPLE_GROUP_OFF);
}

#endif
