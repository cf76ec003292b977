#!/bin/sh
# The command line as a user meets it: help, version, and one clear
# message with exit status 2 for every kind of bad input.
. "$top_srcdir/tests/lib.sh"
plan 42

run "$PMUTOP" --help
expect_rc "--help exits 0" 0
expect_match "--help shows usage" "$out" "Usage: pmutop [OPTION]..."
expect_match "--help lists --topology-only" "$out" "--topology-only"

run "$PMUTOP" --version
expect_rc "--version exits 0" 0
expect_match "--version names the program" "$out" "pmutop 0."
expect_match "build tree uses the source layouts" "$out" "layouts: $top_srcdir/layouts"

err=$("$PMUTOP" -b -n 1 --sim nehalem-ep 2>&1 >&-)
rc=$?
expect_rc "a closed standard output exits 2" 2
expect_match "a closed standard output says so" "$err" "pmutop: standard output is closed"

# bad input found after the command line is parsed is still exit 2, with one line
run env COLUMNS=100000 LINES=100000 "$PMUTOP" --dump -n 1 --sim nehalem-ep
expect_rc "a screen too large to dump exits 2" 2
expect_match "and says how large it may be" "$err" "--dump draws at most 2000 x 2000 characters"
run "$PMUTOP" -b -n 1 --sim nehalem-ep --layout "$top_srcdir/layouts/westmere.layout" --force-layout -g dram
expect_rc "a layout event this CPU lacks exits 2" 2
expect_match "and names the event and the register" "$err" "event ocr_remote_data_in needs MSR 0x1A7"
run "$PMUTOP" -b -n 1 --sim "nehalem-ep:$top_srcdir/tests"
expect_rc "a scenario that is a directory exits 2" 2
scn=$(mktemp)
printf 'pmutop-scenario 1\nname big\nmin_sockets 64\nphase a 0\ncpu all util=1\n' >"$scn"
run "$PMUTOP" -b -n 1 --sim "nehalem-ep:$scn"
expect_match "a scenario no emulated machine fits suggests none" "$err" "no emulated machine has that many (the most is 4)"
rm -f "$scn"

run "$PMUTOP" --frobnicate
expect_rc "unknown option exits 2" 2
expect_match "unknown option is named" "$err" "pmutop: unknown option '--frobnicate'"
expect_match "unknown option points to --help" "$err" "Try 'pmutop --help'"
expect_lines "unknown option: message and hint only" "$err" 2

run "$PMUTOP" --topology-only --topology /nonexistent/box.xml
expect_rc "missing topology file exits 2" 2
expect_match "missing file is named" "$err" "--topology /nonexistent/box.xml: no such file"
expect_lines "missing file: one line" "$err" 1
expect_lines "missing file: nothing on stdout" "$out" 0

bad=$(mktemp)
printf '<topology version="2.0"><object type=' >"$bad"
run "$PMUTOP" --topology-only --topology "$bad"
rm -f "$bad"
expect_rc "unreadable XML exits 2" 2
expect_match "unreadable XML says so and what is accepted" "$err" "not a readable hwloc XML topology; give an hwloc XML file"
expect_lines "unreadable XML: one line" "$err" 1

run "$PMUTOP" --topology-only --topology 'pack:2 bogus:3'
expect_rc "invalid synthetic string exits 2" 2
expect_match "invalid synthetic string gets an example" "$err" "not a valid synthetic description; give an hwloc XML file (lstopo --of xml FILE) or a synthetic description such as 'pack:2 [numa] l3:1 core:4 pu:2'"
expect_lines "invalid synthetic: one line" "$err" 1

run "$PMUTOP" --topology-only extra
expect_rc "stray argument exits 2" 2

run "$PMUTOP" --msr-safe-allowlist --sim nehalem-ep
expect_rc "msr-safe allowlist of an emulated Nehalem exits 0" 0
expect_match "allowlist names the CPU" "$out" "X5570  @ 2.93GHz (Nehalem, family 6 model 0x1A)"
expect_match "allowlist has the event selects" "$out" "0x00000186 0x00000000FFFFFFFF # IA32_PERFEVTSEL0"
expect_match "allowlist has the uncore" "$out" "0x000003C7 0x00000000FFFFFFFF # MSR_UNCORE_PERFEVTSEL7"
case "$out" in
*0x000001A0*) fail "allowlist leaves IA32_MISC_ENABLE out" "got: $out" ;;
*) pass "allowlist leaves IA32_MISC_ENABLE out" ;;
esac
# a CPU after the table's (Sapphire Rapids): named as a run's header names it, not as CPUID's
# "architectural perfmon"
run "$PMUTOP" --msr-safe-allowlist --sim sapphire-rapids
expect_match "Sapphire Rapids' allowlist names its platform as the vendor's data gives it" "$out" \
	"# Intel(R) Xeon(R) Platinum 8480+ (SPR by Intel's data, family 6 model 0x8F)"

# this machine through the cpuid instruction: what pmutop must answer follows from what
# the kernel found (an Intel CPU with architectural perfmon: the allowlist; else why not)
run "$PMUTOP" --msr-safe-allowlist
if grep -q '^vendor_id.*GenuineIntel' /proc/cpuinfo && grep -q '^flags.* arch_perfmon' /proc/cpuinfo; then
	expect_rc "this Intel machine with perfmon: its allowlist" 0
	expect_match "this machine's allowlist" "$out" "# msr-safe allowlist"
else
	expect_rc "this machine without an Intel PMU exits 1" 1
	expect_lines "this machine without a usable PMU: one line why" "$err" 1
fi

run "$PMUTOP" --msr-safe-allowlist --sim pentium4
expect_rc "unknown emulated machine exits 2" 2
expect_match "unknown machine lists the known ones" "$err" "emulated machines are nehalem-ep, westmere-ep, skylake, skylake-sp, icelake-sp, sapphire-rapids, granite-rapids, tigerlake, alderlake, lunarlake, arrowlake-h, genoa, vermeer, epyc-vm, core2, arch"

run "$PMUTOP" --sim skylake --root /tmp
expect_rc "--sim with --root exits 2" 2

run "$PMUTOP" --root relative/dir
expect_rc "relative --root exits 2" 2

# a flag raised on both sockets names both
scn=$(mktemp)
printf 'pmutop-scenario 1\nname e\nphase p 0\ncpu all util=1\nchannel all read_lines_per_s=5e7 write_lines_per_s=2e7\nchannel *.2 read_lines_per_s=0 write_lines_per_s=0\n' >"$scn"
run env COLUMNS=200 LINES=30 "$PMUTOP" --sim "nehalem-ep:$scn" --dump -n 1 -d 0.2
rm -f "$scn"
expect_match "an empty channel on both sockets is named on both" "$out" "! socket 0 channel 2, socket 1 channel 2: channel 2's reads has never counted"
