/*
 * serve_net: the server's listening sockets and files.  See serve_net.h.
 */
#include "serve_net.h"

#include <errno.h>
#include <grp.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "frontend.h"

#define SERVE_BACKLOG 4096 /* connections the kernel queues before pmutop accepts them */

/*
 * "[ADDR:]PORT" ("9464", "0.0.0.0:9464", "[::1]:9464") as a listening TCP
 * socket; 127.0.0.1 when no address is given.  The fd, or -errno with ERR.
 */
int serve_listen_tcp(const char *spec, char *url, size_t urllen, bool tls, char *err,
			    size_t errlen)
{
	char host[256] = "127.0.0.1", port[16];
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai;
	char *end;
	long p;
	int fd, rc, one = 1;

	if (colon) {
		size_t hl = (size_t)(colon - spec);

		if (spec[0] == '[' && hl >= 2 && spec[hl - 1] == ']')
			snprintf(host, sizeof(host), "%.*s", (int)(hl - 2), spec + 1);
		else
			snprintf(host, sizeof(host), "%.*s", (int)hl, spec);
		if (!strcmp(host, "*"))
			snprintf(host, sizeof(host), "0.0.0.0");
	}
	errno = 0;
	p = strtol(colon ? colon + 1 : spec, &end, 10);
	if (errno || *end || end == (colon ? colon + 1 : spec) || p < 1 || p > 65535) {
		snprintf(err, errlen, "--serve %s: give [ADDRESS:]PORT with a port from 1 to 65535 "
			 "(9464, 0.0.0.0:9464, [::1]:9464)", spec);
		return -EINVAL;
	}
	snprintf(port, sizeof(port), "%ld", p);
	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "--serve %s: '%s' is not a numeric IPv4 or IPv6 address "
			 "(%s)", spec, host, gai_strerror(rc));
		return -EINVAL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "--serve %s: %s", spec, strerror(-rc));
		freeaddrinfo(ai);
		return rc;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* A deep accept queue: a local user churning connections fills a short one between two
	 * accepts, the kernel then drops a scrape's SYN and the client resends it a second later.
	 * The kernel caps the depth at net.core.somaxconn. */
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, SERVE_BACKLOG) < 0) {
		rc = -errno;
		snprintf(err, errlen, "--serve %s: cannot listen there: %s%s", spec, strerror(-rc),
			 rc == -EADDRINUSE ? " (another program uses that port: give another)"
			 : rc == -EACCES ? " (ports below 1024 need root: give a higher one)"
			 : rc == -EADDRNOTAVAIL ? " (no interface of this machine has that address)"
			 : "");
		close(fd);
		freeaddrinfo(ai);
		return rc == -EADDRINUSE || rc == -EACCES || rc == -EADDRNOTAVAIL ? -EINVAL : rc;
	}
	snprintf(url, urllen, "%s://%s%s%s:%s", tls ? "https" : "http",
		 ai->ai_family == AF_INET6 ? "[" : "", host, ai->ai_family == AF_INET6 ? "]" : "",
		 port);
	freeaddrinfo(ai);
	return fd;
}

/* PATH as a local stream socket, mode 0660 (group GROUP when given).  The fd, or -errno. */
int serve_listen_local(const char *path, const char *group, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	gid_t gid = (gid_t)-1;
	int fd, rc;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "the viewers' socket path %s is too long", path);
		return -ENAMETOOLONG;
	}
	if (group) {
		struct group *gr = getgrnam(group);
		char *end;
		long n = strtol(group, &end, 10);

		if (gr)
			gid = gr->gr_gid;
		else if (*group && !*end && n >= 0)
			gid = (gid_t)n;
		else {
			snprintf(err, errlen, "--viewers-group %s: no such group", group);
			return -EINVAL;
		}
	}
	strcpy(sa.sun_path, path);
	/* the caller holds the single-instance lock: a socket left there is a dead owner's */
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || chmod(path, 0660) < 0 ||
	    (gid != (gid_t)-1 && chown(path, (uid_t)-1, gid) < 0) || listen(fd, SERVE_BACKLOG) < 0) {
		rc = -errno;
		snprintf(err, errlen, "viewers cannot attach: cannot listen on %s: %s", path,
			 strerror(-rc));
		close(fd);
		unlink(path);
		return rc == -EINVAL ? -EIO : rc;
	}
	return fd;
}

/* Read a whole (small) file into a string; NULL with ERR. */
char *serve_slurp(const char *path, const char *what, char *err, size_t errlen)
{
	FILE *f = paths_fopen_trusted(path, what, err, errlen);
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = xmalloc(1 << 20);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

