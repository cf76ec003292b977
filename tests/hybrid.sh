#!/bin/sh
# Hybrid Intel CPUs (the hybrid issue): the emulated Alder Lake (i9-12900K:
# 8 Golden Cove P-cores x 2 threads, CPUs 0-15; 8 Gracemont E-cores in two
# modules of 4, CPUs 16-23) counted through its emulated kernel's cpu_core
# and cpu_atom PMUs, each kind with its own events and tree, against the
# hybrid-split scenario's truth (noise 0) read through the documents' words:
#  - the E-cores' tree (Intel's E-core metrics in the kernel's perf tool,
#    alderlake/adl-metrics.json): every node a share of the issue slots, 5 a
#    cycle ("5 * CPU_CLK_UNHALTED.CORE"); TOPDOWN_RETIRING.ALL "the number of
#    consumed retirement slots": 0.8 instructions x 1.25 uops a cycle = 1 of
#    5, 20 %; the scenario's frontend_bound (25 %) and bad_speculation (5 %)
#    are shares of those slots, the back end the rest (50 %); level 2: the
#    front end's latency share (60 %: 15 and 10), all of bad speculation
#    mispredicts (5), the back end's memory share the memory stalls over the
#    stalled cycles (0.3 / 0.5): core bound 50 x 0.4 = 20, resource bound 30;
#  - the P-cores' tree (Intel's metrics over PERF_METRICS): slots are "the
#    machine-width (6) distributed among the logical processors who share
#    the core", 3 a thread beside its busy sibling; retiring = IPC x 1.05
#    uops over them, the front end 10 %, bad speculation 5 %;
#  - the socket: IPC and GHz over both kinds (they mean the same on both),
#    each kind's tree from its own cores (never slots of two widths summed);
#  - the emulated Lunar Lake (Core Ultra 7 258V: 4 Lion Cove P-cores without
#    SMT, 8 slots a cycle each; 4 Skymont low-power E-cores, 8 slots, level 1
#    on the architectural _P events), hybrid-lowpower: E-cores 1.6 x 1.25 = 2
#    of 8 slots (25 %), front end 20 % (40 % latency: 8), bad speculation 5 %,
#    back end 50 % (memory 0.2 / 0.4 of it: core bound 25); P-cores 2.0 x 1.1
#    = 2.2 of 8 (27.5 %), front end 15 %.
. "$top_srcdir/tests/lib.sh"
plan 60
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run "$PMUTOP" --topology-only --sim alderlake
expect_rc "the emulated Alder Lake's topology" 0
expect_match "... made from hwloc XML with the kinds: 8 P + 8 E" "$out" \
	"16 cores, 24 threads: 8 P + 8 E"
expect_match "... the E-cores in two modules sharing an L2" "$out" \
	"E-cores (IntelAtom, hwloc efficiency 0): 8 cores, 8 threads, in modules of 4 sharing a 2 MiB L2"

run "$PMUTOP" --sim alderlake --list-pmus
expect_match "the emulated kernel: cpu_core on the P-cores" "$out" "cpu_core, type 4"
expect_match "... cpu_atom on the E-cores" "$out" "cpu_atom, type 10"

run "$PMUTOP" --sim alderlake --source perf --list-events
expect_match "each kind's group through its own PMU: the P-cores' level 1" "$out" \
	"group TmaL1 (key 1, on by default): P-cores: Top-down level 1"
expect_match "... the E-cores' on the same key, Gracemont's TOPDOWN_FE_BOUND.ALL on cpu_atom" "$out" \
	"atom_TOPDOWN_FE_BOUND.ALL cpu_atom/event=0x71/"

