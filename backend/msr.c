/*
 * msr: register access with an allowlist and save/restore.
 * See msr.h for the rules and which thread may call what.
 */
#include "msr.h"
#include "paths.h"
#include "xmalloc.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A device path: the root prefix plus /dev/cpu/N/msr_safe. */
#define MSR_PATH_MAX (PATH_MAX + 64)

/* What the last restore did with a saved register. */
enum msr_restore_state {
	MSR_R_UNUSED,   /* saved, never written by pmutop: not touched */
	MSR_R_DONE,     /* holds its original value again */
	MSR_R_FOREIGN,  /* another program changed it since pmutop wrote it: left alone */
	MSR_R_FAILED,   /* the write back failed (err) */
};

struct msr_saved {
	int cpu;
	int socket;     /* -1 for core registers */
	uint32_t reg;
	uint64_t value; /* the original */
	uint64_t last;  /* what pmutop wrote last (valid when written) */
	/*
	 * A count register.  IA32_PMCx takes bits 31:0 of a write and
	 * sign-extends bit 31 [SDM 18.2.6]: a general-purpose count above 2^31
	 * comes back as its low 32 bits (the full-width alias IA32_A_PMCx is
	 * not used); fixed and uncore counters are written at full width.
	 */
	bool counter;
	atomic_bool written;
	enum msr_restore_state state;
	int err;
};

struct msr_dev {
	enum msr_kind kind;
	char root[PATH_MAX];
	int *fd;               /* by OS CPU number; -1 when not open */
	int fd_len;
	int *cpus;
	int ncpus;
	int *cpu_socket;       /* by OS CPU number; NULL until msr_set_sockets */
	int nsockets;
	const struct msr_ops *ops;
	void *ctx;
	struct msr_allowlist allow;
	/* saved originals: allocated at open so restoring never allocates */
	struct msr_saved *saved;
	int cap;
	atomic_int nsaved;
	atomic_int frozen;      /* restore has begun: no more writes */
	int *saved_at;         /* [(cpu or socket) * allow.n + allow index]: saved[] index + 1, 0 */
	int flag_rows;
	uint64_t nwrites;
	char err[512];
};

/*
 * The device a fatal signal restores through: set from the open of the
 * device files until msr_close() has restored them, so no crash between
 * the first write and the last restore leaves a register changed.
 */
static struct msr_dev *_Atomic msr_emergency_dev;

/* ---- messages ------------------------------------------------------------- */

