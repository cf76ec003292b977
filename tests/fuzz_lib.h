/*
 * fuzz_lib: what the fuzz targets share.  Each target is built two ways:
 * with -DPMUTOP_LIBFUZZER as a libFuzzer target (LLVMFuzzerTestOneInput,
 * run for a bounded time in CI over the seed corpus in tests/corpus/), and
 * without as a test that `make check` runs: a fixed-seed mutation loop over
 * seed files (byte flips, deletions, token insertions, truncations,
 * duplicated chunks), so a failure reproduces.
 */
#ifndef PMUTOP_FUZZ_LIB_H
#define PMUTOP_FUZZ_LIB_H

#include <stddef.h>
#include <stdint.h>

/* DATA as a NUL-terminated string (malloc'd; exits when out of memory). */
char *fuzz_text(const uint8_t *data, size_t size);

/* The libFuzzer entry point of a target whose check is ONE (built with -DPMUTOP_LIBFUZZER). */
#define FUZZ_LIBFUZZER_TARGET(one)                                            \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);         \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)          \
	{                                                                     \
		one(data, size);                                              \
		return 0;                                                     \
	}

/* The same for a target that needs SETUP() once before its first input. */
#define FUZZ_LIBFUZZER_TARGET_SETUP(setup, one)                               \
	static int fuzz_set_up_and_one(const uint8_t *data, size_t size)      \
	{                                                                     \
		setup();                                                      \
		return one(data, size);                                       \
	}                                                                     \
	FUZZ_LIBFUZZER_TARGET(fuzz_set_up_and_one)

/* FILE's bytes (malloc'd, NUL-terminated), LEN their count; exits on failure. */
char *fuzz_read(const char *path, size_t *len);

/* One random edit of BUF (LEN bytes, capacity CAP), inserting TOKENS among others. */
void fuzz_mutate(uint8_t *buf, size_t *len, size_t cap, const char *const *tokens, size_t ntokens);

/*
 * Run ONE on ROUNDS mutations (1-4 edits each) of every file of SEEDS (NSEEDS
 * paths); ONE returns 1 for an input it accepted, 0 for one refused well,
 * and aborts on anything else.  Prints one TAP line with NAME and the counts.
 */
void fuzz_loop(const char *name, const char *const *seeds, size_t nseeds, int rounds,
	       const char *const *tokens, size_t ntokens, int (*one)(const uint8_t *, size_t));

/*
 * Abort unless ERR is one line "FILE:LINE:COL: ..." (COL may be absent when
 * COLUMN is 0) without control characters.
 */
void fuzz_check_message(const char *err, const char *file, int column);

#endif
