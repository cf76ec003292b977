/*
 * emu_uncore: the emulated machine's per-socket PMUs: the Nehalem/Westmere
 * uncore (8 counters and a fixed clock per socket), the Skylake client CBo
 * slices, ARB and fixed clock, and the Skylake IMC's free-running counters
 * behind the host bridge's BAR.  Counts follow the scenario's socket and
 * channel truth through the programmed encodings only.  See emu_int.h.
 */
#include "emu_int.h"
#include "emu_perf_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* ---- uncore: counting ------------------------------------------------------- */

#define EMU_KEY_UCLK (~0ull)

/* The Skylake IMC counters, in the order of emu_socket.imc[]. */
static const uint32_t emu_imc_offsets[5] = {
	SKL_IMC_DRAM_GT_REQUESTS, SKL_IMC_DRAM_IA_REQUESTS, SKL_IMC_DRAM_IO_REQUESTS,
	SKL_IMC_DRAM_DATA_READS, SKL_IMC_DRAM_DATA_WRITES,
};

/* Poisson P(N >= c) with mean LAMBDA: cycles with at least c events of a rate. */
static double emu_poisson_ge(double lambda, unsigned c)
{
	double term = exp(-lambda), cdf = 0;

	for (unsigned k = 0; k < c; k++) {
		cdf += term;
		term *= lambda / (k + 1);
	}
	return fmax(0, 1 - cdf);
}

