/*
 * perfmon_fields: a core event of the vendor's data as the select programs
 * it: the event table's fields (EventCode, UMask, UMaskExt, CounterMask,
 * Invert, EdgeDetect, AnyThread) with the metric formula's modifiers over
 * them, as Linux's perf reads them from Intel's metrics (":c4", ":i1",
 * ":e1", ":eq1", ":u0x80" another umask, ":SUP" ring 0 only, ":USER" user
 * space only; ":ocr_msr_val=V" is the offcore matrix, perfmon_plan_extra;
 * ":perf_metrics" and ":one_unit" are read, not programmed).  The one place
 * that reads them, for the layouts pmutop makes; and an uncore event's
 * select on a box of a layout PMU.  Any thread.
 */
#ifndef PMUTOP_PERFMON_FIELDS_H
#define PMUTOP_PERFMON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"
#include "layout_build.h"
#include "perfmon.h"

struct perfmon_fields {
	unsigned long code, umask, cmask;
	bool inv, edge, any, eq;
	const char *ring;        /* "kernel", "user", or NULL: both */
};

/*
 * Event E's fields into F; AMD: its 12-bit event select, no UMaskExt.
 * A fixed counter's event gets its architectural twin on a general counter
 * (SDM Table 19-1: instructions C0H, core cycles 3CH, reference cycles
 * 3CH/01H).
 */
void perfmon_fields_of(const struct perfmon_event *e, bool amd, struct perfmon_fields *f);

/*
 * Whether every modifier of the core event NAME is one pmutop programs as
 * the metrics mean it; else why into WHY (a modifier a newer file brings is
 * never dropped silently).
 */
bool perfmon_fields_known(const char *name, char *why, size_t len);

/*
 * The layout's umask of Intel uncore event E: its UMask with the vendor's
 * UMaskExt above bit 8 (up to 40 bits: Sapphire Rapids' CXL filters).
 */
unsigned long long perfmon_uncore_umask(const struct perfmon_event *e);

/*
 * Uncore event E's select on a box of layout PMU kind KIND into EV's raw
 * fields (its name, channel and box are the caller's): its code within the
 * kind's event select, UMASK, and where the data sets them and the kind's
 * select has them (a threshold: Intel's boxes, not AMD's amd_uncore) its
 * counter mask, invert and edge detect, and a Skylake-SP CHA's FILTER1
 * value.  The one maker of a vendor uncore event's fields, for the
 * vendor's metrics and pmutop's own over the vendor's events alike.
 */
void perfmon_uncore_fields(struct layout_build_event *ev, const struct perfmon_event *e,
			   enum layout_pmu kind, unsigned long long umask);

#endif
