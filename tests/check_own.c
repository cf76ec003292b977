/*
 * Tests for pmutop's own groups in files (layouts/own, NAME.layout): each file
 * is a part (groups other layouts take in), the layouts made from Intel's
 * and AMD's data take its groups as the file has them, a group for each
 * RAPL domain the machine's power PMU has, and a copy under another
 * PMUTOP_LAYOUT_DIR is what gets counted; a broken copy is one message
 * naming its file and line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "layout.h"
#include "perfmon.h"
#include "perfmon_layout.h"
#include "own_copy.h"

static const char *const own_names[] = { "power", "cstate", "memory" };

/* Group NAME's lines in TEXT, "group NAME" to its "end" (malloc'd), or NULL. */
static char *block_of(const char *text, const char *name)
{
	char head[128];
	const char *b, *e;
	char *out;

	snprintf(head, sizeof(head), "\ngroup %s\n", name);
	b = strstr(text, head);
	if (!b)
		return NULL;
	e = strstr(b + 1, "\nend\n");
	ck_assert_ptr_nonnull(e);
	out = strndup(b + 1, (size_t)(e + 5 - (b + 1)));
	return out;
}

static struct perfmon *data(const char *dir, const char *file)
{
	char path[4096], err[512];
	struct perfmon *p;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ck_assert_msg(perfmon_load(path, &p, err, sizeof(err)) == 0, "%s", err);
	return p;
}

