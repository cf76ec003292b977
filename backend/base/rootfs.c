/*
 * rootfs: a machine's files, read inside its root; see rootfs.h.
 *
 * openat2(2) with RESOLVE_IN_ROOT resolves a path as if ROOT were "/": an
 * absolute link starts again at ROOT and ".." stops there.  Kernels before
 * 5.6 (and sandboxes that refuse the call) get the same from a walk: one
 * component at a time, each opened with O_NOFOLLOW relative to the one
 * before, a link's target read and resolved the same way, so that a
 * component swapped for a link while the walk runs fails instead of being
 * followed.
 */
#define _GNU_SOURCE
#include "rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "xmalloc.h"

#define ROOTFS_LINKS 40 /* links followed in one path, as the kernel's MAXSYMLINKS */
#define ROOTFS_DEPTH 256 /* directories deep */

static atomic_bool rootfs_walk_only;

void rootfs_force_walk(bool on)
{
	rootfs_walk_only = on;
}

bool rootfs_is_host(const char *root)
{
	return !root || !*root || !strcmp(root, "/");
}

const char *rootfs_strerror(int rc)
{
	switch (-rc) {
	case EINVAL:
		return "not a file of the kind expected (a FIFO, a device, a socket or a directory)";
	case ELOOP:
		return "a link where none may be, or too many links";
	case EFBIG:
		return "larger than pmutop reads of a machine's file";
	case EXDEV:
		return "a link that leads out of the tree";
	}
	return strerror(-rc);
}

const char *rootfs_quote(const char *text, char *buf, size_t len)
{
	size_t n = strlen(text);

	if (n && n <= 60 && strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_.,:=-") == n)
		snprintf(buf, len, "'%s'", text);
	else if (!n)
		snprintf(buf, len, "nothing");
	else
		snprintf(buf, len, "%zu bytes of something else", n);
	return buf;
}

/* The walk: REL resolved inside the root open on ROOTFD, its last component opened with FLAGS. */
static int rootfs_walk(int rootfd, const char *rel, int flags)
{
	int stack[ROOTFS_DEPTH], depth = 0, links = 0, rc = 0;
	char *rest = xmalloc(2 * PATH_MAX + 2), *target = xmalloc(PATH_MAX + 1);
	size_t cap = 2 * PATH_MAX + 2;

	if (strlen(rel) >= cap) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	snprintf(rest, cap, "%s", rel);
	stack[0] = rootfd;
	while (!rc) {
		char comp[NAME_MAX + 1];
		size_t n;
		struct stat st;
		int cur = stack[depth], fd;
		bool last;

		while (*rest == '/')
			memmove(rest, rest + 1, strlen(rest));
		n = strcspn(rest, "/");
		if (n > NAME_MAX) {
			rc = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, rest, n);
		comp[n] = '\0';
		memmove(rest, rest + n, strlen(rest + n) + 1);
		while (*rest == '/')
			memmove(rest, rest + 1, strlen(rest));
		last = !*rest;
		if (!n || !strcmp(comp, ".")) {
			if (last) {
				fd = openat(cur, ".", flags | O_CLOEXEC);
				rc = fd < 0 ? -errno : fd;
				break;
			}
			continue;
		}
		if (!strcmp(comp, "..")) {
			if (depth > 0)
				close(stack[depth--]);
			if (last) {
				fd = openat(stack[depth], ".", flags | O_CLOEXEC);
				rc = fd < 0 ? -errno : fd;
				break;
			}
			continue;
		}
		if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW)) {
			rc = -errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			ssize_t t;

			if (++links > ROOTFS_LINKS || (last && (flags & O_NOFOLLOW))) {
				rc = -ELOOP;
				break;
			}
			t = readlinkat(cur, comp, target, PATH_MAX);
			if (t < 0) {
				rc = -errno;
				break;
			}
			target[t] = '\0';
			if ((size_t)t + strlen(rest) + 2 >= cap) {
				rc = -ENAMETOOLONG;
				break;
			}
			memmove(rest + t + 1, rest, strlen(rest) + 1);
			memcpy(rest, target, (size_t)t);
			rest[t] = *rest ? '/' : '\0';
			if (target[0] == '/')
				while (depth > 0)
					close(stack[depth--]);
			continue;
		}
		if (last) {
			fd = openat(cur, comp, flags | O_NOFOLLOW | O_CLOEXEC);
			rc = fd < 0 ? -errno : fd;
			break;
		}
		if (depth + 1 >= ROOTFS_DEPTH) {
			rc = -ELOOP;
			break;
		}
		fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			rc = -errno;
			break;
		}
		stack[++depth] = fd;
	}
	while (depth > 0)
		close(stack[depth--]);
out:
	free(rest);
	free(target);
	return rc;
}

/* REL opened with FLAGS inside the root open on ROOTFD: an fd or -errno. */
static int rootfs_resolve(int rootfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	while (*rel == '/')
		rel++;
	if (!*rel)
		rel = ".";
	if (!rootfs_walk_only) {
		fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
		if (fd >= 0)
			return fd;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
	}
	return rootfs_walk(rootfd, rel, flags);
}

