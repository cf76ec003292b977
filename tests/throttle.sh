#!/bin/sh
# Throttling (issue 48.4: what turbostat and pcm-power tell a user): the
# kernel's thermal throttle counters, /sys/devices/system/cpu/cpuN/
# thermal_throttle (Linux's therm_throt, Intel's thermal interrupt: the
# kernel's admin-guide "Intel thermal throttle events reporting"):
# package_throttle_count and _total_time_ms, the same on every CPU of a
# package, core_throttle_count and _total_time_ms, each core's; whole
# counts and milliseconds.  pmutop reads them each interval: per socket the
# package's events and milliseconds and how many of its cores throttled
# (the screen's message line, text's "# throttled", JSON's throttle table).
#
# The emulated machines write them from the scenario (throttled.scn: socket
# 0's package throttled 30 % of the time in 5 episodes a second, each of its
# cores 20 % in 2 a second, socket 1 cool), the truth here without the
# noise; a fake machine tree (--root) holds files this test writes as the
# kernel would, through the registers' engine and through the OS sampler.
# A kernel booted with int_pln_enable also counts the power-limit
# notifications (package_power_limit_count, core_power_limit_count:
# therm_throt.c adds the files only then); throttled.scn gives socket 0's
# package 2 a second and each of its cores 1.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 32
tmp=$(mktemp -d)
fakehw_cleanup='rm -rf "$tmp"'
trap 'rm -rf "$tmp"' EXIT
sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/throttled.scn" >"$tmp/hot.scn"

# the last sample's throttle table: "socket package_events package_ms cores core_events core_ms
# package_power_limit_events core_power_limit_events window_ms" a line (the milliseconds over the counters' own window, window_s: the looks' times)
rows() {
	printf '%s\n' "$out" | tail -1 | $PY -c '
import json, sys
s = json.loads(sys.stdin.read())
t = s.get("throttle", {})
if "why" in t:
    print("why:", t["why"])
for r in t.get("data", []):
    print(" ".join("null" if v is None else str(v) for v in r), round((t["window_s"] or s["interval_s"]) * 1000))'
}
run "$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" -b -n 3 -d 0.5 --format json
set -- $(rows | sed -n 1p)
near "Sapphire Rapids, socket 0: its package throttled 30 % of the interval (package_throttle_total_time_ms)" \
	"$($PY -c "print($3 / $9)")" 0.3 0.05
# (5 a second over the counters' own window, $9 ms: 0.5 s idle, longer in a sanitizer build)
expect_is "... in whole episodes, 5 a second of its window (2 or 3 over 0.5 s: package_throttle_count)" \
	"$($PY -c "import math; w = 5 * $9 / 1000; print('yes' if math.floor(w) <= $2 <= math.ceil(w) else '$2 over $9 ms')")" yes
expect_is "... all 56 of its cores throttled" "$4" 56
near "... each 20 % of the interval, summed (core_throttle_total_time_ms)" \
	"$($PY -c "print($6 / ($9 * 56))")" 0.2 0.05
