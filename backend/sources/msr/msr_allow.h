/*
 * msr_allow: the registers pmutop may write, per microarchitecture.
 *
 * Only performance-monitoring registers pmutop programs are on the list:
 * core event selects and counters, fixed counters and their control, global
 * control and overflow clear, offcore response, the model's uncore PMU.
 * The register layer (msr.c) refuses every other write, whatever a layout
 * or an option asks.  Built once at start-up from the CPU identification;
 * immutable afterwards, so any thread may query it.
 */
#ifndef PMUTOP_MSR_ALLOW_H
#define PMUTOP_MSR_ALLOW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cpuid.h"

#define MSR_ALLOW_MAX 64

struct msr_allow_entry {
	uint32_t reg;
	uint64_t write_mask; /* bits software may write (for msr-safe's allowlist) */
	bool uncore;         /* one register per socket, not per CPU */
	bool counter;        /* a count register (restored after the controls that enable it) */
	uint32_t control;    /* a counter's select or control register (0: none) */
	char name[32];       /* SDM name, e.g. "IA32_PERFEVTSEL2" */
};

struct msr_allowlist {
	struct msr_allow_entry e[MSR_ALLOW_MAX];
	int n;
};

/* Build the list for CPU INFO; NCBO is the Skylake CBo count (0 elsewhere). */
void msr_allow_build(const struct cpuid_info *info, int ncbo, struct msr_allowlist *out);

/* The entry for REG, or NULL when REG may not be written. */
const struct msr_allow_entry *msr_allow_find(const struct msr_allowlist *l, uint32_t reg);

/* A printable name for REG: the allowlist's, a few well-known ones, else "MSR 0x...". */
const char *msr_allow_name(const struct msr_allowlist *l, uint32_t reg, char *buf, size_t len);

/* Print L in msr-safe's allowlist format ("0xADDR 0xWRITEMASK # NAME"). */
void msr_allow_print_msr_safe(const struct msr_allowlist *l, FILE *out);

#endif
