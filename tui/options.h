/*
 * options: pmutop's command line.
 *
 * options_parse() fills a struct options or returns one message for the
 * user; it never prints and never exits, so every rule is testable.  Main
 * thread, before anything else starts.
 */
#ifndef PMUTOP_OPTIONS_H
#define PMUTOP_OPTIONS_H

#include <stddef.h>

enum options_action {
	OPTIONS_ACTION_INTERACTIVE,
	OPTIONS_ACTION_HELP,
	OPTIONS_ACTION_VERSION,
	OPTIONS_ACTION_TOPOLOGY_ONLY,
	OPTIONS_ACTION_MSR_SAFE_ALLOWLIST,
};

struct options {
	enum options_action action;
	const char *topology; /* --topology FILE|SYNTHETIC, NULL = this machine */
	const char *sim;      /* --sim MACHINE[:SCENARIO|:PATH], NULL = real counters */
	const char *root;     /* --root DIR: prefix of every device, sysfs and procfs path */
};

/*
 * Parse ARGV.  Returns 0, or -EINVAL with one line in ERR naming the bad
 * argument (the caller adds the --help hint and exits 2).
 */
int options_parse(int argc, char **argv, struct options *opt, char *err, size_t errlen);

/* The --help text. */
extern const char options_usage[];

#endif
