/*
 * batch_who: who uses the machine (sample.who) in the batch formats, each
 * row's figures by walking the table of them (who_cols, who_snap.h).  Text:
 * a "# who" table after the sample's; CSV: rows of scope "cgroup" and
 * "process" in the same long table, their figures in the who_* columns
 * (empty in the other rows, as the metrics are in theirs); JSON: a "who"
 * object.  n/a (text), an empty field (CSV) or null (JSON) where a figure
 * is not available, with the reason beside it; '~' (text) and "age_s" mark
 * figures from a cgroup's last turn, '*' and "scaled" the kernel's
 * multiplexing.  The top-down level 1 (--who-topdown): text, a "# who-td"
 * table by the vendor's metric names; CSV, one who_topdown field of
 * NAME=VALUE pairs (the names differ between CPUs); JSON, "topdown" per row
 * and the names with their unit once.  The remote-memory share (rmt%,
 * who_remote_share, remote_share): the remote of the local and remote
 * loads or fills the vendor's events count.  Main thread.
 */
#include "batch.h"
#include "text.h"
#include "batch_int.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

static void batch_who_num(FILE *out, double v, int width, int prec, bool mark, char mark_c)
{
	if (!isfinite(v))
		fprintf(out, " %*s", width + 1, "n/a");
	else
		fprintf(out, " %*.*f%c", width, prec, v, mark ? mark_c : ' ');
}

/* A level-1 column's width in the text table: its metric's name, 8 at least. */
static int batch_who_td_width(const char *name)
{
	return strlen(name) > 8 ? (int)strlen(name) : 8;
}

static void batch_who_text_row(const struct who_row *r, FILE *out)
{
	if (r->pid)
		fprintf(out, "%8d", r->pid);
	else
		fprintf(out, "%8s", "cgroup");
	for (int k = 0; k < who_ncols; k++) {
		const struct who_col *c = &who_cols[k];
		char mark = who_col_mark(c, r);

		if (c->text.head)
			batch_who_num(out, who_col_shown(c, r), c->text.width, c->text.prec,
				      mark != ' ', mark);
	}
	fprintf(out, "  %*s%s  %s\n", r->pid ? 0 : 2 * r->depth, "", r->name,
		r->path[0] ? r->path : "/");
}

/* Whether who row WR is written: --per-cgroup and --per-process pick them (none: both). */
static bool batch_who_row_on(const struct batch_run *r, const struct who_row *wr)
{
	return batch_scope_on(r, wr->pid ? BATCH_SCOPE_PROCESS : BATCH_SCOPE_CGROUP);
}

void batch_who_text(const struct sample *s, const struct batch_run *br, FILE *out)
{
	const struct who_snap *w = s->who;

	if (!w)
		return;
	if (!w->available) {
		fprintf(out, "# who: n/a: %s\n", w->why);
		return;
	}
	if (w->why[0])
		fprintf(out, "# who: %s\n", w->why);
	if (w->note[0])
		fprintf(out, "# who: %s\n", w->note);
	if (w->rdt_note[0])
		fprintf(out, "# who: %s\n", w->rdt_note);
	fprintf(out, "# who %8s", "pid");
	for (int k = 0; k < who_ncols; k++)
		if (who_cols[k].text.head)
			fprintf(out, " %*s", who_cols[k].text.width + 1, who_cols[k].text.head);
	fprintf(out, "  %s\n", "name  path");
	for (int i = 0; i < w->nrows; i++) {
		if (!batch_who_row_on(br, &w->rows[i]))
			continue;
		fputs("# who ", out);
		batch_who_text_row(&w->rows[i], out);
	}
	if (w->ntd) {
		fprintf(out, "# who-td %8s", "pid");
		for (int k = 0; k < w->ntd; k++)
			fprintf(out, " %*s", batch_who_td_width(w->td_name[k]), w->td_name[k]);
		fprintf(out, "  name (%s)\n", w->td_unit);
		for (int i = 0; i < w->nrows; i++) {
			const struct who_row *r = &w->rows[i];

			if (!batch_who_row_on(br, r))
				continue;
			if (r->pid)
				fprintf(out, "# who-td %8d", r->pid);
			else
				fprintf(out, "# who-td %8s", "cgroup");
			for (int k = 0; k < w->ntd; k++)
				batch_who_num(out, r->td[k], batch_who_td_width(w->td_name[k]) - 1, 1,
					      r->age_s > 0 || r->scaled, r->age_s > 0 ? '~' : '*');
			fprintf(out, "  %s\n", r->pid ? r->name : r->path[0] ? r->path : "/");
		}
	} else if (w->td_why[0]) {
		fprintf(out, "# who: %s\n", w->td_why);
	}
	/* the reasons, once each */
	for (int i = 0; i < w->nrows; i++) {
		const struct who_row *r = &w->rows[i];
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(w->rows[j].why, r->why);
		if (r->why[0] && !seen)
			fprintf(out, "# who: counters n/a for %s: %s\n", r->name, r->why);
	}
}

void batch_who_csv_header(const struct sample *s, FILE *out)
{
	if (!s->who)
		return;
	fputs(",who_path,who_name,who_pid", out);
	for (int k = 0; k < who_ncols; k++)
		if (who_cols[k].csv)
			fprintf(out, ",who_%s", who_cols[k].key);
}

void batch_who_csv_empty(const struct sample *s, FILE *out)
{
	if (!s->who)
		return;
	fputs(",,,", out);
	for (int k = 0; k < who_ncols; k++)
		if (who_cols[k].csv)
			fputc(',', out);
}

