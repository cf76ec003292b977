/*
 * options_usage: the text of --help (the options parsed in options.c).
 * Immutable.
 */
#include "options.h"
#include "frontend.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char options_usage[] =
	"Usage: pmutop [OPTION]... [-- COMMAND [ARG]...]\n"
	"Live view of Intel and AMD performance-monitoring counters over the machine's topology.\n"
	"With a COMMAND: run it, follow it (its CPUs highlighted, its state in the\n"
	"header) and keep the screen when it ends; with -b, end with a summary of the\n"
	"run (mean and peak of every figure) and exit with the command's status.\n"
	"\n"
	"  -T, --topology=SRC     with --topology-only: print this topology instead of\n"
	"                         the machine's: an hwloc XML file, or a synthetic\n"
	"                         description such as 'pack:2 [numa] l3:1 core:4 pu:2'\n"
	"      --topology-only    print the topology (sockets, NUMA nodes, L3, cores,\n"
	"                         hardware threads) and exit\n"
	"      --sim=MACHINE[:SCENARIO]\n"
	"                         use an emulated machine instead of the hardware:\n"
	"                         nehalem-ep, westmere-ep, skylake, core2 (the seed\n"
	"                         documents), skylake-sp, icelake-sp, sapphire-rapids,\n"
	"                         granite-rapids, tigerlake (Intel's data), alderlake,\n"
	"                         lunarlake (hybrid: P- and E-cores), genoa, vermeer,\n"
	"                         epyc-vm (AMD's), arch, arch-256, arch-1024 (big\n"
	"                         machines); SCENARIO is a shipped name (idle,\n"
	"                         compute-bound, memory-bound, numa-remote,\n"
	"                         frontend-bound, unbalanced-channels, false-sharing,\n"
	"                         topdown, smt-contended, cross-ccx, hybrid-split,\n"
	"                         hybrid-lowpower, shared-server) or a scenario file\n"
	"      --root=DIR         read devices, /sys and /proc under DIR (a fake machine)\n"
	"  -b, --batch            print samples to standard output instead of the screen\n"
	"  -n, --iterations=N     stop after N samples (default: until interrupted)\n"
	"      --dump             print the interactive screen as text after -n samples\n"
	"                         (default 1) at $COLUMNS x $LINES (default 160x50), no\n"
	"                         terminal needed\n"
	"      --pane=NAME        the pane the screen (or --dump) opens on: threads, ports,\n"
	"                         uncore, imc, memory, cycles, tree, bottleneck or who (default:\n"
	"                         the settings', threads)\n"
	"      --drill            the screen turns on the key of the top-down level under\n"
	"                         each socket's bottleneck, and off the ones it no longer\n"
	"                         needs (D on the screen)\n"
	"      --doctor           check what pmutop needs on this machine, one line each\n"
	"                         with the command that fixes it, and exit\n"
	"  -d, --delay=SECONDS    interval between samples, " ENGINE_INTERVAL_RANGE_TEXT " (default 1)\n"
	;

/* after --format's lines, one a format (options_usage_write) */
const char options_usage_batch[] =
	"      --counts           with -b and --format csv or json: every event's count\n"
	"                         (as read, and scaled to the interval) beside the\n"
	"                         metrics, to compare with perf stat\n"
	"      --metrics=LIST     with -b: the metrics printed, comma-separated: names,\n"
	"                         globs ('Info_Memory_*'), group names or keys ('9')\n"
	;

