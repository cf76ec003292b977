/*
 * check_models: pmutop's CPU map.  data/models.csv, read here line by line,
 * is the table cpumodels[] the build made of it, row for row and in its order
 * (the first row that matches wins); each row names its platform as the
 * platform names itself; and the one matcher the three maps share
 * (modelmap.h) reads a row's vendor, family, model, steppings and core type
 * as the vendors' mapfiles mean them.
 */
#include "check_main.h"
#include "cpumodel.h"
#include "modelmap.h"

#include <stdio.h>
#include <string.h>

START_TEST(the_map_file_is_the_table)
{
	FILE *f = fopen(MODELS_CSV, "r");
	char line[512];
	int row = 0, header = 0;

	ck_assert_msg(f, "%s", MODELS_CSV);
	while (fgets(line, sizeof(line), f)) {
		char *fields[4], *parts;
		size_t n;

		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		if (!header++) {
			ck_assert_str_eq(line, "Family-model,Core Type,Platform,Parts");
			continue;
		}
		ck_assert_int_eq(modelmap_fields(line, fields, 4), 4);
		ck_assert_msg(row < cpumodel_count, "the file has more rows than the table (%s)", line);
		parts = fields[3];
		n = strlen(parts);
		if (n >= 2 && parts[0] == '"' && parts[n - 1] == '"') {
			parts[n - 1] = '\0';
			parts++;
		}
		ck_assert_str_eq(cpumodels[row].match, fields[0]);
		ck_assert_str_eq(cpumodels[row].core_type, fields[1]);
		ck_assert_str_eq(cpumodels[row].platform, fields[2]);
		ck_assert_str_eq(cpumodels[row].name, parts);
		row++;
	}
	fclose(f);
	ck_assert_int_eq(row, cpumodel_count);
	ck_assert_int_gt(row, 30);
}
END_TEST

START_TEST(each_row_names_its_platform_and_is_found_by_its_model)
{
	for (int i = 0; i < cpumodel_count; i++) {
		const struct cpumodel *m = &cpumodels[i];
		const struct cpumodel *found = cpumodel_find(m->vendor, m->family, m->model);
		char vendor[16];
		unsigned family, model;

		/* "Nehalem EP" would reach Nehalem-EP's entry by the build's rule: the test says no */
		ck_assert_msg(!strcmp(m->platform, m->p->name), "%s: row says \"%s\", platform is \"%s\"",
			      m->match, m->platform, m->p->name);
		/* the vendor, family and model fields are the row's, read here apart from the matcher */
		ck_assert_int_eq(sscanf(m->match, "%15[A-Za-z]-%u-%x", vendor, &family, &model), 3);
		ck_assert_str_eq(vendor, cpuid_vendor_string(m->vendor));
		ck_assert_uint_eq(family, m->family);
		ck_assert_uint_eq(model, m->model);
		ck_assert_msg(found, "%s not found", m->match);
		ck_assert_uint_eq(found->vendor, m->vendor);
		ck_assert_uint_eq(found->family, m->family);
		ck_assert_uint_eq(found->model, m->model);
	}
}
END_TEST

START_TEST(the_matcher_reads_rows_as_the_vendors_mean_them)
{
	/* the family in decimal, the model in hex: AMD's family 19h is 25 */
	ck_assert(modelmap_match("AuthenticAMD-25-11", "AuthenticAMD", 0x19, 0x11, 1));
	ck_assert(!modelmap_match("AuthenticAMD-25-11", "GenuineIntel", 0x19, 0x11, 1));
	ck_assert(!modelmap_match("AuthenticAMD-25-11", "AuthenticAMD", 25, 0x12, 1));
	ck_assert(!modelmap_match("GenuineIntel-6-5", "GenuineIntel", 6, 0x55, 1));
	ck_assert(!modelmap_match("GenuineIntel-6-55x", "GenuineIntel", 6, 0x55, 1));
	/* steppings: one hex digit, or a set in brackets; any stepping (-1) is not a set */
	ck_assert(modelmap_match("GenuineIntel-6-55-[01234]", "GenuineIntel", 6, 0x55, 4));
	ck_assert(!modelmap_match("GenuineIntel-6-55-[01234]", "GenuineIntel", 6, 0x55, 5));
	ck_assert(!modelmap_match("GenuineIntel-6-55-[01234]", "GenuineIntel", 6, 0x55, -1));
	ck_assert(modelmap_match("GenuineIntel-6-55-B", "GenuineIntel", 6, 0x55, 11));
	ck_assert(modelmap_match("GenuineIntel-6-55", "GenuineIntel", 6, 0x55, -1));
	/* a core type names the hybrid part's cores of that type; a CPU of one kind takes any row */
	ck_assert(modelmap_core_type("0x40", 0x40));
	ck_assert(modelmap_core_type("0X40", 0x40));
	ck_assert(!modelmap_core_type("0x40", 0x20));
	ck_assert(modelmap_core_type("", 0x20));
	ck_assert(modelmap_core_type("0x20", 0));
}
END_TEST

START_TEST(a_line_splits_at_its_commas_the_last_field_taking_the_rest)
{
	char line[] = "GenuineIntel-6-1A,,Nehalem-EP,\"Nehalem-EP, Core i7 9xx\"";
	char short_line[] = "GenuineIntel-6-1A,0x40";
	char *f[4];

	ck_assert_int_eq(modelmap_fields(line, f, 4), 4);
	ck_assert_str_eq(f[0], "GenuineIntel-6-1A");
	ck_assert_str_eq(f[1], "");
	ck_assert_str_eq(f[2], "Nehalem-EP");
	ck_assert_str_eq(f[3], "\"Nehalem-EP, Core i7 9xx\"");
	ck_assert_int_eq(modelmap_fields(short_line, f, 4), 2);
	ck_assert_str_eq(f[1], "0x40");
}
END_TEST

static Suite *models_suite(void)
{
	Suite *s = suite_create("models");

	CHECK_ADD(s, the_map_file_is_the_table);
	CHECK_ADD(s, each_row_names_its_platform_and_is_found_by_its_model);
	CHECK_ADD(s, the_matcher_reads_rows_as_the_vendors_mean_them);
	CHECK_ADD(s, a_line_splits_at_its_commas_the_last_field_taking_the_rest);
	return s;
}

CHECK_MAIN(models_suite)