expect_is "socket 1, cool: nothing" "$(rows | sed -n 2p | cut -d' ' -f1-6)" "1 0 0 0 0 0"
# the power-limit notifications over samples 2-7 (3 s): whole counts, each file one count either way
run "$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" -b -n 7 -d 0.5 --format json
pl=$(printf '%s\n' "$out" | sed 1d | $PY -c '
import json, sys
pkg = core = win = 0.0
for line in sys.stdin:
    t = json.loads(line)["throttle"]
    pkg += t["data"][0][6]
    core += t["data"][0][7]
    win += t["window_s"]
    assert t["data"][1][6:] == [0, 0], t["data"][1]
print("%.2f %.2f %.2f" % (pkg / win, core / win / 56, win))')
set -- $pl
expect_is "power-limit notifications: socket 0's package 2 a second (package_power_limit_count; $1 over $3 s)" \
	"$($PY -c "print(abs($1 - 2) <= 1.01 / $3)")" True
expect_is "... each of its cores 1 a second (core_power_limit_count summed; $2 a core), socket 1 none" \
	"$($PY -c "print(abs($2 - 1) <= 1.01 / $3)")" True
run "$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" -b -n 5 -d 0.5 --format long
# the last sample's row of socket 0's NAME: "value,unit,scaled"
long_row() { printf '%s\n' "$out" | grep ",socket,,,0,,,$1," | tail -1 | cut -d, -f11-; }
expect_match "the long CSV: a row a socket and figure, whole, with its unit" "$(long_row throttle_package_ms)" ",ms,0"
near "... 30 % of its window (throttle_window_s, the seconds between two looks)" \
	"$($PY -c "print($(long_row throttle_package_ms | cut -d, -f1) / ($(long_row throttle_window_s | cut -d, -f1) * 1000))")" 0.3 0.1
expect_match "... the power-limit notifications too" "$(long_row power_limit_package_events)" ",events,0"
run "$PMUTOP" --sim sapphire-rapids:compute-bound -b -n 1 -d 0.2 --format json
expect_is "a kernel booted without int_pln_enable: the power-limit columns null" \
	"$(rows | sed -n 1p | cut -d' ' -f7,8)" "null null"
expect_match "... and na says why" "$(printf '%s\n' "$out" | tail -1 | $PY -c '
import json, sys
print(json.loads(sys.stdin.read())["throttle"]["na"]["package_power_limit_events"])')" "only when booted with int_pln_enable"
run "$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" -b -n 3 -d 0.5 --record "$tmp/hot.jsonl"
# (the milliseconds are those of the window between two looks, longer than 0.5 s on a busy
# machine: 215 ms of a 1.2 s interval in one run; their share is checked in JSON above)
expect_match "text output: a # throttled line naming the socket, its package's milliseconds and events" \
	"$(printf '%s\n' "$out" | grep -E '^# throttled S0: package [0-9]+ ms \([0-9]+ events?\), 56 cores' | tail -1)" \
	"# throttled S0: package "
# (a line names them when its window had some: whole counts, 2 a second, so a short window under
# ASan had none in CI; any of the samples' lines)
expect_match "... and its power-limit notifications" "$(printf '%s\n' "$out" | grep '^# throttled S0:' | grep -m1 ' power limit ')" " power limit "
run "$PMUTOP" --replay "$tmp/hot.jsonl" -b --format json
expect_match "... recorded: the replay has the throttle table" "$(rows | sed -n 1p)" " 56 "
expect_is "... every column of every sample as recorded (the columns read by name)" \
	"$(printf '%s\n' "$out" | $PY -c '
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1]) if "\"throttle\"" in l]
rep = [json.loads(l)["throttle"] for l in sys.stdin if l.strip()]
print(len(rec) >= 2, [r["throttle"]["data"] for r in rec][-len(rep):] == [t["data"] for t in rep],
      rep[-1]["columns"][6:])' "$tmp/hot.jsonl")" \
	"True True ['package_power_limit_events', 'core_power_limit_events']"
# a recording made before pmutop read the power-limit notifications (6 columns), one with a
# column pmutop does not write
$PY - "$tmp/hot.jsonl" "$tmp/old.jsonl" "$tmp/odd.jsonl" <<'PYEOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for path, cut in ((sys.argv[2], True), (sys.argv[3], False)):
    with open(path, "w") as f:
        for o in lines:
            t = o.get("throttle")
            if t and "columns" in t:
                t = dict(t)
                if cut:
                    t["columns"] = t["columns"][:6]
                    t["data"] = [r[:6] for r in t["data"]]
                    t["na"] = {}
                else:
                    t["columns"] = t["columns"][:3] + ["fan_rpm"] + t["columns"][4:]
                o = dict(o, throttle=t)
            f.write(json.dumps(o) + "\n")
PYEOF
run "$PMUTOP" --replay "$tmp/old.jsonl" -b --format json
expect_is "... an older recording of 6 columns replays, its power-limit notifications null" \
	"$(rows | sed -n 1p | cut -d' ' -f4,7,8)" "56 null null"
