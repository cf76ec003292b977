#!/bin/sh
# The bottleneck line (issue 48.1): under the message line, each socket's
# path to the deepest node of the vendor's top-down tree over its threshold,
# toplev's way, with the figure of that node and what the next level needs.
# With --drill (D on the screen) pmutop turns on the key of the level under
# the flagged node itself, a level at a time, and says "settling" until it is
# counted.  On the emulated Sapphire Rapids' memory-bandwidth-bound and
# memory-latency-bound scenarios (truth_scenarios.sh: the first holds the
# memory bus busy half the cycles, mem_bw_cycles 0.5, the second 1 %), drill
# must end at MEM_Bandwidth and MEM_Latency, the vendor's level-4 nodes of
# each (tree_truth.sh holds their figures to the truth).  The time from start
# to a settled line is printed.
. "$top_srcdir/tests/lib.sh"
plan 17
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
T="tmux -L pmutop-bneck-$$"
trap 'command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/truth_scenarios.sh"

# ---- without drill: the path as far as the keys on count it, and the key that goes deeper
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "sapphire-rapids:$tmp/bandwidth.scn" --source msr -g 1 \
	--dump -n 2 -d 0.3
line=$(printf '%s\n' "$out" | sed -n 4p)
expect_match "the line is under the message line, for both sockets at once" "$line" "bottleneck S0,S1: Backend > Memory_Bound "
expect_match "... the key of the level under it, which is off" "$line" "(key 3 goes deeper)"
# its figure is socket 0's Memory_Bound as batch output gives it (a noise-free scenario: every
# interval alike)
run "$PMUTOP" --sim "sapphire-rapids:$tmp/bandwidth.scn" --source msr -g 1 -b -n 2 -d 0.3 --format json
want=$(printf '%s\n' "$out" | tail -1 | $PY -c 'import pmutop_json, json, sys
print(round(pmutop_json.loads(sys.stdin.read())["sockets"][0]["metrics"]["Memory_Bound"]))' 2>&1)
got=$(printf '%s\n' "$line" | sed -n 's/.*Memory_Bound \([0-9]*\) %.*/\1/p')
expect_is "... with the node's figure, rounded, as batch output gives it" "$got" "$want"
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim nehalem-ep --dump -n 1 -d 0.2
case "$(printf '%s\n' "$out" | sed -n 4p)" in
*bottleneck*) fail "a layout without a tree (Nehalem): no line" "$(printf '%s\n' "$out" | sed -n 4p)" ;;
*) pass "a layout without a tree (Nehalem): no line" ;;
esac
run "$PMUTOP" --sim sapphire-rapids --drill -b -n 1
expect_rc "--drill with -b: bad input" 2
expect_match "... saying why" "$err" "--drill turns keys on the screen of a live run"

