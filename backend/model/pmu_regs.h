/*
 * pmu_regs: addresses and bit fields of every performance-monitoring
 * register pmutop reads or writes, with SDM names and where each comes from.
 * Nothing else in pmutop spells a register number.
 *
 * Sources:
 *  [A2]  seed 000, Appendix II "PMU Programming", Table 1 (PerfEvtSelX bits)
 *  [S1]  seed 001, Skylake client uncore manual, Table 2-1 and 2.2-2.4,
 *        Table 3-3 (IMC free-running counters)
 *  [T19] seed 004, SDM Vol. 3B Table 19-2 (fixed counters 309H-30BH)
 *  [O]   seed 002, pmc.corei7(3): OFFCORE_RESPONSE uses MSR 01A6H (and
 *        01A7H for the second one on Westmere)
 *  [SDM] Intel SDM Vol. 3B ch. 18 (architectural PMU: global control,
 *        status and overflow registers; Nehalem uncore MSRs), not among
 *        the seeds; the values are the ones Linux's perf uses too.
 */
#ifndef PMUTOP_PMU_REGS_H
#define PMUTOP_PMU_REGS_H

#include <stdint.h>

/* ---- core PMU, architectural [SDM], [T19] ---------------------------- */
#define IA32_PMC0                  0x0C1u /* + n, general-purpose counters */
#define IA32_PERFEVTSEL0           0x186u /* + n, their event selects */
#define IA32_FIXED_CTR0            0x309u /* INST_RETIRED.ANY [T19] */
#define IA32_FIXED_CTR1            0x30Au /* CPU_CLK_UNHALTED.THREAD [T19] */
#define IA32_FIXED_CTR2            0x30Bu /* CPU_CLK_UNHALTED.REF [T19] */
#define IA32_FIXED_CTR3            0x30Cu /* TOPDOWN.SLOTS, Ice Lake and later [SDM] */
/*
 * MSR_PERF_METRICS [SDM 20.3.9.3 "Performance Metrics"; Intel's perfmon
 * data]: eight 8-bit fields, each a fraction (of 0xFF) of the slots fixed
 * counter 3 counted since both were last cleared: retiring, bad
 * speculation, front-end bound, back-end bound (Ice Lake and later), then
 * heavy operations, branch mispredicts, fetch latency, memory bound
 * (Sapphire Rapids and later; zero before).  Software clears both
 * together, which the kernel does at each read.
 */
#define MSR_PERF_METRICS           0x329u
#define PERF_METRICS_FIELDS        8
#define PERF_METRICS_FIELD(v, k)   (((v) >> (8u * (unsigned)(k))) & 0xFFu)
/* IA32_PERF_CAPABILITIES [SDM]: bit 15 says MSR_PERF_METRICS exists. */
#define IA32_PERF_CAPABILITIES     0x345u
#define PERF_CAP_PERF_METRICS      (1ull << 15)
#define IA32_FIXED_CTR_CTRL        0x38Du
#define IA32_PERF_GLOBAL_STATUS    0x38Eu
#define IA32_PERF_GLOBAL_CTRL      0x38Fu
#define IA32_PERF_GLOBAL_OVF_CTRL  0x390u
#define MSR_OFFCORE_RSP_0          0x1A6u /* [O] */
#define MSR_OFFCORE_RSP_1          0x1A7u /* [O], Westmere and later */
/*
 * Writable bits of MSR_OFFCORE_RSP_x: Nehalem/Westmere's matrix is "the 16
 * bit field" of request type (7:0) and response type (15:8) [seed 000];
 * Skylake's request/supplier/snoop fields end at bit 37 [SDM].
 */
#define OFFCORE_RSP_NHM_MASK       0xFFFFull
#define OFFCORE_RSP_SKL_MASK       0x3FFFFFFFFFull
/*
 * Lion Cove (Lunar Lake 06_BD, Arrow Lake 06_C5/C6) uses bits up to 43:
 * Linux widened its mask for the events Intel released (intel_lnc_extra_regs,
 * "perf/x86/intel: Fix bitmask of OCR and FRONTEND events for LNC", 6.13).
 * Panther Lake (06_CC) and Wildcat Lake (06_D5) take Lunar Lake's path in the
 * kernel (intel_pmu_init: "goto lnl_common"), its masks with it.
 */
