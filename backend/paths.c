/*
 * paths: locate data files (layouts) for an installed or an uninstalled
 * pmutop.  Main thread only (reads the environment).
 */
#include "paths.h"

#include <errno.h>
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

const char *paths_scenario_dir(const char *exe_dir)
{
	return paths_pick("PMUTOP_SCENARIO_DIR", PMUTOP_SRC_SCENARIODIR, PMUTOP_SCENARIODIR,
			  exe_dir);
}

int paths_read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;
	int rc = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", root && strcmp(root, "/") ? root : "", rel);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		rc = -EIO;
	fclose(f);
	return rc;
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
