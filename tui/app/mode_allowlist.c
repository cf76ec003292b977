/*
 * mode_allowlist: --msr-safe-allowlist prints, in msr-safe's format, the
 * registers pmutop may write on this CPU (or an emulated one); --list-pmus
 * the kernel's PMUs (both describe the machine and exit).
 */
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int mode_allowlist(const struct options *opt)
{
	char err[512];

	if (session_print_msr_safe_allowlist(opt->sim, opt->root, stdout, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		/* a bad --sim argument is bad input; a machine we cannot read is a failure */
		return opt->sim ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int mode_list_pmus(const struct options *opt)
{
	char err[512];

	if (session_print_pmus(opt->sim, opt->root, stdout, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return opt->sim ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int mode_write_sysfs(const struct options *opt)
{
	char err[600];
	int rc = session_write_sysfs(opt->sim, opt->write_sysfs, stdout, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return rc == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
