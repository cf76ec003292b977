/*
 * serve: the HTTP server.  See serve.h.
 *
 * Request flow (libmicrohttpd's threads): the first call of the access
 * handler sees the headers only: a method other than GET/HEAD is 405, a
 * body announced is 413 (nothing is read); the second call answers.  An
 * answer is a buffer rendered once per snapshot and handed to
 * libmicrohttpd with a reference on its snapshot, dropped when the
 * response is destroyed: 200 scrapes of one sample share one text.
 */
#include "serve.h"

#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "serve_api.h"
#include "serve_auth.h"
#include "serve_guard.h"
#include "serve_net.h"
#include "serve_reply.h"
#include "serve_snap.h"

struct serve_req {
	int calls;
	struct serve_req *next;       /* in the waiting list */
	struct MHD_Connection *conn;
	double wait_since;            /* when it began to wait for a sample, 0 never */
	bool expired;                 /* its wait ended without a sample (SERVE_POLL_S) */
};

struct serve {
	struct MHD_Daemon *tcp, *local;
	int tcp_fd, local_fd;
	char url[300];
	char local_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const struct prom_about *prom;
	pthread_mutex_t mu;           /* snap, waiting, nwaiting, ending */
	struct serve_snap *snap;
	struct prom_totals *totals;   /* the latest's, for the next (main thread) */
	struct serve_req *waiting;    /* viewers suspended until the next sample */
	int nwaiting;
	struct serve_guard *guard;    /* the connections' deadlines */
	bool ending;
	char end_why[300];
	char *header;                 /* the recording header, for viewers */
	char owner[200];              /* "pid N on HOST", the X-Pmutop-Owner of the header */
	char *topology, *layout;      /* /api/v1/topology and /api/v1/layout */
	struct serve_auth *auth;      /* --auth-file's users, or NULL: no authentication */
};

static double serve_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The current snapshot (a reference), or NULL before the first sample. */
static struct serve_snap *serve_current(struct serve *srv)
{
	struct serve_snap *sn;

	pthread_mutex_lock(&srv->mu);
	sn = srv->snap ? serve_snap_ref(srv->snap) : NULL;
	pthread_mutex_unlock(&srv->mu);
	return sn;
}

/*
 * The number after "after=" of the stream's query into *AFTER (0 when there
 * is none): decimal digits only; false for anything else.
 */
static bool serve_after(struct MHD_Connection *conn, unsigned long long *after)
{
	const char *a = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "after");
	char *end;

	*after = 0;
	if (!a)
		return true;
	if (!*a || strspn(a, "0123456789") != strlen(a) || strlen(a) > 20)
		return false;
	errno = 0;
	*after = strtoull(a, &end, 10);
	return !errno;
}

/*
 * /api/v1/stream/next: the first sample after ?after=, waiting for it
 * (suspended) when needed, at most SERVE_POLL_S (then 204: ask again); at
 * most SERVE_MAX_WAITING wait at once.  An AFTER past the latest sample
 * cannot be waited for: 400 at once.
 */
static enum MHD_Result serve_next(struct serve *srv, struct MHD_Connection *conn,
				  struct serve_req *req)
{
	unsigned long long after, latest;
	struct serve_snap *sn = NULL;
	char text[300];

	if (!serve_after(conn, &after))
		return serve_reply_plain(conn, MHD_HTTP_BAD_REQUEST, "after= takes the number of the last "
				   "sample received (0 for none)\n", NULL);
	pthread_mutex_lock(&srv->mu);
	if (srv->ending) {
		char why[400];
		struct MHD_Response *r;

		snprintf(why, sizeof(why), "%s\n", srv->end_why);
		pthread_mutex_unlock(&srv->mu);
		r = MHD_create_response_from_buffer(strlen(why), why, MHD_RESPMEM_MUST_COPY);
		if (r) {
			MHD_add_response_header(r, "X-Pmutop-End", "1");
			MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
		}
		return serve_reply_queue(conn, MHD_HTTP_SERVICE_UNAVAILABLE, r, "text/plain; charset=utf-8");
	}
	latest = srv->snap ? serve_snap_sample(srv->snap)->seq : 0;
	if (after > latest) {
		pthread_mutex_unlock(&srv->mu);
		snprintf(text, sizeof(text), "after=%llu is past the latest sample (%llu): ask for "
			 "the samples after one you received\n", after, latest);
		return serve_reply_plain(conn, MHD_HTTP_BAD_REQUEST, text, NULL);
	}
	if (latest > after) {
		sn = serve_snap_ref(srv->snap);
	} else if (req->expired) {
		pthread_mutex_unlock(&srv->mu);
		serve_guard_waiting(conn, false);
		return serve_reply_queue(conn, MHD_HTTP_NO_CONTENT,
				   MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT),
				   NULL);
	} else if (srv->nwaiting >= SERVE_MAX_WAITING) {
		pthread_mutex_unlock(&srv->mu);
		snprintf(text, sizeof(text), "%d viewers wait for the next sample already: try "
			 "again later\n", SERVE_MAX_WAITING);
		return serve_reply_plain(conn, MHD_HTTP_SERVICE_UNAVAILABLE, text, NULL);
	} else {
		/* nothing newer: wait without holding a thread; serve_publish resumes it */
		if (req->wait_since == 0)
			req->wait_since = serve_clock();
		req->conn = conn;
		req->next = srv->waiting;
		srv->waiting = req;
		srv->nwaiting++;
		serve_guard_waiting(conn, true);
		MHD_suspend_connection(conn);
	}
	pthread_mutex_unlock(&srv->mu);
	if (!sn)
		return MHD_YES;
	serve_guard_waiting(conn, false);
	return serve_reply_snap(conn, sn, SERVE_RECORD, srv->prom);
}

