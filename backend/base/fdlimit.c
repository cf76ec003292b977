/*
 * fdlimit: raise RLIMIT_NOFILE as far as needed and allowed.  See fdlimit.h.
 */
#include "fdlimit.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

long fdlimit_open_now(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long n = 0;

	if (!d)
		return 16; /* without procfs: a guess for stdio and a few files */
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

long fdlimit_soft(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur == RLIM_INFINITY)
		return -1;
	return (long)r.rlim_cur;
}

/* fs.nr_open: the most a hard limit may be (1048576 when it cannot be read). */
static long fdlimit_nr_open(void)
{
	FILE *f = fopen("/proc/sys/fs/nr_open", "re");
	long n = 1048576;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 1048576;
		fclose(f);
	}
	return n;
}

int fdlimit_room(long need, char *why, size_t len)
{
	return fdlimit_raise(fdlimit_open_now() + need + FDLIMIT_MARGIN, why, len);
}

int fdlimit_raise(long want, char *why, size_t len)
{
	long nr_open;
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return 0; /* nothing known: the opens say what is wrong */
	if (r.rlim_cur == RLIM_INFINITY || (long)r.rlim_cur >= want)
		return 0;
	if (r.rlim_max == RLIM_INFINITY || (long)r.rlim_max >= want) {
		r.rlim_cur = (rlim_t)want;
		if (setrlimit(RLIMIT_NOFILE, &r) == 0)
			return 0;
	}
	nr_open = fdlimit_nr_open();
	if (want <= nr_open) {
		/* the hard limit too: allowed with CAP_SYS_RESOURCE (root) */
		struct rlimit up = { .rlim_cur = (rlim_t)want, .rlim_max = (rlim_t)want };

		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			return 0;
	}
	/* as far as it goes: the soft limit at the hard one */
	if (r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
	if (why && len) {
		if (want > nr_open)
			snprintf(why, len, "%ld open files needed, the kernel allows %ld per process: "
				 "as root, sysctl fs.nr_open=%ld", want, nr_open, want);
		else
			snprintf(why, len, "%ld open files needed, %llu allowed (the hard limit, %s): "
				 "as root, ulimit -Hn %ld, or LimitNOFILE=%ld in a systemd unit", want,
				 (unsigned long long)r.rlim_max, geteuid() == 0
				 ? "which this root lacks CAP_SYS_RESOURCE to raise, as in a container"
				 : "which only root may raise; as root pmutop raises it itself", want,
				 want);
	}
	return -EMFILE;
}
