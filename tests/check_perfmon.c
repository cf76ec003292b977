/*
 * Tests for Intel's perfmon data as shipped in data/intel: every platform
 * loads and every formula and threshold compiles; the CPU -> platform map
 * follows the vendor's mapfile rows; the vendor's level-1 top-down formulas
 * give what their own text says; n/a comes with its reason; damaged files
 * get one message naming the file and the place.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cpumodel.h"
#include "expr.h"
#include "layout.h"
#include "modelmap.h"
#include "perfmon.h"
#include "perfmon_layout.h"
#include "perfmon_plan.h"
#include "session.h"
#include "xmalloc.h"

#ifndef PERFMON_SRCDIR
#error "PERFMON_SRCDIR must name data/intel"
#endif

static struct perfmon *load(const char *file)
{
	char path[PATH_MAX], err[512];
	struct perfmon *p;

	snprintf(path, sizeof(path), "%s/%s", PERFMON_SRCDIR, file);
	ck_assert_msg(perfmon_load(path, &p, err, sizeof(err)) == 0, "%s", err);
	return p;
}

/* The metrics count models.csv gives for FILE (written by the converter). */
static int listed_metrics(const char *file)
{
	char path[PATH_MAX], line[512];
	FILE *f;
	int n = -1;

	snprintf(path, sizeof(path), "%s/models.csv", PERFMON_SRCDIR);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char *last = strrchr(line, ','), *name;

		if (!last)
			continue;
		*last = '\0';
		name = strrchr(line, ',');
		if (name && !strcmp(name + 1, file))
			n = atoi(last + 1);
	}
	fclose(f);
	return n;
}

/* The next platform file of D (NULL at the end): the shipped PLATFORM.json files. */
static const char *next_platform(DIR *d)
{
	struct dirent *e;

	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n >= 6 && !strcmp(e->d_name + n - 5, ".json"))
			return e->d_name;
	}
	return NULL;
}

START_TEST(every_formula_and_threshold_of_every_platform_compiles)
{
	DIR *d = opendir(PERFMON_SRCDIR);
	const char *name;
	int platforms = 0, with_metrics = 0, metrics = 0, formulas = 0;

	ck_assert_ptr_nonnull(d);
	while ((name = next_platform(d))) {
		struct perfmon *p = load(name);

		platforms++;
		ck_assert_int_eq(p->nmetrics, listed_metrics(name));
		with_metrics += p->nmetrics > 0;
		metrics += p->nmetrics;
		formulas += p->nformulas;
		for (int i = 0; i < p->nmetrics; i++) {
			ck_assert_ptr_nonnull(p->metrics[i].formula);
			ck_assert(!p->metrics[i].threshold_text || p->metrics[i].threshold);
		}
		perfmon_free(p);
	}
	closedir(d);
	/* the mapfile from Sandy Bridge on: 35 platforms (ADL-N apart), 21 with Intel's metric files */
	ck_assert_int_ge(platforms, 35);
	ck_assert_int_ge(with_metrics, 21);
	ck_assert_int_ge(metrics, 4000);
	printf("# perfmon: %d platforms, %d with metrics: %d metrics, %d formulas and thresholds "
	       "compiled\n", platforms, with_metrics, metrics, formulas);
}
END_TEST

/* The reason of L's first unavailable level-LEVEL node, or "". */
static const char *text_na(const struct layout *l, int level)
{
	for (int m = 0; m < l->nmetrics; m++)
		if (l->metrics[m].level == level && l->metrics[m].na)
			return l->metrics[m].na;
	return "";
}

/*
 * Every platform with metrics makes a layout that parses, on a machine with
 * SMT (4 counters per thread, 2 sockets) and without (8 counters): every
 * node of the vendor's tree is in it, counted or unavailable with a reason;
 * every threshold is kept or its absence says why.  Where the data's level 1
 * needs only general-purpose and fixed counters 0-2 (Haswell to Cascade
 * Lake), level 1 is counted; on PERF_METRICS platforms (Ice Lake on) too where the machine
 * has fixed counter 3, and where it has not the layout says why not.
 */
