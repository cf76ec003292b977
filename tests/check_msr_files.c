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
#include "cpumodel.h"
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
	cpumodel_classify(&info);
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

/* ---- msr-safe's batch call (a second tree, with msr-safe's nodes) ---------- */

static struct fakehw safe_hw;

static void safe_put(const char *rel, const char *text)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/dev/%s", safe_hw.dir, rel);
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* msr-safe's device for the 16 CPUs, with pmutop's allowlist loaded (all of it, or without REG). */
static struct msr_dev *open_safe(uint32_t without)
{
	char *text = NULL, list[8192] = "", skip[16], err[512];
	size_t len = 0, n = 0;
	struct msr_dev *d;
	FILE *f = open_memstream(&text, &len);

	/* as an administrator loads it: pmutop --msr-safe-allowlist */
	msr_allow_print_msr_safe(&allow, f);
	fclose(f);
	snprintf(skip, sizeof(skip), "0x%08X ", without);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (!without || strncmp(line, skip, strlen(skip)))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s\n", line);
	free(text);
	safe_put("cpu/msr_allowlist", list);
	ck_assert_msg(msr_open_files(safe_hw.dir, all_cpus, 16, &allow, &d, err, sizeof(err)) == 0,
		      "%s", err);
	return d;
}

START_TEST(batch_reads_each_cpu_between_two_preads)
{
	struct msr_dev *d = open_safe(0);
	struct msr_batch_read rd[32];
	uint64_t a[16], b[16];

	ck_assert_int_eq(msr_dev_kind(d), MSR_KIND_MSR_SAFE); /* preferred over msr: it batches */
	ck_assert(msr_batch_ready(d));
	ck_assert_ptr_nonnull(strstr(msr_batch_status(d), "one msr-safe batch call per sweep"));
	ck_assert_ptr_nonnull(strstr(msr_batch_status(d), "msr-safe 1.7.0"));
	for (int c = 0; c < 16; c++) {
		rd[2 * c] = (struct msr_batch_read){ .cpu = c, .reg = IA32_TIME_STAMP_COUNTER };
		rd[2 * c + 1] = (struct msr_batch_read){ .cpu = c, .reg = IA32_PERF_GLOBAL_CTRL,
							 .val = 0xdead };
		ck_assert_int_eq(msr_read(d, c, IA32_TIME_STAMP_COUNTER, &a[c]), 0);
	}
	ck_assert_int_eq(msr_read_batch(d, rd, 32), 0);
	for (int c = 0; c < 16; c++) {
		uint64_t ctl;

		ck_assert_int_eq(msr_read(d, c, IA32_TIME_STAMP_COUNTER, &b[c]), 0);
		ck_assert_int_eq(msr_read(d, c, IA32_PERF_GLOBAL_CTRL, &ctl), 0);
		ck_assert_int_eq(rd[2 * c].err, 0);
		/* the CPU's own TSC, read between the two preads */
		ck_assert_msg(a[c] < rd[2 * c].val && rd[2 * c].val < b[c],
			      "cpu %d: %llu %llu %llu", c, (unsigned long long)a[c],
			      (unsigned long long)rd[2 * c].val, (unsigned long long)b[c]);
		ck_assert_int_eq(rd[2 * c + 1].err, 0);
		ck_assert_uint_eq(rd[2 * c + 1].val, ctl);
	}
	msr_close(d);
}
END_TEST

START_TEST(batch_errors_are_per_read_and_the_rest_is_read)
{
	struct msr_dev *d = open_safe(0);
	struct msr_batch_read rd[3] = {
		{ .cpu = 2, .reg = IA32_TIME_STAMP_COUNTER },
		{ .cpu = 3, .reg = 0x1B }, /* IA32_APIC_BASE: not on pmutop's allowlist */
		{ .cpu = 4, .reg = IA32_TIME_STAMP_COUNTER },
	};

	/* msr-safe checks every read first and runs none when one fails: pmutop runs the rest */
	ck_assert_int_eq(msr_read_batch(d, rd, 3), -EACCES);
	ck_assert_int_eq(rd[0].err, 0);
	ck_assert_int_eq(rd[1].err, -EACCES);
	ck_assert_int_eq(rd[2].err, 0);
	ck_assert_uint_gt(rd[0].val, 0);
	ck_assert_uint_gt(rd[2].val, 0);
	ck_assert_ptr_nonnull(strstr(msr_thread_error(), "CPU 3"));
	/* an offline CPU: ENXIO for its reads only */
	safe_put("faults", "6 offline");
	rd[0] = (struct msr_batch_read){ .cpu = 6, .reg = IA32_TIME_STAMP_COUNTER };
	rd[1] = (struct msr_batch_read){ .cpu = 7, .reg = IA32_TIME_STAMP_COUNTER };
	ck_assert_int_eq(msr_read_batch(d, rd, 2), -ENXIO);
	safe_put("faults", "6 online");
	ck_assert_int_eq(rd[0].err, -ENXIO);
	ck_assert_int_eq(rd[1].err, 0);
	ck_assert_uint_gt(rd[1].val, 0);
	ck_assert_ptr_nonnull(strstr(msr_thread_error(), "CPU 6 is offline"));
	ck_assert(msr_batch_ready(d));
	msr_close(d);
}
END_TEST

START_TEST(a_refused_batch_call_turns_the_batch_path_off)
{
	struct msr_dev *d = open_safe(0);
	struct msr_batch_read rd = { .cpu = 1, .reg = IA32_TIME_STAMP_COUNTER };

	safe_put("faults", "all batch-refuse");
	ck_assert_int_eq(msr_read_batch(d, &rd, 1), -EOPNOTSUPP);
	safe_put("faults", "all batch-ok");
	ck_assert(!msr_batch_ready(d));
	ck_assert_str_eq(msr_batch_status(d),
			 "register by register (msr-safe's batch call failed: Invalid argument)");
	ck_assert_int_eq(msr_read_batch(d, &rd, 1), -EOPNOTSUPP); /* off for the run */
	msr_close(d);
}
END_TEST

START_TEST(an_allowlist_short_of_a_register_keeps_the_msr_driver)
{
	struct msr_dev *d = open_safe(IA32_FIXED_CTR_CTRL);

	ck_assert_int_eq(msr_dev_kind(d), MSR_KIND_MSR);
	ck_assert(!msr_batch_ready(d));
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
	CHECK_ADD(s, batch_reads_each_cpu_between_two_preads);
	CHECK_ADD(s, batch_errors_are_per_read_and_the_rest_is_read);
	CHECK_ADD(s, a_refused_batch_call_turns_the_batch_path_off);
	CHECK_ADD(s, an_allowlist_short_of_a_register_keeps_the_msr_driver);
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
	if (fakehw_start_opt(&safe_hw, "nehalem-ep:memory-bound", "--msr-safe") != 0) {
		printf("1..1\nnot ok 1 - the fake device tree with msr-safe did not start\n");
		fakehw_stop(&hw, SIGTERM);
		return EXIT_FAILURE;
	}
	if (cpuid_identify_root(hw.dir, &info, err, sizeof(err)) == 0) {
		cpumodel_classify(&info);
		msr_allow_build(&info, 0, &allow);
	}
	sr = srunner_create(msr_files_suite());
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (fakehw_stop(&hw, SIGTERM) != 0 || fakehw_stop(&safe_hw, SIGTERM) != 0) {
		printf("not ok - the fake device tree was left mounted\n");
		failed++;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
