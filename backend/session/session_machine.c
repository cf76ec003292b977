/*
 * session_machine: the machine a run looks at (session.h), and what can be
 * told of it without a run: its CPU, its topology, the registers pmutop
 * may write there, the events it does not model.  The source layer
 * (machine.h, source.h) opens each kind of machine alike.  Main thread.
 */
#include "dmi.h"
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

/* ---- what the machine's kernel says of its PMUs: the source layer's (source_pmus) ---- */

int session_print_pmus(const struct machine *m, FILE *out, char *err, size_t errlen)
{
	return source_pmus_print(m, out, err, errlen);
}

int session_write_sysfs(const struct machine *m, const char *dir, FILE *out, char *err,
			size_t errlen)
{
	return source_pmus_write_sysfs(m, dir, out, err, errlen);
}

int session_kernel_uncore(const struct machine *m, bool amd, int *expected, char *buf,
			  size_t len)
{
	return source_pmus_uncore(m, amd, expected, buf, len);
}

struct source_terms *session_kernel_open(const struct machine *m)
{
	return source_terms_open(m);
}

void session_kernel_close(struct source_terms *k)
{
	source_terms_close(k);
}

int session_kernel_event(struct source_terms *k, const struct layout_event *ev,
			 enum layout_coretype coretype, char *buf, size_t len)
{
	return source_terms_event(k, ev, coretype, buf, len);
}

unsigned session_dram_mts(const struct machine *m, char *why, size_t len)
{
	struct source *src = NULL;
	struct source_facts f;
	unsigned mts;

	why[0] = 0;
	if (!machine_simulated(m))
		return dmi_dram_mts(machine_root(m), why, len);
	if (source_open(m, &src, why, len))
		return 0;
	source_facts(src, &f);
	mts = f.dram_mts;
	source_close(src);
	return mts;
}
