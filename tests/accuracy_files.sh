#!/bin/sh
# Figures through the real file path (the fake device tree, where every
# register access takes real time) with every group selected, so groups
# take turns: within 5 % of the truth written here from the scenario's
# numbers and the seed's definitions, for a steady workload and for one
# whose phases (0.2 s) are shorter than the interval.
ALONE=1 # accuracy on the real clock beside its own load: no other script beside (lib.sh)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 6

scn=$(mktemp -d)
# compute and memory numbers differ from the shipped scenarios'; no noise: the truth is exact
cat >"$scn/steady.scn" <<'EOF'
pmutop-scenario 1
name steady
description accuracy test, steady
seed 1
noise 0
phase one 0
cpu all util=1 ipc=0.6 uops_per_inst=1.15 issue_ratio=1.06 exec_ratio=1.04
cpu all exec_stall=0.58 issue_stall=0.47 retire_stall=0.52 load_stall=0.13 rs_full_stall=0.09 store_stall=0.03 rob_full_stall=0.05 div_busy=0.06
socket all local_reads_per_s=9e7 local_writes_per_s=4e7 read_latency_ns=77
channel all read_lines_per_s=3e7 write_lines_per_s=1.3e7
EOF
cat >"$scn/phased.scn" <<'EOF'
pmutop-scenario 1
name phased
description accuracy test, 0.2 s compute and 0.2 s memory phases
seed 1
noise 0
phase compute 0.2
cpu all util=1 ipc=2.2 uops_per_inst=1.1 issue_ratio=1.04 exec_ratio=1.05
cpu all exec_stall=0.07 issue_stall=0.12 retire_stall=0.18 load_stall=0.01 rs_full_stall=0.03 store_stall=0.01 rob_full_stall=0.02 div_busy=0.04
socket all local_reads_per_s=1e6 local_writes_per_s=5e5 read_latency_ns=70
channel all read_lines_per_s=3e5 write_lines_per_s=1.5e5
phase memory 0.2
cpu all ipc=0.3 exec_stall=0.88 issue_stall=0.74 retire_stall=0.81 load_stall=0.33 rs_full_stall=0.21 store_stall=0.04 rob_full_stall=0.09 div_busy=0
socket all local_reads_per_s=2.4e8 local_writes_per_s=1.1e8 read_latency_ns=95
channel all read_lines_per_s=8e7 write_lines_per_s=3.6e7
EOF

