/*
 * mode_mark: --mark TEXT [--pid PID] puts a phase mark into the running
 * pmutops' timelines (marks.h) and says which took it.
 */
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int mode_mark(const struct options *opt)
{
	char err[512];
	int pids[16], n = marks_send(opt->mark, opt->mark_pid, pids, 16, err, sizeof(err));

	if (n < 0) {
		fprintf(stderr, "pmutop: %s\n", err);
		return n == -EINVAL ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	/* which pmutops took it: more than one runs when --pid was not given */
	printf("marked pmutop pid");
	for (int i = 0; i < n && i < 16; i++)
		printf("%s %d", i ? "," : "", pids[i]);
	printf("%s%s\n", n > 16 ? " and more" : "",
	       n > 1 && !opt->mark_pid ? " (--pid PID marks one)" : "");
	return EXIT_SUCCESS;
}
