#!/bin/sh
# The interactive view in a real terminal (tmux): what a user sees at
# 160x50 and 80x24, keys that toggle groups, pause, change the interval,
# filter, aggregate, explain; live resize; the settings file; quit and
# Ctrl-C restore the terminal, and (on the fake device tree) the registers.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 77

T="tmux -L pmutop-test-$$"
cfg=$(mktemp -d)
fakehw_cleanup='command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$cfg"'
trap 'fakehw_stop' EXIT

# start W H ARGS...: pmutop in a fresh terminal of W x H
start() {
	w=$1
	h=$2
	shift 2
	tmux_end
	# the old server may still be going away: retry until the new session is there
	i=0
	until $T new-session -d -x "$w" -y "$h" \
		"cd '$cfg' && XDG_CONFIG_HOME='$cfg' LANG=C.UTF-8 '$PMUTOP' $*; echo EXIT=\$?; sleep 60" \
		2>/dev/null && $T has-session 2>/dev/null; do
		[ $i -lt 50 ] || break
		sleep 0.1
		i=$((i + 1))
	done
}

. "$top_srcdir/tests/tmux_lib.sh"

key() { $T send-keys -t 0 "$@"; }

# table: the thread rows of the screen (cpu core socket and values)
table() { screen | grep -E '^[ @] +[0-9]+ +[0-9]+ +[0-9]+ ' ; }

check() { # NAME COMMAND...: pass when COMMAND succeeds
	name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "screen:" "$(screen)"; fi
}

start 160 50 --sim nehalem-ep:memory-bound
check "160x50: the first sample is on screen" wait_for "sample 1"
s=$(screen)
expect_match "header names the emulated source" "$s" "SIMULATED nehalem-ep:memory-bound"
expect_match "socket 0 holds cpus 0-3 and 8-11" "$s" "Socket 0"
expect_match "socket 0's CPU list" "$s" "cpus 0-3,8-11"
expect_match "socket 1's CPU list" "$s" "cpus 4-7,12-15"
# socket 1's box is the right-hand one, and its core 4 holds cpus 4 and 12
col=$(printf '%s\n' "$s" | grep -m1 'core 4' | awk '{ print index($0, "core 4") }')
if [ "${col:-0}" -gt 80 ]; then pass "socket 1 is drawn beside socket 0"; else fail "socket 1 is drawn beside socket 0" "core 4 at column $col"; fi
rows=$(table)
expect_match "thread table: cpu 8 is core 0 of socket 0" "$rows" "    8    0    0 "
expect_match "thread table: cpu 15 is core 7 of socket 1" "$rows" "   15    7    1 "
expect_lines "one row per hardware thread" "$rows" 16
wait_for "sample 2"
later=$(table)
if [ "$later" != "$rows" ]; then pass "values change between refreshes"; else fail "values change between refreshes" "$rows"; fi
# arrows on the topology (it has the focus at start) go where they point: cpu 1 is right of cpu 0
key Home Right e
check "Right on the topology moves to the cell drawn to the right (cpu 1)" wait_for "on cpu 1:" 10
key Escape Down e
check "Down from cpu 1 moves to the cell drawn below it (cpu 9)" wait_for "on cpu 9:" 10
key Escape
closed() { ! screen | grep -q "─ Explain ─"; }
i=0
while ! closed && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done

