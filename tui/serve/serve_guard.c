/*
 * serve_guard: connection deadlines.  See serve_guard.h.
 *
 * libmicrohttpd notifies a connection's start before it reads from it and
 * its end before it closes its socket, so the descriptor a tracked
 * connection holds is valid while the guard's mutex is held: the
 * watchdog's shutdown(2) never reaches a descriptor already reused.
 */
#define _GNU_SOURCE /* memmem */
#include "serve_guard.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "frontend.h"
#include "serve.h"
#include "serve_peer.h"

struct serve_conn {
	struct serve_guard *g;
	struct serve_conn *prev, *next;
	int fd;
	double since;        /* when the current head, or answer, began */
	bool in_head;        /* its request head has not arrived yet */
	bool waiting;        /* suspended until a sample (no send deadline) */
	bool shut;           /* shut down already */
	bool counted;        /* held against its client's limit (refused ones are not) */
	struct serve_peer peer; /* its client: a local user, or an address */
};

struct serve_guard {
	pthread_mutex_t mu;  /* the list, the connections' fields, stop */
	pthread_cond_t cv;
	struct serve_conn *head;
	pthread_t thread;
	bool started, stop;
	int live;            /* connections counted, not shut down */
	void (*tick)(void *ctx);
	void *ctx;
};

