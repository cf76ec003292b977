/*
 * msr_batch: many register reads in one call, through msr-safe's batch
 * device (ROOT/dev/cpu/msr_batch) where msr-safe is what pmutop opened, or
 * through the ops table's read_batch (the emulator).
 *
 * Why: the msr driver takes one pread, and one IPI to the target CPU, per
 * register.  On 1024 CPUs a sweep of ~10 registers each is ~10 k IPIs one
 * after the other, and the time between the first and the last read is the
 * sample's skew.  msr-safe's X86_IOC_MSR_BATCH takes an array of operations
 * and runs each CPU's share on that CPU in one on_each_cpu_mask() broadcast:
 * every CPU reads its registers at about the same moment.
 *
 * The interface (msr-safe's msr_safe.h, 1.x and 2.0 alike): the array
 * descriptor is { u32 numops; u32 version; u64 pointer to ops }, 16 bytes;
 * an operation is
 *
 *   offset  0  u16 cpu       OS CPU number
 *           2  u16 isrdmsr   non-zero: read
 *           4  s32 err       out: -ENXIO, -EACCES, -EROFS (checked before any
 *                            operation runs: then none runs), -EIO (a fault)
 *           8  u32 msr
 *          12  (padding)
 *          16  u64 msrdata   in/out
 *          24  u64 wmask     out
 *
 * and the ioctl returns -1 with the first operation's error when any failed.
 * Releases before 2.0 ignore "version"; 2.0 refuses a version other than its
 * own, so the loaded module's (ROOT/sys/module/msr_safe/version, world
 * readable) goes there.  A call that fails without any operation's error
 * (an unknown ioctl, another version, no memory for the array) turns the
 * batch path off for the run: the reads go register by register, and
 * msr_batch_status() says why.
 *
 * Only reads are batched: writes keep msr_write's rules one by one (save
 * before the first write, the journal, the allowlist).
 * Threads: the sampler thread only.
 */
#include "msr.h"
#include "rootfs.h"
#include "msr_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pmu_regs.h"
#include "xmalloc.h"

/* msr-safe's operation and array descriptor, as laid out above. */
struct msr_safe_op {
	uint16_t cpu;
	uint16_t isrdmsr;
	int32_t err;
	uint32_t msr;
	uint32_t pad;
	uint64_t msrdata;
	uint64_t wmask;
};

struct msr_safe_array {
	uint32_t numops;
	uint32_t version;
	struct msr_safe_op *ops;
};

_Static_assert(sizeof(struct msr_safe_op) == 32, "msr-safe's batch operation is 32 bytes");
_Static_assert(sizeof(struct msr_safe_array) == 16, "msr-safe's batch array is 16 bytes");

#define MSR_SAFE_IOC_BATCH _IOWR('c', 0xA2, struct msr_safe_array)
/* cpu is 16 bits wide in the operation */
#define MSR_SAFE_MAX_CPU 0xFFFF

/* The module's version as msr-safe encodes it (major << 16 | minor << 8 | patch), or 0. */
static uint32_t msr_batch_module_version(const char *root, char *text, size_t len)
{
	char line[64];
	unsigned major = 0, minor = 0, patch = 0;

	snprintf(text, len, "unknown version");
	if (rootfs_read_line(root, "sys/module/msr_safe/version", line, sizeof(line)) ||
	    sscanf(line, "%u.%u.%u", &major, &minor, &patch) < 2 || major > 255 || minor > 255 ||
	    patch > 255)
		return 0;
	snprintf(text, len, "%u.%u.%u", major, minor, patch);
	return major << 16 | minor << 8 | patch;
}

