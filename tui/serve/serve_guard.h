/*
 * serve_guard: deadlines for the server's connections (serve.h), which
 * libmicrohttpd's own timeout (SERVE_TIMEOUT_S of inactivity) does not
 * give: a client that sends its request head a line at a time, or reads
 * its answer a byte at a time, is never inactive long enough to be
 * dropped, and a thousand of them would hold every connection slot.
 *
 *  - the request head (the request line and every header) must have
 *    arrived SERVE_HEAD_DEADLINE_S after the connection (or the previous
 *    request on it) began;
 *  - an answer must have left SERVE_SEND_DEADLINE_S after its request's
 *    head arrived (a viewer's wait for the next sample, suspended, is not
 *    counted: it has its own deadline in serve.c);
 * a connection past its deadline is shut down (shutdown(2) on its socket:
 * libmicrohttpd then closes it as if the client had).  And each client is
 * held to its share when its connection starts: a user of this machine to
 * SERVE_PER_USER_MAX connections at once through any loopback address or
 * the local socket, a remote address (and root's, and the user's pmutop
 * runs for, at each loopback address) to SERVE_PER_ADDRESS_MAX; past SERVE_ROOM connections the oldest
 * one still in its request head (but not one whose whole head waits unread) is shut to
 * make room (serve.h).  A watchdog thread
 * looks twice a second and also calls the owner's TICK (serve.c expires
 * viewers' waits there).  Connections are tracked from libmicrohttpd's
 * connection notifications (serve_guard_notify), in any of its threads.
 */
#ifndef PMUTOP_SERVE_GUARD_H
#define PMUTOP_SERVE_GUARD_H

#include <microhttpd.h>
#include <stdbool.h>

#define SERVE_HEAD_DEADLINE_S 10
#define SERVE_SEND_DEADLINE_S 60

struct serve_guard;
struct serve_conn;

/* Start the watchdog; TICK(CTX) runs on it twice a second (NULL: none). */
struct serve_guard *serve_guard_new(void (*tick)(void *ctx), void *ctx);

/* For MHD_OPTION_NOTIFY_CONNECTION, with the guard as its closure. */
void serve_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			enum MHD_ConnectionNotificationCode toe);

/*
 * Track the connection just accepted on socket FD (serve_guard_notify does,
 * at its start): held to its client's share, and making room, at once (it
 * may be shut down already); serve_guard_remove when it closes.
 */
struct serve_conn *serve_guard_add(struct serve_guard *g, int fd);
void serve_guard_remove(struct serve_guard *g, struct serve_conn *c);

/* CONN's request head has arrived (the access handler's first call). */
void serve_guard_head_done(struct MHD_Connection *conn);

/* CONN waits suspended (WAITING) for a sample, or goes on. */
void serve_guard_waiting(struct MHD_Connection *conn, bool waiting);

/* CONN's request is answered: a next one on it starts its head's deadline now. */
void serve_guard_request_done(struct MHD_Connection *conn);

/* Stop the watchdog (call before the daemons stop); then serve_guard_free after them. */
void serve_guard_stop(struct serve_guard *g);
void serve_guard_free(struct serve_guard *g);

#endif
