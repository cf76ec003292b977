/*
 * layout: the layout file parser and the parsed layout.  Line oriented: a
 * keyword, then its arguments; a "group" block closes with "end".  Every
 * error names FILE:LINE:COL and what was expected there.  The lines that
 * define events, metrics and thresholds are in layout_items.c; loading,
 * finding and querying a parsed layout in layout_data.c.  Main thread,
 * before curses.
 */
#include "layout.h"
#include "text.h"
#include "layout_int.h"
#include "parse.h"
#include "cpulist.h"
#include "expr.h"
#include "pfmenc.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


const char *const layout_builtin_names[LAYOUT_NBUILTINS] = {
#define LAYOUT_BUILTIN_NAME(n, h) [LAYOUT_B_##n] = #n,
	LAYOUT_BUILTINS(LAYOUT_BUILTIN_NAME)
#undef LAYOUT_BUILTIN_NAME
};

const char *const layout_coretype_names[LAYOUT_NCORETYPES] = { "any", "core", "atom" };

const char *const layout_scope_names[LAYOUT_NSCOPES] = {
	[LAYOUT_THREAD] = "thread",
	[LAYOUT_CORE] = "core",
	[LAYOUT_SOCKET] = "socket",
	[LAYOUT_CHANNEL] = "channel",
};

int layout_fail(struct layout_parser *p, const char *at, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return parse_fail(p->err, p->errlen, p->file, p->line, p->bol, at, "expected %s", what);
}

void layout_free_tokens(struct layout_parser *p)
{
	for (int i = 0; i < p->ntok; i++)
		free(p->tok[i].text);
	p->ntok = 0;
}

int layout_check_text(struct layout_parser *p, const char *s, const char *e)
{
	const char *bad = parse_control_char(s, e);

	/* a CRLF line end is accepted; any other control character could reach the terminal */
	if (bad && !(*bad == '\r' && bad + 1 == e))
		return layout_fail(p, bad, "printable text, not control character 0x%02X",
				   (unsigned char)*bad);
	/* names and texts reach JSON, CSV and Prometheus: UTF-8, as every output is */
	if ((bad = text_bad_utf8(s, (size_t)(e - s))))
		return layout_fail(p, bad, "UTF-8 text, not byte 0x%02X", (unsigned char)*bad);
	return 0;
}

/* Split the line [S, E) into tokens; "quoted strings" with \" and \\ escapes; '#' comments. */
static int layout_tokenize(struct layout_parser *p, const char *s, const char *e)
{
	layout_free_tokens(p);
	if (layout_check_text(p, s, e))
		return -EINVAL;
	for (;;) {
		char *out;
		size_t n = 0;

		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == e || *s == '#')
			return 0;
		/* a formula is the rest of the line: its words are the expression's to read */
		if (p->ntok >= 1 && !strcmp(p->tok[0].text, "threshold"))
			return 0;
		if (p->ntok >= 5 && !strcmp(p->tok[0].text, "metric") && !strcmp(p->tok[4].text, "="))
			return 0;
		if (p->ntok == LAYOUT_MAX_TOKENS)
			return layout_fail(p, s, "at most %d words on a line", LAYOUT_MAX_TOKENS);
		out = xmalloc((size_t)(e - s) + 1);
		p->tok[p->ntok].at = s;
		p->tok[p->ntok].text = out;
		p->ntok++;
		if (*s == '"') {
			const char *q = s + 1;

			while (q < e && *q != '"') {
				if (*q == '\\' && q + 1 < e && (q[1] == '"' || q[1] == '\\'))
					q++;
				out[n++] = *q++;
			}
			if (q == e)
				return layout_fail(p, s, "a closing '\"' for this string");
			s = q + 1;
			if (s < e && *s != ' ' && *s != '\t' && *s != '#' && *s != '\r')
				return layout_fail(p, s, "a space after the closing '\"'");
		} else {
			while (s < e && *s != ' ' && *s != '\t' && *s != '\r')
				out[n++] = *s++;
		}
		out[n] = 0;
	}
}

bool layout_is_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

int layout_want_args(struct layout_parser *p, int min, int max, const char *what)
{
	if (p->ntok - 1 < min)
		return layout_fail(p, p->tok[0].at + strlen(p->tok[0].text), "%s after '%s'", what,
				   p->tok[0].text);
	if (max >= 0 && p->ntok - 1 > max)
		return layout_fail(p, p->tok[max + 1].at, "the end of the line after %s", what);
	return 0;
}

