/*
 * layout_build: a layout made by calls; see layout_build.h.  Each call
 * writes its line (the language's printer: keywords, indentation, quoted
 * texts) and gives the parser the line's words as it would have read them
 * (layout_int.h), so one set of checks serves files and made layouts.
 */
#include "layout_build.h"
#include "layout_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_ERR_MAX (PATH_MAX + 600)
#define LB_NO_BAD ((size_t)-1)

struct layout_build {
	struct layout_parser p;
	char err[LB_ERR_MAX];
	int rc;
	int ngroups;
	char *text;                /* every line so far, comments too */
	size_t len, cap;
	char *line;                /* the line being made */
	size_t n, line_cap;
	size_t tok_off[LAYOUT_MAX_TOKENS]; /* where each word starts in the line */
	char *tok_text[LAYOUT_MAX_TOKENS]; /* each word as the parser reads it (unquoted) */
	int ntok;
	size_t bad;                /* the offset of a word that is no word (LB_NO_BAD: none) */
	const char *bad_why;
};

static void lb_grow(char **s, size_t *cap, size_t need)
{
	if (need <= *cap)
		return;
	*cap = need * 2 > 256 ? need * 2 : 256;
	*s = xrealloc(*s, *cap, 1);
}

static void lb_append(struct layout_build *b, const char *s, size_t n)
{
	lb_grow(&b->text, &b->cap, b->len + n + 1);
	memcpy(b->text + b->len, s, n);
	b->len += n;
	b->text[b->len] = 0;
}

static void lb_put(struct layout_build *b, const char *s, size_t n)
{
	lb_grow(&b->line, &b->line_cap, b->n + n + 1);
	memcpy(b->line + b->n, s, n);
	b->n += n;
	b->line[b->n] = 0;
}

/* Inside a group, its lines are indented (not its "group" and "end"). */
static const char *lb_indent(const struct layout_build *b)
{
	return b->p.group >= 0 ? "  " : "";
}

static void lb_begin(struct layout_build *b, const char *indent)
{
	b->n = 0;
	b->ntok = 0;
	b->bad = LB_NO_BAD;
	lb_put(b, indent, strlen(indent));
}

static void lb_token(struct layout_build *b, char *text)
{
	if (b->ntok == LAYOUT_MAX_TOKENS) {
		if (b->bad == LB_NO_BAD) {
			b->bad = b->n;
			b->bad_why = "at most 32 words on a line";
		}
		free(text);
		return;
	}
	b->tok_off[b->ntok] = b->n;
	b->tok_text[b->ntok++] = text;
}

static void lb_space(struct layout_build *b)
{
	if (b->n && b->line[b->n - 1] != ' ')
		lb_put(b, " ", 1);
}

/* A bare word: a name, a number, a keyword (no blank, quote or '#': it would read as more). */
static void lb_word(struct layout_build *b, const char *w)
{
	lb_space(b);
	if ((!*w || w[strcspn(w, " \t\r\n\"#")]) && b->bad == LB_NO_BAD) {
		b->bad = b->n;
		b->bad_why = "a word without blanks, quotes or '#'";
	}
	lb_token(b, xstrdup(w));
	lb_put(b, w, strlen(w));
}

