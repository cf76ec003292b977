/*
 * parse: the shared error line of the parsers; see parse.h.
 */
#include "parse.h"

#include <errno.h>
#include <stdio.h>

int parse_vfail(char *err, size_t errlen, const char *file, int line, const char *bol,
		const char *at, const char *fmt, va_list ap)
{
	char msg[300];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(err, errlen, "%s:%d:%d: %s", file, line, (int)(at - bol) + 1, msg);
	return -EINVAL;
}
