/*
 * Tests for ownership detection and the single-instance lock: a counter
 * someone else programmed is found and named, the NMI watchdog is noticed,
 * and a second pmutop is told which process holds the machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "cpumodel.h"
#include "emu.h"
#include "lock.h"
#include "msr.h"
#include "owner.h"
#include "pmu_regs.h"

/* Scan MACHINE after FOREIGN(e) programmed some counters behind our back. */
static void scan(const char *machine, void (*foreign)(struct emu *), const char *root,
		 struct owner_report *r, char *text, size_t len)
{
	struct cpuid_info info;
	struct msr_allowlist allow;
	struct emu *e;
	struct msr_dev *d;
	const struct topo *t;
	int cpus[64];
	char err[256];

	ck_assert_int_eq(emu_create(machine, SCENARIO_SRCDIR, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(cpuid_identify(emu_cpuid_leaf, e, &info, err, sizeof(err)), 0);
	cpumodel_classify(&info);
	msr_allow_build(&info, emu_machine(e)->cbo, &allow);
	t = emu_topo(e);
	for (int i = 0; i < t->nonline; i++)
		cpus[i] = t->threads[i].os_cpu;
	if (foreign)
		foreign(e);
	d = msr_open_ops(&emu_msr_ops, e, cpus, t->nonline, &allow);
	ck_assert_int_eq(owner_scan(d, &info, emu_uncore(e), t, root, r), 0);
	owner_describe(r, t, text, len);
	ck_assert_int_eq(msr_saved_count(d), 0); /* scanning writes nothing */
	msr_close(d);
	emu_free(e);
}

static void vtune_on_socket0(struct emu *e)
{
	/* another tool: PMC1 on socket 0's CPUs, fixed counter 1 everywhere, the uncore of socket 1 */
	static const int sock0[] = { 0, 1, 2, 3, 8, 9, 10, 11 };

	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(emu_msr_write(e, sock0[i], IA32_PERFEVTSEL0 + 1, 0x4300C0), 0);
	for (int cpu = 0; cpu < 16; cpu++)
		ck_assert_int_eq(emu_msr_write(e, cpu, IA32_FIXED_CTR_CTRL, 0x30), 0);
	ck_assert_int_eq(emu_msr_write(e, 4, MSR_UNCORE_PERFEVTSEL0 + 3, 0x40012C), 0);
}

START_TEST(foreign_counters_are_found_and_named)
{
	struct owner_report r;
	char text[2048];

	scan("nehalem-ep:idle", vtune_on_socket0, NULL, &r, text, sizeof(text));
	ck_assert(!owner_all_free(&r));
	ck_assert_uint_eq(r.cpu[0].gp_taken, 1u << 1);
	ck_assert_uint_eq(r.cpu[4].gp_taken, 0);
	ck_assert_uint_eq(r.cpu[4].fixed_taken, 1u << 1);
	ck_assert(!r.uncore_taken[0] && r.uncore_taken[1]);
	ck_assert_msg(strstr(text, "CPU 0-3,8-11: PMC1, fixed counter 1 in use by another program"),
		      "%s", text);
	ck_assert_msg(strstr(text, "CPU 4-7,12-15: fixed counter 1 in use"), "%s", text);
	ck_assert_msg(strstr(text, "socket 1: uncore counters in use"), "%s", text);
	ck_assert_msg(strstr(text, "--force takes these too and restores them"), "%s", text);
	owner_free(&r);
}
END_TEST

START_TEST(a_quiet_machine_is_all_free)
{
	struct owner_report r;
	char text[512];

	scan("skylake:idle", NULL, "/nonexistent-root", &r, text, sizeof(text));
	ck_assert(owner_all_free(&r));
	ck_assert_str_eq(text, "");
	owner_free(&r);
}
END_TEST

START_TEST(nmi_watchdog_is_reported)
{
	char dir[] = "/tmp/pmutop-nmi-XXXXXX", path[128];
	struct owner_report r;
	char text[1024];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "mkdir -p %s/proc/sys/kernel", dir);
	ck_assert_int_eq(system(path), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/nmi_watchdog", dir);
	f = fopen(path, "w");
	fputs("1\n", f);
	fclose(f);
	scan("arch:idle", NULL, dir, &r, text, sizeof(text));
	ck_assert(r.nmi_watchdog);
	ck_assert(!owner_all_free(&r));
	ck_assert_ptr_nonnull(strstr(text, "NMI watchdog"));
	ck_assert_ptr_nonnull(strstr(text, "echo 0 > /proc/sys/kernel/nmi_watchdog"));
	owner_free(&r);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

/* A device tree under a new directory with CPU 0's msr and msr_safe nodes (plain files here). */
static void lock_tree(char *dir)
{
	char path[256];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "mkdir -p %s/dev/cpu/0 %s/dev/cpu/1 %s/dev/cpu/10", dir, dir,
		 dir);
	ck_assert_int_eq(system(path), 0);
	for (int cpu = 0; cpu <= 10; cpu += 10) {
		snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", dir, cpu);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fclose(f);
	}
}

START_TEST(second_instance_is_told_who_holds_the_lock)
{
	char dir[] = "/tmp/pmutop-lock-XXXXXX", err[512], want[64], cmd[128];
	struct lock l1, l2;

	lock_tree(dir);
	ck_assert_int_eq(lock_acquire(dir, &l1, err, sizeof(err)), 0);
	ck_assert(lock_held(&l1));
	ck_assert_int_eq(lock_holder(dir), getpid());
	/* a second open file description conflicts, as another process would */
	ck_assert_int_eq(lock_acquire(dir, &l2, err, sizeof(err)), -EBUSY);
	ck_assert(!lock_held(&l2));
	snprintf(want, sizeof(want), "another pmutop (pid %ld)", (long)getpid());
	ck_assert_msg(strstr(err, want), "%s", err);
	/* the lowest-numbered CPU's node, not CPU 10's */
	ck_assert_msg(strstr(err, "/dev/cpu/0/msr"), "%s", err);
	lock_release(&l1);
	ck_assert_int_eq(lock_holder(dir), 0);
	ck_assert_int_eq(lock_acquire(dir, &l2, err, sizeof(err)), 0);
	lock_release(&l2);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(lock_takes_msr_safe_too_and_follows_no_link)
{
	char dir[] = "/tmp/pmutop-lock-XXXXXX", err[512], path[256], victim[300];
	struct lock l1, l2;
	struct stat st;
	FILE *f;

	lock_tree(dir);
	/* msr-safe's node beside msr's: a user of either meets root's pmutop there */
	snprintf(path, sizeof(path), "%s/dev/cpu/0/msr_safe", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(lock_acquire(dir, &l1, err, sizeof(err)), 0);
	ck_assert_int_ge(l1.fd[0], 0);
	ck_assert_int_ge(l1.fd[1], 0);
	{
		/* what a user who can open only msr_safe does: flock it */
		int fd = open(path, O_RDONLY);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), -1);
		ck_assert_int_eq(errno, EWOULDBLOCK);
		close(fd);
	}
	lock_release(&l1);
	/* a link planted where a node is looked for is never opened, nor written through */
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	f = fopen(victim, "w");
	fputs("keep me\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/dev/cpu/0/msr", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink(victim, path), 0);
	snprintf(path, sizeof(path), "%s/dev/cpu/0/msr_safe", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink(victim, path), 0);
	ck_assert_int_eq(lock_acquire(dir, &l2, err, sizeof(err)), 0);
	/* CPU 0 has only links: the lock is on CPU 10's node */
	ck_assert_int_eq(l2.fd[1], -1);
	lock_release(&l2);
	ck_assert_int_eq(stat(victim, &st), 0);
	ck_assert_int_eq(st.st_size, 8);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

static Suite *owner_suite(void)
{
	Suite *s = suite_create("owner");

	CHECK_ADD(s, foreign_counters_are_found_and_named);
	CHECK_ADD(s, a_quiet_machine_is_all_free);
	CHECK_ADD(s, nmi_watchdog_is_reported);
	CHECK_ADD(s, second_instance_is_told_who_holds_the_lock);
	CHECK_ADD(s, lock_takes_msr_safe_too_and_follows_no_link);
	return s;
}

CHECK_MAIN(owner_suite)
