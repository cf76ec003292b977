/*
 * options_batch: the batch output's options (--format, --counts,
 * --metrics, --per-thread, --per-core, --per-socket, --per-channel,
 * --per-cha, --per-cgroup, --per-process, --cpus) for options.c.  Main
 * thread.
 */
#include "options.h"

#include <getopt.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int options_batch(int c, struct options *opt, const char *arg, char *err, size_t errlen)
{
	if (c >= OPTIONS_PER_KIND && c < OPTIONS_PER_KIND + SAMPLE_NKINDS) {
		/* the rows -b prints, as perf stat's --per-core and --per-socket (several add up) */
		opt->scopes |= 1u << (c - OPTIONS_PER_KIND);
		return 0;
	}
	switch (c) {
	case OPTIONS_METRICS:
		opt->metrics = arg;
		return 0;
	case OPTIONS_PER_CGROUP:
	case OPTIONS_PER_PROCESS:
		/* the who view's rows: they come with it */
		opt->scopes |= 1u << (c == OPTIONS_PER_CGROUP ? BATCH_SCOPE_CGROUP : BATCH_SCOPE_PROCESS);
		opt->who = true;
		return 0;
	case OPTIONS_CPUS:
		/* read against the machine when it is known (socketN, a kind of core) */
		if (!*arg || strspn(arg, ",") == strlen(arg)) {
			snprintf(err, errlen, "--cpus takes CPU lists, socketN or a kind of core (P, E), "
				 "comma-separated, as the screen's CPU filter (/): --cpus 0-3,8");
			return -EINVAL;
		}
		opt->cpus = arg;
		return 0;
	case OPTIONS_COUNTS:
		opt->counts = true;
		return 0;
	case OPTIONS_FORMAT:
		opt->format = batch_format_find(arg);
		if (opt->format)
			return 0;
		snprintf(err, errlen, "--format is %s, not '%s'", batch_format_list(), arg);
		return -EINVAL;
	default:
		return -ENOENT;
	}
}

void options_batch_per(struct option *at)
{
	for (int k = 0; k < SAMPLE_NKINDS; k++)
		at[k] = (struct option){ sample_kinds[k].option + 2, no_argument, NULL, OPTIONS_PER_KIND + k };
	at[SAMPLE_NKINDS] = (struct option){ NULL, 0, NULL, 0 };
}

void options_batch_per_alone(char *err, size_t errlen)
{
	size_t at = 0;

	for (int k = 0; k < SAMPLE_NKINDS && at < errlen; k++)
		at += (size_t)snprintf(err + at, errlen - at, "%s, ", sample_kinds[k].option);
	if (at < errlen)
		snprintf(err + at, errlen - at, "--per-cgroup and --per-process pick the rows -b prints: "
			 "pmutop -b --per-socket");
}
