/*
 * mode_replay: --replay FILE.  With -b each sample printed again in
 * --format (metrics computed again from the recorded inputs) with its
 * marks; a cut last line is said on stderr; bad input exits 2 with the
 * line and byte.  Without -b the recorded machine and its samples on the
 * screen at their pace (space pauses; , . step; [ ] speed; g goes to a
 * time).  No counters, no root.
 */
#include "app.h"
#include "player.h"
#include "rcfile.h"
#include "replay.h"
#include "sink.h"
#include "ui.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int mode_replay_screen(const struct options *opt)
{
	struct ui_config c = { .interval = 1, .interval_given = true };
	const struct replay_about *a;
	struct player *pl;
	char err[1024], rc_path[PATH_MAX];
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
	sigfd = app_signals(NULL);
	if (sigfd < 0) {
		player_free(pl);
		return EXIT_FAILURE;
	}
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
	app_sigfd_close(sigfd);
	return status;
}

int mode_replay(const struct options *opt)
{
	struct sink_ctx sc = { .mode = SINK_PRINT, .format = opt->format,
			       .counts = opt->counts, .metrics = opt->metrics, .scopes = opt->scopes,
			       .out = stdout,
			       .t0 = NAN };
	struct sinks sinks;
	struct replay *r;
	struct replay_item it;
	struct topo *topo = NULL;
	char err[1024];
	int rc, status = EXIT_SUCCESS, *cpus = NULL, ncpus = 0;

	if (!opt->batch)
		return mode_replay_screen(opt);
	if (replay_open(opt->replay, &r, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	/* the recorded machine: a hybrid's kinds of core in the output (none if it cannot be read) */
	if (replay_topo(replay_about(r), opt->replay, &topo, err, sizeof(err)))
		topo = NULL;
	sc.topo = topo;
	if (opt->cpus && batch_cpus_resolve(topo, opt->cpus, &cpus, &ncpus, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		replay_close(r);
		if (topo)
			topo_free(topo);
		return OPTIONS_EXIT_USAGE;
	}
	sc.cpus = cpus;
	sc.ncpus = ncpus;
	sinks_build(&sc, &sinks);
	while ((rc = replay_next(r, &it, err, sizeof(err))) == 0 && it.kind != REPLAY_END) {
		int prc = 0;

		if (it.kind == REPLAY_SAMPLE) {
			/* --metrics against the recording's layout, before its first sample prints */
			if (opt->metrics && sinks.fed == 0 &&
			    batch_metrics_check(it.sample->layout, opt->metrics, err, sizeof(err))) {
				fprintf(stderr, "pmutop: %s\n", err);
				sample_release(it.sample);
				status = OPTIONS_EXIT_USAGE;
				break;
			}
			prc = sinks_sample(&sinks, it.sample);
			sample_release(it.sample);
		} else if (it.kind == REPLAY_MARK) {
			prc = sinks_mark(&sinks, &it.mark);
		}
		if (prc == -EPIPE)
			break;
		if (prc) {
			fprintf(stderr, "pmutop: cannot write the output: %s\n", strerror(-prc));
			status = EXIT_FAILURE;
			break;
		}
		if (opt->count && sinks.fed >= opt->count)
			break;
	}
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		status = OPTIONS_EXIT_USAGE;
	} else if (replay_trailing(r)) {
		fprintf(stderr, "pmutop: %s ends with a cut line: its last %ld bytes were ignored "
			"(%ld sample%s replayed)\n", opt->replay, replay_trailing(r), sinks.fed,
			sinks.fed == 1 ? "" : "s");
	}
	sinks_free(&sinks);
	free(cpus);
	replay_close(r);
	if (topo)
		topo_free(topo);
	return status;
}
