/*
 * layout_build: a layout made by calls, not from a file (the layouts pmutop
 * makes from the vendors' data: perfmon_layout.c, perfmon_uncore.c,
 * perfmon_own.c).  Each call is one line of the layout language
 * (layouts/README.md) with typed arguments: the builder hands its words to
 * the parser's own checks (layout_int.h: the same rules, the same messages
 * as a file's line) and applies it at once, so a generator never writes the
 * language's syntax (keywords, quoting, indentation) and a bad line fails at
 * the call that made it.  The builder also writes each line, quoting its
 * texts, so the made layout has its text (struct layout.text: what a
 * recording keeps and replay parses) and the whole of it with its comments
 * (what --list-metrics --plan layout prints).  The first failure is kept and
 * later calls do nothing; layout_build_finish says it.  Main thread.
 */
#ifndef PMUTOP_LAYOUT_BUILD_H
#define PMUTOP_LAYOUT_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"

struct layout_build;

/* A new layout of FILE (the name its messages give), its version line written. */
struct layout_build *layout_build_new(const char *file);

/* A comment line ("# TEXT", each line of TEXT one) at the place's indentation; a blank line. */
void layout_build_comment(struct layout_build *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void layout_build_blank(struct layout_build *b);

/* The header: "layout NAME", "description TEXT", "vendor intel|amd", "offcore A B" (NULL: none). */
void layout_build_name(struct layout_build *b, const char *name);
void layout_build_description(struct layout_build *b, const char *text);
void layout_build_vendor(struct layout_build *b, bool amd);
void layout_build_offcore(struct layout_build *b, const unsigned *codes);

/* "metric NAME SCOPE UNIT = FORMULA" (in the open group, or outside any). */
void layout_build_metric(struct layout_build *b, const char *name, enum layout_scope scope,
			 const char *unit, const char *formula);
/* "unavailable NAME SCOPE UNIT WHY": a metric never counted here, and why. */
void layout_build_unavailable(struct layout_build *b, const char *name, enum layout_scope scope,
			      const char *unit, const char *why);
/* The last metric's (else the open group's) "help TEXT". */
void layout_build_help(struct layout_build *b, const char *text);
/* The last metric's "tree PARENT LEVEL POS" (PARENT NULL: a root), "threshold [own:] FORMULA". */
void layout_build_tree(struct layout_build *b, const char *parent, int level, int pos);
void layout_build_threshold(struct layout_build *b, bool own, const char *formula);
/* The last metric's colours: "thresholds warn W crit C". */
void layout_build_thresholds(struct layout_build *b, double warn, double crit);

/* "group NAME" (a blank line before it) and the open group's lines, to its "end". */
void layout_build_group(struct layout_build *b, const char *name);
void layout_build_key(struct layout_build *b, char key);
void layout_build_title(struct layout_build *b, const char *text);
void layout_build_default(struct layout_build *b, bool on);
void layout_build_pmu(struct layout_build *b, enum layout_pmu pmu);
void layout_build_coretype(struct layout_build *b, enum layout_coretype type);
void layout_build_reads(struct layout_build *b, const char *const *groups, int n);
void layout_build_end(struct layout_build *b);

/* An event in its raw encoding: "event NAME raw event=... [...]". */
struct layout_build_event {
	const char *name;
	unsigned event;
	uint64_t umask;
	unsigned cmask;            /* 0: none */
	bool inv, edge, eq;
	bool any_sum;              /* any=1 sum: the core's count, summed over its threads */
	const char *ring;          /* "user" or "kernel" alone; NULL: the run's */
	bool has_offcore, has_frontend, has_filter1;
	uint64_t offcore, frontend, filter1;
	uint32_t counters;         /* the general-purpose counters it may use; 0: any */
	bool has_channel, has_box;
	int channel, box;
};
void layout_build_event(struct layout_build *b, const struct layout_build_event *e);

/*
 * The lines of a layout file's TEXT (pmutop's own groups, layouts/own), parsed
 * as they stand in the layout.  Its first line follows the builder's last.
 */
void layout_build_text(struct layout_build *b, const char *text);

/* The groups opened so far (a dry run counts what a layout would take). */
int layout_build_groups(const struct layout_build *b);

/*
 * The end: the tree linked, the formulas' variables resolved.  0 with *OUT
 * (NULL: not wanted) and *TEXT (every line with its comments, NULL: not
 * wanted; free it), or -errno with ERR ("FILE:LINE:COL: expected ...", the
 * line as the text has it).  B is freed either way.
 */
int layout_build_finish(struct layout_build *b, struct layout **out, char **text, char *err,
			size_t errlen);

#endif