static const char serve_index[] =
	"pmutop serves:\n"
	"  /metrics              Prometheus exposition (OpenMetrics when asked; ?detail=stable:\n"
	"                        the stable families and who alone)\n"
	"  /api/v1/sample        the latest sample (JSON, as pmutop -b --format json prints it)\n"
	"  /api/v1/topology      sockets, cores, threads, NUMA nodes (JSON)\n"
	"  /api/v1/layout        event groups, events and metrics (JSON)\n"
	"  /api/v1/stream        for viewers (pmutop --connect)\n";

static enum MHD_Result serve_answer(void *cls, struct MHD_Connection *conn, const char *url,
				    const char *method, const char *version,
				    const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	struct serve *srv = cls;
	struct serve_req *req = *con_cls;
	struct serve_snap *sn;
	const char *len;
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	if (!req) {
		req = xcalloc(1, sizeof(*req));
		*con_cls = req;
	}
	if (req->calls++ == 0) {
		serve_guard_head_done(conn);
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			return serve_reply_plain(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "pmutop answers GET and "
					   "HEAD only: it is read-only\n", "GET, HEAD");
		len = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						  MHD_HTTP_HEADER_CONTENT_LENGTH);
		if ((len && strtoull(len, NULL, 10) > 0) ||
		    MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						MHD_HTTP_HEADER_TRANSFER_ENCODING))
			return serve_reply_plain(conn, MHD_HTTP_CONTENT_TOO_LARGE, "pmutop takes no request "
					   "body\n", NULL);
		if (!serve_reply_authorized(srv->auth, conn, &ret))
			return ret;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!strcmp(url, "/"))
		return serve_reply_plain(conn, MHD_HTTP_OK, serve_index, NULL);
	if (!strcmp(url, "/api/v1/topology"))
		return serve_reply_doc(conn, srv->topology, "application/json", NULL);
	if (!strcmp(url, "/api/v1/layout"))
		return serve_reply_doc(conn, srv->layout, "application/json", NULL);
	if (!strcmp(url, "/api/v1/stream"))
		return serve_reply_doc(conn, srv->header, "application/x-ndjson", srv->owner);
	if (!strcmp(url, "/api/v1/stream/next"))
		return serve_next(srv, conn, req);
	if (strcmp(url, "/metrics") && strcmp(url, "/api/v1/sample"))
		return serve_reply_plain(conn, MHD_HTTP_NOT_FOUND, "no such page: / lists what pmutop "
				   "serves\n", NULL);
	sn = serve_current(srv);
	if (!sn)
		return serve_reply_plain(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "pmutop has no sample yet: "
				   "the first comes after one interval\n", NULL);
	if (!strcmp(url, "/api/v1/sample"))
		return serve_reply_snap(conn, sn, SERVE_JSON, srv->prom);
	{
		const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
								 MHD_HTTP_HEADER_ACCEPT);
		const char *enc = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							      MHD_HTTP_HEADER_ACCEPT_ENCODING);
		const char *detail = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND,
								 "detail");
		bool om = accept && strstr(accept, "application/openmetrics-text");
		bool gz = serve_reply_gzip_ok(enc);

		if (detail && strcmp(detail, "stable") && strcmp(detail, "all")) {
			serve_snap_unref(sn);
			return serve_reply_plain(conn, MHD_HTTP_BAD_REQUEST, "detail is stable (the "
						 "stable families and who: bounded series) or all\n",
						 NULL);
		}
		if (detail && !strcmp(detail, "stable"))
			return serve_reply_snap(conn, sn, om ? (gz ? SERVE_OPENSTABLE_GZ : SERVE_OPENSTABLE)
						      : (gz ? SERVE_STABLE_GZ : SERVE_STABLE), srv->prom);
		return serve_reply_snap(conn, sn, om ? (gz ? SERVE_OPENMETRICS_GZ : SERVE_OPENMETRICS)
					      : (gz ? SERVE_METRICS_GZ : SERVE_METRICS), srv->prom);
	}
}

