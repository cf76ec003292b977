/*
 * Tests for the register layer: the allowlist refuses every register that is
 * not a PMU register pmutop programs; originals are saved before the first
 * write and restored; every errno becomes a message that says what to do.
 * The emulated machines stand in for the hardware.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "cpumodel.h"
#include "emu.h"
#include "msr.h"
#include "pmu_regs.h"

/* An emulated machine and a register layer over all its CPUs. */
struct rig {
	struct emu *e;
	struct msr_dev *d;
	struct msr_allowlist allow;
};

static void rig_open(struct rig *r, const char *machine)
{
	const struct topo *t;
	struct cpuid_info info;
	int cpus[64], sock[64], n;
	char err[256];

	ck_assert_msg(emu_create(machine, SCENARIO_SRCDIR, &r->e, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(cpuid_identify(emu_cpuid_leaf, r->e, &info, err, sizeof(err)), 0);
	cpumodel_classify(&info);
	msr_allow_build(&info, emu_machine(r->e)->cbo, &r->allow);
	t = emu_topo(r->e);
	n = t->nonline;
	for (int i = 0; i < n; i++) {
		cpus[i] = t->threads[i].os_cpu;
		sock[cpus[i]] = t->threads[i].socket;
	}
	r->d = msr_open_ops(&emu_msr_ops, r->e, cpus, n, &r->allow);
	msr_set_sockets(r->d, sock, n);
}

static void rig_close(struct rig *r)
{
	msr_close(r->d);
	emu_free(r->e);
}

static uint64_t emu_rd(struct emu *e, int cpu, uint32_t reg)
{
	uint64_t v = 0;

	ck_assert_int_eq(emu_msr_read(e, cpu, reg, &v), 0);
	return v;
}

START_TEST(allowlist_refuses_registers_outside_the_pmu)
{
	static const uint32_t refused[] = {
		IA32_MISC_ENABLE, IA32_TIME_STAMP_COUNTER, IA32_PERF_GLOBAL_STATUS,
		MSR_UNCORE_PERF_GLOBAL_STATUS, MSR_UNC_CBO_0_PERFEVTSEL0, MSR_OFFCORE_RSP_1,
		IA32_PERFEVTSEL0 + 4, 0x1D9 /* IA32_DEBUGCTL */, 0x199 /* IA32_PERF_CTL */,
	};
	struct rig r;
	uint64_t before = 0;

	rig_open(&r, "nehalem-ep:idle");
	before = emu_rd(r.e, 0, IA32_MISC_ENABLE);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ck_assert_int_eq(msr_write(r.d, 0, refused[i], 0), -EACCES);
		ck_assert_msg(strstr(msr_last_error(r.d), "pmutop refuses to write MSR"), "%s",
			      msr_last_error(r.d));
	}
	ck_assert_ptr_nonnull(strstr(msr_last_error(r.d), "0x199"));
	ck_assert_int_eq(msr_write(r.d, 0, IA32_MISC_ENABLE, 0), -EACCES);
	ck_assert_ptr_nonnull(strstr(msr_last_error(r.d), "IA32_MISC_ENABLE"));
	ck_assert_uint_eq(emu_rd(r.e, 0, IA32_MISC_ENABLE), before); /* never reached the CPU */
	ck_assert_int_eq(msr_saved_count(r.d), 0);
	ck_assert_uint_eq(msr_write_count(r.d), 0);
	rig_close(&r);
}
END_TEST

static int allowed(const struct msr_allowlist *l, uint32_t reg)
{
	return msr_allow_find(l, reg) != NULL;
}

START_TEST(allowlist_holds_each_models_pmu_registers)
{
	struct rig r;

	rig_open(&r, "nehalem-ep:idle");
	for (uint32_t k = 0; k < 4; k++)
		ck_assert(allowed(&r.allow, IA32_PMC0 + k) && allowed(&r.allow, IA32_PERFEVTSEL0 + k));
	ck_assert(!allowed(&r.allow, IA32_PMC0 + 4));
	ck_assert(allowed(&r.allow, IA32_FIXED_CTR2) && allowed(&r.allow, IA32_FIXED_CTR_CTRL));
	ck_assert(allowed(&r.allow, IA32_PERF_GLOBAL_CTRL) && allowed(&r.allow, IA32_PERF_GLOBAL_OVF_CTRL));
	ck_assert(allowed(&r.allow, MSR_OFFCORE_RSP_0) && !allowed(&r.allow, MSR_OFFCORE_RSP_1));
	for (uint32_t k = 0; k < 8; k++)
		ck_assert(allowed(&r.allow, MSR_UNCORE_PMC0 + k) &&
			  allowed(&r.allow, MSR_UNCORE_PERFEVTSEL0 + k));
	ck_assert(allowed(&r.allow, MSR_UNCORE_PERF_GLOBAL_CTRL) &&
		  allowed(&r.allow, MSR_UNCORE_FIXED_CTR_CTRL));
	ck_assert(!allowed(&r.allow, MSR_UNC_PERF_GLOBAL_CTRL));
	rig_close(&r);

	rig_open(&r, "westmere-ep:idle");
	ck_assert(allowed(&r.allow, MSR_OFFCORE_RSP_1));
	rig_close(&r);

	rig_open(&r, "skylake:idle");
	ck_assert(allowed(&r.allow, MSR_UNC_PERF_GLOBAL_CTRL) && allowed(&r.allow, MSR_UNC_PERF_FIXED_CTR));
	for (uint32_t n = 0; n < 4; n++)
		for (uint32_t k = 0; k < 2; k++)
			ck_assert(allowed(&r.allow, MSR_UNC_CBO_0_PERFEVTSEL0 + 0x10 * n + k) &&
				  allowed(&r.allow, MSR_UNC_CBO_0_PERFCTR0 + 0x10 * n + k));
	ck_assert(!allowed(&r.allow, MSR_UNC_CBO_0_PERFEVTSEL0 + 0x40));
	ck_assert(allowed(&r.allow, MSR_UNC_ARB_PERFEVTSEL1) && !allowed(&r.allow, MSR_UNCORE_PERFEVTSEL0));
	ck_assert(!allowed(&r.allow, MSR_UNC_CBO_CONFIG)); /* read-only */
	rig_close(&r);

	rig_open(&r, "core2:idle");
	ck_assert(allowed(&r.allow, IA32_PERFEVTSEL0 + 1) && !allowed(&r.allow, IA32_PERFEVTSEL0 + 2));
	ck_assert(!allowed(&r.allow, MSR_OFFCORE_RSP_0) && !allowed(&r.allow, MSR_UNCORE_PMC0));
	rig_close(&r);
}
END_TEST

/*
 * An Intel core the CPU table and the allowlist's list of Skylake-and-later
 * models do not name: its offcore response pair and MSR_PEBS_FRONTEND where
 * the events of Intel's metrics for its model (the layout made from them)
 * go through them (MSRIndex 0x1A6, 0x1A7, 0x3F7); nothing from architectural
 * perfmon 3 or for a model the data does not map.  The expected registers
 * are what Intel's files say: Kaby and Coffee Lake's metrics (06_9E, Intel's
 * skl.json; before, a run of their groups that use them was refused) use
 * all three, Sierra Forest's (06_AF) none; Haswell's (06_3C) use the pair,
 * on a version-3 core.
 */
static void assumed(unsigned model, unsigned version, struct msr_allowlist *l)
{
	struct cpuid_info info;

	cpuid_assume(6, model, 0, &info);
	info.perfmon_version = version;
	cpumodel_classify(&info);
	msr_allow_build(&info, 0, l);
}

START_TEST(a_core_the_lists_do_not_name_gets_what_its_data_uses)
{
	struct msr_allowlist l;

	/* the shipped data (a test program is not in the build directory that finds it alone) */
	ck_assert_int_eq(setenv("PMUTOP_PERFMON_DIR", TEST_DATADIR "/../data/intel", 1), 0);
	assumed(0x9E, 4, &l);
	ck_assert(allowed(&l, MSR_OFFCORE_RSP_0) && allowed(&l, MSR_OFFCORE_RSP_1));
	ck_assert(allowed(&l, MSR_PEBS_FRONTEND));
	assumed(0xAF, 5, &l);
	ck_assert(!allowed(&l, MSR_OFFCORE_RSP_0) && !allowed(&l, MSR_PEBS_FRONTEND));
	assumed(0x3C, 3, &l);
	ck_assert(!allowed(&l, MSR_OFFCORE_RSP_0) && !allowed(&l, MSR_PEBS_FRONTEND));
	assumed(0xFE, 5, &l);
	ck_assert(!allowed(&l, MSR_OFFCORE_RSP_0) && !allowed(&l, MSR_PEBS_FRONTEND));
	ck_assert(allowed(&l, IA32_PERFEVTSEL0)); /* the architectural registers still */
}
END_TEST

/*
 * The bits the offcore events of Intel's data FILE set (their MSRValue, each
 * event of MSR_OFFCORE_RSP_x), read here from the file with jansson.
 */
static uint64_t data_offcore_bits(const char *file)
{
	json_error_t jerr;
	json_t *doc = json_load_file(file, 0, &jerr), *ev;
	const char *name;
	uint64_t bits = 0;

	ck_assert_msg(doc, "%s: %s", file, jerr.text);
	json_object_foreach(json_object_get(doc, "Events"), name, ev) {
		const char *idx = json_string_value(json_object_get(ev, "MSRIndex"));
		const char *val = json_string_value(json_object_get(ev, "MSRValue"));

		if (idx && val && (strstr(idx, "0x1a6") || strstr(idx, "0x1A6")))
			for (const char *v = val; *v; v += strcspn(v, ","), v += *v == ',')
				bits |= strtoull(v, NULL, 16);
	}
	json_decref(doc);
	return bits;
}

/* Copy FROM to TO (a test's own tree). */
static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;

	ck_assert_msg(in && out, "%s -> %s", from, to);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
}

