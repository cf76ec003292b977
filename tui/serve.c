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

#include <crypt.h>
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
#include <zlib.h>

#include "batch.h"
#include "serve_api.h"
#include "serve_net.h"

/* What a snapshot renders, each once, on first demand. */
enum serve_kind {
	SERVE_METRICS, SERVE_OPENMETRICS, SERVE_JSON, SERVE_RECORD,
	SERVE_METRICS_GZ, SERVE_OPENMETRICS_GZ, /* the same, gzip-compressed (Accept-Encoding) */
	SERVE_NKINDS
};

/* The latest sample with what is rendered from it: immutable but for the lazily made texts. */
struct serve_snap {
	int refs;
	const struct sample *s;
	struct prom_totals *t;
	pthread_mutex_t mu;           /* held while a text is made */
	char *text[SERVE_NKINDS];
	size_t len[SERVE_NKINDS];
};

struct serve_user {
	char *name, *hash;
};

struct serve_req {
	int calls;
	struct serve_req *next;       /* in the waiting list */
	struct MHD_Connection *conn;
};

struct serve {
	struct MHD_Daemon *tcp, *local;
	int tcp_fd, local_fd;
	char url[300];
	char local_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const struct prom_about *prom;
	pthread_mutex_t mu;           /* snap, waiting, ending, auth_ok */
	struct serve_snap *snap;
	struct prom_totals *totals;   /* the latest's, for the next (main thread) */
	struct serve_req *waiting;    /* viewers suspended until the next sample */
	bool ending;
	char end_why[300];
	char *header;                 /* the recording header, for viewers */
	char owner[200];              /* "pid N on HOST", the X-Pmutop-Owner of the header */
	char *topology, *layout;      /* /api/v1/topology and /api/v1/layout */
	struct serve_user *users;
	int nusers;
	char auth_ok[512];            /* the last credentials found good ("user:password") */
};

static struct serve_snap *serve_snap_ref(struct serve_snap *sn)
{
	__atomic_fetch_add(&sn->refs, 1, __ATOMIC_RELAXED);
	return sn;
}

