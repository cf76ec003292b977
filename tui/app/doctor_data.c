/*
 * doctor_data: the doctor's checks of what is counted on this CPU: the
 * layout pmutop loads and Intel's published data for the platform.
 */
#include "cpumodel.h"
#include "doctor_int.h"
#include "layout.h"
#include "paths.h"
#include "modelmap.h"
#include "perfmon.h"
#include "perfmon_layout.h"
#include "session.h"

#include "topo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The layout made from Intel's data, as the live view makes it (SMT assumed on). */
static int doctor_vendor_layout(struct doctor_ctx *c, struct layout **out, char *err, size_t len)
{
	struct perfmon_layout_config mc = {
		.gp_counters = (int)c->info.gp_counters, .ht_on = true, .threads_per_core = 2,
		.sockets = 1, .cores_per_socket = 1, .cpus = 2,
		.slots = c->info.fixed_counters >= 4,
	};

	err[0] = 0;
	return session_vendor_layout_for(c->in->perfmon_dir, &c->info, &mc, out, err, len);
}

void doctor_layout(struct doctor_ctx *c, struct doctor_line *l)
{
	struct layout *lay;
	char err[512];

	if (!c->have_cpu) {
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "no CPU to look up (see the line above)");
		return;
	}
	if (!doctor_vendor_layout(c, &lay, err, sizeof(err))) {
		int levels[10][2] = { { 0 } };
		size_t off;

		for (int m = 0; m < lay->nmetrics; m++)
			if (lay->metrics[m].level > 0 && lay->metrics[m].level < 10) {
				levels[lay->metrics[m].level][0]++;
				levels[lay->metrics[m].level][1] += !lay->metrics[m].na;
			}
		off = (size_t)snprintf(l->found, sizeof(l->found), "%s, made from Intel's data for "
				       "%u counters per thread; tree nodes counted:", lay->name,
				       c->info.gp_counters);
		for (int k = 1; k < 10 && off < sizeof(l->found); k++)
			if (levels[k][0])
				off += (size_t)snprintf(l->found + off, sizeof(l->found) - off,
							" level %d %d of %d%s", k, levels[k][1],
							levels[k][0], k < 9 && levels[k + 1][0] ? "," : "");
		if (layout_topdown_fields(lay) && off < sizeof(l->found))
			snprintf(l->found + off, sizeof(l->found) - off, "; level %s from fixed counter "
				 "3 and PERF_METRICS (%u fields)",
				 layout_topdown_fields(lay) > 4 ? "1 and 2" : "1",
				 layout_topdown_fields(lay));
		if (levels[1][0] && !levels[1][1]) {
			const char *why = "";

			for (int m = 0; m < lay->nmetrics && !why[0]; m++)
				if (lay->metrics[m].level == 1 && lay->metrics[m].na)
					why = lay->metrics[m].na;
			l->state = DOCTOR_WARN;
			snprintf(l->fix, sizeof(l->fix), "level 1 is not counted here: %.300s (a virtual "
				 "machine often exposes only the architectural counters); the other "
				 "figures are counted, explain says why per node", why);
		}
		layout_free(lay);
		return;
	}
	if (err[0]) {
		l->state = DOCTOR_WARN;
		snprintf(l->fix, sizeof(l->fix), "%.400s", err);
	}
	if (layout_find(c->in->layout_dir, &c->info, &lay, err, sizeof(err))) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "%s", err);
		snprintf(l->fix, sizeof(l->fix), "reinstall pmutop, or set PMUTOP_LAYOUT_DIR to its "
			 "layouts directory");
		return;
	}
	snprintf(l->found, sizeof(l->found), "%s (%s)%s", lay->name, lay->file,
		 lay->fallback ? ": the architectural fallback, no model-specific metrics" : "");
	if (lay->fallback)
		l->state = DOCTOR_WARN;
	layout_free(lay);
}

