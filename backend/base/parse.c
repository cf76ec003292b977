/*
 * parse: the shared error line of the parsers; see parse.h.
 */
#include "parse.h"
#include "text.h"

#include <errno.h>
#include <stdio.h>

int parse_vfail(char *err, size_t errlen, const char *file, int line, const char *bol,
		const char *at, const char *fmt, va_list ap)
{
	char msg[400];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(err, errlen, "%s:%d:%d: %s", file, line, (int)(at - bol) + 1, msg);
	parse_printable(err, errlen);
	return -EINVAL;
}

int parse_fail(char *err, size_t errlen, const char *file, int line, const char *bol,
	       const char *at, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = parse_vfail(err, errlen, file, line, bol, at, fmt, ap);
	va_end(ap);
	return rc;
}

void parse_printable(char *s, size_t size)
{
	text_clean_in_place(s, size);
}

const char *parse_control_char(const char *s, const char *e)
{
	for (; s < e; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7F)
			return s;
	return NULL;
}
