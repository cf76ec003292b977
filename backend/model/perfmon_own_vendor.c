/*
 * perfmon_own_vendor: pmutop's own groups over the vendor's uncore events,
 * which stand in files (layouts/own, "event NAME vendor"), as a layout made
 * from the vendor's data takes them in.  Each such event gets the data's
 * encoding, the part's facts (layout_part_facts: chas, links) become the
 * machine's numbers, and a group of the UPI links (pmu upi) is resolved
 * per link as the vendor's own UPI metrics are (perfmon_uncore.c): its
 * events on each link's box (NAME.linkN, box=N), each metric for each link
 * alone (METRIC_linkN, its help after "UPI link N alone: "), then for the
 * socket (each event the sum over its links).  A group whose events the
 * data lacks is left out.  Pure functions of their inputs; main thread.
 */
#include "perfmon_own.h"
#include "perfmon_layout.h"
#include "perfmon_uncore.h"
#include "perfmon_fields.h"
#include "layout.h"
#include "layout_build.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OV_EVENTS_MAX 16   /* vendor events of one own group */
#define OV_METRICS_MAX 32
#define OV_NAME_MAX 160

struct ov_group {
	const struct perfmon_layout_config *c;
	struct perfmon_event ev[OV_EVENTS_MAX];
	char event[OV_EVENTS_MAX][OV_NAME_MAX]; /* its events' names, as the file writes them */
	int nev;
	char metric[OV_METRICS_MAX][OV_NAME_MAX];
	int nmet;
	bool links;        /* a group of the UPI links: resolved per link */
	bool failed;       /* a metric line without its formula */
};

/*
 * Uncore event E, named NAME (+ ".linkN" and box=N where BOX >= 0: a UPI
 * link's, else a CHA's), with the data's encoding.
 */
static void ov_event_line(struct layout_build *b, const char *name, const struct perfmon_event *e,
			  int box)
{
	char full[OV_NAME_MAX + 16];
	struct layout_build_event ev = { .name = full, .has_box = box >= 0, .box = box };

	if (box >= 0)
		snprintf(full, sizeof(full), "%s.link%d", name, box);
	else
		snprintf(full, sizeof(full), "%s", name);
	perfmon_uncore_fields(&ev, e, box >= 0 ? LAYOUT_PMU_UPI : LAYOUT_PMU_CHA,
			      perfmon_uncore_umask(e));
	layout_build_event(b, &ev);
}

/* The lines [S, END) of an own file as they stand, into B. */
static void ov_lines(struct layout_build *b, const char *s, const char *end)
{
	char *text = xmalloc((size_t)(end - s) + 1);

	memcpy(text, s, (size_t)(end - s));
	text[end - s] = 0;
	layout_build_text(b, text);
	free(text);
}

/* Word N (0 the first) of the line at S into BUF ("" when it has fewer). */
static void ov_word(const char *s, int n, char *buf, size_t len)
{
	size_t k;

	for (int i = 0;; i++) {
		s += strspn(s, " \t");
		k = strcspn(s, " \t\r\n#");
		if (!k || i == n)
			break;
		s += k;
	}
	snprintf(buf, len, "%.*s", (int)k, s);
}

/* The index of NAME (LEN bytes) in the N names of LIST, or -1. */
static int ov_find(char (*list)[OV_NAME_MAX], int n, const char *name, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(list[i], name, len))
			return i;
	return -1;
}

/* The part's fact NAME (LEN bytes) is (enum layout_part_fact), or -1. */
static int ov_fact(const char *name, size_t len)
{
	for (int i = 0; i < LAYOUT_NFACTS; i++)
		if (strlen(layout_part_facts[i]) == len && !strncmp(layout_part_facts[i], name, len))
			return i;
	return -1;
}

/*
 * FORMULA (up to its line's end) into F for link LINK (-1: the socket's, or
 * the group's as written where it is no links' group): each event of the
 * group as that link's or the sum of the links', each metric as that link's,
 * each fact as its number.
 */
static void ov_formula(struct ov_group *g, const char *s, int link, FILE *f)
{
	while (*s && *s != '\n' && *s != '\r') {
		size_t len = 0;

		if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
			/* a number, its exponent too ("1e-9": no name in it) */
			len = strspn(s, "0123456789.");
			if ((s[len] == 'e' || s[len] == 'E') &&
			    (isdigit((unsigned char)s[len + 1]) ||
			     ((s[len + 1] == '-' || s[len + 1] == '+') && isdigit((unsigned char)s[len + 2]))))
				len += 2 + strspn(s + len + 2, "0123456789");
			fprintf(f, "%.*s", (int)len, s);
		} else if (isalpha((unsigned char)*s) || *s == '_') {
			int e, m, fact;

			while (isalnum((unsigned char)s[len]) || s[len] == '_' || s[len] == '.')
				len++;
			e = ov_find(g->event, g->nev, s, len);
			m = ov_find(g->metric, g->nmet, s, len);
			if (e >= 0 && g->links && link >= 0) {
				fprintf(f, "%.*s.link%d", (int)len, s, link);
			} else if (e >= 0 && g->links) {
				fputc('(', f);
				for (int l = 0; l < g->c->upi_links; l++)
					fprintf(f, "%s%.*s.link%d", l ? " + " : "", (int)len, s, l);
				fputc(')', f);
			} else if (m >= 0 && g->links && link >= 0) {
				fprintf(f, "%.*s_link%d", (int)len, s, link);
			} else if ((fact = ov_fact(s, len)) >= 0) {
				/* a link's own metric is over that link alone */
				fprintf(f, "%d", fact == LAYOUT_FACT_CHAS ? g->c->chas
					: g->links && link >= 0 ? 1 : g->c->upi_links);
			} else {
				fprintf(f, "%.*s", (int)len, s);
			}
		} else {
			len = 1;
			fputc(*s, f);
		}
		s += len;
	}
	fputc('\n', f);
}

