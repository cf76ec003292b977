/*
 * serve_net: what the server (serve.h) listens on and reads at its start:
 * a TCP address, the viewers' local socket, a certificate or password
 * file.  Main thread, before privileges are dropped.
 */
#ifndef PMUTOP_SERVE_NET_H
#define PMUTOP_SERVE_NET_H

#include <stdbool.h>
#include <stddef.h>

/*
 * "[ADDR:]PORT" ("9464", "0.0.0.0:9464", "[::1]:9464") as a listening TCP
 * socket, 127.0.0.1 when no address is given; its URL into URL (https
 * with TLS).  The fd, or -errno with one line in ERR (-EINVAL: the user's
 * to fix: a bad address, a port taken or reserved).
 */
int serve_listen_tcp(const char *spec, char *url, size_t urllen, bool tls, char *err,
		     size_t errlen);

/*
 * PATH as a listening local stream socket, mode 0660, group GROUP (a name
 * or number; NULL: the owner's).  A socket already there is a dead owner's
 * (the caller holds the single-instance lock) and is replaced.  The fd, or
 * -errno with ERR (-EINVAL: no such group).
 */
int serve_listen_local(const char *path, const char *group, char *err, size_t errlen);

/* A small file (up to 1 MiB) as a string (free it); NULL with "WHAT PATH: why" in ERR. */
char *serve_slurp(const char *path, const char *what, char *err, size_t errlen);

#endif
