/*
 * replay_int: the parts of reading a recording that live in their own files
 * (replay_who.c, replay_entity.c), for replay.c alone.  Main thread.
 */
#ifndef PMUTOP_REPLAY_INT_H
#define PMUTOP_REPLAY_INT_H

#include <jansson.h>

#include "frontend.h"
#include "sample_kind.h"

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

struct replay;

/* IN, the inputs: the built-ins first, then event variables, increasing; into SH's which. */
const char *replay_inputs(const struct replay *r, json_t *in, struct replay_shape *sh);

/*
 * A version 1 sample O's rows (threads, cores, sockets, channels and
 * nchannels, the CHAs' boxes, nboxes and box_inputs at the top level) as
 * version 2's "kinds" (a new reference; its arrays O's).
 */
json_t *replay_kinds_v1(json_t *o);

/* Kind K's rows in KINDS (the sample's "kinds"), or NULL when not an array. */
json_t *replay_kind_rows(json_t *kinds, enum sample_kind_id k);

/*
 * Every kind's rows that KINDS has and the sample stores (sample_kinds[])
 * into S (SH: the sample's inputs and raw events; a kind that keeps some
 * events alone has its own inputs): NULL, or what is wrong.
 */
const char *replay_kinds(const struct replay *r, json_t *kinds, struct sample *s,
			 const struct replay_shape *sh);

/* N entities ES from array A of shape SH: NULL, or what is wrong. */
const char *replay_entities(json_t *a, struct sample_entity *es, int n,
			    const struct replay_shape *sh);

#endif
