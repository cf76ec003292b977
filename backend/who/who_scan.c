/*
 * who_scan: which cgroups the who view keeps, and their CPU time (see
 * who_int.h).  A tree any user with a delegated cgroup (any container) can
 * grow without limit must neither hide the machine's services nor slow the
 * sampler, so each look:
 *
 *  1. takes as candidates the cgroups it kept, every cgroup that holds a
 *     process (from the process scan: /proc/PID/cgroup, whatever the tree
 *     holds besides), and the cgroups the walk of the tree found this look;
 *  2. ranks them: with processes and CPU time in the interval (the busiest
 *     first), with processes, the machine's own (a directory of root's or
 *     of the user who started pmutop), the rest; an ancestor ranks with its
 *     best descendant and before it, so what is kept is a tree;
 *  3. keeps the first WHO_MAX_CGROUPS and reads their files (cpu.stat,
 *     cgroup.procs, cpuset.cpus.effective): those with processes or CPU
 *     time every look, the idle ones in turns while the look's time budget
 *     lasts (each one's CPU time over the time between its own reads);
 *  4. walks the rest of the tree for what is left of the budget, resuming
 *     where it stopped at the next look (a stack of open directories, one
 *     per level), counting what it finds, so the view can say how many
 *     cgroups it left out.
 *
 * The cost of a look is bounded: at most WHO_MAX_CGROUPS cgroups and the
 * processes read, and the walk stopped at the budget; ranking is a sort
 * (n log n), finding a cgroup by its path a hash table.  Sampler thread.
 */
#define _GNU_SOURCE
#include "who_int.h"
#include "who_rank.h"
#include "rootfs.h"
#include "xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The look's budget: this share of the interval, within these bounds (seconds). */
#define WHO_SCAN_SHARE 0.1
#define WHO_SCAN_MIN_S 0.01
#define WHO_SCAN_MAX_S 0.05
/* a whole walk of the tree starts again this long after the last began, at the earliest */
#define WHO_WALK_EVERY_S 5.0
/* idle cgroups (no process, no CPU time) read again at one look at most: a process that
 * joins one is seen at once from the process scan */
#define WHO_IDLE_PER_LOOK 256

/* The walk: one open directory per level, each read on from where the last look stopped. */
struct who_walk {
	DIR *d[WHO_MAX_DEPTH + 1];
	char path[WHO_MAX_DEPTH + 1][WHO_PATH_MAX];
	int top;                 /* levels open, 0 none: the next look starts at the root */
	long found;              /* cgroups found in this walk so far */
	double began;            /* when it began (the look's time) */
};

static double who_scan_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether a cgroup directory of owner UID is the machine's own (root's, or the starting user's). */
static bool who_system(uid_t uid)
{
	return uid == 0 || uid == getuid();
}

/*
 * Walk the tree on from where the last look stopped, until DEADLINE: each
 * cgroup found a candidate of tier 1 or 0 (by its directory's owner).
 */
static void who_walk(struct who *w, int base, struct who_cands *C, double deadline)
{
	struct who_walk *k = w->walk;
	int steps = 0;

	if (!k)
		k = w->walk = xcalloc(1, sizeof(*k));
	if (!k->top) {
		int fd;

		if (k->began && w->t - k->began < WHO_WALK_EVERY_S)
			return;
		fd = dup(base);

		if (fd < 0 || !(k->d[0] = fdopendir(fd))) {
			if (fd >= 0)
				close(fd);
			return;
		}
		rewinddir(k->d[0]);
		k->path[0][0] = '\0';
		k->top = 1;
		k->found = 0;
		k->began = w->t > 0 ? w->t : 1e-9;
	}
	while (k->top) {
		DIR *d = k->d[k->top - 1];
		const char *at = k->path[k->top - 1];
		struct dirent *de;
		struct stat st;
		char sub[WHO_PATH_MAX];
		int fd;

		if ((++steps & 63) == 0 && who_scan_now() > deadline)
			return;
		de = readdir(d);
		if (!de) {
			closedir(d);
			k->top--;
			if (!k->top) {
				w->found = k->found; /* a whole walk: the tree's size */
				return;
			}
			continue;
		}
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) ||
		    snprintf(sub, sizeof(sub), "%s%s%s", at, *at ? "/" : "", de->d_name) >=
		    (int)sizeof(sub) || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		k->found++;
		if (who_cg_find(w, sub) < 0)
			who_cands_add(C, sub, -1, who_system(st.st_uid) ? 1 : 0, 0);
		/* a directory's links are its own, its parent's and its subdirectories' (kernfs,
		 * tmpfs): 2 says no cgroup under it, and it is not opened */
		if (k->top > WHO_MAX_DEPTH || st.st_nlink == 2)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!(k->d[k->top] = fdopendir(fd))) {
			close(fd);
			continue;
		}
		snprintf(k->path[k->top], sizeof(k->path[0]), "%s", sub);
		k->top++;
	}
}

void who_scan_free(struct who *w)
{
	if (w->walk)
		while (w->walk->top > 0)
			closedir(w->walk->d[--w->walk->top]);
	free(w->walk);
	w->walk = NULL;
	free(w->idx);
	w->idx = NULL;
}