static void serve_snap_unref(void *cls)
{
	struct serve_snap *sn = cls;

	if (!sn || __atomic_sub_fetch(&sn->refs, 1, __ATOMIC_ACQ_REL))
		return;
	sample_release(sn->s);
	prom_totals_free(sn->t);
	for (int k = 0; k < SERVE_NKINDS; k++)
		free(sn->text[k]);
	pthread_mutex_destroy(&sn->mu);
	free(sn);
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

/* LEN bytes of TEXT in gzip format (zlib), malloc'd with its length in *OUT_LEN; NULL on failure. */
static char *serve_gzip(const char *text, size_t len, size_t *out_len)
{
	z_stream z = { 0 };
	size_t cap;
	char *out;

	/* windowBits 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	cap = deflateBound(&z, (uLong)len) + 32;
	out = xmalloc(cap);
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* Text K of SN, made on first demand; NULL when it cannot be made. */
static const char *serve_text(struct serve *srv, struct serve_snap *sn, enum serve_kind k,
			      size_t *len)
{
	const char *plain = NULL;
	size_t plain_len = 0;

	/* a compressed text compresses the plain one, made first (outside this one's making) */
	if (k == SERVE_METRICS_GZ || k == SERVE_OPENMETRICS_GZ) {
		plain = serve_text(srv, sn, k == SERVE_METRICS_GZ ? SERVE_METRICS : SERVE_OPENMETRICS,
				   &plain_len);
		if (!plain)
			return NULL;
	}
	pthread_mutex_lock(&sn->mu);
	if (!sn->text[k]) {
		char *buf = NULL;
		size_t n = 0;
		FILE *f;

		switch (k) {
		case SERVE_METRICS_GZ:
		case SERVE_OPENMETRICS_GZ:
			buf = serve_gzip(plain, plain_len, &n);
			break;
		case SERVE_RECORD:
			buf = record_sample_text(sn->s);
			n = buf ? strlen(buf) : 0;
			break;
		default:
			f = open_memstream(&buf, &n);
			if (!f)
				break;
			if (k == SERVE_JSON)
				batch_print(sn->s, BATCH_JSON, true, f);
			else
				prom_write(sn->s, sn->t, srv->prom, k == SERVE_OPENMETRICS, f);
			if (fclose(f)) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		sn->text[k] = buf;
		sn->len[k] = n;
	}
	pthread_mutex_unlock(&sn->mu);
	*len = sn->len[k];
	return sn->text[k];
}

static enum MHD_Result serve_queue(struct MHD_Connection *conn, unsigned status,
				   struct MHD_Response *r, const char *type)
{
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	if (type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* A short plain-text answer (errors, the index). */
static enum MHD_Result serve_plain(struct MHD_Connection *conn, unsigned status, const char *text,
				   const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								 MHD_RESPMEM_MUST_COPY);

	if (r && allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	return serve_queue(conn, status, r, "text/plain; charset=utf-8");
}

/* A text of the snapshot SN (its reference goes with the response). */
static enum MHD_Result serve_snap_text(struct serve *srv, struct MHD_Connection *conn,
				       struct serve_snap *sn, enum serve_kind k)
{
	static const char *const types[] = {
		[SERVE_METRICS] = "text/plain; version=0.0.4; charset=utf-8",
		[SERVE_OPENMETRICS] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
		[SERVE_JSON] = "application/json", [SERVE_RECORD] = "application/x-ndjson",
		[SERVE_METRICS_GZ] = "text/plain; version=0.0.4; charset=utf-8",
		[SERVE_OPENMETRICS_GZ] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
	};
	size_t len;
	const char *text = serve_text(srv, sn, k, &len);
	struct MHD_Response *r;
	char seq[32];

	if (!text) {
		serve_snap_unref(sn);
		return serve_plain(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", NULL);
	}
	r = MHD_create_response_from_buffer_with_free_callback_cls(len, (void *)text,
								   serve_snap_unref, sn);
	if (!r) {
		serve_snap_unref(sn);
		return MHD_NO;
	}
	snprintf(seq, sizeof(seq), "%llu", (unsigned long long)sn->s->seq);
	MHD_add_response_header(r, "X-Pmutop-Seq", seq);
	if (k == SERVE_METRICS_GZ || k == SERVE_OPENMETRICS_GZ)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	if (k != SERVE_JSON && k != SERVE_RECORD)
		MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding");
	return serve_queue(conn, MHD_HTTP_OK, r, types[k]);
}

/*
 * A document made at the start (topology, layout, header): shared, never
 * freed while serving; with OWNER, the X-Pmutop-Owner header viewers show.
 */
static enum MHD_Result serve_doc(struct MHD_Connection *conn, const char *doc, const char *type,
				 const char *owner)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(doc), (void *)doc,
								 MHD_RESPMEM_PERSISTENT);

	if (r && owner)
		MHD_add_response_header(r, "X-Pmutop-Owner", owner);
	return serve_queue(conn, MHD_HTTP_OK, r, type);
}

/* Basic authentication: true when no file was given or the credentials match one of its users. */
static bool serve_authorized(struct serve *srv, struct MHD_Connection *conn)
{
	char *pass = NULL, *user, cred[512];
	bool ok = false;

	if (!srv->nusers)
		return true;
	user = MHD_basic_auth_get_username_password(conn, &pass);
	if (!user || !pass)
		goto out;
	snprintf(cred, sizeof(cred), "%s:%s", user, pass);
	pthread_mutex_lock(&srv->mu);
	ok = srv->auth_ok[0] && !strcmp(cred, srv->auth_ok);
	pthread_mutex_unlock(&srv->mu);
	for (int i = 0; !ok && i < srv->nusers; i++) {
		struct crypt_data cd = { 0 };
		const char *h;

		if (strcmp(user, srv->users[i].name))
			continue;
		/* crypt(3): the hash's own prefix picks the method ($y$, $6$, $2b$...) */
		h = crypt_r(pass, srv->users[i].hash, &cd);
		ok = h && h[0] != '*' && !strcmp(h, srv->users[i].hash);
		if (ok) {
			pthread_mutex_lock(&srv->mu);
			snprintf(srv->auth_ok, sizeof(srv->auth_ok), "%s", cred);
			pthread_mutex_unlock(&srv->mu);
		}
	}
	explicit_bzero(cred, sizeof(cred));
out:
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return ok;
}

/* The number after "after=" of the stream's query (0 when none). */
static unsigned long long serve_after(struct MHD_Connection *conn)
{
	const char *a = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "after");

	return a ? strtoull(a, NULL, 10) : 0;
}

/* /api/v1/stream/next: the first sample after ?after=, waiting for it (suspended) when needed. */
static enum MHD_Result serve_next(struct serve *srv, struct MHD_Connection *conn,
				  struct serve_req *req)
{
	unsigned long long after = serve_after(conn);
	struct serve_snap *sn = NULL;

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
		return serve_queue(conn, MHD_HTTP_SERVICE_UNAVAILABLE, r, "text/plain; charset=utf-8");
	}
	if (srv->snap && srv->snap->s->seq > after) {
		sn = serve_snap_ref(srv->snap);
	} else {
		/* nothing newer: wait without holding a thread; serve_publish resumes it */
		req->conn = conn;
		req->next = srv->waiting;
		srv->waiting = req;
		MHD_suspend_connection(conn);
	}
	pthread_mutex_unlock(&srv->mu);
	return sn ? serve_snap_text(srv, conn, sn, SERVE_RECORD) : MHD_YES;
}

/* Whether an Accept-Encoding header takes gzip ("gzip", "gzip;q=0.5", not "gzip;q=0"). */
static bool serve_accepts_gzip(const char *enc)
{
	const char *g = enc ? strstr(enc, "gzip") : NULL;
	const char *q;

	if (!g)
		return false;
	q = g + 4;
	while (*q == ' ')
		q++;
	if (*q != ';')
		return true;
	q = strstr(q, "q=");
	return !q || strtod(q + 2, NULL) > 0;
}

static const char serve_index[] =
	"pmutop serves:\n"
	"  /metrics              Prometheus exposition (OpenMetrics when asked)\n"
	"  /api/v1/sample        the latest sample (JSON, as pmutop -b -o json prints it)\n"
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

	(void)version;
	(void)upload_data;
	if (!req) {
		req = xcalloc(1, sizeof(*req));
		*con_cls = req;
	}
	if (req->calls++ == 0) {
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			return serve_plain(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "pmutop answers GET and "
					   "HEAD only: it is read-only\n", "GET, HEAD");
		len = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						  MHD_HTTP_HEADER_CONTENT_LENGTH);
		if ((len && strtoull(len, NULL, 10) > 0) ||
		    MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						MHD_HTTP_HEADER_TRANSFER_ENCODING))
			return serve_plain(conn, MHD_HTTP_CONTENT_TOO_LARGE, "pmutop takes no request "
					   "body\n", NULL);
		if (!serve_authorized(srv, conn)) {
			static const char denied[] = "pmutop: give a user and password of the "
						     "server's --auth-file\n";
			struct MHD_Response *r = MHD_create_response_from_buffer(
				sizeof(denied) - 1, (void *)denied, MHD_RESPMEM_PERSISTENT);
			enum MHD_Result ret;

			if (!r)
				return MHD_NO;
			ret = MHD_queue_basic_auth_fail_response(conn, "pmutop", r);
			MHD_destroy_response(r);
			return ret;
		}
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!strcmp(url, "/"))
		return serve_plain(conn, MHD_HTTP_OK, serve_index, NULL);
	if (!strcmp(url, "/api/v1/topology"))
		return serve_doc(conn, srv->topology, "application/json", NULL);
	if (!strcmp(url, "/api/v1/layout"))
		return serve_doc(conn, srv->layout, "application/json", NULL);
	if (!strcmp(url, "/api/v1/stream"))
		return serve_doc(conn, srv->header, "application/x-ndjson", srv->owner);
	if (!strcmp(url, "/api/v1/stream/next"))
		return serve_next(srv, conn, req);
	if (strcmp(url, "/metrics") && strcmp(url, "/api/v1/sample"))
		return serve_plain(conn, MHD_HTTP_NOT_FOUND, "no such page: / lists what pmutop "
				   "serves\n", NULL);
	sn = serve_current(srv);
	if (!sn)
		return serve_plain(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "pmutop has no sample yet: "
				   "the first comes after one interval\n", NULL);
	if (!strcmp(url, "/api/v1/sample"))
		return serve_snap_text(srv, conn, sn, SERVE_JSON);
	{
		const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
								 MHD_HTTP_HEADER_ACCEPT);
		const char *enc = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							      MHD_HTTP_HEADER_ACCEPT_ENCODING);
		bool om = accept && strstr(accept, "application/openmetrics-text");
		bool gz = serve_accepts_gzip(enc);

		return serve_snap_text(srv, conn, sn, om ? (gz ? SERVE_OPENMETRICS_GZ : SERVE_OPENMETRICS)
					: (gz ? SERVE_METRICS_GZ : SERVE_METRICS));
	}
}

