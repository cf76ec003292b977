/*
 * serve_peer: who is at the other end of a connection, for the server's
 * limits (serve_guard.c).  All local clients of a loopback address share
 * that address (127.0.0.1, or any of 127.0.0.0/8 a client binds to), so on
 * this machine a client is its user: the kernel says who owns the client's
 * socket (sock_diag's exact lookup of the connection's four-tuple, as
 * ss -tpe shows it; SO_PEERCRED on the viewers' local socket).  A client
 * elsewhere is its address, and so are root's and those of the user pmutop
 * runs for (they own the counters and may stop pmutop anyway).  Any thread.
 */
#ifndef PMUTOP_SERVE_PEER_H
#define PMUTOP_SERVE_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What a limit counts a client as: "user UID" on this machine, or its address. */
struct serve_peer {
	bool local;     /* a user of this machine (UID), else a remote address (ADDR) */
	uid_t uid;
	char addr[64];  /* the remote address, as text */
};

/* The peer of the connected socket FD.  0, or -errno (then nothing is known of it). */
int serve_peer_of(int fd, struct serve_peer *p);

/* Whether A and B are the same client for the limits. */
bool serve_peer_same(const struct serve_peer *a, const struct serve_peer *b);

#endif
