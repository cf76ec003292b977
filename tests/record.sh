#!/bin/sh
# Record and replay end to end: a run recorded in batch mode replays to the
# same JSON, text and CSV, byte for byte (the metrics computed again from
# the recorded inputs); marks are recorded where they came; a full disk
# stops the recording and not the run; a file that is not a recording is
# never written over; bad recordings give one message and exit 2; on the
# screen --record shows REC, records group toggles, R stops it.
. "$top_srcdir/tests/lib.sh"
plan 51
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
T="tmux -L pmutop-rec-$$"
trap 'command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR="$tmp" TMPDIR="$tmp"
SIM="--sim nehalem-ep:memory-bound"

# ---- live and replayed: the same output, in every format
run "$PMUTOP" $SIM -b -n 4 -d 0.3 -g stalls,dram,imc,qhl --format json --record "$tmp/run.jsonl"
expect_rc "a run recorded in batch mode" 0
expect_match "... says what it recorded" "$err" "recorded 4 samples to $tmp/run.jsonl"
printf '%s\n' "$out" >"$tmp/live.json"
run "$PMUTOP" --replay "$tmp/run.jsonl" -b --format json
expect_rc "its replay" 0
printf '%s\n' "$out" >"$tmp/replay.json"
if cmp -s "$tmp/live.json" "$tmp/replay.json"; then pass "replayed JSON is the live JSON, byte for byte (every metric computed again)"; else fail "replayed JSON is the live JSON, byte for byte" "$(diff "$tmp/live.json" "$tmp/replay.json" | head -c 600)"; fi
run "$PMUTOP" $SIM -b -n 3 -d 0.3 -g stalls,imc --record "$tmp/run2.jsonl"
printf '%s\n' "$out" >"$tmp/live.txt"
run "$PMUTOP" --replay "$tmp/run2.jsonl" -b
printf '%s\n' "$out" >"$tmp/replay.txt"
if cmp -s "$tmp/live.txt" "$tmp/replay.txt"; then pass "replayed text is the live text"; else fail "replayed text is the live text" "$(diff "$tmp/live.txt" "$tmp/replay.txt" | head -c 600)"; fi
run "$PMUTOP" --replay "$tmp/run2.jsonl" -b --format csv
expect_match "and it converts to CSV" "$(printf '%s\n' "$out" | head -1)" "seq,time,interval_s,warmup,source,simulated"
expect_match "... SIMULATED kept" "$(printf '%s\n' "$out" | sed -n 2p)" "SIMULATED nehalem-ep:memory-bound,1,"
run "$PMUTOP" --replay "$tmp/run.jsonl" -b -n 2 --format json
expect_match "-n limits the samples replayed" "$(printf '%s\n' "$out" | wc -l)" "2"
res=$($PY - "$tmp/run.jsonl" 2>&1 <<'PYEOF'
import pmutop_json, json, sys
lines = [pmutop_json.loads(l) for l in open(sys.argv[1])]
h = lines[0]
assert h["pmutop_recording"] == 2 and h["simulated"] is True and "SIMULATED" in h["source"]
assert h["layout"]["name"] == "nehalem" and "group stalls" in h["layout"]["text"]
ev = {e["name"]: e for e in h["events"]}
assert all(e["evtsel"].startswith("0x") for e in h["events"]) and len(ev) > 10
assert h["topology"]["threads"] == 16 and h["topology"]["sockets"] == 2
s = lines[1]
# inputs: the built-ins, then the variables of the events of the groups that counted
assert s["inputs"][:len(h["builtins"])] == list(range(len(h["builtins"])))
# the rows kind by kind (the sample's kinds table): Nehalem-EP's 16 threads, 8 cores, 2 sockets
# and 3 channels a socket (its IMC group counted)
k = s["kinds"]
assert [len(k[t]["rows"]) for t in ("threads", "cores", "sockets")] == [16, 8, 2], list(k)
assert k["channels"]["per_socket"] == 3 and len(k["channels"]["rows"]) == 6 and "chas" not in k
assert len(k["threads"]["rows"][0][5]) == len(s["inputs"]) and len(k["threads"]["rows"][0][6]) == len(s["raw_events"])
groups_counted = [i for i, g in enumerate(s["groups"]) if g[0] in ("live", "rotating")]
assert len(groups_counted) == 4 and 0 < len(s["raw_events"]) < len(h["events"]), (groups_counted, len(s["raw_events"]))
assert "metrics" not in s, "metrics are computed at replay, not stored"
print("ok")
PYEOF
)
expect_match "the file: a self-describing header (version, source, layout text, events with their encodings), inputs per entity" "$res" "ok"