START_TEST(every_platform_makes_a_layout)
{
	static const struct perfmon_layout_config machines[] = {
		{ .gp_counters = 4, .ht_on = true, .threads_per_core = 2, .sockets = 2,
		  .cores_per_socket = 28, .cpus = 112 },
		{ .gp_counters = 8, .ht_on = false, .threads_per_core = 1, .sockets = 1,
		  .cores_per_socket = 8, .cpus = 8 },
		/* with fixed counter 3 and PERF_METRICS (Ice Lake on): 8 counters, SMT */
		{ .gp_counters = 8, .ht_on = true, .threads_per_core = 2, .sockets = 2,
		  .cores_per_socket = 56, .cpus = 224, .slots = true },
	};
	DIR *d = opendir(PERFMON_SRCDIR);
	const char *name;
	int layouts = 0;

	ck_assert_ptr_nonnull(d);
	while ((name = next_platform(d))) {
		struct perfmon *p = load(name);
		for (size_t k = 0; k < sizeof(machines) / sizeof(machines[0]) && p->nmetrics; k++) {
			char *text, err[1024];
			struct layout *l;
			int tree = 0, nodes = 0, counted = 0, l1 = 0, l1_counted = 0;
			bool perf_metrics = false;

			ck_assert_int_eq(perfmon_layout(p, &machines[k], "generated", NULL, &text, err, sizeof(err)), 0);
			ck_assert_msg(layout_parse(text, name, &l, err, sizeof(err)) == 0,
				      "%s (%d counters): %s", name, machines[k].gp_counters, err);
			free(text);
			for (int m = 0; m < p->nmetrics; m++)
				tree += p->metrics[m].parent >= 0 || p->metrics[m].nchildren > 0;
			for (int m = 0; m < l->nmetrics; m++) {
				const struct layout_metric *mt = &l->metrics[m];

				if (!mt->level)
					continue;
				nodes++;
				counted += !mt->na;
				if (mt->level == 1 && mt->parent < 0) {
					l1++;
					l1_counted += !mt->na;
				}
				ck_assert_msg(!mt->na || mt->na[0], "%s: %s unavailable without a reason",
					      name, mt->name);
			}
			ck_assert_msg(nodes == tree, "%s: %d of the vendor's %d tree nodes in the layout",
				      name, nodes, tree);
			for (int v = 0; v < p->nevents; v++)
				perf_metrics |= !strncmp(p->events[v].name, "PERF_METRICS.", 13);
			if (tree && (!perf_metrics || machines[k].slots))
				ck_assert_msg(l1_counted == l1 && l1 >= 3, "%s: level 1 %d of %d counted",
					      name, l1_counted, l1);
			if (tree && perf_metrics) {
				/* the data's fixed counter 3; without it (a machine that lacks it) why not */
				ck_assert_msg(perfmon_plan_has_slots(p), "%s: PERF_METRICS, no slots", name);
				if (!machines[k].slots)
					ck_assert_msg(l1_counted < l1 && strstr(text_na(l, 1), "fixed counter 3"),
						      "%s: level 1 without fixed counter 3: %s", name,
						      text_na(l, 1));
			}
			printf("# %s on %d counters%s: %d of %d tree nodes counted, level 1 %d of %d, "
			       "%d groups\n", name, machines[k].gp_counters,
			       machines[k].ht_on ? " (SMT)" : "", counted, nodes, l1_counted, l1,
			       l->ngroups);
			layout_free(l);
			layouts++;
		}
		perfmon_free(p);
	}
	closedir(d);
	ck_assert_int_ge(layouts, 3 * 21);
}
END_TEST

/*
 * The layout made from the data is for one core kind: on a hybrid CPU the
 * other kind's cores would count other things with it, so pmutop keeps the
 * architectural events there and says why; a CPU of the data that is not
 * hybrid gets the made layout.
 */
/* The metric of layout L called NAME, or NULL. */
static const struct layout_metric *metric_named(const struct layout *l, const char *name)
{
	for (int m = 0; m < l->nmetrics; m++)
		if (!strcmp(l->metrics[m].name, name))
			return &l->metrics[m];
	return NULL;
}

/*
 * AMD: every Zen row of the CPU table is the generation the kernel's mapfile
 * (data/amd/models.csv) gives it; Zen 4 and Zen 5 make a layout with AMD's
 * pipeline-utilisation tree (level 1 of five nodes, SMT contention its own,
 * over 6 or 8 dispatch slots a cycle, fitting the six core counters in one
 * group); Zen 2 and 3, which have no such events, have none.  The kernel's
 * data gives the tree no thresholds: each node has pmutop's own ("own:"),
 * the largest of its level, so exactly the largest is flagged.
 */
START_TEST(amd_generations_make_their_layouts)
{
	struct perfmon_layout_config mc = { .gp_counters = 6, .ht_on = true, .threads_per_core = 2,
					    .sockets = 2, .cores_per_socket = 96, .cpus = 384 };
	static const char *const l1[] = { "frontend_bound", "bad_speculation", "backend_bound",
					  "smt_contention", "retiring" };
	int rows = 0;

	setenv("PMUTOP_AMD_DIR", AMD_SRCDIR, 1);
	for (int i = 0; i < cpumodel_count; i++) {
		const struct cpumodel *m = &cpumodels[i];
		struct cpuid_info info;
		char path[PATH_MAX], err[512], notice[512] = "";
		struct perfmon *p;
		struct layout *l;
		int zen;

		if (m->vendor != CPUID_VENDOR_AMD)
			continue;
		rows++;
		cpuid_assume(m->family, m->model, 0, &info);
		cpumodel_classify(&info);
		ck_assert_int_eq(modelmap_find(AMD_SRCDIR, "AuthenticAMD", m->family, m->model, 0, 0,
					      path, err, sizeof(err)), 0);
		ck_assert_int_eq(perfmon_load(path, &p, err, sizeof(err)), 0);
		ck_assert_msg(!strcmp(p->platform, m->p->name), "%s: the table says %s, the "
			      "kernel's mapfile %s", m->name, m->p->name, p->platform);
		ck_assert_str_eq(p->vendor, "AuthenticAMD");
		perfmon_free(p);
		zen = m->p->name[4] - '0';
		ck_assert_int_eq(session_vendor_layout_for(PERFMON_SRCDIR, &info, &mc, &l, notice,
							   sizeof(notice)), 0);
		ck_assert_int_eq(l->vendor, CPUID_VENDOR_AMD);
		for (size_t k = 0; k < sizeof(l1) / sizeof(l1[0]); k++) {
			const struct layout_metric *lm = metric_named(l, l1[k]);
			char want[64];

			if (zen < 4) {
				ck_assert_ptr_null(lm);
				continue;
			}
			ck_assert_msg(lm && lm->level == 1 && !lm->na && lm->group >= 0,
				      "%s: %s not counted at level 1", m->name, l1[k]);
			ck_assert_str_eq(l->groups[lm->group].name, "PipelineL1");
			snprintf(want, sizeof(want), "%d * ls_not_halted_cyc", zen == 4 ? 6 : 8);
			ck_assert_msg(strstr(lm->formula, want), "%s: %s", l1[k], lm->formula);
			ck_assert_msg(lm->threshold && lm->threshold_own, "%s: %s has no threshold of "
				      "pmutop's", m->name, l1[k]);
		}
		if (zen >= 4) {
			/* level 1 at 4, 0.5, 81, 7.4, 7 (the memory-bound scenario): backend_bound alone */
			static const double v[] = { 4, 0.5, 81, 7.4, 7 };
			double *vars = xcalloc((size_t)layout_nvars(l) + 1, sizeof(double));

			for (size_t k = 0; k < sizeof(l1) / sizeof(l1[0]); k++)
				vars[layout_metric_var(l, (int)(metric_named(l, l1[k]) - l->metrics))] = v[k];
			for (size_t k = 0; k < sizeof(l1) / sizeof(l1[0]); k++)
				ck_assert_int_eq(layout_metric_flagged(l, (int)(metric_named(l, l1[k]) -
										   l->metrics), vars), k == 2);
			free(vars);
		}
		layout_free(l);
	}
	ck_assert_int_ge(rows, 20);
	/* a family the data lacks (Bulldozer): no layout, nothing said */
	{
		struct cpuid_info info;
		struct layout *l;
		char notice[512] = "";

		cpuid_assume(0x15, 0x01, 0, &info);
		info.vendor_id = CPUID_VENDOR_AMD;
		cpumodel_classify(&info);
		ck_assert_int_eq(session_vendor_layout_for(PERFMON_SRCDIR, &info, &mc, &l, notice,
							   sizeof(notice)), -ENOENT);
		ck_assert_str_eq(notice, "");
	}
}
END_TEST