#define OFFCORE_RSP_LNC_MASK       0xFFFFFFFFFFFull

/*
 * The writable bits of MSR_OFFCORE_RSP_x on a core of Intel's data (family 6,
 * MODEL), as the kernel's tables give them.  A model they do not name has
 * Skylake's; the register source adds the bits its data's events set
 * (msr_allow.c), the vendor's word for a platform newer than this list.
 */
static inline uint64_t pmu_offcore_mask(unsigned family, unsigned model)
{
	return family == 6 && (model == 0xBD || model == 0xC5 || model == 0xC6 || model == 0xCC ||
			       model == 0xD5)
	       ? OFFCORE_RSP_LNC_MASK : OFFCORE_RSP_SKL_MASK;
}
#define IA32_MISC_ENABLE           0x1A0u /* never written: the allowlist test's witness */
/*
 * MSR_PEBS_FRONTEND [SDM; Intel's perfmon data: MSRIndex 0x3F7]: what
 * FRONTEND_RETIRED (and on Sapphire Rapids a few other events) count: the
 * event select in bits 7:0, the IDQ bubble length and width in 19:8 and
 * 22:20 (Skylake and later).  One value per core for every counter.
 */
#define MSR_PEBS_FRONTEND          0x3F7u
#define PEBS_FRONTEND_MASK         0x7FFFFFull
#define IA32_TIME_STAMP_COUNTER    0x010u /* read only by pmutop [SDM] */
#define MSR_PLATFORM_INFO          0x0CEu /* bits 15:8 maximum non-turbo ratio [SDM] */

/*
 * RAPL, read only [SDM 15.10]: the units (energy status bits 12:8, a count
 * is 1/2^ESU J), the package's, DRAM's and the cores' (PP0) energy status
 * (bits 31:0, a total that wraps).  The DRAM domain of the servers counts
 * in 15.3 uJ whatever ESU says [SDM 15.10.5, Linux's rapl driver].
 */
#define MSR_RAPL_POWER_UNIT        0x606u
#define RAPL_ESU(v)                (((v) >> 8) & 0x1F)
#define MSR_PKG_ENERGY_STATUS      0x611u
#define MSR_DRAM_ENERGY_STATUS     0x619u
#define MSR_PP0_ENERGY_STATUS      0x639u
/*
 * The platform's energy (psys) [SDM: MSR_PLATFORM_ENERGY_COUNTER]: on a
 * machine of several packages only the platform's master package reads it,
 * the others 0, and the master is not always package 0 (Linux 2020,
 * "powercap/intel_rapl: enumerate Psys RAPL domain together with package
 * RAPL domain"); the sockets' sum is the platform's
 */
#define MSR_PLATFORM_ENERGY_STATUS 0x64Du
#define RAPL_SERVER_DRAM_UNIT_J    15.3e-6

#define PMU_MAX_GP      8 /* most general-purpose counters any model has */
#define PMU_MAX_FIXED   4 /* instructions, cycles, reference cycles, slots */

/*
 * IA32_PERFEVTSELx [A2]:
 *  63      32 31   24 23  22  21  20  19 18  17  16  15    8 7      0
 * +----------+-------+---+---+---+---+--+---+---+---+-------+--------+
 * | reserved | CMASK |INV|EN |ANY|INT|PC| E |OS |USR| UMASK | EVTSEL |
 * +----------+-------+---+---+---+---+--+---+---+---+-------+--------+
 */