run "$PMUTOP" --replay "$tmp/odd.jsonl" -b --format json
expect_match "... one with a column pmutop does not write is refused, naming it as such" "$rc $err" \
	"its throttle table's columns are not pmutop's"
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" --dump -n 2 -d 0.5
expect_match "the screen at 80x24: THROTTLED on the message line, the socket's figures whole" \
	"$(printf '%s\n' "$out" | sed -n 3p)" " THROTTLED S0: package 1"
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim sapphire-rapids:compute-bound --dump -n 2 -d 0.3
case "$out" in *THROTTLED*) fail "a cool machine: no THROTTLED" "$(printf '%s\n' "$out" | sed -n 3p)" ;; *) pass "a cool machine: no THROTTLED" ;; esac
# Prometheus: the share of the interval and the episodes, per socket and scope
. "$top_srcdir/tests/http_lib.sh"
port=$(free_port)
"$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" -d 0.5 --serve "127.0.0.1:$port" >/dev/null 2>&1 &
server=$!
fakehw_cleanup='kill $server 2>/dev/null; rm -rf "$tmp"'
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
ratio() {
	r=$(curl -s "http://127.0.0.1:$port/metrics" |
		sed -n 's/^pmutop_throttle_ratio{socket="0",scope="package",[^}]*} //p')
	[ -n "$r" ] && $PY -c "import sys; sys.exit(not 0.25 < float(sys.argv[1]) < 0.35)" "$r"
}
if wait_http "http://127.0.0.1:$port/metrics" && wait_until 10 ratio; then
	pass "Prometheus: pmutop_throttle_ratio of socket 0's package ($r)"
else
	fail "Prometheus: pmutop_throttle_ratio of socket 0's package" "$(curl -s "http://127.0.0.1:$port/metrics" | grep throttle)"
fi
expect_match "... and its cores' mean share, the episodes and the power-limit notifications" \
	"$(curl -s "http://127.0.0.1:$port/metrics" | grep -c 'pmutop_throttle_ratio{socket="0",scope="core"\|pmutop_throttle_events{socket="0",scope="package"\|pmutop_power_limit_events{socket="0",scope="core"')" "3"
kill $server 2>/dev/null
run "$PMUTOP" --sim genoa -b -n 1 -d 0.2 --format json
expect_match "Genoa (AMD): no counters, and why" "$(rows)" "why: no thermal throttle counters"
expect_match "... naming AMD" "$(rows)" "an AMD CPU (Linux's therm_throt is Intel's)"

# an emulated machine's files live in a private directory for the run; a run killed (SIGKILL)
# cannot remove its own, so the next run's start removes those whose run is gone (this user's
# directories only: not a link, not another user's, not a running pmutop's)
mkdir "$tmp/t"
TMPDIR="$tmp/t" "$PMUTOP" --sim nehalem-ep -b -n 100 -d 0.2 >/dev/null 2>&1 &
victim=$!
has_dir() { ls -d "$tmp"/t/pmutop-thr-$victim-* >/dev/null 2>&1; }
wait_until 20 has_dir
kill -9 $victim
wait $victim 2>/dev/null
mkdir "$tmp/t/pmutop-thr-$$-live" "$tmp/t/pmutop-thr-2147483646-other" "$tmp/t/elsewhere"
chown nobody "$tmp/t/pmutop-thr-2147483646-other"
ln -s "$tmp/t/elsewhere" "$tmp/t/pmutop-thr-2147483645-link"
left=$(ls "$tmp/t" | grep -c "pmutop-thr-$victim-")
TMPDIR="$tmp/t" "$PMUTOP" --sim nehalem-ep -b -n 1 -d 0.1 >/dev/null 2>&1
expect_is "a run killed with SIGKILL left its files ($left); the next run's start removed them, its own at its end" \
	"$left $(ls "$tmp/t" | grep -c "pmutop-thr-$victim-") $(ls "$tmp/t" | grep -c 'pmutop-thr-[0-9]*-[A-Za-z0-9]\{6\}$')" "1 0 0"
expect_is "... a running process's, another user's and a link left alone (and the link's target)" \
	"$(ls "$tmp/t" | grep -v '^pmutop-[0-9]*$' | LC_ALL=C sort | tr '\n' ' ')" \
	"$(printf '%s\n' elsewhere pmutop-thr-2147483645-link pmutop-thr-2147483646-other "pmutop-thr-$$-live" |
		LC_ALL=C sort | tr '\n' ' ')"

# without TMPDIR, in memory where /dev/shm is a tmpfs kept as /tmp is (root's, sticky), else
# /tmp: a server's thousands of small files cost a disk's journal seconds
base=/tmp
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ ! -L /dev/shm ] &&
	[ "$(stat -c %u /dev/shm)" = 0 ] && [ -k /dev/shm ]; then base=/dev/shm; fi
(unset TMPDIR; exec "$PMUTOP" --sim nehalem-ep -b -n 100 -d 0.2 >/dev/null 2>&1) &
victim=$!
has_base_dir() { ls -d "$base"/pmutop-thr-$victim-* >/dev/null 2>&1; }
wait_until 20 has_base_dir
found=$(ls -d "$base"/pmutop-thr-$victim-* 2>/dev/null | wc -l)
kill $victim
wait $victim 2>/dev/null
expect_is "without TMPDIR the files are under $base, removed at the end (SIGTERM)" \
	"$found $(ls -d "$base"/pmutop-thr-$victim-* 2>/dev/null | wc -l)" "1 0"

