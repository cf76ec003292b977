/*
 * layout: the layout file parser.  Line oriented: a keyword, then its
 * arguments; a "group" block closes with "end".  Every error names
 * FILE:LINE:COL and what was expected there.  Main thread, before curses.
 */
#include "layout.h"
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

#define LAYOUT_VERSION_LINE "pmutop-layout 1"
#define LAYOUT_MAX_TOKENS 32
#define LAYOUT_SUFFIX ".layout"
#define LAYOUT_MAX_BYTES (1 << 20)
/* metric variables while parsing, before the number of events is known */
#define LAYOUT_METRIC_TAG (1 << 24)

const char *const layout_builtin_names[LAYOUT_NBUILTINS] = {
#define LAYOUT_BUILTIN_NAME(n, h) [LAYOUT_B_##n] = #n,
	LAYOUT_BUILTINS(LAYOUT_BUILTIN_NAME)
#undef LAYOUT_BUILTIN_NAME
};

const char *const layout_scope_names[LAYOUT_NSCOPES] = {
	[LAYOUT_THREAD] = "thread",
	[LAYOUT_CORE] = "core",
	[LAYOUT_SOCKET] = "socket",
	[LAYOUT_CHANNEL] = "channel",
};

const char *const layout_pmu_names[LAYOUT_NPMUS] = {
	[LAYOUT_PMU_CORE] = "core",
	[LAYOUT_PMU_UNCORE] = "uncore",
	[LAYOUT_PMU_CBO] = "cbo",
	[LAYOUT_PMU_ARB] = "arb",
	[LAYOUT_PMU_IMC] = "imc",
};

/* The Skylake client IMC free-running counters by name [S1 Table 3-3]. */
static const struct layout_imc_row {
	const char *name;
	uint32_t offset;
} layout_imc_rows[] = {
	{ .name = "DRAM_GT_REQUESTS", .offset = SKL_IMC_DRAM_GT_REQUESTS },
	{ .name = "DRAM_IA_REQUESTS", .offset = SKL_IMC_DRAM_IA_REQUESTS },
	{ .name = "DRAM_IO_REQUESTS", .offset = SKL_IMC_DRAM_IO_REQUESTS },
	{ .name = "DRAM_DATA_READS", .offset = SKL_IMC_DRAM_DATA_READS },
	{ .name = "DRAM_DATA_WRITES", .offset = SKL_IMC_DRAM_DATA_WRITES },
};

/* The OFFCORE_RESPONSE events and the matrix register each one reads (seed 000 "Offcore"). */
static const struct layout_offcore_row {
	unsigned event;
	uint32_t msr;
} layout_offcore_rows[] = {
	{ .event = 0xB7, .msr = MSR_OFFCORE_RSP_0 },
	{ .event = 0xBB, .msr = MSR_OFFCORE_RSP_1 },
};

struct layout_token {
	const char *at;   /* in the line, for the column */
	char *text;       /* unquoted copy */
};

struct layout_parser {
	const char *file;
	int line;
	const char *bol;
	char *err;
	size_t errlen;
	struct layout *l;
	int group;        /* open group, -1 */
	int last_metric;  /* for "help" lines, -1 */
	struct layout_token tok[LAYOUT_MAX_TOKENS];
	int ntok;
	/* expression lookup context */
	const char *why;
	char whybuf[200];
	enum layout_scope scope;
};

