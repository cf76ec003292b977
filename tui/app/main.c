/*
 * main: pmutop's entry point.  Parses the command line, then hands over to
 * the requested front end.  Before curses starts, errors are printed here
 * and the process exits non-zero (2 for bad input, 1 for failures).
 */
#include "config.h"

#include <errno.h>
#include <sys/resource.h>
#include <stdbool.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <math.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>

#include "batch.h"
#include "frontend.h"
#include "history.h"
#include "marks.h"
#include "options.h"
#include "player.h"
#include "rcfile.h"
#include "record.h"
#include "replay.h"
#include "run.h"
#include "serve.h"
#include "share.h"
#include "startsig.h"
#include "summary.h"
#include "ui.h"
#include "view.h"

/* --dump's largest screen side: a 1024-thread machine fits, memory stays small */
#define MAIN_DUMP_MAX 2000

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
	int rc;

	if (opt->sim && !opt->topology) {
		/* the emulated machine's own topology, and say that it is emulated */
		if (session_print_sim_topology(opt->sim, stdout, main_terminal_width(), err,
					      sizeof(err))) {
			fprintf(stderr, "pmutop: %s\n", err);
			return OPTIONS_EXIT_USAGE;
		}
		return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	}
	rc = opt->topology ? topo_load(opt->topology, &t, err, sizeof(err))
			   : topo_load_root(opt->root, &t, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return rc == -EIO ? EXIT_FAILURE : OPTIONS_EXIT_USAGE;
	}
	topo_text_print(t, stdout, main_terminal_width());
	topo_free(t);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

