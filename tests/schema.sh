#!/bin/sh
# The batch JSON's schema (issue 49.6): data/schema/pmutop-batch-2.schema.json,
# versioned by its $id, whose version the first sample names; real output of several
# kinds of run validated against it with a JSON Schema validator (python3's
# jsonschema, Debian's python3-jsonschema): samples of a server with its
# uncore, --counts, a hybrid, the who view, a command's marks and summary, a
# replayed recording.
. "$top_srcdir/tests/lib.sh"
plan 8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
schema="$top_srcdir/data/schema/pmutop-batch-2.schema.json"
# a python with jsonschema: $PYTHON, python3, the system's
PY=
for p in ${PYTHON:-python3} python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	fail "a JSON Schema validator" "python3's jsonschema is not installed (apt-get install python3-jsonschema; tools/install-deps installs it)"
	exit 0
fi

# validate NAME: every line of $out against the schema; the first sample names it; every
# table's row as long as its columns, its ids whole numbers, its metrics named once (what
# a JSON Schema cannot say)
validate() {
	printf '%s\n' "$out" | "$PY" -c '
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
v = jsonschema.Draft202012Validator(schema)
lines = [json.loads(l) for l in sys.stdin.read().splitlines() if l.strip()]
bad = []
for i, o in enumerate(lines):
    for e in v.iter_errors(o):
        bad.append("line %d: %s at %s" % (i + 1, e.message[:200], "/".join(map(str, e.absolute_path))))
    for smp in [o] + [o["summary"][k] for k in ("mean", "peak") if "summary" in o]:
        for name in ("threads", "cores", "sockets", "channels", "chas"):
            t = smp.get(name)
            if not isinstance(t, dict):
                continue
            cols = t["columns"]
            if len(set(cols)) != len(cols) or set(cols) & set(t["na"]) or not all(t["na"].values()):
                bad.append("line %d: %s names a column twice" % (i + 1, name))
            for r in t["data"]:
                if len(r) != len(cols):
                    bad.append("line %d: a row of %s has %d values, %d columns" % (i + 1, name, len(r), len(cols)))
                    break
                for c, x in zip(cols, r):
                    if c in ("cpu", "core", "socket", "channel", "cha") and type(x) is not int:
                        bad.append("line %d: %s %s is %r" % (i + 1, name, c, x))
# the first sample names the schema: its name, the version its $id (an absolute URI) ends in
first = next((o for o in lines if "seq" in o), {})
name = schema["$defs"]["sample"]["properties"]["schema"]["const"]
if first.get("schema") != name or name.split("/")[-1] != schema["$id"].split(":")[-1]:
    bad.append("the first sample names schema %r, not %r (%s)" % (first.get("schema"), name, schema["$id"]))
print("ok %d lines" % len(lines) if lines and not bad else "; ".join(bad[:4]) or "no lines")' "$schema" 2>&1
}

run "$PMUTOP" --sim sapphire-rapids:memory-bound --source perf -b -n 2 -d 0.3 --format json -g 1,9,l,w
expect_match "Sapphire Rapids through perf, its uncore on: every line follows the schema" "$(validate)" "ok "
run "$PMUTOP" --sim skylake:memory-bound -b -n 2 -d 0.3 --format json --counts -g all
expect_match "Skylake, every group, --counts: every line" "$(validate)" "ok "
run "$PMUTOP" --sim alderlake:hybrid-split -b -n 2 -d 0.3 --format json
expect_match "Alder Lake's hybrid: every line" "$(validate)" "ok "
run "$PMUTOP" --sim icelake-sp:shared-server --source perf --who -b -n 2 -d 0.3 --format json
expect_match "the who view on a shared server: every line" "$(validate)" "ok "
run "$PMUTOP" --sim nehalem-ep:memory-bound -b -d 0.3 --format json --record "$tmp/run.jsonl" -- \
	sh -c 'sleep 0.5; echo "phase two" > "$PMUTOP_MARK_FIFO"; sleep 0.5'
expect_match "a command's run: its samples, its mark and the summary" "$(validate)" "ok "
expect_match "... the mark and the summary are there" "$(printf '%s\n' "$out" | grep -c '"mark"\|"summary"')" "2"
run "$PMUTOP" --replay "$tmp/run.jsonl" -b --format json
expect_match "a recording replayed as JSON: every line" "$(validate)" "ok "
run "$PMUTOP" --sim genoa:memory-bound -b -n 1 -d 0.3 --format json -g 1,9,l,u
expect_match "Genoa with its fabric and L3s: every line" "$(validate)" "ok "
