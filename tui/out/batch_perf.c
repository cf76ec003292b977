/*
 * batch_perf: a sample in the shapes scripts already parse.
 *
 *   long       CSV, one figure a row: time (ISO), interval_s, seq, scope,
 *              cpu, core, socket, channel, name, value, unit, scaled (1
 *              when its groups took turns); a header line first; n/a is no
 *              row (a figure that could not be had is not one)
 *   perf-csv   perf stat -I -A -x, records: time since the run's start,
 *              the CPU ("CPU3"; a socket's uncore counts "S0", a channel's
 *              "S0-CH2"), counter value as read, unit, event, its runtime
 *              in ns, the running share in %, metric value, metric unit;
 *              the counts first, then a line per metric (the count fields
 *              empty, the metric's name and unit its unit: "% Retiring")
 *   perf-json  the same records as perf stat -j writes them, a JSON object
 *              a line: interval, cpu (or socket), counter-value, unit,
 *              event, event-runtime, pcnt-running, metric-value, metric-unit
 *
 * What a not counted event reads: perf's "<not counted>".  Main thread.
 */
#include "batch_int.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* perf's two shapes. */
enum batch_perf_shape { BATCH_PERF_CSV, BATCH_PERF_JSON };

struct batch_perf_line {
	const struct sample *s;
	const struct batch_run *r;
	const struct sample_entity *e; /* the row whose records these are */
	enum batch_perf_shape fmt;
	char who[48];          /* "CPU3", "S0", "S0-CH2" (sample_kind_perf_name) */
	double t;              /* seconds since the run's start (perf's interval) */
	FILE *out;
};

/* O with the record's interval and CPU (or socket) first, on a line; let go of it. */
static void batch_perf_json(const struct batch_perf_line *p, json_t *fields)
{
	json_t *o = json_object();

	json_object_set_new(o, "interval", json_real(p->t));
	json_object_set_new(o, p->who[0] == 'C' ? "cpu" : "socket",
			    json_string(p->who + (p->who[0] == 'C' ? 3 : 1)));
	json_object_update(o, fields);
	json_decref(fields);
	json_dumpf(o, p->out, JSON_COMPACT | JSON_REAL_PRECISION(10));
	fputc('\n', p->out);
	json_decref(o);
}

/* One counter record: perf stat's fields for a count as read over WINDOW seconds. */
static void batch_perf_count(const char *name, const char *event, double count, double scaled,
			     double window, void *ctx)
{
	struct batch_perf_line *p = ctx;
	/*
	 * perf's running over enabled: the seconds the count ran over the seconds
	 * its row counted (a thread's own window; a row without one, the sample's)
	 */
	double enabled = p->e && p->e->window > 0 ? p->e->window : p->s->interval_s;
	double share = window > 0 && enabled > 0 ? 100 * window / enabled : NAN;

	(void)event;
	(void)scaled;
	if (p->fmt == BATCH_PERF_CSV) {
		if (isnan(count))
			fprintf(p->out, "%.9f,%s,<not counted>,,%s,0,0.00,,\n", p->t, p->who, name);
		else
			fprintf(p->out, "%.9f,%s,%.0f,,%s,%.0f,%.2f,,\n", p->t, p->who, count, name,
				window * 1e9, fmin(share, 100));
		return;
	}
	json_t *o = json_object();
	char num[64];

	snprintf(num, sizeof(num), "%.6f", count);
	json_object_set_new(o, "counter-value", json_string(isnan(count) ? "<not counted>" : num));
	json_object_set_new(o, "unit", json_string(""));
	json_object_set_new(o, "event", json_string(name));
	json_object_set_new(o, "event-runtime", json_integer(isnan(window) ? 0
							  : (json_int_t)llround(window * 1e9)));
	json_object_set_new(o, "pcnt-running", json_real(isnan(share) ? 0 : fmin(share, 100)));
	json_object_set_new(o, "metric-value", json_string(""));
	json_object_set_new(o, "metric-unit", json_string(""));
	batch_perf_json(p, o);
}

