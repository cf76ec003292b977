/*
 * options_who: the who options (--who, --who-top, --who-procs,
 * --who-resctrl, --who-topdown) for options.c.  Main thread.
 */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number WHAT takes (how many MEANING), LO to HI, into *OUT; -EINVAL with ERR. */
static int options_count(const char *what, const char *meaning, const char *arg, int lo, int hi,
			 int def, int *out, char *err, size_t errlen)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < lo || v > hi) {
		snprintf(err, errlen, "%s takes how many %s, %d to %d (default %d), got '%s'", what,
			 meaning, lo, hi, def, arg);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

int options_who(int c, struct options *opt, const char *arg, char *err, size_t errlen)
{
	switch (c) {
	case OPTIONS_WHO:
		opt->who = true;
		return 0;
	case OPTIONS_WHO_TOPDOWN:
		/* counted beside the three events: it implies --who */
		opt->who = opt->who_topdown = true;
		return 0;
	case OPTIONS_WHO_TOP:
		return options_count("--who-top", "cgroups are counted at once", arg, 1, WHO_TOP_MAX,
				     WHO_TOP_DEFAULT, &opt->who_top, err, errlen);
	case OPTIONS_WHO_PROCS:
		return options_count("--who-procs", "processes are listed", arg, 0, WHO_PROCS_MAX,
				     WHO_PROCS_DEFAULT, &opt->who_procs, err, errlen);
	case OPTIONS_WHO_RESCTRL:
		if (!*arg || strspn(arg, ",") == strlen(arg)) {
			snprintf(err, errlen, "--who-resctrl needs cgroup paths, comma-separated, as the "
				 "who pane shows them: --who-resctrl system.slice/nginx.service");
			return -EINVAL;
		}
		opt->who_resctrl = arg;
		return 0;
	default:
		return -ENOENT;
	}
}
