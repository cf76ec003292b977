/*
 * msr: register access with an allowlist and save/restore; the restore
 * itself is msr_restore.c's.  See msr.h for the rules and which thread may
 * call what.
 */
#define _GNU_SOURCE
#include "msr.h"
#include "msr_int.h"
#include "fdlimit.h"
#include "paths.h"
#include "rootfs.h"
#include "xmalloc.h"

#include <assert.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- open / close ---------------------------------------------------------- */

static struct msr_dev *msr_new(const int *cpus, int ncpus, const struct msr_allowlist *allow)
{
	struct msr_dev *d = xcalloc(1, sizeof(*d));
	int max = -1;

	for (int i = 0; i < ncpus; i++)
		if (cpus[i] > max)
			max = cpus[i];
	d->fd_len = max + 1;
	d->fd = xmalloc(sizeof(*d->fd) * (size_t)(d->fd_len ? d->fd_len : 1));
	for (int i = 0; i < d->fd_len; i++)
		d->fd[i] = -1;
	d->cpus = xmalloc(sizeof(*d->cpus) * (size_t)(ncpus ? ncpus : 1));
	memcpy(d->cpus, cpus, sizeof(*cpus) * (size_t)ncpus);
	d->ncpus = ncpus;
	d->allow = *allow;
	d->cap = d->fd_len * (allow->n ? allow->n : 1);
	d->flag_rows = d->fd_len;
	/* one shared block: a guardian forked later sees every save and write as it happens */
	{
		size_t nat = (size_t)d->flag_rows * (size_t)(allow->n ? allow->n : 1);
		size_t head = (sizeof(atomic_int) + 63) / 64 * 64;
		size_t len = head + sizeof(*d->saved) * (size_t)d->cap + sizeof(int) * nat;
		char *blk = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (blk == MAP_FAILED)
			xmalloc_die(len);
		d->shared = blk;
		d->shared_len = len;
		d->nsaved = (atomic_int *)blk;
		d->saved = (struct msr_saved *)(blk + head);
		d->saved_at = (int *)(blk + head + sizeof(*d->saved) * (size_t)d->cap);
	}
	atomic_init(d->nsaved, 0);
	pthread_mutex_init(&d->err_lock, NULL);
	d->batch_fd = -1;
	d->rootfd = -1;
	snprintf(d->root, sizeof(d->root), "/");
	return d;
}

static void msr_cpu_path(const struct msr_dev *d, int cpu, const char *dev, char *buf, size_t len)
{
	snprintf(buf, len, "%s/dev/cpu/%d/%s", strcmp(d->root, "/") ? d->root : "", cpu, dev);
}

/*
 * PATH of CPU's device of D's kind (under a --root tree, relative to it),
 * built with async-signal-safe steps only: a restore after a crash may
 * open it.
 */
static void msr_demand_path(const struct msr_dev *d, int cpu, char *path)
{
	const char *name = d->kind == MSR_KIND_MSR_SAFE ? "/msr_safe" : "/msr";
	char digits[12];
	size_t n = 0, k = 0;

	for (const char *p = d->rootfd >= 0 ? "dev/cpu/" : "/dev/cpu/"; *p; p++)
		path[n++] = *p;
	do {
		digits[k++] = (char)('0' + cpu % 10);
		cpu /= 10;
	} while (cpu > 0 && k < sizeof(digits));
	while (k)
		path[n++] = digits[--k];
	while (*name)
		path[n++] = *name++;
	path[n] = 0;
}

/*
 * The CPUs past ROOM (the descriptors left, -1: no limit) get their device
 * opened at each access; the first of them is opened once here, so that a
 * device this user may not open is said now.  0 or -errno.
 */
/*
 * CPU's device of D's kind (async-signal-safe): this machine's by its
 * path, a --root tree's inside the tree (checked at open: msr_check_tree).
 * An fd, or -1 with errno.
 */
static int msr_dev_open(struct msr_dev *d, int cpu)
{
	char path[MSR_PATH_MAX];
	int fd;

	msr_demand_path(d, cpu, path);
	if (d->rootfd < 0)
		return open(path, O_RDWR | O_CLOEXEC);
	fd = rootfs_open_device_at(d->rootfd, path, O_RDWR);
	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	return fd;
}

