/*
 * prom: a sample as Prometheus / OpenMetrics exposition.  See prom.h.
 *
 * Exposition format: https://prometheus.io/docs/instrumenting/exposition_formats/
 * (text 0.0.4) and the OpenMetrics 1.0 specification: one "# HELP" and
 * "# TYPE" line per family, then its samples; label values escape \ " and
 * newline, HELP text \ and newline; OpenMetrics names a counter family
 * without its _total and ends with "# EOF".
 */
#include "prom.h"
#include "figure.h"
#include "prom_int.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A layout unit in base units: value x FACTOR, the family named NAME-minus-STRIP + SUFFIX. */
struct prom_unit {
	const char *unit;      /* as the layout writes it */
	double factor;
	const char *strip;     /* a unit word the metric's name ends with, dropped first */
	const char *suffix;    /* the base unit the family name ends with */
};

static const struct prom_unit prom_units[] = {
	{ .unit = "%", .factor = 0.01, .strip = "_pct", .suffix = "_ratio" },
	{ .unit = "ratio", .factor = 1, .strip = "_ratio", .suffix = "_ratio" },
	{ .unit = "B/s", .factor = 1, .strip = "_bytes_per_s", .suffix = "_bytes_per_second" },
	/* Intel's data: 1,000,000 bytes (its formulas divide by 1000000) */
	{ .unit = "MB/sec", .factor = 1e6, .strip = "", .suffix = "_bytes_per_second" },
	{ .unit = "W", .factor = 1, .strip = "_watts", .suffix = "_watts" },
	{ .unit = "ns", .factor = 1e-9, .strip = "_ns", .suffix = "_seconds" },
	{ .unit = "GHz", .factor = 1e9, .strip = "ghz", .suffix = "clock_hertz" },
	/* a link's speed (pmutop's upi_link_gts): transfers a second */
	{ .unit = "GT/s", .factor = 1e9, .strip = "_gts", .suffix = "_transfers_per_second" },
	{ .unit = "uops/cycle", .factor = 1, .strip = "", .suffix = "_uops_per_cycle" },
	{ .unit = "misses/kinst", .factor = 1, .strip = "_per_kinst",
	  .suffix = "_per_thousand_instructions" },
	{ .unit = "cycles", .factor = 1, .strip = "_cycles", .suffix = "_cycles" },
	{ .unit = "requests", .factor = 1, .strip = "_requests", .suffix = "_requests" },
	/* any other "x/s": a rate of events per second */
	{ .unit = "/s", .factor = 1, .strip = "_per_s", .suffix = "_per_second" },
};

/* Built-in counters exported as totals, with what they count. */
static const struct {
	enum layout_builtin b;
	enum layout_scope scope;
	const char *family;
} prom_builtins[] = {
	{ .b = LAYOUT_B_instructions, .scope = LAYOUT_THREAD, .family = "instructions" },
	{ .b = LAYOUT_B_cycles, .scope = LAYOUT_THREAD, .family = "cycles" },
	{ .b = LAYOUT_B_ref_cycles, .scope = LAYOUT_THREAD, .family = "ref_cycles" },
	{ .b = LAYOUT_B_tsc, .scope = LAYOUT_THREAD, .family = "tsc_ticks" },
	{ .b = LAYOUT_B_uncore_clock, .scope = LAYOUT_SOCKET, .family = "uncore_clock_ticks" },
};

struct prom_totals {
	int n[LAYOUT_NSCOPES];       /* entities per scope */
	int width;                   /* values per entity: the built-ins and the events' variables */
	double *sum[LAYOUT_NSCOPES]; /* n x width */
};

static const struct prom_unit *prom_unit_of(const char *unit)
{
	size_t n = strlen(unit);

	for (size_t i = 0; i < sizeof(prom_units) / sizeof(prom_units[0]); i++) {
		const char *u = prom_units[i].unit;
		size_t k = strlen(u);

		if (!strcmp(unit, u) || (u[0] == '/' && n > k && !strcmp(unit + n - k, u)))
			return &prom_units[i];
	}
	return NULL;
}

