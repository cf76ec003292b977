/*
 * rcfile: settings file; see rcfile.h.
 */
#include "rcfile.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RCFILE_MAX_BYTES 65536

int rcfile_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		snprintf(buf, len, "%s/pmutop/pmutoprc", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.config/pmutop/pmutoprc", home);
	else
		return -ENOENT;
	return 0;
}

static void rcfile_warn(char *warn, size_t len, const char *path, int line, const char *what)
{
	if (!warn[0])
		snprintf(warn, len, "%s:%d: %s; using the default", path, line, what);
}

int rcfile_load(const char *path, struct view *v, char *warn, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = 0;

	warn[0] = 0;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(warn, len, "%s: %s; using the defaults", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		char *key, *value, *end, msg[256];

		n++;
		if (!strchr(line, '\n') && !feof(f)) {
			rcfile_warn(warn, len, path, n, "line too long");
			break;
		}
		if (ftell(f) > RCFILE_MAX_BYTES) {
			rcfile_warn(warn, len, path, n, "file too large");
			break;
		}
		key = line + strspn(line, " \t");
		if (*key == '#' || *key == '\n' || !*key)
			continue;
		value = key + strcspn(key, " \t\n");
		if (*value == '\n' || !*value) {
			rcfile_warn(warn, len, path, n, "expected 'key value'");
			continue;
		}
		*value++ = 0;
		value += strspn(value, " \t");
		end = value + strlen(value);
		while (end > value && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
			*--end = 0;
		if (view_setting_apply(v, key, value, msg, sizeof(msg)))
			rcfile_warn(warn, len, path, n, msg);
	}
	fclose(f);
	return 0;
}

/* mkdir -p of PATH's directory. */
static int rcfile_mkdirs(const char *path)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

int rcfile_save(const char *path, const struct view *v, char *err, size_t len)
{
	char tmp[600], text[2048];
	int fd, rc;

	if (view_settings_format(v, text, sizeof(text)))
		return -ENOSPC;
	rc = rcfile_mkdirs(path);
	if (rc) {
		snprintf(err, len, "cannot create the directory of %s: %s", path, strerror(-rc));
		return rc;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, len, "cannot save the settings to %s: %s", path, strerror(errno));
		return rc;
	}
	{
		static const char head[] = "# pmutop settings, written on quit\n";
		size_t tl = strlen(text);
		bool ok = write(fd, head, sizeof(head) - 1) == (ssize_t)(sizeof(head) - 1) &&
			  write(fd, text, tl) == (ssize_t)tl && fsync(fd) == 0;
		int e = errno;

		if (close(fd) && ok) {
			ok = false;
			e = errno;
		}
		if (ok && rename(tmp, path)) {
			ok = false;
			e = errno;
		}
		if (!ok) {
			snprintf(err, len, "cannot save the settings to %s: %s", path,
				 strerror(e ? e : EIO));
			unlink(tmp);
			return -(e ? e : EIO);
		}
	}
	return 0;
}
