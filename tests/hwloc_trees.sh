#!/bin/sh
# Real machines as this system's hwloc reads them (issue 45.4), from hwloc's
# own test suite (tests/hwloc/README.md):
#  - a Raptor Lake laptop's /sys (Core i7-1370P): hwloc 2.9 ranks its two
#    kinds of core by frequency but names no core type (CPUID's, absent from
#    a tree); the kernel's cpu_core PMU counts CPUs 0-11 and cpu_atom 12-19
#    (added here as arch/x86/events/intel/core.c registers them), and those
#    "cpus" files say which kind is which;
#  - Strix Point (Ryzen AI 9 HX 370) as hwloc 3.0 writes it: an XML of
#    version 3.0, which an hwloc 2 refuses; as version 2, two L3s of 16 and
#    8 MiB in one socket.
# And an emulated Alder Lake's tree (tools/fakehw: hwloc finds no kinds in
# it, the kernel's core PMUs list their CPUs), counted through the register
# devices: each kind its own events (hybrid-split.scn: the E-cores' front
# end leaves 25 % of their 5 slots a cycle empty, the P-cores' 10 % of 6).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 16

PY=${PYTHON:-python3}
tmp=$(mktemp -d)
$PY -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
	"$top_srcdir/tests/hwloc/20em64t-hybrid-1p6c2t+2ca4co1t.tar.bz2" "$tmp"
r="$tmp/20em64t-hybrid-1p6c2t+2ca4co1t"
# the kernel's core PMUs of this CPU: the hyper-threaded P-cores, the E-cores
for p in cpu_core:4:0-11 cpu_atom:10:12-19; do
	name=${p%%:*} rest=${p#*:}
	mkdir -p "$r/sys/bus/event_source/devices/$name/format"
	printf '%s\n' "${rest%%:*}" >"$r/sys/bus/event_source/devices/$name/type"
	printf '%s\n' "${rest#*:}" >"$r/sys/bus/event_source/devices/$name/cpus"
	printf 'config:0-7\n' >"$r/sys/bus/event_source/devices/$name/format/event"
	printf 'config:8-15\n' >"$r/sys/bus/event_source/devices/$name/format/umask"
done
run "$PMUTOP" --root "$r" --topology-only
expect_match "Raptor Lake under hwloc 2.9: the P-cores named by cpu_core's cpus" "$out" \
	"hybrid: P-cores (IntelCore by the kernel's core PMU, hwloc efficiency 1): 6 cores, 12 threads; E-cores (IntelAtom by the kernel's core PMU, hwloc efficiency 0): 8 cores, 8 threads, in modules of 4 sharing a 2 MiB L2"
expect_match "... its socket: 6 P + 8 E" "$out" "L3 24 MiB | 14 cores, 20 threads: 6 P + 8 E"
run "$PMUTOP" --root "$r" --doctor
expect_match "the doctor: each kind with the PMU that counts it" "$out" \
	"ok    CPU kinds        hybrid: 6 P-cores (IntelCore, from its PMU's cpus: hwloc gave none, 12 threads): perf PMU cpu_core"
expect_match "... a hybrid's core PMU is cpu_core (no 'cpu' there)" "$out" \
	"ok    perf PMUs        cpu_core (type 4"

cp "$top_srcdir/tests/hwloc/AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370.xml" "$tmp/strix.xml"
run "$PMUTOP" --topology-only --topology "$tmp/strix.xml"
expect_rc "hwloc 3.0's XML: refused" 2
expect_match "... saying why and how to export it" "$err" \
	"hwloc refuses it: its XML is version 3.0"
sed 's/<topology version="3.0">/<topology version="2.0">/' "$tmp/strix.xml" >"$tmp/strix2.xml"
run "$PMUTOP" --topology-only --topology "$tmp/strix2.xml"
expect_match "Strix Point's L3s as they are: 16 MiB + 8 MiB, not 2 x 16" "$out" \
	"L3 16 MiB + 8 MiB | 12 cores, 24 threads: 4 P + 8 E"

fakehw_start alderlake:hybrid-split
run "$PMUTOP" --root "$dir" -b -n 3 -d 0.3 --format json
expect_rc "an emulated Alder Lake's tree, through the register devices: runs" 0
near "E-core CPU 16: its own tree's front-end bound (Intel's E-core metrics)" \
	"$(field "$out" cpu 16 tma_frontend_bound)" 25 0.05
near "P-core CPU 0: the P-cores' Frontend_Bound" "$(field "$out" cpu 0 Frontend_Bound)" 10 0.05
fakehw_stop

# Arrow Lake-H's low-power E-cores (emulated): hwloc's IntelLowPower kind, the kernel's third
# core PMU cpu_lowpower (Linux's hybrid_tiny), counted through it; their events are
# Crestmont's (Intel's data: arrowlake_crestmont_core.json, CoreRole LowPower_Atom), not the
# Skymont E-cores', so the E-core tree stays off them. lp.scn: the LP-E cores run at ipc 0.6.
cat >"$tmp/lp.scn" <<'SCN'
pmutop-scenario 1
name lp
description LP-E cores busy, the rest light
seed 3
noise 0
phase one 0
cpu 0-13 util=0.5 ipc=1.5 uops_per_inst=1.1 issue_ratio=1.05 exec_ratio=1.0
cpu 14-15 util=0.9 ipc=0.6 uops_per_inst=1.2 issue_ratio=1.1 exec_ratio=1.0
SCN
run "$PMUTOP" --sim arrowlake-h --topology-only
expect_match "Arrow Lake-H: P, E and LP-E cores, each kind its own" "$out" \
	"L3 24 MiB | 16 cores, 16 threads: 6 P + 8 E + 2 LP-E"
run "$PMUTOP" --sim arrowlake-h --list-pmus
expect_match "... the kernel's cpu_lowpower counts CPUs 14-15" "$out" \
	"cpu_lowpower, type 11, counts on its kind's CPUs 14-15"
run "$PMUTOP" --sim "arrowlake-h:$tmp/lp.scn" --source perf -b -n 3 -d 0.3 --format json
near "LP-E CPU 14 through cpu_lowpower: its ipc" "$(field "$out" cpu 14 ipc)" 0.6 0.03
expect_is "... no E-core tree there (another core's events)" \
	"$(field "$out" cpu 14 tma_frontend_bound)" missing
expect_match "... saying so" "$(printf '%s\n' "$out" | tail -1)" \
	"the low-power E-cores (14-15, cpu_lowpower) count the built-in figures only"
fakehw_cleanup='rm -rf "$tmp"' # with the last run's stop
fakehw_start "arrowlake-h:$tmp/lp.scn"
run "$PMUTOP" --root "$dir" -b -n 3 -d 0.3 --format json
near "its tree under hwloc 2.9 (kinds from the PMUs' cpus), through the registers: LP-E ipc" \
	"$(field "$out" cpu 14 ipc)" 0.6 0.03