/* FILE:LINE:COL: expected FMT... (every message says what was expected there). */
static int layout_fail(struct layout_parser *p, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int layout_fail(struct layout_parser *p, const char *at, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return parse_fail(p->err, p->errlen, p->file, p->line, p->bol, at, "expected %s", what);
}

static void layout_free_tokens(struct layout_parser *p)
{
	for (int i = 0; i < p->ntok; i++)
		free(p->tok[i].text);
	p->ntok = 0;
}

/* Split the line [S, E) into tokens; "quoted strings" with \" and \\ escapes; '#' comments. */
static int layout_tokenize(struct layout_parser *p, const char *s, const char *e)
{
	const char *bad = parse_control_char(s, e);

	layout_free_tokens(p);
	/* a CRLF line end is accepted; any other control character could reach the terminal */
	if (bad && !(*bad == '\r' && bad + 1 == e))
		return layout_fail(p, bad, "printable text, not control character 0x%02X",
				   (unsigned char)*bad);
	for (;;) {
		char *out;
		size_t n = 0;

		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == e || *s == '#')
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

static bool layout_is_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int layout_want_args(struct layout_parser *p, int min, int max, const char *what)
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

static int layout_new_name(struct layout_parser *p, const struct layout_token *t)
{
	const char *taken;

	if (!layout_is_name(t->text))
		return layout_fail(p, t->at, "a name (letters, digits, '_'), not '%s'", t->text);
	taken = layout_name_taken(p->l, t->text);
	if (taken)
		return layout_fail(p, t->at, "a new name: '%s' is already %s", t->text, taken);
	return 0;
}

static int layout_number(struct layout_parser *p, const struct layout_token *t, const char *s,
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

static int layout_double(struct layout_parser *p, const struct layout_token *t, double *out)
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

static int layout_set_string(struct layout_parser *p, char **field, const char *what)
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

/* ---- events ------------------------------------------------------------ */

static int layout_raw_field(struct layout_parser *p, const struct layout_token *t,
			    struct layout_event *ev)
{
	static const struct {
		const char *key;
		uint64_t max;
	} keys[] = { { "event", 0xFF }, { "umask", 0xFF }, { "cmask", 0xFF }, { "inv", 1 },
		     { "edge", 1 }, { "any", 1 }, { "offcore", ~0ull } };
	const char *eq = strchr(t->text, '=');
	uint64_t v;
	/* the fields each PMU's event select has: uncore selects have no ANY, no offcore matrix */
	unsigned nkeys = ev->pmu == LAYOUT_PMU_CORE ? 7 : 5;

	if (!eq)
		return layout_fail(p, t->at, "FIELD=VALUE (event, umask, cmask, inv, edge, any, "
				   "offcore), not '%s'", t->text);
	for (size_t k = 0; k < nkeys; k++) {
		if (strlen(keys[k].key) != (size_t)(eq - t->text) ||
		    strncmp(keys[k].key, t->text, (size_t)(eq - t->text)))
			continue;
		if (layout_number(p, t, eq + 1, (ev->pmu == LAYOUT_PMU_CBO || ev->pmu == LAYOUT_PMU_ARB)
					 && k == 2 ? SKL_UNC_EVTSEL_THR_MASK >> 24 : keys[k].max, &v))
			return -EINVAL;
		switch (k) {
		case 0: ev->event = (unsigned)v; break;
		case 1: ev->umask = (unsigned)v; break;
		case 2: ev->cmask = (unsigned)v; break;
		case 3: ev->inv = v; break;
		case 4: ev->edge = v; break;
		case 5: ev->any = v; break;
		default: ev->offcore = v; ev->has_offcore = true; break;
		}
		return 0;
	}
	return layout_fail(p, t->at, "a raw field (event, umask, cmask, inv, edge%s), not '%.*s'",
			   nkeys == 7 ? ", any, offcore" : "", (int)(eq - t->text), t->text);
}

/* Trailing words of an event line: per-core, counters=LIST, channel=N. */
static int layout_event_attr(struct layout_parser *p, const struct layout_token *t,
			     struct layout_event *ev)
{
	if (!strncmp(t->text, "channel=", 8)) {
		uint64_t ch;

		if (ev->pmu == LAYOUT_PMU_CORE)
			return layout_fail(p, t->at, "no channel=N in a core group: channels belong "
					   "to a memory controller ('pmu uncore')");
		if (layout_number(p, t, t->text + 8, LAYOUT_MAX_CHANNELS - 1, &ch))
			return -EINVAL;
		ev->channel = (int)ch;
		return 0;
	}
	if (!strcmp(t->text, "per-core")) {
		ev->per_core = true;
		return 0;
	}
	if (!strncmp(t->text, "counters=", 9)) {
		int *cpus, n;
		size_t col;

		if (cpulist_parse(t->text + 9, &cpus, &n, &col) || n == 0)
			return layout_fail(p, t->at, "counters=LIST of counter numbers (0-3), not '%s'",
					   t->text);
		ev->counters = 0;
		for (int i = 0; i < n; i++) {
			if (cpus[i] >= PMU_MAX_GP) {
				free(cpus);
				return layout_fail(p, t->at, "counter numbers below %d in '%s'",
						   PMU_MAX_GP, t->text);
			}
			ev->counters |= 1u << cpus[i];
		}
		free(cpus);
		return 0;
	}
	return -ENOENT;
}

/*
 * An event name is new, or (for channel events) the name of another event
 * of this group counting the same thing on another channel: they share one
 * variable, which is per channel at channel scope and their sum above.
 * Sets EV->var.
 */
static int layout_event_name(struct layout_parser *p, struct layout_event *ev)
{
	const struct layout *l = p->l;
	const struct layout_token *t = &p->tok[1];

	ev->var = LAYOUT_NBUILTINS + l->nevents;
	for (int i = 0; i < l->nevents; i++) {
		const struct layout_event *o = &l->events[i];

		if (strcmp(o->name, t->text))
			continue;
		if (o->group != ev->group || o->channel < 0 || ev->channel < 0)
			break;
		if (o->channel == ev->channel)
			return layout_fail(p, t->at, "a new channel for event '%s': channel %d is "
					   "already counted", t->text, ev->channel);
		ev->var = o->var;
		return 0;
	}
	return layout_new_name(p, t);
}

/* An event of the Skylake IMC: one of its free-running counters by name. */
static int layout_imc_event(struct layout_parser *p, struct layout_event *ev)
{
	for (size_t k = 0; k < sizeof(layout_imc_rows) / sizeof(layout_imc_rows[0]); k++)
		if (!strcmp(p->tok[2].text, layout_imc_rows[k].name)) {
			ev->mmio = layout_imc_rows[k].offset;
			return 0;
		}
	return layout_fail(p, p->tok[2].at, "an IMC counter (DRAM_GT_REQUESTS, DRAM_IA_REQUESTS, "
			   "DRAM_IO_REQUESTS, DRAM_DATA_READS, DRAM_DATA_WRITES), not '%s'",
			   p->tok[2].text);
}

static int layout_event(struct layout_parser *p)
{
	struct layout *l = p->l;
	enum layout_pmu pmu = l->groups[p->group].pmu;
	struct layout_event ev = { .group = p->group, .line = p->line, .pmu = pmu, .channel = -1,
				   .counters = (1u << PMU_MAX_GP) - 1 };
	int rc = layout_want_args(p, 2, -1, "an event name and its encoding (a libpfm4 name or 'raw')");
	int i = 3;
	const char *pfm_pmu = pmu == LAYOUT_PMU_CORE ? l->libpfm_pmu : l->libpfm_uncore;

	if (rc)
		return rc;
	if (!layout_is_name(p->tok[1].text))
		return layout_fail(p, p->tok[1].at, "a name (letters, digits, '_'), not '%s'",
				   p->tok[1].text);
	if (pmu == LAYOUT_PMU_IMC) {
		if ((rc = layout_imc_event(p, &ev)))
			return rc;
	} else if (!strcmp(p->tok[2].text, "raw")) {
		bool have_event = false;

		for (; i < p->ntok && strchr(p->tok[i].text, '='); i++) {
			if (!strncmp(p->tok[i].text, "counters=", 9) ||
			    !strncmp(p->tok[i].text, "channel=", 8))
				break;
			if (layout_raw_field(p, &p->tok[i], &ev))
				return -EINVAL;
			have_event |= !strncmp(p->tok[i].text, "event=", 6);
		}
		if (!have_event)
			return layout_fail(p, p->tok[2].at + 3, "event=CODE after 'raw'");
	} else {
		struct pfmenc_fields f;
		char why[200];

		if (!pfm_pmu)
			return layout_fail(p, p->tok[2].at, "'raw FIELD=VALUE...' (no '%s' line before "
					   "this event names the libpfm4 PMU)",
					   pmu == LAYOUT_PMU_CORE ? "libpfm PMU" : "libpfm_uncore PMU");
		if (pfmenc_encode(pfm_pmu, p->tok[2].text, &f, why, sizeof(why)))
			return layout_fail(p, p->tok[2].at, "an event libpfm4 knows for PMU %s: '%s': %s",
					   pfm_pmu, p->tok[2].text, why);
		ev.event = f.event;
		ev.umask = f.umask;
		ev.cmask = f.cmask;
		ev.inv = f.inv;
		ev.edge = f.edge;
		ev.any = f.any;
		ev.has_offcore = f.has_offcore;
		ev.offcore = f.offcore;
		ev.canonical = xstrdup(f.canonical);
	}
	for (; i < p->ntok; i++) {
		rc = layout_event_attr(p, &p->tok[i], &ev);
		if (rc) {
			free(ev.canonical);
			if (rc == -ENOENT)
				rc = layout_fail(p, p->tok[i].at, "'per-core', 'counters=LIST' or "
						 "'channel=N', not '%s'", p->tok[i].text);
			return rc;
		}
	}
	if ((rc = layout_event_name(p, &ev))) {
		free(ev.canonical);
		return rc;
	}
	ev.per_core |= ev.any;
	for (size_t k = 0; pmu == LAYOUT_PMU_CORE && k < sizeof(layout_offcore_rows) / sizeof(layout_offcore_rows[0]); k++)
		if (layout_offcore_rows[k].event == ev.event)
			ev.offcore_msr = layout_offcore_rows[k].msr;
	if (ev.offcore_msr && !ev.has_offcore) {
		free(ev.canonical);
		return layout_fail(p, p->tok[2].at, "offcore=VALUE: event 0x%02X reads the offcore "
				   "response register", ev.event);
	}
	if (ev.has_offcore && !ev.offcore_msr) {
		free(ev.canonical);
		return layout_fail(p, p->tok[2].at, "no offcore value: event 0x%02X is not an "
				   "OFFCORE_RESPONSE event", ev.event);
	}
	ev.name = xstrdup(p->tok[1].text);
	ev.spec = xstrdup(p->tok[2].text);
	l->events = xrealloc(l->events, (size_t)l->nevents + 1, sizeof(*l->events));
	l->events[l->nevents++] = ev;
	l->groups[p->group].nevents++;
	return 0;
}

/* ---- metrics ----------------------------------------------------------- */

static int layout_lookup(void *ctx, const char *name, size_t len)
{
	struct layout_parser *p = ctx;
	const struct layout *l = p->l;

	p->why = NULL;
	for (int i = 0; i < LAYOUT_NBUILTINS; i++)
		if (strlen(layout_builtin_names[i]) == len && !strncmp(layout_builtin_names[i], name, len))
			return i;
	for (int i = 0; i < l->nevents; i++) {
		if (strlen(l->events[i].name) != len || strncmp(l->events[i].name, name, len))
			continue;
		if (l->events[i].group == p->group)
			return l->events[i].var;
		snprintf(p->whybuf, sizeof(p->whybuf), "event '%s' belongs to group '%s': a metric "
			 "uses only its own group's events", l->events[i].name,
			 l->groups[l->events[i].group].name);
		p->why = p->whybuf;
		return -1;
	}
	for (int i = 0; i < l->nmetrics; i++) {
		const struct layout_metric *m = &l->metrics[i];

		if (strlen(m->name) != len || strncmp(m->name, name, len))
			continue;
		if (m->group >= 0 && m->group != p->group) {
			snprintf(p->whybuf, sizeof(p->whybuf), "metric '%s' belongs to group '%s'",
				 m->name, l->groups[m->group].name);
			p->why = p->whybuf;
			return -1;
		}
		if (!layout_scope_computed(m->scope, p->scope)) {
			snprintf(p->whybuf, sizeof(p->whybuf), "metric '%s' has scope %s: a %s metric "
				 "cannot use it", m->name, layout_scope_names[m->scope],
				 layout_scope_names[p->scope]);
			p->why = p->whybuf;
			return -1;
		}
		/* metrics are renumbered once the event count is final (layout_fixup) */
		return LAYOUT_METRIC_TAG + i;
	}
	return -1;
}

/* metric NAME SCOPE UNIT = FORMULA; the formula is the rest of the raw line. */
static int layout_metric(struct layout_parser *p, const char *eol)
{
	struct layout *l = p->l;
	struct layout_metric m = { .group = p->group, .line = p->line, .warn = NAN, .crit = NAN };
	const char *f;
	char why[200];
	int rc, col, s;
	size_t flen;

	if (p->ntok < 5 || strcmp(p->tok[4].text, "="))
		return layout_fail(p, p->ntok < 5 ? eol : p->tok[4].at,
				   "'metric NAME SCOPE UNIT = FORMULA'");
	if ((rc = layout_new_name(p, &p->tok[1])))
		return rc;
	for (s = 0; s < LAYOUT_NSCOPES; s++)
		if (!strcmp(p->tok[2].text, layout_scope_names[s]))
			break;
	if (s == LAYOUT_NSCOPES)
		return layout_fail(p, p->tok[2].at, "a scope (thread, core, socket or channel), not "
				   "'%s'", p->tok[2].text);
	if (p->group >= 0 && l->groups[p->group].pmu != LAYOUT_PMU_CORE
	    ? s != LAYOUT_SOCKET && s != LAYOUT_CHANNEL : s == LAYOUT_CHANNEL)
		return layout_fail(p, p->tok[2].at, "%s: uncore counts belong to sockets and "
				   "channels, core counts to threads, cores and sockets",
				   p->group >= 0 && l->groups[p->group].pmu != LAYOUT_PMU_CORE
				   ? "scope socket or channel in an uncore group"
				   : "scope thread, core or socket outside an uncore group");
	m.scope = (enum layout_scope)s;
	p->scope = m.scope;
	f = p->tok[4].at + 1;
	flen = (size_t)(eol - f);
	if (memchr(f, '#', flen))
		flen = (size_t)((const char *)memchr(f, '#', flen) - f);
	m.formula = xmalloc(flen + 1);
	memcpy(m.formula, f, flen);
	m.formula[flen] = 0;
	while (flen && isspace((unsigned char)m.formula[flen - 1]))
		m.formula[--flen] = 0;
	{
		size_t lead = strspn(m.formula, " \t");

		memmove(m.formula, m.formula + lead, flen - lead + 1);
		f += lead;
	}
	if (expr_parse(m.formula, layout_lookup, p, &m.expr, &col, why, sizeof(why))) {
		free(m.formula);
		return layout_fail(p, f + col, "%s", p->why ? p->why : why);
	}
	if (m.group < 0) {
		const int *vars;
		int nv;

		expr_vars(m.expr, &vars, &nv);
		for (int i = 0; i < nv; i++)
			if (vars[i] >= LAYOUT_NBUILTINS) {
				expr_free(m.expr);
				free(m.formula);
				return layout_fail(p, f, "a formula of built-ins only: a metric outside "
						   "a group is always live");
			}
	}
	m.name = xstrdup(p->tok[1].text);
	m.unit = xstrdup(p->tok[3].text);
	l->metrics = xrealloc(l->metrics, (size_t)l->nmetrics + 1, sizeof(*l->metrics));
	l->metrics[l->nmetrics] = m;
	p->last_metric = l->nmetrics++;
	return 0;
}

/* ---- groups and panes -------------------------------------------------- */

static int layout_group_open(struct layout_parser *p)
{
	struct layout *l = p->l;
	int rc = layout_want_args(p, 1, 1, "a group name");

	if (rc)
		return rc;
	if (!layout_is_name(p->tok[1].text))
		return layout_fail(p, p->tok[1].at, "a group name (letters, digits, '_')");
	if (layout_group_find(l, p->tok[1].text) >= 0)
		return layout_fail(p, p->tok[1].at, "a new group name: '%s' is already a group",
				   p->tok[1].text);
	if (l->ngroups >= LAYOUT_MAX_GROUPS)
		return layout_fail(p, p->tok[0].at, "at most %d groups in a layout",
				   LAYOUT_MAX_GROUPS);
	l->groups = xrealloc(l->groups, (size_t)l->ngroups + 1, sizeof(*l->groups));
	l->groups[l->ngroups] = (struct layout_group){
		.name = xstrdup(p->tok[1].text), .default_on = true,
		.first_event = l->nevents, .line = p->line,
	};
	p->group = l->ngroups++;
	p->last_metric = -1;
	return 0;
}

/* "thresholds warn N crit N" after a metric: the colours its figures take on screen. */
static int layout_thresholds(struct layout_parser *p)
{
	struct layout_metric *mt;
	int rc;

	if (p->last_metric < 0)
		return layout_fail(p, p->tok[0].at, "a metric line before 'thresholds'");
	mt = &p->l->metrics[p->last_metric];
	if ((rc = layout_want_args(p, 2, 4, "warn N and/or crit N")))
		return rc;
	for (int i = 1; i < p->ntok; i += 2) {
		double *dst = !strcmp(p->tok[i].text, "warn") ? &mt->warn
			      : !strcmp(p->tok[i].text, "crit") ? &mt->crit : NULL;

		if (!dst)
			return layout_fail(p, p->tok[i].at, "warn N or crit N, not '%s'",
					   p->tok[i].text);
		if (i + 1 >= p->ntok)
			return layout_fail(p, p->tok[i].at + strlen(p->tok[i].text),
					   "a number after '%s'", p->tok[i].text);
		if (layout_double(p, &p->tok[i + 1], dst))
			return -EINVAL;
	}
	if (!isnan(mt->warn) && !isnan(mt->crit) && mt->warn > mt->crit)
		return layout_fail(p, p->tok[1].at, "warn at most crit (%g > %g)", mt->warn, mt->crit);
	return 0;
}

static int layout_group_line(struct layout_parser *p, const char *eol)
{
	struct layout *l = p->l;
	struct layout_group *g = &l->groups[p->group];
	const char *kw = p->tok[0].text;
	int rc;

	if (!strcmp(kw, "event"))
		return layout_event(p);
	if (!strcmp(kw, "metric"))
		return layout_metric(p, eol);
	if (!strcmp(kw, "title"))
		return layout_set_string(p, &g->title, "a title");
	if (!strcmp(kw, "thresholds"))
		return layout_thresholds(p);
	if (!strcmp(kw, "help"))
		return p->last_metric >= 0
		       ? layout_set_string(p, &l->metrics[p->last_metric].help, "a help text")
		       : layout_set_string(p, &g->help, "a help text");
	if (!strcmp(kw, "pmu")) {
		int k;

		if ((rc = layout_want_args(p, 1, 1, "a PMU")))
			return rc;
		for (k = 0; k < LAYOUT_NPMUS; k++)
			if (!strcmp(p->tok[1].text, layout_pmu_names[k]))
				break;
		if (k == LAYOUT_NPMUS)
			return layout_fail(p, p->tok[1].at, "a PMU (core, uncore, cbo, arb or imc), "
					   "not '%s'", p->tok[1].text);
		if (g->nevents || p->last_metric >= 0)
			return layout_fail(p, p->tok[0].at, "'pmu' before the group's first event "
					   "and metric");
		g->pmu = (enum layout_pmu)k;
		return 0;
	}
	if (!strcmp(kw, "key")) {
		const char *k = p->tok[1].text;

		if ((rc = layout_want_args(p, 1, 1, "a key")))
			return rc;
		if (strlen(k) != 1 || !((k[0] >= '1' && k[0] <= '9') || islower((unsigned char)k[0])) ||
		    strchr(LAYOUT_RESERVED_KEYS, k[0]))
			return layout_fail(p, p->tok[1].at, "a key from 1 to 9 or a lowercase letter "
					   "other than %s (the screen's own keys), not '%s'",
					   LAYOUT_RESERVED_KEYS, k);
		for (int i = 0; i < l->ngroups; i++)
			if (l->groups[i].key == k[0])
				return layout_fail(p, p->tok[1].at, "a free key: %c already toggles "
						   "group '%s'", k[0], l->groups[i].name);
		g->key = k[0];
		return 0;
	}
	if (!strcmp(kw, "default")) {
		if ((rc = layout_want_args(p, 1, 1, "on or off")))
			return rc;
		if (strcmp(p->tok[1].text, "on") && strcmp(p->tok[1].text, "off"))
			return layout_fail(p, p->tok[1].at, "on or off, not '%s'", p->tok[1].text);
		g->default_on = !strcmp(p->tok[1].text, "on");
		return 0;
	}
	if (!strcmp(kw, "end")) {
		if ((rc = layout_want_args(p, 0, 0, "'end'")))
			return rc;
		if (!g->nevents)
			return layout_fail(p, p->tok[0].at, "at least one event in group '%s' before "
					   "'end'", g->name);
		p->group = -1;
		p->last_metric = -1;
		return 0;
	}
	return layout_fail(p, p->tok[0].at, "event, metric, help, thresholds, title, key, default, "
			   "pmu or end inside group '%s', not '%s'", g->name, kw);
}

static int layout_top_line(struct layout_parser *p, const char *eol)
{
	struct layout *l = p->l;
	const char *kw = p->tok[0].text;
	int rc;

	if (!strcmp(kw, "layout")) {
		if ((rc = layout_set_string(p, &l->name, "the layout's name")))
			return rc;
		return layout_is_name(l->name) ? 0 : layout_fail(p, p->tok[1].at, "a layout name "
								 "(letters, digits, '_')");
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
	if (!strcmp(kw, "metric"))
		return layout_metric(p, eol);
	if (!strcmp(kw, "help")) {
		if (p->last_metric < 0)
			return layout_fail(p, p->tok[0].at, "a metric line before 'help'");
		return layout_set_string(p, &l->metrics[p->last_metric].help, "a help text");
	}
	if (!strcmp(kw, "thresholds"))
		return layout_thresholds(p);
	if (!strcmp(kw, "group"))
		return layout_group_open(p);
	if (!strcmp(kw, "end"))
		return layout_fail(p, p->tok[0].at, "a 'group' before 'end'");
	return layout_fail(p, p->tok[0].at, "layout, description, libpfm, libpfm_uncore, models, "
			   "metric, help, thresholds or group, not '%s'", kw);
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

int layout_parse(const char *text, const char *file, struct layout **out, char *err, size_t errlen)
{
	struct layout_parser p = {
		.file = file, .err = err, .errlen = errlen, .group = -1,
		.last_metric = -1,
	};
	const char *s = text;
	bool seen_version = false;
	int rc = 0;

	p.l = xcalloc(1, sizeof(*p.l));
	p.l->file = xstrdup(file);
	*out = NULL;
	while (*s && !rc) {
		const char *eol = strchr(s, '\n');

		if (!eol)
			eol = s + strlen(s);
		p.line++;
		p.bol = s;
		rc = layout_tokenize(&p, s, eol);
		if (!rc && p.ntok) {
			if (!seen_version) {
				if (strncmp(s, LAYOUT_VERSION_LINE, strlen(LAYOUT_VERSION_LINE)) ||
				    p.ntok != 2)
					rc = layout_fail(&p, p.tok[0].at, "'%s' as the first line",
							 LAYOUT_VERSION_LINE);
				seen_version = true;
			} else if (p.group >= 0) {
				rc = layout_group_line(&p, eol);
			} else {
				rc = layout_top_line(&p, eol);
			}
		}
		s = *eol ? eol + 1 : eol;
	}
	layout_free_tokens(&p);
	if (!rc) {
		/* end-of-file errors point just past the last line */
		if (!*text || s[-1] == '\n')
			p.line++;
		p.bol = s;
		if (!seen_version)
			rc = layout_fail(&p, s, "'%s' as the first line", LAYOUT_VERSION_LINE);
		else if (p.group >= 0)
			rc = layout_fail(&p, s, "'end' to close group '%s' before the end of the file",
					 p.l->groups[p.group].name);
		else if (!p.l->name)
			rc = layout_fail(&p, s, "a 'layout NAME' line");
		else if (!p.l->nmodels && !p.l->fallback)
			rc = layout_fail(&p, s, "a 'models' line");
		else if (!layout_has_thread_metric(p.l))
			rc = layout_fail(&p, s, "at least one 'metric NAME thread ...' line: the "
					 "screen colours each hardware thread by one");
	}
	if (rc) {
		layout_free(p.l);
		return rc;
	}
	for (int i = 0; i < p.l->nmetrics; i++)
		expr_remap(p.l->metrics[i].expr, layout_fixup, p.l);
	*out = p.l;
	return 0;
}

int layout_load(const char *path, struct layout **out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	char *text;
	long n;
	int rc;

	*out = NULL;
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot open layout %s: %s", path, strerror(-rc));
		return rc;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > LAYOUT_MAX_BYTES) {
		fclose(f);
		snprintf(err, errlen, "cannot read layout %s: a regular file of at most %d bytes is "
			 "expected", path, LAYOUT_MAX_BYTES);
		return -EINVAL;
	}
	n = (long)st.st_size;
	text = xmalloc((size_t)n + 1);
	if (fread(text, 1, (size_t)n, f) != (size_t)n) {
		free(text);
		fclose(f);
		snprintf(err, errlen, "cannot read layout %s", path);
		return -EIO;
	}
	fclose(f);
	text[n] = 0;
	if (strlen(text) != (size_t)n) {
		free(text);
		snprintf(err, errlen, "%s: a text file is expected (it contains a NUL byte)", path);
		return -EINVAL;
	}
	rc = layout_parse(text, path, out, err, errlen);
	free(text);
	return rc;
}

bool layout_covers(const struct layout *l, unsigned family, unsigned model)
{
	for (int i = 0; i < l->nmodels; i++)
		if (l->models[i][0] == family && l->models[i][1] == model)
			return true;
	return false;
}

static int layout_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int layout_find(const char *dir, unsigned family, unsigned model, struct layout **out, char *err,
		size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL, path[4096];
	struct layout *fallback = NULL;
	int n = 0, rc = 0;

	*out = NULL;
	if (!d) {
		rc = -errno;
		snprintf(err, errlen, "cannot open the layout directory %s: %s (set PMUTOP_LAYOUT_DIR "
			 "or reinstall)", dir, strerror(-rc));
		return rc;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > strlen(LAYOUT_SUFFIX) &&
		    !strcmp(de->d_name + len - strlen(LAYOUT_SUFFIX), LAYOUT_SUFFIX)) {
			names = xrealloc(names, (size_t)n + 1, sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), layout_name_cmp);
	for (int i = 0; i < n && !rc && !*out; i++) {
		struct layout *l;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc = layout_load(path, &l, err, errlen);
		if (rc)
			break;
		if (layout_covers(l, family, model))
			*out = l;
		else if (l->fallback && !fallback)
			fallback = l;
		else
			layout_free(l);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc) {
		layout_free(fallback);
		return rc;
	}
	if (*out) {
		layout_free(fallback);
		return 0;
	}
	if (fallback) {
		*out = fallback;
		return 0;
	}
	snprintf(err, errlen, "no layout in %s covers CPU family %u model 0x%02X and none is a "
		 "fallback ('models any')", dir, family, model);
	return -ENOENT;
}

void layout_free(struct layout *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nevents; i++) {
		free(l->events[i].name);
		free(l->events[i].spec);
		free(l->events[i].canonical);
	}
	for (int i = 0; i < l->nmetrics; i++) {
		free(l->metrics[i].name);
		free(l->metrics[i].unit);
		free(l->metrics[i].help);
		free(l->metrics[i].formula);
		expr_free(l->metrics[i].expr);
	}
	for (int i = 0; i < l->ngroups; i++) {
		free(l->groups[i].name);
		free(l->groups[i].title);
		free(l->groups[i].help);
	}
	free(l->events);
	free(l->metrics);
	free(l->groups);
	free(l->models);
	free(l->file);
	free(l->name);
	free(l->description);
	free(l->libpfm_pmu);
	free(l->libpfm_uncore);
	free(l);
}

int layout_nvars(const struct layout *l)
{
	return LAYOUT_NBUILTINS + l->nevents + l->nmetrics;
}

int layout_event_var(const struct layout *l, int e)
{
	return l->events[e].var;
}

bool layout_scope_computed(enum layout_scope m, enum layout_scope at)
{
	if (m == LAYOUT_CHANNEL)
		return at == LAYOUT_CHANNEL || at == LAYOUT_SOCKET;
	return at != LAYOUT_CHANNEL && m <= at;
}

bool layout_assign_counters(const struct layout *l, const int *ev, int n, uint32_t usable, int *ctr)
{
	int best = -1, bestn = PMU_MAX_GP + 1;

	if (n == 0)
		return true;
	/* the most constrained event first keeps the search tiny */
	for (int i = 0; i < n; i++) {
		int c = __builtin_popcount(l->events[ev[i]].counters & usable);

		if (ctr[i] < 0 && c < bestn) {
			best = i;
			bestn = c;
		}
	}
	if (best < 0)
		return true;
	for (int k = 0; k < PMU_MAX_GP; k++) {
		if (!(l->events[ev[best]].counters & usable & (1u << k)))
			continue;
		ctr[best] = k;
		if (layout_assign_counters(l, ev, n, usable & ~(1u << k), ctr))
			return true;
		ctr[best] = -1;
	}
	return false;
}

bool layout_has_uncore(const struct layout *l)
{
	for (int g = 0; g < l->ngroups; g++)
		if (l->groups[g].pmu != LAYOUT_PMU_CORE)
			return true;
	return false;
}

int layout_metric_var(const struct layout *l, int m)
{
	return LAYOUT_NBUILTINS + l->nevents + m;
}

int layout_group_find(const struct layout *l, const char *name)
{
	for (int i = 0; i < l->ngroups; i++)
		if (!strcmp(l->groups[i].name, name))
			return i;
	return -1;
}

int layout_metric_find(const struct layout *l, const char *name)
{
	for (int i = 0; i < l->nmetrics; i++)
		if (!strcmp(l->metrics[i].name, name))
			return i;
	return -1;
}