/*
 * With privileges, whether CPU's device of D's kind in a --root tree may be
 * written (paths_check_tree): 0, or -EPERM with the reason in ERR.
 */
static int msr_check_tree(struct msr_dev *d, int cpu, char *err, size_t errlen)
{
	static const char *const dev[] = { "msr", "msr_safe" };
	char rel[MSR_PATH_MAX];
	int rc = 0;

	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]) && !rc && d->rootfd >= 0; i++) {
		snprintf(rel, sizeof(rel), "dev/cpu/%d/%s", cpu, dev[i]);
		rc = paths_check_tree(d->rootfd, d->root, rel, "registers", err, errlen);
	}
	return rc;
}

static int msr_open_cpu(struct msr_dev *d, int cpu, const char *path, int *opened, long room)
{
	int fd = msr_dev_open(d, cpu);

	(void)path;

	if (fd < 0 && (errno == EMFILE || errno == ENFILE) && room < 0)
		room = 0;
	if (room >= 0 && *opened >= room) {
		if (fd >= 0)
			close(fd);
		else if (errno != EMFILE && errno != ENFILE)
			return -errno;
		d->fd[cpu] = MSR_FD_ON_DEMAND;
		return 0;
	}
	if (fd < 0)
		return -errno;
	d->fd[cpu] = fd;
	(*opened)++;
	return 0;
}

int msr_open_files(const char *root, const int *cpus, int ncpus, const struct msr_allowlist *allow,
		   struct msr_dev **out, char *err, size_t errlen)
{
	struct msr_dev *d = msr_new(cpus, ncpus, allow);
	char path[MSR_PATH_MAX], safe[MSR_PATH_MAX], why[500] = "";
	long room = -1;
	int opened = 0, demand;

	*out = NULL;
	snprintf(d->root, sizeof(d->root), "%s", root && *root ? root : "/");
	if (!rootfs_is_host(root)) {
		d->rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (d->rootfd < 0) {
			int rc = -errno;

			snprintf(err, errlen, "--root %s: %s", root, strerror(-rc));
			msr_close(d);
			return rc;
		}
	}
	d->kind = MSR_KIND_MSR;
	/* another user's tree is never written as root (its devices could be swapped for links) */
	for (int i = 0; i < ncpus; i++) {
		int rc = msr_check_tree(d, cpus[i], err, errlen);

		if (rc) {
			msr_close(d);
			return rc;
		}
	}
	/* one device per CPU: the limit raised for them, else the rest opened at each access */
	if (fdlimit_room(ncpus, why, sizeof(why))) {
		room = fdlimit_soft() - fdlimit_open_now() - FDLIMIT_MARGIN;
		if (room < 1)
			room = 1;
	}
	if (msr_batch_preferred(d->root, allow)) {
		/* msr-safe's batch call reads every CPU at once: its files, all of them, or none */
		int i;

		d->kind = MSR_KIND_MSR_SAFE;
		for (i = 0; i < ncpus; i++) {
			msr_cpu_path(d, cpus[i], "msr_safe", safe, sizeof(safe));
			if (msr_open_cpu(d, cpus[i], safe, &opened, room))
				break;
		}
		if (i == ncpus)
			goto opened;
		d->kind = MSR_KIND_MSR;
		opened = 0;
		for (int k = 0; k < ncpus; k++) {
			if (d->fd[cpus[k]] >= 0)
				close(d->fd[cpus[k]]);
			d->fd[cpus[k]] = -1;
		}
	}
	for (int i = 0; i < ncpus; i++) {
		int cpu = cpus[i], rc;

		msr_cpu_path(d, cpu, "msr", path, sizeof(path));
		rc = d->kind == MSR_KIND_MSR ? msr_open_cpu(d, cpu, path, &opened, room) : -EACCES;
		if (rc && (i == 0 || d->kind == MSR_KIND_MSR_SAFE)) {
			/* msr-safe lets non-root users at an allowlisted set of registers */
			msr_cpu_path(d, cpu, "msr_safe", safe, sizeof(safe));
			d->kind = MSR_KIND_MSR_SAFE;
			if (msr_open_cpu(d, cpu, safe, &opened, room))
				d->kind = MSR_KIND_MSR;
			else
				rc = 0;
		}
		if (rc) {
			msr_explain(rc, "open", cpu, 0, path, d->root, allow, err, errlen);
			msr_close(d);
			return rc;
		}
	}
opened:
	demand = ncpus - opened;
	if (demand > 0)
		snprintf(d->fd_note, sizeof(d->fd_note), "the devices of %d of the %d CPUs are opened "
			 "at each access (slower sweeps): %s", demand, ncpus, why);
	msr_batch_open(d);
	msr_emergency_track(d);
	*out = d;
	return 0;
}

