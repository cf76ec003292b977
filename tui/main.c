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

#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>

#include "batch.h"
#include "cpuid.h"
#include "emu.h"
#include "layout.h"
#include "msr_allow.h"
#include "options.h"
#include "paths.h"
#include "pmu_regs.h"
#include "session.h"
#include "topo.h"
#include "topo_text.h"

#define MAIN_EXIT_USAGE 2

/* The register layer a fatal signal restores through (device files only). */
static struct msr_dev *volatile main_fatal_dev;

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

static int main_list_events(const struct options *opt)
{
	struct cpuid_info info;
	struct layout *l;
	char err[512];
	int rc;

	if (opt->has_model) {
		memset(&info, 0, sizeof(info));
		info.family = opt->family;
		info.model = opt->model;
		/* with hyper-threading, what every model a layout covers has */
		info.gp_counters = 4;
		info.perfmon_version = 3;
	} else if ((rc = main_identify(opt, &info, err, sizeof(err)))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return opt->sim ? MAIN_EXIT_USAGE : EXIT_FAILURE;
	}
	rc = opt->layout ? layout_load(opt->layout, &l, err, sizeof(err))
			 : layout_find(paths_layout_dir(NULL), info.family, info.model, &l, err,
				       sizeof(err));
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return MAIN_EXIT_USAGE;
	}
	batch_list_events(l, info.gp_counters, info.perfmon_version, !opt->kernel_only,
			  !opt->user_only, stdout);
	layout_free(l);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/*
 * SIGSEGV, SIGABRT and friends: put the registers back (pwrite only, on
 * memory allocated at start) and die of the same signal.  Best effort.
 */
static void main_fatal(int sig)
{
	struct msr_dev *d = main_fatal_dev;

	if (d) {
		/*
		 * The sampler may be inside a write that began before the restore
		 * froze the layer: a second pass puts that register back too.
		 */
		msr_restore_all(d);
		msr_restore_all(d);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void main_fatal_handlers(void)
{
	static const int sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = main_fatal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Print samples until -n is reached or a signal asks to stop.  SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT arrive here through SIGFD; the caller
 * restores the registers on the way out.  Returns the exit status.
 */
static int main_batch_loop(struct session *s, const struct options *opt, int sigfd)
{
	static const enum batch_format formats[] = {
		[OPTIONS_FORMAT_TEXT] = BATCH_TEXT, [OPTIONS_FORMAT_CSV] = BATCH_CSV,
		[OPTIONS_FORMAT_JSON] = BATCH_JSON,
	};
	struct pollfd pfd[2] = {
		{ .fd = engine_fd(s->eng), .events = POLLIN },
		{ .fd = sigfd, .events = POLLIN },
	};
	long printed = 0;

	for (;;) {
		if (poll(pfd, 2, -1) < 0)
			continue; /* EINTR: only unblocked signals interrupt, and none matter here */
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si))
				return 128 + (int)si.ssi_signo;
		}
		if (pfd[0].revents & POLLIN) {
			struct sample *smp;
			int rc;

			engine_ack(s->eng);
			smp = engine_latest(s->eng);
			if (!smp)
				continue;
			rc = batch_print(smp, formats[opt->format], printed == 0, stdout);
			sample_release(smp);
			if (rc) {
				fprintf(stderr, "pmutop: cannot write the output: %s\n", strerror(-rc));
				return EXIT_FAILURE;
			}
			if (opt->count && ++printed >= opt->count)
				return EXIT_SUCCESS;
		}
	}
}

static int main_run(const struct options *opt)
{
	struct session_config cfg = {
		.sim = opt->sim, .root = opt->root, .layout_path = opt->layout,
		.layout_dir = paths_layout_dir(NULL), .groups = opt->groups,
		.interval = opt->interval, .user_only = opt->user_only,
		.kernel_only = opt->kernel_only, .force = opt->force,
	};
	struct session *s;
	sigset_t stop;
	char err[1024];
	int rc, sigfd, status;

	if (!opt->batch) {
		fprintf(stderr, "pmutop: this build has no interactive view yet (it lands with the "
			"TUI); run 'pmutop -b' for samples as text, CSV or JSON, or 'pmutop "
			"--topology-only' to see the machine's topology.\n");
		return EXIT_FAILURE;
	}
	/* the sampler thread inherits this mask: stop signals reach only the signalfd */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	if (sigfd < 0) {
		fprintf(stderr, "pmutop: cannot create a signalfd: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	rc = session_open(&cfg, &s, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		close(sigfd);
		return rc == -EINVAL ? MAIN_EXIT_USAGE : EXIT_FAILURE;
	}
	if (s->notice[0])
		fprintf(stderr, "pmutop: %s", s->notice);
	if (msr_dev_kind(session_dev(s)) != MSR_KIND_OPS)
		main_fatal_dev = session_dev(s);
	main_fatal_handlers();
	rc = session_start(s);
	if (rc) {
		fprintf(stderr, "pmutop: cannot start the sampler thread: %s\n", strerror(-rc));
		status = EXIT_FAILURE;
	} else {
		status = main_batch_loop(s, opt, sigfd);
	}
	main_fatal_dev = NULL;
	session_close(s);
	close(sigfd);
	return status;
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
	case OPTIONS_ACTION_LIST_EVENTS:
		return main_list_events(&opt);
	case OPTIONS_ACTION_INTERACTIVE:
		break;
	}
	return main_run(&opt);
}
