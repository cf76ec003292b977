#!/bin/sh
# Even SIGKILL leaves the PMU as found (pmutop --root on the fake device
# tree of tools/fakehw): pmutop killed with SIGKILL at each phase (start-up
# programming, sampling, rotation, shutdown) has every register it wrote
# back at its original value within a second, through its guardian process;
# another program's counters stay the other program's; the next pmutop
# finds every counter free, and one started while a guardian still restores
# waits for it; after a normal end no guardian is left behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 24
ulimit -c 0

fakehw_start westmere-ep:memory-bound


# restored_within WHAT: every register as in $dir.want within 1 s of now (polled); else the difference
restored_within() {
	res=$($PY - "$dir" "$dir.want" <<'PYEOF'
import os, struct, sys, time
root, want = sys.argv[1], open(sys.argv[2]).read().split("\n")
want = [w for w in want if w]
at = [(int(w.split()[1]), int(w.split()[2], 16)) for w in want]
fds = {c: os.open(os.path.join(root, "dev/cpu/%d/msr" % c), os.O_RDONLY) for c, _ in at}
start = time.time()
while True:
    now = ["cpu %d %03X %x" % (c, r, struct.unpack("<Q", os.pread(fds[c], 8, r))[0])
           for c, r in at]
    if now == want:
        print("ok %.0f ms" % ((time.time() - start) * 1000))
        break
    if time.time() - start > 1.0:
        print("after 1 s still different: " + " | ".join(sorted(set(now) - set(want))[:4]))
        break
    time.sleep(0.01)
PYEOF
)
	case "$res" in ok*) pass "$1: registers back ($res)" ;; *) fail "$1: registers back within a second" "$res" ;; esac
}

# guardian_of PID: the guardian process of pmutop PID (other tests run guardians of their own)
guardian_of() {
	g=$(pgrep -P "$1" -x pmutop-guard)
}

# no_guardian_left WHAT: the guardian $g no longer lives (it left once done)
no_guardian_left() {
	i=0
	while [ -n "$g" ] && kill -0 "$g" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.02; i=$((i + 1)); done
	if [ -z "$g" ]; then
		fail "$1: the guardian left" "no guardian was seen"
	elif kill -0 "$g" 2>/dev/null; then
		fail "$1: the guardian left" "$(ps -o pid,ppid,stat,comm -p "$g")"
	else
		pass "$1: the guardian left"
	fi
}

regs set
regs dump >"$dir.want"
before=$(cat "$dir.want")

# a normal end: the guardian ran alongside and leaves with pmutop, restoring nothing itself
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 -g stalls --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 1
guardian_of $pid
if [ -n "$g" ]; then pass "pmutop runs with a guardian process ($g)"; else fail "pmutop runs with a guardian process" "$(ps -o pid,ppid,comm -e | grep -i pmutop)"; fi
kill -TERM $pid
wait_end $pid
no_guardian_left "a normal end"
case "$(cat "$dir.err")" in *guardian*) fail "a normal end: the guardian says nothing" "$(cat "$dir.err")" ;; *) pass "a normal end: the guardian says nothing" ;; esac

# SIGKILL while start-up programs the registers (every read 20 ms: seconds of programming ahead)
echo "all slow 20" >"$dir/dev/faults"
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -n 1 -d 0.2 -g all --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_programming
guardian_of $pid
kill -KILL $pid
echo "all clear" >"$dir/dev/faults"
restored_within "SIGKILL during start-up"
wait $pid
no_guardian_left "SIGKILL during start-up"
expect_match "the guardian says what it did" "$(cat "$dir.err")" "pmutop: pid $pid ended without restoring the counters; its guardian put them back"

# kill_sampling WHAT ARGS...: pmutop ARGS killed with SIGKILL after 2 samples; registers back
kill_sampling() {
	what=$1
	shift
	: >"$dir.out" # no earlier run's samples for wait_samples to count
	"$PMUTOP" -b -d 0.2 "$@" --root "$dir" >"$dir.out" 2>"$dir.err" &
	pid=$!
	wait_samples 2
	guardian_of $pid
	kill -KILL $pid
	restored_within "$what"
	wait $pid
	no_guardian_left "$what"
}