#define EVTSEL_EVENT_SHIFT 0
#define EVTSEL_EVENT_MASK  0xFFull
#define EVTSEL_UMASK_SHIFT 8
#define EVTSEL_UMASK_MASK  0xFF00ull
#define EVTSEL_USR         (1ull << 16)
#define EVTSEL_OS          (1ull << 17)
#define EVTSEL_EDGE        (1ull << 18)
#define EVTSEL_INT         (1ull << 20)
#define EVTSEL_ANY         (1ull << 21)
#define EVTSEL_EN          (1ull << 22)
#define EVTSEL_INV         (1ull << 23)
#define EVTSEL_CMASK_SHIFT 24
#define EVTSEL_CMASK_MASK  0xFF000000ull
/*
 * Architectural performance monitoring version 6 may add EQ, bit 36 (where
 * CPUID.23H.0:EBX[1] says so): the counter-mask comparison is "equal to
 * CMASK" instead of "at least" (Linux's cpu PMU format "eq=config:36",
 * "v6 +", arch/x86/events/intel/core.c).  Intel's metrics write it ":eq1".
 */
#define EVTSEL_EQ          (1ull << 36)
/* and UMASK2, bits 47:40 (CPUID.23H.0:EBX[0]): the vendor's UMaskExt, the umask's second byte */
#define EVTSEL_UMASK2_SHIFT 40
#define EVTSEL_UMASK2_MASK  (0xFFull << EVTSEL_UMASK2_SHIFT)
/*
 * AMD's PerfEvtSel (AMD64 APM Vol. 2, 13.2.1) has the same low fields and
 * a 12-bit event select: EventSelect[11:8] in bits 35:32.
 */
#define AMD_EVTSEL_EVENT_HI_SHIFT 32
#define AMD_EVENT_MAX             0xFFFu
#define AMD_EVTSEL_EVENT_HI_MASK  (0xFull << AMD_EVTSEL_EVENT_HI_SHIFT)
/*
 * The free-running clocks and instruction count every Zen has (APM Vol. 2
 * 17.3, PPR): MPERF (P0 reference clock while in C0), APERF (actual clock
 * while in C0), IRPerfCount (instructions retired, CPUID 80000008H:EBX[1]).
 * Linux's msr PMU reads them as its events mperf (2), aperf (1), irperf (6).
 */
#define IA32_MPERF                0x0E7u
#define IA32_APERF                0x0E8u
#define MSR_AMD_IRPERF_COUNT      0xC00000E9u

/* IA32_FIXED_CTR_CTRL [SDM]: 4 bits per fixed counter n at bit 4n. */
#define FIXED_CTRL_OS      0x1ull
#define FIXED_CTRL_USR     0x2ull
#define FIXED_CTRL_ANY     0x4ull
#define FIXED_CTRL_PMI     0x8ull
#define FIXED_CTRL_SHIFT(n) (4u * (unsigned)(n))

/* IA32_PERF_GLOBAL_CTRL / STATUS / OVF_CTRL [SDM]: PMC n at bit n, fixed n at 32+n. */
#define GLOBAL_PMC(n)      (1ull << (n))
#define GLOBAL_FIXED(n)    (1ull << (32u + (unsigned)(n)))
#define GLOBAL_PERF_METRICS (1ull << 48) /* EN_PERF_METRICS [SDM] */

/* ---- Nehalem / Westmere uncore, per socket [SDM] ------------------------ */
#define MSR_UNCORE_PERF_GLOBAL_CTRL     0x391u
#define MSR_UNCORE_PERF_GLOBAL_STATUS   0x392u
#define MSR_UNCORE_PERF_GLOBAL_OVF_CTRL 0x393u
#define MSR_UNCORE_FIXED_CTR0           0x394u /* uncore clock, 48 bits */
#define MSR_UNCORE_FIXED_CTR_CTRL       0x395u
#define MSR_UNCORE_PMC0                 0x3B0u /* + n, n < 8, 48 bits */
#define MSR_UNCORE_PERFEVTSEL0          0x3C0u /* + n */
#define NHM_UNC_COUNTERS   8
#define NHM_UNC_WIDTH      48
/* global ctrl/status: PMC n at bit n, fixed counter at bit 32 */
#define NHM_UNC_GLOBAL_FIXED (1ull << 32)
/* MSR_UNCORE_FIXED_CTR_CTRL: bit 0 enable, bit 2 PMI */
#define NHM_UNC_FIXED_EN   (1ull << 0)
/* uncore event select: like the core one without USR/OS/ANY; bit 17 resets an occupancy counter */
#define NHM_UNC_EVTSEL_OCC_CTR_RST (1ull << 17)