static int main_msr_safe_allowlist(const struct options *opt)
{
	char err[512];

	if (session_print_msr_safe_allowlist(opt->sim, opt->root, stdout, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		/* a bad --sim argument is bad input; a machine we cannot read is a failure */
		return opt->sim ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
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
		snprintf(info.vendor, sizeof(info.vendor), "GenuineIntel");
		info.vendor_id = CPUID_VENDOR_INTEL;
		info.family = opt->family;
		info.model = opt->model;
		/* with hyper-threading, what every model a layout covers has */
		info.gp_counters = 4;
		info.perfmon_version = 3;
	} else if ((rc = session_identify(opt->sim, opt->root, &info, err, sizeof(err)))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return opt->sim ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	rc = opt->layout ? layout_load(opt->layout, &l, err, sizeof(err))
			 : layout_find(paths_layout_dir(NULL), &info, &l, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	batch_list_events(l, info.gp_counters, info.perfmon_version, !opt->kernel_only,
			  !opt->user_only, opt->source == SESSION_SOURCE_PERF, stdout);
	layout_free(l);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/*
 * Signals whose default action ends the process.  Asynchronous ones are
 * blocked and taken through the signalfd, so they end pmutop the normal
 * way (registers restored, exit 128 + signal); synchronous ones (a crash,
 * abort, a seccomp kill) cannot wait and restore in main_fatal.
 */
static const int main_stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPWR, SIGXCPU, SIGXFSZ,
	SIGVTALRM, SIGPROF, SIGSTKFLT, SIGIO,
};
static const int main_fatal_signals[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
					  SIGSYS };

/* The stop set: main_stop_signals and the real-time signals. */
static void main_stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(main_stop_signals) / sizeof(main_stop_signals[0]); i++)
		sigaddset(set, main_stop_signals[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

/*
 * A crash: put the terminal and the registers back (pread/pwrite on memory
 * allocated at open), say what could not be restored, die of the same
 * signal.  Installed before the first register write; the register layer
 * keeps its device until the last restore is done.
 */
static void main_fatal(int sig)
{
	ui_emergency_restore(); /* the terminal first, so the message is readable */
	session_emergency_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The registers back at once (a stop signal while starting: startsig.h). */
static void main_restore_now(void)
{
	session_emergency_restore();
}

/* The signalfd closed, its start-up watcher gone first. */
static void main_sigfd_close(int sigfd)
{
	startsig_end();
	if (sigfd >= 0)
		close(sigfd);
}

static void main_fatal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = main_fatal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(main_fatal_signals) / sizeof(main_fatal_signals[0]); i++)
		sigaction(main_fatal_signals[i], &sa, NULL);
}

/*
 * Descriptors 0-2 open before any device: with one closed, a device file
 * would take its number and output meant for it would reach the device
 * (on the msr driver, a write to MSR 0).  Returns whether standard output
 * was closed.
 */
static bool main_std_fds(void)
{
	bool stdout_closed = false;

	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int nul = open("/dev/null", fd ? O_WRONLY : O_RDONLY);

			if (nul < 0 || (nul != fd && (dup2(nul, fd) < 0 || close(nul) < 0)))
				_exit(EXIT_FAILURE);
			stdout_closed |= fd == STDOUT_FILENO;
		}
	return stdout_closed;
}

/* The owner's server (--serve, the viewers' local socket), or NULL: each sample goes there. */
static struct serve *main_srv;

/* What a run has besides its samples: the command run under pmutop, the phase marks. */
struct main_extra {
	struct run_cmd *cmd;      /* NULL without a command */
	struct marks *marks;      /* NULL when the FIFO could not be made */
	struct record *rec;       /* --record, or NULL */
	bool rec_said;            /* its stop was said */
	double t0;                /* wall clock at the start, for the marks' offsets */
};

/* Sample S (or a mark) into the recording; its stop said once. */
static void main_record(struct main_extra *x, const struct sample *s, const struct mark *mk)
{
	int rc;

	if (!x->rec || x->rec_said)
		return;
	rc = s ? record_sample(x->rec, s) : record_mark(x->rec, mk->time, mk->text);
	if (rc) {
		fprintf(stderr, "pmutop: %s; the run goes on\n", record_error(x->rec));
		x->rec_said = true;
	}
}

static double main_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* How long the batch loop waits for the sample that ends a run after its command ended. */
#define MAIN_LAST_SAMPLE_WAIT_S 2.5
/* How long a command gets to end after the signal pmutop passed on, before SIGKILL. */
#define MAIN_CMD_STOP_WAIT_S 10.0

/*
 * Print samples until -n is reached, a signal asks to stop or the command
 * ends.  Stop signals arrive here through SIGFD; with a command running
 * they go on to it first, and the run ends when it has.  The caller
 * restores the registers on the way out.  Returns the exit status: with a
 * command, the command's.
 */
static int main_batch_loop(struct session *s, const struct options *opt, int sigfd,
			   struct main_extra *x)
{
	static const enum batch_format formats[] = {
		[OPTIONS_FORMAT_TEXT] = BATCH_TEXT, [OPTIONS_FORMAT_CSV] = BATCH_CSV,
		[OPTIONS_FORMAT_JSON] = BATCH_JSON,
	};
	enum batch_format fmt = formats[opt->format];
	struct summary *sum = x->cmd ? summary_new() : NULL;
	long printed = 0;
	double end_by = 0;         /* > 0: the command ended; the run ends by then */
	double kill_at = 0;        /* > 0: a stop was passed on; SIGKILL if it still runs then */
	int status = -1;           /* pmutop's own exit status, once decided */

	startsig_end();
	for (;;) {
		struct pollfd pfd[4] = {
			{ .fd = session_fd(s), .events = POLLIN },
			{ .fd = sigfd, .events = POLLIN },
			{ .fd = run_fd(x->cmd), .events = POLLIN },
			{ .fd = marks_fd(x->marks), .events = POLLIN },
		};
		int timeout = -1;
		struct mark mk[MARKS_PER_TAKE];
		int nmk;

		if (end_by > 0)
			timeout = (int)fmax(0, (end_by - view_now()) * 1e3);
		else if (x->cmd && run_fd(x->cmd) < 0)
			timeout = 100; /* no pidfd: look for its end ten times a second */
		else if (kill_at > 0)
			timeout = (int)fmax(0, (kill_at - view_now()) * 1e3) + 1;
		if (poll(pfd, 4, timeout) < 0)
			continue; /* EINTR: only unblocked signals interrupt, and none matter here */
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
				if (!x->cmd || run_poll(x->cmd)) {
					status = 128 + (int)si.ssi_signo;
					break;
				}
				/*
				 * Ctrl-C stops the benchmark first (its status is the run's);
				 * samples go on until it has ended
				 */
				run_signal(x->cmd, (int)si.ssi_signo);
				if (kill_at == 0)
					kill_at = view_now() + MAIN_CMD_STOP_WAIT_S;
			}
		}
		if (kill_at > 0 && end_by == 0 && view_now() >= kill_at) {
			run_signal(x->cmd, SIGKILL);
			kill_at = 0;
		}
		nmk = marks_take(x->marks, mk, MARKS_PER_TAKE, NULL);
		for (int i = 0; i < nmk; i++)
			main_record(x, NULL, &mk[i]);
		for (int i = 0; i < nmk; i++)
			if (batch_print_mark(&mk[i], x->t0, fmt, stdout) == -EPIPE) {
				status = EXIT_SUCCESS;
				goto out;
			}
		if (x->cmd && end_by == 0 && run_poll(x->cmd)) {
			/* the part of the interval it ran in: a sample now, not at the interval's end */
			session_flush(s);
			end_by = view_now() + (session_is_os(s) ? 0 : MAIN_LAST_SAMPLE_WAIT_S);
		}
		if (pfd[0].revents & POLLIN) {
			const struct sample *smp;
			int rc;

			session_ack(s);
			smp = session_latest(s);
			if (smp) {
				serve_publish(main_srv, smp);
				/* --serve alone is headless: the samples go to the server only */
				rc = opt->serve && !opt->batch ? 0 : batch_print(smp, fmt, printed == 0,
										   stdout);
				main_record(x, smp, NULL);
				if (sum)
					summary_add(sum, smp);
				sample_release(smp);
				/* a reader that went away (pmutop -b | head) ends the run, as for any filter */
				if (rc == -EPIPE) {
					status = EXIT_SUCCESS;
					goto out;
				}
				if (rc) {
					fprintf(stderr, "pmutop: cannot write the output: %s\n", strerror(-rc));
					status = EXIT_FAILURE;
					goto out;
				}
				printed++;
				if (end_by > 0)
					break; /* the sample after the command's end: the run is whole */
				if (opt->count && printed >= opt->count) {
					if (!x->cmd) {
						status = EXIT_SUCCESS;
						break;
					}
					/* -n ends the run: the command too */
					if (kill_at == 0) {
						run_signal(x->cmd, SIGTERM);
						kill_at = view_now() + MAIN_CMD_STOP_WAIT_S;
					}
				}
			}
		}
		if (end_by > 0 && view_now() >= end_by)
			break;
	}
	if (sum && summary_samples(sum) > 0) {
		struct sample *mean = summary_mean(sum), *peak = summary_peak(sum);
		char about[256];
		int rc;

		run_describe(x->cmd, about, sizeof(about));
		rc = batch_print_summary(mean, peak, about, fmt, printed == 0, stdout);
		sample_release(mean);
		sample_release(peak);
		if (rc && rc != -EPIPE) {
			fprintf(stderr, "pmutop: cannot write the output: %s\n", strerror(-rc));
			status = EXIT_FAILURE;
		}
	}
	if (x->cmd && status < 0) {
		char about[256];

		run_describe(x->cmd, about, sizeof(about));
		fprintf(stderr, "pmutop: %s\n", about);
		status = run_status(x->cmd);
	}
out:
	summary_free(sum);
	return status < 0 ? EXIT_SUCCESS : status;
}