# a machine's own tree: Nehalem-EP's (socket 1 is CPUs 4-7 and 12-15), first without the files
fakehw_start nehalem-ep:idle
run "$PMUTOP" --root "$dir" -b -n 1 -d 0.2 --format json
expect_match "a kernel without them (--root tree): why, once a sample" "$(rows)" \
	"why: no thermal throttle counters (/sys/devices/system/cpu/cpu0/thermal_throttle)"
# then the kernel's files on every CPU, socket 1's package and its core 4 throttling all along
# (a writer adds an episode and 10 ms every 50 ms, each file replaced whole as sysfs shows it)
for c in $(seq 0 15); do
	d="$dir/sys/devices/system/cpu/cpu$c/thermal_throttle"
	mkdir -p "$d"
	for f in package_throttle_count package_throttle_total_time_ms core_throttle_count \
		core_throttle_total_time_ms package_power_limit_count core_power_limit_count; do
		echo 0 >"$d/$f"
	done
done
bump() {
	n=0
	while [ -d "$dir/sys" ]; do
		n=$((n + 1))
		for c in 4 5 6 7 12 13 14 15; do
			d="$dir/sys/devices/system/cpu/cpu$c/thermal_throttle"
			echo $n >"$d/.c" && mv "$d/.c" "$d/package_throttle_count"
			echo $((n * 10)) >"$d/.t" && mv "$d/.t" "$d/package_throttle_total_time_ms"
			echo $n >"$d/.p" && mv "$d/.p" "$d/package_power_limit_count"
		done
		for c in 4 12; do
			d="$dir/sys/devices/system/cpu/cpu$c/thermal_throttle"
			echo $n >"$d/.c" && mv "$d/.c" "$d/core_throttle_count"
			echo $((n * 10)) >"$d/.t" && mv "$d/.t" "$d/core_throttle_total_time_ms"
		done
		sleep 0.05
	done
}
bump &
bumper=$!
fakehw_cleanup='kill $bumper 2>/dev/null; rm -rf "$tmp"'
# a sample that saw socket 1 throttle: "package_events package_ms cores" of socket 1, socket 0's
seen() {
	# over samples 2-6 (the writer beside is a shell loop of 28 mv's a round: on a loaded machine
	# samples 2-4 saw one round's package files and not its cores' (the suite beside four busy
	# loops and a build, 2026-11-30)): socket 1's package events, milliseconds and power-limit
	# notifications grew, its core 4 (and no other core) throttled, socket 0 nothing at all
	printf '%s\n' "$out" | sed 1d | $PY -c '
import json, sys
pkg = [0] * 8
most, s0 = 0, []
for line in sys.stdin:
    d = json.loads(line)["throttle"]["data"]
    s0 += d[0][1:]
    for k in (1, 2, 6, 7):
        pkg[k] += d[1][k]
    most = max(most, d[1][3])
print("yes" if pkg[1] > 0 and pkg[2] > 0 and most == 1 and pkg[6] > 0 and pkg[7] == 0 and
      not any(s0) else (pkg, most, s0))'
}
run "$PMUTOP" --root "$dir" -b -n 6 -d 0.3 --format json
expect_is "through the registers (--root): socket 1's package episodes and milliseconds, its core 4, socket 0 none" \
	"$(seen)" yes
# the OS's figures alone (--source perf: the fake tree has no perf, so no counters): the same files
run "$PMUTOP" --root "$dir" --source perf -b -n 6 -d 0.3 --format json
expect_match "... and where pmutop has no counters (the OS sampler)" "$(printf '%s\n' "$out" | tail -1)" '"source":"OS (no counters)"'
expect_is "... the same counters read" "$(seen)" yes
# an older kernel: counts, no *_total_time_ms
rm -f "$dir"/sys/devices/system/cpu/cpu*/thermal_throttle/*_time_ms
kill $bumper 2>/dev/null
run "$PMUTOP" --root "$dir" -b -n 2 -d 0.3 --format json
expect_is "a kernel with counts alone: the milliseconds null" "$(rows | sed -n 2p | cut -d' ' -f3,6)" "null null"
