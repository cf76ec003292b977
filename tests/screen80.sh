#!/bin/sh
# The screen at 80x24 (the default terminal), tried as a new user and an
# htop user would, in tmux on the emulated machines: help and explain wrap
# to their window and scroll, and close on Esc/q/F1/F10 (keys in them act
# on them only); the SIMULATED label and the source stay in the header;
# the topology's cursor is its own (brackets) under NO_COLOR too, even when
# every cell is crit; a 1,024-CPU machine gets a line per socket with whole
# fields, its minimum and maximum naming their CPU, and a zoom that shows
# the socket's cores and scrolls; a pane wider than the screen scrolls
# sideways; the settings' interval does not delay the first figures;
# --pane opens the screen on a pane; L lists the recent messages in full;
# the doctor of a viewer says where to run it; a zoomed Genoa keeps its
# cursor in sight across the CCXs' rows.
. "$top_srcdir/tests/lib.sh"
plan 35
PY=${PYTHON:-python3}
T="tmux -L pmutop-80-$$"
tmp=$(mktemp -d)
trap 'command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# start ENV ARGS...: pmutop at 80x24 with the environment ENV ("" for none)
start() {
	env=$1
	shift
	tmux_end
	T="tmux -L pmutop-80-$$-$((n = ${n:-0} + 1))" # a server of its own: the last may be going
	$T new-session -d -x 80 -y 24 "cd '$tmp' && XDG_CONFIG_HOME='$tmp/cfg' LANG=C.UTF-8 $env '$PMUTOP' $*; echo EXIT=\$?; sleep 60"
}
trap 'for i in $(seq 1 ${n:-0}); do tmux -L pmutop-80-$$-$i kill-server 2>/dev/null; done; rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/tmux_lib.sh"
key() { $T send-keys -t 0 "$@"; }

# ---- help: wrapped to the window, scrolled, closed by q without quitting
start "" --sim nehalem-ep:memory-bound
wait_for "sample 2" 10 >/dev/null
key F1
if wait_for "─ Help ─" 10 && screen | grep -q "lines 1-20 of"; then pass "F1 at 80x24: a window that says which of its lines it shows"; else fail "F1 at 80x24: a window with its lines" "$(screen)"; fi
long=$(screen | $PY -c 'import sys; print(sum(1 for l in sys.stdin if len(l.rstrip("\n")) > 80))')
expect_is "... every line wrapped to the window (none past 80 columns)" "$long" 0
key End
if wait_for "b  imc_busy" 10; then pass "... End reaches the last group, which the footer sends the user to"; else fail "... End reaches the last group" "$(screen | tail -8)"; fi
key PageUp Home
if wait_for "lines 1-20 of" 10; then pass "... Home goes back to the top"; else fail "... Home goes back to the top" "$(screen | tail -3)"; fi
# End after it: once the help has scrolled to its end, 4 was taken (keys are read in order)
key 4 End
wait_for "b  imc_busy" 10 >/dev/null
expect_match "... a group key in the help toggles nothing" "$(screen)" "─ Help ─"
help_gone() { ! screen | grep -q "─ Help ─"; }
key q
wait_until 10 help_gone
if ! screen | grep -q "─ Help ─" && ! screen | grep -q "EXIT="; then pass "... q closes the help, pmutop goes on"; else fail "... q closes the help only" "$(screen | tail -3)"; fi
if ! screen | grep -q "ports:4"; then pass "... and the group of key 4 is still off"; else fail "... the group of key 4 is still off" "$(screen | tail -3)"; fi
for k in Escape F10; do
	key h
	wait_for "─ Help ─" 10 >/dev/null
	key $k
	wait_until 10 help_gone
	if ! screen | grep -q "─ Help ─" && ! screen | grep -q "EXIT="; then pass "... $k closes it too"; else fail "... $k closes it" "$(screen | tail -3)"; fi
done
# explain: the formula's help wrapped, all of it in the window
key e
wait_for "─ Explain ─" 10 >/dev/null
expect_match "e at 80x24: explain wraps the metric's help inside the window" "$(screen | sed -n 4,5p)" "(unhalted reference cycles /"
key Escape

