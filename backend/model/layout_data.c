/*
 * layout_data: a parsed layout as data: loading a file (a regular file of
 * at most LAYOUT_MAX_BYTES), finding the one the CPU table names in a
 * directory, freeing it, and the queries the engine and the front ends make
 * (variables, counters, groups, metrics), and the box kinds a layout's
 * groups count on (layout_pmu_kinds).  Immutable after parsing; any thread.
 */
#include "cpumodel.h"
#include "layout.h"
#include "layout_int.h"
#include "expr.h"
#include "pmu_regs.h"
#include "paths.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Counters and widths: pmu_regs.h (seed 000 for the Nehalem uncore, seed 001 for Skylake client). */
const struct layout_pmu_kind layout_pmu_kinds[LAYOUT_NPMUS] = {
	/* version 6's UMASK2: the vendor's UMaskExt of a core event above the umask's 8 bits */
	[LAYOUT_PMU_CORE] = { .name = "core", .kernel = "cpu", .box = "CPU", .cmask_max = 0xFF,
			      .umask_max = 0xFFFF },
	[LAYOUT_PMU_UNCORE] = { .name = "uncore", .kernel = "uncore", .counters = NHM_UNC_COUNTERS,
				.width = NHM_UNC_WIDTH, .per_socket = true, .box = "socket",
				.cmask_max = 0xFF },
	[LAYOUT_PMU_CBO] = { .name = "cbo", .kernel = "uncore_cbox_",
			     .counters = SKL_UNC_BOX_COUNTERS, .width = SKL_UNC_WIDTH,
			     .per_socket = true, .summed_boxes = true, .box = "slice",
			     .cmask_max = SKL_UNC_EVTSEL_THR_MASK >> 24 },
	[LAYOUT_PMU_ARB] = { .name = "arb", .kernel = "uncore_arb", .counters = SKL_UNC_BOX_COUNTERS,
			     .width = SKL_UNC_WIDTH, .per_socket = true, .box = "socket",
			     .cmask_max = SKL_UNC_EVTSEL_THR_MASK >> 24 },
	[LAYOUT_PMU_IMC] = { .name = "imc", .kernel = "uncore_imc", .width = SKL_IMC_WIDTH,
			     .per_socket = true, .free_running = true, .box = "socket" },
	/*
	 * The kernel's server uncore (Linux's intel_uncore: uncore_cha_N,
	 * uncore_imc_N, uncore_upi_N, each PMU one box number on every socket,
	 * its cpumask one CPU per socket) and RAPL's power PMU.  Four 48-bit
	 * counters per box; the CHA's umask carries the vendor's UMaskExt above
	 * bit 8, 32 bits of it on Sapphire Rapids (the CXL filters: the kernel's
	 * format places them, config:8-15,32-63).
	 */
	[LAYOUT_PMU_CHA] = { .name = "cha", .kernel = "uncore_cha_", .counters = 4, .width = 48,
			     .per_socket = true, .summed_boxes = true, .box = "CHA",
			     .cmask_max = 0xFF, .kernel_only = true, .umask_max = 0xFFFFFFFFFFull },
	[LAYOUT_PMU_MC] = { .name = "mc", .kernel = "uncore_imc_", .counters = 4, .width = 48,
			    .per_socket = true, .summed_boxes = true, .box = "channel",
			    .cmask_max = 0xFF, .kernel_only = true, .box_channels = true },
	[LAYOUT_PMU_UPI] = { .name = "upi", .kernel = "uncore_upi_", .counters = 4, .width = 48,
			     .per_socket = true, .summed_boxes = true, .box = "link",
			     .cmask_max = 0xFF, .kernel_only = true, .umask_max = 0xFFFFFFFF },
	/* RAPL: the kernel's power PMU, or its energy MSRs read through msr (msr_rapl) */
	[LAYOUT_PMU_POWER] = { .name = "power", .kernel = "power", .width = 64, .per_socket = true,
			       .free_running = true, .box = "socket", .aliases = true, .beside = true },
	/*
	 * The clients' memory controllers from Ice Lake and Tiger Lake on: the
	 * kernel's free-running counters (uncore_imc_free_running_N, one per
	 * controller, summed), its named events data_read and data_write in
	 * 64-byte lines, scaled to MiB.
	 */
	[LAYOUT_PMU_IMC_FREE] = { .name = "imc_free", .kernel = "uncore_imc_free_running_",
				  .width = 64, .per_socket = true, .summed_boxes = true,
				  .free_running = true, .box = "controller", .kernel_only = true,
				  .aliases = true },
	/*
	 * AMD's uncore as Linux's amd_uncore driver registers it: amd_l3, one
	 * PMU counting on one CPU of each L3 (CCX), 6 counters each (PPR: L3
	 * PMCs); amd_df, the data fabric, one CPU per socket, 4 counters, its
	 * event 14 bits and umask 12 (config:0-7,32-37 and 8-15,24-27 with
	 * PerfMonV2); amd_umc_N from Linux 6.7, one PMU per memory channel of
	 * a socket, 4 counters, its read/write selector rdwrmask (config:8-9)
	 * in the umask.
	 */
	[LAYOUT_PMU_AMD_L3] = { .name = "l3", .kernel = "amd_l3", .counters = 6, .width = 48,
				.per_socket = true, .summed_boxes = true, .box = "L3 (CCX)",
				.kernel_only = true, .cpu_boxes = true },
	[LAYOUT_PMU_AMD_DF] = { .name = "df", .kernel = "amd_df", .counters = 4, .width = 48,
				.per_socket = true, .box = "socket", .kernel_only = true,
				.umask_max = 0xFFF, .event_max = 0x3FFF },
	[LAYOUT_PMU_AMD_UMC] = { .name = "umc", .kernel = "amd_umc_", .counters = 4, .width = 48,
				 .per_socket = true, .summed_boxes = true, .box = "channel",
				 .kernel_only = true, .box_channels = true, .umask_max = 0x3,
				 .socket_boxes = true },
	/*
	 * The kernel's C-state residency counters (arch/x86/events/intel/
	 * cstate.c): cstate_core counts on one CPU of each core (its cpumask),
	 * summed per socket; cstate_pkg on one CPU of each package.  Free-running
	 * MSRs at the TSC's rate, named events (c6-residency), nothing to program.
	 */
	[LAYOUT_PMU_CSTATE_CORE] = { .name = "cstate_core", .kernel = "cstate_core", .width = 64,
				     .per_socket = true, .summed_boxes = true, .free_running = true,
				     .box = "core", .kernel_only = true, .aliases = true,
				     .cpu_boxes = true, .beside = true, .core_boxes = true },
	[LAYOUT_PMU_CSTATE_PKG] = { .name = "cstate_pkg", .kernel = "cstate_pkg", .width = 64,
				    .per_socket = true, .free_running = true, .box = "socket",
				    .kernel_only = true, .aliases = true, .beside = true },
};

