/*
 * fuzz_layout: the layout parser against mutated layout files.
 *
 * Built two ways.  With -DPMUTOP_LIBFUZZER it is a libFuzzer target
 * (clang -fsanitize=fuzzer,address ...: LLVMFuzzerTestOneInput).  Without,
 * it is a test: a fixed-seed mutation loop over the shipped layouts (byte
 * flips, insertions and deletions, truncations, splices of lines), which
 * `make check` runs, under ASan/UBSan in CI.  Every input must either parse
 * or fail with one line "fuzz.layout:LINE:COL: ..." and nothing leaked; a
 * crash, a sanitizer report or a malformed message fails the test.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

static int fuzz_one(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct layout *l = NULL;
	int rc, line, col;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	err[0] = 0;
	rc = layout_parse(text, "fuzz.layout", &l, err, sizeof(err));
	free(text);
	if (rc == 0) {
		layout_free(l);
		return 0;
	}
	if (rc != -EINVAL || l || sscanf(err, "fuzz.layout:%d:%d:", &line, &col) != 2 || line < 1 ||
	    col < 1 || strchr(err, '\n')) {
		fprintf(stderr, "bad failure: rc %d, message '%s'\n", rc, err);
		abort();
	}
	return 0;
}

#ifdef PMUTOP_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one(data, size);
}
#else

#define FUZZ_ROUNDS 4000

static uint64_t fuzz_rng = 0x9E3779B97F4A7C15ull;

static uint32_t fuzz_rand(void)
{
	/* xorshift64*: deterministic, so a failure reproduces */
	fuzz_rng ^= fuzz_rng >> 12;
	fuzz_rng ^= fuzz_rng << 25;
	fuzz_rng ^= fuzz_rng >> 27;
	return (uint32_t)((fuzz_rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static char *fuzz_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* One random edit of BUF (LEN bytes, capacity CAP). */
static void fuzz_mutate(uint8_t *buf, size_t *len, size_t cap)
{
	static const char *const tokens[] = {
		"=", "(", ")", "\"", "#", "\n", " ", "end\n", "group g\n", "event e raw event=0xB7\n",
		"metric m core % = ", "min(", "/ 0", "1e308", "key 1\n", "pane p\n", "show util\n",
		"counters=9", "offcore=", "per-core", "\\", "\t", "-", "models any\n",
	};
	size_t at = *len ? fuzz_rand() % *len : 0;

	switch (fuzz_rand() % 5) {
	case 0: /* flip a byte */
		if (*len)
			buf[at] = (uint8_t)fuzz_rand();
		break;
	case 1: /* delete a run */
		if (*len) {
			size_t n = 1 + fuzz_rand() % 16;

			if (at + n > *len)
				n = *len - at;
			memmove(buf + at, buf + at + n, *len - at - n);
			*len -= n;
		}
		break;
	case 2: { /* insert a token */
		const char *t = tokens[fuzz_rand() % (sizeof(tokens) / sizeof(tokens[0]))];
		size_t n = strlen(t);

		if (*len + n <= cap) {
			memmove(buf + at + n, buf + at, *len - at);
			memcpy(buf + at, t, n);
			*len += n;
		}
		break;
	}
	case 3: /* truncate */
		*len = at;
		break;
	default: { /* duplicate a chunk somewhere else */
		size_t n = 1 + fuzz_rand() % 64, to = *len ? fuzz_rand() % *len : 0;
		uint8_t chunk[64];

		if (at + n > *len)
			n = *len - at;
		if (*len + n <= cap) {
			memcpy(chunk, buf + at, n);
			memmove(buf + to + n, buf + to, *len - to);
			memcpy(buf + to, chunk, n);
			*len += n;
		}
		break;
	}
	}
}

int main(void)
{
	static const char *const seeds[] = { "nehalem.layout", "westmere.layout", "arch.layout" };
	int parsed = 0, refused = 0;

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		char path[512];
		size_t len0, cap;
		char *orig;
		uint8_t *buf;

		snprintf(path, sizeof(path), "%s/%s", LAYOUT_SRCDIR, seeds[s]);
		orig = fuzz_read(path, &len0);
		cap = len0 * 2 + 256;
		buf = malloc(cap);
		for (int r = 0; r < FUZZ_ROUNDS; r++) {
			size_t len = len0;
			int edits = 1 + (int)(fuzz_rand() % 4);

			memcpy(buf, orig, len0);
			for (int k = 0; k < edits; k++)
				fuzz_mutate(buf, &len, cap);
			fuzz_one(buf, len);
			/* count outcomes by parsing once more, to report them */
			{
				char *text = malloc(len + 1), err[512];
				struct layout *l;

				memcpy(text, buf, len);
				text[len] = 0;
				if (layout_parse(text, "fuzz.layout", &l, err, sizeof(err)) == 0) {
					layout_free(l);
					parsed++;
				} else {
					refused++;
				}
				free(text);
			}
		}
		free(buf);
		free(orig);
	}
	printf("1..1\nok 1 - %d mutated layouts: %d parsed, %d refused with FILE:LINE:COL, no crash\n",
	       parsed + refused, parsed, refused);
	return 0;
}
#endif