/* after the --per-* line of the kinds of entity */
const char options_usage_tail[] =
	"      --per-cgroup, --per-process\n"
	"                         with -b: only those rows (several add up; default all;\n"
	"                         cgroups and processes are --who's)\n"
	"      --cpus=LIST        with -b: the rows of these CPUs only (0-3,8), their\n"
	"                         cores' and sockets', as perf stat -C\n"
	"  -g, --groups=LIST      event groups to count: names or keys, comma-separated,\n"
	"                         or 'all' (default: the layout's default groups)\n"
	"      --layout=FILE      use this layout file instead of the one for the CPU\n"
	"      --force-layout     use --layout's file although its models line does not\n"
	"                         name this CPU (its events may count other things here)\n"
	"      --user             count user mode only\n"
	"      --kernel           count kernel mode only\n"
	"      --force            also take counters someone else is using (they are\n"
	"                         restored at exit)\n"
	"      --mux-ms=MS        when groups take turns on the counters, switch every\n"
	"                         MS milliseconds, " ENGINE_MUX_MS_TEXT "\n"
	"      --no-realtime      keep the sampler thread at normal priority (by default\n"
	"                         it asks for SCHED_FIFO 1 where pmutop itself rotates\n"
	"                         groups, so their turns stay regular on a busy machine)\n"
	;

/* after --source's lines, one a source (options_usage_write) */
const char options_usage_end[] =
	"      --command-only     with -- COMMAND: count that command (and what it starts)\n"
	"                         alone, through perf, instead of whole CPUs; a user whom\n"
	"                         perf_event_paranoid 1 or 2 keeps from counting whole\n"
	"                         CPUs gets this without asking\n"
	"      --dram-mts=N       DIMM speed in MT/s (e.g. 1333): memory bandwidth is\n"
	"                         then shown as a share of the channels' peak too\n"
	"      --list-events      print every event of the layout with the exact register\n"
	"                         values pmutop writes, and exit (with --source perf: as\n"
	"                         perf stat -e names them)\n"
	"      --list-metrics     print the vendor's published metrics for this CPU: the\n"
	"                         top-down tree and the rest, each with its formula over\n"
	"                         the vendor's events and its threshold, and exit\n"
	"      --plan=LIST        with --list-metrics: how these metric groups or metrics\n"
	"                         (e.g. TmaL1,TmaL2, or tree) pack into passes on the\n"
	"                         counters, and which cannot be counted and why\n"
	"      --cpu=FAMILY_MODEL[_STEPPING]\n"
	"                         with --list-events or --list-metrics: the CPU model,\n"
	"                         e.g. 06_1A, 06_8F or 06_55_7 (a Cascade Lake), 19_11\n"
	"                         (an AMD Genoa)\n"
	"      --list-pmus        print every PMU the kernel describes in sysfs (or the\n"
	"                         --sim machine's emulated kernel): boxes, sockets, format\n"
	"                         fields, events with scale and unit; the ones skipped and\n"
	"                         why; and exit\n"
	"      --write-sysfs=DIR  with --sim: write the emulated kernel's PMUs as the\n"
	"                         kernel's sysfs tree under DIR/sys/bus/event_source/\n"
	"                         devices (a new directory), for --root DIR, and exit\n"
	"      --msr-safe-allowlist\n"
	"                         print the msr-safe allowlist of the registers pmutop\n"
	"                         writes on this CPU (or the --sim machine) and exit\n"
	"      --who              count the busiest cgroups and processes through perf\n"
	"                         (the who pane, W; batch, --record, --serve)\n"
	"      --who-top=N        with --who: cgroups counted at once, 1-256 (16)\n"
	"      --who-procs=N      process rows, 0-200 (20); read who from the start\n"
	"      --who-topdown      with --who: the top-down level 1 per cgroup and process\n"
	"                         (T in the who pane), where the CPU's tree allows\n"
	"      --who-resctrl=CGROUPS\n"
	"                         make a resctrl monitoring group for each cgroup (its\n"
	"                         processes), removed at exit (also if pmutop is killed)\n"
	"      --pin=CPUS         run COMMAND on these CPUs only: a list such as 0-3,8,\n"
	"                         or socketN for every CPU of socket N\n"
	"      --record=FILE      write the run to FILE (JSON lines; R starts and stops\n"
	"                         recording on the screen)\n"
	"      --replay=FILE      show a recording on the screen (space pause, , .\n"
	"                         step, [ ] speed, g go to a time); with -b and\n"
	"                         --format convert it to text, CSV or JSON\n"
	"      --serve=[ADDR:]PORT\n"
	"                         serve Prometheus /metrics, a JSON API and viewers over\n"
	"                         HTTP on ADDR (default 127.0.0.1); headless unless\n"
	"                         --tui or -b\n"
	"      --tui              with --serve: the screen as well\n"
	"      --tls-cert=FILE, --tls-key=FILE\n"
	"                         with --serve: HTTPS with this PEM certificate and key\n"
	"      --auth-file=FILE   with --serve: basic authentication, FILE has USER:HASH\n"
	"                         lines (crypt(3) hashes: openssl passwd -6)\n"
	"      --connect=HOST:PORT\n"
	"                         view the pmutop serving there (read-only); https://\n"
	"                         for TLS, PMUTOP_CONNECT_AUTH=USER:PASSWORD for a password\n"
	"      --tls-ca=FILE      with --connect: the CA that signed the server's certificate\n"
	"      --viewers-group=GROUP\n"
	"                         the group that may attach as viewers (local socket\n"
	"                         $ROOT/run/lock/pmutop.sock, mode 0660)\n"
	"      --no-viewers       no local socket: a second pmutop cannot attach\n"
	"      --mark=TEXT        mark a phase in the running pmutop (this user's): it\n"
	"                         shows on its history and in its output, and exit; a\n"
	"                         COMMAND can also write a line to $PMUTOP_MARK_FIFO;\n"
	"                         with --pid=PID only that pmutop (else every one)\n"
	"  -h, --help             show this help and exit\n"
	"  -V, --version          show the version and the layout directory, and exit\n"
	"\n"
	"Exit status: 0 success, 1 failure while running, 2 bad command line or input.\n";

