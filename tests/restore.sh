#!/bin/sh
# Registers on the real file path (pmutop --root on the fake device tree of
# tools/fakehw): every register pmutop writes holds its original value after
# each way pmutop can end: -n reached, every signal whose default action
# ends a process, a closed output, a file-size limit on the output, and
# (through the crash handler) SIGSEGV, SIGABRT, SIGTRAP, SIGSYS.  Counters
# someone else uses are left alone unless --force, also when taken while
# pmutop runs; a register that cannot be restored is named with the command
# that restores it; a second pmutop is refused.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 72
ulimit -c 0

fakehw_start westmere-ep:memory-bound


regs set
before=$(regs dump)
n=$(printf '%s\n' "$before" | wc -l)
if [ "$n" = 360 ]; then pass "24 CPUs x 15 registers readable"; else fail "24 CPUs x 15 registers readable" "$n lines"; fi

# -n reached: the normal end
run "$PMUTOP" -b -n 2 -d 0.2 -g all --root "$dir"
expect_rc "a run on the device files exits 0" 0
expect_match "the source is the msr driver" "$out" " us  msr"
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "registers restored after -n"; else fail "registers restored after -n" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

for sig in HUP:1 INT:2 QUIT:3 TRAP:5 ABRT:6 USR1:10 SEGV:11 USR2:12 ALRM:14 TERM:15 STKFLT:16 \
	XCPU:24 XFSZ:25 VTALRM:26 PROF:27 IO:29 PWR:30 SYS:31 RTMIN:34; do
	num=${sig#*:}
	sig=${sig%:*}
	: >"$dir.out" # no earlier run's samples for wait_samples to count
	"$PMUTOP" -b -d 0.2 -g all --root "$dir" >"$dir.out" 2>"$dir.err" &
	pid=$!
	wait_samples 2
	g=$(pgrep -P $pid -x pmutop-guard)
	kill -$num $pid
	wait_end $pid
	want=$((128 + num))
	if [ "$rc" = "$want" ]; then pass "SIG$sig ends pmutop ($rc)"; else fail "SIG$sig ends pmutop" "exit $rc, want $want" "$(cat "$dir.err")"; fi
	# a crash restores in its handler and lets the guardian go before it dies: no guardian
	# left holding the lock against the next run, no word that the registers were left
	case $sig in TRAP | ABRT | SEGV | SYS)
		if [ -n "$g" ] && ! kill -0 "$g" 2>/dev/null && ! grep -q "guardian" "$dir.err"; then
			pass "SIG$sig: pmutop restored itself; its guardian left with it, silent"
		else
			fail "SIG$sig: pmutop restored itself; its guardian left with it, silent" \
				"guardian '${g}' $(kill -0 "${g:-0}" 2>/dev/null && echo still runs)" "$(cat "$dir.err")"
		fi ;;
	esac
	after=$(regs dump)
	if [ "$after" = "$before" ]; then pass "registers restored after SIG$sig"; else fail "registers restored after SIG$sig" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
done

