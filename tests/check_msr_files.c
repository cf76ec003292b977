/*
 * The register layer on the real file path: /dev/cpu/N/msr and cpuid served
 * by the fake device tree (tools/fakehw, FUSE) with the Linux drivers'
 * semantics.  What pmutop would do on a real server, end to end.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "cpuid.h"
#include "fakehw_spawn.h"
#include "msr.h"
#include "pmu_regs.h"

static struct fakehw hw;
static struct msr_allowlist allow;
static const int all_cpus[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static struct msr_dev *open_dev(void)
{
	struct msr_dev *d;
	char err[512];

	ck_assert_msg(msr_open_files(hw.dir, all_cpus, 16, &allow, &d, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_int_eq(msr_dev_kind(d), MSR_KIND_MSR);
	return d;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The device file of CPU, opened behind the register layer's back, as another tool would. */
static int raw_open(int cpu)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", hw.dir, cpu);
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	return fd;
}

static uint64_t raw_read(int cpu, uint32_t reg)
{
	uint64_t v = 0;
	int fd = raw_open(cpu);

	ck_assert_int_eq(pread(fd, &v, 8, reg), 8);
	close(fd);
	return v;
}

static void raw_write(int cpu, uint32_t reg, uint64_t v)
{
	int fd = raw_open(cpu);

	ck_assert_int_eq(pwrite(fd, &v, 8, reg), 8);
	close(fd);
}

START_TEST(cpuid_file_identifies_the_machine)
{
	struct cpuid_info info;
	char err[256];

	ck_assert_msg(cpuid_identify_root(hw.dir, &info, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(info.uarch, CPUID_UARCH_NEHALEM);
	ck_assert_uint_eq(info.gp_counters, 4);
	ck_assert_ptr_nonnull(strstr(info.brand, "X5570"));
}
END_TEST

START_TEST(counters_advance_through_the_device_files)
{
	struct msr_dev *d = open_dev();
	uint64_t v;
	double t0, t1, t2;

	ck_assert_int_eq(msr_write(d, 3, IA32_PMC0, 0), 0);
	t0 = now();
	ck_assert_int_eq(msr_write(d, 3, IA32_PERFEVTSEL0, 0x43003C), 0); /* unhalted cycles */
	ck_assert_int_eq(msr_write(d, 3, IA32_PERF_GLOBAL_CTRL, 1), 0);
	t1 = now();
	usleep(100000);
	ck_assert_int_eq(msr_read(d, 3, IA32_PMC0, &v), 0);
	t2 = now();
	/* memory-bound: util 1 at 2.93 GHz, counting from some time in [t0, t1] */
	ck_assert_msg(v >= 2.93e9 * (t2 - t1 - 0.05) && v <= 2.93e9 * (t2 - t0) * 1.02,
		      "%llu cycles in %.3f s", (unsigned long long)v, t2 - t0);
	msr_close(d);
	ck_assert_uint_eq(raw_read(3, IA32_PERFEVTSEL0), 0); /* restored */
}
END_TEST

START_TEST(adjacent_registers_do_not_overlap)
{
	struct msr_dev *d = open_dev();
	uint64_t ctrl, status;

	/* 0x38F and 0x390 are one byte apart: in a plain file they would share 7 bytes */
	ck_assert_int_eq(msr_write(d, 1, IA32_PERF_GLOBAL_CTRL, 0x70000000Full), 0);
	ck_assert_int_eq(msr_write(d, 1, IA32_PERF_GLOBAL_OVF_CTRL, 0x70000000Full), 0);
	ck_assert_int_eq(msr_read(d, 1, IA32_PERF_GLOBAL_CTRL, &ctrl), 0);
	ck_assert_uint_eq(ctrl, 0x70000000Full);
	ck_assert_int_eq(msr_read(d, 1, IA32_PERF_GLOBAL_STATUS, &status), 0);
	ck_assert_uint_eq(status, 0);
	msr_close(d);
}
END_TEST

START_TEST(allowlist_refuses_before_the_device)
{
	struct msr_dev *d = open_dev();

	ck_assert_int_eq(msr_write(d, 0, IA32_MISC_ENABLE, 0), -EACCES);
	ck_assert_ptr_nonnull(strstr(msr_last_error(d), "IA32_MISC_ENABLE"));
	ck_assert_uint_eq(raw_read(0, IA32_MISC_ENABLE), 0x850089);
	msr_close(d);
}
END_TEST

START_TEST(foreign_programming_is_restored_through_the_files)
{
	struct msr_dev *d;

	raw_write(6, IA32_PERFEVTSEL0 + 2, 0x4300C4); /* someone else's branch counter */
	d = open_dev();
	ck_assert_int_eq(msr_write(d, 6, IA32_PERFEVTSEL0 + 2, 0x43003C), 0);
	ck_assert_uint_eq(raw_read(6, IA32_PERFEVTSEL0 + 2), 0x43003C);
	msr_close(d);
	ck_assert_uint_eq(raw_read(6, IA32_PERFEVTSEL0 + 2), 0x4300C4);
	raw_write(6, IA32_PERFEVTSEL0 + 2, 0);
}
END_TEST

START_TEST(eio_from_the_driver_names_the_register)
{
	struct msr_dev *d = open_dev();
	uint64_t v;

	ck_assert_int_eq(msr_read(d, 2, MSR_OFFCORE_RSP_1, &v), -EIO); /* Westmere only */
	ck_assert_ptr_nonnull(strstr(msr_last_error(d), "CPU 2 cannot read MSR 0x1A7"));
	ck_assert_ptr_nonnull(strstr(msr_last_error(d), "not implemented"));
	msr_close(d);
}
END_TEST

static Suite *msr_files_suite(void)
{
	Suite *s = suite_create("msr_files");

	CHECK_ADD(s, cpuid_file_identifies_the_machine);
	CHECK_ADD(s, counters_advance_through_the_device_files);
	CHECK_ADD(s, adjacent_registers_do_not_overlap);
	CHECK_ADD(s, allowlist_refuses_before_the_device);
	CHECK_ADD(s, foreign_programming_is_restored_through_the_files);
	CHECK_ADD(s, eio_from_the_driver_names_the_register);
	return s;
}

int main(void)
{
	SRunner *sr;
	struct cpuid_info info;
	char err[256];
	int failed;

	if (fakehw_start(&hw, "nehalem-ep:memory-bound") != 0) {
		printf("1..1\nnot ok 1 - the fake device tree (tools/fakehw, FUSE) did not start\n");
		return EXIT_FAILURE;
	}
	if (cpuid_identify_root(hw.dir, &info, err, sizeof(err)) == 0)
		msr_allow_build(&info, 0, &allow);
	sr = srunner_create(msr_files_suite());
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (fakehw_stop(&hw, SIGTERM) != 0) {
		printf("not ok - the fake device tree was left mounted\n");
		failed++;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