static void lb_wordf(struct layout_build *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lb_wordf(struct layout_build *b, const char *fmt, ...)
{
	char w[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w, sizeof(w), fmt, ap);
	va_end(ap);
	lb_word(b, w);
}

/* A text in quotes ('"' and '\' escaped; a control character written as a blank). */
static void lb_quoted(struct layout_build *b, const char *s)
{
	size_t k = 0;
	char *t = xmalloc(strlen(s ? s : "") + 1);

	lb_space(b);
	lb_token(b, t);
	lb_put(b, "\"", 1);
	for (; s && *s; s++) {
		char c = (unsigned char)*s < ' ' ? ' ' : *s;

		if (c == '"' || c == '\\')
			lb_put(b, "\\", 1);
		lb_put(b, &c, 1);
		t[k++] = c;
	}
	t[k] = 0;
	lb_put(b, "\"", 1);
}

/* The rest of the line, as it stands (a formula: the parser reads it from the line). */
static void lb_rest(struct layout_build *b, const char *s)
{
	lb_space(b);
	if (s[strcspn(s, "\r\n#")] && b->bad == LB_NO_BAD) {
		b->bad = b->n + strcspn(s, "\r\n#");
		b->bad_why = "a formula on one line, without '#'";
	}
	lb_put(b, s, strlen(s));
}

/* The line made: into the text, and to the parser as its words. */
static void lb_apply(struct layout_build *b)
{
	struct layout_parser *p = &b->p;

	lb_append(b, b->line, b->n);
	lb_append(b, "\n", 1);
	if (!b->rc) {
		p->line++;
		p->bol = b->line;
		for (int i = 0; i < b->ntok; i++) {
			p->tok[i].at = b->line + b->tok_off[i];
			p->tok[i].text = b->tok_text[i];
		}
		p->ntok = b->ntok;
		b->ntok = 0;
		if (b->bad != LB_NO_BAD)
			b->rc = layout_fail(p, b->line + b->bad, "%s", b->bad_why);
		else if (!(b->rc = layout_check_text(p, b->line, b->line + b->n)))
			b->rc = layout_line(p, b->line, b->line + b->n);
		layout_free_tokens(p);
	}
	for (int i = 0; i < b->ntok; i++)
		free(b->tok_text[i]);
	b->ntok = 0;
}

struct layout_build *layout_build_new(const char *file)
{
	struct layout_build *b = xcalloc(1, sizeof(*b));

	layout_parser_init(&b->p, file, false, b->err, sizeof(b->err));
	lb_append(b, LAYOUT_VERSION_LINE "\n", strlen(LAYOUT_VERSION_LINE) + 1);
	b->rc = layout_lines(&b->p, b->text, false);
	return b;
}

void layout_build_comment(struct layout_build *b, const char *fmt, ...)
{
	char *s;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	s[0] = 0;
	va_start(ap, fmt);
	if (n > 0)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	for (const char *q = s;;) {
		size_t k = strcspn(q, "\n");

		lb_begin(b, lb_indent(b));
		lb_put(b, "# ", 2);
		lb_put(b, q, k);
		lb_append(b, b->line, b->n);
		lb_append(b, "\n", 1);
		b->p.line++;
		b->p.bol = b->line;
		if (!b->rc)
			b->rc = layout_check_text(&b->p, b->line, b->line + b->n);
		if (!q[k])
			break;
		q += k + 1;
	}
	free(s);
}

void layout_build_blank(struct layout_build *b)
{
	lb_append(b, "\n", 1);
	b->p.line++;
}

/* A line of KEYWORD and one quoted text. */
static void lb_text_line(struct layout_build *b, const char *kw, const char *text)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, kw);
	lb_quoted(b, text);
	lb_apply(b);
}

/* A line of KEYWORD and one word. */
static void lb_word_line(struct layout_build *b, const char *kw, const char *w)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, kw);
	if (w)
		lb_word(b, w);
	lb_apply(b);
}

void layout_build_name(struct layout_build *b, const char *name)
{
	lb_word_line(b, "layout", name);
}

void layout_build_description(struct layout_build *b, const char *text)
{
	lb_text_line(b, "description", text);
}

void layout_build_vendor(struct layout_build *b, bool amd)
{
	lb_word_line(b, "vendor", amd ? "amd" : "intel");
}

void layout_build_offcore(struct layout_build *b, const unsigned *codes)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, "offcore");
	if (!codes) {
		lb_word(b, "none");
	} else {
		lb_wordf(b, "0x%02X", codes[0]);
		lb_wordf(b, "0x%02X", codes[1]);
	}
	lb_apply(b);
}

/* The start of a metric's line: "KEYWORD NAME SCOPE UNIT". */
static void lb_metric_head(struct layout_build *b, const char *kw, const char *name,
			   enum layout_scope scope, const char *unit)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, kw);
	lb_word(b, name);
	lb_word(b, layout_scope_names[scope]);
	lb_quoted(b, unit);
}

void layout_build_metric(struct layout_build *b, const char *name, enum layout_scope scope,
			 const char *unit, const char *formula)
{
	lb_metric_head(b, "metric", name, scope, unit);
	lb_word(b, "=");
	lb_rest(b, formula);
	lb_apply(b);
}

void layout_build_unavailable(struct layout_build *b, const char *name, enum layout_scope scope,
			      const char *unit, const char *why)
{
	lb_metric_head(b, "unavailable", name, scope, unit);
	lb_quoted(b, why);
	lb_apply(b);
}

void layout_build_help(struct layout_build *b, const char *text)
{
	lb_text_line(b, "help", text);
}

void layout_build_tree(struct layout_build *b, const char *parent, int level, int pos)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, "tree");
	lb_word(b, parent ? parent : "-");
	lb_wordf(b, "%d", level);
	lb_wordf(b, "%d", pos);
	lb_apply(b);
}

void layout_build_threshold(struct layout_build *b, bool own, const char *formula)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, "threshold");
	if (own)
		lb_put(b, " own:", 5);
	lb_rest(b, formula);
	lb_apply(b);
}