# a group key: ports join stalls, the two take turns
expect_match "ports are off before its key" "$(screen)" "4 ports:4 off"
key 4
check "key 4 turns the ports group on (rotating with stalls)" wait_for "4 ports:4 ROT" 10
check "its metrics become columns" wait_for "port0" 10
# htop's F6: sort by a column named at the prompt (its header is marked)
key F6
check "F6 asks for the sort column" wait_for "Sort by column" 10
key i p c Enter
check "F6 ipc sorts by ipc" wait_for "ipcv" 10
key F6 n o n e Enter
# the mouse: a click on a column header sorts by it (X10 report, as the terminal sends it)
click() { # X Y: a left click at column X, line Y, both from 1
	b=$(printf "\\$(printf %o 32)"); r=$(printf "\\$(printf %o 35)")
	x=$(printf "\\$(printf %o $((32 + $1)))"); y=$(printf "\\$(printf %o $((32 + $2)))")
	$T send-keys -t 0 -l "$(printf '\033[M')$b$x$y"
	$T send-keys -t 0 -l "$(printf '\033[M')$r$x$y"
}
has_header() { screen | grep -q "cpu core sock.*ghz"; }
wait_until 10 has_header
hy=$(screen | grep -n "cpu core sock" | cut -d: -f1)
hx=$(screen | grep "cpu core sock" | awk '{ print index($0, "ghz") }')
click $((hx + 1)) "$hy"
check "a click on the ghz header sorts by it" wait_for "ghzv" 10
# F2: the column chooser; hide ghz, the table loses its column
key F2
check "F2 opens the column chooser" wait_for "Columns of the table" 10
key Down Space
check "Space hides the column under the cursor" wait_for "[ ] ghz" 10
key Escape
nghz() { ! screen | grep "cpu core sock" | grep -q " ghz"; }
check "the hidden column is gone from the table" wait_until 10 nghz
key F2 Space Escape
# F3 finds a CPU: the explain overlay is about it
key F3 1 3 Enter e
check "F3 13 selects cpu 13 (explain says so)" wait_for "on cpu 13" 10
key Escape
key F4
check "F4 asks for the CPU filter" wait_for "CPU filter" 10
key Escape

# pause freezes the figures
key Space
check "space pauses" wait_for "PAUSED" 10
frozen=$(table)
# two intervals (1 s) and more: no figure moves at any look
still() { [ "$(table)" = "$frozen" ]; }
if holds_for 2.2 still; then pass "paused figures do not move"; else fail "paused figures do not move" "$(table | head -3)"; fi
key Space
check "space resumes" wait_for "LIVE" 10

key +
check "+ lengthens the interval" wait_for "interval 2.0 s" 10
key - -
check "- shortens it" wait_for "interval 0.5 s" 10

key /
key 0-3 Enter
check "the CPU filter shows only the listed CPUs" wait_for "filter: 0-3" 10
four_rows() { [ "$(table | wc -l)" = 4 ]; }
wait_until 5 four_rows
n=$(table | wc -l)
if [ "$n" = 4 ]; then pass "filter 0-3 leaves 4 rows"; else fail "filter 0-3 leaves 4 rows" "$n rows" "$(screen)"; fi
# the filter's words, shared with -b --cpus (topo_filter.c): a socket, and one the machine lacks
key / BSpace BSpace BSpace socket1 Enter
check "filter socket1: socket 1's CPUs" wait_for "filter: socket1" 10
n=$(table | awk '$3 == 1' | wc -l)
if [ "$n" = 8 ] && [ "$(table | wc -l)" = 8 ]; then pass "... its 8 rows alone"; else fail "... its 8 rows alone" "$n of $(table | wc -l) rows" "$(screen)"; fi
key / BSpace BSpace BSpace BSpace BSpace BSpace BSpace socket9 Enter
check "filter socket9: refused, saying how many sockets there are" wait_for "CPU filter 'socket9': no socket9 on this machine (it has 2 sockets)" 10
key / BSpace BSpace BSpace BSpace BSpace BSpace BSpace Enter a
check "a aggregates per core" wait_for " core sock cpus" 10
# the column cursor (Left, Right) picks the cell e explains: the first column, util
key a a Left Left Left Left Left Left e
check "e explains the cell under the column cursor with its formula" wait_for "util = 100 * ref_cycles / tsc" 10
key Escape Right e
check "Right moves the column cursor: e explains the next column (ghz)" wait_for "ghz = " 10
key Escape

