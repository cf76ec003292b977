/*
 * perfmon_fields: a core event of the vendor's data as the select programs
 * it: the event table's fields (EventCode, UMask, UMaskExt, CounterMask,
 * Invert, EdgeDetect, AnyThread) with the metric formula's modifiers over
 * them, as Linux's perf reads them from Intel's metrics (":c4", ":i1",
 * ":e1", ":eq1", ":u0x80" another umask, ":SUP" ring 0 only, ":USER" user
 * space only; ":ocr_msr_val=V" is the offcore matrix, perfmon_plan_extra;
 * ":perf_metrics" and ":one_unit" are read, not programmed).  The one place
 * that reads them, for the layouts pmutop makes.  Any thread.
 */
#ifndef PMUTOP_PERFMON_FIELDS_H
#define PMUTOP_PERFMON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
