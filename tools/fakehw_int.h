/*
 * fakehw_int: what tools/fakehw.c (the device tree, its faults, main) and
 * tools/fakehw_safe.c (msr-safe's allowlist and batch call) share.  Test
 * tool only.
 */
#ifndef PMUTOP_FAKEHW_INT_H
#define PMUTOP_FAKEHW_INT_H

#define FUSE_USE_VERSION 31

#include <fuse.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "emu.h"

extern struct emu *fakehw_emu;
/* the fault table's and the allowlist's lock (the emulator locks itself) */
extern pthread_mutex_t fakehw_lock;

/* Injected device faults of one CPU (dev/faults). */
struct fakehw_fault {
	bool eio_read, eio_write, offline;
	int slow_ms;
};

/* ---- fakehw_faults.c: dev/faults ------------------------------------------ */

/* CPU's faults now (none for a CPU out of the table's range). */
struct fakehw_fault fakehw_fault_of(int cpu);

/* A line written to dev/faults ("CPU|all eio-read|eio-write|slow MS|clear|..."); 0 or -EINVAL. */
int fakehw_fault_line(const char *line);

/* CPU answered an msr read slowly; what dev/faults reads ("CPU slow-reads N" lines) into BUF. */
void fakehw_fault_slow_read(int cpu);
size_t fakehw_faults_text(char *buf, size_t len);

/* ---- fakehw_safe.c: msr-safe ---------------------------------------------- */

/* the module's version: text, and as msr-safe encodes it (major << 16 | minor << 8 | patch) */
extern char fakehw_safe_version[16];
extern unsigned fakehw_safe_major;
extern uint32_t fakehw_safe_u32;
extern bool fakehw_batch_refuse; /* dev/faults "all batch-refuse" */

#define FAKEHW_ALLOW_MAX 512

/* REG's write mask on the msr-safe allowlist, or false when it is not there. */
bool fakehw_allowed(uint32_t reg, uint64_t *mask);

/* A new allowlist from TEXT (msr-safe's format); -EINVAL for a line it cannot read. */
int fakehw_allowlist_write(const char *text, size_t len);

/* The allowlist as its node reads ("0xADDR 0xMASK" lines) into BUF; its length. */
size_t fakehw_allowlist_text(char *buf, size_t len);

/*
 * msr-safe's batch call (its msr_batch.c and README): operations of 32
 * bytes { u16 cpu; u16 isrdmsr; s32 err; u32 msr; pad; u64 msrdata; u64
 * wmask }, the array described by { u32 numops; u32 version; u64 ops }.
 * Every operation is checked first (CPU online: ENXIO; register on the
 * allowlist: EACCES; a write to a register with mask 0: EROFS) and none runs
 * when one fails; then each runs on its CPU (a fault: EIO; a write keeps the
 * bits outside the mask); the first error is the call's.
 */
struct fakehw_batch_op {
	uint16_t cpu, isrdmsr;
	int32_t err;
	uint32_t msr, pad;
	uint64_t msrdata, wmask;
};

struct fakehw_batch_array {
	uint32_t numops, version;
	uint64_t ops;
};

#define FAKEHW_IOC_MSR_BATCH _IOWR('c', 0xA2, struct fakehw_batch_array)
/* The batch ioctl on a node opened as FI, its array in DATA: 0 or the first error. */
int fakehw_batch(struct fuse_file_info *fi, void *data);

/*
 * Fork a child that lazily unmounts DEVDIR once this process is gone, if
 * the mount there is still the one named FSNAME (fakehw_watchdog.c).  Call
 * before any thread or the FUSE device exists.
 */
void fakehw_watchdog(const char *devdir, const char *fsname);

#endif
