/*
 * cpuid: identify the CPU and its architectural performance monitoring.
 *
 * The CPUID leaves come from a source: the cpuid instruction on this
 * machine, the Linux cpuid driver's file (/dev/cpu/N/cpuid, 16 bytes at
 * offset leaf | subleaf << 32) under a root prefix, or a table of an
 * emulated machine.  Decoding is the same for all three.  Main thread, at
 * start-up.
 */
#ifndef PMUTOP_CPUID_H
#define PMUTOP_CPUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whose CPU: the vendor string of leaf 0 ("GenuineIntel", "AuthenticAMD"). */
enum cpuid_vendor { CPUID_VENDOR_OTHER, CPUID_VENDOR_INTEL, CPUID_VENDOR_AMD };

enum cpuid_uarch {
	CPUID_UARCH_UNKNOWN,  /* no row in the CPU table and no architectural perfmon */
	CPUID_UARCH_ARCH,     /* any Intel CPU with architectural perfmon: the fallback */
	CPUID_UARCH_CORE2,
	CPUID_UARCH_NEHALEM,
	CPUID_UARCH_WESTMERE,
	CPUID_UARCH_SKYLAKE,  /* Skylake client */
	/* AMD: counted through the kernel's perf with the events of the Linux perf tool's data */
	CPUID_UARCH_ZEN2,
	CPUID_UARCH_ZEN3,
	CPUID_UARCH_ZEN4,
	CPUID_UARCH_ZEN5,
};

/* The architectural events seed 004 Table 19-1 defines (CPUID.0AH:EBX bits 0-6). */
#define CPUID_ARCH_EVENTS 7

struct cpuid_info {
	char vendor[13];
	enum cpuid_vendor vendor_id;
	unsigned family, model, stepping; /* family and model with the extended fields folded in */
	/* a hybrid part (CPUID.07H:EDX[15]): the type of the core read (CPUID.1AH:EAX[31:24]) */
	bool hybrid;
	unsigned core_type;
	char brand[49];
	bool hypervisor;                  /* CPUID.1:ECX[31] */
	/*
	 * Intel: CPUID leaf 0xA, zero when the CPU has no architectural
	 * perfmon.  AMD (perfmon_version 0): the core counters of leaf
	 * 80000022H (PerfMonV2) or 80000001H:ECX[23] (six with the core
	 * extension, else four), 48 bits wide.
	 */
	unsigned perfmon_version;
	unsigned gp_counters, gp_width;
	unsigned fixed_counters, fixed_width;
	/*
	 * Bit n set: architectural event n (seed 004 Table 19-1 order: core
	 * cycles, instructions, reference cycles, LLC references, LLC misses,
	 * branches, branch misses) is not available, because CPUID.0AH:EBX
	 * says so or n >= EAX[31:24] (the length of that bit vector).
	 */
	uint32_t arch_events_absent;
	unsigned arch_events_len;         /* CPUID.0AH:EAX[31:24] */
	/*
	 * Version 6's select extensions, CPUID.23H.0:EBX: bit 0 UMASK2 (a second
	 * umask at 47:40), bit 1 EQ (pmu_regs.h).  Linux enumerates them so
	 * (arch/x86/events/intel/core.c, update_pmu_cap).
	 */
	bool evtsel_umask2, evtsel_eq;
	/*
	 * The microarchitecture, which the CPU table says (cpumodel_classify,
	 * after cpuid_identify and cpuid_assume): UNKNOWN until then
	 */
	enum cpuid_uarch uarch;
	const char *uarch_name;           /* "Nehalem", "Westmere", "Skylake client", ... */
};

/* CPUID's vendor string of VENDOR ("GenuineIntel", "AuthenticAMD"; "" another). */
const char *cpuid_vendor_string(enum cpuid_vendor vendor);

/*
 * The CPU a --cpu FAMILY_MODEL names, without CPUID: INFO's vendor from the
 * family (AMD's 10h-11h, 14h-17h, 19h, 1Ah; else Intel) and its counters as
 * every such part has them (Intel: 4 per thread, perfmon v3; AMD: 6).
 */
void cpuid_assume(unsigned family, unsigned model, unsigned stepping, struct cpuid_info *info);

/* One CPUID query: fill REGS with eax, ebx, ecx, edx.  0 or -errno. */
typedef int (*cpuid_leaf_fn)(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* The cpuid instruction of the CPU we run on (CTX unused). */
int cpuid_leaf_native(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* The cpuid driver file; CTX is an int * holding an open fd of /dev/cpu/N/cpuid. */
int cpuid_leaf_file(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/*
 * Read and decode, whatever the CPU: which counters each source can use is
 * the source's to judge (cpuid_check_intel_perfmon for the registers; the
 * kernel's PMUs for perf).  Returns 0, or -errno from the source with one
 * line in ERR.
 */
int cpuid_identify(cpuid_leaf_fn leaf, void *ctx, struct cpuid_info *info, char *err, size_t errlen);

/*
 * Whether INFO's CPU has the Intel architectural performance monitoring
 * the register source programs: 0, or -ENOTSUP with one line in ERR saying
 * which CPU it is and what to do (another vendor: the perf source; a
 * virtual machine without a virtual PMU: enable one, or --sim).
 */
int cpuid_check_intel_perfmon(const struct cpuid_info *info, char *err, size_t errlen);

/*
 * Identify CPU 0 of the machine under ROOT ("/" = this one): through
 * ROOT/dev/cpu/0/cpuid when ROOT is not "/", else the cpuid instruction.
 */
int cpuid_identify_root(const char *root, struct cpuid_info *info, char *err, size_t errlen);

/* "Nehalem" etc., for UARCH. */
const char *cpuid_uarch_name(enum cpuid_uarch uarch);

#endif
