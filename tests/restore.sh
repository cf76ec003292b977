#!/bin/sh
# Registers on the real file path (pmutop --root on the fake device tree of
# tools/fakehw): every register pmutop writes holds its original value after
# each way pmutop can end — -n reached, SIGINT, SIGTERM, SIGHUP, SIGQUIT, a
# closed output, and (best effort) SIGSEGV and SIGABRT.  Counters someone
# else uses are left alone unless --force; a second pmutop is refused.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 27
ulimit -c 0

fakehw_start westmere-ep:memory-bound

# wait_samples N: until pmutop has printed N samples (or 10 s)
wait_samples() {
	i=0
	while [ "$(grep -c '^# sample' "$dir.out" 2>/dev/null)" -lt "$1" ] && [ $i -lt 500 ]; do
		sleep 0.02
		i=$((i + 1))
	done
}

regs set
before=$(regs dump)
n=$(printf '%s\n' "$before" | wc -l)
if [ "$n" = 288 ]; then pass "24 CPUs x 12 registers readable"; else fail "24 CPUs x 12 registers readable" "$n lines"; fi

# -n reached: the normal end
run "$PMUTOP" -b -n 2 -d 0.2 -g all --root "$dir"
expect_rc "a run on the device files exits 0" 0
expect_match "the source is the msr driver" "$out" "interval 0.2"
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "registers restored after -n"; else fail "registers restored after -n" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

for sig in HUP:1 INT:2 QUIT:3 ABRT:6 SEGV:11 TERM:15; do
	num=${sig#*:}
	sig=${sig%:*}
	"$PMUTOP" -b -d 0.2 -g all --root "$dir" >"$dir.out" 2>"$dir.err" &
	pid=$!
	wait_samples 2
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + num))
	if [ "$rc" = "$want" ]; then pass "SIG$sig ends pmutop ($rc)"; else fail "SIG$sig ends pmutop" "exit $rc, want $want" "$(cat "$dir.err")"; fi
	after=$(regs dump)
	if [ "$after" = "$before" ]; then pass "registers restored after SIG$sig"; else fail "registers restored after SIG$sig" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
done

# the output closes: an error that still restores
"$PMUTOP" -b -d 0.1 -g all --root "$dir" 2>"$dir.err" | head -c 100 >/dev/null
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "registers restored after a write error"; else fail "registers restored after a write error" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# someone else's counter: PMC2 enabled on every CPU
$PY - "$dir" <<'PYEOF'
import os, struct, sys
root = sys.argv[1]
for c in range(24):
    fd = os.open(os.path.join(root, "dev/cpu/%d/msr" % c), os.O_RDWR)
    os.pwrite(fd, struct.pack("<Q", 0x43003C), 0x188)
    os.close(fd)
PYEOF
before=$(regs dump)
run "$PMUTOP" -b -n 1 -d 0.2 -g stalls,dram --root "$dir"
expect_rc "a foreign counter does not stop pmutop" 0
expect_match "the user is told which counter is taken" "$err" "PMC2 in use"
expect_match "the 4-counter group is blocked, with the reason" "$out" "# group stalls blocked: needs 4 general-purpose counters (with its constraints), 3 free"
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "the foreign counter is untouched"; else fail "the foreign counter is untouched" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
run "$PMUTOP" -b -n 1 -d 0.2 -g stalls --force --root "$dir"
expect_match "--force says it takes the counter" "$err" "--force: taking counters that were in use"
case "$out" in *"blocked"*) fail "--force: the group is live" "$out" ;; *) pass "--force: the group is live" ;; esac
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "--force restores the foreign counter"; else fail "--force restores the foreign counter" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# one pmutop at a time
regs set
before=$(regs dump)
"$PMUTOP" -b -d 0.2 --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 1
run "$PMUTOP" -b -n 1 --root "$dir"
expect_rc "a second pmutop exits 1" 1
expect_match "the second pmutop names the first" "$err" "another pmutop (pid $pid) is programming this machine's counters"
kill -TERM $pid
wait $pid
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "the refused second pmutop changed nothing"; else fail "the refused second pmutop changed nothing" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
