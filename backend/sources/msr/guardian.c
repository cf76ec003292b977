/*
 * guardian: the process that restores the registers after pmutop died; see
 * guardian.h.  The process itself is a guard (guard.h).
 */
#include "guardian.h"
#include "guard.h"
#include "msr_int.h"

#include <stdio.h>
#include <unistd.h>

static struct guard guardian = GUARD_NONE;

/* In the guardian, pmutop gone without releasing: put back what it left of its own. */
static int guardian_undo(void *ctx, pid_t parent)
{
	struct msr_dev *d = ctx;
	int failed;

	d->guardian = true;
	failed = msr_restore_all(d);
	msr_restore_report(d, STDERR_FILENO);
	if (dprintf(STDERR_FILENO, "pmutop: pid %d ended without restoring the counters; its "
				   "guardian %s\n", (int)parent,
		    failed ? "could not restore everything (above)" : "put them back") < 0) {
		/* no stderr left: the registers are what matters */
	}
	return failed;
}

int guardian_start(struct msr_dev *d, char *err, size_t errlen)
{
	if (msr_dev_kind(d) == MSR_KIND_OPS)
		return 0;
	return guard_start(&guardian, "pmutop-guard", guardian_undo, d, err, errlen);
}

void guardian_release(void)
{
	guard_release(&guardian);
}

void guardian_release_now(void)
{
	guard_release_now(&guardian);
}

pid_t guardian_pid(void)
{
	return guardian.pid;
}