/* The vendor data file of this CPU's model in DIR, in PATH (PATH_MAX): modelmap_find's. */
static int doctor_data_find(struct doctor_ctx *c, const char *dir, char *path, char *err,
			    size_t errlen)
{
	return modelmap_find(dir, cpuid_vendor_string(c->info.vendor_id), c->info.family,
			    c->info.model, c->info.stepping, c->info.core_type, path, err, errlen);
}

/* Intel's published data for this CPU: the platform, its metrics and tree, the version. */
void doctor_vendor_data(struct doctor_ctx *c, struct doctor_line *l)
{
	char err[PATH_MAX + 256], path[PATH_MAX];
	struct perfmon *p;
	int rc, levels = 0;
	char none[160] = "";
	bool amd = c->info.vendor_id == CPUID_VENDOR_AMD;
	const char *dir;

	l->state = DOCTOR_NA;
	dir = c->read_cpuid ? session_vendor_dir(c->in->perfmon_dir, &c->info) : NULL;
	if (!dir) {
		snprintf(l->found, sizeof(l->found), "the data shipped is Intel's and AMD's: none "
			 "for this CPU");
		return;
	}
	rc = doctor_data_find(c, dir, path, err, sizeof(err));
	if (rc == -ENOENT) {
		char span[100];

		cpumodel_vendor_span(CPUID_VENDOR_AMD, span, sizeof(span));
		if (amd)
			snprintf(l->found, sizeof(l->found), "AMD's data (the kernel's perf tool) has no "
				 "generation for this CPU: only %s", span);
		else
			snprintf(l->found, sizeof(l->found), "Intel's data has no platform for this CPU "
				 "(pmutop's own layout covers it)");
		return;
	}
	if (rc || perfmon_load_platform(path, paths_atom_dir(NULL), &p, err, sizeof(err))) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "%.900s", err);
		snprintf(l->fix, sizeof(l->fix), "reinstall pmutop, or set %s to its %s directory",
			 amd ? "PMUTOP_AMD_DIR" : "PMUTOP_PERFMON_DIR", amd ? "data/amd" : "data/intel");
		return;
	}
	l->state = DOCTOR_OK;
	for (int i = 0; i < p->nmetrics; i++)
		if (p->metrics[i].parent >= 0 && p->metrics[i].level > levels)
			levels = p->metrics[i].level;
	/* no levels: AMD's (a platform of its before the first with a tree) or Intel's words */
	if (!levels && amd) {
		const char *first = cpumodel_vendor_first_tree(CPUID_VENDOR_AMD);

		snprintf(none, sizeof(none), " pipeline-utilisation levels published (AMD publishes the "
			 "tree from %s on)", first ? first : "none");
	}
	else if (!levels)
		snprintf(none, sizeof(none), " top-down levels published");
	snprintf(l->found, sizeof(l->found), "%s (%s %.12s): %d metrics%s, %s%d%s; "
		 "--list-metrics prints them (%s)", p->platform, amd ? "Linux perf tool" :
		 "intel/perfmon", p->commit, p->nmetrics,
		 p->metrics_path ? " (its cores', from the Linux kernel's perf tool)" : "",
		 levels ? amd ? "pipeline-utilisation levels 1-" : "top-down levels 1-" : "", levels,
		 none, c->have_cpu ? "the live view counts the layout's groups"
				   : "none can be counted here: see the CPU line");
	perfmon_free(p);
}

void doctor_memory_speed(struct doctor_ctx *c, struct doctor_line *l)
{
	char why[200];
	unsigned mts = session_dram_mts(c->in->machine, why, sizeof(why));

	if (mts) {
		snprintf(l->found, sizeof(l->found), "%u MT/s (%s): a channel's peak is %.1f GB/s, "
			 "the IMC pane's dram_peak_pct its share; --dram-mts overrides", mts,
			 c->in->simulated ? "emulated" : "SMBIOS, the slowest module", mts * 8e6 / 1e9);
		return;
	}
	l->state = DOCTOR_NA;
	snprintf(l->found, sizeof(l->found), "unknown: %s; bandwidth is shown without its share "
		 "of the peak", why);
	snprintf(l->fix, sizeof(l->fix), "--dram-mts N (the DIMMs' MT/s, e.g. 4800)");
}

