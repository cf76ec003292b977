/*
 * replay: read a recording (record.h) back, one item at a time: samples
 * rebuilt with every metric computed again from the recorded inputs
 * (sample_recompute), phase marks, and the changes of groups and interval.
 *
 * Bad input of any kind (not a recording, another format version, a line
 * that is not JSON or lacks what the format has, a number out of range, a
 * line over REPLAY_LINE_MAX) is one message with the line and byte offset;
 * memory stays bounded by one line.  A last line cut short (a crash, a
 * full disk) is not an error: replay_trailing() says how many bytes were
 * ignored.  Any machine replays any recording: no counters, no root.
 * Main/UI thread.
 */
#ifndef PMUTOP_REPLAY_H
#define PMUTOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "marks.h"

#define REPLAY_LINE_MAX (64L << 20)

struct replay;

/* What the header says. */
struct replay_about {
	const char *host, *created, *version, *source, *brand, *uarch, *topology;
	const char *topology_xml;   /* the machine as hwloc XML, or NULL (an older header) */
	bool simulated;
	unsigned gp_counters, perfmon_version;
	double interval_s;
	const struct layout *layout;
	const char *layout_text;    /* the layout as the header carries it */
};

enum replay_kind { REPLAY_END, REPLAY_SAMPLE, REPLAY_MARK, REPLAY_GROUPS, REPLAY_INTERVAL };

struct replay_item {
	enum replay_kind kind;
	struct sample *sample;      /* REPLAY_SAMPLE: the caller releases it */
	struct mark mark;           /* REPLAY_MARK */
	double interval;            /* REPLAY_INTERVAL */
	double time;                /* the item's wall-clock time */
	long offset, line;          /* where its line starts (byte, uncompressed) and its number */
};

/* Open PATH and read its header.  0, or -errno (-EINVAL: bad input) with one line in ERR. */
int replay_open(const char *path, struct replay **out, char *err, size_t errlen);

const struct replay_about *replay_about(const struct replay *r);

/* The next item into IT.  0 (IT->kind END at the end), or -EINVAL with one line in ERR. */
int replay_next(struct replay *r, struct replay_item *it, char *err, size_t errlen);

/*
 * A stream without a file (a viewer's, viewer.h): HEADER is its first line
 * (LEN bytes), NAME names it in messages; replay_parse takes each further
 * line.  Same returns as replay_open and replay_next (replay_next itself
 * has nothing to read).
 */
int replay_open_text(const char *name, const char *header, size_t len, struct replay **out,
		     char *err, size_t errlen);
int replay_parse(struct replay *r, const char *text, size_t len, struct replay_item *it,
		 char *err, size_t errlen);

/*
 * The machine of A (its hwloc XML, else its synthetic description) into
 * *OUT (topo_free it), NAME in messages.  0, or -errno with one line in ERR.
 */
int replay_topo(const struct replay_about *a, const char *name, struct topo **out, char *err,
		size_t errlen);

/* Read on from the line that starts at byte OFFSET, line number LINE (an item's). */
int replay_seek(struct replay *r, long offset, long line);

/* Bytes of a last line cut short, ignored (0 when the file ended with a whole line). */
long replay_trailing(const struct replay *r);

void replay_close(struct replay *r);

#endif
