/*
 * marks: the FIFO of phase markers.  See marks.h.
 */
#include "marks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "frontend.h"

/* What one call reads at most: a flood is not read to its end in one go. */
#define MARKS_READ_BUDGET 65536

struct marks {
	char path[PATH_MAX];
	int rfd, wfd;          /* WFD: our own writer, so the FIFO never reads as ended */
	char line[MARKS_TEXT_MAX + 1];
	size_t len;            /* of the line being received */
	bool longline;         /* the line went past MARKS_TEXT_MAX: the rest is dropped */
};

static double marks_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The user's marks directory under BASE, made private when it is not there. */
static int marks_dir_under(const char *base, char *dir, size_t len, bool make, char *err,
			   size_t errlen)
{
	struct stat st;

	snprintf(dir, len, "%s/pmutop-%u", base, (unsigned)getuid());
	if (make && mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s for phase marks: %s", dir, strerror(errno));
		return -errno;
	}
	if (lstat(dir, &st))
		return -errno;
	/* in /tmp anyone could have made it first: only our own private directory will do */
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) {
		snprintf(err, errlen, "%s is not a private directory of this user: remove it "
			 "(phase marks use it)", dir);
		return -EPERM;
	}
	return 0;
}

/* The temporary directory: $TMPDIR, else /tmp. */
static const char *marks_tmp(void)
{
	const char *t = getenv("TMPDIR");

	return t && t[0] == '/' ? t : "/tmp";
}

/* Where this user's marks directory is: $XDG_RUNTIME_DIR, else the temporary directory. */
static const char *marks_base(void)
{
	const char *x = getenv("XDG_RUNTIME_DIR");

	return x && x[0] == '/' ? x : marks_tmp();
}

/* Remove FIFOs left by pmutops that are gone. */
static void marks_sweep(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		int pid;
		char path[PATH_MAX + 256];

		if (sscanf(de->d_name, "marks-%d", &pid) != 1 || pid <= 0)
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}

int marks_open(struct marks **out, char *err, size_t errlen)
{
	char dir[PATH_MAX - 32];
	struct marks *m;
	int rc;

	*out = NULL;
	rc = marks_dir_under(marks_base(), dir, sizeof(dir), true, err, errlen);
	if (rc)
		return rc;
	marks_sweep(dir);
	m = xcalloc(1, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s/marks-%d", dir, (int)getpid());
	unlink(m->path);
	if (mkfifo(m->path, 0600)) {
		rc = -errno;
		snprintf(err, errlen, "cannot make the marks FIFO %s: %s", m->path, strerror(-rc));
		free(m);
		return rc;
	}
	m->rfd = open(m->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	m->wfd = m->rfd >= 0 ? open(m->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (m->rfd < 0 || m->wfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open the marks FIFO %s: %s", m->path, strerror(-rc));
		marks_close(m);
		return rc;
	}
	*out = m;
	return 0;
}

const char *marks_path(const struct marks *m)
{
	return m->path;
}

int marks_fd(const struct marks *m)
{
	return m ? m->rfd : -1;
}

/* The line received so far as a mark, if there is room and it is not blank. */
static int marks_finish(struct marks *m, struct mark *out, int n, int max, long *dropped)
{
	size_t len = m->len;

	while (len && m->line[len - 1] == ' ')
		len--;
	m->line[len] = 0;
	m->len = 0;
	m->longline = false;
	if (!len)
		return n;
	if (n >= max) {
		if (dropped)
			(*dropped)++;
		return n;
	}
	out[n].time = marks_now();
	memcpy(out[n].text, m->line, len + 1);
	return n + 1;
}

int marks_take(struct marks *m, struct mark *out, int max, long *dropped)
{
	char buf[4096];
	size_t budget = MARKS_READ_BUDGET;
	int n = 0;

	if (!m)
		return 0;
	if (max > MARKS_PER_TAKE)
		max = MARKS_PER_TAKE;
	while (budget) {
		ssize_t got = read(m->rfd, buf, sizeof(buf) < budget ? sizeof(buf) : budget);

		if (got <= 0)
			break;
		budget -= (size_t)got;
		for (ssize_t i = 0; i < got; i++) {
			unsigned char c = (unsigned char)buf[i];

			if (c == '\n') {
				n = marks_finish(m, out, n, max, dropped);
				continue;
			}
			if (c == '\r')
				continue;
			if (m->len >= MARKS_TEXT_MAX) {
				m->longline = true; /* kept: the first MARKS_TEXT_MAX characters */
				continue;
			}
			/* text goes to JSON and the screen: printable ASCII only */
			m->line[m->len++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
		}
	}
	return n;
}

void marks_close(struct marks *m)
{
	if (!m)
		return;
	if (m->rfd >= 0)
		close(m->rfd);
	if (m->wfd >= 0)
		close(m->wfd);
	unlink(m->path);
	free(m);
}

/*
 * Write LINE to the FIFOs in DIR (PID's only when PID > 0); how many took
 * it, their pids added to PIDS (*N of MAX used).
 */
static int marks_send_dir(const char *dir, const char *line, int pid, int *pids, int max, int *n)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int sent = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[PATH_MAX + 256];
		struct stat st;
		int p, fd;

		if (sscanf(de->d_name, "marks-%d", &p) != 1 || (pid > 0 && p != pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) || !S_ISFIFO(st.st_mode) || st.st_uid != getuid())
			continue;
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENXIO)
				unlink(path); /* nobody reads it: that pmutop is gone */
			continue;
		}
		/* one write of less than PIPE_BUF bytes: the line arrives whole */
		if (write(fd, line, strlen(line)) == (ssize_t)strlen(line)) {
			sent++;
			if (*n < max)
				pids[(*n)++] = p;
		}
		close(fd);
	}
	closedir(d);
	return sent;
}

int marks_send(const char *text, int pid, int *pids, int max, char *err, size_t errlen)
{
	char dir[PATH_MAX - 32], tmpdir[PATH_MAX - 32], line[MARKS_TEXT_MAX + 2];
	int sent = 0, n = 0;

	if (!*text || strlen(text) > MARKS_TEXT_MAX || strpbrk(text, "\n\r")) {
		snprintf(err, errlen, "--mark needs one line of 1 to %d characters", MARKS_TEXT_MAX);
		return -EINVAL;
	}
	snprintf(line, sizeof(line), "%s\n", text);
	/* a pmutop started through sudo may have had no XDG_RUNTIME_DIR: the temporary one too */
	if (marks_dir_under(marks_base(), dir, sizeof(dir), false, err, errlen) == 0)
		sent += marks_send_dir(dir, line, pid, pids, max, &n);
	if (strcmp(marks_base(), marks_tmp()) &&
	    marks_dir_under(marks_tmp(), tmpdir, sizeof(tmpdir), false, err, errlen) == 0)
		sent += marks_send_dir(tmpdir, line, pid, pids, max, &n);
	if (!sent) {
		if (pid > 0)
			snprintf(err, errlen, "no pmutop with pid %d is running for this user", pid);
		else
			snprintf(err, errlen, "no pmutop is running for this user: a mark goes to a "
				 "running pmutop (started by the same user)");
		return -ESRCH;
	}
	return sent;
}