const char *const layout_part_facts[LAYOUT_NFACTS] = {
	[LAYOUT_FACT_CHAS] = "chas", [LAYOUT_FACT_LINKS] = "links",
};

#define LAYOUT_SUFFIX ".layout"
#define LAYOUT_MAX_BYTES (1 << 20)

int layout_read_text(const char *path, char **out, char *err, size_t errlen)
{
	FILE *f = paths_fopen_trusted(path, "layout", err, errlen);
	struct stat st;
	char *text;
	long n;

	*out = NULL;
	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > LAYOUT_MAX_BYTES) {
		fclose(f);
		snprintf(err, errlen, "cannot read layout %s: a regular file of at most %d bytes is "
			 "expected", path, LAYOUT_MAX_BYTES);
		return -EINVAL;
	}
	n = (long)st.st_size;
	text = xmalloc((size_t)n + 1);
	if (fread(text, 1, (size_t)n, f) != (size_t)n) {
		free(text);
		fclose(f);
		snprintf(err, errlen, "cannot read layout %s", path);
		return -EIO;
	}
	fclose(f);
	text[n] = 0;
	if (strlen(text) != (size_t)n) {
		free(text);
		snprintf(err, errlen, "%s: a text file is expected (it contains a NUL byte)", path);
		return -EINVAL;
	}
	*out = text;
	return 0;
}

int layout_load(const char *path, struct layout **out, char *err, size_t errlen)
{
	char *text;
	int rc = layout_read_text(path, &text, err, errlen);

	*out = NULL;
	if (rc)
		return rc;
	rc = layout_parse(text, path, out, err, errlen);
	free(text);
	return rc;
}

