/*
 * source_files: the files a run reads beside the counters (who uses the
 * machine, thermal throttling).  A real machine's are under its root; an
 * emulated machine writes its own into a private directory, brought up to
 * date before every look, removed when the source closes.  Main thread,
 * but for the refresh (the sampler's).
 */
#define _GNU_SOURCE
#include "source_int.h"
#include "emu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

static const char *const source_files_tag[] = { "who", "thr" };

static int source_files_rm(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Remove DIR and everything under it, no link followed. */
static void source_files_rm_tree(const char *dir)
{
	nftw(dir, source_files_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* The directories of TAG under TMP that killed runs left: this user's, their PID gone. */
static void source_files_sweep(const char *tmp, const char *tag)
{
	char prefix[32], path[PATH_MAX];
	DIR *d = opendir(tmp);
	struct dirent *de;

	if (!d)
		return;
	snprintf(prefix, sizeof(prefix), "pmutop-%s-", tag);
	while ((de = readdir(d))) {
		const char *p = de->d_name + strlen(prefix);
		char *end;
		long pid;
		struct stat st;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		errno = 0;
		pid = strtol(p, &end, 10);
		/* a link, another user's, a running pmutop's (or a PID reused since): left alone */
		if (end == p || *end != '-' || errno || pid <= 0 || pid > INT_MAX ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", tmp, de->d_name) < (int)sizeof(path))
			source_files_rm_tree(path);
	}
	closedir(d);
}

/*
 * Where the private directories go: $TMPDIR where it is set; else /dev/shm
 * where it is a memory file system kept as /tmp is (root's, sticky, a
 * directory and no link), else /tmp.  A server's machine writes thousands of
 * small files and directories: on a disk's journal that cost 1.2 s of system
 * time for a run of one 0.1 s interval of the emulated Granite Rapids, in
 * memory 0.1 s (tmpfs and ext4 on a 2-core VM).
 */
static const char *source_files_base(void)
{
	const char *env = getenv("TMPDIR");
	struct statfs fs;
	struct stat st;

	if (env && *env == '/')
		return env;
	if (!statfs("/dev/shm", &fs) && fs.f_type == TMPFS_MAGIC && !lstat("/dev/shm", &st) &&
	    S_ISDIR(st.st_mode) && st.st_uid == 0 && (st.st_mode & S_ISVTX) &&
	    !access("/dev/shm", W_OK | X_OK))
		return "/dev/shm";
	return "/tmp";
}

/*
 * A private directory for the files of TAG into DIR:
 * BASE/pmutop-TAG-PID-XXXXXX (source_files_base), after the same tag's
 * that killed runs left are removed.  0, or -errno with ERR (DIR "").
 */
static int source_files_dir(const char *tag, char *dir, size_t len, char *err, size_t errlen)
{
	const char *tmp = source_files_base();

	source_files_sweep(tmp, tag);
	snprintf(dir, len, "%s/pmutop-%s-%d-XXXXXX", tmp, tag, (int)getpid());
	if (!mkdtemp(dir)) {
		int rc = -errno;

		snprintf(err, errlen, "%s: cannot make the emulated machine's files: %s", dir,
			 strerror(-rc));
		dir[0] = '\0';
		return rc;
	}
	return 0;
}

/* KIND's files written by the emulated machine, up to its clock now, into its directory. */
static int source_files_write(struct source *s, int kind, char *err, size_t errlen)
{
	return kind == SOURCE_FILES_WHO ? emu_who_write(s->emu, s->files_dir[kind], err, errlen)
					: emu_throttle_write(s->emu, s->files_dir[kind], err, errlen);
}

/* Before each look (CTX a source_files_of): a failure leaves the last files to read. */
static void source_files_refresh(void *ctx)
{
	const struct source_files_of *of = ctx;
	char err[256];

	source_files_write(of->s, of->kind, err, sizeof(err));
}

int source_files(struct source *s, const char *root, enum source_files_kind kind,
		 struct source_files *out, char *err, size_t errlen)
{
	int rc;

	*out = (struct source_files){ .root = root };
	if (!s || !s->emu)
		return 0;
	out->own = true;
	out->root = NULL;
	if (kind == SOURCE_FILES_WHO && !emu_scenario(s->emu)->ntasks) {
		out->unavailable = "the emulated machine runs no tasks in this scenario: --sim "
				   "icelake-sp:shared-server has a shared server's services and "
				   "containers";
		return 0;
	}
	if (!s->files_dir[kind][0]) {
		rc = source_files_dir(source_files_tag[kind], s->files_dir[kind],
				      sizeof(s->files_dir[kind]), err, errlen);
		if (rc)
			return rc;
	}
	if (kind == SOURCE_FILES_WHO && (rc = source_files_write(s, kind, err, errlen)))
		return rc;
	out->root = s->files_dir[kind];
	s->files_of[kind] = (struct source_files_of){ .s = s, .kind = kind };
	out->refresh = source_files_refresh;
	out->refresh_ctx = &s->files_of[kind];
	return 0;
}

void source_files_close(struct source *s)
{
	for (int k = 0; k < SOURCE_NFILES; k++)
		if (s->files_dir[k][0]) {
			source_files_rm_tree(s->files_dir[k]);
			s->files_dir[k][0] = '\0';
		}
}