START_TEST(hybrid_cpus_count_each_kind)
{
	struct perfmon_layout_config mc = { .gp_counters = 8, .ht_on = true, .threads_per_core = 2,
					    .sockets = 1, .cores_per_socket = 16, .cpus = 24,
					    .slots = true, .e_cores = true };
	struct cpuid_info info = { .vendor_id = CPUID_VENDOR_INTEL, .family = 6, .model = 0x97,
				   .stepping = 2, .hybrid = true, .core_type = 0x20 };
	struct layout *l = NULL;
	char notice[512] = "";
	int p1 = -1, e1 = -1, ret = -1;

	setenv("PMUTOP_ATOM_DIR", ATOM_SRCDIR, 1);
	/* an Alder Lake read on an E-core: the P-cores' data, the E-cores' beside it */
	ck_assert_int_eq(session_vendor_layout_for(PERFMON_SRCDIR, &info, &mc, &l, notice,
						   sizeof(notice)), 0);
	ck_assert_str_eq(notice, "");
	ck_assert_str_eq(l->name, "intel_adl");
	for (int g = 0; g < l->ngroups; g++) {
		if (!strcmp(l->groups[g].name, "TmaL1"))
			p1 = g;
		if (!strcmp(l->groups[g].name, "E_TmaL1"))
			e1 = g;
	}
	ck_assert_int_ge(p1, 0);
	ck_assert_int_eq(e1, p1 + 1); /* one key: the P-cores' group, then the E-cores' */
	ck_assert_int_eq(l->groups[p1].coretype, LAYOUT_CORES_P);
	ck_assert_int_eq(l->groups[e1].coretype, LAYOUT_CORES_E);
	ck_assert_int_eq(l->groups[e1].key, '1');
	for (int m = 0; m < l->nmetrics; m++)
		if (!strcmp(l->metrics[m].name, "tma_retiring"))
			ret = m;
	ck_assert_int_ge(ret, 0);
	ck_assert_int_eq(l->metrics[ret].group, e1);
	ck_assert_int_eq(l->metrics[ret].level, 1);
	ck_assert_str_eq(l->metrics[ret].formula, "100 * ( atom_TOPDOWN_RETIRING.ALL / ( 5 * cycles ) )");
	ck_assert_int_eq(layout_metric_coretype(l, ret), LAYOUT_CORES_E);
	layout_free(l);
	/* its E-cores off (or not online): the P-cores' groups alone */
	mc.e_cores = false;
	ck_assert_int_eq(session_vendor_layout_for(PERFMON_SRCDIR, &info, &mc, &l, notice,
						   sizeof(notice)), 0);
	for (int g = 0; g < l->ngroups; g++)
		ck_assert_int_ne(l->groups[g].coretype, LAYOUT_CORES_E);
	layout_free(l);
	info.model = 0x55;
	info.stepping = 4;
	info.hybrid = false;
	info.core_type = 0;
	notice[0] = 0;
	ck_assert_int_eq(session_vendor_layout_for(PERFMON_SRCDIR, &info, &mc, &l, notice,
						   sizeof(notice)), 0);
	ck_assert_str_eq(l->name, "intel_skx");
	ck_assert_str_eq(notice, "");
	for (int g = 0; g < l->ngroups; g++)
		ck_assert_int_eq(l->groups[g].coretype, LAYOUT_CORES_ANY);
	layout_free(l);
}
END_TEST

/*
 * A CoresOf that is a path ("../atom/adl") names no platform: the events
 * alone, whatever file the path would reach.  0, or the check that failed.
 */
