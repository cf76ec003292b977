/*
 * cpuid: CPUID decoding; the microarchitecture is the model table's to say (cpumodel_classify).
 * Main thread only.
 */
#include "cpuid.h"
#include "rootfs.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const cpuid_uarch_names[] = {
	[CPUID_UARCH_UNKNOWN] = "unknown",
	[CPUID_UARCH_ARCH] = "architectural perfmon",
	[CPUID_UARCH_CORE2] = "Core 2",
	[CPUID_UARCH_NEHALEM] = "Nehalem",
	[CPUID_UARCH_WESTMERE] = "Westmere",
	[CPUID_UARCH_SKYLAKE] = "Skylake client",
	[CPUID_UARCH_ZEN2] = "Zen 2",
	[CPUID_UARCH_ZEN3] = "Zen 3",
	[CPUID_UARCH_ZEN4] = "Zen 4",
	[CPUID_UARCH_ZEN5] = "Zen 5",
};

const char *cpuid_uarch_name(enum cpuid_uarch uarch)
{
	return cpuid_uarch_names[uarch];
}

const char *cpuid_vendor_string(enum cpuid_vendor vendor)
{
	return vendor == CPUID_VENDOR_INTEL ? "GenuineIntel"
	       : vendor == CPUID_VENDOR_AMD ? "AuthenticAMD" : "";
}

void cpuid_assume(unsigned family, unsigned model, unsigned stepping, struct cpuid_info *info)
{
	/* AMD's families from K10 on (10h-16h, Zen's 17h, 19h, 1Ah); Intel's are 5, 6, 0Fh, 12h, 13h */
	bool amd = (family >= 0x10 && family <= 0x17 && family != 0x12 && family != 0x13) ||
		   family == 0x19 || family == 0x1A;

	memset(info, 0, sizeof(*info));
	info->vendor_id = amd ? CPUID_VENDOR_AMD : CPUID_VENDOR_INTEL;
	snprintf(info->vendor, sizeof(info->vendor), "%s", cpuid_vendor_string(info->vendor_id));
	info->family = family;
	info->model = model;
	info->stepping = stepping;
	info->gp_counters = amd ? 6 : 4;
	info->gp_width = 48;
	info->perfmon_version = amd ? 0 : 3;
	info->uarch = CPUID_UARCH_UNKNOWN; /* the CPU table's to say: cpumodel_classify */
	info->uarch_name = cpuid_uarch_name(info->uarch);
}

int cpuid_leaf_native(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	(void)ctx;
#if defined(__x86_64__) || defined(__i386__)
	/* inline, because <cpuid.h> is shadowed by this module's own header */
	__asm__ volatile("cpuid"
			 : "=a"(regs[0]), "=b"(regs[1]), "=c"(regs[2]), "=d"(regs[3])
			 : "a"(leaf), "c"(subleaf));
	return 0;
#else
	(void)leaf;
	(void)subleaf;
	(void)regs;
	return -ENOTSUP;
#endif
}

int cpuid_leaf_file(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	int fd = *(int *)ctx;
	off_t off = (off_t)((uint64_t)leaf | (uint64_t)subleaf << 32);
	ssize_t n = pread(fd, regs, 16, off);

	if (n < 0)
		return -errno;
	return n == 16 ? 0 : -EIO;
}

static unsigned cpuid_bits(uint32_t v, unsigned lo, unsigned hi)
{
	return (unsigned)((v >> lo) & ((1u << (hi - lo + 1)) - 1));
}

/*
 * AMD's core counters (AMD64 APM Vol. 2, 13.2): PerfMonV2 (80000022H:EAX[0])
 * gives their number in 80000022H:EBX[3:0]; before it, six with the core
 * performance counter extension (80000001H:ECX[23]), else four.  48 bits.
 */
static void cpuid_amd_counters(cpuid_leaf_fn leaf, void *ctx, uint32_t max_ext,
			       struct cpuid_info *info)
{
	uint32_t r[4];

	info->gp_counters = 4;
	info->gp_width = 48;
	if (max_ext >= 0x80000001u && leaf(ctx, 0x80000001u, 0, r) == 0 && ((r[2] >> 23) & 1))
		info->gp_counters = 6;
	if (max_ext >= 0x80000022u && leaf(ctx, 0x80000022u, 0, r) == 0 && (r[0] & 1))
		info->gp_counters = cpuid_bits(r[1], 0, 3);
}