const char *msr_fd_note(const struct msr_dev *d)
{
	return d->fd_note;
}

struct msr_dev *msr_open_ops(const struct msr_ops *ops, void *ctx, const int *cpus, int ncpus,
			     const struct msr_allowlist *allow)
{
	struct msr_dev *d = msr_new(cpus, ncpus, allow);

	d->kind = MSR_KIND_OPS;
	d->ops = ops;
	d->ctx = ctx;
	return d;
}

void msr_set_sockets(struct msr_dev *d, const int *cpu_socket, int len)
{
	int max = 0;

	free(d->cpu_socket);
	d->cpu_socket = xmalloc(sizeof(int) * (size_t)(d->fd_len ? d->fd_len : 1));
	for (int c = 0; c < d->fd_len; c++) {
		d->cpu_socket[c] = c < len ? cpu_socket[c] : -1;
		if (d->cpu_socket[c] + 1 > max)
			max = d->cpu_socket[c] + 1;
	}
	d->nsockets = max;
}

void msr_close(struct msr_dev *d)
{
	if (!d)
		return;
	if (!atomic_load(&d->frozen))
		msr_restore_all(d);
	msr_emergency_forget(d);
	msr_batch_close(d);
	for (int i = 0; i < d->fd_len; i++)
		if (d->fd[i] >= 0)
			close(d->fd[i]);
	free(d->fd);
	free(d->cpus);
	free(d->cpu_socket);
	if (d->rootfd >= 0)
		close(d->rootfd);
	munmap(d->shared, d->shared_len);
	free(d);
}

/* ---- access ----------------------------------------------------------------- */

/*
 * One 8-byte pread (WRITE false) or pwrite of REG on CPU's device: the one
 * held open, or one opened for this access.  Async-signal-safe.
 */
static int msr_raw_io(struct msr_dev *d, int cpu, uint32_t reg, uint64_t *val, bool write)
{
	int fd, rc;
	ssize_t n;

	if (cpu < 0 || cpu >= d->fd_len || d->fd[cpu] == -1)
		return -ENXIO;
	fd = d->fd[cpu];
	if (fd == MSR_FD_ON_DEMAND) {
		fd = msr_dev_open(d, cpu);
		if (fd < 0)
			return -errno;
	}
	n = write ? pwrite(fd, val, sizeof(*val), (off_t)reg) : pread(fd, val, sizeof(*val), (off_t)reg);
	rc = n < 0 ? -errno : n == sizeof(*val) ? 0 : -EIO;
	if (d->fd[cpu] == MSR_FD_ON_DEMAND)
		close(fd);
	return rc;
}

int msr_raw_read(struct msr_dev *d, int cpu, uint32_t reg, uint64_t *val)
{
	if (d->kind == MSR_KIND_OPS)
		return d->ops->read(d->ctx, cpu, reg, val);
	return msr_raw_io(d, cpu, reg, val, false);
}

int msr_raw_write(struct msr_dev *d, int cpu, uint32_t reg, uint64_t val)
{
	if (d->kind == MSR_KIND_OPS)
		return d->ops->write(d->ctx, cpu, reg, val);
	return msr_raw_io(d, cpu, reg, &val, true);
}