/* This machine's name for the header (static storage). */
static const char *main_host(void);

/* What a recording's header says about this run. */
static void main_record_about(const struct options *opt, struct session *s,
			      struct record_about *ra)
{
	struct session_about a;

	session_about(s, &a);
	*ra = (struct record_about){
		.host = a.machine ? a.machine : main_host(), .source = a.source, .brand = a.brand,
		.uarch = a.uarch, .topology = a.topo->source, .simulated = a.simulated,
		.gp_counters = a.gp_counters, .perfmon_version = a.perfmon_version,
		.sockets = a.topo->nsockets, .cores = a.topo->ncores, .threads = a.topo->nonline,
		.interval_s = opt->interval, .layout = session_layout(s), .topo = a.topo,
	};
}

/* The CPUs of socket SOCKET of the topology CTX into PIN; how many. */
static int main_socket_cpus(void *ctx, int socket, bool *pin)
{
	const struct topo *t = ctx;
	int n = 0;

	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].online && t->threads[i].socket == socket) {
			pin[t->threads[i].os_cpu] = true;
			n++;
		}
	return n;
}

/*
 * Start what goes with a run: the phase-mark FIFO (a warning when it cannot
 * be made) and the command after "--" (its output to OUT_FD, or pmutop's).
 * 0, or the exit status to leave with (the message printed).
 */
static int main_extra_start(const struct options *opt, struct session *s, int out_fd,
			    struct main_extra *x)
{
	char err[768];
	bool *pin = NULL;
	struct session_about a;
	int rc;

