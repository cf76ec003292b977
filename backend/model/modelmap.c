/* modelmap: the one matcher of pmutop's CPU maps; see modelmap.h. */
#include "modelmap.h"
#include "paths.h"

#include <errno.h>
#include <limits.h>
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

int modelmap_find(const char *dir, const char *vendor, unsigned family, unsigned model,
		  unsigned stepping, unsigned core_type, char *path, char *err, size_t errlen)
{
	char csv[PATH_MAX], line[512];
	FILE *f;
	int rc = -ENOENT;

	snprintf(csv, sizeof(csv), "%s/models.csv", dir);
	f = paths_fopen_trusted(csv, "vendor data model map", err, errlen);
	if (!f && errno == EPERM)
		return -EPERM;
	if (!f) {
		size_t n = strlen(err);
		bool amd = !strcmp(vendor, "AuthenticAMD");

		snprintf(err + n, errlen - n, " (set %s to pmutop's %s, or reinstall)",
			 amd ? "PMUTOP_AMD_DIR" : "PMUTOP_PERFMON_DIR", amd ? "data/amd" : "data/intel");
		return -EIO; /* not -ENOENT: that says the CPU is not in the map */
	}
	while (fgets(line, sizeof(line), f)) {
		char *fields[5];

		line[strcspn(line, "\r\n")] = '\0';
		if (modelmap_fields(line, fields, 5) < 4 ||
		    !modelmap_match(fields[0], vendor, family, model, (int)stepping) ||
		    !modelmap_core_type(fields[1], core_type))
			continue;
		snprintf(path, PATH_MAX, "%s/%s", dir, fields[3]);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}