/* The row of REG's save flags on CPU: the CPU, or its socket for an uncore register. */
static int msr_row(const struct msr_dev *d, const struct msr_allow_entry *a, int cpu)
{
	if (a->uncore && d->cpu_socket && cpu >= 0 && cpu < d->fd_len && d->cpu_socket[cpu] >= 0)
		return d->cpu_socket[cpu];
	return cpu;
}

struct msr_saved *msr_saved_find(const struct msr_dev *d, const struct msr_allow_entry *a,
				 int row)
{
	int at;

	if (!a || row < 0 || row >= d->flag_rows)
		return NULL;
	at = d->saved_at[row * d->allow.n + (int)(a - d->allow.e)];
	return at ? &d->saved[at - 1] : NULL;
}

/* Whether REG of CPU was read before (its original is saved). */
static bool msr_worked_before(const struct msr_dev *d, int cpu, uint32_t reg)
{
	const struct msr_allow_entry *a = msr_allow_find(&d->allow, reg);

	return a && msr_saved_find(d, a, msr_row(d, a, cpu));
}

/* This thread's last failure message (msr_thread_error). */
static _Thread_local char msr_tls_err[512];

/* The device's last error is this thread's last one now. */
static void msr_publish_err(struct msr_dev *d)
{
	pthread_mutex_lock(&d->err_lock);
	memcpy(d->err, msr_tls_err, sizeof(d->err));
	pthread_mutex_unlock(&d->err_lock);
}

void msr_fail(struct msr_dev *d, int rc, const char *op, int cpu, uint32_t reg)
{
	char path[MSR_PATH_MAX];

	if (rc == -EIO && msr_worked_before(d, cpu, reg)) {
		char name[64];

		msr_allow_name(&d->allow, reg, name, sizeof(name));
		snprintf(msr_tls_err, sizeof(msr_tls_err), "CPU %d failed to %s MSR %s, which "
			 "worked before (I/O error: a device fault or the CPU going away); the "
			 "figures of this interval are not shown", cpu, op, name);
	} else {
		if (d->kind == MSR_KIND_OPS)
			snprintf(path, sizeof(path), "the emulated machine");
		else
			msr_cpu_path(d, cpu, d->kind == MSR_KIND_MSR ? "msr" : "msr_safe", path,
				     sizeof(path));
		msr_explain(rc, op, cpu, reg, path, d->root, &d->allow, msr_tls_err,
			    sizeof(msr_tls_err));
	}
	msr_publish_err(d);
}

const char *msr_thread_error(void)
{
	return msr_tls_err;
}

int msr_read(struct msr_dev *d, int cpu, uint32_t reg, uint64_t *val)
{
	int rc = msr_raw_read(d, cpu, reg, val);

	if (rc)
		msr_fail(d, rc, "read", cpu, reg);
	return rc;
}

/* Save REG of CPU unless already saved (per socket for uncore registers).  0 or -errno. */
static int msr_save_once(struct msr_dev *d, const struct msr_allow_entry *a, int cpu,
			 uint32_t reg, struct msr_saved **out)
{
	int row, idx, rc, n;
	uint64_t orig;

	if (!a) {
		msr_fail(d, -EACCES, "write", cpu, reg);
		return -EACCES;
	}
	idx = (int)(a - d->allow.e);
	row = msr_row(d, a, cpu);
	if (row < 0 || row >= d->flag_rows) {
		msr_fail(d, -ENXIO, "write", cpu, reg);
		return -ENXIO;
	}
	if ((*out = msr_saved_find(d, a, row)))
		return 0;
	n = atomic_load(d->nsaved);
	rc = msr_raw_read(d, cpu, reg, &orig);
	if (rc) {
		msr_fail(d, rc, "read", cpu, reg);
		return rc;
	}
	if (n >= d->cap) {
		msr_fail(d, -ENOSPC, "save", cpu, reg);
		return -ENOSPC;
	}
	assert(n < d->cap);
	d->saved[n] = (struct msr_saved){ .cpu = cpu, .socket = a->uncore ? row : -1, .reg = reg,
					  .value = orig, .counter = a->counter };
	atomic_init(&d->saved[n].written, false);
	atomic_init(&d->saved[n].released, false);
	atomic_store(d->nsaved, n + 1); /* publish only the complete entry */
	d->saved_at[row * d->allow.n + idx] = n + 1;
	*out = &d->saved[n];
	return 0;
}

