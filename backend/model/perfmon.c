/*
 * perfmon: load one platform of Intel's data (see perfmon.h) with jansson,
 * compile every formula and threshold with expr, link the tree.
 */
#include "perfmon.h"
#include "text_json.h"
#include "expr.h"
#include "paths.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

const char *const perfmon_const_names[PERFMON_NCONST] = {
	[PERFMON_HYPERTHREADING_ON] = "HYPERTHREADING_ON",
	[PERFMON_THREADS_PER_CORE] = "THREADS_PER_CORE",
	[PERFMON_DURATIONTIMEINMILLISECONDS] = "DURATIONTIMEINMILLISECONDS",
	[PERFMON_DURATIONTIMEINSECONDS] = "DURATIONTIMEINSECONDS",
	[PERFMON_SYSTEM_TSC_FREQ] = "SYSTEM_TSC_FREQ",
	[PERFMON_SOCKET_COUNT] = "SOCKET_COUNT",
	[PERFMON_CHAS_PER_SOCKET] = "CHAS_PER_SOCKET",
	[PERFMON_CORES_PER_SOCKET] = "CORES_PER_SOCKET",
	[PERFMON_NUM_CPUS] = "NUM_CPUS",
};

/* What a lookup resolves against: one metric's alias tables. */
struct perfmon_scope {
	struct perfmon *p;
	json_t *events, *consts;    /* Formula: alias -> event or constant name */
	json_t *metrics;            /* Threshold: alias -> MetricName */
	json_t *all;                /* the file's Metrics array */
	const char *unknown;        /* a name the tables name but the file lacks */
	bool unknown_const;         /* ... a constant pmutop does not provide */
};

static const char *perfmon_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Event table row ROW's fields into E (its strings ROW's); E's names stay. */
static void perfmon_event_row(json_t *row, struct perfmon_event *e)
{
	e->listed = true;
	e->code = perfmon_str(row, "EventCode");
	e->umask = perfmon_str(row, "UMask");
	e->umask_ext = perfmon_str(row, "UMaskExt");
	e->rdwrmask = perfmon_str(row, "RdWrMask");
	if (perfmon_str(row, "Filter") && !strcmp(perfmon_str(row, "Filter"), "Filter1"))
		e->filter1 = perfmon_str(row, "FILTER_VALUE");
	e->cmask = perfmon_str(row, "CounterMask");
	e->inv = perfmon_str(row, "Invert");
	e->edge = perfmon_str(row, "EdgeDetect");
	e->any = perfmon_str(row, "AnyThread");
	e->msr_index = perfmon_str(row, "MSRIndex");
	e->msr_value = perfmon_str(row, "MSRValue");
	e->counter = perfmon_str(row, "Counter");
	e->counter_ht_off = perfmon_str(row, "CounterHTOff");
	e->taken_alone = perfmon_str(row, "TakenAlone") && !strcmp(perfmon_str(row, "TakenAlone"), "1");
	e->unit = perfmon_str(row, "Unit");
	e->desc = perfmon_str(row, "BriefDescription");
}

/* Variable of event NAME (as written, with modifiers), added on first use. */
static int perfmon_event_var(struct perfmon *p, json_t *table, const char *name)
{
	struct perfmon_event *e;
	json_t *row;
	size_t n;

	for (int i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i].name, name))
			return i;
	p->events = xrealloc(p->events, (size_t)p->nevents + 1, sizeof(*p->events));
	e = &p->events[p->nevents];
	memset(e, 0, sizeof(*e));
	e->name = name;
	n = strcspn(name, ":");
	e->base = xmalloc(n + 1);
	memcpy(e->base, name, n);
	e->base[n] = '\0';
	row = json_object_get(table, e->base);
	if (json_is_object(row))
		perfmon_event_row(row, e);
	return p->nevents++;
}

bool perfmon_event_find(const struct perfmon *p, const char *name, struct perfmon_event *e)
{
	void *it = json_object_iter_at(json_object_get(p->doc, "Events"), name);
	json_t *row = it ? json_object_iter_value(it) : NULL;

	if (!json_is_object(row))
		return false;
	memset(e, 0, sizeof(*e));
	e->name = json_object_iter_key(it);
	perfmon_event_row(row, e);
	return true;
}