# the memory controller and uncore panes (imc is on by default on nehalem)
i=0
while ! screen | grep -q '\[IMC\]' && [ $i -lt 6 ]; do key Tab; sleep 0.05; i=$((i + 1)); done
check "Tab reaches the IMC pane with a row per channel" wait_for " 1 CH2 " 10
check "the IMC pane shows read bandwidth per channel" wait_for "read_bytes_per_s" 10
# a channel's line can be selected and explained: its events, their uncore selects, counts
key Down e
check "e on an IMC channel line explains it, with the uncore select written" wait_for "uncore sel" 10
check "and the counts as read and scaled" wait_for "uncore sel 40022C  read" 10
expect_match "explained on that channel" "$(screen)" "on socket 0 channel 1"
key Escape
key n
check "key n turns the home-logic group on (rotating with imc)" wait_for "n qhl:7 ROT" 10
key BTab
check "Shift-Tab to the uncore pane: local and remote DRAM per socket" wait_for "dram_by_remote_bytes_per_s" 10
key n
check "key n turns it off again" wait_for "n qhl:7 off" 10

$T resize-window -t 0 -x 60 -y 20
check "below 80x24 it says so" wait_for "too small" 10
$T resize-window -t 0 -x 160 -y 50
check "back to 160x50 it draws again" wait_for "Socket 1" 10

key q
check "q quits with status 0" wait_for "EXIT=0" 10
case "$(screen)" in *"pmutop  "*) fail "the terminal is restored" "$(screen)" ;; *"EXIT=0"*) pass "the terminal is restored" ;; *) fail "the terminal is restored" "$(screen)" ;; esac
rc=$(cat "$cfg/pmutop/pmutoprc" 2>/dev/null)
expect_match "settings saved on quit" "$rc" "interval 0.5"

# the next start takes them back
start 80 24 --sim nehalem-ep:memory-bound
check "80x24: settings restored (interval)" wait_for "interval 0.5 s" 10
check "80x24: settings restored (groups)" wait_for "ports:4 ROT" 10
s=$(screen)
expect_match "80x24: both sockets fit" "$s" "Socket 1"
expect_match "80x24: the key bar is there" "$s" "F1Help"
expect_match "80x24: quit stays on the key bar" "$s" "qQuit"
# the table is wider than 80 columns: it says how many are out of sight, Right reaches them
key Tab
head_more() { screen | grep "cpu core sock" | grep -q '[0-9]>'; }
check "80x24: the table's header says columns are out of sight" wait_until 10 head_more
key Right Right Right Right Right Right
table_left() { screen | grep "cpu core sock" | grep -q '<[0-9]'; }
check "80x24: the column cursor moving right scrolls the table sideways" wait_until 10 table_left
# the IMC pane's channel columns scroll the same way (with the queue latencies: wider than 80)
i=0
while ! screen | grep -q '\[IMC\]' && [ $i -lt 6 ]; do key Tab; sleep 0.05; i=$((i + 1)); done
key k
imc_more() { screen | grep "sock chan" | grep -q '>$'; }
check "80x24: the IMC pane says channel columns are out of sight" wait_until 10 imc_more
key Right
imc_left() { screen | grep "sock chan" | grep -q 'chan *<'; }
check "80x24: Right scrolls the IMC pane sideways" wait_until 10 imc_left
key C-c
check "Ctrl-C ends it with 128+SIGINT" wait_for "EXIT=130" 10

# a bad settings file: one warning with file:line, the default kept, no refusal
printf 'interval 0.5\ninterval fast\n' >"$cfg/pmutop/pmutoprc"
start 160 50 --sim nehalem-ep:idle
check "a bad settings line is named with file:line" wait_for "pmutoprc:2: interval 'fast'" 10
key q
wait_for "EXIT=0" 10

# on the fake device tree: q puts every register back
fakehw_start westmere-ep:memory-bound
regs set
before=$(regs dump)
start 160 50 --root "$dir" -g all
check "live on the fake device tree" wait_for "sample 1" 6
key q
wait_for "EXIT=0" 10
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "q restores every register"; else fail "q restores every register" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# the terminal hangs up under a pmutop not of its session (setsid: no SIGHUP
# comes): it puts every register back and ends, instead of spinning on the
# dead terminal's endless reads of nothing (51 % of a CPU, for ever, before)
tmux_end
rm -f "$cfg/hup.rc"
wait_until 10 $T new-session -d -x 80 -y 24 \
	"cd '$cfg' && XDG_CONFIG_HOME='$cfg' setsid -w sh -c '\"$PMUTOP\" --root \"$dir\" -g all; echo \$? >hup.rc'"
