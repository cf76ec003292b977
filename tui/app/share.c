/*
 * share: the owner's server and the viewer's screen.  See share.h.
 */
#define _GNU_SOURCE /* struct ucred */
#include "share.h"
#include "sink.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "rcfile.h"
#include "startsig.h"
#include "ui.h"
#include "viewer.h"

void share_local_path(const char *root, char *buf, size_t len)
{
	snprintf(buf, len, "%s/run/lock/pmutop.sock", root && strcmp(root, "/") ? root : "");
}

const char *share_owner_pid(const char *root)
{
	static char pid[24];
	pid_t p = session_lock_holder(root);

	if (p > 0)
		snprintf(pid, sizeof(pid), "%ld", (long)p);
	else
		snprintf(pid, sizeof(pid), "unknown");
	return pid;
}

/* What share_peer_ok needs: the machine and its viewers' socket. */
struct share_peer {
	const char *root, *path;
};

/*
 * The process behind the viewers' socket may show its figures as the
 * machine's: root's, or the holder of the counters' lock, whose user also
 * owns the socket.  Anyone can bind a socket in the world-writable lock
 * directory while no pmutop runs; only the counters' owner holds the lock.
 */
static bool share_peer_ok(int fd, void *ctx, char *why, size_t len)
{
	const struct share_peer *p = ctx;
	struct ucred uc;
	socklen_t ul = sizeof(uc);
	struct stat st;
	pid_t holder;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &ul)) {
		snprintf(why, len, "cannot tell who listens on %s: %s", p->path, strerror(errno));
		return false;
	}
	if (uc.uid == 0)
		return true;
	holder = session_lock_holder(p->root);
	if (holder == uc.pid && lstat(p->path, &st) == 0 && st.st_uid == uc.uid)
		return true;
	snprintf(why, len, "the viewers' socket %s is served by pid %ld of user %u, which %s: "
		 "its figures could be forged, so pmutop does not show them (remove the socket "
		 "if no pmutop runs)", p->path, (long)uc.pid, (unsigned)uc.uid,
		 holder == uc.pid ? "does not own the socket" : holder > 0
		 ? "does not hold the counters' lock" : "does not hold the counters' lock (nobody "
		 "does)");
	return false;
}

/*
 * Whether --serve's "[ADDR:]PORT" listens on loopback only (no address is
 * 127.0.0.1; 127.0.0.0/8, ::1 and ::ffff:127.x.y.z are loopback), where no
 * other machine can reach it.
 */
static bool share_loopback(const char *spec)
{
	const char *colon = strrchr(spec, ':');
	char host[64];
	unsigned char a[16];

	if (!colon)
		return true;
	snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = 0;
	}
	if (inet_pton(AF_INET, host, a) == 1)
		return a[0] == 127;
	if (inet_pton(AF_INET6, host, a) != 1)
		return false;
	/* ::1, or ::ffff:127.x.y.z */
	for (int i = 0; i < 10; i++)
		if (a[i])
			return false;
	if (a[10] == 0 && a[11] == 0)
		return !a[12] && !a[13] && !a[14] && a[15] == 1;
	return a[10] == 0xff && a[11] == 0xff && a[12] == 127;
}

int share_start(const struct options *opt, const struct record_about *a, bool holds_lock,
		struct serve **out)
{
	static struct prom_about prom;
	char local[PATH_MAX], err[1024], warn[600];
	bool local_on = holds_lock && !opt->no_viewers;
	int rc;

	*out = NULL;
	if (!opt->serve && !local_on)
		return 0;
	prom = (struct prom_about){ .host = a->host, .uarch = a->uarch, .brand = a->brand,
				    .owner_pid = (int)getpid() };
	share_local_path(opt->root, local, sizeof(local));
	rc = serve_start(&(struct serve_config){
				 .listen = opt->serve, .tls_cert = opt->tls_cert,
				 .tls_key = opt->tls_key, .auth_file = opt->auth_file,
				 .local_path = local_on ? local : NULL,
				 .local_group = opt->viewers_group, .about = a, .prom = &prom,
			 }, out, err, sizeof(err), warn, sizeof(warn));
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return rc == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	if (warn[0])
		fprintf(stderr, "pmutop: %s\n", warn);
	if (opt->serve) {
		fprintf(stderr, "pmutop: serving %s/metrics%s\n", serve_url(*out),
			opt->auth_file || share_loopback(opt->serve) ? ""
			: " (no --auth-file: anyone who reaches this address can read it)");
		if (opt->auth_file && !opt->tls_cert)
			fprintf(stderr, "pmutop: --auth-file without --tls-cert: passwords cross the "
				"network in clear; give --tls-cert and --tls-key\n");
	}
	return 0;
}

void share_stop(struct serve *srv)
{
	char why[120];

	snprintf(why, sizeof(why), "the owner (pmutop pid %d) quit", (int)getpid());
	serve_stop(srv, why);
}

/*
 * The options given that only the owner of the counters honours, as
 * "--layout, -g" ("" when none): a viewer shows the owner's run as it is.
 */
static void share_ignored(const struct options *opt, char *buf, size_t len)
{
	const struct {
		bool given;
		const char *name;
	} owner_only[] = {
		{ opt->layout != NULL, "--layout" }, { opt->groups != NULL, "-g" },
		{ opt->interval_given, "-d" }, { opt->user_only, "--user-only" },
		{ opt->kernel_only, "--kernel-only" }, { opt->force, "--force" },
		{ opt->dram_mts != 0, "--dram-mts" }, { opt->mux_s > 0, "--mux-ms" },
	};
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(owner_only) / sizeof(owner_only[0]); i++)
		if (owner_only[i].given && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      owner_only[i].name);
}

