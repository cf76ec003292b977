/* Tests for data-file lookup: an uninstalled build uses its source tree, an installed one its pkgdatadir. */
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "paths.h"

START_TEST(build_tree_uses_source_layouts)
{
	unsetenv("PMUTOP_LAYOUT_DIR");
	ck_assert_str_eq(paths_layout_dir(PMUTOP_BUILDDIR), PMUTOP_SRC_LAYOUTDIR);
	ck_assert_str_eq(paths_layout_dir(PMUTOP_BUILDDIR "/tests/.."), PMUTOP_SRC_LAYOUTDIR);
}
END_TEST

START_TEST(installed_program_uses_pkgdatadir)
{
	unsetenv("PMUTOP_LAYOUT_DIR");
	ck_assert_str_eq(paths_layout_dir("/usr/bin"), PMUTOP_LAYOUTDIR);
	ck_assert_str_eq(paths_layout_dir("/nonexistent/bin"), PMUTOP_LAYOUTDIR);
}
END_TEST

START_TEST(environment_overrides_both)
{
	setenv("PMUTOP_LAYOUT_DIR", "/opt/my-layouts", 1);
	ck_assert_str_eq(paths_layout_dir(PMUTOP_BUILDDIR), "/opt/my-layouts");
	unsetenv("PMUTOP_LAYOUT_DIR");
}
END_TEST

START_TEST(exe_dir_is_where_this_test_lives)
{
	char dir[4096];

	ck_assert_int_eq(paths_exe_dir(dir, sizeof(dir)), 0);
	ck_assert_msg(strlen(dir) >= 6 && strcmp(dir + strlen(dir) - 6, "/tests") == 0,
		      "exe dir %s", dir);
}
END_TEST

static Suite *paths_suite(void)
{
	Suite *s = suite_create("paths");

	CHECK_ADD(s, build_tree_uses_source_layouts);
	CHECK_ADD(s, installed_program_uses_pkgdatadir);
	CHECK_ADD(s, environment_overrides_both);
	CHECK_ADD(s, exe_dir_is_where_this_test_lives);
	return s;
}

CHECK_MAIN(paths_suite)
