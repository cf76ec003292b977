#!/bin/sh
# What other users name reaches root's outputs only as safe text (issue 44,
# parts 1, 2 and 7): a cgroup named with terminal escapes (the kernel
# accepts ESC and BEL in a name), one of invalid UTF-8 (\xff\xfe), one with
# a line break (a --root tree allows it) and a process whose command holds
# escapes, read from a fake root as root's pmutop reads a machine's; the
# text, CSV, JSON, replay and Prometheus outputs carry no control byte, are
# valid UTF-8, forge no line, and keep the rows (escaped as \xNN, the same
# in every output); vendor data and PMU directory names likewise; a FIFO
# where the kernel has a file never hangs --list-pmus, --doctor or --who,
# and a link out of the tree never puts the file it reaches into a message.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/http_lib.sh"
plan 32
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/sys/fs/cgroup" "$root/proc"
echo "cpu memory" >"$root/sys/fs/cgroup/cgroup.controllers"
$PY - "$root" <<'PYEOF'
import os, sys
os.chdir(sys.argv[1])
names = [b'job\x1b]0;TITLE\x07\x1b[2J\x1b[1;31mFAKE', b'\xff\xfe', b'evil\nfake_metric{a="b"} 1']
for i, n in enumerate(names):
    d = b'sys/fs/cgroup/' + n
    os.makedirs(d)
    pid = 100 * (i + 1)
    open(d + b'/cgroup.procs', 'w').write('%d\n' % pid)
    open(d + b'/cpu.stat', 'w').write('usage_usec 5000\n')
    os.makedirs('proc/%d' % pid)
    open('proc/%d/stat' % pid, 'wb').write(
        b'%d (x\x1b[2Jy) R 1 1 1 0 -1 0 0 0 0 0 500 100 0 0 20 0 1 0 1 1 1\n' % pid)
    open('proc/%d/cgroup' % pid, 'wb').write(b'0::/' + n + b'\n')
PYEOF
JOB='job\x1b]0;TITLE\x07\x1b[2J\x1b[1;31mFAKE'

# safe FILE WHAT: no control byte but the line ends (and, for JSON, none at all), valid UTF-8
safe() {
	$PY - "$1" <<'PYEOF'
import sys
b = open(sys.argv[1], 'rb').read()
bad = [c for c in b if (c < 0x20 and c != 0x0a) or c == 0x7f]
try:
    t = b.decode('utf-8')
    c1 = [c for c in t if 0x80 <= ord(c) <= 0x9f]
except UnicodeDecodeError as e:
    print("invalid UTF-8:", e)
    sys.exit()
print("ok" if not bad and not c1 else "control bytes %r" % sorted(set(bad)))
PYEOF
}

# ---- 1. text: the names escaped, no escape sequence, no forged line
"$PMUTOP" --root "$root" --who-procs 5 -b -n 2 -d 0.2 >"$tmp/text" 2>"$tmp/text.err"
expect_is "batch text (--who rows from a fake root): no control byte, valid UTF-8" "$(safe "$tmp/text")" ok
expect_match "... the cgroup named with escapes shown as \\xNN" "$(cat "$tmp/text")" "$JOB  $JOB"
expect_match "... the invalid UTF-8 one as \\xff\\xfe" "$(cat "$tmp/text")" '\xff\xfe  \xff\xfe'
expect_match "... the process whose command holds escapes" "$(cat "$tmp/text")" '  x\x1b[2Jy  '
if grep -q '^fake_metric' "$tmp/text"; then fail "... a name with a line break forges no line" "$(cat "$tmp/text")"; else pass "... a name with a line break forges no line"; fi
expect_is "... stderr too" "$(safe "$tmp/text.err")" ok

# ---- CSV: RFC 4180, every row as wide as the header, the name as one field
"$PMUTOP" --root "$root" --who-procs 5 -b -n 2 -d 0.2 --format csv >"$tmp/csv" 2>/dev/null
expect_is "CSV: no control byte, valid UTF-8" "$(safe "$tmp/csv")" ok
got=$($PY - "$tmp/csv" <<'PYEOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding='utf-8', newline='')))
head = rows[0]
widths = {len(r) for r in rows}
names = sorted(r[head.index('who_name')] for r in rows[1:] if r[head.index('scope')] == 'cgroup')
print(widths == {len(head)}, sorted(set(names)))
PYEOF
)
expect_is "... every row as wide as the header; the names as fields" "$got" "True ['/ (the whole machine)', '\\\\xff\\\\xfe', 'evil\\\\x0afake_metric{a=\"b\"} 1', 'job\\\\x1b]0;TITLE\\\\x07\\\\x1b[2J\\\\x1b[1;31mFAKE']"

