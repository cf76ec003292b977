/*
 * parse: the error line every pmutop parser gives, FILE:LINE:COL: message,
 * with the column counted from 1 at the beginning of the line.  Layout files
 * and scenarios share it so their messages read the same.  Any thread.
 */
#ifndef PMUTOP_PARSE_H
#define PMUTOP_PARSE_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Write "FILE:LINE:COL: FMT..." into ERR, COL being AT's column in the line
 * that starts at BOL.  Returns -EINVAL, what a parser returns for bad input.
 */
int parse_vfail(char *err, size_t errlen, const char *file, int line, const char *bol,
		const char *at, const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));
int parse_fail(char *err, size_t errlen, const char *file, int line, const char *bol,
	       const char *at, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* S (a buffer of SIZE bytes) as safe text (text.h): nothing from a file reaches a terminal raw. */
void parse_printable(char *s, size_t size);

/*
 * The first control character (other than a tab) in [S, E), or NULL.
 * Parsers refuse them: a name, title or help text could otherwise carry
 * terminal escape sequences onto the screen.
 */
const char *parse_control_char(const char *s, const char *e);

#endif