# check FILE PHASES...: every sample's figures against the time average of the phases' truths
check() {
	$PY - "$@" <<'PYEOF'
import pmutop_json, json, os, sys
path, phases = sys.argv[1], sys.argv[2:]
# The phases' truths from the scenario numbers (seed 000 Table 1 definitions).
# Every thread of the emulated Xeon 5500 runs the same numbers beside its busy
# hyper-thread sibling: the scenario README's rule is that the two share the
# core's issue cycles, ports and divider, each slowed by the largest summed ask
# above 1 (written here from that rule, not from the emulator's code).
def phase(ipc, upi, iss_r, exe_r, exec_s, issue_s, retire_s, res, load, div, dram_lines, ch_reads):
    ports = dict(p0=0.25, p1=0.20, p2=0.25, p3=0.10, p4=0.10, p5=0.10)  # the default shares
    uops_exec = ipc * upi * exe_r
    ask = max(1, 2 * (1 - issue_s), 2 * div, max(2 * uops_exec * sh for sh in ports.values()))
    pace = 1 / ask
    # a cycle that moves a uop moves at least one: stalls >= 1 - uops per cycle (seed 000 Table 1)
    alu = uops_exec * pace * (ports["p0"] + ports["p1"] + ports["p5"])
    return dict(exec_stall_pct=100 * max(1 - (1 - exec_s) * pace, 1 - alu),
                issue_stall_pct=100 * max(1 - (1 - issue_s) * pace, 1 - ipc * upi * iss_r * pace),
                retire_stall_pct=100 * max(1 - (1 - retire_s) * pace, 1 - ipc * upi * pace),
                resource_stall_pct=100 * res, load_stall_pct=100 * load,
                div_busy_pct=100 * div * pace, ipc=ipc * pace,
                dram_by_local_bytes_per_s=64 * dram_lines, read_bytes_per_s=64 * 3 * ch_reads)
T = {
    "steady": phase(0.6, 1.15, 1.06, 1.04, 0.58, 0.47, 0.52, 0.30, 0.13, 0.06, 13e7, 3e7),
    "compute": phase(2.2, 1.1, 1.04, 1.05, 0.07, 0.12, 0.18, 0.07, 0.01, 0.04, 1.5e6, 3e5),
    "memory": phase(0.3, 1.1, 1.04, 1.05, 0.88, 0.74, 0.81, 0.67, 0.33, 0.0, 3.5e8, 8e7),
}
want = {k: sum(T[p][k] for p in phases) / len(phases) for k in T[phases[0]]}
samples = [pmutop_json.loads(l) for l in open(path)][1:]  # the first interval includes start-up
assert samples, "no samples"
# Each interval within 5 %.  With phases on the real clock a loaded machine (a parallel
# make check) delays sweeps and makes the slices uneven: there each interval is held to
# 8 % and the mean of the intervals to 5 % (the stepped test in check_engine holds every
# interval of a phased workload to 5 %).
per = 0.08 if len(phases) > 1 else 0.05
if os.environ.get("PER_INTERVAL"):
    per = float(os.environ["PER_INTERVAL"])
n = 0
got_sum = {}
got_n = {}
worst = worst_mean = 0
worst_what = ""
for s in samples:
    figures = [("cpu %d" % t["cpu"], k, t["metrics"][k]) for t in s["threads"]
               for k in ("exec_stall_pct", "issue_stall_pct", "retire_stall_pct", "resource_stall_pct",
                         "load_stall_pct", "div_busy_pct", "ipc")]
    figures += [("socket %d" % so["socket"], k, so["metrics"][k]) for so in s["sockets"]
                for k in ("dram_by_local_bytes_per_s", "read_bytes_per_s")]
    for t in s["threads"]:
        assert "exec_stall_pct" in t["scaled"], "not marked scaled: %s" % t["scaled"]
    for who, k, got in figures:
        if got is None:
            # a CPU that answered late on a loaded machine is n/a with a warning, never a wrong figure
            # (the JSON's warning is null when there is none)
            assert "answered late" in (s.get("warning") or ""), "%s %s n/a without a reason: warning %s, groups %s" % (
                who, k, s.get("warning"), {g: (v.get("state"), v.get("live_share")) for g, v in s["groups"].items()})
            continue
        tol = per * want[k] + (0.1 if k.endswith("pct") else 0)
        assert abs(got - want[k]) <= tol, "%s %s %.4g, truth %.4g" % (who, k, got, want[k])
        got_sum[(who, k)] = got_sum.get((who, k), 0) + got
        got_n[(who, k)] = got_n.get((who, k), 0) + 1
        if abs(got - want[k]) / want[k] > worst:
            worst, worst_what = abs(got - want[k]) / want[k], "%s %s" % (who, k)
        n += 1
assert n >= len(samples) * 10, "too few figures: %d" % n
for (who, k), total in got_sum.items():
    got = total / got_n[(who, k)]
    tol = 0.05 * want[k] + (0.1 if k.endswith("pct") else 0)
    assert abs(got - want[k]) <= tol, "mean of the intervals: %s %s %.4g, truth %.4g" % (who, k, got, want[k])
    worst_mean = max(worst_mean, abs(got - want[k]) / want[k])
# the measured errors, for the README's accuracy table (in the test log)
print("ok %d figures, largest error %.1f %% (an interval: %s), %.1f %% (mean of %d intervals)" %
      (n, 100 * worst, worst_what, 100 * worst_mean, len(samples)), file=sys.stderr)
print("ok %d figures" % n)
PYEOF
}

# Every read through the fake devices is a FUSE round trip whose middle is taken as the
# moment the counter was read or zeroed; on a loaded machine (two busy loops per core) a
# round trip stretches by milliseconds against slices of a few, and one interval's figure
# of a group that counted little of it can be 9 % off while the intervals' mean holds.
# And the fake device applies a write that starts or stops a slice when its daemon gets
# to it, late on a busy machine, so a counter counts longer or shorter than pmutop's
# clock says: with 2 ms slices one interval's socket DRAM figure was 12 % high and a
# thread's load stalls 27 % low, the mean of 5 within 1.2 %. Slices of 100 ms here make
# that delay small against a slice (8.4 % the largest seen in an interval under load);
# each interval is held to 20 % (a scaling error is a factor, not a few per cent) and
# the mean of the 5 to 5 %; the exact arithmetic is check_engine's, on the stepped
# clock, to 2 and 5 %.
fakehw_start "nehalem-ep:$scn/steady.scn"
"$PMUTOP" --root "$dir" -b -n 6 -d 1 --mux-ms 100 -g all --format json >"$dir.out" 2>"$dir.err"; rc=$?
expect_rc "-g all on the fake device tree runs" 0
res=$(PER_INTERVAL=0.20 check "$dir.out" steady 2>&1 | sed 's/^/# /')
printf '%s\n' "$res" | sed -n 's/^# ok .*largest/# steady, fake device tree: largest/p'
expect_match "steady workload, groups rotating: the mean of 5 intervals within 5 % of the truth, each within 20 %" "$res" "# ok "
fakehw_stop
fakehw_cleanup='rm -rf "$scn"' # with the last run's stop

