/*
 * doctor: the setup checks; see doctor.h.  Every check is a function that
 * fills one line; the table at the bottom is the order they are shown in.
 * What only the counter sources know of the machine comes from probe.h.
 */
#include "doctor.h"
#include "doctor_int.h"
#include "cpumodel.h"
#include "frontend.h"
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cpuid.h"
#include "paths.h"
#include "rootfs.h"

static void doctor_cpu(struct doctor_ctx *c, struct doctor_line *l)
{
	char err[512];
	int rc;

	rc = session_identify(c->in->machine, &c->info, err, sizeof(err));
	/* the vendor and the hypervisor bit are read before the CPU is judged */
	c->read_cpuid = c->info.vendor[0] != 0;
	if (rc) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "%s", err);
		if (c->in->simulated)
			snprintf(l->fix, sizeof(l->fix), "pmutop --help lists the machines");
		else if (rc == -EACCES || rc == -EPERM)
			snprintf(l->fix, sizeof(l->fix), "let this user read the cpuid devices (they hold "
				 "no secret): sudo chmod a+r /dev/cpu/*/cpuid; or sudo pmutop");
		else
			snprintf(l->fix, sizeof(l->fix), "explore pmutop on an emulated machine: pmutop "
				 "--sim nehalem-ep:memory-bound");
		return;
	}
	if (c->in->simulated) {
		c->have_cpu = true;
		snprintf(l->found, sizeof(l->found), "emulated %s: %s (SIMULATED data)",
			 session_machine_name(c->in->machine), c->info.brand);
		return;
	}
	if (c->info.vendor_id == CPUID_VENDOR_AMD) {
		doctor_amd_cpu(c, l);
		return;
	}
	if (c->info.vendor_id == CPUID_VENDOR_INTEL && cpuid_check_intel_perfmon(&c->info, err,
										 sizeof(err))) {
		/* an Intel CPU that shows no PMU: a virtual machine without one, as a rule */
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "%s", err);
		snprintf(l->fix, sizeof(l->fix), "explore pmutop on an emulated machine: pmutop --sim "
			 "nehalem-ep:memory-bound");
		return;
	}
	c->have_cpu = true;
	if (c->info.perfmon_version)
		snprintf(l->found, sizeof(l->found), "%s, family %u model 0x%02X (%s), perfmon v%u, "
			 "%u counters of %u bits", c->info.brand, c->info.family, c->info.model,
			 session_cpu_kind(c->in->perfmon_dir, &c->info, err, sizeof(err), NULL, 0),
			 c->info.perfmon_version, c->info.gp_counters, c->info.gp_width);
	else
		/* another vendor's: no Intel perfmon version, counted through perf */
		snprintf(l->found, sizeof(l->found), "%s, %s family 0x%X model 0x%02X, %u counters "
			 "of %u bits (counted through perf)", c->info.brand, c->info.vendor,
			 c->info.family, c->info.model, c->info.gp_counters, c->info.gp_width);
}