static void batch_who_csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.10g", v);
	else
		fputc(',', out);
}

/* TEXT as one CSV field: quoted, its quotes doubled. */
static void batch_who_csv_text(FILE *out, const char *text)
{
	fputc(',', out);
	text_csv_field(text, out);
}

void batch_who_csv_rows(const struct sample *s, const struct batch_run *br, const char *before,
			int metric_cols, FILE *out)
{
	const struct who_snap *w = s->who;

	for (int i = 0; w && i < w->nrows; i++) {
		const struct who_row *r = &w->rows[i];

		if (!batch_who_row_on(br, r))
			continue;
		/* the scope, then none of the kinds' ids (sample_label_names), no kind of core */
		fprintf(out, "%s,%s,", before, r->pid ? "process" : "cgroup");
		for (int lb = 0; lb < SAMPLE_NLABELS; lb++)
			fputc(',', out);
		for (int m = 0; m < metric_cols; m++)
			fputc(',', out);
		fputs(",,", out); /* scaled, flagged */
		batch_who_csv_text(out, r->path);
		batch_who_csv_text(out, r->name);
		if (r->pid)
			fprintf(out, ",%d", r->pid);
		else
			fputc(',', out);
		for (int k = 0; k < who_ncols; k++) {
			const struct who_col *c = &who_cols[k];

			if (!c->csv)
				continue;
			if (c->type == WHO_COL_TEXT) {
				batch_who_csv_text(out, (const char *)r + c->offset);
			} else if (c->type == WHO_COL_TOPDOWN) {
				fputc(',', out);
				for (int t = 0, n = 0; t < w->ntd; t++)
					if (isfinite(r->td[t]))
						fprintf(out, "%s%s=%.6g", n++ ? ";" : "", w->td_name[t],
							r->td[t]);
			} else {
				batch_who_csv_num(out, who_col_value(c, r));
			}
		}
		fputc('\n', out);
	}
}

static json_t *batch_who_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Row R of W as JSON: its path, name and PID (a process) or depth (a cgroup), then its figures. */
static json_t *batch_who_row(const struct who_snap *w, const struct who_row *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "path", json_string(r->path));
	json_object_set_new(o, "name", json_string(r->name));
	if (r->pid)
		json_object_set_new(o, "pid", json_integer(r->pid));
	else
		json_object_set_new(o, "depth", json_integer(r->depth));
	for (int k = 0; k < who_ncols; k++) {
		const struct who_col *c = &who_cols[k];
		const char *text = (const char *)r + c->offset;
		json_t *v = NULL;

		switch (c->type) {
		case WHO_COL_NUM:
			v = batch_who_real(who_col_value(c, r));
			break;
		case WHO_COL_INT:
			v = json_integer((json_int_t)who_col_value(c, r));
			break;
		case WHO_COL_BOOL:
			v = json_boolean(who_col_value(c, r) != 0);
			break;
		case WHO_COL_TEXT:
			v = text[0] || !c->null_empty ? json_string(text) : json_null();
			break;
		case WHO_COL_TOPDOWN:
			if (!w->ntd)
				continue; /* not asked for: topdown_why says so once */
			v = json_object();
			for (int t = 0; t < w->ntd; t++)
				json_object_set_new(v, w->td_name[t], batch_who_real(r->td[t]));
			break;
		}
		json_object_set_new(o, c->key, v);
	}
	return o;
}

struct json_t *batch_who_json(const struct sample *s, const struct batch_run *br)
{
	const struct who_snap *w = s->who;
	json_t *o, *cg, *pr;

	if (!w)
		return NULL;
	o = json_object();
	cg = json_array();
	pr = json_array();
	json_object_set_new(o, "available", json_boolean(w->available));
	json_object_set_new(o, "why", w->why[0] ? json_string(w->why) : json_null());
	json_object_set_new(o, "counting", json_boolean(w->counting));
	json_object_set_new(o, "top", json_integer(w->top));
	json_object_set_new(o, "counted", json_integer(w->counted));
	json_object_set_new(o, "candidates", json_integer(w->candidates));
	json_object_set_new(o, "note", json_string(w->note));
	json_object_set_new(o, "rdt_note", json_string(w->rdt_note));
	if (w->ntd) {
		json_t *names = json_array();

		for (int k = 0; k < w->ntd; k++)
			json_array_append_new(names, json_string(w->td_name[k]));
		json_object_set_new(o, "topdown_metrics", names);
		json_object_set_new(o, "topdown_unit", json_string(w->td_unit));
	}
	json_object_set_new(o, "topdown_why", w->td_why[0] ? json_string(w->td_why) : json_null());
	if (w->rmt_events[0][0]) {
		json_t *names = json_array();

		json_array_append_new(names, json_string(w->rmt_events[0]));
		json_array_append_new(names, json_string(w->rmt_events[1]));
		json_object_set_new(o, "remote_events", names);
	}
	json_object_set_new(o, "remote_why", w->rmt_why[0] ? json_string(w->rmt_why) : json_null());
	for (int i = 0; i < w->nrows; i++)
		if (batch_who_row_on(br, &w->rows[i]))
			json_array_append_new(w->rows[i].pid ? pr : cg, batch_who_row(w, &w->rows[i]));
	json_object_set_new(o, "cgroups", cg);
	json_object_set_new(o, "processes", pr);
	return o;
}
