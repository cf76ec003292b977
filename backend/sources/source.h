/*
 * source: the counter source a run measures, opened in one call.
 *
 * Either an emulated machine (--sim: the emulator behind the register
 * layer, labelled SIMULATED everywhere) or the msr device files of this
 * machine or of a machine root (--root DIR: the fake device tree in the
 * tests).  Either way the result is the same set of things the engine
 * needs: a topology, the CPU's identity, the write allowlist, and a
 * register layer over every online CPU with uncore registers mapped to
 * sockets.  Main thread.
 */
#ifndef PMUTOP_SOURCE_H
#define PMUTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpuid.h"
#include "emu_perf.h"
#include "perf.h"
#include "perf_pmu.h"
#include "emu.h"
#include "engine.h"
#include "cpumodel.h"
#include "mmio.h"
#include "msr.h"
#include "msr_allow.h"
#include "topo.h"

struct source {
	struct emu *emu;             /* --sim only */
	struct topo *own_topo;       /* device files only */
	const struct topo *topo;
	struct cpuid_info info;
	struct msr_allowlist allow;
	struct msr_dev *dev;
	const struct cpumodel *model; /* this CPU's row, or NULL (architectural fallback) */
	enum cpumodel_uncore uncore;
	int channels;                /* memory channels per socket (the uncore's) */
	unsigned dram_mts;           /* DIMM transfers per second / 1e6 when known (emulated, SMBIOS), 0 */
	struct mmio *mmio;           /* Skylake client IMC window, or NULL */
	char mmio_why[400];          /* why there is none, when the uncore has one */
	bool simulated;
	char name[160];              /* "msr", "msr_safe", "perf", "SIMULATED nehalem-ep:memory-bound" */
	/* the perf source (source_open_perf): no register device, the kernel counts */
	bool perf;
	struct perf_pmu perf_cpu;    /* the core PMU's formats */
	/*
	 * The kernel's msr PMU (free-running APERF, MPERF, IRPerfCount) where a
	 * CPU without fixed counters (AMD) has it: the built-ins it names from there
	 */
	struct perf_pmu perf_msr;
	bool have_msr;
	/* a hybrid kernel's E-core PMU (cpu_atom; perf_cpu is then cpu_core) */
	struct perf_pmu perf_atom;
	bool have_atom;
	/* its low-power E-cores' PMU (cpu_lowpower: Arrow Lake-H's SoC-tile cores) */
	struct perf_pmu perf_lowpower;
	bool have_lowpower;
	/* each CPU's kind of core (LAYOUT_CORES_*, by OS CPU number), NULL on a CPU of one kind */
	unsigned char *cpu_kind;
	int ncpu_kind;
	struct perf_access perf_access;
	struct emu_perf *perf_kernel; /* --sim: the emulated kernel */
	const struct perf_sys *perf_sys; /* NULL: the kernel's system calls */
	bool perf_task;              /* counting one command, not whole CPUs (engine_attach) */
};

/*
 * Open SIM ("MACHINE[:SCENARIO|:PATH]") when not NULL, else the device
 * files under ROOT (NULL or "/" for this machine).  0, or -errno with one
 * line in ERR saying what to do.  -EINVAL means bad input (a --sim spec).
 */
int source_open(const char *sim, const char *root, struct source **out, char *err, size_t errlen);

/*
 * The perf source: SIM (an emulated machine behind an emulated kernel),
 * EMU (the same, made by the caller, taken), or this machine's (ROOT's
 * sysfs) kernel through perf_event_open(2).  No register device is opened
 * and nothing is written.  TASK_OK: a command will run under pmutop, so
 * where this user may count only their own processes (perf_event_paranoid
 * 1 or 2) the source counts that command (perf_task).  0, or -errno with
 * one line in ERR: -ENODEV no core PMU, -EACCES the kernel does not let
 * this user count every CPU (nor a command, or there is none).
 */
int source_open_perf(const char *sim, struct emu *emu, const char *root, bool task_ok,
		     struct source **out, char *err, size_t errlen);

/* The same over an emulator made by the caller (the source takes EMU). */
int source_open_emu(struct emu *emu, struct source **out, char *err, size_t errlen);

/*
 * What the engine needs of S: topology, register device or perf kernel,
 * counters, uncore, name (the rest of EC, the run's choices, is the caller's).
 */
void source_engine_config(const struct source *s, struct engine_config *ec);

/* Restore every register written, close, free. */
void source_close(struct source *s);

/*
 * The CPU identity of the --sim machine SIM, or of the machine under ROOT
 * (NULL: this one), without opening any register.  0, or -errno with one
 * line in ERR; -EINVAL for a bad SIM.
 */
int source_identify(const char *sim, const char *root, struct cpuid_info *info, char *err,
		    size_t errlen);

/*
 * Print, in msr-safe's allowlist format, the registers pmutop may write on
 * that CPU (every CBo slice a Skylake client part can have).  As
 * source_identify.
 */
int source_print_msr_safe_allowlist(const char *sim, const char *root, FILE *out, char *err,
				    size_t errlen);

/* Print the emulated machine SIM's topology, headed SIMULATED, WIDTH columns wide. */
int source_print_sim_topology(const char *sim, FILE *out, int width, char *err, size_t errlen);
/*
 * The core events of layout L the emulated machine SIM does not model (they
 * count 0): *OUT, one flag per layout event (free it), or an error.
 */
int source_sim_unmodelled(const char *sim, const struct layout *l, bool **out, char *err,
			  size_t errlen);
/* The same for the emulated machine E: the flags (free them). */
bool *source_emu_unmodelled(const struct emu *e, const struct layout *l);

#endif