/* A new kept cgroup of PATH. */
static void who_cg_new(struct who_cg *c, const char *path)
{
	const char *leaf = strrchr(path, '/');

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (!*path)
		snprintf(c->name, sizeof(c->name), "/ (the whole machine)");
	else
		who_name(leaf ? leaf + 1 : path, c->name, sizeof(c->name));
	c->fig.dirfd = -1;
	c->usage_s = c->prev_s = NAN;
	c->cpus = NAN;
	for (int k = 0; k < WHO_NEV; k++)
		c->fig.ev[k] = NAN;
	c->mbm_total = c->mbm_local = c->llc = NAN;
}

/* Read cgroup C's files from its directory DFD at time NOW. */
static void who_cg_read(struct who_cg *c, int dfd, double now)
{
	char buf[8192];
	struct stat st;
	int n;

	c->prev_s = c->usage_s;
	c->t_prev = c->t_read;
	c->usage_s = who_usage(dfd);
	c->t_read = now;
	c->have_prev = c->looked && isfinite(c->prev_s) && isfinite(c->usage_s);
	c->looked = true;
	c->cpus = c->have_prev && c->t_read > c->t_prev
		  ? (c->usage_s - c->prev_s) / (c->t_read - c->t_prev) : NAN;
	if (!fstat(dfd, &st))
		c->system = who_system(st.st_uid);
	c->nprocs = 0;
	n = who_readat(dfd, "cgroup.procs", buf, sizeof(buf));
	for (int k = 0; n > 0 && k < n; k++)
		c->nprocs += buf[k] == '\n';
	c->where[0] = '\0';
	if (who_readat(dfd, "cpuset.cpus.effective", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(c->where, sizeof(c->where), "%.95s", buf);
	}
}

static int who_path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct who_cg *)a)->path, ((const struct who_cg *)b)->path);
}

/* The length of PATH's first LEVELS levels ("a/b/c", 2: 3, "a/b"). */
static size_t who_prefix(const char *path, int levels)
{
	size_t k = 0;

	for (int l = 0; l < levels && path[k]; l++) {
		k += strcspn(path + k, "/");
		if (l + 1 < levels && path[k] == '/')
			k++;
	}
	return k;
}

/*
 * Read the kept cgroups' files, in path order, each directory opened from
 * its parent's (a stack of the open levels shared with the one before, no
 * link followed at any level): the active ones and the new ones always, the
 * idle ones in turns until DEADLINE.  GONE[i] when cgroup i is no more.
 */