/* ---- Skylake client uncore, per socket [S1] ----------------------------- */
#define MSR_UNC_PERF_GLOBAL_CTRL    0xE01u
#define MSR_UNC_PERF_GLOBAL_STATUS  0xE02u
#define MSR_UNC_PERF_FIXED_CTRL     0x394u
#define MSR_UNC_PERF_FIXED_CTR      0x395u /* UCLK, 48 bits */
#define MSR_UNC_CBO_CONFIG          0x396u /* RO: NO_CBO_BANKS in bits 3:0 */
#define MSR_UNC_ARB_PERFCTR0        0x3B0u
#define MSR_UNC_ARB_PERFCTR1        0x3B1u
#define MSR_UNC_ARB_PERFEVTSEL0     0x3B2u
#define MSR_UNC_ARB_PERFEVTSEL1     0x3B3u
#define MSR_UNC_CBO_0_PERFEVTSEL0   0x700u /* box n: + 0x10 n; counter k: + k */
#define MSR_UNC_CBO_0_PERFCTR0      0x706u
#define SKL_UNC_CBO_STRIDE          0x10u
#define SKL_UNC_MAX_CBO             4
#define SKL_UNC_BOX_COUNTERS        2
#define SKL_UNC_WIDTH               44 /* CBo and ARB counters */
#define SKL_UNC_FIXED_WIDTH         48
/* MSR_UNC_PERF_GLOBAL_CTRL bit 29 EN [S1 Table 2-2] */
#define SKL_UNC_GLOBAL_EN           (1ull << 29)
/*
 * MSR_UNC_PERF_GLOBAL_STATUS [S1 Table 2-3]: FIXED_CTR_OVF bit 0,
 * ARB_CTR_OVF bit 1, CBO_CTR_OVF bit 3.  The text extraction prints "31" for
 * the CBo bit, but the same table reserves 63:4 and 2, which leaves bit 3.
 */
#define SKL_UNC_STATUS_FIXED        (1ull << 0)
#define SKL_UNC_STATUS_ARB          (1ull << 1)
#define SKL_UNC_STATUS_CBO          (1ull << 3)
/* MSR_UNC_PERF_FIXED_CTRL: CNT_EN bit 22, OVF_EN bit 20 [S1 Table 2-4] */
#define SKL_UNC_FIXED_CNT_EN        (1ull << 22)
/* CBo/ARB event select [S1 Table 2-7]: EVT_SEL 7:0, UMASK 15:8, E 18, OVF_EN 20, EN 22, INV 23, THR 28:24 */
#define SKL_UNC_EVTSEL_THR_MASK     0x1F000000ull

/* Skylake client IMC free-running counters, MMIO [S1 Table 3-3] */
#define SKL_IMC_BAR_PCI_OFFSET      0x48u            /* in 0000:00:00.0 config space */
#define SKL_IMC_BAR_MASK            0x0007FFFFF8000ull
#define SKL_IMC_DRAM_GT_REQUESTS    0x5040u
#define SKL_IMC_DRAM_IA_REQUESTS    0x5044u
#define SKL_IMC_DRAM_IO_REQUESTS    0x5048u
#define SKL_IMC_DRAM_DATA_READS     0x5050u
#define SKL_IMC_DRAM_DATA_WRITES    0x5054u
#define SKL_IMC_WIDTH               32
#define SKL_IMC_MMIO_SIZE           0x6000u          /* bytes mapped from the BAR */

/* All ones in the low WIDTH bits. */
static inline uint64_t pmu_width_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

#endif