# ---- L: the recent messages in full
key j
wait_for "no group on key j" 10 >/dev/null
key L
if wait_for "─ Recent messages ─" 10 && screen | grep -q "no group on key j in layout nehalem"; then pass "L lists the recent messages in full"; else fail "L lists the recent messages" "$(screen)"; fi
key L
messages_closed() { ! screen | grep -q "─ Recent messages ─"; }
if wait_until 10 messages_closed; then pass "... L again closes them"; else fail "... L again closes them" "$(screen)"; fi

# ---- a pane wider than the screen: the IMC pane of Skylake scrolls sideways
start "" --sim skylake:memory-bound --pane imc
if wait_for "sample 1" 10 && screen | grep "read_bytes_per_s" | grep -q '>$'; then pass "--pane imc opens the live screen on the IMC pane; its header says columns are out of sight"; else fail "--pane imc opens the IMC pane" "$(screen | sed -n 8,14p)"; fi
key Right Right Right
imc_scrolled() { screen | grep -q "dram_peak_pct" && screen | grep " sock" | grep -q '<'; }
if wait_until 10 imc_scrolled; then pass "... Right scrolls it: dram_peak_pct whole, '<' says what is left of it"; else fail "... Right scrolls the IMC pane" "$(screen | sed -n 8,14p)"; fi

# ---- the header: the SIMULATED label and the source are the last words dropped
start "" --sim skylake:unbalanced-channels --source perf
wait_for "sample 1" 10 >/dev/null
expect_match "80 columns, --source perf, a long scenario: SIMULATED and the source in the header" "$(screen | head -1)" "SIMULATED skylake:unbalanced-channels (perf)"
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim nehalem-ep --source perf --dump -n 1
expect_match "... the raw brand's runs of blanks are gone where it fits (160 columns)" "$(printf '%s\n' "$out" | head -1)" "Intel(R) Xeon(R) CPU X5570 @ 2.93GHz"

# ---- the cursor under NO_COLOR, every cell crit (util >= 90 on a compute-bound machine)
start "NO_COLOR=1" --sim nehalem-ep:compute-bound
wait_for "sample 2" 10 >/dev/null
cells=$(screen | grep -c '\[ *[0-9.]*\]')
expect_is "NO_COLOR, every cell crit: exactly one cell carries the cursor's brackets" "$cells" 1
key Right
cursor_on_1() { screen | grep -q '  1\['; }
wait_until 10 cursor_on_1
expect_match "... Right moves it to cpu 1's cell" "$(screen | grep '  1\[' | head -1)" "1["
esc=$(printf '\033')
if $T capture-pane -p -e -t 0 | grep -q "1$esc\[1;7m\["; then pass "... drawn bold and reversed (crit cells are reversed only), beside the brackets"; else fail "... its own attribute" "$($T capture-pane -p -e -t 0 | sed -n 7p | od -c | head -5)"; fi

# ---- 1,024 CPUs at 80x24: a line per socket, whole fields; zoom shows cores and scrolls
start "" --sim arch-1024:compute-bound
wait_for "sample 1" 15 >/dev/null
lines=$(screen | grep -c '│.socket [0-3] *.* mean ')
expect_is "arch-1024: one line per socket" "$lines" 4
expect_match "... min and max say which CPU" "$(screen | grep 'socket 2')" "(cpu "
box=$(screen | grep -c '^└')
expect_is "... the list's box is whole (its bottom border drawn)" "$box" 1
key Down Enter
if wait_for "zoomed: Esc shows all" 10 && screen | grep -q "rows 1-"; then pass "... Enter zooms into socket 1: its cores, with the rows it shows"; else fail "... Enter zooms into a socket's cores" "$(screen | sed -n 3,14p)"; fi
expect_match "... socket 1's box" "$(screen)" "Socket 1"
for i in 1 2 3 4 5 6 7 8 9 10; do key Down; done
# scrolled: the first row shown is no longer row 1 (how far depends on the rows the footer leaves)
scrolled() { screen | grep -q 'rows [2-9][0-9]*-'; }
if wait_until 10 scrolled; then pass "... Down past the last row shown scrolls the cores"; else fail "... Down scrolls the cores" "$(screen | sed -n 3,14p)"; fi