static void doctor_device(struct doctor_ctx *c, struct doctor_line *l)
{
	struct probe_msr m;
	int err;

	if (c->read_cpuid && c->info.vendor_id != CPUID_VENDOR_INTEL) {
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "not used: the register source programs Intel's "
			 "PMU only; on this CPU (%s) pmutop counts through perf", c->info.vendor);
		return;
	}
	probe_msr_device(c->in->root, &m);
	if (m.opened) {
		c->msr_ok = m.listed;
		snprintf(l->found, sizeof(l->found), "%s opens for reading and writing", m.path);
		if (!m.listed) {
			l->state = DOCTOR_FAIL;
			snprintf(l->found, sizeof(l->found), "%s opens, but msr-safe's allowlist lacks "
				 "pmutop's registers", m.path);
			snprintf(l->fix, sizeof(l->fix), "as root: pmutop --msr-safe-allowlist > "
				 "/dev/cpu/msr_allowlist");
		}
		return;
	}
	err = m.err;
	l->state = DOCTOR_FAIL;
	if (err == ENOENT) {
		/* neither device: say both, and the driver that makes the usual one */
		snprintf(l->found, sizeof(l->found), "neither %s/dev/cpu/0/msr nor msr_safe exists",
			 c->root);
		snprintf(l->fix, sizeof(l->fix), "load the msr driver: modprobe msr (or msr-safe's "
			 "module, with pmutop --msr-safe-allowlist)");
		return;
	}
	snprintf(l->found, sizeof(l->found), "%.400s: %s", m.path, strerror(err));
	if (err == EPERM && geteuid() != 0)
		/* the file lets this user in: only the capability is missing */
		snprintf(l->fix, sizeof(l->fix), "the device file lets this user in, and the msr "
			 "driver also wants CAP_SYS_RAWIO: as root, setcap cap_sys_rawio+ep "
			 "$(command -v pmutop)");
	else if (err == EACCES && geteuid() != 0 && m.safe_exists)
		/* msr-safe is there: the way made for users */
		snprintf(l->fix, sizeof(l->fix), "msr-safe is loaded: as root, give this user's "
			 "group read and write access to /dev/cpu/*/msr_safe (chgrp GROUP, chmod "
			 "g+rw) and load pmutop's registers: pmutop --msr-safe-allowlist > "
			 "/dev/cpu/msr_allowlist");
	else if (err == EACCES && geteuid() != 0)
		/* a user's ways in, the narrowest first */
		snprintf(l->fix, sizeof(l->fix), "for this user: msr-safe with pmutop "
			 "--msr-safe-allowlist and group access to /dev/cpu/*/msr_safe; or as root: "
			 "setcap cap_sys_rawio+ep $(command -v pmutop) with chgrp/chmod g+rw "
			 "/dev/cpu/*/msr; or sudo pmutop");
	else if (err == EACCES || err == EPERM)
		snprintf(l->fix, sizeof(l->fix), "root is refused: kernel lockdown or a security "
			 "module; see the write filter line, or use msr-safe");
	else
		snprintf(l->fix, sizeof(l->fix), "check the msr driver: dmesg | grep -i msr");
}

/*
 * How a sweep will read: the msr driver and msr-safe's per-CPU files take
 * one call (one IPI) per register and CPU, msr-safe's batch device one call
 * for every CPU: the skew of a sample on a big machine.
 */
static void doctor_batch(struct doctor_ctx *c, struct doctor_line *l)
{
	struct probe_batch b;

	l->state = DOCTOR_NA;
	probe_msr_batch(c->in->root, &c->info, &b);
	if (b.msr_opens && !b.preferred && !b.batch_exists) {
		snprintf(l->found, sizeof(l->found), "the msr driver: one read per register and CPU "
			 "(msr-safe's batch call, with pmutop's allowlist loaded, reads every CPU at "
			 "once: it matters from a few hundred CPUs)");
		return;
	}
	if (b.msr_opens && !b.preferred) {
		/* msr-safe is there, and the msr driver is used instead: say why */
		l->state = DOCTOR_WARN;
		if (b.rc == 0) {
			snprintf(l->found, sizeof(l->found), "the msr driver, register by register: "
				 "msr-safe's allowlist lacks registers pmutop writes");
			snprintf(l->fix, sizeof(l->fix), "as root: pmutop --msr-safe-allowlist > "
				 "/dev/cpu/msr_allowlist");
		} else {
			snprintf(l->found, sizeof(l->found), "the msr driver, register by register: "
				 "%.400s", b.why);
			snprintf(l->fix, sizeof(l->fix), "update msr-safe, or see dmesg");
		}
		return;
	}
	if (!b.batch_exists) {
		snprintf(l->found, sizeof(l->found), "no %s/dev/cpu/msr_batch: register by register",
			 c->root);
		return;
	}
	if (!b.rc) {
		l->state = DOCTOR_OK;
		snprintf(l->found, sizeof(l->found), "%.400s: every CPU's counters in one call per "
			 "sweep", b.why);
		return;
	}
	l->state = DOCTOR_WARN;
	snprintf(l->found, sizeof(l->found), "%.400s: pmutop reads register by register", b.why);
	if (b.rc == -EACCES || b.rc == -EPERM)
		snprintf(l->fix, sizeof(l->fix), "as root, give this user's group read access to "
			 "/dev/cpu/msr_batch (chgrp GROUP, chmod g+r)");
	else
		snprintf(l->fix, sizeof(l->fix), "as root: pmutop --msr-safe-allowlist > "
			 "/dev/cpu/msr_allowlist, or update msr-safe");
}

