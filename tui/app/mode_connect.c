/*
 * mode_connect: --connect URL views another pmutop's --serve, read-only,
 * on the screen or printed (share.h).
 */
#include "app.h"
#include "share.h"

#include <stdio.h>
#include <stdlib.h>

int mode_connect(const struct options *opt)
{
	char err[1024];
	int sigfd = app_signals(NULL), status;

	if (sigfd < 0)
		return EXIT_FAILURE;
	status = share_view(opt, NULL, sigfd, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "pmutop: %s\n", err);
	app_sigfd_close(sigfd);
	return status;
}
