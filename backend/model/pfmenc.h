/*
 * pfmenc: event names to encodings through libpfm4.
 *
 * Layout files name events the way libpfm4 and perf users know them
 * ("UOPS_EXECUTED:PORT015:c=1:i=1"); this module turns such a name into
 * the raw fields pmutop programs.  libpfm4 is asked for the PMU the layout
 * names ("nhm", "wsm_dp", "skl", "core"), also when that PMU is not the
 * CPU we run on (emulated machines, --list-events --cpu), which is why
 * inactive PMUs are allowed to encode.  Only the fields are taken from
 * libpfm4: privilege bits, the enable bit and the interrupt bit are
 * pmutop's own decision (it never sets INT).
 *
 * Main thread, while layouts are parsed (libpfm4 is initialised once).
 */
#ifndef PMUTOP_PFMENC_H
#define PMUTOP_PFMENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pfmenc_fields {
	unsigned event, umask, cmask;
	bool inv, edge, any;
	bool has_offcore;
	uint64_t offcore;       /* the OFFCORE_RSP MSR value, when has_offcore */
	char canonical[384];    /* libpfm4's full name with every modifier */
};

/*
 * Encode NAME for libpfm4 PMU PMU.  0, or -EINVAL with libpfm4's reason
 * in ERR ("event not found", "invalid event attribute", ...).
 */
int pfmenc_encode(const char *pmu, const char *name, struct pfmenc_fields *f, char *err,
		  size_t errlen);

#endif
