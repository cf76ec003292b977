/*
 * sim_samples: N samples of an emulated machine on its stepped clock (the
 * same figures every run), for the tests of what front ends make of them.
 */
#ifndef PMUTOP_SIM_SAMPLES_H
#define PMUTOP_SIM_SAMPLES_H

#include <stdlib.h>

#include "check_main.h"
#include "frontend.h"

/* Open SIM counting GROUPS every INTERVAL seconds into *S and take N samples into SMP. */
static inline void sim_samples(const char *sim, const char *groups, double interval,
			       struct session **s, const struct sample **smp, int n)
{
	struct session_config cfg = { .layout_dir = LAYOUT_SRCDIR, .groups = groups,
				      .interval = interval, .stepped = true };
	struct machine *m;
	char err[1024];
	int got = 0;

	setenv("PMUTOP_SCENARIO_DIR", SCENARIO_SRCDIR, 1);
	ck_assert_msg(session_machine_open(NULL, sim, true, &m, err, sizeof(err)) == 0, "%s", err);
	cfg.machine = m;
	ck_assert_msg(session_open(&cfg, s, err, sizeof(err)) == 0, "%s", err);
	/* the session holds what it needs of the machine */
	session_machine_free(m);
	while (got < n)
		if (session_step(*s) == 1)
			smp[got++] = session_latest(*s);
}

#endif
