/*
 * The perf_event pieces (perf_pmu.c, perf.c): PMUs discovered in fake
 * sysfs trees, raw configs made from their format files equal to the event
 * selects the msr source writes, the real system call with software
 * events read as a group with their times, the scaling of a shared
 * counter, and every errno of perf_event_open turned into a message that
 * says what to do.  Nothing here needs hardware events or a given CPU.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "counter.h"
#include "layout.h"
#include "perf.h"
#include "perf_pmu.h"
#include "pmu_regs.h"

static char root[64];

/* ROOT/REL with TEXT (directories made on the way). */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(path, 0755);
			*p = '/';
		}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

#define PMU "sys/bus/event_source/devices/"

/* The core PMU as Linux describes Intel's (arch/x86/events/intel/core.c format attributes). */
static void fake_cpu_pmu(void)
{
	put(PMU "cpu/type", "4\n");
	put(PMU "cpu/format/event", "config:0-7\n");
	put(PMU "cpu/format/umask", "config:8-15\n");
	put(PMU "cpu/format/edge", "config:18\n");
	put(PMU "cpu/format/pc", "config:19\n");
	put(PMU "cpu/format/any", "config:21\n");
	put(PMU "cpu/format/inv", "config:23\n");
	put(PMU "cpu/format/cmask", "config:24-31\n");
	put(PMU "cpu/format/offcore_rsp", "config1:0-63\n");
}

/* The shipped layout NAME. */
static struct layout *shipped_layout(const char *name)
{
	char path[512], err[512];
	struct layout *l;

