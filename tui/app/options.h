/*
 * options: pmutop's command line.
 *
 * options_parse() fills a struct options or returns one message for the
 * user; it never prints and never exits, so every rule is testable.  Main
 * thread, before anything else starts.
 */
#ifndef PMUTOP_OPTIONS_H
#define PMUTOP_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "batch.h"
#include "frontend.h"

enum options_action {
	OPTIONS_ACTION_INTERACTIVE,
	OPTIONS_ACTION_HELP,
	OPTIONS_ACTION_VERSION,
	OPTIONS_ACTION_TOPOLOGY_ONLY,
	OPTIONS_ACTION_MSR_SAFE_ALLOWLIST,
	OPTIONS_ACTION_LIST_EVENTS,
	OPTIONS_ACTION_LIST_METRICS, /* the vendor's metrics for this CPU (or --cpu) */
	OPTIONS_ACTION_LIST_PMUS,    /* the kernel's PMUs (or the emulated kernel's) */
	OPTIONS_ACTION_WRITE_SYSFS,  /* write the emulated kernel's PMUs as a sysfs tree */
	OPTIONS_ACTION_DOCTOR,
	OPTIONS_ACTION_MARK,  /* --mark TEXT: to the running pmutops of this user */
};

/* Exit status for a bad command line or bad input (the man page's EXIT STATUS). */
#define OPTIONS_EXIT_USAGE 2


#define OPTIONS_GROUPS_DEFAULT NULL

struct options {
	enum options_action action;
	const char *topology; /* --topology FILE|SYNTHETIC, NULL = this machine */
	const char *sim;      /* --sim MACHINE[:SCENARIO|:PATH], NULL = real counters */
	const char *root;     /* --root DIR: prefix of every device, sysfs and procfs path */
	/* the machine those name (main opens it): what the modes pass to the session */
	struct machine *machine;
	bool batch;           /* -b: print samples instead of the screen */
	long count;           /* -n: samples to print, 0 = until interrupted */
	double interval;      /* -d: seconds between samples */
	bool interval_given;  /* -d was given (it then wins over the settings file) */
	bool dump;            /* --dump: print the screen after -n samples as text */
	const struct batch_format *format; /* --format (NULL: text) */
	bool counts;          /* --counts: every event's count beside the metrics */
	const char *metrics;  /* --metrics LIST: the metrics -b prints (names, globs, groups, keys) */
	/*
	 * --per-thread/-core/-socket/-channel/-cha/-cgroup/-process: bit 1 <<
	 * enum layout_scope or BATCH_SCOPE_*; 0 all
	 */
	unsigned scopes;
	const char *cpus;     /* --cpus LIST: -b's rows of these CPUs alone (as the screen's /), NULL all */
	const char *plan;     /* --plan LIST: with --list-metrics, how those metrics pack */
	const char *write_sysfs; /* --write-sysfs DIR: where the --sim machine's PMU tree goes */
	const char *groups;   /* -g: group names or keys, comma-separated, or "all"; NULL = layout defaults */
	const char *layout;   /* --layout FILE, NULL = the one for the CPU */
	bool has_model;       /* --cpu FAMILY_MODEL given */
	unsigned family, model, stepping;
	bool user_only, kernel_only;
	bool force;           /* --force: take counters in use by someone else */
	bool force_layout;    /* --force-layout: a --layout for other CPUs, used anyway */
	unsigned dram_mts;    /* --dram-mts, 0 unknown */
	double mux_s;         /* --mux-ms in seconds, 0: the engine's default */
	const struct source_kind *source; /* --source, NULL: auto (the default) */
	bool source_given;
	bool command_only;    /* --command-only: the command alone, through perf */
	int pane;             /* --pane: a lower pane (its registry place), 0 the default */
	bool drill;           /* --drill: the screen turns on the level under the bottleneck (D) */
	char **command;       /* after "--": the command to run under pmutop, NULL-terminated; NULL none */
	const char *pin;      /* --pin CPUS|socketN for the command, NULL: where it likes */
	const char *mark;     /* --mark TEXT */
	int mark_pid;         /* --pid PID: the pmutop --mark goes to, 0: every one of this user's */
	const char *record;   /* --record FILE: write the run there (record.h) */
	const char *replay;   /* --replay FILE: read a recording instead of counting */
	const char *serve;    /* --serve [ADDR:]PORT: HTTP for Prometheus and viewers (serve.h) */
	bool tui;             /* --tui: with --serve, the screen too (else headless) */
	const char *tls_cert, *tls_key; /* --tls-cert, --tls-key: --serve over HTTPS */
	const char *auth_file; /* --auth-file: basic authentication for --serve */
	const char *connect;  /* --connect HOST:PORT: view a remote --serve (viewer.h) */
	const char *tls_ca;   /* --tls-ca FILE: the CA of --connect's https server */
	const char *viewers_group; /* --viewers-group: the local socket's group */
	bool no_viewers;      /* --no-viewers: no local socket for viewers */
	bool no_realtime;     /* --no-realtime: the sampler thread at normal priority */
	bool who;             /* --who: count per cgroup and process */
	int who_top;          /* --who-top: cgroups counted at once, 0 the default */
	int who_procs;        /* --who-procs: process rows, -1 the default */
	const char *who_resctrl; /* --who-resctrl CGROUPS: make their resctrl monitoring groups */
	bool who_topdown;     /* --who-topdown: the top-down level 1 per cgroup and process */
};

/*
 * Parse ARGV.  Returns 0, or -EINVAL with one line in ERR naming the bad
 * argument (the caller adds the --help hint and exits 2).
 */
int options_parse(int argc, char **argv, struct options *opt, char *err, size_t errlen);

/*
 * The --help text: its two parts, the --per-* lines between them (one a
 * kind of entity, from sample_kinds), written by options_usage_write.
 */
extern const char options_usage[], options_usage_batch[], options_usage_tail[], options_usage_end[];
void options_usage_write(FILE *out);

/*
 * The who options (options_who.c): their getopt codes, and option C with
 * ARG parsed into OPT: 0, -EINVAL with ERR, -ENOENT when C is none of them.
 */
enum { OPTIONS_WHO = 1000, OPTIONS_WHO_TOP, OPTIONS_WHO_PROCS, OPTIONS_WHO_RESCTRL,
       OPTIONS_WHO_TOPDOWN };
int options_who(int c, struct options *opt, const char *arg, char *err, size_t errlen);

/*
 * The batch output's options (options_batch.c: --format, --counts,
 * --metrics, --per-*): their getopt codes, and option C with ARG parsed
 * into OPT: 0, -EINVAL with ERR, -ENOENT when C is none of them.
 */
enum { OPTIONS_FORMAT = 1100, OPTIONS_COUNTS, OPTIONS_METRICS,
       OPTIONS_PER_CGROUP, OPTIONS_PER_PROCESS, OPTIONS_CPUS };
/* --per-KIND of each kind of entity (sample_kinds[K].option): OPTIONS_PER_KIND + K */
enum { OPTIONS_PER_KIND = 1200 };
int options_batch(int c, struct options *opt, const char *arg, char *err, size_t errlen);
/* The --per-KIND options into AT (SAMPLE_NKINDS + 1 entries, the last the end). */
struct option;
void options_batch_per(struct option *at);
/* What --per-* without -b is told, into ERR. */
void options_batch_per_alone(char *err, size_t errlen);

#endif
