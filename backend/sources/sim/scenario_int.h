/*
 * scenario_int: the scenario parser's state and helpers, shared by
 * scenario.c (the file, phases and quantities) and scenario_task.c (the
 * tasks and their cgroups).  Not for any other module.  Main thread.
 */
#ifndef PMUTOP_SCENARIO_INT_H
#define PMUTOP_SCENARIO_INT_H

#include <stddef.h>

#include "scenario.h"

/* Parser state: one line at a time, columns are 1-based. */
struct scenario_parser {
	const char *file;
	int line;
	const char *bol; /* beginning of the current line */
	int nsettings;
	char *err;
	size_t errlen;
};

/* "FILE:LINE:COL: ..." into the parser's message; -EINVAL. */
int scenario_fail(struct scenario_parser *p, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *scenario_skip_blank(const char *s);
/* Copy the next blank-separated word at *S (advancing) into BUF; its length. */
size_t scenario_word(const char **s, char *buf, size_t len);
int scenario_number(struct scenario_parser *p, const char *at, const char *text, double *out);

/* "task PID CGROUP key=value ..." (scenario_task.c), the rest of the line at S. */
int scenario_task_line(struct scenario_parser *p, struct scenario *sc, const char *s);
void scenario_free_tasks(struct scenario *sc);

#endif
