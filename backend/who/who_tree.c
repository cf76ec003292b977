/*
 * who_tree: the cgroup v2 tree and the processes as files show them (see
 * who.h).  Every file is opened through rootfs (inside the root, without
 * blocking, a regular file or a directory) and without a link at its last
 * step: a link or a FIFO planted in a tree (a --root copy, a container's
 * bind mount) is never followed out of it or waited on.  Sampler thread.
 */
#define _GNU_SOURCE
#include "who_int.h"
#include "rootfs.h"
#include "text.h"
#include "xmalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int who_open(const struct who *w, const char *rel, int flags)
{
	return who_open_at(w->root, rel, flags);
}

int who_open_at(const char *root, const char *rel, int flags)
{
	int fd, rc = rootfs_open(root, rel, (flags & O_ACCMODE) | O_NOFOLLOW,
				 flags & O_DIRECTORY ? ROOTFS_DIR : ROOTFS_FILE, &fd);

	return rc ? rc : fd;
}

int who_readat(int dfd, const char *name, char *buf, size_t len)
{
	int fd, rc = rootfs_openat(dfd, name, O_RDONLY | O_NOFOLLOW, ROOTFS_FILE, &fd);
	ssize_t n;

	buf[0] = '\0';
	if (rc)
		return rc;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

int who_read(const struct who *w, const char *rel, char *buf, size_t len)
{
	const char *slash = strrchr(rel, '/');
	char dir[WHO_PATH_MAX + 64];
	int dfd, n;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - rel) : 0, rel);
	dfd = who_open(w, dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		buf[0] = '\0';
		return dfd;
	}
	n = who_readat(dfd, slash ? slash + 1 : rel, buf, len);
	close(dfd);
	return n;
}

/* ID's first 12 characters after PREFIX in NAME (ending in SUFFIX), as "KIND id". */
static bool who_name_id(const char *name, const char *prefix, const char *suffix, const char *kind,
			char *out, size_t len)
{
	size_t p = strlen(prefix), s = strlen(suffix), n = strlen(name);

	if (n <= p + s || strncmp(name, prefix, p) || strcmp(name + n - s, suffix))
		return false;
	snprintf(out, len, "%s %.*s", kind, (int)(n - p - s < 12 ? n - p - s : 12), name + p);
	return true;
}

void who_name(const char *name, char *out, size_t len)
{
	const char *pod = strstr(name, "-pod");

	if (who_name_id(name, "docker-", ".scope", "docker", out, len) ||
	    who_name_id(name, "cri-containerd-", ".scope", "containerd", out, len) ||
	    who_name_id(name, "crio-", ".scope", "cri-o", out, len) ||
	    who_name_id(name, "libpod-", ".scope", "podman", out, len))
		return;
	/* kubelet's systemd driver: kubepods-burstable-pod<uid with _>.slice */
	if (!strncmp(name, "kubepods", 8) && pod && strlen(pod) > 4 + 6) {
		snprintf(out, len, "pod %.8s", pod + 4);
		return;
	}
	if (!strncmp(name, "user-", 5) && strstr(name, ".slice") && isdigit((unsigned char)name[5])) {
		snprintf(out, len, "user %.*s", (int)strcspn(name + 5, "."), name + 5);
		return;
	}
	snprintf(out, len, "%s", name);
}

double who_usage(int dfd)
{
	char buf[1024];
	const char *u;

	if (who_readat(dfd, "cpu.stat", buf, sizeof(buf)) < 0 || !(u = strstr(buf, "usage_usec ")))
		return NAN;
	return strtod(u + 11, NULL) / 1e6;
}

/* The v2 line of a cgroup file TEXT ("0::/PATH") into BUF without its slash; 0 or -ENOENT. */
static int who_cgroup_line(const char *text, char *buf, size_t len)
{
	const char *line;

	/* cgroup v2's line: "0::/PATH" */
	if (!strncmp(text, "0::", 3)) {
		line = text + 3;
	} else {
		line = strstr(text, "\n0::");
		if (!line)
			return -ENOENT;
		line += 4;
	}
	if (*line == '/')
		line++;
	snprintf(buf, len, "%.*s", (int)strcspn(line, "\n"), line);
	return 0;
}

int who_pid_cgroup(const struct who *w, int pid, char *buf, size_t len)
{
	char rel[64], text[4096];
	int n;

	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	if ((n = who_read(w, rel, text, sizeof(text))) < 0)
		return n;
	return who_cgroup_line(text, buf, len);
}

/* The cgroup of the process whose /proc directory is open on PFD into BUF ("" unknown). */
static void who_cgroup_of(int pfd, char *buf, size_t len)
{
	char text[4096];

	if (who_readat(pfd, "cgroup", text, sizeof(text)) < 0 || who_cgroup_line(text, buf, len))
		buf[0] = '\0';
}

