/*
 * mode_topology: --topology-only prints the machine's (or an emulated
 * machine's, or a saved topology's) sockets, cores and threads as text.
 */
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int mode_topology(const struct options *opt)
{
	char err[512];
	struct topo *t = NULL;
	int rc;

	if (!opt->topology) {
		/* the machine's (an emulated machine's says that it is emulated) */
		rc = session_print_topology(opt->machine, stdout, app_terminal_width(), err,
					    sizeof(err));
		if (rc) {
			fprintf(stderr, "pmutop: %s\n", err);
			return rc == -EIO ? EXIT_FAILURE : OPTIONS_EXIT_USAGE;
		}
		return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	}
	rc = topo_load(opt->topology, &t, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return rc == -EIO ? EXIT_FAILURE : OPTIONS_EXIT_USAGE;
	}
	topo_text_print(t, stdout, app_terminal_width());
	topo_free(t);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
