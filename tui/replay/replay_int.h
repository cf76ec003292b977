/*
 * replay_int: the parts of reading a recording that live in their own files
 * (replay_who.c), for replay.c alone.  Main thread.
 */
#ifndef PMUTOP_REPLAY_INT_H
#define PMUTOP_REPLAY_INT_H

#include <jansson.h>

#include "frontend.h"

/* A recorded sample's "who" object O into *OUT: NULL, or what is wrong with it. */
const char *replay_who(json_t *o, struct who_snap **out);

#endif
