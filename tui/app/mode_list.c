/*
 * mode_list: --list-events prints every event of the layout for this CPU
 * (or --cpu FAMILY_MODEL, or --layout FILE) with the exact register values
 * written, or as perf names them with --source perf.
 */
#include "app.h"
#include "batch.h"
#include "cpumodel.h"
#include "paths.h"
#include "perfmon_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mode_list_events(const struct options *opt)
{
	struct cpuid_info info;
	struct layout *l;
	char err[512];
	int rc;

	if (opt->has_model) {
		/* with hyper-threading, what every model a layout covers has */
		cpuid_assume(opt->family, opt->model, opt->stepping, &info);
		cpumodel_classify(&info);
	} else if ((rc = session_identify(opt->machine, &info, err, sizeof(err)))) {
		fprintf(stderr, "pmutop: %s\n", err);
		return session_machine_simulated(opt->machine) ? OPTIONS_EXIT_USAGE : EXIT_FAILURE;
	}
	{
		/* Intel's data where it covers the CPU: as on a machine with hyper-threading on */
		struct perfmon_layout_config mc = {
			.gp_counters = (int)info.gp_counters, .ht_on = true, .threads_per_core = 2,
			.sockets = 1, .cores_per_socket = 1, .cpus = 2,
			.slots = info.fixed_counters >= 4,
			/* a hybrid CPU: its E-cores' groups too (each kind's own events) */
			.e_cores = info.hybrid,
		};
		char notice[1024] = "";

		rc = opt->layout ? layout_load(opt->layout, &l, err, sizeof(err))
		     : !session_vendor_layout_for(paths_perfmon_dir(NULL), &info, &mc, &l, notice,
						  sizeof(notice)) ? 0
		     : layout_find(paths_layout_dir(NULL), &info, &l, err, sizeof(err));
		if (notice[0])
			fprintf(stderr, "pmutop: %s", notice);
	}
	if (rc) {
		fprintf(stderr, "pmutop: %s\n", err);
		return OPTIONS_EXIT_USAGE;
	}
	{
		/* the machine's kernel's PMU descriptions for perf's terms */
		struct source_terms *k = opt->has_model ? NULL : session_kernel_open(opt->machine);
		/* AMD's PMU is counted through the kernel only: its listing is perf's */
		bool perf = opt->source ? session_source_kernel(opt->source)
				  : info.vendor_id == CPUID_VENDOR_AMD;

		bool *unmodelled = NULL;
		int core_events = 0;

		/* the machine's (not --cpu's): the events it does not model are marked (an emulated one's) */
		if (!opt->has_model &&
		    session_unmodelled(opt->machine, l, &unmodelled, &core_events, err, sizeof(err)))
			fprintf(stderr, "pmutop: %s\n", err);
		batch_list_events(l, info.gp_counters, info.perfmon_version, !opt->kernel_only,
				  !opt->user_only, perf, k, unmodelled, core_events, stdout);
		free(unmodelled);
		session_kernel_close(k);
	}
	layout_free(l);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