void layout_build_thresholds(struct layout_build *b, double warn, double crit)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, "thresholds");
	lb_word(b, "warn");
	lb_wordf(b, "%g", warn);
	lb_word(b, "crit");
	lb_wordf(b, "%g", crit);
	lb_apply(b);
}

void layout_build_group(struct layout_build *b, const char *name)
{
	layout_build_blank(b);
	b->ngroups++;
	lb_begin(b, "");
	lb_word(b, "group");
	lb_word(b, name);
	lb_apply(b);
}

void layout_build_key(struct layout_build *b, char key)
{
	char k[2] = { key, 0 };

	lb_word_line(b, "key", k);
}

void layout_build_title(struct layout_build *b, const char *text)
{
	lb_text_line(b, "title", text);
}

void layout_build_default(struct layout_build *b, bool on)
{
	lb_word_line(b, "default", on ? "on" : "off");
}

void layout_build_pmu(struct layout_build *b, enum layout_pmu pmu)
{
	lb_word_line(b, "pmu", layout_pmu_kinds[pmu].name);
}

void layout_build_coretype(struct layout_build *b, enum layout_coretype type)
{
	lb_word_line(b, "coretype", layout_coretype_names[type]);
}

void layout_build_reads(struct layout_build *b, const char *const *groups, int n)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, "reads");
	for (int i = 0; i < n; i++)
		lb_word(b, groups[i]);
	lb_apply(b);
}

void layout_build_end(struct layout_build *b)
{
	lb_begin(b, "");
	lb_word(b, "end");
	lb_apply(b);
}

void layout_build_event(struct layout_build *b, const struct layout_build_event *e)
{
	lb_begin(b, lb_indent(b));
	lb_word(b, "event");
	lb_word(b, e->name);
	lb_word(b, "raw");
	lb_wordf(b, "event=0x%02X", e->event);
	lb_wordf(b, "umask=0x%02llX", (unsigned long long)e->umask);
	if (e->has_offcore)
		lb_wordf(b, "offcore=0x%llX", (unsigned long long)e->offcore);
	if (e->has_frontend)
		lb_wordf(b, "frontend=0x%llX", (unsigned long long)e->frontend);
	if (e->cmask)
		lb_wordf(b, "cmask=%u", e->cmask);
	if (e->inv)
		lb_word(b, "inv=1");
	if (e->edge)
		lb_word(b, "edge=1");
	if (e->eq)
		lb_word(b, "eq=1");
	if (e->ring)
		lb_wordf(b, "ring=%s", e->ring);
	if (e->any_sum) {
		lb_word(b, "any=1");
		lb_word(b, "sum");
	}
	if (e->has_filter1)
		lb_wordf(b, "filter1=0x%llX", (unsigned long long)e->filter1);
	if (e->counters) {
		char list[8 * 32] = "counters=";
		size_t k = strlen(list);

		for (int c = 0; c < 32; c++)
			if (e->counters & (1u << c))
				k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%d",
						      list[k - 1] == '=' ? "" : ",", c);
		lb_word(b, list);
	}
	if (e->has_channel)
		lb_wordf(b, "channel=%d", e->channel);
	if (e->has_box)
		lb_wordf(b, "box=%d", e->box);
	lb_apply(b);
}

void layout_build_text(struct layout_build *b, const char *text)
{
	size_t n = strlen(text);

	/* its groups count as the builder's (layout_build_groups) */
	for (const char *s = text; *s; s += strcspn(s, "\n") + (s[strcspn(s, "\n")] ? 1 : 0)) {
		const char *w = s + strspn(s, " \t");

		if (!strncmp(w, "group", 5) && (w[5] == ' ' || w[5] == '\t'))
			b->ngroups++;
	}
	lb_append(b, text, n);
	if (n && text[n - 1] != '\n')
		lb_append(b, "\n", 1);
	if (!b->rc)
		b->rc = layout_lines(&b->p, text, false);
	else
		for (const char *s = text; *s; s++)
			b->p.line += *s == '\n';
}

int layout_build_groups(const struct layout_build *b)
{
	return b->ngroups;
}

int layout_build_finish(struct layout_build *b, struct layout **out, char **text, char *err,
			size_t errlen)
{
	struct layout *l = NULL;
	int rc = b->rc;

	if (!rc)
		rc = layout_end_of_file(&b->p, b->text);
	rc = layout_parser_finish(&b->p, rc, &l);
	if (rc)
		snprintf(err, errlen, "%s", b->err);
	if (out)
		*out = l;
	else
		layout_free(l);
	if (text && !rc)
		*text = b->text;
	else
		free(b->text);
	if (text && rc)
		*text = NULL;
	free(b->line);
	free(b);
	return rc;
}
