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

/* The first line of every layout (the language's version). */
#define LAYOUT_VERSION_LINE "pmutop-layout 1"
#define LAYOUT_MAX_TOKENS 32
/* metric variables while parsing, before the number of events is known */
#define LAYOUT_METRIC_TAG (1 << 24)

struct layout_token {
	const char *at;   /* in the line, for the column */
	char *text;       /* unquoted copy */
};

struct layout_block;

struct layout_parser {
	const char *file;         /* the file whose lines are parsed now (an included one's too) */
	const char *top_file;     /* the file layout_parse was given */
	int line;
	const char *bol;
	char *err;
	size_t errlen;
	struct layout *l;
	int group;        /* open group, -1 */
	int last_metric;  /* for "help" lines, -1 */
	struct layout_token tok[LAYOUT_MAX_TOKENS];
	int ntok;
	bool seen_version;        /* the version line of the file parsed now */
	bool part;                /* a part (layout_parse_part): pmutop's own groups */
	bool in_include;          /* parsing an included layout */
	bool skip;                /* skipping a group to its 'end' (replaced or dropped) */
	bool own_items;           /* the including file has defined a metric or a group */
	struct layout_block *blocks; /* the top file's groups and drops (layout_include.c) */
	int nblocks;
	/* the layout as one self-contained text: every line parsed, includes spliced in */
	char *flat;
	size_t flat_len, flat_cap;
	/* expression lookup context */
	const char *why;
	char whybuf[200];
	enum layout_scope scope;
	layout_groups uses;            /* groups a formula read so far (layout_lookup) */
};

/* FILE:LINE:COL: expected FMT... (every message says what was expected there).  -EINVAL. */
int layout_fail(struct layout_parser *p, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Letters, digits, '_' and '.', starting with a letter or '_'. */
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

/*
 * Parse the lines of TEXT (the file p->file, counting from p->line);
 * ONE_GROUP: only the group whose 'group' line comes first, up to its end.
 */
int layout_lines(struct layout_parser *p, const char *text, bool one_group);
/* What every file must have by its end (the version line, its groups closed). */
int layout_end_of_file(struct layout_parser *p, const char *text);

/* A parser of FILE (PART: a part, layout_parse_part's) with a new, empty layout. */
void layout_parser_init(struct layout_parser *p, const char *file, bool part, char *err,
			size_t errlen);
/*
 * After the last line (RC: the lines' result): the tree, the names, the
 * formulas' variables; *OUT the layout, or -errno with p->err (the layout
 * freed either way on failure).
 */
int layout_parser_finish(struct layout_parser *p, int rc, struct layout **out);
/* The line [S, EOL) is printable UTF-8 (not a control character but its CRLF end). */
int layout_check_text(struct layout_parser *p, const char *s, const char *e);
/* One line of the file parsed now, [S, EOL), whose words are in p->tok (layout_build.c sets them). */
int layout_line(struct layout_parser *p, const char *s, const char *eol);
/* Free p->tok's words. */
void layout_free_tokens(struct layout_parser *p);

/* layout_parse, or layout_parse_part when PART (no thread metric wanted). */
int layout_parse_as(const char *text, const char *file, bool part, struct layout **out, char *err,
		    size_t errlen);
/* A group's "reads GROUP..." line (layout_tree.c). */
int layout_group_reads(struct layout_parser *p);

/* include (layout_include.c): the top file's groups and drops found before it is parsed. */
void layout_include_scan(struct layout_parser *p, const char *text);
/* An 'include NAME' line; a 'drop NAME' line. */
int layout_include(struct layout_parser *p);
int layout_include_drop(struct layout_parser *p);
/* A top-level 'group NAME' line: *HANDLED when it is replaced, dropped or already parsed. */
int layout_include_group(struct layout_parser *p, bool *handled);
/* Whether a top-level 'group NAME' line is replaced, dropped or already parsed (not its text). */
bool layout_include_replaces(struct layout_parser *p);
/* After the top file: every drop named an included group. */
int layout_include_check(struct layout_parser *p);

/* A top-level "group NAME" line; a line inside the open group (layout_group.c). */
int layout_group_open(struct layout_parser *p);
int layout_group_line(struct layout_parser *p, const char *eol);

/* The lines of layout_items.c. */
int layout_event(struct layout_parser *p);
int layout_metric(struct layout_parser *p, const char *eol);
int layout_thresholds(struct layout_parser *p);
/* A metric line's NAME (new) and SCOPE (tokens 1 and 2) into *SCOPE. */
int layout_name_scope(struct layout_parser *p, int *scope);
/* "tree PARENT LEVEL" and "threshold FORMULA" after a metric (layout_tree.c). */
int layout_tree_line(struct layout_parser *p, const char *eol);
/* "unavailable NAME SCOPE UNIT \"WHY\"": a metric never counted here. */
int layout_unavailable(struct layout_parser *p);
/* At the end: parents by name, thresholds compiled over every metric. */
int layout_resolve_tree(struct layout_parser *p);

/* An "offcore" line (layout_items.c). */
int layout_offcore(struct layout_parser *p);

/* The MSR_PERF_METRICS fields the metrics read (layout_topdown_fields's), walked once. */
unsigned layout_find_topdown_fields(const struct layout *l);

#endif
