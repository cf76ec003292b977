/*
 * fakehw_safe: msr-safe's side of the fake device tree (fakehw --msr-safe):
 * its allowlist (what dev/cpu/N/msr_safe may read and write, with each
 * register's write mask) and its batch call (the X86_IOC_MSR_BATCH ioctl on
 * dev/cpu/msr_batch), with the module's checks and errors.  Test tool only.
 */
#define _GNU_SOURCE /* process_vm_readv */

#include "fakehw_int.h"
#include "topo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/*
 * msr-safe (--msr-safe): /dev/cpu/N/msr_safe reaches only the registers on
 * its allowlist, /dev/cpu/msr_allowlist ("0xADDR 0xWRITEMASK" lines, the
 * whole list written at once); a read of another register or a write of a
 * bit outside the mask is refused (EACCES), whoever asks.
 */
static struct {
	uint32_t reg;
	uint64_t mask;
} fakehw_allow[FAKEHW_ALLOW_MAX];
static int fakehw_nallow;

/* REG's write mask on the msr-safe allowlist, or false when it is not there. */
bool fakehw_allowed(uint32_t reg, uint64_t *mask)
{
	bool ok = false;

	pthread_mutex_lock(&fakehw_lock);
	for (int i = 0; i < fakehw_nallow && !ok; i++)
		if (fakehw_allow[i].reg == reg) {
			*mask = fakehw_allow[i].mask;
			ok = true;
		}
	pthread_mutex_unlock(&fakehw_lock);
	return ok;
}

/* A new allowlist from TEXT (msr-safe's format); -EINVAL for a line it cannot read. */
int fakehw_allowlist_write(const char *text, size_t len)
{
	char line[128];
	size_t at = 0;
	int n = 0;

	pthread_mutex_lock(&fakehw_lock);
	fakehw_nallow = 0;
	while (at < len) {
		size_t k = 0;
		unsigned long long reg, mask;

		while (at < len && text[at] != '\n' && k + 1 < sizeof(line))
			line[k++] = text[at++];
		line[k] = 0;
		at++;
		if (!k || line[0] == '#')
			continue;
		if (sscanf(line, "%llx %llx", &reg, &mask) != 2 || n >= FAKEHW_ALLOW_MAX) {
			pthread_mutex_unlock(&fakehw_lock);
			return -EINVAL;
		}
		fakehw_allow[n].reg = (uint32_t)reg;
		fakehw_allow[n++].mask = mask;
	}
	fakehw_nallow = n;
	pthread_mutex_unlock(&fakehw_lock);
	return 0;
}

size_t fakehw_allowlist_text(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	pthread_mutex_lock(&fakehw_lock);
	for (int i = 0; i < fakehw_nallow && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "0x%08X 0x%016llX\n", fakehw_allow[i].reg,
				      (unsigned long long)fakehw_allow[i].mask);
	pthread_mutex_unlock(&fakehw_lock);
	return n < len ? n : len - 1;
}

/* beyond this the module's kmalloc_array would fail (E2BIG) */
#define FAKEHW_BATCH_MAX (1u << 20)

static bool fakehw_cpu_up(int cpu)
{
	const struct topo_thread *th = topo_thread_of_cpu(emu_topo(fakehw_emu), cpu);

	return th && th->online && !fakehw_fault_of(cpu).offline;
}

/*
 * Run the checked operations OPS[0..N): the CPUs run their shares at once
 * (one emulated instant; the call waits for the slowest CPU).  The first
 * error.
 */
static int fakehw_batch_run(struct fakehw_batch_op *ops, uint32_t n)
{
	struct emu_access *acc = calloc(n, sizeof(*acc));
	int err = 0, slow = 0;

	if (!acc)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct fakehw_fault f = fakehw_fault_of(ops[i].cpu);

		slow = f.slow_ms > slow ? f.slow_ms : slow;
		acc[i] = (struct emu_access){ .cpu = ops[i].cpu, .reg = ops[i].msr,
					      .write = !ops[i].isrdmsr, .val = ops[i].msrdata,
					      .wmask = ops[i].wmask };
		if (f.eio_read || (!ops[i].isrdmsr && f.eio_write))
			acc[i].cpu = -1; /* faulted below */
	}
	emu_msr_batch(fakehw_emu, acc, (int)n);
	for (uint32_t i = 0; i < n; i++) {
		ops[i].err = acc[i].err ? -EIO : 0;
		if (!acc[i].err && ops[i].isrdmsr)
			ops[i].msrdata = acc[i].val;
		if (ops[i].err && !err)
			err = ops[i].err;
	}
	free(acc);
	if (slow)
		usleep((useconds_t)slow * 1000);
	return err;
}

int fakehw_batch(struct fuse_file_info *fi, void *data)
{
	struct fakehw_batch_array a;
	struct fakehw_batch_op *ops;
	struct iovec local, remote;
	pid_t pid = fuse_get_context()->pid;
	size_t len;
	int err = 0;

	if ((fi->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF; /* the module wants the file open for reading */
	memcpy(&a, data, sizeof(a));
	if (a.numops == 0)
		return -EINVAL;
	/* msr-safe 2.0 compares the caller's version with its own (the errno is not documented) */
	if (fakehw_safe_major >= 2 && a.version != fakehw_safe_u32)
		return -EINVAL;
	if (fakehw_batch_refuse)
		return -EINVAL;
	if (a.numops > FAKEHW_BATCH_MAX)
		return -E2BIG;
	len = (size_t)a.numops * sizeof(*ops);
	ops = malloc(len);
	if (!ops)
		return -E2BIG;
	local = (struct iovec){ .iov_base = ops, .iov_len = len };
	remote = (struct iovec){ .iov_base = (void *)(uintptr_t)a.ops, .iov_len = len };
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)len) {
		free(ops);
		return -EFAULT;
	}
	for (uint32_t i = 0; i < a.numops; i++) {
		struct fakehw_batch_op *op = &ops[i];
		uint64_t mask;

		op->err = 0;
		if (!fakehw_cpu_up(op->cpu)) {
			op->err = err = -ENXIO;
		} else if (!fakehw_allowed(op->msr, &mask)) {
			op->err = err = -EACCES;
		} else {
			op->wmask = mask;
			if (!mask && !op->isrdmsr)
				op->err = err = -EROFS;
		}
	}
	if (!err)
		err = fakehw_batch_run(ops, a.numops);
	if (process_vm_writev(pid, &local, 1, &remote, 1, 0) != (ssize_t)len && !err)
		err = -EFAULT;
	free(ops);
	return err;
}