static void doctor_filter(struct doctor_ctx *c, struct doctor_line *l)
{
	char filter[64], lockdown[128];

	rootfs_read_line(c->in->root, "sys/module/msr/parameters/allow_writes", filter, sizeof(filter));
	rootfs_read_line(c->in->root, "sys/kernel/security/lockdown", lockdown, sizeof(lockdown));
	if (strstr(lockdown, "[integrity]") || strstr(lockdown, "[confidentiality]")) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "kernel lockdown %s refuses MSR writes", lockdown);
		snprintf(l->fix, sizeof(l->fix), "boot with lockdown=none (or without Secure Boot), or "
			 "use msr-safe");
		return;
	}
	if (!strcmp(filter, "off")) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "the msr driver refuses writes (allow_writes=off)");
		snprintf(l->fix, sizeof(l->fix), "echo on > /sys/module/msr/parameters/allow_writes");
		return;
	}
	if (!strcmp(filter, "default")) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "writes allowed, but the kernel logs each one "
			 "(allow_writes=default)");
		snprintf(l->fix, sizeof(l->fix), "echo on > /sys/module/msr/parameters/allow_writes");
		return;
	}
	snprintf(l->found, sizeof(l->found), "no write filter%s%s",
		 filter[0] ? " (allow_writes=" : "", filter[0] ? filter : "");
	if (filter[0])
		strcat(l->found, ")");
}

static void doctor_owners(struct doctor_ctx *c, struct doctor_line *l)
{
	const char *o = c->in->owners;

	if (!o) {
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "not checked: %s", c->in->simulated
			 ? "emulated machine" : c->in->owners_why ? c->in->owners_why
			 : "pmutop did not start counting");
		return;
	}
	if (!*o) {
		snprintf(l->found, sizeof(l->found), "every counter is free");
		return;
	}
	l->state = DOCTOR_WARN;
	/* every finding, and who holds them, on one line: not what --force would do */
	{
		size_t n = 0;

		for (const char *p = o; *p && n + 1 < sizeof(l->found);) {
			size_t k = strcspn(p, "\n");

			if (strncmp(p, "pmutop uses only the free counters", 34))
				n += (size_t)snprintf(l->found + n, sizeof(l->found) - n, "%s%.*s",
						      n ? "; " : "", (int)k, p);
			p += k + (p[k] == '\n');
		}
	}
	snprintf(l->fix, sizeof(l->fix), "stop the other user (perf, another tool), or pmutop "
		 "--force to take them (restored at exit)");
}

static void doctor_nmi(struct doctor_ctx *c, struct doctor_line *l)
{
	char v[16];

	rootfs_read_line(c->in->root, "proc/sys/kernel/nmi_watchdog", v, sizeof(v));
	if (!strcmp(v, "1")) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "the NMI watchdog holds a counter on every CPU");
		snprintf(l->fix, sizeof(l->fix), "echo 0 > /proc/sys/kernel/nmi_watchdog (pmutop leaves "
			 "its counter alone)");
		return;
	}
	snprintf(l->found, sizeof(l->found), v[0] ? "off" : "not present");
}

static void doctor_hypervisor(struct doctor_ctx *c, struct doctor_line *l)
{
	if (!c->read_cpuid) {
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "CPUID could not be read");
		return;
	}
	if (!c->have_cpu) {
		/* true whatever the CPU: the CPU line says why pmutop cannot count here */
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "%s (the CPU line says why pmutop cannot count "
			 "here)", c->info.hypervisor ? "virtual machine" : "bare metal");
		return;
	}
	if (!c->info.hypervisor) {
		snprintf(l->found, sizeof(l->found), "bare metal");
		return;
	}
	/* AMD has no architectural perfmon: the kernel's cpu PMU says whether the guest has one */
	bool pmu = c->info.perfmon_version || (c->info.vendor_id == CPUID_VENDOR_AMD &&
					       c->perf.cpu_pmu);

	l->state = pmu ? DOCTOR_WARN : DOCTOR_FAIL;
	snprintf(l->found, sizeof(l->found), pmu
		 ? "virtual machine with a virtual PMU: uncore and some events may be missing"
		 : "virtual machine without a virtual PMU");
	snprintf(l->fix, sizeof(l->fix), "enable the guest PMU (KVM: -cpu host,pmu=on) or run on the "
		 "host; meanwhile pmutop --sim");
}

