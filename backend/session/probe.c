/*
 * probe: the machine as the sources see it, for the setup checks.  See
 * probe.h.
 */
#include "probe.h"
#include "rootfs.h"
#include "perf_pmus.h"
#include "mmio.h"
#include "msr.h"
#include "msr_allow.h"
#include "perf.h"
#include "perf_pmu.h"
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

/* Every PMU of ROOT's sysfs, kind by kind, and those skipped with why (perf_pmus). */
static void probe_perf_kinds(const char *root, struct probe_perf *out)
{
	struct perf_pmus p;
	char err[300];
	size_t n = 0, k = 0;

	if (perf_pmus_scan(NULL, root, &p, err, sizeof(err)))
		return;
	for (int i = 0; i < p.n && n < sizeof(out->kinds);) {
		int c = 1;

		while (i + c < p.n && !strcmp(p.pmu[i + c].kind, p.pmu[i].kind))
			c++;
		n += (size_t)snprintf(out->kinds + n, sizeof(out->kinds) - n, c > 1 ? "%s%s x%d"
				      : "%s%s", n ? ", " : "", p.pmu[i].kind, c);
		i += c;
	}
	out->nskipped = p.nskipped;
	for (int i = 0; i < p.nskipped && k < sizeof(out->skipped); i++)
		k += (size_t)snprintf(out->skipped + k, sizeof(out->skipped) - k, "%s%s (%s)",
				      k ? "; " : "", p.skipped[i].name, p.skipped[i].why);
	perf_pmus_free(&p);
}

void probe_perf(const char *root, struct probe_perf *out)
{
	char names[64][64], err[300];
	struct perf_access a;
	struct perf_pmu p;

	memset(out, 0, sizeof(*out));
	perf_access_read(root, &a);
	out->system_wide = perf_access_system_wide(&a, out->why, sizeof(out->why));
	/* a hybrid's kernel has no "cpu": cpu_core for the P-cores (or only cpu_atom's E-cores) */
	for (size_t k = 0; k < 3 && !out->cpu_pmu; k++) {
		static const char *const core[] = { "cpu", "cpu_core", "cpu_atom" };

		out->cpu_pmu = perf_pmu_load(root, core[k], &p, err, sizeof(err)) == 0;
		if (out->cpu_pmu)
			snprintf(out->cpu_name, sizeof(out->cpu_name), "%s", core[k]);
	}
	if (out->cpu_pmu) {
		out->cpu_type = p.type;
		out->cpu_fields = p.nfields;
		out->any_thread = perf_pmu_set(&p, "any", 0, &(struct perf_pmu_config){ 0 }) == 0;
	}
	out->imc = perf_pmu_list(root, "uncore_imc_", names, 64);
	out->cbox = perf_pmu_list(root, "uncore_cbox_", names, 64);
	out->arb = perf_pmu_list(root, "uncore_arb_", names, 64);
	out->uncore = perf_pmu_load(root, "uncore", &p, err, sizeof(err)) == 0;
	probe_perf_kinds(root, out);
}