check "a pmutop of its own session is live" wait_for "sample 1" 10
$T kill-server
if wait_until 20 test -s "$cfg/hup.rc"; then
	expect_is "the terminal hung up: pmutop ends with status 1" "$(cat "$cfg/hup.rc")" 1
else
	fail "the terminal hung up: pmutop ends with status 1" "still running 20 s after the hang-up"
	pkill -TERM -f -- "--root $dir -g all" # a signal still ends it the normal way
	wait_until 20 test -s "$cfg/hup.rc"
fi
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "... with every register put back"; else fail "... with every register put back" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# the settings of a run with every group on (a groups line of 600 characters on Sapphire
# Rapids) read back whole: they were cut at 255 and refused ("no group 'TmaInf'")
rm -f "$cfg/pmutop/pmutoprc"
start 160 50 --sim sapphire-rapids --source msr -g all
wait_for "sample 2" 15 >/dev/null
key q
wait_for "EXIT=0" 10 >/dev/null
start 160 50 --sim sapphire-rapids --source msr
check "every group's settings (-g all) read back: level 4 counts again" wait_for "4 TmaL4:75/10 ROT" 15
case "$(screen)" in *"has no group"*) fail "... without a settings error" "$(screen | grep 'has no group')" ;; *) pass "... without a settings error" ;; esac
# a settings file of a pmutop before psys: Power and Power.ram on bring Power.psys (key w) along
printf 'groups TmaL1,Power,Power.ram\n' >"$cfg/pmutop/pmutoprc"
start 160 50 --sim sapphire-rapids:memory-bound --source msr
check "an older settings file's Power groups bring the platform's power (psys) with them" wait_for "platform 7" 15
# a settings file written under another layout (a home directory that machines of other CPUs
# share): its groups and hidden columns name that layout's, and this one's defaults stay (the
# layout line last, as a file from before the line gets it when saved)
printf 'interval 0.5\ngroups stalls\nhide none\nlayout nehalem\n' >"$cfg/pmutop/pmutoprc"
start 160 50 --sim sapphire-rapids:memory-bound --source msr
check "another layout's settings file: its interval applies" wait_for "interval 0.5 s" 15
check "... its groups left at this layout's defaults: level 1 counts" wait_for "1 TmaL1:1 LIVE" 15
case "$(screen)" in
*"has no group"* | *pmutoprc:*) fail "... and no settings error for another layout's groups" "$(screen | grep 'pmutoprc')" ;;
*) pass "... and no settings error for another layout's groups" ;;
esac
head=$(screen | grep -E '^ +(cpu +core|core +sock) ' | head -1)
case "$head" in
*cpu_operating_frequency* | *cpu_utilization*) fail "... and Intel's names of pmutop's own columns stay hidden (its hide none is not this layout's)" "$head" ;;
*ghz*) pass "... and Intel's names of pmutop's own columns stay hidden (its hide none is not this layout's)" ;;
*) fail "... and Intel's names of pmutop's own columns stay hidden" "$(screen)" ;;
esac
key q
wait_for "EXIT=0" 10 >/dev/null
expect_match "the settings saved name their layout" "$(cat "$cfg/pmutop/pmutoprc")" "layout intel_spr"

# no usable counters (this kind of machine: no msr device): the topology with
# the OS's figures and the reason, instead of a refusal
if [ -e /dev/cpu/0/msr ]; then
	for i in 1 2 3 4; do echo "ok $((tap_n + i)) # SKIP this machine has an msr device"; done
	tap_n=$((tap_n + 4))
else
	start 160 50
	check "without counters it still shows the machine" wait_for "OS (no counters)" 10
	check "with the reason and the way out" wait_for "No counters:" 10
	wait_for "sample 2" 10
	# the first figure after cpu, core and socket (the history column before it is glyphs)
	util=$(table | head -1 | awk '{ for (i = 4; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+$/) { print $i; exit } }')
	case "$util" in
	*[0-9].[0-9]*) pass "and utilisation from /proc/stat ($util %)" ;;
	*) fail "and utilisation from /proc/stat" "cpu 0's util: '$util'" "$(screen)" ;;
	esac
	key q
	check "q quits it with status 0" wait_for "EXIT=0" 10
fi
