/*
 * machine: the machine a run looks at, real or emulated (machine.h).
 */
#include "machine.h"
#include "emu.h"
#include "emu_perf.h"
#include "paths.h"
#include "source_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct machine {
	char *root;        /* NULL: this machine */
	char *sim;         /* the emulated machine's spec, NULL a real one */
	bool stepped;
	char label[160];   /* "SIMULATED name:scenario", "" */
	const char *as;    /* "name:scenario" within it */
	char name[64];     /* the emulated machine's name, "" */
};

int machine_open(const char *root, const char *sim, bool stepped, struct machine **out,
		 char *err, size_t errlen)
{
	struct machine *m = xcalloc(1, sizeof(*m));

	*out = NULL;
	m->root = root ? xstrdup(root) : NULL;
	if (sim) {
		struct emu *e;
		int rc = emu_create(sim, paths_scenario_dir(NULL), &e, err, errlen);

		if (rc) {
			machine_free(m);
			return rc;
		}
		m->sim = xstrdup(sim);
		m->stepped = stepped;
		snprintf(m->label, sizeof(m->label), "SIMULATED %s:%s", emu_machine(e)->name,
			 emu_scenario(e)->name);
		snprintf(m->name, sizeof(m->name), "%s", emu_machine(e)->name);
		m->as = m->label + strlen("SIMULATED ");
		emu_free(e);
	}
	*out = m;
	return 0;
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	free(m->root);
	free(m->sim);
	free(m);
}

const char *machine_root(const struct machine *m)
{
	return m && !m->sim ? m->root : NULL;
}

bool machine_simulated(const struct machine *m)
{
	return m && m->sim;
}

const char *machine_emulated_as(const struct machine *m)
{
	return m && m->sim ? m->as : NULL;
}

const char *machine_name(const struct machine *m)
{
	return m && m->sim ? m->name : NULL;
}

bool machine_stepped(const struct machine *m)
{
	return m && m->sim && m->stepped;
}

struct emu *machine_emu(const struct machine *m, char *err, size_t errlen)
{
	struct emu *e = NULL;

	if (!machine_simulated(m))
		return NULL;
	if (emu_create(m->sim, paths_scenario_dir(NULL), &e, err, errlen))
		return NULL;
	/*
	 * A stepped machine's time starts at 0 before the first register is
	 * read, so a stepped run meets the scenario's phases and noise at the
	 * same times on every run, however long the start took.
	 */
	if (m->stepped)
		emu_set_clock(e, EMU_CLOCK_MANUAL);
	return e;
}

int machine_kernel_open(const struct machine *m, struct machine_kernel *k, char *err,
			size_t errlen)
{
	int rc;

	*k = (struct machine_kernel){ .root = machine_root(m) };
	if (!machine_simulated(m))
		return 0;
	rc = source_open_perf(m, false, &k->src, err, errlen);
	if (rc)
		return rc;
	k->sys = k->src->kern.sys;
	k->described_as = k->src->kern.emu ? emu_perf_source(k->src->kern.emu) : NULL;
	return 0;
}

void machine_kernel_close(struct machine_kernel *k)
{
	source_close(k->src);
	k->src = NULL;
}
