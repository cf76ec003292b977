/*
 * session_throttle: the run's reader of the kernel's thermal throttle
 * counters (backend/machine/throttle.c): the machine's files
 * (source_files).  The engine's sampler looks once a sample
 * (engine_config.throttle_look).  Main thread, but for the look.
 */
#define _GNU_SOURCE
#include "session_int.h"
#include "throttle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int session_throttle_open(struct session *s, const struct session_config *c, char *err, size_t errlen)
{
	struct source_files files;
	int rc = source_files(s->src, s->root, SOURCE_FILES_THROTTLE, &files, err,
			      errlen);

	if (rc)
		return rc;
	s->thr = throttle_open(files.root, s->src ? s->f.topo : s->os_topo, files.refresh,
			       files.refresh_ctx);
	if (s->os) /* the OS's figures alone: their sampler looks */
		ossample_set_throttle(s->os, s->thr);
	return 0;
}

struct sample_throttle *session_throttle_look(void *ctx, double t)
{
	return throttle_look(ctx, t);
}

void session_throttle_close(struct session *s)
{
	throttle_free(s->thr);
	s->thr = NULL;
}
