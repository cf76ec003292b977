/*
 * fuzz_lib: the mutation loop and checks the fuzz targets share; see fuzz_lib.h.
 */
#include "fuzz_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fuzz_rng = 0x9E3779B97F4A7C15ull;

static uint32_t fuzz_rand(void)
{
	/* xorshift64*: deterministic, so a failure reproduces */
	fuzz_rng ^= fuzz_rng >> 12;
	fuzz_rng ^= fuzz_rng << 25;
	fuzz_rng ^= fuzz_rng >> 27;
	return (uint32_t)((fuzz_rng * 0x2545F4914F6CDD1Dull) >> 32);
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	memcpy(text, data, size);
	text[size] = 0;
	return text;
}

char *fuzz_read(const char *path, size_t *len)
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
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

void fuzz_mutate(uint8_t *buf, size_t *len, size_t cap, const char *const *tokens, size_t ntokens)
{
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
		const char *t = tokens[fuzz_rand() % ntokens];
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

void fuzz_loop(const char *name, const char *const *seeds, size_t nseeds, int rounds,
	       const char *const *tokens, size_t ntokens, int (*one)(const uint8_t *, size_t))
{
	int accepted = 0, refused = 0;

	for (size_t s = 0; s < nseeds; s++) {
		size_t len0, cap;
		char *orig = fuzz_read(seeds[s], &len0);
		uint8_t *buf;

		cap = len0 * 2 + 256;
		buf = malloc(cap);
		for (int r = 0; r < rounds; r++) {
			size_t len = len0;
			int edits = 1 + (int)(fuzz_rand() % 4);

			memcpy(buf, orig, len0);
			for (int k = 0; k < edits; k++)
				fuzz_mutate(buf, &len, cap, tokens, ntokens);
			if (one(buf, len))
				accepted++;
			else
				refused++;
		}
		free(buf);
		free(orig);
	}
	/* both outcomes, or the mutations did not reach one of the parser's paths */
	printf("1..1\n%s 1 - %d mutated %s: %d accepted, %d refused with one clear line, no "
	       "crash\n", accepted && refused ? "ok" : "not ok", accepted + refused, name, accepted,
	       refused);
}

void fuzz_check_message(const char *err, const char *file, int column)
{
	size_t n = strlen(file);
	int line = 0, col = 0, k = 0;

	if (strncmp(err, file, n) || err[n] != ':' ||
	    (column ? sscanf(err + n, ":%d:%d:%n", &line, &col, &k) != 2 || col < 1
		    : sscanf(err + n, ":%d:%n", &line, &k) != 1) || line < 1 || !k) {
		fprintf(stderr, "malformed message: '%s'\n", err);
		abort();
	}
	for (const char *p = err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7F) {
			fprintf(stderr, "control character 0x%02X in message: '%s'\n",
				(unsigned char)*p, err);
			abort();
		}
}
