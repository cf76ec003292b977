/*
 * msr_int: the register layer's state, shared by msr.c (open, access,
 * save) and msr_restore.c (restore, report, emergency).  Not for any other
 * module.
 */
#ifndef PMUTOP_MSR_INT_H
#define PMUTOP_MSR_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "msr.h"

/* A device path: the root prefix plus /dev/cpu/N/msr_safe. */
#define MSR_PATH_MAX (PATH_MAX + 64)

/* fd[cpu] of a CPU whose device is opened at each access (the open-file limit is short). */
#define MSR_FD_ON_DEMAND (-2)

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
	uint64_t prev;  /* what it wrote before that: a process killed between recording
			 * LAST and the write left PREV there (the guardian takes both as ours) */
	/*
	 * A count register.  IA32_PMCx takes bits 31:0 of a write and
	 * sign-extends bit 31 [SDM 18.2.6]: a general-purpose count above 2^31
	 * comes back as its low 32 bits (the full-width alias IA32_A_PMCx is
	 * not used); fixed and uncore counters are written at full width.
	 */
	bool counter;
	atomic_bool written;
	/* another program took it while pmutop ran: never written again, left at exit */
	atomic_bool released;
	enum msr_restore_state state;
	int err;
};

struct msr_dev {
	enum msr_kind kind;
	char root[PATH_MAX];
	int rootfd;            /* a --root tree, held: its devices opened inside it; -1 this machine */
	int *fd;               /* by OS CPU number; -1 when not open, or MSR_FD_ON_DEMAND */
	char fd_note[700];     /* why some devices are opened at each access, "" when none are */
	int fd_len;
	int *cpus;
	int ncpus;
	int *cpu_socket;       /* by OS CPU number; NULL until msr_set_sockets */
	int nsockets;
	const struct msr_ops *ops;
	void *ctx;
	struct msr_allowlist allow;
	/*
	 * Saved originals: allocated at open so restoring never allocates, in
	 * memory shared with the guardian process (guardian.h), which restores
	 * from the same journal when pmutop dies by SIGKILL.
	 */
	struct msr_saved *saved;
	int cap;
	atomic_int *nsaved;    /* in the shared block */
	void *shared;          /* the block: nsaved, saved[cap], saved_at[] */
	size_t shared_len;
	atomic_int frozen;      /* restore has begun: no more writes */
	int *saved_at;         /* [(cpu or socket) * allow.n + allow index]: saved[] index + 1, 0 */
	int flag_rows;
	uint64_t nwrites;
	bool guardian;         /* this copy is the guardian's, restoring after pmutop died */
	char err[512];
	/* msr-safe's batch device (msr_batch.c): -1 when reads go one by one */
	int batch_fd;
	uint32_t batch_version;
	struct msr_safe_op *batch_ops;
	int batch_cap;
	char batch_why[MSR_BATCH_NOTE_MAX];
	pthread_mutex_t err_lock; /* err: the per-socket readers may fail at once */
};

/*
 * The saved entry of allowlist entry A on ROW (a CPU, or the socket of an
 * uncore register), or NULL when it was never saved.
 */
struct msr_saved *msr_saved_find(const struct msr_dev *d, const struct msr_allow_entry *a,
				 int row);

/* One register of CPU, without rules: 0 or -errno. */
int msr_raw_read(struct msr_dev *d, int cpu, uint32_t reg, uint64_t *val);
int msr_raw_write(struct msr_dev *d, int cpu, uint32_t reg, uint64_t val);

/* Record a failed access of this thread: its message (msr_thread_error) and the device's. */
void msr_fail(struct msr_dev *d, int rc, const char *op, int cpu, uint32_t reg);

/* The batch device of an msr-safe tree (after the per-CPU files are open), and its close. */
void msr_batch_open(struct msr_dev *d);
void msr_batch_close(struct msr_dev *d);

/* The device a fatal signal restores through, from its open to its close. */
void msr_emergency_track(struct msr_dev *d);
void msr_emergency_forget(struct msr_dev *d);

#endif