	snprintf(path, sizeof(path), "%s/%s.layout", LAYOUT_SRCDIR, name);
	ck_assert_msg(layout_load(path, &l, err, sizeof(err)) == 0, "%s", err);
	return l;
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/pmutop-perf-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	fake_cpu_pmu();
	for (int i = 0; i < 12; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), PMU "uncore_imc_%d/type", i);
		put(rel, i == 10 ? "31\n" : "20\n");
		snprintf(rel, sizeof(rel), PMU "uncore_imc_%d/cpumask", i);
		put(rel, "0,8\n");
		snprintf(rel, sizeof(rel), PMU "uncore_imc_%d/format/event", i);
		put(rel, "config:0-7\n");
		snprintf(rel, sizeof(rel), PMU "uncore_imc_%d/format/umask", i);
		put(rel, "config:8-15\n");
	}
	put(PMU "software/type", "1\n");
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(raw_configs_are_the_selects_the_msr_source_writes)
{
	static const char *const layouts[] = { "nehalem", "westmere", "skylake", "core2", "arch" };
	struct perf_pmu cpu;
	char err[512];
	int checked = 0;

	ck_assert_msg(perf_pmu_load(root, "cpu", &cpu, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(cpu.type, 4);
	ck_assert_int_eq(cpu.nfields, 8);
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
		struct layout *l = shipped_layout(layouts[k]);

		for (int e = 0; e < l->nevents; e++) {
			const struct layout_event *ev = &l->events[e];
			struct perf_pmu_config c;
			/* the select without what perf sets itself: enable, USR/OS, interrupt */
			uint64_t sel = counter_evtsel(ev, 3, false, false) &
				       ~(EVTSEL_EN | EVTSEL_INT | EVTSEL_USR | EVTSEL_OS);

			if (ev->pmu != LAYOUT_PMU_CORE)
				continue;
			ck_assert_msg(perf_pmu_encode(&cpu, ev, &c, err, sizeof(err)) == 0, "%s", err);
			ck_assert_msg(c.config[0] == sel, "%s %s: config 0x%llx, select 0x%llx",
				      layouts[k], ev->name, (unsigned long long)c.config[0],
				      (unsigned long long)sel);
			ck_assert_uint_eq(c.config[1], ev->has_offcore ? ev->offcore : 0);
			/* what the explain overlay shows for a perf run */
			ck_assert_uint_eq(counter_perf_config(ev), c.config[0]);
			/* --list-events --source perf: perf stat -e's text gives the same config */
			{
				struct perf_pmu tmp = cpu;
				struct perf_pmu_config c2;
				char text[160];

				counter_perf_event(ev, text, sizeof(text));
				ck_assert_msg(!strncmp(text, "cpu/", 4) && text[strlen(text) - 1] == '/',
					      "%s", text);
				text[strlen(text) - 1] = 0;
				tmp.naliases = 0;
				ck_assert_int_eq(perf_pmu_add_alias(&tmp, "e", text + 4), 0);
				ck_assert_msg(perf_pmu_alias(&tmp, "e", &c2) == 0, "%s", text);
				ck_assert_msg(c2.config[0] == c.config[0] && c2.config[1] == c.config[1],
					      "%s: 0x%llx", text, (unsigned long long)c2.config[0]);
			}
			ck_assert_uint_eq(c.type, 4);
			checked++;
		}
		layout_free(l);
	}
	ck_assert_int_gt(checked, 100);
}
END_TEST

/*
 * The uncore PMUs as Linux's intel_uncore driver describes them: Nehalem's
 * "uncore" (cmask 8 bits) and Skylake client's cache boxes (cmask 5 bits):
 * every uncore event of the shipped layouts encodes through their format
 * files to the select the msr source writes (without its enable bit); the
 * IMC's free-running counters are the kernel's named events (events/, the
 * .scale and .unit files beside them are not events).
 */
START_TEST(uncore_configs_are_the_selects_and_imc_names_are_the_kernels)
{
	static const char *const layouts[] = { "nehalem", "westmere", "skylake" };
	static const char *const fields[][2] = {
		{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "edge", "config:18" },
		{ "inv", "config:23" },
	};
	struct perf_pmu nhm, cbox, imc;
	struct perf_pmu_config c;
	char err[512], rel[160];
	int checked = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		snprintf(rel, sizeof(rel), PMU "uncore/format/%s", fields[i][0]);
		put(rel, fields[i][1]);
		snprintf(rel, sizeof(rel), PMU "uncore_cbox_0/format/%s", fields[i][0]);
		put(rel, fields[i][1]);
	}
	put(PMU "uncore/type", "13\n");
	put(PMU "uncore/format/cmask", "config:24-31\n");
	put(PMU "uncore_cbox_0/type", "14\n");
	put(PMU "uncore_cbox_0/format/cmask", "config:24-28\n");
	put(PMU "uncore_imc/type", "15\n");
	put(PMU "uncore_imc/format/event", "config:0-7\n");
	put(PMU "uncore_imc/events/data_reads", "event=0x01\n");
	put(PMU "uncore_imc/events/data_reads.scale", "6.103515625e-5\n");
	put(PMU "uncore_imc/events/data_reads.unit", "MiB\n");
	put(PMU "uncore_imc/events/data_writes", "event=0x02\n");
	ck_assert_msg(perf_pmu_load(root, "uncore", &nhm, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(perf_pmu_load(root, "uncore_cbox_0", &cbox, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(perf_pmu_load(root, "uncore_imc", &imc, err, sizeof(err)) == 0, "%s", err);
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
		struct layout *l = shipped_layout(layouts[k]);

		for (int e = 0; e < l->nevents; e++) {
			const struct layout_event *ev = &l->events[e];
			const struct perf_pmu *p = ev->pmu == LAYOUT_PMU_UNCORE ? &nhm : &cbox;

			if (ev->pmu != LAYOUT_PMU_UNCORE && ev->pmu != LAYOUT_PMU_CBO &&
			    ev->pmu != LAYOUT_PMU_ARB)
				continue;
			ck_assert_msg(perf_pmu_encode(p, ev, &c, err, sizeof(err)) == 0, "%s", err);
			ck_assert_msg(c.config[0] == (counter_uncore_evtsel(ev) & ~EVTSEL_EN),
				      "%s %s: config 0x%llx", layouts[k], ev->name,
				      (unsigned long long)c.config[0]);
			ck_assert_uint_eq(c.type, p->type);
			ck_assert_uint_eq(counter_perf_config(ev), c.config[0]);
			checked++;
		}
		layout_free(l);
	}
	ck_assert_int_gt(checked, 20);
	ck_assert_int_eq(imc.naliases, 2);
	ck_assert_int_eq(perf_pmu_alias(&imc, "data_writes", &c), 0);
	ck_assert_uint_eq(c.config[0], 0x02);
	ck_assert_uint_eq(c.type, 15);
	ck_assert_int_eq(perf_pmu_alias(&imc, "data_reads.scale", &c), -ENOENT);
	ck_assert_int_eq(perf_pmu_alias(&imc, "gt_requests", &c), -ENOENT);
	/* a term the formats cannot place */
	ck_assert_int_eq(perf_pmu_add_alias(&imc, "odd", "event=0x01,thresh=3"), 0);
	ck_assert_int_eq(perf_pmu_alias(&imc, "odd", &c), -EINVAL);
}
END_TEST

START_TEST(format_files_decide_the_bits)
{
	struct perf_pmu p;
	struct perf_pmu_config c = { 0 };
	char err[512];

	/* a PMU whose event field is split (as AMD's config:0-7,32-35) */
	put(PMU "odd/type", "33\n");
	put(PMU "odd/format/event", "config:0-7,32-35\n");
	put(PMU "odd/format/flag", "config2:5\n");
	ck_assert_msg(perf_pmu_load(root, "odd", &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(perf_pmu_set(&p, "event", 0xABC, &c), 0);
	ck_assert_uint_eq(c.config[0], 0xBCull | (0xAull << 32));
	ck_assert_int_eq(perf_pmu_set(&p, "flag", 1, &c), 0);
	ck_assert_uint_eq(c.config[2], 1u << 5);
	ck_assert_int_eq(perf_pmu_set(&p, "event", 0x1000, &c), -ERANGE);
	ck_assert_int_eq(perf_pmu_set(&p, "umask", 1, &c), -ENOENT);
	/* a kernel without the any field: an AnyThread event says what it lacks */
	{
		struct layout_event ev = { .name = "core_cycles", .event = 0x3C, .any = true };
		struct perf_pmu cpu;

		ck_assert_int_eq(perf_pmu_load(root, "cpu", &cpu, err, sizeof(err)), 0);
		for (int i = 0; i < cpu.nfields; i++)
			if (!strcmp(cpu.fields[i].name, "any"))
				cpu.fields[i] = cpu.fields[--cpu.nfields];
		ck_assert_int_eq(perf_pmu_encode(&cpu, &ev, &c, err, sizeof(err)), -EOPNOTSUPP);
		ck_assert_str_eq(err, "event core_cycles: the kernel's PMU has no such format field "
			"'any' (cpu/format)");
	}
	/*
	 * Sapphire Rapids' CHA before Linux 6.9 (umask config:8-15,32-55): the
	 * CXL filters' UMaskExt (bit 28 of it) does not fit, said with the value
	 */
	{
		struct layout_event ev = { .name = "UNC_CHA_TOR_INSERTS.IA_MISS_CXL_ACC", .event = 0x35,
					   .umask = 0x10C0018201ull };

		put(PMU "cha_old/type", "40\n");
		put(PMU "cha_old/format/event", "config:0-7\n");
		put(PMU "cha_old/format/umask", "config:8-15,32-55\n");
		ck_assert_msg(perf_pmu_load(root, "cha_old", &p, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(perf_pmu_encode(&p, &ev, &c, err, sizeof(err)), -EINVAL);
		ck_assert_str_eq(err, "event UNC_CHA_TOR_INSERTS.IA_MISS_CXL_ACC: its umask "
			"0x10C0018201 does not fit the kernel's format field 'umask' (cha_old/format): "
			"a newer kernel describes more bits");
		/* ... and the fixed kernel's 32-63 takes it, UMaskExt from bit 32 */
		put(PMU "cha_old/format/umask", "config:8-15,32-63\n");
		ck_assert_msg(perf_pmu_load(root, "cha_old", &p, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(perf_pmu_encode(&p, &ev, &c, err, sizeof(err)), 0);
		ck_assert_uint_eq(c.config[0], 0x35ull | 0x01ull << 8 | 0x10C00182ull << 32);
	}
	/*
	 * Skylake-SP's CHA: the TOR's FILTER1 (Intel's FILTER_VALUE 40433H: opcode
	 * 202H DRd, local and remote, any memory type) goes where the kernel's
	 * format files put each filter_* field, config1's high half
	 * (uncore_snbep.c: filter_rem config1:32 ... filter_opc0 config1:41-50)
	 */
	{
		struct layout_event ev = { .name = "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", .event = 0x35,
					   .umask = 0x21, .has_filter1 = true, .filter1 = 0x40433 };
		static const char *const fields[][2] = {
			{ "event", "config:0-7" }, { "umask", "config:8-15" },
			{ "filter_rem", "config1:32" }, { "filter_loc", "config1:33" },
			{ "filter_all_op", "config1:35" }, { "filter_nm", "config1:36" },
			{ "filter_not_nm", "config1:37" }, { "filter_opc0", "config1:41-50" },
			{ "filter_opc1", "config1:51-60" }, { "filter_nc", "config1:62" },
			{ "filter_isoc", "config1:63" },
		};
		char path[256], text[64];

		put(PMU "skx_cha/type", "41\n");
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			snprintf(path, sizeof(path), PMU "skx_cha/format/%s", fields[i][0]);
			snprintf(text, sizeof(text), "%s\n", fields[i][1]);
			put(path, text);
		}
		ck_assert_msg(perf_pmu_load(root, "skx_cha", &p, err, sizeof(err)) == 0, "%s", err);
		ck_assert_msg(perf_pmu_encode(&p, &ev, &c, err, sizeof(err)) == 0, "%s", err);
		ck_assert_uint_eq(c.config[0], 0x2135ull);
		ck_assert_uint_eq(c.config[1], 0x40433ull << 32);
		/* a kernel without one of the fields FILTER1 sets: said, not dropped */
		snprintf(path, sizeof(path), "%s/" PMU "skx_cha/format/filter_opc0", root);
		ck_assert_int_eq(unlink(path), 0);
		ck_assert_msg(perf_pmu_load(root, "skx_cha", &p, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(perf_pmu_encode(&p, &ev, &c, err, sizeof(err)), -EOPNOTSUPP);
		ck_assert_str_eq(err, "event UNC_CHA_TOR_INSERTS.IA_MISS_DRD: its FILTER1 0x40433 "
			"needs the kernel's format field 'filter_opc0' (skx_cha/format), which this "
			"kernel does not describe");
	}
	/* bad format files: one message with the file */
	put(PMU "bad/type", "7\n");
	put(PMU "bad/format/event", "config:7-0\n");
	ck_assert_int_eq(perf_pmu_load(root, "bad", &p, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bad/format/event: expected configN:LO-HI[,LO-HI], got 'config:7-0'"),
		      "%s", err);
	put(PMU "bad/format/event", "config:0-64\n");
	ck_assert_int_eq(perf_pmu_load(root, "bad", &p, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(perf_pmu_load(root, "nosuch", &p, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "the kernel has no perf PMU 'nosuch'"), "%s", err);
}
END_TEST

START_TEST(uncore_pmus_are_listed_in_number_order_with_their_cpus)
{
	char names[16][64];
	struct perf_pmu p;
	char err[256];
	int n = perf_pmu_list(root, "uncore_imc_", names, 16);

	ck_assert_int_eq(n, 12);
	for (int i = 0; i < n; i++) {
		char want[64];

		snprintf(want, sizeof(want), "uncore_imc_%d", i);
		ck_assert_str_eq(names[i], want);
	}
	ck_assert_int_eq(perf_pmu_load(root, "uncore_imc_10", &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.type, 31);
	ck_assert_str_eq(p.cpumask, "0,8");
	ck_assert_int_eq(perf_pmu_list(root, "uncore_cbox_", names, 16), 0);
}
END_TEST

/* A little work for the clocks to see. */
static void spin_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

START_TEST(software_events_read_as_a_group_with_their_times)
{
	struct perf_pmu_config c[3] = {
		{ .type = PERF_TYPE_SOFTWARE, .config = { PERF_COUNT_SW_TASK_CLOCK } },
		{ .type = PERF_TYPE_SOFTWARE, .config = { PERF_COUNT_SW_CPU_CLOCK } },
		{ .type = PERF_TYPE_SOFTWARE, .config = { PERF_COUNT_SW_CONTEXT_SWITCHES } },
	};
	struct perf_access a;
	struct perf_group g;
	struct perf_group_delta d1, d2;
	char err[512];
	bool kernel;
	int rc;

	perf_access_read(NULL, &a);
	/*
	 * this process's own events: user space is allowed up to paranoid 2; a
	 * context switch happens in the kernel, counted where kernel mode may be
	 * (root, CAP_PERFMON, paranoid 1 or less)
	 */
	kernel = a.cap_perfmon || (a.paranoid <= 1 && a.paranoid != -99);
	rc = perf_group_open(&g, NULL, c, 3, 0, -1, true, kernel, "software events", &a, err, sizeof(err));
	if (rc == -ENOSYS || (rc && a.paranoid > 2))
		CHECK_SKIP("perf_event_open is not available here (%s)", err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_int_eq(perf_group_enable(&g), 0);
	spin_ms(30);
	usleep(20000); /* a context switch at least */
	ck_assert_int_eq(perf_group_read(&g, &d1), 0);
	spin_ms(60);
	ck_assert_int_eq(perf_group_read(&g, &d2), 0);
	/* software events are never multiplexed: running is enabled */
	ck_assert(!d1.scaled && !d2.scaled);
	ck_assert_uint_eq(d2.running_ns, d2.enabled_ns);
	/* the second read holds only its own interval: ~60 ms of task clock, not 90 */
	ck_assert_msg(d2.count[0] >= 55000000u && d2.count[0] < 85000000u, "task clock %llu ns",
		      (unsigned long long)d2.count[0]);
	ck_assert_msg(d1.count[0] >= 28000000u, "task clock %llu ns", (unsigned long long)d1.count[0]);
	if (kernel)
		ck_assert_msg(d1.count[2] >= 1, "context switches %llu",
			      (unsigned long long)d1.count[2]);
	/* a task's events are enabled while it runs: the time is its task clock's, within 10 % */
	ck_assert_msg(fabs((double)d2.enabled_ns - (double)d2.count[0]) < 0.1 * (double)d2.count[0],
		      "enabled %llu ns, task clock %llu ns", (unsigned long long)d2.enabled_ns,
		      (unsigned long long)d2.count[0]);
	perf_group_close(&g);
}
END_TEST

START_TEST(a_shared_counter_is_scaled_by_its_time)
{
	ck_assert_double_eq(perf_scale(1000, 100, 25), 4000);
	ck_assert_double_eq(perf_scale(1000, 100, 100), 1000);
	ck_assert(isnan(perf_scale(0, 100, 0))); /* never ran: n/a, not 0 */
}
END_TEST

START_TEST(every_errno_says_what_to_do)
{
	struct perf_access a = { .paranoid = 2, .fd_limit = 1024 };
	char buf[600];

	perf_explain(EACCES, "the stalls group on CPU 3", true, &a, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "the stalls group on CPU 3: not allowed (EACCES): "
			     "kernel.perf_event_paranoid is 2: counting whole CPUs needs 0 or less"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "CAP_PERFMON") && strstr(buf, "only their own processes"), "%s", buf);
	a.paranoid = 3;
	perf_explain(EPERM, "g", true, &a, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "(EPERM)") && strstr(buf, "at 3 nothing may be counted"), "%s", buf);
	a.paranoid = 1;
	perf_explain(EACCES, "g", false, &a, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "use --user"), "%s", buf);
	a.paranoid = 2;
	a.cap_perfmon = true;
	ck_assert(perf_access_system_wide(&a, buf, sizeof(buf)));
	ck_assert_msg(strstr(buf, "CAP_PERFMON"), "%s", buf);
	a.cap_perfmon = false;
	a.paranoid = 0;
	ck_assert(perf_access_system_wide(&a, buf, sizeof(buf)));
	a.paranoid = 1;
	ck_assert(!perf_access_system_wide(&a, buf, sizeof(buf)));
	perf_explain(ENOENT, "g", true, &a, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "does not know this event or PMU (ENOENT)"), "%s", buf);
	perf_explain(EOPNOTSUPP, "g", false, &a, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "(EOPNOTSUPP): this PMU cannot count one process"), "%s", buf);
	perf_explain(EMFILE, "g", true, &a, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "the limit is 1024; raise it (ulimit -n"), "%s", buf);
	perf_explain(EINVAL, "g", true, &a, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "refused the event's settings (EINVAL)"), "%s", buf);
	/* the open-file limit is checked up front */
	ck_assert_int_eq(perf_check_fd_limit(900, &a, buf, sizeof(buf)), 0);
	ck_assert_int_eq(perf_check_fd_limit(4096, &a, buf, sizeof(buf)), -EMFILE);
	ck_assert_msg(strstr(buf, "perf needs 4096 open files (one per event per CPU) and the limit "
			     "is 1024: raise it (ulimit -n 4160"), "%s", buf);
}
END_TEST

/* The kernel's own answers: an unknown PMU type is ENOENT; a low file limit EMFILE. */
START_TEST(the_kernel_answers_are_mapped)
{
	struct perf_pmu_config bogus = { .type = 0x7ff0, .config = { 1 } };
	struct perf_pmu_config sw = { .type = PERF_TYPE_SOFTWARE, .config = { PERF_COUNT_SW_TASK_CLOCK } };
	struct perf_access a;
	struct perf_group g;
	char err[600];
	int rc;

	perf_access_read(NULL, &a);
	rc = perf_group_open(&g, NULL, &bogus, 1, 0, -1, true, false, "event 0x7ff0", &a, err, sizeof(err));
	if (rc == -ENOSYS || (a.paranoid > 2 && rc == -EACCES))
		CHECK_SKIP("perf_event_open is not available here (%s)", err);
	ck_assert_int_eq(rc, -ENOENT);
	ck_assert_msg(strstr(err, "event 0x7ff0: the kernel does not know this event"), "%s", err);
	{
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			struct rlimit rl = { 8, 8 };
			struct perf_group many[16];
			int got = 0;

			setrlimit(RLIMIT_NOFILE, &rl);
			perf_access_read(NULL, &a);
			while (got < 16 && perf_group_open(&many[got], NULL, &sw, 1, 0, -1, true, false, "g",
							   &a, err, sizeof(err)) == 0)
				got++;
			_exit(got < 16 && strstr(err, "too many open files (EMFILE)") &&
			      strstr(err, "the limit is 8") ? 0 : 1);
		}
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "EMFILE not mapped");
	}
}
END_TEST

static Suite *perf_suite(void)
{
	Suite *s = suite_create("perf");
	TCase *tc = tcase_create("sysfs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, raw_configs_are_the_selects_the_msr_source_writes);
	tcase_add_test(tc, uncore_configs_are_the_selects_and_imc_names_are_the_kernels);
	tcase_add_test(tc, format_files_decide_the_bits);
	tcase_add_test(tc, uncore_pmus_are_listed_in_number_order_with_their_cpus);
	suite_add_tcase(s, tc);
	CHECK_ADD(s, software_events_read_as_a_group_with_their_times);
	CHECK_ADD(s, a_shared_counter_is_scaled_by_its_time);
	CHECK_ADD(s, every_errno_says_what_to_do);
	CHECK_ADD(s, the_kernel_answers_are_mapped);
	return s;
}

CHECK_MAIN(perf_suite)
