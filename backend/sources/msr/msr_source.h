/*
 * msr_source: the register source as the engine drives it (source_ops.h):
 * the cores' counters through the msr device files (or msr-safe, or the
 * emulator's register device), the per-socket PMUs through their MSRs and
 * the Skylake client memory controller's MMIO window.
 */
#ifndef PMUTOP_MSR_SOURCE_H
#define PMUTOP_MSR_SOURCE_H

#include "source_ops.h"

struct msr_dev;
struct mmio;

/* The register source's own configuration (engine_config.source_cfg): what it counts through. */
struct msr_source_config {
	struct msr_dev *dev;         /* the register device (msr.h) */
	struct mmio *mmio;           /* Skylake client IMC window, or NULL */
	const char *mmio_why;        /* why there is none (shown on IMC groups) */
	bool rapl_server_dram;       /* RAPL's DRAM domain in 15.3 uJ (msr_rapl_server_dram) */
	/*
	 * Per-socket reader threads: 0 when they help (device files, the real
	 * clock, two sockets or more; PMUTOP_SERIAL_SWEEP=1 turns them off),
	 * 1 also for a device and a clock the caller knows are safe from
	 * several threads (a benchmark), -1 never.
	 */
	int readers;
	/*
	 * A read slower than ENGINE_SLOW_ACCESS_S leaves its interval n/a, as a
	 * late CPU's: a real device on the real clock (an emulated machine
	 * answers when the emulator runs; on a stepped clock no time passes)
	 */
	bool late_reads;
};

/* SRC's configuration (engine_config.source_cfg, uncore_config.source_cfg). */
static inline const struct msr_source_config *msr_source_cfg(const void *src)
{
	return src;
}

extern const struct src_core_ops msr_core_ops;
extern const struct src_uncore_ops msr_uncore_ops;
/* RAPL's energy MSRs, read only, as the per-socket transport of a CPU without pmutop's uncore. */
extern const struct src_uncore_ops msr_rapl_ops;

struct cpuid_info;
/* The servers whose RAPL DRAM domain counts in 15.3 uJ (Linux's rapl driver: hsw_server). */
bool msr_rapl_server_dram(const struct cpuid_info *info);

#endif
