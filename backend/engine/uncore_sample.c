/*
 * uncore_sample: the per-socket PMUs' part of a sample: socket and channel
 * figures scaled by the time each group counted, and the plausibility
 * checks that flag figures which cannot be true (a channel that never
 * counts while its siblings do, bandwidth above the channel's peak, the
 * memory controller disagreeing with the home logic).  Sampler thread.
 * See uncore_int.h.
 */
#include "uncore.h"
#include "uncore_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- into the sample ------------------------------------------------------ */

/*
 * Socket I's figure of each channel event: its channels' summed, each
 * channel once, however many of the layout's groups count the event (the
 * memory groups of keys 9 and o both read UNC_M_CAS_COUNT: summing every
 * copy read twice the channels' traffic).
 */
static void uncore_channels_summed(const struct uncore *u, struct sample *s, int i)
{
	const struct layout *l = u->l;
	double *sv = s->sockets[i].vars;

	for (int k = 0; k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		double sum = NAN;
		bool seen = false;

		if (ev->pmu == LAYOUT_PMU_CORE || ev->channel < 0)
			continue;
		for (int j = 0; j < k && !seen; j++) /* each variable once */
			seen = l->events[j].channel >= 0 && l->events[j].var == ev->var;
		if (seen)
			continue;
		for (int c = 0; c < u->nchan; c++) {
			double v = sample_channel(s, i, c)->vars[ev->var];

			if (!isnan(v))
				sum = isnan(sum) ? v : sum + v;
		}
		sv[ev->var] = sum;
	}
}

void uncore_fill(struct uncore *u, struct sample *s)
{
	const struct layout *l = u->l;

	s->unc_usable = uncore_usable(u);
	if (u->nchan)
		sample_add_part(s, SAMPLE_KIND_CHANNEL, u->nchan);
	for (int i = 0; i < u->nsocks && i < s->nsockets; i++) {
		struct src_socket *us = &u->socks[i];
		double *sv = s->sockets[i].vars;
		double secs = us->t_last - us->t_start;

		for (int c = 0; c < u->nchan; c++)
			sample_entity_ids(sample_channel(s, i, c), c, i, s->sockets[i].os_socket_id);
		s->resets += us->resets;
		/* a failed read or a reset leaves nothing true to say about the interval */
		if (!uncore_socket_counted(u, us))
			continue; /* n/a */
		/* the sample's interval: counts are scaled to it, figures divide by it */
		if (isnan(sv[LAYOUT_B_seconds]))
			sv[LAYOUT_B_seconds] = s->interval_s > 0 ? s->interval_s : secs;
		sv[LAYOUT_B_uncore_clock] = us->fixed_acc;
		sv[LAYOUT_B_dram_peak] = u->cfg.channel_peak * (u->nchan ? u->nchan : u->cfg.channels);
		sv[LAYOUT_B_channels] = u->nchan ? u->nchan : NAN;
		for (int c = 0; c < u->nchan; c++) {
			double *cv = sample_channel(s, i, c)->vars;

			cv[LAYOUT_B_channels] = 1;
			cv[LAYOUT_B_seconds] = sv[LAYOUT_B_seconds];
			cv[LAYOUT_B_uncore_clock] = us->fixed_acc;
			cv[LAYOUT_B_dram_peak] = u->cfg.channel_peak;
		}
		for (int k = 0; k < l->nevents; k++) {
			const struct layout_event *ev = &l->events[k];
			double v, raw, live;

			if (ev->pmu == LAYOUT_PMU_CORE || !uncore_group_live(u, ev->group))
				continue;
			raw = us->ev[k].acc;
			live = src_tally_window(&us->ev[k]);
			/*
			 * The count over the sample's interval (which the formulas divide
			 * by), from the rate over the time counted: the uncore's own reads
			 * need not span exactly the same time
			 */
			v = live > 0 ? raw * sv[LAYOUT_B_seconds] / live : NAN;
			if (ev->channel >= 0) {
				struct sample_entity *ce = sample_channel(s, i, ev->channel);

				/* an event two groups count (Memory's, MemOther's): one figure */
				if (!isnan(v) || isnan(ce->vars[ev->var]))
					ce->vars[ev->var] = v;
				ce->raw[k] = live > 0 ? raw : NAN;
				ce->live[k] = live > 0 ? live : NAN;
			} else {
				sv[ev->var] = v;
			}
			s->sockets[i].raw[k] = live > 0 ? raw : NAN;
			s->sockets[i].live[k] = live > 0 ? live : NAN;
		}
		uncore_channels_summed(u, s, i);
	}
}

