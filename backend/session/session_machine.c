/*
 * session_machine: the machine a run looks at (session.h), and what can be
 * told of it without a run: its CPU, its topology, the registers pmutop
 * may write there, the events it does not model.  The source layer
 * (machine.h, source.h) opens each kind of machine alike.  Main thread.
 */
#include "paths.h"
#include "session.h"
#include "session_int.h"

int session_machine_open(const char *root, const char *sim, bool stepped, struct machine **out,
			 char *err, size_t errlen)
{
	return machine_open(root, sim, stepped, out, err, errlen);
}

void session_machine_free(struct machine *m)
{
	machine_free(m);
}

bool session_machine_simulated(const struct machine *m)
{
	return machine_simulated(m);
}

const char *session_machine_name(const struct machine *m)
{
	return machine_name(m);
}

const char *session_machine_root(const struct machine *m)
{
	return machine_root(m);
}

int session_identify(const struct machine *m, struct cpuid_info *info, char *err, size_t errlen)
{
	return source_identify(m, info, err, errlen);
}

int session_print_msr_safe_allowlist(const struct machine *m, FILE *out, char *err,
				     size_t errlen)
{
	struct cpuid_info info;
	char words[160];
	const char *kind;
	int rc = source_identify(m, &info, err, errlen);

	if (rc)
		return rc;
	/* the CPU named as a run's header names it (its table, else the vendor's data: "SPR by ...") */
	kind = session_cpu_kind(paths_perfmon_dir(NULL), &info, words, sizeof(words), NULL, 0);
	return source_print_msr_safe_allowlist(&info, kind, out, err, errlen);
}

int session_unmodelled(const struct machine *m, const struct layout *l, bool **out,
		       int *core_events, char *err, size_t errlen)
{
	*core_events = 0;
	for (int k = 0; k < l->nevents; k++)
		*core_events += l->events[k].pmu == LAYOUT_PMU_CORE;
	return source_unmodelled(m, l, out, err, errlen);
}

int session_print_topology(const struct machine *m, FILE *out, int width, char *err,
			   size_t errlen)
{
	return source_print_topology(m, out, width, err, errlen);
}
