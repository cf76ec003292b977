/* modelmap: the one matcher of pmutop's CPU maps; see modelmap.h. */
#include "modelmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool modelmap_match(const char *pat, const char *vendor, unsigned family, unsigned model,
		    int stepping)
{
	size_t vl = strlen(vendor);
	unsigned f, m;
	int n = 0;
	const char *st;

	if (strncmp(pat, vendor, vl) || pat[vl] != '-' ||
	    sscanf(pat + vl, "-%u-%x%n", &f, &m, &n) != 2 || f != family || m != model)
		return false;
	st = pat + vl + n;
	if (!*st)
		return true;
	if (*st++ != '-' || stepping < 0)
		return false;
	if (*st != '[')
		return strtol(st, NULL, 16) == stepping;
	for (st++; *st && *st != ']'; st++) {
		char d[2] = { *st, 0 };

		if (strtol(d, NULL, 16) == stepping)
			return true;
	}
	return false;
}

bool modelmap_core_type(const char *field, unsigned core_type)
{
	char ct[16];

	if (!core_type || !field[0])
		return true;
	snprintf(ct, sizeof(ct), "0x%02x", core_type);
	return !strcasecmp(field, ct);
}

int modelmap_fields(char *line, char **fields, int n)
{
	int k = 0;

	while (k < n) {
		char *comma = k + 1 < n ? strchr(line, ',') : NULL;

		fields[k++] = line;
		if (!comma)
			break;
		*comma = '\0';
		line = comma + 1;
	}
	return k;
}
