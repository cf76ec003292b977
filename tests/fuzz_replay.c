/*
 * fuzz_replay: the recording reader against mutated recordings (fuzz_lib.h
 * says how it is built and run).  Every input either replays (samples with
 * metrics computed again, marks) or stops at one message "FILE: line N
 * (byte B): ..." without a control character; a cut last line is counted,
 * never read.  No crash, nothing leaked, memory bounded by a line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"
#include "fuzz_lib.h"
#include "replay.h"

static char fuzz_dir[] = "/tmp/pmutop-fuzz-replay-XXXXXX";

/* The directory goes at exit: libFuzzer's runs end there, not through main. */
static void fuzz_cleanup(void)
{
	rmdir(fuzz_dir);
}

static void fuzz_setup(void)
{
	static int done;

	if (done++)
		return;
	if (!mkdtemp(fuzz_dir)) {
		perror("fuzz_replay");
		exit(1);
	}
	atexit(fuzz_cleanup);
}

/* ERR is "PATH: line N (byte B): ..." or "cannot read ...", without a control character. */
static void fuzz_check(const char *err, const char *path)
{
	long line = 0, byte = -1;
	int k = 0;
	size_t n = strlen(path);

	if (strncmp(err, path, n) || sscanf(err + n, ": line %ld (byte %ld): %n", &line, &byte, &k) != 2 ||
	    line < 1 || byte < 0 || !k) {
		fprintf(stderr, "malformed message: '%s'\n", err);
		abort();
	}
	for (const char *p = err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7F) {
			fprintf(stderr, "control character in message: '%s'\n", err);
			abort();
		}
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	char path[80], err[1024];
	struct replay *r;
	struct replay_item it;
	int rc, items = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.jsonl", fuzz_dir);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	rc = replay_open(path, &r, err, sizeof(err));
	if (rc) {
		fuzz_check(err, path);
		unlink(path);
		return 0;
	}
	while ((rc = replay_next(r, &it, err, sizeof(err))) == 0 && it.kind != REPLAY_END) {
		if (it.kind == REPLAY_SAMPLE) {
			const struct sample *s = it.sample;

			/* a replayed sample is whole: its entities and metrics are there to read */
			for (int i = 0; i < s->nthreads; i++)
				for (int m = 0; m < s->layout->nmetrics; m++)
					(void)sample_metric(s, &s->threads[i], m);
			sample_release(it.sample);
		}
		items++;
	}
	if (rc)
		fuzz_check(err, path);
	if (replay_trailing(r) < 0 || (long)size < replay_trailing(r))
		abort();
	replay_close(r);
	unlink(path);
	return items;
}

#ifdef PMUTOP_LIBFUZZER
FUZZ_LIBFUZZER_TARGET_SETUP(fuzz_setup, fuzz_one)
#else
int main(void)
{
	static const char *const tokens[] = {
		"\n", "null", "[]", "{}", ",", "\"", "1e308", "-1", "0", "99999999999",
		"\"pmutop_recording\":1", "\"threads\":", "\"inputs\":", "\"raw_events\":",
		"\"scaled\":", "\"nchannels\":", "\"mark\":", "\"groups\":", "\"live\"", "\x01",
	};
	static const char *const seeds[] = { TEST_DATADIR "/corpus/replay/core2.jsonl" };

	fuzz_setup();
	fuzz_loop("recordings", seeds, 1, 1500, tokens, sizeof(tokens) / sizeof(tokens[0]),
		  fuzz_one);
	rmdir(fuzz_dir);
	return 0;
}
#endif
