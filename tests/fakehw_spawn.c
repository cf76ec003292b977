/* fakehw_spawn: run the fake device tree helper around a test.  Test code only. */
#define _GNU_SOURCE
#include "fakehw_spawn.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int fakehw_is_mounted(const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], mnt[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 && strcmp(mnt, path) == 0)
			found = 1;
	fclose(f);
	return found;
}

int fakehw_start(struct fakehw *f, const char *machine)
{
	return fakehw_start_opt(f, machine, NULL);
}

int fakehw_start_opt(struct fakehw *f, const char *machine, const char *opt)
{
	const char *helper = getenv("FAKEHW");
	char ready[96];
	struct stat st;

	if (!helper) {
		fprintf(stderr, "fakehw_start: FAKEHW is not set (run through make check)\n");
		return -1;
	}
	snprintf(f->dir, sizeof(f->dir), "/tmp/pmutop-fakehw-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(ready, sizeof(ready), "%s.ready", f->dir);
	unlink(ready);
	f->pid = fork();
	if (f->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (opt)
			execl(helper, helper, "--ready", ready, opt, machine, f->dir, (char *)NULL);
		else
			execl(helper, helper, "--ready", ready, machine, f->dir, (char *)NULL);
		_exit(127);
	}
	/* ready in well under a second idle; a loaded CI machine may take many (it waits no longer than needed) */
	for (int i = 0; i < 1500; i++) {
		int status;

		if (stat(ready, &st) == 0) {
			unlink(ready);
			return 0;
		}
		if (waitpid(f->pid, &status, WNOHANG) == f->pid) {
			fprintf(stderr, "fakehw_start: the helper exited (status %d)\n", status);
			return -1;
		}
		usleep(20000);
	}
	fprintf(stderr, "fakehw_start: the helper did not come up in 30 s\n");
	kill(f->pid, SIGKILL);
	return -1;
}

int fakehw_stop(struct fakehw *f, int sig)
{
	char dev[128], cmd[160];
	int status, mounted = 1;

	kill(f->pid, sig);
	waitpid(f->pid, &status, 0);
	snprintf(dev, sizeof(dev), "%s/dev", f->dir);
	/* after SIGKILL, fusermount3 (auto_unmount) needs a moment */
	for (int i = 0; i < 100 && (mounted = fakehw_is_mounted(dev)); i++)
		usleep(20000);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (!mounted && system(cmd) != 0)
		return -1;
	return mounted ? -1 : 0;
}
