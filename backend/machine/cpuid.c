/*
 * cpuid: CPUID decoding; the microarchitecture comes from the model table (cpumodel).
 * Main thread only.
 */
#include "cpuid.h"
#include "cpumodel.h"

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
};

const char *cpuid_uarch_name(enum cpuid_uarch uarch)
{
	return cpuid_uarch_names[uarch];
}

enum cpuid_uarch cpuid_uarch_of(unsigned family, unsigned model, unsigned perfmon_version)
{
	const struct cpumodel *m = cpumodel_find(family, model);

	if (m)
		return m->uarch;
	return perfmon_version > 0 ? CPUID_UARCH_ARCH : CPUID_UARCH_UNKNOWN;
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

	if (max_leaf >= 1 && (rc = leaf(ctx, 1, 0, r)) == 0) {
		unsigned base_family = cpuid_bits(r[0], 8, 11), base_model = cpuid_bits(r[0], 4, 7);

		info->stepping = cpuid_bits(r[0], 0, 3);
		info->family = base_family == 0xF ? base_family + cpuid_bits(r[0], 20, 27)
						  : base_family;
		info->model = (base_family == 6 || base_family == 0xF)
			? base_model | cpuid_bits(r[0], 16, 19) << 4 : base_model;
		info->hypervisor = (r[2] >> 31) & 1;
	}
	if (max_leaf >= 0xA && (rc = leaf(ctx, 0xA, 0, r)) == 0) {
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
	if (leaf(ctx, 0x80000000u, 0, r) == 0 && (max_ext = r[0]) >= 0x80000004u) {
		for (uint32_t i = 0; i < 3; i++)
			if (leaf(ctx, 0x80000002u + i, 0, r) == 0)
				memcpy(info->brand + 16 * i, r, 16);
		info->brand[48] = '\0';
	}
	/* the brand string is right-aligned with leading blanks on older parts */
	{
		size_t skip = strspn(info->brand, " ");

		memmove(info->brand, info->brand + skip, strlen(info->brand + skip) + 1);
	}

	if (strcmp(info->vendor, "GenuineIntel") != 0) {
		snprintf(err, errlen, "this CPU is %s (%s), not Intel: pmutop programs Intel "
			 "performance-monitoring registers only; try 'pmutop --sim nehalem-ep' "
			 "to see it on an emulated machine", info->vendor,
			 info->brand[0] ? info->brand : "no brand string");
		return -ENOTSUP;
	}
	info->uarch = cpuid_uarch_of(info->family, info->model, info->perfmon_version);
	info->uarch_name = cpuid_uarch_name(info->uarch);
	if (info->uarch == CPUID_UARCH_UNKNOWN || info->perfmon_version == 0) {
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
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s%s", path, strerror(-rc),
			 rc == -ENOENT ? " (load the cpuid driver: modprobe cpuid)" : "");
		return rc;
	}
	rc = cpuid_identify(cpuid_leaf_file, &fd, info, err, errlen);
	close(fd);
	return rc;
}
