/*
 * msr_probe: what the setup checks ask of the register source without
 * opening it (probe.h): CPU 0's device opened as pmutop opens it, how a
 * sweep would read, the memory controller's window.  Reads files only.
 */
#include "probe.h"
#include "rootfs.h"
#include "mmio.h"
#include "msr.h"
#include "msr_allow.h"
#include "pmu_regs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ROOT as a path prefix: "" for this machine. */
static const char *probe_prefix(const char *root)
{
	return root && strcmp(root, "/") ? root : "";
}

void probe_msr_device(const char *root, struct probe_msr *out)
{
	char safe[512];
	int fd, err;

	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s/dev/cpu/0/msr", probe_prefix(root));
	snprintf(safe, sizeof(safe), "%s/dev/cpu/0/msr_safe", probe_prefix(root));
	out->safe_exists = rootfs_exists(root, "dev/cpu/0/msr_safe");
	err = -rootfs_open(root, "dev/cpu/0/msr", O_RDWR, ROOTFS_DEVICE, &fd);
	if (fd < 0 && out->safe_exists) {
		/* as pmutop does: msr-safe when the msr device is missing or closed to this user */
		int serr = -rootfs_open(root, "dev/cpu/0/msr_safe", O_RDWR, ROOTFS_DEVICE, &fd);

		if (fd >= 0 || err == ENOENT) {
			snprintf(out->path, sizeof(out->path), "%s", safe);
			err = serr;
		}
	}
	if (fd < 0) {
		out->err = err;
		return;
	}
	out->opened = true;
	{
		uint64_t v;

		/* msr-safe reads only what its allowlist names */
		out->listed = strstr(out->path, "msr_safe") == NULL ||
			      pread(fd, &v, sizeof(v), IA32_PERF_GLOBAL_CTRL) == (ssize_t)sizeof(v) ||
			      errno != EACCES;
	}
	close(fd);
}

void probe_msr_batch(const char *root, const struct cpuid_info *info, struct probe_batch *out)
{
	char path[512];
	int fd;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/dev/cpu/0/msr", probe_prefix(root));
	rootfs_open(root, "dev/cpu/0/msr", O_RDWR, ROOTFS_DEVICE, &fd);
	out->msr_opens = fd >= 0;
	if (fd >= 0) {
		struct msr_allowlist allow;

		close(fd);
		/* as msr_open_files chooses: msr-safe over the msr driver when it batches */
		msr_allow_build(info, SKL_UNC_MAX_CBO, &allow);
		out->preferred = msr_batch_preferred(probe_prefix(root), &allow);
	}
	snprintf(path, sizeof(path), "%s/dev/cpu/msr_batch", probe_prefix(root));
	out->batch_exists = access(path, F_OK) == 0;
	if (out->batch_exists)
		out->rc = msr_batch_probe(probe_prefix(root), out->why, sizeof(out->why));
}

int probe_imc_window(const char *root, unsigned long long *bar, char *err, size_t errlen)
{
	struct mmio *m;
	int rc = mmio_open_files(root, &m, err, errlen);

	if (rc)
		return rc;
	*bar = (unsigned long long)mmio_bar(m);
	mmio_close(m);
	return 0;
}
