/*
 * probe: what the setup checks (the doctor, tui/app/doctor.c) need to know
 * of this machine that only the counter sources know: whether the msr
 * device opens as pmutop would open it, how a sweep would read, whether the
 * memory controller's window maps, what the kernel's perf lets this user
 * count and which PMUs it has.  Reads files only, never writes a register.
 * Paths under ROOT (NULL or "/": this machine).  Main thread.  Declared
 * here, with the machine, for the front ends; each source answers its own
 * (sources/msr/msr_probe.c, sources/perf/perf_probe.c), so that no layer
 * above the sources includes their headers for it.
 */
#ifndef PMUTOP_PROBE_H
#define PMUTOP_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cpuid.h"

/* CPU 0's register device, opened as pmutop opens it (msr, else msr-safe). */
struct probe_msr {
	char path[512];         /* the device tried last */
	bool opened;            /* it opens for reading and writing */
	bool listed;            /* msr-safe's allowlist has pmutop's registers (always for msr) */
	bool safe_exists;       /* msr-safe's device is there */
	int err;                /* errno of the open that failed, 0 when it opened */
};

void probe_msr_device(const char *root, struct probe_msr *out);

/* How a sweep would read the registers of INFO's CPU. */
struct probe_batch {
	bool msr_opens;         /* the msr driver's device opens */
	bool preferred;         /* msr-safe's batch call would be used */
	bool batch_exists;      /* msr-safe's batch device is there */
	int rc;                 /* its probe: 0 usable, or -errno with WHY */
	char why[PATH_MAX + 256];
};

void probe_msr_batch(const char *root, const struct cpuid_info *info, struct probe_batch *out);

/* The memory controller's MMIO window: 0 with its BAR, or -errno with ERR. */
int probe_imc_window(const char *root, unsigned long long *bar, char *err, size_t errlen);

/* What the kernel's perf_event interface offers this user. */
struct probe_perf {
	bool system_wide;       /* it lets this user count every CPU */
	char why[300];          /* the rule that decides */
	bool cpu_pmu;           /* it has a core PMU */
	char cpu_name[16];      /* its name: "cpu", or a hybrid's "cpu_core" (beside cpu_atom, cpu_lowpower) */
	unsigned cpu_type;
	int cpu_fields;         /* the core PMU's format fields */
	bool any_thread;        /* it has the AnyThread field */
	int imc, cbox, arb;     /* uncore_imc_*, uncore_cbox_*, uncore_arb_* PMUs */
	bool uncore;            /* an "uncore" PMU (Nehalem/Westmere) */
	char kinds[600];        /* every PMU kind and its box count ("uncore_imc x8, power") */
	char skipped[800];      /* PMUs whose files are wrong, each with why; "" none */
	int nskipped;
};

void probe_perf(const char *root, struct probe_perf *out);

#endif
