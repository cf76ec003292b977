/*
 * sink: where each new sample goes, and each phase mark and each change of
 * the groups or the interval: the batch printer, the recording, the
 * server, the end-of-run summary, the screen's history.  A run builds its
 * list once from the registry (sinks_build: each kind says whether the run
 * wants it) and feeds it from one place; a new output is one file with its
 * struct sink_kind and one line in the registry (sink.c).  Main thread.
 */
#ifndef PMUTOP_SINK_H
#define PMUTOP_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "batch.h"
#include "frontend.h"
#include "marks.h"

struct sink;

struct sink_ops {
	/*
	 * Each returns 0, or -EPIPE when its reader went away (the run ends,
	 * successfully), or another -errno when its output cannot be written
	 * (the run ends with a failure).  A sink whose failure should not end
	 * the run (a recording, the server) says so itself and returns 0.
	 */
	int (*sample)(struct sink *k, const struct sample *s);
	int (*mark)(struct sink *k, const struct mark *mk);           /* NULL: none */
	/* The user changed the groups counted, or the interval (the screen), at TIME.  NULL: none. */
	int (*groups)(struct sink *k, double time, layout_groups groups);
	int (*interval)(struct sink *k, double time, double seconds);
	/* The run is over; FED samples went by. */
	int (*end)(struct sink *k, long fed);                         /* NULL: nothing */
	void (*free)(struct sink *k);
};

struct sink {
	const struct sink_ops *ops;
};

/* What runs: the samples printed (-b), served alone, on the screen, or drawn once (--dump). */
enum sink_mode { SINK_PRINT, SINK_SERVE_ONLY, SINK_SCREEN, SINK_DUMP };

struct record;
struct serve;
struct history;
struct run_cmd;

/* What a run has that the sinks may use; NULL where it has none. */
struct sink_ctx {
	enum sink_mode mode;
	const struct batch_format *format; /* --format (NULL: text) */
	bool counts;                   /* --counts: every event's count beside the metrics */
	const char *metrics;           /* --metrics: the metrics printed (NULL: every one counted) */
	unsigned scopes;               /* --per-*: the rows printed (batch_opts.scopes; 0 all) */
	const int *cpus;               /* --cpus: the rows of these CPUs alone, NULL all */
	int ncpus;
	const struct topo *topo;       /* the machine (a hybrid's kinds of core in the output), or NULL */
	FILE *out;                     /* where printing goes (stdout) */
	double t0;                     /* wall clock at the start: the marks' offsets */
	struct serve *srv;             /* the owner's server */
	struct record **rec;           /* the recording; the screen may start and stop it */
	/* a recording that failed: what the screen does (NULL: said on stderr, the run goes on) */
	void (*rec_failed)(void *ctx);
	void *rec_failed_ctx;
	struct history *hist;          /* the screen's history */
	struct run_cmd *cmd;           /* the command run under pmutop: its summary at the end */
};

struct sink_kind {
	const char *name;
	/* A sink of this kind for the run C, or NULL when the run has none. */
	struct sink *(*make)(const struct sink_ctx *c);
};

extern const struct sink_kind sink_print, sink_summary, sink_record, sink_serve, sink_history;

#define SINKS_MAX 8

struct sinks {
	struct sink *k[SINKS_MAX];
	const struct sink_kind *kind[SINKS_MAX];
	int n;
	long fed;                      /* samples fed */
};

/* Every kind of the registry the run C wants, in registry order, into OUT. */
void sinks_build(const struct sink_ctx *c, struct sinks *out);
/* Feed every sink; the first non-zero status (every sink is fed regardless). */
int sinks_sample(struct sinks *ks, const struct sample *s);
int sinks_mark(struct sinks *ks, const struct mark *mk);
int sinks_groups(struct sinks *ks, double time, layout_groups groups);
int sinks_interval(struct sinks *ks, double time, double seconds);
int sinks_end(struct sinks *ks);
void sinks_free(struct sinks *ks);

#endif
