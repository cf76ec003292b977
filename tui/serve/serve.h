/*
 * serve: pmutop's figures over HTTP (libmicrohttpd), for Prometheus, for
 * scripts and for viewers (viewer.h).
 *
 * Endpoints (GET or HEAD; anything else 405, a request body 413, headers
 * over SERVE_HEADER_MAX 431, an unknown path 404):
 *   /metrics               Prometheus text 0.0.4, OpenMetrics 1.0 when the
 *                          Accept header asks (prom.h)
 *   /api/v1/sample         the latest sample as the batch JSON line
 *   /api/v1/topology       sockets, cores, threads, NUMA nodes
 *   /api/v1/layout         groups, events, metrics (with their exported names)
 *   /api/v1/stream         a viewer's start: the recording header (record.h)
 *   /api/v1/stream/next?after=SEQ
 *                          the first sample after SEQ as a recording line;
 *                          waits (the connection suspended, no thread held)
 *                          until there is one, at most SERVE_POLL_S (then
 *                          204: ask again), at most SERVE_MAX_WAITING at
 *                          once (then 503); 400 for an SEQ that is not a
 *                          number or past the latest sample; 503 once the
 *                          owner is ending
 *
 * Threads: libmicrohttpd's own (SERVE_THREADS per listening socket) answer
 * requests; they only read immutable snapshots (the latest sample, the
 * running totals, texts rendered from them once, on first demand), taken
 * under a mutex held for a pointer swap.  The sampler is never involved and
 * never waits; the main thread publishes each sample with serve_publish.
 * Memory is bounded: one snapshot is current (older ones live while a
 * response still sends them), SERVE_MAX_CONNECTIONS connections,
 * SERVE_PER_ADDRESS_MAX of them from one remote client address and
 * SERVE_PER_USER_MAX from one user of this machine (whichever loopback
 * address or the local socket it comes through: serve_peer.h); idle
 * clients are dropped after SERVE_TIMEOUT_S, slow ones when their request
 * head or their answer misses its deadline, and past SERVE_ROOM the oldest
 * half-sent request makes room for a new client (serve_guard.h).  Wrong
 * passwords are throttled per address (serve_auth.h).
 *
 * Listening: a TCP address ([ADDR:]PORT, 127.0.0.1 unless another address
 * is given), optionally TLS (certificate and key files, libmicrohttpd's
 * GnuTLS) and basic authentication (a file of user:crypt(3)-hash lines);
 * and/or a local socket (a path, mode 0660, an optional group) for viewers
 * on the same machine, which file permissions guard.  serve_start runs on
 * the main thread (before privileges are dropped: low ports, key files,
 * /run/lock); serve_publish and serve_stop likewise.
 */
#ifndef PMUTOP_SERVE_H
#define PMUTOP_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "prom.h"
#include "record.h"

#define SERVE_MAX_CONNECTIONS 1024
#define SERVE_TIMEOUT_S 10
#define SERVE_HEADER_MAX (32 * 1024)
#define SERVE_THREADS 2
#define SERVE_PER_ADDRESS_MAX 64 /* connections of one remote client address at once */
#define SERVE_PER_USER_MAX 32    /* of one user of this machine (loopback, the local socket) */
/* connections past which the oldest half-sent request head makes room for a new client */
#define SERVE_ROOM (SERVE_MAX_CONNECTIONS - SERVE_PER_ADDRESS_MAX)
/* a viewer's wait for the next sample, and how many may wait at once */
#define SERVE_POLL_S 15
#define SERVE_MAX_WAITING (SERVE_MAX_CONNECTIONS / 4)

struct serve_config {
	const char *listen;      /* "[ADDR:]PORT", or NULL: no TCP */
	const char *tls_cert, *tls_key; /* PEM files, both or neither */
	const char *auth_file;   /* user:HASH lines, or NULL: no authentication */
	const char *local_path;  /* the viewers' local socket, or NULL */
	const char *local_group; /* its group (name or number), or NULL: the owner's */
	const struct record_about *about; /* the run, for viewers and /api/v1/topology */
	const struct prom_about *prom;
};

struct serve;

/*
 * Listen where C says and start answering.  0, or -errno with one line in
 * ERR (-EINVAL: an address, file or option the user can fix).  A local
 * socket that cannot be made is not an error of the run: WARN (may be NULL)
 * says why and the rest goes on.
 */
int serve_start(const struct serve_config *c, struct serve **out, char *err, size_t errlen,
		char *warn, size_t warnlen);

/* "http://127.0.0.1:9464" (https with TLS), "" without TCP. */
const char *serve_url(const struct serve *srv);

/* Sample S is the latest (the server takes a reference).  Main thread. */
void serve_publish(struct serve *srv, const struct sample *s);

/*
 * End: waiting viewers are told WHY (the owner quit, ...), the sockets
 * closed (the local one removed), everything freed.  NULL is nothing.
 */
void serve_stop(struct serve *srv, const char *why);

#endif
