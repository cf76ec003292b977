/*
 * paths: locate data files (layouts) for an installed or an uninstalled
 * pmutop.  Main thread only (reads the environment).
 */
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
