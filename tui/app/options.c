/*
 * options: command-line parsing with getopt_long, silenced so that every
 * message comes out in pmutop's own words.  Main thread only (getopt state).
 */
#include "options.h"
#include "frontend.h"
#include "view.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
	OPT_TOPOLOGY_ONLY = 256,
	OPT_SIM,
	OPT_ROOT,
	OPT_MSR_SAFE_ALLOWLIST,
	OPT_LAYOUT,
	OPT_USER,
	OPT_KERNEL,
	OPT_FORCE,
	OPT_FORCE_LAYOUT,
	OPT_LIST_EVENTS,
	OPT_LIST_METRICS,
	OPT_LIST_PMUS,
	OPT_WRITE_SYSFS,
	OPT_PLAN,
	OPT_CPU,
	OPT_DUMP,
	OPT_DOCTOR,
	OPT_DRAM_MTS,
	OPT_PANE,
	OPT_DRILL,
	OPT_MUX_MS,
	OPT_SOURCE,
	OPT_COMMAND_ONLY,
	OPT_PIN,
	OPT_MARK,
	OPT_MARK_PID,
	OPT_RECORD,
	OPT_REPLAY,
	OPT_SERVE,
	OPT_TUI,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_AUTH_FILE,
	OPT_CONNECT,
	OPT_TLS_CA,
	OPT_VIEWERS_GROUP,
	OPT_NO_VIEWERS,
	OPT_NO_REALTIME,
};

static const struct option options_long[] = {
	{ "topology", required_argument, NULL, 'T' },
	{ "topology-only", no_argument, NULL, OPT_TOPOLOGY_ONLY },
	{ "sim", required_argument, NULL, OPT_SIM },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "msr-safe-allowlist", no_argument, NULL, OPT_MSR_SAFE_ALLOWLIST },
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, OPTIONS_FORMAT },
	{ "counts", no_argument, NULL, OPTIONS_COUNTS },
	{ "metrics", required_argument, NULL, OPTIONS_METRICS },
	{ "per-cgroup", no_argument, NULL, OPTIONS_PER_CGROUP },
	{ "per-process", no_argument, NULL, OPTIONS_PER_PROCESS },
	{ "cpus", required_argument, NULL, OPTIONS_CPUS },
	{ "groups", required_argument, NULL, 'g' },
	{ "layout", required_argument, NULL, OPT_LAYOUT },
	{ "user", no_argument, NULL, OPT_USER },
	{ "kernel", no_argument, NULL, OPT_KERNEL },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "force-layout", no_argument, NULL, OPT_FORCE_LAYOUT },
	{ "list-events", no_argument, NULL, OPT_LIST_EVENTS },
	{ "list-metrics", no_argument, NULL, OPT_LIST_METRICS },
	{ "list-pmus", no_argument, NULL, OPT_LIST_PMUS },
	{ "write-sysfs", required_argument, NULL, OPT_WRITE_SYSFS },
	{ "who", no_argument, NULL, OPTIONS_WHO },
	{ "who-top", required_argument, NULL, OPTIONS_WHO_TOP },
	{ "who-procs", required_argument, NULL, OPTIONS_WHO_PROCS },
	{ "who-resctrl", required_argument, NULL, OPTIONS_WHO_RESCTRL },
	{ "who-topdown", no_argument, NULL, OPTIONS_WHO_TOPDOWN },
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "doctor", no_argument, NULL, OPT_DOCTOR },
	{ "dram-mts", required_argument, NULL, OPT_DRAM_MTS },
	{ "pane", required_argument, NULL, OPT_PANE },
	{ "drill", no_argument, NULL, OPT_DRILL },
	{ "mux-ms", required_argument, NULL, OPT_MUX_MS },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "command-only", no_argument, NULL, OPT_COMMAND_ONLY },
	{ "pin", required_argument, NULL, OPT_PIN },
	{ "mark", required_argument, NULL, OPT_MARK },
	{ "pid", required_argument, NULL, OPT_MARK_PID },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "serve", required_argument, NULL, OPT_SERVE },
	{ "tui", no_argument, NULL, OPT_TUI },
	{ "tls-cert", required_argument, NULL, OPT_TLS_CERT },
	{ "tls-key", required_argument, NULL, OPT_TLS_KEY },
	{ "auth-file", required_argument, NULL, OPT_AUTH_FILE },
	{ "connect", required_argument, NULL, OPT_CONNECT },
	{ "tls-ca", required_argument, NULL, OPT_TLS_CA },
	{ "viewers-group", required_argument, NULL, OPT_VIEWERS_GROUP },
	{ "no-viewers", no_argument, NULL, OPT_NO_VIEWERS },
	{ "no-realtime", no_argument, NULL, OPT_NO_REALTIME },
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

