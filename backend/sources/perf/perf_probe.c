/*
 * perf_probe: what the setup checks ask of the kernel's perf_event
 * interface without counting (probe.h): what it lets this user count and
 * which PMUs its sysfs describes.  Reads files only.
 */
#include "probe.h"
#include "perf.h"
#include "perf_pmu.h"
#include "perf_pmus.h"

#include <stdio.h>
#include <string.h>

/* Every PMU of ROOT's sysfs, kind by kind, and those skipped with why (perf_pmus). */
static void probe_perf_kinds(const char *root, struct probe_perf *out)
{
	struct perf_pmus p;
	char err[300];
	size_t n = 0, k = 0;

	if (perf_pmus_scan(NULL, root, &p, err, sizeof(err)))
		return;
	for (int i = 0; i < p.n && n < sizeof(out->kinds);) {
		int c = 1;

		while (i + c < p.n && !strcmp(p.pmu[i + c].kind, p.pmu[i].kind))
			c++;
		n += (size_t)snprintf(out->kinds + n, sizeof(out->kinds) - n, c > 1 ? "%s%s x%d"
				      : "%s%s", n ? ", " : "", p.pmu[i].kind, c);
		i += c;
	}
	out->nskipped = p.nskipped;
	for (int i = 0; i < p.nskipped && k < sizeof(out->skipped); i++)
		k += (size_t)snprintf(out->skipped + k, sizeof(out->skipped) - k, "%s%s (%s)",
				      k ? "; " : "", p.skipped[i].name, p.skipped[i].why);
	perf_pmus_free(&p);
}

void probe_perf(const char *root, struct probe_perf *out)
{
	char names[64][64], err[300];
	struct perf_access a;
	struct perf_pmu p;

	memset(out, 0, sizeof(*out));
	perf_access_read(root, &a);
	out->system_wide = perf_access_system_wide(&a, out->why, sizeof(out->why));
	/* a hybrid's kernel has no "cpu": cpu_core for the P-cores (or only cpu_atom's E-cores) */
	for (size_t k = 0; k < 3 && !out->cpu_pmu; k++) {
		static const char *const core[] = { "cpu", "cpu_core", "cpu_atom" };

		out->cpu_pmu = perf_pmu_load(root, core[k], &p, err, sizeof(err)) == 0;
		if (out->cpu_pmu)
			snprintf(out->cpu_name, sizeof(out->cpu_name), "%s", core[k]);
	}
	if (out->cpu_pmu) {
		out->cpu_type = p.type;
		out->cpu_fields = p.nfields;
		out->any_thread = perf_pmu_set(&p, "any", 0, &(struct perf_pmu_config){ 0 }) == 0;
	}
	out->imc = perf_pmu_list(root, "uncore_imc_", names, 64);
	out->cbox = perf_pmu_list(root, "uncore_cbox_", names, 64);
	out->arb = perf_pmu_list(root, "uncore_arb_", names, 64);
	out->uncore = perf_pmu_load(root, "uncore", &p, err, sizeof(err)) == 0;
	probe_perf_kinds(root, out);
}
