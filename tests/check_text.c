/*
 * Tests for text (the one rule for outside strings) and rootfs (the one
 * reader of a machine's files): what reaches a terminal, a CSV reader or a
 * JSON parser from a name another user chose, and what a tree under
 * --root can make root open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "rootfs.h"
#include "text.h"

static const char *clean(const char *in)
{
	static char out[512];

	text_clean(out, sizeof(out), in, strlen(in));
	return out;
}

START_TEST(escape_sequences_are_written_as_text)
{
	ck_assert_str_eq(clean("job\x1b]0;TITLE\a\x1b[2J\x1b[1;31mFAKE"),
			 "job\\x1b]0;TITLE\\x07\\x1b[2J\\x1b[1;31mFAKE");
	ck_assert_str_eq(clean("a\nfake_metric{a=\"b\"} 1"), "a\\x0afake_metric{a=\"b\"} 1");
	ck_assert_str_eq(clean("tab\there\x7f"), "tab\\x09here\\x7f");
	/* C1 controls as UTF-8 (U+009B is CSI to many terminals) and a bidi override */
	ck_assert_str_eq(clean("x\xc2\x9b" "2J"), "x\\xc2\\x9b2J");
	ck_assert_str_eq(clean("evil\xe2\x80\xaetxt.exe"), "evil\\xe2\\x80\\xaetxt.exe");
}
END_TEST

START_TEST(invalid_utf8_is_escaped_byte_by_byte)
{
	ck_assert_str_eq(clean("\xff\xfe"), "\\xff\\xfe");
	ck_assert_str_eq(clean("over\xc0\xaflong"), "over\\xc0\\xaflong");
	ck_assert_str_eq(clean("surrogate\xed\xa0\x80"), "surrogate\\xed\\xa0\\x80");
	ck_assert_str_eq(clean("cut\xe2\x82"), "cut\\xe2\\x82");
	ck_assert_str_eq(clean("big\xf4\x90\x80\x80"), "big\\xf4\\x90\\x80\\x80");
}
END_TEST

START_TEST(printable_utf8_and_backslashes_stay)
{
	const char *fine = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 "
			   "system-systemd\\x2dfsck.slice";

	ck_assert_str_eq(clean(fine), fine);
	ck_assert(text_is_clean(fine, strlen(fine)));
	ck_assert(!text_is_clean("a\x1b", 2));
	ck_assert(!text_is_clean("\xff", 1));
}
END_TEST

START_TEST(cleaning_twice_is_cleaning_once)
{
	const char *bad[] = { "job\x1b]0;T\a", "\xff\xfe\xfd", "a\nb\r\n", "\xe2\x80\xae" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char once[256], twice[256];

		text_clean(once, sizeof(once), bad[i], strlen(bad[i]));
		text_clean(twice, sizeof(twice), once, strlen(once));
		ck_assert_str_eq(once, twice);
		ck_assert(text_is_clean(once, strlen(once)));
	}
}
END_TEST

START_TEST(a_cut_never_splits_a_character_or_an_escape)
{
	char out[8];

	/* "é" is 2 bytes: 3 of them fit in 7, the fourth would leave a half */
	text_clean(out, sizeof(out), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8);
	ck_assert_str_eq(out, "\xc3\xa9\xc3\xa9\xc3\xa9");
	text_clean(out, sizeof(out), "ab\x1b\x1b", 4);
	ck_assert_str_eq(out, "ab\\x1b");
	ck_assert(text_is_clean(out, strlen(out)));
	{
		char buf[10] = "x\xff\xff\xff";

		text_clean_in_place(buf, sizeof(buf));
		ck_assert_str_eq(buf, "x\\xff\\xff");
	}
}
END_TEST

START_TEST(csv_fields_are_quoted_as_rfc_4180_says)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	text_csv_field("plain", f);
	fputc('|', f);
	text_csv_field("a,b", f);
	fputc('|', f);
	text_csv_field("say \"hi\"", f);
	fputc('|', f);
	text_csv_field("line\nbreak", f);
	fputc('|', f);
	text_csv_field(" pad", f);
	fclose(f);
	ck_assert_str_eq(text, "plain|\"a,b\"|\"say \"\"hi\"\"\"|line\\x0abreak|\" pad\"");
	free(text);
}
END_TEST

