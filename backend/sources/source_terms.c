/*
 * source_terms: a layout event as perf stat -e takes it through the
 * kernel's PMUs (--list-events --source perf): the PMU's own name and its
 * own format fields (amd_umc's rdwrmask, a CHA's thresh), each value where
 * the kernel's format file places it, from the kernel's descriptions (this
 * machine's sysfs, a --root tree's, or an emulated kernel's).  See source.h;
 * the session asks it for the front ends (session_kernel_event).  Main thread.
 */
#include "source.h"
#include "perf.h"
#include "perf_pmu.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct source_terms {
	struct machine_kernel k;         /* sysfs under its root, or an emulated machine's own */
	struct perf_pmu pmu;             /* the last PMU described (a listing asks one after another) */
	char pmu_name[64];
};

struct source_terms *source_terms_open(const struct machine *m)
{
	struct source_terms *k = xcalloc(1, sizeof(*k));
	char err[300];

	if (machine_kernel_open(m, &k->k, err, sizeof(err))) {
		free(k);
		return NULL;
	}
	return k;
}

void source_terms_close(struct source_terms *k)
{
	if (!k)
		return;
	machine_kernel_close(&k->k);
	free(k);
}

/* K's description of PMU NAME (kept for the next ask), or NULL. */
static const struct perf_pmu *source_terms_pmu(struct source_terms *k, const char *name)
{
	char err[300];

	if (!strcmp(k->pmu_name, name))
		return &k->pmu;
	k->pmu_name[0] = 0;
	if (perf_sys_pmu(k->k.sys, k->k.root, name, &k->pmu, err, sizeof(err)))
		return NULL;
	snprintf(k->pmu_name, sizeof(k->pmu_name), "%s", name);
	return &k->pmu;
}

/* The bits of V under MASK, packed from the lowest (a format field's value). */
static uint64_t source_terms_field(uint64_t v, uint64_t mask)
{
	uint64_t out = 0;
	int n = 0;

	for (int b = 0; b < 64; b++)
		if (mask >> b & 1)
			out |= (v >> b & 1) << n++;
	return out;
}

int source_terms_event(struct source_terms *k, const struct layout_event *ev,
		       enum layout_coretype coretype, char *buf, size_t len)
{
	const struct layout_pmu_kind *pk = &layout_pmu_kinds[ev->pmu];
	char pmu[64], shown[64], err[300];
	const struct perf_pmu *p;
	struct perf_pmu_config cfg;
	size_t n, plen;
	int nums[8];

	/* free-running counters named by their registers (the seed IMC's): the layout's names */
	if (!k || (pk->free_running && !pk->aliases))
		return -ENOENT;
	/* the PMU: a hybrid kind's own, a box of its kind (perf sums a name's boxes), the one */
	plen = strlen(pk->kernel);
	if (ev->pmu == LAYOUT_PMU_CORE) {
		snprintf(pmu, sizeof(pmu), "%s", coretype == LAYOUT_CORES_E ? "cpu_atom"
			 : coretype == LAYOUT_CORES_P ? "cpu_core" : "cpu");
		if (!source_terms_pmu(k, pmu) && coretype == LAYOUT_CORES_ANY)
			snprintf(pmu, sizeof(pmu), "cpu_core");
		snprintf(shown, sizeof(shown), "%s", pmu);
	} else if (plen && pk->kernel[plen - 1] == '_') {
		int box = ev->channel >= 0 && pk->box_channels ? ev->channel
			  : ev->box >= 0 ? ev->box : -1;

		if (box < 0) {
			if (perf_sys_box_numbers(k->k.sys, k->k.root, pk->kernel, nums, 8) < 1)
				return -ENOENT;
			box = nums[0];
			/* every box of the kind: perf stat takes the name without its number */
			snprintf(shown, sizeof(shown), "%.*s", (int)plen - 1, pk->kernel);
		} else {
			snprintf(shown, sizeof(shown), "%s%d", pk->kernel, box);
		}
		snprintf(pmu, sizeof(pmu), "%s%d", pk->kernel, box);
	} else {
		snprintf(pmu, sizeof(pmu), "%s", pk->kernel);
		snprintf(shown, sizeof(shown), "%s", pk->kernel);
	}
	p = source_terms_pmu(k, pmu);
	if (!p)
		return -ENOENT;
	/* the kernel's named events (RAPL's energy, the free-running counters): by name */
	if (pk->aliases) {
		snprintf(buf, len, "%s/%s/", shown, ev->spec);
		return 0;
	}
	if (perf_pmu_encode(p, ev, &cfg, err, sizeof(err)))
		return -EINVAL;
	n = (size_t)snprintf(buf, len, "%s/", shown);
	for (int f = 0, first = 1; f < p->nfields && n < len; f++) {
		const struct perf_pmu_field *pf = &p->fields[f];
		uint64_t v = source_terms_field(cfg.config[pf->word], pf->mask);

		/* config1's fields overlap (offcore_rsp, ldlat, frontend): the one the event sets */
		if (!v || (pf->word == 1 && strcmp(pf->name, ev->has_offcore ? "offcore_rsp"
						   : ev->has_frontend ? "frontend" : "")))
			continue;
		/* as perf writes them: a flag bare, a threshold in decimal, the rest in hex */
		if (!(pf->mask & (pf->mask - 1)))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",", pf->name);
		else if (!strcmp(pf->name, "cmask") || !strncmp(pf->name, "thresh", 6))
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%llu", first ? "" : ",",
					      pf->name, (unsigned long long)v);
		else
			n += (size_t)snprintf(buf + n, len - n, !strcmp(pf->name, "event") ||
					      !strcmp(pf->name, "umask") ? "%s%s=0x%02llx"
					      : "%s%s=0x%llx", first ? "" : ",", pf->name,
					      (unsigned long long)v);
		first = 0;
	}
	if (n < len)
		snprintf(buf + n, len - n, "/%s", cfg.ring == LAYOUT_RING_KERNEL ? "k"
			 : cfg.ring == LAYOUT_RING_USER ? "u" : "");
	return 0;
}
