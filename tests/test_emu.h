/*
 * test_emu: an emulated machine by its --sim spec, for the tests that open
 * a register source over it themselves (source_open_emu).
 */
#ifndef PMUTOP_TEST_EMU_H
#define PMUTOP_TEST_EMU_H

#include <stdio.h>

#include "emu.h"
#include "paths.h"

/* The emulated machine SPEC (its shipped scenario); NULL on a bad SPEC, said on stderr. */
static inline struct emu *test_emu(const char *spec)
{
	struct emu *e = NULL;
	char err[300];

	if (emu_create(spec, paths_scenario_dir(NULL), &e, err, sizeof(err)))
		fprintf(stderr, "%s\n", err);
	return e;
}

#endif