# ---- JSON: valid UTF-8, every row keeps its path and name
"$PMUTOP" --root "$root" --who-procs 5 -b -n 2 -d 0.2 --format json --record "$tmp/rec.jsonl" >"$tmp/json" 2>/dev/null
expect_is "JSON: no control byte, valid UTF-8" "$(safe "$tmp/json")" ok
rows() {
	$PY - "$1" <<'PYEOF'
import pmutop_json, json, sys
s = [pmutop_json.loads(l) for l in open(sys.argv[1], encoding='utf-8') if l.strip()][-1]
w = s['who']
print(all('path' in r and 'name' in r for r in w['cgroups'] + w['processes']),
      sorted(r['path'] for r in w['cgroups']))
PYEOF
}
expect_is "... every cgroup and process row has its path and name" "$(rows "$tmp/json")" "True ['', '\\\\xff\\\\xfe', 'evil\\\\x0afake_metric{a=\"b\"} 1', 'job\\\\x1b]0;TITLE\\\\x07\\\\x1b[2J\\\\x1b[1;31mFAKE']"
expect_is "... the recording: no control byte, valid UTF-8" "$(safe "$tmp/rec.jsonl")" ok

# ---- replay: what record wrote is accepted, and printed as safe
run "$PMUTOP" --replay "$tmp/rec.jsonl" -b
expect_rc "--replay accepts the recording that holds them" 0
printf '%s\n' "$out" >"$tmp/replay"
expect_is "... its text: no control byte" "$(safe "$tmp/replay")" ok
expect_match "... the rows named as live" "$out" "$JOB  $JOB"
run "$PMUTOP" --replay "$tmp/rec.jsonl" -b --format json
printf '%s\n' "$out" >"$tmp/replay.json"
expect_is "... and in JSON the same rows" "$(rows "$tmp/replay.json")" "$(rows "$tmp/json")"
# a recording written by someone else, with \u escapes in its strings: made safe on reading
$PY - "$tmp/rec.jsonl" "$tmp/forged.jsonl" <<'PYEOF'
import pmutop_json, json, sys
lines = open(sys.argv[1], encoding='utf-8').read().splitlines()
s = pmutop_json.loads(lines[-1])
s['who']['cgroups'][1]['name'] = 'forged\x1b[2J\x07'
s['warning'] = 'beware\x1b]0;pwned\x07'
lines[-1] = json.dumps(s)
open(sys.argv[2], 'w').write('\n'.join(lines) + '\n')
PYEOF
run "$PMUTOP" --replay "$tmp/forged.jsonl" -b
printf '%s\n%s\n' "$out" "$err" >"$tmp/forged.out"
expect_is "a recording whose strings carry \\u001b: replayed with none of them raw" "$(safe "$tmp/forged.out")" ok
expect_match "... shown escaped" "$out" 'forged\x1b[2J\x07'

# ---- Prometheus: promtool accepts the exposition, the label values escaped
port=$(free_port)
"$PMUTOP" --root "$root" --who-procs 5 -d 0.2 --serve "127.0.0.1:$port" >/dev/null 2>"$tmp/serve.err" &
pids="$pids $!"
wait_http "http://127.0.0.1:$port/metrics"
i=0
while [ $i -lt 100 ]; do
	curl -s "http://127.0.0.1:$port/metrics" >"$tmp/metrics"
	grep -q '^pmutop_who_cpus{name="job' "$tmp/metrics" && break
	sleep 0.1
	i=$((i + 1))
done
run promtool check metrics <"$tmp/metrics"
if [ "$rc" = 0 ] && [ -z "$out$err" ]; then pass "/metrics with the hostile names: promtool finds no problem"; else fail "/metrics with the hostile names: promtool" "rc $rc" "$out" "$err"; fi
expect_is "... no control byte, valid UTF-8" "$(safe "$tmp/metrics")" ok
expect_match "... the invalid UTF-8 name as a label value" "$(cat "$tmp/metrics")" 'pmutop_who_cpus{name="\\xff\\xfe",cgroup="/\\xff\\xfe"'

