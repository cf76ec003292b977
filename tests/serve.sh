#!/bin/sh
# pmutop --serve end to end: the real Prometheus server (Debian's) scrapes
# an emulated run and its figures arrive with the right labels and the
# values of the very samples pmutop took (matched by sample number through a
# recording of the same run); promtool accepts the exposition; 200
# concurrent scrapes from four addresses all answer, in bounded time; a slow client neither
# blocks others nor stays forever; bad requests get 404/405/413/431; TLS and
# basic authentication through libmicrohttpd; a viewer over --connect sees
# the owner's samples and hears when it quits.
. "$top_srcdir/tests/lib.sh"
plan 43
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR="$tmp" TMPDIR="$tmp"
SIM="--sim nehalem-ep:memory-bound"

. "$top_srcdir/tests/http_lib.sh"

# ---- a headless owner, recorded, served to the real Prometheus
port=$(free_port)
"$PMUTOP" $SIM -g stalls,imc -d 0.5 --serve "127.0.0.1:$port" --record "$tmp/run.jsonl" \
	>"$tmp/owner.out" 2>"$tmp/owner.err" &
owner=$!
pids="$pids $owner"
if wait_http "http://127.0.0.1:$port/metrics"; then pass "--serve answers /metrics"; else fail "--serve answers /metrics" "$(cat "$tmp/owner.err")"; fi
expect_match "... says where on stderr" "$(cat "$tmp/owner.err")" "pmutop: serving http://127.0.0.1:$port/metrics"
if [ ! -s "$tmp/owner.out" ]; then pass "--serve alone is headless: nothing on stdout"; else fail "--serve alone is headless" "$(head -c 300 "$tmp/owner.out")"; fi
curl -s "http://127.0.0.1:$port/metrics" >"$tmp/metrics.txt"
run promtool check metrics <"$tmp/metrics.txt"
if [ "$rc" = 0 ] && [ -z "$out$err" ]; then pass "promtool check metrics: no problem in the exposition"; else fail "promtool check metrics" "rc $rc" "$out" "$err"; fi
ct=$(curl -s -o /dev/null -w '%{content_type}' "http://127.0.0.1:$port/metrics")
expect_match "Prometheus text format 0.0.4 by default" "$ct" "text/plain; version=0.0.4"
ct=$(curl -s -o "$tmp/om.txt" -w '%{content_type}' -H 'Accept: application/openmetrics-text;version=1.0.0' "http://127.0.0.1:$port/metrics")
expect_match "OpenMetrics when the Accept header asks" "$ct" "application/openmetrics-text; version=1.0.0"
expect_match "... ending in # EOF" "$(tail -1 "$tmp/om.txt")" "# EOF"
curl -s -D "$tmp/gz.h" -H 'Accept-Encoding: gzip' -o "$tmp/metrics.gz" "http://127.0.0.1:$port/metrics"
expect_match "gzip when the client takes it (Prometheus does)" "$(tr -d '\r' <"$tmp/gz.h")" "Content-Encoding: gzip"
if gzip -dc "$tmp/metrics.gz" | promtool check metrics >/dev/null 2>&1 &&
	[ "$(stat -c %s "$tmp/metrics.gz")" -lt "$(($(stat -c %s "$tmp/metrics.txt") / 4))" ]; then
	pass "... it unpacks to a valid exposition, under a quarter of the size"
else
	fail "... it unpacks to a valid exposition, under a quarter of the size" "$(ls -l "$tmp/metrics.gz" "$tmp/metrics.txt")"
fi

