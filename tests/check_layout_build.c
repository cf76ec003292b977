/*
 * Tests for the layout builder (layout_build.h): the layouts made from the
 * vendors' data are made by calls, not parsed from text, and the text they
 * carry (what a recording keeps, what replay and --plan layout read) is the
 * same layout: every shipped Intel platform and AMD generation, on a server,
 * a client and a hybrid, compared field by field with the parse of its own
 * text.  A line the language refuses fails where it is made, with the
 * parser's message at the line and column its text has.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "layout.h"
#include "layout_build.h"
#include "perfmon.h"
#include "perfmon_layout.h"

/* Every field of L that counting or a screen reads, one per line, into a malloc'd text. */
static char *dump(const struct layout *l)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	fprintf(f, "layout %s|%s|%s|%s|v%d|fb%d|nooff%d|off%X,%X|td%X|models%d\n", l->name,
		l->description ? l->description : "-", l->libpfm_pmu ? l->libpfm_pmu : "-",
		l->libpfm_uncore ? l->libpfm_uncore : "-", (int)l->vendor, l->fallback,
		l->no_offcore, l->offcore_event[0], l->offcore_event[1], l->topdown_fields,
		l->nmodels);
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *gr = &l->groups[g];

		fprintf(f, "group %s|%s|%s|key%c|pmu%d|ct%d|on%d|ev%d+%d|line%d|reads%llx:%llx\n",
			gr->name, gr->title ? gr->title : "-", gr->help ? gr->help : "-",
			gr->key ? gr->key : '-', (int)gr->pmu, (int)gr->coretype, gr->default_on,
			gr->first_event, gr->nevents, gr->line,
			(unsigned long long)((uint64_t)(gr->reads >> 64)),
			(unsigned long long)(uint64_t)gr->reads);
	}
	for (int e = 0; e < l->nevents; e++) {
		const struct layout_event *ev = &l->events[e];

		fprintf(f, "event %s|%s|line%d|g%d|%X|%llX|c%u|i%d|e%d|a%d|eq%d|r%d|pc%d|s%d|"
			"off%d:%llX:%X|fe%d:%X|f1%d:%X|ctr%X|pmu%d|ch%d|box%d|mmio%X|var%d\n",
			ev->name, ev->spec, ev->line, ev->group, ev->event,
			(unsigned long long)ev->umask, ev->cmask, ev->inv, ev->edge, ev->any, ev->eq,
			(int)ev->ring, ev->per_core, ev->summed, ev->has_offcore,
			(unsigned long long)ev->offcore, ev->offcore_msr, ev->has_frontend,
			ev->frontend, ev->has_filter1, ev->filter1, ev->counters, (int)ev->pmu,
			ev->channel, ev->box, ev->mmio, ev->var);
	}
	for (int m = 0; m < l->nmetrics; m++) {
		const struct layout_metric *mt = &l->metrics[m];

		fprintf(f, "metric %s|%s|%s|%s|sc%d|g%d|line%d|w%g|c%g|na %s|p%d|lv%d|th %s|own%d|"
			"thline%d|parent %s|tline%d|pos%d|uses%llx:%llx\n", mt->name, mt->unit,
			mt->help ? mt->help : "-", mt->formula, (int)mt->scope, mt->group, mt->line,
			mt->warn, mt->crit, mt->na ? mt->na : "-", mt->parent, mt->level,
			mt->threshold_text ? mt->threshold_text : "-", mt->threshold_own,
			mt->threshold_line, mt->parent_name ? mt->parent_name : "-", mt->tree_line,
			mt->tree_pos, (unsigned long long)((uint64_t)(mt->uses >> 64)),
			(unsigned long long)(uint64_t)mt->uses);
	}
	fprintf(f, "text\n%s", l->text);
	fclose(f);
	return out;
}

/* A and B's dumps are the same; else the first line that differs. */
static void same_layout(const struct layout *a, const struct layout *b, const char *what)
{
	char *da = dump(a), *db = dump(b);
	const char *x = da, *y = db;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	if (*x || *y) {
		while (x > da && x[-1] != '\n')
			x--;
		while (y > db && y[-1] != '\n')
			y--;
		ck_abort_msg("%s: the made layout and its text differ:\nmade: %.300s\ntext: %.300s",
			     what, x, y);
	}
	free(da);
	free(db);
}

