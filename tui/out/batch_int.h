/*
 * batch_int: the batch formats' parts that live in their own files
 * (batch_who.c: who uses the machine; batch_chas.c: the CHAs one by one),
 * for batch.c alone.  Main thread.
 */
#ifndef PMUTOP_BATCH_INT_H
#define PMUTOP_BATCH_INT_H

#include <stdio.h>

#include "frontend.h"

/* The "# who" lines of S (none when S has no who figures). */
void batch_who_text(const struct sample *s, FILE *out);
/* The who_* CSV columns (after the others), empty ones for a machine row, and S's who rows. */
void batch_who_csv_header(const struct sample *s, FILE *out);
void batch_who_csv_empty(const struct sample *s, FILE *out);
/* Each row: BEFORE (seq to skew_us, as text), its scope, then METRIC_COLS empty columns and its own. */
void batch_who_csv_rows(const struct sample *s, const char *before, int metric_cols, FILE *out);
/* {"available", "note", "cgroups": [...], "processes": [...]}, or NULL without who figures. */
struct json_t;
struct json_t *batch_who_json(const struct sample *s);
/* Socket I's CHAs one by one: [{"cha": N, "metrics": {the CHA groups' figures}}, ...]. */
struct json_t *batch_json_chas(const struct sample *s, int i);
/* V to the batch formats' significant digits. */
double batch_round(double v);

#endif