/* Is NAME taken by a built-in, an event or a metric?  Returns what it is or NULL. */
static const char *layout_name_taken(const struct layout *l, const char *name)
{
	for (int i = 0; i < LAYOUT_NBUILTINS; i++)
		if (!strcmp(layout_builtin_names[i], name))
			return "a built-in";
	for (int i = 0; i < l->nevents; i++)
		if (!strcmp(l->events[i].name, name))
			return "an event";
	for (int i = 0; i < l->nmetrics; i++)
		if (!strcmp(l->metrics[i].name, name))
			return "a metric";
	if (!strcmp(name, "min") || !strcmp(name, "max"))
		return "a function";
	return NULL;
}

int layout_new_name(struct layout_parser *p, const struct layout_token *t)
{
	const char *taken;

	if (!layout_is_name(t->text))
		return layout_fail(p, t->at, "a name (letters, digits, '_', '.'), not '%s'", t->text);
	taken = layout_name_taken(p->l, t->text);
	if (taken)
		return layout_fail(p, t->at, "a new name: '%s' is already %s", t->text, taken);
	return 0;
}

int layout_number(struct layout_parser *p, const struct layout_token *t, const char *s,
			 uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-' || *out > max)
		return layout_fail(p, t->at, "a number from 0 to 0x%llx in '%s'",
				   (unsigned long long)max, t->text);
	return 0;
}

int layout_double(struct layout_parser *p, const struct layout_token *t, double *out)
{
	char *end;

	*out = strtod(t->text, &end);
	if (!t->text[0] || *end || !isfinite(*out))
		return layout_fail(p, t->at, "a number, not '%s'", t->text);
	return 0;
}

/* ---- top-level lines ---------------------------------------------------- */

static int layout_models(struct layout_parser *p)
{
	struct layout *l = p->l;
	int rc = layout_want_args(p, 1, -1, "the models (06_1A ...) or 'any'");

	if (rc)
		return rc;
	for (int i = 1; i < p->ntok; i++) {
		unsigned fam, mod;
		char c;

		if (!strcmp(p->tok[i].text, "any")) {
			l->fallback = true;
			continue;
		}
		if (sscanf(p->tok[i].text, "%2x_%2x%c", &fam, &mod, &c) != 2 ||
		    strlen(p->tok[i].text) != 5)
			return layout_fail(p, p->tok[i].at,
					   "a model as FAMILY_MODEL in hex (06_1A) or 'any', not '%s'",
					   p->tok[i].text);
		l->models = xrealloc(l->models, (size_t)l->nmodels + 1, sizeof(*l->models));
		l->models[l->nmodels][0] = fam;
		l->models[l->nmodels][1] = mod;
		l->nmodels++;
	}
	return 0;
}

/* "vendor intel|amd": whose event selects the raw events are (AMD's are 12 bits wide). */
static int layout_vendor(struct layout_parser *p)
{
	int rc = layout_want_args(p, 1, 1, "the vendor: intel or amd");
	enum cpuid_vendor v;

	if (rc)
		return rc;
	if (!strcmp(p->tok[1].text, "intel"))
		v = CPUID_VENDOR_INTEL;
	else if (!strcmp(p->tok[1].text, "amd"))
		v = CPUID_VENDOR_AMD;
	else
		return layout_fail(p, p->tok[1].at, "intel or amd, not '%s'", p->tok[1].text);
	if (p->in_include)
		return v == p->l->vendor ? 0 : layout_fail(p, p->tok[1].at, "the including layout's "
							   "vendor: one vendor's events mean other "
							   "things on another's CPUs");
	if (p->l->nevents)
		return layout_fail(p, p->tok[0].at, "the 'vendor' line before the first event");
	p->l->vendor = v;
	return 0;
}

int layout_set_string(struct layout_parser *p, char **field, const char *what)
{
	int rc = layout_want_args(p, 1, 1, what);

	if (rc)
		return rc;
	if (*field)
		return layout_fail(p, p->tok[0].at, "one '%s' line, this is the second",
				   p->tok[0].text);
	*field = xstrdup(p->tok[1].text);
	return 0;
}

