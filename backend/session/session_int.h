/*
 * session_int: a run's state, for session.c and the backend modules that
 * open and describe it; the front ends know struct session by name only
 * (session.h).
 */
#ifndef PMUTOP_SESSION_INT_H
#define PMUTOP_SESSION_INT_H

#include "engine.h"
#include "ossample.h"
#include "session.h"
#include "source.h"

struct session {
	char *root;                   /* the machine's root (machine_root, kept), NULL this one */
	struct source *src;           /* NULL for the OS's figures */
	struct source_facts f;        /* what src says of itself (source_facts) */
	struct ossample *os;          /* no counters: the OS's figures (session_open_os) */
	struct topo *os_topo;
	char os_brand[49];
	const struct layout *layout;
	struct layout *own_layout;    /* the loaded one (layout points at it), or NULL */
	struct engine *eng;
	layout_groups groups;
	bool stepped;             /* session_config.stepped, on a machine whose time the run moves */
	bool *uncore_taken;       /* by socket: someone else's uncore counters (left alone) */
	char notice[1024];        /* counters in use, forced, NMI watchdog: for stderr and the header */
	char owners[700];         /* the owner scan alone: counters others use, "" none */
	char source_why[700];     /* --source auto: which source and why, "" when chosen */
	bool *unmodelled;         /* per layout event: the machine does not model it (an emulated one) */
	char uarch[96];           /* a CPU of Intel's data: "SKX (Intel's perfmon data)", else "" */
	/* who uses the machine (session_who.c) */
	struct who *who;
	struct who_mk *who_mk;    /* the monitoring groups --who-resctrl made, or NULL */
	int *who_cpus;
	/* the thermal throttle counters (session_throttle.c) */
	struct throttle *thr;
};

/*
 * The layout made from Intel's data for the CPU of SRC (no --layout, no row
 * in the CPU table, the data covers it): 0 and *OUT; -ENOENT when there is
 * none to make (NOTICE says why when the data is there but unusable).
 */
int session_vendor_layout(const struct session_config *c, const struct source *src,
			  struct layout **out, char *notice, size_t len);

/* The who collector of S for C (before the engine or OS sampler is made); 0 or -errno with ERR. */
int session_who_open(struct session *s, const struct session_config *c, char *err, size_t errlen);
void session_who_close(struct session *s);
/* The engine's look at who uses the machine (engine_config.who_look; CTX the collector). */
struct who_snap *session_who_look(void *ctx, double t);

/* The thermal throttle reader of S (for the engine, or handed to the OS sampler); 0 or -errno. */
int session_throttle_open(struct session *s, const struct session_config *c, char *err, size_t errlen);
void session_throttle_close(struct session *s);
/* The engine's look at the interval's throttling (engine_config.throttle_look; CTX the reader). */
struct sample_throttle *session_throttle_look(void *ctx, double t);

/* Which of the layout's core events the machine does not model (s->unmodelled; an emulated one's). */
void session_find_unmodelled(struct session *s);

#endif
