/*
 * fuzz_perfmon: the loader of Intel's perfmon data (jansson, then the
 * metrics, formulas, thresholds and tree) against mutated data files
 * (fuzz_lib.h says how it is built and run).  Every input must either load
 * or fail with one line naming "fuzz.json" and no control character; an
 * accepted one must evaluate and print every formula and threshold (all
 * events 1, then all n/a), walk its tree to the root and plan all its
 * metrics on 4 and on 8 counters; nothing leaked, no sanitizer report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "fuzz_lib.h"
#include "perfmon.h"
#include "perfmon_plan.h"

static void fuzz_check_line(const char *err)
{
	if (strncmp(err, "fuzz.json", 9)) {
		fprintf(stderr, "message without the file's name: '%s'\n", err);
		abort();
	}
	for (const char *c = err; *c; c++)
		if ((unsigned char)*c < 0x20) {
			fprintf(stderr, "control character in the message: '%s'\n", err);
			abort();
		}
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	char err[1024], *text = malloc(4096);
	struct perfmon *p;
	double *vars;
	int rc, why;

	if (!text)
		abort();
	err[0] = 0;
	rc = perfmon_load_buffer((const char *)data, size, "fuzz.json", &p, err, sizeof(err));
	if (rc) {
		if (rc != -EINVAL || p) {
			fprintf(stderr, "bad failure: rc %d, message '%s'\n", rc, err);
			abort();
		}
		fuzz_check_line(err);
		free(text);
		return 0;
	}
	vars = malloc(sizeof(double) * (size_t)(PERFMON_NVARS(p) + 1));
	if (!vars)
		abort();
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < PERFMON_NVARS(p); i++)
			vars[i] = pass ? NAN : 1.0;
		for (int m = 0; m < p->nmetrics; m++) {
			double v = expr_eval_why(p->metrics[m].formula, vars, &why);

			if (isnan(v) && why != EXPR_WHY_DIV0 && why != EXPR_WHY_NONE &&
			    (why < 0 || why >= PERFMON_NVARS(p))) {
				fprintf(stderr, "n/a from variable %d of %d\n", why, PERFMON_NVARS(p));
				abort();
			}
			if (p->metrics[m].threshold)
				expr_eval(p->metrics[m].threshold, vars);
			perfmon_render(p, m, false, text, 4096);
			perfmon_render(p, m, true, text, 4096);
			for (int up = p->metrics[m].parent, n = 0; up >= 0; up = p->metrics[up].parent)
				if (++n > p->nmetrics) {
					fprintf(stderr, "a loop of parents was accepted\n");
					abort();
				}
		}
	}
	for (int gp = 4; gp <= 8; gp += 4) {
		struct perfmon_plan *pl;
		int *all = malloc(sizeof(int) * (size_t)(p->nmetrics + 1));

		if (!all)
			abort();
		for (int m = 0; m < p->nmetrics; m++)
			all[m] = m;
		if (perfmon_plan(p, all, p->nmetrics, gp, gp == 8, &pl, err, sizeof(err)))
			abort();
		for (int m = 0; m < p->nmetrics; m++)
			if ((pl->pass[m] < 0) != (pl->why[m][0] != 0) || pl->pass[m] >= pl->npasses)
				abort(); /* counted, or not with a reason */
		perfmon_plan_free(pl);
		free(all);
	}
	free(vars);
	free(text);
	perfmon_free(p);
	return 1;
}

#ifdef PMUTOP_LIBFUZZER
FUZZ_LIBFUZZER_TARGET(fuzz_one)
#else
int main(void)
{
	static const char *const tokens[] = {
		"\"", "{", "}", "[", "]", ",", ":", "\"Formula\":\"a if b else c\"", " if ", " else ",
		"&", "|", "(", ")", "min(", "max(", "/ 0", "1e308", "-", "\"ParentCategory\":",
		"\"Frontend_Bound\"", "\"Threshold\":{\"Formula\":\"a > 1\",\"Metrics\":{\"a\":\"cpi\"}}",
		"\"Events\":{}", "\"Constants\":{\"z\":\"SOCKET_COUNT\"}", "[0]", "\\u0000", "\\n",
	};
	static const char *const seeds[] = { TEST_DATADIR "/corpus/perfmon/spr-excerpt.json" };

	fuzz_loop("Intel perfmon data files", seeds, 1, 3000, tokens,
		  sizeof(tokens) / sizeof(tokens[0]), fuzz_one);
	return 0;
}
#endif
