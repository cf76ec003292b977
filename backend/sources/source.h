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
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cpuid.h"
#include "engine.h"
#include "cpumodel.h"
#include "layout.h"
#include "machine.h"
#include "topo.h"

struct emu;
struct perf_pmus;
struct perf_sys;
struct perf_access;
struct perf_pmu;

/* Which files a run reads beside the counters (source_files). */
enum source_files_kind { SOURCE_FILES_WHO, SOURCE_FILES_THROTTLE, SOURCE_NFILES };

/* An open counter source: its fields are the sources' own (source_int.h). */
struct source;

/* What the session may know of an open source (source_facts). */
struct source_facts {
	const struct topo *topo;
	const struct cpuid_info *info;
	const struct cpumodel *model; /* this CPU's row, or NULL (architectural fallback) */
	enum cpumodel_uncore uncore;
	int channels;                 /* memory channels per socket (the uncore's) */
	unsigned dram_mts;            /* DIMM transfers per second / 1e6 when known, else 0 */
	const char *name;             /* "msr", "msr_safe", "perf", "SIMULATED nehalem-ep:..." */
	const char *machine;          /* the emulated machine's name, NULL a real one */
	bool simulated;
	bool stepped;                 /* its machine keeps its own time (source_advance moves it) */
	bool kernel;                  /* the kernel counts (perf_event_open): no register written */
	bool exclusive;               /* writes this machine's registers: one pmutop at a time */
	bool e_cores;                 /* the kernel has an E-core PMU (cpu_atom) */
};

void source_facts(const struct source *s, struct source_facts *out);

/*
 * The counters others use on S's machine (ROOT), seen from its registers
 * (owner.h): the union over CPUs of the general-purpose (*GP) and fixed
 * (*FIXED) counters taken, each socket's uncore (UNCORE[k] for the first
 * NUNCORE sockets; UNCORE may be NULL) and in WHAT (LEN) who holds what, ""
 * when all are free.  0, or -errno.  A source through the kernel has none
 * to scan (the kernel shares them): nothing taken.
 */
int source_taken(const struct source *s, const char *root, uint32_t *gp, uint32_t *fixed,
		 bool *uncore, int nuncore, char *what, size_t len);

/*
 * One pmutop programs a machine's registers at a time (lock.h): for a
 * source that writes them (source_facts' exclusive), lock ROOT's counters,
 * held by S until source_unlock (or source_close).  0, or -errno with ERR
 * ("another pmutop (pid N) ..."); 0 and nothing for any other source.
 */
int source_lock(struct source *s, const char *root, char *err, size_t errlen);
/* Let the lock go, once the registers are back and the guardian released. */
void source_unlock(struct source *s);
/* Whether S holds its machine's lock. */
bool source_locked(const struct source *s);
/* The process holding ROOT's counters' lock (as /proc/locks names it), 0 when none or unknown. */
pid_t source_lock_holder(const char *root);

/*
 * Before S writes its first register: the guardian that puts them back
 * whatever kills pmutop (guardian.h).  0, or -errno with ERR.
 */
int source_guard(struct source *s, char *err, size_t errlen);

/* Put back every register S wrote, saying on stderr what could not be: how many failed. */
int source_restore(struct source *s);
/* Every register restored (source_restore): the guardian goes without touching any. */
void source_guard_release(void);
/*
 * From a fatal signal's handler: every register written back, and when none
 * failed the guardian let go (async-signal-safe).
 */
void source_emergency_restore(void);

/* Append to BUF (LEN) what S's way of counting means for the run, a line each. */
void source_notes(const struct source *s, char *buf, size_t len);

/* Count only the command run under pmutop (a source whose kind has task). */
void source_count_command(struct source *s);
bool source_counts_command(const struct source *s);
/* Counting a command, the kernel lets this user count its user mode only (paranoid 2). */
bool source_command_user_only(const struct source *s);

/*
 * What a collector counting through S's kernel needs of it (the who
 * collector's): its system calls, what this user may count, the core PMU
 * and each CPU's PMU type (a hybrid's; NULL for one kind).
 */
struct source_kernel_counters {
	const struct perf_sys *sys;
	const struct perf_access *access;
	const struct perf_pmu *cpu;
	const unsigned *cpu_type;
	int ntypes;
};

/* S's kernel's counters into *OUT: false (nothing said) for a source that is not the kernel's. */
bool source_kernel_counters(struct source *s, struct source_kernel_counters *out);

/* The PMUs of S's kernel (perf_pmus.h): 0, or -errno with ERR. */
int source_pmus(const struct source *s, struct perf_pmus *p, char *err, size_t errlen);

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
 * (perf_event_paranoid 1 or 2) the source counts that command (kern.task).
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

/* ---- what the kernel's PMUs say (source_pmus.c; session.h says what each is for) ---- */

/* session_print_pmus: M's kernel's PMUs, to OUT.  0, or -errno with ERR. */
int source_pmus_print(const struct machine *m, FILE *out, char *err, size_t errlen);
/* session_write_sysfs: M's kernel's PMUs as sysfs files under DIR.  0, or -errno with ERR. */
int source_pmus_write_sysfs(const struct machine *m, const char *dir, FILE *out, char *err,
			    size_t errlen);
/* session_kernel_uncore: the uncore kinds M's kernel has, of *EXPECTED; -1 unreadable. */
int source_pmus_uncore(const struct machine *m, bool amd, int *expected, char *buf, size_t len);
/*
 * The box kinds only the kernel's drivers reach (layout_pmu_kinds' kernel_only)
 * that S's kernel has (source_kernel: sysfs under ROOT, or the machine's own):
 * bit k for LAYOUT_PMU k.
 */
uint32_t source_pmus_kinds(const struct source *s, const char *root);

/* The uncore boxes of a socket, and the power PMU's domains, as S's kernel has them. */
struct source_boxes {
	int chas, channels, upi_links;
	int imc_free;                    /* a client's free-running memory-controller PMUs */
	unsigned rapl;                   /* PERFMON_RAPL_* bits of the power PMU's events */
};
/* Into B; whether S's machine has a kernel to ask (false: B all 0). */
bool source_pmus_boxes(const struct source *s, const char *root, struct source_boxes *b);

/*
 * A layout event as perf stat -e takes it through M's kernel's PMUs
 * (session_kernel_event says how): open the kernel's descriptions (NULL
 * when they cannot be), encode, close.
 */
struct source_terms;
struct source_terms *source_terms_open(const struct machine *m);
void source_terms_close(struct source_terms *t);
int source_terms_event(struct source_terms *t, const struct layout_event *ev,
		       enum layout_coretype coretype, char *buf, size_t len);

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
