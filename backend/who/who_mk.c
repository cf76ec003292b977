/*
 * who_mk: resctrl monitoring groups pmutop makes when asked (--who-resctrl
 * CGROUPS): one per cgroup, named pmutop-PID-K, holding the cgroup's
 * processes (the tasks they start follow them, as resctrl's tasks do; the
 * processes that join the cgroup later are moved at the next look,
 * who_mk_follow), so that the who pane shows its memory bandwidth and L3.  Made
 * only where the RMIDs suffice (info/L3_MON/num_rmids against the groups
 * that hold one: the default group, the control groups, every monitoring
 * group), removed at exit and, when pmutop is killed, by a guard (guard.h)
 * that holds the mon_groups directory open.  Only what pmutop made is
 * removed: each group's directory is known by its device and inode, kept
 * at mkdir in memory the guard shares, and found again by them, never by
 * its name alone; its tasks file is opened without blocking, relative to
 * the group's own directory held open, and refused unless a regular file.
 * As root on a --root tree, the resctrl directories must be root's (or the
 * starting user's) and closed to others (paths_check_tree).  Every path
 * walked without following links.  Main thread; who_mk_follow on the
 * sampler's.
 */
#define _GNU_SOURCE
#include "who_int.h"
#include "cpulist.h"
#include "guard.h"
#include "xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "rootfs.h"

#define WHO_MK_MAX 64
#define WHO_MK_PROCS (1 << 20)

struct who_mk {
	int mgfd;                 /* ROOT/sys/fs/resctrl/mon_groups */
	char root[4096];
	const char *base;         /* the cgroup v2 tree under ROOT */
	char path[WHO_MK_MAX][WHO_PATH_MAX]; /* each group's cgroup */
	int *known[WHO_MK_MAX];   /* the processes it holds (as last written), sorted */
	int nknown[WHO_MK_MAX];
	char *procs;              /* a cgroup.procs read, WHO_MK_PROCS bytes (kept across looks) */
	/* every group's name, known before the guard's fork */
	char names[WHO_MK_MAX][64];
	int gfd[WHO_MK_MAX];      /* each group's directory, held open */
	/* what pmutop made, shared with the guard (it was forked before the groups were) */
	struct who_mk_made {
		dev_t dev;
		ino_t ino;
		bool made;
	} *ids;
	int n;
	int made;                 /* made so far */
	char follow_err[256];     /* the last look's first failure to move a process, "" none */
	struct guard guard;
};

