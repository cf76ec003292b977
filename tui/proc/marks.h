/*
 * marks: phase markers.  A benchmark, a script or another shell says where
 * a phase begins ("warm-up done", "phase 2"), and pmutop shows the mark on
 * its history and in its output.
 *
 * Each running pmutop reads a FIFO, DIR/marks-PID, where DIR is
 * ${XDG_RUNTIME_DIR:-${TMPDIR:-/tmp}}/pmutop-UID (mode 0700, the user's
 * own, never a symlink); --mark looks there and in ${TMPDIR:-/tmp}/pmutop-UID
 * (a pmutop started through sudo has no XDG_RUNTIME_DIR).  A command run under pmutop finds it in PMUTOP_MARK_FIFO (echo
 * text > "$PMUTOP_MARK_FIFO"); `pmutop --mark TEXT` writes to every pmutop
 * of the user.  A line is one mark: control characters become '?', at most
 * MARKS_TEXT_MAX characters are kept, at most MARKS_PER_TAKE marks are
 * taken per call and the rest of a flood is counted and dropped, so
 * garbage or a flood never holds up the screen or the sampler (which runs
 * in its own thread anyway).  Main/UI thread.
 */
#ifndef PMUTOP_MARKS_H
#define PMUTOP_MARKS_H

#include <stddef.h>

#define MARKS_TEXT_MAX 120
#define MARKS_PER_TAKE 16

struct mark {
	double time;                   /* wall clock, seconds since the epoch */
	char text[MARKS_TEXT_MAX + 1];
};

struct marks;

/* Make and open this process's FIFO.  0, or -errno with one line in ERR. */
int marks_open(struct marks **out, char *err, size_t errlen);

const char *marks_path(const struct marks *m);

/* Readable when something arrived. */
int marks_fd(const struct marks *m);

/*
 * The marks that arrived (whole lines), at most MAX (<= MARKS_PER_TAKE),
 * into OUT; returns how many.  DROPPED (if not NULL) adds the marks of a
 * flood that were thrown away.
 */
int marks_take(struct marks *m, struct mark *out, int max, long *dropped);

/* Close and remove the FIFO. */
void marks_close(struct marks *m);

/*
 * pmutop --mark TEXT: write TEXT to the FIFO of every pmutop of this user
 * (or only PID's when PID > 0).  Returns how many received it (the first
 * MAX of their pids in PIDS), or -errno with one line in ERR (none is
 * running, TEXT is empty or too long).
 */
int marks_send(const char *text, int pid, int *pids, int max, char *err, size_t errlen);

#endif
