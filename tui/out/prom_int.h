/*
 * prom_int: what prom.c and prom_stable.c share: the context every series
 * is written in, a family's HELP and TYPE lines, a label value escaped.
 * Not for other files.
 */
#ifndef PMUTOP_PROM_INT_H
#define PMUTOP_PROM_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "frontend.h"

/* What every series carries: where it was measured, from what. */
struct prom_ctx {
	FILE *out;
	const struct sample *s;
	bool om;
	char source[32];
	long series;            /* written so far: the scrape says how many (pmutop_scrape_series) */
};

/* A family's "# HELP" and "# TYPE" lines (OpenMetrics: a counter named without _total). */
void prom_family(struct prom_ctx *c, const char *name, const char *type, const char *help,
		 const char *unit_note);
/* RAW as a label value (backslash, quote and newline escaped; made clean UTF-8). */
void prom_label_value(FILE *out, const char *raw);
/* The stable families (figure.h), per socket, channel and link (prom_stable.c). */
void prom_figures(struct prom_ctx *c);
/* The interval's thermal throttling per socket (prom_stable.c): pmutop_throttle_ratio and _events. */
void prom_throttle(struct prom_ctx *c);

#endif
