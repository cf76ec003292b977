/*
 * lock: flock-based single-instance lock under ROOT/run/lock.  Main thread.
 */
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Make ROOT/run/lock (DIR) if missing: world-writable with the sticky bit, as
 * the system keeps it, so that every user's pmutop meets at the same file.
 */
static int lock_dir(const char *prefix, char *dir, size_t len, char *err, size_t errlen)
{
	char run[PATH_MAX];

	snprintf(run, sizeof(run), "%s/run", prefix);
	snprintf(dir, len, "%s/run/lock", prefix);
	if ((mkdir(run, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(dir, 01777) < 0 && errno != EEXIST)) {
		int rc = -errno;

		snprintf(err, errlen, "cannot create %s for pmutop's lock: %s", dir, strerror(-rc));
		return rc;
	}
	return 0;
}

int lock_acquire(const char *root, int *fd, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], pid[32] = "";
	const char *prefix = root && strcmp(root, "/") ? root : "";
	bool writable = true;
	int rc, n;

	*fd = -1;
	rc = lock_dir(prefix, dir, sizeof(dir), err, errlen);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/pmutop.lock", dir);
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0 && errno == EACCES) {
		/* another user's lock file (say root's): a lock needs no write access */
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		writable = false;
	}
	if (*fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(-rc));
		return rc;
	}
	if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		n = (int)pread(*fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		/* a pid left by an earlier holder (one who may not write it is not named there) */
		if (pid[0] && kill((pid_t)atol(pid), 0) < 0 && errno == ESRCH)
			pid[0] = '\0';
		if (rc == -EBUSY)
			snprintf(err, errlen, "another pmutop (pid %s) is programming this machine's "
				 "counters; quit it first (lock: %s)", pid[0] ? pid : "unknown", path);
		else
			snprintf(err, errlen, "cannot lock %s: %s", path, strerror(-rc));
		close(*fd);
		*fd = -1;
		return rc;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (writable && (ftruncate(*fd, 0) < 0 || pwrite(*fd, pid, (size_t)n, 0) != n)) {
		rc = -errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		lock_release(*fd);
		*fd = -1;
		return rc;
	}
	return 0;
}

void lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
