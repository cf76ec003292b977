/*
 * lock: flock on the counters' device nodes.  See lock.h.  Main thread.
 */
#include "lock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "rootfs.h"

/* How long a new pmutop waits for a dead one's guardian to restore, and how often it looks. */
#define LOCK_GUARDIAN_WAIT_S 30
#define LOCK_POLL_NS 20000000
/* Looks at /proc/locks that name nobody before the lock counts as held by someone unknown. */
#define LOCK_UNNAMED_TRIES 3

/* ROOT/dev/cpu/N/msr_safe */
#define LOCK_PATH_MAX (PATH_MAX + 64)

static const char *const lock_node_names[LOCK_NODES] = { "msr", "msr_safe" };

/* ROOT as a prefix ("" for this machine). */
static const char *lock_prefix(const char *root)
{
	return root && strcmp(root, "/") ? root : "";
}

/*
 * PATHS[i]: node i of the lowest-numbered CPU under ROOT/dev/cpu that has
 * a device node of either driver.  0, or -ENOENT when no CPU has one.
 */
static int lock_nodes(const char *root, char paths[LOCK_NODES][LOCK_PATH_MAX])
{
	char dir[PATH_MAX];
	struct dirent *e;
	long best = -1;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/dev/cpu", lock_prefix(root));
	d = rootfs_opendir(root, "dev/cpu");
	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		char *end;
		long n = strtol(e->d_name, &end, 10);
		struct stat st;

		if (end == e->d_name || *end || n < 0 || (best >= 0 && n >= best))
			continue;
		for (int i = 0; i < LOCK_NODES; i++) {
			char node[LOCK_PATH_MAX];

			snprintf(node, sizeof(node), "%s/%ld/%s", dir, n, lock_node_names[i]);
			if (lstat(node, &st) == 0 && !S_ISLNK(st.st_mode)) {
				best = n;
				break;
			}
		}
	}
	closedir(d);
	if (best < 0)
		return -ENOENT;
	for (int i = 0; i < LOCK_NODES; i++)
		snprintf(paths[i], LOCK_PATH_MAX, "%s/%ld/%s", dir, best, lock_node_names[i]);
	return 0;
}

pid_t lock_holder(const char *root)
{
	char paths[LOCK_NODES][LOCK_PATH_MAX], line[256];
	struct stat st[LOCK_NODES];
	bool have[LOCK_NODES] = { false };
	pid_t pid = 0;
	FILE *f;

	if (lock_nodes(root, paths))
		return 0;
	for (int i = 0; i < LOCK_NODES; i++)
		have[i] = stat(paths[i], &st[i]) == 0;
	f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	/* "1: FLOCK  ADVISORY  WRITE 4242 00:05:1043 0 EOF" (waiters' lines carry "->") */
	while (!pid && fgets(line, sizeof(line), f)) {
		char type[16], mode[16];
		unsigned maj, min;
		unsigned long ino;
		int p;

		if (strstr(line, "->") ||
		    sscanf(line, "%*s %15s %*s %15s %d %x:%x:%lu", type, mode, &p, &maj, &min,
			   &ino) != 6 || strcmp(type, "FLOCK") || strcmp(mode, "WRITE"))
			continue;
		for (int i = 0; i < LOCK_NODES; i++)
			if (have[i] && major(st[i].st_dev) == maj && minor(st[i].st_dev) == min &&
			    st[i].st_ino == ino)
				pid = p;
	}
	fclose(f);
	return pid;
}

/* Whether process PID has ended: gone, or a zombie (whose files are closed). */
static bool lock_holder_ended(pid_t pid)
{
	char path[64], buf[512], *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "PID (COMM) STATE ...": COMM may hold spaces and parentheses */
	end = strrchr(buf, ')');
	return end && end[1] == ' ' && end[2] == 'Z';
}

static double lock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * flock FD exclusively.  A pmutop that died (SIGKILL, a crash) leaves the
 * lock to its guardian while the guardian puts the registers back, and
 * /proc/locks still names the dead pmutop: wait for the guardian, at most
 * LOCK_GUARDIAN_WAIT_S, rather than refuse.  0; -EBUSY with the holder in
 * *HOLDER (0: unknown) and whether it ended in *ENDED; or -errno.
 */