	memset(x, 0, sizeof(*x));
	x->t0 = main_wall();
	if (marks_open(&x->marks, err, sizeof(err)))
		fprintf(stderr, "pmutop: phase marks are off: %s\n", err);
	session_about(s, &a);
	if (opt->record) {
		struct record_about ra;

		main_record_about(opt, s, &ra);
		if (record_open(opt->record, &ra, &x->rec, err, sizeof(err))) {
			fprintf(stderr, "pmutop: %s\n", err);
			return OPTIONS_EXIT_USAGE;
		}
	}
	if (!opt->command)
		return 0;
	if (opt->pin) {
		pin = calloc((size_t)a.topo->cpu_thread_len + 1, sizeof(bool));
		if (!pin || run_parse_pin(opt->pin, a.topo->cpu_thread_len, main_socket_cpus,
					  (void *)a.topo, pin, err, sizeof(err))) {
			fprintf(stderr, "pmutop: %s\n", pin ? err : "out of memory");
			free(pin);
			return OPTIONS_EXIT_USAGE;
		}
	}
	rc = run_start(&(struct run_config){
			       .argv = opt->command, .pin = pin, .npin = a.topo->cpu_thread_len,
			       .out_fd = out_fd, .null_stdin = out_fd >= 0 && !opt->batch,
			       .mark_fifo = x->marks ? marks_path(x->marks) : NULL,
			       /* counted alone: its events are opened before it runs */
			       .hold = session_counts_command(s),
		       }, &x->cmd, err, sizeof(err));
	free(pin);
	if (!rc && session_counts_command(s)) {
		char why[400];

		if (session_attach(s, run_pid(x->cmd), why, sizeof(why))) {
			fprintf(stderr, "pmutop: cannot count the command: %s\n", why);
			run_stop(x->cmd, SIGKILL, MAIN_CMD_STOP_WAIT_S);
			run_free(x->cmd);
			x->cmd = NULL;
			return EXIT_FAILURE;
		}
		rc = run_release(x->cmd, err, sizeof(err));
		if (rc) {
			run_free(x->cmd);
			x->cmd = NULL;
		}
	}
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		/* as a shell says it: 127 not found, 126 found but not runnable */
		return rc == -ENOENT ? 127 : rc == -EINVAL ? OPTIONS_EXIT_USAGE : 126;
	}
	return 0;
}

/* The command is stopped if it still runs (the run ended another way), the FIFO removed. */
static void main_extra_stop(struct main_extra *x)
{
	if (x->cmd && !run_poll(x->cmd))
		run_stop(x->cmd, SIGTERM, MAIN_CMD_STOP_WAIT_S);
	run_free(x->cmd);
	marks_close(x->marks);
	if (x->rec && !x->rec_said)
		fprintf(stderr, "pmutop: recorded %ld samples to %s\n", record_count(x->rec),
			record_path(x->rec));
	record_close(x->rec);
	memset(x, 0, sizeof(*x));
}

static void main_stop_set(sigset_t *set);

/*
 * --replay FILE on the screen: the recorded machine and its samples at
 * their pace (space pauses; , . step; [ ] speed; g goes to a time).  No
 * counters, no root.
 */