/* NAME made a valid name part: [a-zA-Z0-9_] only, lower case. */
static void prom_clean(char *name)
{
	for (; *name; name++)
		*name = isalnum((unsigned char)*name) ? (char)tolower((unsigned char)*name) : '_';
}

double prom_metric_name(const struct layout *l, int m, char *buf, size_t len)
{
	const struct layout_metric *mt = &l->metrics[m];
	const struct prom_unit *u = prom_unit_of(mt->unit);
	char base[128];
	size_t n;

	snprintf(base, sizeof(base), "%s", mt->name);
	prom_clean(base);
	n = strlen(base);
	if (u && u->strip[0] && n >= strlen(u->strip) &&
	    !strcmp(base + n - strlen(u->strip), u->strip))
		base[n - strlen(u->strip)] = 0;
	/* "ghz" -> pmutop_clock_hertz; "cpu_operating_frequency" -> ..._frequency_clock_hertz */
	snprintf(buf, len, "pmutop_%s%s%s", base,
		 u && base[0] && u->suffix[0] != '_' && base[strlen(base) - 1] != '_' ? "_" : "",
		 u ? u->suffix : "");
	/*
	 * a stable family's name is the stable figure's: a layout metric that would
	 * take it (Intel's cpu_utilization) is pmutop_layout_...
	 */
	for (int i = 0; i < nfigures; i++)
		if (!strncmp(buf, "pmutop_", 7) && !strcmp(buf + 7, figures[i].family)) {
			snprintf(base, sizeof(base), "%s", buf + 7);
			snprintf(buf, len, "pmutop_layout_%s", base);
			break;
		}
	return u ? u->factor : 1;
}

/* The entities of scope SC in S: the rows of its kind (sample_kinds, whose first are the scopes'). */
static const struct sample_entity *prom_entities(const struct sample *s, enum layout_scope sc,
						 int *n)
{
	const struct sample_kind *k = &sample_kinds[sc];

	*n = sample_kind_count(k, s);
	return *n ? sample_kind_row(k, s, 0) : NULL;
}

/* The variables a total is kept for: the built-ins and the events' (metrics come after). */
static int prom_width(const struct layout *l)
{
	return l->nmetrics ? layout_metric_var(l, 0) : layout_nvars(l);
}

struct prom_totals *prom_totals_next(const struct prom_totals *prev, const struct sample *s)
{
	struct prom_totals *t = xcalloc(1, sizeof(*t));

	t->width = prom_width(s->layout);
	for (int sc = 0; sc < LAYOUT_NSCOPES; sc++) {
		int n;
		const struct sample_entity *e = prom_entities(s, (enum layout_scope)sc, &n);
		bool same = prev && prev->n[sc] == n && prev->width == t->width;

		t->n[sc] = n;
		t->sum[sc] = xcalloc((size_t)n * (size_t)t->width + 1, sizeof(double));
		if (same)
			memcpy(t->sum[sc], prev->sum[sc], (size_t)n * (size_t)t->width * sizeof(double));
		for (int i = 0; i < n; i++)
			for (int v = 0; v < t->width; v++)
				if (isfinite(e[i].vars[v]) && e[i].vars[v] > 0)
					t->sum[sc][(size_t)i * (size_t)t->width + (size_t)v] += e[i].vars[v];
	}
	return t;
}

void prom_totals_free(struct prom_totals *t)
{
	if (!t)
		return;
	for (int sc = 0; sc < LAYOUT_NSCOPES; sc++)
		free(t->sum[sc]);
	free(t);
}

