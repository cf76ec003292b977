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
/* the longest value a setting takes (a list of every metric of a layout fits) */
#define RCFILE_VALUE_MAX 16384 /* every group of a layout, every metric hidden */

static const char rcfile_head[] = "# pmutop settings, written on quit\n";

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

/*
 * The whole file at PATH into *BUF (NUL-terminated, *LEN bytes, which may
 * hold NULs): 0; -ENOENT when there is none; else -errno with WHY.
 */
static int rcfile_read(const char *path, char **buf, size_t *len, char *why, size_t whylen)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, rc;

	*buf = NULL;
	*len = 0;
	if (stat(path, &st) && errno == ENOENT)
		return -ENOENT;
	rc = paths_check_trusted_path(path, "settings file", why, whylen);
	if (rc)
		return rc;
	rc = paths_open_file(path, "settings file", &fd, why, whylen);
	if (rc)
		return rc;
	if (fstat(fd, &st) == 0 && st.st_size > RCFILE_MAX_BYTES) {
		snprintf(why, whylen, "%s is larger than %d bytes: not a pmutop settings file "
			 "(move it away)", path, RCFILE_MAX_BYTES);
		close(fd);
		return -EFBIG;
	}
	*buf = xmalloc(RCFILE_MAX_BYTES + 1);
	while ((n = read(fd, *buf + got, RCFILE_MAX_BYTES - got)) > 0)
		got += (size_t)n;
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc) {
		snprintf(why, whylen, "cannot read %s: %s", path, strerror(-rc));
		free(*buf);
		*buf = NULL;
		return rc;
	}
	(*buf)[got] = 0;
	*len = got;
	return 0;
}

/* The next line of BUF (LEN bytes) from *POS: its start and length without the newline. */
static bool rcfile_next_line(const char *buf, size_t len, size_t *pos, const char **line,
			     size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*line = buf + *pos;
	nl = memchr(*line, '\n', len - *pos);
	*n = nl ? (size_t)(nl - *line) : len - *pos;
	*pos += *n + (nl != NULL);
	return true;
}

enum rcfile_kind { RCFILE_BLANK, RCFILE_SETTING, RCFILE_BAD };

/*
 * Line LINE (N bytes) applied to V: blank or a comment, a setting applied
 * (its key in KEY), or bad (why in WHY, its key in KEY when it has one).
 */
static enum rcfile_kind rcfile_line(struct view *v, const char *line, size_t n, char *key,
				    size_t keylen, char *why, size_t whylen)
{
	char text[RCFILE_VALUE_MAX + 64], *k, *value, *end;
	const char *nul = memchr(line, 0, n);

	key[0] = 0;
	if (nul) {
		snprintf(why, whylen, "a NUL byte at column %d: the file holds binary data there "
			 "(damaged, or not a settings file); remove it", (int)(nul - line) + 1);
		return RCFILE_BAD;
	}
	if (n >= sizeof(text)) {
		snprintf(why, whylen, "a line of %zu characters: a setting takes at most %d",
			 n, RCFILE_VALUE_MAX);
		return RCFILE_BAD;
	}
	memcpy(text, line, n);
	text[n] = 0;
	k = text + strspn(text, " \t");
	if (*k == '#' || !*k)
		return RCFILE_BLANK;
	value = k + strcspn(k, " \t\r");
	snprintf(key, keylen, "%.*s", (int)(value - k), k);
	if (strchr(text, '\r')) {
		snprintf(why, whylen, "stray carriage return at column %d (Windows line endings? "
			 "convert with dos2unix)", (int)(strchr(text, '\r') - text) + 1);
		return RCFILE_BAD;
	}
	if (!*value) {
		snprintf(why, whylen, "expected 'key value'");
		return RCFILE_BAD;
	}
	*value++ = 0;
	value += strspn(value, " \t");
	end = value + strlen(value);
	while (end > value && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = 0;
	if (view_setting_apply(v, k, value, why, whylen))
		return RCFILE_BAD;
	return RCFILE_SETTING;
}

/*
 * One more "FILE:LINE: why" line in WARN; those that do not fit are
 * counted in *MORE, the first of them at line *FIRST_MORE.
 */
static void rcfile_warn(char *warn, size_t len, int *more, int *first_more, const char *path,
			int line, const char *what)
{
	size_t used = strlen(warn);
	char msg[700];

	snprintf(msg, sizeof(msg), "%s%s:%d: %s; using the default", used ? "\n" : "", path, line,
		 what);
	parse_printable(msg + (used ? 1 : 0), sizeof(msg) - (used ? 1 : 0)); /* the file's bytes never reach the terminal raw */
	if (!*more && used + strlen(msg) + 80 + strlen(path) < len)
		memcpy(warn + used, msg, strlen(msg) + 1);
	else if (!(*more)++)
		*first_more = line;
}

int rcfile_load(const char *path, struct view *v, char *warn, size_t len)
{
	char *buf, why[600], key[64];
	const char *line;
	size_t n, size, pos = 0;
	int no = 0, more = 0, first_more = 0, rc;

	warn[0] = 0;
	rc = rcfile_read(path, &buf, &size, why, sizeof(why));
	if (rc == -ENOENT)
		return 0;
	if (rc) {
		snprintf(warn, len, "%s; using the defaults", why);
		parse_printable(warn, len);
		return rc;
	}
	/*
	 * the layout line first, wherever it stands (a file from before it was
	 * written has it last): the groups and metrics of the lines before it
	 * are its layout's
	 */
	while (rcfile_next_line(buf, size, &pos, &line, &n))
		if (n > 7 && !strncmp(line, "layout ", 7))
			rcfile_line(v, line, n, key, sizeof(key), why, sizeof(why));
	pos = 0;
	while (rcfile_next_line(buf, size, &pos, &line, &n)) {
		no++;
		if (rcfile_line(v, line, n, key, sizeof(key), why, sizeof(why)) == RCFILE_BAD)
			rcfile_warn(warn, len, &more, &first_more, path, no, why);
	}
	if (more) {
		snprintf(warn + strlen(warn), len - strlen(warn), "\n%s:%d: %d more bad line%s "
			 "from here on (fix these first)", path, first_more, more, more == 1 ? "" : "s");
		parse_printable(strrchr(warn, '\n') + 1, len - (size_t)(strrchr(warn, '\n') + 1 - warn));
	}
	free(buf);
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

/* The line of TEXT (V's settings) for KEY, with its newline; NULL when it has none. */
static const char *rcfile_current(const char *text, const char *key, size_t *n)
{
	size_t kl = strlen(key);

	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		const char *nl = strchr(l, '\n');

		if (!strncmp(l, key, kl) && l[kl] == ' ') {
			*n = (size_t)(nl - l) + 1;
			return l;
		}
		if (!nl[1])
			break;
	}
	return NULL;
}

/* Append N bytes of P to the growing buffer *OUT (*LEN used of *CAP). */
static void rcfile_append(char **out, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*out = xrealloc(*out, *cap, 1);
	}
	memcpy(*out + *len, p, n);
	*len += n;
	(*out)[*len] = 0;
}

