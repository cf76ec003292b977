/*
 * guardian: puts the PMU registers back when pmutop dies in a way it cannot
 * do it itself (SIGKILL, the OOM killer).
 *
 * Before the first register write, pmutop forks a small guardian process
 * that shares the register journal (the originals and what pmutop wrote,
 * msr_int.h's shared block) and waits on a pipe.  A normal exit restores
 * the registers, then releases the guardian, which leaves without touching
 * anything.  When the pipe closes without that (pmutop died), the guardian
 * restores through its copies of the device files, with the same allowlist
 * and the same rule (a register only if it still holds what pmutop wrote),
 * and exits.  It is in its own session with every signal blocked, so a
 * signal or SIGKILL to pmutop's process group does not take it along.
 * Only for the device files (msr, msr_safe); an emulator in the process
 * dies with it.  Main thread, before the sampler starts (fork).
 */
#ifndef PMUTOP_GUARDIAN_H
#define PMUTOP_GUARDIAN_H

#include <stddef.h>
#include <sys/types.h>

#include "msr.h"

/* Fork the guardian for D: 0 (also when D needs none), or -errno with why in ERR. */
int guardian_start(struct msr_dev *d, char *err, size_t errlen);

/* After pmutop restored the registers: the guardian leaves, restoring nothing. */
void guardian_release(void);

/*
 * guardian_release from a fatal signal's handler that restored every
 * register: async-signal-safe, waited for, so that the guardian neither
 * says pmutop left the registers changed nor holds the counters' lock
 * after pmutop died.
 */
void guardian_release_now(void);

/* The guardian's process id, 0 when none runs. */
pid_t guardian_pid(void);

#endif
