/*
 * uncore_boxes: the CHAs one by one.  A server's socket figures sum its
 * CHAs (the kernel's uncore_cha_N, one perf group each); where the
 * transport reads them apart it also keeps each box's counts
 * (src_boxes_alloc), and the sample gets an entity per CHA with the CHA
 * groups' metrics of that CHA alone: its counts taken as if every CHA of
 * the socket counted like it (x the CHAs) for the vendor's socket formulas
 * (sample_eval_boxes then divides a rate back by the CHAs: a latency or a
 * ratio is the CHA's own, a bandwidth its share).  Sampler thread.  See
 * uncore.h.
 */
#include "uncore.h"
#include "uncore_int.h"
#include "xmalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void src_boxes_alloc(struct src_socket *socks, int nsocks, const struct layout *l,
		     enum layout_pmu pmu, int nbox)
{
	for (int i = 0; i < nsocks; i++) {
		struct src_socket *s = &socks[i];

		s->box_ev = xmalloc(sizeof(int) * ((size_t)l->nevents + 1));
		s->nbox_ev = 0;
		for (int k = 0; k < l->nevents; k++)
			/* an event of one box (box=N) is that box's already */
			s->box_ev[k] = l->events[k].pmu == pmu && l->events[k].box < 0 ? s->nbox_ev++
				       : -1;
		s->nbox = s->nbox_ev && nbox > 1 ? nbox : 0;
		s->box_acc = xcalloc((size_t)s->nbox * (size_t)s->nbox_ev + 1, sizeof(double));
		s->box_live = xcalloc((size_t)s->nbox * (size_t)s->nbox_ev + 1, sizeof(double));
	}
}

void src_cores_alloc(struct src_socket *socks, int nsocks, const struct layout *l, int ncore)
{
	for (int i = 0; i < nsocks; i++) {
		struct src_socket *s = &socks[i];

		s->core_ev = xmalloc(sizeof(int) * ((size_t)l->nevents + 1));
		s->ncore_ev = 0;
		for (int k = 0; k < l->nevents; k++)
			s->core_ev[k] = layout_pmu_kinds[l->events[k].pmu].core_boxes ? s->ncore_ev++ : -1;
		s->ncore = s->ncore_ev ? ncore : 0;
		s->core_acc = xcalloc((size_t)s->ncore * (size_t)s->ncore_ev + 1, sizeof(double));
		s->core_live = xcalloc((size_t)s->ncore * (size_t)s->ncore_ev + 1, sizeof(double));
	}
}

/* One kind's accumulators let go: its column map, counts and seconds, its sizes 0. */
static void src_boxes_drop(int **ev, double **acc, double **live, int *n, int *nev)
{
	free(*ev);
	free(*acc);
	free(*live);
	*ev = NULL;
	*acc = *live = NULL;
	*n = *nev = 0;
}

void src_boxes_free(struct src_socket *socks, int nsocks)
{
	for (int i = 0; i < nsocks; i++) {
		struct src_socket *s = &socks[i];

		src_boxes_drop(&s->box_ev, &s->box_acc, &s->box_live, &s->nbox, &s->nbox_ev);
		src_boxes_drop(&s->core_ev, &s->core_acc, &s->core_live, &s->ncore, &s->ncore_ev);
	}
}

/*
 * Each core's own count of the PMUs whose boxes are cores (cstate_core)
 * into its entity of S, over the sample's interval as the socket's are
 * (uncore_fill), before the cores' figures are computed; n/a where its
 * socket's interval is (a failed read) or its counter never counted.
 */
void uncore_fill_cores(struct uncore *u, struct sample *s)
{
	const struct layout *l = u->l;

	for (int i = 0; i < u->nsocks && i < s->nsockets; i++) {
		const struct src_socket *us = &u->socks[i];
		double secs = s->interval_s;

		if (!us->ncore || !uncore_socket_counted(u, us) || !(secs > 0))
			continue;
		for (int c = 0; c < us->ncore && c < s->ncores; c++) {
			struct sample_entity *ce = &s->cores[c];

			for (int k = 0; k < l->nevents; k++) {
				int j = us->core_ev[k];
				double live;

				if (j < 0 || !uncore_group_live(u, l->events[k].group))
					continue;
				live = us->core_live[c * us->ncore_ev + j];
				if (live > 0)
					ce->vars[l->events[k].var] = us->core_acc[c * us->ncore_ev + j] *
								     secs / live;
			}
		}
	}
}

/*
 * Box B of socket US into entity E: the socket's built-ins and the counts of
 * the NEV live box events EV (layout event indices) x NBOX.
 */
static void uncore_box_fill(const struct uncore *u, const struct src_socket *us,
			    const double *sv, const int *ev, int nev, int b, int nbox,
			    struct sample_entity *e)
{
	e->vars[LAYOUT_B_seconds] = sv[LAYOUT_B_seconds];
	e->vars[LAYOUT_B_uncore_clock] = sv[LAYOUT_B_uncore_clock];
	for (int i = 0; i < nev; i++) {
		int j = b * us->nbox_ev + us->box_ev[ev[i]];
		double live = us->box_live[j];

		/* as if every CHA counted like this one: the socket formulas read a socket's sum */
		e->vars[u->l->events[ev[i]].var] = live > 0 ? us->box_acc[j] * sv[LAYOUT_B_seconds] /
						   live * nbox : NAN;
	}
}

void uncore_fill_boxes(struct uncore *u, struct sample *s)
{
	const struct layout *l = u->l;
	int nbox = 0, nev = 0, *ev;

	for (int i = 0; i < u->nsocks; i++)
		if (u->socks[i].nbox > nbox)
			nbox = u->socks[i].nbox;
	if (!nbox || !u->used)
		return;
	/* the box events of the groups that counted: the same on every socket */
	ev = xmalloc(sizeof(int) * ((size_t)l->nevents + 1));
	for (int k = 0; k < l->nevents; k++)
		if (u->socks[0].box_ev[k] >= 0 && uncore_group_live(u, l->events[k].group))
			ev[nev++] = k;
	sample_add_part(s, SAMPLE_KIND_CHA, nbox);
	for (int i = 0; i < u->nsocks && i < s->nsockets; i++) {
		const struct src_socket *us = &u->socks[i];
		const double *sv = s->sockets[i].vars;

		for (int b = 0; b < nbox; b++) {
			struct sample_entity *e = sample_box(s, i, b);

			sample_entity_ids(e, b, i, s->sockets[i].os_socket_id);
			/* as the socket's: a failed read or a reset leaves it n/a */
			if (b < us->nbox && !isnan(sv[LAYOUT_B_seconds]) && uncore_socket_counted(u, us))
				uncore_box_fill(u, us, sv, ev, nev, b, nbox, e);
		}
	}
	free(ev);
	sample_eval_boxes(s);
}
