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
#include "perf.h"
#include "perf_pmu.h"
#include "engine.h"
#include "cpumodel.h"
#include "layout.h"
#include "machine.h"
#include "mmio.h"
#include "msr.h"
#include "msr_allow.h"
#include "msr_source.h"
#include "perf_source.h"
#include "topo.h"

struct emu;
struct emu_perf;

/* The kinds of file a run reads beside the counters (source_files). */
enum source_files_kind { SOURCE_FILES_WHO, SOURCE_FILES_THROTTLE, SOURCE_NFILES };

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
	/* what each source reads of it (engine_config.source_cfg: source_engine_config fills them) */
	struct msr_source_config msr_cfg;
	struct perf_source_config perf_cfg;
	struct emu_perf *perf_kernel; /* --sim: the emulated kernel */
	const struct perf_sys *perf_sys; /* NULL: the kernel's system calls */
	bool perf_task;              /* counting one command, not whole CPUs (engine_attach) */
};

/*
 * Open the register device of machine M (machine.h): its device files (this
 * machine's, a --root tree's) or the emulated machine's registers.  0, or
 * -errno with one line in ERR saying what to do.
 */
int source_open(const struct machine *m, struct source **out, char *err, size_t errlen);

/*
 * The perf source of M: this machine's (ROOT's sysfs) kernel through
 * perf_event_open(2), or the emulated machine's kernel.  No register device
 * is opened and nothing is written.  TASK_OK: a command will run under
 * pmutop, so where this user may count only their own processes
 * (perf_event_paranoid 1 or 2) the source counts that command (perf_task).
 * 0, or -errno with one line in ERR: -ENODEV no core PMU, -EACCES the
 * kernel does not let this user count every CPU (nor a command, or there
 * is none).
 */
int source_open_perf(const struct machine *m, bool task_ok, struct source **out, char *err,
		     size_t errlen);

/*
 * The counter sources --source names, in the order --help lists them
 * (source_kinds[], ended by an entry without a name).  A new source is its
 * files, its operation tables (source_ops.h) and one entry here; --source,
 * --help and the sessions take it from the list.
 */
struct source_kind {
	const char *name;  /* --source NAME */
	const char *about; /* what it counts through, for --help */
	bool kernel;       /* counts through the kernel: events are named as perf names them */
	bool task;         /* can count one command alone (--command-only) */
	/* M's counters this way; TASK_OK: a command will run under pmutop (source_open_perf) */
	int (*open)(const struct machine *m, bool task_ok, struct source **out, char *err,
		    size_t errlen);
};

extern const struct source_kind source_kinds[];

/* The same over an emulator made by the caller (the source takes EMU): registers, or PERF. */
int source_open_emu(struct emu *emu, bool perf, struct source **out, char *err, size_t errlen);

/*
 * What the engine needs of S: topology, register device or perf kernel,
 * counters, uncore, name, its clock (the rest of EC, the run's choices, is
 * the caller's).
 */
void source_engine_config(struct source *s, struct engine_config *ec);

/*
 * A stepped source (source.stepped): its machine's time moves by DT seconds.
 * 0, or -EINVAL for a machine that keeps no time of its own.
 */
int source_advance(struct source *s, double dt);

/* Restore every register written, close, free. */
void source_close(struct source *s);

/* The kernel of the open source S (whatever counts through it), for its PMUs' descriptions. */
void source_kernel(const struct source *s, const char *root, struct machine_kernel *k);
void source_kernel_done(struct machine_kernel *k);

/*
 * The files of KIND a run reads beside the counters on S's machine: under
 * ROOT (the machine's), or where the machine writes its own (an emulated
 * machine's, in a private directory, brought up to date before each look).
 */
struct source_files {
	const char *root;                /* read under it (NULL: this machine) */
	void (*refresh)(void *ctx);      /* before each look, or NULL */
	void *refresh_ctx;
	const char *unavailable;         /* nothing of the kind here: why, or NULL */
	bool own;                        /* the machine's own files: nothing is to be made in them */
};

/* 0, or -errno with ERR (the private directory could not be made). */
int source_files(struct source *s, const char *root, enum source_files_kind kind,
		 struct source_files *out, char *err, size_t errlen);
/* Remove the files S's machine wrote (source_close does). */
void source_files_close(struct source *s);

/*
 * The CPU identity of machine M without opening any register.  0, or
 * -errno with one line in ERR.
 */
int source_identify(const struct machine *m, struct cpuid_info *info, char *err, size_t errlen);

/*
 * Print, in msr-safe's allowlist format, the registers pmutop may write on
 * the CPU INFO (source_identify's; every CBo slice a Skylake client part can
 * have), under a line naming it as KIND (the session's words).  0, or
 * -errno with one line in ERR (a CPU without Intel's architectural perfmon).
 */
int source_print_msr_safe_allowlist(const struct cpuid_info *info, const char *kind, FILE *out,
				    char *err, size_t errlen);

/*
 * Print machine M's topology, WIDTH columns wide (an emulated machine's
 * headed SIMULATED).  0, or -errno with ERR (-EIO: its files unreadable).
 */
int source_print_topology(const struct machine *m, FILE *out, int width, char *err, size_t errlen);
/*
 * The core events of layout L machine M does not model (they count 0): *OUT,
 * one flag per layout event (free it), NULL for a real machine (the
 * hardware has them all); or an error.
 */
int source_unmodelled(const struct machine *m, const struct layout *l, bool **out, char *err,
		      size_t errlen);
/* The same for the open source S: the flags (free them), NULL for a real machine. */
bool *source_unmodelled_of(const struct source *s, const struct layout *l);
/* The same for the emulated machine E: the flags (free them). */
bool *source_emu_unmodelled(const struct emu *e, const struct layout *l);

#endif
