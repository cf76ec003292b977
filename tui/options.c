/*
 * options: command-line parsing with getopt_long, silenced so that every
 * message comes out in pmutop's own words.  Main thread only (getopt state).
 */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

const char options_usage[] =
	"Usage: pmutop [OPTION]...\n"
	"Live view of Intel performance-monitoring counters over the machine's topology.\n"
	"\n"
	"  -T, --topology=SRC     use this topology instead of the machine's: an hwloc\n"
	"                         XML file, or a synthetic description such as\n"
	"                         'pack:2 [numa] l3:1 core:4 pu:2'\n"
	"      --topology-only    print the topology (sockets, NUMA nodes, L3, cores,\n"
	"                         hardware threads) and exit\n"
	"      --sim=MACHINE[:SCENARIO]\n"
	"                         use an emulated machine instead of the hardware:\n"
	"                         nehalem-ep, westmere-ep, skylake, core2, arch; SCENARIO\n"
	"                         is a shipped name (idle, compute-bound, memory-bound,\n"
	"                         numa-remote, frontend-bound, unbalanced-channels) or\n"
	"                         a scenario file\n"
	"      --root=DIR         read devices, /sys and /proc under DIR (a fake machine)\n"
	"      --msr-safe-allowlist\n"
	"                         print the msr-safe allowlist of the registers pmutop\n"
	"                         writes on this CPU (or the --sim machine) and exit\n"
	"  -h, --help             show this help and exit\n"
	"  -V, --version          show the version and the layout directory, and exit\n"
	"\n"
	"Exit status: 0 success, 1 failure while running, 2 bad command line or input.\n";

enum {
	OPT_TOPOLOGY_ONLY = 256,
	OPT_SIM,
	OPT_ROOT,
	OPT_MSR_SAFE_ALLOWLIST,
};

static const struct option options_long[] = {
	{ "topology", required_argument, NULL, 'T' },
	{ "topology-only", no_argument, NULL, OPT_TOPOLOGY_ONLY },
	{ "sim", required_argument, NULL, OPT_SIM },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "msr-safe-allowlist", no_argument, NULL, OPT_MSR_SAFE_ALLOWLIST },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Describe what getopt_long rejected: ARG is argv[optind - 1]. */
static void options_reject(const char *arg, int optopt_c, int c, char *err, size_t errlen)
{
	/* getopt sets optopt for long options too; the argument text tells them apart */
	if (strncmp(arg, "--", 2) == 0)
		optopt_c = 0;
	if (c == ':' && optopt_c)
		snprintf(err, errlen, "option '-%c' needs an argument", optopt_c);
	else if (c == ':')
		snprintf(err, errlen, "option '%.*s' needs an argument", (int)strcspn(arg, "="), arg);
	else if (optopt_c)
		snprintf(err, errlen, "unknown option '-%c'", optopt_c);
	else
		snprintf(err, errlen, "unknown option '%s'", arg);
}

int options_parse(int argc, char **argv, struct options *opt, char *err, size_t errlen)
{
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->action = OPTIONS_ACTION_INTERACTIVE;
	optind = 0; /* full re-initialisation, so tests can parse repeatedly */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":T:hV", options_long, NULL)) != -1) {
		switch (c) {
		case 'T':
			if (!*optarg) {
				snprintf(err, errlen, "--topology needs a file or a synthetic description");
				return -EINVAL;
			}
			opt->topology = optarg;
			break;
		case OPT_TOPOLOGY_ONLY:
			opt->action = OPTIONS_ACTION_TOPOLOGY_ONLY;
			break;
		case OPT_MSR_SAFE_ALLOWLIST:
			opt->action = OPTIONS_ACTION_MSR_SAFE_ALLOWLIST;
			break;
		case OPT_SIM:
			if (!*optarg) {
				snprintf(err, errlen, "--sim needs a machine, e.g. --sim nehalem-ep:memory-bound");
				return -EINVAL;
			}
			opt->sim = optarg;
			break;
		case OPT_ROOT:
			if (!*optarg || optarg[0] != '/') {
				snprintf(err, errlen, "--root needs an absolute directory, got '%s'", optarg);
				return -EINVAL;
			}
			opt->root = optarg;
			break;
		case 'h':
			opt->action = OPTIONS_ACTION_HELP;
			return 0;
		case 'V':
			opt->action = OPTIONS_ACTION_VERSION;
			return 0;
		default:
			options_reject(argv[optind - 1], optopt, c, err, errlen);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (opt->sim && opt->root) {
		snprintf(err, errlen, "--sim and --root both say where counters come from; give one");
		return -EINVAL;
	}
	return 0;
}
