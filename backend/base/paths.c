/*
 * paths: locate data files (layouts) for an installed or an uninstalled
 * pmutop.  Main thread only (reads the environment).
 */
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

int paths_exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n < 0)
		return -errno;
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*(slash == buf ? slash + 1 : slash) = '\0';
	return 0;
}

/* Same directory, compared after resolving symlinks and "..". */
static int paths_same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (!realpath(a, ra) || !realpath(b, rb))
		return 0;
	return strcmp(ra, rb) == 0;
}

/* ENV if set; the source-tree SRC for a program in the build tree; else INSTALLED. */
static const char *paths_pick(const char *env_name, const char *src, const char *installed,
			      const char *exe_dir)
{
	const char *env = getenv(env_name);
	char self[PATH_MAX];

	if (env && *env)
		return env;
	if (!exe_dir && paths_exe_dir(self, sizeof(self)) == 0)
		exe_dir = self;
	if (exe_dir && paths_same_dir(exe_dir, PMUTOP_BUILDDIR))
		return src;
	return installed;
}

const char *paths_layout_dir(const char *exe_dir)
{
	return paths_pick("PMUTOP_LAYOUT_DIR", PMUTOP_SRC_LAYOUTDIR, PMUTOP_LAYOUTDIR, exe_dir);
}

const char *paths_perfmon_dir(const char *exe_dir)
{
	return paths_pick("PMUTOP_PERFMON_DIR", PMUTOP_SRC_PERFMONDIR, PMUTOP_PERFMONDIR, exe_dir);
}

const char *paths_amd_dir(const char *exe_dir)
{
	return paths_pick("PMUTOP_AMD_DIR", PMUTOP_SRC_AMDDIR, PMUTOP_AMDDIR, exe_dir);
}

const char *paths_atom_dir(const char *exe_dir)
{
	return paths_pick("PMUTOP_ATOM_DIR", PMUTOP_SRC_ATOMDIR, PMUTOP_ATOMDIR, exe_dir);
}

const char *paths_scenario_dir(const char *exe_dir)
{
	return paths_pick("PMUTOP_SCENARIO_DIR", PMUTOP_SRC_SCENARIODIR, PMUTOP_SCENARIODIR,
			  exe_dir);
}

int paths_elevated(void)
{
	return geteuid() == 0 || getauxval(AT_SECURE) != 0;
}

/* Whether UID is root or the user who started pmutop (through sudo: SUDO_UID). */
static bool paths_own_user(uid_t uid)
{
	const char *sudo = getenv("SUDO_UID");
	char *end;
	unsigned long su;

	if (uid == 0 || uid == getuid())
		return true;
	if (!sudo || !*sudo)
		return false;
	errno = 0;
	su = strtoul(sudo, &end, 10);
	return !errno && !*end && su == uid;
}

int paths_check_trusted(int fd, const char *path, const char *what, char *why, size_t len)
{
	struct stat st, dst;
	char dir[PATH_MAX];
	const char *slash;

	if (!paths_elevated())
		return 0;
	if (fstat(fd, &st))
		return 0; /* the caller's own checks say what is wrong with it */
	if (!paths_own_user(st.st_uid)) {
		snprintf(why, len, "refusing %s %s: it belongs to user %u, pmutop runs with "
			 "privileges, and whoever can change the %s steers them; use a copy owned by "
			 "root or by you", what, path, (unsigned)st.st_uid, what);
		return -EPERM;
	}
	if (st.st_mode & (S_IWOTH | (st.st_gid ? S_IWGRP : 0))) {
		snprintf(why, len, "refusing %s %s: it is writable by %s (mode %04o), pmutop runs "
			 "with privileges, and whoever can change the %s steers them; chmod go-w %s",
			 what, path,
			 st.st_mode & S_IWOTH ? "every user" : "its group", (unsigned)(st.st_mode & 07777),
			 what, path);
		return -EPERM;
	}
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &dst) == 0 && (dst.st_mode & S_IWOTH) && !(dst.st_mode & S_ISVTX)) {
		snprintf(why, len, "refusing %s %s: its directory %s is writable by every user "
			 "(mode %04o), pmutop runs with privileges, and whoever can replace the %s "
			 "steers them; move it, or chmod o-w %s", what, path, dir,
			 (unsigned)(dst.st_mode & 07777), what, dir);
		return -EPERM;
	}
	return 0;
}

const char *paths_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO (named pipe)";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFLNK:
		return "a symbolic link";
	}
	return "not a regular file";
}

int paths_open_file(const char *path, const char *what, int *out, char *err, size_t errlen)
{
	struct stat st;
	int fd, fl, rc;

	*out = -1;
	/* a device is not even opened (opening some has effects); the fstat below decides */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s %s is %s, not a regular file: give a file", what, path,
			 paths_kind(st.st_mode));
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s %s: %s", what, path, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s %s is %s, not a regular file: give a file", what, path,
			 paths_kind(st.st_mode));
		close(fd);
		return -EINVAL;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*out = fd;
	return 0;
}

FILE *paths_fopen(const char *path, const char *what, char *err, size_t errlen)
{
	FILE *f;
	int fd, rc = paths_open_file(path, what, &fd, err, errlen);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	f = fdopen(fd, "re");
	if (!f) {
		rc = errno;
		snprintf(err, errlen, "cannot read %s %s: %s", what, path, strerror(rc));
		close(fd);
		errno = rc;
	}
	return f;
}