static void serve_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			    enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)conn;
	(void)toe;
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

/* The --auth-file: "user:HASH" lines (crypt(3) hashes), # comments.  0 or -EINVAL with ERR. */
static int serve_load_users(struct serve *srv, const char *path, char *err, size_t errlen)
{
	char *text = serve_slurp(path, "--auth-file", err, errlen), *line, *save = NULL;
	int ln = 0;

	if (!text)
		return -EINVAL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		ln++;
		line[strcspn(line, "\r")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (!colon || colon == line || colon[1] != '$') {
			snprintf(err, errlen, "%s:%d: expected USER:HASH with a crypt(3) hash (make "
				 "one with: openssl passwd -6), not a password in clear", path, ln);
			free(text);
			return -EINVAL;
		}
		*colon = 0;
		srv->users = xrealloc(srv->users, (size_t)srv->nusers + 1, sizeof(*srv->users));
		srv->users[srv->nusers++] = (struct serve_user){ .name = xstrdup(line),
								 .hash = xstrdup(colon + 1) };
	}
	free(text);
	if (!srv->nusers) {
		snprintf(err, errlen, "%s: no USER:HASH line: nobody could log in", path);
		return -EINVAL;
	}
	return 0;
}

static struct MHD_Daemon *serve_daemon(struct serve *srv, int fd, const char *cert,
				       const char *key)
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
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_HEADER_MAX,
		MHD_OPTION_NOTIFY_COMPLETED, serve_completed, srv,
		MHD_OPTION_EXTERNAL_LOGGER, serve_log, srv,
		cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, cert,
		MHD_OPTION_HTTPS_MEM_KEY, key,
		MHD_OPTION_END);
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
	if (c->auth_file && (rc = serve_load_users(srv, c->auth_file, err, errlen)))
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
	pthread_mutex_unlock(&srv->mu);
	while (w) {
		struct serve_req *next = w->next;

		w->next = NULL;
		MHD_resume_connection(w->conn);
		w = next;
	}
}

void serve_publish(struct serve *srv, const struct sample *s)
{
	struct serve_snap *sn, *old;

	if (!srv || !s)
		return;
	sn = xcalloc(1, sizeof(*sn));
	sn->refs = 1;
	sn->s = sample_ref(s);
	/* the running totals for the counters (_total): the previous ones plus this interval */
	sn->t = prom_totals_next(srv->totals, s);
	srv->totals = sn->t;
	pthread_mutex_init(&sn->mu, NULL);
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
	if (srv->tcp)
		MHD_stop_daemon(srv->tcp);
	if (srv->local)
		MHD_stop_daemon(srv->local);
	if (srv->tcp_fd >= 0)
		close(srv->tcp_fd);
	if (srv->local_fd >= 0) {
		close(srv->local_fd);
		unlink(srv->local_path);
	}
	serve_snap_unref(srv->snap);
	for (int i = 0; i < srv->nusers; i++) {
		free(srv->users[i].name);
		free(srv->users[i].hash);
	}
	free(srv->users);
	free(srv->header);
	free(srv->topology);
	free(srv->layout);
	explicit_bzero(srv->auth_ok, sizeof(srv->auth_ok));
	pthread_mutex_destroy(&srv->mu);
	free(srv);
}
