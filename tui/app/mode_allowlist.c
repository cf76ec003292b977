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

	if (session_print_msr_safe_allowlist(opt->machine, stdout, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		/* an emulated CPU without them was chosen badly; a machine we cannot read is a failure */
		return session_machine_simulated(opt->machine) ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int mode_list_pmus(const struct options *opt)
{
	char err[512];

	if (session_print_pmus(opt->machine, stdout, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return session_machine_simulated(opt->machine) ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int mode_write_sysfs(const struct options *opt)
{
	char err[600];
	int rc = session_write_sysfs(opt->machine, opt->write_sysfs, stdout, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return rc == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
