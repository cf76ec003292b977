/*
 * emu_hybrid: what an emulated hybrid machine (Intel's P-cores and E-cores,
 * Alder Lake on) is made of, and its topology as hwloc XML with the CPU
 * kinds.  Pure functions.
 */
#ifndef PMUTOP_EMU_HYBRID_H
#define PMUTOP_EMU_HYBRID_H

#include <stdbool.h>

/*
 * The P-cores (threads each, L2 each) numbered first as Linux does, then
 * the E-cores in modules sharing an L2; the E-cores' PMU (its counters and
 * the issue slots of its top-down level 1 per cycle: 5 Gracemont, 8
 * Skymont), and its clock under load as a share of the P-cores'.
 */
struct emu_hybrid {
	unsigned p_cores, p_threads;
	unsigned e_modules, e_per_module;
	double p_l2_mib, e_l2_mib, l3_mib;
	unsigned mem_gib;
	unsigned p_mhz, e_mhz;         /* the kinds' most MHz (hwloc's FrequencyMaxMHz) */
	unsigned e_gp_counters, e_fixed_counters, e_slots_width;
	/*
	 * Skymont (Lunar and Arrow Lake) counts level 1 with the architectural
	 * _P events (TOPDOWN_FE_BOUND.ALL_P 9CH/01H, ...), Gracemont (Alder
	 * Lake) with 71H, 74H, C2H umask 0
	 */
	bool e_skymont;
	bool e_beside_l3;              /* the E-cores outside the L3 (Lunar Lake's low-power island) */
	/*
	 * Low-power E-cores after the E-cores (Arrow Lake-H's two Crestmont
	 * cores on the SoC tile: outside the L3, sharing an L2), counted by the
	 * kernel's third core PMU, cpu_lowpower; hwloc's kind IntelLowPower
	 */
	unsigned lp_cores, lp_mhz;
	double lp_l2_mib;
};

/* The topology (malloc'd hwloc XML) of H, the package named BRAND. */
char *emu_hybrid_xml(const struct emu_hybrid *h, const char *brand);

/* H's CPUs, every kind. */
unsigned emu_hybrid_cpus(const struct emu_hybrid *h);

/* Whether CPU is one of H's E-cores, low-power ones too (false for any CPU when H is NULL). */
bool emu_hybrid_is_e(const struct emu_hybrid *h, int cpu);

/* Whether CPU is one of H's low-power E-cores (cpu_lowpower's). */
bool emu_hybrid_is_lp(const struct emu_hybrid *h, int cpu);

#endif
