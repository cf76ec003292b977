#!/bin/sh
# A command run under pmutop (pmutop [OPTIONS] -- COMMAND): batch mode ends
# with a summary of the run and the command's exit status; the last part of
# the run is sampled when the command ends; Ctrl-C and other stops reach
# the command first; -n stops it; phase marks from the command (its
# $PMUTOP_MARK_FIFO) and from another shell (pmutop --mark), garbage and a
# flood on the FIFO; --pin; bad input; the live view in tmux (the command's
# state in the header, "finished (exit N)" kept until q).
. "$top_srcdir/tests/lib.sh"
plan 57
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
T="tmux -L pmutop-run-$$"
trap 'command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
# this test's own marks directory: other tests' pmutops (in /tmp) do not get its marks
export XDG_RUNTIME_DIR="$tmp" TMPDIR="$tmp"
SIM="--sim nehalem-ep:memory-bound"

# ---- exit status and the summary (text)
t0=$(date +%s.%N)
run "$PMUTOP" $SIM -b -d 0.3 -g stalls -- sh -c 'echo from-the-command; sleep 0.8; exit 3'
t1=$(date +%s.%N)
expect_rc "the command's exit status is pmutop's" 3
expect_match "the summary names the command and how it ended" "$out" "# summary: sh (pid "
# how long the command ran: at least its 0.8 s sleep, at most pmutop's own wall time (a loaded
# machine stretches both, so no fixed upper figure)
took=$(printf '%s\n' "$out" | sed -n 's/.*finished (exit 3) after \([0-9.]*\) s.*/\1/p' | head -1)
if [ -n "$took" ] && awk -v t="$took" -v a="$t0" -v b="$t1" 'BEGIN { exit !(t >= 0.8 && t <= b - a + 0.05) }'; then
	pass "... finished (exit 3) after its run time ($took s)"
else
	fail "... finished (exit 3) after its run time (0.8 s to pmutop's wall time)" "$(printf '%s\n' "$out" | grep -m1 'summary')"
fi
expect_match "mean and peak tables follow" "$(printf '%s\n' "$out" | grep -c -e '^# mean over the run' -e '^# peak')" "2"
expect_match "the command's output goes to stderr, not into the samples" "$err" "from-the-command"
case "$out" in *from-the-command*) fail "stdout holds only pmutop's figures" "$out" ;; *) pass "stdout holds only pmutop's figures" ;; esac

# ---- JSON: the summary agrees with the samples; the last part of the run is sampled
run "$PMUTOP" $SIM -b -d 1 -g stalls --format json -- sleep 1.45
expect_rc "a command that ends well: 0" 0
printf '%s\n' "$out" >"$tmp/run.json"
res=$($PY - "$tmp/run.json" <<'PYEOF'
import pmutop_json, json, sys
S, summ = [], None
for line in open(sys.argv[1]):
    o = pmutop_json.loads(line)
    if "summary" in o:
        summ = o["summary"]
    else:
        S.append(o)
assert summ, "no summary"
# the run: a short first interval, a full one, and the part after it up to the command's end
total = sum(s["interval_s"] for s in S)
assert 1.3 <= total <= 1.8, "samples cover %.3f s of a 1.45 s run" % total
assert S[-1]["interval_s"] < 0.7, "the last sample is the part the command ran in: %.3f s" % S[-1]["interval_s"]
assert summ["samples"] == len(S) and abs(summ["seconds"] - total) < 1e-3, (summ["samples"], summ["seconds"], total)
# mean: each sample weighted by its interval; peak: the highest, per thread, core and socket
for scope in ("threads", "cores", "sockets"):
    for i in range(len(S[0][scope])):
        for m in ("ipc", "exec_stall_pct"):
            vals = [(s[scope][i]["metrics"][m], s["interval_s"]) for s in S]
            want = sum(v * w for v, w in vals) / sum(w for v, w in vals)
            got = summ["mean"][scope][i]["metrics"][m]
            assert abs(got - want) <= 1e-4 * abs(want), (scope, i, m, got, want)
            assert summ["peak"][scope][i]["metrics"][m] == max(v for v, w in vals), (scope, i, m)
# never measured is not written (the ports group is off)
assert "port0" not in summ["mean"]["threads"][0]["metrics"]
print("ok %d samples, %.3f s" % (len(S), total))
PYEOF
)
expect_match "JSON: samples cover the whole run, the last one its end; mean and peak agree with them" "$res" "ok "