static int perfmon_lookup(void *ctx, const char *name, size_t len)
{
	struct perfmon_scope *s = ctx;
	char alias[64];
	const char *v;

	if (len >= sizeof(alias))
		return -1;
	memcpy(alias, name, len);
	alias[len] = '\0';
	if (len > 3 && !strcmp(alias + len - 3, "[0]"))
		alias[len - 3] = '\0'; /* the first instance: pmutop reads boxes per socket */
	if (s->metrics) {
		v = perfmon_str(s->metrics, alias);
		if (!v)
			return -1;
		for (size_t i = 0; i < json_array_size(s->all); i++)
			if (!strcmp(perfmon_str(json_array_get(s->all, i), "MetricName") ?: "", v))
				return PERFMON_VAR_METRIC(s->p, (int)i);
		s->unknown = v;
		return -1;
	}
	if ((v = perfmon_str(s->consts, alias))) {
		for (int c = 0; c < PERFMON_NCONST; c++)
			if (!strcmp(perfmon_const_names[c], v))
				return PERFMON_VAR_CONST(s->p, c);
		s->unknown = v;
		s->unknown_const = true;
		return -1;
	}
	if ((v = perfmon_str(s->events, alias))) {
		for (int i = 0; i < s->p->nevents; i++)
			if (!strcmp(s->p->events[i].name, v))
				return i;
		return -1;
	}
	/* the vendor's built-ins written inline (DURATIONTIMEINSECONDS) */
	for (int c = 0; c < PERFMON_NCONST; c++)
		if (!strcmp(perfmon_const_names[c], alias))
			return PERFMON_VAR_CONST(s->p, c);
	return -1;
}

static int perfmon_compile(struct perfmon_scope *s, const char *text, const char *what,
			   const char *metric, struct expr **out, char *err, size_t errlen)
{
	char why[256];
	int col;

	s->unknown = NULL;
	s->unknown_const = false;
	if (expr_parse(text, perfmon_lookup, s, out, &col, why, sizeof(why)) == 0)
		return 0;
	if (s->unknown && s->unknown_const)
		snprintf(err, errlen, "%s: metric %s: %s names the constant %s, which this pmutop "
			 "does not know: data newer than the program (update pmutop)", s->p->path,
			 metric, what, s->unknown);
	else if (s->unknown)
		snprintf(err, errlen, "%s: metric %s: %s names %s, which this file does not define",
			 s->p->path, metric, what, s->unknown);
	else
		snprintf(err, errlen, "%s: metric %s: %s column %d: expected %s", s->p->path, metric,
			 what, col + 1, why);
	return -EINVAL;
}

/* A metric name: what the vendor uses, safe to print and to name in a formula. */
static bool perfmon_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > 100)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '.')
			return false;
	return true;
}

static int perfmon_metric(struct perfmon *p, json_t *all, size_t i, char *err, size_t errlen)
{
	json_t *m = json_array_get(all, i), *th;
	struct perfmon_metric *pm = &p->metrics[i];
	struct perfmon_scope s = { .p = p, .all = all };

	if (!json_is_object(m) || !(pm->name = perfmon_str(m, "MetricName")) ||
	    !(pm->formula_text = perfmon_str(m, "Formula"))) {
		snprintf(err, errlen, "%s: metric %zu has no MetricName or Formula: run "
			 "tools/perfmon-convert again", p->path, i + 1);
		return -EINVAL;
	}
	if (!perfmon_name_ok(pm->name)) {
		snprintf(err, errlen, "%s: metric %zu: a MetricName of letters, digits, '_' and '.' "
			 "(at most 100)", p->path, i + 1);
		return -EINVAL;
	}
	for (size_t k = 0; k < i; k++)
		if (!strcmp(p->metrics[k].name, pm->name)) {
			snprintf(err, errlen, "%s: metric %s is defined twice (metrics %zu and %zu)",
				 p->path, pm->name, k + 1, i + 1);
			return -EINVAL;
		}
	pm->json = m;
	pm->desc = perfmon_str(m, "BriefDescription");
	pm->unit = perfmon_str(m, "UnitOfMeasure");
	pm->category = perfmon_str(m, "Category");
	pm->domain = perfmon_str(m, "CountDomain");
	pm->groups = perfmon_str(m, "MetricGroup");
	pm->resolution = perfmon_str(m, "ResolutionLevels");
	pm->level = json_is_integer(json_object_get(m, "Level"))
			    ? (int)json_integer_value(json_object_get(m, "Level")) : 1;
	pm->parent = -1;
	s.events = json_object_get(m, "Events");
	s.consts = json_object_get(m, "Constants");
	if (perfmon_compile(&s, pm->formula_text, "formula", pm->name, &pm->formula, err, errlen))
		return -EINVAL;
	p->nformulas++;
	th = json_object_get(m, "Threshold");
	if (json_is_object(th) && (pm->threshold_text = perfmon_str(th, "Formula"))) {
		s.metrics = json_object_get(th, "Metrics");
		if (!json_is_object(s.metrics)) {
			snprintf(err, errlen, "%s: metric %s: the threshold has no Metrics table",
				 p->path, pm->name);
			return -EINVAL;
		}
		if (perfmon_compile(&s, pm->threshold_text, "threshold", pm->name, &pm->threshold,
				    err, errlen))
			return -EINVAL;
		p->nformulas++;
	}
	return 0;
}