/* TEXT as a label value (\ " newline escaped). */
void prom_label_value(FILE *out, const char *raw)
{
	/* a label value is UTF-8 or the whole scrape is dropped: safe text, whatever came in */
	char *clean = text_is_clean(raw, strlen(raw)) ? NULL : text_clean_dup(raw);
	const char *text = clean ? clean : raw;

	for (; *text; text++) {
		if (*text == '\\' || *text == '"')
			fputc('\\', out);
		if (*text == '\n')
			fputs("\\n", out);
		else
			fputc(*text, out);
	}
	free(clean);
}

/* HELP text (\ and newline escaped; OpenMetrics also escapes "). */
static void prom_help_text(FILE *out, const char *raw, bool om)
{
	char *clean = text_is_clean(raw, strlen(raw)) ? NULL : text_clean_dup(raw);
	const char *text = clean ? clean : raw;

	for (; *text; text++) {
		if (*text == '\n')
			fputs("\\n", out);
		else if (*text == '\\' || (om && *text == '"'))
			fprintf(out, "\\%c", *text);
		else
			fputc(*text, out);
	}
	free(clean);
}


void prom_family(struct prom_ctx *c, const char *name, const char *type, const char *help,
		 const char *unit_note)
{
	size_t n = strlen(name);

	/* OpenMetrics names a counter family without the _total of its samples */
	if (c->om && !strcmp(type, "counter") && n > 6 && !strcmp(name + n - 6, "_total"))
		n -= 6;
	fprintf(c->out, "# HELP %.*s ", (int)n, name);
	prom_help_text(c->out, help, c->om);
	if (unit_note)
		fprintf(c->out, " (%s)", unit_note);
	fprintf(c->out, "\n# TYPE %.*s %s\n", (int)n, name, type);
}

/* One series: NAME{labels of entity E at scope SC, group G (-1 none)} V. */
static void prom_series(struct prom_ctx *c, const char *name, enum layout_scope sc,
			const struct sample_entity *e, int g, double v)
{
	const struct layout *l = c->s->layout;

	fprintf(c->out, "%s{", name);
	/* the labels of its kind's rows (sample_kind.h), their OS numbers as JSON's */
	for (int j = 0; j < sample_kinds[sc].nlabels; j++)
		fprintf(c->out, "%s=\"%d\",", sample_label_names[sample_kinds[sc].labels[j]],
			sample_label_value(e, sample_kinds[sc].labels[j]));
	if (g >= 0) {
		fputs("group=\"", c->out);
		prom_label_value(c->out, l->groups[g].name);
		fputs("\",", c->out);
	}
	fprintf(c->out, "source=\"%s\"%s} %.17g\n", c->source,
		c->s->simulated ? ",simulated=\"true\"" : "", v);
	c->series++;
}

/* The scope an event is counted at: a thread's, its core's, its socket's or a channel's. */
static enum layout_scope prom_event_scope(const struct layout_event *ev)
{
	if (!layout_pmu_kinds[ev->pmu].per_socket)
		return ev->per_core ? LAYOUT_CORE : LAYOUT_THREAD;
	return ev->channel >= 0 ? LAYOUT_CHANNEL : LAYOUT_SOCKET;
}

static void prom_metrics(struct prom_ctx *c)
{
	const struct sample *s = c->s;
	const struct layout *l = s->layout;

	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];
		char name[160], note[160];
		double f = prom_metric_name(l, m, name, sizeof(name));
		int n, shown = 0;
		const struct sample_entity *e = prom_entities(s, mt->scope, &n);

		for (int i = 0; i < n; i++) {
			double v = sample_metric(s, &e[i], m);

			if (!isfinite(v))
				continue; /* n/a is left out, never 0 */
			if (!shown++) {
				snprintf(note, sizeof(note), "per %s; pmutop shows %s%s",
					 layout_scope_names[mt->scope], mt->unit,
					 s->metric_scaled[m] ? "; scaled: its group was counted a "
					 "share of the interval (pmutop_group_live_ratio)" : "");
				prom_family(c, name, "gauge", mt->help ? mt->help : mt->name, note);
			}
			prom_series(c, name, mt->scope, &e[i], mt->group, v * f);
		}
	}
}