/* First line of ROOT/REL, or "" when it cannot be read. */
void msr_explain(int err, const char *op, int cpu, uint32_t reg, const char *path,
		 const char *root, const struct msr_allowlist *allow, char *buf, size_t len)
{
	char name[64], filter[64], lockdown[128];

	msr_allow_name(allow, reg, name, sizeof(name));
	switch (-err) {
	case ENOENT:
		snprintf(buf, len, "%s does not exist: load the msr driver with 'modprobe msr' "
			 "(or install msr-safe), or run 'pmutop --sim nehalem-ep' to see an "
			 "emulated machine", path);
		return;
	case EACCES:
		if (strcmp(op, "write") == 0) {
			snprintf(buf, len, "pmutop refuses to write MSR %s on CPU %d: it is not a "
				 "performance-monitoring register on pmutop's allowlist", name, cpu);
			return;
		}
		/* fall through */
	case EPERM:
		if (strcmp(op, "write") == 0) {
			paths_read_line(root, "sys/module/msr/parameters/allow_writes", filter,
					 sizeof(filter));
			paths_read_line(root, "sys/kernel/security/lockdown", lockdown,
					 sizeof(lockdown));
			if (strstr(lockdown, "[integrity]") || strstr(lockdown, "[confidentiality]"))
				snprintf(buf, len, "the kernel refused writing MSR %s on CPU %d: it is "
					 "locked down (%s, usually because of Secure Boot); boot "
					 "with lockdown=none or use msr-safe", name, cpu, lockdown);
			else if (strcmp(filter, "off") == 0 || strcmp(filter, "default") == 0)
				snprintf(buf, len, "the kernel refused writing MSR %s on CPU %d: msr "
					 "writes are filtered (allow_writes=%s); as root: echo on > "
					 "/sys/module/msr/parameters/allow_writes", name, cpu, filter);
			else
				snprintf(buf, len, "the kernel refused writing MSR %s on CPU %d "
					 "(write filtering or lockdown); check "
					 "/sys/module/msr/parameters/allow_writes and "
					 "/sys/kernel/security/lockdown", name, cpu);
			return;
		}
		snprintf(buf, len, "permission denied opening %s: run pmutop as root, or give it "
			 "CAP_SYS_RAWIO (setcap cap_sys_rawio+ep pmutop) and read access to "
			 "/dev/cpu/*/msr, or install msr-safe with the allowlist 'pmutop "
			 "--msr-safe-allowlist' prints", path);
		return;
	case EIO:
		snprintf(buf, len, "CPU %d cannot %s MSR %s: the register is not implemented on "
			 "this CPU model (the layout may not match it; see 'pmutop --doctor')", cpu,
			 op, name);
		return;
	case ENXIO:
	case ENODEV:
		snprintf(buf, len, "CPU %d is offline or does not exist (%s MSR %s)", cpu, op, name);
		return;
	}
	snprintf(buf, len, "cannot %s MSR %s on CPU %d through %s: %s", op, name, cpu, path,
		 strerror(-err));
}

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
	d->saved = xcalloc((size_t)d->cap, sizeof(*d->saved));
	d->flag_rows = d->fd_len;
	d->saved_at = xcalloc((size_t)d->flag_rows * (size_t)(allow->n ? allow->n : 1),
			      sizeof(*d->saved_at));
	atomic_init(&d->nsaved, 0);
	snprintf(d->root, sizeof(d->root), "/");
	return d;
}

static void msr_cpu_path(const struct msr_dev *d, int cpu, const char *dev, char *buf, size_t len)
{
	snprintf(buf, len, "%s/dev/cpu/%d/%s", strcmp(d->root, "/") ? d->root : "", cpu, dev);
}

int msr_open_files(const char *root, const int *cpus, int ncpus, const struct msr_allowlist *allow,
		   struct msr_dev **out, char *err, size_t errlen)
{
	struct msr_dev *d = msr_new(cpus, ncpus, allow);
	char path[MSR_PATH_MAX], safe[MSR_PATH_MAX];

	*out = NULL;
	snprintf(d->root, sizeof(d->root), "%s", root && *root ? root : "/");
	d->kind = MSR_KIND_MSR;
	for (int i = 0; i < ncpus; i++) {
		int cpu = cpus[i], fd, rc;

		msr_cpu_path(d, cpu, "msr", path, sizeof(path));
		fd = d->kind == MSR_KIND_MSR ? open(path, O_RDWR | O_CLOEXEC) : -1;
		rc = fd < 0 ? -errno : 0;
		if (fd < 0 && (i == 0 || d->kind == MSR_KIND_MSR_SAFE)) {
			/* msr-safe lets non-root users at an allowlisted set of registers */
			msr_cpu_path(d, cpu, "msr_safe", safe, sizeof(safe));
			fd = open(safe, O_RDWR | O_CLOEXEC);
			if (fd >= 0)
				d->kind = MSR_KIND_MSR_SAFE;
		}
		if (fd < 0) {
			msr_explain(rc, "open", cpu, 0, path, d->root, allow, err, errlen);
			msr_close(d);
			return rc;
		}
		d->fd[cpu] = fd;
	}
	atomic_store(&msr_emergency_dev, d);
	*out = d;
	return 0;
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
	if (atomic_load(&msr_emergency_dev) == d)
		atomic_store(&msr_emergency_dev, NULL);
	for (int i = 0; i < d->fd_len; i++)
		if (d->fd[i] >= 0)
			close(d->fd[i]);
	free(d->fd);
	free(d->cpus);
	free(d->cpu_socket);
	free(d->saved);
	free(d->saved_at);
	free(d);
}