FILE *paths_fopen_trusted(const char *path, const char *what, char *err, size_t errlen)
{
	FILE *f = paths_fopen(path, what, err, errlen);
	int rc;

	if (f && (rc = paths_check_trusted(fileno(f), path, what, err, errlen))) {
		fclose(f);
		errno = -rc;
		return NULL;
	}
	return f;
}

int paths_link_target(const char *path, char *out)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char link[PATH_MAX];
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		const char *slash = strrchr(path, '/');

		if (n < 0)
			return -errno;
		link[n] = 0;
		if (link[0] == '/' || !slash) {
			if (snprintf(out, PATH_MAX, "%s", link) >= PATH_MAX)
				return -ENAMETOOLONG;
		} else if (snprintf(out, PATH_MAX, "%.*s/%s", (int)(slash - path), path, link) >=
			   PATH_MAX) {
			return -ENAMETOOLONG;
		}
		if (lstat(out, &st) == 0 && S_ISLNK(st.st_mode))
			return -ELOOP;
		return 0;
	}
	if (snprintf(out, PATH_MAX, "%s", path) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* "PATH is another user's": the rule the settings file follows, said once. */
static int paths_refuse_owner(const char *what, const char *path, const char *whose,
			      const char *name, uid_t uid, char *why, size_t len)
{
	snprintf(why, len, "not using the %s %s: %s %s belongs to user %u and pmutop runs as "
		 "root; through sudo pmutop uses your own settings, or use su - (root's $HOME), "
		 "or chown it", what, path, whose, name, (unsigned)uid);
	return -EPERM;
}

int paths_check_trusted_path(const char *path, const char *what, char *why, size_t len)
{
	char target[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	char *slash;
	int rc;

	if (!paths_elevated())
		return 0;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !paths_own_user(st.st_uid))
		return paths_refuse_owner(what, path, "the link", path, st.st_uid, why, len);
	rc = paths_link_target(path, target);
	if (rc) {
		snprintf(why, len, "not using the %s %s: %s", what, path, strerror(-rc));
		return -EPERM;
	}
	if (lstat(target, &st) == 0) {
		if (!paths_own_user(st.st_uid))
			return paths_refuse_owner(what, path, "its file", target, st.st_uid, why,
						  len);
		if (st.st_mode & (S_IWOTH | (st.st_gid ? S_IWGRP : 0))) {
			snprintf(why, len, "not using the %s %s: %s is writable by other users "
				 "(mode %04o) and pmutop runs as root; chmod go-w %s", what, path,
				 target, (unsigned)(st.st_mode & 07777), target);
			return -EPERM;
		}
	}
	/* the directory the file is (or will be) made in: its nearest existing one */
	snprintf(dir, sizeof(dir), "%s", target);
	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = 0;
		else
			*slash = 0;
		if (lstat(dir, &st) == 0 || !slash || slash == dir)
			break;
	}
	if (lstat(dir, &st) == 0) {
		if (!paths_own_user(st.st_uid))
			return paths_refuse_owner(what, path, "its directory", dir, st.st_uid, why,
						  len);
		if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
			snprintf(why, len, "not using the %s %s: its directory %s is writable by "
				 "every user and pmutop runs as root; move it", what, path, dir);
			return -EPERM;
		}
	}
	return 0;
}

/* Whether ST (of NAME, a step of a tree) may hold what root writes; else why. */
static int paths_tree_step(const struct stat *st, const char *root, const char *name,
			   const char *what, char *why, size_t len)
{
	const char *at = *name ? name : "its top";

	if (S_ISLNK(st->st_mode)) {
		snprintf(why, len, "refusing to write %s under --root %s: %s is a link, and pmutop "
			 "runs with privileges; use a tree without links where pmutop writes", what,
			 root, at);
		return -EPERM;
	}
	/* a file itself cannot be swapped for a link without write access to its directory */
	if (!S_ISDIR(st->st_mode))
		return 0;
	if (!paths_own_user(st->st_uid)) {
		snprintf(why, len, "refusing to write %s under --root %s: %s belongs to user %u, "
			 "pmutop runs with privileges, and that user could swap what root writes "
			 "for a link; use a tree owned by root or by you", what, root, at,
			 (unsigned)st->st_uid);
		return -EPERM;
	}
	if ((st->st_mode & (S_IWOTH | (st->st_gid ? S_IWGRP : 0))) && !(st->st_mode & S_ISVTX)) {
		snprintf(why, len, "refusing to write %s under --root %s: %s is writable by %s "
			 "(mode %04o) and pmutop runs with privileges; chmod go-w it", what, root, at,
			 st->st_mode & S_IWOTH ? "every user" : "its group",
			 (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int paths_check_tree(int rootfd, const char *root, const char *rel, const char *what, char *why,
		     size_t len)
{
	char step[PATH_MAX];
	struct stat st;
	size_t at = 0;
	int rc;

	if (!paths_elevated())
		return 0;
	if (fstat(rootfd, &st))
		return 0; /* the opens that follow say what is wrong */
	if ((rc = paths_tree_step(&st, root, "", what, why, len)))
		return rc;
	while (rel[at]) {
		size_t n = strcspn(rel + at, "/");

		if (n && at + n < sizeof(step)) {
			snprintf(step, sizeof(step), "%.*s", (int)(at + n), rel);
			if (fstatat(rootfd, step, &st, AT_SYMLINK_NOFOLLOW))
				return 0; /* not there (yet): nothing another user put there either */
			if ((rc = paths_tree_step(&st, root, step, what, why, len)))
				return rc;
		}
		at += n;
		while (rel[at] == '/')
			at++;
	}
	return 0;
}