static double emu_uncore_rate(struct emu *e, uint64_t key, const double *sock,
			      const double (*chan)[SK_COUNT])
{
	unsigned event = (unsigned)(key & EVTSEL_EVENT_MASK);
	unsigned umask = (unsigned)((key & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT);
	unsigned cmask = (unsigned)((key & EVTSEL_CMASK_MASK) >> EVTSEL_CMASK_SHIFT);
	int unit = (int)((key >> 40) & 0xFF); /* SKL: 0-3 CBo, 4 ARB */
	double per_s = 0, uclk = sock[SK_uncore_ghz] * 1e9;
	bool known = false;

	if (key == EMU_KEY_UCLK)
		return uclk;
	if (e->uncore == CPUMODEL_UNCORE_NHM)
		known = emu_model_nhm_uncore(event, umask, sock, chan, e->channels, &per_s);
	else if (unit < SKL_UNC_MAX_CBO)
		known = emu_model_skl_cbo(event, umask, sock, e->m->cbo, &per_s);
	else
		known = emu_model_skl_arb(event, umask, (unsigned)((key & SKL_UNC_EVTSEL_THR_MASK) >> 24),
					  sock, chan, e->channels, &per_s);
	if (!known) {
		emu_note_unknown(e, key);
		return 0;
	}
	if (cmask && e->uncore == CPUMODEL_UNCORE_NHM)
		return uclk * emu_poisson_ge(per_s / uclk, cmask);
	return per_s;
}

static int emu_unc_nctr(const struct emu *e)
{
	return e->uncore == CPUMODEL_UNCORE_NHM ? NHM_UNC_COUNTERS : 2 * e->m->cbo + 2;
}

static unsigned emu_unc_width(const struct emu *e)
{
	return e->uncore == CPUMODEL_UNCORE_NHM ? NHM_UNC_WIDTH : SKL_UNC_WIDTH;
}

/* Global status bit for uncore counter I. */
static uint64_t emu_unc_status_bit(const struct emu *e, int i)
{
	if (e->uncore == CPUMODEL_UNCORE_NHM)
		return GLOBAL_PMC(i);
	return i >= 2 * e->m->cbo ? SKL_UNC_STATUS_ARB : SKL_UNC_STATUS_CBO;
}

void emu_socket_sync(struct emu *e, int si, double t)
{
	struct emu_socket *s = &e->sockets[si];

	while (s->t < t) {
		double step_end, dt, sock[SK_COUNT], chan[SCENARIO_MAX_CHANNELS][SK_COUNT];
		int nchan = e->channels, have = 0;

		/* the truth is found at a segment's start and for an accumulator bound in it */
		if (s->t >= s->seg_end) {
			s->seg_end = scenario_next_change(e->sc, s->t);
			for (int i = 0; i < EMU_MAX_ACC; i++)
				s->acc[i].rate_ok = 0;
			scenario_eval_socket(e->sc, s->t, si, nchan, sock, chan);
			have = 1;
			for (int i = 0; e->uncore == CPUMODEL_UNCORE_SKL && i < 5; i++)
				emu_model_skl_imc(emu_imc_offsets[i], sock, (const double (*)[SK_COUNT])chan,
						  nchan, &s->imc_rate[i]);
		}
		step_end = fmin(t, s->seg_end);
		dt = step_end - s->t;
		for (uint64_t live = s->acc_live; live; live &= live - 1) {
			struct emu_acc *a = &s->acc[__builtin_ctzll(live)];

			if (!a->rate_ok) {
				if (!have)
					scenario_eval_socket(e->sc, s->t, si, nchan, sock, chan);
				have = 1;
				a->rate = emu_uncore_rate(e, a->key, sock, (const double (*)[SK_COUNT])chan);
				a->rate_ok = 1;
			}
			a->g += a->rate * dt;
		}
		for (int i = 0; e->uncore == CPUMODEL_UNCORE_SKL && i < 5; i++)
			s->imc[i] += s->imc_rate[i] * dt;
		s->t = step_end;
	}
}

void emu_socket_ctrs(struct emu *e, struct emu_socket *s)
{
	double no_cyc[4] = { 0 };
	int wrapped;

	if (s->ctr_t == s->t)
		return;
	s->ctr_t = s->t;
	for (int i = 0; i < emu_unc_nctr(e); i++) {
		wrapped = 0;
		emu_ctr_update(&s->ctr[i], s->acc, no_cyc, emu_unc_width(e), &wrapped);
		if (wrapped)
			s->global_status |= emu_unc_status_bit(e, i);
	}
	wrapped = 0;
	emu_ctr_update(&s->fixed, s->acc, no_cyc, e->uncore == CPUMODEL_UNCORE_NHM ? NHM_UNC_WIDTH
						  : SKL_UNC_FIXED_WIDTH, &wrapped);
	if (wrapped)
		s->global_status |= e->uncore == CPUMODEL_UNCORE_NHM ? NHM_UNC_GLOBAL_FIXED
								  : SKL_UNC_STATUS_FIXED;
}

static void emu_unc_bind(struct emu_socket *s, struct emu_ctr *ctr, uint64_t key, int live)
{
	static const double no_cyc[4] = { 0 };

	/* bound as before (emu_ctr_bind): the count goes on */
	if (live && ctr->acc >= 0 && s->acc[ctr->acc].in_use && ctr->bound_sel == key)
		return;
	ctr->bound_sel = key;
	ctr->acc = live ? emu_acc_find(s->acc, key) : -1;
	ctr->inv = 0;
	ctr->priv = 0;
	if (ctr->acc >= 0)
		ctr->last_f = emu_ctr_f(ctr, s->acc, no_cyc);
}

static void emu_socket_rebind(struct emu *e, struct emu_socket *s)
{
	int nhm = e->uncore == CPUMODEL_UNCORE_NHM;
	int global = nhm ? 1 : (s->global_ctrl & SKL_UNC_GLOBAL_EN) != 0;
	uint64_t used;

	emu_socket_ctrs(e, s); /* what each counted up to now, as it was bound */
	for (int i = 0; i < emu_unc_nctr(e); i++) {
		uint64_t sel = s->evtsel[i];
		int live = global && (sel & EVTSEL_EN) && (!nhm || (s->global_ctrl & GLOBAL_PMC(i)));
		uint64_t unit = nhm ? 0 : (uint64_t)(i < 2 * e->m->cbo ? i / 2 : SKL_UNC_MAX_CBO);
		uint64_t key = (sel & (EVTSEL_EVENT_MASK | EVTSEL_UMASK_MASK | EVTSEL_EDGE |
				       EVTSEL_INV | EVTSEL_CMASK_MASK)) | unit << 40;

		emu_unc_bind(s, &s->ctr[i], key, live);
	}
	emu_unc_bind(s, &s->fixed, EMU_KEY_UCLK,
		     nhm ? (s->fixed_ctrl & NHM_UNC_FIXED_EN) && (s->global_ctrl & NHM_UNC_GLOBAL_FIXED)
			 : (s->fixed_ctrl & SKL_UNC_FIXED_CNT_EN) && global);
	used = s->fixed.acc >= 0 ? 1ull << s->fixed.acc : 0;
	for (int i = 0; i < emu_unc_nctr(e); i++)
		used |= s->ctr[i].acc >= 0 ? 1ull << s->ctr[i].acc : 0;
	for (int a = 0; a < EMU_MAX_ACC; a++)
		if (!(used >> a & 1))
			s->acc[a].in_use = 0;
	s->acc_live = used;
}

/* Nehalem/Westmere uncore register access; 1 if REG is one of them. */
int emu_nhm_uncore_reg(struct emu *e, struct emu_socket *s, uint32_t reg, int write,
			      uint64_t *val, int *rc)
{
	uint64_t gvalid = 0xFFull | NHM_UNC_GLOBAL_FIXED;

	*rc = 0;
	if (reg >= MSR_UNCORE_PMC0 && reg < MSR_UNCORE_PMC0 + NHM_UNC_COUNTERS) {
		struct emu_ctr *c = &s->ctr[reg - MSR_UNCORE_PMC0];

		/* a new value, the same binding: what it counted up to now is overwritten */
		emu_socket_ctrs(e, s);
		if (write)
			c->value = *val & pmu_width_mask(NHM_UNC_WIDTH);
		else
			*val = c->value;
		return 1;
	}
	if (reg >= MSR_UNCORE_PERFEVTSEL0 && reg < MSR_UNCORE_PERFEVTSEL0 + NHM_UNC_COUNTERS) {
		uint64_t *sel = &s->evtsel[reg - MSR_UNCORE_PERFEVTSEL0];

		if (write) {
			if (*val >> 32) {
				*rc = -EIO;
				return 1;
			}
			*sel = *val;
			emu_socket_rebind(e, s);
		} else {
			*val = *sel;
		}
		return 1;
	}
	switch (reg) {
	case MSR_UNCORE_PERF_GLOBAL_CTRL:
		if (write && (*val & ~(gvalid | 0x1FFull << 48 | 7ull << 61)))
			*rc = -EIO;
		else if (write)
			s->global_ctrl = *val, emu_socket_rebind(e, s);
		else
			*val = s->global_ctrl;
		return 1;
	case MSR_UNCORE_PERF_GLOBAL_STATUS:
		emu_socket_ctrs(e, s); /* a wrap up to now */
		if (write)
			*rc = -EIO;
		else
			*val = s->global_status;
		return 1;
	case MSR_UNCORE_PERF_GLOBAL_OVF_CTRL:
		emu_socket_ctrs(e, s); /* a wrap before the clear is cleared */
		if (write)
			s->global_status &= ~*val;
		else
			*val = 0;
		return 1;
	case MSR_UNCORE_FIXED_CTR0:
		emu_socket_ctrs(e, s);
		if (write)
			s->fixed.value = *val & pmu_width_mask(NHM_UNC_WIDTH);
		else
			*val = s->fixed.value;
		return 1;
	case MSR_UNCORE_FIXED_CTR_CTRL:
		if (write && (*val & ~0x5ull))
			*rc = -EIO;
		else if (write)
			s->fixed_ctrl = *val, emu_socket_rebind(e, s);
		else
			*val = s->fixed_ctrl;
		return 1;
	}
	return 0;
}

/* Skylake client uncore register access; 1 if REG is one of them. */
int emu_skl_uncore_reg(struct emu *e, struct emu_socket *s, uint32_t reg, int write,
			      uint64_t *val, int *rc)
{
	int idx = -1, is_ctr = 0;

	*rc = 0;
	for (int n = 0; n < e->m->cbo; n++)
		for (int k = 0; k < SKL_UNC_BOX_COUNTERS; k++) {
			if (reg == MSR_UNC_CBO_0_PERFEVTSEL0 + SKL_UNC_CBO_STRIDE * (unsigned)n + (unsigned)k)
				idx = 2 * n + k;
			if (reg == MSR_UNC_CBO_0_PERFCTR0 + SKL_UNC_CBO_STRIDE * (unsigned)n + (unsigned)k)
				idx = 2 * n + k, is_ctr = 1;
		}
	if (reg == MSR_UNC_ARB_PERFEVTSEL0 || reg == MSR_UNC_ARB_PERFEVTSEL1)
		idx = 2 * e->m->cbo + (int)(reg - MSR_UNC_ARB_PERFEVTSEL0);
	if (reg == MSR_UNC_ARB_PERFCTR0 || reg == MSR_UNC_ARB_PERFCTR1)
		idx = 2 * e->m->cbo + (int)(reg - MSR_UNC_ARB_PERFCTR0), is_ctr = 1;
	if (idx >= 0 && is_ctr) {
		emu_socket_ctrs(e, s);
		if (write)
			s->ctr[idx].value = *val & pmu_width_mask(SKL_UNC_WIDTH);
		else
			*val = s->ctr[idx].value;
		return 1;
	}
	if (idx >= 0) {
		/* reserved: 63:29, 21, 19, 17:16 [S1 Table 2-7] */
		if (write && (*val & ~0x1FD4FFFFull))
			*rc = -EIO;
		else if (write)
			s->evtsel[idx] = *val, emu_socket_rebind(e, s);
		else
			*val = s->evtsel[idx];
		return 1;
	}
	switch (reg) {
	case MSR_UNC_PERF_GLOBAL_CTRL:
		if (write && (*val & ~(0xFull | SKL_UNC_GLOBAL_EN | 3ull << 30)))
			*rc = -EIO;
		else if (write)
			s->global_ctrl = *val, emu_socket_rebind(e, s);
		else
			*val = s->global_ctrl;
		return 1;
	case MSR_UNC_PERF_GLOBAL_STATUS: /* RW1C */
		emu_socket_ctrs(e, s); /* a wrap up to now, or before the clear */
		if (write)
			s->global_status &= ~*val;
		else
			*val = s->global_status;
		return 1;
	case MSR_UNC_PERF_FIXED_CTRL:
		if (write && (*val & ~(SKL_UNC_FIXED_CNT_EN | 1ull << 20)))
			*rc = -EIO;
		else if (write)
			s->fixed_ctrl = *val, emu_socket_rebind(e, s);
		else
			*val = s->fixed_ctrl;
		return 1;
	case MSR_UNC_PERF_FIXED_CTR:
		emu_socket_ctrs(e, s);
		if (write)
			s->fixed.value = *val & pmu_width_mask(SKL_UNC_FIXED_WIDTH);
		else
			*val = s->fixed.value;
		return 1;
	case MSR_UNC_CBO_CONFIG: /* read only; software subtracts one [S1 2.4.1] */
		if (write)
			*rc = -EIO;
		else
			*val = (uint64_t)e->m->cbo + 1;
		return 1;
	}
	return 0;
}

int emu_pci_config_read(struct emu *e, uint64_t off, void *buf, size_t len)
{
	uint8_t cfg[256] = { 0x86, 0x80, 0x1F, 0x19 }; /* Intel, Skylake host bridge */
	uint64_t bar = EMU_SKL_MCHBAR | 1;

	if (e->uncore != CPUMODEL_UNCORE_SKL)
		return -EIO;
	memcpy(cfg + SKL_IMC_BAR_PCI_OFFSET, &bar, sizeof(bar));
	if (off >= sizeof(cfg))
		return 0;
	if (len > sizeof(cfg) - off)
		len = sizeof(cfg) - off;
	memcpy(buf, cfg + off, len);
	return (int)len;
}

int emu_mem_read(struct emu *e, uint64_t addr, void *buf, size_t len)
{
	uint8_t window[0x18] = { 0 };
	uint64_t base = EMU_SKL_MCHBAR + SKL_IMC_DRAM_GT_REQUESTS;

	if (e->uncore != CPUMODEL_UNCORE_SKL)
		return -EIO;
	pthread_mutex_lock(&e->lock);
	emu_socket_sync(e, 0, emu_clock_now(e));
	for (int i = 0; i < 5; i++) {
		uint32_t v = (uint32_t)(uint64_t)floor(e->sockets[0].imc[i]); /* 32-bit, wraps */

		memcpy(window + (emu_imc_offsets[i] - SKL_IMC_DRAM_GT_REQUESTS), &v, 4);
	}
	pthread_mutex_unlock(&e->lock);
	memset(buf, 0, len);
	for (size_t i = 0; i < len; i++)
		if (addr + i >= base && addr + i < base + sizeof(window))
			((uint8_t *)buf)[i] = window[addr + i - base];
	return (int)len;
}


/*
 * Socket SI's truth at T (with NCHAN channels; 0: the socket's alone, at
 * the machine's channels) into SOCK and CHAN, and when it next changes:
 * from the socket's cached segment when T is in it.
 */
static double emu_srv_truth_at(struct emu *e, int si, int nchan, double t, double *sock,
			       double (*chan)[SK_COUNT])
{
	struct emu_srv_truth *c;
	double hi;

	pthread_mutex_lock(&e->srv_lock);
	if (!e->srv_truth)
		e->srv_truth = xcalloc((size_t)e->nsockets * 2, sizeof(*e->srv_truth));
	c = &e->srv_truth[si * 2 + (nchan > 0)];
	if (!(c->hi > 0 && t >= c->lo && t < c->hi && c->nchan == nchan)) {
		c->lo = t;
		c->hi = scenario_next_change(e->sc, t);
		c->nchan = nchan;
		if (nchan)
			scenario_eval_socket(e->sc, t, si, nchan, c->sock, c->chan);
		else /* a box that is no memory's: the socket's figures at the machine's channels */
			scenario_eval_socket_only(e->sc, t, si, e->channels, c->sock);
	}
	memcpy(sock, c->sock, sizeof(c->sock));
	if (nchan)
		memcpy(chan, c->chan, (size_t)nchan * sizeof(c->chan[0]));
	hi = c->hi;
	pthread_mutex_unlock(&e->srv_lock);
	return hi;
}

double emu_srv_count(struct emu *e, int si, int unit, int box, int nboxes, unsigned event,
		     uint64_t umask, double t0, double t1)
{
	double n = 0, sock[SK_COUNT], chan[EMU_MAX_SRV_CHANNELS][SK_COUNT];
	/* a memory box's channel: the scenario's channels keep to the home's reads together */
	int nchan = unit == EMU_UNIT_MC || unit == EMU_UNIT_IMC_FREE || unit == EMU_UNIT_AMD_UMC ||
		    unit == EMU_UNIT_AMD_DF
		    ? (e->channels < EMU_MAX_SRV_CHANNELS ? e->channels : EMU_MAX_SRV_CHANNELS) : 0;
	bool known = true;

	if (si < 0 || si >= e->nsockets ||
	    ((unit == EMU_UNIT_MC || unit == EMU_UNIT_AMD_UMC) && box >= nchan))
		return 0;
	while (t0 < t1 && known) {
		double step_end = fmin(t1, emu_srv_truth_at(e, si, nchan, t0, sock, chan)), per_s;

		if (unit == EMU_UNIT_IMC_FREE) {
			/* a controller's counters: every channel behind it (the box's share) */
			for (int c = 1; c < nchan; c++)
				for (int k = 0; k < SK_COUNT; k++)
					chan[0][k] += chan[c][k];
			box = 0;
		}
		/* the data fabric sees every channel of the socket: its events name one */
		known = unit == EMU_UNIT_AMD_DF
			? emu_model_amd_df(e->m, event, umask, sock, (const double *)chan, nchan, &per_s)
			: emu_model_srv(e->m, (enum emu_srv_unit)unit, event, umask, sock,
					nchan ? chan[box] : NULL, box, nboxes, &per_s);
		n += per_s * (step_end - t0);
		t0 = step_end;
	}
	if (!known) {
		pthread_mutex_lock(&e->lock);
		emu_note_unknown(e, (uint64_t)event | umask << 8 | (uint64_t)unit << 60);
		pthread_mutex_unlock(&e->lock);
	}
	return known ? n : 0;
}

/*
 * How idle each core of socket SI is at T (1 - its busiest online thread's
 * util) and the socket's cores' mean, computed once a segment of the
 * scenario (its values change only at their ends: every core's counter
 * that asks within it shares them; srv_lock held): *IDLE indexed by
 * topology core.
 */
static double emu_cores_idle(struct emu *e, int si, double t, const double **idle)
{
	double v[SK_COUNT], sum = 0, *busy;
	int cores = 0;

	if (!e->c6_t) {
		e->c6_t = xcalloc((size_t)e->nsockets + 1, sizeof(double));
		e->c6_mean = xcalloc((size_t)e->nsockets + 1, sizeof(double));
		e->c6_idle = xcalloc((size_t)e->nsockets * (size_t)e->ncpus + 1, sizeof(double));
		for (int i = 0; i < e->nsockets; i++)
			e->c6_t[i] = NAN;
	}
	busy = &e->c6_idle[(size_t)si * (size_t)e->ncpus];
	*idle = busy;
	/* the same next change: no change between T and the time they were computed for */
	if (e->c6_t[si] == scenario_next_change(e->sc, t))
		return e->c6_mean[si];
	for (int c = 0; c < e->ncpus; c++)
		busy[c] = -1;
	for (int c = 0; c < e->ncpus; c++) {
		const struct emu_cpu *cpu = &e->cpus[c];

		if (!cpu->online || cpu->socket != si || cpu->core < 0 || cpu->core >= e->ncpus)
			continue;
		scenario_eval_one(e->sc, t, SCENARIO_CPU, cpu->os_cpu, cpu->socket, v);
		busy[cpu->core] = fmax(busy[cpu->core], fmin(1, fmax(0, v[SK_util])));
	}
	/* from the busiest thread's util to the core's idle share; -1 stays: no such core */
	for (int k = 0; k < e->ncpus; k++)
		if (busy[k] >= 0) {
			busy[k] = 1 - busy[k];
			sum += busy[k];
			cores++;
		}
	e->c6_t[si] = scenario_next_change(e->sc, t);
	e->c6_mean[si] = cores ? sum / cores : 0;
	return e->c6_mean[si];
}

double emu_cstate_core_count(struct emu *e, int cpu, double t0, double t1)
{
	double n = 0, sock[SK_COUNT];
	int si, core;

	if (cpu < 0 || cpu >= e->ncpus || e->cpus[cpu].core < 0 || e->cpus[cpu].core >= e->ncpus)
		return 0;
	si = e->cpus[cpu].socket;
	core = e->cpus[cpu].core;
	while (t0 < t1) {
		double end = fmin(t1, scenario_next_change(e->sc, t0)), mean, idle;
		const double *idles;

		if (!(end > t0))
			break;
		scenario_eval_socket_only(e->sc, t0, si, e->channels, sock);
		pthread_mutex_lock(&e->srv_lock);
		mean = emu_cores_idle(e, si, t0, &idles);
		idle = idles[core] > 0 ? idles[core] : 0;
		pthread_mutex_unlock(&e->srv_lock);
		/* the socket's mean spread by how idle each core is, at most its idle share */
		n += (mean > 0 ? fmin(idle, sock[SK_core_c6_share] * idle / mean) : 0) *
		     e->m->nominal_ghz * 1e9 * (end - t0);
		t0 = end;
	}
	return n;
}

/* The machines with RAPL here: those with the kernel's power PMU (a server's or a client's uncore). */
static bool emu_has_rapl(const struct emu *e)
{
	return e->m->srv != EMU_SRV_NONE;
}

/* Whether the part has the platform's energy counter: the kernel's rapl model lists psys. */
static bool emu_has_psys(const struct emu *e)
{
	const struct ek_driver *d = ek_driver_of(e->m->srv);

	for (const struct ek_event_desc *r = d ? d->rapl : NULL; r && r->name; r++)
		if (!strcmp(r->name, "energy-psys"))
			return true;
	return false;
}

int emu_rapl_reg(struct emu *e, int si, uint32_t reg, int write, uint64_t *val, int *rc,
		 double now)
{
	/* 1/8 W, 1/2^14 J (61 uJ), 1/2^10 s: what Intel's parts report */
	const uint64_t units = 3 | 14u << 8 | 10u << 16;
	bool client = emu_machine_client(e->m);
	struct emu_socket *s;
	int dom;
	double unit;

	if (!emu_has_rapl(e) || si < 0 || si >= e->nsockets)
		return 0;
	switch (reg) {
	case MSR_RAPL_POWER_UNIT:
		dom = -1;
		break;
	case MSR_PP0_ENERGY_STATUS:
		dom = 0;
		break;
	case MSR_PKG_ENERGY_STATUS:
		dom = 1;
		break;
	case MSR_DRAM_ENERGY_STATUS:
		dom = 2;
		break;
	case MSR_PLATFORM_ENERGY_STATUS:
		dom = 3;
		break;
	default:
		return 0;
	}
	/*
	 * read only; a domain the part lacks is EIO (clients: no DRAM; servers: no
	 * PP0; psys where the kernel's rapl model has none: Skylake-SP, Ice Lake-SP)
	 */
	if (write || (dom == 0 && !client) || (dom == 2 && client) || (dom == 3 && !emu_has_psys(e))) {
		*rc = -EIO;
		return 1;
	}
	*rc = 0;
	if (dom < 0) {
		*val = units;
		return 1;
	}
	s = &e->sockets[si];
	if (now > s->energy_t) {
		/* the power PMU's events: energy-cores 01H, -pkg 02H, -ram 03H, -psys 05H */
		static const unsigned ev[4] = { 0x01, 0x02, 0x03, 0x05 };

		for (int d = 0; d < 4; d++)
			s->energy[d] += emu_srv_count(e, si, EMU_UNIT_POWER, 0, 1, ev[d], 0,
						      s->energy_t, now) / 4294967296.0;
		s->energy_t = now;
	}
	unit = dom == 2 ? RAPL_SERVER_DRAM_UNIT_J : 1.0 / (1 << 14);
	*val = (uint64_t)(s->energy[dom] / unit) & 0xFFFFFFFFull;
	return 1;
}