void perfmon_render(const struct perfmon *p, int m, bool threshold, char *buf, size_t len)
{
	perfmon_render_map(p, m, threshold, NULL, NULL, buf, len);
}

bool perfmon_render_map(const struct perfmon *p, int m, bool threshold, perfmon_name_fn fn,
			void *ctx, char *buf, size_t len)
{
	const struct perfmon_metric *pm = &p->metrics[m];
	const char *t = threshold ? pm->threshold_text : pm->formula_text;
	json_t *th = json_object_get(pm->json, "Threshold");
	size_t k = 0;

	if (!len)
		return false;
	buf[0] = '\0';
	while (t && *t) {
		const char *s = t, *name = NULL;
		enum perfmon_name_kind kind = PERFMON_NAME_EVENT;
		char alias[64], mapped[512]; /* a socket's sum of its links' events */
		int n;

		if (isdigit((unsigned char)*t) || *t == '.') {
			while (isalnum((unsigned char)*t) || *t == '.')
				t++;
		} else if (isalpha((unsigned char)*t) || *t == '_') {
			while (isalnum((unsigned char)*t) || *t == '_' || *t == '.')
				t++;
			if ((size_t)(t - s) < sizeof(alias)) {
				memcpy(alias, s, (size_t)(t - s));
				alias[t - s] = '\0';
				kind = threshold ? PERFMON_NAME_METRIC : PERFMON_NAME_EVENT;
				name = threshold ? perfmon_str(json_object_get(th, "Metrics"), alias)
						 : perfmon_str(json_object_get(pm->json, "Events"), alias);
				if (!name && !threshold) {
					kind = PERFMON_NAME_CONST;
					name = perfmon_str(json_object_get(pm->json, "Constants"), alias);
				}
				/* the vendor's built-ins written inline (DURATIONTIMEINSECONDS) */
				for (int c = 0; !name && !threshold && c < PERFMON_NCONST; c++)
					if (!strcmp(perfmon_const_names[c], alias))
						name = perfmon_const_names[c];
			}
		} else {
			t++;
		}
		if (name && fn)
			name = fn(ctx, kind, name, mapped, sizeof(mapped));
		n = name ? snprintf(buf + k, len - k, "%s", name)
			 : snprintf(buf + k, len - k, "%.*s", (int)(t - s), s);
		if (n < 0 || (size_t)n >= len - k) {
			buf[k] = '\0';
			return false;
		}
		k += (size_t)n;
	}
	return true;
}

int perfmon_metric_index(const struct perfmon *p, const char *name)
{
	for (int i = 0; i < p->nmetrics; i++)
		if (!strcmp(p->metrics[i].name, name))
			return i;
	return -1;
}

/* Parent and children from ParentCategory. */
static int perfmon_tree(struct perfmon *p, json_t *all, char *err, size_t errlen)
{
	for (int i = 0; i < p->nmetrics; i++) {
		const char *parent = perfmon_str(json_array_get(all, (size_t)i), "ParentCategory");
		struct perfmon_metric *up;
		int k;

		if (!parent)
			continue;
		k = perfmon_metric_index(p, parent);
		if (k < 0 || k == i) {
			snprintf(err, errlen, "%s: metric %s: its parent %s is not a metric of the file",
				 p->path, p->metrics[i].name, parent);
			return -EINVAL;
		}
		p->metrics[i].parent = k;
		/* a loop of parents would make the tree endless: the parent's own chain must end */
		for (int a = k, steps = 0; a >= 0; steps++) {
			const char *name;

			if (a == i || steps > p->nmetrics) {
				snprintf(err, errlen, "%s: metric %s: its parents form a loop", p->path,
					 p->metrics[i].name);
				return -EINVAL;
			}
			name = perfmon_str(json_array_get(all, (size_t)a), "ParentCategory");
			a = name ? perfmon_metric_index(p, name) : -1;
		}
		up = &p->metrics[k];
		up->children = xrealloc(up->children, (size_t)up->nchildren + 1,
					sizeof(*up->children));
		up->children[up->nchildren++] = i;
	}
	return 0;
}

