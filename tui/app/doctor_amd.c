/*
 * doctor_amd: the doctor's CPU line on AMD's Zen: which generation this is,
 * that the kernel's perf counts it (pmutop programs Intel's registers only),
 * and, on a virtual machine whose hypervisor exposes no PMU, what pmutop
 * would show with one and how to enable it.  The OS figures stay.
 */
#include "app.h"
#include "cpumodel.h"
#include "doctor_int.h"
#include "session.h"

#include <stdio.h>
#include <string.h>

/* What pmutop counts on the platform of ROW, in a line (the platform says; NULL: unknown). */
static const char *doctor_amd_shows(const struct cpumodel *row)
{
	return row && row->p->counts ? row->p->counts
	       : "the core counters the kernel's perf describes for this generation";
}

void doctor_amd_cpu(struct doctor_ctx *c, struct doctor_line *l)
{
	const struct cpumodel *row = cpumodel_of(&c->info);
	char gen[160], plat[64];

	probe_perf(c->in->root, &c->perf);
	if (row)
		snprintf(gen, sizeof(gen), "%s, %s", row->p->name, row->name);
	else if (c->info.uarch != CPUID_UARCH_UNKNOWN)
		snprintf(gen, sizeof(gen), "%s", c->info.uarch_name);
	else if (session_vendor_platform(c->in->perfmon_dir, &c->info, plat, sizeof(plat)) == 0)
		/* a model of a generation AMD's data maps (models.csv), not yet a row of the table */
		snprintf(gen, sizeof(gen), "%s by AMD's data, a model pmutop's CPU table does not "
			 "name", plat);
	else {
		char span[100];

		cpumodel_vendor_span(CPUID_VENDOR_AMD, span, sizeof(span));
		snprintf(gen, sizeof(gen), "a generation AMD's data in pmutop does not cover (%s)", span);
	}
	if (!c->perf.cpu_pmu && c->info.hypervisor) {
		l->state = DOCTOR_FAIL;
		snprintf(l->found, sizeof(l->found), "%s (%s; family %Xh model %02Xh): a virtual "
			 "machine whose hypervisor exposes no PMU (the kernel has no cpu PMU): pmutop "
			 "shows the OS's figures. With a PMU it would show %s", c->info.brand, gen,
			 c->info.family, c->info.model, doctor_amd_shows(row));
		snprintf(l->fix, sizeof(l->fix), "enable the guest PMU: QEMU/KVM -cpu host,pmu=on "
			 "(libvirt <pmu state='on'/>; the host's kvm module with enable_pmu=1), VMware "
			 "'virtualize CPU performance counters', a cloud size that exposes the PMU "
			 "(often bare metal); meanwhile pmutop --sim %s",
			 row && row->p->sim ? row->p->sim : "genoa");
		return;
	}
	c->have_cpu = true;
	snprintf(l->found, sizeof(l->found), "%s (%s; family %Xh model %02Xh), %u core counters of "
		 "%u bits: counted through the kernel's perf (pmutop programs Intel's registers "
		 "only): %s", c->info.brand, gen, c->info.family, c->info.model, c->info.gp_counters,
		 c->info.gp_width, doctor_amd_shows(row));
	if (!c->perf.cpu_pmu) {
		l->state = DOCTOR_WARN;
		snprintf(l->fix, sizeof(l->fix), "the kernel has no cpu PMU: a kernel with perf "
			 "support for this CPU (the perf PMUs line)");
	}
}
