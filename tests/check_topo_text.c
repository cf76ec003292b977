/*
 * Tests for the compact topology text (pmutop --topology-only): what the
 * user reads must be short, exact and keep hwloc's numbering.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "topo.h"
#include "topo_text.h"

static char *render(const char *spec, int width)
{
	char err[512], *buf = NULL;
	size_t len = 0;
	struct topo *t;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_msg(topo_load(spec, &t, err, sizeof(err)) == 0, "%s", err);
	topo_text_print(t, f, width);
	fclose(f);
	topo_free(t);
	return buf;
}

/* Lines of S, and the longest after the first (which quotes the user's source). */
static int count_lines(const char *s, int *longest)
{
	int n = 0;

	*longest = 0;
	for (const char *p = strchr(s, '\n') + 1; *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		if (len > *longest)
			*longest = len;
		ck_assert_msg(len == 0 || p[len - 1] != ' ', "trailing blank in: %.*s", len, p);
		n++;
		p += len + (nl ? 1 : 0);
	}
	return n + 1;
}

#define ck_assert_has(hay, needle) \
	ck_assert_msg(strstr(hay, needle), "missing '%s' in:\n%s", needle, hay)

START_TEST(xeon5500_fits_in_ten_lines)
{
	char *s = render("pack:2 [numa(memory=12GiB)] l3:1(size=8MiB) core:4 pu:2(indexes=2*8:1*2)",
			 80);
	int longest, lines = count_lines(s, &longest);

	ck_assert_int_le(lines, 10);
	ck_assert_int_le(longest, 80);
	ck_assert_has(s, "2 sockets, 2 NUMA nodes, 8 cores, 16 threads online");
	ck_assert_has(s, "socket 0: cpu 0-3,8-11 | NUMA node 0 (12 GiB) | L3 8 MiB");
	ck_assert_has(s, "socket 1: cpu 4-7,12-15 | NUMA node 1 (12 GiB) | L3 8 MiB");
	ck_assert_has(s, "core 0: cpu 0,8");
	ck_assert_has(s, "core 7: cpu 7,15");
	free(s);
}
END_TEST

START_TEST(machine_with_1024_threads_stays_readable)
{
	char *s = render("pack:16 [numa(memory=64GiB)] l3:1(size=32MiB) core:32 "
			 "pu:2(indexes=2*512:1*2)", 80);
	int longest, lines = count_lines(s, &longest);

	ck_assert_int_le(lines, 40);
	ck_assert_int_le(longest, 100);
	ck_assert_has(s, "16 sockets, 16 NUMA nodes, 512 cores, 1024 threads online");
	ck_assert_has(s, "socket 0: cpu 0-31,512-543 |");
	ck_assert_has(s, "  cores 0-31: cpu 0-31 with siblings 512-543\n");
	ck_assert_has(s, "  cores 480-511: cpu 480-511 with siblings 992-1023\n");
	free(s);
}
END_TEST

START_TEST(adjacent_siblings_compact_to_one_range)
{
	char *s = render("pack:1 core:16 pu:2", 80);

	ck_assert_has(s, "  cores 0-15: cpu 0-31, 2 per core in order\n");
	free(s);
}
END_TEST

START_TEST(sparse_ids_interleaved_cpus_and_offline_cpu)
{
	char *s = render(TEST_DATADIR "/topology/westmere-ep-sparse.xml", 80);
	int longest;

	count_lines(s, &longest);
	ck_assert_has(s, "topology from hwloc XML " TEST_DATADIR "/topology/westmere-ep-sparse.xml\n");
	ck_assert_has(s, "\n2 sockets, 2 NUMA nodes, 12 cores, 23 threads online\n");
	ck_assert_has(s, "socket 1: cpu 1,3,5,7,9,11,13,15,17,19,21 |");
	ck_assert_has(s, "core 8: cpu 6,18");
	ck_assert_has(s, "core 10: cpu 11\n");
	ck_assert_has(s, "offline: cpu 23\n");
	free(s);
}
END_TEST

START_TEST(narrow_width_wraps_core_lists)
{
	char *s = render("pack:1 core:8 pu:2", 50);
	int longest;

	count_lines(s, &longest);
	ck_assert_has(s, "\n  core 0: cpu 0-1     core 1: cpu 2-3\n  core 2: cpu 4-5     core 3");
	free(s);
}
END_TEST

START_TEST(bytes_in_binary_units_or_na)
{
	char buf[32];

	topo_text_bytes(12ULL << 30, buf, sizeof(buf));
	ck_assert_str_eq(buf, "12 GiB");
	topo_text_bytes(1536, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.5 KiB");
	topo_text_bytes(512, buf, sizeof(buf));
	ck_assert_str_eq(buf, "512 B");
	topo_text_bytes(TOPO_BYTES_UNKNOWN, buf, sizeof(buf));
	ck_assert_str_eq(buf, "n/a");
}
END_TEST

static Suite *topo_text_suite(void)
{
	Suite *s = suite_create("topo_text");

	CHECK_ADD(s, xeon5500_fits_in_ten_lines);
	CHECK_ADD(s, machine_with_1024_threads_stays_readable);
	CHECK_ADD(s, adjacent_siblings_compact_to_one_range);
	CHECK_ADD(s, sparse_ids_interleaved_cpus_and_offline_cpu);
	CHECK_ADD(s, narrow_width_wraps_core_lists);
	CHECK_ADD(s, bytes_in_binary_units_or_na);
	return s;
}

CHECK_MAIN(topo_text_suite)
