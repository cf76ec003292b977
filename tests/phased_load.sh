#!/bin/sh
# Multiplexing on phased work beside busy loops (issue 46.7).  A shared server
# is busy: the groups that take turns must still each see the interval's
# phases as they were.  The real kernel rotates perf groups from its timer
# whatever the load (the emulated kernel now catches up on every period it
# was called late for); pmutop's own rotation (the register source) runs in
# its sampler thread and is paced by a sweep's own cost, not the time the
# thread waited for a CPU.
#
# The held-out scenario below: the first thread of each of the emulated
# Nehalem-EP's 8 cores alternates 0.2 s of compute and 0.2 s of memory work,
# the siblings idle, so each 0.8 s interval is two whole periods.  Its truth,
# from the scenario README's rules (a lone thread on its core runs at its own
# pace; a cycle that moves a uop moves at least one, so stalls are at least
# 1 - uops a cycle on ports 0, 1 and 5, whose default shares are 0.25, 0.2 and
# 0.1): compute 2.0 uops a cycle x 0.55 = 1.1 on those ports, so the stated
# 10 % binds; memory 0.3 x 0.55 = 0.165, 1 - 0.165 = 83.5 % < 85 %, so 85 %
# binds.  Every interval: (10 + 85) / 2 = 47.5 % execution stall cycles.
# Held to 8 % per interval and 3 % over the run (ten intervals), with every group on (13
# groups on 4 counters take turns), both sources, a busy loop beside.
ALONE=1 # accuracy on the real clock beside its own load: no other script beside (lib.sh)
. "$top_srcdir/tests/lib.sh"
plan 10
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
spinners=
trap 'kill $spinners 2>/dev/null; rm -rf "$tmp"' EXIT
cat >"$tmp/phased.scn" <<'EOF'
pmutop-scenario 1
name phased-held-out
description first thread of each core: 0.2 s compute, 0.2 s memory; siblings idle
seed 1
noise 0
phase compute 0.2
cpu all util=0
cpu 0-7 util=1 ipc=2.0 uops_per_inst=1.0 issue_ratio=1.0 exec_ratio=1.0 div_busy=0
cpu 0-7 exec_stall=0.10 issue_stall=0.10 retire_stall=0.12
phase memory 0.2
cpu 0-7 ipc=0.3 exec_stall=0.85 issue_stall=0.80 retire_stall=0.82
EOF

# a busy loop on one of the two cores, the issue's condition (33.0-57.5 % read there before),
# with the rest of make check beside it
for i in 1; do
	sh -c 'while :; do :; done' &
	spinners="$spinners $!"
done

# check FILE: every interval after the first (which includes the start) and the run's mean
check() {
	$PY - "$1" <<'PYEOF'
import pmutop_json, json, sys
truth = 47.5
samples = [pmutop_json.loads(l) for l in open(sys.argv[1])][1:]
assert len(samples) >= 5, "only %d samples" % len(samples)
worst, every = 0.0, []
for s in samples:
    for t in s["threads"]:
        if t["cpu"] >= 8:
            continue
        v = t["metrics"]["exec_stall_pct"]
        assert v is not None, "cpu %d n/a: %s" % (t["cpu"], s.get("warning"))
        assert "exec_stall_pct" in t["scaled"], "not marked scaled"
        every.append(v)
        worst = max(worst, abs(v - truth) / truth)
mean = sum(every) / len(every)
print("largest interval error %.1f %%, mean %.2f (%.1f %% off), rotation %s" % (
    100 * worst, mean, 100 * abs(mean - truth) / truth,
    sorted(set(round(s["rotation_s"], 4) for s in samples))))
print("interval ok" if worst <= 0.08 else "interval off")
print("mean ok" if abs(mean - truth) <= 0.03 * truth else "mean off")
PYEOF
}

# A sanitizer build (ASan instruments every access: the in-process emulator is ten times
# slower) is not the machine this claims anything about: there the register source's slice
# lengthens to keep its sweeps to a tenth of it (18-24 ms measured, so a 0.2 s phase is seen a
# few times), and the emulated kernel's catching up is cut at its CPU budget.  The figures are
# still counted and marked scaled there; their precision is checked in the normal build.
sanitized=
if grep -q __asan_init "$PMUTOP" 2>/dev/null; then sanitized=1; fi
for src in msr perf; do
	run "$PMUTOP" --sim "nehalem-ep:$tmp/phased.scn" --source $src -b -n 11 -d 0.8 -g all --format json
	printf '%s\n' "$out" >"$tmp/$src.json"
	res=$(check "$tmp/$src.json" 2>&1)
	printf '%s\n' "$res" | sed -n 's/^largest/# '$src': largest/p'
	expect_match "$src, every group on, a busy loop beside: the phased run counts" "$res" "largest"
	if [ -n "$sanitized" ]; then
		skip "... each 0.8 s interval's execution stalls within 8 % of 47.5 %" \
			"a sanitizer build: $(printf '%s\n' "$res" | head -1) (checked in the normal build)"
		skip "... and their mean within 3 %" "a sanitizer build (checked in the normal build)"
		continue
	fi
	expect_match "... each 0.8 s interval's execution stalls within 8 % of 47.5 %" "$res" "interval ok"
	expect_match "... and their mean within 3 %" "$res" "mean ok"
done

# the classes of a running pmutop's threads (ps -L) once it has printed a sample (its sampler
# is running): FF for a real-time one
classes() {
	: >"$tmp/cls.out"
	"$PMUTOP" "$@" --sim nehalem-ep -b -n 100 -d 0.1 -g all >"$tmp/cls.out" 2>&1 &
	p=$!
	wait_until 20 test -s "$tmp/cls.out"
	ps -L -o cls= -p $p 2>/dev/null | tr -d ' ' | sort -u | tr '\n' ' '
	kill $p 2>/dev/null
	wait $p 2>/dev/null
}
if chrt -f 1 true 2>/dev/null; then
	expect_match "the register source's sampler runs at SCHED_FIFO (ps: FF)" "$(classes --source msr)" "FF"
	run "$PMUTOP" --doctor --sim nehalem-ep
	expect_match "... and root's doctor says it can" "$out" "ok    sampler          SCHED_FIFO 1 available"
else
	fail "the register source's sampler runs at SCHED_FIFO (ps: FF)" "root here cannot use SCHED_FIFO (chrt -f 1 fails)"
	fail "... and root's doctor says it can" "root here cannot use SCHED_FIFO (chrt -f 1 fails)"
fi
expect_is "... not with --no-realtime" "$(classes --source msr --no-realtime)" "TS "
expect_is "... nor through perf (the kernel rotates)" "$(classes --source perf)" "TS "
