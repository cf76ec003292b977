/*
 * viewer: another pmutop's figures, read-only, over HTTP (libcurl): the
 * local socket of the pmutop that owns the counters, or a remote --serve
 * (pmutop --connect HOST:PORT).
 *
 * The stream is the recording format (record.h): the header once
 * (/api/v1/stream: layout, machine, source), then each sample as the
 * owner published it (/api/v1/stream/next?after=SEQ, which waits for the
 * next), rebuilt by replay_parse with every metric computed again.  A fetch
 * thread does the waiting; the UI takes the newest sample when viewer_fd is
 * readable, so the screen never waits on the network.  The stream ends when
 * the owner says it ends (503 with its reason), or the connection is lost.
 * viewer_open and the rest: main/UI thread.
 */
#ifndef PMUTOP_VIEWER_H
#define PMUTOP_VIEWER_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "replay.h"

struct viewer;

/*
 * A password is checked by crypt(3) on the server, which takes fewer bytes
 * than this (libxcrypt's CRYPT_MAX_PASSPHRASE_SIZE).
 */
#define VIEWER_PASSWORD_MAX 512

struct viewer_config {
	const char *local_path;   /* the owner's local socket, or NULL */
	const char *url;          /* "HOST:PORT", "http(s)://HOST:PORT" (NULL with local_path) */
	const char *tls_ca;       /* a CA file for an https server's certificate, or NULL */
	const char *auth;         /* "USER:PASSWORD" for basic authentication, or NULL */
	double connect_timeout_s; /* for the first contact; 0: 5 s */
	/*
	 * For a local socket: whether the process at the other end (FD connected
	 * to it) may be shown as the owner of the counters; false with WHY.  Asked
	 * before any request is sent.  NULL: trust it.
	 */
	bool (*peer_ok)(int fd, void *ctx, char *why, size_t len);
	void *peer_ctx;
};

/*
 * Contact the server, read the stream's header, draw its machine, start the
 * fetch thread.  0, or -errno with one line in ERR: -ECONNREFUSED / -ENOENT
 * nobody listens, -EACCES the socket's permissions or a password, -EPERM
 * the peer_ok check refused the process there, -EINVAL not a pmutop there.
 */
int viewer_open(const struct viewer_config *c, struct viewer **out, char *err, size_t errlen);

const struct replay_about *viewer_about(const struct viewer *v);
const struct topo *viewer_topo(const struct viewer *v);
/* "pid 1234 on host" from the server's header, or the URL. */
const char *viewer_owner(const struct viewer *v);

/* Readable when a sample arrived or the stream ended. */
int viewer_fd(const struct viewer *v);

/*
 * The newest sample since the last call (the caller releases it), or NULL;
 * clears viewer_fd.
 */
const struct sample *viewer_take(struct viewer *v);

/* True once the stream has ended; WHY says how ("the owner quit", ...). */
bool viewer_ended(struct viewer *v, char *why, size_t len);

/* Stop the fetch thread, free everything.  NULL is nothing. */
void viewer_free(struct viewer *v);

#endif