static int options_number(const char *what, const char *arg, double lo, double hi, double *out,
			  char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || !(*out >= lo && *out <= hi)) {
		snprintf(err, errlen, "%s needs a number from %g to %g, got '%s'", what, lo, hi, arg);
		return -EINVAL;
	}
	return 0;
}

static int options_more(int c, struct options *opt, char *err, size_t errlen)
{
	double v;
	char tail;
	int rc;

	switch (c) {
	case 'b':
		opt->batch = true;
		return 0;
	case 'n':
		if (options_number("-n", optarg, 1, 1e9, &v, err, errlen) || v != (long)v) {
			snprintf(err, errlen, "-n needs a whole number of samples (1 or more), got '%s'",
				 optarg);
			return -EINVAL;
		}
		opt->count = (long)v;
		return 0;
	case 'd':
		opt->interval_given = true;
		return options_number("-d", optarg, ENGINE_INTERVAL_MIN, ENGINE_INTERVAL_MAX,
				      &opt->interval, err, errlen);
	case OPT_DUMP:
		opt->dump = true;
		return 0;
	case OPT_DOCTOR:
		opt->action = OPTIONS_ACTION_DOCTOR;
		return 0;
	case 'g':
		if (!*optarg) {
			snprintf(err, errlen, "-g needs group names or keys, e.g. -g stalls,ports or -g all");
			return -EINVAL;
		}
		opt->groups = optarg;
		return 0;
	case OPT_LAYOUT:
		opt->layout = optarg;
		return 0;
	case OPT_USER:
		opt->user_only = true;
		return 0;
	case OPT_KERNEL:
		opt->kernel_only = true;
		return 0;
	case OPT_FORCE:
		opt->force = true;
		return 0;
	case OPT_FORCE_LAYOUT:
		opt->force_layout = true;
		return 0;
	case OPT_PANE: {
		int i = view_pane_find(optarg);

		if (i <= VIEW_PANE_TOPO) {
			snprintf(err, errlen, "--pane is %s, not '%s'", view_lower_pane_list(), optarg);
			return -EINVAL;
		}
		opt->pane = i; /* the lower pane, its registry place */
		return 0;
	}
	case OPT_DRILL:
		opt->drill = true;
		return 0;
	case OPT_DRAM_MTS: {
		char *end;
		unsigned long mts = strtoul(optarg, &end, 10);

		if (end == optarg || *end || mts < 100 || mts > 20000) {
			snprintf(err, errlen, "--dram-mts needs the DIMM speed in MT/s, 100 to 20000 "
				 "(e.g. 1333 for DDR3-1333), got '%s'", optarg);
			return -EINVAL;
		}
		opt->dram_mts = (unsigned)mts;
		return 0;
	}
	case OPT_MUX_MS:
		if (options_number("--mux-ms", optarg, ENGINE_MUX_MIN_S * 1e3, ENGINE_MUX_MAX_S * 1e3,
				   &v, err, errlen))
			return -EINVAL;
		opt->mux_s = v / 1e3;
		return 0;
	case OPT_SOURCE: {
		size_t n;

		opt->source = session_source_find(optarg);
		opt->source_given = true;
		if (opt->source || !strcmp(optarg, "auto"))
			return 0;
		n = (size_t)snprintf(err, errlen, "--source is auto");
		for (int i = 0; session_source_at(i) && n < errlen; i++)
			n += (size_t)snprintf(err + n, errlen - n, "%s%s", session_source_at(i + 1)
					      ? ", " : " or ", session_source_name(session_source_at(i)));
		if (n < errlen)
			snprintf(err + n, errlen - n, " (pmutop --help says what each counts through), "
				 "not '%s'", optarg);
		return -EINVAL;
	}
	case OPT_COMMAND_ONLY:
		opt->command_only = true;
		return 0;
	case OPT_LIST_METRICS:
		opt->action = OPTIONS_ACTION_LIST_METRICS;
		return 0;
	case OPT_LIST_PMUS:
		opt->action = OPTIONS_ACTION_LIST_PMUS;
		return 0;
	case OPT_WRITE_SYSFS:
		if (!*optarg) {
			snprintf(err, errlen, "--write-sysfs needs a directory: pmutop --sim "
				 "sapphire-rapids --write-sysfs /tmp/spr");
			return -EINVAL;
		}
		opt->action = OPTIONS_ACTION_WRITE_SYSFS;
		opt->write_sysfs = optarg;
		return 0;
	case OPT_PLAN:
		if (!*optarg) {
			snprintf(err, errlen, "--plan needs metric groups or metrics, e.g. --plan "
				 "TmaL1,TmaL2 or --plan tree");
			return -EINVAL;
		}
		opt->plan = optarg;
		return 0;
	case OPT_LIST_EVENTS:
		opt->action = OPTIONS_ACTION_LIST_EVENTS;
		return 0;
	case OPT_PIN:
		if (!*optarg) {
			snprintf(err, errlen, "--pin needs CPUs (e.g. 0-3) or socketN");
			return -EINVAL;
		}
		opt->pin = optarg;
		return 0;
	case OPT_MARK:
		opt->action = OPTIONS_ACTION_MARK;
		opt->mark = optarg;
		return 0;
	case OPT_MARK_PID: {
		char *end;
		long pid;

		errno = 0;
		pid = strtol(optarg, &end, 10);
		if (errno || *end || end == optarg || pid <= 0 || pid > 0x7FFFFFFF) {
			snprintf(err, errlen, "--pid needs a process id (a pmutop's, from ps), not '%s'",
				 optarg);
			return -EINVAL;
		}
		opt->mark_pid = (int)pid;
		return 0;
	}
	case OPT_RECORD:
	case OPT_REPLAY:
		if (!*optarg) {
			snprintf(err, errlen, "%s needs a file", c == OPT_RECORD ? "--record" : "--replay");
			return -EINVAL;
		}
		*(c == OPT_RECORD ? &opt->record : &opt->replay) = optarg;
		return 0;
	case OPT_SERVE:
	case OPT_TLS_CERT:
	case OPT_TLS_KEY:
	case OPT_AUTH_FILE:
	case OPT_CONNECT:
	case OPT_TLS_CA:
	case OPT_VIEWERS_GROUP: {
		static const struct {
			int c;
			const char *name, *what;
			size_t off;
		} args[] = {
			{ OPT_SERVE, "--serve", "[ADDRESS:]PORT", offsetof(struct options, serve) },
			{ OPT_TLS_CERT, "--tls-cert", "a PEM file", offsetof(struct options, tls_cert) },
			{ OPT_TLS_KEY, "--tls-key", "a PEM file", offsetof(struct options, tls_key) },
			{ OPT_AUTH_FILE, "--auth-file", "a file", offsetof(struct options, auth_file) },
			{ OPT_CONNECT, "--connect", "HOST:PORT", offsetof(struct options, connect) },
			{ OPT_TLS_CA, "--tls-ca", "a PEM file", offsetof(struct options, tls_ca) },
			{ OPT_VIEWERS_GROUP, "--viewers-group", "a group",
			  offsetof(struct options, viewers_group) },
		};

		for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
			if (args[i].c != c)
				continue;
			if (!*optarg) {
				snprintf(err, errlen, "%s needs %s", args[i].name, args[i].what);
				return -EINVAL;
			}
			*(const char **)((char *)opt + args[i].off) = optarg;
		}
		return 0;
	}
	case OPT_TUI:
		opt->tui = true;
		return 0;
	case OPT_NO_REALTIME:
		opt->no_realtime = true;
		return 0;
	case OPT_NO_VIEWERS:
		opt->no_viewers = true;
		return 0;
	case OPT_CPU:
		opt->stepping = 0;
		if (!((sscanf(optarg, "%2x_%2x%c", &opt->family, &opt->model, &tail) == 2 &&
		       strlen(optarg) == 5) ||
		      (sscanf(optarg, "%2x_%2x_%1x%c", &opt->family, &opt->model, &opt->stepping,
			      &tail) == 3 && strlen(optarg) == 7))) {
			snprintf(err, errlen, "--cpu needs FAMILY_MODEL[_STEPPING] in hex as in 06_1A "
				 "or 06_55_7, got '%s'", optarg);
			return -EINVAL;
		}
		opt->has_model = true;
		return 0;
	}
	rc = options_batch(c, opt, optarg, err, errlen);
	return rc == -ENOENT ? options_who(c, opt, optarg, err, errlen) : rc;
}

