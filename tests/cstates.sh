#!/bin/sh
# C-state residency (issue 48.4): the share of the time each socket's cores
# and its package spend in C6, from the kernel's cstate PMUs, as turbostat's
# CPU%c6 and Pkg%pc6.
#
# Truth from outside the project: Linux's arch/x86/events/intel/cstate.c
# registers cstate_core (counting on one CPU of each core, its cpumask) and
# cstate_pkg (one CPU of each package), c6-residency is event 0x02 in both,
# and its intel_cstates_match table gives each model its states: Ice Lake-SP,
# Sapphire and Granite Rapids core c1 and c6, package c2 and c6; Nehalem core
# c3 and c6, package c3, c6 and c7; Lunar Lake is not listed (no PMU); AMD has
# no cstate PMU.  The residency MSRs count at the TSC's rate while in the
# state (SDM Vol. 4).  The shipped idle scenario, without its noise, keeps
# every socket's cores 95 % of the time in C6 and the package 80 %.
. "$top_srcdir/tests/lib.sh"
plan 14
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/idle.scn" >"$tmp/idle.scn"
core=$(sed -n 's/.*core_c6_share=\([0-9.]*\).*/\1/p' "$tmp/idle.scn")
pkg=$(sed -n 's/.*pkg_c6_share=\([0-9.]*\).*/\1/p' "$tmp/idle.scn")
core=$($PY -c "print($core * 100)")
pkg=$($PY -c "print($pkg * 100)")

# the emulated kernel's PMUs as the driver registers them
"$PMUTOP" --sim sapphire-rapids --write-sysfs "$tmp/spr" >/dev/null 2>&1
d="$tmp/spr/sys/bus/event_source/devices"
expect_is "Sapphire Rapids: cstate_core's events are c1 and c6 (the driver's icx table)" \
	"$(ls "$d/cstate_core/events" | tr '\n' ' ')" "c1-residency c6-residency "
expect_is "... cstate_pkg's c2 and c6, c6 as event 0x02" \
	"$(ls "$d/cstate_pkg/events" | tr '\n' ' ')$(cat "$d/cstate_pkg/events/c6-residency")" \
	"c2-residency c6-residency event=0x02"
expect_is "... cstate_core on each core's first CPU (112 cores: CPUs 0-111), cstate_pkg on one CPU a socket" \
	"$(cat "$d/cstate_core/cpumask") $(cat "$d/cstate_pkg/cpumask")" "0-111 0,56"
"$PMUTOP" --sim nehalem-ep --write-sysfs "$tmp/nhm" >/dev/null 2>&1
d="$tmp/nhm/sys/bus/event_source/devices"
expect_is "Nehalem-EP: core c3 and c6, package c3, c6 and c7 (the driver's nhm table)" \
	"$(ls "$d/cstate_core/events" | tr '\n' ' ')/ $(ls "$d/cstate_pkg/events" | tr '\n' ' ')" \
	"c3-residency c6-residency / c3-residency c6-residency c7-residency "
"$PMUTOP" --sim lunarlake --write-sysfs "$tmp/lnl" >/dev/null 2>&1
expect_is "Lunar Lake: no cstate PMU (a model the driver does not list)" \
	"$(ls "$tmp/lnl/sys/bus/event_source/devices" | grep -c cstate)" "0"

# figures against the scenario's truth, key z through perf
run "$PMUTOP" -b -n 2 -d 0.3 --format json --sim "sapphire-rapids:$tmp/idle.scn" --source perf -g z
near "Sapphire Rapids idle: socket 0's cores in C6" "$(field "$out" socket 0 core_c6_pct)" "$core" 0.01
near "... socket 1's package in C6" "$(field "$out" socket 1 pkg_c6_pct)" "$pkg" 0.01
# a hybrid's 8 P-cores of two threads and 8 E-cores of one: 16 cores, not 24 threads / 1.67
run "$PMUTOP" -b -n 2 -d 0.3 --format json --sim "alderlake:$tmp/idle.scn" --source perf -g z
near "Alder Lake idle: its 16 cores' mean in C6" "$(field "$out" socket 0 core_c6_pct)" "$core" 0.01
run "$PMUTOP" -b -n 2 -d 0.3 --format json --sim nehalem-ep:compute-bound --source perf -g z
expect_is "Nehalem-EP compute-bound: no core sleeps (0 % in C6, counted, not n/a)" \
	"$(field "$out" socket 0 core_c6_pct) $(field "$out" socket 1 pkg_c6_pct)" "0.0 0.0"

# n/a with the reason where they cannot be counted
run "$PMUTOP" -b -n 1 -d 0.2 --sim lunarlake:idle --source perf -g z
expect_match "Lunar Lake: the group says the kernel has no cstate_core PMU" "$out" \
	"group CStates blocked: the kernel has no cstate_core PMU in sysfs"
expect_match "... n/a on the socket line" "$out" "core_c6_pct=n/a"
run "$PMUTOP" -b -n 1 -d 0.2 --sim sapphire-rapids:idle --source msr -g z
expect_match "the msr source: the group says perf counts it" "$out" \
	"group CStates blocked: pmu cstate_core: the kernel's cstate driver reads these residency MSRs; --source perf counts them"
run "$PMUTOP" -b -n 1 -d 0.2 --sim genoa --source perf -g z
expect_match "Genoa: no C-state group (Linux has no cstate PMU on AMD)" "$err" "has no group 'z'"
run "$PMUTOP" -b -n 1 -d 0.2 --sim sapphire-rapids --source perf
expect_is "off until asked: no C-state figure with the default keys" \
	"$(printf '%s\n' "$out" | grep -c 'c6_pct')" "0"
