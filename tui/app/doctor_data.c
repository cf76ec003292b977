/*
 * doctor_data: the doctor's checks of what is counted on this CPU: the
 * layout pmutop loads and Intel's published data for the platform.
 */
#include "doctor_int.h"
#include "layout.h"
#include "perfmon.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>

void doctor_layout(struct doctor_ctx *c, struct doctor_line *l)
{
	struct layout *lay;
	char err[512];

	if (!c->have_cpu) {
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "no CPU to look up (see the line above)");
		return;
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

/* Intel's published data for this CPU: the platform, its metrics and tree, the version. */
void doctor_vendor_data(struct doctor_ctx *c, struct doctor_line *l)
{
	char err[PATH_MAX + 256], path[PATH_MAX];
	struct perfmon *p;
	int rc, levels = 0;

	l->state = DOCTOR_NA;
	if (!c->read_cpuid || c->info.vendor_id != CPUID_VENDOR_INTEL || !c->in->perfmon_dir) {
		snprintf(l->found, sizeof(l->found), "the data shipped is Intel's: none for this CPU");
		return;
	}
	rc = perfmon_find(c->in->perfmon_dir, c->info.family, c->info.model, c->info.stepping,
			  c->info.core_type, path, err, sizeof(err));
	if (rc == -ENOENT) {
		snprintf(l->found, sizeof(l->found), "Intel's data has no platform for this CPU "
			 "(pmutop's own layout covers it)");
		return;
	}
	if (rc || perfmon_load(path, &p, err, sizeof(err))) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "%.900s", err);
		snprintf(l->fix, sizeof(l->fix), "reinstall pmutop, or set PMUTOP_PERFMON_DIR to its "
			 "data/intel directory");
		return;
	}
	l->state = DOCTOR_OK;
	for (int i = 0; i < p->nmetrics; i++)
		if (p->metrics[i].parent >= 0 && p->metrics[i].level > levels)
			levels = p->metrics[i].level;
	snprintf(l->found, sizeof(l->found), "%s (intel/perfmon %.12s): %d metrics, %s%d%s; "
		 "--list-metrics prints them (%s)", p->platform, p->commit, p->nmetrics,
		 levels ? "top-down levels 1-" : "", levels, levels ? "" : " top-down levels published",
		 c->have_cpu ? "the live view counts the layout's groups"
			     : "none can be counted here: see the CPU line");
	perfmon_free(p);
}