START_TEST(a_newer_core_may_write_the_offcore_bits_its_data_sets)
{
	const uint64_t skl = 0x3FFFFFFFFFull;  /* [SDM]: Skylake's fields end at bit 37 */
	const uint64_t lnc = 0xFFFFFFFFFFFull; /* the kernel's intel_lnc_extra_regs: bit 43 */
	uint64_t lnl = data_offcore_bits(TEST_DATADIR "/../data/intel/lnl.json");
	char dir[] = "/tmp/pmutop-check-msr-XXXXXX", path[PATH_MAX];
	struct msr_allowlist l;
	FILE *f;

	/* Lunar Lake's data sets bits past Skylake's: else this case would prove nothing */
	ck_assert_uint_ne(lnl & ~skl, 0);
	/*
	 * A platform newer than every list of pmutop's: Intel's map gives 06_FD
	 * Lunar Lake's file (as tools/check-recipes adds "RCP"), and its data's
	 * offcore values may be written, beside Skylake's fields
	 */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lnl.json", dir);
	copy_file(TEST_DATADIR "/../data/intel/lnl.json", path);
	snprintf(path, sizeof(path), "%s/models.csv", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("Family-model,Core Type,Core Role Name,File,Metrics\nGenuineIntel-6-FD,,,lnl.json,229\n",
	      f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(setenv("PMUTOP_PERFMON_DIR", dir, 1), 0);
	assumed(0xFD, 6, &l);
	ck_assert(allowed(&l, MSR_OFFCORE_RSP_0) && allowed(&l, MSR_OFFCORE_RSP_1));
	ck_assert_uint_eq(msr_allow_find(&l, MSR_OFFCORE_RSP_0)->write_mask, skl | lnl);
	ck_assert_uint_eq(msr_allow_find(&l, MSR_OFFCORE_RSP_1)->write_mask, skl | lnl);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lnl.json", dir);
	unlink(path);
	rmdir(dir);

	ck_assert_int_eq(setenv("PMUTOP_PERFMON_DIR", TEST_DATADIR "/../data/intel", 1), 0);
	/* Panther Lake (06_CC) and Wildcat Lake (06_D5) take Lunar Lake's path in the kernel */
	ck_assert_uint_eq(pmu_offcore_mask(6, 0xCC), lnc);
	ck_assert_uint_eq(pmu_offcore_mask(6, 0xD5), lnc);
	/* Lunar Lake (06_BD, the list's): the kernel's mask */
	assumed(0xBD, 6, &l);
	ck_assert_uint_eq(msr_allow_find(&l, MSR_OFFCORE_RSP_1)->write_mask, lnc);
	/* Coffee Lake (06_9E): Skylake's data, Skylake's mask, nothing added */
	assumed(0x9E, 4, &l);
	ck_assert_uint_eq(msr_allow_find(&l, MSR_OFFCORE_RSP_0)->write_mask, skl);
}
END_TEST

START_TEST(originals_are_saved_once_and_restored)
{
	struct rig r;
	uint64_t foreign = 0x4300C0; /* someone else's INST_RETIRED on PMC1 */

	rig_open(&r, "nehalem-ep:memory-bound");
	ck_assert_int_eq(emu_msr_write(r.e, 3, IA32_PERFEVTSEL0 + 1, foreign), 0);
	ck_assert_int_eq(emu_msr_write(r.e, 3, IA32_PMC0 + 1, 12345), 0);
	for (int cpu = 0; cpu < 16; cpu++) {
		ck_assert_int_eq(msr_write(r.d, cpu, IA32_PERFEVTSEL0 + 1, 0x43003C), 0);
		ck_assert_int_eq(msr_write(r.d, cpu, IA32_PMC0 + 1, 0), 0);
		ck_assert_int_eq(msr_write(r.d, cpu, IA32_PERF_GLOBAL_CTRL, 2), 0);
		ck_assert_int_eq(msr_write(r.d, cpu, IA32_PERF_GLOBAL_CTRL, 3), 0);
	}
	/* uncore: socket 0 through CPUs 0 and 8, socket 1 through CPU 4 */
	ck_assert_int_eq(msr_write(r.d, 0, MSR_UNCORE_PERFEVTSEL0, 0x40012C), 0);
	ck_assert_int_eq(msr_write(r.d, 8, MSR_UNCORE_PERFEVTSEL0, 0x40022C), 0);
	ck_assert_int_eq(msr_write(r.d, 4, MSR_UNCORE_PERF_GLOBAL_CTRL, 1), 0);
	ck_assert_int_eq(msr_saved_count(r.d), 16 * 3 + 2);
	ck_assert_uint_eq(emu_rd(r.e, 8, MSR_UNCORE_PERFEVTSEL0), 0x40022C);
	ck_assert_int_eq(msr_restore_all(r.d), 0);
	ck_assert_uint_eq(emu_rd(r.e, 3, IA32_PERFEVTSEL0 + 1), foreign);
	ck_assert_uint_ge(emu_rd(r.e, 3, IA32_PMC0 + 1), 12345); /* its own count, still running */
	for (int cpu = 0; cpu < 16; cpu++) {
		if (cpu != 3)
			ck_assert_uint_eq(emu_rd(r.e, cpu, IA32_PERFEVTSEL0 + 1), 0);
		ck_assert_uint_eq(emu_rd(r.e, cpu, IA32_PERF_GLOBAL_CTRL), 0);
	}
	ck_assert_uint_eq(emu_rd(r.e, 0, MSR_UNCORE_PERFEVTSEL0), 0);
	ck_assert_uint_eq(emu_rd(r.e, 4, MSR_UNCORE_PERF_GLOBAL_CTRL), 0);
	rig_close(&r);
}
END_TEST

START_TEST(uncore_restore_survives_its_cpu_going_offline)
{
	struct rig r;

	rig_open(&r, "nehalem-ep:idle");
	ck_assert_int_eq(msr_write(r.d, 0, MSR_UNCORE_PERF_GLOBAL_CTRL, 0xFF), 0);
	ck_assert_int_eq(emu_set_online(r.e, 0, 0), 0);
	ck_assert_int_eq(msr_restore_all(r.d), 0);
	ck_assert_uint_eq(emu_rd(r.e, 9, MSR_UNCORE_PERF_GLOBAL_CTRL), 0);
	rig_close(&r);
}
END_TEST

START_TEST(msr_safe_allowlist_lists_what_pmutop_writes)
{
	struct rig r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rig_open(&r, "nehalem-ep:idle");
	msr_allow_print_msr_safe(&r.allow, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "0x00000186 0x00000000FFFFFFFF # IA32_PERFEVTSEL0\n"));
	ck_assert_ptr_nonnull(strstr(buf, "0x000003C7 0x00000000FFFFFFFF # MSR_UNCORE_PERFEVTSEL7\n"));
	ck_assert_ptr_nonnull(strstr(buf, "0x0000038E 0x0000000000000000 # IA32_PERF_GLOBAL_STATUS"));
	ck_assert_ptr_null(strstr(buf, "0x000001A0"));
	free(buf);
	rig_close(&r);
}
END_TEST

/* ---- one test per errno message ---------------------------------------- */

static char *make_root(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/pmutop-root-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\"", root, rel);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void rmtree(const char *root)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(enoent_says_load_the_msr_module)
{
	char *root = make_root(), err[512];
	struct msr_allowlist none = { .n = 0 };
	struct msr_dev *d;
	int cpus[] = { 0 };

	ck_assert_int_eq(msr_open_files(root, cpus, 1, &none, &d, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_null(d);
	ck_assert_ptr_nonnull(strstr(err, "/dev/cpu/0/msr does not exist"));
	ck_assert_ptr_nonnull(strstr(err, "modprobe msr"));
	ck_assert_ptr_nonnull(strstr(err, "--sim"));
	rmtree(root);
}
END_TEST

START_TEST(eacces_on_open_says_root_capability_or_msr_safe)
{
	char err[512];

	msr_explain(-EACCES, "open", 2, 0, "/dev/cpu/2/msr", "/", NULL, err, sizeof(err));
	ck_assert_ptr_nonnull(strstr(err, "permission denied opening /dev/cpu/2/msr"));
	ck_assert_ptr_nonnull(strstr(err, "run pmutop as root"));
	ck_assert_ptr_nonnull(strstr(err, "setcap cap_sys_rawio+ep"));
	ck_assert_ptr_nonnull(strstr(err, "msr-safe"));
	ck_assert_ptr_nonnull(strstr(err, "--msr-safe-allowlist"));
	msr_explain(-EPERM, "open", 2, 0, "/dev/cpu/2/msr", "/", NULL, err, sizeof(err));
	ck_assert_ptr_nonnull(strstr(err, "permission denied"));
}
END_TEST

START_TEST(eperm_on_write_names_lockdown_or_write_filtering)
{
	char *root = make_root(), err[512];

	put(root, "sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	msr_explain(-EPERM, "write", 1, IA32_PERFEVTSEL0, "x", root, NULL, err, sizeof(err));
	ck_assert_ptr_nonnull(strstr(err, "locked down"));
	ck_assert_ptr_nonnull(strstr(err, "Secure Boot"));
	put(root, "sys/kernel/security/lockdown", "[none] integrity confidentiality\n");
	put(root, "sys/module/msr/parameters/allow_writes", "off\n");
	msr_explain(-EPERM, "write", 1, IA32_PERFEVTSEL0, "x", root, NULL, err, sizeof(err));
	ck_assert_ptr_nonnull(strstr(err, "msr writes are filtered (allow_writes=off)"));
	ck_assert_ptr_nonnull(strstr(err, "echo on > /sys/module/msr/parameters/allow_writes"));
	rmtree(root);
}
END_TEST

/* A register pmutop saved but never wrote belongs to whoever takes it later. */
START_TEST(saved_but_never_written_is_left_to_whoever_takes_it)
{
	struct rig r;

	rig_open(&r, "nehalem-ep:memory-bound");
	ck_assert_int_eq(msr_save(r.d, 0, IA32_PMC0 + 2), 0);
	ck_assert_int_eq(msr_save(r.d, 0, IA32_PERFEVTSEL0 + 2), 0);
	ck_assert_int_eq(msr_write(r.d, 0, IA32_PERFEVTSEL0, 0x43003C), 0);
	/* another program starts counting on PMC2 while pmutop runs */
	ck_assert_int_eq(emu_msr_write(r.e, 0, IA32_PERFEVTSEL0 + 2, 0x4300C0), 0);
	ck_assert_int_eq(emu_msr_write(r.e, 0, IA32_PMC0 + 2, 999), 0);
	ck_assert_int_eq(msr_restore_all(r.d), 0);
	ck_assert_uint_eq(emu_rd(r.e, 0, IA32_PERFEVTSEL0 + 2), 0x4300C0);
	ck_assert_uint_ge(emu_rd(r.e, 0, IA32_PMC0 + 2), 999);
	ck_assert_uint_eq(emu_rd(r.e, 0, IA32_PERFEVTSEL0), 0);
	rig_close(&r);
}
END_TEST

/* A select pmutop wrote and another program rewrote stays the other's, with its count. */
START_TEST(a_register_taken_over_is_not_restored_and_is_named)
{
	struct rig r;
	char out[2048] = "";
	FILE *f = tmpfile();

	rig_open(&r, "nehalem-ep:memory-bound");
	ck_assert_int_eq(msr_write(r.d, 2, IA32_PERFEVTSEL0 + 1, 0x43003C), 0);
	ck_assert_int_eq(msr_write(r.d, 2, IA32_PMC0 + 1, 0), 0);
	ck_assert_int_eq(msr_write(r.d, 2, IA32_PERFEVTSEL0 + 3, 0x4301C2), 0);
	ck_assert_int_eq(emu_msr_write(r.e, 2, IA32_PERFEVTSEL0 + 1, 0x4300C0), 0);
	ck_assert_int_eq(emu_msr_write(r.e, 2, IA32_PMC0 + 1, 777), 0);
	ck_assert_int_eq(msr_restore_all(r.d), 0);
	ck_assert_uint_eq(emu_rd(r.e, 2, IA32_PERFEVTSEL0 + 1), 0x4300C0);
	ck_assert_uint_ge(emu_rd(r.e, 2, IA32_PMC0 + 1), 777);
	ck_assert_uint_eq(emu_rd(r.e, 2, IA32_PERFEVTSEL0 + 3), 0); /* still ours: restored */
	ck_assert_int_eq(msr_restore_report(r.d, fileno(f)), 0);
	rewind(f);
	ck_assert_uint_gt(fread(out, 1, sizeof(out) - 1, f), 0);
	fclose(f);
	ck_assert_str_eq(out, "pmutop: MSR 0x187 on CPU 2: changed by another program since pmutop "
		"wrote it; left as it is\npmutop: MSR 0xc2 on CPU 2: changed by another program "
		"since pmutop wrote it; left as it is\n");
	rig_close(&r);
}
END_TEST

/* Reserved bits never reach a register, whatever a layout asks. */
START_TEST(reserved_bits_are_refused_on_every_write)
{
	struct rig r;

	rig_open(&r, "nehalem-ep:idle");
	/* Nehalem's offcore matrix is 16 bits wide (seed 000) */
	ck_assert_int_eq(msr_write(r.d, 1, MSR_OFFCORE_RSP_0, 0x14001), -EINVAL);
	ck_assert_msg(strstr(msr_last_error(r.d), "refuses to write 0x14001 to MSR 0x1A6 "
			     "(MSR_OFFCORE_RSP_0) on CPU 1: bits 0x10000 are reserved"), "%s",
		      msr_last_error(r.d));
	ck_assert_int_eq(msr_write(r.d, 1, IA32_PERFEVTSEL0, 1ull << 32 | 0x43003C), -EINVAL);
	ck_assert_int_eq(msr_write(r.d, 1, IA32_PERF_GLOBAL_CTRL, 1ull << 40), -EINVAL);
	ck_assert_uint_eq(msr_write_count(r.d), 0);
	ck_assert_int_eq(msr_saved_count(r.d), 0);
	ck_assert_int_eq(msr_write(r.d, 1, MSR_OFFCORE_RSP_0, 0x4001), 0);
	ck_assert_uint_eq(emu_rd(r.e, 1, MSR_OFFCORE_RSP_0), 0x4001);
	rig_close(&r);
	rig_open(&r, "skylake:idle");
	ck_assert_int_eq(msr_write(r.d, 1, MSR_OFFCORE_RSP_0, 0x3F80408FFFull), 0);
	ck_assert_int_eq(msr_write(r.d, 1, MSR_OFFCORE_RSP_0, 1ull << 38), -EINVAL);
	rig_close(&r);
}
END_TEST

/* The emulator's registers, with every access failing with EIO while flaky_fail is set. */
static int flaky_fail;

static int flaky_read(void *ctx, int cpu, uint32_t reg, uint64_t *val)
{
	return flaky_fail ? -EIO : emu_msr_read(ctx, cpu, reg, val);
}

static int flaky_write(void *ctx, int cpu, uint32_t reg, uint64_t val)
{
	return flaky_fail ? -EIO : emu_msr_write(ctx, cpu, reg, val);
}

static const struct msr_ops flaky_ops = { .read = flaky_read, .write = flaky_write };

/* An I/O error on a register that worked before is not "not implemented". */
START_TEST(eio_on_a_register_that_worked_is_transient)
{
	struct rig r;
	struct msr_dev *d;
	int cpus[16];

	rig_open(&r, "nehalem-ep:idle");
	for (int i = 0; i < 16; i++)
		cpus[i] = i;
	d = msr_open_ops(&flaky_ops, r.e, cpus, 16, &r.allow);
	ck_assert_int_eq(msr_write(d, 5, IA32_PERFEVTSEL0, 0x43003C), 0);
	flaky_fail = 1;
	ck_assert_int_eq(msr_write(d, 5, IA32_PERFEVTSEL0, 0x43003C), -EIO);
	ck_assert_msg(strstr(msr_last_error(d), "CPU 5 failed to write MSR 0x186 (IA32_PERFEVTSEL0), "
			     "which worked before"), "%s", msr_last_error(d));
	ck_assert_ptr_null(strstr(msr_last_error(d), "not implemented"));
	/* restoring fails too: retried, counted, not silent */
	ck_assert_int_eq(msr_restore_all(d), 1);
	flaky_fail = 0;
	msr_close(d);
	rig_close(&r);
}
END_TEST

START_TEST(eio_names_the_register_the_cpu_lacks)
{
	struct rig r;
	uint64_t v;

	rig_open(&r, "nehalem-ep:idle");
	ck_assert_int_eq(msr_read(r.d, 5, MSR_OFFCORE_RSP_1, &v), -EIO);
	ck_assert_ptr_nonnull(strstr(msr_last_error(r.d), "CPU 5 cannot read MSR 0x1A7"));
	ck_assert_ptr_nonnull(strstr(msr_last_error(r.d), "not implemented on this CPU model"));
	rig_close(&r);
}
END_TEST

START_TEST(enxio_says_the_cpu_is_offline)
{
	struct rig r;
	uint64_t v;

	rig_open(&r, "nehalem-ep:idle");
	emu_set_online(r.e, 7, 0);
	ck_assert_int_eq(msr_read(r.d, 7, IA32_PMC0, &v), -ENXIO);
	ck_assert_ptr_nonnull(strstr(msr_last_error(r.d), "CPU 7 is offline"));
	rig_close(&r);
}
END_TEST

static Suite *msr_suite(void)
{
	Suite *s = suite_create("msr");

	CHECK_ADD(s, allowlist_refuses_registers_outside_the_pmu);
	CHECK_ADD(s, allowlist_holds_each_models_pmu_registers);
	CHECK_ADD(s, a_core_the_lists_do_not_name_gets_what_its_data_uses);
	CHECK_ADD(s, a_newer_core_may_write_the_offcore_bits_its_data_sets);
	CHECK_ADD(s, originals_are_saved_once_and_restored);
	CHECK_ADD(s, uncore_restore_survives_its_cpu_going_offline);
	CHECK_ADD(s, msr_safe_allowlist_lists_what_pmutop_writes);
	CHECK_ADD(s, enoent_says_load_the_msr_module);
	CHECK_ADD(s, eacces_on_open_says_root_capability_or_msr_safe);
	CHECK_ADD(s, eperm_on_write_names_lockdown_or_write_filtering);
	CHECK_ADD(s, eio_names_the_register_the_cpu_lacks);
	CHECK_ADD(s, saved_but_never_written_is_left_to_whoever_takes_it);
	CHECK_ADD(s, a_register_taken_over_is_not_restored_and_is_named);
	CHECK_ADD(s, reserved_bits_are_refused_on_every_write);
	CHECK_ADD(s, eio_on_a_register_that_worked_is_transient);
	CHECK_ADD(s, enxio_says_the_cpu_is_offline);
	return s;
}

CHECK_MAIN(msr_suite)