/* Parse TEXT (LEN bytes) as the data file PATH. */
/* TEXT (LEN bytes, named PATH) as JSON, or NULL with ERR. */
static json_t *perfmon_parse(const char *text, size_t len, const char *path, char *err,
			     size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);

	if (!doc) {
		/* jansson quotes the bytes near the error: no control character goes out */
		for (char *c = je.text; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		snprintf(err, errlen, "%s:%d:%d: %s (a damaged data file: reinstall, or run "
			 "tools/perfmon-convert again)", path, je.line, je.column, je.text);
	}
	/* descriptions, names, the Info line: safe text, whoever wrote the file */
	if (doc)
		text_clean_json(doc, NULL);
	return doc;
}

/* The platform of DOC (taken), named PATH in messages. */
static int perfmon_of_doc(json_t *doc, const char *path, struct perfmon **out, char *err,
			  size_t errlen)
{
	struct perfmon *p;
	json_t *all;
	int rc = 0;

	all = json_object_get(doc, "Metrics");
	if (!json_is_object(doc) || !json_is_array(all) ||
	    !json_is_object(json_object_get(doc, "Events"))) {
		snprintf(err, errlen, "%s: not pmutop's perfmon data (no Events or Metrics): run "
			 "tools/perfmon-convert", path);
		json_decref(doc);
		return -EINVAL;
	}
	p = xcalloc(1, sizeof(*p));
	p->path = xstrdup(path);
	p->doc = doc;
	p->platform = perfmon_str(doc, "Platform") ?: "?";
	p->vendor = perfmon_str(doc, "Vendor") ?: "GenuineIntel";
	p->info = perfmon_str(doc, "Info") ?: "";
	p->commit = perfmon_str(json_object_get(doc, "Upstream"), "Commit") ?: "unknown";
	p->metrics_path = perfmon_str(json_object_get(doc, "MetricsFrom"), "Path");
	p->metrics_commit = perfmon_str(json_object_get(json_object_get(doc, "MetricsFrom"),
							"Upstream"), "Commit");
	p->nmetrics = (int)json_array_size(all);
	p->metrics = xcalloc((size_t)p->nmetrics + 1, sizeof(*p->metrics));
	/* the events first, so that the constants and metrics numbered after them stay put */
	for (size_t i = 0; i < json_array_size(all); i++) {
		json_t *evs = json_object_get(json_array_get(all, i), "Events");
		const char *alias;
		json_t *name;

		json_object_foreach(evs, alias, name)
			if (json_is_string(name))
				perfmon_event_var(p, json_object_get(doc, "Events"),
						  json_string_value(name));
	}
	for (int i = 0; i < p->nmetrics && !rc; i++)
		rc = perfmon_metric(p, all, (size_t)i, err, errlen);
	if (!rc)
		rc = perfmon_tree(p, all, err, errlen);
	if (rc) {
		/* names quoted from the file: one printable line whatever they hold */
		for (char *c = err; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		perfmon_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

int perfmon_load_buffer(const char *text, size_t len, const char *path, struct perfmon **out,
			char *err, size_t errlen)
{
	json_t *doc = perfmon_parse(text, len, path, err, errlen);

	*out = NULL;
	return doc ? perfmon_of_doc(doc, path, out, err, errlen) : -EINVAL;
}

bool perfmon_in_tree(const struct perfmon_metric *m)
{
	/* a node without children too: AMD's pipeline tree, the E-cores' (the kernel's TopdownLN) */
	return m->parent >= 0 || m->nchildren > 0 || (m->category && !strcmp(m->category, "Pipeline")) ||
	       (m->groups && strstr(m->groups, "TopdownL"));
}

void perfmon_free(struct perfmon *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nmetrics; i++) {
		expr_free(p->metrics[i].formula);
		expr_free(p->metrics[i].threshold);
		free(p->metrics[i].children);
	}
	for (int i = 0; i < p->nevents; i++)
		free(p->events[i].base);
	free(p->events);
	free(p->metrics);
	free(p->path);
	json_decref(p->doc);
	free(p);
}

/* The text of data file PATH (malloc'd, *LEN bytes), or NULL with -errno in *RC and ERR. */
static char *perfmon_read(const char *path, size_t *len, int *rc, char *err, size_t errlen)
{
	char *text = NULL, buf[65536];
	size_t n;
	FILE *f;

	*len = 0;
	f = paths_fopen_trusted(path, "vendor data file", err, errlen);
	if (!f) {
		*rc = -errno;
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (*len + n > PERFMON_MAX_FILE) {
			snprintf(err, errlen, "%s: larger than %d MB, not a perfmon data file", path,
				 PERFMON_MAX_FILE >> 20);
			fclose(f);
			free(text);
			*rc = -EFBIG;
			return NULL;
		}
		text = xrealloc(text, *len + n, 1);
		memcpy(text + *len, buf, n);
		*len += n;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(f);
		free(text);
		*rc = -EIO;
		return NULL;
	}
	fclose(f);
	return text ? text : xstrdup("");
}

int perfmon_load(const char *path, struct perfmon **out, char *err, size_t errlen)
{
	size_t len;
	int rc = 0;
	char *text = perfmon_read(path, &len, &rc, err, errlen);

	*out = NULL;
	if (!text)
		return rc;
	rc = perfmon_load_buffer(text, len, path, out, err, errlen);
	free(text);
	return rc;
}

/* PATH read and parsed, or NULL with -errno in *RC (-EINVAL: not JSON) and ERR. */
static json_t *perfmon_doc(const char *path, int *rc, char *err, size_t errlen)
{
	json_t *doc = NULL;
	size_t len;
	char *text;

	*rc = 0;
	if ((text = perfmon_read(path, &len, rc, err, errlen))) {
		doc = perfmon_parse(text, len, path, err, errlen);
		free(text);
	}
	if (!doc && !*rc)
		*rc = -EINVAL;
	return doc;
}

/* DOC (PATH's, parsed; taken) with the metrics of METRICS_PATH: perfmon_load_cores'. */
static int perfmon_join(json_t *doc, const char *path, const char *core_type,
			const char *metrics_path, struct perfmon **out, char *err, size_t errlen)
{
	json_t *mdoc, *evs;
	int rc;

	if (!(mdoc = perfmon_doc(metrics_path, &rc, err, errlen))) {
		json_decref(doc);
		return rc;
	}
	evs = core_type ? json_object_get(json_object_get(json_object_get(doc, "OtherCoreTypes"),
							  core_type), "Events")
			: json_object_get(doc, "Events");
	if (!json_is_object(evs)) {
		snprintf(err, errlen, "%s: no events of core type %s (run tools/perfmon-convert "
			 "again)", path, core_type ? core_type : "(its own)");
		json_decref(doc);
		json_decref(mdoc);
		return -EINVAL;
	}
	json_object_set(mdoc, "Events", evs);
	if (!core_type) {
		/* PATH's platform (its cores another's kind: CoresOf); the metrics say whose */
		json_t *from = json_pack("{s:s, s:O}", "Path", metrics_path, "Upstream",
					 json_object_get(mdoc, "Upstream"));

		json_object_set_new(mdoc, "MetricsFrom", from);
		json_object_set(mdoc, "Platform", json_object_get(doc, "Platform"));
		json_object_set(mdoc, "Info", json_object_get(doc, "Info"));
		json_object_set(mdoc, "Upstream", json_object_get(doc, "Upstream"));
		json_decref(doc);
		return perfmon_of_doc(mdoc, path, out, err, errlen);
	}
	json_decref(doc);
	return perfmon_of_doc(mdoc, metrics_path, out, err, errlen);
}

int perfmon_load_cores(const char *path, const char *core_type, const char *metrics_path,
		       struct perfmon **out, char *err, size_t errlen)
{
	json_t *doc;
	int rc;

	*out = NULL;
	if (!(doc = perfmon_doc(path, &rc, err, errlen)))
		return rc;
	return perfmon_join(doc, path, core_type, metrics_path, out, err, errlen);
}

int perfmon_load_platform(const char *path, const char *atom_dir, struct perfmon **out,
			  char *err, size_t errlen)
{
	char apath[PATH_MAX], *c;
	const char *of;
	json_t *doc;
	int rc;

	*out = NULL;
	if (!(doc = perfmon_doc(path, &rc, err, errlen)))
		return rc;
	/* (a platform's name, never a path: the file names a file beside the data's own) */
	of = perfmon_str(json_object_get(doc, "CoresOf"), "Platform");
	if (!atom_dir || json_array_size(json_object_get(doc, "Metrics")) || !of || !*of ||
	    strpbrk(of, "/\\.") ||
	    (size_t)snprintf(apath, sizeof(apath), "%s/%s.json", atom_dir, of) >= sizeof(apath))
		return perfmon_of_doc(doc, path, out, err, errlen);
	for (c = apath + strlen(atom_dir) + 1; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (access(apath, F_OK))
		return perfmon_of_doc(doc, path, out, err, errlen); /* its events alone */
	return perfmon_join(doc, path, NULL, apath, out, err, errlen);
}
