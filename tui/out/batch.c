/*
 * batch: the text and CSV formats, the registry of every format (JSON's is
 * batch_json.c, perf's shapes and the long CSV batch_perf.c) and what they
 * share.
 */
#include "batch.h"
#include "batch_int.h"
#include "frontend.h"
#include "format.h"
#include "pmu_regs.h"

/* Significant digits of a figure in CSV and JSON (counts of 1e6 and more per interval). */
#define BATCH_DIGITS 6

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Metrics a row of scope SCOPE shows: thread rows only thread metrics, and so on. */
static bool batch_metric_at(const struct layout *l, int m, enum layout_scope scope)
{
	return layout_scope_computed(l->metrics[m].scope, scope);
}

const char *batch_core_kind(const struct batch_run *r, const struct sample_entity *e)
{
	const struct topo *t = r->topo;

	if (!t || t->ncorekinds < 2 || e->core < 0 || e->core >= t->ncores ||
	    t->cores[e->core].corekind < 0 || t->cores[e->core].corekind >= t->ncorekinds)
		return NULL;
	return t->corekinds[t->cores[e->core].corekind].name;
}

bool batch_kind_written(const struct sample *s, const struct batch_run *r, const struct sample_kind *k)
{
	if (!batch_scope_on(r, (int)(k - sample_kinds)) || !sample_kind_count(k, s))
		return false;
	for (int m = 0; k->on_demand && m < s->layout->nmetrics; m++)
		if (k->figure(s->layout, m) && batch_metric_shown(s, r, m))
			return true;
	return !k->on_demand;
}

