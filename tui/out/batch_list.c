/*
 * batch_list: --list-events, every event of a layout as pmutop programs it:
 * the select register's value and counters (--source msr), or as perf stat
 * -e takes it through the kernel's PMUs (--source perf; a box only the
 * kernel reaches, always).  Main thread.
 */
#include "batch.h"
#include "counter.h"
#include "cpulist.h"
#include "pmu_regs.h"
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Event EV of group GRP as perf stat -e takes it: through the kernel's PMUs
 * (K: its own names and format fields), else from the layout's fields.
 */
/* The mark on an event the emulated machine does not model. */
#define BATCH_UNMODELLED "  (SIMULATED: not modelled, counts 0)"

static void batch_list_perf_event(struct source_terms *k, const struct layout_group *grp,
				  const struct layout_event *ev, char *text, size_t len)
{
	if (!session_kernel_event(k, ev, grp->coretype, text, len))
		return;
	counter_perf_event(ev, text, len);
	/* a hybrid: the kind's own PMU, cpu_core or cpu_atom */
	if (grp->coretype && !strncmp(text, "cpu/", 4)) {
		char rest[160];

		snprintf(rest, sizeof(rest), "%s", text + 3);
		snprintf(text, len, "cpu_%s%s", layout_coretype_names[grp->coretype], rest);
	}
}

/* --list-events --source perf: each event as perf stat -e names it through the kernel's PMUs. */
static void batch_list_perf(const struct layout *l, struct source_terms *k, const bool *unmodelled,
			    FILE *out)
{
	fprintf(out, "# layout %s (%s): %s\n", l->name, l->file, l->description ? l->description : "");
	fprintf(out, "# as pmutop --source perf opens them: %s (perf stat -e takes each as written; "
		"a PMU name without its box number: every box of the kind, summed)\n", k
		? "the kernel's PMUs by their names and format fields" : "from the layout's fields "
		"(no kernel PMU descriptions here)");
	if (layout_topdown_fields(l))
		fprintf(out, "# with the fixed counters: {slots,topdown-retiring,topdown-bad-spec,"
			"topdown-fe-bound,topdown-be-bound%s} (the kernel's top-down group)\n",
			layout_topdown_fields(l) > 4 ? ",topdown-heavy-ops,topdown-br-mispredict,"
			"topdown-fetch-lat,topdown-mem-bound" : "");
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];

		fprintf(out, "\ngroup %s (key %c, %s): %s\n", grp->name, grp->key ? grp->key : '-',
			grp->default_on ? "on by default" : "off by default",
			grp->title ? grp->title : "");
		for (int i = 0; i < grp->nevents; i++) {
			const struct layout_event *ev = &l->events[grp->first_event + i];
			char text[200];

			batch_list_perf_event(k, grp, ev, text, sizeof(text));
			fprintf(out, "  %-20s %s%s\n", ev->name, text,
				unmodelled && unmodelled[grp->first_event + i] ? BATCH_UNMODELLED : "");
		}
	}
}

/* An emulated machine: how many of the core events it models, and the names of those it does not. */
static void batch_list_unmodelled(const struct layout *l, const bool *unmodelled, int core, FILE *out)
{
	int n = 0;

	for (int k = 0; k < l->nevents; k++)
		n += unmodelled[k];
	fprintf(out, "\n# SIMULATED: the emulated machine models %d of the layout's %d core events%s",
		core - n, core, n ? "; these count 0:" : "\n");
	for (int k = 0, shown = 0; k < l->nevents && n; k++) {
		bool again = false;

		for (int j = 0; j < k && unmodelled[k]; j++)
			again |= unmodelled[j] && !strcmp(l->events[j].name, l->events[k].name);
		if (unmodelled[k] && !again)
			fprintf(out, "%s %s", shown++ ? "," : "", l->events[k].name);
	}
	if (n)
		fputc('\n', out);
}

