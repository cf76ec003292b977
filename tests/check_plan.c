/*
 * Tests for the engine's planning (plan.c), without a machine: which
 * selected groups count together on the counters free, and the reason a
 * user reads on the screen for each one that cannot.
 */
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "layout.h"
#include "plan.h"

/* A layout of core groups with N1, N2, N3, N4 events each (0: no such group). */
static struct layout *plan_layout(int n1, int n2, int n3, int n4)
{
	static const unsigned codes[] = { 0xB1, 0x0E, 0xC2, 0xA2, 0x14, 0x24, 0x2E, 0x3C };
	int counts[] = { n1, n2, n3, n4 };
	char text[8192], err[512];
	size_t n = 0;
	struct layout *l;
	int ev = 0;

	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      "pmutop-layout 1\nlayout t\nmodels 06_1A\n"
			      "metric ipc thread ratio = instructions / cycles\n");
	for (int g = 0; g < 4; g++) {
		if (!counts[g])
			continue;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "group g%d\n", g);
		for (int k = 0; k < counts[g]; k++, ev++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "  event e%d raw event=0x%02X umask=0x%02X\n", ev,
					      codes[ev % 8], 1u << (ev / 8));
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "  metric m%d thread count = e%d\nend\n", g, ev - 1);
	}
	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s\n%s", err, text);
	return l;
}

START_TEST(groups_that_fit_share_one_set)
{
	struct layout *l = plan_layout(2, 2, 0, 0);
	struct counter_set sets[4];
	char blocked[4][SAMPLE_WHY_MAX];

	ck_assert_int_eq(plan_core(l, 3, 0xF, 0, 0, sets, blocked), 1);
	ck_assert_uint_eq(sets[0].groups, 3);
	ck_assert_str_eq(blocked[0], "");
	ck_assert_str_eq(blocked[1], "");
	layout_free(l);
}
END_TEST

START_TEST(groups_beyond_the_counters_take_turns)
{
	struct layout *l = plan_layout(3, 3, 2, 0);
	struct counter_set sets[4];
	char blocked[4][SAMPLE_WHY_MAX];

	/* 3 + 3 + 2 events over 4 counters: g0 alone, g1 alone, g2 fits beside neither */
	ck_assert_int_eq(plan_core(l, 7, 0xF, 0, 0, sets, blocked), 3);
	ck_assert_uint_eq(plan_groups(sets, 3), 7);
	/* over 8 counters: g0 and g1 share, g2 fits beside them */
	ck_assert_int_eq(plan_core(l, 7, 0xFF, 0, 0, sets, blocked), 1);
	layout_free(l);
}
END_TEST

/* The boundary both ways: a group of exactly the free counters counts, one more does not. */
START_TEST(a_group_as_wide_as_the_counters_counts_and_one_wider_is_blocked)
{
	struct layout *l = plan_layout(4, 5, 0, 0);
	struct counter_set sets[4];
	char blocked[4][SAMPLE_WHY_MAX];

	ck_assert_int_eq(plan_core(l, 3, 0xF, 0, 0, sets, blocked), 1);
	ck_assert_uint_eq(sets[0].groups, 1);
	ck_assert_str_eq(blocked[0], "");
	ck_assert_str_eq(blocked[1],
			 "needs 5 general-purpose counters (with its constraints), 4 free");
	layout_free(l);
}
END_TEST

START_TEST(a_counter_given_up_is_named_in_the_reason)
{
	struct layout *l = plan_layout(4, 0, 0, 0);
	struct counter_set sets[4];
	char blocked[4][SAMPLE_WHY_MAX];

	/* PMC2 taken by someone else: 3 left */
	ck_assert_int_eq(plan_core(l, 1, 0xB, 0x4, 0, sets, blocked), 0);
	ck_assert_str_eq(blocked[0], "needs 4 general-purpose counters (with its constraints), "
			 "3 free (another program took one while pmutop ran)");
	layout_free(l);
}
END_TEST

START_TEST(a_missing_architectural_event_blocks_its_group_only)
{
	struct layout *l;
	struct counter_set sets[4];
	char blocked[4][SAMPLE_WHY_MAX], err[512];
	const char *text = "pmutop-layout 1\nlayout t\nmodels 06_1A\n"
			   "group llc\n  event refs raw event=0x2E umask=0x4F\n"
			   "  metric r thread count = refs\nend\n"
			   "group other\n  event o raw event=0xB1 umask=0x01\n"
			   "  metric x thread count = o\nend\n";

	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	/* CPUID.0AH:EBX bit 3: LLC Reference not available */
	ck_assert_int_eq(plan_core(l, 3, 0xF, 0, 1u << 3, sets, blocked), 1);
	ck_assert_uint_eq(sets[0].groups, 2);
	ck_assert_str_eq(blocked[0], "LLC Reference (event 2EH umask 4FH) is not available on "
			 "this CPU (CPUID.0AH:EBX bit 3)");
	ck_assert_str_eq(blocked[1], "");
	/* the same event where the CPU has it */
	ck_assert(!plan_arch_unavailable(l, 0, 1u << 4, blocked[0], sizeof(blocked[0])));
	layout_free(l);
}
END_TEST

START_TEST(unselected_groups_take_no_counter)
{
	struct layout *l = plan_layout(4, 4, 0, 0);
	struct counter_set sets[4];
	char blocked[4][SAMPLE_WHY_MAX];

	ck_assert_int_eq(plan_core(l, 2, 0xF, 0, 0, sets, blocked), 1);
	ck_assert_uint_eq(sets[0].groups, 2);
	ck_assert_int_eq(plan_core(l, 0, 0xF, 0, 0, sets, blocked), 0);
	layout_free(l);
}
END_TEST