static void serve_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			    enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)toe;
	serve_guard_request_done(conn);
	free(*con_cls);
	*con_cls = NULL;
}

/* libmicrohttpd's own messages: not on the screen pmutop draws. */
static void serve_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;
}

/* A daemon on FD (its clients' limits are the guard's: serve_guard.h). */
static struct MHD_Daemon *serve_daemon(struct serve *srv, int fd, const char *cert, const char *key)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			 MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;

	if (cert)
		flags |= MHD_USE_TLS;
	return MHD_start_daemon(
		flags, 0, NULL, NULL, serve_answer, srv,
		MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVE_THREADS,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_MAX_CONNECTIONS,
		/* per client (a local user, a remote address): serve_guard_admit, not per address */
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, 0u,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_HEADER_MAX,
		MHD_OPTION_NOTIFY_COMPLETED, serve_completed, srv,
		MHD_OPTION_NOTIFY_CONNECTION, serve_guard_notify, srv->guard,
		MHD_OPTION_EXTERNAL_LOGGER, serve_log, srv,
		cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, cert,
		MHD_OPTION_HTTPS_MEM_KEY, key,
		MHD_OPTION_END);
}

/* Resume the suspended requests of the list W (taken off the waiting list). */
static void serve_resume(struct serve_req *w)
{
	while (w) {
		struct serve_req *next = w->next;

		w->next = NULL;
		MHD_resume_connection(w->conn);
		w = next;
	}
}

/*
 * The guard's tick: a viewer that waited SERVE_POLL_S for a sample is
 * resumed (it is answered 204 and asks again), so that no connection stays
 * parked for ever.
 */
static void serve_tick(void *ctx)
{
	struct serve *srv = ctx;
	struct serve_req **p, *due = NULL;
	double now = serve_clock();

	pthread_mutex_lock(&srv->mu);
	for (p = &srv->waiting; *p;) {
		struct serve_req *w = *p;

		if (now - w->wait_since < SERVE_POLL_S) {
			p = &w->next;
			continue;
		}
		*p = w->next;
		srv->nwaiting--;
		w->expired = true;
		w->next = due;
		due = w;
	}
	pthread_mutex_unlock(&srv->mu);
	serve_resume(due);
}