# the registers: each kind's groups on its CPUs (an E-core's 6 counters, no fixed counter 3)
run "$PMUTOP" --sim alderlake --source msr -b -n 3 -d 0.5 -g 1,2 --format json
expect_rc "the msr source counts a hybrid by kind" 0
near "... an E-core's tma_retiring from its own counters" "$(field "$out" cpu 19 tma_retiring)" 20 0.02
near "... its level 2 beside (the sets take turns)" "$(field "$out" cpu 19 tma_ifetch_latency)" 15 0.05
near "... a P-core's Retiring from PERF_METRICS" "$(field "$out" cpu 4 Retiring)" \
	"$(field "$out" cpu 4 ipc | $PY -c "import sys; print(100 * float(sys.stdin.read()) * 1.05 / 3)")" 0.02
expect_is "... no P-core figure on an E-core" "$(field "$out" cpu 19 Frontend_Bound)" missing

run "$PMUTOP" --sim alderlake --source perf -b -n 3 -d 0.5 -g 1 --format json
expect_rc "level 1 of both kinds through perf (cpu_core, cpu_atom)" 0
near "E-core: tma_retiring = 0.8 x 1.25 uops / 5 slots" "$(field "$out" cpu 16 tma_retiring)" 20 0.02
near "... tma_frontend_bound" "$(field "$out" cpu 20 tma_frontend_bound)" 25 0.02
near "... tma_bad_speculation" "$(field "$out" cpu 23 tma_bad_speculation)" 5 0.02
near "... tma_backend_bound, the rest" "$(field "$out" cpu 16 tma_backend_bound)" 50 0.02
ipc=$(field "$out" cpu 0 ipc)
near "P-core: Retiring = IPC x 1.05 uops / 3 slots (6 shared by two busy threads)" \
	"$(field "$out" cpu 0 Retiring)" "$($PY -c "print(100 * $ipc * 1.05 / 3)")" 0.02
near "... Frontend_Bound" "$(field "$out" cpu 1 Frontend_Bound)" 10 0.02
near "... Bad_Speculation" "$(field "$out" cpu 15 Bad_Speculation)" 5 0.02
expect_is "an E-core metric on a P-core: n/a" "$(field "$out" cpu 0 tma_retiring)" missing
expect_is "a P-core metric on an E-core: n/a" "$(field "$out" cpu 16 Retiring)" missing
near "an E-core's IPC: its own fixed counters through cpu_atom" "$(field "$out" cpu 17 ipc)" 0.8 0.02
near "... its clock" "$(field "$out" cpu 17 ghz)" 3.6 0.02
near "the socket's E-core tree from the E-cores alone" "$(field "$out" socket 0 tma_retiring)" 20 0.02
near "... its P-core tree from the P-cores alone" "$(field "$out" socket 0 Frontend_Bound)" 10 0.02
# IPC over both kinds: instructions over cycles of all 24 CPUs (16 at 4.9 GHz, 8 at 3.6 x 0.8)
near "the socket's IPC over both kinds" "$(field "$out" socket 0 ipc)" \
	"$($PY -c "print((16 * $ipc * 4.9 + 8 * 0.8 * 3.6 * 0.8) / (16 * 4.9 + 8 * 3.6 * 0.8))")" 0.02

run "$PMUTOP" --sim alderlake --source perf -b -n 4 -d 0.5 -g 1,2 --format json
expect_rc "level 2 of both kinds" 0
near "E-core level 2: tma_ifetch_latency = 25 x 0.6" "$(field "$out" cpu 18 tma_ifetch_latency)" 15 0.05
near "... tma_ifetch_bandwidth = 25 x 0.4" "$(field "$out" cpu 18 tma_ifetch_bandwidth)" 10 0.05
near "... tma_branch_mispredicts = all of bad speculation" "$(field "$out" cpu 19 tma_branch_mispredicts)" 5 0.05
# Gracemont's core bound is its allocation restrictions: of the 50 x (1 - 0.3 / 0.5) = 20
# not on memory, the RS-full and ROB-full stalls (rs_full_stall 0.05, rob_full_stall 0.03:
# the keys' defaults, of the 0.2 stall cycles without a load) are resources
near "... tma_core_bound = 20 x (1 - 0.08 / 0.2)" "$(field "$out" cpu 21 tma_core_bound)" 12 0.05
near "... tma_resource_bound, the back end's rest" "$(field "$out" cpu 21 tma_resource_bound)" 38 0.05