/* One metric record: the count fields empty, the figure and "UNIT NAME" (perf's metric unit). */
static void batch_perf_metric(const struct batch_perf_line *p, int m, double v)
{
	const struct layout_metric *mt = &p->s->layout->metrics[m];
	char unit[200];

	snprintf(unit, sizeof(unit), "%s%s%s", mt->unit && mt->unit[0] ? mt->unit : "",
		 mt->unit && mt->unit[0] ? " " : "", mt->name);
	if (p->fmt == BATCH_PERF_CSV) {
		fprintf(p->out, "%.9f,%s,,,,,,%.*g,%s\n", p->t, p->who, 6, v, unit);
		return;
	}
	json_t *o = json_object();
	char num[64];

	snprintf(num, sizeof(num), "%.6f", v);
	json_object_set_new(o, "metric-value", json_string(num));
	json_object_set_new(o, "metric-unit", json_string(unit));
	batch_perf_json(p, o);
}

/*
 * Row I of kind K's records (a kind perf stat -A has rows of): its counts
 * (where it has its own), then its figures (n/a left out).  CTX: the line.
 */
static void batch_perf_entity(void *ctx, enum sample_kind_id k, int i)
{
	struct batch_perf_line *p = ctx;
	const struct layout *l = p->s->layout;
	const struct sample_kind *kd = &sample_kinds[k];
	const struct sample_entity *e = sample_kind_row(kd, p->s, i);

	if (!kd->perf)
		return;
	sample_kind_perf_name(kd, e, p->who, sizeof(p->who));
	p->e = e;
	if (kd->counts)
		batch_counts_each(p->s, e, kd->scope, batch_perf_count, p);
	for (int m = 0; m < l->nmetrics; m++) {
		double v;

		if (!batch_metric_shown(p->s, p->r, m) || !kd->figure(l, m))
			continue;
		v = sample_metric(p->s, e, m);
		if (!isnan(v))
			batch_perf_metric(p, m, v);
	}
}

/* The long CSV's header: its id columns are the kinds' labels (sample_kind.h). */
static void batch_long_header(FILE *out)
{
	fputs("time,interval_s,seq,scope", out);
	for (int lb = 0; lb < SAMPLE_NLABELS; lb++)
		fprintf(out, ",%s", sample_label_names[lb]);
	fputs(",name,value,unit,scaled\n", out);
}

/* The scope column and ids of row E of kind K into IDS ("thread,3,1,0,,": ids it has not empty). */
static void batch_long_ids(const struct sample_kind *k, const struct sample_entity *e, char *ids,
			   size_t len)
{
	size_t at = (size_t)snprintf(ids, len, "%s", k->name);

	for (int lb = 0; lb < SAMPLE_NLABELS && at < len; lb++)
		at += (size_t)(sample_kind_has_label(k, (enum sample_label)lb)
			       ? snprintf(ids + at, len - at, ",%d", sample_label_value(e, (enum sample_label)lb))
			       : snprintf(ids + at, len - at, ","));
}

/* The long CSV's rows of row E of kind K. */
static void batch_long_entity(const struct sample *s, const struct batch_run *r,
			      const struct sample_kind *k, const struct sample_entity *e,
			      const char *when, FILE *out)
{
	const struct layout *l = s->layout;
	char ids[128];

	batch_long_ids(k, e, ids, sizeof(ids));
	for (int m = 0; m < l->nmetrics; m++) {
		double v;

		if (!batch_metric_shown(s, r, m) || !k->figure(l, m))
			continue;
		v = sample_metric(s, e, m);
		if (isnan(v))
			continue;
		fprintf(out, "%s,%.6f,%llu,%s,%s,%.6g,%s,%d\n", when, s->interval_s,
			(unsigned long long)s->seq, ids, l->metrics[m].name, v,
			l->metrics[m].unit ? l->metrics[m].unit : "", s->metric_scaled[m]);
	}
}

/*
 * The long CSV's throttle rows of socket K (sample.throttle: the kernel's
 * whole counts and milliseconds over the counters' own window), those read;
 * none where --metrics chose the figures (it names the layout's metrics).
 */
