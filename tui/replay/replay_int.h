/*
 * replay_int: the parts of reading a recording that live in their own files
 * (replay_who.c, replay_entity.c), for replay.c alone.  Main thread.
 */
#ifndef PMUTOP_REPLAY_INT_H
#define PMUTOP_REPLAY_INT_H

#include <jansson.h>

#include "frontend.h"

/* A recorded sample's "who" object O into *OUT: NULL, or what is wrong with it. */
const char *replay_who(json_t *o, struct who_snap **out);
/* A recording's "throttle" (the batch JSON's) into *OUT (freed with the sample); NULL or why not. */
const char *replay_throttle(json_t *o, int nsockets, struct sample_throttle **out);

/* A number or null (NaN); false for anything else. */
bool replay_num(json_t *v, double *out);

/* What the entities of a sample carry: the vars WHICH[0..N), the raw counts of events EVS[0..NEVS). */
struct replay_shape {
	int *which, n, *evs, nevs;
};

/* N entities ES from array A of shape SH: NULL, or what is wrong. */
const char *replay_entities(json_t *a, struct sample_entity *es, int n,
			    const struct replay_shape *sh);

#endif
