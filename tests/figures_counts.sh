#!/bin/sh
# A figure is its formula over its printed counts (issue 45.6): with
# --counts, JSON gives every count as read, the seconds it was live
# (window_s) and the count scaled to the sample's interval_s (scaled =
# count x interval_s / window_s); the first sample gives each metric's
# formula and the counts it reads by their printed names (NAME@GROUP where
# several groups count one event).  Every figure must follow from those
# alone: Granite Rapids' channels (CAS counts of two schedulers over the
# uncore's own window), groups taking turns through perf (Tiger Lake) and
# through the registers (Skylake).  Exact relations: they hold on a busy
# machine too.
. "$top_srcdir/tests/lib.sh"
plan 11

PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check FILE: the last sample's figures recomputed from its counts; prints "ok N" or the first
# figure that does not follow
check() {
	$PY - "$1" <<'PYEOF'
import pmutop_json, json, re, sys
lines = [pmutop_json.loads(l) for l in open(sys.argv[1])]
formulas, s = lines[0]["formulas"], lines[-1]
iv = s["interval_s"]
ents = s["threads"] + s["sockets"] + [c for so in s["sockets"] for c in so.get("channels", [])]
n = 0
for e in ents:
    counts, metrics = e.get("counts", {}), e["metrics"]
    # every scaled count: its count over its window, scaled to the interval
    for name, c in counts.items():
        if None in (c["count"], c["window_s"], c["scaled"]):
            continue
        want = c["count"] * iv / c["window_s"]
        if abs(c["scaled"] - want) > 1e-6 * abs(want) + 1e-3:
            print("count %s: scaled %r, count x interval / window %r" % (name, c["scaled"], want))
            sys.exit(0)
    for name, f in formulas.items():
        got = metrics.get(name)
        if got is None:
            continue
        env = {}
        for r in f["reads"]:
            v = counts[r]["scaled"] if r in counts else iv if r == "seconds" else metrics.get(r)
            if v is None:
                env = None
                break
            env[r.split("@")[0]] = v
        if env is None:
            continue
        py = f["formula"]
        for k in sorted(env, key=len, reverse=True):
            py = re.sub(r"(?<![\w.@])" + re.escape(k) + r"(?![\w.@])", repr(float(env[k])), py)
        try:
            want = eval(py, {"min": min, "max": max})
        except Exception:
            continue  # a formula of conditions this check does not evaluate
        n += 1
        if abs(got - want) > 1e-4 * abs(want) + 1e-6:
            print("%s %r, its formula over the printed counts %r (%s)" % (name, got, want, f["formula"]))
            sys.exit(0)
print("ok %d" % n)
PYEOF
}

run "$PMUTOP" --sim granite-rapids:memory-bound -b -n 3 -d 0.5 --format json --counts -g 9
printf '%s\n' "$out" >"$tmp/gnr.json"
res=$(check "$tmp/gnr.json")
expect_match "Granite Rapids: every channel's MB/s is its CAS counts x 64 / interval_s" "$res" "ok "
n=${res#ok }
expect_is "... every channel's four figures checked (12 channels x 4)" "$([ "${n:-0}" -ge 48 ] && echo yes)" yes
ch=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
c = s["sockets"][0]["channels"][5]
rd = sum(c["counts"][k]["count"] * s["interval_s"] / c["counts"][k]["window_s"]
         for k in ("UNC_M_CAS_COUNT_SCH0.RD", "UNC_M_CAS_COUNT_SCH1.RD"))
print(c["metrics"]["memory_bandwidth_read"], rd * 64 / 1e6 / s["interval_s"])')
near "... channel 5's read MB/s from its counts as read and their windows" "${ch% *}" "${ch#* }" 0.0001

run "$PMUTOP" --sim tigerlake:topdown --source perf -b -n 3 -d 0.5 --format json --counts -g all
printf '%s\n' "$out" >"$tmp/tgl.json"
res=$(check "$tmp/tgl.json")
expect_match "Tiger Lake through perf, groups taking turns: every figure from the printed counts" \
	"$res" "ok "
expect_is "... hundreds of them" "$([ "${res#ok }" -ge 200 ] 2>/dev/null && echo yes)" yes
expect_is "... a count of several groups named with the one read (Fetch_Latency: its own group's)" \
	"$(head -1 "$tmp/tgl.json" | $PY -c '
import pmutop_json, json, sys
print(pmutop_json.loads(sys.stdin.read())["formulas"]["Fetch_Latency"]["reads"][1])')" \
	"INT_MISC.UOP_DROPPING@TmaL2"

# counts are whole (issue 49.5): every event and fixed counter of every thread, core, socket and
# channel, as perf stat prints them, PERF_METRICS' topdown-* too (the kernel's slots x field /
# 0xff), through perf with the fixed counters shared out by the kernel (their count as read over
# the seconds they ran, not scaled by the kernel's enabled/running) and through the registers;
# only the free-running energy counters are joules
whole() {
	$PY - "$1" <<'PYEOF'
import pmutop_json, sys
lines = [pmutop_json.loads(l) for l in open(sys.argv[1])]
n, bad, shared = 0, [], 0
for s in lines:
    if "seq" not in s:
        continue
    for kind in ("threads", "cores", "sockets", "channels"):
        for e in s[kind]:
            for name, c in (e.get("counts") or {}).items():
                if c["count"] is None or "(free-running)" in c["event"] and "joules" in name:
                    continue
                n += 1
                if not isinstance(c["count"], int):
                    bad.append("%s %s %r" % (kind, name, c["count"]))
                if kind == "threads" and "fixed counter" in c["event"] and c["window_s"] < 0.9 * s["interval_s"]:
                    shared += 1
print("ok %d %d" % (n, shared) if not bad and n else bad[:3])
PYEOF
}
res=$(whole "$tmp/tgl.json")
expect_match "Tiger Lake through perf: every count a whole number, topdown-* and cores included" "$res" "ok "
sh=${res##* }
expect_is "... the fixed counters shared out by the kernel there, each over the seconds it ran" \
	"$([ "${sh:-0}" -gt 0 ] 2>/dev/null && echo yes)" yes
run "$PMUTOP" --sim sapphire-rapids:topdown --source msr -b -n 2 -d 0.3 --format json --counts -g 1,2
printf '%s\n' "$out" >"$tmp/spr.json"
expect_match "Sapphire Rapids through the registers: PERF_METRICS' topdown-* counts whole" \
	"$(whole "$tmp/spr.json")" "ok "

run "$PMUTOP" --sim skylake:memory-bound -b -n 3 -d 0.5 --format json --counts -g all
printf '%s\n' "$out" >"$tmp/skl.json"
res=$(check "$tmp/skl.json")
expect_match "Skylake through the registers, groups taking turns: every figure from the counts" \
	"$res" "ok "
expect_is "... the thread metrics and the uncore's" "$([ "${res#ok }" -ge 100 ] 2>/dev/null && echo yes)" yes
