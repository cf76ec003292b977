#!/bin/sh
# A flood of cgroups neither hides the machine's services nor slows the
# sampler (issue 44.3): root's pmutop watches a fake root whose
# victim.service (root's) runs a busy process; the user nobody, owner of a
# delegated cgroup, makes 20,000 cgroups under it while pmutop runs.  Every
# sample still shows victim.service with its CPU time; samples keep coming
# at the interval asked (each one's window as long as the time between
# them); the view keeps at most its 4,096 cgroups and says how many it left
# out and why.
. "$top_srcdir/tests/lib.sh"
plan 9
PY=${PYTHON:-python3}
PY3=/usr/bin/python3 # the system's: other users may not run a user's python
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=""
trap 'rm -f "$tmp/advance"; for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
root=$tmp/root
cg=$root/sys/fs/cgroup
mkdir -p "$cg/system.slice/victim.service" "$cg/user.slice/user-65534.slice" "$root/proc/4242"
echo "cpu memory" >"$cg/cgroup.controllers"
echo 4242 >"$cg/system.slice/victim.service/cgroup.procs"
echo "0::/system.slice/victim.service" >"$root/proc/4242/cgroup"
chown nobody "$cg/user.slice/user-65534.slice"
# busy: the victim's process keeps a CPU busy (its cpu.stat and its ticks advance with the
# clock) while $tmp/advance is there
busy() {
	touch "$tmp/advance"
	(
		t0=$(date +%s%N)
		while [ -e "$tmp/advance" ]; do
			us=$((($(date +%s%N) - t0) / 1000))
			echo "usage_usec $us" >"$cg/system.slice/victim.service/cpu.stat.new"
			mv "$cg/system.slice/victim.service/cpu.stat.new" "$cg/system.slice/victim.service/cpu.stat"
			printf '4242 (victim) R 1 1 1 0 -1 0 0 0 0 0 %d 0 0 0 20 0 1 0 1 1 1\n' $((us / 10000)) >"$root/proc/4242/stat.new"
			mv "$root/proc/4242/stat.new" "$root/proc/4242/stat"
			sleep 0.02
		done
	) &
	pids="$pids $!"
}
busy

: >"$tmp/out"
# (up to 150 samples: it is ended with ^C, a clean end, two samples after one says what the
# flood made it leave out: a loaded machine's walk takes longer to come to the cap)
"$PMUTOP" --root "$root" --who-procs 5 -b -n 150 -d 0.2 --format json >"$tmp/out" 2>"$tmp/err" &
pm=$!
pids="$pids $pm"
i=0
while [ $i -lt 600 ] && [ "$(wc -l <"$tmp/out")" -lt 3 ]; do sleep 0.05; i=$((i + 1)); done
# the flood, while pmutop runs
cat >"$tmp/flood.py" <<'PYEOF'
import os, sys
d = sys.argv[1]
for i in range(20000):
    os.mkdir("%s/job%d" % (d, i))
PYEOF
setpriv --reuid=nobody --regid=nogroup --clear-groups $PY3 "$tmp/flood.py" "$cg/user.slice/user-65534.slice"
flooded=$(wc -l <"$tmp/out")
said() { grep -q 'cgroups without processes left out' "$tmp/out"; }
two_more() { [ "$(wc -l <"$tmp/out")" -ge "$n" ]; }
want=0
if wait_until 40 said; then
	n=$(($(wc -l <"$tmp/out") + 2))
	wait_until 10 two_more
	kill -INT $pm 2>/dev/null && want=130
fi
wait $pm
rc=$?
rm -f "$tmp/advance"
expect_is "pmutop ran through the flood (and ended as ^C ends it: 130)" "$rc" "$want"