pport=$(free_port)
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pmutop
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prom.log" 2>&1 &
pids="$pids $!"
res=$($PY - "$pport" "$tmp/run.jsonl" "$port" 2>&1 <<'PYEOF'
import pmutop_json, json, sys, time, urllib.parse, urllib.request
pport, rec, port = sys.argv[1], sys.argv[2], sys.argv[3]
def query(q, t=None):
    args = {"query": q}
    if t is not None:
        args["time"] = "%.3f" % t
    url = "http://127.0.0.1:%s/api/v1/query?%s" % (pport, urllib.parse.urlencode(args))
    with urllib.request.urlopen(url, timeout=5) as r:
        return pmutop_json.load(r)["data"]["result"]
# two scrapes of pmutop at least
deadline = time.time() + 40
while True:
    try:
        r = query("count_over_time(pmutop_samples_total[1m])")
        if r and float(r[0]["value"][1]) >= 2:
            break
    except Exception:
        pass
    assert time.time() < deadline, "Prometheus did not scrape pmutop twice in 40 s"
    time.sleep(0.2)
print("scraped twice")
up = query("up")
assert up and up[0]["value"][1] == "1", up
print("up is 1")
t = time.time()
seq = int(float(query("pmutop_samples_total", t)[0]["value"][1]))
chan = query("pmutop_read_bytes_per_second", t)
stall = query("pmutop_exec_stall_ratio", t)
seq2 = int(float(query("pmutop_samples_total", t)[0]["value"][1]))
assert seq == seq2
# the same sample as pmutop's batch JSON (its recording, replayed)
import subprocess, os
out = subprocess.run([os.environ["PMUTOP"], "--replay", rec, "-b", "--format", "json"],
                     capture_output=True, text=True).stdout
js = {o["seq"]: o for o in map(pmutop_json.loads, out.splitlines()) if "seq" in o}
assert seq in js, "sample %d not in the recording (%s)" % (seq, sorted(js)[-3:])
o = js[seq]
worst = 0
n = 0
for r in chan:
    m = r["metric"]
    for k in ("socket", "channel", "group", "source", "simulated", "job", "instance"):
        assert k in m, (k, m)
    assert m["group"] == "imc" and m["source"] == "sim" and m["simulated"] == "true", m
    want = o["sockets"][int(m["socket"])]["channels"][int(m["channel"])]["metrics"]["read_bytes_per_s"]
    got = float(r["value"][1])
    worst = max(worst, abs(got - want) / want)
    n += 1
assert n == 6, "per-channel bandwidth of 6 channels, got %d" % n
print("channel bandwidth: 6 channels labelled socket/channel/group/source")
for r in stall:
    m = r["metric"]
    for k in ("cpu", "core", "socket", "group", "source"):
        assert k in m, (k, m)
    th = [x for x in o["threads"] if x["cpu"] == int(m["cpu"])][0]
    assert th["core"] == int(m["core"]) and th["socket"] == int(m["socket"]), (th, m)
    want = th["metrics"]["exec_stall_pct"] / 100
    got = float(r["value"][1])
    worst = max(worst, abs(got - want) / want)
    n += 1
assert n == 22, "16 threads' stall ratios, got %d" % (n - 6)
print("thread stalls: 16 threads labelled cpu/core/socket/group/source")
assert worst < 0.02, "largest difference %.4f%%" % (worst * 100)
print("largest difference from the batch JSON of sample %d: %.2g%%" % (seq, worst * 100))
PYEOF
)
for what in "scraped twice" "up is 1" "channel bandwidth: 6 channels" "thread stalls: 16 threads" "largest difference from the batch JSON"; do
	expect_match "Prometheus: $what" "$res" "$what"
done
echo "# $(printf '%s\n' "$res" | grep largest)"

# the Grafana dashboard: tests/dashboard.sh (Prometheus scraping five emulated machines)

# ---- 200 concurrent scrapes, a slow client, bad requests
res=$($PY - "$port" 2>&1 <<'PYEOF'
import http.client, socket, sys, threading, time
port = int(sys.argv[1])
# a slow client: half a request, then nothing
slow = socket.create_connection(("127.0.0.1", port))
slow.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
t_slow = time.time()
lat, bad = [], []
# from four loopback addresses: the server takes at most 64 connections from one
def scrape(src):
    t = time.time()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(src, 0))
        c.request("GET", "/metrics")
        r = c.getresponse()
        body = r.read()
        if r.status != 200 or b"pmutop_exec_stall_ratio{" not in body:
            bad.append(r.status)
        c.close()
    except Exception as e:
        bad.append(repr(e))
    lat.append(time.time() - t)
