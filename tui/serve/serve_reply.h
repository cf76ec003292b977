/*
 * serve_reply: the server's answers (serve.h), built for libmicrohttpd:
 * short texts, documents made once, a snapshot's texts (serve_snap.h, its
 * reference going with the response), and the answer to a request without
 * the right password (401, 429 with Retry-After, serve_auth.h).  Every
 * answer says Cache-Control: no-store.  libmicrohttpd's threads.
 */
#ifndef PMUTOP_SERVE_REPLY_H
#define PMUTOP_SERVE_REPLY_H

#include <microhttpd.h>
#include <stdbool.h>

#include "serve_auth.h"
#include "serve_snap.h"

/* Queue R (destroyed here; NULL: MHD_NO) with STATUS and content type TYPE (NULL: none). */
enum MHD_Result serve_reply_queue(struct MHD_Connection *conn, unsigned status,
				  struct MHD_Response *r, const char *type);

/* A short plain text (errors, the index); ALLOW: an Allow header, or NULL. */
enum MHD_Result serve_reply_plain(struct MHD_Connection *conn, unsigned status, const char *text,
				  const char *allow);

/*
 * A document made at the start (topology, layout, header): shared, never
 * freed while serving; with OWNER, the X-Pmutop-Owner header viewers show.
 */
enum MHD_Result serve_reply_doc(struct MHD_Connection *conn, const char *doc, const char *type,
				const char *owner);

/* Text K of the snapshot SN (whose reference goes with the response), with X-Pmutop-Seq. */
enum MHD_Result serve_reply_snap(struct MHD_Connection *conn, struct serve_snap *sn,
				 enum serve_kind k, const struct prom_about *about);

/*
 * Basic authentication against AUTH (NULL: none asked): true when the
 * request may go on; else false with the answer (401, 429) queued and what
 * to return in *RET.
 */
bool serve_reply_authorized(struct serve_auth *auth, struct MHD_Connection *conn,
			    enum MHD_Result *ret);

/* Whether an Accept-Encoding header takes gzip ("gzip", "gzip;q=0.5", not "gzip;q=0"). */
bool serve_reply_gzip_ok(const char *enc);

#endif
