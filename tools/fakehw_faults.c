/*
 * fakehw_faults: the device faults tests inject through dev/faults (fakehw):
 * a CPU's msr reads or writes failing with EIO, its reads slow, the CPU
 * offline and back (with its core PMU reset), msr-safe's batch call
 * refused; and how many slow reads each CPU answered.  Test tool only.
 */
#include "fakehw_int.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Injected device faults, by OS CPU number (dev/faults). */
#define FAKEHW_MAX_CPU 4096
static struct fakehw_fault fakehw_faults[FAKEHW_MAX_CPU];
/* msr reads answered slowly, by OS CPU number (read from dev/faults) */
static _Atomic long fakehw_slow_reads[FAKEHW_MAX_CPU];

int fakehw_fault_line(const char *line)
{
	char cpu[16], what[16];
	int ms = 0, n = sscanf(line, "%15s %15s %d", cpu, what, &ms), lo, hi;

	if (n < 2)
		return -EINVAL;
	if (strcmp(cpu, "all") == 0) {
		lo = 0;
		hi = FAKEHW_MAX_CPU - 1;
	} else {
		lo = hi = atoi(cpu);
		if (lo < 0 || lo >= FAKEHW_MAX_CPU)
			return -EINVAL;
	}
	for (int c = lo; c <= hi; c++) {
		struct fakehw_fault *f = &fakehw_faults[c];

		if (strcmp(what, "eio-read") == 0)
			f->eio_read = true;
		else if (strcmp(what, "eio-write") == 0)
			f->eio_write = true;
		else if (strcmp(what, "slow") == 0 && n == 3)
			f->slow_ms = ms;
		else if (strcmp(what, "clear") == 0)
			*f = (struct fakehw_fault){ 0 };
		else if (strcmp(what, "batch-refuse") == 0)
			fakehw_batch_refuse = true;
		else if (strcmp(what, "batch-ok") == 0)
			fakehw_batch_refuse = false;
		else if (strcmp(what, "offline") == 0)
			f->offline = true;
		else if (strcmp(what, "online") == 0)
			f->offline = false;
		else if (strcmp(what, "online-reset") == 0) {
			/* back with its core PMU at power-on values (before it answers again) */
			static const uint32_t regs[] = { 0x186, 0x187, 0x188, 0x189, 0xC1, 0xC2, 0xC3,
							 0xC4, 0x309, 0x30A, 0x30B, 0x38D, 0x38F,
							 0x1A6, 0x1A7 };

			for (size_t k = 0; k < sizeof(regs) / sizeof(regs[0]); k++)
				emu_msr_write(fakehw_emu, c, regs[k], 0);
			f->offline = false;
		}
		else
			return -EINVAL;
	}
	return 0;
}

/* The faults injected on CPU now (none for a CPU out of the table's range). */
struct fakehw_fault fakehw_fault_of(int cpu)
{
	struct fakehw_fault f = { 0 };

	if (cpu >= 0 && cpu < FAKEHW_MAX_CPU) {
		pthread_mutex_lock(&fakehw_lock);
		f = fakehw_faults[cpu];
		pthread_mutex_unlock(&fakehw_lock);
	}
	return f;
}

void fakehw_fault_slow_read(int cpu)
{
	if (cpu >= 0 && cpu < FAKEHW_MAX_CPU)
		atomic_fetch_add(&fakehw_slow_reads[cpu], 1);
}

size_t fakehw_faults_text(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int c = 0; c < FAKEHW_MAX_CPU && n + 40 < len; c++)
		if (atomic_load(&fakehw_slow_reads[c]))
			n += (size_t)snprintf(buf + n, len - n, "%d slow-reads %ld\n", c,
					      atomic_load(&fakehw_slow_reads[c]));
	return n;
}
