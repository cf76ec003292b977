/*
 * privs: giving up root to the user who ran sudo; see privs.h.
 */
#define _GNU_SOURCE /* initgroups, setresuid */
#include "privs.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* The number in environment variable NAME, or -1 when unset or not a number. */
static long privs_env_id(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v < 0 ? -1 : v;
}

int privs_drop_to_invoker(uid_t *uid, char *err, size_t errlen)
{
	long u = privs_env_id("SUDO_UID"), g = privs_env_id("SUDO_GID");
	const char *name = getenv("SUDO_USER");
	struct passwd *pw;

	*uid = (uid_t)-1;
	if (geteuid() != 0 || u <= 0)
		return 0;
	pw = getpwuid((uid_t)u);
	if (g < 0)
		g = pw ? (long)pw->pw_gid : -1;
	if (g < 0) {
		snprintf(err, errlen, "started through sudo by user %ld, whose group is unknown "
			 "(SUDO_GID unset and no passwd entry); run pmutop as root directly", u);
		return -EINVAL;
	}
	/* the user's supplementary groups (e.g. one allowed to read the devices), or none */
	if ((name && *name ? initgroups(name, (gid_t)g) : setgroups(0, NULL)) ||
	    setresgid((gid_t)g, (gid_t)g, (gid_t)g) || setresuid((uid_t)u, (uid_t)u, (uid_t)u)) {
		int rc = -errno;

		snprintf(err, errlen, "cannot give up root to user %ld (who ran sudo): %s; run pmutop "
			 "as root directly", u, strerror(-rc));
		return rc;
	}
	/* that user may not ptrace pmutop into the device files it holds open */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (pw && pw->pw_dir && *pw->pw_dir)
		setenv("HOME", pw->pw_dir, 1);
	*uid = (uid_t)u;
	return 0;
}
