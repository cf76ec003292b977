/*
 * machine: the machine a run looks at, as the command line names it, and
 * what stands behind it: this machine, a machine root (--root DIR: its
 * device files, sysfs and procfs) or an emulated machine (--sim SPEC).
 *
 * Every kind opens the same way below the device line: a CPU to identify,
 * a topology, a register device, a kernel with its PMUs, and the files a
 * run reads beside the counters (who uses the machine, thermal throttling).
 * Only this module and source.c know which kind it is; the session and the
 * front ends pass the machine on and read its label.  Main thread.
 */
#ifndef PMUTOP_MACHINE_H
#define PMUTOP_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

struct emu;
struct emu_perf;
struct perf_sys;
struct source;

struct machine;

/*
 * The machine under ROOT (NULL or "/": this one), or the emulated machine
 * SIM ("MACHINE[:SCENARIO|:PATH]") when not NULL.  STEPPED: its time moves
 * only when the run steps it (source_advance), where it keeps time of its
 * own (an emulated machine); elsewhere the flag is ignored.  0, or -errno
 * with one line in ERR; -EINVAL: a SIM that names no machine or scenario.
 */
int machine_open(const char *root, const char *sim, bool stepped, struct machine **out,
		 char *err, size_t errlen);
void machine_free(struct machine *m);

/* The root its files are read under: NULL for this machine (and an emulated one: its own). */
const char *machine_root(const struct machine *m);
/* Whether its figures are emulated (the label SIMULATED on every figure). */
bool machine_simulated(const struct machine *m);
/* What the emulated machine is: "nehalem-ep:memory-bound" (NULL for a real one). */
const char *machine_emulated_as(const struct machine *m);
/* The emulated machine's own name ("nehalem-ep"), NULL for a real one. */
const char *machine_name(const struct machine *m);
/* Whether its time is the run's to move (machine_open's STEPPED, where it keeps its own). */
bool machine_stepped(const struct machine *m);
/* The emulated machine itself, made afresh (the caller frees it), or NULL for a real one. */
struct emu *machine_emu(const struct machine *m, char *err, size_t errlen);

/*
 * The kernel of M as its PMUs are read: SYS (NULL: this machine's system
 * calls) and ROOT (the sysfs they are described in), with whatever stands
 * behind them held in K.  0, or -errno with one line in ERR.
 */
struct machine_kernel {
	const struct perf_sys *sys;
	const char *root;
	struct source *src;          /* an emulated kernel's source, or NULL */
	const char *described_as;    /* what an emulated kernel's uncore follows, or NULL */
	struct emu_perf *described;  /* an emulated kernel's descriptions alone (source_kernel), or NULL */
	bool none;                   /* a machine whose kernel has no PMUs to describe */
};

int machine_kernel_open(const struct machine *m, struct machine_kernel *k, char *err,
			size_t errlen);
void machine_kernel_close(struct machine_kernel *k);

#endif
