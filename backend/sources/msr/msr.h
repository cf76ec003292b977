/*
 * msr: the register layer.  Everything pmutop writes to or reads from a
 * model-specific register passes through here.
 *
 * Backends: the Linux msr driver's files (ROOT/dev/cpu/N/msr, or msr_safe
 * where msr-safe is installed: one open fd per CPU, 8-byte pread/pwrite at
 * offset = register address), or a table of functions (the in-process
 * emulator behind --sim).  Above the backend the rules are the same:
 *  - a write to a register that is not on the allowlist is refused here
 *    (-EACCES), whatever asked for it;
 *  - the original value of every register is read and saved before its
 *    first write, per CPU, or per socket for uncore registers;
 *  - msr_restore_all() writes the saved values back, newest first, but only
 *    of registers pmutop wrote and only while they still hold what pmutop
 *    wrote (a counter: while its control does); what another program took
 *    meanwhile is left as it is.  Failed writes are retried (an uncore one
 *    through a sibling CPU) and reported by msr_restore_report().  For the
 *    file backend they only use pread/pwrite/write on memory allocated at
 *    open, so a signal handler may call them;
 *  - every write is checked against the register's writable bits;
 *  - from the open of the device files until msr_close() a fatal-signal
 *    handler can restore through msr_emergency_restore().
 *
 * Threads: the sampler thread reads and writes; the shutdown path (UI
 * thread after the sampler has stopped, or a fatal-signal handler) restores.
 */
#ifndef PMUTOP_MSR_H
#define PMUTOP_MSR_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "msr_allow.h"

enum msr_kind { MSR_KIND_MSR, MSR_KIND_MSR_SAFE, MSR_KIND_OPS };

/* One read of a batch: CPU and REG in; VAL and ERR (0 or -errno) out. */
struct msr_batch_read {
	int cpu;
	uint32_t reg;
	uint64_t val;
	int err;
};

struct msr_ops {
	int (*read)(void *ctx, int cpu, uint32_t reg, uint64_t *val);
	int (*write)(void *ctx, int cpu, uint32_t reg, uint64_t val);
	/* optional: N reads at once (each its own err); 0 or the first -errno */
	int (*read_batch)(void *ctx, struct msr_batch_read *rd, int n);
};

struct msr_dev;

/*
 * Open the device file of each of the NCPUS OS CPUs under ROOT ("/" for
 * this machine): msr, else msr_safe.  The open-file limit is raised as far
 * as needed and allowed; the CPUs it leaves no room for get their device
 * opened at each access (msr_fd_note).  0, or -errno with one line in ERR
 * that says what to do.
 */
int msr_open_files(const char *root, const int *cpus, int ncpus, const struct msr_allowlist *allow,
		   struct msr_dev **out, char *err, size_t errlen);

/*
 * "" or why the devices of some CPUs are opened at each access instead of
 * held open: the open-file limit leaves no room for them all and may not
 * be raised (fdlimit.h).  Sweeps are slower then; said in every sample.
 */
const char *msr_fd_note(const struct msr_dev *d);

/* A register layer over OPS (the emulator). */
struct msr_dev *msr_open_ops(const struct msr_ops *ops, void *ctx, const int *cpus, int ncpus,
			     const struct msr_allowlist *allow);

/*
 * CPU_SOCKET[os_cpu] (LEN entries) gives each CPU's socket: uncore registers
 * are then saved once per socket and restored through any CPU of it.
 */
void msr_set_sockets(struct msr_dev *d, const int *cpu_socket, int len);

/* 0 or -errno; msr_last_error() says what happened and what to do. */
int msr_read(struct msr_dev *d, int cpu, uint32_t reg, uint64_t *val);
int msr_write(struct msr_dev *d, int cpu, uint32_t reg, uint64_t val);

/*
 * Whether reads can go in one call (msr-safe's batch device, or the ops
 * table's read_batch); msr_batch.c says why and how.
 */
bool msr_batch_ready(const struct msr_dev *d);