int serve_start(const struct serve_config *c, struct serve **out, char *err, size_t errlen,
		char *warn, size_t warnlen)
{
	struct serve *srv = xcalloc(1, sizeof(*srv));
	char *cert = NULL, *key = NULL;
	int rc = 0;

	*out = NULL;
	if (warn && warnlen)
		warn[0] = 0;
	srv->tcp_fd = srv->local_fd = -1;
	srv->prom = c->prom;
	pthread_mutex_init(&srv->mu, NULL);
	srv->guard = serve_guard_new(serve_tick, srv);
	srv->header = record_header_text(c->about);
	snprintf(srv->owner, sizeof(srv->owner), "pid %d on %s", c->prom ? c->prom->owner_pid : 0,
		 c->about->host ? c->about->host : "?");
	srv->topology = serve_api_topology(c->about->topo);
	srv->layout = serve_api_layout(c->about->layout);
	if (!srv->header || !srv->topology || !srv->layout) {
		snprintf(err, errlen, "cannot describe the run for the server (out of memory)");
		rc = -ENOMEM;
		goto fail;
	}
	if (!!c->tls_cert != !!c->tls_key) {
		snprintf(err, errlen, "TLS needs both --tls-cert and --tls-key");
		rc = -EINVAL;
		goto fail;
	}
	if (c->tls_cert) {
		cert = serve_slurp(c->tls_cert, "--tls-cert", err, errlen);
		key = cert ? serve_slurp(c->tls_key, "--tls-key", err, errlen) : NULL;
		if (!key) {
			rc = -EINVAL;
			goto fail;
		}
	}
	if (c->auth_file && (rc = serve_auth_load(c->auth_file, &srv->auth, err, errlen)))
		goto fail;
	if (c->listen) {
		srv->tcp_fd = serve_listen_tcp(c->listen, srv->url, sizeof(srv->url), cert, err,
					       errlen);
		if (srv->tcp_fd < 0) {
			rc = srv->tcp_fd;
			goto fail;
		}
		srv->tcp = serve_daemon(srv, srv->tcp_fd, cert, key);
		if (!srv->tcp) {
			snprintf(err, errlen, "--serve %s: the HTTP server could not start%s",
				 c->listen, cert ? " (is the key the certificate's, both PEM?)" : "");
			rc = -EINVAL;
			goto fail;
		}
	}
	if (c->local_path) {
		char lerr[512];

		srv->local_fd = serve_listen_local(c->local_path, c->local_group, lerr, sizeof(lerr));
		if (srv->local_fd == -EINVAL) {
			snprintf(err, errlen, "%s", lerr);
			srv->local_fd = -1;
			rc = -EINVAL;
			goto fail;
		}
		if (srv->local_fd >= 0) {
			snprintf(srv->local_path, sizeof(srv->local_path), "%s", c->local_path);
			srv->local = serve_daemon(srv, srv->local_fd, NULL, NULL);
			if (!srv->local)
				snprintf(lerr, sizeof(lerr), "viewers cannot attach: the server on %s "
					 "could not start", c->local_path);
		}
		if (!srv->local && warn)
			snprintf(warn, warnlen, "%s", lerr);
	}
	if (cert) {
		explicit_bzero(key, strlen(key));
		free(key);
		free(cert);
	}
	*out = srv;
	return 0;
fail:
	if (key)
		explicit_bzero(key, strlen(key));
	free(key);
	free(cert);
	serve_stop(srv, NULL);
	return rc;
}

const char *serve_url(const struct serve *srv)
{
	return srv ? srv->url : "";
}

/* Resume every suspended viewer (they look again: a new sample, or the end). */
static void serve_wake(struct serve *srv)
{
	struct serve_req *w;

	pthread_mutex_lock(&srv->mu);
	w = srv->waiting;
	srv->waiting = NULL;
	srv->nwaiting = 0;
	pthread_mutex_unlock(&srv->mu);
	serve_resume(w);
}

void serve_publish(struct serve *srv, const struct sample *s)
{
	struct serve_snap *sn, *old;

	if (!srv || !s)
		return;
	/* the running totals for the counters (_total): the previous ones plus this interval */
	srv->totals = prom_totals_next(srv->totals, s);
	sn = serve_snap_new(s, srv->totals);
	pthread_mutex_lock(&srv->mu);
	old = srv->snap;
	srv->snap = sn;
	pthread_mutex_unlock(&srv->mu);
	serve_snap_unref(old);
	serve_wake(srv);
}

void serve_stop(struct serve *srv, const char *why)
{
	if (!srv)
		return;
	pthread_mutex_lock(&srv->mu);
	srv->ending = true;
	snprintf(srv->end_why, sizeof(srv->end_why), "%s", why ? why : "the owner ended");
	pthread_mutex_unlock(&srv->mu);
	serve_wake(srv);
	if (srv->tcp || srv->local) {
		/* a moment for the waiting viewers' 503 to leave (it closes their connection) */
		for (int i = 0; i < 20; i++) {
			unsigned n = 0;

			for (int d = 0; d < 2; d++) {
				struct MHD_Daemon *dm = d ? srv->local : srv->tcp;
				const union MHD_DaemonInfo *a = dm ? MHD_get_daemon_info(
					dm, MHD_DAEMON_INFO_CURRENT_CONNECTIONS) : NULL;

				n += a ? a->num_connections : 0;
			}
			if (n == 0)
				break;
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
		}
	}
	/* no more ticks (they resume connections) once the daemons go */
	serve_guard_stop(srv->guard);
	if (srv->tcp)
		MHD_stop_daemon(srv->tcp);
	if (srv->local)
		MHD_stop_daemon(srv->local);
	serve_guard_free(srv->guard);
	if (srv->tcp_fd >= 0)
		close(srv->tcp_fd);
	if (srv->local_fd >= 0) {
		close(srv->local_fd);
		unlink(srv->local_path);
	}
	serve_snap_unref(srv->snap);
	serve_auth_free(srv->auth);
	free(srv->header);
	free(srv->topology);
	free(srv->layout);
	pthread_mutex_destroy(&srv->mu);
	free(srv);
}