/* ---- access ----------------------------------------------------------------- */

static int msr_raw_read(struct msr_dev *d, int cpu, uint32_t reg, uint64_t *val)
{
	ssize_t n;

	if (d->kind == MSR_KIND_OPS)
		return d->ops->read(d->ctx, cpu, reg, val);
	if (cpu < 0 || cpu >= d->fd_len || d->fd[cpu] < 0)
		return -ENXIO;
	n = pread(d->fd[cpu], val, sizeof(*val), (off_t)reg);
	if (n < 0)
		return -errno;
	return n == sizeof(*val) ? 0 : -EIO;
}

static int msr_raw_write(struct msr_dev *d, int cpu, uint32_t reg, uint64_t val)
{
	ssize_t n;

	if (d->kind == MSR_KIND_OPS)
		return d->ops->write(d->ctx, cpu, reg, val);
	if (cpu < 0 || cpu >= d->fd_len || d->fd[cpu] < 0)
		return -ENXIO;
	n = pwrite(d->fd[cpu], &val, sizeof(val), (off_t)reg);
	if (n < 0)
		return -errno;
	return n == sizeof(val) ? 0 : -EIO;
}

/* The row of REG's save flags on CPU: the CPU, or its socket for an uncore register. */
static int msr_row(const struct msr_dev *d, const struct msr_allow_entry *a, int cpu)
{
	if (a->uncore && d->cpu_socket && cpu >= 0 && cpu < d->fd_len && d->cpu_socket[cpu] >= 0)
		return d->cpu_socket[cpu];
	return cpu;
}

/* Whether REG of CPU was read before (its original is saved). */
static bool msr_worked_before(const struct msr_dev *d, int cpu, uint32_t reg)
{
	const struct msr_allow_entry *a = msr_allow_find(&d->allow, reg);
	int row;

	if (!a)
		return false;
	row = msr_row(d, a, cpu);
	return row >= 0 && row < d->flag_rows && d->saved_at[row * d->allow.n + (int)(a - d->allow.e)];
}

static void msr_fail(struct msr_dev *d, int rc, const char *op, int cpu, uint32_t reg)
{
	char path[MSR_PATH_MAX];

	if (rc == -EIO && msr_worked_before(d, cpu, reg)) {
		char name[64];

		msr_allow_name(&d->allow, reg, name, sizeof(name));
		snprintf(d->err, sizeof(d->err), "CPU %d failed to %s MSR %s, which worked before "
			 "(I/O error: a device fault or the CPU going away); the figures of this "
			 "interval are not shown", cpu, op, name);
		return;
	}

	if (d->kind == MSR_KIND_OPS)
		snprintf(path, sizeof(path), "the emulated machine");
	else
		msr_cpu_path(d, cpu, d->kind == MSR_KIND_MSR ? "msr" : "msr_safe", path, sizeof(path));
	msr_explain(rc, op, cpu, reg, path, d->root, &d->allow, d->err, sizeof(d->err));
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
	if (d->saved_at[row * d->allow.n + idx]) {
		*out = &d->saved[d->saved_at[row * d->allow.n + idx] - 1];
		return 0;
	}
	n = atomic_load(&d->nsaved);
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
	atomic_store(&d->nsaved, n + 1); /* publish only the complete entry */
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
		snprintf(d->err, sizeof(d->err), "pmutop refuses to write 0x%llX to MSR %s on CPU "
			 "%d: bits 0x%llX are reserved (writable bits 0x%llX); check the layout's "
			 "value for this register", (unsigned long long)val, name, cpu,
			 (unsigned long long)(val & ~a->write_mask),
			 (unsigned long long)a->write_mask);
		return -EINVAL;
	}
	rc = msr_save_once(d, a, cpu, reg, &sv);
	if (rc)
		return rc;
	/* never a register whose original is not saved, never one off the allowlist */
	assert(a && sv->reg == reg);
	/* recorded before the write: a restore racing with it still sees it as ours */
	sv->last = val;
	atomic_store(&sv->written, true);
	rc = msr_raw_write(d, cpu, reg, val);
	d->nwrites++;
	if (rc)
		msr_fail(d, rc, "write", cpu, reg);
	return rc;
}

