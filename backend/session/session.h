/*
 * session: one measuring run, from the command line's choices to a
 * running sampler, and back to a machine with its registers restored.
 *
 * session_open() opens the counter source, picks the layout, takes the
 * single-instance lock (real machines and --root trees; an emulated machine
 * has nothing to share), scans for counters others use (left alone unless
 * forced) and programs the engine.  session_close() stops the sampler,
 * restores every register written, releases the lock.  This header and
 * sample.h are what the front ends know of the backend.  Main thread.
 */
#ifndef PMUTOP_SESSION_H
#define PMUTOP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>
#include <sys/types.h>

#include "cpuid.h"
#include "layout.h"
#include "sample.h"
#include "topo.h"

/*
 * --source: the counter source a run uses, one of the sources' list
 * (backend/sources/source.c's source_kinds[]); NULL is auto, the session's
 * choice (msr when it can be used and reaches every group, else perf).
 */
struct source_kind;

/* The source named NAME, NULL for another name ("auto" too). */
const struct source_kind *session_source_find(const char *name);
/* Source I of the list (0, 1, ...), NULL past its end. */
const struct source_kind *session_source_at(int i);
/* Its --source name ("auto" for NULL) and what it counts through (for --help). */
const char *session_source_name(const struct source_kind *k);
const char *session_source_about(const struct source_kind *k);
/* Whether K counts through the kernel (perf's event names); can count one command alone. */
bool session_source_kernel(const struct source_kind *k);
bool session_source_task(const struct source_kind *k);

struct perfmon_layout_config;

/*
 * The directory of the vendor data for INFO's CPU: PERFMON_DIR (Intel's,
 * data/intel) for Intel, AMD's (data/amd, PMUTOP_AMD_DIR) for AMD; NULL for
 * another vendor or when PERFMON_DIR is NULL (vendor data not wanted).
 */
const char *session_vendor_dir(const char *perfmon_dir, const struct cpuid_info *info);

/*
 * The layout made from the vendor's data (session_vendor_dir) for the CPU
 * INFO on the machine MC (an Intel CPU without a row in the CPU table that
 * Intel's data covers with metrics; an AMD Zen): 0 and *OUT; -ENOENT when
 * there is none to make (NOTICE says why when the data is there but
 * unusable: the caller falls back to the architectural layout).
 */
int session_vendor_layout_for(const char *perfmon_dir, const struct cpuid_info *info,
			      const struct perfmon_layout_config *mc, struct layout **out,
			      char *notice, size_t len);

/*
 * The platform the vendor's data (session_vendor_dir) names for INFO's CPU
 * ("SPR", "Zen 4") into BUF: 0, or -ENOENT (no data, or none for the model).
 */
int session_vendor_platform(const char *perfmon_dir, const struct cpuid_info *info, char *buf,
			    size_t len);

/*
 * What kind of CPU INFO is, in words for a message: the CPU table's
 * microarchitecture where it has a row (or CPUID names one), else the
 * platform the vendor's data gives its model ("SPR by Intel's data"), else
 * what CPUID says ("architectural perfmon", "unknown").  BUF holds it if
 * need be; PLAT (PLEN, or NULL) the vendor data's platform where it was
 * looked up and found, else "" (session_vendor_platform's, not read twice).
 */
const char *session_cpu_kind(const char *perfmon_dir, const struct cpuid_info *info, char *buf,
			     size_t len, char *plat, size_t plen);

struct session_config {
	/* the machine the run looks at (session_machine_open), read by session_open only */
	const struct machine *machine;
	const char *layout_path;  /* --layout FILE, or NULL */
	const char *layout_dir;   /* where the shipped layouts are */
	const char *perfmon_dir;  /* Intel's data (data/intel), NULL: the CPU table's layouts only */
	const char *groups;       /* "stalls,2" / "all" / NULL for the layout's defaults */
	double interval;
	bool user_only, kernel_only;
	bool force;
	bool force_layout;        /* --force-layout: a layout that does not name this CPU */
	unsigned dram_mts;        /* --dram-mts: DIMM speed for the bandwidth peak, 0 unknown */
	double mux_s;             /* --mux-ms: the rotation slice, 0 the engine's default */
	bool normal_priority;     /* --no-realtime: the sampler at normal priority */
	/*
	 * On a machine whose time the run moves (session_machine_open's STEPPED:
	 * an emulated one): no sampler thread and no wall clock; session_step()
	 * moves the machine and the engine on by one slice of its time, so the
	 * figures are the same on every run (--dump).  Elsewhere ignored.
	 */
	bool stepped;
	const struct source_kind *source; /* --source, NULL: auto */
	bool command;             /* a command will run under pmutop (pmutop -- COMMAND) */
	bool command_only;        /* --command-only: count it alone, through perf */
	/* who uses the machine (backend/who): --who counts per cgroup and process */
	bool who;
	bool who_wanted;          /* collect from the start (batch, a server); else session_set_who */
	int who_top;              /* --who-top: groups counted at once, 0 the default */
	int who_procs;            /* --who-procs: process rows, -1 the default */
	const char *who_resctrl;  /* --who-resctrl: cgroups to make resctrl monitoring groups for */
	bool who_topdown;         /* --who-topdown: the top-down level 1 per cgroup from the start */
};

