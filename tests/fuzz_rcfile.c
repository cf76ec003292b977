/*
 * fuzz_rcfile: the settings file against mutated ones (fuzz_lib.h says how
 * it is built and run).  Loading never refuses: every input leaves a view
 * whose settings are valid, with at most one warning "FILE:LINE: ..." that
 * holds no control character; saving that view and loading it again gives
 * no warning.  No crash, nothing leaked, no sanitizer report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_lib.h"
#include "layout.h"
#include "rcfile.h"
#include "topo.h"
#include "view.h"

static struct layout *fuzz_layout;
static struct topo *fuzz_topo;
static char fuzz_dir[] = "/tmp/pmutop-fuzz-rc-XXXXXX";

static void fuzz_setup(void)
{
	char err[512];

	if (fuzz_layout)
		return;
	if (layout_load(LAYOUT_SRCDIR "/nehalem.layout", &fuzz_layout, err, sizeof(err)) ||
	    topo_load("pack:2 [numa] l3:1 core:4 pu:2", &fuzz_topo, err, sizeof(err)) ||
	    !mkdtemp(fuzz_dir)) {
		fprintf(stderr, "fuzz_rcfile: %s\n", err);
		exit(1);
	}
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	struct view_info in = { .host = "h", .brand = "b", .uarch = "u", .source = "s",
				.layout = fuzz_layout, .topo = fuzz_topo, .gp_counters = 4,
				.perfmon_version = 3, .count_user = true, .count_kernel = true };
	char path[64], again[64], warn[512], err[512];
	struct view v;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/pmutoprc", fuzz_dir);
	snprintf(again, sizeof(again), "%s/again", fuzz_dir);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	in.layout = fuzz_layout;
	view_init(&v, &in, 1, 1.0);
	rc = rcfile_load(path, &v, warn, sizeof(warn));
	if (rc || (warn[0] && (fuzz_check_message(warn, path, 0), strchr(warn, '\n')))) {
		fprintf(stderr, "load: rc %d, warning '%s'\n", rc, warn);
		abort();
	}
	/* what was kept is valid: it saves and loads back without a word */
	if (rcfile_save(again, &v, err, sizeof(err))) {
		fprintf(stderr, "save: %s\n", err);
		abort();
	}
	view_free(&v);
	view_init(&v, &in, 1, 1.0);
	if (rcfile_load(again, &v, err, sizeof(err)) || err[0]) {
		fprintf(stderr, "reload of the saved settings: '%s'\n", err);
		abort();
	}
	view_free(&v);
	unlink(path);
	unlink(again);
	return !warn[0];
}

#ifdef PMUTOP_LIBFUZZER
FUZZ_LIBFUZZER_TARGET_SETUP(fuzz_setup, fuzz_one)
#else
int main(void)
{
	static const char *const tokens[] = {
		" ", "\t", "\n", "\r", "#", "interval ", "groups ", "heat ", "sort ", "pane ",
		"aggregation ", "reverse ", "all", "none", ",", "1e308", "-1", "0.05", "nan",
		"topology", "\x1b[2J", "ipc", "uncore", "socket",
	};
	static const char *const seeds[] = { TEST_DATADIR "/corpus/rcfile/full" };

	fuzz_setup();
	fuzz_loop("settings files", seeds, 1, 3000, tokens, sizeof(tokens) / sizeof(tokens[0]),
		  fuzz_one);
	rmdir(fuzz_dir);
	layout_free(fuzz_layout);
	topo_free(fuzz_topo);
	return 0;
}
#endif
