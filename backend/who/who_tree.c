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

int who_cg_find(const struct who *w, const char *path)
{
	for (int i = 0; i < w->ncg; i++)
		if (!strcmp(w->cg[i].path, path))
			return i;
	return -1;
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

/* What a cgroup directory NAME is, for a person: a container, a pod, a unit. */
static void who_name(const char *name, char *out, size_t len)
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

/* The CPU time in cpu.stat (usage_usec) in seconds, NaN when unreadable. */
static double who_usage(int dfd)
{
	char buf[1024];
	const char *u;

	if (who_readat(dfd, "cpu.stat", buf, sizeof(buf)) < 0 || !(u = strstr(buf, "usage_usec ")))
		return NAN;
	return strtod(u + 11, NULL) / 1e6;
}

static int who_cg_add(struct who *w, const char *path, int depth, int parent)
{
	struct who_cg *c;
	const char *leaf = strrchr(path, '/');

	w->cg = xrealloc(w->cg, (size_t)w->ncg + 1, sizeof(*w->cg));
	c = &w->cg[w->ncg];
	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (!*path)
		snprintf(c->name, sizeof(c->name), "/ (the whole machine)");
	else
		who_name(leaf ? leaf + 1 : path, c->name, sizeof(c->name));
	c->depth = depth;
	c->parent = parent;
	c->fig.dirfd = -1;
	for (int k = 0; k < WHO_NEV; k++)
		c->fig.ev[k] = NAN;
	return w->ncg++;
}

/*
 * Cgroup PATH's index: the array is kept in the order of the last scan, so
 * the next one expected (W's hint) is the one almost every time; a new or
 * moved one is looked for, a new one added.
 */
static int who_cg_at(struct who *w, const char *path, int depth, int parent)
{
	int i = w->hint < w->ncg && !strcmp(w->cg[w->hint].path, path) ? w->hint
		: who_cg_find(w, path);

	if (i < 0)
		i = who_cg_add(w, path, depth, parent);
	w->hint = i + 1;
	return i;
}

/* Read cgroup PATH (open at DFD) and, depth first, the cgroups under it; its index. */
static int who_tree_dir(struct who *w, int dfd, const char *path, int depth, int parent)
{
	char buf[8192];
	int i = who_cg_at(w, path, depth, parent), n;
	struct who_cg *c;
	DIR *d;
	struct dirent *de;
	int dup_fd;

	c = &w->cg[i];
	c->seen = true;
	c->visit = w->visits++;
	c->parent = parent;
	c->depth = depth;
	c->prev_s = c->usage_s;
	c->usage_s = who_usage(dfd);
	c->have_prev = c->looked && isfinite(c->prev_s) && isfinite(c->usage_s);
	c->looked = true;
	c->nprocs = 0;
	n = who_readat(dfd, "cgroup.procs", buf, sizeof(buf));
	for (int k = 0; n > 0 && k < n; k++)
		c->nprocs += buf[k] == '\n';
	if (who_readat(dfd, "cpuset.cpus.effective", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(c->where, sizeof(c->where), "%.95s", buf);
	}
	if (depth >= WHO_MAX_DEPTH || (dup_fd = dup(dfd)) < 0)
		return i;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return i;
	}
	while ((de = readdir(d))) {
		char sub[WHO_PATH_MAX];
		int sfd;

		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "/" : "", de->d_name) >=
		    (int)sizeof(sub))
			continue;
		if (w->ncg >= WHO_MAX_CGROUPS && who_cg_find(w, sub) < 0) {
			w->cut = true;
			continue;
		}
		sfd = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sfd < 0)
			continue; /* vanished since, or not a directory: not a cgroup */
		who_tree_dir(w, sfd, sub, depth + 1, i);
		close(sfd);
	}
	closedir(d);
	return i;
}

static int who_visit_cmp(const void *a, const void *b)
{
	const struct who_cg *x = a, *y = b;

	return (x->visit > y->visit) - (x->visit < y->visit);
}

void who_tree_scan(struct who *w)
{
	char buf[256];
	int fd = who_open(w, "sys/fs/cgroup", O_RDONLY | O_DIRECTORY), k = 0;

	for (int i = 0; i < w->ncg; i++)
		w->cg[i].seen = false;
	w->cut = false;
	w->hint = 0;
	w->visits = 0;
	w->cg_base = "sys/fs/cgroup";
	w->v2 = fd >= 0 && who_readat(fd, "cgroup.controllers", buf, sizeof(buf)) >= 0;
	if (fd >= 0 && !w->v2) {
		/* systemd's hybrid layout: v1 controllers, the v2 tree (every cpu.stat) beside */
		int u = who_open(w, "sys/fs/cgroup/unified", O_RDONLY | O_DIRECTORY);

		if (u >= 0 && who_readat(u, "cgroup.controllers", buf, sizeof(buf)) >= 0) {
			close(fd);
			fd = u;
			w->v2 = true;
			w->cg_base = "sys/fs/cgroup/unified";
		} else if (u >= 0) {
			close(u);
		}
	}
	if (fd < 0)
		snprintf(w->why, sizeof(w->why), "no cgroup tree at %.120s%ssys/fs/cgroup (%s): mount "
			 "cgroup2 there", w->root, w->root[strlen(w->root) - 1] == '/' ? "" : "/",
			 strerror(-fd));
	else if (!w->v2)
		snprintf(w->why, sizeof(w->why), "the cgroup tree is version 1 (no cgroup.controllers "
			 "at its top, no systemd unified tree): pmutop reads cgroup v2 (boot with "
			 "systemd.unified_cgroup_hierarchy=1)");
	if (w->v2)
		who_tree_dir(w, fd, "", 0, -1);
	if (fd >= 0)
		close(fd);
	/* the vanished: their counters closed, their rows gone */
	for (int i = 0; i < w->ncg; i++) {
		if (!w->cg[i].seen) {
			who_fig_close(&w->cg[i].fig);
			continue;
		}
		w->cg[i].parent_visit = w->cg[i].parent >= 0 ? w->cg[w->cg[i].parent].visit : -1;
		w->cg[k++] = w->cg[i];
	}
	w->ncg = k;
	/*
	 * In the order of this scan (the next one's hints): every cgroup kept was
	 * visited once, so its place is its visit, and its parent's place its
	 * parent's visit.
	 */
	if (w->ncg)
		qsort(w->cg, (size_t)w->ncg, sizeof(*w->cg), who_visit_cmp);
	for (int i = 0; i < w->ncg; i++)
		w->cg[i].parent = w->cg[i].parent_visit;
}

int who_pid_cgroup(const struct who *w, int pid, char *buf, size_t len)
{
	char rel[64], text[4096];
	const char *line;
	int n;

	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	if ((n = who_read(w, rel, text, sizeof(text))) < 0)
		return n;
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
			close(pfd);
			{
				struct who_proc key = { .pid = pid }, *at = !known ? NULL
					: bsearch(&key, w->pr, (size_t)known, sizeof(*w->pr), who_pid_cmp);

				i = at ? (int)(at - w->pr) : w->npr;
			}
			if (i == w->npr) {
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