/* A run: opaque to the front ends (session_int.h holds it for the backend). */
struct session;

/*
 * 0, or -errno with one line (or a few, for counters in use) in ERR.
 * -EINVAL: bad input the user can fix on the command line or in a file.
 */
int session_open(const struct session_config *c, struct session **out, char *err, size_t errlen);

/*
 * A session of the operating system's figures where no counter can be used
 * (REASON says why and goes into every sample): utilisation and clock per
 * CPU of the machine under C's root (NULL: this one), every C's interval
 * seconds, and who uses it (C's who settings, without counters),
 * in samples of the same form.  No register is touched.  0, or -errno with
 * one line in ERR.
 */
int session_open_os(const struct session_config *c, const char *reason, struct session **out,
		    char *err, size_t errlen);

int session_start(struct session *s);

/* Whether the who figures are wanted now (the who pane shows, a batch asks): the sampler reads them. */
void session_set_who(struct session *s, bool on);
/* Whether the top-down level 1 is counted per cgroup and process too (T in the who pane). */
void session_set_who_topdown(struct session *s, bool on);

/*
 * Whether the run counts the command alone (perf: --command-only, or a user
 * the kernel lets count only their own processes); then session_attach
 * names it once it exists (before it runs: run_config.hold), and nothing
 * is counted before.  0, or -errno with the kernel's answer in ERR.
 */
bool session_counts_command(const struct session *s);
int session_attach(struct session *s, int pid, char *err, size_t errlen);

/*
 * A stepped session (session_config.stepped): one slice of emulated time.
 * 1 when it published a sample (session_latest has it), 0 when not yet,
 * -errno on a register failure.
 */
int session_step(struct session *s);

/* What the front ends show about the machine and the source of a run. */
struct session_about {
	const char *machine;        /* the emulated machine's name, NULL for a real one */
	const char *brand;          /* CPU brand string */
	const char *uarch;          /* "Nehalem", ... */
	const char *source;         /* "msr", "msr_safe", "perf", "SIMULATED machine:scenario" */
	const char *source_why;     /* --source auto's choice and why, or "" */
	bool simulated;
	const struct topo *topo;
	unsigned gp_counters, perfmon_version;
	/* per layout event: an emulated machine does not model its encoding (it counts 0); NULL */
	const bool *unmodelled;
	/* why the CPU's platform has no top-down tree where its vendor publishes none, or NULL */
	const char *no_tree;
};

void session_about(const struct session *s, struct session_about *out);

/* The layout of the run (the OS's figures have one of their own). */
const struct layout *session_layout(const struct session *s);

/* The groups the run started with (a mask of its layout's groups). */
layout_groups session_groups(const struct session *s);

/*
 * What the front ends say about the run before its first sample: counters
 * in use, forced, the NMI watchdog, the source auto took and why ("" none;
 * lines end in '\n').
 */
const char *session_notice(const struct session *s);

/* The owner scan alone: counters others use, "" none. */
const char *session_owners(const struct session *s);

/* Whether S runs on its machine's own clock (session_config.stepped): session_step drives it. */
bool session_stepped(const struct session *s);

/* Whether S shows the OS's figures (session_open_os) rather than counters. */
bool session_is_os(const struct session *s);

/*
 * From a fatal-signal handler, or a stop signal while starting: put the
 * registers back at once (the device files' saved originals, twice) and
 * say on stderr what could not be.  Async-signal-safe; nothing when no
 * register is programmed.
 */
void session_emergency_restore(void);

/*
 * The machine a run looks at, as the command line names it: this one, a
 * machine root (ROOT, --root DIR: its device files, sysfs and procfs) or
 * the emulated machine SIM (--sim SPEC), which the backend opens the way it
 * opens a root.  STEPPED: its time moves only when the run steps it, where
 * it keeps its own (session_config.stepped).  The front ends pass it on
 * and read its label; open it once, before anything else of the machine.
 * 0, or -errno with one line in ERR (-EINVAL: a SIM that names nothing).
 */
struct machine;
int session_machine_open(const char *root, const char *sim, bool stepped, struct machine **out,
			 char *err, size_t errlen);
void session_machine_free(struct machine *m);
/* Whether its figures are emulated: SIMULATED on every one. */
bool session_machine_simulated(const struct machine *m);
/* The emulated machine's name ("nehalem-ep"), NULL for a real one. */
const char *session_machine_name(const struct machine *m);
/* The root its files are under (NULL: this machine's, or an emulated machine's own). */
const char *session_machine_root(const struct machine *m);

/*
 * What the machine is without a run: its CPU (CPUID of M's first CPU) into
 * INFO; 0 or -errno with ERR.
 */
int session_identify(const struct machine *m, struct cpuid_info *info, char *err, size_t errlen);

/*
 * --list-pmus: every PMU of M's kernel with its boxes, sockets, format
 * fields and events, then those skipped and why, to OUT.  0, or -errno with
 * ERR.
 */