# standard input and error closed: the device files must not take their numbers
"$PMUTOP" -b -n 2 -d 0.2 -g all --root "$dir" <&- 2>&- >"$dir.out"
rc=$?
expect_rc "with stdin and stderr closed pmutop runs" 0
expect_match "and prints its samples" "$(cat "$dir.out")" "# sample 2"
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "registers restored with 0 and 2 closed"; else fail "registers restored with 0 and 2 closed" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
"$PMUTOP" -b -n 2 -d 0.2 -g all --root "$dir" <&- >&- 2>&-
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "nothing written with 0, 1 and 2 closed"; else fail "nothing written with 0, 1 and 2 closed" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# the output closes: an error that still restores
"$PMUTOP" -b -d 0.1 -g all --root "$dir" 2>"$dir.err" | head -c 100 >/dev/null
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "registers restored after a write error"; else fail "registers restored after a write error" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# the output may not grow past 1 block: SIGXFSZ, or EFBIG where it is blocked
( ulimit -f 1; "$PMUTOP" -b -d 0.1 -g all --root "$dir" >"$dir.out" 2>"$dir.err" )
rc=$?
if [ "$rc" != 0 ]; then pass "a file-size limit on the output ends pmutop ($rc)"; else fail "a file-size limit on the output ends pmutop" "exit 0"; fi
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "registers restored after the file-size limit"; else fail "registers restored after the file-size limit" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# CPU 5 refuses every write from now on: restoring it fails, and pmutop says so
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 -g stalls --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2
echo "5 eio-write" >"$dir/dev/faults"
kill -TERM $pid
wait_end $pid
echo "5 clear" >"$dir/dev/faults"
if [ "$rc" != 0 ]; then pass "a failed restore exits non-zero ($rc)"; else fail "a failed restore exits non-zero" "exit 0"; fi
expect_match "the register that could not be restored is named, with the way to restore it" \
	"$(cat "$dir.err")" "pmutop: MSR 0x38f on CPU 5 could not be restored (I/O error: the CPU refused the write); to restore it by hand: wrmsr -p 5 0x38f 0x3"
case "$(cat "$dir.err")" in *"on CPU 4 "*) fail "only CPU 5 is named" "$(cat "$dir.err")" ;; *) pass "only CPU 5 is named" ;; esac
after=$(regs dump)
changed=$(printf '%s\n' "$before" "$after" | sort | uniq -u | awk '{ print $2 }' | sort -u | tr '\n' ' ')
if [ "$changed" = "5 " ]; then pass "every other CPU is restored"; else fail "every other CPU is restored" "CPUs changed: $changed"; fi
regs set
before=$(regs dump)

# another program takes PMC3 while pmutop runs: at exit its select and count stay its own
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 -g stalls --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2
other_takes_pmc3
kill -TERM $pid
wait_end $pid
expect_match "a select taken by another program is left to it, and pmutop says so" "$(cat "$dir.err")" \
	"pmutop: MSR 0x189 on CPU 7: changed by another program since pmutop wrote it; left as it is"
after=$(regs dump)
case "$after" in *"cpu 7 189 5300c0"*) pass "the other program's select stays" ;; *) fail "the other program's select stays" "$(printf '%s\n' "$after" | grep 'cpu 7 ')" ;; esac
other=$(printf '%s\n' "$after" | grep '^cpu 7 0C4 ' | awk '{ print $4 }')
if [ "$other" != 77 ]; then pass "its count is not overwritten with pmutop's saved value"; else fail "its count is not overwritten with pmutop's saved value" "$other"; fi
changed=$(printf '%s\n' "$before" "$after" | sort | uniq -u | grep -v '^cpu 7 \(189\|0C4\) ' | head -4)
if [ -z "$changed" ]; then pass "everything else is restored"; else fail "everything else is restored" "$changed"; fi
regs set
before=$(regs dump)

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
case "$out" in *"blocked"*|"") fail "--force: the group is live" "$out" ;; *"# sample 1"*) pass "--force: the group is live" ;; *) fail "--force: the group is live" "$out" ;; esac
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "--force restores the foreign counter"; else fail "--force restores the foreign counter" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# one pmutop at a time
regs set
before=$(regs dump)
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 1
run "$PMUTOP" -b -n 1 --root "$dir"
expect_rc "a second pmutop views the first (exit 0)" 0
expect_match "... printing the first's samples" "$out" "# sample"
kill -TERM $pid
wait_end $pid
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 --root "$dir" --no-viewers >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 1
run "$PMUTOP" -b -n 1 --root "$dir"
expect_match "with --no-viewers a second pmutop exits 1, naming the first" "$rc $err" "1 pmutop: another pmutop (pid $pid) is programming this machine's counters"
kill -TERM $pid
wait_end $pid
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "the viewer and the refused pmutop changed nothing"; else fail "the viewer and the refused pmutop changed nothing" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