/* /proc/PID/stat's command and utime + stime in ticks; 0 or -errno. */
static int who_proc_stat(int pfd, char *comm, size_t len, double *ticks)
{
	char buf[2048], *open_p, *close_p, *s;
	double v[2];
	int field = 3, got = 0;

	if (who_readat(pfd, "stat", buf, sizeof(buf)) <= 0)
		return -ENOENT;
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p)
		return -EINVAL;
	text_clean(comm, len, open_p + 1, (size_t)(close_p - open_p - 1));
	s = close_p + 1;
	/* proc(5): utime is field 14, stime 15 (the state, field 3, follows the command) */
	for (char *tok = strtok(s, " "); tok && got < 2; tok = strtok(NULL, " "), field++)
		if (field == 14 || field == 15)
			v[got++] = strtod(tok, NULL);
	if (got < 2)
		return -EINVAL;
	*ticks = v[0] + v[1];
	return 0;
}

static int who_pid_cmp(const void *a, const void *b)
{
	const struct who_proc *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The busiest first (by CPU time; without a figure last), then by PID. */
static int who_busy_cmp(const void *a, const void *b)
{
	const struct who_proc *x = a, *y = b;
	double kx = isfinite(x->cpus) ? x->cpus : -1, ky = isfinite(y->cpus) ? y->cpus : -1;

	return kx < ky ? 1 : kx > ky ? -1 : who_pid_cmp(a, b);
}

void who_procs_scan(struct who *w)
{
	int fd = who_open(w, "proc", O_RDONLY | O_DIRECTORY), k = 0, dup_fd, known = w->npr;
	DIR *d;
	struct dirent *de;

	for (int i = 0; i < w->npr; i++)
		w->pr[i].seen = false;
	/* the known processes by PID, found by bisection; the new ones added after them */
	if (known) /* (qsort and bsearch take no NULL array, even empty) */
		qsort(w->pr, (size_t)known, sizeof(*w->pr), who_pid_cmp);
	if (fd >= 0 && (dup_fd = dup(fd)) >= 0) {
		d = fdopendir(dup_fd);
		if (!d)
			close(dup_fd);
		while (d && (de = readdir(d))) {
			char comm[32];
			double ticks;
			int pid, pfd, i;
			bool fresh;

			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			pid = atoi(de->d_name);
			pfd = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (pfd < 0)
				continue;
			if (who_proc_stat(pfd, comm, sizeof(comm), &ticks)) {
				close(pfd);
				continue; /* exited in between */
			}
			{
				struct who_proc key = { .pid = pid }, *at = !known ? NULL
					: bsearch(&key, w->pr, (size_t)known, sizeof(*w->pr), who_pid_cmp);

				i = at ? (int)(at - w->pr) : w->npr;
			}
			fresh = i == w->npr;
			if (fresh) {
				w->pr = xrealloc(w->pr, (size_t)w->npr + 1, sizeof(*w->pr));
				memset(&w->pr[i], 0, sizeof(w->pr[i]));
				w->pr[i].pid = pid;
				w->pr[i].fig.dirfd = -1;
				for (int e = 0; e < WHO_NEV; e++)
					w->pr[i].fig.ev[e] = NAN;
				w->npr++;
			} else {
				w->pr[i].have_prev = w->have_t;
			}
			snprintf(w->pr[i].comm, sizeof(w->pr[i].comm), "%s", comm);
			/* its cgroup (the scan keeps every cgroup with processes): read when new, then
			 * again one look in WHO_CGROUP_REREAD (a process seldom moves) */
			if (fresh || (pid + w->looks) % WHO_CGROUP_REREAD == 0)
				who_cgroup_of(pfd, w->pr[i].cgroup, sizeof(w->pr[i].cgroup));
			close(pfd);
			w->pr[i].prev_ticks = w->pr[i].ticks;
			w->pr[i].ticks = ticks;
			w->pr[i].seen = true;
		}
		if (d)
			closedir(d);
	}
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < w->npr; i++) {
		struct who_proc *p = &w->pr[i];

		if (!p->seen) {
			who_fig_close(&p->fig);
			continue;
		}
		p->cpus = p->have_prev && w->dt > 0
			  ? (p->ticks - p->prev_ticks) / (double)w->clk_tck / w->dt : NAN;
		w->pr[k++] = *p;
	}
	w->npr = k;
	/* the busiest first: the rows shown and the processes counted */
	if (w->npr)
		qsort(w->pr, (size_t)w->npr, sizeof(*w->pr), who_busy_cmp);
}