/* A CPU whose uncore only the kernel reaches: which of its PMUs are there, which missing. */
static void doctor_kernel_uncore(struct doctor_ctx *c, struct doctor_line *l)
{
	char kinds[700];
	bool amd = c->info.vendor_id == CPUID_VENDOR_AMD;
	int expected, found = session_kernel_uncore(c->in->machine, amd, &expected, kinds,
						    sizeof(kinds));

	if (found < 0) {
		snprintf(l->found, sizeof(l->found), "the emulated kernel cannot be made: see the CPU "
			 "line");
		return;
	}
	c->kernel_uncore = found > 0;
	l->state = found == expected ? DOCTOR_OK : found ? DOCTOR_WARN : DOCTOR_NA;
	snprintf(l->found, sizeof(l->found), "the kernel's uncore PMUs, counted with --source "
		 "perf: %s", kinds);
	if (found < expected)
		snprintf(l->fix, sizeof(l->fix), "%s", found ? "a PMU missing: its group is n/a (a "
			 "kernel older than this CPU's uncore driver)"
			 : "a virtual machine (no uncore PMU is passed through) or a kernel without "
			 "this CPU's uncore driver: the memory, L3, link and power groups show n/a");
}

static void doctor_uncore(struct doctor_ctx *c, struct doctor_line *l)
{
	const struct cpumodel *model;
	unsigned long long bar;
	char err[400];
	int rc;

	if (!c->have_cpu) {
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "see the CPU line");
		return;
	}
	model = cpumodel_of(&c->info);
	switch (model ? model->p->uncore : CPUMODEL_UNCORE_NONE) {
	case CPUMODEL_UNCORE_NHM:
		snprintf(l->found, sizeof(l->found), "%s uncore (L3, home logic, %d IMC channels) per "
			 "socket through the msr device of one CPU of it%s", model->name,
			 model->p->channels, c->in->simulated ? " (emulated)" : "");
		return;
	case CPUMODEL_UNCORE_SKL:
		if (c->in->simulated) {
			snprintf(l->found, sizeof(l->found), "Skylake client uncore (CBo, ARB) and IMC "
				 "counters (emulated)");
			return;
		}
		rc = probe_imc_window(c->in->root, &bar, err, sizeof(err));
		if (rc == 0) {
			snprintf(l->found, sizeof(l->found), "Skylake client uncore (CBo, ARB) through "
				 "msr; IMC counters at 0x%llx through /dev/mem", bar);
			return;
		}
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "IMC counters unavailable: %s", err);
		snprintf(l->fix, sizeof(l->fix), "%s", strstr(err, "lockdown")
			 ? "boot with lockdown=none (or without Secure Boot)"
			 : strstr(err, "iomem") ? "boot with iomem=relaxed" : "sudo pmutop");
		return;
	case CPUMODEL_UNCORE_NONE:
	case CPUMODEL_UNCORE_KERNEL:
	case CPUMODEL_UNCORE_RAPL:
		l->state = DOCTOR_NA;
		if ((!model && c->info.vendor_id == CPUID_VENDOR_INTEL) ||
		    c->info.vendor_id == CPUID_VENDOR_AMD) {
			doctor_kernel_uncore(c, l);
			return;
		}
		if (model && model->p->uncore_why)
			snprintf(l->found, sizeof(l->found), "%s (%s): its uncore is not programmed: "
				 "%s; the uncore and IMC panes show n/a", model->name,
				 c->info.uarch_name, model->p->uncore_why);
		else
			snprintf(l->found, sizeof(l->found), "no uncore registers pmutop programs on this "
				 "CPU (Nehalem/Westmere-EP, Skylake client): with --source perf the "
				 "kernel's uncore PMUs count it (CHA, memory channels, UPI, power: the "
				 "perf PMUs line lists them); else the uncore and IMC panes show n/a");
	}
}

static void doctor_files(struct doctor_ctx *c, struct doctor_line *l)
{
	struct rlimit r;
	long need = (c->in->ncpus > 0 ? c->in->ncpus : sysconf(_SC_NPROCESSORS_CONF)) + 32;

	if (getrlimit(RLIMIT_NOFILE, &r)) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "cannot read the limit: %s", strerror(errno));
		return;
	}
	if (r.rlim_cur != RLIM_INFINITY && (long)r.rlim_cur < need) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "%ld open files allowed, %ld needed (one per CPU)",
			 (long)r.rlim_cur, need);
		snprintf(l->fix, sizeof(l->fix), "ulimit -n %ld", need);
		return;
	}
	snprintf(l->found, sizeof(l->found), "%ld allowed, %ld needed", (long)r.rlim_cur, need);
}

