/*
 * batch_chas: a server socket's CHAs one by one in the JSON batch output
 * (sample.boxes: the CHA groups' figures of each CHA alone, a rate its
 * share of the socket's, a latency its own).  Main thread.
 */
#include "batch_int.h"

#include <jansson.h>
#include <math.h>

json_t *batch_json_chas(const struct sample *s, const struct batch_run *r, int i)
{
	const struct layout *l = s->layout;
	json_t *a;
	bool any = false;

	/* only what was counted: no CHA group on (or none asked for), no "chas" */
	for (int k = 0; k < l->nmetrics && !any; k++)
		any = sample_box_metric(l, k) && batch_metric_shown(s, r, k);
	if (!any)
		return NULL;
	a = json_array();

	for (int b = 0; b < s->nboxes; b++) {
		json_t *o = json_object(), *m = json_object();

		for (int k = 0; k < l->nmetrics; k++) {
			double v = sample_metric(s, sample_box(s, i, b), k);

			if (sample_box_metric(l, k) && batch_metric_shown(s, r, k))
				json_object_set_new_nocheck(m, l->metrics[k].name,
						    isnan(v) ? json_null() : json_real(batch_round(v)));
		}
		json_object_set_new(o, "cha", json_integer(b));
		json_object_set_new(o, "metrics", m);
		json_array_append_new(a, o);
	}
	return a;
}