# ---- the vendor's data: an Info line and a metric name with escapes (a copy root owns)
cp -r "$top_srcdir/data/intel" "$tmp/intel"
$PY - "$tmp/intel/spr.json" <<'PYEOF'
import pmutop_json, json, sys
d = pmutop_json.load(open(sys.argv[1]))
d['Info'] = 'Sapphire Rapids\x1b]0;pwned\x07\x1b[2J'
d['Metrics'][0]['BriefDescription'] = 'x\x1b[31m'
json.dump(d, open(sys.argv[1], 'w'))
PYEOF
run env PMUTOP_PERFMON_DIR="$tmp/intel" "$PMUTOP" --sim sapphire-rapids --list-metrics
printf '%s\n%s\n' "$out" "$err" >"$tmp/metrics.list"
expect_rc "--list-metrics with escapes in the vendor's file: listed" 0
expect_is "... no control byte" "$(safe "$tmp/metrics.list")" ok
expect_match "... the Info line escaped" "$out" '# Sapphire Rapids\x1b]0;pwned\x07\x1b[2J'

# ---- PMU directories under --root: a name with escapes, FIFOs where files are, a link out
pr=$tmp/pmus
d="$pr/sys/bus/event_source/devices"
mkdir -p "$d/cpu/format" "$d/cpu/events" "$pr/proc/sys/kernel"
echo 4 >"$d/cpu/type"
echo config:0-7 >"$d/cpu/format/event"
echo "event=0xc0" >"$d/cpu/events/instructions"
mkdir -p "$(printf '%s/evil\033[2J\007' "$d")/format"
printf '9\n' >"$(printf '%s/evil\033[2J\007/type' "$d")"
run timeout 60 "$PMUTOP" --root "$pr" --list-pmus
printf '%s\n%s\n' "$out" "$err" >"$tmp/pmus.list"
expect_is "--list-pmus: a PMU directory named with escapes prints none" "$(safe "$tmp/pmus.list")" ok
expect_match "... it is skipped, named escaped, never opened" "$out" 'skipped evil\x1b[2J\x07: no kernel PMU has a name like that'
mkdir -p "$d/fifo_type/format" "$d/fifo_fmt/format"
mkfifo "$d/fifo_type/type" "$d/fifo_fmt/format/event" "$pr/proc/sys/kernel/perf_event_paranoid"
echo 11 >"$d/fifo_fmt/type"
run timeout 60 "$PMUTOP" --root "$pr" --list-pmus
expect_rc "FIFOs as a PMU's type and format files: --list-pmus ends" 0
expect_match "... the type FIFO said" "$out" "skipped fifo_type: the kernel has no perf PMU 'fifo_type' ($d/fifo_type/type: not a file of the kind expected (a FIFO"
expect_match "... the format FIFO said" "$out" "skipped fifo_fmt: $d/fifo_fmt/format/event: expected configN:LO-HI[,LO-HI], got not a file of the kind expected"
run timeout 60 "$PMUTOP" --root "$pr" --doctor
if [ "$rc" != 124 ] && [ "$rc" != 137 ]; then pass "--doctor with perf_event_paranoid a FIFO ends (status $rc)"; else fail "--doctor with perf_event_paranoid a FIFO ends" "$out" "$err"; fi
mkdir -p "$pr/sys/fs/cgroup/a.service"
echo "cpu" >"$pr/sys/fs/cgroup/cgroup.controllers"
mkfifo "$pr/sys/fs/cgroup/a.service/cpu.stat" "$pr/sys/fs/cgroup/a.service/cgroup.procs"
run timeout 60 "$PMUTOP" --root "$pr" --who -b -n 1 -d 0.2 --format json
expect_rc "--who with FIFOs as a cgroup's files ends" 0
# a link out of the tree: its target (outside) never shows (the FIFOs gone: they are tested above)
rm -rf "$d/fifo_type" "$d/fifo_fmt" "$pr/proc/sys/kernel/perf_event_paranoid" "$pr/sys/fs/cgroup"
printf 'root:$6$SECRETHASH:19000:0:99999:7:::\n' >"$tmp/shadow"
rm -f "$d/cpu/type"
ln -s "$tmp/shadow" "$d/cpu/type"
ln -s "../../../../../../../../../../../$tmp/shadow" "$d/cpu/format/umask"
run timeout 60 "$PMUTOP" --root "$pr" --list-pmus
case "$out$err" in
*SECRET*) fail "a PMU's files linked to a secret outside the tree: nothing of it in any message" "$out" "$err" ;;
*) pass "a PMU's files linked to a secret outside the tree: nothing of it in any message" ;;
esac
expect_match "... the link resolves inside the tree (no such file there)" "$out" "skipped cpu: the kernel has no perf PMU 'cpu' ($d/cpu/type: No such file or directory)"
