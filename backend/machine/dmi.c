/*
 * dmi: the memory's speed from SMBIOS type 17; see dmi.h.
 */
#include "dmi.h"
#include "rootfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DMI_TYPE_MEMORY_DEVICE 17
#define DMI_MAX_RAW 4096

static unsigned dmi_word(const unsigned char *b, size_t n, size_t at)
{
	return at + 2 <= n ? (unsigned)b[at] | (unsigned)b[at + 1] << 8 : 0;
}

static unsigned long dmi_dword(const unsigned char *b, size_t n, size_t at)
{
	return at + 4 <= n ? (unsigned long)dmi_word(b, n, at) | (unsigned long)dmi_word(b, n, at + 2) << 16
			   : 0;
}

/* A speed WORD at AT, or its extended DWORD at EXT when it says FFFFh: MT/s, 0 unknown. */
static unsigned long dmi_speed(const unsigned char *b, size_t n, size_t at, size_t ext)
{
	unsigned w = dmi_word(b, n, at);

	return w == 0xFFFF ? dmi_dword(b, n, ext) & 0x7FFFFFFF : w;
}

/* One type-17 structure B (N bytes: its formatted area is B[1] long): its MT/s, 0 none. */
static unsigned long dmi_module_mts(const unsigned char *b, size_t n)
{
	size_t len;
	unsigned long conf, rated;

	if (n < 0x17 || b[0] != DMI_TYPE_MEMORY_DEVICE)
		return 0;
	len = b[1] < n ? b[1] : n; /* the formatted area: the fields this version has */
	if (!dmi_word(b, len, 0x0C))
		return 0; /* an empty slot */
	rated = dmi_speed(b, len, 0x15, 0x54);
	conf = dmi_speed(b, len, 0x20, 0x58);
	return conf ? conf : rated;
}

unsigned dmi_dram_mts(const char *root, char *why, size_t len)
{
	char dir[4096], path[4400];
	const char *rel = "sys/firmware/dmi/entries";
	unsigned char raw[DMI_MAX_RAW];
	unsigned long best = 0;
	int seen = 0, denied = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s", root && strcmp(root, "/") ? root : "", rel);
	d = rootfs_opendir(root, rel);
	if (!d) {
		snprintf(why, len, "no SMBIOS tables in %s (%s)", dir, rootfs_strerror(-errno));
		return 0;
	}
	while ((de = readdir(d))) {
		unsigned long mts;
		ssize_t n;
		int fd, rc;

		if (strncmp(de->d_name, "17-", 3))
			continue;
		seen++;
		snprintf(path, sizeof(path), "%s/%.255s/raw", rel, de->d_name);
		if ((rc = rootfs_open(root, path, O_RDONLY, ROOTFS_FILE, &fd))) {
			denied += rc == -EACCES || rc == -EPERM;
			continue;
		}
		n = read(fd, raw, sizeof(raw));
		close(fd);
		mts = n > 0 ? dmi_module_mts(raw, (size_t)n) : 0;
		if (mts && (!best || mts < best))
			best = mts;
	}
	closedir(d);
	if (!best)
		snprintf(why, len, "%s", !seen ? "no SMBIOS memory device (type 17) entry"
			 : denied ? "the SMBIOS tables are root's (run as root, or --dram-mts)"
			 : "no SMBIOS memory device gives its speed");
	return best > 100000 ? 0 : (unsigned)best;
}