# ---- drill on the screen: from level 1 alone to the level-4 node, settled
no_server() { ! $T has-session 2>/dev/null; }
# drill SCENARIO NODE: the line ends at NODE with nothing settling; prints the seconds it took
drill() {
	tmux_end
	wait_until 10 no_server
	t0=$(date +%s.%N)
	$T new-session -d -x 160 -y 50 "cd '$tmp' && XDG_CONFIG_HOME='$tmp/cfg' LANG=C.UTF-8 '$PMUTOP' --sim 'sapphire-rapids:$tmp/$1.scn' --source msr -g 1 -d 0.3 --drill; sleep 60"
	settled() {
		l=$($T capture-pane -p 2>/dev/null | sed -n 4p)
		case "$l" in *"$1 "*) case "$l" in *settling*) return 1 ;; *) return 0 ;; esac ;; esac
		return 1
	}
	if wait_until 60 settled "$2"; then
		$PY -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)"
	else
		echo "never: $($T capture-pane -p | sed -n 4p)"
	fi
}
. "$top_srcdir/tests/tmux_lib.sh"
took=$(drill bandwidth MEM_Bandwidth)
echo "# bandwidth-bound: settled at MEM_Bandwidth in $took s (0.3 s intervals)"
case $took in never*) fail "--drill on a bandwidth-bound run: the line ends at MEM_Bandwidth, settled" "$took" ;;
*) pass "--drill on a bandwidth-bound run: the line ends at MEM_Bandwidth, settled ($took s)" ;; esac
line=$(screen | sed -n 4p)
expect_match "... the path through the vendor's nodes, drill said" "$line" "bottleneck (drill) S0,S1: Backend > Memory > "
# what drill turned on: of levels 3, 4 and 5 (the path, and under MEM_Bandwidth, where nothing
# is flagged) the groups the flagged nodes' children read, not the levels' whole keys: the
# footer says "ROT k/N", k of the key's N groups
foot=$(screen | grep "Counters/thread" -A2)
part=$(printf '%s\n' "$foot" | $PY -c 'import re, sys
t = sys.stdin.read()
for k in "345":
    m = re.search(r"%s TmaL%s:\d+/(\d+) ROT (\d+)/(\d+)" % (k, k), t)
    print("%s:%s" % (k, "part" if m and 0 < int(m.group(2)) < int(m.group(1)) else "no"), end=" ")')
expect_is "... levels 3, 4 and 5 counted in part: the groups the path's levels read" "$part" "3:part 4:part 5:part "
case "$foot" in *"2 TmaL2:1 off"*) pass "... and key 2 left off: level 1's group counts level 2's memory share" ;;
*) fail "... and key 2 left off" "$foot" ;; esac
took=$(drill latency MEM_Latency)
echo "# latency-bound: settled at MEM_Latency in $took s (0.3 s intervals)"
case $took in never*) fail "--drill on a latency-bound run: the line ends at MEM_Latency, settled" "$took" ;;
*) pass "--drill on a latency-bound run: the line ends at MEM_Latency, settled ($took s)" ;; esac
# D stops drill: the line says so no more, the keys stay
$T send-keys -t 0 D
if wait_for "drill off" 10; then pass "D turns drill off, saying so"; else fail "D turns drill off" "$(screen | sed -n 3,4p)"; fi
no_drill() { ! screen | sed -n 4p | grep -q "(drill)"; }
if wait_until 10 no_drill; then pass "... and the line no longer says drill"; else fail "... the line no longer says drill" "$(screen | sed -n 4p)"; fi
# the thread selected in the table has its own path after the sockets' (issue 48.1): F3 finds
# cpu 13 and focuses the table; every thread of this run is latency-bound, so its path goes
# through MEM_Latency too (as deep as the keys drill left on count)
$T send-keys -t 0 F3 1 3 Enter
cpu_line() { screen | sed -n 4p | grep -q "| cpu 13: Backend > Memory > .*MEM_Latency.* [0-9][0-9]* %"; }
if wait_until 10 cpu_line; then pass "the selected thread's path after the sockets': cpu 13's through MEM_Latency, with its figure"; else fail "the selected thread's path: cpu 13" "$(screen | sed -n 4p)"; fi
# the topology's focus (Tab until it) has no thread selected in a table: the sockets' alone
$T send-keys -t 0 Tab
no_cpu() { ! screen | sed -n 4p | grep -q "| cpu "; }
if wait_until 10 no_cpu; then pass "... and none with the topology in focus"; else fail "... none with the topology in focus" "$(screen | sed -n 4p)"; fi
# at 80x24 the line shares the message line, too narrow for the sockets' paths and the
# selection's: the selected thread's alone ("bottleneck cpu 13: ..."; the sockets' are in their
# rows of the table), the sockets' again once nothing is selected
$T resize-window -t 0 -x 80 -y 24
$T send-keys -t 0 F3 1 3 Enter
small_line() { screen | sed -n 3p | grep -q "^ bottleneck cpu 13: Backend > Memory > .*MEM_Latency.* [0-9][0-9]* %"; }
if wait_until 15 small_line; then pass "80x24: the selected thread's path on the message line, whole"; else fail "80x24: the selected thread's path on the message line" "$(screen | sed -n 3p)"; fi
small_socks() { screen | sed -n 3p | grep -q "^ bottleneck S0,S1: Backend > "; }
# Tab goes round the panes to the topology (which selects no thread nor core)
for i in 1 2 3 4; do
	$T send-keys -t 0 Tab
	wait_until 3 small_socks && break
done
if wait_until 15 small_socks; then pass "... and the sockets' with the topology in focus"; else fail "... the sockets' with the topology in focus" "$(screen | sed -n 3p)"; fi
