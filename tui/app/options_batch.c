/*
 * options_batch: the batch output's options (--format, --counts,
 * --metrics, --per-thread, --per-core, --per-socket, --per-channel,
 * --per-cha, --per-cgroup, --per-process, --cpus) for options.c.  Main
 * thread.
 */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int options_batch(int c, struct options *opt, const char *arg, char *err, size_t errlen)
{
	static const char *const formats[] = {
		[BATCH_TEXT] = "text", [BATCH_CSV] = "csv", [BATCH_JSON] = "json", [BATCH_LONG] = "long",
		[BATCH_PERF_CSV] = "perf-csv", [BATCH_PERF_JSON] = "perf-json",
	};

	switch (c) {
	case OPTIONS_METRICS:
		opt->metrics = arg;
		return 0;
	case OPTIONS_PER_THREAD:
	case OPTIONS_PER_CORE:
	case OPTIONS_PER_SOCKET:
	case OPTIONS_PER_CHANNEL:
		/* the rows -b prints, as perf stat's --per-core and --per-socket (several add up) */
		opt->scopes |= 1u << (c == OPTIONS_PER_THREAD ? LAYOUT_THREAD
				      : c == OPTIONS_PER_CORE ? LAYOUT_CORE
				      : c == OPTIONS_PER_SOCKET ? LAYOUT_SOCKET : LAYOUT_CHANNEL);
		return 0;
	case OPTIONS_PER_CHA:
		opt->scopes |= 1u << BATCH_SCOPE_CHA;
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
		for (int i = 0; i < BATCH_NFORMATS; i++)
			if (!strcmp(arg, formats[i])) {
				opt->format = (enum batch_format)i;
				return 0;
			}
		snprintf(err, errlen, "--format is text, csv, json, long, perf-csv or perf-json, not '%s'",
			 arg);
		return -EINVAL;
	default:
		return -ENOENT;
	}
}
