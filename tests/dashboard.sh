#!/bin/sh
# The fleet's view (issue 49.7): the shipped Grafana dashboard
# (contrib/grafana/pmutop.json) queries only the stable names every platform
# exports alike (pmutop_topdown_ratio, pmutop_memory_bandwidth_bytes_per_
# second, ...), and a real Prometheus (Debian's) scraping six emulated
# machines at once, Sapphire and Granite Rapids, Genoa, Alder Lake,
# Nehalem-EP and a shared Ice Lake-SP server (who), answers every panel's query with the machines that have the
# figure.  Which machine has which comes from what each counts: no top-down
# tree and no RAPL on Nehalem (it predates both), no cstate PMU on AMD, no
# per-channel counters on a client's memory controllers, socket links on the
# servers, L3 miss latency in nanoseconds on Intel's servers and Nehalem's
# home logic (AMD counts it in core clocks, not a time).  The level-1
# shares add up to one on each socket, and ?detail=stable keeps a scrape
# bounded while saying how many series it holds.
. "$top_srcdir/tests/lib.sh"
plan 10
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR="$tmp" TMPDIR="$tmp"
. "$top_srcdir/tests/http_lib.sh"

# machine, its scenario and source, the keys that count the dashboard's figures
targets=""
start() {
	name=$1
	shift
	p=$(free_port)
	"$PMUTOP" "$@" -d 0.5 --serve "127.0.0.1:$p" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pids="$pids $!"
	echo "$name 127.0.0.1:$p" >>"$tmp/targets"
	targets="$targets'127.0.0.1:$p',"
}
start spr --sim sapphire-rapids:memory-bound --source perf -g 1,2,9,u,l,w,z
start gnr --sim granite-rapids:memory-bound --source perf -g 1,2,9,u,l,w,z
start genoa --sim genoa:memory-bound --source perf -g 1,2,9,u,w
start adl --sim alderlake:hybrid-split --source perf -g 1,2,9,w,z
start nhm --sim nehalem-ep:memory-bound --source perf -g 1,i,l,z
# who uses the machine: the shared server's containers and services, on an Ice Lake-SP
start icx --sim icelake-sp:shared-server --source perf --who -g 1
# six servers start at once: a sanitizer build's 224- and 384-CPU emulators took more than 10 s
# to serve on a 2-core VM (CI), so each may take a minute (the wait ends as soon as it answers)
down=""
HTTP_WAIT_S=60
while read -r name addr; do
	wait_http "http://$addr/metrics" || down="$down $name: $(cat "$tmp/$name.err")"
done <"$tmp/targets"
expect_is "the six emulated machines serve /metrics" "$down" ""

pport=$(free_port)
cat >"$tmp/prometheus.yml" <<EOF2
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pmutop
    static_configs:
      - targets: [${targets%,}]
EOF2
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prom.log" 2>&1 &
pids="$pids $!"

