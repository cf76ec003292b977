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
#
# Each core's own figure (the kernel's cstate_core counts on one CPU of each
# core, and pmutop reads each core's counter apart): a core sleeps only when
# all its threads are halted (the SDM: CORE_C6_RESIDENCY counts while the
# core is in C6), so a core with a busy thread reads 0 %; the socket's figure
# is its cores' mean (turbostat's CPU%c6 averaged), the scenario's
# core_c6_share by its definition.
. "$top_srcdir/tests/lib.sh"
plan 19
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

# each core's own: on Sapphire Rapids (CPUs 0-55 socket 0's cores, 56-111 socket 1's, then
# their second threads 112-223) socket 0's first 14 cores busy, socket 1's first core busy on
# its second thread (CPU 168) alone, every other thread halted
cat >"$tmp/percore.scn" <<'EOF'
pmutop-scenario 1
name percore
description socket 0: 14 cores busy; socket 1: one core's second thread busy; the rest halted
seed 1
noise 0
phase all 0
cpu all util=0
cpu 0-13 util=1
cpu 168 util=1
socket all core_c6_share=0.6 pkg_c6_share=0.3
EOF
run "$PMUTOP" -b -n 2 -d 0.4 --format json --sim "sapphire-rapids:$tmp/percore.scn" --source perf -g z
r=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, sys
s = pmutop_json.loads(sys.stdin.read())
core_of = {t["cpu"]: (t["socket"], t["core"]) for t in s["threads"]}
cores = {(c["socket"], c["core"]): c["metrics"]["core_c6_pct"] for c in s["cores"]}
busy = [core_of[c] for c in list(range(14)) + [168]]
print("busy", max(cores[k] for k in busy))
for sk in (0, 1):
    mine = [v for (so, _), v in cores.items() if so == sk]
    idle = [v for k, v in cores.items() if k[0] == sk and k not in busy]
    print("socket%d %d %.3f %.3f %.3f %.3f" % (sk, len(mine), s["sockets"][sk]["metrics"]["core_c6_pct"],
          sum(mine) / len(mine), min(idle), max(idle)))' 2>&1)
echo "# per core: $(printf '%s\n' "$r" | tr '\n' ';')"
set -- $(printf '%s\n' "$r" | tr '\n' ' ')
expect_is "each core its own: the 15 cores with a busy thread (one of them its second thread alone) 0 % in C6" "$2" "0.0"
near "... socket 0's figure, its 56 cores' mean, the scenario's 60 %" "$5" 60 0.01
near "... which is the mean of its cores' own figures" "$6" "$5" 0.002
expect_is "... its idle cores alike (within 0.5 %), and above the mean (they carry the busy cores' share)" \
	"$($PY -c "print($8 - $7 < 0.005 * $7 and $7 > 61)")" True
near "socket 1: one core busy on its second thread, its figure the mean of its cores' (60 %)" "${11}" 60 0.01

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