/* The events, each link's in turn in a links' group, as the data encodes them. */
static void ov_events(const struct ov_group *g, struct layout_build *b)
{
	for (int l = 0; l < (g->links ? g->c->upi_links : 1); l++)
		for (int k = 0; k < g->nev; k++)
			ov_event_line(b, g->event[k], &g->ev[k], g->links ? l : -1);
}

/*
 * The metric block [S, END) (its metric line, then its help and thresholds)
 * for LINK into F: the file's lines with the link's names and the machine's
 * numbers in place (the lines an own file writes, instantiated).
 */
static void ov_metric_text(struct ov_group *g, const char *s, const char *end, int link, FILE *f)
{
	for (bool first = true; s < end; first = false) {
		size_t len = strcspn(s, "\n");
		const char *w = s + strspn(s, " \t");

		if (first) {
			/* "metric NAME SCOPE UNIT = FORMULA": the name and the formula as LINK's */
			const char *name = w + 6 + strspn(w + 6, " \t"), *eq = strchr(name, '=');
			size_t n = strcspn(name, " \t");

			if (!eq || eq > s + len) {
				g->failed = true;
				return;
			}
			fprintf(f, "%.*s%.*s", (int)(name - s), s, (int)n, name);
			if (link >= 0)
				fprintf(f, "_link%d", link);
			fprintf(f, "%.*s", (int)(eq + 1 - (name + n)), name + n);
			ov_formula(g, eq + 1, link, f);
		} else if (link >= 0 && !strncmp(w, "help", 4) && strchr(w, '"') &&
			   strchr(w, '"') < s + len) {
			const char *q = strchr(w, '"');

			fprintf(f, "%.*sUPI link %d alone: %.*s\n", (int)(q + 1 - s), s, link,
				(int)(s + len - (q + 1)), q + 1);
		} else {
			fprintf(f, "%.*s\n", (int)len, s);
		}
		s += len + (s[len] ? 1 : 0);
	}
}

/* The metric block [S, END) for LINK into B. */
static void ov_metric(struct ov_group *g, const char *s, const char *end, int link,
		      struct layout_build *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		xmalloc_die(len);
	ov_metric_text(g, s, end, link, f);
	fclose(f);
	if (!g->failed)
		layout_build_text(b, text);
	free(text);
}

/* The line after the one at S (its end where it is the last). */
static const char *ov_next(const char *s)
{
	s += strcspn(s, "\n");
	return *s ? s + 1 : s;
}

/* Whether the line at S starts with WORD. */
static bool ov_is(const char *s, const char *word)
{
	char w[32];

	ov_word(s, 0, w, sizeof(w));
	return !strcmp(w, word);
}

/* Whether the metric line at S has its formula ("metric NAME SCOPE UNIT = FORMULA"). */
static bool ov_has_formula(const char *s)
{
	size_t len = strcspn(s, "\n");
	const char *eq = memchr(s, '=', len);

	return eq != NULL;
}

/*
 * The own group of [S, END) ("group" line to its "end" line) into B, or its
 * events and metrics alone where BODY (MAXEV events at most): false (nothing
 * made) when the data lacks one of its vendor events or the machine the
 * boxes it counts on.
 */