/* Skylake client's uncore: CBo groups over 2 counters per slice, IMC free-running. */
START_TEST(uncore_groups_pack_by_box_kind)
{
	struct layout *l;
	struct counter_set sets[8];
	char blocked[8][SAMPLE_WHY_MAX] = { { 0 } }, err[512];
	layout_groups free;
	const char *text =
		"pmutop-layout 1\nlayout t\nmodels 06_5E\n"
		"metric ipc thread ratio = instructions / cycles\n"
		"group a\n  pmu cbo\n  event a1 raw event=0x34 umask=0x8F\n"
		"  event a2 raw event=0x34 umask=0x88\n  metric ma socket count = a1\nend\n"
		"group b\n  pmu cbo\n  event b1 raw event=0x22 umask=0x48\n"
		"  metric mb socket count = b1\nend\n"
		"group c\n  pmu cbo\n  event c1 raw event=0x34 umask=0x11\n"
		"  event c2 raw event=0x34 umask=0x21\n  event c3 raw event=0x34 umask=0x41\n"
		"  metric mc socket count = c1\nend\n"
		"group m\n  pmu imc\n  event r DRAM_DATA_READS\n"
		"  metric mm socket count = r\nend\n";

	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	/* a (2 events) fills a slice's 2 counters: b takes turns with it; c cannot count */
	ck_assert_int_eq(plan_uncore(l, 0xF, sets, &free, blocked), 2);
	ck_assert_uint_eq(sets[0].groups, 1);
	ck_assert_uint_eq(sets[1].groups, 2);
	ck_assert_uint_eq(free, 8);
	ck_assert_str_eq(blocked[2], "needs 3 cbo counters (with its constraints), 2 per slice");
	/* a group already blocked (another reason) is left out */
	snprintf(blocked[0], sizeof(blocked[0]), "elsewhere");
	blocked[2][0] = 0;
	ck_assert_int_eq(plan_uncore(l, 0x3, sets, &free, blocked), 1);
	ck_assert_uint_eq(sets[0].groups, 2);
	ck_assert_str_eq(blocked[0], "elsewhere");
	layout_free(l);
}
END_TEST

START_TEST(a_hybrids_kinds_never_take_turns_with_each_other)
{
	/* 4 events a P-core group, 4 an E-core group, each kind 4 counters: they never meet */
	const char *text = "pmutop-layout 1\nlayout t\nmodels 06_97\n"
		"group p\n  coretype core\n"
		"  event p1 raw event=0xB1 umask=0x01\n  event p2 raw event=0x0E umask=0x01\n"
		"  event p3 raw event=0xC2 umask=0x01\n  event p4 raw event=0xA2 umask=0x01\n"
		"  metric mp thread count = p1\nend\n"
		"group e\n  coretype atom\n"
		"  event e1 raw event=0x71 umask=0x00\n  event e2 raw event=0x74 umask=0x00\n"
		"  event e3 raw event=0xC2 umask=0x00\n  event e4 raw event=0x73 umask=0x00\n"
		"  metric me thread count = e1\nend\n"
		"group any\n  event a1 raw event=0x3C umask=0x00\n  metric ma thread count = a1\nend\n";
	struct counter_set sets[4];
	char blocked[4][SAMPLE_WHY_MAX], err[512];
	struct layout *l;

	ck_assert_msg(layout_parse(text, "t.layout", &l, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(l->groups[0].coretype, LAYOUT_CORES_P);
	ck_assert_int_eq(l->groups[1].coretype, LAYOUT_CORES_E);
	/* one set: the P-cores program p1-p4, the E-cores e1-e4, on counters 0-3 of each */
	ck_assert_int_eq(plan_core(l, 0x3, 0xF, 0, 0, sets, blocked), 1);
	ck_assert_uint_eq(sets[0].groups, 3);
	ck_assert_int_eq(sets[0].nev, 8);
	/* a group of every kind beside them: one packing for all, so they take turns */
	ck_assert_int_eq(plan_core(l, 0x7, 0xF, 0, 0, sets, blocked), 3);
	layout_free(l);
	/* "coretype" in an uncore group, or a kind that is not one, is refused */
	ck_assert_int_ne(layout_parse("pmutop-layout 1\nlayout t\nmodels 06_97\ngroup u\n  pmu cbo\n"
				      "  coretype atom\n  event c1 raw event=0x34 umask=0x11\n"
				      "  metric mc socket count = c1\nend\n", "u.layout", &l, err,
				      sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "'coretype' in a core group only"));
	ck_assert_int_ne(layout_parse("pmutop-layout 1\nlayout t\nmodels 06_97\ngroup u\n"
				      "  coretype little\n  event c1 raw event=0x34 umask=0x11\n"
				      "  metric mc thread count = c1\nend\n", "u.layout", &l, err,
				      sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "core or atom (the kind of core"));
}
END_TEST

static Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");

	CHECK_ADD(s, groups_that_fit_share_one_set);
	CHECK_ADD(s, groups_beyond_the_counters_take_turns);
	CHECK_ADD(s, a_group_as_wide_as_the_counters_counts_and_one_wider_is_blocked);
	CHECK_ADD(s, a_counter_given_up_is_named_in_the_reason);
	CHECK_ADD(s, a_missing_architectural_event_blocks_its_group_only);
	CHECK_ADD(s, unselected_groups_take_no_counter);
	CHECK_ADD(s, uncore_groups_pack_by_box_kind);
	CHECK_ADD(s, a_hybrids_kinds_never_take_turns_with_each_other);
	return s;
}

CHECK_MAIN(plan_suite)
