#!/bin/sh
# The server under attack, at a size CI can afford, with /metrics still
# answering other clients all along: viewers' long-polls parked on purpose
# (a number past the latest sample is answered at once; a real wait ends
# after the poll deadline with 204; one address holds at most 64
# connections); slowloris (a header line every 3 s: dropped at the head's
# deadline, not kept alive by the idle timeout); a flood of wrong passwords
# (throttled per address with 429, while a client with the right password
# is served at its usual pace); a password too long for crypt(3) and a
# wrong one said as such, by the server and by a viewer.
. "$top_srcdir/tests/lib.sh"
plan 21
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR="$tmp" TMPDIR="$tmp" XDG_CONFIG_HOME="$tmp/config"
SIM="--sim nehalem-ep:memory-bound"

. "$top_srcdir/tests/http_lib.sh"

# ---- floods on a server without passwords
port=$(free_port)
# a long interval: a viewer's wait for the next sample outlasts the poll deadline
"$PMUTOP" $SIM -g stalls -d 60 --serve "127.0.0.1:$port" >"$tmp/a.out" 2>"$tmp/a.err" &
pids="$pids $!"
if wait_http "http://127.0.0.1:$port/metrics"; then pass "the server answers"; else fail "the server answers" "$(cat "$tmp/a.err")"; fi
res=$($PY - "$port" 2>&1 <<'PYEOF'
import http.client, socket, sys, threading, time
port = int(sys.argv[1])

def latest():
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=("127.0.0.2", 0))
    c.request("GET", "/metrics")
    r = c.getresponse()
    seq = int(r.getheader("X-Pmutop-Seq"))
    r.read()
    c.close()
    return seq

def connect(src):
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(src, 0))
    return s

# a number past the latest sample: answered at once
t = time.time()
codes = []
for a in ("18446744073709551615", "-1", "1e9", str(latest() + 1000)):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=("127.0.0.2", 0))
    c.request("GET", "/api/v1/stream/next?after=" + a)
    r = c.getresponse()
    codes.append(r.status)
    r.read()
    c.close()
print("past the latest: %s in %.2f s" % (codes, time.time() - t))

# 200 viewers' waits parked from one address, a real wait each (for the sample after the latest)
seq = latest()
parked, refused = [], 0
t_park = time.time()
for i in range(200):
    try:
        s = connect("127.0.0.3")
        s.sendall(b"GET /api/v1/stream/next?after=%d HTTP/1.1\r\nHost: x\r\n\r\n" % seq)
        parked.append(s)
    except OSError:
        refused += 1
time.sleep(1)
held = 0
for s in parked:
    s.setblocking(False)
    try:
        s.recv(1)          # an answer, or the connection closed: not parked
    except BlockingIOError:
        held += 1          # still open, nothing sent: parked
    except OSError:
        pass
    s.setblocking(True)
print("parked from one address: %d of 200 held" % held)

# slowloris from another: a header line every 3 s, never the end of the head
slow = []
for i in range(40):
    s = connect("127.0.0.4")
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    slow.append([s, None])
t_slow = time.time()

# meanwhile /metrics from a third address
lat, bad = [], []
def scrape():
    t = time.time()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.0.2", 0))
        c.request("GET", "/metrics")
        r = c.getresponse()
        if r.status != 200 or b"pmutop_exec_stall_ratio{" not in r.read():
            bad.append(r.status)
        c.close()
    except Exception as e:
        bad.append(repr(e))
    lat.append(time.time() - t)

def loris():
    end = time.time() + 16
    while time.time() < end and any(x[1] is None for x in slow):
        for x in slow:
            if x[1] is not None:
                continue
            try:
                x[0].sendall(b"X-Slow: 1\r\n")
                x[0].setblocking(False)
                try:
                    if x[0].recv(100) == b"":
                        x[1] = time.time() - t_slow
                except BlockingIOError:
                    pass
                x[0].setblocking(True)
            except OSError:
                x[1] = time.time() - t_slow
        time.sleep(3 if time.time() - t_slow < 8 else 0.2)

lt = threading.Thread(target=loris)
lt.start()
for k in range(12):
    ts = [threading.Thread(target=scrape) for _ in range(3)]
    for t in ts: t.start()
    for t in ts: t.join()
    time.sleep(1)