/* perf_event_paranoid and the capabilities: what the perf source may count for this user. */
static void doctor_perf_access(struct doctor_ctx *c, struct doctor_line *l)
{
	probe_perf(c->in->root, &c->perf);
	c->perf_allowed = c->perf.system_wide;
	if (c->perf_allowed) {
		snprintf(l->found, sizeof(l->found), "%s", c->perf.why);
		return;
	}
	l->state = DOCTOR_WARN;
	snprintf(c->perf_why, sizeof(c->perf_why), "%s", c->perf.why);
	snprintf(l->found, sizeof(l->found), "%s (levels: -1 everything, 0 every CPU, 1 own "
		 "processes with kernel, 2 own processes user mode only)", c->perf.why);
	snprintf(l->fix, sizeof(l->fix), "echo 0 > /proc/sys/kernel/perf_event_paranoid, or "
		 "give pmutop the capability: setcap cap_perfmon+ep $(command -v pmutop)");
}

/* The PMUs the kernel exposes in sysfs: the core one perf counts through, the uncore ones. */
static void doctor_perf_pmus(struct doctor_ctx *c, struct doctor_line *l)
{
	const struct {
		const char *kind;
		int n;
	} uncore[] = { { "uncore_imc", c->perf.imc }, { "uncore_cbox", c->perf.cbox },
		       { "uncore_arb", c->perf.arb } };
	size_t n;

	c->perf_pmu = c->perf.cpu_pmu;
	if (!c->perf_pmu) {
		l->state = DOCTOR_WARN;
		snprintf(c->perf_why, sizeof(c->perf_why), "no core PMU in %s/sys/bus/event_source/"
			 "devices", c->root);
		snprintf(l->found, sizeof(l->found), "no core PMU (cpu, cpu_core) in %s/sys/bus/event_source/"
			 "devices: --source perf cannot count here", c->root);
		snprintf(l->fix, sizeof(l->fix), "a virtual machine: enable the guest PMU (KVM: -cpu "
			 "host,pmu=on); else a kernel with perf support for this CPU");
		return;
	}
	n = (size_t)snprintf(l->found, sizeof(l->found), "%s (type %u, %d format fields%s)",
			     c->perf.cpu_name, c->perf.cpu_type, c->perf.cpu_fields,
			     c->perf.any_thread ? "" : ", no AnyThread: per-core events n/a");
	for (size_t k = 0; k < sizeof(uncore) / sizeof(uncore[0]) && n < sizeof(l->found); k++)
		if (uncore[k].n > 0)
			n += (size_t)snprintf(l->found + n, sizeof(l->found) - n, "; %s_* x%d",
					      uncore[k].kind, uncore[k].n);
	if (c->perf.uncore && n < sizeof(l->found))
		n += (size_t)snprintf(l->found + n, sizeof(l->found) - n, "; uncore");
	if (c->perf.kinds[0] && n < sizeof(l->found))
		snprintf(l->found + n, sizeof(l->found) - n, "; every PMU: %s (pmutop --list-pmus "
			 "describes them)", c->perf.kinds);
	if (c->perf.nskipped) {
		/* a PMU whose sysfs files are wrong: skipped, the others work */
		l->state = DOCTOR_WARN;
		snprintf(l->fix, sizeof(l->fix), "%d PMU%s skipped: %.400s", c->perf.nskipped,
			 c->perf.nskipped > 1 ? "s" : "", c->perf.skipped);
	}
}

/* Which source --source auto takes here, and why. */
static void doctor_source(struct doctor_ctx *c, struct doctor_line *l)
{
	bool amd = c->info.vendor_id == CPUID_VENDOR_AMD;

	if (c->in->simulated) {
		snprintf(l->found, sizeof(l->found), "%s", amd
			 ? "auto: AMD's PMU through an emulated kernel (perf)"
			 : c->kernel_uncore ? "auto: perf, an emulated kernel: only its uncore drivers "
			 "reach this CPU's uncore (--source msr: the cores through the registers)"
			 : "auto: the emulated registers (msr); --source perf counts through an "
			 "emulated kernel");
		return;
	}
	if (c->read_cpuid && !c->have_cpu) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "neither msr nor perf: see the CPU line; pmutop "
			 "shows the OS's figures");
		return;
	}
	if (c->msr_ok && c->kernel_uncore && c->perf_pmu && c->perf_allowed) {
		snprintf(l->found, sizeof(l->found), "auto: perf: only the kernel's uncore drivers "
			 "reach this CPU's uncore (the uncore line); --source msr counts the cores "
			 "through the registers");
		return;
	}
	if (c->msr_ok) {
		snprintf(l->found, sizeof(l->found), "auto: msr%s",
			 c->perf_pmu && c->perf_allowed ? "; --source perf also works" : "");
		return;
	}
	if (c->perf_pmu && c->perf_allowed) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "auto: perf (msr unusable: see the msr device "
			 "line): the panes whose PMUs the perf PMUs line lists");
		return;
	}
	l->state = DOCTOR_FAIL;
	snprintf(l->found, sizeof(l->found), "neither msr nor perf can count (perf: %s): pmutop "
		 "shows the OS's figures", c->perf_why[0] ? c->perf_why : "see the lines above");
	snprintf(l->fix, sizeof(l->fix), "the msr device line's fix, or the perf lines'; meanwhile "
		 "pmutop --sim");
}