/* The RMIDs in use under the resctrl directory RFD: the default group's, each group's. */
static int who_mk_used(int rfd)
{
	int used = 1, fd;
	DIR *d;
	struct dirent *de;

	if ((fd = openat(rfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return used;
	}
	while ((de = readdir(d))) {
		int sub;
		DIR *m;
		struct dirent *me;

		if (de->d_name[0] == '.' || de->d_type != DT_DIR || !strcmp(de->d_name, "info") ||
		    !strcmp(de->d_name, "mon_data"))
			continue;
		/* a control group holds an RMID; its mon_groups (and the top's) one each */
		used += strcmp(de->d_name, "mon_groups") != 0;
		sub = openat(rfd, !strcmp(de->d_name, "mon_groups") ? "mon_groups" : de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0 && strcmp(de->d_name, "mon_groups")) {
			int mg = openat(sub, "mon_groups", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			close(sub);
			sub = mg;
		}
		if (sub < 0 || !(m = fdopendir(sub))) {
			if (sub >= 0)
				close(sub);
			continue;
		}
		while ((me = readdir(m)))
			used += me->d_name[0] != '.' && me->d_type == DT_DIR;
		closedir(m);
	}
	closedir(d);
	return used;
}

/*
 * The entry of MGFD that is the directory ID (by device and inode: under its
 * own name, or wherever it was renamed to in mon_groups) into NAME (64
 * bytes).  0, or -ENOENT when it is not there: pmutop removes nothing else.
 */
static int who_mk_find(int mgfd, const struct who_mk_made *id, const char *made_as, char *name)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd, rc = -ENOENT;

	if (!fstatat(mgfd, made_as, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
	    st.st_dev == id->dev && st.st_ino == id->ino) {
		snprintf(name, 64, "%s", made_as);
		return 0;
	}
	if ((fd = openat(mgfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while (rc && (de = readdir(d)))
		if (de->d_name[0] != '.' && strlen(de->d_name) < 64 &&
		    !fstatat(mgfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
		    st.st_dev == id->dev && st.st_ino == id->ino) {
			snprintf(name, 64, "%s", de->d_name);
			rc = 0;
		}
	closedir(d);
	return rc;
}

/*
 * Remove group K if it is still the directory pmutop made: its tasks file
 * where a plain tree has one (relative to the group itself, GFD), then the
 * directory.  0 (also when it is gone), or -errno.
 */
static int who_mk_rm(struct who_mk *m, int k, int gfd)
{
	char name[64];

	if (!m->ids[k].made || who_mk_find(m->mgfd, &m->ids[k], m->names[k], name))
		return 0; /* never made, or gone: whatever has its name now is not pmutop's */
	if (gfd >= 0)
		unlinkat(gfd, "tasks", 0); /* resctrl refuses (EPERM) and removes it with the group */
	if (unlinkat(m->mgfd, name, AT_REMOVEDIR) && errno != ENOENT)
		return -errno;
	m->ids[k].made = false;
	return 0;
}

/* In the guard, pmutop gone: remove its groups (their tasks go back to the default group). */
static int who_mk_undo(void *ctx, pid_t parent)
{
	struct who_mk *m = ctx;
	int failed = 0, had = 0;

	for (int i = 0; i < m->n; i++) {
		int gfd = -1;
		char name[64];

		if (!m->ids[i].made)
			continue;
		had++;
		/* the group's own directory, found by its inode, to remove a plain tree's tasks in */
		if (!who_mk_find(m->mgfd, &m->ids[i], m->names[i], name))
			gfd = openat(m->mgfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		failed |= who_mk_rm(m, i, gfd) != 0;
		if (gfd >= 0)
			close(gfd);
	}
	if (had && dprintf(STDERR_FILENO, "pmutop: pid %d ended without removing its resctrl "
			   "monitoring groups; its guard %s\n", (int)parent,
			   failed ? "could not remove them all" : "removed them") < 0) {
		/* no stderr left */
	}
	return failed;
}

/* The processes of cgroup K's cgroup.procs, sorted, into *OUT: how many, or -errno. */
static int who_mk_procs(struct who_mk *m, int k, int **out)
{
	char rel[WHO_PATH_MAX + 64];
	int cfd, n, np = 0;

	*out = NULL;
	if (!m->procs)
		m->procs = xmalloc(WHO_MK_PROCS);
	snprintf(rel, sizeof(rel), "%s/%s", m->base, m->path[k]);
	cfd = who_open_at(m->root, rel, O_RDONLY | O_DIRECTORY);
	n = cfd < 0 ? cfd : who_readat(cfd, "cgroup.procs", m->procs, WHO_MK_PROCS);
	if (cfd >= 0)
		close(cfd);
	if (n < 0)
		return n;
	*out = xcalloc((size_t)n / 2 + 1, sizeof(int));
	for (char *line = m->procs; *line; line += strcspn(line, "\n"), line += *line == '\n')
		if (atoi(line) > 0)
			(*out)[np++] = atoi(line);
	return cpulist_normalise(*out, np);
}

/* Whether group K holds process PID already (bsearch takes no NULL array, even empty). */
static bool who_mk_holds(const struct who_mk *m, int k, int pid)
{
	return m->known[k] && cpulist_contains(m->known[k], m->nknown[k], pid);
}

/*
 * Write the processes of PIDS (N, sorted) that group K does not hold yet
 * into its tasks, one a write as resctrl wants; then it holds PIDS.  A
 * process that ended meanwhile is no error.  0, or -errno with ERR.
 */
static int who_mk_move(struct who_mk *m, int k, int *pids, int n, char *err, size_t errlen)
{
	int gfd, tfd, rc = 0, fresh = 0;

	for (int i = 0; i < n; i++)
		fresh += !who_mk_holds(m, k, pids[i]);
	if (!fresh && m->known[k]) {
		/* nobody joined: nothing to write (the tasks file not even opened) */
		free(m->known[k]);
		m->known[k] = pids;
		m->nknown[k] = n;
		return 0;
	}
	/* in the group's own directory (held since mkdir); a FIFO or a link there is refused */
	gfd = m->gfd[k];
	tfd = openat(gfd, "tasks", O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (tfd >= 0) {
		struct stat st;

		if (fstat(tfd, &st) || !S_ISREG(st.st_mode)) {
			close(tfd);
			tfd = -1;
			errno = EINVAL;
		}
	}
	if (tfd < 0) {
		snprintf(err, errlen, "--who-resctrl: cannot open mon_groups/%s/tasks: %s", m->names[k],
			 errno == EINVAL || errno == ENXIO ? "not a regular file (resctrl's is one)"
			 : strerror(errno));
		free(pids);
		return -EIO;
	}
	lseek(tfd, 0, SEEK_END); /* resctrl ignores the offset; a plain file keeps each line */
	for (int i = 0; i < n && !rc; i++) {
		char pid[24];
		int len = snprintf(pid, sizeof(pid), "%d\n", pids[i]);

		if (who_mk_holds(m, k, pids[i]))
			continue;
		if (write(tfd, pid, (size_t)len) != len && errno != ESRCH) {
			snprintf(err, errlen, "--who-resctrl: cannot move process %d into mon_groups/"
				 "%s: %s", pids[i], m->names[k], strerror(errno));
			rc = -EIO;
		}
	}
	close(tfd);
	free(m->known[k]);
	m->known[k] = pids;
	m->nknown[k] = n;
	return rc;
}

const char *who_mk_follow(struct who_mk *m)
{
	char err[256];

	if (!m)
		return NULL;
	m->follow_err[0] = '\0';
	for (int k = 0; k < m->made; k++) {
		int *pids, n = who_mk_procs(m, k, &pids);

		if (n >= 0 && who_mk_move(m, k, pids, n, err, sizeof(err)) && !m->follow_err[0])
			snprintf(m->follow_err, sizeof(m->follow_err), "%s", err);
	}
	return m->follow_err[0] ? m->follow_err : NULL;
}

/* Group K for cgroup PATH (its processes from its cgroup.procs); 0 or -errno with ERR. */
static int who_mk_one(struct who_mk *m, int k, const char *path, char *err, size_t errlen)
{
	int *pids, n;
	const char *name = m->names[k];

	snprintf(m->path[k], sizeof(m->path[k]), "%s", path);
	n = who_mk_procs(m, k, &pids);
	if (n < 0) {
		snprintf(err, errlen, "--who-resctrl: no cgroup /%s (%s): give cgroup paths as the who "
			 "pane shows them", path, strerror(-n));
		return n;
	}
	if (mkdirat(m->mgfd, name, 0755)) {
		int rc = -errno;

		snprintf(err, errlen, "--who-resctrl: cannot make mon_groups/%s: %s%s", name,
			 strerror(-rc), rc == -ENOSPC ? " (no RMID left)" : "");
		free(pids);
		return rc;
	}
	m->made = k + 1;
	/* what was made, by its inode: only that is ever written into or removed */
	{
		struct stat st;

		m->gfd[k] = openat(m->mgfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (m->gfd[k] < 0 || fstat(m->gfd[k], &st)) {
			snprintf(err, errlen, "--who-resctrl: mon_groups/%s changed as it was made "
				 "(another user in the tree?)", name);
			free(pids);
			return -EIO;
		}
		m->ids[k] = (struct who_mk_made){ .dev = st.st_dev, .ino = st.st_ino, .made = true };
	}
	return who_mk_move(m, k, pids, n, err, errlen);
}

int who_mk_groups(const char *root, const char *list, struct who_mk **out, char *err,
		  size_t errlen)
{
	struct who_mk *m = xcalloc(1, sizeof(*m));
	char *copy = xstrdup(list), *save = NULL, buf[64];
	int rfd, rmids, want = 0, used, rc = 0, top = -1;

	*out = NULL;
	m->mgfd = -1;
	for (int k = 0; k < WHO_MK_MAX; k++)
		m->gfd[k] = -1;
	m->ids = mmap(NULL, sizeof(*m->ids) * WHO_MK_MAX, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m->ids == MAP_FAILED)
		xmalloc_die(sizeof(*m->ids) * WHO_MK_MAX);
	memset(m->ids, 0, sizeof(*m->ids) * WHO_MK_MAX);
	m->guard = (struct guard)GUARD_NONE;
	m->base = "sys/fs/cgroup";
	snprintf(m->root, sizeof(m->root), "%s", root && *root ? root : "/");
	for (char *c = copy; *c; c++)
		want += *c == ',';
	want++;
	/* root never writes into a tree another user could change under it */
	if (!rootfs_is_host(root) && (top = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) >= 0 &&
	    (rc = paths_check_tree(top, root, "sys/fs/resctrl/mon_groups",
				   "resctrl monitoring groups", err, errlen))) {
		rfd = -1;
		goto out;
	}
	rfd = who_open_at(root, "sys/fs/resctrl", O_RDONLY | O_DIRECTORY);
	if (rfd < 0 || who_readat(rfd, "info/L3_MON/num_rmids", buf, sizeof(buf)) <= 0) {
		snprintf(err, errlen, "--who-resctrl: %s (mount -t resctrl resctrl /sys/fs/resctrl on a "
			 "CPU with RDT monitoring or AMD QoS)", rfd < 0 ? "resctrl is not mounted"
			 : "resctrl has no L3 monitoring (no info/L3_MON/num_rmids)");
		rc = -ENOENT;
		goto out;
	}
	rmids = atoi(buf);
	used = who_mk_used(rfd);
	if (want > WHO_MK_MAX || used + want > rmids) {
		snprintf(err, errlen, "--who-resctrl: %d groups asked for, and resctrl has %d RMIDs of "
			 "which %d are in use: remove some groups (rmdir /sys/fs/resctrl/mon_groups/"
			 "NAME) or ask for fewer (at most %d)", want, rmids, used,
			 rmids - used < WHO_MK_MAX ? rmids - used : WHO_MK_MAX);
		rc = -ENOSPC;
		goto out;
	}
	m->mgfd = openat(rfd, "mon_groups", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (m->mgfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "--who-resctrl: no mon_groups in resctrl: %s", strerror(-rc));
		goto out;
	}
	{
		int cg = who_open_at(root, "sys/fs/cgroup", O_RDONLY | O_DIRECTORY);

		if (cg >= 0 && who_readat(cg, "cgroup.controllers", buf, sizeof(buf)) < 0)
			m->base = "sys/fs/cgroup/unified"; /* systemd's hybrid layout */
		if (cg >= 0)
			close(cg);
	}
	m->n = want;
	for (int k = 0; k < want; k++)
		snprintf(m->names[k], sizeof(m->names[k]), "pmutop-%d-%d", (int)getpid(), k);
	/* the guard first: whatever kills pmutop from now on, its groups go */
	rc = guard_start(&m->guard, "pmutop-rdt", who_mk_undo, m, err, errlen);
	{
		int k = 0;

		for (char *p = strtok_r(copy, ",", &save); !rc && p; p = strtok_r(NULL, ",", &save))
			rc = who_mk_one(m, k++, *p == '/' ? p + 1 : p, err, errlen);
	}
out:
	if (rfd >= 0)
		close(rfd);
	if (top >= 0)
		close(top);
	free(copy);
	if (rc) {
		who_mk_remove(m);
		return rc;
	}
	*out = m;
	return 0;
}

void who_mk_remove(struct who_mk *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->made; i++)
		who_mk_rm(m, i, m->gfd[i]);
	guard_release(&m->guard);
	if (m->mgfd >= 0)
		close(m->mgfd);
	for (int k = 0; k < WHO_MK_MAX; k++) {
		free(m->known[k]);
		if (m->gfd[k] >= 0)
			close(m->gfd[k]);
	}
	munmap(m->ids, sizeof(*m->ids) * WHO_MK_MAX);
	free(m->procs);
	free(m);
}
