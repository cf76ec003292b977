/*
 * about: what several modes say about a run: the host, the terminal's
 * width, the screen's view of the run, a recording's header.  See app.h.
 */
#include "app.h"
#include "text.h"
#include "ui.h"

#include <langinfo.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

const char *app_host(void)
{
	static char host[256];

	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "?");
	text_clean_in_place(host, sizeof(host)); /* the kernel takes any bytes for a name */
	return host;
}

int app_terminal_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

void app_view_info(const struct options *opt, const struct session *s, const char *doctor,
		   struct view_info *in)
{
	struct session_about a;

	session_about(s, &a);
	*in = (struct view_info){
		/* an emulated machine is not this host: the header names the machine */
		.host = a.machine ? a.machine : app_host(), .brand = a.brand, .uarch = a.uarch,
		.source = a.source,
		.simulated = a.simulated, .layout = session_layout(s), .topo = a.topo,
		.gp_counters = a.gp_counters, .perfmon_version = a.perfmon_version,
		.count_user = !opt->kernel_only, .count_kernel = !opt->user_only, .doctor = doctor,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"), .unmodelled = a.unmodelled,
		.no_tree = a.no_tree,
	};
}

void app_record_about(const struct options *opt, struct session *s, struct record_about *ra)
{
	struct session_about a;

	session_about(s, &a);
	*ra = (struct record_about){
		.host = a.machine ? a.machine : app_host(), .source = a.source, .brand = a.brand,
		.uarch = a.uarch, .topology = a.topo->source, .simulated = a.simulated,
		.gp_counters = a.gp_counters, .perfmon_version = a.perfmon_version,
		.sockets = a.topo->nsockets, .cores = a.topo->ncores, .threads = a.topo->nonline,
		.interval_s = opt->interval, .layout = session_layout(s), .topo = a.topo,
	};
}
