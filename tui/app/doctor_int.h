/*
 * doctor_int: what the doctor's checks share (doctor.c, doctor_data.c): the
 * line each check fills and the context they read.  Main thread.
 */
#ifndef PMUTOP_DOCTOR_INT_H
#define PMUTOP_DOCTOR_INT_H

#include <stdbool.h>

#include "cpuid.h"
#include "doctor.h"
#include "probe.h"

enum doctor_state { DOCTOR_OK, DOCTOR_WARN, DOCTOR_FAIL, DOCTOR_NA };

struct doctor_line {
	enum doctor_state state;
	char found[1024];
	char fix[512];
};

struct doctor_ctx {
	const struct doctor_input *in;
	const char *root;            /* "" for this machine, else the prefix */
	struct cpuid_info info;
	bool have_cpu;
	bool read_cpuid;             /* CPUID was read (vendor, hypervisor bit), whatever the CPU */
	bool msr_ok;                 /* the msr device line: pmutop can count through it */
	bool perf_pmu, perf_allowed; /* the kernel has a core PMU; it lets this user count every CPU */
	bool kernel_uncore;          /* the uncore line found the kernel's uncore PMUs this CPU needs */
	char perf_why[300];          /* why not, for the source line */
	struct probe_perf perf;      /* what the kernel's perf offers (doctor_perf_access) */
};

/* A hybrid CPU's kinds of core (hwloc's), their perf PMUs, and what is counted on them. */
void doctor_kinds(struct doctor_ctx *c, struct doctor_line *l);

/* AMD's CPU line (doctor_amd.c): its generation, perf, a VM without a PMU and how to enable one. */
void doctor_amd_cpu(struct doctor_ctx *c, struct doctor_line *l);

/* The checks of what is counted: the layout, Intel's data (doctor_data.c). */
void doctor_layout(struct doctor_ctx *c, struct doctor_line *l);
void doctor_vendor_data(struct doctor_ctx *c, struct doctor_line *l);
/* The DIMMs' speed (emulated, or SMBIOS), the channels' peak. */
void doctor_memory_speed(struct doctor_ctx *c, struct doctor_line *l);

/* Who uses the machine (doctor_who.c): the cgroup v2 tree and counting per cgroup; resctrl. */
void doctor_who(struct doctor_ctx *c, struct doctor_line *l);
void doctor_resctrl(struct doctor_ctx *c, struct doctor_line *l);
/* The sampler's real-time priority (doctor_sched.c). */
void doctor_sampler(struct doctor_ctx *c, struct doctor_line *l);

#endif
