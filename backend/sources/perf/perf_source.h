/*
 * perf_source: the perf source as the engine drives it (source_ops.h): the
 * cores' events and the per-socket PMUs through perf_event_open(2), the
 * kernel's (or the emulated kernel's, perf_sys) PMUs described by their
 * sysfs format files.  Nothing is written to a register.
 */
#ifndef PMUTOP_PERF_SOURCE_H
#define PMUTOP_PERF_SOURCE_H

#include "source_ops.h"

extern const struct src_core_ops perf_core_ops;
extern const struct src_uncore_ops perf_uncore_ops;

#endif
