/*
 * msr_rapl: RAPL's energy through the msr device, read only: the msr
 * source's per-socket transport (source_ops.h) on a CPU whose uncore only
 * the kernel reaches (CPUMODEL_UNCORE_RAPL): the layout's power groups
 * (`pmu power`, events named as the kernel's power PMU names them) read
 * from each socket's MSR_PKG_ENERGY_STATUS, MSR_DRAM_ENERGY_STATUS,
 * MSR_PP0_ENERGY_STATUS and MSR_PLATFORM_ENERGY_STATUS through one CPU of it, in the units of
 * MSR_RAPL_POWER_UNIT (the servers' DRAM in 15.3 uJ).  Nothing is written,
 * so nothing is saved or restored; a domain whose register cannot be read
 * blocks its group with the register named.  The 32-bit totals wrap after
 * 2^32 units (262 kJ at 61 uJ: 15 minutes at 300 W), so the engine reads
 * every RAPL_POLL_S whatever the interval.  Sampler thread.
 */
#include "msr.h"
#include "msr_source.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest a 32-bit energy total is left unread: 65.7 kJ at 15.3 uJ is 2 minutes at 500 W. */
#define RAPL_POLL_S 30.0
#define RAPL_DOMAINS 4

static const struct {
	const char *alias;     /* the kernel's name of the domain's event */
	uint32_t reg;
	const char *name;
} msr_rapl_domains[RAPL_DOMAINS] = {
	{ "energy-pkg", MSR_PKG_ENERGY_STATUS, "MSR_PKG_ENERGY_STATUS" },
	{ "energy-ram", MSR_DRAM_ENERGY_STATUS, "MSR_DRAM_ENERGY_STATUS" },
	{ "energy-cores", MSR_PP0_ENERGY_STATUS, "MSR_PP0_ENERGY_STATUS" },
	{ "energy-psys", MSR_PLATFORM_ENERGY_STATUS, "MSR_PLATFORM_ENERGY_STATUS" },
};

struct msr_rapl {
	struct src_uncore_env env;
	const struct layout *l;
	double unit[RAPL_DOMAINS];     /* joules a count */
	bool readable[RAPL_DOMAINS];   /* read on the first socket at start */
	int *domain;                   /* per layout event: its domain, -1 none */
	layout_groups live;
	uint32_t *prev;                /* [socket][domain] */
	char error[200];
};

static struct msr_rapl *msr_rapl_of(struct src_uncore *u)
{
	return (struct msr_rapl *)u;
}

bool msr_rapl_server_dram(const struct cpuid_info *info)
{
	static const unsigned models[] = { 0x3F, 0x4F, 0x56, 0x55, 0x57, 0x85, 0x6A, 0x6C, 0x8F,
					   0xCF, 0xAD, 0xAE, 0xAF };

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (info->family == 6 && info->model == models[i])
			return true;
	return false;
}

static void msr_rapl_read_socket(struct msr_rapl *r, struct src_socket *s, bool baseline)
{
	const struct uncore_config *cfg = r->env.cfg;
	double t = cfg->clock(cfg->clock_ctx), secs = t - s->t_last;
	double joules[RAPL_DOMAINS] = { 0 };
	bool ok[RAPL_DOMAINS] = { false };

	for (int d = 0; d < RAPL_DOMAINS; d++) {
		uint32_t *prev = &r->prev[s->index * RAPL_DOMAINS + d];
		uint64_t v;

		if (!r->readable[d])
			continue;
		if (msr_read(msr_source_cfg(cfg->source_cfg)->dev, s->reader, msr_rapl_domains[d].reg, &v)) {
			s->failed = true;
			snprintf(r->error, sizeof(r->error), "socket %d: %s (0x%X) could not be read "
				 "through CPU %d", s->index, msr_rapl_domains[d].name,
				 msr_rapl_domains[d].reg, s->reader);
			continue;
		}
		/* the total wraps at 32 bits: the difference modulo 2^32 */
		joules[d] = (double)(uint32_t)((uint32_t)v - *prev) * r->unit[d];
		ok[d] = true;
		*prev = (uint32_t)v;
	}
	if (!baseline)
		for (int k = 0; k < r->l->nevents; k++) {
			int d = r->domain[k];

			if (d < 0 || !ok[d] || !(r->live & LAYOUT_GROUP(r->l->events[k].group)))
				continue;
			s->ev[k].acc += joules[d];
			s->ev[k].live += secs;
			s->moved[k] |= joules[d] > 0;
		}
	s->t_last = t;
}

