/*
 * doctor: what pmutop needs on a machine, checked one thing per line.
 *
 * Each line has a state (ok, warn, FAIL, n/a), what was found and, when it
 * is not ok, the one command or step that fixes it.  `pmutop --doctor`
 * prints the lines; the `d` key shows the same text.  Reads files and
 * CPUID only, never writes anything.  Paths under ROOT (--root).  Main
 * thread.
 */
#ifndef PMUTOP_DOCTOR_H
#define PMUTOP_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

struct machine;

struct doctor_input {
	const struct machine *machine; /* the machine to check (session_machine_open) */
	const char *root;        /* NULL or "/" for this machine (its root) */
	bool simulated;          /* an emulated machine: nothing of this one's setup to check */
	const char *layout_dir;
	const char *perfmon_dir;  /* Intel's perfmon data (data/intel), or NULL */
	const char *owners;      /* what the owner scan found ("" nothing in use), or NULL when not run */
	const char *owners_why;  /* not run: why (or NULL) */
	int ncpus;               /* online CPUs, for the open-file limit (0: unknown) */
};

/* The report, one check per line; returns how many checks failed. */
int doctor_run(const struct doctor_input *in, char *out, size_t len);

#endif
