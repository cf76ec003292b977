#!/bin/sh
# Recordings of format version 1 (pmutop before the sample's kinds table:
# each kind's rows at a sample's top level, the CHAs as "boxes") replay as
# they did, beside version 2's (a "kinds" object, a table of rows each kind
# of the sample's kinds table stores, walked by the writer and by replay).
# The version 1 copy is written here from version 2's by the old layout of
# the format (record.h: "threads", "cores", "sockets", "channels" and
# "nchannels", "boxes", "nboxes" and "box_inputs"), and the corpus keeps a
# recording pmutop 0.1.0 made.
. "$top_srcdir/tests/lib.sh"
plan 5
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Sapphire Rapids through perf: 2 sockets of 112 threads, 8 channels and 56 CHAs each
run "$PMUTOP" -b -n 2 -d 0.2 --format json --sim sapphire-rapids --source perf -g l,9 \
	--record "$tmp/v2.jsonl"
printf '%s\n' "$out" >"$tmp/live.json"
expect_is "version 2: a kinds table of rows each, channels and CHAs with their rows a socket" \
	"$($PY -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
k = lines[1]["kinds"]
print(lines[0]["pmutop_recording"], [(t, len(k[t]["rows"]), k[t].get("per_socket")) for t in k],
      "inputs" in k["chas"], "inputs" in k["threads"])' "$tmp/v2.jsonl")" \
	"2 [('threads', 224, None), ('cores', 112, None), ('sockets', 2, None), ('channels', 16, 8), ('chas', 112, 56)] True False"
run "$PMUTOP" --replay "$tmp/v2.jsonl" -b --format json
if [ "$out" = "$(cat "$tmp/live.json")" ]; then pass "its replay is the live JSON, the channels' and CHAs' tables too"
else fail "its replay is the live JSON" "$(printf '%s\n' "$out" | diff "$tmp/live.json" - | head -c 600)"; fi

# the same run in version 1's layout
$PY - "$tmp/v2.jsonl" "$tmp/v1.jsonl" <<'PYEOF'
import json, sys
out = open(sys.argv[2], "w")
for n, line in enumerate(open(sys.argv[1])):
    o = json.loads(line)
    if n == 0:
        o["pmutop_recording"] = 1
    elif "kinds" in o:
        k = o.pop("kinds")
        for t in ("threads", "cores", "sockets"):
            o[t] = k[t]["rows"]
        o["channels"] = k["channels"]["rows"] if "channels" in k else []
        o["nchannels"] = k["channels"]["per_socket"] if "channels" in k else 0
        if "chas" in k:
            o["boxes"], o["nboxes"], o["box_inputs"] = k["chas"]["rows"], k["chas"]["per_socket"], k["chas"]["inputs"]
    out.write(json.dumps(o, separators=(",", ":")) + "\n")
PYEOF
run "$PMUTOP" --replay "$tmp/v1.jsonl" -b --format json
if [ "$rc $out" = "0 $(cat "$tmp/live.json")" ]; then pass "the version 1 copy replays to the same JSON (CHAs from boxes, channels from nchannels)"
else fail "the version 1 copy replays to the same JSON" "rc $rc $err" "$(printf '%s\n' "$out" | diff "$tmp/live.json" - | head -c 600)"; fi

# a version 1 sample whose boxes do not fit its sockets: named as version 2's would be
sed '2s/"nboxes":56/"nboxes":55/' "$tmp/v1.jsonl" >"$tmp/v1bad.jsonl"
run "$PMUTOP" --replay "$tmp/v1bad.jsonl" -b --format json
expect_match "a version 1 sample's CHAs that do not fit: one message with the line" "$rc $err" \
	"2 pmutop: $tmp/v1bad.jsonl: line 2 (byte "

# a recording pmutop 0.1.0 made (format version 1, a Core 2): its 2 samples and a mark
run "$PMUTOP" --replay "$top_srcdir/tests/corpus/replay/core2.jsonl" -b --format json
expect_is "pmutop 0.1.0's recording replays: its 2 samples, IPC in each, and its mark" \
	"$rc $(printf '%s\n' "$out" | $PY -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin]
print(sum(1 for d in lines if "ipc" in d.get("threads", {}).get("columns", [])),
      sum(1 for d in lines if "mark" in d))')" "0 2 1"