static double serve_guard_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The tracked connection of CONN, or NULL. */
static struct serve_conn *serve_guard_conn(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* Shut C down now (G's mutex held): libmicrohttpd closes it as if the client had. */
static void serve_guard_shut(struct serve_guard *g, struct serve_conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	if (c->counted && !c->shut)
		g->live--;
	c->shut = true;
}

/*
 * Whether the request head of C's client waits whole in C's socket, unread:
 * the blank line that ends a head is among its first SERVE_HEADER_MAX bytes.
 */
static bool serve_guard_head_waits(const struct serve_conn *c, char buf[SERVE_HEADER_MAX])
{
	static const char end[] = "\r\n\r\n";
	int unread = 0;
	ssize_t n;

	if (ioctl(c->fd, FIONREAD, &unread) != 0 || unread < (int)sizeof(end) - 1)
		return false;
	n = recv(c->fd, buf, SERVE_HEADER_MAX, MSG_PEEK | MSG_DONTWAIT);
	return n > 0 && memmem(buf, (size_t)n, end, sizeof(end) - 1);
}

static int serve_guard_by_age(const void *a, const void *b)
{
	const struct serve_conn *x = *(struct serve_conn *const *)a, *y = *(struct serve_conn *const *)b;

	return (x->since > y->since) - (x->since < y->since);
}

/*
 * The connection that the new connection C shuts to make room (G's mutex
 * held), one of C's own client's when MINE, else anyone's: the oldest still
 * in its request head, passing over one whose whole head waits unread in its
 * socket (a complete request the server has not read yet: during a flood
 * that reopens its connections as fast as they are shut, a scrape accepted
 * a moment before was the oldest of its address's and was shut before its
 * head was read, one of 15 in a CI run).  A half-sent head that waits
 * unread is no reason to pass one over: once every one of a flood's four
 * oldest had its bytes unread, none was shut and the scrape, the newcomer,
 * was refused instead (CI, under ASan).  NULL: none to shut.
 */
static struct serve_conn *serve_guard_victim(struct serve_guard *g, const struct serve_conn *c,
					     bool mine)
{
	struct serve_conn **set, *v = NULL;
	size_t n = 0, cap = 0;
	char *buf = NULL;

	for (struct serve_conn *o = g->head; o; o = o->next)
		cap++;
	set = xcalloc(cap ? cap : 1, sizeof(*set));
	for (struct serve_conn *o = g->head; o; o = o->next)
		if (o != c && !o->shut && o->counted && o->in_head && !o->waiting &&
		    (!mine || serve_peer_same(&o->peer, &c->peer)))
			set[n++] = o;
	qsort(set, n, sizeof(*set), serve_guard_by_age);
	if (n)
		buf = xmalloc(SERVE_HEADER_MAX);
	for (size_t i = 0; i < n && !v; i++)
		if (!serve_guard_head_waits(set[i], buf))
			v = set[i];
	free(buf);
	free(set);
	return v;
}

/*
 * The new connection C against its client's limit (G's mutex held): one
 * local user (whatever loopback address it comes from) holds at most
 * SERVE_PER_USER_MAX, one remote address SERVE_PER_ADDRESS_MAX.  A client
 * at its limit loses its own oldest connection still sending its request
 * head to the new one (a client that keeps half-sent requests open, a
 * flood, only ever holds its share, and a complete request from the same
 * place still gets in), and when none of them is stalled in its head the
 * new one is shut at once.  When the server is nearly full, the oldest
 * half-sent request of anyone makes room, so that a complete request
 * always finds a place.
 */
static void serve_guard_admit(struct serve_guard *g, struct serve_conn *c)
{
	int same = 0, max = c->peer.local ? SERVE_PER_USER_MAX : SERVE_PER_ADDRESS_MAX;

	if (!c->counted)
		return;
	for (struct serve_conn *o = g->head; o; o = o->next)
		if (!o->shut && o->counted)
			same += serve_peer_same(&o->peer, &c->peer);
	if (same >= max) {
		struct serve_conn *own = serve_guard_victim(g, c, true);

		if (!own) {
			shutdown(c->fd, SHUT_RDWR);
			c->shut = true;
			return;
		}
		serve_guard_shut(g, own);
	}
	g->live++;
	if (g->live > SERVE_ROOM) {
		struct serve_conn *oldest = serve_guard_victim(g, c, false);

		if (oldest)
			serve_guard_shut(g, oldest);
	}
}

static void *serve_guard_watch(void *arg)
{
	struct serve_guard *g = arg;

	pthread_mutex_lock(&g->mu);
	while (!g->stop) {
		struct timespec ts;
		double now = serve_guard_now();

		for (struct serve_conn *c = g->head; c; c = c->next) {
			double limit = c->in_head ? SERVE_HEAD_DEADLINE_S : SERVE_SEND_DEADLINE_S;

			if (c->shut || c->waiting || now - c->since < limit)
				continue;
			serve_guard_shut(g, c);
		}
		if (g->tick) {
			pthread_mutex_unlock(&g->mu);
			g->tick(g->ctx);
			pthread_mutex_lock(&g->mu);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 500000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		if (!g->stop)
			pthread_cond_timedwait(&g->cv, &g->mu, &ts);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

struct serve_guard *serve_guard_new(void (*tick)(void *ctx), void *ctx)
{
	struct serve_guard *g = xcalloc(1, sizeof(*g));

	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->tick = tick;
	g->ctx = ctx;
	g->started = pthread_create(&g->thread, NULL, serve_guard_watch, g) == 0;
	return g;
}

struct serve_conn *serve_guard_add(struct serve_guard *g, int fd)
{
	struct serve_conn *c = xcalloc(1, sizeof(*c));

	c->g = g;
	c->fd = fd;
	c->since = serve_guard_now();
	c->in_head = true;
	c->counted = serve_peer_of(c->fd, &c->peer) == 0;
	pthread_mutex_lock(&g->mu);
	serve_guard_admit(g, c);
	c->next = g->head;
	if (g->head)
		g->head->prev = c;
	g->head = c;
	pthread_mutex_unlock(&g->mu);
	return c;
}

void serve_guard_remove(struct serve_guard *g, struct serve_conn *c)
{
	pthread_mutex_lock(&g->mu);
	if (c->counted && !c->shut)
		g->live--;
	if (c->prev)
		c->prev->next = c->next;
	else
		g->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	pthread_mutex_unlock(&g->mu);
	free(c);
}

void serve_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			enum MHD_ConnectionNotificationCode toe)
{
	struct serve_guard *g = cls;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fi =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		if (fi)
			*socket_context = serve_guard_add(g, fi->connect_fd);
		return;
	}
	if (*socket_context)
		serve_guard_remove(g, *socket_context);
	*socket_context = NULL;
}

/* Set CONN's state: in its head or not, waiting or not, its clock restarted. */
static void serve_guard_set(struct MHD_Connection *conn, bool in_head, bool waiting)
{
	struct serve_conn *c = serve_guard_conn(conn);

	if (!c)
		return;
	pthread_mutex_lock(&c->g->mu);
	c->in_head = in_head;
	c->waiting = waiting;
	c->since = serve_guard_now();
	pthread_mutex_unlock(&c->g->mu);
}

void serve_guard_head_done(struct MHD_Connection *conn)
{
	serve_guard_set(conn, false, false);
}

void serve_guard_waiting(struct MHD_Connection *conn, bool waiting)
{
	serve_guard_set(conn, false, waiting);
}

void serve_guard_request_done(struct MHD_Connection *conn)
{
	serve_guard_set(conn, true, false);
}

void serve_guard_stop(struct serve_guard *g)
{
	if (!g || !g->started)
		return;
	pthread_mutex_lock(&g->mu);
	g->stop = true;
	pthread_cond_signal(&g->cv);
	pthread_mutex_unlock(&g->mu);
	pthread_join(g->thread, NULL);
	g->started = false;
}

void serve_guard_free(struct serve_guard *g)
{
	if (!g)
		return;
	serve_guard_stop(g);
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
}
