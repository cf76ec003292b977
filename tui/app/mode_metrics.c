/*
 * mode_metrics: --list-metrics prints the vendor's published metrics for this CPU
 * (or --cpu FAMILY_MODEL[_STEPPING]) from data/intel: the top-down tree,
 * indented by level, then the other metrics, each with its unit, its
 * formula over the vendor's event names and its threshold.  Main thread.
 */
#include "app.h"
#include "cpumodel.h"
#include "paths.h"
#include "modelmap.h"
#include "perfmon.h"
#include "perfmon_layout.h"
#include "perfmon_plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODE_METRICS_TEXT 16384

static void mode_metrics_line(const struct perfmon *p, int m, int depth, char *buf)
{
	const struct perfmon_metric *pm = &p->metrics[m];

	perfmon_render(p, m, false, buf, MODE_METRICS_TEXT);
	printf("%*s%s  [%s%s%s]  = %s", 2 * depth, "", pm->name, pm->unit ? pm->unit : "",
	       pm->groups ? "; " : "", pm->groups ? pm->groups : "", buf);
	if (pm->threshold) {
		perfmon_render(p, m, true, buf, MODE_METRICS_TEXT);
		printf("  | threshold: %s", buf);
	}
	putchar('\n');
}

static void mode_metrics_tree(const struct perfmon *p, int m, int depth, char *buf, char *shown)
{
	shown[m] = 1;
	mode_metrics_line(p, m, depth, buf);
	for (int i = 0; i < p->metrics[m].nchildren; i++)
		mode_metrics_tree(p, p->metrics[m].children[i], depth + 1, buf, shown);
}