void batch_iso_time(double t, char *buf, size_t len)
{
	time_t secs = (time_t)t;
	struct tm tm;

	gmtime_r(&secs, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03dZ", (int)((t - (double)secs) * 1000));
}

/* ---- text ------------------------------------------------------------- */

/*
 * Text is for people: each figure in the screen's own format (format_figure),
 * so a number reads the same in both.  CSV and JSON, for programs, carry
 * BATCH_DIGITS significant digits.
 */
static void batch_text_value(FILE *out, double v, bool scaled, int width)
{
	char num[32];

	format_figure(v, num, sizeof(num));
	fprintf(out, " %*s%s", width, num, scaled ? "*" : " ");
}

/* V to BATCH_DIGITS significant digits: what the counts support, no 100.000306. */
double batch_round(double v)
{
	double scale;
	int e;

	if (!isfinite(v) || v == 0)
		return v;
	/* to BATCH_DIGITS significant digits by arithmetic: printing and parsing cost 3x more */
	e = (int)floor(log10(fabs(v))) + 1 - BATCH_DIGITS;
	if (e < -300 || e > 300)
		return v;
	scale = pow(10, abs(e));
	return e < 0 ? round(v * scale) / scale : round(v / scale) * scale;
}

/* " name=value" for every shown figure of kind K of row E (channel CH); * scaled, ! flagged. */
static void batch_text_pairs(const struct sample *s, const struct batch_run *r,
			     const struct sample_entity *e, int ch, const struct sample_kind *k,
			     FILE *out)
{
	const struct layout *l = s->layout;

	for (int m = 0; m < l->nmetrics; m++) {
		double v = sample_metric(s, e, m);

		if (!batch_metric_shown(s, r, m) || !k->figure(l, m))
			continue;
		char num[32];

		format_figure(v, num, sizeof(num));
		fprintf(out, " %s=%s", l->metrics[m].name, num);
		if (!isnan(v))
			fprintf(out, "%s%s", s->metric_scaled[m] ? "*" : "",
				sample_flag_find(s, e->socket, ch, m) ? "!" : "");
	}
	fputc('\n', out);
}

static int batch_text_body(const struct sample *s, const struct batch_run *r, FILE *out);

/* "# socket 0 channel 1: name=value ...": row I of kind K, named by its kind's keys. */
static void batch_text_row(const struct sample *s, const struct batch_run *r, enum sample_kind_id k,
			   int i, FILE *out)
{
	const struct sample_kind *kd = &sample_kinds[k];
	const struct sample_entity *e = sample_kind_row(kd, s, i);

	/* its socket first, then what names it within (a channel's, a CHA's number) */
	fprintf(out, "# socket %d", e->os_socket_id);
	for (int j = 0; j < kd->nlabels; j++)
		if (kd->labels[j] != SAMPLE_LABEL_SOCKET)
			fprintf(out, " %s %d", sample_label_names[kd->labels[j]],
				sample_label_value(e, kd->labels[j]));
	fputc(':', out);
	batch_text_pairs(s, r, e, sample_kind_has_label(kd, SAMPLE_LABEL_CHANNEL) ? e->index : -1,
			 kd, out);
}

void batch_socket_parts(const struct sample *s, const struct batch_run *r, int k,
			void (*fn)(void *ctx, enum sample_kind_id kind, int i), void *ctx)
{
	for (int kd = 0; kd < SAMPLE_NKINDS; kd++) {
		int per = sample_kind_per_socket(&sample_kinds[kd], s);

		if (!per || !batch_kind_written(s, r, &sample_kinds[kd]))
			continue;
		for (int i = k * per; i < (k + 1) * per; i++)
			if (batch_kind_row_on(s, r, (enum sample_kind_id)kd, i))
				fn(ctx, (enum sample_kind_id)kd, i);
	}
}

/* The text's walk of a socket's parts: its sample, run and stream. */
struct batch_text_walk {
	const struct sample *s;
	const struct batch_run *r;
	FILE *out;
};

static void batch_text_part(void *ctx, enum sample_kind_id k, int i)
{
	const struct batch_text_walk *w = ctx;

	batch_text_row(w->s, w->r, k, i, w->out);
}

static int batch_text(const struct sample *s, const struct batch_run *r, FILE *out)
{
	char when[40], skew[32] = "n/a";

	batch_iso_time(s->time, when, sizeof(when));
	if (!isnan(s->skew_us))
		snprintf(skew, sizeof(skew), "%.0f us%s", s->skew_us, s->batched ? " (one batch call)" : "");
	fprintf(out, "# sample %llu  %s  interval %.3f s%s  skew %s  %s%s\n",
		(unsigned long long)s->seq, when, s->interval_s,
		s->warmup ? " (warm-up: a short first interval, figures at once)" : "", skew,
		s->source, s->simulated && !strstr(s->source, "SIMULATED") ? " (SIMULATED)" : "");
	return batch_text_body(s, r, out);
}

/* Under the thread table's names, each one's unit ("" where it has none). */
static void batch_text_units(const struct sample *s, const struct batch_run *r, FILE *out)
{
	const struct layout *l = s->layout;

	fprintf(out, "%5s %5s %6s", "", "", "");
	if (s->nthreads && batch_core_kind(r, &s->threads[0]))
		fprintf(out, " %4s", "");
	for (int m = 0; m < l->nmetrics; m++)
		if (batch_metric_shown(s, r, m) && batch_metric_at(l, m, LAYOUT_THREAD))
			fprintf(out, " %*s ", (int)(strlen(l->metrics[m].name) > 10
						   ? strlen(l->metrics[m].name) : 10),
				l->metrics[m].unit && l->metrics[m].unit[0] ? l->metrics[m].unit : "");
	fputc('\n', out);
}

/* What follows a sample's header line: its notes, the thread table, sockets, channels. */
static int batch_text_body(const struct sample *s, const struct batch_run *r, FILE *out)
{
	const struct layout *l = s->layout;
	bool any_scaled = false;

	for (int g = 0; g < l->ngroups; g++)
		if (s->groups[g].state == SAMPLE_GROUP_BLOCKED)
			fprintf(out, "# group %s blocked: %s\n", l->groups[g].name, s->groups[g].why);
	if (s->rotation_s > 0)
		fprintf(out, "# groups rotate every %.2g ms\n", 1e3 * s->rotation_s);
	if (s->warning[0])
		fprintf(out, "# warning: %s\n", s->warning);
	if (s->error[0])
		fprintf(out, "# error: %s\n", s->error);
	if (batch_scope_on(r, LAYOUT_THREAD)) {
		fprintf(out, "%5s %5s %6s", "cpu", "core", "socket");
		if (s->nthreads && batch_core_kind(r, &s->threads[0]))
			fprintf(out, " %4s", "kind");
		for (int m = 0; m < l->nmetrics; m++)
			if (batch_metric_shown(s, r, m) && batch_metric_at(l, m, LAYOUT_THREAD))
				fprintf(out, " %*s ", (int)(strlen(l->metrics[m].name) > 10
							   ? strlen(l->metrics[m].name) : 10),
					l->metrics[m].name);
		fputc('\n', out);
		batch_text_units(s, r, out);
	}
	for (int i = 0; i < s->nthreads; i++) {
		const struct sample_entity *t = &s->threads[i];

		if (!batch_row_on(r, LAYOUT_THREAD, i))
			continue;
		fprintf(out, "%5d %5d %6d", t->index, t->os_core_id, t->os_socket_id);
		if (batch_core_kind(r, t))
			fprintf(out, " %4s", batch_core_kind(r, t));
		for (int m = 0; m < l->nmetrics; m++) {
			if (!batch_metric_shown(s, r, m) || !batch_metric_at(l, m, LAYOUT_THREAD))
				continue;
			any_scaled |= s->metric_scaled[m];
			batch_text_value(out, sample_metric(s, t, m), s->metric_scaled[m],
					 (int)(strlen(l->metrics[m].name) > 10
					       ? strlen(l->metrics[m].name) : 10));
		}
		fputc('\n', out);
	}
	/* per socket: its totals of every metric, core metrics included; then its parts */
	for (int k = 0; k < s->nsockets; k++) {
		if (batch_row_on(r, LAYOUT_SOCKET, k))
			batch_text_row(s, r, SAMPLE_KIND_SOCKET, k, out);
		batch_socket_parts(s, r, k, batch_text_part,
				   &(struct batch_text_walk){ .s = s, .r = r, .out = out });
	}
	{
		char thr[600];

		if (sample_throttle_text(s, thr, sizeof(thr)))
			fprintf(out, "# throttled %s\n", thr);
	}
	for (int i = 0; i < s->nflags; i++) {
		const struct sample_flag *f = &s->flags[i];
		char ch[24] = "";

		if (f->channel >= 0)
			snprintf(ch, sizeof(ch), " channel %d", f->channel);
		fprintf(out, "# ! socket %d%s %s: %s\n", s->sockets[f->socket].os_socket_id, ch,
			f->metric >= 0 ? s->layout->metrics[f->metric].name : "(all figures)", f->why);
	}
	if (s->nflags)
		fputs("# ! flagged: a figure that cannot be true (see the line above)\n", out);
	if (any_scaled)
		fputs("# * scaled: its group was counted for part of the interval (groups rotate)\n",
		      out);
	batch_who_text(s, r, out);
	fputc('\n', out);
	return 0;
}

/* ---- CSV -------------------------------------------------------------- */

/* One CSV row: row E of kind K's ids (those it has not empty), its metrics, the scaled and flagged lists. */
static void batch_csv_row(const struct sample *s, const struct batch_run *r, const char *label,
			  const char *when, const struct sample_kind *k, const struct sample_entity *e,
			  FILE *out)
{
	const struct layout *l = s->layout;
	enum layout_scope scope = k->scope;
	/* the flags are a socket's or a channel's (sample_flag) */
	bool flagged = k == &sample_kinds[SAMPLE_KIND_SOCKET] || k == &sample_kinds[SAMPLE_KIND_CHANNEL];
	int ch = k == &sample_kinds[SAMPLE_KIND_CHANNEL] ? e->index : -1;
	bool sep = false;

	/* the source never contains a comma or a quote: it is pmutop's own text */
	if (label)
		fprintf(out, "%s,", label);
	else
		fprintf(out, "%llu,", (unsigned long long)s->seq);
	fprintf(out, "%s,%.6f,%d,%s,%d,", when, s->interval_s, s->warmup, s->source, s->simulated);
	if (!isnan(s->skew_us))
		fprintf(out, "%.1f", s->skew_us);
	fprintf(out, ",%s", k->name);
	for (int lb = 0; lb < SAMPLE_NLABELS; lb++) {
		fputc(',', out);
		if (sample_kind_has_label(k, (enum sample_label)lb))
			fprintf(out, "%d", sample_label_value(e, (enum sample_label)lb));
	}
	/* a hybrid's kind of core (P, E, LP-E), empty elsewhere */
	fprintf(out, ",%s", scope <= LAYOUT_CORE && batch_core_kind(r, e) ? batch_core_kind(r, e) : "");
	for (int m = 0; m < l->nmetrics; m++) {
		double v;

		if (!batch_metric_shown(s, r, m))
			continue;
		v = k->figure(l, m) ? sample_metric(s, e, m) : NAN;
		if (isnan(v))
			fputc(',', out);
		else
			fprintf(out, ",%.*g", BATCH_DIGITS, v);
	}
	fputc(',', out);
	for (int m = 0; m < l->nmetrics; m++)
		if (s->metric_scaled[m] && k->figure(l, m) && batch_metric_shown(s, r, m)) {
			fprintf(out, "%s%s", sep ? ";" : "", l->metrics[m].name);
			sep = true;
		}
	fputc(',', out);
	sep = false;
	for (int m = 0; m < l->nmetrics && flagged; m++)
		if (batch_metric_shown(s, r, m) && sample_flag_find(s, e->socket, ch, m)) {
			fprintf(out, "%s%s", sep ? ";" : "", l->metrics[m].name);
			sep = true;
		}
	if (r->counts)
		batch_counts_csv_row(s, e, scope, out);
	batch_who_csv_empty(s, out);
	fputc('\n', out);
}

/*
 * A long table: one row per thread, core, socket and (when an uncore group
 * counts) memory channel, the scope column saying which; ids that do not
 * apply are empty (a core row has no cpu, a socket row no core).
 */
static int batch_csv(const struct sample *s, const struct batch_run *r, const char *label,
		     bool first, FILE *out)
{
	const struct layout *l = s->layout;
	char when[40];
	int ncols = 0;

	for (int m = 0; m < l->nmetrics; m++)
		ncols += batch_metric_shown(s, r, m);
	if (first) {
		fputs("seq,time,interval_s,warmup,source,simulated,skew_us,scope", out);
		for (int lb = 0; lb < SAMPLE_NLABELS; lb++)
			fprintf(out, ",%s", sample_label_names[lb]);
		fputs(",kind", out);
		/*
		 * every metric written is a column, its unit in the name ("util (%)"); a row
		 * leaves empty the ones not defined at its scope
		 */
		for (int m = 0; m < l->nmetrics; m++)
			if (batch_metric_shown(s, r, m))
				fprintf(out, l->metrics[m].unit && l->metrics[m].unit[0] ? ",%s (%s)"
					: ",%s", l->metrics[m].name, l->metrics[m].unit);
		fputs(",scaled,flagged", out);
		if (r->counts)
			batch_counts_csv_header(l, out);
		batch_who_csv_header(s, out);
		fputc('\n', out);
	}
	batch_iso_time(s->time, when, sizeof(when));
	for (int k = 0; k < SAMPLE_NKINDS; k++) {
		const struct sample_kind *kd = &sample_kinds[k];
		int n = batch_kind_written(s, r, kd) ? sample_kind_count(kd, s) : 0;

		for (int i = 0; i < n; i++)
			if (batch_kind_row_on(s, r, (enum sample_kind_id)k, i))
				batch_csv_row(s, r, label, when, kd, sample_kind_row(kd, s, i), out);
	}
	if (s->who) {
		char prefix[400], seq[32];

		/* seq..skew as every row has them */
		snprintf(seq, sizeof(seq), "%llu", (unsigned long long)s->seq);
		if (!isnan(s->skew_us))
			snprintf(prefix, sizeof(prefix), "%s,%s,%.6f,%d,%s,%d,%.1f",
				 label ? label : seq, when, s->interval_s, s->warmup, s->source,
				 s->simulated, s->skew_us);
		else
			snprintf(prefix, sizeof(prefix), "%s,%s,%.6f,%d,%s,%d,",
				 label ? label : seq, when, s->interval_s, s->warmup, s->source,
				 s->simulated);
		batch_who_csv_rows(s, r, prefix, ncols + (r->counts ? batch_counts_ncols(l) : 0), out);
	}
	return 0;
}

/* A text summary: its line, then the mean's and the peak's tables. */
static int batch_text_summary(const struct sample *mean, const struct sample *peak, const char *about,
			      const struct batch_run *r, bool first, FILE *out)
{
	fprintf(out, "# summary: %s; %llu samples over %.3f s (%s%s)\n", about,
		(unsigned long long)mean->seq, mean->interval_s, mean->source,
		mean->simulated && !strstr(mean->source, "SIMULATED") ? ", SIMULATED" : "");
	fputs("# mean over the run (each sample weighted by its interval):\n", out);
	batch_text_body(mean, r, out);
	fputs("# peak (the highest sample):\n", out);
	return batch_text_body(peak, r, out);
}

static int batch_text_sample(const struct sample *s, const struct batch_run *r, bool first, FILE *out)
{
	return batch_text(s, r, out);
}

static int batch_text_mark(const char *text, const char *when, double elapsed, FILE *out)
{
	fprintf(out, "# mark %s (+%.3f s): %s\n", when, elapsed, text);
	return 0;
}

const struct batch_format batch_format_text = {
	.name = "text", .help = "a table of each kind of row per sample, for people (the default)",
	.sample = batch_text_sample, .mark = batch_text_mark, .summary = batch_text_summary,
};

static int batch_csv_sample(const struct sample *s, const struct batch_run *r, bool first, FILE *out)
{
	return batch_csv(s, r, NULL, first, out);
}

/* The samples' columns; seq says mean or peak, interval_s the whole run. */
static int batch_csv_summary(const struct sample *mean, const struct sample *peak, const char *about,
			     const struct batch_run *r, bool first, FILE *out)
{
	batch_csv(mean, r, "mean", first, out);
	return batch_csv(peak, r, "peak", false, out);
}

/* (CSV is a table of figures: marks are in the text and JSON outputs) */
const struct batch_format batch_format_csv = {
	.name = "csv", .help = "a row per thread, core, socket, channel and CHA, a column per figure",
	.counts = true, .sample = batch_csv_sample, .summary = batch_csv_summary,
};

/* ---- the formats --------------------------------------------------------- */

/*
 * Every format, a line each (X(NAME): the const struct batch_format
 * batch_format_NAME of the file that writes it), in --help's order.
 */
#define BATCH_FORMATS_ALL(X) \
	X(text) \
	X(csv) \
	X(json) \
	X(long) \
	X(perf_csv) \
	X(perf_json) \
	/* a new format: its line above this one */
#define BATCH_FORMATS_DECLARE(name) extern const struct batch_format batch_format_##name;
#define BATCH_FORMATS_ENTRY(name) &batch_format_##name,
BATCH_FORMATS_ALL(BATCH_FORMATS_DECLARE)
const struct batch_format *const batch_formats[] = { BATCH_FORMATS_ALL(BATCH_FORMATS_ENTRY) NULL };

const struct batch_format *batch_format_find(const char *name)
{
	for (int i = 0; batch_formats[i]; i++)
		if (!strcmp(name, batch_formats[i]->name))
			return batch_formats[i];
	return NULL;
}

const char *batch_format_list(void)
{
	static char list[256];

	if (!list[0])
		for (int i = 0; batch_formats[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 !i ? "" : batch_formats[i + 1] ? ", " : " or ", batch_formats[i]->name);
	return list;
}

const struct batch_format *batch_format_of(const struct batch_format *fmt)
{
	return fmt ? fmt : batch_formats[0];
}

int batch_print(const struct sample *s, const struct batch_format *fmt, const struct batch_opts *o,
		bool first, FILE *out)
{
	struct batch_run r;
	int rc;

	batch_run_make(&r, s, o);
	rc = batch_format_of(fmt)->sample(s, &r, first, out);
	batch_run_free(&r);
	if (fflush(out) || ferror(out))
		return -errno ? -errno : -EIO;
	return rc;
}

/* ---- marks and the run's summary ----------------------------------------- */

int batch_print_mark(const struct mark *mk, double t0, const struct batch_format *fmt, FILE *out)
{
	char when[40];
	int rc = 0;

	fmt = batch_format_of(fmt);
	batch_iso_time(mk->time, when, sizeof(when));
	if (fmt->mark)
		rc = fmt->mark(mk->text, when, mk->time - t0, out);
	if (fflush(out) || ferror(out))
		return -errno ? -errno : -EIO;
	return rc;
}

int batch_print_summary(const struct sample *mean, const struct sample *peak, const char *about,
			const struct batch_format *fmt, const struct batch_opts *bo, bool first,
			FILE *out)
{
	struct batch_run r;
	int rc = 0;

	fmt = batch_format_of(fmt);
	batch_run_make(&r, mean, bo);
	r.t0 = NAN;
	if (fmt->summary)
		rc = fmt->summary(mean, peak, about, &r, first, out);
	batch_run_free(&r);
	if (fflush(out) || ferror(out))
		return -errno ? -errno : -EIO;
	return rc;
}