/* Whether KEY is one of the N keys of WRITTEN. */
static bool rcfile_has(char written[][64], int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(written[i], key))
			return true;
	return false;
}

/*
 * The new file: OLD's lines (SIZE bytes, NULL for none) with each setting
 * pmutop understood set to V's value, every other line (comments, settings
 * it did not understand) kept as written, then V's settings the file did
 * not set.  Malloc'd, its length in *LEN.
 */
static char *rcfile_merge(const struct view *v, const char *old, size_t size, size_t *len)
{
	char *text = rcfile_text(v), *out = NULL, key[64], why[600], written[16][64];
	const char *line, *cur;
	size_t n, cn, pos = 0, cap = 0;
	struct view scratch;
	int nwritten = 0;

	*len = 0;
	view_init(&scratch, &v->info, v->groups, v->interval);
	if (!old || !size)
		rcfile_append(&out, len, &cap, rcfile_head, sizeof(rcfile_head) - 1);
	while (old && rcfile_next_line(old, size, &pos, &line, &n)) {
		cur = rcfile_line(&scratch, line, n, key, sizeof(key), why, sizeof(why)) ==
		      RCFILE_SETTING ? rcfile_current(text, key, &cn) : NULL;
		if (cur) {
			rcfile_append(&out, len, &cap, cur, cn);
			if (!rcfile_has(written, nwritten, key) && nwritten < 16)
				snprintf(written[nwritten++], sizeof(written[0]), "%s", key);
			continue;
		}
		rcfile_append(&out, len, &cap, line, n);
		rcfile_append(&out, len, &cap, "\n", 1);
	}
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');

		snprintf(key, sizeof(key), "%.*s", (int)strcspn(l, " "), l);
		if (!rcfile_has(written, nwritten, key))
			rcfile_append(&out, len, &cap, l, (size_t)(nl - l) + 1);
		l = nl + 1;
	}
	view_free(&scratch);
	free(text);
	return out;
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

int rcfile_save(const char *path, const struct view *v, char *err, size_t len)
{
	char target[PATH_MAX], tmp[PATH_MAX + 16], why[600];
	char *old = NULL, *text;
	size_t size = 0, tlen;
	mode_t mode = 0644;
	struct stat st;
	int fd, rc;

	rc = paths_check_trusted_path(path, "settings file", why, sizeof(why));
	if (rc) {
		snprintf(err, len, "settings not saved: %s", why);
		return rc;
	}
	rc = paths_link_target(path, target);
	if (!rc)
		rc = rcfile_mkdirs(target);
	if (rc) {
		snprintf(err, len, "cannot save the settings to %s: %s", path, strerror(-rc));
		return rc;
	}
	/* the user's lines are kept: a file that cannot be read is not replaced */
	rc = rcfile_read(target, &old, &size, why, sizeof(why));
	if (rc && rc != -ENOENT) {
		snprintf(err, len, "settings not saved, so that nothing in the file is lost: %s", why);
		return rc;
	}
	if (stat(target, &st) == 0)
		mode = st.st_mode & 07777; /* keep the file's own permissions */
	text = rcfile_merge(v, old, size, &tlen);
	free(old);
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
		rc = rcfile_write_all(fd, text, tlen);
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
