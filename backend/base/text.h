/*
 * text: the one rule for every string that comes from outside pmutop
 * (cgroup, process and resctrl names, paths, sysfs and PMU names, vendor
 * data, recordings, settings): what pmutop writes of it is safe text.
 *
 * Safe text is valid UTF-8 without a control character: no C0 byte
 * (0x00-0x1F, tab and newline included), no DEL, no C1 character
 * (U+0080-U+009F, which terminals take as escape sequences), and none of
 * the Unicode characters that end a line or reorder what follows (U+2028,
 * U+2029, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069).  Each byte of
 * anything else, and each byte that is not part of a valid UTF-8 sequence
 * (overlong, surrogate, past U+10FFFF, cut short), is written as the four
 * characters \xNN.  A backslash itself is kept: systemd's unit names hold
 * \x2d, and cleaning clean text changes nothing (cleaning twice is
 * cleaning once), so a writer may clean what was cleaned when read.
 *
 * A cleaned string that does not fit is cut before a whole character or
 * escape, never inside one.  Any thread; no state.
 */
#ifndef PMUTOP_TEXT_H
#define PMUTOP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The N bytes at IN, cleaned, into OUT (SIZE > 0, always terminated): the
 * length written.  IN and OUT must not overlap.
 */
size_t text_clean(char *out, size_t size, const char *in, size_t n);

/* The string S (a buffer of SIZE bytes) cleaned in place, cut to fit. */
void text_clean_in_place(char *s, size_t size);

/* A cleaned copy of S (xmalloc'd; NULL for NULL). */
char *text_clean_dup(const char *s);

/* Whether the N bytes at S are safe text already. */
bool text_is_clean(const char *s, size_t n);

/* The first byte of the N at S that is not part of valid UTF-8 (controls are), or NULL. */
const char *text_bad_utf8(const char *s, size_t n);

/* S cleaned onto OUT (for messages and text tables). */
void text_fputs(const char *s, FILE *out);

/*
 * S as one CSV field (RFC 4180): cleaned, and quoted with its quotes
 * doubled when it holds a comma, a quote or a space at either end (a
 * cleaned string holds no line break).
 */
void text_csv_field(const char *s, FILE *out);

#endif
