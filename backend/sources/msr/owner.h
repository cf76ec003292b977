/*
 * owner: who else is using the performance counters.
 *
 * Before pmutop programs anything it reads the control registers: event
 * selects with EN set, enabled fixed counters, IA32_PERF_GLOBAL_CTRL bits,
 * uncore enables, and the kernel's NMI watchdog (which keeps a counter per
 * CPU).  Counters found in use are left alone unless the user forces it.
 * Main thread, at start-up, before the sampler starts.
 */
#ifndef PMUTOP_OWNER_H
#define PMUTOP_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuid.h"
#include "cpumodel.h"
#include "msr.h"
#include "topo.h"

struct owner_cpu {
	uint32_t gp_taken;    /* bit n: PMCn in use by someone else */
	uint32_t fixed_taken; /* bit n: fixed counter n in use */
	uint64_t global_ctrl; /* IA32_PERF_GLOBAL_CTRL as found (restored at exit) */
};

struct owner_report {
	int ncpus;                  /* entries in cpu[], by OS CPU number */
	struct owner_cpu *cpu;
	int nsockets;
	bool *uncore_taken;         /* by socket index */
	bool nmi_watchdog;          /* /proc/sys/kernel/nmi_watchdog is 1 */
	const char *root;           /* the machine's root ("" or NULL: this one), for naming holders */
	int nread_errors;           /* control registers that could not be read */
};

/*
 * Scan the control registers of every online CPU of T through D, for a
 * machine with INFO's counters and uncore kind UNCORE; ROOT prefixes /proc.
 * 0 or -errno (the report holds what could be read).
 */
int owner_scan(struct msr_dev *d, const struct cpuid_info *info, enum cpumodel_uncore uncore,
	       const struct topo *t, const char *root, struct owner_report *r);

void owner_free(struct owner_report *r);

/* True when nothing is in use. */
bool owner_all_free(const struct owner_report *r);

/*
 * Who holds the counters, where the system can say: processes with ROOT's
 * msr devices open and processes with perf events open (from /proc/PID/fd),
 * one line each, into BUF ("" when nobody is found).
 */
void owner_holders(const char *root, char *buf, size_t len);

/* "another program (who, as owner_holders finds them)" or "another program", into BUF. */
void owner_who(const char *root, char *buf, size_t len);

/*
 * One line per distinct finding, e.g. "CPU 0-15: PMC1 in use (EN set in
 * IA32_PERFEVTSEL1)", "NMI watchdog ...", ending with what --force does.
 * Returns the number of lines written into BUF.
 */
int owner_describe(const struct owner_report *r, const struct topo *t, char *buf, size_t len);

#endif
