/*
 * session_int: a run's state, for session.c and the backend modules that
 * open and describe it; the front ends know struct session by name only
 * (session.h).
 */
#ifndef PMUTOP_SESSION_INT_H
#define PMUTOP_SESSION_INT_H

#include "engine.h"
#include "lock.h"
#include "msr.h"
#include "ossample.h"
#include "session.h"
#include "source.h"

struct session {
	struct source *src;           /* NULL for the OS's figures */
	struct ossample *os;          /* no counters: the OS's figures (session_open_os) */
	struct topo *os_topo;
	char os_brand[49];
	const struct layout *layout;
	struct layout *own_layout;    /* the loaded one (layout points at it), or NULL */
	struct engine *eng;
	struct lock lock;             /* the counters' single-instance lock (lock.h) */
	uint32_t groups;
	bool stepped;             /* session_config.stepped, and an emulator to step */
	double sim_t;             /* emulated seconds since the start (stepped) */
	bool *uncore_taken;       /* by socket: someone else's uncore counters (left alone) */
	char notice[1024];        /* counters in use, forced, NMI watchdog: for stderr and the header */
	char owners[700];         /* the owner scan alone: counters others use, "" none */
	char source_why[700];     /* --source auto: which source and why, "" when chosen */
};

#endif
