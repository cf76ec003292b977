/*
 * record: a run written as JSON lines (jansson), for replay (replay.h) on
 * any machine.  Format version RECORD_VERSION, in the man page:
 *
 *   line 1: {"pmutop_recording": 2, "pmutop_version", "host", "created",
 *            "source", "simulated", "cpu": {"brand", "uarch", "gp_counters",
 *            "perfmon_version"}, "topology": {"source", "sockets", "cores",
 *            "threads", "hwloc_xml"}, "interval_s", "builtins": [...], "layout": {"name",
 *            "file", "text"}, "events": [{"name", "group", "pmu", "evtsel",
 *            "offcore"}]}
 *   then one line per sample: {"seq", "time", "interval_s", "skew_us",
 *            "batched", "rotation_s", "groups": [[state, live_share, why]],
 *            "scaled": [metric index...], "inputs": [var index...] (the
 *            built-ins, then the variables of the events of the groups that
 *            counted, increasing), "raw_events": [event index...] (those
 *            events), "kinds": {TABLE: {"rows": [[index, core, socket,
 *            os_core_id, os_socket_id, [the inputs' values, as used], [the
 *            raw counts of raw_events]]], "per_socket" (a socket's part),
 *            "inputs" (a kind that keeps its own events' alone, no raw
 *            counts)}} for every kind of sample_kinds[] the sample stores
 *            (threads, cores, sockets; channels, chas where it has them),
 *            "who", "throttle" where asked, "flags":
 *            [[socket, channel, metric, why]], "warning", "error", "resets",
 *            "gp_usable", "gp_used", "unc_usable"}
 *   and, where they happened: {"mark", "time"}, {"groups_on": [names],
 *            "time"}, {"interval_set": s, "time"}.
 *
 * Version 1 (pmutop before this) had the kinds' rows at the top level
 * ("threads", "cores", "sockets", "channels" and "nchannels", the CHAs'
 * "boxes", "nboxes" and "box_inputs"); replay reads both.
 *
 * Metrics are not written: replay computes them from the inputs, as the
 * sampler did (sample_recompute), so explain and every metric work there.
 * Every line is one write(2) of a whole line (a crash leaves whole lines
 * and at most one cut line, which replay ignores and counts); a failed
 * write (disk full) stops the recording with a message and the run goes
 * on.  Main/UI thread.
 */
#ifndef PMUTOP_RECORD_H
#define PMUTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frontend.h"

#define RECORD_VERSION 2

struct record;

/* What the header says about the run. */
struct record_about {
	const char *host, *source, *brand, *uarch, *topology;
	bool simulated;
	unsigned gp_counters, perfmon_version;
	int sockets, cores, threads;
	double interval_s;
	const struct layout *layout;
	const char *layout_text;   /* the layout's text, or NULL: the parsed layout's own (layout.text) */
	const struct topo *topo;   /* exported as hwloc XML into the header, or NULL */
};

/*
 * Create PATH (mode 0644 under the umask; an existing file is replaced only
 * when it is this user's, has no other name and is empty or a recording; a
 * FIFO of this user's with a reader, or /dev/null-like sinks, are written
 * to; a link at PATH is never followed) and write the header.  0, or -errno with one line
 * in ERR when PATH cannot be made; a header that cannot be written (a full
 * disk) gives a stopped recording, which record_sample reports.
 */
int record_open(const char *path, const struct record_about *a, struct record **out, char *err,
		size_t errlen);

/*
 * The header line for A, and sample S's line, as text ending in a newline
 * (malloc'd; NULL when it cannot be made): what a viewer is sent.
 */
char *record_header_text(const struct record_about *a);
char *record_sample_text(const struct sample *s);

/* Write sample S.  0, or -errno: the recording stopped (record_error says why). */
int record_sample(struct record *r, const struct sample *s);

/* A phase mark, a change of the groups counted (a mask of layout groups), of the interval. */
int record_mark(struct record *r, double time, const char *text);
int record_groups(struct record *r, double time, layout_groups groups);
int record_interval(struct record *r, double time, double seconds);

const char *record_path(const struct record *r);
/* Samples written. */
long record_count(const struct record *r);
/* Why the recording stopped ("" while it goes on). */
const char *record_error(const struct record *r);

void record_close(struct record *r);

#endif