int msr_save(struct msr_dev *d, int cpu, uint32_t reg)
{
	struct msr_saved *sv;

	return msr_save_once(d, msr_allow_find(&d->allow, reg), cpu, reg, &sv);
}

int msr_write(struct msr_dev *d, int cpu, uint32_t reg, uint64_t val)
{
	const struct msr_allow_entry *a = msr_allow_find(&d->allow, reg);
	struct msr_saved *sv;
	int rc;

	if (atomic_load(&d->frozen))
		return -ECANCELED; /* restoring: a late write would undo the restore */
	if (a && (val & ~a->write_mask)) {
		char name[64];

		msr_allow_name(&d->allow, reg, name, sizeof(name));
		snprintf(msr_tls_err, sizeof(msr_tls_err), "pmutop refuses to write 0x%llX to MSR "
			 "%s on CPU %d: bits 0x%llX are reserved (writable bits 0x%llX); check the "
			 "layout's value for this register", (unsigned long long)val, name, cpu,
			 (unsigned long long)(val & ~a->write_mask),
			 (unsigned long long)a->write_mask);
		msr_publish_err(d);
		return -EINVAL;
	}
	rc = msr_save_once(d, a, cpu, reg, &sv);
	if (rc)
		return rc;
	/* never a register whose original is not saved, never one off the allowlist */
	assert(a && sv->reg == reg);
	if (atomic_load(&sv->released)) {
		snprintf(msr_tls_err, sizeof(msr_tls_err), "MSR 0x%X on CPU %d belongs to another "
			 "program now; pmutop no longer writes it", reg, cpu);
		msr_publish_err(d);
		return -EBUSY;
	}
	/* recorded before the write: a restore racing with it still sees it as ours */
	sv->prev = atomic_load(&sv->written) ? sv->last : sv->value;
	sv->last = val;
	atomic_store(&sv->written, true);
	rc = msr_raw_write(d, cpu, reg, val);
	d->nwrites++;
	if (rc) {
		sv->last = sv->prev; /* still what it held: a failed write is no other program's */
		msr_fail(d, rc, "write", cpu, reg);
	}
	return rc;
}

/* The saved entry of REG on CPU, or NULL when pmutop never saved it. */
static struct msr_saved *msr_entry(const struct msr_dev *d, int cpu, uint32_t reg)
{
	const struct msr_allow_entry *a = msr_allow_find(&d->allow, reg);

	return a ? msr_saved_find(d, a, msr_row(d, a, cpu)) : NULL;
}

bool msr_taken(const struct msr_dev *d, int cpu, uint32_t reg, uint64_t cur)
{
	const struct msr_saved *sv = msr_entry(d, cpu, reg);

	/* restoring: CUR may be the original pmutop put back itself (frozen before any) */
	if (atomic_load(&d->frozen))
		return false;
	return sv && atomic_load(&sv->written) && cur != sv->last;
}

void msr_release(struct msr_dev *d, int cpu, uint32_t reg)
{
	struct msr_saved *sv = msr_entry(d, cpu, reg);

	if (sv && !atomic_load(&d->frozen))
		atomic_store(&sv->released, true);
}

bool msr_wrote(const struct msr_dev *d, int cpu, uint32_t reg)
{
	const struct msr_saved *sv = msr_entry(d, cpu, reg);

	return sv && atomic_load(&sv->written);
}

bool msr_released(const struct msr_dev *d, int cpu, uint32_t reg)
{
	const struct msr_saved *sv = msr_entry(d, cpu, reg);

	return sv && atomic_load(&sv->released);
}

const char *msr_last_error(const struct msr_dev *d)
{
	return d->err;
}

enum msr_kind msr_dev_kind(const struct msr_dev *d)
{
	return d->kind;
}

uint64_t msr_write_count(const struct msr_dev *d)
{
	return d->nwrites;
}

int msr_saved_count(const struct msr_dev *d)
{
	return atomic_load(d->nsaved);
}