static char *generate(const struct perfmon *p, struct perfmon_layout_config c, const char *dir)
{
	char err[1024], *text;
	struct layout *l;

	c.layout_dir = dir ? dir : LAYOUT_SRCDIR;
	ck_assert_msg(perfmon_layout(p, &c, "generated", NULL, &text, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(layout_parse(text, "generated", &l, err, sizeof(err)) == 0, "%s", err);
	layout_free(l);
	return text;
}

static const struct perfmon_layout_config server = {
	.gp_counters = 8, .ht_on = true, .threads_per_core = 2, .sockets = 2,
	.cores_per_socket = 56, .cpus = 224, .chas = 56, .channels = 8, .upi_links = 4,
};

START_TEST(own_files_are_parts_a_whole_layout_is_not)
{
	for (size_t k = 0; k < sizeof(own_names) / sizeof(own_names[0]); k++) {
		char *text = own_text(LAYOUT_SRCDIR, own_names[k]), err[512];
		struct layout *l;

		ck_assert_msg(layout_parse_part(text, own_names[k], &l, err, sizeof(err)) == 0, "%s",
			      err);
		ck_assert_int_gt(l->ngroups, 0);
		layout_free(l);
		/* no thread metric: not a layout to count with on its own */
		ck_assert_int_eq(layout_parse(text, own_names[k], &l, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, "expected at least one 'metric NAME thread"), "%s", err);
		free(text);
	}
}
END_TEST

/* Each group of own file NAME is in GEN as the file has it when WANT(group) says so, else absent. */
static void check_blocks(const char *gen, const char *name, const char *const *groups,
			 const bool *want, int n)
{
	char *own = own_text(LAYOUT_SRCDIR, name);

	for (int g = 0; g < n; g++) {
		char *in_file = block_of(own, groups[g]), *in_gen = block_of(gen, groups[g]);

		ck_assert_msg(in_file, "%s.layout has no group %s", name, groups[g]);
		if (want[g])
			ck_assert_msg(in_gen && !strcmp(in_file, in_gen), "group %s: the layout has\n%s\n"
				      "the file\n%s", groups[g], in_gen ? in_gen : "(nothing)", in_file);
		else
			ck_assert_msg(!in_gen, "group %s is in a layout whose machine lacks it",
				      groups[g]);
		free(in_file);
		free(in_gen);
	}
	free(own);
}

START_TEST(intel_layouts_take_each_domain_the_machine_has)
{
	static const char *const power[] = { "Power", "Power.ram", "Power.cores", "Power.psys" };
	static const char *const cstate[] = { "CStates", "CStates.pkg" };
	static const bool all[] = { true, true, true, true };
	struct perfmon *p = data(PERFMON_SRCDIR, "spr.json");
	struct perfmon_layout_config c = server;
	char *gen;

	/* the kernel's power PMU has package and DRAM */
	c.rapl = PERFMON_RAPL_PKG | PERFMON_RAPL_RAM;
	gen = generate(p, c, NULL);
	check_blocks(gen, "power", power, (const bool[]){ true, true, false, false }, 4);
	check_blocks(gen, "cstate", cstate, all, 2);
	free(gen);
	/* every domain */
	c.rapl = PERFMON_RAPL_PKG | PERFMON_RAPL_RAM | PERFMON_RAPL_CORES | PERFMON_RAPL_PSYS;
	gen = generate(p, c, NULL);
	check_blocks(gen, "power", power, all, 4);
	free(gen);
	perfmon_free(p);
}
END_TEST

START_TEST(a_client_takes_the_memory_group_amd_no_cstates)
{
	static const char *const power[] = { "Power", "Power.ram", "Power.cores", "Power.psys" };
	struct perfmon *p = data(PERFMON_SRCDIR, "adl.json");
	struct perfmon_layout_config client = {
		.gp_counters = 8, .ht_on = true, .threads_per_core = 2, .sockets = 1,
		.cores_per_socket = 8, .cpus = 16, .imc_free = 2,
		.rapl = PERFMON_RAPL_PKG | PERFMON_RAPL_CORES | PERFMON_RAPL_PSYS,
	}, amd = server;
	char *gen = generate(p, client, NULL);

	check_blocks(gen, "memory", (const char *const[]){ "Memory" }, (const bool[]){ true }, 1);
	check_blocks(gen, "power", power, (const bool[]){ true, false, true, true }, 4);
	free(gen);
	perfmon_free(p);
	/* Zen 4: the package domain (AMD's RAPL), no C-state PMU in Linux */
	p = data(AMD_SRCDIR, "zen4.json");
	amd.upi_links = amd.chas = 0;
	amd.l3s = 8;
	amd.rapl = PERFMON_RAPL_PKG;
	gen = generate(p, amd, NULL);
	check_blocks(gen, "power", power, (const bool[]){ true, false, false, false }, 4);
	ck_assert_ptr_null(strstr(gen, "\ngroup CStates"));
	free(gen);
	perfmon_free(p);
}
END_TEST

START_TEST(a_copy_elsewhere_is_what_is_counted)
{
	char dir[] = "/tmp/pmutop-own.XXXXXX";
	struct perfmon *p = data(PERFMON_SRCDIR, "spr.json");
	struct perfmon_layout_config c = server;
	struct layout *l;
	char *gen, err[1024];
	int m;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	copy_own(dir, "power", "package_watts socket W = pkg_joules / seconds",
		 "package_watts socket W = 2 * pkg_joules / seconds");
	c.rapl = PERFMON_RAPL_PKG;
	gen = generate(p, c, dir);
	ck_assert_ptr_nonnull(strstr(gen, "package_watts socket W = 2 * pkg_joules / seconds"));
	ck_assert_int_eq(layout_parse(gen, "generated", &l, err, sizeof(err)), 0);
	for (m = 0; m < l->nmetrics && strcmp(l->metrics[m].name, "package_watts"); m++)
		;
	ck_assert_int_lt(m, l->nmetrics);
	ck_assert_str_eq(l->metrics[m].formula, "2 * pkg_joules / seconds");
	layout_free(l);
	free(gen);
	perfmon_free(p);
	remove_own(dir);
}
END_TEST

START_TEST(a_broken_copy_names_its_file_and_line)
{
	char dir[] = "/tmp/pmutop-own.XXXXXX", err[1024], want[4200], *text = NULL;
	struct perfmon *p = data(PERFMON_SRCDIR, "spr.json");
	struct perfmon_layout_config c = server;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	c.layout_dir = dir;
	/* a formula over an event the group does not have */
	copy_own(dir, "cstate", "= 100 * core_c6_ticks /", "= 100 * core_c7_ticks /");
	ck_assert_int_eq(perfmon_layout(p, &c, "generated", NULL, &text, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(text);
	snprintf(want, sizeof(want), "%s/own/cstate.layout:", dir);
	ck_assert_msg(strstr(err, want) && strstr(err, ": expected ") &&
		      strstr(err, "PMUTOP_LAYOUT_DIR"), "%s", err);
	remove_own(dir);
	/* a group the generator takes by its name, renamed */
	ck_assert_ptr_nonnull(mkdtemp(strcpy(dir, "/tmp/pmutop-own.XXXXXX")));
	copy_own(dir, "power", "group Power.ram\n", "group Power.dram\n");
	ck_assert_int_eq(perfmon_layout(p, &c, "generated", NULL, &text, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s/own/power.layout: expected a group Power.ram", dir);
	ck_assert_msg(strstr(err, want), "%s", err);
	remove_own(dir);
	/* none at all */
	c.layout_dir = "/nonexistent";
	ck_assert_int_eq(perfmon_layout(p, &c, "generated", NULL, &text, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "/nonexistent/own/power.layout") &&
		      strstr(err, "reinstall pmutop"), "%s", err);
	perfmon_free(p);
}
END_TEST

static Suite *own_suite(void)
{
	Suite *s = suite_create("own");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, own_files_are_parts_a_whole_layout_is_not);
	tcase_add_test(tc, intel_layouts_take_each_domain_the_machine_has);
	tcase_add_test(tc, a_client_takes_the_memory_group_amd_no_cstates);
	tcase_add_test(tc, a_copy_elsewhere_is_what_is_counted);
	tcase_add_test(tc, a_broken_copy_names_its_file_and_line);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(own_suite)