static void uncore_flag_group(struct sample *s, int sock, int ch, layout_groups groups,
			      const char *why)
{
	const struct layout *l = s->layout;

	for (int m = 0; m < l->nmetrics; m++)
		if (l->metrics[m].group >= 0 && (groups & LAYOUT_GROUP(l->metrics[m].group)))
			sample_flag(s, sock, ch, m, "%s", why);
}

/* Bandwidth figures (unit B/s) of entity E above its theoretical peak PEAK. */
static void uncore_check_peak(struct sample *s, const struct sample_entity *e, int ch, double peak)
{
	const struct layout *l = s->layout;

	if (!(peak > 0))
		return;
	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		double v = sample_metric(s, e, m);
		size_t n = strlen(mt->name);

		if (mt->group < 0 || l->groups[mt->group].pmu == LAYOUT_PMU_CORE)
			continue;
		/* reads and writes share the channel: their sum, the share of the peak, too */
		if (!strcmp(mt->unit, "%") && n > 8 && !strcmp(mt->name + n - 8, "peak_pct") &&
		    v > 100 * (1 + UNCORE_PEAK_TOLERANCE))
			sample_flag(s, e->socket, ch, m, "%s %.0f %%: reads and writes together are "
				    "above the %s's theoretical peak %.2f GB/s", mt->name, v,
				    ch >= 0 ? "channel" : "socket", peak / 1e9);
		if (strcmp(mt->unit, "B/s") || !(v > peak * (1 + UNCORE_PEAK_TOLERANCE)))
			continue;
		sample_flag(s, e->socket, ch, m, "%s %.2f GB/s is above the %s's theoretical peak "
			    "%.2f GB/s", mt->name, v / 1e9, ch >= 0 ? "channel" : "socket", peak / 1e9);
	}
}

/* A channel whose counter reads all ones, or has never moved while its siblings move. */
static void uncore_check_phantom(struct uncore *u, struct sample *s, int sock)
{
	const struct layout *l = u->l;
	const struct src_socket *us = &u->socks[sock];

	for (int k = 0; k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		const struct sample_entity *ce = sample_channel(s, sock, ev->channel);
		char busy[64] = "";
		size_t n = 0;

		if (ev->channel < 0 || !ce || !uncore_group_live(u, ev->group) || us->moved[k])
			continue;
		for (int j = 0; j < l->nevents; j++) {
			const struct layout_event *o = &l->events[j];
			const struct sample_entity *oe = sample_channel(s, sock, o->channel);

			if (j == k || o->var != ev->var || !oe || !(oe->vars[o->var] > 0))
				continue;
			n += (size_t)snprintf(busy + n, sizeof(busy) - n, "%s%d", n ? ", " : "",
					      o->channel);
			if (n >= sizeof(busy))
				break;
		}
		if (busy[0] && !sample_flag_find(s, sock, ev->channel, -1))
			sample_flag(s, sock, ev->channel, -1, "channel %d's %s has never counted "
				    "while channel %s did: no DIMM on it, or a phantom channel",
				    ev->channel, ev->name, busy);
	}
	for (int k = 0; u->t && u->cfg.ops->all_ones && k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];

		if (ev->channel >= 0 && uncore_group_live(u, ev->group) &&
		    u->cfg.ops->all_ones(u->t, us, k) && !sample_flag_find(s, sock, ev->channel, -1))
			sample_flag(s, sock, ev->channel, -1, "channel %d's %s counter reads all ones: "
				    "a phantom channel or a broken counter", ev->channel, ev->name);
	}
}

