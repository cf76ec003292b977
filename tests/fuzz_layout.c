/*
 * fuzz_layout: the layout parser against mutated layout files (fuzz_lib.h
 * says how it is built and run).  Every input must either parse or fail with
 * one line "fuzz.layout:LINE:COL: expected ..." and nothing leaked; a crash,
 * a sanitizer report or a malformed message fails the test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_lib.h"
#include "layout.h"

static int fuzz_one(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[512];
	struct layout *l = NULL;
	int rc;

	err[0] = 0;
	rc = layout_parse(text, "fuzz.layout", &l, err, sizeof(err));
	free(text);
	if (rc == 0) {
		layout_free(l);
		return 1;
	}
	if (rc != -EINVAL || l) {
		fprintf(stderr, "bad failure: rc %d, message '%s'\n", rc, err);
		abort();
	}
	fuzz_check_message(err, "fuzz.layout", 1);
	if (!strstr(err, ": expected ")) {
		fprintf(stderr, "message does not say what was expected: '%s'\n", err);
		abort();
	}
	return 0;
}

#ifdef PMUTOP_LIBFUZZER
FUZZ_LIBFUZZER_TARGET(fuzz_one)
#else
int main(void)
{
	static const char *const tokens[] = {
		"=", "(", ")", "\"", "#", "\n", " ", "end\n", "group g\n", "event e raw event=0xB7\n",
		"metric m core % = ", "min(", "/ 0", "1e308", "key 1\n", "thresholds warn 1 crit 2\n",
		"counters=9", "offcore=", "per-core", "\\", "\t", "-", "models any\n", "\r", "\x1b[",
	};
	static const char *const seeds[] = {
		LAYOUT_SRCDIR "/nehalem.layout", LAYOUT_SRCDIR "/westmere.layout",
		LAYOUT_SRCDIR "/arch.layout",
	};

	fuzz_loop("layouts", seeds, sizeof(seeds) / sizeof(seeds[0]), 4000, tokens,
		  sizeof(tokens) / sizeof(tokens[0]), fuzz_one);
	return 0;
}
#endif