ts = [threading.Thread(target=scrape, args=("127.0.0.%d" % (1 + i % 4),)) for i in range(200)]
t0 = time.time()
for t in ts: t.start()
for t in ts: t.join()
lat.sort()
print("200 scrapes: %d failed; latency median %.1f ms, max %.1f ms, all in %.2f s" %
      (len(bad), lat[100] * 1e3, lat[-1] * 1e3, time.time() - t0))
if not bad and lat[-1] < 5:
    print("all 200 answered within 5 s")
# the slow client meanwhile: not served, and dropped after the head's deadline (10 s)
slow.settimeout(20)
try:
    data = slow.recv(100)
except Exception as e:
    data = repr(e).encode()
waited = time.time() - t_slow
print("slow client closed after %.1f s: %r" % (waited, data[:40]))
if data == b"" and 8 < waited < 16:
    print("slow client timed out")
PYEOF
)
expect_match "200 concurrent scrapes all answered" "$res" "200 scrapes: 0 failed"
expect_match "... in bounded time" "$res" "all 200 answered within 5 s"
expect_match "a half-sent request is dropped after the timeout, others served meanwhile" "$res" "slow client timed out"
echo "# $(printf '%s\n' "$res" | grep -E '200 scrapes|slow client closed' | tr '\n' ' ')"
code() { curl -s -o "$tmp/body" -w '%{http_code}' "$@"; }
expect_match "an unknown path: 404" "$(code "http://127.0.0.1:$port/nothing")" 404
expect_match "POST: 405" "$(code -X POST "http://127.0.0.1:$port/metrics")" 405
expect_match "... with Allow: GET, HEAD" "$(curl -s -D - -o /dev/null -X DELETE "http://127.0.0.1:$port/metrics" | tr -d '\r')" "Allow: GET, HEAD"
expect_match "a request body: 413" "$(code --data-binary 'x=1' -X GET "http://127.0.0.1:$port/metrics")" 413
big=$(head -c 40000 /dev/zero | tr '\0' a)
expect_match "headers over 32 KiB: 431" "$(code -H "X-Big: $big" "http://127.0.0.1:$port/metrics")" 431
expect_match "HEAD is answered" "$(code -I "http://127.0.0.1:$port/metrics")" 200
res=$(curl -s "http://127.0.0.1:$port/api/v1/sample" | $PY -c 'import pmutop_json, json,sys; o=pmutop_json.load(sys.stdin); print(o["simulated"], o["source"], len(o["threads"]))')
expect_match "/api/v1/sample: the batch JSON of the latest sample" "$res" "True SIMULATED nehalem-ep:memory-bound 16"
res=$(curl -s "http://127.0.0.1:$port/api/v1/topology" | $PY -c 'import pmutop_json, json,sys; o=pmutop_json.load(sys.stdin); print(len(o["sockets"]), sum(len(c["threads"]) for s in o["sockets"] for c in s["cores"]), o["numa"][1]["node"])')
expect_match "/api/v1/topology: 2 sockets, 16 threads, NUMA nodes" "$res" "2 16 1"
res=$(curl -s "http://127.0.0.1:$port/api/v1/layout" | $PY -c 'import pmutop_json, json,sys; o=pmutop_json.load(sys.stdin); m={x["name"]: x for x in o["metrics"]}; print(o["name"], m["read_bytes_per_s"]["prometheus"], m["util"]["prometheus_factor"])')
expect_match "/api/v1/layout: metrics with their exported names" "$res" "nehalem pmutop_read_bytes_per_second 0.01"

