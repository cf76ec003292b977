/*
 * batch_json: the JSON format, a sample as one JSON line (schema pmutop-batch/2,
 * data/schema/pmutop-batch-2.schema.json).  Each kind of entity (threads,
 * cores, sockets, channels, CHAs) is one table: its columns named once,
 * then a row of values per entity, the shape pandas reads as
 * DataFrame(data, columns=columns).  A metric that counted but read n/a in
 * every row is named once in the table's "na", with why, instead of a null
 * per row;
 * a scaled figure is named once in the sample's "scaled".  Main thread.
 */
#include "batch_int.h"
#include "frontend.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

/* The rows of one kind of entity (sample_kind.h) that are written. */
struct batch_table {
	const struct sample_kind *kind;
	const struct sample_entity **rows;
	int n;
};

/* Metric K in a row of table T: one of its kind's figures, and shown. */
static bool batch_json_col(const struct sample *s, const struct batch_run *r,
			   const struct batch_table *t, int k)
{
	return t->kind->figure(s->layout, k) && batch_metric_shown(s, r, k);
}

static json_t *batch_json_num(double v)
{
	return isnan(v) ? json_null() : json_real(batch_round(v));
}

/*
 * Why metric K, whose group counted, reads n/a in every row: its layout's
 * "unavailable" line, a group it reads that did not count, or a formula
 * without a finite result.
 */
static const char *batch_json_na_why(const struct sample *s, int k, char *buf, size_t len)
{
	const struct layout *l = s->layout;
	const struct layout_metric *mt = &l->metrics[k];

	if (mt->na)
		return mt->na;
	for (int g = 0; g < l->ngroups; g++) {
		if (!(mt->uses & LAYOUT_GROUP(g)))
			continue;
		if (s->groups[g].state == SAMPLE_GROUP_OFF) {
			snprintf(buf, len, "it reads group %s, which is off", l->groups[g].name);
			return buf;
		}
		if (s->groups[g].state == SAMPLE_GROUP_BLOCKED) {
			snprintf(buf, len, "it reads group %s, blocked: %s", l->groups[g].name,
				 s->groups[g].why);
			return buf;
		}
	}
	return "no finite result: a count its formula divides by was 0";
}

static json_t *batch_json_whole(double v)
{
	return isnan(v) ? json_null() : json_integer((json_int_t)llround(v));
}

/* A hybrid's kind of core ("P", "E") follows the core's id in the rows of threads and cores. */
static bool batch_json_core_kind(const struct batch_run *r, const struct batch_table *t,
				 enum sample_label lb)
{
	return lb == SAMPLE_LABEL_CORE && t->kind->scope <= LAYOUT_CORE && r->topo &&
	       r->topo->ncorekinds > 1;
}

/* The id columns of T: its kind's labels ("cpu", "core", "socket", "channel", "cha"). */
static void batch_json_id_names(const struct batch_run *r, const struct batch_table *t, json_t *cols)
{
	for (int i = 0; i < t->kind->nlabels; i++) {
		json_array_append_new(cols, json_string(sample_label_names[t->kind->labels[i]]));
		if (batch_json_core_kind(r, t, t->kind->labels[i]))
			json_array_append_new(cols, json_string("kind"));
	}
}

static void batch_json_ids(const struct batch_run *r, const struct batch_table *t, int i, json_t *row)
{
	const struct sample_entity *e = t->rows[i];

	for (int j = 0; j < t->kind->nlabels; j++) {
		json_array_append_new(row, json_integer(sample_label_value(e, t->kind->labels[j])));
		if (batch_json_core_kind(r, t, t->kind->labels[j])) {
			const char *kind = batch_core_kind(r, e);

			json_array_append_new(row, kind ? json_string(kind) : json_null());
		}
	}
}

/*
 * T as {"columns": [...], "data": [[...], ...], "na": {NAME: why}}: the ids, the
 * metrics with a figure in some row, and with --counts each row's counts.
 */
static json_t *batch_json_table(const struct sample *s, const struct batch_run *r,
				const struct batch_table *t)
{
	const struct layout *l = s->layout;
	json_t *o = json_object(), *cols = json_array(), *data = json_array(), *na = json_object();
	int *ms = xcalloc((size_t)l->nmetrics + 1, sizeof(*ms)), nm = 0;

	batch_json_id_names(r, t, cols);
	for (int k = 0; k < l->nmetrics; k++) {
		bool any = false;

		if (!batch_json_col(s, r, t, k))
			continue;
		for (int i = 0; i < t->n && !any; i++)
			any = !isnan(sample_metric(s, t->rows[i], k));
		/* a layout's names are checked ASCII when it is read: no UTF-8 check per sample */
		if (any) {
			ms[nm++] = k;
			json_array_append_new(cols, json_string_nocheck(l->metrics[k].name));
		} else if (t->n) {
			char why[SAMPLE_WHY_MAX + 64];

			json_object_set_new_nocheck(na, l->metrics[k].name,
						    json_string(batch_json_na_why(s, k, why, sizeof(why))));
		}
	}
	if (r->counts && t->kind->counts)
		json_array_append_new(cols, json_string("counts"));
	for (int i = 0; i < t->n; i++) {
		json_t *row = json_array();

		batch_json_ids(r, t, i, row);
		for (int j = 0; j < nm; j++)
			json_array_append_new(row, batch_json_num(sample_metric(s, t->rows[i], ms[j])));
		if (r->counts && t->kind->counts)
			json_array_append_new(row, batch_counts_json(s, t->rows[i], t->kind->scope));
		json_array_append_new(data, row);
	}
	free(ms);
	json_object_set_new(o, "columns", cols);
	json_object_set_new(o, "data", data);
	json_object_set_new(o, "na", na);
	return o;
}