static void prom_events(struct prom_ctx *c, const struct prom_totals *t)
{
	const struct layout *l = c->s->layout;
	int width = t->width;
	bool *done = xcalloc((size_t)width + 1, sizeof(bool));

	for (size_t k = 0; k < sizeof(prom_builtins) / sizeof(prom_builtins[0]); k++) {
		enum layout_scope sc = prom_builtins[k].scope;
		char name[96];
		int n;
		const struct sample_entity *e = prom_entities(c->s, sc, &n);
		bool shown = false;

		if (t->n[sc] != n)
			continue;
		snprintf(name, sizeof(name), "pmutop_%s_total", prom_builtins[k].family);
		for (int i = 0; i < n; i++) {
			double v = t->sum[sc][(size_t)i * (size_t)t->width + prom_builtins[k].b];

			if (!(v > 0))
				continue;
			if (!shown) {
				prom_family(c, name, "counter", layout_builtin_names[prom_builtins[k].b],
					    NULL);
				shown = true;
			}
			prom_series(c, name, sc, &e[i], -1, v);
		}
	}
	for (int ev = 0; ev < l->nevents; ev++) {
		const struct layout_event *le = &l->events[ev];
		enum layout_scope sc = prom_event_scope(le);
		int var = layout_event_var(l, ev), n;
		const struct sample_entity *e = prom_entities(c->s, sc, &n);
		char name[160], help[400];
		bool shown = false;

		if (var >= width || done[var] || t->n[sc] != n)
			continue;
		snprintf(name, sizeof(name), "pmutop_event_%s", le->name);
		prom_clean(name);
		strncat(name, "_total", sizeof(name) - strlen(name) - 1);
		snprintf(help, sizeof(help), "Count of %s (%s, group %s), summed since pmutop "
			 "started; scaled estimates while the group rotates", le->spec,
			 layout_pmu_kinds[le->pmu].name, l->groups[le->group].name);
		/*
		 * one family per name: an event counted in several groups (a layout
		 * made from the vendor's data) is one series per group, by its label
		 */
		for (int k = ev; k < l->nevents; k++) {
			const struct layout_event *ke = &l->events[k];
			int kv = layout_event_var(l, k);

			if (kv >= width || done[kv] || strcmp(ke->name, le->name) ||
			    prom_event_scope(ke) != sc)
				continue;
			done[kv] = true;
			for (int i = 0; i < n; i++) {
				double v = t->sum[sc][(size_t)i * (size_t)t->width + (size_t)kv];

				if (!(v > 0) && c->s->groups[ke->group].state == SAMPLE_GROUP_OFF)
					continue;
				if (!shown) {
					prom_family(c, name, "counter", help, NULL);
					shown = true;
				}
				prom_series(c, name, sc, &e[i], ke->group, v);
			}
		}
	}
	free(done);
}

