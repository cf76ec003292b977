/*
 * mode_os: a machine whose counters cannot be used (no msr driver, no
 * permission, a virtual machine without a PMU, a CPU without a layout):
 * the topology with the OS's figures (session_open_os), on the screen with
 * the reason on the message line, or printed (and served) with the reason
 * on stderr.  Bad input still stops pmutop; this is for a machine that
 * cannot count.
 */
#include "app.h"
#include "share.h"
#include "ui.h"

#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The screen: the reason on the message line, d explains. */
static int mode_os_screen(const struct options *opt, struct session *s, int sigfd)
{
	static char doctor[8192];
	struct ui_config c = { .interval = opt->interval, .interval_given = true };
	struct session_about a;

	app_doctor_text(opt, NULL, doctor, sizeof(doctor));
	session_about(s, &a);
	c.info = (struct view_info){
		.host = app_host(), .brand = a.brand, .uarch = a.uarch, .source = a.source,
		.layout = session_layout(s), .topo = a.topo, .doctor = doctor,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
	};
	return mode_screen(s, opt, sigfd, NULL, &c);
}

/* Printed (or served): the reason on stderr. */
static int mode_os_batch(const struct options *opt, struct session *s, const char *reason,
			 int sigfd)
{
	struct record_about ra;
	struct serve *srv = NULL;
	int status;

	fprintf(stderr, "pmutop: no counters: %s\npmutop: %s the OS's figures (utilisation, "
		"clock) instead; pmutop --doctor says what to fix\n", reason,
		opt->batch ? "printing" : "serving");
	app_record_about(opt, s, &ra);
	status = share_start(opt, &ra, false, &srv);
	if (!status)
		status = mode_batch(s, opt, sigfd, srv);
	share_stop(srv);
	return status;
}

int mode_os(const struct options *opt, const char *reason, int sigfd, bool screen)
{
	static char why[1100];
	struct session_config cfg = {
		.machine = opt->machine, .interval = opt->interval, .who = opt->who,
		.who_top = opt->who_top, .who_procs = opt->who_procs,
		.who_resctrl = opt->who_resctrl, .who_wanted = opt->who || opt->who_procs >= 0,
	};
	struct session *s;
	char err[1024];
	int status;

	if (screen)
		snprintf(why, sizeof(why), "No counters: %.500s. OS figures shown; d explains, or try "
			 "pmutop --sim nehalem-ep:memory-bound", reason);
	else
		snprintf(why, sizeof(why), "%s", reason);
	if (session_open_os(&cfg, why, &s, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\npmutop: and the OS's figures cannot be read: %s\n", reason,
			err);
		return EXIT_FAILURE;
	}
	status = screen ? mode_os_screen(opt, s, sigfd) : mode_os_batch(opt, s, why, sigfd);
	session_close(s);
	return status;
}
