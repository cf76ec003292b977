/*
 * check_main: the main() shared by every Check test program.  Results go
 * to stdout as TAP, so `make check` counts each test case; the exit status
 * also says whether all passed, for running a test program by hand.
 */
#ifndef PMUTOP_CHECK_MAIN_H
#define PMUTOP_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define CHECK_MAIN(make_suite)                                   \
	int main(void)                                           \
	{                                                        \
		SRunner *sr = srunner_create(make_suite());      \
		int failed;                                      \
                                                                 \
		srunner_set_tap(sr, "-");                        \
		srunner_run_all(sr, CK_SILENT);                  \
		failed = srunner_ntests_failed(sr);              \
		srunner_free(sr);                                \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;     \
	}

/* Add test function FN to a new case of the same name in suite S. */
#define CHECK_ADD(s, fn)                                         \
	do {                                                     \
		TCase *tc_ = tcase_create(#fn);                  \
		tcase_add_test(tc_, fn);                         \
		suite_add_tcase(s, tc_);                         \
	} while (0)

#endif
