#!/bin/sh
# Another program's counters while pmutop runs (pmutop --root on the fake
# device tree of tools/fakehw, the other program writing the device files
# as a second tool would): a select taken while groups rotate is never
# written over once it stands (a write landing between pmutop's read-back and
# its write is lost: registers have no compare-and-swap), its count never zeroed; a select taken while one group
# counts is found within a few samples; either way pmutop says which
# counter, stops using it on every CPU, plans its groups again without it
# and measures on; a global control taken makes pmutop leave that CPU
# alone (n/a).  At exit what the other program took stays its own and
# everything else is restored, also when SIGHUP, SIGINT, SIGTERM or SIGKILL
# ends pmutop during start-up or while sampling.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 33
ulimit -c 0

fakehw_start westmere-ep:memory-bound

# other_writes CPU REG=VALUE...: another program writes the registers of CPU
other_writes() {
	$PY - "$dir" "$@" <<'PYEOF'
import os, struct, sys
fd = os.open(os.path.join(sys.argv[1], "dev/cpu/%s/msr" % sys.argv[2]), os.O_RDWR)
for rv in sys.argv[3:]:
    r, v = rv.split("=")
    os.pwrite(fd, struct.pack("<Q", int(v, 16)), int(r, 16))
os.close(fd)
PYEOF
}

# other_takes CPU SEL=VALUE [REG=VALUE...]: another program writes the registers of CPU and
# keeps the device open until it is killed (in the background: opid; 120 s at most), returning
# once they are written; as a tool that checks its programming: once pmutop has ended a sample
# after the write, where the select (the first) no longer holds its value, written again (up to
# 5 times; each in $dir.lost).  A write of the other's that lands between pmutop's read-back of
# a select and its write of it (one register access apart: registers have no compare-and-swap)
# is lost to it and cannot be seen by pmutop
other_takes() {
	rm -f "$dir.held" "$dir.lost"
	$PY - "$dir" "$@" <<'PYEOF' &
import os, signal, struct, sys, time
signal.alarm(120)
fd = os.open(os.path.join(sys.argv[1], "dev/cpu/%s/msr" % sys.argv[2]), os.O_RDWR)
regs = [(int(r, 16), int(v, 16)) for r, v in (a.split("=") for a in sys.argv[3:])]
def samples():
    try:
        return sum(1 for l in open(sys.argv[1] + ".out") if l.startswith("{"))
    except OSError:
        return 0
for attempt in range(6):
    if attempt:
        if struct.unpack("<Q", os.pread(fd, 8, regs[0][0]))[0] == regs[0][1]:
            break
        open(sys.argv[1] + ".lost", "a").write("lost\n")
    for r, v in regs:
        os.pwrite(fd, struct.pack("<Q", v), r)
    # pmutop's next sample ended: every select rewritten since has been checked first
    n, deadline = samples(), time.monotonic() + 10
    while samples() <= n and time.monotonic() < deadline:
        time.sleep(0.02)
open(sys.argv[1] + ".held", "w").close()
signal.pause()
PYEOF
	opid=$!
	i=0
	while [ ! -f "$dir.held" ] && [ $i -lt 1000 ]; do sleep 0.02; i=$((i + 1)); done
	[ -f "$dir.held" ] || echo "# the other program had not written its registers after 20 s"
}

# reg CPU REG: the register's value now, in hex
reg() {
	$PY - "$dir" "$1" "$2" <<'PYEOF'
import os, struct, sys
fd = os.open(os.path.join(sys.argv[1], "dev/cpu/%s/msr" % sys.argv[2]), os.O_RDONLY)
print("%x" % struct.unpack("<Q", os.pread(fd, 8, int(sys.argv[3], 16)))[0])
PYEOF
}