int session_print_pmus(const struct machine *m, FILE *out, char *err, size_t errlen);

/*
 * Write the PMUs of M's kernel as the kernel's sysfs has them (type,
 * cpumask, format/FIELD, events/NAME with .scale and .unit) under
 * DIR/sys/bus/event_source/devices, DIR/sys made new (nothing is written
 * through an existing path); one line on OUT says what.  A real machine's
 * are in its sysfs already (-EINVAL).  0, or -errno with ERR (-EEXIST
 * DIR/sys exists).
 */
int session_write_sysfs(const struct machine *m, const char *dir, FILE *out, char *err,
			size_t errlen);

/*
 * The uncore PMUs of M's kernel into BUF: each kind this kind of CPU has,
 * found with its boxes as numbered, then the ones missing.  The kinds:
 * AMD's (amd_l3, amd_df, amd_umc_N from Linux 6.7 with PerfMonV2), an Intel
 * client's (the controllers' free-running counters, the L3 slices) or
 * server's (memory channels, CHAs, UPI links), and RAPL's power; a client
 * is an Intel CPU whose kernel shows client boxes and no CHA.  How many
 * kinds were found, of *EXPECTED; -1 when its kernel cannot be read.
 */
int session_kernel_uncore(const struct machine *m, bool amd, int *expected, char *buf,
			  size_t len);

/*
 * The DIMMs' speed in MT/s: M's firmware's (SMBIOS type 17 under its root;
 * an emulated machine's own); 0 with why in WHY.
 */
unsigned session_dram_mts(const struct machine *m, char *why, size_t len);

/* --msr-safe-allowlist: the registers pmutop writes on M's CPU, in msr-safe's format. */
int session_print_msr_safe_allowlist(const struct machine *m, FILE *out, char *err,
				     size_t errlen);

/*
 * --list-events: which of L's core events M does not model (an emulated
 * machine counts them 0; a real one has them all: *OUT NULL), and in
 * *CORE_EVENTS how many core events L has.
 */
int session_unmodelled(const struct machine *m, const struct layout *l, bool **out,
		       int *core_events, char *err, size_t errlen);

/* --topology-only: M's topology as text, WIDTH wide (an emulated machine's headed SIMULATED). */
int session_print_topology(const struct machine *m, FILE *out, int width, char *err,
			   size_t errlen);

/* Whether S holds the machine's single-instance lock (it programs the counters itself). */
bool session_holds_lock(const struct session *s);

/*
 * The process that holds the counters' lock of the machine under ROOT (NULL:
 * this one), 0 when none does: the pmutop whose viewers' socket may be
 * trusted.
 */
pid_t session_lock_holder(const char *root);

/*
 * The running sampler, as the front ends see it (they never reach into the
 * engine): the newest sample (release it with sample_release), an fd that
 * is readable when one was published since the last session_ack, and the
 * commands, applied at the sampler's next slice.
 */
const struct sample *session_latest(struct session *s);
int session_fd(const struct session *s);
void session_ack(struct session *s);
void session_set_groups(struct session *s, layout_groups groups);
void session_set_interval(struct session *s, double seconds);
void session_set_paused(struct session *s, bool paused);
/* End the interval now (engine_flush): a sample follows within a slice. */
void session_flush(struct session *s);

/*
 * Stop the sampler, restore the registers, release everything.  Registers
 * that could not be restored, or that another program took, are named on
 * stderr; returns how many could not be restored.
 */
int session_close(struct session *s);

/*
 * For --doctor without a session: open machine M's counters
 * read-only, read who uses them (owner_scan: selects and enables, nothing
 * programmed) into OUT ("" when every counter is free), close.  0, or
 * -errno with why it could not look in ERR.
 */
int session_scan_owners(const struct machine *m, char *out, size_t len, char *err, size_t errlen);

/*
 * Parse LIST ("stalls,ports" / "1,4" / "all") into a group mask of L.
 * 0; 1 when some names are not groups of L (they are left out, named with
 * the known ones in ERR: a warning); -EINVAL when no group is left (ERR says
 * why).
 */
int session_parse_groups(const struct layout *l, const char *list, layout_groups *mask, char *err,
			 size_t errlen);

/*
 * The kernel's PMU descriptions for a listing: M's kernel (sysfs under its
 * root, or the emulated machine's own); NULL when it cannot be made.  The
 * source layer's encoder (source_terms), seen by its name only.
 */
struct source_terms;
struct source_terms *session_kernel_open(const struct machine *m);
void session_kernel_close(struct source_terms *k);
/*
 * Event EV (of a group bound to CORETYPE) as perf stat -e takes it through
 * K's PMUs into BUF: "amd_umc/event=0x0a,rdwrmask=1/", "uncore_cha/.../" for
 * every box of a kind, "cpu/event=0xc0/k".  0, -ENOENT without that PMU,
 * -EINVAL when its format cannot hold the event.
 */
int session_kernel_event(struct source_terms *k, const struct layout_event *ev,
			 enum layout_coretype coretype, char *buf, size_t len);

#endif