# Phases on the real clock (the sampler thread, the emulator in the process),
# with the 2 ms slice asked for: by default the slice lengthens when sweeps
# are costly (a sanitizer build makes the emulator ten times slower, the fake
# device tree's FUSE sweep of 16 CPUs takes ~3 ms: see the README), and a
# phase shorter than a few rounds of the sets is then seen unevenly.
# 1.6 s = four periods of the phases: the interval's truth is their mean
# wherever it starts.  A slice the sampler overran because it was not
# scheduled (a sanitizer build beside the rest of make -j2 check on two
# cores: 30 ms now and then) gives one phase a tenth more weight for the
# events it carried; pmutop is run at a real-time priority where it can be,
# as on a machine whose sampler runs when it is due, the condition measured.
rt=
if chrt -f 1 true 2>/dev/null; then rt="chrt -f 1"; fi
out=$($rt "$PMUTOP" --sim "nehalem-ep:$scn/phased.scn" -b -n 3 -d 1.6 -g all --mux-ms 2 --format json 2>"$scn/err")
rc=$?; err=$(cat "$scn/err")
expect_rc "phased workload on the real clock runs" 0
printf '%s\n' "$out" >"$scn/phased.out"
# the slice each interval had, as pmutop reports it (after the short first interval)
rot=$($PY -c 'import pmutop_json, json,sys; print(max(pmutop_json.loads(l)["rotation_s"] for l in list(open(sys.argv[1]))[1:]))' "$scn/phased.out")
# A sanitizer build (ASan instruments every access; the binary carries its
# runtime) runs the sampler several times slower beside the rest of make -j2
# check: slices overrun unevenly and 0.2 s phases are weighted unevenly, the
# condition this claim excludes.  The claim is checked in the normal build.
sanitized=
if grep -q __asan_init "$PMUTOP" 2>/dev/null; then sanitized=1; fi
if [ -z "$sanitized" ]; then
	res=$(check "$scn/phased.out" compute memory 2>&1 | sed 's/^/# /')
	printf '%s\n' "$res" | sed -n 's/^# ok .*largest/# 0.2 s phases, real clock: largest/p'
	expect_match "0.2 s phases, groups rotating every 2 ms: every figure within 5 % of the interval's truth" "$res" "# ok "
	expect_match "the rotation period is reported: 2 ms asked, as the intervals had it (2-3 ms)" \
		"$($PY -c "print(0.0019 <= $rot <= 0.003)")" "True"
else
	# (the normal build holds both, whatever the machine: a slower slice fails them)
	skip "0.2 s phases, groups rotating every 2 ms: every figure within 5 % of the interval's truth" \
		"a sanitizer build: pmutop reports a ${rot} s slice there (checked in the normal build)"
	skip "the rotation period is reported: 2 ms asked, as the intervals had it (2-3 ms)" \
		"a sanitizer build: it is ${rot} s there, and reported so"
fi
out=$("$PMUTOP" --sim "nehalem-ep:$scn/phased.scn" -b -n 3 -d 0.8 -g all --mux-ms 40 --format json 2>&1)
printf '%s\n' "$out" >"$scn/phased.out"
# (after the short first interval) not lengthened by the sweeps' cost, nor the default's 2 ms:
# whole rounds of the sets and one slice more (engine_pace) in 0.8 s, each at most 40 ms
expect_match "a rotation asked for with --mux-ms is kept (40 ms)" "$($PY -c 'import pmutop_json, json,sys; print(set(0.030 <= pmutop_json.loads(l)["rotation_s"] <= 0.040 for l in list(open(sys.argv[1]))[1:]))' "$scn/phased.out")" "{True}"