res=$($PY - "$top_srcdir/contrib/grafana/pmutop.json" "$pport" "$tmp/targets" 2>&1 <<'PYEOF'
import pmutop_json, json, sys, time, urllib.parse, urllib.request
dash, pport = pmutop_json.load(open(sys.argv[1])), sys.argv[2]
machine = {addr: name for name, addr in (l.split() for l in open(sys.argv[3]))}
def query(q):
    url = "http://127.0.0.1:%s/api/v1/query?%s" % (pport, urllib.parse.urlencode({"query": q}))
    with urllib.request.urlopen(url, timeout=5) as r:
        return pmutop_json.load(r)["data"]["result"]
def machines(q):
    return set(machine.get(r["metric"].get("instance"), "?") for r in query(q))
# every machine scraped, its samples there (an emulated server under a sanitizer beside other
# work takes minutes for its first samples: the bound is for a hang, the wait ends when they come)
deadline = time.time() + 300
up = have = set()
while True:
    try:
        up = machines("up == 1")
        have = machines("pmutop_samples_total >= 2")
        if len(up) == 6 and len(have) == 6:
            break
    except Exception:
        pass
    if time.time() > deadline:
        print("not every machine scraped in 300 s: up %s, with 2 samples %s" % (sorted(up), sorted(have)))
        sys.exit()
    time.sleep(0.2)
print("six machines scraped")
want = {
    "Top-down level 1": {"spr", "gnr", "genoa", "adl"},
    "Top-down level 2": {"spr", "gnr", "genoa", "adl"},
    "Memory bandwidth per socket": {"spr", "gnr", "genoa", "adl", "nhm"},
    "Memory bandwidth per channel": {"spr", "gnr", "genoa", "nhm"},
    "Socket links": {"spr", "gnr", "genoa"},
    "L3 miss latency": {"spr", "gnr", "nhm"},
    "Busy frequency": {"spr", "gnr", "genoa", "adl", "nhm"},
    "Utilisation": {"spr", "gnr", "genoa", "adl", "nhm"},
    "C-states": {"spr", "gnr", "adl", "nhm"},
    "Power": {"spr", "gnr", "genoa", "adl"},
    "Who uses the machine": {"icx"},
    "Groups counted": {"spr", "gnr", "genoa", "adl", "nhm"},
    "Series per scrape": {"spr", "gnr", "genoa", "adl", "nhm"},
}
panels = [p for p in dash["panels"] if p.get("targets")]
def published():
    return {machine.get(r["metric"].get("instance"), "?"): float(r["value"][1])
            for r in query("pmutop_samples_total")}
# a machine lacking a figure is waited for until it has published 30 samples (15 s of its
# intervals) since the checks began, not for a time: beside the loaded suite (four busy loops
# and a build) Granite Rapids' 256 emulated CPUs published so few in 30 s that its CHA groups'
# turns came in none of them; 300 s at most
first, lacking = published(), set()
deadline = time.time() + 300
while True:
    short, lacking = [], set()
    for p in panels:
        q = p["targets"][0]["expr"].replace("$instance", ".*").replace("$socket", ".*")
        # what the panel draws over the last 30 s, as Grafana asks for a range: a group that
        # took turns and missed an interval under load is n/a at one instant, not for 30 s
        got = machines("last_over_time((%s)[30s:1s])" % q)
        if not want.get(p["title"], {"?"}) <= got:
            lacking |= want.get(p["title"], {"?"}) - got
            short.append("%s: %s lacks %s" % (p["title"], sorted(got), sorted(want.get(p["title"], {"?"}) - got)))
    now = published()
    if not short or time.time() > deadline or \
            all(now.get(m, 0) - first.get(m, 0) >= 30 for m in lacking):
        break
    time.sleep(0.5)
print("%d panels" % len(panels))
print("panels short of a machine: %s" % short)
if short:
    print("samples published meanwhile: %s" % {m: now.get(m, 0) - first.get(m, 0) for m in sorted(lacking)})
# the level-1 shares add up to one on every socket (the P- and E-cores each, on a hybrid): 9
# sockets and kinds (SPR 2, GNR 1, Genoa 2, Alder Lake P and E, Ice Lake-SP 2), at a scrape that
# has them all (a group that took turns and missed an interval under load is n/a, and its series
# goes stale until the next)
deadline = time.time() + 30
while True:
    sums = query('sum by (instance, socket, style) (label_replace(pmutop_topdown_ratio{level="1"}, "style", "e", "metric", "tma_.*"))')
    if len(sums) >= 9 or time.time() > deadline:
        break
    time.sleep(0.5)
bad = [(machine[r["metric"]["instance"]], r["metric"]["socket"], r["value"][1]) for r in sums if abs(float(r["value"][1]) - 1) > 0.02]
print("level-1 sums off one: %s (%d sockets and kinds)" % (bad, len(sums)))
# the names: one family per figure, the vendor's spelling in metric (seen over the last 30 s)
names = sorted(set(r["metric"]["metric"] for r in query('last_over_time(pmutop_topdown_ratio{node="backend_bound"}[30s])')))
print("backend_bound as the vendors spell it: %s" % names)
PYEOF
)
printf '%s\n' "$res" | sed 's/^/# /'
expect_match "Prometheus scrapes the six emulated machines" "$res" "six machines scraped"
expect_match "the dashboard has 13 panels" "$res" "13 panels"
expect_match "every panel returns data from every machine that has its figure" "$res" "panels short of a machine: []"
expect_match "... the level-1 shares add up to one on every socket" "$res" "level-1 sums off one: [] (9 sockets and kinds)"
expect_match "... one name, the vendors' spellings in a label" "$res" "backend_bound as the vendors spell it: ['Backend_Bound', 'backend_bound', 'tma_backend_bound']"

# bounded and said: the stable families alone, and how many series a scrape holds
spr=$(awk '$1 == "spr" {print $2}' "$tmp/targets")
curl -s "http://$spr/metrics?detail=stable" >"$tmp/stable.txt"
curl -s "http://$spr/metrics" >"$tmp/all.txt"
n_stable=$(grep -c '^pmutop_' "$tmp/stable.txt")
said=$(awk '$1 == "pmutop_scrape_series" {print $2}' "$tmp/stable.txt")
expect_is "?detail=stable says how many series it holds (all but the count itself)" "$said" "$((n_stable - 1))"
n_all=$(grep -c '^pmutop_' "$tmp/all.txt")
if [ "$n_stable" -lt 400 ] && [ "$n_all" -gt $((n_stable * 10)) ]; then
	pass "... a two-socket Sapphire Rapids: $n_stable series against $n_all in the full scrape"
else
	fail "... the stable scrape is bounded" "stable $n_stable, all $n_all"
fi
expect_is "... the full scrape declares each family once (a layout metric named as a stable family yields)" \
	"$(grep '^# TYPE' "$tmp/all.txt" | awk '{print $3}' | sort | uniq -d | tr '\n' ' ')" ""
run promtool check metrics <"$tmp/stable.txt"
if [ "$rc" = 0 ] && [ -z "$out$err" ]; then pass "promtool accepts the stable scrape"; else fail "promtool accepts the stable scrape" "$out" "$err"; fi
