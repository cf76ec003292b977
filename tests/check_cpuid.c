/*
 * Tests for CPU identification: every emulated machine's CPUID decodes to
 * the right microarchitecture and counter geometry; model numbers map as
 * the issue lists them; non-Intel CPUs and VMs without a PMU get a message.
 */
#include <errno.h>
#include <string.h>

#include "check_main.h"
#include "cpuid.h"
#include "emu.h"

static void identify(const char *machine, struct cpuid_info *info)
{
	char err[256];
	struct emu *e;

	ck_assert_msg(emu_create(machine, SCENARIO_SRCDIR, &e, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(cpuid_identify(emu_cpuid_leaf, e, info, err, sizeof(err)) == 0, "%s", err);
	emu_free(e);
}

START_TEST(emulated_machines_identify_as_documented)
{
	static const struct {
		const char *machine;
		enum cpuid_uarch uarch;
		unsigned model, version, gp, gp_width, fixed, fixed_width;
	} want[] = {
		{ "nehalem-ep", CPUID_UARCH_NEHALEM, 0x1A, 3, 4, 48, 3, 48 },
		{ "westmere-ep", CPUID_UARCH_WESTMERE, 0x2C, 3, 4, 48, 3, 48 },
		{ "skylake", CPUID_UARCH_SKYLAKE, 0x5E, 4, 4, 48, 3, 48 },
		{ "core2", CPUID_UARCH_CORE2, 0x17, 2, 2, 40, 3, 40 },
		{ "arch", CPUID_UARCH_ARCH, 0x3F, 3, 4, 48, 3, 48 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct cpuid_info info;

		identify(want[i].machine, &info);
		ck_assert_str_eq(info.vendor, "GenuineIntel");
		ck_assert_uint_eq(info.family, 6);
		ck_assert_uint_eq(info.model, want[i].model);
		ck_assert_int_eq(info.uarch, want[i].uarch);
		ck_assert_uint_eq(info.perfmon_version, want[i].version);
		ck_assert_uint_eq(info.gp_counters, want[i].gp);
		ck_assert_uint_eq(info.gp_width, want[i].gp_width);
		ck_assert_uint_eq(info.fixed_counters, want[i].fixed);
		ck_assert_uint_eq(info.fixed_width, want[i].fixed_width);
		ck_assert_msg(strstr(info.brand, "Intel(R)") == info.brand, "brand '%s'", info.brand);
	}
}
END_TEST

START_TEST(model_numbers_map_to_microarchitectures)
{
	static const struct { unsigned model; enum cpuid_uarch uarch; } map[] = {
		{ 0x1A, CPUID_UARCH_NEHALEM }, { 0x1E, CPUID_UARCH_NEHALEM },
		{ 0x1F, CPUID_UARCH_NEHALEM }, { 0x2E, CPUID_UARCH_NEHALEM },
		{ 0x25, CPUID_UARCH_WESTMERE }, { 0x2C, CPUID_UARCH_WESTMERE },
		{ 0x2F, CPUID_UARCH_WESTMERE }, { 0x4E, CPUID_UARCH_SKYLAKE },
		{ 0x5E, CPUID_UARCH_SKYLAKE }, { 0x0F, CPUID_UARCH_CORE2 },
		{ 0x17, CPUID_UARCH_CORE2 }, { 0x1D, CPUID_UARCH_CORE2 },
		{ 0x55, CPUID_UARCH_ARCH }, { 0x8C, CPUID_UARCH_ARCH },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		ck_assert_int_eq(cpuid_uarch_of(6, map[i].model, 3), map[i].uarch);
	ck_assert_int_eq(cpuid_uarch_of(6, 0x99, 0), CPUID_UARCH_UNKNOWN);
	ck_assert_int_eq(cpuid_uarch_of(15, 0x1A, 2), CPUID_UARCH_ARCH);
}
END_TEST

/* A CPUID table: vendor from CTX, family 6 model 0x1A, leaf 0xA as given. */
struct fake_cpu {
	const char *vendor;
	uint32_t leaf1_ecx, leafa_eax, leafa_ebx;
};

static int leaf_fake(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	const struct fake_cpu *f = ctx;

	(void)subleaf;
	memset(regs, 0, 16);
	if (leaf == 0) {
		regs[0] = 0xB;
		memcpy(&regs[1], f->vendor, 4);
		memcpy(&regs[3], f->vendor + 4, 4);
		memcpy(&regs[2], f->vendor + 8, 4);
	} else if (leaf == 1) {
		regs[0] = 0x106A5;
		regs[2] = f->leaf1_ecx;
	} else if (leaf == 0xA) {
		regs[0] = f->leafa_eax;
		regs[1] = f->leafa_ebx;
	}
	return 0;
}

START_TEST(non_intel_and_pmu_less_vm_are_refused_with_a_reason)
{
	struct fake_cpu amd = { "AuthenticAMD", 0, 0, 0 };
	struct fake_cpu vm = { "GenuineIntel", 1u << 31, 0, 0 };
	struct fake_cpu ok = { "GenuineIntel", 0, 3 | 4 << 8 | 48 << 16 | 7 << 24, 0 };
	struct cpuid_info info;
	char err[512];

	ck_assert_int_eq(cpuid_identify(leaf_fake, &amd, &info, err, sizeof(err)), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(err, "AuthenticAMD"));
	ck_assert_ptr_nonnull(strstr(err, "not Intel"));
	ck_assert_ptr_nonnull(strstr(err, "--sim"));
	ck_assert_int_eq(cpuid_identify(leaf_fake, &vm, &info, err, sizeof(err)), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(err, "virtual machine"));
	ck_assert_ptr_nonnull(strstr(err, "virtual PMU"));
	ck_assert_int_eq(cpuid_identify(leaf_fake, &ok, &info, err, sizeof(err)), 0);
	ck_assert_int_eq(info.uarch, CPUID_UARCH_NEHALEM);
	ck_assert_uint_eq(info.model, 0x1A);
	ck_assert_uint_eq(info.stepping, 5);
}
END_TEST

/* CPUID.0AH: EBX bits and a bit vector shorter than 7 both make events unavailable. */
START_TEST(unavailable_architectural_events_are_decoded)
{
	struct fake_cpu all = { "GenuineIntel", 0, 3 | 4 << 8 | 48 << 16 | 7 << 24, 0 };
	struct fake_cpu no_llc = { "GenuineIntel", 0, 3 | 4 << 8 | 48 << 16 | 7 << 24, 1 << 4 | 1 << 3 };
	struct fake_cpu short_vec = { "GenuineIntel", 0, 2 | 2 << 8 | 40 << 16 | 5 << 24, 1 << 2 };
	struct cpuid_info info;
	char err[512];

	ck_assert_int_eq(cpuid_identify(leaf_fake, &all, &info, err, sizeof(err)), 0);
	ck_assert_uint_eq(info.arch_events_absent, 0);
	ck_assert_int_eq(cpuid_identify(leaf_fake, &no_llc, &info, err, sizeof(err)), 0);
	ck_assert_uint_eq(info.arch_events_absent, 0x18);
	/* 5 bits given: branch instructions (5) and mispredictions (6) are beyond them */
	ck_assert_int_eq(cpuid_identify(leaf_fake, &short_vec, &info, err, sizeof(err)), 0);
	ck_assert_uint_eq(info.arch_events_len, 5);
	ck_assert_uint_eq(info.arch_events_absent, 0x64);
}
END_TEST

START_TEST(this_machine_is_identified_or_refused_with_a_reason)
{
	struct cpuid_info info;
	char err[512] = "";
	int rc = cpuid_identify_root("/", &info, err, sizeof(err));

	/* a VM without PMU (CI) is refused; a real Intel box is identified */
	if (rc == 0)
		ck_assert(info.perfmon_version > 0 && info.gp_counters > 0);
	else
		ck_assert_msg(rc == -ENOTSUP && strlen(err) > 20, "rc %d: %s", rc, err);
	ck_assert(info.vendor[0] != '\0');
}
END_TEST

static Suite *cpuid_suite(void)
{
	Suite *s = suite_create("cpuid");

	CHECK_ADD(s, emulated_machines_identify_as_documented);
	CHECK_ADD(s, model_numbers_map_to_microarchitectures);
	CHECK_ADD(s, non_intel_and_pmu_less_vm_are_refused_with_a_reason);
	CHECK_ADD(s, unavailable_architectural_events_are_decoded);
	CHECK_ADD(s, this_machine_is_identified_or_refused_with_a_reason);
	return s;
}

CHECK_MAIN(cpuid_suite)
