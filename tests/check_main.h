/*
 * check_main: the main() shared by every Check test program.  Results go
 * to stdout as TAP, so `make check` counts each test case; the exit status
 * also says whether all passed, for running a test program by hand.  A
 * test that cannot run here (CHECK_SKIP: no perf_event_open, say) is
 * reported as a skip with its reason, never as a pass.
 */
#ifndef PMUTOP_CHECK_MAIN_H
#define PMUTOP_CHECK_MAIN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* End this test as skipped, saying why (a printf format). */
#define CHECK_SKIP(...) ck_abort_msg("SKIP: " __VA_ARGS__)

/* The results of SR as TAP; returns how many failed (skips are not failures). */
static inline int check_tap(SRunner *sr)
{
	TestResult **r = srunner_results(sr);
	int n = srunner_ntests_run(sr), failed = 0;

	printf("1..%d\n", n);
	for (int i = 0; i < n; i++) {
		const char *msg = tr_msg(r[i]) ? tr_msg(r[i]) : "";

		if (tr_rtype(r[i]) == CK_PASS) {
			printf("ok %d - %s:%s: Passed\n", i + 1, tr_lfile(r[i]), tr_tcname(r[i]));
		} else if (!strncmp(msg, "SKIP: ", 6)) {
			printf("ok %d - %s # SKIP %s\n", i + 1, tr_tcname(r[i]), msg + 6);
		} else {
			printf("not ok %d - %s:%d:%s: %s\n", i + 1, tr_lfile(r[i]), tr_lno(r[i]),
			       tr_tcname(r[i]), msg);
			failed++;
		}
	}
	free(r);
	return failed;
}

#define CHECK_MAIN(make_suite)                                   \
	int main(void)                                           \
	{                                                        \
		SRunner *sr = srunner_create(make_suite());      \
		int failed;                                      \
                                                                 \
		srunner_run_all(sr, CK_SILENT);                  \
		failed = check_tap(sr);                          \
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
