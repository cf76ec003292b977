/*
 * serve_reply: the server's answers.  See serve_reply.h.
 */
#include "serve_reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum MHD_Result serve_reply_queue(struct MHD_Connection *conn, unsigned status,
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
enum MHD_Result serve_reply_plain(struct MHD_Connection *conn, unsigned status, const char *text,
				  const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								 MHD_RESPMEM_MUST_COPY);

	if (r && allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	return serve_reply_queue(conn, status, r, "text/plain; charset=utf-8");
}

/* A text of the snapshot SN (its reference goes with the response). */
enum MHD_Result serve_reply_snap(struct MHD_Connection *conn, struct serve_snap *sn,
				 enum serve_kind k, const struct prom_about *about)
{
	static const char *const types[] = {
		[SERVE_METRICS] = "text/plain; version=0.0.4; charset=utf-8",
		[SERVE_OPENMETRICS] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
		[SERVE_JSON] = "application/json", [SERVE_RECORD] = "application/x-ndjson",
		[SERVE_METRICS_GZ] = "text/plain; version=0.0.4; charset=utf-8",
		[SERVE_OPENMETRICS_GZ] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
		[SERVE_STABLE] = "text/plain; version=0.0.4; charset=utf-8",
		[SERVE_OPENSTABLE] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
		[SERVE_STABLE_GZ] = "text/plain; version=0.0.4; charset=utf-8",
		[SERVE_OPENSTABLE_GZ] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
	};
	size_t len;
	const char *text = serve_snap_get(sn, k, about, &len);
	struct MHD_Response *r;
	char seq[32];

	if (!text) {
		serve_snap_unref(sn);
		return serve_reply_plain(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", NULL);
	}
	r = MHD_create_response_from_buffer_with_free_callback_cls(len, (void *)text,
								   serve_snap_unref, sn);
	if (!r) {
		serve_snap_unref(sn);
		return MHD_NO;
	}
	snprintf(seq, sizeof(seq), "%llu", (unsigned long long)serve_snap_sample(sn)->seq);
	MHD_add_response_header(r, "X-Pmutop-Seq", seq);
	if (serve_kind_gz(k))
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	if (k != SERVE_JSON && k != SERVE_RECORD)
		MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding");
	return serve_reply_queue(conn, MHD_HTTP_OK, r, types[k]);
}

/*
 * A document made at the start (topology, layout, header): shared, never
 * freed while serving; with OWNER, the X-Pmutop-Owner header viewers show.
 */
enum MHD_Result serve_reply_doc(struct MHD_Connection *conn, const char *doc, const char *type,
				const char *owner)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(doc), (void *)doc,
								 MHD_RESPMEM_PERSISTENT);

	if (r && owner)
		MHD_add_response_header(r, "X-Pmutop-Owner", owner);
	return serve_reply_queue(conn, MHD_HTTP_OK, r, type);
}

/*
 * Basic authentication: NULL when no file was given or the credentials are
 * good; else the answer already queued (401, 429) to return.
 */
bool serve_reply_authorized(struct serve_auth *auth, struct MHD_Connection *conn,
			    enum MHD_Result *ret)
{
	static const char denied[] = "pmutop: give a user and password of the server's "
				     "--auth-file\n";
	static const char too_long[] = "pmutop: the password is longer than crypt(3) can check "
				       "(511 bytes): choose a shorter one\n";
	const union MHD_ConnectionInfo *ci;
	char *pass = NULL, *user;
	enum serve_auth_result r;
	struct MHD_Response *resp;
	unsigned retry_s;

	if (!auth)
		return true;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	user = MHD_basic_auth_get_username_password(conn, &pass);
	r = serve_auth_check(auth, ci ? ci->client_addr : NULL, user, pass, &retry_s);
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	if (r == SERVE_AUTH_OK)
		return true;
	if (r == SERVE_AUTH_THROTTLED) {
		char text[200], after[16];

		snprintf(text, sizeof(text), "pmutop: too many wrong passwords from this address: "
			 "try again in %u s\n", retry_s);
		snprintf(after, sizeof(after), "%u", retry_s);
		resp = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_COPY);
		if (resp)
			MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, after);
		*ret = serve_reply_queue(conn, MHD_HTTP_TOO_MANY_REQUESTS, resp, "text/plain; charset=utf-8");
		return false;
	}
	resp = r == SERVE_AUTH_TOO_LONG
	       ? MHD_create_response_from_buffer(sizeof(too_long) - 1, (void *)too_long,
						 MHD_RESPMEM_PERSISTENT)
	       : MHD_create_response_from_buffer(sizeof(denied) - 1, (void *)denied,
						 MHD_RESPMEM_PERSISTENT);
	*ret = resp ? MHD_queue_basic_auth_fail_response(conn, "pmutop", resp) : MHD_NO;
	if (resp)
		MHD_destroy_response(resp);
	return false;
}

/* Whether an Accept-Encoding header takes gzip ("gzip", "gzip;q=0.5", not "gzip;q=0"). */
bool serve_reply_gzip_ok(const char *enc)
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

