/*
 * share: the owner's server and the viewer's screen.  See share.h.
 */
#include "share.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "batch.h"
#include "rcfile.h"
#include "ui.h"
#include "viewer.h"

void share_local_path(const char *root, char *buf, size_t len)
{
	snprintf(buf, len, "%s/run/lock/pmutop.sock", root && strcmp(root, "/") ? root : "");
}

const char *share_owner_pid(const char *root)
{
	static char pid[24];
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run/lock/pmutop.lock", root && strcmp(root, "/") ? root : "");
	snprintf(pid, sizeof(pid), "unknown");
	f = fopen(path, "re");
	if (f) {
		if (!fgets(pid, sizeof(pid), f) || !pid[0] || pid[0] == '\n')
			snprintf(pid, sizeof(pid), "unknown");
		pid[strcspn(pid, "\n")] = 0;
		fclose(f);
	}
	return pid;
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
			opt->auth_file ? "" : !strncmp(opt->serve, "127.", 4) || !strchr(opt->serve, ':')
			? "" : " (no --auth-file: anyone who reaches this address can read it)");
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

/* -b: print the owner's samples (and record them: REC) until it ends, -n or a signal. */
static int share_view_batch(const struct options *opt, struct viewer *v, struct record *rec,
			    int sigfd, char *err, size_t errlen)
{
	static const enum batch_format formats[] = {
		[OPTIONS_FORMAT_TEXT] = BATCH_TEXT, [OPTIONS_FORMAT_CSV] = BATCH_CSV,
		[OPTIONS_FORMAT_JSON] = BATCH_JSON,
	};
	long printed = 0;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = viewer_fd(v), .events = POLLIN },
			{ .fd = sigfd, .events = POLLIN },
		};
		const struct sample *s;

		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si))
				return 128 + (int)si.ssi_signo;
		}
		s = viewer_take(v);
		if (s) {
			int rc = batch_print(s, formats[opt->format], printed == 0, stdout);

			if (rec && !record_error(rec)[0] && record_sample(rec, s))
				fprintf(stderr, "pmutop: %s; the run goes on\n", record_error(rec));
			sample_release(s);
			if (rc == -EPIPE)
				return EXIT_SUCCESS;
			if (rc) {
				snprintf(err, errlen, "cannot write the output: %s", strerror(-rc));
				return EXIT_FAILURE;
			}
			if (opt->count && ++printed >= opt->count)
				return EXIT_SUCCESS;
		}
		if (viewer_ended(v, err, errlen))
			return EXIT_SUCCESS;
	}
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
	int rc, status;

	err[0] = 0;
	rc = viewer_open(&(struct viewer_config){
				 .local_path = local_path, .url = opt->connect, .tls_ca = opt->tls_ca,
				 .auth = getenv("PMUTOP_CONNECT_AUTH"),
			 }, &v, err, errlen);
	if (rc)
		return local_path ? rc : rc == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	a = viewer_about(v);
	share_record_about(a, viewer_topo(v), &ra);
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
		status = share_view_batch(opt, v, rec, sigfd, err, errlen);
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
	status = ui_run(NULL, &c, sigfd, err, errlen);
	share_record_close(rec);
	viewer_free(v);
	return status;
}
