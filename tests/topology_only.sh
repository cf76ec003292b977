#!/bin/sh
# pmutop --topology-only end to end: the exact text for a dual Xeon 5500,
# and this machine's topology agreeing with what Linux reports.
. "$top_srcdir/tests/lib.sh"
plan 16

run "$PMUTOP" --topology-only --topology 'pack:2 [numa(memory=12GiB)] l3:1(size=8MiB) core:4 pu:2(indexes=2*8:1*2)'
expect_rc "dual Xeon 5500 exits 0" 0
want="topology from synthetic description 'pack:2 [numa(memory=12GiB)] l3:1(size=8MiB) core:4 pu:2(indexes=2*8:1*2)'
2 sockets, 2 NUMA nodes, 8 cores, 16 threads online
socket 0: cpu 0-3,8-11 | NUMA node 0 (12 GiB) | L3 8 MiB | 4 cores, 8 threads
  core 0: cpu 0,8    core 1: cpu 1,9    core 2: cpu 2,10   core 3: cpu 3,11
socket 1: cpu 4-7,12-15 | NUMA node 1 (12 GiB) | L3 8 MiB | 4 cores, 8 threads
  core 4: cpu 4,12   core 5: cpu 5,13   core 6: cpu 6,14   core 7: cpu 7,15"
if [ "$out" = "$want" ]; then
	pass "dual Xeon 5500 prints the expected six lines"
else
	fail "dual Xeon 5500 prints the expected six lines" "got:" "$out"
fi

run "$PMUTOP" --topology-only --topology "$top_srcdir/tests/topology/westmere-ep-sparse.xml"
expect_rc "saved XML exits 0" 0
expect_match "saved XML keeps sparse core ids" "$out" "core 8: cpu 6,18"

run "$PMUTOP" --topology-only --topology "$top_srcdir/tests/topology/alderlake-hybrid.xml"
expect_match "a hybrid CPU: its kinds from hwloc, the P-cores first" "$out" \
	"hybrid: P-cores (IntelCore, hwloc efficiency 1): 8 cores, 16 threads; E-cores (IntelAtom, hwloc efficiency 0): 8 cores, 8 threads"
expect_match "... and each socket's cores by kind" "$out" "| 16 cores, 24 threads: 8 P + 8 E"
expect_match "... the E-cores in their modules (an L2 for four)" "$out" \
	"E-cores (IntelAtom, hwloc efficiency 0): 8 cores, 8 threads, in modules of 4 sharing a 2 MiB L2"
# the doctor on the same machine (hwloc reads the XML in place of this one's sysfs)
run env HWLOC_XMLFILE="$top_srcdir/tests/topology/alderlake-hybrid.xml" "$PMUTOP" --doctor
expect_match "the doctor names the kinds and their perf PMUs: missing here, so n/a" "$out" \
	"hybrid: 8 P-cores (IntelCore, 16 threads): perf PMU cpu_core missing: n/a; 8 E-cores (IntelAtom, 8 threads): perf PMU cpu_atom missing: n/a"
expect_match "... and how to get them" "$out" "a kernel whose perf driver knows this CPU's kinds of core (Linux 5.13 on has cpu_core and cpu_atom)"

run "$PMUTOP" --topology-only
expect_rc "this machine exits 0" 0
online=$(getconf _NPROCESSORS_ONLN)
expect_match "this machine is named as the source" "$out" "topology of this machine"
case "$out" in
*", $online threads online"*) pass "this machine: $online threads online" ;;
*) fail "this machine: $online threads online" "got: $out" ;;
esac

run "$PMUTOP" --topology-only --sim westmere-ep:idle
expect_rc "--sim --topology-only exits 0" 0
expect_match "emulated topology is labelled SIMULATED" "$out" "SIMULATED machine westmere-ep: 2 x Xeon X5670"
expect_match "emulated topology is the emulated machine's" "$out" "2 sockets, 2 NUMA nodes, 12 cores, 24 threads online"
run "$PMUTOP" --topology-only --sim westmere-ep:nosuch
expect_rc "--sim with an unknown scenario exits 2" 2