/*
 * The N reads of RD in one call, each with its own result.  0, or the first
 * failed read's -errno (msr_thread_error() says what happened); -EOPNOTSUPP
 * when the batch call itself is not there or failed (then nothing was read
 * and msr_batch_ready() is false from now on: read register by register).
 */
int msr_read_batch(struct msr_dev *d, struct msr_batch_read *rd, int n);

/*
 * For the doctor, without an open device: whether ROOT's msr-safe batch
 * device answers one read (of CPU 0's global counter control).  0 or
 * -errno, with a sentence in WHY either way.
 */
int msr_batch_probe(const char *root, char *why, size_t len);

/*
 * Whether msr-safe should be used although the msr driver is open to this
 * user (root): its batch device answers and its allowlist lets pmutop
 * write every register of ALLOW with every bit it writes.  False with
 * PMUTOP_NO_BATCH set.
 */
bool msr_batch_preferred(const char *root, const struct msr_allowlist *allow);

/* Room for msr_batch_status()'s text. */
#define MSR_BATCH_NOTE_MAX 4352

/* How reads are done, for the doctor and the footer ("one msr-safe batch call per sweep ..."). */
const char *msr_batch_status(const struct msr_dev *d);

/*
 * Whether CUR, just read from REG of CPU, says another program took the
 * register: pmutop wrote it, and it no longer holds what pmutop wrote.  A
 * register pmutop never wrote is nobody's business here (false).
 */
bool msr_taken(const struct msr_dev *d, int cpu, uint32_t reg, uint64_t cur);

/*
 * Give REG of CPU up to the program that took it: from now on msr_write
 * refuses it (-EBUSY) and no restore touches it (nor its count, for a
 * select); named at exit as left to another program.
 */
void msr_release(struct msr_dev *d, int cpu, uint32_t reg);

/* Whether pmutop has written REG of CPU. */
bool msr_wrote(const struct msr_dev *d, int cpu, uint32_t reg);

/* Whether REG of CPU was given up (msr_release). */
bool msr_released(const struct msr_dev *d, int cpu, uint32_t reg);

/*
 * Save the original value of REG now, without writing it (as msr_write
 * would before its first write; a no-op once saved).  Call it for every
 * register before enabling anything: a count read after our enable is no
 * longer the original.  -EACCES for a register off the allowlist.
 */
int msr_save(struct msr_dev *d, int cpu, uint32_t reg);

/*
 * Write the saved originals back: controls first, then counts, newest
 * first; no more writes afterwards.  Returns the number of registers that
 * could not be restored.  May run again (a second pass catches a write that
 * was under way).
 */
int msr_restore_all(struct msr_dev *d);

/*
 * One line on FD per register the last restore could not put back (with
 * the command that does it by hand) or left to another program.  Returns
 * the number that could not be put back.  Async-signal-safe.
 */
int msr_restore_report(const struct msr_dev *d, int fd);

/*
 * From a fatal-signal handler: restore the open device files (twice) and
 * report on stderr.  0 when there is nothing open.  Async-signal-safe.
 */
int msr_emergency_restore(void);

/* Restore (unless done), then close the files and free. */
void msr_close(struct msr_dev *d);

const char *msr_last_error(const struct msr_dev *d);
/* The message of this thread's last failed access (the per-socket readers fail apart). */
const char *msr_thread_error(void);
enum msr_kind msr_dev_kind(const struct msr_dev *d);
/* Registers written so far. */
uint64_t msr_write_count(const struct msr_dev *d);
/* Registers whose original value is saved. */
int msr_saved_count(const struct msr_dev *d);

/*
 * The message for error ERR (negative errno) of OP ("open", "read",
 * "write") on REG of CPU, with PATH the device file and ROOT the prefix
 * (write filtering and lockdown are looked up under ROOT/sys).
 */
void msr_explain(int err, const char *op, int cpu, uint32_t reg, const char *path,
		 const char *root, const struct msr_allowlist *allow, char *buf, size_t len);

#endif