# json_check PYTHON-EXPRESSION: evaluated over the samples of $dir.out (list S); prints "ok" or why
json_check() {
	$PY - "$dir.out" "$1" <<'PYEOF'
import pmutop_json, json, sys
S = [pmutop_json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
def W(s):
    return s["warning"] or ""
def cpu(s, n):
    return next(t for t in s["threads"] if t["cpu"] == n)["metrics"]
try:
    r = eval(sys.argv[2])
except Exception as e:
    r = "%s: %s" % (type(e).__name__, e)
print("ok" if r is True else "no (%s samples): %s" % (len(S), r))
PYEOF
}

# start_json ARGS...: pmutop -b -d 0.2 --format json ARGS in the background (pid), after its
# second sample (n: the samples so far)
start_json() {
	: >"$dir.out" # no earlier run's samples for wait_samples to count
	"$PMUTOP" -b -d 0.2 --format json "$@" --root "$dir" >"$dir.out" 2>"$dir.err" &
	pid=$!
	wait_samples 2 '^{'
	n=$(grep -c '^{' "$dir.out")
}

# restored_except PATTERN WHAT: every register but those matching PATTERN as before
restored_except() {
	after=$(regs dump)
	changed=$(printf '%s\n' "$before" "$after" | sort | uniq -u | grep -v "$1" | head -4)
	if [ -z "$changed" ]; then pass "$2"; else fail "$2" "$changed"; fi
}

# ---- a select taken while groups rotate (2 ms slices: pmutop rewrites the selects all the time)
regs set
before=$(regs dump)
start_json -g stalls,dram_demand --mux-ms 2
other_takes 7 189=5300C0 0C4=4242
lost=$(cat "$dir.lost" 2>/dev/null | wc -l)
echo "# the other program's select was written over in pmutop's read-back-to-write window $lost time(s), and written again"
wait_samples $((n + 4)) '^{'
# found, pmutop plans again at the next interval: the group blocked from then on (a slow
# sanitizer build once needed more than 4 samples)
wait_until 60 sh -c "tail -n 1 '$dir.out' | grep -q '\"stalls\":{\"state\":\"blocked\"'"
sel=$(reg 7 189)
cnt=$(reg 7 0C4)
kill -TERM $pid
wait_end $pid
kill $opid 2>/dev/null
wait $opid 2>/dev/null
if [ "$sel" = 5300c0 ] && [ "$lost" -lt 6 ]; then pass "rotating: the other program's select, once it stands, is never written over"; else fail "rotating: the other program's select, once it stands, is never written over" "0x189 on CPU 7 is $sel, lost $lost times"; fi
if [ $((0x$cnt)) -ge $((0x4242)) ]; then pass "rotating: its count is never zeroed ($cnt)"; else fail "rotating: its count is never zeroed" "0xC4 on CPU 7 is $cnt"; fi
expect_match "rotating: the samples say which counter was taken, by whom, and that pmutop stopped using it" \
	"$(json_check "any('PMC3 on CPU 7 was taken by another program (msr devices held open by pid $opid (python3)): pmutop no longer uses PMC3' in W(s) for s in S) or W(S[-1])")" ok
expect_match "rotating: the 4-counter group is blocked, saying why" \
	"$(json_check "S[-1]['groups']['stalls']['state'] == 'blocked' and 'another program took one' in S[-1]['groups']['stalls']['why'] or S[-1]['groups']['stalls']")" ok
expect_match "rotating: the other group counts on alone, CPU 7 included, unscaled" \
	"$(json_check "S[-1]['groups']['dram_demand']['state'] == 'live' and cpu(S[-1], 7)['local_dram_demand_read_bytes_per_s'] > 1e8 and not S[-1]['threads'][0]['scaled'] or (S[-1]['groups']['dram_demand'], cpu(S[-1], 7)['local_dram_demand_read_bytes_per_s'])")" ok
expect_match "rotating: at exit pmutop names the register it left" "$(cat "$dir.err")" \
	"pmutop: MSR 0x189 on CPU 7: changed by another program since pmutop wrote it; left as it is"
after=$(regs dump)
expect_match "rotating: the select stays the other program's after exit" "$after" "cpu 7 189 5300c0"
other=$(printf '%s\n' "$after" | grep '^cpu 7 0C4 ' | awk '{ print $4 }')
if [ "$other" != 77 ]; then pass "rotating: its count is not put back to the saved value"; else fail "rotating: its count is not put back to the saved value" "$other"; fi
restored_except '^cpu 7 \(189\|0C4\) ' "rotating: everything else restored"

# ---- a select taken while one group counts (no rewrites: found by the per-sample check)
regs set
before=$(regs dump)
start_json -g dram_demand
other_writes 5 186=5300C0 0C1=1000
written=$(grep -c '^{' "$dir.out")
wait_samples $((written + 8)) '^{'
sel=$(reg 5 186)
kill -TERM $pid
wait_end $pid
# the samples that ended after the write began at index n; "within 6" counts from the write
expect_match "one group: the taken select is found within 6 samples (5 registers checked in turn)" \
	"$(json_check "any('PMC0 on CPU 5 was taken by another program: pmutop no longer uses PMC0' in W(s) for s in S[$n:$written + 6]) and not any('PMC0 on CPU 5 was taken' in W(s) for s in S[:$n])")" ok
if [ "$sel" = 5300c0 ]; then pass "one group: the select is not written over"; else fail "one group: the select is not written over" "0x186 on CPU 5 is $sel"; fi
expect_match "one group: planned again on the counters left, it counts on CPU 5 like on its sibling" \
	"$(json_check "S[-1]['groups']['dram_demand']['state'] == 'live' and abs(cpu(S[-1], 5)['local_dram_demand_read_bytes_per_s'] / cpu(S[-1], 4)['local_dram_demand_read_bytes_per_s'] - 1) < 0.1 or (cpu(S[-1], 5), cpu(S[-1], 4))")" ok
expect_match "one group: the interval it was found in is n/a on CPU 5, not the other program's counts" \
	"$(json_check "all(cpu(s, 5)['local_dram_demand_read_bytes_per_s'] is None for s in S if 'PMC0 on CPU 5' in W(s) and 'PMC0 on CPU 5' not in W(S[S.index(s) - 1]))")" ok
expect_match "one group: at exit the select is left, and named" "$(cat "$dir.err")" \
	"pmutop: MSR 0x186 on CPU 5: changed by another program since pmutop wrote it; left as it is"
restored_except '^cpu 5 \(186\|0C1\) ' "one group: everything else restored"

# ---- the global control of CPU 9 taken: pmutop leaves that CPU alone
regs set
before=$(regs dump)
start_json -g dram_demand
other_writes 9 38F=1
written=$(grep -c '^{' "$dir.out")
wait_samples $((written + 3)) '^{'
kill -TERM $pid
wait_end $pid
# the global control is checked every sample, at its final sweep: the first sample swept
# after the write says so (at the latest S[written + 1]: S[written], printed after the write,
# may have been swept before it, as beside the loaded suite; S[n] is the first that may), and
# none before the write
expect_match "global control: the next sample says so" \
	"$(json_check "any(\"CPU 9's global counter control was changed by another program: pmutop leaves that CPU alone (n/a)\" in W(s) for s in S[$n:$written + 2]) and not any('global counter control' in W(s) for s in S[:$n]) or [W(s) for s in S[$n:$written + 2]]")" ok
expect_match "global control: CPU 9 is n/a from then on, its neighbours measured" \
	"$(json_check "all(v is None for v in cpu(S[-1], 9).values()) and cpu(S[-1], 8)['local_dram_demand_read_bytes_per_s'] > 1e8 or cpu(S[-1], 9)")" ok
expect_match "global control: at exit it is left, and named" "$(cat "$dir.err")" \
	"pmutop: MSR 0x38f on CPU 9: changed by another program since pmutop wrote it; left as it is"
case "$(regs dump)" in *"cpu 9 38F 1"*) pass "global control: the other program's value stays" ;; *) fail "global control: the other program's value stays" "$(regs dump | grep 'cpu 9 38F')" ;; esac
restored_except '^cpu 9 38F ' "global control: everything else restored, CPU 9's selects included"