# a kernel with the P-cores' PMU only: they count, the E-cores are n/a with the reason
run env PMUTOP_SIM_HIDE_PMU=cpu_atom "$PMUTOP" --sim alderlake --source perf -b -n 2 -d 0.5 -g 1 --format json
near "no cpu_atom: the P-cores still count" "$(field "$out" cpu 2 Frontend_Bound)" 10 0.02
expect_is "... the E-cores' IPC is n/a" "$(field "$out" cpu 16 ipc)" missing
expect_match "... their group blocked with the reason" "$out" \
	"an E-core group, and the kernel has no cpu_atom PMU to count the E-cores with"
expect_match "... and every sample says so" "$out" "the E-cores are n/a: the kernel has no cpu_atom PMU"

# screen_until TEXT: the pane's screen once it shows TEXT (60 s at most: a sanitizer build
# beside a loaded machine once took over 10 s to draw a pane), in $screen
screen_until() {
	i=0
	screen=$(tmux -S "$sock" capture-pane -p 2>/dev/null)
	while [ $i -lt 1200 ]; do
		case "$screen" in *"$1"*) return 0 ;; esac
		sleep 0.05
		i=$((i + 1))
		screen=$(tmux -S "$sock" capture-pane -p 2>/dev/null)
	done
	return 1
}

# the screen at 80x24: the E-cores alone (/ E), their tree
if command -v tmux >/dev/null 2>&1; then
	sock="$tmp/tmux"
	tmux -S "$sock" new-session -d -x 80 -y 24 "XDG_CONFIG_HOME='$tmp' $PMUTOP --sim alderlake"
	screen_until "sample 2"
	tmux -S "$sock" send-keys / E Enter
	screen_until "32E" 
	expect_match "80x24, / E: the E-cores' rows, each core marked E" "$screen" "   16  32E    0"
	case "$screen" in
	*"   0    0    0 "*) fail "... no P-core row" "$screen" ;;
	*) pass "... no P-core row" ;;
	esac
	tmux -S "$sock" send-keys Tab Tab Tab Tab Tab Tab Tab
	# (the node's figure once its groups have counted: wait for it, not for its name)
	screen_until "  tma_retiring                        20.00"
	expect_match "the tree pane: the E-cores' tree" "$screen" "E-cores' tree (/ P: P-cores')"
	expect_match "... their retiring node, 20 %" "$screen" "  tma_retiring                        20.00"
	tmux -S "$sock" kill-server 2>/dev/null
	# sorted by util, least first (the E-cores' 80 % would lead), then grouped by kind: a P-core leads
	sock="$tmp/tmux2"
	tmux -S "$sock" new-session -d -x 80 -y 24 "XDG_CONFIG_HOME='$tmp' $PMUTOP --sim alderlake"
	screen_until "sample 2"
	tmux -S "$sock" send-keys F6 u t i l Enter r F6 k i n d Enter
	screen_until "util %^"
	case "$screen" in
	*"util %^"*"P    0["*) pass "F6 kind: the rows by kind of core, each kind by the sort column" ;;
	*) fail "F6 kind: the rows by kind of core, each kind by the sort column" "$screen" ;;
	esac
	tmux -S "$sock" kill-server 2>/dev/null
else
	# tmux is a test dependency (tools/install-deps): without it the screen is unchecked, a failure
	for i in 1 2 3 4 5; do fail "80x24 screen" "no tmux: tools/install-deps installs it"; done
fi

# where the cycles ran, per kind: 16 x 4.9 GHz on the P-cores, 8 x 3.6 GHz x 0.8 on the E-cores
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim alderlake --dump -n 2
expect_match "the header at 80x24: the interval's cycles per kind (78.4 of 101.4 G on P)" "$out" \
	"cycles: P 77% E 23%"

