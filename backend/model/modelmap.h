/*
 * modelmap: the one matcher of pmutop's CPU maps.  Three files map a CPU to
 * what pmutop knows of it, all in the form of the kernel perf tool's
 * mapfile.csv: pmutop's own (data/models.csv, built into cpumodels[]: the
 * platform), Intel's (data/intel/models.csv: the platform's events and
 * metrics) and AMD's (data/amd/models.csv).  A row's first field names the
 * CPUs it covers, "GenuineIntel-6-55-[4567]": CPUID's vendor string, the
 * family in decimal, the model in hex, and optionally the steppings (one hex
 * digit, or hex digits in brackets); its second field a hybrid part's core
 * type (CPUID.1AH:EAX[31:24], "0x40"), empty for any.
 */
#ifndef PMUTOP_MODELMAP_H
#define PMUTOP_MODELMAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether the row pattern PAT covers VENDOR ("GenuineIntel") FAMILY MODEL at
 * STEPPING; STEPPING -1 (any): a pattern that names steppings does not.
 */
bool modelmap_match(const char *pat, const char *vendor, unsigned family, unsigned model,
		    int stepping);

/*
 * Whether a row of core type FIELD ("0x40", "" any) covers a CPU of core type
 * CORE_TYPE (0: not hybrid, or not known: every row covers it).
 */
bool modelmap_core_type(const char *field, unsigned core_type);

/*
 * Split LINE (a map's line, its end of line gone) at its commas into at most
 * N fields (the last takes the rest), in place; the number of fields.
 */
int modelmap_fields(char *line, char **fields, int n);

/*
 * The platform file for a CPU of VENDOR ("GenuineIntel", "AuthenticAMD":
 * CPUID's vendor string, the rows' prefix), from DIR/models.csv: family, model, stepping
 * and (hybrid parts) the core type (0: not hybrid, else CPUID.1AH:EAX[31:24]).
 * 0 with the file's path in PATH (PATH_MAX), -ENOENT when the vendor's data
 * has no such CPU, or -EIO with ERR when the map cannot be read.
 */
int modelmap_find(const char *dir, const char *vendor, unsigned family, unsigned model,
		  unsigned stepping, unsigned core_type, char *path, char *err, size_t errlen);

#endif
