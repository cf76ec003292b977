/*
 * main: pmutop's entry point.  Parses the command line, then hands over to
 * the mode it asks for (app.h: one file each).  Before curses starts,
 * errors are printed and the process exits non-zero (2 for bad input, 1
 * for failures).
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "paths.h"

/* The mode OPT asks for, on its machine. */
static int main_mode(const struct options *opt)
{
	switch (opt->action) {
	case OPTIONS_ACTION_TOPOLOGY_ONLY:
		return mode_topology(opt);
	case OPTIONS_ACTION_MSR_SAFE_ALLOWLIST:
		return mode_allowlist(opt);
	case OPTIONS_ACTION_LIST_EVENTS:
		return mode_list_events(opt);
	case OPTIONS_ACTION_LIST_METRICS:
		return mode_list_metrics(opt);
	case OPTIONS_ACTION_LIST_PMUS:
		return mode_list_pmus(opt);
	case OPTIONS_ACTION_WRITE_SYSFS:
		return mode_write_sysfs(opt);
	case OPTIONS_ACTION_DOCTOR:
		return mode_doctor(opt);
	default:
		return mode_live(opt);
	}
}

int main(int argc, char **argv)
{
	struct options opt;
	char err[512];
	int status;
	bool stdout_closed = app_std_fds();

	setlocale(LC_ALL, "");
	if (stdout_closed) {
		fprintf(stderr, "pmutop: standard output is closed, so there is nowhere to write to; "
			"give it a terminal, a file (> FILE) or a pipe\n");
		return OPTIONS_EXIT_USAGE;
	}
	if (options_parse(argc, argv, &opt, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\nTry 'pmutop --help' for more information.\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	switch (opt.action) {
	case OPTIONS_ACTION_HELP:
		options_usage_write(stdout);
		return EXIT_SUCCESS;
	case OPTIONS_ACTION_VERSION:
		printf("%s %s\nlayouts: %s\n", PACKAGE_NAME, PACKAGE_VERSION, paths_layout_dir(NULL));
		return EXIT_SUCCESS;
	case OPTIONS_ACTION_MARK:
		return mode_mark(&opt);
	default:
		break;
	}
	if (opt.replay && opt.action == OPTIONS_ACTION_INTERACTIVE)
		return mode_replay(&opt);
	if (opt.connect && opt.action == OPTIONS_ACTION_INTERACTIVE)
		return mode_connect(&opt);
	/* the machine every other mode looks at: this one, a --root tree, an emulated one */
	if (session_machine_open(opt.root, opt.sim, opt.dump, &opt.machine, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	status = main_mode(&opt);
	session_machine_free(opt.machine);
	return status;
}
