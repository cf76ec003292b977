/*
 * Tests for CPU identification: every emulated machine's CPUID decodes to
 * the right microarchitecture and counter geometry; model numbers map as
 * the CPU table says, by vendor; AMD's counters and a hybrid part's core
 * type are decoded; the register source refuses other vendors and VMs
 * without a PMU with a message; this machine decodes as the kernel reads it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "cpuid.h"
#include "cpumodel.h"
#include "emu.h"

static void identify(const char *machine, struct cpuid_info *info)
{
	char err[256];
	struct emu *e;

	ck_assert_msg(emu_create(machine, SCENARIO_SRCDIR, &e, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(cpuid_identify(emu_cpuid_leaf, e, info, err, sizeof(err)) == 0, "%s", err);
	cpumodel_classify(info);
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
		{ "arch", CPUID_UARCH_ARCH, 0x3E, 3, 4, 48, 3, 48 },
		{ "skylake-sp", CPUID_UARCH_ARCH, 0x55, 4, 4, 48, 3, 48 },
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

/* A CPU's leaves: AMD family 1Ah model 02h, its brand padded with blanks on both sides. */
static int padded_brand_leaf(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	static const char brand[49] = "  Oxide Virtual Turin-like Processor             ";

	(void)ctx;
	(void)subleaf;
	memset(regs, 0, 4 * sizeof(regs[0]));
	if (leaf == 0) {
		regs[0] = 1;
		memcpy(&regs[1], "Auth", 4);
		memcpy(&regs[3], "enti", 4);
		memcpy(&regs[2], "cAMD", 4);
	} else if (leaf == 1) {
		regs[0] = 0x00B00F20; /* family 0Fh + 0Bh = 1Ah, model 02h */
		regs[2] = 1u << 31;   /* a hypervisor */
	} else if (leaf == 0x80000000u) {
		regs[0] = 0x80000004u;
	} else if (leaf >= 0x80000002u && leaf <= 0x80000004u) {
		memcpy(regs, brand + 16 * (leaf - 0x80000002u), 16);
	}
	return 0;
}

