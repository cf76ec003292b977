/* Tests for command-line parsing: what each option selects, and the one-line messages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "engine.h"
#include "options.h"

static int parse(struct options *o, char *err, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	err[0] = '\0';
	return options_parse(argc, argv, o, err, 256);
}

START_TEST(no_options_starts_the_interactive_view_on_this_machine)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", NULL }), 0);
	ck_assert_int_eq(o.action, OPTIONS_ACTION_INTERACTIVE);
	ck_assert_ptr_null(o.topology);
}
END_TEST

START_TEST(topology_source_in_every_spelling)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--topology", "pack:2 pu:2",
						    "--topology-only", NULL }), 0);
	ck_assert_int_eq(o.action, OPTIONS_ACTION_TOPOLOGY_ONLY);
	ck_assert_str_eq(o.topology, "pack:2 pu:2");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--topology=m.xml", "--topology-only",
						    NULL }), 0);
	ck_assert_str_eq(o.topology, "m.xml");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--topology-only", "-T", "m.xml",
						    NULL }), 0);
	ck_assert_str_eq(o.topology, "m.xml");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--sim", "skylake:idle",
						    "--msr-safe-allowlist", NULL }), 0);
	ck_assert_str_eq(o.sim, "skylake:idle");
	ck_assert_int_eq(o.action, OPTIONS_ACTION_MSR_SAFE_ALLOWLIST);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--root=/tmp", NULL }), 0);
	ck_assert_str_eq(o.root, "/tmp");
}
END_TEST

START_TEST(help_and_version_win_over_other_options)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--topology-only", "-h", NULL }), 0);
	ck_assert_int_eq(o.action, OPTIONS_ACTION_HELP);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--version", "--bogus", NULL }), 0);
	ck_assert_int_eq(o.action, OPTIONS_ACTION_VERSION);
	ck_assert_ptr_nonnull(strstr(options_usage, "--topology-only"));
}
END_TEST

/* The interval's bounds are written once: the help text says the same numbers. */
START_TEST(interval_bounds_and_their_text_agree)
{
	char text[64], err[256];
	struct options o;

	snprintf(text, sizeof(text), "%g to %g", ENGINE_INTERVAL_MIN, ENGINE_INTERVAL_MAX);
	ck_assert_str_eq(text, ENGINE_INTERVAL_RANGE_TEXT);
	ck_assert_ptr_nonnull(strstr(options_usage, ENGINE_INTERVAL_RANGE_TEXT));
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-d", "60", NULL }), 0);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-d", "60.01", NULL }), -EINVAL);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-d", "0.1", NULL }), 0);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-d", "0.09", NULL }), -EINVAL);
}
END_TEST

/* After "--" the rest is the command, its own options included; --pin and --mark go with it or alone. */
START_TEST(a_command_after_the_double_dash)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-b", "-d", "0.5", "--", "ls", "-l",
						    "-d", NULL }), 0);
	ck_assert_ptr_nonnull(o.command);
	ck_assert_str_eq(o.command[0], "ls");
	ck_assert_str_eq(o.command[1], "-l");
	ck_assert_str_eq(o.command[2], "-d"); /* the command's, not pmutop's */
	ck_assert_ptr_null(o.command[3]);
	ck_assert(o.batch);
	ck_assert(o.interval == 0.5);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--pin", "socket1", "--", "x", NULL }), 0);
	ck_assert_str_eq(o.pin, "socket1");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--pin", "0-3", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--pin goes with a command to run: pmutop --pin 0-3 -- COMMAND");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--mark", "phase 2", NULL }), 0);
	ck_assert_int_eq(o.action, OPTIONS_ACTION_MARK);
	ck_assert_str_eq(o.mark, "phase 2");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--mark", "x", "--", "ls", NULL }),
			 -EINVAL);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--dump", "--", "ls", NULL }), -EINVAL);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--", NULL }), 0);
	ck_assert_ptr_null(o.command); /* nothing after it: no command */
	/* --pid picks the pmutop a mark goes to; alone it is an error */
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--mark", "x", "--pid", "4242", NULL }),
			 0);
	ck_assert_int_eq(o.mark_pid, 4242);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--pid", "4242", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--pid goes with --mark: pmutop --mark TEXT --pid PID");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--mark", "x", "--pid", "-3", NULL }),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "--pid needs a process id"));
	/* --pane opens the live screen on a pane too, but not with -b */
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--pane", "imc", NULL }), 0);
	ck_assert_int_gt(o.pane, 0);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--pane", "imc", "-b", NULL }), -EINVAL);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--layout", "x.layout",
						     "--force-layout", NULL }), 0);
	ck_assert(o.force_layout);
}
END_TEST