lt.join()
lat.sort()
print("metrics meanwhile: %d of %d failed, slowest %.0f ms" % (len(bad), len(lat), lat[-1] * 1e3))
closed = [x[1] for x in slow if x[1] is not None]
if closed:
    print("slowloris: %d of 40 dropped, after %.1f to %.1f s" % (len(closed), min(closed), max(closed)))
else:
    print("slowloris: none dropped")

# the parked waits: each answered 204 at the poll deadline
got, when = 0, []
for s in parked:
    s.settimeout(max(0.1, 20 - (time.time() - t_park)))
    try:
        d = s.recv(100)
        if d.startswith(b"HTTP/1.1 204"):
            got += 1
            when.append(time.time() - t_park)
    except OSError:
        pass
if when:
    print("parked answered 204: %d, the last after %.1f s" % (got, max(when)))
else:
    print("parked answered 204: 0")
PYEOF
)
echo "$res" | sed 's/^/# /'
expect_match "after= past the latest sample: 400 at once" "$res" "past the latest: [400, 400, 400, 400] in 0."
held=$(printf '%s\n' "$res" | sed -n 's/^parked from one address: \([0-9]*\) of 200 held/\1/p')
if [ -n "$held" ] && [ "$held" -ge 1 ] && [ "$held" -le 64 ]; then pass "one address holds at most 64 connections ($held)"; else fail "one address holds at most 64 connections" "$res"; fi
expect_match "/metrics answers other clients through every flood" "$res" "metrics meanwhile: 0 of 36 failed"
slowest=$(printf '%s\n' "$res" | sed -n 's/^metrics meanwhile: .* slowest \([0-9]*\) ms/\1/p')
if [ -n "$slowest" ] && [ "$slowest" -lt 2000 ]; then pass "... each within 2 s ($slowest ms)"; else fail "... each within 2 s" "$res"; fi
expect_match "slowloris: every connection dropped" "$res" "slowloris: 40 of 40 dropped"
range=$(printf '%s\n' "$res" | sed -n 's/^slowloris: 40 of 40 dropped, after \([0-9.]*\) to \([0-9.]*\) s/\1 \2/p')
# shellcheck disable=SC2086
if [ -n "$range" ] && $PY -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not (8.5 <= a and b <= 14))' $range; then
	pass "... at the head's deadline (10 s), though never idle ($range s)"
else
	fail "... at the head's deadline (10 s), though never idle" "$res"
fi
expect_match "a parked wait ends with 204 at the poll deadline" "$res" "parked answered 204: $held,"
last=$(printf '%s\n' "$res" | sed -n 's/^parked answered 204: .* after \([0-9.]*\) s/\1/p')
if [ -n "$last" ] && $PY -c 'import sys; sys.exit(not (14 <= float(sys.argv[1]) <= 19))' "$last"; then pass "... 15 s after it began ($last s)"; else fail "... 15 s after it began" "$res"; fi

# ---- wrong passwords on a server with an --auth-file
port=$(free_port)
printf 'prom:%s\n' "$(openssl passwd -6 secret)" >"$tmp/users"
"$PMUTOP" $SIM -g stalls -d 0.5 --serve "127.0.0.1:$port" --auth-file "$tmp/users" >"$tmp/b.out" 2>"$tmp/b.err" &
pids="$pids $!"
wait_http "http://127.0.0.1:$port/metrics" -u prom:secret
res=$($PY - "$port" 2>&1 <<'PYEOF'
import base64, http.client, multiprocessing, os, sys, threading, time
port = int(sys.argv[1])
def get(src, user, pw):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(src, 0))
    tok = base64.b64encode(("%s:%s" % (user, pw)).encode()).decode()
    t = time.time()
    c.request("GET", "/metrics", headers={"Authorization": "Basic " + tok})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, time.time() - t, body, r.getheader("Retry-After")

# the right password, before: its usual pace
base = sorted(get("127.0.0.2", "prom", "secret")[1] for _ in range(10))[5]
# The guessers run in a process of their own: twenty threads beside the
# measuring one in this process would hold its interpreter lock for them, and
# the scrape would be timed waiting for Python, not for pmutop.
# They also run at a lower priority (nice 10): beside busy loops, twenty guessing threads at
# the measuring one's own priority kept it off the CPU for tens of ms at a time, and the scrape
# was timed waiting for the CPU, not for pmutop (27 ms beside four busy loops and a build).
# The server's pace is what is measured; the guesses still all go out.
def guessers(q):
    os.nice(10)
    codes = {}
    def guess(k):
        for i in range(15):
            st = get("127.0.0.5", "prom", "guess%d-%d" % (k, i))
            codes[st[0]] = codes.get(st[0], 0) + 1
            if st[0] == 429:
                codes["retry"] = st[3]
    ts = [threading.Thread(target=guess, args=(k,)) for k in range(20)]
    for t in ts: t.start()
    for t in ts: t.join()
    q.put(codes)
