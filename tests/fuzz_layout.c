/*
 * fuzz_layout: the layout parser against mutated layout files, each parsed
 * whole and as a part (layouts/own; fuzz_lib.h says how it is built and run).  Every input must either parse or fail with
 * one line "fuzz.layout:LINE:COL: expected ..." and nothing leaked; a crash,
 * a sanitizer report or a malformed message fails the test.  A part that
 * parses is also taken in as an own file of the vendor's events
 * (perfmon_own_vendor, against Sapphire Rapids' data): what the generator
 * writes of it must parse too.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_lib.h"
#include "layout.h"
#include "layout_build.h"
#include "perfmon.h"
#include "perfmon_layout.h"
#include "perfmon_own.h"

/* TEXT as a whole layout, or as a part (pmutop's own groups, layouts/own) when PART. */
static int fuzz_parse(const char *text, bool part)
{
	char err[512];
	struct layout *l = NULL;
	int rc;

	err[0] = 0;
	rc = part ? layout_parse_part(text, "fuzz.layout", &l, err, sizeof(err))
		  : layout_parse(text, "fuzz.layout", &l, err, sizeof(err));
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

/*
 * What the generator makes of own file TEXT (3 links, 4 CHAs), beside and
 * into Intel's UPI group: a layout, and its text the same layout again.
 */
static void fuzz_vendor(const char *text)
{
	static struct perfmon *p;
	struct perfmon_own own = { { NULL } };
	struct perfmon_layout_config c = { .chas = 4, .upi_links = 3, .own = &own };
	char err[512], *out = NULL;
	struct layout_build *b;
	struct layout *l, *again;

	if (!p && perfmon_load(PERFMON_SRCDIR "/spr.json", &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		abort();
	}
	if (perfmon_own_vendor_check(text, "fuzz.layout", err, sizeof(err)))
		return; /* refused on loading, as pmutop refuses it */
	own.text[PERFMON_OWN_LINKS] = (char *)text;
	b = layout_build_new("generated");
	layout_build_name(b, "generated");
	layout_build_metric(b, "util", LAYOUT_THREAD, "%", "100 * ref_cycles / tsc");
	perfmon_own_vendor(p, &c, PERFMON_OWN_LINKS, b, 64);
	layout_build_text(b, "\ngroup UPI\n  key u\n  pmu upi\n  event upi_clk raw event=0x1\n");
	perfmon_own_vendor_into(p, &c, PERFMON_OWN_LINKS, "UPI", 8, b);
	layout_build_end(b);
	if (layout_build_finish(b, &l, &out, err, sizeof(err))) {
		fprintf(stderr, "the generator's layout of a part that parsed is refused: %s\n", err);
		abort();
	}
	if (layout_parse(out, "generated", &again, err, sizeof(err)) ||
	    again->nevents != l->nevents || again->nmetrics != l->nmetrics ||
	    again->ngroups != l->ngroups) {
		fprintf(stderr, "the generator's layout is not the layout of its text: %s\n%s\n", err,
			out);
		abort();
	}
	layout_free(again);
	layout_free(l);
	free(out);
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	int whole = fuzz_parse(text, false), part = fuzz_parse(text, true);

	if (part)
		fuzz_vendor(text);

	free(text);
	/* a part is a layout but for the thread metric: whatever parses whole parses as a part */
	if (whole && !part) {
		fprintf(stderr, "a layout parsed whole but not as a part\n");
		abort();
	}
	return whole;
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
		" vendor\n", "pmu upi\n", "pmu cha\n", "links", "chas", "1e-9", ".5", "UNC_UPI_CLOCKTICKS",
	};
	static const char *const seeds[] = {
		LAYOUT_SRCDIR "/nehalem.layout", LAYOUT_SRCDIR "/westmere.layout",
		LAYOUT_SRCDIR "/arch.layout", LAYOUT_SRCDIR "/own/power.layout",
		LAYOUT_SRCDIR "/own/memory.layout", LAYOUT_SRCDIR "/own/links.layout",
		LAYOUT_SRCDIR "/own/cxl.layout",
	};

	fuzz_loop("layouts", seeds, sizeof(seeds) / sizeof(seeds[0]), 4000, tokens,
		  sizeof(tokens) / sizeof(tokens[0]), fuzz_one);
	return 0;
}
#endif