# ---- a viewer over HTTP, and the owner quitting
run "$PMUTOP" --connect "127.0.0.1:$port" -b -n 2 --format json
expect_rc "--connect -b prints the owner's samples" 0
expect_match "... the emulated machine's, labelled" "$(printf '%s\n' "$out" | head -1)" '"source":"SIMULATED nehalem-ep:memory-bound","simulated":true'
expect_lines "... -n 2 of them" "$out" 2
run "$PMUTOP" --connect "127.0.0.1:$port" -b -n 3 --format csv --record "$tmp/viewed.jsonl"
expect_match "--connect --record: the owner's samples recorded" "$rc $(printf '%s\n' "$err" | tail -1)" "0 pmutop: recorded 3 samples to $tmp/viewed.jsonl"
viewed=$(printf '%s\n' "$out" | tail -3)
run "$PMUTOP" --replay "$tmp/viewed.jsonl" -b --format csv
expect_is "... and they replay to what the viewer printed" "$(printf '%s\n' "$out" | tail -3)" "$viewed"
"$PMUTOP" --connect "127.0.0.1:$port" -b >"$tmp/view.out" 2>"$tmp/view.err" &
viewer=$!
# the owner quits once the viewer prints its samples
wait_until 10 grep -q '^# sample' "$tmp/view.out"
kill -TERM $owner
wait $owner
orc=$?
i=0
while kill -0 $viewer 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
if kill -0 $viewer 2>/dev/null; then fail "the viewer ends when the owner quits" "still running"; kill $viewer; else pass "the viewer ends when the owner quits"; fi
wait $viewer
vrc=$?
expect_match "... with the owner's message" "$(cat "$tmp/view.err")" "the pmutop you viewed ended: the owner (pmutop pid $owner) quit"
expect_match "... exit 0 (and the owner: 143 for its SIGTERM)" "$vrc $orc" "0 143"
run "$PMUTOP" --connect "127.0.0.1:$port" -b -n 1
expect_match "nothing there: one message" "$err" "nothing answers at http://127.0.0.1:$port"

# ---- TLS and basic authentication
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext "subjectAltName=IP:127.0.0.1" -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
printf '# pmutop users\nalice:%s\n' "$(openssl passwd -6 'wonder land')" >"$tmp/users"
serve_bg "$tmp/tls.err" "$PMUTOP" $SIM -d 0.3 --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" \
	--auth-file "$tmp/users"
pids="$pids $serve_pid"
if wait_http "https://127.0.0.1:$port/metrics" --cacert "$tmp/cert.pem" -u "alice:wonder land"; then pass "HTTPS with the right password: 200"; else fail "HTTPS with the right password" "$(cat "$tmp/tls.err")"; fi
expect_match "... no password: 401" "$(code --cacert "$tmp/cert.pem" "https://127.0.0.1:$port/metrics")" 401
expect_match "... a wrong one: 401" "$(code --cacert "$tmp/cert.pem" -u alice:wonder "https://127.0.0.1:$port/metrics")" 401
expect_match "... plain HTTP to it gets nothing" "$(code "http://127.0.0.1:$port/metrics")" 000
PMUTOP_CONNECT_AUTH="alice:wonder land" run "$PMUTOP" --connect "https://127.0.0.1:$port" --tls-ca "$tmp/cert.pem" -b -n 1
expect_match "--connect over HTTPS with a password" "$out" "SIMULATED nehalem-ep:memory-bound"
run "$PMUTOP" --connect "https://127.0.0.1:$port" --tls-ca "$tmp/cert.pem" -b -n 1
expect_match "... without one: says how to give it" "$err" "PMUTOP_CONNECT_AUTH=USER:PASSWORD"

# ---- what cannot be served: one message, exit 2
printf 'bob:secret\n' >"$tmp/plain"
run "$PMUTOP" $SIM --serve "127.0.0.1:$(free_port)" --auth-file "$tmp/plain"
expect_match "a password in clear in --auth-file: refused" "$rc $err" "2 pmutop: $tmp/plain:1: expected USER:HASH with a crypt(3) hash"
# Prometheus' own port, held until the end (bounded: a pmutop that did listen would serve on)
run timeout 60 "$PMUTOP" $SIM --serve "127.0.0.1:$pport"
expect_match "a port taken: says so" "$rc $err" "2 pmutop: --serve 127.0.0.1:$pport: cannot listen there: Address already in use (another program uses that port: give another)"
