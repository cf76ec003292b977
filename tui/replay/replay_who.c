/*
 * replay_who: a recording's "who" object (the batch JSON's, record.c) back
 * into the sample's who snapshot (its stored figures by the table's keys,
 * who_cols), checked as any recorded input is: every
 * field of its type, strings cut to their room, at most WHO_MAX_ROWS rows,
 * each cgroup's depth at most one below the one before (its parent is the
 * nearest shallower row before it).  Main thread.
 */
#include "replay_int.h"
#include "xmalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define WHO_MAX_ROWS 8192

static double replay_who_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void replay_who_str(json_t *o, const char *key, char *buf, size_t len)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(buf, len, "%s", v ? v : "");
}

/* Row R from O (a cgroup, or a process when PROC); NULL, or what is wrong. */
static const char *replay_who_row(json_t *o, bool proc, const struct who_snap *w, struct who_row *r)
{
	json_t *td = json_object_get(o, "topdown");
	json_t *id = json_object_get(o, proc ? "pid" : "depth");

	if (!json_is_object(o) || !json_is_string(json_object_get(o, "path")) ||
	    !json_is_integer(id) || json_integer_value(id) < (proc ? 1 : 0) ||
	    json_integer_value(id) > (proc ? 4194304 : WHO_MAX_DEPTH))
		return "a who row has no path, or no pid (a process) or depth (a cgroup) in range";
	memset(r, 0, sizeof(*r));
	replay_who_str(o, "path", r->path, sizeof(r->path));
	replay_who_str(o, "name", r->name, sizeof(r->name));
	if (proc)
		r->pid = (int)json_integer_value(id);
	else
		r->depth = (int)json_integer_value(id);
	r->parent = -1;
	/* the stored figures by the table's keys; the computed ones follow from them */
	for (int k = 0; k < who_ncols; k++) {
		const struct who_col *c = &who_cols[k];
		char *p = (char *)r + c->offset;

		if (c->get)
			continue;
		switch (c->type) {
		case WHO_COL_NUM:
			*(double *)(void *)p = replay_who_num(o, c->key);
			break;
		case WHO_COL_INT:
			*(int *)(void *)p = (int)json_integer_value(json_object_get(o, c->key));
			break;
		case WHO_COL_BOOL:
			*(bool *)(void *)p = json_is_true(json_object_get(o, c->key));
			break;
		case WHO_COL_TEXT:
			replay_who_str(o, c->key, p, c->size);
			break;
		case WHO_COL_TOPDOWN:
			for (int t = 0; t < WHO_TD_MAX; t++)
				r->td[t] = t < w->ntd ? replay_who_num(td, w->td_name[t]) : NAN;
			break;
		}
	}
	if (!isfinite(r->age_s) || r->age_s < 0)
		r->age_s = 0;
	return NULL;
}

const char *replay_who(json_t *o, struct who_snap **out)
{
	json_t *cg = json_object_get(o, "cgroups"), *pr = json_object_get(o, "processes"), *v;
	struct who_snap *w;
	size_t k;
	int stack[WHO_MAX_DEPTH + 2];

	*out = NULL;
	if (!json_is_object(o) || !json_is_array(cg) || !json_is_array(pr) ||
	    json_array_size(cg) + json_array_size(pr) > WHO_MAX_ROWS)
		return "a sample's who is not an object with cgroups and processes (at most 8192)";
	w = xcalloc(1, sizeof(*w));
	w->rows = xcalloc(json_array_size(cg) + json_array_size(pr) + 1, sizeof(*w->rows));
	w->available = json_is_true(json_object_get(o, "available"));
	w->counting = json_is_true(json_object_get(o, "counting"));
	w->top = (int)json_integer_value(json_object_get(o, "top"));
	w->counted = (int)json_integer_value(json_object_get(o, "counted"));
	w->candidates = (int)json_integer_value(json_object_get(o, "candidates"));
	replay_who_str(o, "why", w->why, sizeof(w->why));
	replay_who_str(o, "note", w->note, sizeof(w->note));
	replay_who_str(o, "rdt_note", w->rdt_note, sizeof(w->rdt_note));
	replay_who_str(o, "topdown_why", w->td_why, sizeof(w->td_why));
	replay_who_str(o, "remote_why", w->rmt_why, sizeof(w->rmt_why));
	v = json_object_get(o, "remote_events");
	for (k = 0; json_is_array(v) && json_array_size(v) == 2 && k < 2; k++)
		snprintf(w->rmt_events[k], sizeof(w->rmt_events[k]), "%s",
			 json_string_value(json_array_get(v, k)) ? json_string_value(json_array_get(v, k))
			 : "");
	replay_who_str(o, "topdown_unit", w->td_unit, sizeof(w->td_unit));
	v = json_object_get(o, "topdown_metrics");
	if (v && (!json_is_array(v) || json_array_size(v) > WHO_TD_MAX)) {
		who_snap_free(w);
		return "a sample's who topdown_metrics is not a list of at most 5 metric names";
	}
	for (k = 0; v && k < json_array_size(v); k++) {
		const char *name = json_string_value(json_array_get(v, k));

		if (!name || !*name) {
			who_snap_free(w);
			return "a sample's who topdown_metrics holds something other than a name";
		}
		snprintf(w->td_name[w->ntd++], sizeof(w->td_name[0]), "%s", name);
	}
	json_array_foreach(cg, k, v) {
		struct who_row *r = &w->rows[w->nrows];
		const char *why = replay_who_row(v, false, w, r);
		int prev = w->nrows ? w->rows[w->nrows - 1].depth : -1;

		if (!why && r->depth > prev + 1)
			why = "a who cgroup is deeper than one below the row before it";
		if (why) {
			who_snap_free(w);
			return why;
		}
		stack[r->depth] = w->nrows;
		r->parent = r->depth ? stack[r->depth - 1] : -1;
		w->nrows++;
	}
	w->ncgroups = w->nrows;
	json_array_foreach(pr, k, v) {
		const char *why = replay_who_row(v, true, w, &w->rows[w->nrows]);

		if (why) {
			who_snap_free(w);
			return why;
		}
		w->nrows++;
	}
	*out = w;
	return NULL;
}