int cpuid_identify(cpuid_leaf_fn leaf, void *ctx, struct cpuid_info *info, char *err, size_t errlen)
{
	uint32_t r[4], max_leaf, max_ext;
	int rc;

	memset(info, 0, sizeof(*info));
	if ((rc = leaf(ctx, 0, 0, r))) {
		snprintf(err, errlen, "cannot read CPUID: %s", strerror(-rc));
		return rc;
	}
	max_leaf = r[0];
	memcpy(info->vendor, &r[1], 4);     /* "Genu" */
	memcpy(info->vendor + 4, &r[3], 4); /* "ineI" */
	memcpy(info->vendor + 8, &r[2], 4); /* "ntel" */
	info->vendor[12] = '\0';
	info->vendor_id = !strcmp(info->vendor, "GenuineIntel") ? CPUID_VENDOR_INTEL
			  : !strcmp(info->vendor, "AuthenticAMD") ? CPUID_VENDOR_AMD
			  : CPUID_VENDOR_OTHER;

	if (max_leaf >= 1 && (rc = leaf(ctx, 1, 0, r)) == 0) {
		unsigned base_family = cpuid_bits(r[0], 8, 11), base_model = cpuid_bits(r[0], 4, 7);

		info->stepping = cpuid_bits(r[0], 0, 3);
		info->family = base_family == 0xF ? base_family + cpuid_bits(r[0], 20, 27)
						  : base_family;
		info->model = (base_family == 6 || base_family == 0xF)
			? base_model | cpuid_bits(r[0], 16, 19) << 4 : base_model;
		info->hypervisor = (r[2] >> 31) & 1;
	}
	if (max_leaf >= 7 && leaf(ctx, 7, 0, r) == 0)
		info->hybrid = (r[3] >> 15) & 1;
	if (info->hybrid && max_leaf >= 0x1A && leaf(ctx, 0x1A, 0, r) == 0)
		info->core_type = cpuid_bits(r[0], 24, 31);
	if (info->vendor_id == CPUID_VENDOR_INTEL && max_leaf >= 0xA &&
	    (rc = leaf(ctx, 0xA, 0, r)) == 0) {
		info->perfmon_version = cpuid_bits(r[0], 0, 7);
		info->gp_counters = cpuid_bits(r[0], 8, 15);
		info->gp_width = cpuid_bits(r[0], 16, 23);
		info->arch_events_len = cpuid_bits(r[0], 24, 31);
		info->arch_events_absent = (r[1] | (info->arch_events_len >= CPUID_ARCH_EVENTS ? 0
						    : ~0u << info->arch_events_len)) &
					   ((1u << CPUID_ARCH_EVENTS) - 1);
		if (info->perfmon_version >= 2) {
			info->fixed_counters = cpuid_bits(r[3], 0, 4);
			info->fixed_width = cpuid_bits(r[3], 5, 12);
		}
	}
	if (info->perfmon_version >= 6 && max_leaf >= 0x23 && leaf(ctx, 0x23, 0, r) == 0) {
		info->evtsel_umask2 = r[1] & 1;
		info->evtsel_eq = (r[1] >> 1) & 1;
	}
	max_ext = leaf(ctx, 0x80000000u, 0, r) == 0 ? r[0] : 0;
	if (info->vendor_id == CPUID_VENDOR_AMD)
		cpuid_amd_counters(leaf, ctx, max_ext, info);
	if (max_ext >= 0x80000004u) {
		for (uint32_t i = 0; i < 3; i++)
			if (leaf(ctx, 0x80000002u + i, 0, r) == 0)
				memcpy(info->brand + 16 * i, r, 16);
		info->brand[48] = '\0';
	}
	/*
	 * the brand string is right-aligned with leading blanks on older parts,
	 * padded with trailing ones on others (a virtual CPU's: "... Processor" and
	 * 13 blanks); the kernel's model name trims both, and so does pmutop
	 */
	{
		size_t skip = strspn(info->brand, " "), n;

		memmove(info->brand, info->brand + skip, strlen(info->brand + skip) + 1);
		for (n = strlen(info->brand); n && info->brand[n - 1] == ' '; n--)
			info->brand[n - 1] = 0;
	}
	/* a --root tree's cpuid file says what it likes: its strings are shown as safe text */
	text_clean_in_place(info->brand, sizeof(info->brand));
	text_clean_in_place(info->vendor, sizeof(info->vendor));

	info->uarch = CPUID_UARCH_UNKNOWN; /* the CPU table's to say: cpumodel_classify */
	info->uarch_name = cpuid_uarch_name(info->uarch);
	return 0;
}

int cpuid_check_intel_perfmon(const struct cpuid_info *info, char *err, size_t errlen)
{
	if (info->vendor_id != CPUID_VENDOR_INTEL) {
		snprintf(err, errlen, "this CPU is %s (%s), not Intel: pmutop programs the "
			 "performance-monitoring registers of Intel CPUs only; --source perf counts "
			 "through the kernel, and 'pmutop --sim %s' shows pmutop on an emulated "
			 "machine", info->vendor, info->brand[0] ? info->brand : "no brand string",
			 info->vendor_id == CPUID_VENDOR_AMD ? "genoa" : "nehalem-ep");
		return -ENOTSUP;
	}
	if (info->perfmon_version == 0) {
		snprintf(err, errlen, "CPU family %u model 0x%02X (%s) reports no architectural "
			 "performance monitoring (CPUID leaf 0xA)%s", info->family, info->model,
			 info->brand, info->hypervisor
			 ? ": this is a virtual machine whose hypervisor exposes no virtual PMU; "
			   "enable one (e.g. KVM: -cpu host, VMware: vPMC) or use --sim"
			 : "; use --sim to see pmutop on an emulated machine");
		return -ENOTSUP;
	}
	return 0;
}

int cpuid_identify_root(const char *root, struct cpuid_info *info, char *err, size_t errlen)
{
	char path[4096];
	int fd, rc;

	if (!root || strcmp(root, "/") == 0)
		return cpuid_identify(cpuid_leaf_native, NULL, info, err, errlen);
	snprintf(path, sizeof(path), "%s/dev/cpu/0/cpuid", root);
	rc = rootfs_open(root, "dev/cpu/0/cpuid", O_RDONLY, ROOTFS_DEVICE, &fd);
	if (rc) {
		snprintf(err, errlen, "cannot open %s: %s%s", path, rootfs_strerror(rc),
			 rc == -ENOENT ? " (load the cpuid driver: modprobe cpuid)" : "");
		return rc;
	}
	rc = cpuid_identify(cpuid_leaf_file, &fd, info, err, errlen);
	close(fd);
	return rc;
}