static void batch_long_throttle(const struct sample *s, int k, const char *when, FILE *out)
{
	const struct sample_throttle *t = s->throttle;
	const struct sample_throttle_socket *x;

	if (!t || k >= t->nsockets)
		return;
	x = &t->s[k];
	for (int i = 0; i <= sample_throttle_ncols; i++) {
		/* the seconds they are over last: between two looks, not quite the sample's interval */
		const struct sample_throttle_col *c = i < sample_throttle_ncols ? &sample_throttle_cols[i] : NULL;
		double v = c ? sample_throttle_get(x, c) : t->window_s;

		if (c && c->power_limit && !t->power_limit)
			continue;
		if (isfinite(v))
			fprintf(out, "%s,%.6f,%llu,socket,,,%d,,,%s,%.*f,%s,0\n", when, s->interval_s,
				(unsigned long long)s->seq, s->sockets[k].os_socket_id,
				c ? c->figure : "throttle_window_s", c ? 0 : 6, v, c ? c->unit : "s");
	}
}

static int batch_perf_print(const struct sample *s, const struct batch_run *r,
			    enum batch_perf_shape fmt, FILE *out)
{
	struct batch_perf_line p = { .s = s, .r = r, .fmt = fmt, .out = out,
				     .t = isnan(r->t0) ? s->time : s->time - r->t0 };

	/* the rows of their own first (the CPUs), then each socket's and its parts' */
	for (int k = 0; k < SAMPLE_NKINDS; k++)
		for (int i = 0; !sample_kind_is_part(&sample_kinds[k]) && k != SAMPLE_KIND_SOCKET &&
		     batch_kind_written(s, r, &sample_kinds[k]) &&
		     i < sample_kind_count(&sample_kinds[k], s); i++)
			if (batch_kind_row_on(s, r, (enum sample_kind_id)k, i))
				batch_perf_entity(&p, (enum sample_kind_id)k, i);
	for (int sk = 0; sk < s->nsockets; sk++) {
		if (batch_kind_row_on(s, r, SAMPLE_KIND_SOCKET, sk))
			batch_perf_entity(&p, SAMPLE_KIND_SOCKET, sk);
		batch_socket_parts(s, r, sk, batch_perf_entity, &p);
	}
	return ferror(out) ? -EIO : 0;
}

static int batch_long_sample(const struct sample *s, const struct batch_run *r, bool first, FILE *out)
{
	char when[40];

	batch_iso_time(s->time, when, sizeof(when));
	if (first)
		batch_long_header(out);
	for (int k = 0; k < SAMPLE_NKINDS; k++) {
		const struct sample_kind *kd = &sample_kinds[k];
		int n = batch_kind_written(s, r, kd) ? sample_kind_count(kd, s) : 0;

		for (int i = 0; i < n; i++)
			if (batch_kind_row_on(s, r, (enum sample_kind_id)k, i))
				batch_long_entity(s, r, kd, sample_kind_row(kd, s, i), when, out);
	}
	/* the throttle figures, socket by socket after the kinds' rows */
	for (int k = 0; k < s->nsockets && !r->listed; k++)
		if (batch_row_on(r, LAYOUT_SOCKET, k))
			batch_long_throttle(s, k, when, out);
	return 0;
}

static int batch_perf_csv_sample(const struct sample *s, const struct batch_run *r, bool first,
				 FILE *out)
{
	return batch_perf_print(s, r, BATCH_PERF_CSV, out);
}

static int batch_perf_json_sample(const struct sample *s, const struct batch_run *r, bool first,
				  FILE *out)
{
	return batch_perf_print(s, r, BATCH_PERF_JSON, out);
}

/* (the samples' records alone, as perf stat -I's: no marks, no summary; perf's have the counts always) */
const struct batch_format batch_format_long = {
	.name = "long", .help = "CSV, a figure a row: time, scope, ids, name, value, unit, scaled",
	.sample = batch_long_sample,
};
const struct batch_format batch_format_perf_csv = {
	.name = "perf-csv", .help = "perf stat -I -A -x, records: the counts, then the metrics",
	.counts = true, .sample = batch_perf_csv_sample,
};
const struct batch_format batch_format_perf_json = {
	.name = "perf-json", .help = "the same records as perf stat -I -A -j writes them",
	.counts = true, .sample = batch_perf_json_sample,
};
