/* Tests for cpulist: what a user types as a CPU list and what pmutop prints. */
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "cpulist.h"

static void expect_parse(const char *text, const int *want, int nwant)
{
	int *cpus, n;
	size_t col = 0;

	ck_assert_int_eq(cpulist_parse(text, &cpus, &n, &col), 0);
	ck_assert_int_eq(n, nwant);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(cpus[i], want[i]);
	free(cpus);
}

static void expect_error(const char *text, int want_rc, size_t want_col)
{
	int *cpus = (int *)1, n = -1;
	size_t col = 0;

	ck_assert_int_eq(cpulist_parse(text, &cpus, &n, &col), want_rc);
	ck_assert_uint_eq(col, want_col);
	ck_assert_ptr_null(cpus);
	ck_assert_int_eq(n, 0);
}

START_TEST(parse_ranges_and_singles)
{
	expect_parse("0-3,8", (int[]){ 0, 1, 2, 3, 8 }, 5);
	expect_parse("7", (int[]){ 7 }, 1);
	expect_parse("12-12", (int[]){ 12 }, 1);
}
END_TEST

START_TEST(parse_sorts_and_drops_duplicates)
{
	expect_parse("8,0-2,1,8", (int[]){ 0, 1, 2, 8 }, 4);
}
END_TEST

START_TEST(parse_reports_the_column_of_a_syntax_error)
{
	expect_error("", -EINVAL, 1);
	expect_error("0-3,", -EINVAL, 5);
	expect_error("0-3,x", -EINVAL, 5);
	expect_error("1-", -EINVAL, 3);
	expect_error("0 1", -EINVAL, 2);
	expect_error("-1", -EINVAL, 1);
}
END_TEST

START_TEST(parse_rejects_reversed_and_huge_ranges)
{
	expect_error("0,5-3", -ERANGE, 3);
	expect_error("99999999999", -ERANGE, 1);
	expect_error("0-65536", -ERANGE, 1);
}
END_TEST

START_TEST(format_makes_ranges_from_any_order)
{
	char *s = cpulist_format((int[]){ 8, 3, 0, 1, 2, 10, 11, 8 }, 8);

	ck_assert_str_eq(s, "0-3,8,10-11");
	free(s);
	s = cpulist_format((int[]){ 0, 2, 4 }, 3);
	ck_assert_str_eq(s, "0,2,4");
	free(s);
	s = cpulist_format(NULL, 0);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(format_and_parse_round_trip)
{
	int in[] = { 0, 1, 2, 3, 16, 17, 40, 512, 513, 514 }, *out, n;
	char *s = cpulist_format(in, 10);
	size_t col;

	ck_assert_str_eq(s, "0-3,16-17,40,512-514");
	ck_assert_int_eq(cpulist_parse(s, &out, &n, &col), 0);
	ck_assert_int_eq(n, 10);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(out[i], in[i]);
	ck_assert(cpulist_contains(out, n, 513));
	ck_assert(!cpulist_contains(out, n, 4));
	free(out);
	free(s);
}
END_TEST

static Suite *cpulist_suite(void)
{
	Suite *s = suite_create("cpulist");

	CHECK_ADD(s, parse_ranges_and_singles);
	CHECK_ADD(s, parse_sorts_and_drops_duplicates);
	CHECK_ADD(s, parse_reports_the_column_of_a_syntax_error);
	CHECK_ADD(s, parse_rejects_reversed_and_huge_ranges);
	CHECK_ADD(s, format_makes_ranges_from_any_order);
	CHECK_ADD(s, format_and_parse_round_trip);
	return s;
}

CHECK_MAIN(cpulist_suite)
