/*
 * share: one owner, many viewers.  The pmutop that owns the counters
 * serves its samples (serve.h): over TCP when --serve asks, and on a local
 * socket next to the single-instance lock for viewers on the machine.  A
 * pmutop started while another owns the counters attaches there as a
 * viewer (viewer.h), on the screen or with -b; --connect does the same with
 * a remote --serve.  Main thread.
 */
#ifndef PMUTOP_SHARE_H
#define PMUTOP_SHARE_H

#include <stddef.h>

#include "frontend.h"
#include "options.h"
#include "record.h"
#include "serve.h"

/* The viewers' local socket of the machine under ROOT (NULL: this one). */
void share_local_path(const char *root, char *buf, size_t len);

/* The pid holding the counters' lock under ROOT ("unknown"), static storage. */
const char *share_owner_pid(const char *root);

/*
 * The owner's server for session S (A: what a recording would say about the
 * run, HOLDS_LOCK: S holds the machine's single-instance lock, so viewers
 * may attach locally).  *OUT NULL when nothing is served.  0, or the exit
 * status to leave with (the message printed).
 */
int share_start(const struct options *opt, const struct record_about *a, bool holds_lock,
		struct serve **out);

/* End the server: the viewers are told the owner quit. */
void share_stop(struct serve *srv);

/*
 * View another pmutop: its local socket LOCAL_PATH, or OPT->connect.  On
 * the screen, or printed with -b (saying on stderr whose samples they are).
 * Options only the owner honours (--layout, -g, -d ...) are named as
 * ignored.  The exit status; -ECONNREFUSED (nothing printed, ERR says why)
 * when nobody answers at LOCAL_PATH; -EPERM when the process there is not
 * the owner of the counters (a socket anyone could have bound: ERR says
 * who it is).
 */
int share_view(const struct options *opt, const char *local_path, int sigfd, char *err,
	       size_t errlen);

#endif
