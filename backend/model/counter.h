/*
 * counter: what the core engine and the uncore share about counters: how a
 * reading of a counter of some width becomes a delta across wrap-around,
 * and the event-select values written for a layout event (core and
 * uncore).  Pure functions; any thread.  Bit layouts from pmu_regs.h.
 */
#ifndef PMUTOP_COUNTER_H
#define PMUTOP_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"

/* Faster than any event can count: 10 GHz x 16 per cycle. */
#define COUNTER_MAX_EVENTS_PER_S 1.6e11

/*
 * The delta of a WIDTH-bit counter from PREV to NOW over ELAPSED seconds.
 * A reading lower than before is a wrap when the implied delta is
 * plausible (below COUNTER_MAX_EVENTS_PER_S x elapsed); otherwise a reset
 * by someone else: NOW is returned (the count since the reset) and *RESETS
 * counts it, never a huge delta.
 */
double counter_widen(uint64_t prev, uint64_t now, unsigned width, double elapsed, int *resets);

/*
 * The IA32_PERFEVTSELx value for core event EV: its fields, USR and OS as
 * chosen, EN; the any-thread bit only from perfmon version 3; never INT
 * (pmutop takes no interrupts).  --list-events prints exactly this.
 */
uint64_t counter_evtsel(const struct layout_event *ev, unsigned perfmon_version, bool user,
			bool kernel);

/*
 * The event bits of EV as a perf raw config carries them (what the PMU's
 * format files place: event, umask, cmask, inv, edge, any), without the
 * enable and privilege bits the kernel sets itself.
 */
uint64_t counter_perf_config(const struct layout_event *ev);

/*
 * EV as `perf stat -e` names it through the kernel's PMUs: "cpu/event=0xb1,
 * umask=0x40,cmask=1/", "uncore/...", "uncore_cbox_N/..." (each slice N),
 * "uncore_imc/data_reads/".
 */
void counter_perf_event(const struct layout_event *ev, char *buf, size_t len);

/* The kernel's uncore_imc event name of the free-running counter at MCHBAR offset MMIO, or NULL. */
const char *counter_perf_imc_name(uint32_t mmio);

/*
 * Skylake-SP's CHA FILTER1 register by the fields the kernel's uncore
 * driver names in its format (uncore_snbep.c: the filter bits of config1's
 * high half): each field's name, its first bit in the register and width;
 * the bits no field covers are reserved.
 */
struct counter_filter1_field {
	const char *name;
	unsigned shift, width;
};

extern const struct counter_filter1_field counter_filter1_fields[];
extern const size_t counter_filter1_nfields;

/* FILTER1's bits no field of counter_filter1_fields covers. */
uint32_t counter_filter1_reserved(void);

/* The uncore event select for EV: event, umask, threshold, inv, edge, EN (no USR/OS/ANY). */
uint64_t counter_uncore_evtsel(const struct layout_event *ev);

/* Most events one set holds: the core's 8 counters, the Nehalem uncore's 8 + a CBo and an ARB pair. */
#define COUNTER_SET_MAX 16 /* a hybrid's set: a P-core's 8 and an E-core's 8 */

/*
 * A multiplexing set: groups whose events count together, each event on
 * its counter (within its PMU's bank).  The core engine and the uncore pack
 * their groups into sets the same way.
 */
struct counter_set {
	layout_groups groups;          /* bit g: layout group g */
	int nev;
	int ev[COUNTER_SET_MAX];   /* layout event indexes */
	int ctr[COUNTER_SET_MAX];  /* the counter each one is programmed on, in its bank */
};

/*
 * Add group G of L to set S when its events fit beside the set's: counters
 * of the group's PMU from USABLE (bit n: counter n), each event's counter
 * constraints, one value per offcore response register.  S is unchanged
 * when they do not.
 */
bool counter_set_add(const struct layout *l, struct counter_set *s, int g, uint32_t usable);

#endif