/* Kind K's table in S: the rows R writes. */
static json_t *batch_json_kind(const struct sample *s, const struct batch_run *r, enum sample_kind_id k)
{
	struct batch_table t = { .kind = &sample_kinds[k] };
	int n = sample_kind_count(t.kind, s);
	json_t *o;

	t.rows = xcalloc((size_t)n + 1, sizeof(*t.rows));
	for (int i = 0; i < n; i++)
		if (batch_kind_row_on(s, r, k, i))
			t.rows[t.n++] = sample_kind_row(t.kind, s, i);
	o = batch_json_table(s, r, &t);
	free(t.rows);
	return o;
}

/*
 * The interval's thermal throttling: {"columns": [socket, then
 * sample_throttle_cols' names: package_events ... core_power_limit_events],
 * "data": [...], "na": {}} a row a socket (the
 * milliseconds null where the kernel gives counts alone; the power-limit
 * notifications null, and named in "na" with why, where the kernel does not
 * count them), or {"why": ...} where none was read; NULL where nothing
 * looked (an older recording).  R NULL: every socket (a recording).
 */
static json_t *batch_json_throttle(const struct sample *s, const struct batch_run *r)
{
	const struct sample_throttle *t = s->throttle;
	json_t *o, *c, *d, *na;

	if (!t)
		return NULL;
	o = json_object();
	if (t->why[0]) {
		json_object_set_new(o, "why", json_string(t->why));
		return o;
	}
	c = json_array();
	d = json_array();
	na = json_object();
	json_array_append_new(c, json_string("socket"));
	for (int i = 0; i < sample_throttle_ncols; i++) {
		json_array_append_new(c, json_string(sample_throttle_cols[i].name));
		if (sample_throttle_cols[i].power_limit && !t->power_limit)
			json_object_set_new(na, sample_throttle_cols[i].name,
					    json_string(SAMPLE_THROTTLE_NO_PL));
	}
	for (int k = 0; k < t->nsockets && k < s->nsockets; k++) {
		json_t *row;

		if (r && !batch_row_on(r, LAYOUT_SOCKET, k))
			continue;
		/* the kernel's whole counts and milliseconds, as integers */
		row = json_array();
		json_array_append_new(row, json_integer(s->sockets[k].os_socket_id));
		for (int i = 0; i < sample_throttle_ncols; i++)
			json_array_append_new(row, batch_json_whole(sample_throttle_get(&t->s[k],
								&sample_throttle_cols[i])));
		json_array_append_new(d, row);
	}
	json_object_set_new(o, "columns", c);
	json_object_set_new(o, "data", d);
	json_object_set_new(o, "na", na);
	/* the counters' own window (the looks' times), which the milliseconds are of */
	json_object_set_new(o, "window_s", isfinite(t->window_s) ? json_real(t->window_s) : json_null());
	return o;
}

void batch_json_tables(const struct sample *s, const struct batch_run *r, json_t *o)
{
	json_t *thr = batch_json_throttle(s, r);

	const struct layout *l = s->layout;
	json_t *scaled = json_array();

	for (int k = 0; k < l->nmetrics; k++)
		if (s->metric_scaled[k] && batch_metric_shown(s, r, k))
			json_array_append_new(scaled, json_string_nocheck(l->metrics[k].name));
	json_object_set_new(o, "scaled", scaled);
	for (int k = 0; k < SAMPLE_NKINDS; k++) {
		const struct sample_kind *kd = &sample_kinds[k];

		if (!batch_kind_written(s, r, kd))
			continue;
		json_object_set_new(o, kd->table, batch_json_kind(s, r, (enum sample_kind_id)k));
	}
	if (thr)
		json_object_set_new(o, "throttle", thr);
}

json_t *batch_throttle_json(const struct sample *s)
{
	return batch_json_throttle(s, NULL);
}

/* ---- the format ------------------------------------------------------- */

static json_t *batch_json_flags(const struct sample *s)
{
	json_t *a = json_array();

	for (int i = 0; i < s->nflags; i++) {
		const struct sample_flag *f = &s->flags[i];
		json_t *o = json_object();

		json_object_set_new(o, "socket", json_integer(s->sockets[f->socket].os_socket_id));
		json_object_set_new(o, "channel", f->channel >= 0 ? json_integer(f->channel) : json_null());
		json_object_set_new(o, "metric", f->metric >= 0
				    ? json_string(s->layout->metrics[f->metric].name) : json_null());
		json_object_set_new(o, "why", json_string(f->why));
		json_array_append_new(a, o);
	}
	return a;
}