static char tree[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void make_tree(void)
{
	char path[PATH_MAX + 64], outside[PATH_MAX + 64];

	snprintf(tree, sizeof(tree), "/tmp/pmutop-rootfs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tree));
	snprintf(path, sizeof(path), "%s/sys", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/devices", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/etc", tree);
	mkdir(path, 0755);
	put("sys/devices/type", "4\n");
	put("etc/secret", "the tree's own\n");
	/* outside the tree: what a link must never reach */
	snprintf(outside, sizeof(outside), "%s.outside", tree);
	{
		FILE *f = fopen(outside, "w");

		ck_assert_ptr_nonnull(f);
		fputs("root:$6$secret\n", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/sys/devices/abs", tree);
	ck_assert_int_eq(symlink(outside, path), 0);
	snprintf(path, sizeof(path), "%s/sys/devices/up", tree);
	ck_assert_int_eq(symlink("../../../../../../../../etc/secret", path), 0);
	snprintf(path, sizeof(path), "%s/sys/bus", tree);
	ck_assert_int_eq(symlink("devices", path), 0);
	snprintf(path, sizeof(path), "%s/sys/devices/fifo", tree);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
}

static void drop_tree(void)
{
	char cmd[PATH_MAX * 2 + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s.outside'", tree, tree);
	ck_assert_int_eq(system(cmd), 0);
}

static void check_tree(bool walk)
{
	char buf[256];

	rootfs_force_walk(walk);
	make_tree();
	ck_assert_int_eq(rootfs_read_line(tree, "sys/devices/type", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "4");
	/* a link inside the tree is followed (sysfs is made of them) */
	ck_assert_int_eq(rootfs_read_line(tree, "sys/bus/type", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "4");
	/* an absolute link starts again at the root: the file outside is never read */
	ck_assert_int_eq(rootfs_read_line(tree, "sys/devices/abs", buf, sizeof(buf)), -ENOENT);
	ck_assert_str_eq(buf, "");
	/* ".." stops at the root */
	ck_assert_int_eq(rootfs_read_line(tree, "sys/devices/up", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "the tree's own");
	ck_assert_int_eq(rootfs_read_line(tree, "../../../../etc/secret", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "the tree's own");
	/* a FIFO is refused at once, not waited on */
	ck_assert_int_eq(rootfs_read_line(tree, "sys/devices/fifo", buf, sizeof(buf)), -EINVAL);
	ck_assert_ptr_null(rootfs_fopen(tree, "sys/devices/fifo"));
	ck_assert_int_eq(errno, EINVAL);
	/* a directory is not a file, a file not a directory */
	ck_assert_int_eq(rootfs_read_line(tree, "sys", buf, sizeof(buf)), -EINVAL);
	ck_assert_ptr_null(rootfs_opendir(tree, "sys/devices/type"));
	{
		DIR *d = rootfs_opendir(tree, "sys/bus");

		ck_assert_ptr_nonnull(d);
		closedir(d);
	}
	{
		FILE *f = rootfs_fopen(tree, "sys/bus/type");
		char line[16];

		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
		ck_assert_str_eq(line, "4\n");
		fclose(f);
	}
	drop_tree();
	rootfs_force_walk(false);
}

START_TEST(a_root_tree_is_read_inside_it_through_openat2)
{
	check_tree(false);
}
END_TEST

START_TEST(a_root_tree_is_read_inside_it_by_the_walk)
{
	check_tree(true);
}
END_TEST

START_TEST(a_file_past_the_cap_is_refused)
{
	char path[PATH_MAX + 64];
	int fd;

	make_tree();
	snprintf(path, sizeof(path), "%s/big", tree);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)ROOTFS_MAX + 1), 0);
	close(fd);
	ck_assert_ptr_null(rootfs_fopen(tree, "big"));
	ck_assert_int_eq(errno, EFBIG);
	drop_tree();
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, escape_sequences_are_written_as_text);
	tcase_add_test(tc, invalid_utf8_is_escaped_byte_by_byte);
	tcase_add_test(tc, printable_utf8_and_backslashes_stay);
	tcase_add_test(tc, cleaning_twice_is_cleaning_once);
	tcase_add_test(tc, a_cut_never_splits_a_character_or_an_escape);
	tcase_add_test(tc, csv_fields_are_quoted_as_rfc_4180_says);
	tcase_add_test(tc, a_root_tree_is_read_inside_it_through_openat2);
	tcase_add_test(tc, a_root_tree_is_read_inside_it_by_the_walk);
	tcase_add_test(tc, a_file_past_the_cap_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(text_suite)