# ---- no other program: no false alarm in a long rotating run
regs set
run "$PMUTOP" -b -n 25 -d 0.1 -g all --mux-ms 1 --format json --root "$dir"
printf '%s\n' "$out" >"$dir.out"
expect_match "no other program: nothing is said to be taken" \
	"$(json_check "len(S) == 25 and not any('taken' in W(s) or 'another program' in W(s) for s in S)")" ok

# ---- each way pmutop can end, in each phase, with another program's counters present: PMC2
# enabled on every CPU from the start (pmutop leaves it alone) and PMC3 taken on CPU 7 mid-run;
# the other program's registers stay its own, pmutop's are restored
for sig in HUP INT TERM KILL; do
	for phase in start-up sampling; do
		regs set
		$PY - "$dir" <<'PYEOF'
import os, struct, sys
for c in range(24):
    fd = os.open(os.path.join(sys.argv[1], "dev/cpu/%d/msr" % c), os.O_RDWR)
    os.pwrite(fd, struct.pack("<Q", 0x43003C), 0x188)
    os.close(fd)
PYEOF
		before=$(regs dump)
		if [ $phase = start-up ]; then echo "all slow 5" >"$dir/dev/faults"; fi
		: >"$dir.out" # no earlier run's samples for wait_samples to count
		"$PMUTOP" -b -d 0.2 -g dram_demand,stalls --mux-ms 2 --root "$dir" >"$dir.out" 2>"$dir.err" &
		pid=$!
		if [ $phase = start-up ]; then
			wait_programming
		else
			wait_samples 2
			other_writes 7 189=5300C0 0C4=4242
			# a sample after the write: a sweep has seen the other program's take
			wait_samples $(($(grep -c '^# sample' "$dir.out") + 1))
		fi
		g=$(pgrep -P $pid -x pmutop-guard)
		kill -$sig $pid
		echo "all clear" >"$dir/dev/faults"
		wait $pid
		# after SIGKILL the guardian restores: until it has left (it leaves once done)
		guardian_gone() { [ -z "$g" ] || ! kill -0 "$g" 2>/dev/null; }
		if [ $sig = KILL ]; then wait_until 30 guardian_gone; fi
		after=$(regs dump)
		# PMC2's select stays the other program's (its count moved on), and CPU 7's PMC3 after the take
		changed=$(printf '%s\n' "$before" "$after" | sort | uniq -u | grep -v '^cpu [0-9]* 0C3 ' |
			grep -v '^cpu 7 \(189\|0C4\) ' | head -4)
		sel=$(printf '%s\n' "$after" | grep -c ' 188 43003c$')
		if [ -z "$changed" ] && [ "$sel" = 24 ]; then
			pass "SIG$sig during $phase with another program's counters: its own stay, pmutop's restored"
		else
			fail "SIG$sig during $phase with another program's counters: its own stay, pmutop's restored" "PMC2 selects kept: $sel of 24" "$changed"
		fi
	done
