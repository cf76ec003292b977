/*
 * pilock: priority-inheriting mutexes.  See pilock.h.
 */
#include "pilock.h"

void pilock_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	if (pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT) || pthread_mutex_init(m, &a))
		pthread_mutex_init(m, NULL);
	pthread_mutexattr_destroy(&a);
}