static void prom_run(struct prom_ctx *c, const struct prom_about *a)
{
	const struct sample *s = c->s;
	const struct layout *l = s->layout;

	c->series += 4 + l->ngroups; /* info, samples, interval, end time; each group's share */
	prom_family(c, "pmutop_info", "gauge", "What pmutop measures: the machine, the counter "
		    "source, the layout; always 1", NULL);
	fputs("pmutop_info{host=\"", c->out);
	prom_label_value(c->out, a && a->host ? a->host : "");
	fputs("\",uarch=\"", c->out);
	prom_label_value(c->out, a && a->uarch ? a->uarch : "");
	fputs("\",layout=\"", c->out);
	prom_label_value(c->out, l->name);
	fputs("\",source_detail=\"", c->out);
	prom_label_value(c->out, s->source ? s->source : "");
	fprintf(c->out, "\",pid=\"%d\",source=\"%s\",simulated=\"%s\"} 1\n", a ? a->owner_pid : 0,
		c->source, s->simulated ? "true" : "false");
	prom_family(c, "pmutop_samples_total", "counter", "Samples pmutop has taken", NULL);
	fprintf(c->out, "pmutop_samples_total %llu\n", (unsigned long long)s->seq);
	prom_family(c, "pmutop_sample_interval_seconds", "gauge", "Length of the latest sample's "
		    "interval", NULL);
	fprintf(c->out, "pmutop_sample_interval_seconds %.17g\n", s->interval_s);
	prom_family(c, "pmutop_sample_end_time_seconds", "gauge", "When the latest sample's "
		    "interval ended (seconds since the epoch)", NULL);
	fprintf(c->out, "pmutop_sample_end_time_seconds %.17g\n", s->time);
	prom_family(c, "pmutop_group_live_ratio", "gauge", "Share of the interval each event group "
		    "was counted: 1 counted throughout, below 1 its figures are scaled estimates "
		    "(groups rotate), 0 off or blocked", NULL);
	for (int g = 0; g < l->ngroups; g++) {
		const struct sample_group *sg = &s->groups[g];
		double v = sg->state == SAMPLE_GROUP_LIVE ? 1
			   : sg->state == SAMPLE_GROUP_ROTATING ? sg->live_share : 0;

		fputs("pmutop_group_live_ratio{group=\"", c->out);
		prom_label_value(c->out, l->groups[g].name);
		fprintf(c->out, "\",source=\"%s\"%s} %.17g\n", c->source,
			s->simulated ? ",simulated=\"true\"" : "", isfinite(v) ? v : 0);
	}
}

/* Who's rows a scrape exports: the busiest cgroups holding processes, the busiest processes. */
#define PROM_WHO_CGROUPS 32
#define PROM_WHO_PROCS 10

static int prom_who_cmp(const void *a, const void *b)
{
	const struct who_row *x = *(const struct who_row *const *)a, *y = *(const struct who_row *const *)b;
	double kx = isfinite(x->cpus) ? x->cpus : -1, ky = isfinite(y->cpus) ? y->cpus : -1;

	return kx < ky ? 1 : kx > ky ? -1 : strcmp(x->path, y->path);
}

static void prom_who_series(struct prom_ctx *c, const char *name, const struct who_row *r,
			    const char *extra, double v)
{
	if (!isfinite(v))
		return; /* n/a: no sample, as for the metrics */
	fprintf(c->out, "%s{", name);
	if (r->pid)
		fprintf(c->out, "pid=\"%d\",comm=\"", r->pid);
	else
		fputs("name=\"", c->out);
	prom_label_value(c->out, r->name);
	fputs("\",cgroup=\"/", c->out);
	prom_label_value(c->out, r->path);
	fprintf(c->out, "\",%ssource=\"%s\"%s} %.17g\n", extra, c->source,
		c->s->simulated ? ",simulated=\"true\"" : "", v);
	c->series++;
}

/*
 * The family of who column C over the cgroups CG and processes PR (its
 * help where it is the first column of its family, after PREV): n/a is
 * left out, and so is a cgroup's counted figure from an earlier turn (its
 * age is not a scrape's); the top-down level 1 a series a metric.
 */
static void prom_who_col(struct prom_ctx *c, const struct who_col *col, const struct who_col *prev,
			 const struct who_row **cg, int ncg, const struct who_row **pr, int npr)
{
	const struct who_snap *w = c->s->who;
	int nm = col->type == WHO_COL_TOPDOWN ? w->ntd : 1;

	if (!nm)
		return; /* no level 1 asked for */
	if (!prev || strcmp(prev->prom, col->prom)) {
		char help[400];

		if (col->type == WHO_COL_TOPDOWN)
			snprintf(help, sizeof(help), "%s, in %s", col->prom_help, w->td_unit);
		else
			snprintf(help, sizeof(help), "%s", col->prom_help);
		prom_family(c, col->prom, "gauge", help, NULL);
	}
	for (int m = 0; m < nm; m++) {
		char label[WHO_TD_NAME_MAX + 64];

		if (col->type == WHO_COL_TOPDOWN)
			snprintf(label, sizeof(label), "metric=\"%s\",", w->td_name[m]);
		else
			snprintf(label, sizeof(label), "%s", col->prom_label ? col->prom_label : "");
		for (int i = 0; i < ncg + (col->prom_cgroups ? 0 : npr); i++) {
			const struct who_row *r = i < ncg ? cg[i] : pr[i - ncg];
			double v = col->type == WHO_COL_TOPDOWN ? r->td[m] : who_col_value(col, r);

			prom_who_series(c, col->prom, r, label,
					!r->pid && col->counted && r->age_s > 0 ? NAN : v);
		}
	}
}

