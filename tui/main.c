/*
 * main: pmutop's entry point.  Parses the command line, then hands over to
 * the requested front end.  Before curses starts, errors are printed here
 * and the process exits non-zero (2 for bad input, 1 for failures).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cpuid.h"
#include "emu.h"
#include "msr_allow.h"
#include "options.h"
#include "paths.h"
#include "pmu_regs.h"
#include "topo.h"
#include "topo_text.h"

#define MAIN_EXIT_USAGE 2

static int main_terminal_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

static int main_topology_only(const struct options *opt)
{
	char err[512];
	struct topo *t = NULL;
	struct emu *e = NULL;
	int rc;

	if (opt->sim && !opt->topology) {
		/* the emulated machine's own topology, and say that it is emulated */
		rc = emu_create(opt->sim, paths_scenario_dir(NULL), &e, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pmutop: %s\n", err);
			return MAIN_EXIT_USAGE;
		}
		printf("SIMULATED machine %s: %s\n", emu_machine(e)->name,
		       emu_machine(e)->description);
		topo_text_print(emu_topo(e), stdout, main_terminal_width());
		emu_free(e);
		return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	}
	rc = opt->topology ? topo_load(opt->topology, &t, err, sizeof(err))
			   : topo_load_root(opt->root, &t, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return rc == -EIO ? EXIT_FAILURE : MAIN_EXIT_USAGE;
	}
	topo_text_print(t, stdout, main_terminal_width());
	topo_free(t);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* The CPU identity of the --sim machine, or of the machine under --root / this one. */
static int main_identify(const struct options *opt, struct cpuid_info *info, char *err, size_t len)
{
	struct emu *e;
	int rc;

	if (!opt->sim)
		return cpuid_identify_root(opt->root, info, err, len);
	rc = emu_create(opt->sim, paths_scenario_dir(NULL), &e, err, len);
	if (rc)
		return rc;
	rc = cpuid_identify(emu_cpuid_leaf, e, info, err, len);
	emu_free(e);
	return rc;
}

static int main_msr_safe_allowlist(const struct options *opt)
{
	struct cpuid_info info;
	struct msr_allowlist allow;
	char err[512];
	int rc = main_identify(opt, &info, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		/* a bad --sim argument is bad input; a machine we cannot read is a failure */
		return opt->sim ? MAIN_EXIT_USAGE : EXIT_FAILURE;
	}
	/* every CBo slice a Skylake client part can have */
	msr_allow_build(&info, SKL_UNC_MAX_CBO, &allow);
	printf("# %s (%s, family %u model 0x%02X)\n", info.brand, info.uarch_name, info.family,
	       info.model);
	msr_allow_print_msr_safe(&allow, stdout);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	struct options opt;
	char err[512];

	if (options_parse(argc, argv, &opt, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\nTry 'pmutop --help' for more information.\n", err);
		return MAIN_EXIT_USAGE;
	}
	switch (opt.action) {
	case OPTIONS_ACTION_HELP:
		fputs(options_usage, stdout);
		return EXIT_SUCCESS;
	case OPTIONS_ACTION_VERSION:
		printf("%s %s\nlayouts: %s\n", PACKAGE_NAME, PACKAGE_VERSION, paths_layout_dir(NULL));
		return EXIT_SUCCESS;
	case OPTIONS_ACTION_TOPOLOGY_ONLY:
		return main_topology_only(&opt);
	case OPTIONS_ACTION_MSR_SAFE_ALLOWLIST:
		return main_msr_safe_allowlist(&opt);
	case OPTIONS_ACTION_INTERACTIVE:
		break;
	}
	fprintf(stderr, "pmutop: this build has no interactive view yet (it lands with the "
		"TUI); run 'pmutop --topology-only' to see the machine's topology.\n");
	return EXIT_FAILURE;
}
