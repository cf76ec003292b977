/*
 * serve_peer: a connection's client as a user or an address; see
 * serve_peer.h.  The lookup is one netlink round trip (NETLINK_SOCK_DIAG,
 * SOCK_DIAG_BY_FAMILY without NLM_F_DUMP: the kernel's exact match of the
 * client's socket by source and destination address and port), made once
 * per connection when it starts.
 */
#define _GNU_SOURCE
#include "serve_peer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* Whether SA is a loopback address (127.0.0.0/8, ::1, or 127/8 mapped into IPv6). */
static bool serve_peer_loopback(const struct sockaddr_storage *sa)
{
	if (sa->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->ss_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
	}
	return false;
}

/* The owner of the socket whose local end is CLIENT and remote end SERVER (this machine's). */
static int serve_peer_diag(const struct sockaddr_storage *client,
			   const struct sockaddr_storage *server, uid_t *uid)
{
	struct {
		struct nlmsghdr nh;
		struct inet_diag_req_v2 r;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1 },
		.r = { .sdiag_family = (unsigned char)client->ss_family,
		       .sdiag_protocol = IPPROTO_TCP, .idiag_states = ~0u,
		       .id.idiag_cookie = { INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE } },
	};
	struct timeval tv = { .tv_sec = 1 };
	union {
		struct nlmsghdr nh;
		char buf[8192];
	} resp;
	ssize_t n;
	int fd, rc = -ENOENT;

	if (client->ss_family == AF_INET) {
		const struct sockaddr_in *c = (const void *)client, *s = (const void *)server;

		req.r.id.idiag_sport = c->sin_port;
		req.r.id.idiag_dport = s->sin_port;
		memcpy(req.r.id.idiag_src, &c->sin_addr, 4);
		memcpy(req.r.id.idiag_dst, &s->sin_addr, 4);
	} else {
		const struct sockaddr_in6 *c = (const void *)client, *s = (const void *)server;

		req.r.id.idiag_sport = c->sin6_port;
		req.r.id.idiag_dport = s->sin6_port;
		memcpy(req.r.id.idiag_src, &c->sin6_addr, 16);
		memcpy(req.r.id.idiag_dst, &s->sin6_addr, 16);
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	n = recv(fd, &resp, sizeof(resp), 0);
	if (n >= (ssize_t)sizeof(struct nlmsghdr) && NLMSG_OK(&resp.nh, (size_t)n) &&
	    resp.nh.nlmsg_type == SOCK_DIAG_BY_FAMILY &&
	    resp.nh.nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
		const struct inet_diag_msg *m = NLMSG_DATA(&resp.nh);

		*uid = (uid_t)m->idiag_uid;
		rc = 0;
	}
	close(fd);
	return rc;
}

int serve_peer_of(int fd, struct serve_peer *p)
{
	struct sockaddr_storage peer, self;
	socklen_t pl = sizeof(peer), sl = sizeof(self);

	memset(p, 0, sizeof(*p));
	if (getpeername(fd, (struct sockaddr *)&peer, &pl) ||
	    getsockname(fd, (struct sockaddr *)&self, &sl))
		return -errno;
	if (peer.ss_family == AF_UNIX) {
		struct ucred cr;
		socklen_t cl = sizeof(cr);

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl))
			return -errno;
		p->local = true;
		p->uid = cr.uid;
		if (!cr.uid || cr.uid == getuid())
			snprintf(p->addr, sizeof(p->addr), "the local socket");
		p->local = cr.uid && cr.uid != getuid();
		return 0;
	}
	/*
	 * root and the user pmutop runs for own the counters (and may stop pmutop): their
	 * clients are counted by address, as any client elsewhere
	 */
	if (serve_peer_loopback(&peer) && !serve_peer_diag(&peer, &self, &p->uid) && p->uid &&
	    p->uid != getuid()) {
		p->local = true;
		return 0;
	}
	p->uid = 0;
	if (peer.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&peer)->sin_addr, p->addr, sizeof(p->addr));
	else if (peer.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&peer)->sin6_addr, p->addr,
			  sizeof(p->addr));
	else
		return -EAFNOSUPPORT;
	return 0;
}

bool serve_peer_same(const struct serve_peer *a, const struct serve_peer *b)
{
	return a->local == b->local && (a->local ? a->uid == b->uid : !strcmp(a->addr, b->addr));
}