/* Make P's layout on C, parse its text, and compare: how many groups it has. */
static int made_is_text(const struct perfmon *p, const struct perfmon_layout_config *c,
			const char *what)
{
	char err[2048], *text = NULL;
	struct layout *made = NULL, *parsed = NULL;
	int n;

	ck_assert_msg(perfmon_layout(p, c, "made", &made, &text, err, sizeof(err)) == 0, "%s: %s",
		      what, err);
	ck_assert_ptr_nonnull(made);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(layout_parse(text, "made", &parsed, err, sizeof(err)) == 0, "%s: %s", what,
		      err);
	same_layout(made, parsed, what);
	/* the text kept with the layout (a recording's) is the made text without its comments */
	ck_assert_msg(strstr(text, "# Made by pmutop from ") && !strstr(made->text, "\n#"), "%s",
		      what);
	n = made->ngroups;
	layout_free(made);
	layout_free(parsed);
	free(text);
	return n;
}

static const struct perfmon_layout_config server = {
	.gp_counters = 8, .ht_on = true, .threads_per_core = 2, .sockets = 2,
	.cores_per_socket = 56, .cpus = 224, .slots = true, .chas = 56, .channels = 8,
	.upi_links = 4, .l3s = 12, .rapl = 2 | 4,
};

static const struct perfmon_layout_config client = {
	.gp_counters = 4, .ht_on = false, .threads_per_core = 1, .sockets = 1,
	.cores_per_socket = 8, .cpus = 8, .imc_free = 1,
};

/* The platform files of DIR (one per file, the mapfile's and the licence's apart). */
static const char *next_json(DIR *d)
{
	struct dirent *de;

	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".json"))
			return de->d_name;
	}
	return NULL;
}

START_TEST(every_made_layout_is_the_layout_of_its_text)
{
	static const char *const dirs[] = { PERFMON_SRCDIR, AMD_SRCDIR };
	int layouts = 0, groups = 0;

	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		DIR *d = opendir(dirs[k]);
		const char *name;

		ck_assert_ptr_nonnull(d);
		while ((name = next_json(d))) {
			char path[4096], err[1024], what[4200];
			struct perfmon *p;

			snprintf(path, sizeof(path), "%s/%s", dirs[k], name);
			ck_assert_msg(perfmon_load(path, &p, err, sizeof(err)) == 0, "%s", err);
			if (!p->nmetrics) {
				perfmon_free(p);
				continue; /* events alone: pmutop counts the architectural layout there */
			}
			struct perfmon_layout_config c = server;

			c.layout_dir = LAYOUT_SRCDIR;
			snprintf(what, sizeof(what), "%s on a server", name);
			groups += made_is_text(p, &c, what);
			c = client;
			c.layout_dir = LAYOUT_SRCDIR;
			snprintf(what, sizeof(what), "%s on a client", name);
			groups += made_is_text(p, &c, what);
			layouts += 2;
			perfmon_free(p);
		}
		closedir(d);
	}
	/* Intel's 21 platforms with metrics and AMD's 4 generations, twice */
	ck_assert_int_ge(layouts, 2 * 25);
	printf("# %d layouts made and compared with their texts, %d groups\n", layouts, groups);
}
END_TEST

/* A hybrid: the P-cores' and the E-cores' groups, bound to their kind. */
START_TEST(a_hybrid_layout_is_the_layout_of_its_text)
{
	char err[1024];
	struct perfmon *p, *atom;
	struct perfmon_layout_config c = client;

	ck_assert_msg(perfmon_load_platform(PERFMON_SRCDIR "/adl.json", ATOM_SRCDIR, &p, err,
					    sizeof(err)) == 0, "%s", err);
	ck_assert_msg(perfmon_load_cores(PERFMON_SRCDIR "/adl.json", "0x20", ATOM_SRCDIR "/adl.json",
					 &atom, err, sizeof(err)) == 0, "%s", err);
	c.layout_dir = LAYOUT_SRCDIR;
	c.atom = atom;
	c.e_cores = true;
	c.atom_gp_counters = 6;
	c.gp_counters = 8;
	c.slots = true;
	ck_assert_int_gt(made_is_text(p, &c, "adl.json, P- and E-cores"), 10);
	perfmon_free(p);
	perfmon_free(atom);
}
END_TEST

/* A builder with the header every layout has, a group open after it when GROUP. */
static struct layout_build *start(bool group)
{
	struct layout_build *b = layout_build_new("made");

	layout_build_comment(b, "two lines\nof comment");
	layout_build_name(b, "made");
	layout_build_vendor(b, false);
	layout_build_blank(b);
	layout_build_metric(b, "util", LAYOUT_THREAD, "%", "100 * ref_cycles / tsc");
	if (group) {
		layout_build_group(b, "G");
		layout_build_key(b, '1');
	}
	return b;
}