int rootfs_open_device_at(int rootfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd = -1, fl;

	if (!rootfs_walk_only)
		fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd < 0 && (rootfs_walk_only || errno == ENOSYS || errno == EPERM))
		fd = openat(rootfd, rel, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISREG(st.st_mode))) {
		close(fd);
		return -EINVAL;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/* Whether MODE is of KIND. */
static bool rootfs_kind_ok(mode_t mode, enum rootfs_kind kind)
{
	switch (kind) {
	case ROOTFS_FILE:
		return S_ISREG(mode);
	case ROOTFS_DIR:
		return S_ISDIR(mode);
	case ROOTFS_DEVICE:
		return S_ISCHR(mode) || S_ISREG(mode);
	}
	return false;
}

int rootfs_openat(int dirfd, const char *rel, int flags, enum rootfs_kind kind, int *out)
{
	int fd, access = flags & (O_ACCMODE | O_NOFOLLOW);
	struct stat st;

	*out = -1;
	if (kind == ROOTFS_DIR)
		access = O_RDONLY | O_DIRECTORY | (flags & O_NOFOLLOW);
	fd = rootfs_resolve(dirfd, rel, access | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !rootfs_kind_ok(st.st_mode, kind)) {
		close(fd);
		return -EINVAL;
	}
	if (kind == ROOTFS_DEVICE) {
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	*out = fd;
	return 0;
}

int rootfs_open(const char *root, const char *rel, int flags, enum rootfs_kind kind, int *out)
{
	int rootfd = open(rootfs_is_host(root) ? "/" : root, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	*out = -1;
	if (rootfd < 0)
		return -errno;
	rc = rootfs_openat(rootfd, rel, flags, kind, out);
	close(rootfd);
	return rc;
}

bool rootfs_exists(const char *root, const char *rel)
{
	int rootfd = open(rootfs_is_host(root) ? "/" : root, O_PATH | O_DIRECTORY | O_CLOEXEC), fd;

	if (rootfd < 0)
		return false;
	fd = rootfs_resolve(rootfd, rel, O_PATH);
	close(rootfd);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* All of FD (a regular file), at most CAP bytes, into a new buffer: its length or -errno. */
static ssize_t rootfs_slurp(int fd, size_t cap, char **text)
{
	size_t size = 4096, n = 0;
	char *buf = xmalloc(size + 1);

	for (;;) {
		ssize_t got;

		if (n == size) {
			if (size >= cap) {
				free(buf);
				return -EFBIG;
			}
			size = size * 2 > cap ? cap : size * 2;
			buf = xrealloc(buf, size + 1, 1);
		}
		got = read(fd, buf + n, size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return -(e == EAGAIN ? EINVAL : e);
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	*text = buf;
	return (ssize_t)n;
}

int rootfs_read(const char *root, const char *rel, char *buf, size_t len)
{
	int fd, rc = rootfs_open(root, rel, O_RDONLY, ROOTFS_FILE, &fd);
	size_t n = 0;

	buf[0] = '\0';
	if (rc)
		return rc;
	while (n + 1 < len) {
		ssize_t got = read(fd, buf + n, len - 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = -errno;
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (rc) {
		buf[0] = '\0';
		return rc;
	}
	buf[n] = '\0';
	return (int)n;
}

int rootfs_read_line(const char *root, const char *rel, char *buf, size_t len)
{
	int n = rootfs_read(root, rel, buf, len);

	if (n < 0)
		return n;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* fopencookie's side of a file read whole into memory. */
struct rootfs_mem {
	char *text;
	size_t n, at;
};

static ssize_t rootfs_mem_read(void *cookie, char *buf, size_t size)
{
	struct rootfs_mem *m = cookie;
	size_t k = m->n - m->at < size ? m->n - m->at : size;

	memcpy(buf, m->text + m->at, k);
	m->at += k;
	return (ssize_t)k;
}

static int rootfs_mem_close(void *cookie)
{
	struct rootfs_mem *m = cookie;

	free(m->text);
	free(m);
	return 0;
}

FILE *rootfs_fopen(const char *root, const char *rel)
{
	return rootfs_fopen_as(root, rel, ROOTFS_FILE);
}

FILE *rootfs_fopen_as(const char *root, const char *rel, enum rootfs_kind kind)
{
	static const cookie_io_functions_t io = { .read = rootfs_mem_read,
						  .close = rootfs_mem_close };
	struct rootfs_mem *m;
	char *text = NULL;
	ssize_t n;
	FILE *f;
	int fd, rc = rootfs_open(root, rel, O_RDONLY, kind, &fd);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	n = rootfs_slurp(fd, ROOTFS_MAX, &text);
	close(fd);
	if (n < 0) {
		errno = (int)-n;
		return NULL;
	}
	m = xmalloc(sizeof(*m));
	*m = (struct rootfs_mem){ .text = text, .n = (size_t)n };
	f = fopencookie(m, "r", io);
	if (!f)
		rootfs_mem_close(m);
	return f;
}

DIR *rootfs_opendir(const char *root, const char *rel)
{
	int fd, rc = rootfs_open(root, rel, O_RDONLY, ROOTFS_DIR, &fd);
	DIR *d;

	if (rc) {
		errno = -rc;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		rc = errno;
		close(fd);
		errno = rc;
	}
	return d;
}
