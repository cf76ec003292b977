/*
 * fuzz_rcfile: the settings file against mutated ones (fuzz_lib.h says how
 * it is built and run).  Loading never refuses: every input leaves a view
 * whose settings are valid, with one warning "FILE:LINE: ..." per bad line
 * that holds no control character; saving that view to a new file and
 * loading it again gives no warning; saving it over the file keeps every
 * line the file had that pmutop did not understand.  No crash, nothing leaked, no sanitizer report.
 */
#define _GNU_SOURCE /* memmem */
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
static char fuzz_dir[256];

/* The directory goes at exit: libFuzzer's runs end there, not through main. */
static void fuzz_cleanup(void)
{
	rmdir(fuzz_dir);
}

static void fuzz_setup(void)
{
	char err[512];

	const char *tmp = getenv("TMPDIR");

	if (fuzz_layout)
		return;
	/* where make check keeps scratch files (in memory: tests/tmpdir.sh), else /tmp */
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/pmutop-fuzz-rc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (layout_load(LAYOUT_SRCDIR "/nehalem.layout", &fuzz_layout, err, sizeof(err)) ||
	    topo_load("pack:2 [numa] l3:1 core:4 pu:2", &fuzz_topo, err, sizeof(err)) ||
	    !mkdtemp(fuzz_dir)) {
		fprintf(stderr, "fuzz_rcfile: %s\n", err);
		exit(1);
	}
	atexit(fuzz_cleanup);
}

/*
 * The file at PATH holds, as a line, each line of DATA (SIZE bytes) that
 * WARN ("FILE:N: ..." lines) named as bad.
 */
static void fuzz_kept_lines(const uint8_t *data, size_t size, const char *warn, const char *path)
{
	static char now[65536 + 4096];
	size_t got, plen = strlen(path);
	FILE *f = fopen(path, "r");

	if (!f)
		abort();
	got = fread(now, 1, sizeof(now) - 1, f);
	fclose(f);
	for (const char *w = warn; *w; w = strchr(w, '\n') ? strchr(w, '\n') + 1 : w + strlen(w)) {
		int no, at = 1;
		size_t pos = 0;

		if (strncmp(w, path, plen) || sscanf(w + plen, ":%d:", &no) != 1 ||
		    strstr(w, " more bad line"))
			continue; /* not one bad line but how many more there are */
		while (at < no && pos < size) {
			const uint8_t *nl = memchr(data + pos, '\n', size - pos);

			pos = nl ? (size_t)(nl - data) + 1 : size;
			at++;
		}
		{
			const uint8_t *nl = memchr(data + pos, '\n', size - pos);
			size_t n = nl ? (size_t)(nl - data) - pos : size - pos;

			if (n && !memmem(now, got, data + pos, n)) {
				fprintf(stderr, "line %d (%zu bytes) the load warned about was dropped "
					"when saving over the file\n", no, n);
				abort();
			}
		}
	}
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	struct view_info in = { .host = "h", .brand = "b", .uarch = "u", .source = "s",
				.layout = fuzz_layout, .topo = fuzz_topo, .gp_counters = 4,
				.perfmon_version = 3, .count_user = true, .count_kernel = true };
	char path[320], again[320], warn[4096], warn_copy[4096], err[4096];
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
	if (rc) {
		fprintf(stderr, "load: rc %d, warning '%s'\n", rc, warn);
		abort();
	}
	snprintf(warn_copy, sizeof(warn_copy), "%s", warn);
	/* one "FILE:LINE: ..." line per bad line, none with a control character */
	for (char *l = warn, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		fuzz_check_message(l, path, 0);
		if (!nl)
			break;
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
	/* saved over the file itself: every line it warned about is still there, as written */
	if (size <= 65536 && !rcfile_save(path, &v, err, sizeof(err)))
		fuzz_kept_lines(data, size, warn_copy, path);
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
	static const char *const seeds[] = { TEST_DATADIR "/corpus/rcfile/full",
					      TEST_DATADIR "/corpus/rcfile/many-bad-lines" };

	fuzz_setup();
	fuzz_loop("settings files", seeds, 2, 3000, tokens, sizeof(tokens) / sizeof(tokens[0]),
		  fuzz_one);
	rmdir(fuzz_dir);
	layout_free(fuzz_layout);
	topo_free(fuzz_topo);
	return 0;
}
#endif