# ---- CSV: mean and peak rows of every scope, channels included when an uncore group counts
run "$PMUTOP" $SIM -b -d 0.3 -g stalls,imc --format csv -- sleep 0.5
res=$(printf '%s\n' "$out" | $PY -c '
import csv, sys
rows = [{k.split(" (")[0]: v for k, v in r.items()} for r in csv.DictReader(sys.stdin)]
got = sorted({(r["seq"], r["scope"]) for r in rows if r["seq"] in ("mean", "peak")})
want = sorted((k, s) for k in ("mean", "peak") for s in ("thread", "core", "socket", "channel"))
assert got == want, got
m = [r for r in rows if r["seq"] == "mean" and r["scope"] == "channel"]
assert len(m) == 6 and all(float(r["read_bytes_per_s"]) > 1e9 for r in m), [r["read_bytes_per_s"] for r in m]
print("ok")')
expect_match "CSV: rows of seq mean and peak for threads, cores, sockets and channels" "$res" "ok"

# ---- stops: passed on to the command, which ends first; pmutop's status is the command's
# samples_in FILE N PATTERN: FILE holds N lines matching PATTERN (a sample each)
samples_in() { [ "$(grep -c "$3" "$1" 2>/dev/null)" -ge "$2" ]; }
"$PMUTOP" $SIM -b -d 0.3 -g stalls --format json -- sleep 30 >"$tmp/int.json" 2>"$tmp/int.err" &
pid=$!
wait_until 30 samples_in "$tmp/int.json" 1 '"seq"'
t0=$(date +%s.%N)
kill -INT $pid
wait $pid
rc=$?
t1=$(date +%s.%N)
expect_rc "Ctrl-C (SIGINT): the command is stopped by it and pmutop exits with its status" 130
expect_match "... at once" "$($PY -c "print($t1 - $t0 < 3)")" "True"
expect_match "... and says how the command ended" "$(cat "$tmp/int.err")" "finished (killed by INT)"
expect_match "... after the summary of what ran" "$(tail -1 "$tmp/int.json")" '{"summary":'

"$PMUTOP" $SIM -b -d 0.3 -g stalls -- sh -c 'trap "" TERM; sleep 30' >"$tmp/term.out" 2>"$tmp/term.err" &
pid=$!
wait_until 30 samples_in "$tmp/term.out" 1 '^# sample '
kill -TERM $pid
# two more samples after the stop: it samples on while the command has its time
n=$(grep -c '^# sample ' "$tmp/term.out")
if wait_until 30 samples_in "$tmp/term.out" $((n + 2)) '^# sample ' && kill -0 $pid 2>/dev/null; then pass "a command that ignores SIGTERM keeps pmutop sampling while it gets time to end"; else fail "a command that ignores SIGTERM keeps pmutop sampling while it gets time to end" "$(cat "$tmp/term.err")"; fi
kill -TERM $pid
wait $pid
rc=$?
expect_rc "... and is killed after its time (10 s): pmutop's status is its" 137

run "$PMUTOP" $SIM -b -n 2 -d 0.3 -g stalls -- sleep 30
expect_rc "-n ends the run, and the command with it (SIGTERM)" 143
expect_match "... after -n samples and the summary" "$(printf '%s\n' "$out" | grep -c '^# sample ')" "3"

# ---- marks: from the command (its FIFO) and from another shell
"$PMUTOP" $SIM -b -d 0.3 -g stalls --format json -- sh -c 'sleep 0.7; echo "warm-up done" > "$PMUTOP_MARK_FIFO"; sleep 30' >"$tmp/marks.json" 2>"$tmp/marks.err" &
pid=$!
# the second mark once the first is in the output
wait_until 30 samples_in "$tmp/marks.json" 1 '"warm-up done"'
run "$PMUTOP" --mark "phase 2: copy"
expect_rc "pmutop --mark reaches the running pmutop" 0
wait_until 30 samples_in "$tmp/marks.json" 1 '"phase 2: copy"'
kill -INT $pid
wait $pid
res=$($PY - "$tmp/marks.json" <<'PYEOF'
import pmutop_json, json, sys
marks = [pmutop_json.loads(l) for l in open(sys.argv[1]) if '"mark"' in l]
texts = [m["mark"] for m in marks]
assert texts == ["warm-up done", "phase 2: copy"], texts
# the command slept 0.7 s before its mark; the other came after it
assert 0.7 <= marks[0]["elapsed_s"] < marks[1]["elapsed_s"], [m["elapsed_s"] for m in marks]
print("ok")
PYEOF
)
expect_match "marks from the command's FIFO and from --mark, in order, at their times" "$res" "ok"
run "$PMUTOP" --mark "late"
expect_rc "--mark with no pmutop running fails" 1
expect_match "... saying so" "$err" "no pmutop is running for this user"
run "$PMUTOP" --mark ""
expect_rc "an empty mark is bad input" 2

# text output shows a mark as a comment line
"$PMUTOP" $SIM -b -d 0.3 -g stalls -- sh -c 'sleep 0.5; echo "phase B" > "$PMUTOP_MARK_FIFO"; sleep 0.5' >"$tmp/marks.txt" 2>/dev/null
expect_match "text output: '# mark TIME (+S s): TEXT'" "$(grep '^# mark' "$tmp/marks.txt")" "s): phase B"

# garbage and a flood on the FIFO: sampling goes on at its pace, the output stays valid
"$PMUTOP" $SIM -b -d 0.2 -g stalls --format json -- sh -c '
	sleep 0.3
	head -c 2000000 /dev/urandom > "$PMUTOP_MARK_FIFO"
	i=0; while [ $i -lt 3000 ]; do echo "flood $i"; i=$((i + 1)); done > "$PMUTOP_MARK_FIFO"
	sleep 0.5
	printf "%0500d\n" 7 > "$PMUTOP_MARK_FIFO"
	sleep 0.3
	echo "after the flood" > "$PMUTOP_MARK_FIFO"
	sleep 1' >"$tmp/flood.json" 2>/dev/null
res=$($PY - "$tmp/flood.json" 2>&1 <<'PYEOF'
import pmutop_json, json, sys
samples, marks = [], []
for l in open(sys.argv[1]):
    o = pmutop_json.loads(l)   # every line parses: the marks were made printable
    if "mark" in o:
        marks.append(o["mark"])
    elif "seq" in o:
        samples.append(o)
assert all(all(32 <= ord(c) < 127 for c in m) and len(m) <= 120 for m in marks), "unprintable or long mark"
# a flood is cut (16 marks a wake-up): of the ~7800 lines of random bytes, written faster
# than they are read, most are dropped (the 3000 echo lines come slowly enough to pass);
# what comes after the flood gets through
garbage = [m for m in marks if not m.startswith("flood ") and m not in ("after the flood", "0" * 120)]
assert len(garbage) < 2000, len(garbage)
assert len([m for m in marks if m.startswith("flood ")]) <= 3000
assert "after the flood" in marks, "a mark after the flood arrives"
assert "0" * 120 in marks, "a long line is kept, cut to 120 characters"
# 2 s of run at 0.2 s: the intervals kept their length while the FIFO was flooded
# (on a loaded machine one may run late and the next early: their mean stays)
iv = [s["interval_s"] for s in samples[1:-1]]
assert len(samples) >= 8 and abs(sum(iv) / len(iv) - 0.2) < 0.03 and max(iv) < 0.45, (len(samples), iv)
print("ok %d marks, %d samples" % (len(marks), len(samples)))
PYEOF
)
expect_match "garbage and a flood on the FIFO: every line valid, marks printable, intervals on time, later marks arrive" "$res" "ok "

# ---- bad input
run "$PMUTOP" $SIM -b -- /no/such/program
expect_rc "a command that does not exist: 127" 127
expect_match "... with one clear message" "$err" "cannot run '/no/such/program': No such file or directory"
run "$PMUTOP" $SIM -b -- "$tmp"
expect_rc "a command that cannot be run (a directory): 126" 126
run "$PMUTOP" $SIM -b sleep 1
expect_rc "a command without -- is bad input" 2
expect_match "... and the message says to put -- before it" "$err" "put -- before it: pmutop -- sleep"
run "$PMUTOP" $SIM --dump -- sleep 1
expect_rc "--dump with a command: 2" 2
run "$PMUTOP" --doctor -- sleep 1
expect_rc "--doctor with a command: 2" 2
run "$PMUTOP" $SIM -b --pin 0 -- true
expect_rc "--pin with --sim (the command does not run on the emulated CPUs): 2" 2
run "$PMUTOP" -b --pin 0
expect_rc "--pin without a command: 2" 2

# ---- --pin on this machine (its own figures: no counters here, or counters: either way)
run "$PMUTOP" -b -d 0.2 --pin 0 -- sh -c 'grep Cpus_allowed_list /proc/self/status'
expect_rc "--pin 0 runs the command" 0
expect_match "... on CPU 0 only" "$err" "$(printf 'Cpus_allowed_list:\t0')"
want=$($PY -c '
import os
print(",".join(str(c) for c in sorted(int(d[3:]) for d in os.listdir("/sys/devices/system/cpu") if d[:3] == "cpu" and d[3:].isdigit() and os.path.exists("/sys/devices/system/cpu/%s/topology/physical_package_id" % d) and open("/sys/devices/system/cpu/%s/topology/physical_package_id" % d).read().strip() == open("/sys/devices/system/cpu/cpu0/topology/physical_package_id").read().strip())))')
run "$PMUTOP" -b -d 0.2 --pin socket0 -- sh -c 'cat /sys/fs/cgroup/cpuset.cpus.effective >/dev/null 2>&1; taskset -cp $$'
expect_rc "--pin socket0 runs the command" 0
got=$(printf '%s\n' "$err" | sed -n 's/.*current affinity list: //p' | $PY -c '
import sys
s = set()
for part in sys.stdin.read().strip().split(","):
    if "-" in part:
        a, b = part.split("-"); s.update(range(int(a), int(b) + 1))
    elif part:
        s.add(int(part))
print(",".join(str(c) for c in sorted(s)))')
expect_match "... on the CPUs of socket 0 ($want)" "$got" "$want"
run "$PMUTOP" -b --pin 4096 -- true
expect_rc "--pin to a CPU this machine lacks: 2" 2
expect_match "... saying so" "$err" "CPU 4096 is not on this machine"
run "$PMUTOP" -b --pin socket99 -- true
expect_match "--pin to a socket this machine lacks says so" "$err" "this machine has no socket 99"

# ---- the live view: the command in the header, its end kept on screen until q
$T new-session -d -x 160 -y 50 "cd '$tmp' && XDG_CONFIG_HOME='$tmp' XDG_RUNTIME_DIR='$tmp' TMPDIR='$tmp' LANG=C.UTF-8 '$PMUTOP' $SIM -- sh -c 'sleep 1.5; exit 4'; echo EXIT=\$?; sleep 30"
. "$top_srcdir/tests/tmux_lib.sh"
# the server tmux_end ended is gone (its socket answers no more): the next one starts afresh
tmux_gone() { ! $T ls >/dev/null 2>&1; }
if wait_for "running 0:0"; then pass "live: the header shows the command running, with its pid"; else fail "live: the header shows the command running, with its pid" "$(screen | head -3)"; fi
if wait_for "finished (exit 4) after 1." 6; then pass "live: its end is shown: finished (exit 4) after T"; else fail "live: its end is shown: finished (exit 4) after T" "$(screen | head -3)"; fi
# two samples later it is still there
seq0=$(screen | sed -n 's/.* sample \([0-9]*\) .*/\1/p' | head -1)
wait_for "sample $((${seq0:-0} + 2)) " 10 >/dev/null
expect_match "live: the screen stays after it ended" "$(screen | head -3)" "finished (exit 4)"
expect_match "live: and says where its output went" "$(screen | sed -n 3p)" "its output: $tmp/pmutop-sh-"
$T send-keys -t 0 q
if wait_for "EXIT=4"; then pass "live: q quits, with the command's exit status as in batch mode"; else fail "live: q quits with the command's status" "$(screen | tail -3)"; fi
tmux_end

# ---- q while the command runs: the popups take q for themselves; quitting asks first
no_server() { ! $T has-session 2>/dev/null; }
wait_until 10 no_server
$T new-session -d -x 80 -y 24 "cd '$tmp' && XDG_CONFIG_HOME='$tmp' XDG_RUNTIME_DIR='$tmp' TMPDIR='$tmp' LANG=C.UTF-8 '$PMUTOP' $SIM -- sleep 300; echo EXIT=\$?; sleep 30"
wait_for "running 0:0" 10 >/dev/null
cmd=$(pgrep -f -n '^sleep 300$')
$T send-keys -t 0 F1
wait_for "Help" 10 >/dev/null
$T send-keys -t 0 q
run_help_gone() { ! screen | grep -q "─ Help"; }
wait_until 10 run_help_gone
if [ -n "$cmd" ] && kill -0 "$cmd" 2>/dev/null && ! screen | grep -q "EXIT=" && ! screen | grep -q "─ Help"; then pass "80x24: q in help closes the help only; the command runs on"; else fail "q in help closes the help only" "$(screen | head -4)"; fi
$T send-keys -t 0 q
if wait_for "The command still runs: y stops it, l leaves it running" 10; then pass "80x24: q while the command runs asks first"; else fail "q while the command runs asks first" "$(screen | head -4)"; fi
$T send-keys -t 0 x
run_ask_gone() { ! screen | grep -q "The command still runs: y stops it"; }
wait_until 10 run_ask_gone
if kill -0 "$cmd" 2>/dev/null && ! screen | grep -q "EXIT="; then pass "... any other key stays, the command untouched"; else fail "... any other key stays" "$(screen | tail -3)"; fi
$T send-keys -t 0 q
wait_for "The command still runs" 10 >/dev/null
$T send-keys -t 0 y
if wait_for "EXIT=143" 10; then pass "... y stops it (SIGTERM): pmutop's status is the command's (143)"; else fail "... y stops it with the command's status" "$(screen | tail -4)"; fi
tmux_end
wait_until 10 tmux_gone
$T new-session -d -x 80 -y 24 "cd '$tmp' && XDG_CONFIG_HOME='$tmp' XDG_RUNTIME_DIR='$tmp' TMPDIR='$tmp' LANG=C.UTF-8 '$PMUTOP' $SIM -- sleep 301; echo EXIT=\$?; sleep 30"
wait_for "running 0:0" 10 >/dev/null
cmd=$(pgrep -f -n '^sleep 301$')
$T send-keys -t 0 q
wait_for "The command still runs" 10 >/dev/null
$T send-keys -t 0 l
if wait_for "EXIT=0" 10 && [ -n "$cmd" ] && kill -0 "$cmd" 2>/dev/null; then pass "... l quits and leaves it running"; else fail "... l leaves it running" "$(screen | tail -4)"; fi
expect_match "... saying so" "$(screen)" "left the command running (pid $cmd)"
kill "$cmd" 2>/dev/null
tmux_end

# ---- history on screen: the table's history column grows sample by sample; the IMC pane's
# history lines and the time axis with a phase mark
wait_until 10 tmux_gone
$T new-session -d -x 160 -y 60 "cd '$tmp' && XDG_CONFIG_HOME='$tmp' XDG_RUNTIME_DIR='$tmp' TMPDIR='$tmp' LANG=C.UTF-8 '$PMUTOP' $SIM -d 0.3 -g stalls,imc; sleep 30"
# cells drawn in the history column of CPU 0's row
cells() {
	screen | $PY -c '
import sys
for line in sys.stdin:
    f = line.split()
    if len(f) > 3 and f[:3] == ["0", "0", "0"]:
        print(sum(1 for c in line if 0x2581 <= ord(c) <= 0x2588))
        break'
}
wait_for "sample 2 " 10
c2=$(cells)
wait_for "sample 6 " 10
c6=$(cells)
if [ "${c2:-0}" -ge 1 ] && [ "${c6:-0}" -ge $((c2 + 3)) ]; then pass "live: the history column grows with the samples ($c2, then $c6 cells)"; else fail "live: the history column grows with the samples" "$c2 then $c6" "$(screen | sed -n 10,14p)"; fi
run "$PMUTOP" --mark "phase X"
expect_rc "live: a mark reaches the live view" 0
if wait_for "mark: phase X" 10; then pass "live: the header shows the mark"; else fail "live: the header shows the mark" "$(screen | head -3)"; fi
i=0
while ! screen | grep -q "\[IMC\]" && [ $i -lt 6 ]; do $T send-keys -t 0 Tab; sleep 0.2; i=$((i + 1)); done
wait_for "history -" 10
h=$(screen)
expect_match "live: the IMC pane has a history line per channel, read and write" "$h" " s1 ch2 write"
expect_match "live: the time axis shows the mark where it came" "$(printf '%s\n' "$h" | grep ' history -')" "|"
expect_match "... and its text" "$(printf '%s\n' "$h" | grep ' history -')" "phase X"
$T send-keys -t 0 q
tmux_end
