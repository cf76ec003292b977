/*
 * serve_guard: connection deadlines.  See serve_guard.h.
 *
 * libmicrohttpd notifies a connection's start before it reads from it and
 * its end before it closes its socket, so the descriptor a tracked
 * connection holds is valid while the guard's mutex is held: the
 * watchdog's shutdown(2) never reaches a descriptor already reused.
 */
#include "serve_guard.h"

#include <pthread.h>
#include <stdlib.h>
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

/* Connections passed over, at most, in a search for one to shut (serve_guard_victim). */
#define SERVE_GUARD_TRIES 4

static bool serve_guard_in(struct serve_conn *const *set, int n, const struct serve_conn *c)
{
	for (int i = 0; i < n; i++)
		if (set[i] == c)
			return true;
	return false;
}

/*
 * The oldest connection still in its request head that the new connection
 * C may shut (G's mutex held): one of C's own client's when MINE, else
 * anyone's.  One whose bytes wait unread in its socket is passed over (its
 * head is arriving and the server has not read it yet): during a flood that
 * reopens its connections as fast as they are shut, a scrape accepted a
 * moment before was the oldest of its address's and was shut before its
 * head was read (one of 15 in a CI run).  The next oldest is tried, up to
 * SERVE_GUARD_TRIES; NULL: none.
 */
static struct serve_conn *serve_guard_victim(struct serve_guard *g, const struct serve_conn *c,
					     bool mine)
{
	struct serve_conn *passed[SERVE_GUARD_TRIES];
	int npassed = 0;

	while (npassed < SERVE_GUARD_TRIES) {
		struct serve_conn *v = NULL;
		int unread = 0;

		for (struct serve_conn *o = g->head; o; o = o->next) {
			if (o == c || o->shut || !o->counted || !o->in_head || o->waiting ||
			    (mine && !serve_peer_same(&o->peer, &c->peer)) ||
			    serve_guard_in(passed, npassed, o))
				continue;
			if (!v || o->since < v->since)
				v = o;
		}
		if (!v || ioctl(v->fd, FIONREAD, &unread) != 0 || unread <= 0)
			return v;
		passed[npassed++] = v;
	}
	return NULL;
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

void serve_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			enum MHD_ConnectionNotificationCode toe)
{
	struct serve_guard *g = cls;
	struct serve_conn *c = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fi =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		if (!fi)
			return;
		c = xcalloc(1, sizeof(*c));
		c->g = g;
		c->fd = fi->connect_fd;
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
		*socket_context = c;
		return;
	}
	if (!c)
		return;
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