/* The name of the fallback layout of INFO's vendor, or NULL (none without architectural perfmon). */
static const char *layout_fallback_name(const struct cpuid_info *info)
{
	return info->vendor_id == CPUID_VENDOR_INTEL && info->perfmon_version > 0 ? "arch" : NULL;
}

bool layout_covers(const struct layout *l, const struct cpuid_info *info)
{
	const struct cpumodel *m = cpumodel_of(info);

	if (l->fallback)
		return l->vendor == info->vendor_id;
	if (m && m->p->layout && !strcmp(m->p->layout, l->name) && l->vendor == info->vendor_id)
		return true;
	for (int i = 0; i < l->nmodels; i++)
		if (l->models[i][0] == info->family && l->models[i][1] == info->model &&
		    l->vendor == info->vendor_id)
			return true;
	return false;
}

int layout_find(const char *dir, const struct cpuid_info *info, struct layout **out, char *err,
		size_t errlen)
{
	const struct cpumodel *m = cpumodel_of(info);
	const char *name = m ? m->p->layout : layout_fallback_name(info);
	char path[4096];
	struct stat st;
	int rc;

	*out = NULL;
	if (!name && m) {
		snprintf(err, errlen, "no layout for this CPU (%s, %s): its events and metrics come "
			 "from the vendor's data (pmutop's data/amd), which could not be used here; "
			 "--layout FILE gives one of your own", m->name, m->p->name);
		return -ENOENT;
	}
	if (!name) {
		snprintf(err, errlen, "no layout for this CPU (%s family 0x%X model 0x%02X): pmutop's "
			 "CPU table has no row for it and it has no architectural performance "
			 "monitoring to fall back on; --layout FILE gives one of your own",
			 info->vendor[0] ? info->vendor : "unknown vendor", info->family, info->model);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s%s", dir, name, LAYOUT_SUFFIX);
	rc = stat(dir, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (rc) {
		snprintf(err, errlen, "cannot open the layout directory %s: %s (set PMUTOP_LAYOUT_DIR "
			 "or reinstall)", dir, strerror(rc));
		return -rc;
	}
	if (stat(path, &st)) {
		snprintf(err, errlen, "the layout %s that the CPU table names for %s is not in %s "
			 "(set PMUTOP_LAYOUT_DIR or reinstall)", name,
			 m ? m->name : "this CPU", dir);
		return -ENOENT;
	}
	rc = layout_load(path, out, err, errlen);
	if (rc)
		return rc;
	if (!m && !(*out)->fallback) {
		snprintf(err, errlen, "%s is not a fallback layout ('models any')", path);
		layout_free(*out);
		*out = NULL;
		return -EINVAL;
	}
	return 0;
}

void layout_free(struct layout *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nevents; i++) {
		free(l->events[i].name);
		free(l->events[i].spec);
		free(l->events[i].canonical);
	}
	for (int i = 0; i < l->nmetrics; i++) {
		free(l->metrics[i].name);
		free(l->metrics[i].unit);
		free(l->metrics[i].help);
		free(l->metrics[i].formula);
		expr_free(l->metrics[i].expr);
		free(l->metrics[i].na);
		free(l->metrics[i].threshold_text);
		expr_free(l->metrics[i].threshold);
		free(l->metrics[i].parent_name);
	}
	for (int i = 0; i < l->ngroups; i++) {
		free(l->groups[i].name);
		free(l->groups[i].title);
		free(l->groups[i].help);
	}
	free(l->events);
	free(l->metrics);
	free(l->groups);
	free(l->models);
	free(l->file);
	free(l->text);
	free(l->name);
	free(l->description);
	free(l->libpfm_pmu);
	free(l->libpfm_uncore);
	free(l);
}

int layout_nvars(const struct layout *l)
{
	return LAYOUT_NBUILTINS + l->nevents + l->nmetrics;
}

int layout_event_var(const struct layout *l, int e)
{
	return l->events[e].var;
}

bool layout_scope_computed(enum layout_scope m, enum layout_scope at)
{
	if (m == LAYOUT_CHANNEL)
		return at == LAYOUT_CHANNEL || at == LAYOUT_SOCKET;
	return at != LAYOUT_CHANNEL && m <= at;
}

/* Kuhn's augmenting path from event I: a counter for it, moving others along. */
static bool counters_augment(const struct layout *l, const int *ev, int i, uint32_t usable, int *owner,
			     uint32_t *seen)
{
	for (int k = 0; k < PMU_MAX_GP; k++) {
		if (!(l->events[ev[i]].counters & usable & (1u << k)) || (*seen & (1u << k)))
			continue;
		*seen |= 1u << k;
		if (owner[k] < 0 || counters_augment(l, ev, owner[k], usable, owner, seen)) {
			owner[k] = i;
			return true;
		}
	}
	return false;
}

/* Can the N events have distinct counters? (a maximum matching: N x counters steps) */
static bool counters_fit(const struct layout *l, const int *ev, int n, uint32_t usable)
{
	int owner[PMU_MAX_GP];

	if (n > PMU_MAX_GP)
		return false;
	for (int k = 0; k < PMU_MAX_GP; k++)
		owner[k] = -1;
	for (int i = 0; i < n; i++) {
		uint32_t seen = 0;

		if (!counters_augment(l, ev, i, usable, owner, &seen))
			return false;
	}
	return true;
}

/* The search: the most constrained event first, then the rest (it succeeds: they fit). */
static bool counters_assign(const struct layout *l, const int *ev, int n, uint32_t usable, int *ctr)
{
	int best = -1, bestn = PMU_MAX_GP + 1;

	for (int i = 0; i < n; i++) {
		int c = __builtin_popcount(l->events[ev[i]].counters & usable);

		if (ctr[i] < 0 && c < bestn) {
			best = i;
			bestn = c;
		}
	}
	if (best < 0)
		return true;
	for (int k = 0; k < PMU_MAX_GP; k++) {
		if (!(l->events[ev[best]].counters & usable & (1u << k)))
			continue;
		ctr[best] = k;
		if (counters_assign(l, ev, n, usable & ~(1u << k), ctr))
			return true;
		ctr[best] = -1;
	}
	return false;
}

/*
 * A set that does not fit is found by a matching, not by the search: the
 * search tries every order of the counters before it gives up (8! for nine
 * events on eight counters), and the planner asks of every group whether it
 * fits a set (a layout of 150 events started in 0.2 s, most of it here).
 */
bool layout_assign_counters(const struct layout *l, const int *ev, int n, uint32_t usable, int *ctr)
{
	if (n == 0)
		return true;
	if (!counters_fit(l, ev, n, usable))
		return false;
	return counters_assign(l, ev, n, usable, ctr);
}

bool layout_has_uncore(const struct layout *l)
{
	for (int g = 0; g < l->ngroups; g++)
		if (layout_pmu_kinds[l->groups[g].pmu].per_socket)
			return true;
	return false;
}

unsigned layout_topdown_fields(const struct layout *l)
{
	return l->topdown_fields;
}

unsigned layout_find_topdown_fields(const struct layout *l)
{
	unsigned fields = 0;

	for (int m = 0; m < l->nmetrics; m++) {
		const int *vars;
		int n;

		if (!l->metrics[m].expr)
			continue;
		expr_vars(l->metrics[m].expr, &vars, &n);
		for (int i = 0; i < n; i++)
			if (vars[i] >= LAYOUT_TOPDOWN_VAR(0) &&
			    vars[i] < LAYOUT_TOPDOWN_VAR(PERF_METRICS_FIELDS))
				fields = vars[i] >= LAYOUT_TOPDOWN_VAR(4) ? 8 : fields ? fields : 4;
	}
	return fields;
}

int layout_metric_var(const struct layout *l, int m)
{
	return LAYOUT_NBUILTINS + l->nevents + m;
}

int layout_group_find(const struct layout *l, const char *name)
{
	for (int i = 0; i < l->ngroups; i++)
		if (!strcmp(l->groups[i].name, name))
			return i;
	return -1;
}

int layout_event_find(const struct layout *l, const char *name)
{
	for (int i = 0; i < l->nevents; i++)
		if (!strcmp(l->events[i].name, name))
			return i;
	return -1;
}

int layout_metric_find(const struct layout *l, const char *name)
{
	for (int i = 0; i < l->nmetrics; i++)
		if (!strcmp(l->metrics[i].name, name))
			return i;
	return -1;
}