/* The header lines an included layout's includer gives instead (layout_include.c). */
static bool layout_included_header(const char *kw)
{
	return !strcmp(kw, "layout") || !strcmp(kw, "description") || !strcmp(kw, "libpfm") ||
	       !strcmp(kw, "libpfm_uncore") || !strcmp(kw, "models");
}

static int layout_top_line(struct layout_parser *p, const char *eol)
{
	struct layout *l = p->l;
	const char *kw = p->tok[0].text;
	int rc;

	if (p->in_include && layout_included_header(kw))
		return 0;
	if (!p->in_include && (!strcmp(kw, "metric") || !strcmp(kw, "group")))
		p->own_items = true;
	if (!strcmp(kw, "include"))
		return layout_include(p);
	if (!strcmp(kw, "drop"))
		return layout_include_drop(p);
	if (!strcmp(kw, "layout")) {
		if ((rc = layout_set_string(p, &l->name, "the layout's name")))
			return rc;
		return layout_is_name(l->name) ? 0 : layout_fail(p, p->tok[1].at, "a layout name "
								 "(letters, digits, '_', '.')");
	}
	if (!strcmp(kw, "description"))
		return layout_set_string(p, &l->description, "a description");
	if (!strcmp(kw, "libpfm"))
		return layout_set_string(p, &l->libpfm_pmu, "a libpfm4 PMU name (nhm, wsm_dp, ...)");
	if (!strcmp(kw, "libpfm_uncore"))
		return layout_set_string(p, &l->libpfm_uncore, "a libpfm4 uncore PMU name (nhm_unc, "
					 "wsm_unc)");
	if (!strcmp(kw, "models"))
		return layout_models(p);
	if (!strcmp(kw, "vendor"))
		return layout_vendor(p);
	if (!strcmp(kw, "offcore"))
		return layout_offcore(p);
	if (!strcmp(kw, "metric"))
		return layout_metric(p, eol);
	if (!strcmp(kw, "help")) {
		if (p->last_metric < 0)
			return layout_fail(p, p->tok[0].at, "a metric line before 'help'");
		return layout_set_string(p, &l->metrics[p->last_metric].help, "a help text");
	}
	if (!strcmp(kw, "thresholds"))
		return layout_thresholds(p);
	if (!strcmp(kw, "tree") || !strcmp(kw, "threshold"))
		return layout_tree_line(p, eol);
	if (!strcmp(kw, "unavailable"))
		return layout_unavailable(p);
	if (!strcmp(kw, "group"))
		return layout_group_open(p);
	if (!strcmp(kw, "end"))
		return layout_fail(p, p->tok[0].at, "a 'group' before 'end'");
	return layout_fail(p, p->tok[0].at, "layout, description, vendor, offcore, libpfm, "
			   "libpfm_uncore, models, include, drop, metric, unavailable, help, thresholds, "
			   "tree, threshold or group, not '%s'", kw);
}

static int layout_fixup(void *ctx, int var)
{
	const struct layout *l = ctx;

	return var >= LAYOUT_METRIC_TAG ? layout_metric_var(l, var - LAYOUT_METRIC_TAG) : var;
}

static bool layout_has_thread_metric(const struct layout *l)
{
	for (int m = 0; m < l->nmetrics; m++)
		if (l->metrics[m].scope == LAYOUT_THREAD)
			return true;
	return false;
}

/* Line [S, EOL) into the self-contained text. */
static void layout_flat_add(struct layout_parser *p, const char *s, const char *eol)
{
	size_t n = (size_t)(eol - s);

	if (p->flat_len + n + 2 > p->flat_cap) {
		p->flat_cap = 2 * (p->flat_len + n + 2);
		p->flat = xrealloc(p->flat, p->flat_cap, 1);
	}
	memcpy(p->flat + p->flat_len, s, n);
	p->flat_len += n;
	p->flat[p->flat_len++] = '\n';
	p->flat[p->flat_len] = 0;
}

/* Whether a line is the file's own business, not the layout's (include, drop, an included header). */
static bool layout_flat_skips(const struct layout_parser *p)
{
	const char *kw = p->tok[0].text;

	return p->group < 0 && (!strcmp(kw, "include") || !strcmp(kw, "drop") ||
				(p->in_include && (layout_included_header(kw) ||
						   !strcmp(kw, "vendor"))));
}

