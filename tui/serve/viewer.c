/*
 * viewer: the owner's stream over HTTP.  See viewer.h.
 *
 * The fetch thread runs one request at a time through a curl multi handle,
 * so that viewer_free can wake it (curl_multi_wakeup) from a wait that may
 * last as long as the owner's interval.
 */
#define _GNU_SOURCE /* struct ucred */
#include "viewer.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

struct viewer_buf {
	char *data;
	size_t len, cap;
	bool too_big;
};

struct viewer {
	char base[600];               /* "http://localhost" (local) or the server's URL */
	char owner[200];
	struct viewer_config c;
	CURL *easy;
	CURLM *multi;
	struct replay *r;             /* the stream's header and the parser of its lines */
	struct topo *topo;
	int efd;
	pthread_t thread;
	bool started;
	pthread_mutex_t mu;           /* latest, ended, why, stop */
	const struct sample *latest;
	bool ended, stop;
	char why[400];
	char owner_hdr[200];
	/* the local socket's peer: the last one peer_ok accepted, or why it refused */
	struct ucred peer;
	int sockfd;                   /* the connection's socket (viewer_sockopt), -1 none yet */
	bool peer_known, peer_refused;
	char peer_why[400];
};

static void viewer_global(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* libcurl's global set-up, once per process (it is not thread-safe itself). */
static void viewer_init_curl(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, viewer_global);
}

static size_t viewer_write(char *p, size_t size, size_t n, void *cls)
{
	struct viewer_buf *b = cls;
	size_t k = size * n;

	if (b->len + k + 1 > (size_t)REPLAY_LINE_MAX) {
		b->too_big = true;
		return 0; /* curl stops the transfer */
	}
	if (b->len + k + 1 > b->cap) {
		b->cap = (b->len + k + 1) * 2;
		b->data = xrealloc(b->data, b->cap, 1);
	}
	memcpy(b->data + b->len, p, k);
	b->len += k;
	b->data[b->len] = 0;
	return k;
}

static size_t viewer_header(char *p, size_t size, size_t n, void *cls)
{
	struct viewer *v = cls;
	size_t k = size * n;
	static const char name[] = "X-Pmutop-Owner:";

	if (k > sizeof(name) && !strncasecmp(p, name, sizeof(name) - 1)) {
		size_t len = k - (sizeof(name) - 1);
		const char *val = p + sizeof(name) - 1;

		while (len && (*val == ' '))
			val++, len--;
		while (len && (val[len - 1] == '\r' || val[len - 1] == '\n'))
			len--;
		snprintf(v->owner_hdr, sizeof(v->owner_hdr), "%.*s", (int)len, val);
	}
	return k;
}

/* Each new connection's socket, for viewer_prereq (called before it connects). */
static int viewer_sockopt(void *cls, curl_socket_t fd, curlsocktype purpose)
{
	((struct viewer *)cls)->sockfd = fd;
	(void)purpose;
	return CURL_SOCKOPT_OK;
}

/*
 * Before each request on a local socket: the process at the other end must
 * be one the caller trusts (c.peer_ok) to show the machine's figures.
 */
static int viewer_prereq(void *cls, char *primary_ip, char *local_ip, int primary_port,
			 int local_port)
{
	struct viewer *v = cls;
	int fd = v->sockfd;
	struct ucred uc;
	socklen_t len = sizeof(uc);

	(void)primary_ip;
	(void)local_ip;
	(void)primary_port;
	(void)local_port;
	if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len)) {
		snprintf(v->peer_why, sizeof(v->peer_why), "cannot tell who listens on %s",
			 v->c.local_path);
		v->peer_refused = true;
		return CURL_PREREQFUNC_ABORT;
	}
	if (v->peer_known && uc.pid == v->peer.pid && uc.uid == v->peer.uid)
		return CURL_PREREQFUNC_OK;
	if (!v->c.peer_ok(fd, v->c.peer_ctx, v->peer_why, sizeof(v->peer_why))) {
		v->peer_refused = true;
		return CURL_PREREQFUNC_ABORT;
	}
	v->peer = uc;
	v->peer_known = true;
	return CURL_PREREQFUNC_OK;
}

