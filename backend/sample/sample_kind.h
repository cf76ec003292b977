/*
 * sample_kind: the kinds of entity a sample has layout figures for, a row
 * each (as perf's pmu-events describe PMUs as table rows): what a row of
 * the kind is called, the table it is written in, the keys that name it,
 * the kind it is part of, where its rows are and which metrics are its
 * figures.  The writers (the JSON tables, the long CSV, Prometheus,
 * recordings) and replay walk this table instead of naming threads, cores,
 * sockets, channels and CHAs each: a new kind is its producer (what fills
 * the sample's rows) and a row here.  Pure functions of a sample: any thread.
 */
#ifndef PMUTOP_SAMPLE_KIND_H
#define PMUTOP_SAMPLE_KIND_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

/*
 * The keys that name a row, and what each holds: the OS's numbers (the
 * CPU's, the core id, the physical package id: what /sys and lscpu say),
 * or the row's number within its socket (a channel's, a CHA's).
 */
enum sample_label {
	SAMPLE_LABEL_CPU,
	SAMPLE_LABEL_CORE,
	SAMPLE_LABEL_SOCKET,
	SAMPLE_LABEL_CHANNEL,
	SAMPLE_LABEL_CHA,
	SAMPLE_NLABELS
};

#define SAMPLE_KIND_LABELS_MAX 4

struct sample_kind {
	const char *name;        /* a row's kind: "thread" (the long CSV's scope column) */
	const char *table;       /* the table of its rows: "threads" (a JSON sample's key) */
	const char *option;      /* the batch option that picks its rows alone: "--per-thread" */
	enum layout_scope scope; /* the scope its figures are computed at */
	int parent;              /* the kind a row is part of (enum sample_kind_id), -1 none */
	/* the keys that name a row, finest first (the JSON tables' and the long CSV's order) */
	enum sample_label labels[SAMPLE_KIND_LABELS_MAX];
	int nlabels;
	/*
	 * A socket's part whose rows the sample stores (sample.parts[] at the
	 * kind's value), socket-major: its count, rows, rows a socket and store
	 * follow from that.  false: the functions below say them.
	 */
	bool part;
	/*
	 * Where not a stored part: rows per socket, socket-major (a view of a
	 * socket's part; NULL: the rows are not a socket's), its rows' count
	 * and row I.  Read them through sample_kind_per_socket, _count, _row.
	 */
	int (*per_socket)(const struct sample *s);
	int (*count)(const struct sample *s);
	const struct sample_entity *(*row)(const struct sample *s, int i);
	/* whether layout L's metric M is one of its figures */
	bool (*figure)(const struct layout *l, int m);
	/*
	 * Written only where one of its figures is shown (a channel's come from
	 * the memory controller's groups; the CHAs one by one are a detail a CHA
	 * group asks for); false: whenever it has rows
	 */
	bool on_demand;
	/* a row's counts as read can be written (--counts): false where the socket's stand for it */
	bool counts;
	/*
	 * Where not a stored part: its rows as the sample stores them (the
	 * sample's own threads, cores, sockets), for a recording to keep and a
	 * replay to fill; NULL: its rows are other kinds' (a view), made again
	 * from those.  Through sample_kind_stored and sample_kind_store.
	 */
	struct sample_entity *(*store)(struct sample *s);
	/*
	 * The layout's events whose inputs its rows keep, without raw counts
	 * (the CHAs: their own groups'); NULL: every event that counted, with
	 * its raw count
	 */
	bool (*keeps)(const struct layout *l, int ev);
	/*
	 * Written in perf's shapes (perf stat -A: --format perf-csv, perf-json),
	 * named as perf names its rows: a CPU's "CPU3", else its socket's "S0"
	 * and its number there ("S0-CH2", sample_label_perf); false for what
	 * perf stat -A has no rows of (cores)
	 */
	bool perf;
};

extern const struct sample_kind sample_kinds[SAMPLE_NKINDS];
extern const char *const sample_label_names[SAMPLE_NLABELS];
/* A label's prefix in perf's names of rows ("CPU", "S", "CH", "CHA"); NULL: none (a core). */
extern const char *const sample_label_perf[SAMPLE_NLABELS];

/* Kind K's rows in S: a socket's (0: none, or not a socket's part), all of them, row I. */
int sample_kind_per_socket(const struct sample_kind *k, const struct sample *s);
int sample_kind_count(const struct sample_kind *k, const struct sample *s);
const struct sample_entity *sample_kind_row(const struct sample_kind *k, const struct sample *s,
					    int i);

/* Whether the sample stores kind K's rows (a recording keeps them), else they are a view. */
bool sample_kind_stored(const struct sample_kind *k);

/*
 * Kind K's stored rows in S, for a replay to fill: made first, PER a
 * socket, where K is a socket's part (PER ignored otherwise: sample_new
 * made them); NULL where K is a view.
 */
struct sample_entity *sample_kind_store(const struct sample_kind *k, struct sample *s, int per);

/* Whether kind K's rows are a socket's parts (channels, CHAs, a view of such). */
bool sample_kind_is_part(const struct sample_kind *k);

/* Row E of kind K named as perf stat -A names it ("CPU3", "S0", "S0-CH2") into BUF. */
void sample_kind_perf_name(const struct sample_kind *k, const struct sample_entity *e, char *buf,
			   size_t len);

/* Whether kind K's rows are named by label LB. */
bool sample_kind_has_label(const struct sample_kind *k, enum sample_label lb);

/* Row E's value of label LB (the OS's number, or its number within its socket). */
int sample_label_value(const struct sample_entity *e, enum sample_label lb);

/*
 * The index into the sample's threads, cores or sockets (by K's nearest
 * kind of those: itself, or its socket) that row I of kind K belongs to,
 * for filters kept per thread, core and socket (--cpus); *BY the kind it is.
 */
int sample_kind_owner(const struct sample *s, enum sample_kind_id k, int i, enum sample_kind_id *by);

#endif
