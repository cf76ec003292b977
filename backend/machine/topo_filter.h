/*
 * topo_filter: a set of CPUs as a user names it: CPU lists, socketN and a
 * hybrid's kinds of core (P, E, LP-E), comma-separated ("0-3,8",
 * "socket1", "socket0,12", "E").  The screen's CPU filter (/) and batch
 * mode's --cpus read it the same way.  Pure: any thread may call it.
 */
#ifndef PMUTOP_TOPO_FILTER_H
#define PMUTOP_TOPO_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "topo.h"

/*
 * TEXT's CPUs of T: *SHOWN an xmalloc'd array of N = T's cpu_thread_len,
 * true at each OS CPU named; 0.  A CPU, socket or kind that T lacks, or
 * text that is none of them: -EINVAL (-ERANGE for a reversed or too large
 * range) with ERR saying what T has, *SHOWN NULL.
 */
int topo_filter_parse(const struct topo *t, const char *text, bool **shown, char *err, size_t len);

/* "0-15" (or "0-3,8-15"): T's CPUs, for messages. */
void topo_filter_cpus_text(const struct topo *t, char *buf, size_t len);

#endif