static bool ov_group(const struct perfmon *p, const struct perfmon_layout_config *c, const char *s,
		     const char *end, bool body, int maxev, struct layout_build *b)
{
	struct ov_group *g = calloc(1, sizeof(*g));
	char w[OV_NAME_MAX], spec[OV_NAME_MAX];
	bool ok = true, events = false;

	if (!g)
		return false;
	g->c = c;
	for (const char *q = s; ok && q < end; q = ov_next(q)) {
		ov_word(q, 1, w, sizeof(w));
		ov_word(q, 2, spec, sizeof(spec));
		if (ov_is(q, "pmu")) {
			/* the boxes it counts on: the machine's UPI links, its CHAs */
			g->links = !strcmp(w, "upi");
			ok = !g->links || c->upi_links > 0;
			ok &= strcmp(w, "cha") || c->chas > 0;
		} else if (ov_is(q, "event")) {
			ok = g->nev < OV_EVENTS_MAX && !strcmp(spec, "vendor") &&
			     snprintf(g->event[g->nev], OV_NAME_MAX, "%s", w) < OV_NAME_MAX;
			if (ok && !perfmon_event_find(p, w, &g->ev[g->nev])) {
				/* said in the layout, as the vendor's metrics left out are */
				ov_word(s, 1, spec, sizeof(spec));
				layout_build_blank(b);
				layout_build_comment(b, "not counted: pmutop's group %s: %s's data has "
						     "no event %s", spec, p->platform, w);
				ok = false;
			}
			g->nev++;
		} else if (ov_is(q, "metric")) {
			ok = ov_has_formula(q); /* a metric line without its formula: not taken */
			if (g->nmet < OV_METRICS_MAX)
				snprintf(g->metric[g->nmet++], OV_NAME_MAX, "%s", w);
		}
	}
	if (!ok || !g->nev || g->nev > maxev) {
		free(g);
		return false;
	}
	if (!body)
		layout_build_blank(b);
	for (const char *q = s; q < end;) {
		const char *next = ov_next(q);

		if (body && ((!events && !ov_is(q, "event")) || ov_is(q, "end"))) {
			q = next; /* the group's own lines: the vendor's group has them */
			continue;
		}
		if (ov_is(q, "event")) {
			if (!events)
				ov_events(g, b);
			events = true;
		} else if (ov_is(q, "metric")) {
			/* its block: to the next metric, event or end */
			while (next < end && !ov_is(next, "metric") && !ov_is(next, "event") &&
			       !ov_is(next, "end"))
				next = ov_next(next);
			for (int l = 0; g->links && l < c->upi_links; l++)
				ov_metric(g, q, next, l, b);
			ov_metric(g, q, next, -1, b);
		} else {
			ov_lines(b, q, next);
		}
		q = next;
	}
	free(g);
	return true;
}

/*
 * The vendor's groups that an own group of the same name adds its events
 * and metrics to (perfmon_own_vendor_into), rather than standing beside
 * them: the UPI links' (Intel's UPI bandwidth, perfmon_uncore.c)
 */
static const char *const ov_into[] = { "UPI" };

/*
 * Each group of own file K in C, in its order, to EACH(CTX, NAME, S, END):
 * the group's name and its text from its "group" line to after its "end".
 */
static void ov_each(const struct perfmon_layout_config *c, enum perfmon_own_file k,
		    bool (*each)(void *ctx, const char *name, const char *s, const char *end),
		    void *ctx)
{
	const char *s = c->own ? c->own->text[k] : NULL;
	char name[OV_NAME_MAX];

	while (s && *s) {
		const char *end = s;

		if (!ov_is(s, "group")) {
			s = ov_next(s);
			continue;
		}
		while (*end && !ov_is(end, "end"))
			end = ov_next(end);
		if (!*end)
			return;
		end = ov_next(end);
		ov_word(s, 1, name, sizeof(name));
		if (!each(ctx, name, s, end))
			return;
		s = end;
	}
}

struct ov_walk {
	const struct perfmon *p;
	const struct perfmon_layout_config *c;
	struct layout_build *b;
	int room, n;           /* groups left, made */
	const char *into;      /* the vendor's group added to, or NULL */
	int maxev;
};

static bool ov_standing(void *ctx, const char *name, const char *s, const char *end)
{
	struct ov_walk *w = ctx;

	for (size_t i = 0; i < sizeof(ov_into) / sizeof(ov_into[0]); i++)
		if (!strcmp(name, ov_into[i]))
			return true;
	if (w->n >= w->room)
		return false;
	w->n += ov_group(w->p, w->c, s, end, false, OV_EVENTS_MAX, w->b) ? 1 : 0;
	return true;
}

static bool ov_adding(void *ctx, const char *name, const char *s, const char *end)
{
	struct ov_walk *w = ctx;

	if (strcmp(name, w->into))
		return true;
	w->n += ov_group(w->p, w->c, s, end, true, w->maxev, w->b) ? 1 : 0;
	return false;
}

int perfmon_own_vendor(const struct perfmon *p, const struct perfmon_layout_config *c,
		       enum perfmon_own_file k, struct layout_build *b, int room)
{
	struct ov_walk w = { .p = p, .c = c, .b = b, .room = room };

	ov_each(c, k, ov_standing, &w);
	return w.n;
}

bool perfmon_own_vendor_into(const struct perfmon *p, const struct perfmon_layout_config *c,
			     enum perfmon_own_file k, const char *group, int counters,
			     struct layout_build *b)
{
	struct ov_walk w = { .p = p, .c = c, .b = b, .into = group, .maxev = counters };

	ov_each(c, k, ov_adding, &w);
	return w.n > 0;
}

int perfmon_own_vendor_check(const char *text, const char *path, char *err, size_t errlen)
{
	char w[OV_NAME_MAX];
	int line = 1;

	for (const char *q = text; q && *q; q = ov_next(q), line++) {
		if (!ov_is(q, "event"))
			continue;
		ov_word(q, 2, w, sizeof(w));
		if (strcmp(w, "vendor")) {
			snprintf(err, errlen, "%s:%d: expected 'event NAME vendor': this file's groups "
				 "count the vendor's events, with the encodings of its data", path, line);
			return -EINVAL;
		}
	}
	return 0;
}
