/*
 * msr_source: the register source as the engine drives it (source_ops.h):
 * the cores' counters through the msr device files (or msr-safe, or the
 * emulator's register device), the per-socket PMUs through their MSRs and
 * the Skylake client memory controller's MMIO window.
 */
#ifndef PMUTOP_MSR_SOURCE_H
#define PMUTOP_MSR_SOURCE_H

#include "source_ops.h"

extern const struct src_core_ops msr_core_ops;
extern const struct src_uncore_ops msr_uncore_ops;

#endif