/* A throttle table's cell: a number, or NaN for null. */
static double replay_throttle_num(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *replay_throttle(json_t *o, int nsockets, struct sample_throttle **out)
{
	struct sample_throttle *t = xcalloc(1, sizeof(*t));
	json_t *c = json_object_get(o, "columns"), *d = json_object_get(o, "data"), *row;
	const char *why = json_string_value(json_object_get(o, "why"));
	/* each column's figure (sample_throttle_cols), -1 for the socket's id */
	int at[32], need = 0;
	size_t i, ncols = json_array_size(c);

	*out = t;
	if (why) {
		snprintf(t->why, sizeof(t->why), "%s", why);
		return NULL;
	}
	if (!json_is_array(c) || ncols < 2 || ncols > sizeof(at) / sizeof(at[0]) || !json_is_array(d) ||
	    (int)json_array_size(d) > nsockets)
		return "its throttle table is not a row of columns a socket";
	/*
	 * the columns by name: the socket's first, then figures pmutop knows, each
	 * once; a recording made before pmutop read the power-limit notifications
	 * has none of theirs
	 */
	for (i = 0; i < ncols; i++) {
		const char *name = json_string_value(json_array_get(c, i));
		int f = -1;

		for (int k = 0; name && k < sample_throttle_ncols; k++)
			if (!strcmp(name, sample_throttle_cols[k].name))
				f = k;
		if (!name || (i == 0) != !strcmp(name, "socket") || (i > 0 && f < 0) ||
		    (f >= 0 && (need & 1 << f)))
			return "its throttle table's columns are not pmutop's";
		at[i] = f;
		if (f >= 0)
			need |= 1 << f;
	}
	for (int k = 0; k < sample_throttle_ncols; k++)
		if (!sample_throttle_cols[k].power_limit && !(need & 1 << k))
			return "its throttle table lacks a column pmutop writes";
	t->nsockets = nsockets;
	t->s = xcalloc((size_t)nsockets + 1, sizeof(*t->s));
	for (int k = 0; k < nsockets; k++)
		for (int f = 0; f < sample_throttle_ncols; f++)
			sample_throttle_set(&t->s[k], &sample_throttle_cols[f], NAN);
	t->time = true;
	/* counted where its columns are there and "na" does not say why not */
	t->power_limit = true;
	for (int k = 0; k < sample_throttle_ncols; k++)
		if (sample_throttle_cols[k].power_limit &&
		    (!(need & 1 << k) || json_object_get(json_object_get(o, "na"), sample_throttle_cols[k].name)))
			t->power_limit = false;
	t->window_s = replay_throttle_num(json_object_get(o, "window_s"));
	json_array_foreach(d, i, row) {
		if (!json_is_array(row) || json_array_size(row) != ncols)
			return "a row of its throttle table is not as long as its columns";
		for (size_t j = 1; j < ncols; j++)
			sample_throttle_set(&t->s[i], &sample_throttle_cols[at[j]],
					    replay_throttle_num(json_array_get(row, j)));
		t->time &= !isnan(t->s[i].pkg_ms);
	}
	return NULL;
}