void msr_batch_open(struct msr_dev *d)
{
	char path[MSR_PATH_MAX], version[32];
	int rc;

	d->batch_fd = -1;
	if (d->kind != MSR_KIND_MSR_SAFE) {
		snprintf(d->batch_why, sizeof(d->batch_why), "register by register (the msr driver "
			 "has no batch call; msr-safe's has)");
		return;
	}
	if (getenv("PMUTOP_NO_BATCH") && *getenv("PMUTOP_NO_BATCH")) {
		snprintf(d->batch_why, sizeof(d->batch_why), "register by register "
			 "(PMUTOP_NO_BATCH is set)");
		return;
	}
	for (int i = 0; i < d->ncpus; i++)
		if (d->cpus[i] > MSR_SAFE_MAX_CPU) {
			snprintf(d->batch_why, sizeof(d->batch_why), "register by register (CPU %d "
				 "is beyond what a batch operation can name)", d->cpus[i]);
			return;
		}
	snprintf(path, sizeof(path), "%s/dev/cpu/msr_batch", strcmp(d->root, "/") ? d->root : "");
	/* msr-safe wants the batch file open for reading (FMODE_READ), whatever the batch does */
	rc = rootfs_open(d->root, "dev/cpu/msr_batch", O_RDONLY, ROOTFS_DEVICE, &d->batch_fd);
	if (rc) {
		snprintf(d->batch_why, sizeof(d->batch_why), "register by register (%s: %s)", path,
			 rootfs_strerror(rc));
		return;
	}
	d->batch_version = msr_batch_module_version(d->root, version, sizeof(version));
	snprintf(d->batch_why, sizeof(d->batch_why), "one msr-safe batch call per sweep (%s, "
		 "msr-safe %s)", path, version);
}

void msr_batch_close(struct msr_dev *d)
{
	if (d->batch_fd >= 0)
		close(d->batch_fd);
	d->batch_fd = -1;
	free(d->batch_ops);
	d->batch_ops = NULL;
	d->batch_cap = 0;
}

bool msr_batch_ready(const struct msr_dev *d)
{
	return d->kind == MSR_KIND_OPS ? d->ops->read_batch != NULL : d->batch_fd >= 0;
}

const char *msr_batch_status(const struct msr_dev *d)
{
	if (d->kind == MSR_KIND_OPS)
		return d->ops->read_batch ? "one batch call per sweep (emulated)"
					  : "register by register";
	return d->batch_why;
}

/* Whether ERR is one msr-safe finds before running anything (then nothing ran). */
static bool msr_batch_precheck_err(int err)
{
	return err == -ENXIO || err == -EACCES || err == -EROFS;
}

/*
 * One ioctl over OPS[0..N): 0, the first operation's -errno (the operations
 * say which), or -EOPNOTSUPP when the call itself failed (batch path off).
 */
static int msr_batch_call(struct msr_dev *d, struct msr_safe_op *ops, int n)
{
	struct msr_safe_array a = { .numops = (uint32_t)n, .version = d->batch_version, .ops = ops };
	int err;

	if (ioctl(d->batch_fd, MSR_SAFE_IOC_BATCH, &a) == 0)
		return 0;
	err = -errno;
	for (int i = 0; i < n; i++)
		if (ops[i].err)
			return err;
	snprintf(d->batch_why, sizeof(d->batch_why), "register by register (msr-safe's batch "
		 "call failed: %s)", strerror(-err));
	close(d->batch_fd);
	d->batch_fd = -1;
	return -EOPNOTSUPP;
}