/* S as one JSON object (FIRST with --counts: each metric's formula and the counts it reads). */
static json_t *batch_json_object(const struct sample *s, const struct batch_run *r, bool first)
{
	const struct layout *l = s->layout;
	json_t *o = json_object(), *groups = json_object();
	char when[40];

	batch_iso_time(s->time, when, sizeof(when));
	json_object_set_new(o, "seq", json_integer((json_int_t)s->seq));
	json_object_set_new(o, "time", json_string(when));
	json_object_set_new(o, "interval_s", json_real(s->interval_s));
	json_object_set_new(o, "source", json_string(s->source));
	json_object_set_new(o, "simulated", json_boolean(s->simulated));
	/* NaN (no skew: one CPU, a summary) is null: jansson has no NaN, and the key stays */
	json_object_set_new(o, "skew_us", isfinite(s->skew_us) ? json_real(s->skew_us) : json_null());
	json_object_set_new(o, "batched", json_boolean(s->batched));
	/* the first sample's short interval (figures at once): a warm-up, not the interval asked */
	json_object_set_new(o, "warmup", json_boolean(s->warmup));
	json_object_set_new(o, "rotation_s", isfinite(s->rotation_s) ? json_real(s->rotation_s)
								      : json_null());
	json_object_set_new(o, "layout", json_string(l->name));
	if (r->counts && first)
		json_object_set_new(o, "formulas", batch_counts_formulas(l));
	if (first) {
		/* the schema its lines follow (data/schema/pmutop-batch-2.schema.json's $id) */
		json_object_set_new(o, "schema", json_string(BATCH_SCHEMA));
		/* every metric's unit once, in the first line ("" where it has none: a ratio, a count) */
		json_t *units = json_object();

		for (int m = 0; m < l->nmetrics; m++)
			if (!r->listed || r->listed[m])
				json_object_set_new(units, l->metrics[m].name,
						    json_string(l->metrics[m].unit ? l->metrics[m].unit : ""));
		json_object_set_new(o, "units", units);
	}
	for (int g = 0; g < l->ngroups; g++) {
		json_t *go = json_object();

		json_object_set_new(go, "state", json_string(sample_group_state_names[s->groups[g].state]));
		if (s->groups[g].state == SAMPLE_GROUP_BLOCKED)
			json_object_set_new(go, "why", json_string(s->groups[g].why));
		if (s->groups[g].state == SAMPLE_GROUP_ROTATING)
			json_object_set_new(go, "live_share", isfinite(s->groups[g].live_share)
					    ? json_real(s->groups[g].live_share) : json_null());
		json_object_set_new(groups, l->groups[g].name, go);
	}
	json_object_set_new(o, "groups", groups);
	batch_json_tables(s, r, o);
	json_object_set_new(o, "flags", batch_json_flags(s));
	if (s->who)
		json_object_set_new(o, "who", batch_who_json(s, r));
	json_object_set_new(o, "warning", s->warning[0] ? json_string(s->warning) : json_null());
	json_object_set_new(o, "error", s->error[0] ? json_string(s->error) : json_null());
	return o;
}

/* O on one line, and let go of it. */
static int batch_json_line(json_t *o, FILE *out)
{
	int rc = json_dumpf(o, out, JSON_COMPACT | JSON_REAL_PRECISION(10));

	fputc('\n', out);
	json_decref(o);
	return rc ? -EIO : 0;
}

static int batch_json_sample(const struct sample *s, const struct batch_run *r, bool first, FILE *out)
{
	return batch_json_line(batch_json_object(s, r, first), out);
}

static int batch_json_mark(const char *text, const char *when, double elapsed, FILE *out)
{
	json_t *o = json_object();

	json_object_set_new(o, "mark", json_string(text));
	json_object_set_new(o, "time", json_string(when));
	json_object_set_new(o, "elapsed_s", json_real(elapsed));
	return batch_json_line(o, out);
}

/* One {"summary": {about, samples, seconds, mean, peak}} line. */
static int batch_json_summary(const struct sample *mean, const struct sample *peak, const char *about,
			      const struct batch_run *r, bool first, FILE *out)
{
	json_t *o = json_object(), *sum = json_object();

	json_object_set_new(sum, "about", json_string(about));
	json_object_set_new(sum, "samples", json_integer((json_int_t)mean->seq));
	json_object_set_new(sum, "seconds", json_real(mean->interval_s));
	json_object_set_new(sum, "mean", batch_json_object(mean, r, false));
	json_object_set_new(sum, "peak", batch_json_object(peak, r, false));
	json_object_set_new(o, "summary", sum);
	return batch_json_line(o, out);
}

const struct batch_format batch_format_json = {
	.name = "json", .help = "an object a line (schema " BATCH_SCHEMA "): the sample's fields, a table for each kind of row",
	.counts = true, .sample = batch_json_sample, .mark = batch_json_mark, .summary = batch_json_summary,
};