/*
 * "  NAME  TEXT" under an option, NAME in a column WIDTH wide, TEXT's words
 * wrapped to 80 columns below it
 */
static void options_usage_item(FILE *out, const char *name, const char *text, int width)
{
	int col = fprintf(out, "%27s%-*s ", "", width, name);
	bool first = true;

	while (*text) {
		int n = (int)strcspn(text, " ");

		if (!first && col + 1 + n > 79) {
			col = fprintf(out, "\n%*s", 28 + width, "") - 1;
			first = true;
		}
		col += fprintf(out, "%s%.*s", first ? "" : " ", n, text);
		first = false;
		text += n + (text[n] == ' ');
	}
	fputc('\n', out);
}

void options_usage_write(FILE *out)
{
	int width = 0;

	fputs(options_usage, out);
	/* the formats' list: a new format's line comes with its registry line */
	fputs("      --format=FMT       batch output (-b):\n", out);
	for (int i = 0; batch_formats[i]; i++)
		if ((int)strlen(batch_formats[i]->name) > width)
			width = (int)strlen(batch_formats[i]->name);
	for (int i = 0; batch_formats[i]; i++)
		options_usage_item(out, batch_formats[i]->name, batch_formats[i]->help, width);
	fputs(options_usage_batch, out);
	fputs("     ", out);
	for (int k = 0; k < SAMPLE_NKINDS; k++)
		fprintf(out, " %s%s", sample_kinds[k].option, k + 1 < SAMPLE_NKINDS ? "," : ",\n");
	fputs(options_usage_tail, out);
	/* the sources' list: a new source's line comes with its entry */
	fputs("      --source=SRC       the counters (default auto):\n", out);
	options_usage_item(out, "auto", session_source_about(NULL), 5);
	for (int i = 0; session_source_at(i); i++)
		options_usage_item(out, session_source_name(session_source_at(i)),
				   session_source_about(session_source_at(i)), 5);
	fputs(options_usage_end, out);
}