static void msr_rapl_plan(struct src_uncore *su, layout_groups groups, long core_files,
			  char (*blocked)[SAMPLE_WHY_MAX], struct src_uplan *out)
{
	struct msr_rapl *r = msr_rapl_of(su);
	const struct layout *l = r->l;

	(void)core_files;
	r->live = 0;
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];

		if (!(groups & LAYOUT_GROUP(g)) || blocked[g][0] || grp->pmu != LAYOUT_PMU_POWER)
			continue;
		for (int i = 0; i < grp->nevents && !blocked[g][0]; i++) {
			const struct layout_event *ev = &l->events[grp->first_event + i];
			int d = r->domain[grp->first_event + i];

			if (d < 0)
				snprintf(blocked[g], SAMPLE_WHY_MAX, "event %s: RAPL through the msr "
					 "device has energy-pkg, energy-ram, energy-cores and "
					 "energy-psys, not %s",
					 ev->name, ev->spec);
			else if (!r->readable[d])
				snprintf(blocked[g], SAMPLE_WHY_MAX, "this CPU has no %s (0x%X): its "
					 "%s domain is not measured here", msr_rapl_domains[d].name,
					 msr_rapl_domains[d].reg, msr_rapl_domains[d].alias + 7);
		}
		if (!blocked[g][0])
			r->live |= LAYOUT_GROUP(g);
	}
	*out = (struct src_uplan){ .live = r->live, .poll_s = r->live ? RAPL_POLL_S : INFINITY };
}

static void msr_rapl_baseline(struct src_uncore *su, struct src_socket *s)
{
	msr_rapl_read_socket(msr_rapl_of(su), s, true);
}

static void msr_rapl_read(struct src_uncore *su, struct src_socket *s, bool final)
{
	(void)final; /* every poll too: no wrap lost */
	msr_rapl_read_socket(msr_rapl_of(su), s, false);
}

static void msr_rapl_restart(struct src_uncore *su, struct src_socket *s)
{
	src_socket_restart(s, msr_rapl_of(su)->l->nevents);
}

static const char *msr_rapl_note(const struct src_uncore *su)
{
	(void)su;
	return "";
}

static const char *msr_rapl_error(const struct src_uncore *su)
{
	return ((const struct msr_rapl *)su)->error;
}

static void msr_rapl_clear(struct src_uncore *su)
{
	msr_rapl_of(su)->error[0] = 0;
}

static void msr_rapl_free(struct src_uncore *su)
{
	struct msr_rapl *r = msr_rapl_of(su);

	if (!r)
		return;
	free(r->domain);
	free(r->prev);
	free(r);
}

/* Read the units and which domains this CPU has, on the first socket that can be reached. */
static int msr_rapl_create(const struct src_uncore_env *env, struct src_uncore **out, char *err,
			   size_t errlen)
{
	struct msr_rapl *r = xcalloc(1, sizeof(*r));
	const struct uncore_config *cfg = env->cfg;
	int reader = -1;
	uint64_t units = 0, v;

	r->env = *env;
	r->l = cfg->layout;
	r->domain = xcalloc((size_t)r->l->nevents + 1, sizeof(int));
	r->prev = xcalloc((size_t)env->nsocks * RAPL_DOMAINS + 1, sizeof(uint32_t));
	for (int k = 0; k < r->l->nevents; k++) {
		r->domain[k] = -1;
		for (int d = 0; d < RAPL_DOMAINS && r->l->events[k].pmu == LAYOUT_PMU_POWER; d++)
			if (r->l->events[k].spec && !strcmp(r->l->events[k].spec, msr_rapl_domains[d].alias))
				r->domain[k] = d;
	}
	for (int i = 0; i < env->nsocks && reader < 0; i++)
		reader = env->socks[i].reader;
	if (reader < 0 || msr_read(msr_source_cfg(cfg->source_cfg)->dev, reader, MSR_RAPL_POWER_UNIT, &units)) {
		snprintf(err, errlen, "MSR_RAPL_POWER_UNIT (0x%X) cannot be read", MSR_RAPL_POWER_UNIT);
		msr_rapl_free((struct src_uncore *)r);
		return -EIO;
	}
	for (int d = 0; d < RAPL_DOMAINS; d++) {
		r->unit[d] = ldexp(1.0, -(int)RAPL_ESU(units));
		r->readable[d] = !msr_read(msr_source_cfg(cfg->source_cfg)->dev, reader, msr_rapl_domains[d].reg, &v);
	}
	if (msr_source_cfg(cfg->source_cfg)->rapl_server_dram)
		r->unit[1] = RAPL_SERVER_DRAM_UNIT_J;
	*out = (struct src_uncore *)r;
	return 0;
}

const struct src_uncore_ops msr_rapl_ops = {
	.create = msr_rapl_create,
	.plan = msr_rapl_plan,
	.baseline = msr_rapl_baseline,
	.read = msr_rapl_read,
	.restart = msr_rapl_restart,
	.note = msr_rapl_note,
	.error = msr_rapl_error,
	.clear = msr_rapl_clear,
	.free = msr_rapl_free,
};
