/*
 * doctor_amd: the doctor's CPU line on AMD's Zen: which generation this is,
 * that the kernel's perf counts it (pmutop programs Intel's registers only),
 * and, on a virtual machine whose hypervisor exposes no PMU, what pmutop
 * would show with one and how to enable it.  The OS figures stay.
 */
#include "app.h"
#include "cpumodel.h"
#include "doctor_int.h"

#include <stdio.h>
#include <string.h>

/* What pmutop counts on a Zen of generation UARCH, in a line. */
static const char *doctor_amd_shows(enum cpuid_uarch uarch)
{
	if (uarch == CPUID_UARCH_ZEN4 || uarch == CPUID_UARCH_ZEN5)
		return "AMD's pipeline-utilisation tree (front end, bad speculation, back end, SMT "
		       "contention, retiring; level 2 below), L1D fills by source, L2, TLB and branch "
		       "metrics, each memory channel's bandwidth (amd_umc), the L3 of each CCX "
		       "(amd_l3) and package power";
	return "IPC, dispatch and stall shares (AMD defines the pipeline tree from Zen 4 on), L2, "
	       "TLB and branch metrics, the L3 of each CCX (amd_l3), the data fabric (amd_df) and "
	       "package power";
}

void doctor_amd_cpu(struct doctor_ctx *c, struct doctor_line *l)
{
	const struct cpumodel *row = cpumodel_of(&c->info);
	char gen[160];

	probe_perf(c->in->root, &c->perf);
	if (row)
		snprintf(gen, sizeof(gen), "%s, %s", row->p->name, row->name);
	else if (c->info.uarch != CPUID_UARCH_UNKNOWN)
		snprintf(gen, sizeof(gen), "%s", c->info.uarch_name);
	else
		snprintf(gen, sizeof(gen), "a generation AMD's data in pmutop does not cover "
			 "(Zen 2 to Zen 5)");
	if (!c->perf.cpu_pmu && c->info.hypervisor) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "%s (%s; family %Xh model %02Xh): a virtual "
			 "machine whose hypervisor exposes no PMU (the kernel has no cpu PMU): pmutop "
			 "shows the OS's figures. With a PMU it would show %s", c->info.brand, gen,
			 c->info.family, c->info.model, doctor_amd_shows(c->info.uarch));
		snprintf(l->fix, sizeof(l->fix), "enable the guest PMU: QEMU/KVM -cpu host,pmu=on "
			 "(libvirt <pmu state='on'/>; the host's kvm module with enable_pmu=1), VMware "
			 "'virtualize CPU performance counters', a cloud size that exposes the PMU "
			 "(often bare metal); meanwhile pmutop --sim %s", c->info.uarch ==
			 CPUID_UARCH_ZEN2 || c->info.uarch == CPUID_UARCH_ZEN3 ? "vermeer" : "genoa");
		return;
	}
	c->have_cpu = true;
	snprintf(l->found, sizeof(l->found), "%s (%s; family %Xh model %02Xh), %u core counters of "
		 "%u bits: counted through the kernel's perf (pmutop programs Intel's registers "
		 "only): %s", c->info.brand, gen, c->info.family, c->info.model, c->info.gp_counters,
		 c->info.gp_width, doctor_amd_shows(c->info.uarch));
	if (!c->perf.cpu_pmu) {
		l->state = DOCTOR_WARN;
		snprintf(l->fix, sizeof(l->fix), "the kernel has no cpu PMU: a kernel with perf "
			 "support for this CPU (the perf PMUs line)");
	}
}
