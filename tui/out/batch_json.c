/*
 * batch_json: a sample as one JSON line (schema pmutop-batch/2,
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

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

/* One kind of entity: the rows, how a row names itself, the metrics it may write. */
struct batch_table {
	enum layout_scope scope;
	bool chas;                          /* the CHAs one by one (sample.boxes) */
	const struct sample_entity **rows;
	int *sub;                           /* CHAs: each row's CHA number */
	int n;
};

/* Metric K in a row of table T: at its scope (CHAs: a CHA group's), and shown. */
static bool batch_json_col(const struct sample *s, const struct batch_run *r,
			   const struct batch_table *t, int k)
{
	const struct layout *l = s->layout;

	if (t->chas ? !sample_box_metric(l, k) : !layout_scope_computed(l->metrics[k].scope, t->scope))
		return false;
	return batch_metric_shown(s, r, k);
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

/* The id columns of T ("cpu", "core", "kind", "socket", "channel", "cha"). */
static void batch_json_id_names(const struct batch_run *r, const struct batch_table *t, json_t *cols)
{
	bool hybrid = r->topo && r->topo->ncorekinds > 1;

	if (t->scope == LAYOUT_THREAD)
		json_array_append_new(cols, json_string("cpu"));
	if (t->scope <= LAYOUT_CORE)
		json_array_append_new(cols, json_string("core"));
	if (t->scope <= LAYOUT_CORE && hybrid)
		json_array_append_new(cols, json_string("kind"));
	json_array_append_new(cols, json_string("socket"));
	if (t->scope == LAYOUT_CHANNEL)
		json_array_append_new(cols, json_string("channel"));
	if (t->chas)
		json_array_append_new(cols, json_string("cha"));
}

static void batch_json_ids(const struct batch_run *r, const struct batch_table *t, int i, json_t *row)
{
	const struct sample_entity *e = t->rows[i];
	bool hybrid = r->topo && r->topo->ncorekinds > 1;

	if (t->scope == LAYOUT_THREAD)
		json_array_append_new(row, json_integer(e->index));
	if (t->scope <= LAYOUT_CORE)
		json_array_append_new(row, json_integer(e->os_core_id));
	if (t->scope <= LAYOUT_CORE && hybrid) {
		const char *kind = batch_core_kind(r, e);

		json_array_append_new(row, kind ? json_string(kind) : json_null());
	}
	json_array_append_new(row, json_integer(e->os_socket_id));
	if (t->scope == LAYOUT_CHANNEL)
		json_array_append_new(row, json_integer(e->index));
	if (t->chas)
		json_array_append_new(row, json_integer(t->sub[i]));
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
	if (r->counts && !t->chas)
		json_array_append_new(cols, json_string("counts"));
	for (int i = 0; i < t->n; i++) {
		json_t *row = json_array();

		batch_json_ids(r, t, i, row);
		for (int j = 0; j < nm; j++)
			json_array_append_new(row, batch_json_num(sample_metric(s, t->rows[i], ms[j])));
		if (r->counts && !t->chas)
			json_array_append_new(row, batch_counts_json(s, t->rows[i], t->scope));
		json_array_append_new(data, row);
	}
	free(ms);
	json_object_set_new(o, "columns", cols);
	json_object_set_new(o, "data", data);
	json_object_set_new(o, "na", na);
	return o;
}

/* Rows of a plain array of N entities. */
static json_t *batch_json_plain(const struct sample *s, const struct batch_run *r,
				struct sample_entity *es, int n, enum layout_scope scope)
{
	struct batch_table t = { .scope = scope };
	json_t *o;

	t.rows = xcalloc((size_t)n + 1, sizeof(*t.rows));
	t.n = 0;
	for (int i = 0; i < n; i++)
		if (batch_row_on(r, scope, i))
			t.rows[t.n++] = &es[i];
	o = batch_json_table(s, r, &t);
	free(t.rows);
	return o;
}

/* Every socket's channels, or (CHAS) its CHAs, in one table. */
static json_t *batch_json_per_socket(const struct sample *s, const struct batch_run *r, bool chas)
{
	int per = chas ? s->nboxes : s->nchannels;
	struct batch_table t = { .scope = chas ? LAYOUT_SOCKET : LAYOUT_CHANNEL, .chas = chas };
	json_t *o;

	t.rows = xcalloc((size_t)s->nsockets * per + 1, sizeof(*t.rows));
	t.sub = xcalloc((size_t)s->nsockets * per + 1, sizeof(*t.sub));
	for (int i = 0; i < s->nsockets; i++)
		for (int b = 0; b < per && (!r->socket_on || r->socket_on[i]); b++) {
			t.rows[t.n] = chas ? sample_box(s, i, b) : sample_channel(s, i, b);
			t.sub[t.n++] = b;
		}
	o = batch_json_table(s, r, &t);
	free(t.rows);
	free(t.sub);
	return o;
}

/* Did a CHA group count (or was asked for and is on): the CHAs' table is worth writing. */
static bool batch_json_chas_on(const struct sample *s, const struct batch_run *r)
{
	for (int k = 0; s->nboxes && k < s->layout->nmetrics; k++)
		if (sample_box_metric(s->layout, k) && batch_metric_shown(s, r, k))
			return true;
	return false;
}

/*
 * The interval's thermal throttling: {"columns": [socket, package_events,
 * package_ms, cores, core_events, core_ms, package_power_limit_events,
 * core_power_limit_events], "data": [...], "na": {}} a row a socket (the
 * milliseconds null where the kernel gives counts alone; the power-limit
 * notifications null, and named in "na" with why, where the kernel does not
 * count them), or {"why": ...} where none was read; NULL where nothing
 * looked (an older recording).  R NULL: every socket (a recording).
 */
static json_t *batch_json_throttle(const struct sample *s, const struct batch_run *r)
{
	static const char *const cols[] = { "socket", "package_events", "package_ms", "cores",
					    "core_events", "core_ms", "package_power_limit_events",
					    "core_power_limit_events" };
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
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		json_array_append_new(c, json_string(cols[i]));
	for (int k = 0; k < t->nsockets && k < s->nsockets; k++) {
		const struct sample_throttle_socket *x = &t->s[k];
		json_t *row;

		if (r && !batch_row_on(r, LAYOUT_SOCKET, k))
			continue;
		/* the kernel's whole counts and milliseconds, as integers */
		row = json_array();
		json_array_append_new(row, json_integer(s->sockets[k].os_socket_id));
		json_array_append_new(row, batch_json_whole(x->pkg_events));
		json_array_append_new(row, batch_json_whole(x->pkg_ms));
		json_array_append_new(row, json_integer(x->cores));
		json_array_append_new(row, batch_json_whole(x->core_events));
		json_array_append_new(row, batch_json_whole(x->core_ms));
		json_array_append_new(row, batch_json_whole(x->pkg_pl_events));
		json_array_append_new(row, batch_json_whole(x->core_pl_events));
		json_array_append_new(d, row);
	}
	na = json_object();
	if (!t->power_limit)
		for (size_t i = 6; i < 8; i++)
			json_object_set_new(na, cols[i], json_string(SAMPLE_THROTTLE_NO_PL));
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
	if (batch_scope_on(r, LAYOUT_THREAD))
		json_object_set_new(o, "threads", batch_json_plain(s, r, s->threads, s->nthreads,
								   LAYOUT_THREAD));
	if (batch_scope_on(r, LAYOUT_CORE))
		json_object_set_new(o, "cores", batch_json_plain(s, r, s->cores, s->ncores, LAYOUT_CORE));
	if (batch_scope_on(r, LAYOUT_SOCKET))
		json_object_set_new(o, "sockets", batch_json_plain(s, r, s->sockets, s->nsockets,
								   LAYOUT_SOCKET));
	if (batch_scope_on(r, LAYOUT_CHANNEL) && s->nchannels)
		json_object_set_new(o, "channels", batch_json_per_socket(s, r, false));
	if (batch_scope_on(r, BATCH_SCOPE_CHA) && batch_json_chas_on(s, r))
		json_object_set_new(o, "chas", batch_json_per_socket(s, r, true));
	if (thr)
		json_object_set_new(o, "throttle", thr);
}

json_t *batch_throttle_json(const struct sample *s)
{
	return batch_json_throttle(s, NULL);
}