int options_parse(int argc, char **argv, struct options *opt, char *err, size_t errlen)
{
	struct stat st;
	int c, rc;

	memset(opt, 0, sizeof(*opt));
	opt->action = OPTIONS_ACTION_INTERACTIVE;
	opt->interval = 1.0;
	opt->who_procs = -1;
	optind = 0; /* full re-initialisation, so tests can parse repeatedly */
	opterr = 0;
	/* the options above, then --per-KIND of each kind of entity the sample has (sample_kinds) */
	struct option all[sizeof(options_long) / sizeof(options_long[0]) + SAMPLE_NKINDS];
	size_t n = 0;

	while (options_long[n].name) {
		all[n] = options_long[n];
		n++;
	}
	options_batch_per(all + n);
	while ((c = getopt_long(argc, argv, ":T:hVbn:d:g:", all, NULL)) != -1) {
		rc = options_more(c, opt, err, errlen);
		if (rc == 0)
			continue;
		if (rc != -ENOENT)
			return rc;
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
			if (stat(optarg, &st) || !S_ISDIR(st.st_mode)) {
				snprintf(err, errlen, "--root %s: no such directory; give the directory "
					 "that holds the machine's dev, sys and proc", optarg);
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
	if (optind < argc && optind > 0 && strcmp(argv[optind - 1], "--") == 0) {
		opt->command = &argv[optind];
	} else if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (to run a command under pmutop, put "
			 "-- before it: pmutop -- %s)", argv[optind], argv[optind]);
		return -EINVAL;
	}
	if (opt->command && opt->action != OPTIONS_ACTION_INTERACTIVE) {
		snprintf(err, errlen, "a command after -- is run in the live view or with -b; not "
			 "with --topology-only, --doctor, --list-events, --list-metrics, --msr-safe-allowlist "
			 "or --mark");
		return -EINVAL;
	}
	if (opt->command && opt->dump) {
		snprintf(err, errlen, "--dump prints a screen and exits; run the command in the live "
			 "view or with -b");
		return -EINVAL;
	}
	if (opt->pin && !opt->command) {
		snprintf(err, errlen, "--pin goes with a command to run: pmutop --pin 0-3 -- COMMAND");
		return -EINVAL;
	}
	if (opt->replay && (opt->sim || opt->root || opt->command || opt->record || opt->dump)) {
		snprintf(err, errlen, "--replay reads a recording: not with --sim, --root, --record, "
			 "--dump or a command");
		return -EINVAL;
	}
	if (opt->record && opt->dump) {
		snprintf(err, errlen, "--record goes with the live view or -b, not --dump");
		return -EINVAL;
	}
	if (opt->pin && (opt->sim || opt->root)) {
		snprintf(err, errlen, "--pin pins the command to this machine's CPUs; with %s the "
			 "counted machine is not the one the command runs on", opt->sim ? "--sim" : "--root");
		return -EINVAL;
	}
	if (opt->topology && opt->action != OPTIONS_ACTION_TOPOLOGY_ONLY &&
	    opt->action != OPTIONS_ACTION_HELP && opt->action != OPTIONS_ACTION_VERSION) {
		snprintf(err, errlen, "--topology goes with --topology-only (the live view uses the "
			 "machine's own topology)");
		return -EINVAL;
	}
	if (opt->sim && opt->root) {
		snprintf(err, errlen, "--sim and --root both say where counters come from; give one");
		return -EINVAL;
	}
	if (opt->action == OPTIONS_ACTION_WRITE_SYSFS && !opt->sim) {
		snprintf(err, errlen, "--write-sysfs writes an emulated machine's PMUs: pmutop --sim "
			 "sapphire-rapids --write-sysfs DIR (then pmutop --root DIR --list-pmus)");
		return -EINVAL;
	}
	if (opt->plan && opt->action != OPTIONS_ACTION_LIST_METRICS) {
		snprintf(err, errlen, "--plan goes with --list-metrics: pmutop --list-metrics --plan "
			 "TmaL1,TmaL2");
		return -EINVAL;
	}
	if (opt->counts && (!opt->batch || !batch_format_of(opt->format)->counts)) {
		snprintf(err, errlen, "--counts adds every event's count to -b's --format csv or "
			 "json: pmutop -b --format json --counts");
		return -EINVAL;
	}
	if (opt->scopes && !opt->batch) {
		options_batch_per_alone(err, errlen);
		return -EINVAL;
	}
	if (opt->cpus && !opt->batch) {
		snprintf(err, errlen, "--cpus picks the CPUs whose rows -b prints (the screen's own "
			 "filter is /): pmutop -b --cpus 0-3");
		return -EINVAL;
	}
	if (opt->metrics && !opt->batch) {
		snprintf(err, errlen, "--metrics picks what -b prints: pmutop -b --metrics "
			 "'ipc,Frontend_Bound,Memory'");
		return -EINVAL;
	}
	if (opt->dump && opt->batch) {
		snprintf(err, errlen, "--dump prints the screen and -b prints samples; give one");
		return -EINVAL;
	}
	if (opt->mark_pid && !opt->mark) {
		snprintf(err, errlen, "--pid goes with --mark: pmutop --mark TEXT --pid PID");
		return -EINVAL;
	}
	if (opt->pane && opt->batch) {
		snprintf(err, errlen, "--pane opens the screen on a pane; -b prints samples: give one");
		return -EINVAL;
	}
	if (opt->drill && (opt->batch || opt->replay)) {
		snprintf(err, errlen, "--drill turns keys on the screen of a live run; %s",
			 opt->batch ? "-b prints samples with the groups -g gives" : "a recording's groups "
			 "are those it was made with");
		return -EINVAL;
	}
	if (opt->user_only && opt->kernel_only) {
		snprintf(err, errlen, "--user and --kernel exclude each other; give neither to count both");
		return -EINVAL;
	}
	if ((opt->tls_cert || opt->tls_key || opt->auth_file || opt->tui) && !opt->serve) {
		snprintf(err, errlen, "--tls-cert, --tls-key, --auth-file and --tui go with --serve");
		return -EINVAL;
	}
	if (!!opt->tls_cert != !!opt->tls_key) {
		snprintf(err, errlen, "HTTPS needs both --tls-cert and --tls-key");
		return -EINVAL;
	}
	if (opt->serve && (opt->dump || opt->replay || opt->connect)) {
		snprintf(err, errlen, "--serve serves a live run: not with --dump, --replay or "
			 "--connect");
		return -EINVAL;
	}
	if (opt->tui && opt->batch) {
		snprintf(err, errlen, "--tui shows the screen and -b prints samples; give one");
		return -EINVAL;
	}
	if (opt->connect && !strstr(opt->connect, "://")) {
		/* HOST:PORT (an IPv6 host in brackets); a URL is curl's to check */
		const char *colon = strrchr(opt->connect, ':');
		char *end;
		long port = colon ? strtol(colon + 1, &end, 10) : 0;

		if (!colon || colon == opt->connect || !colon[1] || *end || port < 1 || port > 65535 ||
		    strpbrk(opt->connect, " \t/?#@")) {
			snprintf(err, errlen, "--connect %s: give HOST:PORT, the address another pmutop "
				 "serves on (--serve), e.g. server1:9464, or https://server1:9464",
				 opt->connect);
			return -EINVAL;
		}
	}
	if (opt->tls_ca && !opt->connect) {
		snprintf(err, errlen, "--tls-ca goes with --connect");
		return -EINVAL;
	}
	if (opt->connect && (opt->sim || opt->root || opt->command || opt->dump || opt->groups ||
			     opt->interval_given || opt->force || opt->layout)) {
		snprintf(err, errlen, "--connect views another pmutop's run as it is: not with "
			 "--sim, --root, -g, -d, --force, --layout, --dump or a command");
		return -EINVAL;
	}
	if (opt->source_given && (opt->connect || opt->replay)) {
		snprintf(err, errlen, "--source picks the counters this pmutop counts with: not with "
			 "%s", opt->connect ? "--connect (the owner counts)" : "--replay (a recording)");
		return -EINVAL;
	}
	if (opt->command_only &&
	    (!opt->command || (opt->source && !session_source_task(opt->source)))) {
		snprintf(err, errlen, "--command-only counts the command after -- alone, through perf: "
			 "pmutop --command-only -- COMMAND%s%s%s", opt->command ? " (not with --source "
			 : "", opt->command ? session_source_name(opt->source) : "", opt->command ? ")" : "");
		return -EINVAL;
	}
	if ((session_source_kernel(opt->source) || opt->command_only) && opt->force) {
		snprintf(err, errlen, "--force takes msr counters others use; with --source perf the "
			 "kernel shares the counters between users (leave --force out)");
		return -EINVAL;
	}
	if (opt->has_model && (opt->sim || (opt->action != OPTIONS_ACTION_LIST_EVENTS &&
					     opt->action != OPTIONS_ACTION_LIST_METRICS))) {
		snprintf(err, errlen, "--cpu goes with --list-events or --list-metrics and without "
			 "--sim (the machine names its own CPU)");
		return -EINVAL;
	}
	return 0;
}