static int lock_take(const char *root, int fd, pid_t *holder, bool *ended)
{
	static const struct timespec poll = { .tv_nsec = LOCK_POLL_NS };
	double until = 0;
	int unnamed = 0;

	*holder = 0;
	*ended = false;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		pid_t was = *holder;

		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return -errno;
		*holder = lock_holder(root);
		/*
		 * Nobody named: let go between the flock and the look (a guardian
		 * done), or a holder /proc/locks cannot name here: look again, a
		 * few times; a dead pmutop's guardian waited for stays waited for.
		 */
		if (*holder == 0 && (until > 0 || unnamed++ < LOCK_UNNAMED_TRIES)) {
			*holder = was;
			nanosleep(&poll, NULL);
			if (until == 0 || lock_now() <= until)
				continue;
		}
		*ended = *holder > 0 && lock_holder_ended(*holder);
		if (!*ended || (until > 0 && lock_now() > until))
			return -EBUSY;
		if (until == 0) {
			until = lock_now() + LOCK_GUARDIAN_WAIT_S;
			fprintf(stderr, "pmutop: pmutop (pid %ld) ended; waiting for its guardian to "
				"put the counters back (at most %d s)\n", (long)*holder,
				LOCK_GUARDIAN_WAIT_S);
		}
		nanosleep(&poll, NULL);
	}
	return 0;
}

bool lock_held(const struct lock *l)
{
	for (int i = 0; i < LOCK_NODES; i++)
		if (l->fd[i] >= 0)
			return true;
	return false;
}

void lock_release(struct lock *l)
{
	for (int i = 0; i < LOCK_NODES; i++) {
		if (l->fd[i] >= 0)
			close(l->fd[i]);
		l->fd[i] = -1;
	}
}

int lock_acquire(const char *root, struct lock *l, char *err, size_t errlen)
{
	char paths[LOCK_NODES][LOCK_PATH_MAX];
	int rc, first_err = 0;

	for (int i = 0; i < LOCK_NODES; i++)
		l->fd[i] = -1;
	if (lock_nodes(root, paths)) {
		snprintf(err, errlen, "no device node under %s/dev/cpu to lock the counters with "
			 "(load the msr driver: modprobe msr)", lock_prefix(root));
		return -ENOENT;
	}
	for (int i = 0; i < LOCK_NODES; i++) {
		bool ended;
		pid_t pid;
		/* a node this user may not open is not one it programs through */
		int fd, orc = rootfs_open(root, paths[i] + strlen(lock_prefix(root)) + 1,
					  O_RDONLY | O_NOFOLLOW, ROOTFS_DEVICE, &fd);

		if (orc) {
			if (orc != -ENOENT && !first_err)
				first_err = orc;
			continue;
		}
		rc = lock_take(root, fd, &pid, &ended);
		if (rc) {
			close(fd);
			lock_release(l);
			if (rc != -EBUSY)
				snprintf(err, errlen, "cannot lock %s: %s", paths[i], strerror(-rc));
			else if (ended)
				snprintf(err, errlen, "pmutop (pid %ld) ended, but its guardian still "
					 "holds the counters after %d s (it holds %s); look for a stuck "
					 "guardian with pgrep -a pmutop-guard, then start pmutop again",
					 (long)pid, LOCK_GUARDIAN_WAIT_S, paths[i]);
			else if (pid > 0)
				snprintf(err, errlen, "another pmutop (pid %ld) is programming this "
					 "machine's counters; quit it first (it holds %s)", (long)pid,
					 paths[i]);
			else
				snprintf(err, errlen, "another pmutop is programming this machine's "
					 "counters; quit it first (it holds %s)", paths[i]);
			return rc;
		}
		l->fd[i] = fd;
	}
	if (!lock_held(l)) {
		rc = first_err ? first_err : -ENOENT;
		snprintf(err, errlen, "cannot open %s or %s to lock the counters: %s", paths[0],
			 paths[1], strerror(-rc));
		return rc;
	}
	return 0;
}