START_TEST(serving_and_viewing_options_go_together)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--serve", "9464", "--tui", NULL }), 0);
	ck_assert_str_eq(o.serve, "9464");
	ck_assert(o.tui && !o.batch);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--tls-cert", "c.pem", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--tls-cert, --tls-key, --auth-file and --tui go with --serve");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--serve=9464", "--tls-cert=c.pem",
						     NULL }), -EINVAL);
	ck_assert_str_eq(err, "HTTPS needs both --tls-cert and --tls-key");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--serve=9464", "--tui", "-b", NULL }),
			 -EINVAL);
	ck_assert_str_eq(err, "--tui shows the screen and -b prints samples; give one");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--serve=9464", "--dump", NULL }),
			 -EINVAL);
	ck_assert_str_eq(err, "--serve serves a live run: not with --dump, --replay or --connect");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--connect=h:9464", "--sim=arch", NULL }),
			 -EINVAL);
	ck_assert_str_eq(err, "--connect views another pmutop's run as it is: not with --sim, --root, "
			 "-g, -d, --force, --layout, --dump or a command");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--tls-ca=ca.pem", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--tls-ca goes with --connect");
	for (int i = 0; i < 5; i++) {
		static const char *const bad[] = { "host", "host:", ":9464", "host:99999", "a b:80" };
		char arg[64];

		snprintf(arg, sizeof(arg), "--connect=%s", bad[i]);
		ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", arg, NULL }), -EINVAL);
		ck_assert_msg(strstr(err, ": give HOST:PORT, the address another pmutop serves on"),
			      "%s: %s", bad[i], err);
	}
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--connect=[::1]:9464", NULL }), 0);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--connect=https://h:1", "--tls-ca=c",
						     NULL }), 0);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--serve=", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--serve needs [ADDRESS:]PORT");
}
END_TEST

START_TEST(bad_arguments_get_one_line_naming_them)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--bogus", NULL }), -EINVAL);
	ck_assert_str_eq(err, "unknown option '--bogus'");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-z", NULL }), -EINVAL);
	ck_assert_str_eq(err, "unknown option '-z'");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--topology", NULL }), -EINVAL);
	ck_assert_str_eq(err, "option '--topology' needs an argument");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-T", NULL }), -EINVAL);
	ck_assert_str_eq(err, "option '-T' needs an argument");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--topology=", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--topology needs a file or a synthetic description");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "stray", NULL }), -EINVAL);
	ck_assert_str_eq(err, "unexpected argument 'stray' (to run a command under pmutop, put -- before it: pmutop -- stray)");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--sim=", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--sim needs a machine, e.g. --sim nehalem-ep:memory-bound");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--root", "x", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--root needs an absolute directory, got 'x'");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--root=/", "--sim=arch", NULL }),
			 -EINVAL);
	ck_assert_str_eq(err, "--sim and --root both say where counters come from; give one");
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "--root=/nonexistent/r", NULL }),
			 -EINVAL);
	ck_assert_str_eq(err, "--root /nonexistent/r: no such directory; give the directory that "
			 "holds the machine's dev, sys and proc");
	/* an option the chosen mode would silently ignore is an error */
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-T", "m.xml", "-b", NULL }), -EINVAL);
	ck_assert_str_eq(err, "--topology goes with --topology-only (the live view uses the "
			 "machine's own topology)");
}
END_TEST

/*
 * The formats are one list: --format takes each registry name and refuses
 * another naming them all, --help has a line for each, --counts goes with
 * those that carry counts, and the man page's --format names each.
 */
START_TEST(format_names_are_one_list)
{
	char err[256], man[65536] = "", *help = NULL, *line;
	size_t len = 0;
	struct options o;
	FILE *fp;
	int n = 0;

	ck_assert_str_eq(batch_format_list(), "text, csv, json, long, perf-csv or perf-json");
	for (int i = 0; batch_formats[i]; i++, n++) {
		const struct batch_format *f = batch_formats[i];

		ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-b", "--format", (char *)f->name,
							     NULL }), 0);
		ck_assert_ptr_eq(o.format, f);
		ck_assert_ptr_eq(batch_format_find(f->name), f);
		ck_assert_msg(f->sample && f->help && f->help[0], "%s: no writer or help", f->name);
		ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-b", "--counts", "--format",
							     (char *)f->name, NULL }),
				 f->counts ? 0 : -EINVAL);
	}
	ck_assert_int_eq(n, 6);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-b", "--format", "xml", NULL }),
			 -EINVAL);
	ck_assert_str_eq(err, "--format is text, csv, json, long, perf-csv or perf-json, not 'xml'");
	/* the default, and refused with text */
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-b", NULL }), 0);
	ck_assert_ptr_null(o.format);
	ck_assert_int_eq(parse(&o, err, (char *[]){ "pmutop", "-b", "--counts", NULL }), -EINVAL);
	fp = open_memstream(&help, &len);
	options_usage_write(fp);
	fclose(fp);
	fp = fopen(TEST_DATADIR "/../man/pmutop.1", "r");
	ck_assert_ptr_nonnull(fp);
	man[fread(man, 1, sizeof(man) - 1, fp)] = 0;
	fclose(fp);
	line = strstr(man, ".BR \\-\\-format =");
	ck_assert_ptr_nonnull(line);
	*strchr(line, '\n') = 0;
	for (int i = 0; batch_formats[i]; i++) {
		char want[64];

		snprintf(want, sizeof(want), "\\fI%s\\fR", batch_formats[i]->name);
		ck_assert_msg(strstr(line, want), "the man page's --format does not name %s: %s",
			      batch_formats[i]->name, line);
		snprintf(want, sizeof(want), "\n%27s%s ", "", batch_formats[i]->name);
		ck_assert_msg(strstr(help, want), "--help has no line for %s", batch_formats[i]->name);
	}
	free(help);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");

	CHECK_ADD(s, no_options_starts_the_interactive_view_on_this_machine);
	CHECK_ADD(s, topology_source_in_every_spelling);
	CHECK_ADD(s, help_and_version_win_over_other_options);
	CHECK_ADD(s, bad_arguments_get_one_line_naming_them);
	CHECK_ADD(s, serving_and_viewing_options_go_together);
	CHECK_ADD(s, a_command_after_the_double_dash);
	CHECK_ADD(s, interval_bounds_and_their_text_agree);
	CHECK_ADD(s, format_names_are_one_list);
	return s;
}

CHECK_MAIN(options_suite)
