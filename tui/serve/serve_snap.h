/*
 * serve_snap: what the server (serve.h) answers from one sample: the
 * sample, the running totals up to it, and each text made from them
 * (Prometheus text, OpenMetrics, their gzip forms, the batch JSON, the
 * recording line), each rendered once, on the first request that wants
 * it, and shared by every other: 200 scrapes of a sample cost one
 * rendering.  Reference-counted: a response that still sends a text keeps
 * its snapshot alive after a newer one replaced it.  Any thread.
 */
#ifndef PMUTOP_SERVE_SNAP_H
#define PMUTOP_SERVE_SNAP_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "prom.h"

enum serve_kind {
	SERVE_METRICS, SERVE_OPENMETRICS, SERVE_JSON, SERVE_RECORD,
	SERVE_METRICS_GZ, SERVE_OPENMETRICS_GZ, /* the same, gzip-compressed (Accept-Encoding) */
	/* /metrics?detail=stable: the stable families and who alone, in the same four shapes */
	SERVE_STABLE, SERVE_OPENSTABLE, SERVE_STABLE_GZ, SERVE_OPENSTABLE_GZ,
	SERVE_NKINDS
};

struct serve_snap;

/* A snapshot of S (referenced) with the totals T (which it frees); one reference. */
struct serve_snap *serve_snap_new(const struct sample *s, struct prom_totals *t);

struct serve_snap *serve_snap_ref(struct serve_snap *sn);

/* Drop a reference (CLS: a snapshot, or NULL); the last frees it. */
void serve_snap_unref(void *cls);

const struct sample *serve_snap_sample(const struct serve_snap *sn);

/* Text K (its length in *LEN), made on first demand with ABOUT; NULL when it cannot be made. */
const char *serve_snap_get(struct serve_snap *sn, enum serve_kind k, const struct prom_about *about,
			   size_t *len);

/* Whether K is gzip-compressed; the kind it compresses. */
bool serve_kind_gz(enum serve_kind k);
enum serve_kind serve_kind_plain(enum serve_kind k);

#endif