/* ---- restore ------------------------------------------------------------------ */

#define MSR_RESTORE_TRIES 3

/* Write S's original back: retried, and through a sibling CPU for an uncore register. */
static int msr_put_back(struct msr_dev *d, const struct msr_saved *s)
{
	static const struct timespec pause = { .tv_nsec = 1000000 };
	int rc = -EIO;

	for (int t = 0; t < MSR_RESTORE_TRIES && rc; t++) {
		if (t)
			nanosleep(&pause, NULL);
		rc = msr_raw_write(d, s->cpu, s->reg, s->value);
		/* an uncore register survives its CPU going offline: use a sibling */
		for (int k = 0; rc && s->socket >= 0 && d->cpu_socket && k < d->ncpus; k++) {
			int other = d->cpus[k];

			if (other != s->cpu && d->cpu_socket[other] == s->socket)
				rc = msr_raw_write(d, other, s->reg, s->value);
		}
	}
	return rc;
}

static int msr_get(struct msr_dev *d, const struct msr_saved *s, uint64_t *v)
{
	int rc = msr_raw_read(d, s->cpu, s->reg, v);

	for (int k = 0; rc && s->socket >= 0 && d->cpu_socket && k < d->ncpus; k++) {
		int other = d->cpus[k];

		if (other != s->cpu && d->cpu_socket[other] == s->socket)
			rc = msr_raw_read(d, other, s->reg, v);
	}
	return rc;
}

/* Restore control register S if pmutop's value is still in it. */
static void msr_restore_control(struct msr_dev *d, struct msr_saved *s)
{
	uint64_t cur;
	int rc;

	if (!atomic_load(&s->written)) {
		s->state = MSR_R_UNUSED;
		return;
	}
	rc = msr_get(d, s, &cur);
	if (rc == 0 && cur == s->value) {
		s->state = MSR_R_DONE;
		return;
	}
	if (rc == 0 && cur != s->last) {
		s->state = MSR_R_FOREIGN;
		return;
	}
	/* ours, or unreadable: write it back (a failed read says nothing about the owner) */
	s->err = msr_put_back(d, s);
	s->state = s->err ? MSR_R_FAILED : MSR_R_DONE;
}

/*
 * Restore counter S if pmutop used it (wrote it or its control) and its
 * control did not pass to another program meanwhile.
 */
static void msr_restore_counter(struct msr_dev *d, struct msr_saved *s)
{
	const struct msr_allow_entry *a = msr_allow_find(&d->allow, s->reg);
	const struct msr_saved *ctl = NULL;
	bool ours = atomic_load(&s->written);

	if (a && a->control) {
		const struct msr_allow_entry *ca = msr_allow_find(&d->allow, a->control);
		int row = s->socket >= 0 ? s->socket : s->cpu;

		if (ca && row >= 0 && row < d->flag_rows && d->saved_at[row * d->allow.n +
									   (int)(ca - d->allow.e)])
			ctl = &d->saved[d->saved_at[row * d->allow.n + (int)(ca - d->allow.e)] - 1];
	}
	if (ctl && atomic_load(&ctl->written))
		ours = true;
	if (!ours) {
		s->state = MSR_R_UNUSED;
		return;
	}
	if (ctl && ctl->state == MSR_R_FOREIGN) {
		s->state = MSR_R_FOREIGN;
		return;
	}
	s->err = msr_put_back(d, s);
	s->state = s->err ? MSR_R_FAILED : MSR_R_DONE;
}

