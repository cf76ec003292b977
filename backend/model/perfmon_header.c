/*
 * perfmon_header: the header of a layout made from the vendor's data (its
 * source and licence, the machine it is made for, the vendor and offcore
 * lines, the metrics every layout has); see perfmon_layout.h.
 */
#include "perfmon_layout.h"
#include "perfmon_plan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

void perfmon_layout_header(FILE *f, const struct perfmon *p, const struct perfmon_layout_config *c,
			   bool amd, unsigned ocr[2])
{
	char lname[64];

	perfmon_layout_name(p->platform, lname, sizeof(lname));
	for (char *s = lname; *s; s++)
		*s = *s == '-' || *s == ' ' ? '_' : (char)tolower((unsigned char)*s);
	if (amd)
		fprintf(f, "pmutop-layout 1\n# Made by pmutop from AMD's events and metrics of the "
			"Linux kernel's perf tool (%s, GPL-2.0,\n# data/amd/LICENSE), %s,", p->path,
			p->commit ? p->commit : "unknown");
	else
		fprintf(f, "pmutop-layout 1\n# Made by pmutop from Intel's perfmon data (%s, "
			"BSD-3-Clause, data/intel/LICENSE), commit %s,", p->path,
			p->commit ? p->commit : "unknown");
	if (p->metrics_path)
		fprintf(f, "\n# Its metrics: its cores', Intel's in the Linux kernel's perf tool (%s, "
			"GPL-2.0,\n# data/atom/LICENSE), %s.", p->metrics_path,
			p->metrics_commit ? p->metrics_commit : "unknown");
	if (c->atom)
		fprintf(f, "\n# The E-cores' metrics: Intel's, in the Linux kernel's perf tool (%s, GPL-2.0,"
			"\n# data/atom/LICENSE), %s; %d general-purpose counters on an E-core.",
			c->atom->path, c->atom->commit ? c->atom->commit : "unknown",
			c->atom_gp_counters);
	fprintf(f, "\n# for %d general-purpose counters per thread, SMT %s, "
		"%d threads per core, %d socket(s), %d cores per socket, %d CPUs.\n",
		c->gp_counters, c->ht_on ? "on" : "off",
		c->threads_per_core, c->sockets, c->cores_per_socket, c->cpus);
	fprintf(f, "layout %s_%s\ndescription ", amd ? "amd" : "intel", lname);
	{
		char d[400];

		snprintf(d, sizeof(d), "%s: %s events and metrics (%s)", p->platform,
			 amd ? "AMD's" : "Intel's", p->info ? p->info : "perfmon data");
		perfmon_layout_quoted(f, d);
	}
	if (amd)
		fprintf(f, "\nvendor amd\n\n");
	else if (!perfmon_plan_offcore_events(p, ocr))
		fprintf(f, "\nvendor intel\n"
			"# the events that read the offcore response registers 1A6H and 1A7H\n"
			"offcore 0x%02X 0x%02X\n\n", ocr[0], ocr[1]);
	else
		fprintf(f, "\nvendor intel\n"
			"# no event of this platform's data reads the offcore response registers\n"
			"offcore none\n\n");
	fprintf(f,
		"metric util thread %% = 100 * ref_cycles / tsc\n"
		"help \"Share of the time the thread was not halted (unhalted reference cycles / TSC)\"\n"
		"thresholds warn 50 crit 90\n"
		"metric ghz thread GHz = cycles / ref_cycles * tsc_hz / 1e9\n"
		"help \"Effective clock while not halted (core cycles / reference cycles x TSC rate)\"\n"
		"metric ipc thread ratio = instructions / cycles\n"
		"help \"Instructions retired per unhalted core cycle\"\n");
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
