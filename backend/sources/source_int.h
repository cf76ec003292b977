/*
 * source_int: what an open source holds, for the sources' own files (source.c,
 * source_files.c, machine.c) and the white-box tests; the session and
 * everything above it see struct source by name only and ask it through
 * source.h (source_facts and the calls after it).
 */
#ifndef PMUTOP_SOURCE_INT_H
#define PMUTOP_SOURCE_INT_H

#include "source.h"
#include "perf.h"
#include "perf_pmu.h"
#include "mmio.h"
#include "msr.h"
#include "msr_allow.h"
#include "msr_source.h"
#include "perf_source.h"
#include "lock.h"

struct emu_perf;

/*
 * The register side of a source: the write allowlist, the register device
 * (the msr device files, msr-safe, or an emulated machine's registers), the
 * Skylake client's memory-controller window, what the register source
 * reads (engine_config.source_cfg) and the single-instance lock.  Unused by
 * a source through the kernel.
 */
struct source_regs {
	struct msr_allowlist allow;
	struct msr_dev *dev;
	struct mmio *mmio;           /* Skylake client IMC window, or NULL */
	char mmio_why[400];          /* why there is none, when the uncore has one */
	struct msr_source_config cfg;
	struct lock lock;            /* one pmutop a machine: held while it writes registers (source_lock) */
};

/* The kernel's side of a source (source_open_perf): its PMUs, access rules and what perf reads. */
struct source_kern {
	struct perf_pmu cpu;         /* the core PMU's formats */
	/*
	 * The kernel's msr PMU (free-running APERF, MPERF, IRPerfCount) where a
	 * CPU without fixed counters (AMD) has it: the built-ins it names from there
	 */
	struct perf_pmu msr;
	bool have_msr;
	/* a hybrid kernel's E-core PMU (cpu_atom; cpu is then cpu_core) */
	struct perf_pmu atom;
	bool have_atom;
	/* its low-power E-cores' PMU (cpu_lowpower: Arrow Lake-H's SoC-tile cores) */
	struct perf_pmu lowpower;
	bool have_lowpower;
	struct perf_access access;
	struct perf_source_config cfg;
	struct emu_perf *emu;        /* --sim: the emulated kernel */
	const struct perf_sys *sys;  /* NULL: the kernel's system calls */
	bool task;                   /* counting one command, not whole CPUs (engine_attach) */
	unsigned *who_types;         /* each CPU's PMU type for the who collector (source_kernel_counters) */
};

struct source {
	struct emu *emu;             /* an emulated machine only */
	char machine[64];            /* the emulated machine's name, "" a real one */
	/*
	 * The machine keeps its own time and the run moves it (machine_stepped):
	 * T seconds since the start, the figures' clock (source_advance).
	 */
	bool stepped;
	double t;
	/* the files a run reads beside the counters, when the machine writes its own (source_files) */
	char files_dir[SOURCE_NFILES][256];
	struct source_files_of { struct source *s; int kind; } files_of[SOURCE_NFILES];
	struct topo *own_topo;       /* device files only */
	const struct topo *topo;
	struct cpuid_info info;
	const struct cpumodel *model; /* this CPU's row, or NULL (architectural fallback) */
	enum cpumodel_uncore uncore;
	int channels;                /* memory channels per socket (the uncore's) */
	unsigned dram_mts;           /* DIMM transfers per second / 1e6 when known (emulated, SMBIOS), 0 */
	bool simulated;
	char name[160];              /* "msr", "msr_safe", "perf", "SIMULATED nehalem-ep:memory-bound" */
	/* each CPU's kind of core (LAYOUT_CORES_*, by OS CPU number), NULL on a CPU of one kind */
	unsigned char *cpu_kind;
	int ncpu_kind;
	bool perf;                   /* through the kernel (kern), not the registers (regs) */
	struct source_regs regs;
	struct source_kern kern;
};


#endif