/*
 * Two passes, newest first in each: the controls (event selects, enables,
 * matrices), then the counts.  Restoring a count while our enable is still
 * set would let it run on past its original value.  Async-signal-safe for
 * the device files (pread/pwrite/nanosleep on memory allocated at open).
 */
int msr_restore_all(struct msr_dev *d)
{
	int failed = 0, n;

	atomic_store(&d->frozen, 1);
	n = atomic_load(&d->nsaved);
	for (int i = n - 1; i >= 0; i--)
		if (!d->saved[i].counter)
			msr_restore_control(d, &d->saved[i]);
	for (int i = n - 1; i >= 0; i--)
		if (d->saved[i].counter)
			msr_restore_counter(d, &d->saved[i]);
	for (int i = 0; i < n; i++)
		failed += d->saved[i].state == MSR_R_FAILED;
	return failed;
}

/* ---- async-signal-safe report ------------------------------------------------- */

struct msr_line {
	char buf[320];
	size_t n;
};

static void msr_put(struct msr_line *l, const char *s)
{
	while (*s && l->n + 1 < sizeof(l->buf))
		l->buf[l->n++] = *s++;
}

static void msr_put_num(struct msr_line *l, unsigned long long v, unsigned base)
{
	char tmp[24];
	int k = 0;

	do {
		tmp[k++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v && k < (int)sizeof(tmp));
	while (k > 0 && l->n + 1 < sizeof(l->buf))
		l->buf[l->n++] = tmp[--k];
}

/* strerror is not async-signal-safe: the errors a restore meets, by name. */
static const char *msr_errname(int err)
{
	switch (-err) {
	case EIO: return "I/O error: the CPU refused the write";
	case ENXIO: return "the CPU is offline";
	case ENODEV: return "no such CPU";
	case EPERM: return "not permitted: write filtering or lockdown";
	case EACCES: return "permission denied";
	case EBADF: return "the device file is not open";
	case EINTR: return "interrupted";
	case EAGAIN: return "busy";
	}
	return "error";
}

int msr_restore_report(const struct msr_dev *d, int fd)
{
	int failed = 0, n = atomic_load(&d->nsaved);

	for (int i = 0; i < n; i++) {
		const struct msr_saved *s = &d->saved[i];
		struct msr_line l = { .n = 0 };

		if (s->state != MSR_R_FAILED && s->state != MSR_R_FOREIGN)
			continue;
		msr_put(&l, "pmutop: MSR 0x");
		msr_put_num(&l, s->reg, 16);
		msr_put(&l, s->socket >= 0 ? " of socket " : " on CPU ");
		msr_put_num(&l, (unsigned long long)(s->socket >= 0 ? s->socket : s->cpu), 10);
		if (s->state == MSR_R_FOREIGN) {
			msr_put(&l, ": changed by another program since pmutop wrote it; left as it "
				    "is\n");
		} else {
			failed++;
			msr_put(&l, " could not be restored (");
			msr_put(&l, msr_errname(s->err));
			msr_put(&l, "); to restore it by hand: wrmsr -p ");
			msr_put_num(&l, (unsigned long long)s->cpu, 10);
			msr_put(&l, " 0x");
			msr_put_num(&l, s->reg, 16);
			msr_put(&l, " 0x");
			msr_put_num(&l, s->value, 16);
			msr_put(&l, "\n");
		}
		if (write(fd, l.buf, l.n) < 0)
			break;
	}
	return failed;
}

int msr_emergency_restore(void)
{
	struct msr_dev *d = atomic_load(&msr_emergency_dev);

	if (!d)
		return 0;
	/*
	 * The sampler may be inside a write that began before the restore
	 * froze the layer: a second pass puts that register back too.
	 */
	msr_restore_all(d);
	msr_restore_all(d);
	return msr_restore_report(d, STDERR_FILENO);
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
	return atomic_load(&d->nsaved);
}