static int adl_n_cores_of_is_a_name(const char *path)
{
	char dir[] = "/tmp/pmutop-check-perfmon-XXXXXX", copy[PATH_MAX], err[1024];
	json_t *doc = json_load_file(path, 0, NULL);
	struct perfmon *p;

	ck_assert_ptr_nonnull(doc);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(copy, sizeof(copy), "%s/adl-gracemont.json", dir);
	json_object_set_new(json_object_get(doc, "CoresOf"), "Platform", json_string("../atom/adl"));
	ck_assert_int_eq(json_dump_file(doc, copy, 0), 0);
	json_decref(doc);
	ck_assert_msg(perfmon_load_platform(copy, ATOM_SRCDIR, &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(p->nmetrics, 0);
	perfmon_free(p);
	unlink(copy);
	rmdir(dir);
	return 0;
}

/*
 * Alder Lake-N's platform (PATH) with its cores' metrics: Intel publishes
 * none for it, but its Gracemont cores are Alder Lake's E-cores, whose tree
 * Intel publishes in the kernel (data/atom/adl.json).  Level 1 is the
 * kernel's own for Alder Lake-N (tools/perf/pmu-events/arch/x86/alderlaken/
 * adln-metrics.json: tma_frontend_bound = TOPDOWN_FE_BOUND.ALL /
 * tma_info_slots, slots = 5 * CPU_CLK_UNHALTED.CORE, ScaleUnit 100%), and it
 * is counted on its 6 counters.  0, or the check that failed.
 */
static int adl_n_counts_its_cores_tree(const char *path)
{
	static const char *const level1[] = { "tma_frontend_bound", "tma_bad_speculation",
					       "tma_backend_bound", "tma_retiring" };
	const struct perfmon_layout_config n100 = { .gp_counters = 6, .threads_per_core = 1,
						    .sockets = 1, .cores_per_socket = 4, .cpus = 4 };
	char err[1024], buf[512], *text;
	struct perfmon *p;
	struct layout *l;
	int m;

	ck_assert_msg(perfmon_load_platform(path, ATOM_SRCDIR, &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(p->platform, "ADL-GRACEMONT");
	ck_assert_ptr_nonnull(p->metrics_path);
	ck_assert_ptr_nonnull(strstr(p->metrics_path, "atom/adl.json"));
	ck_assert_int_gt(p->nmetrics, 50);
	m = perfmon_metric_index(p, "tma_frontend_bound");
	ck_assert_int_ge(m, 0);
	perfmon_render(p, m, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "100 * ( TOPDOWN_FE_BOUND.ALL / ( 5 * CPU_CLK_UNHALTED.CORE ) )");
	ck_assert_int_eq(perfmon_layout(p, &n100, "generated", NULL, &text, err, sizeof(err)), 0);
	ck_assert_msg(layout_parse(text, path, &l, err, sizeof(err)) == 0, "%s", err);
	free(text);
	for (size_t k = 0; k < sizeof(level1) / sizeof(level1[0]); k++) {
		int found = 0;

		for (int i = 0; i < l->nmetrics; i++)
			if (!strcmp(l->metrics[i].name, level1[k])) {
				found = 1;
				ck_assert_int_eq(l->metrics[i].level, 1);
				ck_assert_msg(!l->metrics[i].na, "%s: %s", level1[k], l->metrics[i].na);
			}
		ck_assert_msg(found, "%s not in ADL-N's layout", level1[k]);
	}
	layout_free(l);
	perfmon_free(p);
	return adl_n_cores_of_is_a_name(path);
}

START_TEST(cpus_map_to_the_vendors_platforms)
{
	static const struct {
		unsigned family, model, stepping, core_type;
		const char *file;
	} rows[] = {
		{ 6, 0x8F, 8, 0, "spr.json" },    /* Sapphire Rapids */
		{ 6, 0xCF, 2, 0, "emr.json" },    /* Emerald Rapids */
		{ 6, 0xAD, 1, 0, "gnr.json" },    /* Granite Rapids */
		{ 6, 0x55, 4, 0, "skx.json" },    /* Skylake-SP: steppings 0-4 */
		{ 6, 0x55, 7, 0, "clx.json" },    /* Cascade Lake: steppings 5-F */
		{ 6, 0x6A, 6, 0, "icx.json" },    /* Ice Lake-SP */
		{ 6, 0x8C, 1, 0, "tgl.json" },    /* Tiger Lake */
		{ 6, 0x3F, 2, 0, "hsx.json" },    /* Haswell-EP */
		{ 6, 0x2A, 7, 0, "snb.json" },    /* Sandy Bridge */
		{ 6, 0x97, 2, 0x40, "adl.json" }, /* Alder Lake P-core */
		{ 6, 0x97, 2, 0x20, "adl.json" }, /* and its E-core */
		/* Alder Lake-N: Gracemont cores alone (Intel's mapfile gives 06_BE the
		 * alderlake_gracemont_core.json events as its "core", no metrics) */
		{ 6, 0xBE, 0, 0, "adl-gracemont.json" },
		{ 6, 0xBE, 0, 0x20, "adl-gracemont.json" },
	};
	char path[PATH_MAX], err[256], want[PATH_MAX];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ck_assert_int_eq(modelmap_find(PERFMON_SRCDIR, "GenuineIntel", rows[i].family, rows[i].model,
					      rows[i].stepping, rows[i].core_type, path, err,
					      sizeof(err)), 0);
		snprintf(want, sizeof(want), "%s/%s", PERFMON_SRCDIR, rows[i].file);
		ck_assert_str_eq(path, want);
	}
	/*
	 * Alder Lake-N's platform has its Gracemont events (the E-core's
	 * issue-slot events, TOPDOWN_BE_BOUND.ALL = 74H) and no Golden Cove
	 * metric nor event of its own (TOPDOWN.SLOTS, fixed counter 3)
	 */
	{
		struct perfmon *p;

		ck_assert_int_eq(modelmap_find(PERFMON_SRCDIR, "GenuineIntel", 6, 0xBE, 0, 0, path, err,
					      sizeof(err)), 0);
		ck_assert_int_eq(perfmon_load(path, &p, err, sizeof(err)), 0);
		ck_assert_str_eq(p->platform, "ADL-GRACEMONT");
		ck_assert_int_eq(p->nmetrics, 0);
		ck_assert_int_eq(perfmon_plan_has_slots(p), 0);
		perfmon_free(p);
		ck_assert_int_eq(adl_n_counts_its_cores_tree(path), 0);
		ck_assert_int_eq(modelmap_find(PERFMON_SRCDIR, "GenuineIntel", 6, 0x97, 2, 0x40, path,
					      err, sizeof(err)), 0);
		ck_assert_int_eq(perfmon_load(path, &p, err, sizeof(err)), 0);
		ck_assert_int_gt(p->nmetrics, 200); /* the hybrids keep Golden Cove's */
		perfmon_free(p);
	}
	/* Nehalem is pmutop's own layout, not a row here; a model Intel never made */
	ck_assert_int_eq(modelmap_find(PERFMON_SRCDIR, "GenuineIntel", 6, 0x1A, 5, 0, path, err, sizeof(err)),
			 -ENOENT);
	ck_assert_int_eq(modelmap_find(PERFMON_SRCDIR, "GenuineIntel", 6, 0x01, 0, 0, path, err, sizeof(err)),
			 -ENOENT);
}
END_TEST

/* Values for SPR's variables: every event N/A but the ones set. */
static double *vars_for(const struct perfmon *p)
{
	double *v = malloc(sizeof(double) * (size_t)PERFMON_NVARS(p));

	for (int i = 0; i < PERFMON_NVARS(p); i++)
		v[i] = NAN;
	return v;
}

static void set_event(const struct perfmon *p, double *v, const char *name, double x)
{
	for (int i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i].name, name)) {
			v[i] = x;
			return;
		}
	ck_abort_msg("no event %s", name);
}

static double metric(const struct perfmon *p, const double *v, const char *name, int *why)
{
	int m = perfmon_metric_index(p, name);

	ck_assert_msg(m >= 0, "no metric %s", name);
	return expr_eval_why(p->metrics[m].formula, v, why);
}

/*
 * Sapphire Rapids' level 1 from PERF_METRICS: the vendor's Frontend_Bound is
 * "frontend_bound / (the four) - uop_dropping / slots", Backend_Bound and
 * Retiring their share of the four, Bad_Speculation what the other three
 * leave: with shares 20/10/40/30 and 1 % of slots dropped, 19, 11, 30, 40,
 * summing to 100.
 */
START_TEST(level_one_is_the_vendors_arithmetic_and_sums_to_100)
{
	struct perfmon *p = load("spr.json");
	double *v = vars_for(p), fe, bs, be, ret;
	int why, m, th;

	set_event(p, v, "PERF_METRICS.FRONTEND_BOUND", 200);
	set_event(p, v, "PERF_METRICS.BAD_SPECULATION", 100);
	set_event(p, v, "PERF_METRICS.RETIRING", 400);
	set_event(p, v, "PERF_METRICS.BACKEND_BOUND", 300);
	set_event(p, v, "INT_MISC.UOP_DROPPING", 10);
	set_event(p, v, "TOPDOWN.SLOTS:perf_metrics", 1000);
	fe = metric(p, v, "Frontend_Bound", &why);
	bs = metric(p, v, "Bad_Speculation", &why);
	be = metric(p, v, "Backend_Bound", &why);
	ret = metric(p, v, "Retiring", &why);
	ck_assert_double_eq_tol(fe, 19, 1e-9);
	ck_assert_double_eq_tol(bs, 11, 1e-9);
	ck_assert_double_eq_tol(be, 30, 1e-9);
	ck_assert_double_eq_tol(ret, 40, 1e-9);
	ck_assert_double_eq_tol(fe + bs + be + ret, 100, 1e-9);

	/* the tree: Memory_Bound is Backend_Bound's child; level 1 has no parent */
	m = perfmon_metric_index(p, "Memory_Bound");
	ck_assert_int_eq(p->metrics[m].level, 2);
	ck_assert_str_eq(p->metrics[p->metrics[m].parent].name, "Backend_Bound");
	ck_assert_int_eq(p->metrics[perfmon_metric_index(p, "Backend_Bound")].parent, -1);

	/* thresholds over metrics: Fetch_Latency > 10 and its parent > 15 */
	m = perfmon_metric_index(p, "Fetch_Latency");
	th = perfmon_metric_index(p, "Frontend_Bound");
	v[PERFMON_VAR_METRIC(p, m)] = 12;
	v[PERFMON_VAR_METRIC(p, th)] = 19;
	ck_assert_double_eq(expr_eval(p->metrics[m].threshold, v), 1);
	v[PERFMON_VAR_METRIC(p, th)] = 14;
	ck_assert_double_eq(expr_eval(p->metrics[m].threshold, v), 0);
	free(v);
	perfmon_free(p);
}
END_TEST

START_TEST(na_says_which_event_or_the_division)
{
	struct perfmon *p = load("spr.json");
	double *v = vars_for(p);
	int why;

	/* cpi = CPU_CLK_UNHALTED.THREAD / INST_RETIRED.ANY: the first one missing */
	set_event(p, v, "INST_RETIRED.ANY", 100);
	ck_assert(isnan(metric(p, v, "cpi", &why)));
	ck_assert_int_ge(why, 0);
	ck_assert_str_eq(p->events[why].name, "CPU_CLK_UNHALTED.THREAD");
	ck_assert(p->events[why].listed);
	ck_assert_str_eq(p->events[why].code, "0x00");
	set_event(p, v, "CPU_CLK_UNHALTED.THREAD", 300);
	ck_assert_double_eq_tol(metric(p, v, "cpi", &why), 3, 1e-12);
	ck_assert_int_eq(why, EXPR_WHY_NONE);
	set_event(p, v, "INST_RETIRED.ANY", 0);
	ck_assert(isnan(metric(p, v, "cpi", &why)));
	ck_assert_int_eq(why, EXPR_WHY_DIV0);

	/* a constant the caller did not give is n/a too, named as such */
	ck_assert(isnan(metric(p, v, "cpu_operating_frequency", &why)));
	v[PERFMON_VAR_CONST(p, PERFMON_SYSTEM_TSC_FREQ)] = 2e9;
	set_event(p, v, "CPU_CLK_UNHALTED.REF_TSC", 200);
	ck_assert_double_eq_tol(metric(p, v, "cpu_operating_frequency", &why), 3.0, 1e-12);
	free(v);
	perfmon_free(p);
}
END_TEST

/* Write TEXT as a data file and load it: the error, or "" when it loads. */
static const char *load_text(const char *text)
{
	static char err[512];
	char path[] = "/tmp/pmutop-perfmon-XXXXXX";
	struct perfmon *p;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err[0] = '\0';
	if (perfmon_load(path, &p, err, sizeof(err)) == 0)
		perfmon_free(p);
	unlink(path);
	return strstr(err, ": ") ? strstr(err, ": ") + 2 : err;
}

START_TEST(damaged_files_name_the_place)
{
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[]}"), "");
	ck_assert_ptr_nonnull(strstr(load_text("{\"Events\":{},\"Metr"), "a damaged data file"));
	ck_assert_str_eq(load_text("{\"Metrics\":[]}"),
			 "not pmutop's perfmon data (no Events or Metrics): run "
			 "tools/perfmon-convert");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"a * \",\"Events\":{\"a\":\"E\"}}]}"),
			 "metric x: formula column 5: expected a number, a name or '(' before "
			 "the end");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"a\",\"Constants\":{\"a\":\"WARP_FACTOR\"}}]}"),
			 "metric x: formula names the constant WARP_FACTOR, which this pmutop does "
			 "not know: data newer than the program (update pmutop)");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\",\"Threshold\":{\"Formula\":\"a > 1\","
				   "\"Metrics\":{\"a\":\"y\"}}}]}"),
			 "metric x: threshold names y, which this file does not define");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\",\"ParentCategory\":\"y\"}]}"),
			 "metric x: its parent y is not a metric of the file");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\",\"ParentCategory\":\"y\"},{\"MetricName\":\"y\","
				   "\"Formula\":\"1\",\"ParentCategory\":\"x\"}]}"),
			 "metric x: its parents form a loop");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\","
				   "\"Formula\":\"1\"},{\"MetricName\":\"x\",\"Formula\":\"2\"}]}"),
			 "metric x is defined twice (metrics 1 and 2)");
	ck_assert_str_eq(load_text("{\"Events\":{},\"Metrics\":[{\"MetricName\":\"x\\ny\","
				   "\"Formula\":\"1\"}]}"),
			 "metric 1: a MetricName of letters, digits, '_' and '.' (at most 100)");
}
END_TEST