q = multiprocessing.Queue()
p = multiprocessing.Process(target=guessers, args=(q,))
lat = []
p.start()
while p.is_alive() and q.empty():
    st = get("127.0.0.2", "prom", "secret")
    lat.append(st[1])
    if st[0] != 200:
        lat.append(99)
codes = q.get()
p.join()
lat.sort()
print("guesses: %d answered 401, %d answered 429 (Retry-After %s)" % (codes.get(401, 0), codes.get(429, 0), codes.get("retry")))
print("right password meanwhile: %d scrapes, median %.1f ms (before: %.1f ms), slowest %.1f ms" %
      (len(lat), lat[len(lat) // 2] * 1e3, base * 1e3, lat[-1] * 1e3))
st = get("127.0.0.6", "prom", "x" * 600)
print("a 600-byte password: %d %s" % (st[0], st[2].decode().strip()))
st = get("127.0.0.6", "prom", "wrong")
print("a wrong one from another address: %d" % st[0])
PYEOF
)
echo "$res" | sed 's/^/# /'
n401=$(printf '%s\n' "$res" | sed -n 's/^guesses: \([0-9]*\) answered 401.*/\1/p')
n429=$(printf '%s\n' "$res" | sed -n 's/^guesses: .* \([0-9]*\) answered 429.*/\1/p')
if [ -n "$n401" ] && [ "$n401" -le 40 ] && [ "${n429:-0}" -ge 260 ]; then pass "300 wrong passwords from one address: most refused unchecked with 429 ($n401 checked)"; else fail "wrong passwords throttled with 429" "$res"; fi
expect_match "... saying when to try again" "$res" "(Retry-After "
med=$(printf '%s\n' "$res" | sed -n 's/^right password meanwhile: .* median \([0-9.]*\) ms.*/\1/p')
if [ -n "$med" ] && $PY -c 'import sys; sys.exit(not float(sys.argv[1]) < 20)' "$med"; then pass "the right password from elsewhere is served at its pace meanwhile (median $med ms)"; else fail "the right password is served at its pace" "$res"; fi
expect_match "a password longer than crypt(3) takes: 401 saying so" "$res" "a 600-byte password: 401 pmutop: the password is longer than crypt(3) can check"
expect_match "another address is not throttled" "$res" "a wrong one from another address: 401"

# ---- the same said by a viewer
PMUTOP_CONNECT_AUTH=prom:wrong run "$PMUTOP" --connect "127.0.0.1:$port" -b -n 1
expect_match "a viewer with a wrong password: 'wrong user or password'" "$err" "wrong user or password"
PMUTOP_CONNECT_AUTH="prom:$(head -c 600 /dev/zero | tr '\0' x)" run "$PMUTOP" --connect "127.0.0.1:$port" -b -n 1
expect_match "a viewer's password too long for crypt(3): said before asking" "$err" "the password is 600 bytes long; a pmutop server checks passwords with crypt(3), which takes at most 511"
PMUTOP_CONNECT_AUTH=prom:secret run "$PMUTOP" --connect "127.0.0.1:$port" -b -n 1
expect_match "the right one views" "$rc $out" "0 # sample"
expect_match "... saying on stderr whose samples they are" "$err" "owns the counters: printing its samples, read-only"

# ---- which addresses other machines reach: the warning only for those
serve_run "[::1]" "$PMUTOP" $SIM -b -n 1 -d 0.2
case "$err" in
*"cannot listen"*) skip "--serve [::1]:PORT is loopback: no warning" "no IPv6 loopback here: $err" ;;
*) expect_match "--serve [::1]:PORT is loopback: no warning" "$(printf '%s\n' "$err" | grep serving)" "pmutop: serving http://[::1]:$port/metrics" ;;
esac
case "$err" in *"anyone who reaches"*) fail "... none at all" "$err" ;; *) pass "... none at all" ;; esac
serve_run 0.0.0.0 "$PMUTOP" $SIM -b -n 1 -d 0.2
expect_match "--serve 0.0.0.0:PORT without --auth-file warns" "$err" "(no --auth-file: anyone who reaches this address can read it)"
