/*
 * Tests for pmutop's own groups over the vendor's events (layouts/own/
 * links.layout and cxl.layout, "event NAME vendor"): the files are parts a
 * whole layout cannot copy from; a layout made from Intel's data counts
 * each such event with the encoding Intel's JSON gives it (read here with
 * jansson, not through pmutop), each UPI link's on its box, each metric per
 * link and for the socket, the machine's CHAs and links as numbers; a group
 * the data lacks an event of is left out and said; and a metric or a group
 * added to a copy of the files is counted with no C.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check_main.h"
#include "expr.h"
#include "layout.h"
#include "perfmon.h"
#include "perfmon_layout.h"
#include "own_copy.h"

static const struct perfmon_layout_config server = {
	.gp_counters = 8, .ht_on = true, .threads_per_core = 2, .sockets = 2,
	.cores_per_socket = 56, .cpus = 224, .chas = 56, .channels = 8, .upi_links = 3,
};

static struct perfmon *data(const char *file)
{
	char path[4096], err[512];
	struct perfmon *p;

	snprintf(path, sizeof(path), "%s/%s", PERFMON_SRCDIR, file);
	ck_assert_msg(perfmon_load(path, &p, err, sizeof(err)) == 0, "%s", err);
	return p;
}

/* The layout made from P on C (own files in DIR, NULL the shipped ones), parsed. */
static struct layout *generate(const struct perfmon *p, struct perfmon_layout_config c,
			       const char *dir, char **text_out)
{
	char err[1024], *text;
	struct layout *l;

	c.layout_dir = dir ? dir : LAYOUT_SRCDIR;
	ck_assert_msg(perfmon_layout(p, &c, "generated", NULL, &text, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(layout_parse(text, "generated", &l, err, sizeof(err)) == 0, "%s", err);
	if (text_out)
		*text_out = text;
	else
		free(text);
	return l;
}

/* Intel's encoding of event NAME in FILE, from the JSON itself: event code and umask. */
static void intel_encoding(const char *file, const char *name, unsigned *code, uint64_t *umask)
{
	char path[4096];
	json_error_t je;
	json_t *doc, *ev;

	snprintf(path, sizeof(path), "%s/%s", PERFMON_SRCDIR, file);
	doc = json_load_file(path, 0, &je);
	ck_assert_msg(doc, "%s: %s", path, je.text);
	ev = json_object_get(json_object_get(doc, "Events"), name);
	ck_assert_msg(json_is_object(ev), "%s has no event %s", file, name);
	*code = (unsigned)strtoul(json_string_value(json_object_get(ev, "EventCode")), NULL, 0);
	*umask = strtoull(json_string_value(json_object_get(ev, "UMask")), NULL, 0);
	if (json_is_string(json_object_get(ev, "UMaskExt")))
		*umask |= strtoull(json_string_value(json_object_get(ev, "UMaskExt")), NULL, 0) << 8;
	json_decref(doc);
}

/* Event NAME of group GROUP of L (an event of one name stands in each group that counts it). */
static int event_of(const struct layout *l, const char *name, const char *group)
{
	for (int e = 0; e < l->nevents; e++)
		if (!strcmp(l->events[e].name, name) && !strcmp(l->groups[l->events[e].group].name, group))
			return e;
	ck_abort_msg("no event %s in group %s of the layout", name, group);
	return -1;
}

static int metric_of(const struct layout *l, const char *name)
{
	int m = layout_metric_find(l, name);

	ck_assert_msg(m >= 0, "no metric %s in the layout", name);
	return m;
}

/* A variables array of L: NaN everywhere, SECONDS elapsed. */
static double *vars_of(const struct layout *l, double seconds)
{
	double *v = malloc(sizeof(double) * (size_t)layout_nvars(l));

	for (int i = 0; i < layout_nvars(l); i++)
		v[i] = NAN;
	v[LAYOUT_B_seconds] = seconds;
	return v;
}

static void set_event(const struct layout *l, double *v, const char *name, const char *group,
		      double count)
{
	v[layout_event_var(l, event_of(l, name, group))] = count;
}

static double value(const struct layout *l, const double *v, const char *metric)
{
	return expr_eval(l->metrics[metric_of(l, metric)].expr, v);
}

START_TEST(vendor_files_are_parts_a_layout_of_ones_own_cannot_name_vendor)
{
	static const char *const vendor[] = { "links", "cxl" };
	char err[512];
	struct layout *l;

	for (size_t k = 0; k < 2; k++) {
		char *text = own_text(LAYOUT_SRCDIR, vendor[k]);

		ck_assert_msg(layout_parse_part(text, vendor[k], &l, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_gt(l->ngroups, 0);
		layout_free(l);
		/* a whole layout: refused at its first vendor event, saying what to write */
		ck_assert_int_eq(layout_parse(text, vendor[k], &l, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, "'raw FIELD=VALUE...' or a libpfm4 name") &&
			      strstr(err, "only pmutop's own files in layouts/own"), "%s", err);
		free(text);
	}
	/* a part's vendor event: an uncore one, nothing after it */
	ck_assert_int_eq(layout_parse_part("pmutop-layout 1\nlayout x\ngroup g\n  key 1\n"
					   "  event INST_RETIRED.ANY vendor\nend\n", "core", &l, err,
					   sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "core:5:") && strstr(err, "'pmu cha' or 'pmu upi'"), "%s", err);
	/* another uncore's (AMD's data fabric: its encodings are not the CHA's and links') */
	ck_assert_int_eq(layout_parse_part("pmutop-layout 1\nlayout x\nvendor amd\ngroup g\n  key 1\n"
					   "  pmu df\n  event dram_channel_data_controller_0 vendor\nend\n",
					   "df", &l, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "df:7:") && strstr(err, "'pmu cha' or 'pmu upi'"), "%s", err);
	ck_assert_int_eq(layout_parse_part("pmutop-layout 1\nlayout x\ngroup g\n  key 1\n  pmu upi\n"
					   "  event UNC_UPI_CLOCKTICKS vendor box=1\nend\n", "box", &l,
					   err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "box:6:") && strstr(err, "the end of the line"), "%s", err);
	/* the part's facts are a part's: a layout of one's own does not know them */
	ck_assert_int_eq(layout_parse("pmutop-layout 1\nlayout x\nmetric ipc thread IPC = "
				      "instructions / cycles\ngroup g\n  key 1\n  pmu cha\n  event clk raw event=1\n"
				      "  metric f socket GHz = clk / chas / seconds\nend\n", "own", &l,
				      err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "chas"), "%s", err);
}
END_TEST

/*
 * Sapphire Rapids with 3 links: every event of links.layout's UPI.tx
 * counted on each link's box with Intel's encoding, none summed over the
 * boxes; each link's use its own flits' share, the socket's the share of
 * all its links' flits; the links' speed in Intel's UPI group.
 */
START_TEST(each_link_counts_the_files_events_with_intels_encodings)
{
	static const char *const kinds[] = { "ALL_DATA", "NON_DATA", "ALL_NULL", "IDLE" };
	struct perfmon *p = data("spr.json");
	struct layout *l = generate(p, server, NULL, NULL);
	double *v = vars_of(l, 1.0), used[3], all[3], used_sum = 0, all_sum = 0;
	char name[128];

	for (int k = 0; k < 4; k++) {
		unsigned code;
		uint64_t umask;

		snprintf(name, sizeof(name), "UNC_UPI_TxL_FLITS.%s", kinds[k]);
		intel_encoding("spr.json", name, &code, &umask);
		ck_assert_int_lt(layout_event_find(l, name), 0);
		for (int link = 0; link < 3; link++) {
			const struct layout_event *e;

			snprintf(name, sizeof(name), "UNC_UPI_TxL_FLITS.%s.link%d", kinds[k], link);
			e = &l->events[event_of(l, name, "UPI.tx")];
			ck_assert_int_eq(e->pmu, LAYOUT_PMU_UPI);
			ck_assert_int_eq(e->box, link);
			ck_assert_uint_eq(e->event, code);
			ck_assert_uint_eq(e->umask, umask);
		}
	}
	/* link N: 10(N+1) data flits, 5 protocol, 20 null, the rest of 100 slots idle */
	for (int link = 0; link < 3; link++) {
		double n[4] = { 10.0 * (link + 1), 5, 20, 100 - 10.0 * (link + 1) - 25 };

		for (int k = 0; k < 4; k++) {
			snprintf(name, sizeof(name), "UNC_UPI_TxL_FLITS.%s.link%d", kinds[k], link);
			set_event(l, v, name, "UPI.tx", n[k]);
		}
		used[link] = n[0] + n[1];
		all[link] = 100;
		used_sum += used[link];
		all_sum += all[link];
		snprintf(name, sizeof(name), "upi_tx_utilization_link%d", link);
		ck_assert_double_eq_tol(value(l, v, name), 100 * used[link] / all[link], 1e-9);
	}
	ck_assert_double_eq_tol(value(l, v, "upi_tx_utilization"), 100 * used_sum / all_sum, 1e-9);
	/* speed: a link's clock at an eighth of its transfers; the socket's their mean */
	for (int link = 0; link < 3; link++) {
		snprintf(name, sizeof(name), "UNC_UPI_CLOCKTICKS.link%d", link);
		set_event(l, v, name, "UPI", 1.5e9 + 0.25e9 * link);
		snprintf(name, sizeof(name), "upi_link_gts_link%d", link);
		ck_assert_double_eq_tol(value(l, v, name), 8 * (1.5 + 0.25 * link), 1e-9);
		ck_assert_str_eq(l->groups[l->metrics[metric_of(l, name)].group].name, "UPI");
	}
	ck_assert_double_eq_tol(value(l, v, "upi_link_gts"), 8 * 1.75, 1e-9);
	free(v);
	layout_free(l);
	perfmon_free(p);
}
END_TEST

/*
 * cxl.layout on Sapphire Rapids: the latency's CHA clock is one CHA's, the
 * socket's clockticks over the machine's CHAs; a platform without the CXL
 * events, or a machine without CHAs, has no CXL group, and the layout says
 * which event the data lacks.
 */
START_TEST(cxl_takes_the_machines_chas_and_is_left_out_without_its_events)
{
	struct perfmon *p = data("spr.json"), *skx = data("skx.json");
	struct perfmon_layout_config c = server;
	char *text;

	for (int chas = 40; chas <= 56; chas += 16) {
		struct layout *l;
		double *v;

		c.chas = chas;
		l = generate(p, c, NULL, NULL);
		v = vars_of(l, 2.0);
		set_event(l, v, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD_CXL_ACC", "CXL", 4e6);
		set_event(l, v, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_CXL_ACC", "CXL", 1e4);
		set_event(l, v, "UNC_CHA_TOR_INSERTS.IA_MISS_CXL_ACC", "CXL", 3e4);
		/* every CHA at 2 GHz for 2 s */
		set_event(l, v, "UNC_CHA_CLOCKTICKS", "CXL", chas * 2e9 * 2.0);
		/* 400 CHA cycles at 2 GHz: 200 ns */
		ck_assert_double_eq_tol(value(l, v, "cxl_read_latency"), 200, 1e-9);
		ck_assert_double_eq_tol(value(l, v, "cxl_read_bandwidth"), 1e4 * 64 / 1e6 / 2, 1e-12);
		ck_assert_double_eq_tol(value(l, v, "cxl_miss_bandwidth"), 3e4 * 64 / 1e6 / 2, 1e-12);
		free(v);
		layout_free(l);
	}
	layout_free(generate(skx, server, NULL, &text));
	ck_assert_ptr_null(strstr(text, "\ngroup CXL"));
	ck_assert_msg(strstr(text, "# not counted: pmutop's group CXL: SKX's data has no event "
			      "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD_CXL_ACC"), "%s", text);
	free(text);
	c.chas = 0;
	layout_free(generate(p, c, NULL, &text));
	ck_assert_ptr_null(strstr(text, "\ngroup CXL"));
	free(text);
	perfmon_free(skx);
	perfmon_free(p);
}
END_TEST

START_TEST(a_metric_or_a_group_added_to_a_copy_is_counted)
{
	static const char data_share[] =
		"  metric upi_tx_data_share socket % = 100 * UNC_UPI_TxL_FLITS.ALL_DATA / "
		"(UNC_UPI_TxL_FLITS.ALL_DATA + UNC_UPI_TxL_FLITS.NON_DATA)\n"
		"  help \"the data's share of the busy flits\"\n";
	char dir[] = "/tmp/pmutop-ownv.XXXXXX", with[1024], *text;
	struct perfmon *p = data("spr.json");
	struct layout *l;
	double *v;

	/* a metric of the links' group: resolved per link and for the socket */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(with, sizeof(with), "  thresholds warn 70 crit 90\n%send\n\ngroup UPI.rx",
		 data_share);
	copy_own(dir, "links", "  thresholds warn 70 crit 90\nend\n\ngroup UPI.rx", with);
	l = generate(p, server, dir, NULL);
	v = vars_of(l, 1.0);
	for (int link = 0; link < 3; link++) {
		char name[96];

		snprintf(name, sizeof(name), "UNC_UPI_TxL_FLITS.ALL_DATA.link%d", link);
		set_event(l, v, name, "UPI.tx", 30.0 * (link + 1));
		snprintf(name, sizeof(name), "UNC_UPI_TxL_FLITS.NON_DATA.link%d", link);
		set_event(l, v, name, "UPI.tx", 10.0);
		snprintf(name, sizeof(name), "upi_tx_data_share_link%d", link);
		ck_assert_double_eq_tol(value(l, v, name), 100 * 30.0 * (link + 1) /
					(30.0 * (link + 1) + 10), 1e-9);
	}
	ck_assert_double_eq_tol(value(l, v, "upi_tx_data_share"), 100 * 180.0 / 210, 1e-9);
	free(v);
	layout_free(l);
	remove_own(dir);
	/* a group of its own in cxl.layout: taken, its event Intel's */
	ck_assert_ptr_nonnull(mkdtemp(strcpy(dir, "/tmp/pmutop-ownv.XXXXXX")));
	copy_own(dir, "none", "", ""); /* the shipped files */
	{
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/own/cxl.layout", dir);
		ck_assert_ptr_nonnull(f = fopen(path, "a"));
		fputs("\ngroup CXL.writes\n  key l\n  title \"CXL writes\"\n  default off\n  pmu cha\n"
		      "  event UNC_CHA_TOR_INSERTS.IA_MISS_CXL_ACC vendor\n"
		      "  metric cxl_all_lines socket lines = UNC_CHA_TOR_INSERTS.IA_MISS_CXL_ACC\n"
		      "end\n", f);
		ck_assert_int_eq(fclose(f), 0);
	}
	l = generate(p, server, dir, &text);
	ck_assert_str_eq(l->groups[l->metrics[metric_of(l, "cxl_all_lines")].group].name,
			 "CXL.writes");
	ck_assert_ptr_nonnull(strstr(text, "\ngroup CXL\n"));
	layout_free(l);
	free(text);
	remove_own(dir);
	perfmon_free(p);
}
END_TEST

START_TEST(a_copy_that_misnames_or_encodes_an_event_says_so)
{
	char dir[] = "/tmp/pmutop-ownv.XXXXXX", err[1024], want[4200], *text = NULL;
	struct perfmon *p = data("spr.json");
	struct perfmon_layout_config c = server;
	struct layout *l;

	/* an event of the data misspelt: its group left out and said, the others counted */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	copy_own(dir, "links", "UNC_UPI_RxL_FLITS.IDLE", "UNC_UPI_RxL_FLITZ.IDLE");
	l = generate(p, server, dir, &text);
	ck_assert_int_lt(layout_group_find(l, "UPI.rx"), 0);
	ck_assert_int_ge(layout_group_find(l, "UPI.tx"), 0);
	ck_assert_msg(strstr(text, "# not counted: pmutop's group UPI.rx: SPR's data has no event "
			      "UNC_UPI_RxL_FLITZ.IDLE"), "%s", text);
	layout_free(l);
	free(text);
	remove_own(dir);
	/* an encoding of one's own in a file of the vendor's events: its line named */
	ck_assert_ptr_nonnull(mkdtemp(strcpy(dir, "/tmp/pmutop-ownv.XXXXXX")));
	copy_own(dir, "links", "event UNC_UPI_TxL_FLITS.IDLE vendor",
		 "event UNC_UPI_TxL_FLITS.IDLE raw event=0x02 umask=0x47");
	c.layout_dir = dir;
	text = NULL;
	ck_assert_int_eq(perfmon_layout(p, &c, "generated", NULL, &text, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(text);
	snprintf(want, sizeof(want), "%s/own/links.layout:", dir);
	ck_assert_msg(strstr(err, want) && strstr(err, "expected 'event NAME vendor'") &&
		      strstr(err, "PMUTOP_LAYOUT_DIR"), "%s", err);
	remove_own(dir);
	perfmon_free(p);
}
END_TEST

/*
 * Every field of the data's select is written for an own file's event, as
 * for the vendor's own metrics (one writer, perfmon_uncore_fields): a
 * Skylake-SP CHA event's FILTER1 value (the TOR's opcode match, without
 * which it counts every miss), and a counter mask, invert and edge detect
 * where the data sets them (no shipped uncore event does yet: a copy of
 * Sapphire Rapids' data sets them on one event, the others keep none).
 */
START_TEST(an_own_event_carries_every_field_of_the_datas_select)
{
	char dir[] = "/tmp/pmutop-ownv.XXXXXX", path[4096], err[1024];
	const char *drd = "UNC_CHA_TOR_INSERTS.IA_MISS_DRD";
	struct perfmon *p = data("skx.json");
	const struct layout_event *e;
	struct layout *l;
	json_error_t je;
	json_t *doc, *ev;
	unsigned code;
	uint64_t umask, filter;

	/* SKX: a group of one's own over a filtered TOR event */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	copy_own(dir, "none", "", "");
	snprintf(path, sizeof(path), "%s/own/cxl.layout", dir);
	{
		FILE *f = fopen(path, "a");

		ck_assert_ptr_nonnull(f);
		fprintf(f, "\ngroup TOR.drd\n  key l\n  title \"DRd misses\"\n  default off\n  pmu cha\n"
			"  event %s vendor\n  metric drd_miss_lines socket lines = %s\nend\n", drd, drd);
		ck_assert_int_eq(fclose(f), 0);
	}
	l = generate(p, server, dir, NULL);
	intel_encoding("skx.json", drd, &code, &umask);
	snprintf(path, sizeof(path), "%s/skx.json", PERFMON_SRCDIR);
	ck_assert_ptr_nonnull(doc = json_load_file(path, 0, &je));
	ev = json_object_get(json_object_get(doc, "Events"), drd);
	ck_assert_str_eq(json_string_value(json_object_get(ev, "Filter")), "Filter1");
	filter = strtoull(json_string_value(json_object_get(ev, "FILTER_VALUE")), NULL, 0);
	json_decref(doc);
	e = &l->events[event_of(l, drd, "TOR.drd")];
	ck_assert_int_eq(e->pmu, LAYOUT_PMU_CHA);
	ck_assert_uint_eq(e->event, code);
	ck_assert_uint_eq(e->umask, umask);
	ck_assert(e->has_filter1);
	ck_assert_uint_eq(e->filter1, filter);
	ck_assert(filter != 0);
	layout_free(l);
	remove_own(dir);
	perfmon_free(p);
	/* a copy of SPR's data whose ALL_DATA flits take a counter mask, invert and edge */
	ck_assert_ptr_nonnull(mkdtemp(strcpy(dir, "/tmp/pmutop-ownv.XXXXXX")));
	snprintf(path, sizeof(path), "%s/spr.json", PERFMON_SRCDIR);
	ck_assert_ptr_nonnull(doc = json_load_file(path, 0, &je));
	ev = json_object_get(json_object_get(doc, "Events"), "UNC_UPI_TxL_FLITS.ALL_DATA");
	ck_assert_ptr_nonnull(ev);
	json_object_set_new(ev, "CounterMask", json_string("0x3"));
	json_object_set_new(ev, "Invert", json_string("1"));
	json_object_set_new(ev, "EdgeDetect", json_string("1"));
	snprintf(path, sizeof(path), "%s/spr.json", dir);
	ck_assert_int_eq(json_dump_file(doc, path, JSON_COMPACT), 0);
	json_decref(doc);
	ck_assert_msg(perfmon_load(path, &p, err, sizeof(err)) == 0, "%s", err);
	l = generate(p, server, NULL, NULL);
	for (int link = 0; link < 3; link++) {
		char name[96];

		snprintf(name, sizeof(name), "UNC_UPI_TxL_FLITS.ALL_DATA.link%d", link);
		e = &l->events[event_of(l, name, "UPI.tx")];
		ck_assert_uint_eq(e->cmask, 3);
		ck_assert(e->inv && e->edge && !e->has_filter1);
		snprintf(name, sizeof(name), "UNC_UPI_TxL_FLITS.NON_DATA.link%d", link);
		e = &l->events[event_of(l, name, "UPI.tx")];
		ck_assert(e->cmask == 0 && !e->inv && !e->edge);
	}
	layout_free(l);
	perfmon_free(p);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *own_vendor_suite(void)
{
	Suite *s = suite_create("own_vendor");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, vendor_files_are_parts_a_layout_of_ones_own_cannot_name_vendor);
	tcase_add_test(tc, each_link_counts_the_files_events_with_intels_encodings);
	tcase_add_test(tc, cxl_takes_the_machines_chas_and_is_left_out_without_its_events);
	tcase_add_test(tc, a_metric_or_a_group_added_to_a_copy_is_counted);
	tcase_add_test(tc, a_copy_that_misnames_or_encodes_an_event_says_so);
	tcase_add_test(tc, an_own_event_carries_every_field_of_the_datas_select);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(own_vendor_suite)