/* B's end fails with a message that has WANT (and no layout, no text). */
static void refused(struct layout_build *b, const char *want)
{
	char err[1024];
	struct layout *l = (struct layout *)1;
	char *text = (char *)1;

	ck_assert_int_eq(layout_build_finish(b, &l, &text, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(l);
	ck_assert_ptr_null(text);
	ck_assert_msg(strstr(err, want), "wanted '%s' in: %s", want, err);
}

START_TEST(a_bad_line_fails_at_its_line_and_column)
{
	struct layout_build *b = start(true);
	struct layout_build_event ev = { .name = "two words", .event = 0xC0 };

	/* lines: version, 2 comments, layout, vendor, blank, metric, blank, group, key: 11 */
	layout_build_event(b, &ev);
	/* later lines do nothing: the first failure is the one said */
	layout_build_end(b);
	refused(b, "made:11:9: expected a word without blanks, quotes or '#'");

	b = start(true);
	layout_build_key(b, 'q');
	refused(b, "made:11:7: expected a key from 1 to 9 or a lowercase letter other than");

	/* a formula's '#' would end it as a comment in the text */
	b = start(false);
	layout_build_metric(b, "x", LAYOUT_THREAD, "", "cycles # a comment");
	refused(b, "made:8:29: expected a formula on one line, without '#'");

	/* a formula is the parser's to read: an unknown name, its column in the line */
	b = start(false);
	layout_build_metric(b, "x", LAYOUT_THREAD, "", "cycles / nonesuch");
	refused(b, "made:8:");

	/* texts reach every output: UTF-8 only */
	b = start(false);
	layout_build_help(b, "bad \xff byte");
	refused(b, "expected UTF-8 text, not byte 0xFF");

	/* an event outside a group: the parser's own words for it */
	b = start(false);
	ev.name = "ok";
	layout_build_event(b, &ev);
	refused(b, "made:8:1: expected layout, description, vendor");

	/* a group left open */
	b = start(true);
	refused(b, "expected 'end' to close group 'G' before the end of the file");
}
END_TEST

START_TEST(texts_are_quoted_and_read_back_as_made)
{
	static const char help[] = "a \"quoted\" word, a back\\slash and a\ttab";
	struct layout_build *b = start(true);
	struct layout_build_event ev = {
		.name = "BR_MISP", .event = 0xC5, .umask = 0x1, .cmask = 2, .inv = true,
		.counters = 0x3, .ring = "user",
	};
	struct layout *l, *parsed;
	char err[1024], *text;
	int m;

	layout_build_title(b, "Title \"x\"");
	layout_build_default(b, false);
	layout_build_event(b, &ev);
	layout_build_metric(b, "misp", LAYOUT_CORE, "per \"k\"", "BR_MISP / instructions * 1000");
	layout_build_help(b, help);
	layout_build_thresholds(b, 2.5, 10);
	layout_build_end(b);
	ck_assert_msg(layout_build_finish(b, &l, &text, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_nonnull(strstr(text, "  event BR_MISP raw event=0xC5 umask=0x01 cmask=2 "
					   "inv=1 ring=user counters=0,1\n"));
	ck_assert_ptr_nonnull(strstr(text, "# two lines\n# of comment\n"));
	m = layout_metric_find(l, "misp");
	ck_assert_int_ge(m, 0);
	/* a control character is written as a blank: the text has none */
	ck_assert_str_eq(l->metrics[m].help, "a \"quoted\" word, a back\\slash and a tab");
	ck_assert_str_eq(l->metrics[m].unit, "per \"k\"");
	ck_assert_str_eq(l->groups[0].title, "Title \"x\"");
	ck_assert(l->metrics[m].warn == 2.5 && l->metrics[m].crit == 10);
	ck_assert_uint_eq(l->events[0].counters, 0x3);
	ck_assert(l->events[0].inv && l->events[0].ring == LAYOUT_RING_USER);
	ck_assert_msg(layout_parse(text, "made", &parsed, err, sizeof(err)) == 0, "%s", err);
	same_layout(l, parsed, "quoted texts");
	layout_free(l);
	layout_free(parsed);
	free(text);
}
END_TEST

static Suite *layout_build_suite(void)
{
	Suite *s = suite_create("layout_build");
	/* every platform twice, made and parsed: about 1 s of CPU, more beside a loaded machine's */
	TCase *all = tcase_create("every_made_layout_is_the_layout_of_its_text");

	tcase_add_test(all, every_made_layout_is_the_layout_of_its_text);
	tcase_set_timeout(all, 120);
	suite_add_tcase(s, all);
	CHECK_ADD(s, a_hybrid_layout_is_the_layout_of_its_text);
	CHECK_ADD(s, a_bad_line_fails_at_its_line_and_column);
	CHECK_ADD(s, texts_are_quoted_and_read_back_as_made);
	return s;
}

CHECK_MAIN(layout_build_suite)