static int main_replay_screen(const struct options *opt)
{
	struct ui_config c = { .interval = 1, .interval_given = true };
	const struct replay_about *a;
	struct player *pl;
	char err[1024], rc_path[PATH_MAX];
	sigset_t stop;
	int sigfd, status;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "pmutop: the replay screen needs a terminal; convert the recording "
			"with pmutop --replay %s -b [--format text|csv|json]\n", opt->replay);
		return OPTIONS_EXIT_USAGE;
	}
	if (player_open(opt->replay, &pl, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	main_stop_set(&stop);
	sigaddset(&stop, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	sigdelset(&stop, SIGWINCH);
	sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	startsig_begin(sigfd, NULL);
	a = player_about(pl);
	c.info = (struct view_info){
		.host = a->host, .brand = a->brand, .uarch = a->uarch, .source = a->source,
		.simulated = a->simulated, .layout = a->layout, .topo = player_topo(pl),
		.gp_counters = a->gp_counters, .perfmon_version = a->perfmon_version,
		.count_user = true, .count_kernel = true,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"), .replay = true,
	};
	c.interval = a->interval_s > 0 ? a->interval_s : player_sample(pl)->interval_s;
	c.player = pl;
	if (rcfile_path(rc_path, sizeof(rc_path)) == 0)
		c.rc_path = rc_path;
	status = ui_run(NULL, &c, sigfd, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "pmutop: %s\n", err);
	player_free(pl);
	main_sigfd_close(sigfd);
	return status;
}

/*
 * --replay FILE: the recording read back.  With -b, each sample printed
 * again in --format (metrics computed again from the recorded inputs) with
 * its marks; a cut last line is said on stderr; bad input exits 2 with the
 * line and byte.
 */
static int main_replay(const struct options *opt)
{
	static const enum batch_format formats[] = {
		[OPTIONS_FORMAT_TEXT] = BATCH_TEXT, [OPTIONS_FORMAT_CSV] = BATCH_CSV,
		[OPTIONS_FORMAT_JSON] = BATCH_JSON,
	};
	struct replay *r;
	struct replay_item it;
	char err[1024];
	double t0 = NAN;
	long printed = 0;
	int rc, status = EXIT_SUCCESS;

	if (!opt->batch)
		return main_replay_screen(opt);
	if (replay_open(opt->replay, &r, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	while ((rc = replay_next(r, &it, err, sizeof(err))) == 0 && it.kind != REPLAY_END) {
		int prc = 0;

		if (it.kind == REPLAY_SAMPLE) {
			if (isnan(t0))
				t0 = it.sample->time - it.sample->interval_s;
			prc = batch_print(it.sample, formats[opt->format], printed++ == 0, stdout);
			sample_release(it.sample);
		} else if (it.kind == REPLAY_MARK) {
			prc = batch_print_mark(&it.mark, isnan(t0) ? it.mark.time : t0,
					       formats[opt->format], stdout);
		}
		if (prc == -EPIPE)
			break;
		if (prc) {
			fprintf(stderr, "pmutop: cannot write the output: %s\n", strerror(-prc));
			status = EXIT_FAILURE;
			break;
		}
		if (opt->count && printed >= opt->count)
			break;
	}
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		status = OPTIONS_EXIT_USAGE;
	} else if (replay_trailing(r)) {
		fprintf(stderr, "pmutop: %s ends with a cut line: its last %ld bytes were ignored "
			"(%ld sample%s replayed)\n", opt->replay, replay_trailing(r), printed,
			printed == 1 ? "" : "s");
	}
	replay_close(r);
	return status;
}

/* Doctor report for OPT (and S's owner scan when S is running); returns failures. */
static int main_doctor_text(const struct options *opt, const struct session *s, char *out,
			    size_t len)
{
	struct doctor_input in = {
		.root = opt->root, .sim = opt->sim, .layout_dir = paths_layout_dir(NULL),
		.owners = s ? session_owners(s) : NULL,
	};
	struct session_about a;
	static char owners[700], why[512];

	if (s) {
		session_about(s, &a);
		in.ncpus = a.topo->nonline;
	} else if (!opt->sim) {
		/* --doctor: read who uses the counters (selects and enables), programming nothing */
		if (session_scan_owners(opt->root, owners, sizeof(owners), why, sizeof(why)) == 0)
			in.owners = owners;
		else
			in.owners_why = why;
	}
	return doctor_run(&in, out, len);
}

static int main_doctor(const struct options *opt)
{
	char text[8192];
	int failed = main_doctor_text(opt, NULL, text, sizeof(text));

	fputs(text, stdout);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* This machine's name for the header (static storage). */
static const char *main_host(void)
{
	static char host[256];

	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "?");
	return host;
}

/* What the screen's header and panes need to know about this run. */
static void main_view_info(const struct options *opt, const struct session *s, const char *doctor,
			   struct view_info *in)
{
	struct session_about a;

	session_about(s, &a);
	*in = (struct view_info){
		/* an emulated machine is not this host: the header names the machine */
		.host = a.machine ? a.machine : main_host(), .brand = a.brand, .uarch = a.uarch,
		.source = a.source,
		.simulated = a.simulated, .layout = session_layout(s), .topo = a.topo,
		.gp_counters = a.gp_counters, .perfmon_version = a.perfmon_version,
		.count_user = !opt->kernel_only, .count_kernel = !opt->user_only, .doctor = doctor,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
	};
}

/* --dump: the interactive screen after -n samples, as text on standard output. */
static int main_dump(struct session *s, const struct options *opt, int sigfd, const char *doctor)
{
	struct pollfd pfd[2] = {
		{ .fd = session_fd(s), .events = POLLIN },
		{ .fd = sigfd, .events = POLLIN },
	};
	const char *cols = getenv("COLUMNS"), *lines = getenv("LINES");
	long want = opt->count ? opt->count : 1, got = 0;
	struct history *hist = history_new();
	int w, h;
	const struct sample *last = NULL;
	struct view_frame frame = { 0 };
	struct view_info in;
	struct grid *g;
	struct view v;
	char *text;

	startsig_end();
	w = cols && atoi(cols) > 0 ? atoi(cols) : 160;
	h = lines && atoi(lines) > 0 ? atoi(lines) : 50;
	if (w > MAIN_DUMP_MAX || h > MAIN_DUMP_MAX) {
		fprintf(stderr, "pmutop: --dump draws at most %d x %d characters, COLUMNS and LINES "
			"ask for %d x %d; set them smaller\n", MAIN_DUMP_MAX, MAIN_DUMP_MAX, w, h);
		history_free(hist);
		return OPTIONS_EXIT_USAGE;
	}
	while (got < want) {
		/* an emulated machine steps its own clock: no waiting, the same figures every run */
		if (poll(pfd, 2, session_stepped(s) ? 0 : -1) < 0)
			continue;
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
				if (last)
					sample_release(last);
				history_free(hist);
				return 128 + (int)si.ssi_signo;
			}
		}
		if (session_stepped(s) ? session_step(s) == 1 : (pfd[0].revents & POLLIN) != 0) {
			const struct sample *smp;

			session_ack(s);
			smp = session_latest(s);
			if (!smp)
				continue;
			if (last)
				sample_release(last);
			last = smp;
			history_add(hist, smp);
			got++;
		}
	}
	main_view_info(opt, s, doctor, &in);
	view_init(&v, &in, session_groups(s), opt->interval);
	v.hist = hist;
	if (opt->pane)
		v.focus = v.lower = (enum view_pane)opt->pane;
	g = grid_new(w, h, in.utf8);
	view_render(&v, last, 0, g, &frame);
	text = grid_text(g);
	fputs(text, stdout);
	free(text);
	grid_free(g);
	view_free(&v);
	view_frame_free(&frame);
	sample_release(last);
	history_free(hist);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/*
 * The file a command's output goes to while the screen is pmutop's: in
 * $TMPDIR (or /tmp), the user's own (0600).  Its descriptor, or -1 with the
 * reason on stderr.
 */
static int main_cmd_log(const struct options *opt, char *path, size_t len)
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

/* Interactive with the command and the marks: start them, run the screen, stop them. */
static int main_ui_with_extra(struct session *s, const struct options *opt, int sigfd,
			      struct ui_config *c, char *err, size_t errlen)
{
	struct main_extra x;
	char log[PATH_MAX];
	int fd = -1, status;
	bool left = false;

	if (opt->command) {
		fd = main_cmd_log(opt, log, sizeof(log));
		if (fd < 0)
			return EXIT_FAILURE;
	}
	status = main_extra_start(opt, s, fd, &x);
	if (fd >= 0)
		close(fd);
	if (status) {
		main_extra_stop(&x);
		return status;
	}
	struct record_about ra;

	main_record_about(opt, s, &ra);
	c->rec = &x.rec;
	c->rec_about = &ra;
	c->cmd = x.cmd;
	c->cmd_log = opt->command ? log : NULL;
	/* an emulated machine's CPUs are not where the command runs */
	c->cmd_on_host = !opt->sim && !opt->root;
	c->marks = x.marks;
	c->srv = main_srv;
	c->cmd_left = &left;
	status = ui_run(s, c, sigfd, err, errlen);
	if (left) {
		/* q, then l: the benchmark goes on without pmutop */
		fprintf(stderr, "pmutop: left the command running (pid %d)\n", run_pid(x.cmd));
		run_free(x.cmd);
		x.cmd = NULL;
	}
	main_extra_stop(&x);
	if (opt->command)
		fprintf(stderr, "pmutop: the command's output %s %s\n", left ? "goes on into" : "is in",
			log);
	return status;
}

static int main_interactive(struct session *s, const struct options *opt, int sigfd,
			    const char *doctor)
{
	struct ui_config c = { .groups_given = opt->groups != NULL,
			       .interval_given = opt->interval_given, .interval = opt->interval,
			       .pane = opt->pane };
	char rc_path[PATH_MAX], err[1024];
	int status;

	main_view_info(opt, s, doctor, &c.info);
	switch (rcfile_path(rc_path, sizeof(rc_path))) {
	case 0:
		c.rc_path = rc_path;
		break;
	case -ENAMETOOLONG:
		c.rc_warning = "the settings file's path ($XDG_CONFIG_HOME or $HOME) is too long: "
			       "settings are neither read nor saved";
		break;
	}
	status = main_ui_with_extra(s, opt, sigfd, &c, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "pmutop: %s\n", err);
	return status;
}

/*
 * No usable counters (REASON): the interactive view with the OS's figures.
 * Bad input still stops pmutop; this is for a machine that cannot count.
 */
static int main_os_fallback(const struct options *opt, const char *reason, int sigfd)
{
	static char doctor[8192], why[640];
	struct ui_config c = { .interval = opt->interval, .interval_given = true };
	struct session_about a;
	struct session *s;
	char err[1024];
	int status;

	snprintf(why, sizeof(why), "No counters: %.500s. OS figures shown; d explains, or try pmutop --sim "
		 "nehalem-ep:memory-bound", reason);
	if (session_open_os(opt->root, opt->interval, why, &s, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\npmutop: and the OS's figures cannot be read: %s\n", reason,
			err);
		return EXIT_FAILURE;
	}
	main_doctor_text(opt, NULL, doctor, sizeof(doctor));
	session_about(s, &a);
	c.info = (struct view_info){
		.host = main_host(), .brand = a.brand, .uarch = a.uarch, .source = a.source,
		.layout = session_layout(s), .topo = a.topo, .doctor = doctor,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
	};
	status = main_ui_with_extra(s, opt, sigfd, &c, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "pmutop: %s\n", err);
	session_close(s);
	return status;
}

/*
 * One msr device stays open per CPU: a 1024-CPU machine needs more than the
 * usual soft limit of 1024 open files.  Raise the soft limit to the hard one
 * (allowed to anyone); what is still short is said when a device fails to
 * open (msr_explain).
 */
static void main_raise_file_limit(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

/*
 * The machine cannot count (no msr driver, no permission, not an Intel CPU):
 * not another pmutop holding the counters, nor a register failing.
 */
static bool main_no_counters(int rc)
{
	return rc == -ENOENT || rc == -ENODEV || rc == -EACCES || rc == -EPERM || rc == -ENOTSUP;
}

static int main_run(const struct options *opt)
{
	struct session_config cfg = {
		.sim = opt->sim, .root = opt->root, .layout_path = opt->layout,
		.layout_dir = paths_layout_dir(NULL), .groups = opt->groups,
		.interval = opt->interval, .user_only = opt->user_only,
		.kernel_only = opt->kernel_only, .force = opt->force, .dram_mts = opt->dram_mts,
		.force_layout = opt->force_layout,
		.mux_s = opt->mux_s, .source = opt->source, .command = opt->command != NULL,
		.command_only = opt->command_only,
		.stepped = opt->dump && opt->sim,
	};
	/* --serve without --tui or -b is a service: no screen */
	bool headless = opt->serve && !opt->tui && !opt->batch;
	bool interactive = !opt->batch && !opt->dump && !headless;
	struct main_extra x = { 0 };
	static char doctor[8192];
	struct session *s;
	sigset_t stop;
	char err[1024];
	int rc, sigfd, status;

	if (interactive && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "pmutop: the interactive view needs a terminal; use -b for samples as "
			"text, CSV or JSON, or --dump -n N for a text picture of the screen.\n");
		return OPTIONS_EXIT_USAGE;
	}
	/*
	 * The sampler thread inherits this mask: stop signals reach only the
	 * signalfd, and SIGWINCH only the UI thread (ui_run unblocks it there).
	 */
	main_raise_file_limit();
	main_stop_set(&stop);
	sigaddset(&stop, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	sigdelset(&stop, SIGWINCH);
	signal(SIGPIPE, SIG_IGN);
	main_fatal_handlers();
	sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	if (sigfd < 0) {
		fprintf(stderr, "pmutop: cannot create a signalfd: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	startsig_begin(sigfd, main_restore_now);
	if (!opt->sim && !opt->dump && !opt->serve && !opt->command && !opt->source_given) {
		/*
		 * Another pmutop owns the counters (its viewers' socket answers): look
		 * at its figures, read-only.  Before opening anything, so that a user
		 * without access to the counters can still look.
		 */
		char local[PATH_MAX], verr[1024];

		share_local_path(opt->root, local, sizeof(local));
		status = access(local, F_OK) ? -ENOENT : share_view(opt, local, sigfd, verr,
								    sizeof(verr));
		if (status == -EPERM)
			/* not the owner's socket: count here (the owner's socket replaces it) */
			fprintf(stderr, "pmutop: %s; counting here instead\n", verr);
		if (status >= 0 || status == -EACCES) {
			if (status == -EACCES)
				fprintf(stderr, "pmutop: another pmutop (pid %s) is programming this "
					"machine's counters; %s\n", share_owner_pid(opt->root), verr);
			else if (verr[0])
				fprintf(stderr, "pmutop: %s\n", verr);
			main_sigfd_close(sigfd);
			return status >= 0 ? status : EXIT_FAILURE;
		}
	}
	rc = session_open(&cfg, &s, err, sizeof(err));
	if (rc && interactive && !opt->sim && rc != -EINVAL) {
		status = main_os_fallback(opt, err, sigfd);
		main_sigfd_close(sigfd);
		return status;
	}
	if (rc && (opt->batch || headless) && !opt->sim && main_no_counters(rc)) {
		/* like the live view: the OS's figures, the reason on stderr */
		char why[1100];

		snprintf(why, sizeof(why), "%s", err);
		if (session_open_os(opt->root, opt->interval, why, &s, err, sizeof(err))) {
			fprintf(stderr, "pmutop: %s\npmutop: and the OS's figures cannot be read: %s\n",
				why, err);
			main_sigfd_close(sigfd);
			return EXIT_FAILURE;
		}
		fprintf(stderr, "pmutop: no counters: %s\npmutop: %s the OS's figures "
			"(utilisation, clock) instead; pmutop --doctor says what to fix\n", why,
			opt->batch ? "printing" : "serving");
		{
			struct record_about ra;

			main_record_about(opt, s, &ra);
			status = share_start(opt, &ra, false, &main_srv);
		}
		if (!status)
			status = main_extra_start(opt, s, STDERR_FILENO, &x);
		if (!status)
			status = main_batch_loop(s, opt, sigfd, &x);
		main_extra_stop(&x);
		share_stop(main_srv);
		main_srv = NULL;
		session_close(s);
		main_sigfd_close(sigfd);
		return status;
	}
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		main_sigfd_close(sigfd);
		return rc == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	if (session_notice(s)[0] && !interactive)
		fprintf(stderr, "pmutop: %s", session_notice(s));
	if (!opt->batch)
		main_doctor_text(opt, s, doctor, sizeof(doctor));
	if (!opt->dump) {
		struct record_about ra;

		/* before privileges go: a low port, the key files, the socket in /run/lock */
		main_record_about(opt, s, &ra);
		status = share_start(opt, &ra, session_holds_lock(s), &main_srv);
		if (status) {
			session_close(s);
			main_sigfd_close(sigfd);
			return status;
		}
	}
	/* the devices are open, the guardian runs: through sudo, the rest as the user */
	if (privs_drop_to_invoker(&(uid_t){ 0 }, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		session_close(s);
		main_sigfd_close(sigfd);
		return EXIT_FAILURE;
	}
	rc = session_stepped(s) ? 0 : session_start(s);
	if (rc) {
		fprintf(stderr, "pmutop: cannot start the sampler thread: %s\n", strerror(-rc));
		status = EXIT_FAILURE;
	} else if (opt->batch || headless) {
		/* the command's output goes to stderr: stdout carries the samples */
		status = main_extra_start(opt, s, STDERR_FILENO, &x);
		if (!status)
			status = main_batch_loop(s, opt, sigfd, &x);
		main_extra_stop(&x);
	} else if (opt->dump) {
		status = main_dump(s, opt, sigfd, doctor);
	} else {
		status = main_interactive(s, opt, sigfd, doctor);
	}
	share_stop(main_srv);
	main_srv = NULL;
	if (session_close(s) && status == EXIT_SUCCESS)
		status = EXIT_FAILURE; /* the registers that could not be restored are named */
	main_sigfd_close(sigfd);
	return status;
}

/* --connect HOST:PORT: another pmutop's --serve, viewed. */
static int main_connect(const struct options *opt)
{
	sigset_t stop;
	char err[1024];
	int sigfd, status;

	main_stop_set(&stop);
	sigaddset(&stop, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	sigdelset(&stop, SIGWINCH);
	signal(SIGPIPE, SIG_IGN);
	sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	startsig_begin(sigfd, NULL);
	status = share_view(opt, NULL, sigfd, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "pmutop: %s\n", err);
	main_sigfd_close(sigfd);
	return status;
}

int main(int argc, char **argv)
{
	struct options opt;
	char err[512];

	bool stdout_closed = main_std_fds();

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
	case OPTIONS_ACTION_DOCTOR:
		return main_doctor(&opt);
	case OPTIONS_ACTION_MARK: {
		int pids[16], n = marks_send(opt.mark, opt.mark_pid, pids, 16, err, sizeof(err));

		if (n < 0) {
			fprintf(stderr, "pmutop: %s\n", err);
			return n == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
		}
		/* which pmutops took it: more than one runs when --pid was not given */
		printf("marked pmutop pid");
		for (int i = 0; i < n && i < 16; i++)
			printf("%s %d", i ? "," : "", pids[i]);
		printf("%s%s\n", n > 16 ? " and more" : "",
		       n > 1 && !opt.mark_pid ? " (--pid PID marks one)" : "");
		return EXIT_SUCCESS;
	}
	case OPTIONS_ACTION_INTERACTIVE:
		break;
	}
	if (opt.replay)
		return main_replay(&opt);
	if (opt.connect)
		return main_connect(&opt);
	return main_run(&opt);
}