static void who_refresh(struct who *w, int base, double deadline, bool *gone)
{
	int fds[WHO_MAX_DEPTH + 2], top = 0, idle = 0, turn = w->refresh_at;
	const char *prev = "";
	double now = w->t; /* the look's time, on the clock the files are kept by (an emulator's) */

	fds[0] = base;
	w->refresh_at = 0;
	for (int i = 0; i < w->ncg; i++) {
		struct who_cg *c = &w->cg[i];
		int d = c->depth, l;
		bool active = c->hot || d == 0;

		/* the idle ones in turns from where the last look stopped, while the budget lasts */
		if (!active) {
			if (idle++ < turn)
				continue;
			if (idle - turn > WHO_IDLE_PER_LOOK || who_scan_now() > deadline) {
				if (!w->refresh_at)
					w->refresh_at = idle - 1;
				continue;
			}
		}
		/* the levels shared with the stack (the last cgroup read) stay open */
		for (l = top < d ? top : d; l > 0; l--) {
			size_t a = who_prefix(c->path, l), b = who_prefix(prev, l);

			if (a == b && !strncmp(c->path, prev, a) &&
			    (c->path[a] == '/' || !c->path[a]) && (prev[b] == '/' || !prev[b]))
				break;
		}
		while (top > l)
			close(fds[top--]);
		while (top < d) {
			size_t a = who_prefix(c->path, top), b = who_prefix(c->path, top + 1);
			char part[WHO_PATH_MAX];
			int fd;

			a += top > 0;
			snprintf(part, sizeof(part), "%.*s", (int)(b - a), c->path + a);
			fd = openat(fds[top], part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				break;
			fds[++top] = fd;
		}
		prev = c->path;
		if (top < d) {
			gone[i] = errno == ENOENT || errno == ENOTDIR || errno == ELOOP;
			prev = "";
			while (top > 0)
				close(fds[top--]);
			continue;
		}
		who_cg_read(c, fds[top], now);
	}
	while (top > 0)
		close(fds[top--]);
	if (w->refresh_at >= idle)
		w->refresh_at = 0;
}

/* Cgroup I's parent's index (its path less the last level), or -1 for the root. */
static int who_parent(const struct who *w, int i)
{
	const char *p = w->cg[i].path, *slash = strrchr(p, '/');
	char up[WHO_PATH_MAX];

	if (!*p)
		return -1;
	snprintf(up, sizeof(up), "%.*s", slash ? (int)(slash - p) : 0, p);
	return who_cg_find(w, up);
}

/* The cgroup tree's base directory (v2, or systemd's unified beside v1): an fd, or -1 with why. */
static int who_base(struct who *w)
{
	char buf[256];
	int fd = who_open(w, "sys/fs/cgroup", O_RDONLY | O_DIRECTORY);

	w->cg_base = "sys/fs/cgroup";
	w->v2 = fd >= 0 && who_readat(fd, "cgroup.controllers", buf, sizeof(buf)) >= 0;
	if (fd >= 0 && !w->v2) {
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
	if (fd >= 0 && !w->v2) {
		close(fd);
		fd = -1;
	}
	return fd;
}

void who_tree_scan(struct who *w)
{
	struct who_cands C = { 0 };
	double t0 = who_scan_now(), budget, deadline;
	int base, keep, n0;
	struct who_cg *kept;
	bool *gone, *taken;

	w->looks++;
	budget = w->dt > 0 ? WHO_SCAN_SHARE * w->dt : WHO_SCAN_MAX_S;
	budget = budget < WHO_SCAN_MIN_S ? WHO_SCAN_MIN_S : budget > WHO_SCAN_MAX_S
		 ? WHO_SCAN_MAX_S : budget;
	deadline = t0 + budget;
	base = who_base(w);
	if (base < 0) {
		for (int i = 0; i < w->ncg; i++)
			who_fig_close(&w->cg[i].fig);
		w->ncg = 0;
		who_scan_free(w);
		return;
	}
	/* 1. the candidates: the kept, the root, every cgroup holding a process, what the walk finds */
	for (int i = 0; i < w->ncg; i++) {
		const struct who_cg *c = &w->cg[i];
		bool busy = isfinite(c->cpus) && c->cpus > 0;

		who_cands_add(&C, c->path, i, busy && c->nprocs ? 3 : c->nprocs ? 2 : c->system ? 1 : 0,
			      busy ? c->cpus : 0);
	}
	who_cands_add(&C, "", who_cg_find(w, ""), 2, 0);
	for (int i = 0; i < w->npr; i++) {
		const struct who_proc *p = &w->pr[i];
		double busy = isfinite(p->cpus) ? p->cpus : 0;

		/* (a process whose cgroup is unknown counts in the root's) */
		if (p->seen)
			who_cands_add(&C, p->cgroup, who_cg_find(w, p->cgroup), busy > 0 ? 3 : 2, busy);
	}
	/* half the budget left for the reads: the walk takes what the first half leaves */
	who_walk(w, base, &C, t0 + budget / 2);
	/* 2. ranked, each ancestor with its best descendant */
	n0 = C.n;
	for (int i = 0; i < n0; i++)
		who_cands_up(&C, i);
	qsort(C.c, (size_t)C.n, sizeof(*C.c), who_cand_cmp);
	/* 3. the first WHO_MAX_CGROUPS kept: the old entries moved, the new made, the rest dropped */
	keep = C.n < WHO_MAX_CGROUPS ? C.n : WHO_MAX_CGROUPS;
	kept = xcalloc((size_t)keep + 1, sizeof(*kept));
	taken = xcalloc((size_t)w->ncg + 1, sizeof(bool));
	for (int i = 0; i < keep; i++) {
		/* (a kept cgroup is a candidate with its index from the first: never -1) */
		if (C.c[i].cg >= 0) {
			kept[i] = w->cg[C.c[i].cg];
			taken[C.c[i].cg] = true;
		} else {
			who_cg_new(&kept[i], C.c[i].path);
		}
		kept[i].depth = C.c[i].depth;
		/* read at every look: with processes (here or below), or busy */
		kept[i].hot = C.c[i].tier >= 2;
	}
	for (int i = 0; i < w->ncg; i++)
		if (!taken[i])
			who_fig_close(&w->cg[i].fig); /* ranked out: its counters closed */
	free(taken);
	free(w->cg);
	w->cg = kept;
	w->ncg = keep;
	/* the tree's count: the whole walk's, or what this walk found so far (the larger) */
	{
		long found = w->walk && w->walk->found > w->found ? w->walk->found : w->found;

		/* a walk still under way that found more than the last whole one: "at least" */
		w->counting = w->walk && w->walk->top && w->walk->found > w->found;
		w->left_out = found + 1 > keep ? found + 1 - keep : 0;
	}
	who_cands_free(&C);
	/* 4. read them in path order; the vanished go */
	qsort(w->cg, (size_t)w->ncg, sizeof(*w->cg), who_path_cmp);
	gone = xcalloc((size_t)w->ncg + 1, sizeof(bool));
	who_refresh(w, base, deadline, gone);
	{
		int k = 0;

		for (int i = 0; i < w->ncg; i++) {
			if (gone[i] && w->cg[i].depth > 0) {
				who_fig_close(&w->cg[i].fig);
				continue;
			}
			w->cg[k++] = w->cg[i];
		}
		w->ncg = k;
	}
	free(gone);
	close(base);
	who_index(w);
	for (int i = 0; i < w->ncg; i++)
		w->cg[i].parent = who_parent(w, i);
	w->scan_s = who_scan_now() - t0;
}
