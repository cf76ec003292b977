/*
 * perfmon_header: the header of a layout made from the vendor's data (its
 * source and licence, the machine it is made for, the vendor and offcore
 * lines, the metrics every layout has); see perfmon_layout.h.
 */
#include "perfmon_layout.h"
#include "perfmon_plan.h"
#include "layout_build.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

void perfmon_layout_header(struct layout_build *b, const struct perfmon *p,
			   const struct perfmon_layout_config *c, bool amd, unsigned ocr[2])
{
	char lname[64], text[400];

	perfmon_layout_name(p->platform, lname, sizeof(lname));
	for (char *s = lname; *s; s++)
		*s = *s == '-' || *s == ' ' ? '_' : (char)tolower((unsigned char)*s);
	if (amd)
		layout_build_comment(b, "Made by pmutop from AMD's events and metrics of the Linux "
				     "kernel's perf tool (%s, GPL-2.0,\ndata/amd/LICENSE), %s,", p->path,
				     p->commit ? p->commit : "unknown");
	else
		layout_build_comment(b, "Made by pmutop from Intel's perfmon data (%s, BSD-3-Clause, "
				     "data/intel/LICENSE), commit %s,", p->path,
				     p->commit ? p->commit : "unknown");
	if (p->metrics_path)
		layout_build_comment(b, "Its metrics: its cores', Intel's in the Linux kernel's perf "
				     "tool (%s, GPL-2.0,\ndata/atom/LICENSE), %s.", p->metrics_path,
				     p->metrics_commit ? p->metrics_commit : "unknown");
	if (c->atom)
		layout_build_comment(b, "The E-cores' metrics: Intel's, in the Linux kernel's perf "
				     "tool (%s, GPL-2.0,\ndata/atom/LICENSE), %s; %d general-purpose "
				     "counters on an E-core.", c->atom->path,
				     c->atom->commit ? c->atom->commit : "unknown", c->atom_gp_counters);
	layout_build_comment(b, "for %d general-purpose counters per thread, SMT %s, %d threads "
			     "per core, %d socket(s), %d cores per socket, %d CPUs.", c->gp_counters,
			     c->ht_on ? "on" : "off", c->threads_per_core, c->sockets,
			     c->cores_per_socket, c->cpus);
	snprintf(text, sizeof(text), "%s_%s", amd ? "amd" : "intel", lname);
	layout_build_name(b, text);
	snprintf(text, sizeof(text), "%s: %s events and metrics (%s)", p->platform,
		 amd ? "AMD's" : "Intel's", p->info ? p->info : "perfmon data");
	layout_build_description(b, text);
	layout_build_vendor(b, amd);
	if (amd) {
		/* AMD's events read no offcore response registers */
	} else if (!perfmon_plan_offcore_events(p, ocr)) {
		layout_build_comment(b, "the events that read the offcore response registers 1A6H "
				     "and 1A7H");
		layout_build_offcore(b, ocr);
	} else {
		layout_build_comment(b, "no event of this platform's data reads the offcore response "
				     "registers");
		layout_build_offcore(b, NULL);
	}
	layout_build_blank(b);
	layout_build_metric(b, "util", LAYOUT_THREAD, "%", "100 * ref_cycles / tsc");
	layout_build_help(b, "Share of the time the thread was not halted (unhalted reference "
			  "cycles / TSC)");
	layout_build_thresholds(b, 50, 90);
	layout_build_metric(b, "ghz", LAYOUT_THREAD, "GHz", "cycles / ref_cycles * tsc_hz / 1e9");
	layout_build_help(b, "Effective clock while not halted (core cycles / reference cycles x "
			  "TSC rate)");
	layout_build_metric(b, "ipc", LAYOUT_THREAD, "ratio", "instructions / cycles");
	layout_build_help(b, "Instructions retired per unhalted core cycle");
}

/* The general-purpose counters the events of P may name: the highest listed, plus one. */
int perfmon_layout_counters(const struct perfmon *p)
{
	int most = 0;

	for (int v = 0; v < p->nevents; v++) {
		const char *c = p->events[v].counter;

		while (c && isdigit((unsigned char)*c)) {
			char *end;
			long n = strtol(c, &end, 10);

			most = n + 1 > most ? (int)n + 1 : most;
			c = *end == ',' ? end + 1 : NULL;
		}
	}
	return most;
}
