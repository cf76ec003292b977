/*
 * live: a run that counts.  Another pmutop's run is viewed when it owns
 * the counters; else the session opens (a machine that cannot count gets
 * the OS's figures: mode_os), the server starts while privileges last, the
 * sampler thread starts, and the run goes on as the options ask: printed
 * or served (mode_batch), drawn once (mode_dump) or on the screen
 * (mode_screen).  The registers are restored when the session closes, on
 * every way out.
 */
#include "app.h"
#include "paths.h"
#include "rcfile.h"
#include "share.h"
#include "ui.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/*
 * One msr device stays open per CPU: a 1024-CPU machine needs more than the
 * usual soft limit of 1024 open files.  Raise the soft limit to the hard one
 * (allowed to anyone); what is still short is said when a device fails to
 * open (msr_explain).
 */
static void live_raise_file_limit(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

/*
 * The machine cannot count (no msr driver, no permission, no PMU pmutop can
 * program): not another pmutop holding the counters, nor a register failing.
 */
static bool live_no_counters(int rc)
{
	return rc == -ENOENT || rc == -ENODEV || rc == -EACCES || rc == -EPERM || rc == -ENOTSUP;
}

/*
 * Another pmutop owns the counters (its viewers' socket answers): look at
 * its figures, read-only, before opening anything, so that a user without
 * access to the counters can still look.  The exit status when viewed (or
 * refused), else -1: count here.
 */
static int live_view_owner(const struct options *opt, int sigfd)
{
	char local[PATH_MAX], verr[1024];
	int status;

	if (session_machine_simulated(opt->machine) || opt->dump || opt->serve || opt->command ||
	    opt->source_given)
		return -1;
	share_local_path(opt->root, local, sizeof(local));
	status = access(local, F_OK) ? -ENOENT : share_view(opt, local, sigfd, verr, sizeof(verr));
	if (status == -EPERM)
		/* not the owner's socket: count here (the owner's socket replaces it) */
		fprintf(stderr, "pmutop: %s; counting here instead\n", verr);
	if (status < 0 && status != -EACCES)
		return -1;
	if (status == -EACCES)
		fprintf(stderr, "pmutop: another pmutop (pid %s) is programming this machine's "
			"counters; %s\n", share_owner_pid(opt->root), verr);
	else if (verr[0])
		fprintf(stderr, "pmutop: %s\n", verr);
	return status >= 0 ? status : EXIT_FAILURE;
}

/* The screen of counting session S. */
static int live_screen(struct session *s, const struct options *opt, int sigfd,
		       struct serve *srv, const char *doctor)
{
	struct ui_config c = { .groups_given = opt->groups != NULL,
			       .interval_given = opt->interval_given, .interval = opt->interval,
			       .pane = opt->pane, .who_always = opt->who || opt->who_procs >= 0,
			       .who_topdown = opt->who_topdown, .drill = opt->drill };
	char rc_path[PATH_MAX];

	app_view_info(opt, s, doctor, &c.info);
	switch (rcfile_path(rc_path, sizeof(rc_path))) {
	case 0:
		c.rc_path = rc_path;
		break;
	case -ENAMETOOLONG:
		c.rc_warning = "the settings file's path ($XDG_CONFIG_HOME or $HOME) is too long: "
			       "settings are neither read nor saved";
		break;
	}
	return mode_screen(s, opt, sigfd, srv, &c);
}

/* Session S counts: serve, drop privileges, start the sampler, run the mode asked for. */
static int live_counting(struct session *s, const struct options *opt, int sigfd, bool headless)
{
	static char doctor[8192];
	struct serve *srv = NULL;
	char err[1024];
	int rc, status;

	if (!opt->batch)
		app_doctor_text(opt, s, doctor, sizeof(doctor));
	if (!opt->dump) {
		struct record_about ra;

		/* before privileges go: a low port, the key files, the socket in /run/lock */
		app_record_about(opt, s, &ra);
		status = share_start(opt, &ra, session_holds_lock(s), &srv);
		if (status)
			return status;
	}
	/* the devices are open, the guardian runs: through sudo, the rest as the user */
	if (privs_drop_to_invoker(&(uid_t){ 0 }, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		share_stop(srv);
		return EXIT_FAILURE;
	}
	rc = session_stepped(s) ? 0 : session_start(s);
	if (rc) {
		fprintf(stderr, "pmutop: cannot start the sampler thread: %s\n", strerror(-rc));
		status = EXIT_FAILURE;
	} else if (opt->batch || headless) {
		status = mode_batch(s, opt, sigfd, srv);
	} else if (opt->dump) {
		status = mode_dump(s, opt, sigfd, doctor);
	} else {
		status = live_screen(s, opt, sigfd, srv, doctor);
	}
	share_stop(srv);
	return status;
}

int mode_live(const struct options *opt)
{
	struct session_config cfg = {
		.machine = opt->machine, .layout_path = opt->layout,
		.layout_dir = paths_layout_dir(NULL), .groups = opt->groups,
		.perfmon_dir = paths_perfmon_dir(NULL),
		.interval = opt->interval, .user_only = opt->user_only,
		.kernel_only = opt->kernel_only, .force = opt->force, .dram_mts = opt->dram_mts,
		.force_layout = opt->force_layout,
		.mux_s = opt->mux_s, .normal_priority = opt->no_realtime, .source = opt->source, .command = opt->command != NULL,
		.command_only = opt->command_only,
		.stepped = opt->dump,
		.who = opt->who, .who_top = opt->who_top, .who_procs = opt->who_procs,
		.who_resctrl = opt->who_resctrl, .who_topdown = opt->who_topdown,
		/* a batch or a server shows who only when asked; the screen when the pane shows */
		.who_wanted = opt->who || opt->who_procs >= 0 || view_pane_who(opt->pane),
	};
	/* --serve without --tui or -b is a service: no screen */
	bool headless = opt->serve && !opt->tui && !opt->batch;
	bool interactive = !opt->batch && !opt->dump && !headless;
	struct session *s;
	char err[1024];
	int rc, sigfd, status;

	if (interactive && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "pmutop: the interactive view needs a terminal; use -b for samples as "
			"text, CSV or JSON, or --dump -n N for a text picture of the screen.\n");
		return OPTIONS_EXIT_USAGE;
	}
	live_raise_file_limit();
	app_fatal_handlers();
	sigfd = app_signals(app_restore_now);
	if (sigfd < 0)
		return EXIT_FAILURE;
	status = live_view_owner(opt, sigfd);
	if (status >= 0) {
		app_sigfd_close(sigfd);
		return status;
	}
	rc = session_open(&cfg, &s, err, sizeof(err));
	if (rc && !session_machine_simulated(opt->machine) && ((interactive && rc != -EINVAL) ||
				((opt->batch || headless) && live_no_counters(rc)))) {
		status = mode_os(opt, err, sigfd, interactive);
		app_sigfd_close(sigfd);
		return status;
	}
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		app_sigfd_close(sigfd);
		return rc == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	if (session_notice(s)[0] && !interactive)
		fprintf(stderr, "pmutop: %s", session_notice(s));
	status = live_counting(s, opt, sigfd, headless);
	if (session_close(s) && status == EXIT_SUCCESS)
		status = EXIT_FAILURE; /* the registers that could not be restored are named */
	app_sigfd_close(sigfd);
	return status;
}