/*
 * The checks in the order printed.  EMULATED: what the line says on an
 * emulated machine, where the check is of this host's devices and kernel
 * (n/a there); NULL where the check looks at the emulated machine as at a
 * real one.
 */
static const struct {
	const char *what;
	void (*check)(struct doctor_ctx *c, struct doctor_line *l);
	const char *emulated;
} doctor_checks[] = {
	{ "CPU", doctor_cpu, NULL },
	{ "CPU kinds", doctor_kinds, NULL },
	{ "layout", doctor_layout, NULL },
	{ "vendor data", doctor_vendor_data, NULL },
	{ "msr device", doctor_device, "emulated registers, no device used" },
	{ "batch reads", doctor_batch, "emulated registers, no device used" },
	{ "write filter", doctor_filter, "emulated registers" },
	{ "counters in use", doctor_owners, NULL },
	{ "NMI watchdog", doctor_nmi, "emulated machine" },
	{ "hypervisor", doctor_hypervisor, "emulated machine" },
	{ "uncore", doctor_uncore, NULL },
	{ "memory speed", doctor_memory_speed, NULL },
	{ "open files", doctor_files, NULL },
	{ "perf access", doctor_perf_access, "emulated machine (--source perf: an emulated kernel)" },
	{ "perf PMUs", doctor_perf_pmus, "emulated machine: the emulated kernel's cpu and uncore "
	  "PMUs" },
	{ "source", doctor_source, NULL },
	{ "sampler", doctor_sampler, NULL },
	{ "who (cgroups)", doctor_who, "emulated machine: the scenario's tasks, in cgroups the "
	  "emulator writes (--sim icelake-sp:shared-server has a shared server's); counted per "
	  "cgroup with --source perf --who" },
	{ "resctrl", doctor_resctrl, "emulated machine: its resctrl tree is the emulator's (a "
	  "monitoring group per cgroup of the scenario)" },
};

/* A fix only root can apply, told to a user who is not root: say so, and how. */
static void doctor_for_user(struct doctor_line *l)
{
	char fix[sizeof(l->fix)];

	if (geteuid() == 0 || !l->fix[0] || strncmp(l->fix, "echo ", 5))
		return;
	snprintf(fix, sizeof(fix), "as root (sudo sh -c '...'): %.400s", l->fix);
	snprintf(l->fix, sizeof(l->fix), "%s", fix);
}

int doctor_run(const struct doctor_input *in, char *out, size_t len)
{
	static const char *const states[] = { "ok", "warn", "FAIL", "n/a" };
	struct doctor_ctx c = { .in = in, .root = in->root && strcmp(in->root, "/") ? in->root : "" };
	size_t n = 0;
	int failed = 0;

	out[0] = 0;
	for (size_t i = 0; i < sizeof(doctor_checks) / sizeof(doctor_checks[0]); i++) {
		struct doctor_line l = { .state = DOCTOR_OK };

		if (in->simulated && doctor_checks[i].emulated) {
			l.state = DOCTOR_NA;
			snprintf(l.found, sizeof(l.found), "%s", doctor_checks[i].emulated);
		} else {
			doctor_checks[i].check(&c, &l);
		}
		doctor_for_user(&l);
		failed += l.state == DOCTOR_FAIL;
		if (n < len)
			n += (size_t)snprintf(out + n, len - n, "%-4s  %-15s  %s\n", states[l.state],
					      doctor_checks[i].what, l.found);
		if (l.fix[0] && n < len)
			n += (size_t)snprintf(out + n, len - n, "      %-15s  fix: %s\n", "", l.fix);
	}
	return failed;
}
