/*
 * rcfile: settings file; see rcfile.h.
 */
#include "rcfile.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend.h"

#define RCFILE_MAX_BYTES 65536

int rcfile_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/pmutop/pmutoprc", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.config/pmutop/pmutoprc", home);
	else
		return -ENOENT;
	/* a cut path would name another file */
	return n < 0 || (size_t)n >= len || (size_t)n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static void rcfile_warn(char *warn, size_t len, const char *path, int line, const char *what)
{
	if (warn[0])
		return;
	snprintf(warn, len, "%s:%d: %s; using the default", path, line, what);
	parse_printable(warn); /* the file's bytes never reach the terminal raw */
}

int rcfile_load(const char *path, struct view *v, char *warn, size_t len)
{
	FILE *f = fopen(path, "re");
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
		if (strchr(line, '\r')) {
			snprintf(msg, sizeof(msg), "stray carriage return at column %d (Windows line "
				 "endings? convert with dos2unix)", (int)(strchr(line, '\r') - line) + 1);
			rcfile_warn(warn, len, path, n, msg);
			continue;
		}
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
	char dir[PATH_MAX];

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
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

/* V's settings as text (malloc'd), whatever their length. */
static char *rcfile_text(const struct view *v)
{
	for (size_t len = 2048;; len *= 2) {
		char *text = xmalloc(len);

		if (view_settings_format(v, text, len) == 0)
			return text;
		free(text);
	}
}

static int rcfile_write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * The file to replace: PATH, or the file a symlink at PATH points to (the
 * link stays a link).  -errno for a link that cannot be resolved.
 */
static int rcfile_target(const char *path, char *out)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char dir[PATH_MAX], link[PATH_MAX];
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		const char *slash = strrchr(path, '/');

		if (n < 0)
			return -errno;
		link[n] = 0;
		if (link[0] == '/' || !slash) {
			if (snprintf(out, PATH_MAX, "%s", link) >= PATH_MAX)
				return -ENAMETOOLONG;
		} else {
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
			if (snprintf(out, PATH_MAX, "%s/%s", dir, link) >= PATH_MAX)
				return -ENAMETOOLONG;
		}
		/* one level is what editors and dotfile managers make; more is refused */
		if (lstat(out, &st) == 0 && S_ISLNK(st.st_mode))
			return -ELOOP;
		return 0;
	}
	if (snprintf(out, PATH_MAX, "%s", path) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int rcfile_save(const char *path, const struct view *v, char *err, size_t len)
{
	static const char head[] = "# pmutop settings, written on quit\n";
	char target[PATH_MAX], tmp[PATH_MAX + 16];
	char *text = rcfile_text(v);
	mode_t mode = 0644;
	struct stat st;
	int fd, rc;

	rc = rcfile_target(path, target);
	if (!rc)
		rc = rcfile_mkdirs(target);
	if (rc) {
		snprintf(err, len, "cannot save the settings to %s: %s", path, strerror(-rc));
		free(text);
		return rc;
	}
	if (stat(target, &st) == 0)
		mode = st.st_mode & 07777; /* keep the file's own permissions */
	/* a new name of our own, never a file someone planted */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", target);
	fd = mkstemp(tmp);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, len, "cannot save the settings to %s: %s", path, strerror(errno));
		free(text);
		return rc;
	}
	rc = fchmod(fd, mode) ? -errno : 0;
	if (!rc)
		rc = rcfile_write_all(fd, head, sizeof(head) - 1);
	if (!rc)
		rc = rcfile_write_all(fd, text, strlen(text));
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, target))
		rc = -errno;
	free(text);
	if (rc) {
		snprintf(err, len, "cannot save the settings to %s: %s", path, strerror(-rc));
		unlink(tmp);
	}
	return rc;
}