/*
 * Who uses the machine: per cgroup (the PROM_WHO_CGROUPS busiest holding
 * processes) and per process (the PROM_WHO_PROCS busiest), so that a scrape
 * holds a bounded number of series whatever the machine runs.
 */
static void prom_who(struct prom_ctx *c)
{
	const struct who_snap *w = c->s->who;
	const struct who_row **cg, **pr;
	int ncg = 0, npr = 0;

	if (!w || !w->available)
		return;
	cg = xcalloc((size_t)w->nrows + 1, sizeof(*cg));
	pr = xcalloc((size_t)w->nrows + 1, sizeof(*pr));
	for (int i = 0; i < w->nrows; i++) {
		if (w->rows[i].pid)
			pr[npr++] = &w->rows[i];
		else if (w->rows[i].nprocs && w->rows[i].path[0] &&
			 (i + 1 >= w->ncgroups || w->rows[i + 1].parent != i))
			cg[ncg++] = &w->rows[i]; /* a leaf (cgroup v2 keeps processes in leaves) */
	}
	qsort(cg, (size_t)ncg, sizeof(*cg), prom_who_cmp);
	qsort(pr, (size_t)npr, sizeof(*pr), prom_who_cmp);
	ncg = ncg < PROM_WHO_CGROUPS ? ncg : PROM_WHO_CGROUPS;
	npr = npr < PROM_WHO_PROCS ? npr : PROM_WHO_PROCS;
	for (int k = 0, prev = -1; k < who_ncols; k++) {
		if (!who_cols[k].prom)
			continue;
		prom_who_col(c, &who_cols[k], prev >= 0 ? &who_cols[prev] : NULL, cg, ncg, pr, npr);
		prev = k;
	}
	free(cg);
	free(pr);
}

int prom_write(const struct sample *s, const struct prom_totals *t, const struct prom_about *a,
	       bool openmetrics, bool stable_only, FILE *out)
{
	struct prom_ctx c = { .out = out, .s = s, .om = openmetrics };
	size_t n;

	/* the source's kind: msr, msr_safe, sim, os */
	if (s->simulated) {
		snprintf(c.source, sizeof(c.source), "sim");
	} else {
		snprintf(c.source, sizeof(c.source), "%s", s->source ? s->source : "os");
		n = strcspn(c.source, " :");
		c.source[n] = 0;
		prom_clean(c.source);
	}
	prom_run(&c, a);
	prom_figures(&c);
	prom_throttle(&c);
	if (!stable_only) {
		prom_metrics(&c);
		if (t)
			prom_events(&c, t);
	}
	prom_who(&c);
	prom_family(&c, "pmutop_scrape_series", "gauge", stable_only ? "Series of this scrape "
		    "before this one: the stable families and who (?detail=stable: bounded by the "
		    "sockets, channels and links, 32 cgroups and 10 processes)" : "Series of this "
		    "scrape before this one (every layout metric per thread, core, socket and "
		    "channel, and every event's total: ?detail=stable keeps the stable families "
		    "and who)", NULL);
	fprintf(out, "pmutop_scrape_series %ld\n", c.series);
	if (openmetrics)
		fputs("# EOF\n", out);
	return ferror(out) ? -EIO : 0;
}