static int mode_metrics_print(const struct perfmon *p)
{
	char *buf = malloc(MODE_METRICS_TEXT), *shown = calloc((size_t)p->nmetrics + 1, 1);
	int roots = 0;

	if (!buf || !shown) {
		free(buf);
		free(shown);
		fprintf(stderr, "pmutop: out of memory listing metrics\n");
		return EXIT_FAILURE;
	}
	bool amd = !strcmp(p->vendor, "AuthenticAMD");

	printf("# %s\n# %s data %s (%s %.12s, %s): %d metrics, %d events\n", p->info,
	       amd ? "AMD" : "Intel perfmon", p->path, amd ? "Linux perf tool" : "intel/perfmon",
	       p->commit, amd ? "GPL-2.0" : "BSD-3-Clause", p->nmetrics, p->nevents);
	if (p->metrics_path)
		printf("# its metrics: its cores', Intel's in the Linux kernel's perf tool %s (%s, "
		       "GPL-2.0)\n", p->metrics_path, p->metrics_commit ? p->metrics_commit : "unknown");
	printf("# the %s tree: NAME [UNIT; GROUPS] = FORMULA | threshold: WHEN\n",
	       amd ? "pipeline-utilisation" : "top-down");
	for (int i = 0; i < p->nmetrics; i++)
		if (p->metrics[i].parent < 0 && perfmon_in_tree(&p->metrics[i])) {
			mode_metrics_tree(p, i, 0, buf, shown);
			roots++;
		}
	if (!roots)
		printf("# (none published for this platform)\n");
	printf("# the other metrics\n");
	for (int i = 0; i < p->nmetrics; i++)
		if (!shown[i])
			mode_metrics_line(p, i, 0, buf);
	free(buf);
	free(shown);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* --plan LIST: the passes those metrics take on GP counters, and what cannot be counted. */
static int mode_metrics_plan(const struct perfmon *p, const char *list, int gp, bool from_cpu)
{
	struct perfmon_plan *pl;
	char err[512];
	int *sel, n, counted = 0;

	if (perfmon_select(p, list, &sel, &n, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	if (perfmon_plan(p, sel, n, gp, false, &pl, err, sizeof(err))) {
		fprintf(stderr, "pmutop: %s\n", err);
		free(sel);
		return EXIT_FAILURE;
	}
	for (int i = 0; i < n; i++)
		counted += pl->pass[i] >= 0;
	printf("# plan for %s on %d general-purpose counters (%s): %d of %d metrics in %d "
	       "pass%s%s\n", list, gp, from_cpu ? "this CPU's" : "hyper-threading on, as the "
	       "vendor's rows give them", counted, n, pl->npasses, pl->npasses == 1 ? "" : "es",
	       pl->npasses > 1 ? ", taking turns on the counters (figures scaled)" : "");
	for (int k = 0; k < pl->npasses; k++) {
		const struct perfmon_pass *ps = &pl->passes[k];

		printf("pass %d:", k + 1);
		for (int i = 0; i < n; i++)
			if (pl->pass[i] == k)
				printf(" %s", p->metrics[pl->metrics[i]].name);
		printf("\n  counters:");
		for (int e = 0; e < ps->ngp; e++)
			printf(" %s", p->events[ps->gp[e]].name);
		printf("\n  fixed:");
		for (int f = 0; f < PERFMON_PLAN_FIXED; f++)
			if (ps->fixed[f] >= 0)
				printf(" %d=%s", f, p->events[ps->fixed[f]].name);
		putchar('\n');
	}
	for (int i = 0; i < n; i++)
		if (pl->pass[i] < 0)
			printf("not counted: %s: %s\n", p->metrics[pl->metrics[i]].name, pl->why[i]);
	perfmon_plan_free(pl);
	free(sel);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int mode_list_metrics(const struct options *opt)
{
	const char *dir = paths_perfmon_dir(NULL);
	struct cpuid_info info;
	struct perfmon *p;
	char err[PATH_MAX + 256], path[PATH_MAX];
	int rc;

	memset(&info, 0, sizeof(info));
	if (opt->has_model) {
		cpuid_assume(opt->family, opt->model, opt->stepping, &info);
		cpumodel_classify(&info);
	} else if ((rc = session_identify(opt->machine, &info, err, sizeof(err)))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return session_machine_simulated(opt->machine) ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	dir = session_vendor_dir(dir, &info);
	if (!dir) {
		fprintf(stderr, "pmutop: the metric data pmutop ships is Intel's and AMD's; this CPU is "
			"%s (--list-events lists what pmutop counts on it)\n", info.vendor);
		return EXIT_FAILURE;
	}
	rc = modelmap_find(dir, cpuid_vendor_string(info.vendor_id), info.family, info.model, info.stepping, info.core_type,
			  path, err, sizeof(err));
	if (rc == -ENOENT) {
		char span[100];

		cpumodel_vendor_span(CPUID_VENDOR_AMD, span, sizeof(span));
		if (info.vendor_id == CPUID_VENDOR_AMD)
			fprintf(stderr, "pmutop: AMD's data (the kernel's perf tool) has no generation "
				"for family %Xh model %02Xh (%s): it covers %s\n",
				info.family, info.model, dir, span);
		else
			fprintf(stderr, "pmutop: Intel's perfmon data has no platform for family %u "
				"model 0x%02X stepping %u (%s): pmutop's own layout covers it "
				"(--list-events)\n", info.family, info.model, info.stepping, dir);
		return EXIT_FAILURE;
	}
	if (rc || (rc = perfmon_load_platform(path, paths_atom_dir(NULL), &p, err, sizeof(err)))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return EXIT_FAILURE;
	}
	if (!p->nmetrics)
		fprintf(stderr, "pmutop: Intel publishes events but no metrics for %s (%s): the "
			"architectural events are what pmutop computes there\n", p->platform,
			p->info);
	if (opt->plan && !strcmp(opt->plan, "layout")) {
		/* the layout pmutop would count with (a machine of one core per socket with --cpu) */
		struct perfmon_layout_config c = {
			.gp_counters = !opt->has_model && info.gp_counters ? (int)info.gp_counters
				       : perfmon_plan_counters(p, false),
			.ht_on = true, .threads_per_core = 2, .sockets = 1, .cores_per_socket = 1,
			.cpus = 2,
			.slots = !opt->has_model && info.gp_counters ? info.fixed_counters >= 4
				 : perfmon_plan_has_slots(p),
		};
		char *text;

		rc = perfmon_layout(p, &c, path, NULL, &text, err, sizeof(err));
		if (!rc)
			fputs(text, stdout);
		else
			fprintf(stderr, "pmutop: %s\n", err);
		free(text);
		rc = rc ? EXIT_FAILURE : fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	} else if (opt->plan) {
		bool from_cpu = !opt->has_model && info.gp_counters > 0;

		rc = mode_metrics_plan(p, opt->plan, from_cpu ? (int)info.gp_counters
							      : perfmon_plan_counters(p, false), from_cpu);
	} else {
		rc = mode_metrics_print(p);
	}
	perfmon_free(p);
	return rc;
}