# the recorded machine as hwloc XML: it loads back as the same topology
$PY -c '
import pmutop_json, json, sys
h = pmutop_json.loads(open(sys.argv[1]).readline())
open(sys.argv[2], "w").write(h["topology"]["hwloc_xml"])' "$tmp/run.jsonl" "$tmp/machine.xml"
run "$PMUTOP" --topology-only -T "$tmp/machine.xml"
expect_match "the header carries the machine as hwloc XML, which loads back as the same topology" "$out" "2 sockets, 2 NUMA nodes, 8 cores, 16 threads online"

# ---- compressed: FILE.gz through zlib, each sample flushed whole
run "$PMUTOP" $SIM -b -n 4 -d 0.3 -g stalls,dram,imc,qhl --format json --record "$tmp/run.jsonl.gz"
printf '%s\n' "$out" >"$tmp/livez.json"
expect_match "a .gz recording is gzip" "$(head -c 2 "$tmp/run.jsonl.gz" | od -An -tx1 | tr -d ' ')" "1f8b"
run "$PMUTOP" --replay "$tmp/run.jsonl.gz" -b --format json
printf '%s\n' "$out" >"$tmp/replayz.json"
if cmp -s "$tmp/livez.json" "$tmp/replayz.json"; then pass "a compressed recording replays to the live JSON"; else fail "a compressed recording replays to the live JSON" "$(diff "$tmp/livez.json" "$tmp/replayz.json" | head -c 400)"; fi
size=$(wc -c <"$tmp/run.jsonl.gz")
head -c $((size - 40)) "$tmp/run.jsonl.gz" >"$tmp/cutz.jsonl.gz"
run "$PMUTOP" --replay "$tmp/cutz.jsonl.gz" -b --format json
expect_match "a compressed recording cut short replays its whole samples" "$rc $(printf '%s\n' "$out" | grep -c '"seq"')" "0 3"
expect_match "... and says what it ignored" "$err" "ends with a cut line"
$PY -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read()); d[len(d) // 2] ^= 0xFF
open(sys.argv[2], 'wb').write(d)" "$tmp/run.jsonl.gz" "$tmp/badz.jsonl.gz"
run "$PMUTOP" --replay "$tmp/badz.jsonl.gz" -b --format json
expect_match "damaged compressed data: exit 2, saying so" "$rc: $err" "2: pmutop: $tmp/badz.jsonl.gz: line "

# ---- marks where they came
"$PMUTOP" $SIM -b -d 0.3 -g stalls --format json --record "$tmp/marks.jsonl" -- sh -c 'sleep 0.5; echo "phase B" > "$PMUTOP_MARK_FIFO"; sleep 0.5' >"$tmp/marks.live" 2>/dev/null
run "$PMUTOP" --replay "$tmp/marks.jsonl" -b --format json
res=$(printf '%s\n' "$out" | $PY -c '
import pmutop_json, json, sys
items = [pmutop_json.loads(l) for l in sys.stdin]
kinds = ["mark" if "mark" in i else "summary" if "summary" in i else "sample" for i in items]
assert "mark" in kinds and kinds.index("mark") > 0, kinds
assert [i["mark"] for i in items if "mark" in i] == ["phase B"]
print("ok")' 2>&1)
expect_match "a mark is recorded between the samples it came between, and replayed" "$res" "ok"

# ---- a full disk stops the recording, not the run
run "$PMUTOP" $SIM -b -n 2 -d 0.2 --record /dev/full
expect_rc "recording to a full disk: the run goes on and ends well" 0
expect_match "... with one message" "$err" "recording to /dev/full stopped after 0 samples: No space left on device"
expect_match "... and the samples" "$(printf '%s\n' "$out" | grep -c '^# sample')" "2"

# ---- never over a file that is not a recording
echo "my notes" >"$tmp/notes.txt"
run "$PMUTOP" $SIM -b -n 1 -d 0.2 --record "$tmp/notes.txt"
expect_rc "--record onto a file that is not a recording: 2" 2
expect_match "... saying so" "$err" "exists and is not a pmutop recording"
expect_match "... and the file is untouched" "$(cat "$tmp/notes.txt")" "my notes"

# ---- bad recordings
: >"$tmp/empty.jsonl"
run "$PMUTOP" --replay "$tmp/empty.jsonl" -b
expect_rc "an empty recording: 2" 2
expect_match "... saying so" "$err" "empty: not a pmutop recording"
head -c 3000 /dev/urandom >"$tmp/random.bin"
run "$PMUTOP" --replay "$tmp/random.bin" -b
expect_match "random bytes: not a recording, with the line" "$err" "line 1 (byte 0): "
sed '1s/"pmutop_recording":2/"pmutop_recording":9/' "$tmp/run2.jsonl" >"$tmp/v9.jsonl"
run "$PMUTOP" --replay "$tmp/v9.jsonl" -b
expect_match "another format version is named" "$err" "format version 9; this pmutop reads versions 1 to 2"
head -c $(($(wc -c <"$tmp/run2.jsonl") - 100)) "$tmp/run2.jsonl" >"$tmp/cut.jsonl"
run "$PMUTOP" --replay "$tmp/cut.jsonl" -b --format json
expect_rc "a recording cut short replays" 0
expect_match "... its whole samples" "$(printf '%s\n' "$out" | wc -l)" "2"
expect_match "... and says what it ignored" "$err" "ends with a cut line: its last "
run "$PMUTOP" --replay "$tmp/nothere.jsonl" -b
expect_rc "a recording that is not there: 2" 2

# ---- on the screen
$T new-session -d -x 160 -y 50 "cd '$tmp' && XDG_CONFIG_HOME='$tmp' LANG=C.UTF-8 '$PMUTOP' $SIM -d 0.3 --record '$tmp/screen.jsonl'; sleep 30"
. "$top_srcdir/tests/tmux_lib.sh"
if wait_for "REC $tmp/screen.jsonl" 10; then pass "screen: the header shows the recording"; else fail "screen: the header shows the recording" "$(screen | head -3)"; fi
wait_for "sample 3 " 10
$T send-keys -t 0 2
# two samples with the toggled group, then R
wait_for "sample 5 " 10 >/dev/null
$T send-keys -t 0 R
if wait_for "recorded " 10; then pass "screen: R stops it, saying how many samples"; else fail "screen: R stops it, saying how many samples" "$(screen | sed -n 3p)"; fi
$T send-keys -t 0 q
# pmutop has quit (the pane's shell sleeps on)
quit_screen() { ! pgrep -f "record $tmp/screen.jsonl" >/dev/null; }
wait_until 10 quit_screen
res=$($PY - "$tmp/screen.jsonl" 2>&1 <<'PYEOF'
import pmutop_json, json, sys
lines = [pmutop_json.loads(l) for l in open(sys.argv[1])]
toggles = [l for l in lines if "groups_on" in l]
assert toggles and "resources" in toggles[-1]["groups_on"] or any(len(t["groups_on"]) > 2 for t in toggles), toggles
assert sum(1 for l in lines if "seq" in l) >= 3
print("ok")
PYEOF
)
expect_match "screen: a group toggled (key 2) is recorded where it happened" "$res" "ok"
tmux_end
run "$PMUTOP" --replay "$tmp/screen.jsonl"
expect_rc "the replay screen without a terminal: 2, saying how to convert" 2
expect_match "... with -b" "$err" "pmutop --replay $tmp/screen.jsonl -b"
# any machine, any user: no root, no counters
chmod 755 "$tmp"
chmod 644 "$tmp/run2.jsonl"
run setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$PMUTOP" --replay "$tmp/run2.jsonl" -b
expect_rc "the user nobody converts a recording" 0

# ---- the replay screen: the recorded machine, its samples at their pace; pause, step, speed, go to
run "$PMUTOP" $SIM -b -n 12 -d 0.3 -g stalls,imc --record "$tmp/play.jsonl" -- sh -c 'sleep 1; echo "phase P" > "$PMUTOP_MARK_FIFO"; sleep 10'
no_server() { ! $T has-session 2>/dev/null; }
wait_until 10 no_server
$T new-session -d -x 160 -y 50 "cd '$tmp' && XDG_CONFIG_HOME='$tmp' LANG=C.UTF-8 '$PMUTOP' --replay '$tmp/play.jsonl'; echo EXIT=\$?; sleep 30"
# the position in the header: "REPLAY play.jsonl I/N ..."
pos() { screen | sed -n 2p | sed -n 's/.*REPLAY play.jsonl \([0-9]*\)\/.*/\1/p'; }
if wait_for "REPLAY play.jsonl " 10; then pass "replay screen: the header says REPLAY, the file and the position"; else fail "replay screen: the header says REPLAY, the file and the position" "$(screen | head -3)"; fi
expect_match "replay screen: the recorded machine's topology" "$(screen)" "Socket 1"
# each step waits until the screen shows what the key did (a loaded machine draws late)
pos_is() { [ "$(pos)" = "$1" ]; }
pos_after() { [ "$(pos)" -gt "$1" ] 2>/dev/null; }
p1=$(pos)
wait_until 10 pos_after "${p1:-0}"
p2=$(pos)
if [ "${p2:-0}" -gt "${p1:-0}" ]; then pass "replay screen: it plays at the recorded pace ($p1, then $p2)"; else fail "replay screen: it plays at the recorded pace" "$p1 then $p2"; fi
$T send-keys -t 0 ' '
wait_for "paused" 10
p3=$(pos)
# the recording's pace is 0.3 s a sample: in 0.8 s the position stays at every look
if holds_for 0.8 pos_is "$p3" && screen | sed -n 2p | grep -q "paused"; then pass "replay screen: space pauses"; else fail "replay screen: space pauses" "$p3 then $(pos)" "$(screen | sed -n 2p)"; fi
$T send-keys -t 0 ','
wait_until 10 pos_is "$((p3 - 1))"
expect_match "replay screen: , steps back one sample" "$(pos)" "$((p3 - 1))"
$T send-keys -t 0 '.'
$T send-keys -t 0 '.'
wait_until 10 pos_is "$((p3 + 1))"
expect_match "replay screen: . steps forward" "$(pos)" "$((p3 + 1))"
$T send-keys -t 0 ']'
wait_for " x2 " 10
expect_match "replay screen: ] doubles the speed" "$(screen | sed -n 2p)" " x2 "
$T send-keys -t 0 g
$T send-keys -t 0 '0:01' Enter
wait_until 10 pos_is 4
expect_match "replay screen: g goes to a time (1 s in: the 4th sample, after the short first one)" "$(pos)" "4"
$T send-keys -t 0 g
$T send-keys -t 0 'soon' Enter
wait_for "is not a time" 10
expect_match "replay screen: g with something else says what a time is" "$(screen | sed -n 3p)" "is not a time"
$T send-keys -t 0 '1'
wait_for "as they were recorded" 10
expect_match "replay screen: groups stay as recorded" "$(screen | sed -n 3p)" "as they were recorded"
$T send-keys -t 0 g
$T send-keys -t 0 '3' Enter
i=0
while ! screen | grep -q "\\[IMC\\]" && [ $i -lt 6 ]; do $T send-keys -t 0 Tab; sleep 0.2; i=$((i + 1)); done
wait_for " history -" 10
expect_match "replay screen: the IMC history shows the recorded mark" "$(screen | grep ' history -')" "phase P"
$T send-keys -t 0 q
if wait_for "EXIT=0" 10; then pass "replay screen: q quits"; else fail "replay screen: q quits" "$(screen | tail -2)"; fi
tmux_end

# a recording made before pmutop had the built-ins of fixed counter 3 and PERF_METRICS (its
# header lists 10): replayed by the built-ins' names, its figures as they were recorded
run "$PMUTOP" --replay "$top_srcdir/tests/corpus/replay/core2.jsonl" -b --format json
expect_rc "an older recording (10 built-ins) replays" 0
expect_match "... its threads table, the columns named once" \
	"$(printf '%s\n' "$out" | head -1)" \
	'"threads":{"columns":["cpu","core","socket","util","ghz","ipc",'
expect_match "... cpu 0's row: its util, clock and IPC as recorded" \
	"$(printf '%s\n' "$out" | head -1)" '"data":[[0,0,0,99.6806,3.0,2.61013,'