int layout_line(struct layout_parser *p, const char *s, const char *eol)
{
	bool handled;
	int rc;

	if (p->seen_version && !p->skip && !layout_flat_skips(p) &&
	    !(p->group < 0 && !strcmp(p->tok[0].text, "group") && layout_include_replaces(p)))
		layout_flat_add(p, s, eol);
	if (!p->seen_version) {
		if (!p->in_include && !p->flat_len)
			layout_flat_add(p, s, eol);
		p->seen_version = true;
		if (strncmp(s, LAYOUT_VERSION_LINE, strlen(LAYOUT_VERSION_LINE)) || p->ntok != 2)
			return layout_fail(p, p->tok[0].at, "'%s' as the first line",
					   LAYOUT_VERSION_LINE);
		return 0;
	}
	if (p->skip) {
		/* a replaced or dropped group: its lines up to its end */
		p->skip = strcmp(p->tok[0].text, "end") != 0;
		return 0;
	}
	if (p->group >= 0)
		return layout_group_line(p, eol);
	if (!strcmp(p->tok[0].text, "group")) {
		rc = layout_include_group(p, &handled);
		if (rc || handled)
			return rc;
	}
	return layout_top_line(p, eol);
}

int layout_lines(struct layout_parser *p, const char *text, bool one_group)
{
	const char *s = text;
	int rc = 0;

	while (*s && !rc) {
		const char *eol = strchr(s, '\n');

		if (!eol)
			eol = s + strlen(s);
		p->line++;
		p->bol = s;
		rc = layout_tokenize(p, s, eol);
		if (!rc && p->ntok)
			rc = layout_line(p, s, eol);
		s = *eol ? eol + 1 : eol;
		if (one_group && p->group < 0)
			break; /* the group is closed */
	}
	layout_free_tokens(p);
	return rc;
}

int layout_end_of_file(struct layout_parser *p, const char *text)
{
	const char *s = text + strlen(text);

	/* end-of-file errors point just past the last line */
	if (!*text || s[-1] == '\n')
		p->line++;
	p->bol = s;
	if (!p->seen_version)
		return layout_fail(p, s, "'%s' as the first line", LAYOUT_VERSION_LINE);
	if (p->group >= 0)
		return layout_fail(p, s, "'end' to close group '%s' before the end of the file",
				   p->l->groups[p->group].name);
	return 0;
}

void layout_parser_init(struct layout_parser *p, const char *file, bool part, char *err,
			size_t errlen)
{
	*p = (struct layout_parser){ .file = file, .top_file = file, .err = err, .errlen = errlen,
				     .group = -1, .last_metric = -1, .part = part };
	p->l = xcalloc(1, sizeof(*p->l));
	p->l->file = xstrdup(file);
	p->l->vendor = CPUID_VENDOR_INTEL;
}

int layout_parser_finish(struct layout_parser *p, int rc, struct layout **out)
{
	if (!rc)
		rc = layout_include_check(p);
	if (!rc)
		rc = layout_resolve_tree(p);
	if (!rc && !p->l->name)
		rc = layout_fail(p, p->bol, "a 'layout NAME' line");
	else if (!rc && !p->part && !layout_has_thread_metric(p->l))
		rc = layout_fail(p, p->bol, "at least one 'metric NAME thread ...' line: the "
				 "screen colours each hardware thread by one");
	layout_free_tokens(p);
	free(p->blocks);
	if (rc) {
		free(p->flat);
		layout_free(p->l);
		return rc;
	}
	p->l->text = p->flat;
	for (int i = 0; i < p->l->nmetrics; i++) {
		expr_remap(p->l->metrics[i].expr, layout_fixup, p->l);
		if (p->l->metrics[i].threshold)
			expr_remap(p->l->metrics[i].threshold, layout_fixup, p->l);
	}
	p->l->topdown_fields = layout_find_topdown_fields(p->l);
	*out = p->l;
	return 0;
}

int layout_parse_as(const char *text, const char *file, bool part, struct layout **out, char *err,
		    size_t errlen)
{
	struct layout_parser p;
	int rc;

	*out = NULL;
	layout_parser_init(&p, file, part, err, errlen);
	layout_include_scan(&p, text);
	rc = layout_lines(&p, text, false);
	if (!rc)
		rc = layout_end_of_file(&p, text);
	return layout_parser_finish(&p, rc, out);
}

int layout_parse(const char *text, const char *file, struct layout **out, char *err, size_t errlen)
{
	return layout_parse_as(text, file, false, out, err, errlen);
}