done

# ---- socket 1's uncore: another program takes an IMC select while pmutop counts the channels
regs set
before=$(regs dump)
start_json -g imc
other_takes 6 3C0=40002F
wait_samples $((n + 3)) '^{'
sel=$(reg 6 3C0)
kill -TERM $pid
wait_end $pid
kill $opid 2>/dev/null
wait $opid 2>/dev/null
expect_match "uncore: the sample it was found in says so, naming who, and every one after" \
	"$(json_check "[i for i, s in enumerate(S) if \"socket 1's uncore MSR 0x3C0 was changed by another program (msr devices held open by pid $opid (python3)): pmutop leaves that socket's uncore alone (n/a)\" in W(s)] == list(range(next(i for i, s in enumerate(S) if s['sockets'][1]['metrics']['read_bytes_per_s'] is None), len(S)))")" ok
expect_match "uncore: socket 1 n/a from then on, socket 0 measured" \
	"$(json_check "S[-1]['sockets'][1]['metrics']['read_bytes_per_s'] is None and S[-1]['sockets'][0]['metrics']['read_bytes_per_s'] > 1e9 or (S[-1]['sockets'][1]['metrics']['read_bytes_per_s'], S[-1]['sockets'][0]['metrics']['read_bytes_per_s'])")" ok
if [ "$sel" = 40002f ]; then pass "uncore: the select is not written over"; else fail "uncore: the select is not written over" "0x3C0 is $sel"; fi
expect_match "uncore: at exit it is left, and named" "$(cat "$dir.err")" \
	"pmutop: MSR 0x3c0 of socket 1: changed by another program since pmutop wrote it; left as it is"