/* Whether the kernel describes perf PMU NAME under the doctor's root. */
static bool doctor_has_pmu(const struct doctor_ctx *c, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s", c->root, name);
	return access(path, F_OK) == 0;
}

void doctor_kinds(struct doctor_ctx *c, struct doctor_line *l)
{
	struct topo *t = NULL;
	char err[300];
	size_t n = 0;
	bool missing = false;

	l->state = DOCTOR_NA;
	if (c->in->simulated) {
		snprintf(l->found, sizeof(l->found), c->read_cpuid && c->info.hybrid
			 ? "emulated hybrid machine: the P-cores counted through its kernel's cpu_core "
			   "PMU, the E-cores through cpu_atom, each with its own events and tree"
			 : "emulated machine: one kind of core");
		return;
	}
	if (topo_load_root(c->in->root ? c->in->root : "/", &t, err, sizeof(err))) {
		snprintf(l->found, sizeof(l->found), "the topology could not be read: %s", err);
		return;
	}
	if (!t->ncorekinds) {
		if (c->read_cpuid && c->info.hybrid) {
			/* CPUID and hwloc disagree: the kinds cannot be told apart */
			l->state = DOCTOR_WARN;
			snprintf(l->found, sizeof(l->found), "CPUID says hybrid (leaf 7 EDX bit 15) but "
				 "hwloc reports no kinds of core: they cannot be told apart (the CPUs of "
				 "the kernel's cpu_core and cpu_atom PMUs still decide what each counts)");
			snprintf(l->fix, sizeof(l->fix), "hwloc 2.4 or later on a kernel with the cpu_core "
				 "and cpu_atom PMUs (Linux 5.13 on)");
		} else {
			snprintf(l->found, sizeof(l->found), "one kind of core");
		}
		topo_free(t);
		return;
	}
	l->state = DOCTOR_OK;
	for (int k = 0; k < t->ncorekinds && n < sizeof(l->found); k++) {
		const struct topo_corekind *kd = &t->corekinds[k];
		bool atom = topo_kind_atom(t, k);
		const char *pmu = !strcmp(kd->core_type, "IntelCore") ? "cpu_core"
				  : !strcmp(kd->core_type, "IntelLowPower") ? "cpu_lowpower"
				  : atom ? "cpu_atom" : NULL;
		bool have = pmu && doctor_has_pmu(c, pmu);

		missing |= pmu && !have;
		n += (size_t)snprintf(l->found + n, sizeof(l->found) - n, "%s%d %s-cores (%s%s, %d "
				      "threads): %s%s%s", k ? "; " : "hybrid: ", kd->ncores, kd->name,
				      kd->core_type[0] ? kd->core_type : "no core type",
				      kd->from_pmu ? ", from its PMU's cpus: hwloc gave none"
				      : "", kd->nthreads,
				      !pmu ? "no perf PMU of its own known" : have ? "perf PMU " : "perf PMU ",
				      pmu ? pmu : "", !pmu ? "" : !have ? " missing: n/a"
				      : atom ? ", Intel's E-core metrics and tree (the kernel's perf tool)"
				      : ", Intel's P-core metrics and tree");
	}
	if (missing) {
		l->state = DOCTOR_WARN;
		snprintf(l->fix, sizeof(l->fix), "a kernel whose perf driver knows this CPU's kinds of "
			 "core (Linux 5.13 on has cpu_core and cpu_atom): the kinds it counts are shown, "
			 "the rest n/a");
	}
	topo_free(t);
}