# ---- Genoa zoomed: each CCX's cores a row of their own, the cursor kept in sight as it scrolls
start "" --sim genoa --source perf
wait_for "sample 1" 15 >/dev/null
key Enter
wait_for "zoomed: Esc shows all" 10 >/dev/null
for i in 1 2 3 4 5 6 7 8 9 10 11; do key Down; done
# scrolled past the first row, the cursor (brackets) on a row shown
zoom_cursor_shown() { screen | grep -q "rows [2-9]" && screen | sed -n 4,22p | grep -q '\['; }
if wait_until 10 zoom_cursor_shown; then pass "Genoa zoomed at 80x24: Down scrolls the CCX rows and the cursor stays in sight"; else fail "Genoa zoomed: the cursor stays in sight" "$(screen | sed -n 3,24p)"; fi

# ---- the settings' interval: the first figures still come at once
mkdir -p "$tmp/cfg/pmutop"
printf 'interval 5\n' >"$tmp/cfg/pmutop/pmutoprc"
start "" --sim nehalem-ep:memory-bound
t0=$(date +%s%N)
wait_for "sample 1" 10 >/dev/null
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
if [ "$ms" -lt 3000 ]; then pass "interval 5 in the settings: the first sample within 3 s ($ms ms)"; else fail "interval 5 in the settings: the first sample at once" "$ms ms"; fi
if wait_for "interval 5.0 s" 10; then pass "... and the interval is the settings' after it"; else fail "... the interval is the settings' after it" "$(screen | sed -n 2p)"; fi
rm -f "$tmp/cfg/pmutop/pmutoprc"

# ---- a layout for another CPU, and the doctor's line
run "$PMUTOP" --sim nehalem-ep --layout "$top_srcdir/layouts/skylake.layout" -b -n 1
expect_match "a layout for other CPUs is refused (exit 2), saying why and how to force it" "$rc $err" "2 pmutop: layout $top_srcdir/layouts/skylake.layout (skylake) is for other CPUs"
run "$PMUTOP" --sim westmere-ep --doctor
case "$out" in *"(null)"*) fail "the doctor names the uncore of Westmere-EP" "$out" ;; *) expect_match "the doctor names the uncore of Westmere-EP" "$out" "Westmere-EP" ;; esac

# ---- every emulated machine, every pane, every group, at 80x24 and 200x60: no line past the
# screen's width, the SIMULATED label in the header, no "(null)"
bad=""
for m in nehalem-ep westmere-ep skylake core2 arch arch-256 arch-1024; do
	for p in threads ports uncore imc memory cycles; do
		for size in 80x24 200x60; do
			w=${size%x*}
			out=$(COLUMNS=$w LINES=${size#*x} "$PMUTOP" --sim "$m" -g all --pane "$p" --dump -n 1 2>&1)
			why=$(printf '%s\n' "$out" | $PY -c '
import sys
w = int(sys.argv[1])
t = sys.stdin.read().split("\n")
long = sum(1 for l in t if len(l) > w)
print(("%d lines past %d columns " % (long, w) if long else "") +
      ("" if "SIMULATED" in t[0] else "no SIMULATED label ") + ("(null) " if "(null)" in "".join(t) else ""))' "$w")
			[ -z "$why" ] || bad="$bad; $m $p $size: $why"
		done
	done
done
expect_is "7 machines x 5 panes x 2 sizes: every screen fits, labelled, without (null)" "$bad" ""

# a pane's hint wraps at 80 columns instead of being cut: the who pane on a scenario without
# tasks names the one to use, whole, over two lines
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim nehalem-ep --pane who --dump -n 1 -d 0.2
hint=$(printf '%s\n' "$out" | grep -A1 "who: n/a" | tr '\n' ' ' | tr -s ' ')
expect_match "80x24: the who pane's hint wraps, the scenario to use whole" "$hint" "--sim icelake-sp:shared-server has a shared server"
# the who pane wants rows (12): at 80x24 the topology folds to a line per socket, the list
# shows more than five rows, and its head (the turns, resctrl) is whole
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim icelake-sp:shared-server --source perf --who --pane who \
	--dump -n 3 -d 0.3
expect_match "80x24, the who pane: the topology a line per socket" "$out" "Sockets: one line each"
rows=$(printf '%s\n' "$out" | sed -n '/cgroup \/ PID process/,/Counters\/thread/p' | grep -c '\.service\|\.slice\|docker\|whole machine')
expect_is "... more than five rows of cgroups ($rows)" "$([ "$rows" -ge 8 ] && echo yes)" yes
expect_match "... its head whole, resctrl's note to its end" "$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')" \
	"tasks in none (the default group):"