kill_sampling "SIGKILL while sampling one group (no rotation)" -g stalls
# 2 ms slices: the selects change hundreds of times a second
kill_sampling "SIGKILL while groups rotate" -g all --mux-ms 2

# SIGKILL during shutdown: SIGTERM began the restore (slowed to 20 ms a read), then SIGKILL
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 -g all --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2
echo "all slow 20" >"$dir/dev/faults"
kill -TERM $pid
# the restore has begun once the sampler and its readers have left (the main thread restores,
# each register read now 20 ms)
main_thread_alone() { [ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -eq 1 ]; }
wait_until 10 main_thread_alone
guardian_of $pid
kill -KILL $pid
echo "all clear" >"$dir/dev/faults"
restored_within "SIGKILL during the restore of a normal end"
wait $pid
no_guardian_left "SIGKILL during shutdown"

# another program takes PMC3 on CPU 7 mid-run, then SIGKILL: its select and count stay its own
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 -g stalls --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2
other_takes_pmc3
guardian_of $pid
kill -KILL $pid
# the guardian restores, then leaves
guardian_gone() { [ -n "$g" ] && ! kill -0 "$g" 2>/dev/null; }
wait_until 10 guardian_gone
after=$(regs dump)
wait $pid
no_guardian_left "SIGKILL with another program's counter"
expect_match "the guardian leaves the other program's select" "$after" "cpu 7 189 5300c0"
other=$(printf '%s\n' "$after" | grep '^cpu 7 0C4 ' | awk '{ print $4 }')
if [ "$other" != 77 ]; then pass "and does not put its count back to the saved value"; else fail "and does not put its count back to the saved value" "$other"; fi
changed=$(printf '%s\n' "$before" "$after" | sort | uniq -u | grep -v '^cpu 7 \(189\|0C4\) ' | head -4)
if [ -z "$changed" ]; then pass "after SIGKILL with another program's counter: everything else restored"; else fail "after SIGKILL with another program's counter: everything else restored" "$changed"; fi
expect_match "the guardian names the register it left" "$(cat "$dir.err")" \
	"pmutop: MSR 0x189 on CPU 7: changed by another program since pmutop wrote it; left as it is"

# the next pmutop, started while a killed one's guardian still restores (every read and write
# 20 ms: seconds of restoring ahead), waits for the guardian rather than refuse: /proc/locks
# still names the dead pmutop as the lock's holder
regs set
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 -g all --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2
guardian_of $pid
echo "all slow 20" >"$dir/dev/faults"
kill -KILL $pid
wait $pid
"$PMUTOP" -b -n 1 -d 0.2 -g stalls --root "$dir" >"$dir.out2" 2>"$dir.err2" &
next=$!
says_waiting() { grep -q "waiting for its guardian" "$dir.err2"; }
if wait_until 20 says_waiting && kill -0 "$g" 2>/dev/null; then
	pass "a pmutop started while the guardian restores waits for it"
else
	fail "a pmutop started while the guardian restores waits for it" "$(cat "$dir.err2")" \
		"$(ps -o pid,ppid,stat,comm -p "${g:-1}")"
fi
echo "all clear" >"$dir/dev/faults"
wait_end $next
if [ "$rc" = 0 ]; then pass "then counts once the guardian is done"; else fail "then counts once the guardian is done" "exit $rc" "$(cat "$dir.err2")"; fi
expect_match "saying whose guardian it waited for" "$(cat "$dir.err2")" \
	"pmutop: pmutop (pid $pid) ended; waiting for its guardian to put the counters back (at most 30 s)"
expect_match "and prints its sample" "$(cat "$dir.out2")" "# sample 1"
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "registers as found after both"; else fail "registers as found after both" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
no_guardian_left "SIGKILL, then the next pmutop"
rm -f "$dir.out2" "$dir.err2"

# after all those kills the next pmutop finds every counter free (but the other program's)
regs set
run "$PMUTOP" -b -n 1 -d 0.2 -g stalls --root "$dir"
case "$err" in *"in use"*) fail "the next pmutop finds the counters free" "$err" ;; *) pass "the next pmutop finds the counters free" ;; esac