/*
 * Nehalem/Westmere: IMC reads and full-line writes against the home
 * logic's read and write requests (seed 000, Table 39 and the text above
 * it).  Recognised by encoding: UNC_QMC_NORMAL_READS 2CH, UNC_QMC_WRITES.FULL
 * 2FH umask 01H-07H, UNC_QHL_REQUESTS 20H (reads: 01H IOH, 04H remote, 10H
 * local; writes: 02H, 08H, 20H).  Only when every channel and every source
 * is counted.
 */
static void uncore_check_qhl(struct uncore *u, struct sample *s, int sock)
{
	const struct layout *l = u->l;
	double imc_r = 0, imc_w = 0, qhl_r = 0, qhl_w = 0, secs = s->sockets[sock].vars[LAYOUT_B_seconds];
	/* rotating uncore sets make every figure here a scaled estimate */
	double tol = u->plan.nsets > 1 ? UNCORE_QHL_TOLERANCE_SCALED : UNCORE_QHL_TOLERANCE;
	double slack = UNCORE_SLACK_LINES_PER_S * secs;
	unsigned mr = 0, mw = 0, mq = 0;
	layout_groups groups = 0;
	char why[200];

	for (int k = 0; k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];
		const struct sample_entity *ce = sample_channel(s, sock, ev->channel);
		double v = ev->channel >= 0 ? (ce ? ce->vars[ev->var] : NAN)
					    : s->sockets[sock].vars[ev->var];

		if (ev->pmu != LAYOUT_PMU_UNCORE || !isfinite(v) || ev->cmask || ev->inv || ev->edge)
			continue;
		/* each channel and each source once, however many groups count it */
		if (ev->event == 0x2C && !(ev->umask & ~0x07u) && !(ev->umask & mr)) {
			imc_r += v, mr |= ev->umask;
		} else if (ev->event == 0x2F && !(ev->umask & ~0x07u) && !(ev->umask & mw)) {
			imc_w += v, mw |= ev->umask;
		} else if (ev->event == 0x20 && !(ev->umask & mq) &&
			   ((ev->umask & 0x15) == ev->umask || (ev->umask & 0x2A) == ev->umask)) {
			qhl_r += (ev->umask & 0x15) == ev->umask ? v : 0;
			qhl_w += (ev->umask & 0x2A) == ev->umask ? v : 0;
			mq |= ev->umask;
		} else {
			continue;
		}
		groups |= 1u << ev->group;
	}
	if (!(secs > 0))
		return;

	if (mr == 0x07 && (mq & 0x15) == 0x15 && imc_r > qhl_r * (1 + tol) + slack) {
		snprintf(why, sizeof(why), "the memory controller read %.3g lines/s, more than the "
			 "%.3g the home logic was asked for: the IMC cannot read more than it is asked",
			 imc_r / secs, qhl_r / secs);
		uncore_flag_group(s, sock, -1, groups, why);
	} else if (mw == 0x07 && (mq & 0x2A) == 0x2A && imc_w < qhl_w * (1 - tol) - slack) {
		snprintf(why, sizeof(why), "the memory controller wrote %.3g lines/s, fewer than the "
			 "%.3g writes the home logic received: every one of them ends in a full-line "
			 "write", imc_w / secs, qhl_w / secs);
		uncore_flag_group(s, sock, -1, groups, why);
	}
}

void uncore_check(struct uncore *u, struct sample *s)
{
	for (int i = 0; i < u->nsocks && i < s->nsockets; i++) {
		const struct src_socket *us = &u->socks[i];

		if (us->taken || us->reader < 0 || us->failed)
			continue;
		uncore_check_peak(s, &s->sockets[i], -1, s->sockets[i].vars[LAYOUT_B_dram_peak]);
		for (int c = 0; c < u->nchan; c++)
			uncore_check_peak(s, sample_channel(s, i, c), c, u->cfg.channel_peak);
		uncore_check_phantom(u, s, i);
		uncore_check_qhl(u, s, i);
	}
}

