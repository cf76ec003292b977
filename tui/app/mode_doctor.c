/*
 * mode_doctor: --doctor prints the setup checks (doctor.h), one line each
 * with the command that fixes it; the same text is the d key's.  Without a
 * run it reads who uses the counters, programming nothing.
 */
#include "app.h"
#include "doctor.h"
#include "paths.h"

#include <stdio.h>
#include <stdlib.h>

int app_doctor_text(const struct options *opt, const struct session *s, char *out, size_t len)
{
	struct doctor_input in = {
		.machine = opt->machine, .root = session_machine_root(opt->machine),
		.simulated = session_machine_simulated(opt->machine),
		.layout_dir = paths_layout_dir(NULL),
		.perfmon_dir = paths_perfmon_dir(NULL),
		.owners = s ? session_owners(s) : NULL,
	};
	struct session_about a;
	static char owners[700], why[512];

	if (s) {
		session_about(s, &a);
		in.ncpus = a.topo->nonline;
	} else if (!in.simulated) {
		/* --doctor: read who uses the counters (selects and enables), programming nothing */
		if (session_scan_owners(opt->machine, owners, sizeof(owners), why, sizeof(why)) == 0)
			in.owners = owners;
		else
			in.owners_why = why;
	}
	return doctor_run(&in, out, len);
}

int mode_doctor(const struct options *opt)
{
	char text[8192];
	int failed = app_doctor_text(opt, NULL, text, sizeof(text));

	fputs(text, stdout);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
