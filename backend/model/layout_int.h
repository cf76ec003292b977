/*
 * layout_int: the layout parser's state and helpers, shared by layout.c
 * (the file's structure: tokens, top-level lines, groups) and
 * layout_items.c (events, metrics, thresholds).  Not for any other module.
 * Main thread.
 */
#ifndef PMUTOP_LAYOUT_INT_H
#define PMUTOP_LAYOUT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"

#define LAYOUT_MAX_TOKENS 32
/* metric variables while parsing, before the number of events is known */
#define LAYOUT_METRIC_TAG (1 << 24)

struct layout_token {
	const char *at;   /* in the line, for the column */
	char *text;       /* unquoted copy */
};

struct layout_parser {
	const char *file;
	int line;
	const char *bol;
	char *err;
	size_t errlen;
	struct layout *l;
	int group;        /* open group, -1 */
	int last_metric;  /* for "help" lines, -1 */
	struct layout_token tok[LAYOUT_MAX_TOKENS];
	int ntok;
	/* expression lookup context */
	const char *why;
	char whybuf[200];
	enum layout_scope scope;
};

/* FILE:LINE:COL: expected FMT... (every message says what was expected there).  -EINVAL. */
int layout_fail(struct layout_parser *p, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Letters, digits and '_', not starting with a digit. */
bool layout_is_name(const char *s);
/* The line has MIN to MAX (-1: any) arguments, WHAT they are for the message. */
int layout_want_args(struct layout_parser *p, int min, int max, const char *what);
/* T is a name nothing else has yet. */
int layout_new_name(struct layout_parser *p, const struct layout_token *t);
/* S (in token T) is a number from 0 to MAX. */
int layout_number(struct layout_parser *p, const struct layout_token *t, const char *s,
		  uint64_t max, uint64_t *out);
int layout_double(struct layout_parser *p, const struct layout_token *t, double *out);
/* A "keyword TEXT" line into FIELD, once. */
int layout_set_string(struct layout_parser *p, char **field, const char *what);

/* The lines of layout_items.c. */
int layout_event(struct layout_parser *p);
int layout_metric(struct layout_parser *p, const char *eol);
int layout_thresholds(struct layout_parser *p);

#endif
