/*
 * uncore_int: the per-socket PMUs' state, shared by uncore.c (what can be
 * counted, the transport's calls, the accumulators) and uncore_sample.c
 * (the sample's socket and channel figures and their checks).  Not for any
 * other module; the transport sees only source_ops.h.
 */
#ifndef PMUTOP_UNCORE_INT_H
#define PMUTOP_UNCORE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "source_ops.h"
#include "uncore.h"

struct uncore {
	struct uncore_config cfg;
	const struct layout *l;
	int nchan;                /* channels the layout counts per socket */
	struct src_socket *socks;
	int nsocks;
	bool used;                /* a known uncore and a layout with uncore groups */
	char (*blocked)[SAMPLE_WHY_MAX];
	struct src_uncore *t;     /* the transport (NULL when unused) */
	struct src_uplan plan;
};

/*
 * Whether socket US's interval says anything true: read, not another
 * program's, no failed read and no reset, some time counted.
 */
static inline bool uncore_socket_counted(const struct uncore *u, const struct src_socket *us)
{
	return u->used && !us->taken && us->reader >= 0 && !us->failed && !us->resets &&
	       us->t_last > us->t_start;
}

#endif
