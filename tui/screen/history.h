/*
 * history: the last samples' figures, for the sparklines of the screen.
 *
 * Two rings of slots, one per sample: every metric of every thread, core
 * and socket (as many slots as fit in HISTORY_ROW_BYTES: a 16-thread
 * machine keeps 256 samples, a 1024-thread one about 40), and every metric
 * of every socket and memory channel (HISTORY_WIDE slots, for the wide
 * history lines of the uncore and IMC panes).  A value that was not
 * measured (its group off or blocked, a CPU n/a) is a gap, never 0; each
 * slot keeps its time, so interval changes show on the time axis.  Phase
 * marks keep their times.  UI thread.
 */
#ifndef PMUTOP_HISTORY_H
#define PMUTOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"

#define HISTORY_WIDE 512
#define HISTORY_ROWS_MAX 256
#define HISTORY_ROW_BYTES (16u << 20)
#define HISTORY_MARKS 64

enum history_kind { HISTORY_THREAD, HISTORY_CORE, HISTORY_SOCKET, HISTORY_CHANNEL };

struct history;

struct history *history_new(void);
void history_free(struct history *h);

/* Take sample S in (a sample of another layout or shape starts the history afresh). */
void history_add(struct history *h, const struct sample *s);

/* A phase mark at wall-clock time T. */
void history_mark(struct history *h, double t, const char *text);

/* Slots kept for KIND (threads, cores and sockets share one ring; channels the wide one). */
int history_len(const struct history *h, enum history_kind kind, bool wide);

/*
 * Metric M of entity I of KIND, BACK samples before the newest (0: the
 * newest), from the row ring or (WIDE) the socket/channel ring; NaN for a
 * gap or beyond what is kept.
 */
double history_value(const struct history *h, enum history_kind kind, bool wide, int i, int m,
		     int back);

/* Wall-clock time of the sample BACK before the newest (NaN beyond what is kept). */
double history_time(const struct history *h, bool wide, int back);

/* Seconds the newest N samples cover (the sum of their intervals). */
double history_span(const struct history *h, bool wide, int n);

/* Marks between wall-clock times T0 (excluded) and T1: how many, the newest's text. */
int history_marks_in(const struct history *h, double t0, double t1, const char **last);

/*
 * The last W values of metric M of entity I as sparkline levels, oldest
 * first, into LV[W]: 0 to 7 on a scale from 0 to MAX (the largest value
 * shown when MAX <= 0), -1 for a gap.  Returns the largest value seen (NaN
 * when none); grid_spark draws them.
 */
double history_spark(const struct history *h, enum history_kind kind, bool wide, int i, int m,
		     int w, double max, signed char *lv);

#endif
