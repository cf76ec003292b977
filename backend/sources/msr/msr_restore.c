/*
 * msr_restore: putting the saved registers back (only those pmutop wrote
 * and still holds), the report of what could not be, and the emergency
 * path a fatal-signal handler takes.  Async-signal-safe for the device
 * files: pread/pwrite/nanosleep/write on memory allocated at open.  See
 * msr.h for the rules.
 */
#include "msr.h"
#include "msr_int.h"

#include <errno.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

/*
 * The device a fatal signal restores through: set from the open of the
 * device files until msr_close() has restored them, so no crash between
 * the first write and the last restore leaves a register changed.
 */
static struct msr_dev *_Atomic msr_emergency_dev;

void msr_emergency_track(struct msr_dev *d)
{
	atomic_store(&msr_emergency_dev, d);
}

void msr_emergency_forget(struct msr_dev *d)
{
	struct msr_dev *expected = d;

	atomic_compare_exchange_strong(&msr_emergency_dev, &expected, NULL);
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
	if (atomic_load(&s->released)) {
		s->state = MSR_R_FOREIGN; /* given up to the program that took it */
		return;
	}
	rc = msr_get(d, s, &cur);
	if (rc == 0 && cur == s->value) {
		s->state = MSR_R_DONE;
		return;
	}
	/* PREV: pmutop died after recording LAST and before writing it (the guardian restores) */
	if (rc == 0 && cur != s->last && !(d->guardian && cur == s->prev)) {
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

	if (a && a->control)
		ctl = msr_saved_find(d, msr_allow_find(&d->allow, a->control),
				     s->socket >= 0 ? s->socket : s->cpu);
	if (ctl && atomic_load(&ctl->written))
		ours = true;
	if (!ours) {
		s->state = MSR_R_UNUSED;
		return;
	}
	if (atomic_load(&s->released) || (ctl && ctl->state == MSR_R_FOREIGN)) {
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
	n = atomic_load(d->nsaved);
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
	int failed = 0, n = atomic_load(d->nsaved);

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