# the Cycles pane on a hybrid (issue 48.5): the E-cores' rows under the P-cores' names, each its
# own tree's node of that name (the kernel's tma_retiring as Retiring), not n/a: retiring 20 %,
# bad speculation 5, front end 25, core bound 12 (the truth above); Memory_Bound, which their
# tree lacks, n/a
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim alderlake:hybrid-split --source msr --dump -n 2 -d 0.3 \
	-g 1,2 --pane cycles
row=$(printf '%s\n' "$out" | grep -E '^ +16 ' | tr -d '*')
set -- $row
near "Cycles pane, E-core 16: Retiring is its tma_retiring" "${3:-0}" 20 0.02
near "... Bad_Speculation its tma_bad_speculation" "${4:-0}" 5 0.02
near "... Frontend_Bound its tma_frontend_bound" "${5:-0}" 25 0.02
near "... Core_Bound its tma_core_bound" "${6:-0}" 12 0.02
expect_is "... Memory_Bound, which its tree lacks, n/a" "${7:-}" "n/a"
expect_match "... and the pane says how the E-cores read" "$out" "E-cores: their own nodes of these names (tma_retiring)"

run "$PMUTOP" --topology-only --sim lunarlake
expect_match "Lunar Lake: 4 P + 4 E, no SMT" "$out" "8 cores, 8 threads: 4 P + 4 E"
run "$PMUTOP" --sim lunarlake --source perf -b -n 3 -d 0.5 -g 1 --format json
expect_rc "Lunar Lake, both kinds' level 1" 0
near "Skymont: tma_retiring = 1.6 x 1.25 uops / 8 slots (TOPDOWN_RETIRING.ALL_P)" \
	"$(field "$out" cpu 4 tma_retiring)" 25 0.02
near "... tma_frontend_bound (TOPDOWN_FE_BOUND.ALL_P, the fixed counter's twin)" \
	"$(field "$out" cpu 5 tma_frontend_bound)" 20 0.02
near "... tma_backend_bound (TOPDOWN_BE_BOUND.ALL_P)" "$(field "$out" cpu 6 tma_backend_bound)" 50 0.02
# level 2 beside level 1: the groups take turns on the counters (scaled: within 5 %)
run "$PMUTOP" --sim lunarlake --source perf -b -n 4 -d 0.5 -g 1,2 --format json
near "... level 2: tma_ifetch_latency = 20 x 0.4" "$(field "$out" cpu 7 tma_ifetch_latency)" 8 0.05
near "... tma_core_bound = 50 x (1 - 0.2 / 0.4) x (1 - 0.08 / 0.2)" "$(field "$out" cpu 4 tma_core_bound)" 15 0.05
near "Lion Cove alone on its core: Retiring = 2.0 x 1.1 uops / 8 slots" \
	"$(field "$out" cpu 0 Retiring)" 27.5 0.02
near "... Frontend_Bound" "$(field "$out" cpu 3 Frontend_Bound)" 15 0.02
if command -v tmux >/dev/null 2>&1; then
	sock="$tmp/tmux3"
	tmux -S "$sock" new-session -d -x 100 -y 40 "XDG_CONFIG_HOME='$tmp' $PMUTOP --sim lunarlake"
	screen_until "sample 2"
	tmux -S "$sock" send-keys Tab
	tmux -S "$sock" send-keys Down Down Down Down Right Right Right e
	screen_until "n/a on this CPU" 
	expect_match "explain on an E-core's P-core metric: n/a and why" "$screen" \
		"n/a on this CPU: a metric of the P-cores, whose PMU (cpu_core) and events this E-core has"
	tmux -S "$sock" kill-server 2>/dev/null
else
	fail "explain's reason" "no tmux: tools/install-deps installs it"
fi

run "$PMUTOP" --sim alderlake --doctor
expect_match "the doctor names the kinds and their PMUs" "$out" \
	"emulated hybrid machine: the P-cores counted through its kernel's cpu_core PMU, the E-cores through cpu_atom"
