/*
 * emu_model_events: the core events of the table of emu_model_event_rows.c
 * (its comment says what each row means and what the quantities follow),
 * looked up by encoding and turned into a distribution a cycle by the
 * row's shape.  Pure functions.
 */
#include "emu_model_events_int.h"

#include <math.h>

/* Row I of the whole table (the P-cores' rows, then the others'), or NULL past its end. */
static const struct emu_ev_row *emu_ev_row_at(size_t i)
{
	if (i < emu_ev_nrows)
		return &emu_ev_rows[i];
	i -= emu_ev_nrows;
	return i < emu_ev_nrows_other ? &emu_ev_rows_other[i] : NULL;
}

static bool emu_ev_row_matches(const struct emu_ev_row *r, unsigned event, unsigned umask,
			       uint64_t offcore)
{
	if (r->event != event || r->offcore != offcore)
		return false;
	return r->bits ? umask && !(umask & ~r->umask) : umask == r->umask;
}

/*
 * The table's row of an encoding on a kind of core, -1 none.  Every
 * counter's rate asks at every sync, so a thread keeps its recent answers
 * (the table is constant): a direct-mapped cache by the question's hash.
 */
#define EMU_EV_CACHE 256
struct emu_ev_asked {
	bool set, server;
	unsigned core, event, umask;
	uint64_t offcore;
	int row;
};

int emu_model_event_find(unsigned core, bool server, unsigned event, unsigned umask, uint64_t offcore)
{
	static __thread struct emu_ev_asked cache[EMU_EV_CACHE];
	uint64_t h = ((uint64_t)core * 31 + server) * 0x9E3779B97F4A7C15ull ^
		     ((uint64_t)event << 8 | umask) * 0xC2B2AE3D27D4EB4Full ^ offcore * 0x165667B19E3779F9ull;
	struct emu_ev_asked *c = &cache[(h >> 32) % EMU_EV_CACHE];
	const struct emu_ev_row *r;
	int row = -1;

	if (c->set && c->core == core && c->server == server && c->event == event &&
	    c->umask == umask && c->offcore == offcore)
		return c->row;
	for (size_t i = 0; row < 0 && (r = emu_ev_row_at(i)); i++)
		if ((r->cores & (1u << core)) && (!(r->cores & EMU_EV_SERVERS_ONLY) || server) &&
		    emu_ev_row_matches(r, event, umask, offcore))
			row = (int)i;
	*c = (struct emu_ev_asked){ .set = true, .server = server, .core = core, .event = event,
				    .umask = umask, .offcore = offcore, .row = row };
	return row;
}

bool emu_model_events(const struct emu_core_ctx *c, struct emu_dist *d)
{
	const struct emu_machine *m = c->m;
	const struct emu_ev_row *r;
	double q;
	bool ocr;
	int i;

	if (m->ports == EMU_PORTS_NONE && !m->amd)
		return false;
	/*
	 * an offcore response event: by the matrix it reads, through either
	 * register of the pair; FRONTEND_RETIRED by MSR_PEBS_FRONTEND's value
	 */
	ocr = !m->amd && emu_machine_offcore_reg(m, c->event) >= 0;
	i = emu_model_event_find(m->amd ? EMU_PORTS_ZEN : !m->e_core ? m->ports
				 : m->hybrid && m->hybrid->e_skymont ? EMU_PORTS_SKYMONT : EMU_PORTS_GRACEMONT,
				 m->l3_miss_sources,
				 ocr ? (m->offcore_events[0] ? m->offcore_events[0] : 0xB7u) : c->event,
				 c->umask, ocr || (c->event == 0xC6 && m->pebs_frontend) ? c->offcore : 0);
	if (i < 0)
		return false;
	r = emu_ev_row_at((size_t)i);
	q = emu_ev_q(c, r);
	emu_dist_zero(d);
	switch (r->shape) {
	case SH_COND:
		/* the condition holds in runs (its edges count them): a stall's stall_len, a divide's latency */
		emu_dist_bernoulli(d, q);
		d->cond_cmask = r->cmask;
		d->run_len = r->q == Q_DIV ? c->v[SK_div_latency] : c->v[SK_stall_len];
		d->run_side = EMU_RUN_GE;
		break;
	case SH_RATE:
		emu_dist_bernoulli(d, q);
		break;
	case SH_EDGES:
		/* each event a run of one cycle: cmask 1 with edge counts the events */
		emu_dist_bernoulli(d, q);
		d->run_len = 1;
		d->run_side = EMU_RUN_GE;
		break;
	case SH_UOPS: {
		unsigned w = m->slots_width ? m->slots_width : m->dispatch_width ? m->dispatch_width : 4;

		emu_dist_binomial(d, fmin(1, fmax(q / w, 1 - (r->q == Q_UOPS_RETIRED
				? c->v[SK_retire_stall] : r->q == Q_UOPS_EXECUTED
				? c->v[SK_exec_stall] : c->v[SK_issue_stall]))),
				  q, w);
		d->core_wide = r->arg == 1; /* the core's: the threads' summed */
		break;
	}
	case SH_MS: {
		/* 4 uops a cycle while it delivers; a run per switch (the vendor's cycles a switch) */
		double switches = emu_fe_latency(c->v) * c->v[SK_fe_ms_switch_share] /
				  (m->ms_switch_cycles ? m->ms_switch_cycles : 3);
		double cyc, per;

		if (r->q == Q_MS_RETIRED)
			switches /= c->v[SK_issue_ratio]; /* retired: the issued runs, fewer */
		/* up to 4 a cycle, in at least a cycle a switch: fewer a cycle when switches are many */
		cyc = emu_clamp01(fmax(q / 4, fmin(switches, q)));
		per = cyc > 0 ? fmin(4, fmax(1, q / cyc)) : 0;
		d->h[0] = 1 - cyc;
		if (cyc > 0) {
			unsigned lo = (unsigned)floor(per);

			d->h[lo] += cyc * (1 - (per - lo));
			if (lo < 4)
				d->h[lo + 1] += cyc * (per - lo);
		}
		d->run_len = switches > 0 ? fmax(1, cyc / switches) : 1;
		d->run_side = EMU_RUN_GE;
		break;
	}
	case SH_DEC0:
		emu_ev_dec0(c, d);
		break;
	case SH_OCC:
		emu_ev_occupancy(c, r, d);
		break;
	case SH_IDQ:
		emu_ev_idq(c, r, d);
		break;
	case SH_REF: {
		double ghz = c->v[SK_ghz] > 0 ? c->v[SK_ghz] : m->nominal_ghz;

		emu_dist_binomial(d, 1, m->nominal_ghz / ghz * q, EMU_HIST_BINS - 1);
		break;
	}
	}
	return true;
}

/* The table, for tests: row I's name, encoding and cores (false past the end). */
bool emu_model_event_row(size_t i, const char **name, unsigned *event, unsigned *umask,
			 unsigned *cmask, bool *bits, unsigned *cores, bool *server, uint64_t *offcore)
{
	const struct emu_ev_row *r = emu_ev_row_at(i);

	if (!r)
		return false;
	*offcore = r->offcore;
	*name = r->name;
	*event = r->event;
	*umask = r->umask;
	*cmask = r->cmask;
	*bits = r->bits;
	*cores = r->cores & ~EMU_EV_SERVERS_ONLY;
	*server = r->cores & EMU_EV_SERVERS_ONLY;
	return true;
}
