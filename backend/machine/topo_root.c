/*
 * topo_root: hwloc's XML of a --root tree, from a child; see topo_root.h.
 */
#define _GNU_SOURCE
#include "topo_root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "paths.h"
#include "text.h"
#include "xmalloc.h"

#define TOPO_ROOT_MAX_XML (256u << 20) /* hwloc's XML of the largest machine is a few MB */
#define TOPO_ROOT_WALK_MAX 200000      /* entries looked at before hwloc reads the tree */

/* What hwloc's Linux backend reads (topology-linux.c): where a planted file would reach it. */
static const char *const topo_root_read[] = {
	"sys/devices/system/cpu", "sys/devices/system/node", "sys/bus/cpu", "sys/bus/node",
	"sys/class/dmi/id", "sys/devices/virtual/dmi/id", "sys/firmware/devicetree",
	"sys/kernel/mm", "proc/cpuinfo", "proc/meminfo", "proc/mounts", "proc/self",
	"proc/device-tree",
};

struct topo_root_walk {
	int seen;
	char bad[PATH_MAX];  /* the first file no kernel has there, "" none */
	unsigned mode;
};

/* REL (under the tree open on DFD) and what is under it, without following a link. */
static void topo_root_walk(int dfd, const char *rel, int depth, struct topo_root_walk *w)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd;

	if (w->bad[0] || w->seen++ >= TOPO_ROOT_WALK_MAX ||
	    fstatat(dfd, rel, &st, AT_SYMLINK_NOFOLLOW))
		return;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode) ||
	    S_ISBLK(st.st_mode)) {
		snprintf(w->bad, sizeof(w->bad), "%s", rel);
		w->mode = st.st_mode;
		return;
	}
	if (!S_ISDIR(st.st_mode) || depth > 6)
		return;
	fd = openat(dfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (!w->bad[0] && (de = readdir(d))) {
		char sub[PATH_MAX];

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name) < (int)sizeof(sub))
			topo_root_walk(dfd, sub, depth + 1, w);
	}
	closedir(d);
}

/* The child: hwloc reads the tree, its XML (after a 4-byte status: 0 or an errno) goes to FD. */
static void topo_root_child(const char *root, int fd)
{
	hwloc_topology_t h;
	char *buf = NULL;
	int len = 0, status = 0;
	bool jailed = false;

	if (hwloc_topology_init(&h) < 0)
		_exit(3);
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	/* in the tree as its "/": a link in it, absolute or not, stays in it */
	if (geteuid() == 0 && chroot(root) == 0 && chdir("/") == 0) {
		jailed = true;
		unsetenv("HWLOC_FSROOT");
		/* not this machine: no CPUID of the host mixed in, no binding */
		setenv("HWLOC_THISSYSTEM", "0", 1);
	}
	if (!jailed)
		setenv("HWLOC_FSROOT", root, 1);
	if (hwloc_topology_load(h) < 0 || hwloc_topology_export_xmlbuffer(h, &buf, &len, 0) < 0)
		status = errno ? errno : EIO;
	if (write(fd, &status, sizeof(status)) != (ssize_t)sizeof(status))
		_exit(4);
	for (int at = 0; !status && at < len;) {
		ssize_t n = write(fd, buf + at, (size_t)(len - at));

		if (n <= 0)
			_exit(4);
		at += (int)n;
	}
	_exit(0);
}

static double topo_root_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int topo_root_xml(const char *root, char **xml, char *err, size_t errlen)
{
	struct topo_root_walk w = { 0 };
	size_t n = 0, cap = 1 << 16;
	char *buf, shown[PATH_MAX];
	double end;
	int p[2], dfd, status = 0, rc = 0;
	pid_t pid;

	*xml = NULL;
	text_clean(shown, sizeof(shown), root, strlen(root));
	dfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "--root %s: %s", shown, strerror(-rc));
		return rc;
	}
	for (size_t i = 0; i < sizeof(topo_root_read) / sizeof(topo_root_read[0]); i++)
		topo_root_walk(dfd, topo_root_read[i], 0, &w);
	close(dfd);
	if (w.bad[0]) {
		char bad[PATH_MAX];

		text_clean(bad, sizeof(bad), w.bad, strlen(w.bad));
		snprintf(err, errlen, "--root %s: %s is %s, where the kernel has a file or a "
			 "directory; hwloc would wait on it or read a device: remove it from the tree",
			 shown, bad, paths_kind(w.mode));
		return -EINVAL;
	}
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(p[0]);
		close(p[1]);
		snprintf(err, errlen, "cannot start the reader of --root %s: %s", shown, strerror(-rc));
		return rc;
	}
	if (pid == 0) {
		close(p[0]);
		topo_root_child(root, p[1]);
	}
	close(p[1]);
	buf = xmalloc(cap + 1);
	end = topo_root_now() + TOPO_ROOT_TIMEOUT_S;
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		double left = end - topo_root_now();
		ssize_t got;

		if (left <= 0) {
			rc = -ETIMEDOUT;
			break;
		}
		if (poll(&pf, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		if (!pf.revents)
			continue;
		if (n == cap) {
			if (cap >= TOPO_ROOT_MAX_XML) {
				rc = -EFBIG;
				break;
			}
			cap *= 2;
			buf = xrealloc(buf, cap + 1, 1);
		}
		got = read(p[0], buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(p[0]);
	if (rc)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!rc && n >= sizeof(int)) {
		int child;

		memcpy(&child, buf, sizeof(child));
		rc = child ? -child : 0;
	} else if (!rc) {
		rc = -EIO;
	}
	if (rc == -ETIMEDOUT)
		snprintf(err, errlen, "hwloc did not finish reading the topology under --root %s in "
			 "%d s: a file of the tree blocks its reads (a FIFO, a slow file system) or "
			 "the tree is huge; fix the tree or pass --topology", shown, TOPO_ROOT_TIMEOUT_S);
	else if (rc == -EFBIG)
		snprintf(err, errlen, "--root %s: hwloc's topology of the tree is larger than %u MB: "
			 "not a machine's; pass --topology", shown, TOPO_ROOT_MAX_XML >> 20);
	else if (rc)
		snprintf(err, errlen, "hwloc could not read the topology under %s (%s); check that "
			 "%s/sys and %s/proc are there, or pass --topology", shown, strerror(-rc),
			 shown, shown);
	if (rc) {
		free(buf);
		return rc;
	}
	memmove(buf, buf + sizeof(int), n - sizeof(int));
	buf[n - sizeof(int)] = '\0';
	*xml = buf;
	return 0;
}

void topo_root_xml_why(const char *xml, char *why, size_t len)
{
	const char *top = strstr(xml, "<topology"), *v = top ? strstr(top, "version=\"") : NULL;
	unsigned major = 0, minor = 0;

	why[0] = 0;
	/*
	 * hwloc refuses XML of a major version above its own (topology-xml.c's
	 * version check): hwloc 3's XML says 3.0
	 */
	if (v && v < strchr(top, '>') && sscanf(v + 9, "%u.%u", &major, &minor) >= 1 &&
	    major > HWLOC_API_VERSION >> 16)
		snprintf(why, len, "its XML is version %u.%u, hwloc %s reads version %u", major,
			 minor, HWLOC_VERSION, HWLOC_API_VERSION >> 16);
}