void batch_list_events(const struct layout *l, unsigned gp_counters, unsigned perfmon_version,
		       bool user, bool kernel, bool perf, struct source_terms *kern,
		       const bool *unmodelled, int core_events, FILE *out)
{
	if (perf) {
		batch_list_perf(l, kern, unmodelled, out);
		if (unmodelled)
			batch_list_unmodelled(l, unmodelled, core_events, out);
		return;
	}
	bool eq = false; /* a column for version 6's EQ only where an event sets it */

	for (int k = 0; k < l->nevents; k++)
		eq |= l->events[k].eq;
	fprintf(out, "# layout %s (%s): %s\n", l->name, l->file, l->description ? l->description : "");
	if (!perfmon_version) {
		/* AMD (no architectural perfmon): PERF_CTL, its event's high bits at 35:32, no fixed */
		fprintf(out, "# PERF_CTL = event[7:0] | umask<<8 | %s%sEN | event[11:8]<<32; INT is "
			"never set\n", user ? "USR | " : "", kernel ? "OS | " : "");
		fprintf(out, "# no fixed counters: instructions and cycles are the kernel's generic "
			"events (pmutop counts AMD's PMU through perf: --source perf lists its "
			"terms)\n");
	} else {
		fprintf(out, "# PERFEVTSEL = event | umask<<8 | %s%sEN; INT is never set\n",
			user ? "USR | " : "", kernel ? "OS | " : "");
		fprintf(out, "# fixed counters: 0 INST_RETIRED.ANY, 1 CPU_CLK_UNHALTED.THREAD, "
			"2 CPU_CLK_UNHALTED.REF; IA32_FIXED_CTR_CTRL field per counter = %s%s\n",
			user ? "USR(2)" : "", kernel ? (user ? "|OS(1)" : "OS(1)") : "");
	}
	if (layout_topdown_fields(l))
		fprintf(out, "# and 3 TOPDOWN.SLOTS with MSR_PERF_METRICS (0x%X, %u fields; "
			"IA32_PERF_GLOBAL_CTRL bit 48): both cleared after each read\n",
			MSR_PERF_METRICS, layout_topdown_fields(l));
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];

		fprintf(out, "\ngroup %s (key %c, %s): %s\n", grp->name, grp->key ? grp->key : '-',
			grp->default_on ? "on by default" : "off by default",
			grp->title ? grp->title : "");
		fprintf(out, "  %-20s %5s %5s %5s %3s %4s %3s%s %10s %13s  %-9s %s\n", "event",
			"code", "umask", "cmask", "inv", "edge", "any", eq ? " eq" : "",
			perfmon_version ? "PERFEVTSEL" : "PERF_CTL",
			"extra MSR", "counters", "name");
		for (int i = 0; i < grp->nevents; i++) {
			const struct layout_event *ev = &l->events[grp->first_event + i];
			uint64_t sel = counter_evtsel(ev, perfmon_version, user, kernel);
			int ctr[32], n = 0; /* one per bit of the counters mask */
			char offc[32] = "-", *ctrs;

			for (unsigned k = 0; k < gp_counters && k < 32; k++)
				if (ev->counters & (1u << k))
					ctr[n++] = (int)k;
			ctrs = cpulist_format(ctr, n);
			if (ev->has_offcore)
				snprintf(offc, sizeof(offc), "%03XH=0x%llX", ev->offcore_msr,
					 (unsigned long long)ev->offcore);
			else if (ev->has_frontend)
				snprintf(offc, sizeof(offc), "%03XH=0x%X", MSR_PEBS_FRONTEND,
					 ev->frontend);
			if (layout_pmu_kinds[ev->pmu].kernel_only) {
				/* a box only the kernel programs: no register of pmutop's, perf's term */
				char text[200];

				batch_list_perf_event(kern, grp, ev, text, sizeof(text));
				fprintf(out, "  %-20s  0x%02X  0x%02llX %5u %3d %4d %3d%s %10s %13s  %-9s "
					"%s\n", ev->name, ev->event, (unsigned long long)ev->umask,
					ev->cmask, ev->inv, ev->edge, ev->any,
					!eq ? "" : ev->eq ? "  1" : "  0", "-", "-", "kernel", text);
				free(ctrs);
				continue;
			}
			fprintf(out, "  %-20s  0x%02X  0x%02llX %5u %3d %4d %3d%s %10llX %13s  PMC%-6s "
				"%s%s\n", ev->name, ev->event, (unsigned long long)ev->umask, ev->cmask,
				ev->inv, ev->edge, ev->any, !eq ? "" : ev->eq ? "  1" : "  0",
				(unsigned long long)sel, offc, ctrs,
				ev->canonical ? ev->canonical : ev->spec,
				unmodelled && unmodelled[grp->first_event + i] ? BATCH_UNMODELLED : "");
			free(ctrs);
		}
	}
	if (unmodelled)
		batch_list_unmodelled(l, unmodelled, core_events, out);
}
