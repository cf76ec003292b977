/*
 * source: opening the emulator or the device files behind one interface.
 */
#include "source.h"
#include "paths.h"
#include "pmu_regs.h"
#include "topo_text.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct msr_dev *source_open_dev(struct source *s, const char *root, char *err,
				       size_t errlen, int *rc)
{
	const struct topo *t = s->topo;
	int *cpus = xcalloc((size_t)t->nonline + 1, sizeof(int));
	int *sock = xcalloc((size_t)t->cpu_thread_len + 1, sizeof(int));
	struct msr_dev *d = NULL;
	int n = 0;

	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].online) {
			cpus[n++] = t->threads[i].os_cpu;
			sock[t->threads[i].os_cpu] = t->threads[i].socket;
		}
	*rc = 0;
	if (s->emu)
		d = msr_open_ops(&emu_msr_ops, s->emu, cpus, n, &s->allow);
	else
		*rc = msr_open_files(root ? root : "/", cpus, n, &s->allow, &d, err, errlen);
	if (d)
		msr_set_sockets(d, sock, t->cpu_thread_len);
	free(cpus);
	free(sock);
	return d;
}

static int source_open_any(const char *sim, struct emu *emu, const char *root,
			   struct source **out, char *err, size_t errlen)
{
	struct source *s = xcalloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	s->emu = emu;
	if (sim && !emu) {
		rc = emu_create(sim, paths_scenario_dir(NULL), &s->emu, err, errlen);
		if (rc)
			goto fail;
	}
	if (s->emu) {
		s->topo = emu_topo(s->emu);
		rc = cpuid_identify(emu_cpuid_leaf, s->emu, &s->info, err, errlen);
		if (rc)
			goto fail;
		s->dram_mts = emu_machine(s->emu)->dram_mts;
		s->simulated = true;
		snprintf(s->name, sizeof(s->name), "SIMULATED %s:%s", emu_machine(s->emu)->name,
			 emu_scenario(s->emu)->name);
		msr_allow_build(&s->info, emu_machine(s->emu)->cbo, &s->allow);
	} else {
		rc = cpuid_identify_root(root, &s->info, err, errlen);
		if (rc)
			goto fail;
		rc = topo_load_root(root, &s->own_topo, err, errlen);
		if (rc)
			goto fail;
		s->topo = s->own_topo;
		/* every CBo slice a Skylake client part can have */
		msr_allow_build(&s->info, SKL_UNC_MAX_CBO, &s->allow);
	}
	/* the same for a real and an emulated CPU: what its model's row says */
	s->model = cpumodel_find(s->info.family, s->info.model);
	if (s->model) {
		s->uncore = s->model->uncore;
		s->channels = s->model->channels;
	}
	s->dev = source_open_dev(s, root, err, errlen, &rc);
	if (!s->dev)
		goto fail;
	if (s->uncore == CPUMODEL_UNCORE_SKL && (s->emu ? mmio_open_ops(&emu_mmio_ops, s->emu,
								      "the emulated host bridge", &s->mmio,
								      s->mmio_why, sizeof(s->mmio_why))
					       : mmio_open_files(root, &s->mmio, s->mmio_why,
								 sizeof(s->mmio_why))))
		s->mmio = NULL; /* IMC groups are blocked with mmio_why; the rest works */
	if (!s->emu)
		snprintf(s->name, sizeof(s->name), "%s",
			 msr_dev_kind(s->dev) == MSR_KIND_MSR_SAFE ? "msr_safe" : "msr");
	*out = s;
	return 0;
fail:
	source_close(s);
	return rc ? rc : -EIO;
}

int source_open(const char *sim, const char *root, struct source **out, char *err, size_t errlen)
{
	return source_open_any(sim, NULL, root, out, err, errlen);
}

int source_open_emu(struct emu *emu, struct source **out, char *err, size_t errlen)
{
	return source_open_any(NULL, emu, NULL, out, err, errlen);
}

void source_close(struct source *s)
{
	if (!s)
		return;
	if (s->dev)
		msr_close(s->dev);
	mmio_close(s->mmio);
	topo_free(s->own_topo);
	emu_free(s->emu);
	free(s);
}

int source_identify(const char *sim, const char *root, struct cpuid_info *info, char *err,
		    size_t errlen)
{
	struct emu *e;
	int rc;

	if (!sim)
		return cpuid_identify_root(root, info, err, errlen);
	rc = emu_create(sim, paths_scenario_dir(NULL), &e, err, errlen);
	if (rc)
		return rc;
	rc = cpuid_identify(emu_cpuid_leaf, e, info, err, errlen);
	emu_free(e);
	return rc;
}

int source_print_msr_safe_allowlist(const char *sim, const char *root, FILE *out, char *err,
				    size_t errlen)
{
	struct cpuid_info info;
	struct msr_allowlist allow;
	int rc = source_identify(sim, root, &info, err, errlen);

	if (rc)
		return rc;
	msr_allow_build(&info, SKL_UNC_MAX_CBO, &allow);
	fprintf(out, "# %s (%s, family %u model 0x%02X)\n", info.brand, info.uarch_name,
		info.family, info.model);
	msr_allow_print_msr_safe(&allow, out);
	return 0;
}

int source_print_sim_topology(const char *sim, FILE *out, int width, char *err, size_t errlen)
{
	struct emu *e;
	int rc = emu_create(sim, paths_scenario_dir(NULL), &e, err, errlen);

	if (rc)
		return rc;
	fprintf(out, "SIMULATED machine %s: %s\n", emu_machine(e)->name, emu_machine(e)->description);
	topo_text_print(emu_topo(e), out, width);
	emu_free(e);
	return 0;
}