res=$($PY - "$tmp/out" "$flooded" <<'PYEOF'
import datetime, json, pmutop_json, statistics, sys
rows = [pmutop_json.loads(l) for l in open(sys.argv[1]) if l.strip()]
after = rows[int(sys.argv[2]):]
def t(s):
    return datetime.datetime.strptime(s["time"], "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
victim = [[r for r in s["who"]["cgroups"] if r["path"] == "system.slice/victim.service"] for s in rows]
print("samples %d, after the flood %d" % (len(rows), len(after)))
print("victim in every sample: %s" % all(victim))
busy = [v[0]["cpus"] for v in victim[len(rows) - len(after):] if v and v[0]["cpus"] is not None]
# its cpu.stat follows the clock in steps of a loop a loaded machine slows: the mean over the
# samples is the busy CPU, a single window may catch one step more or less
print("victim busy after the flood: %s" % (len(busy) > len(after) // 2 and abs(sum(busy) / len(busy) - 1) < 0.15))
gaps = [t(b) - t(a) for a, b in zip(rows, rows[1:])]
print("median gap %.3f s, largest %.3f s" % (statistics.median(gaps), max(gaps)))
# each sample's window as long as the time since the one before (within 25 %, or 50 ms)
off = [(g, b["interval_s"]) for g, b in zip(gaps, rows[1:]) if abs(g - b["interval_s"]) > max(0.25 * g, 0.05)]
print("windows true: %s %s" % (not off, off[:3]))
print("over the cap: %s" % any(len(s["who"]["cgroups"]) > 4096 for s in rows))
print("last why: %s" % rows[-1]["who"].get("why"))
PYEOF
)
echo "$res" | sed 's/^/# /'
expect_match "victim.service (root's, busy) is in every sample, through the flood" "$res" "victim in every sample: True"
expect_match "... with its CPU time (1 CPU busy)" "$res" "victim busy after the flood: True"
gap=$(printf '%s\n' "$res" | sed -n 's/^median gap \([0-9.]*\) s.*/\1/p')
near "samples keep coming at the interval asked (median gap, 0.2 s asked)" "${gap:-9}" 0.2 0.25
expect_match "... each sample's window as long as the time since the one before" "$res" "windows true: True"
expect_match "the view never keeps more than its 4,096 cgroups" "$res" "over the cap: False"
expect_match "... and says how many it left out, and why" "$res" "cgroups without processes left out: the tree has"

# started on the flooded tree: the first look already keeps the victim (a scan that kept the
# first 4,096 directories it came to lost it when the flood came first in the directory's order)
busy
run "$PMUTOP" --root "$root" --who-procs 5 -b -n 3 -d 0.2 --format json
rm -f "$tmp/advance"
got=$(printf '%s\n' "$out" | $PY -c '
import pmutop_json, json, sys
rows = [pmutop_json.loads(l) for l in sys.stdin if l.strip()]
print(len(rows), all(any(r["path"] == "system.slice/victim.service" for r in s["who"]["cgroups"]) for s in rows))')
expect_is "started after the flood: victim.service in every sample" "$got" "3 True"

# the view fills to its cap as its walk (a share of each interval) goes through the tree: a
# run on the flooded tree is watched until a sample keeps 4,096 (a slow build's walk finds
# fewer a look, so the wait is on the sample, not a count of them), and none keeps more
busy
"$PMUTOP" --root "$root" --who-procs 5 -b -n 3000 -d 0.1 --format json >"$tmp/fill" 2>"$tmp/err" &
pm=$!
pids="$pids $pm"
filled() {
	$PY -c 'import pmutop_json, json, sys
for l in open(sys.argv[1]):
    try:
        if len(pmutop_json.loads(l)["who"]["cgroups"]) >= 4096: sys.exit(0)
    except ValueError: pass
sys.exit(1)' "$tmp/fill"
}
wait_until 120 filled
kill $pm 2>/dev/null
wait $pm 2>/dev/null
rm -f "$tmp/advance"
got=$($PY -c 'import pmutop_json, json, sys
n = [len(pmutop_json.loads(l)["who"]["cgroups"]) for l in open(sys.argv[1]) if l.endswith("\n")]
print("%d samples, kept at most %d" % (len(n), max(n or [0])))' "$tmp/fill")
expect_match "on the flooded tree the view fills to its 4,096 cgroups and keeps no more" "$got" "kept at most 4096"