/* -b: print the owner's samples (and record them: REC) until it ends, -n or a signal. */
static int share_view_batch(const struct options *opt, struct viewer *v, struct record **rec,
			    int sigfd, char *err, size_t errlen)
{
	struct sink_ctx sc = { .mode = SINK_PRINT, .format = opt->format,
			       .counts = opt->counts, .out = stdout, .t0 = NAN,
			       .rec = *rec ? rec : NULL };
	struct sinks sinks;
	int status = -1;

	startsig_end();
	sinks_build(&sc, &sinks);
	while (status < 0) {
		struct pollfd pfd[2] = {
			{ .fd = viewer_fd(v), .events = POLLIN },
			{ .fd = sigfd, .events = POLLIN },
		};
		const struct sample *s;

		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
				status = 128 + (int)si.ssi_signo;
				break;
			}
		}
		s = viewer_take(v);
		if (s) {
			int rc = sinks_sample(&sinks, s);

			sample_release(s);
			if (rc && rc != -EPIPE)
				snprintf(err, errlen, "cannot write the output: %s", strerror(-rc));
			if (rc)
				status = rc == -EPIPE ? EXIT_SUCCESS : EXIT_FAILURE;
			else if (opt->count && sinks.fed >= opt->count)
				status = EXIT_SUCCESS;
		}
		if (status < 0 && viewer_ended(v, err, errlen))
			status = EXIT_SUCCESS;
	}
	sinks_free(&sinks);
	return status;
}

/* A viewer's recording closed, what it holds said. */
static void share_record_close(struct record *rec)
{
	if (rec && !record_error(rec)[0])
		fprintf(stderr, "pmutop: recorded %ld samples to %s\n", record_count(rec),
			record_path(rec));
	record_close(rec);
}

/* What a recording of the viewed run says about it (A and the viewer's topology T). */
static void share_record_about(const struct replay_about *a, const struct topo *t,
			       struct record_about *ra)
{
	*ra = (struct record_about){
		.host = a->host, .source = a->source, .brand = a->brand, .uarch = a->uarch,
		.topology = a->topology, .simulated = a->simulated, .gp_counters = a->gp_counters,
		.perfmon_version = a->perfmon_version, .sockets = t->nsockets, .cores = t->ncores,
		.threads = t->nonline, .interval_s = a->interval_s, .layout = a->layout,
		.layout_text = a->layout_text, .topo = t,
	};
}

int share_view(const struct options *opt, const char *local_path, int sigfd, char *err,
	       size_t errlen)
{
	const struct replay_about *a;
	struct ui_config c = { .interval = 1, .interval_given = true };
	char rc_path[PATH_MAX];
	struct record_about ra;
	struct record *rec = NULL;
	struct viewer *v;
	struct share_peer peer = { .root = opt->root, .path = local_path };
	char ignored[200], note[500] = "";
	int rc, status;

	err[0] = 0;
	rc = viewer_open(&(struct viewer_config){
				 .local_path = local_path, .url = opt->connect, .tls_ca = opt->tls_ca,
				 .auth = getenv("PMUTOP_CONNECT_AUTH"),
				 .peer_ok = local_path ? share_peer_ok : NULL, .peer_ctx = &peer,
			 }, &v, err, errlen);
	if (rc)
		return local_path ? rc : rc == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	a = viewer_about(v);
	share_record_about(a, viewer_topo(v), &ra);
	share_ignored(opt, ignored, sizeof(ignored));
	if (ignored[0])
		snprintf(note, sizeof(note), "ignored %s: the run is the owner's (%s), counted as it "
			 "chose; quit it to count with your own", ignored, viewer_owner(v));
	if (!opt->batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		viewer_free(v);
		snprintf(err, errlen, "the viewer's screen needs a terminal; use -b for the samples "
			 "as text, CSV or JSON");
		return OPTIONS_EXIT_USAGE;
	}
	if (opt->record && record_open(opt->record, &ra, &rec, err, errlen)) {
		viewer_free(v);
		return OPTIONS_EXIT_USAGE;
	}
	if (opt->batch) {
		/* stdout carries the samples: who they are from goes to stderr */
		fprintf(stderr, "pmutop: another pmutop (%s) owns the counters: printing its "
			"samples, read-only\n", viewer_owner(v));
		if (note[0])
			fprintf(stderr, "pmutop: %s\n", note);
		status = share_view_batch(opt, v, &rec, sigfd, err, errlen);
		share_record_close(rec);
		viewer_free(v);
		return status;
	}
	c.info = (struct view_info){
		.host = a->host, .brand = a->brand, .uarch = a->uarch, .source = a->source,
		.simulated = a->simulated, .layout = a->layout, .topo = viewer_topo(v),
		.gp_counters = a->gp_counters, .perfmon_version = a->perfmon_version,
		.count_user = true, .count_kernel = true,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"), .viewer = true,
	};
	c.interval = a->interval_s > 0 ? a->interval_s : 1;
	c.viewer = v;
	c.rec = &rec;          /* --record, and R on the screen: the owner's samples */
	c.rec_about = &ra;
	if (rcfile_path(rc_path, sizeof(rc_path)) == 0)
		c.rc_path = rc_path;
	if (note[0])
		c.rc_warning = note;
	status = ui_run(NULL, &c, sigfd, err, errlen);
	share_record_close(rec);
	viewer_free(v);
	return status;
}