/* The plan of the metrics LIST select in P on GP counters. */
static struct perfmon_plan *plan_of(const struct perfmon *p, const char *list, int gp, bool ht_off)
{
	struct perfmon_plan *pl;
	char err[256];
	int *sel, n;

	ck_assert_msg(perfmon_select(p, list, &sel, &n, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(perfmon_plan(p, sel, n, gp, ht_off, &pl, err, sizeof(err)), 0);
	free(sel);
	return pl;
}

static int plan_pass_of(const struct perfmon *p, const struct perfmon_plan *pl, const char *name)
{
	for (int i = 0; i < pl->nmetrics; i++)
		if (!strcmp(p->metrics[pl->metrics[i]].name, name))
			return pl->pass[i];
	ck_abort_msg("%s was not asked for", name);
	return -2;
}

static const char *plan_why_of(const struct perfmon *p, const struct perfmon_plan *pl,
			       const char *name)
{
	for (int i = 0; i < pl->nmetrics; i++)
		if (!strcmp(p->metrics[pl->metrics[i]].name, name))
			return pl->why[i];
	return "";
}

static bool pass_has(const struct perfmon *p, const struct perfmon_pass *ps, const char *event)
{
	for (int i = 0; i < ps->ngp; i++)
		if (!strcmp(p->events[ps->gp[i]].name, event))
			return true;
	return false;
}

/*
 * Skylake-SP's level 1 on 4 counters with hyper-threading: the vendor's
 * "X if HYPERTHREADING_ON else Y" takes the any-thread events (the branch
 * taken), four events and fixed counter 1 with AnyThread, one pass; with
 * hyper-threading off the per-thread ones.  Memory_Bound's expanded formula
 * needs 9 counters at once: not counted, and said so.
 */
START_TEST(the_plan_takes_the_branch_hyper_threading_picks)
{
	struct perfmon *p = load("skx.json");
	struct perfmon_plan *pl = plan_of(p, "TmaL1", 4, false);
	int k = plan_pass_of(p, pl, "Frontend_Bound");

	ck_assert_int_ge(k, 0);
	ck_assert_int_eq(plan_pass_of(p, pl, "Backend_Bound"), k);
	ck_assert_int_eq(plan_pass_of(p, pl, "Retiring"), k);
	ck_assert_int_eq(plan_pass_of(p, pl, "Bad_Speculation"), k);
	ck_assert(pass_has(p, &pl->passes[k], "INT_MISC.RECOVERY_CYCLES_ANY"));
	ck_assert(!pass_has(p, &pl->passes[k], "INT_MISC.RECOVERY_CYCLES"));
	ck_assert_str_eq(p->events[pl->passes[k].fixed[1]].name, "CPU_CLK_UNHALTED.THREAD_ANY");
	ck_assert_int_eq(pl->npasses, 1);
	perfmon_plan_free(pl);

	pl = plan_of(p, "TmaL1", 8, true);
	k = plan_pass_of(p, pl, "Bad_Speculation");
	ck_assert(pass_has(p, &pl->passes[k], "INT_MISC.RECOVERY_CYCLES"));
	ck_assert_str_eq(p->events[pl->passes[k].fixed[1]].name, "CPU_CLK_UNHALTED.THREAD");
	perfmon_plan_free(pl);

	pl = plan_of(p, "Memory_Bound", 4, false);
	ck_assert_int_eq(plan_pass_of(p, pl, "Memory_Bound"), -1);
	ck_assert_str_eq(plan_why_of(p, pl, "Memory_Bound"),
			 "needs 9 general-purpose counters at once, 4 here");
	ck_assert_int_eq(perfmon_plan_counters(p, false), 4);
	ck_assert_int_eq(perfmon_plan_counters(p, true), 8);
	perfmon_plan_free(pl);
	perfmon_free(p);
}
END_TEST

/* Sapphire Rapids' level 1 and 2 read PERF_METRICS beside fixed counter 3: one pass. */
START_TEST(perf_metrics_ride_on_fixed_counter_3)
{
	struct perfmon *p = load("spr.json");
	struct perfmon_plan *pl = plan_of(p, "TmaL1,TmaL2", 8, false);
	char err[256];
	int *sel, n;

	ck_assert_int_eq(pl->npasses, 1);
	for (int i = 0; i < pl->nmetrics; i++)
		if (strcmp(p->metrics[pl->metrics[i]].name, "Info_Thread_Slots_Utilization"))
			ck_assert_msg(pl->pass[i] == 0, "%s: %s", p->metrics[pl->metrics[i]].name,
				      pl->why[i]);
		else /* its TOPDOWN.SLOTS:percore sums both threads' slots: n/a, and why */
			ck_assert(pl->pass[i] < 0 && strstr(pl->why[i], "perf's :percore"));
	ck_assert_str_eq(p->events[pl->passes[0].fixed[3]].base, "TOPDOWN.SLOTS");
	perfmon_plan_free(pl);
	/* a socket's event, and a word that is no group and no metric */
	pl = plan_of(p, "memory_bandwidth_read", 8, false);
	ck_assert_int_eq(pl->pass[0], -1);
	ck_assert_ptr_nonnull(strstr(pl->why[0], " box event, counted per socket"));
	perfmon_plan_free(pl);
	ck_assert_int_eq(perfmon_select(p, "TmaL1,NoSuchGroup", &sel, &n, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "SPR has no metric or metric group 'NoSuchGroup' (pmutop "
			 "--list-metrics lists them, with their groups)");
	ck_assert_int_eq(perfmon_plan(p, NULL, 0, 0, false, &pl, err, sizeof(err)), -EINVAL);
	perfmon_free(p);
	/* Granite Rapids' retire latencies are PEBS: not counted, and why */
	p = load("gnr.json");
	n = 0;
	for (int m = 0; m < p->nmetrics; m++) {
		struct perfmon_plan *one;
		const int *vars;
		int nv;
		bool rl = false;

		expr_vars(p->metrics[m].formula, &vars, &nv);
		for (int i = 0; i < nv; i++)
			rl |= vars[i] < p->nevents && strstr(p->events[vars[i]].name, ":retire_latency");
		if (!rl)
			continue;
		ck_assert_int_eq(perfmon_plan(p, &m, 1, 8, false, &one, err, sizeof(err)), 0);
		if (one->pass[0] < 0 && strstr(one->why[0], "is a PEBS retire latency, which pmutop "
					       "does not sample"))
			n++;
		perfmon_plan_free(one);
	}
	ck_assert_int_gt(n, 0);
	perfmon_free(p);
}
END_TEST

/* A data file of METRICS over events E0..E5 with the given rows. */
static struct perfmon *load_rows(const char *events, const char *metrics)
{
	static char text[8192], path[] = "/tmp/pmutop-plan-XXXXXX";
	struct perfmon *p;
	char err[512], name[sizeof(path)];
	int fd;

	memcpy(name, path, sizeof(path));
	fd = mkstemp(name);
	snprintf(text, sizeof(text), "{\"Platform\":\"T\",\"Events\":{%s},\"Metrics\":[%s]}", events,
		 metrics);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_msg(perfmon_load(name, &p, err, sizeof(err)) == 0, "%s", err);
	unlink(name);
	return p;
}

#define ROW(n, ctr, extra) "\"" n "\":{\"EventCode\":\"0x1\",\"UMask\":\"0x1\",\"Counter\":\"" ctr "\"" extra "}"
#define METRIC(n, f, ev) "{\"MetricName\":\"" n "\",\"Formula\":\"" f "\",\"Events\":{" ev "}}"

/*
 * The vendor's constraints: the counters an event may use (two events on
 * counter 0 only never share a pass, "0,1" and "0" do); the offcore pair
 * holds two matrix values, a third waits; one TakenAlone event a pass.
 */
START_TEST(constraints_of_the_vendors_rows)
{
	struct perfmon *p = load_rows(
		ROW("A", "0", "") "," ROW("B", "0", "") "," ROW("C", "0,1", "") ","
		ROW("O1", "0,1,2,3", ",\"MSRIndex\":\"0x1a6,0x1a7\",\"MSRValue\":\"0x1\"") ","
		ROW("O2", "0,1,2,3", ",\"MSRIndex\":\"0x1a6,0x1a7\",\"MSRValue\":\"0x2\"") ","
		ROW("O3", "0,1,2,3", ",\"MSRIndex\":\"0x1a6,0x1a7\",\"MSRValue\":\"0x3\"") ","
		ROW("T1", "0,1,2,3", ",\"TakenAlone\":\"1\"") "," ROW("T2", "0,1,2,3", ",\"TakenAlone\":\"1\""),
		METRIC("ma", "a", "\"a\":\"A\"") "," METRIC("mb", "b", "\"b\":\"B\"") ","
		METRIC("mc", "a + c", "\"a\":\"A\",\"c\":\"C\"") ","
		METRIC("o1", "a", "\"a\":\"O1\"") "," METRIC("o2", "a", "\"a\":\"O2\"") ","
		METRIC("o3", "a", "\"a\":\"O3\"") "," METRIC("t1", "a", "\"a\":\"T1\"") ","
		METRIC("t2", "a", "\"a\":\"T2\"") "," METRIC("ab", "a / b", "\"a\":\"A\",\"b\":\"B\""));
	struct perfmon_plan *pl = plan_of(p, "ma,mb,mc", 4, false);

	ck_assert_int_ne(plan_pass_of(p, pl, "ma"), plan_pass_of(p, pl, "mb"));
	ck_assert_int_eq(plan_pass_of(p, pl, "mc"), plan_pass_of(p, pl, "ma"));
	perfmon_plan_free(pl);
	pl = plan_of(p, "o1,o2,o3", 4, false);
	ck_assert_int_eq(pl->npasses, 2);
	ck_assert_int_eq(plan_pass_of(p, pl, "o1"), plan_pass_of(p, pl, "o2"));
	ck_assert_int_ne(plan_pass_of(p, pl, "o3"), plan_pass_of(p, pl, "o1"));
	perfmon_plan_free(pl);
	pl = plan_of(p, "t1,t2", 4, false);
	ck_assert_int_eq(pl->npasses, 2);
	perfmon_plan_free(pl);
	pl = plan_of(p, "ab", 4, false);
	ck_assert_int_eq(plan_pass_of(p, pl, "ab"), -1);
	ck_assert_str_eq(plan_why_of(p, pl, "ab"), "its 2 events cannot share the counters (the "
			 "counters each may use, an extra register or two events that must be alone)");
	perfmon_plan_free(pl);
	perfmon_free(p);
}
END_TEST

static Suite *perfmon_suite(void)
{
	Suite *s = suite_create("perfmon");

	/* pmutop's own groups (layouts/own) for every layout made here: the source tree's */
	setenv("PMUTOP_LAYOUT_DIR", LAYOUT_SRCDIR, 1);
	{
		/* 34 files loaded, 6,959 formulas compiled: seconds in the sanitizer builds */
		TCase *tc = tcase_create("every_formula_and_threshold_of_every_platform_compiles");

		tcase_add_test(tc, every_formula_and_threshold_of_every_platform_compiles);
		tcase_set_timeout(tc, 120);
		suite_add_tcase(s, tc);
	}
	{
		/* 42 layouts made and parsed: a few seconds, more in the sanitizer builds */
		TCase *tc = tcase_create("every_platform_makes_a_layout");

		tcase_add_test(tc, every_platform_makes_a_layout);
		tcase_set_timeout(tc, 120);
		suite_add_tcase(s, tc);
	}
	CHECK_ADD(s, hybrid_cpus_count_each_kind);
	CHECK_ADD(s, amd_generations_make_their_layouts);
	CHECK_ADD(s, cpus_map_to_the_vendors_platforms);
	CHECK_ADD(s, level_one_is_the_vendors_arithmetic_and_sums_to_100);
	CHECK_ADD(s, na_says_which_event_or_the_division);
	CHECK_ADD(s, damaged_files_name_the_place);
	CHECK_ADD(s, the_plan_takes_the_branch_hyper_threading_picks);
	CHECK_ADD(s, perf_metrics_ride_on_fixed_counter_3);
	CHECK_ADD(s, constraints_of_the_vendors_rows);
	return s;
}

CHECK_MAIN(perfmon_suite)