/* Set up the easy handle for PATH (and the query). */
static void viewer_request(struct viewer *v, const char *path, struct viewer_buf *b, long timeout_s)
{
	char url[800];

	snprintf(url, sizeof(url), "%s%s", v->base, path);
	curl_easy_setopt(v->easy, CURLOPT_URL, url);
	curl_easy_setopt(v->easy, CURLOPT_WRITEFUNCTION, viewer_write);
	curl_easy_setopt(v->easy, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(v->easy, CURLOPT_HEADERFUNCTION, viewer_header);
	curl_easy_setopt(v->easy, CURLOPT_HEADERDATA, v);
	curl_easy_setopt(v->easy, CURLOPT_TIMEOUT, timeout_s);
	curl_easy_setopt(v->easy, CURLOPT_NOSIGNAL, 1L);
}

/*
 * Run the easy handle to its end through the multi handle; false when
 * viewer_free asked to stop first.  *RES is curl's result.
 */
static bool viewer_perform(struct viewer *v, CURLcode *res)
{
	int running = 1;

	*res = CURLE_OK;
	curl_multi_add_handle(v->multi, v->easy);
	for (;;) {
		CURLMsg *m;
		int left;
		bool stop;

		curl_multi_perform(v->multi, &running);
		while ((m = curl_multi_info_read(v->multi, &left)))
			if (m->msg == CURLMSG_DONE)
				*res = m->data.result;
		if (!running)
			break;
		pthread_mutex_lock(&v->mu);
		stop = v->stop;
		pthread_mutex_unlock(&v->mu);
		if (stop) {
			curl_multi_remove_handle(v->multi, v->easy);
			return false;
		}
		curl_multi_poll(v->multi, NULL, 0, 1000, NULL);
	}
	curl_multi_remove_handle(v->multi, v->easy);
	return true;
}

/* What a failed request means for the user. */
static void viewer_say(struct viewer *v, CURLcode res, long status, const struct viewer_buf *b,
		       char *out, size_t len)
{
	const char *where = v->c.local_path ? v->c.local_path : v->base;

	if (res == CURLE_ABORTED_BY_CALLBACK && v->peer_refused)
		snprintf(out, len, "%s", v->peer_why);
	else if (res == CURLE_COULDNT_CONNECT)
		snprintf(out, len, "nothing answers at %s: is a pmutop running there (with --serve "
			 "for a remote one)?", where);
	else if (res != CURLE_OK)
		snprintf(out, len, "%s: %s", where, curl_easy_strerror(res));
	else if (status == 401 && v->c.auth)
		snprintf(out, len, "%s refused the user and password of PMUTOP_CONNECT_AUTH: wrong "
			 "user or password", where);
	else if (status == 401)
		snprintf(out, len, "%s asks for a user and password: set "
			 "PMUTOP_CONNECT_AUTH=USER:PASSWORD in the environment", where);
	else if (status == 429)
		snprintf(out, len, "%s refuses this address for a while after too many wrong "
			 "passwords: wait a minute, then try again with the right one", where);
	else if (status == 404)
		snprintf(out, len, "%s is not a pmutop server (it has no /api/v1/stream)", where);
	else
		snprintf(out, len, "%s answered HTTP %ld: %.200s", where, status,
			 b->data ? b->data : "");
}

static void viewer_end(struct viewer *v, const char *why)
{
	uint64_t one = 1;

	pthread_mutex_lock(&v->mu);
	if (!v->ended) {
		v->ended = true;
		snprintf(v->why, sizeof(v->why), "%s", why);
	}
	pthread_mutex_unlock(&v->mu);
	if (write(v->efd, &one, sizeof(one)) < 0) {
		/* the counter is full: the UI is woken anyway */
	}
}

static void *viewer_thread(void *arg)
{
	struct viewer *v = arg;
	unsigned long long after = 0;

	for (;;) {
		struct viewer_buf b = { 0 };
		char path[64], err[600] = "";
		struct replay_item it;
		CURLcode res;
		long status = 0;
		uint64_t one = 1;

		snprintf(path, sizeof(path), "/api/v1/stream/next?after=%llu", after);
		viewer_request(v, path, &b, 0);
		if (!viewer_perform(v, &res)) {
			free(b.data);
			return NULL;
		}
		curl_easy_getinfo(v->easy, CURLINFO_RESPONSE_CODE, &status);
		if (res == CURLE_OK && status == 204) {
			/* the server's wait ended without a sample (a long interval): ask again */
			free(b.data);
			continue;
		}
		if (res != CURLE_OK || status != 200) {
			if (res == CURLE_OK && status == 503 && b.data) {
				b.data[strcspn(b.data, "\n")] = 0;
				snprintf(err, sizeof(err), "the pmutop you viewed ended: %.500s", b.data);
			} else if (res == CURLE_ABORTED_BY_CALLBACK && v->peer_refused) {
				snprintf(err, sizeof(err), "%s", v->peer_why);
			} else if (res == CURLE_COULDNT_CONNECT || res == CURLE_GOT_NOTHING ||
				   res == CURLE_RECV_ERROR || res == CURLE_PARTIAL_FILE) {
				snprintf(err, sizeof(err), "the pmutop you viewed went away without a word "
					 "(%s)", curl_easy_strerror(res));
			} else {
				viewer_say(v, res, status, &b, err, sizeof(err));
			}
			free(b.data);
			viewer_end(v, err);
			return NULL;
		}
		if (!b.data)
			snprintf(err, sizeof(err), "an empty answer from the server");
		if (!b.data || replay_parse(v->r, b.data, b.len - (b.data[b.len - 1] == '\n'),
					    &it, err, sizeof(err)) || it.kind != REPLAY_SAMPLE) {
			if (b.data && !err[0])
				snprintf(err, sizeof(err), "the server sent something other than a sample");
			free(b.data);
			viewer_end(v, err);
			return NULL;
		}
		free(b.data);
		after = it.sample->seq;
		pthread_mutex_lock(&v->mu);
		if (v->latest)
			sample_release(v->latest);
		v->latest = it.sample;
		pthread_mutex_unlock(&v->mu);
		if (write(v->efd, &one, sizeof(one)) < 0) {
			/* full: the UI is woken anyway */
		}
	}
}

int viewer_open(const struct viewer_config *c, struct viewer **out, char *err, size_t errlen)
{
	struct viewer *v = xcalloc(1, sizeof(*v));
	struct viewer_buf b = { 0 };
	char name[700];
	CURLcode res;
	long status = 0;
	int rc;

	*out = NULL;
	v->c = *c;
	v->efd = -1;
	v->sockfd = -1;
	pthread_mutex_init(&v->mu, NULL);
	viewer_init_curl();
	if (c->local_path)
		snprintf(v->base, sizeof(v->base), "http://localhost");
	else if (strstr(c->url, "://"))
		snprintf(v->base, sizeof(v->base), "%s", c->url);
	else
		snprintf(v->base, sizeof(v->base), "http://%s", c->url);
	v->base[strcspn(v->base, "?#")] = 0;
	while (strlen(v->base) > 8 && v->base[strlen(v->base) - 1] == '/')
		v->base[strlen(v->base) - 1] = 0;
	v->easy = curl_easy_init();
	v->multi = curl_multi_init();
	v->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!v->easy || !v->multi || v->efd < 0) {
		snprintf(err, errlen, "cannot start the viewer (libcurl or eventfd failed)");
		rc = -ENOMEM;
		goto fail;
	}
	if (c->local_path && access(c->local_path, R_OK | W_OK) && errno == EACCES) {
		snprintf(err, errlen, "its viewers' socket %s is not open to you: the owner can let "
			 "a group of yours in with --viewers-group GROUP (if no pmutop runs, remove "
			 "the socket)", c->local_path);
		rc = -EACCES;
		goto fail;
	}
	if (c->local_path)
		curl_easy_setopt(v->easy, CURLOPT_UNIX_SOCKET_PATH, c->local_path);
	if (c->tls_ca)
		curl_easy_setopt(v->easy, CURLOPT_CAINFO, c->tls_ca);
	if (c->auth && strchr(c->auth, ':') &&
	    strlen(strchr(c->auth, ':') + 1) >= VIEWER_PASSWORD_MAX) {
		snprintf(err, errlen, "PMUTOP_CONNECT_AUTH: the password is %zu bytes long; a "
			 "pmutop server checks passwords with crypt(3), which takes at most %d: "
			 "choose a shorter one", strlen(strchr(c->auth, ':') + 1),
			 VIEWER_PASSWORD_MAX - 1);
		rc = -EINVAL;
		goto fail;
	}
	if (c->local_path && c->peer_ok) {
		curl_easy_setopt(v->easy, CURLOPT_SOCKOPTFUNCTION, viewer_sockopt);
		curl_easy_setopt(v->easy, CURLOPT_SOCKOPTDATA, v);
		curl_easy_setopt(v->easy, CURLOPT_PREREQFUNCTION, viewer_prereq);
		curl_easy_setopt(v->easy, CURLOPT_PREREQDATA, v);
	}
	if (c->auth) {
		curl_easy_setopt(v->easy, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(v->easy, CURLOPT_USERPWD, c->auth);
	}
	curl_easy_setopt(v->easy, CURLOPT_CONNECTTIMEOUT_MS,
			 (long)((c->connect_timeout_s > 0 ? c->connect_timeout_s : 5) * 1000));
	curl_easy_setopt(v->easy, CURLOPT_TCP_KEEPALIVE, 1L);
	viewer_request(v, "/api/v1/stream", &b, (long)(c->connect_timeout_s > 0
						       ? c->connect_timeout_s + 5 : 10));
	viewer_perform(v, &res);
	curl_easy_getinfo(v->easy, CURLINFO_RESPONSE_CODE, &status);
	if (res != CURLE_OK || status != 200) {
		viewer_say(v, res, status, &b, err, errlen);
		rc = res == CURLE_ABORTED_BY_CALLBACK && v->peer_refused ? -EPERM
		     : res == CURLE_COULDNT_CONNECT ? -ECONNREFUSED
		     : status == 401 || status == 429 ? -EACCES : -EINVAL;
		goto fail;
	}
	snprintf(name, sizeof(name), "%s", c->local_path ? c->local_path : v->base);
	rc = replay_open_text(name, b.data ? b.data : "", b.len - (b.len && b.data[b.len - 1] == '\n'),
			      &v->r, err, errlen);
	if (rc)
		goto fail;
	rc = replay_topo(replay_about(v->r), name, &v->topo, err, errlen);
	if (rc)
		goto fail;
	snprintf(v->owner, sizeof(v->owner), "%.190s", v->owner_hdr[0] ? v->owner_hdr : name);
	free(b.data);
	b.data = NULL;
	rc = -pthread_create(&v->thread, NULL, viewer_thread, v);
	if (rc) {
		snprintf(err, errlen, "cannot start the viewer's thread: %s", strerror(-rc));
		goto fail;
	}
	v->started = true;
	*out = v;
	return 0;
fail:
	free(b.data);
	viewer_free(v);
	return rc;
}

const struct replay_about *viewer_about(const struct viewer *v)
{
	return replay_about(v->r);
}

const struct topo *viewer_topo(const struct viewer *v)
{
	return v->topo;
}

const char *viewer_owner(const struct viewer *v)
{
	return v->owner;
}

int viewer_fd(const struct viewer *v)
{
	return v->efd;
}

const struct sample *viewer_take(struct viewer *v)
{
	const struct sample *s;
	uint64_t n;

	if (read(v->efd, &n, sizeof(n)) < 0) {
		/* nothing pending: EAGAIN */
	}
	pthread_mutex_lock(&v->mu);
	s = v->latest;
	v->latest = NULL;
	pthread_mutex_unlock(&v->mu);
	return s;
}

bool viewer_ended(struct viewer *v, char *why, size_t len)
{
	bool e;

	pthread_mutex_lock(&v->mu);
	e = v->ended;
	if (e && why)
		snprintf(why, len, "%s", v->why);
	pthread_mutex_unlock(&v->mu);
	return e;
}

void viewer_free(struct viewer *v)
{
	if (!v)
		return;
	if (v->started) {
		pthread_mutex_lock(&v->mu);
		v->stop = true;
		pthread_mutex_unlock(&v->mu);
		curl_multi_wakeup(v->multi);
		pthread_join(v->thread, NULL);
	}
	if (v->latest)
		sample_release(v->latest);
	if (v->multi)
		curl_multi_cleanup(v->multi);
	if (v->easy)
		curl_easy_cleanup(v->easy);
	if (v->efd >= 0)
		close(v->efd);
	replay_close(v->r);
	topo_free(v->topo);
	pthread_mutex_destroy(&v->mu);
	free(v);
}