/* The brand as the kernel's model name has it: its blanks on either side trimmed. */
START_TEST(a_padded_brand_is_trimmed_on_both_sides)
{
	struct cpuid_info info;
	char err[256];

	ck_assert_msg(cpuid_identify(padded_brand_leaf, NULL, &info, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_uint_eq(info.family, 0x1A);
	ck_assert_uint_eq(info.model, 0x02);
	ck_assert(info.hypervisor);
	ck_assert_str_eq(info.brand, "Oxide Virtual Turin-like Processor");
}
END_TEST

/* The microarchitecture of VENDOR family FAMILY model MODEL with perfmon VERSION. */
static enum cpuid_uarch uarch_of(enum cpuid_vendor vendor, unsigned family, unsigned model,
				 unsigned version)
{
	struct cpuid_info info = { .vendor_id = vendor, .family = family, .model = model,
				   .perfmon_version = version };

	return cpumodel_uarch_of(&info);
}

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
		ck_assert_int_eq(uarch_of(CPUID_VENDOR_INTEL, 6, map[i].model, 3), map[i].uarch);
	ck_assert_int_eq(uarch_of(CPUID_VENDOR_INTEL, 6, 0x99, 0), CPUID_UARCH_UNKNOWN);
	ck_assert_int_eq(uarch_of(CPUID_VENDOR_INTEL, 15, 0x1A, 2), CPUID_UARCH_ARCH);
	/* the table is by vendor: another vendor's family 6 model 1AH is not Nehalem */
	ck_assert_int_eq(uarch_of(CPUID_VENDOR_AMD, 6, 0x1A, 0), CPUID_UARCH_UNKNOWN);
	ck_assert_int_eq(uarch_of(CPUID_VENDOR_OTHER, 6, 0x1A, 3), CPUID_UARCH_UNKNOWN);
}
END_TEST

/* A CPUID table: vendor, leaf 1 EAX/ECX, leaf 7 EDX, 1AH EAX, 0AH EAX/EBX, AMD's extended leaves. */
struct fake_cpu {
	const char *vendor;
	uint32_t leaf1_ecx, leafa_eax, leafa_ebx;
	uint32_t leaf1_eax;                  /* 0: family 6 model 1AH stepping 5 */
	uint32_t leaf7_edx, leaf1a_eax;
	uint32_t ext1_ecx, ext22_eax, ext22_ebx;
};

static int leaf_fake(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	const struct fake_cpu *f = ctx;

	(void)subleaf;
	memset(regs, 0, 16);
	if (leaf == 0) {
		regs[0] = 0x1A;
		memcpy(&regs[1], f->vendor, 4);
		memcpy(&regs[3], f->vendor + 4, 4);
		memcpy(&regs[2], f->vendor + 8, 4);
	} else if (leaf == 1) {
		regs[0] = f->leaf1_eax ? f->leaf1_eax : 0x106A5;
		regs[2] = f->leaf1_ecx;
	} else if (leaf == 7) {
		regs[3] = f->leaf7_edx;
	} else if (leaf == 0xA) {
		regs[0] = f->leafa_eax;
		regs[1] = f->leafa_ebx;
	} else if (leaf == 0x1A) {
		regs[0] = f->leaf1a_eax;
	} else if (leaf == 0x80000000u) {
		regs[0] = 0x80000022u;
	} else if (leaf == 0x80000001u) {
		regs[2] = f->ext1_ecx;
	} else if (leaf == 0x80000022u) {
		regs[0] = f->ext22_eax;
		regs[1] = f->ext22_ebx;
	}
	return 0;
}

/*
 * Identification reads any CPU; the register source's own check refuses
 * another vendor (pointing at perf) and a VM without a PMU, with the reason.
 */
START_TEST(other_vendors_are_identified_and_the_register_source_says_why_not)
{
	struct fake_cpu amd = { .vendor = "AuthenticAMD", .leaf1_eax = 0xA10F11 };
	struct fake_cpu vm = { .vendor = "GenuineIntel", .leaf1_ecx = 1u << 31 };
	struct fake_cpu ok = { .vendor = "GenuineIntel", .leafa_eax = 3 | 4 << 8 | 48 << 16 | 7 << 24 };
	struct cpuid_info info;
	char err[512];

	ck_assert_int_eq(cpuid_identify(leaf_fake, &amd, &info, err, sizeof(err)), 0);
	ck_assert_int_eq(info.vendor_id, CPUID_VENDOR_AMD);
	/* Zen 4: base family FH + extended 0AH = 19H, model 11H */
	ck_assert_uint_eq(info.family, 0x19);
	ck_assert_uint_eq(info.model, 0x11);
	ck_assert_int_eq(cpuid_check_intel_perfmon(&info, err, sizeof(err)), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(err, "AuthenticAMD"));
	ck_assert_ptr_nonnull(strstr(err, "not Intel"));
	ck_assert_ptr_nonnull(strstr(err, "--source perf"));
	ck_assert_int_eq(cpuid_identify(leaf_fake, &vm, &info, err, sizeof(err)), 0);
	ck_assert_int_eq(cpuid_check_intel_perfmon(&info, err, sizeof(err)), -ENOTSUP);
	ck_assert_ptr_nonnull(strstr(err, "virtual machine"));
	ck_assert_ptr_nonnull(strstr(err, "virtual PMU"));
	ck_assert_int_eq(cpuid_identify(leaf_fake, &ok, &info, err, sizeof(err)), 0);
	/* CPUID says no microarchitecture: the CPU table does */
	ck_assert_int_eq(info.uarch, CPUID_UARCH_UNKNOWN);
	cpumodel_classify(&info);
	ck_assert_int_eq(cpuid_check_intel_perfmon(&info, err, sizeof(err)), 0);
	ck_assert_int_eq(info.uarch, CPUID_UARCH_NEHALEM);
	ck_assert_uint_eq(info.model, 0x1A);
	ck_assert_uint_eq(info.stepping, 5);
}
END_TEST

/* AMD64 APM Vol. 2 13.2: four counters, six with the core extension, PerfMonV2's count. */
START_TEST(amd_core_counters_are_decoded)
{
	struct fake_cpu base = { .vendor = "AuthenticAMD", .leaf1_eax = 0x800F12 };
	struct fake_cpu ext = { .vendor = "AuthenticAMD", .leaf1_eax = 0x800F12, .ext1_ecx = 1u << 23 };
	struct fake_cpu v2 = { .vendor = "AuthenticAMD", .leaf1_eax = 0xA10F11, .ext1_ecx = 1u << 23,
			       .ext22_eax = 1, .ext22_ebx = 0x5 | 0x10 << 4 };
	struct cpuid_info info;
	char err[256];

	ck_assert_int_eq(cpuid_identify(leaf_fake, &base, &info, err, sizeof(err)), 0);
	ck_assert_uint_eq(info.gp_counters, 4);
	ck_assert_uint_eq(info.gp_width, 48);
	ck_assert_uint_eq(info.perfmon_version, 0);
	ck_assert_int_eq(cpuid_identify(leaf_fake, &ext, &info, err, sizeof(err)), 0);
	ck_assert_uint_eq(info.gp_counters, 6);
	ck_assert_int_eq(cpuid_identify(leaf_fake, &v2, &info, err, sizeof(err)), 0);
	ck_assert_uint_eq(info.gp_counters, 5);
}
END_TEST

/* A hybrid part's core type (CPUID.07H:EDX[15], then 1AH:EAX[31:24]); none on the others. */
START_TEST(hybrid_core_type_is_read)
{
	struct fake_cpu p_core = { .vendor = "GenuineIntel", .leafa_eax = 5 | 8 << 8 | 48 << 16 | 7 << 24,
				   .leaf1_eax = 0xB06A2, .leaf7_edx = 1u << 15,
				   .leaf1a_eax = 0x40u << 24 };
	struct fake_cpu plain = { .vendor = "GenuineIntel", .leafa_eax = 3 | 4 << 8 | 48 << 16 | 7 << 24,
				  .leaf1a_eax = 0x40u << 24 };
	struct cpuid_info info;
	char err[256];

	ck_assert_int_eq(cpuid_identify(leaf_fake, &p_core, &info, err, sizeof(err)), 0);
	ck_assert(info.hybrid);
	ck_assert_uint_eq(info.core_type, 0x40);
	ck_assert_uint_eq(info.model, 0xBA);
	ck_assert_int_eq(cpuid_identify(leaf_fake, &plain, &info, err, sizeof(err)), 0);
	ck_assert(!info.hybrid);
	ck_assert_uint_eq(info.core_type, 0);
}
END_TEST

/* CPUID.0AH: EBX bits and a bit vector shorter than 7 both make events unavailable. */
START_TEST(unavailable_architectural_events_are_decoded)
{
	struct fake_cpu all = { .vendor = "GenuineIntel", .leafa_eax = 3 | 4 << 8 | 48 << 16 | 7 << 24 };
	struct fake_cpu no_llc = { .vendor = "GenuineIntel", .leafa_eax = 3 | 4 << 8 | 48 << 16 | 7 << 24,
				   .leafa_ebx = 1 << 4 | 1 << 3 };
	struct fake_cpu short_vec = { .vendor = "GenuineIntel", .leafa_eax = 2 | 2 << 8 | 40 << 16 | 5 << 24,
				      .leafa_ebx = 1 << 2 };
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

/* The value of KEY in the first processor's block of /proc/cpuinfo, or "" (none: x86 only). */
static void cpuinfo_field(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		size_t k = strcspn(line, "\t:");

		if (line[0] == '\n')
			break; /* the first processor only */
		if (!colon || k != strlen(key) || strncmp(line, key, k))
			continue;
		snprintf(out, len, "%s", colon + 1 + (colon[1] == ' '));
		out[strcspn(out, "\n")] = 0;
		break;
	}
	if (f)
		fclose(f);
}

/*
 * This machine's CPUID decodes to what the kernel says of it in /proc/cpuinfo
 * (vendor, family, model, stepping, brand), whatever its vendor or PMU.
 */
START_TEST(this_machine_decodes_as_the_kernel_reads_it)
{
	struct cpuid_info info;
	char err[512] = "", want[256];

	cpuinfo_field("vendor_id", want, sizeof(want));
	if (!want[0]) {
		/* not x86: nothing to compare, and cpuid cannot be read */
		ck_assert_int_ne(cpuid_identify_root("/", &info, err, sizeof(err)), 0);
		return;
	}
	ck_assert_msg(cpuid_identify_root("/", &info, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(info.vendor, want);
	cpuinfo_field("cpu family", want, sizeof(want));
	ck_assert_uint_eq(info.family, (unsigned)strtoul(want, NULL, 10));
	cpuinfo_field("model", want, sizeof(want));
	ck_assert_uint_eq(info.model, (unsigned)strtoul(want, NULL, 10));
	cpuinfo_field("stepping", want, sizeof(want));
	if (want[0] && strcmp(want, "unknown"))
		ck_assert_uint_eq(info.stepping, (unsigned)strtoul(want, NULL, 10));
	cpuinfo_field("model name", want, sizeof(want));
	/*
	 * the kernel trims the brand's blanks as pmutop does.  It read the brand at
	 * boot: a virtual machine restored on another host answers CPUID with that
	 * host's (seen here: the kernel's "AMD EPYC", CPUID's "Oxide Virtual
	 * Turin-like Processor"), so only bare metal must agree; a VM may also
	 * have none.
	 */
	if (info.brand[0] && !info.hypervisor)
		ck_assert_str_eq(info.brand, want);
	ck_assert_msg(info.brand[0] != ' ' && (!info.brand[0] ||
					       info.brand[strlen(info.brand) - 1] != ' '),
		      "brand '%s' not trimmed", info.brand);
	ck_assert_int_eq(info.vendor_id, !strcmp(info.vendor, "GenuineIntel") ? CPUID_VENDOR_INTEL
			 : !strcmp(info.vendor, "AuthenticAMD") ? CPUID_VENDOR_AMD
			 : CPUID_VENDOR_OTHER);
}
END_TEST

static Suite *cpuid_suite(void)
{
	Suite *s = suite_create("cpuid");

	CHECK_ADD(s, emulated_machines_identify_as_documented);
	CHECK_ADD(s, a_padded_brand_is_trimmed_on_both_sides);
	CHECK_ADD(s, model_numbers_map_to_microarchitectures);
	CHECK_ADD(s, other_vendors_are_identified_and_the_register_source_says_why_not);
	CHECK_ADD(s, amd_core_counters_are_decoded);
	CHECK_ADD(s, hybrid_core_type_is_read);
	CHECK_ADD(s, unavailable_architectural_events_are_decoded);
	CHECK_ADD(s, this_machine_decodes_as_the_kernel_reads_it);
	return s;
}

CHECK_MAIN(cpuid_suite)
