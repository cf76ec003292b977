/*
 * session_throttle: the run's reader of the kernel's thermal throttle
 * counters (backend/machine/throttle.c): this machine's, a --root tree's,
 * or an emulated machine's written under a private directory and brought
 * up to date before every look.  The engine's sampler looks once a sample
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

/* The emulated machine's files, up to its clock now (a failure: the look reads the last ones). */
static void session_throttle_refresh(void *ctx)
{
	struct session *s = ctx;
	char err[256];

	emu_throttle_write(s->src->emu, s->thr_dir, err, sizeof(err));
}

int session_throttle_open(struct session *s, const struct session_config *c, char *err, size_t errlen)
{
	const char *root = c->root;
	void (*refresh)(void *) = NULL;

	if (s->src && s->src->emu) {
		int rc = session_emu_dir("thr", s->thr_dir, sizeof(s->thr_dir), err, errlen);

		if (rc)
			return rc;
		root = s->thr_dir;
		refresh = session_throttle_refresh;
	}
	s->thr = throttle_open(root, s->src ? s->src->topo : s->os_topo, refresh, s);
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
	if (s->thr_dir[0])
		session_rm_tree(s->thr_dir);
	s->thr_dir[0] = '\0';
}
