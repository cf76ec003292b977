/*
 * pilock: a mutex that lends its waiter's priority to its holder.
 *
 * The sampler thread runs at a real-time priority where pmutop rotates the
 * groups itself (engine_thread.c); the locks it shares with threads of
 * normal priority (the UI's commands, the OS sampler reading the emulated
 * kernel, the per-socket readers) are priority-inheriting, so a holder that
 * a busy machine preempted runs at once when the sampler waits on it,
 * instead of when the scheduler next gets to it.  Any thread may call it.
 */
#ifndef PMUTOP_PILOCK_H
#define PMUTOP_PILOCK_H

#include <pthread.h>

/* Initialise M with PTHREAD_PRIO_INHERIT (a plain mutex where the system has none). */
void pilock_init(pthread_mutex_t *m);

#endif