int msr_read_batch(struct msr_dev *d, struct msr_batch_read *rd, int n)
{
	struct msr_safe_op *ops;
	int rc, first = 0, left = 0;
	int *at;

	if (n <= 0)
		return 0;
	if (d->kind == MSR_KIND_OPS) {
		if (!d->ops->read_batch)
			return -EOPNOTSUPP;
		rc = d->ops->read_batch(d->ctx, rd, n);
	} else {
		if (d->batch_fd < 0)
			return -EOPNOTSUPP;
		if (n > d->batch_cap) {
			free(d->batch_ops);
			d->batch_ops = xcalloc((size_t)n, sizeof(*d->batch_ops));
			d->batch_cap = n;
		}
		ops = d->batch_ops;
		for (int i = 0; i < n; i++)
			ops[i] = (struct msr_safe_op){ .cpu = (uint16_t)rd[i].cpu, .isrdmsr = 1,
						       .msr = rd[i].reg };
		rc = msr_batch_call(d, ops, n);
		if (rc == -EOPNOTSUPP)
			return rc;
		if (rc && msr_batch_precheck_err(rc)) {
			/*
			 * msr-safe checked every operation first and ran none: run
			 * the ones it found nothing against, once more.
			 */
			at = xmalloc(sizeof(int) * (size_t)n);
			for (int i = 0; i < n; i++) {
				rd[i].err = ops[i].err;
				if (!ops[i].err)
					at[left++] = i;
			}
			for (int k = 0; k < left; k++)
				ops[k] = (struct msr_safe_op){ .cpu = (uint16_t)rd[at[k]].cpu,
							       .isrdmsr = 1, .msr = rd[at[k]].reg };
			rc = left ? msr_batch_call(d, ops, left) : 0;
			for (int k = 0; k < left; k++) {
				rd[at[k]].err = rc == -EOPNOTSUPP ? -EIO : ops[k].err;
				rd[at[k]].val = ops[k].msrdata;
			}
			free(at);
		} else {
			for (int i = 0; i < n; i++) {
				rd[i].err = ops[i].err;
				rd[i].val = ops[i].msrdata;
			}
		}
		rc = 0;
		for (int i = 0; i < n; i++)
			if (rd[i].err && !rc)
				rc = rd[i].err;
	}
	/* the first failure's message, as msr_read gives it */
	for (int i = 0; i < n; i++)
		if (rd[i].err) {
			msr_fail(d, rd[i].err, "read", rd[i].cpu, rd[i].reg);
			first = rd[i].err;
			break;
		}
	return rc ? rc : first;
}

int msr_batch_probe(const char *root, char *why, size_t len)
{
	char path[MSR_PATH_MAX], version[32];
	struct msr_safe_op op = { .cpu = 0, .isrdmsr = 1, .msr = IA32_PERF_GLOBAL_CTRL };
	struct msr_safe_array a = { .numops = 1, .ops = &op };
	int fd, err;

	root = root && *root && strcmp(root, "/") ? root : "";
	snprintf(path, sizeof(path), "%s/dev/cpu/msr_batch", root);
	err = rootfs_open(root, "dev/cpu/msr_batch", O_RDONLY, ROOTFS_DEVICE, &fd);
	if (err) {
		snprintf(why, len, "%s: %s", path, rootfs_strerror(err));
		return err;
	}
	a.version = msr_batch_module_version(*root ? root : "/", version, sizeof(version));
	err = ioctl(fd, MSR_SAFE_IOC_BATCH, &a) ? -errno : 0;
	close(fd);
	if (err && op.err)
		snprintf(why, len, "%s (msr-safe %s) answers, but reading the global counter control "
			 "of CPU 0 in a batch failed: %s", path, version, strerror(-op.err));
	else if (err)
		snprintf(why, len, "%s (msr-safe %s) refuses the batch call: %s", path, version,
			 strerror(-err));
	else
		snprintf(why, len, "%s (msr-safe %s) answers a batch call", path, version);
	return err;
}

bool msr_batch_preferred(const char *root, const struct msr_allowlist *allow)
{
	char path[MSR_PATH_MAX], line[256], why[MSR_PATH_MAX + 160];
	bool covered[MSR_ALLOW_MAX] = { false };
	FILE *f;

	if (getenv("PMUTOP_NO_BATCH") && *getenv("PMUTOP_NO_BATCH"))
		return false;
	root = root && *root && strcmp(root, "/") ? root : "";
	snprintf(path, sizeof(path), "%s/dev/cpu/msr_allowlist", root);
	f = rootfs_fopen_as(root, "dev/cpu/msr_allowlist", ROOTFS_DEVICE);
	if (!f)
		return false;
	/* msr-safe's own listing: "0xADDR 0xWRITEMASK" per line */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long reg, mask;

		if (sscanf(line, "%llx %llx", &reg, &mask) != 2)
			continue;
		for (int i = 0; i < allow->n; i++)
			if (allow->e[i].reg == reg &&
			    (allow->e[i].write_mask & ~(uint64_t)mask) == 0)
				covered[i] = true;
	}
	fclose(f);
	for (int i = 0; i < allow->n; i++)
		if (!covered[i])
			return false;
	return msr_batch_probe(*root ? root : "/", why, sizeof(why)) == 0;
}
