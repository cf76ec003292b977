/*
 * mode_screen: the live screen (ui.h) of a run, with the command after
 * "--" (its output in a file of the user's while the screen is pmutop's),
 * the phase marks and --record; q then l leaves the command running.
 */
#include "app.h"
#include "ui.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The file a command's output goes to while the screen is pmutop's: in
 * $TMPDIR (or /tmp), the user's own (0600).  Its descriptor, or -1 with the
 * reason on stderr.
 */
static int mode_screen_cmd_log(const struct options *opt, char *path, size_t len)
{
	const char *tmp = getenv("TMPDIR"), *name = strrchr(opt->command[0], '/');
	char safe[32];
	size_t n = 0;
	int fd;

	name = name ? name + 1 : opt->command[0];
	for (; *name && n + 1 < sizeof(safe); name++)
		safe[n++] = (*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
			    (*name >= '0' && *name <= '9') || *name == '-' || *name == '_' ? *name : '_';
	safe[n] = 0;
	snprintf(path, len, "%s/pmutop-%s-XXXXXX.log", tmp && tmp[0] == '/' ? tmp : "/tmp", safe);
	fd = mkstemps(path, 4);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "pmutop: cannot make a file for the command's output (%s): %s\n",
			path, strerror(errno));
	return fd;
}

/*
 * The live screen of S (counters, or the OS's figures) with C's view: the
 * command and the marks started, the screen run, then they are stopped.
 */
int mode_screen(struct session *s, const struct options *opt, int sigfd, struct serve *srv,
		struct ui_config *c)
{
	struct record_about ra;
	struct extra x;
	char err[1024], log[PATH_MAX];
	int fd = -1, status;
	bool left = false;

	if (opt->command) {
		fd = mode_screen_cmd_log(opt, log, sizeof(log));
		if (fd < 0)
			return EXIT_FAILURE;
	}
	status = extra_start(opt, s, fd, &x);
	if (fd >= 0)
		close(fd);
	if (status) {
		extra_stop(&x);
		return status;
	}
	app_record_about(opt, s, &ra);
	c->rec = &x.rec;
	c->rec_about = &ra;
	c->cmd = x.cmd;
	c->cmd_log = opt->command ? log : NULL;
	/* an emulated machine's CPUs are not where the command runs */
	c->cmd_on_host = !session_machine_simulated(opt->machine) &&
			 !session_machine_root(opt->machine);
	c->marks = x.marks;
	c->srv = srv;
	c->cmd_left = &left;
	status = ui_run(s, c, sigfd, err, sizeof(err));
	if (left) {
		/* q, then l: the benchmark goes on without pmutop */
		fprintf(stderr, "pmutop: left the command running (pid %d)\n", run_pid(x.cmd));
		run_free(x.cmd);
		x.cmd = NULL;
	}
	extra_stop(&x);
	if (opt->command)
		fprintf(stderr, "pmutop: the command's output %s %s\n", left ? "goes on into" : "is in",
			log);
	if (err[0])
		fprintf(stderr, "pmutop: %s\n", err);
	return status;
}
