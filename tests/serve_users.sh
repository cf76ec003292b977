#!/bin/sh
# One local user cannot lock the other local users out of --serve (issue
# 44.4): all local clients come from loopback addresses, so the server
# counts a client of this machine as its user (the kernel's owner of the
# client's socket), not its address.  The user nobody keeps 1,100
# half-sent requests open over 127.0.0.1 to 127.0.0.18 (the first 100 from
# 127.0.0.1, the address other local clients use), reopening each as the
# server drops it; meanwhile the user daemon scrapes /metrics 15 times and
# each answer comes within a second; nobody never holds more than its
# share at once.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/http_lib.sh"
plan 6
PY=${PYTHON:-python3}
PY3=/usr/bin/python3 # the system's: other users may not run a user's python
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR="$tmp" TMPDIR="$tmp" XDG_CONFIG_HOME="$tmp/config"
max=$(sed -n 's/^#define SERVE_PER_USER_MAX \([0-9]*\).*/\1/p' "$top_srcdir/tui/serve/serve.h")

port=$(free_port)
"$PMUTOP" --sim nehalem-ep:memory-bound -g stalls -d 0.5 --serve "127.0.0.1:$port" >"$tmp/s.out" 2>"$tmp/s.err" &
pids="$pids $!"
if wait_http "http://127.0.0.1:$port/metrics"; then pass "the server answers"; else fail "the server answers" "$(cat "$tmp/s.err")"; fi

cat >"$tmp/flood.py" <<'PYEOF'
import socket, sys, time
port, seconds, ready = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
HEAD = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"   # never ends: a half-sent request
socks, opened = [], 0

def open_one(k):
    global opened
    try:
        s = socket.socket()
        s.settimeout(0.05)
        # 127.0.0.1 first (the address other local clients use), then the rest of 127/8
        s.bind(("127.0.0.%d" % (1 if k % 1100 < 100 else 2 + k % 17), 0))
        s.connect(("127.0.0.1", port))
        s.send(HEAD)
        s.setblocking(False)
        socks.append(s)
        opened += 1
    except OSError:
        s.close()

k = 0
for k in range(1100):
    open_one(k)
open(ready, "w").close()
end = time.time() + seconds
while time.time() < end:
    alive = []
    for s in socks:
        try:
            if s.recv(1) == b"":      # the server closed it
                s.close()
                continue
        except BlockingIOError:
            pass                      # held open: nothing answered
        except OSError:
            s.close()
            continue
        alive.append(s)
    socks = alive
    while len(socks) < 1100 and time.time() < end:   # reopen what was dropped
        k += 1
        open_one(k)
    time.sleep(0.1)
print("flood: %d connections opened" % opened)
PYEOF
mkdir "$tmp/n"
chown nobody "$tmp/n"
setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "ulimit -n 4096; exec $PY3 '$tmp/flood.py' $port 7 '$tmp/n/ready'" >"$tmp/flood.out" 2>&1 &
flood=$!
pids="$pids $flood"
i=0
while [ ! -e "$tmp/n/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
# the connections the server holds (accepted: owned by pmutop), at most, while the flood lasts
(
	most=0
	while kill -0 $flood 2>/dev/null; do
		n=$(ss -Htnp state established "( sport = :$port )" | grep -c pmutop)
		[ "$n" -gt "$most" ] && most=$n
		echo "$most" >"$tmp/most"
		sleep 0.2
	done
) &
watch=$!

cat >"$tmp/scrape.py" <<'PYEOF'
import http.client, sys, time
port = int(sys.argv[1])
lat, bad = [], []
for i in range(15):
    t = time.time()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", "/metrics")
        r = c.getresponse()
        if r.status != 200 or b"pmutop_exec_stall_ratio{" not in r.read():
            bad.append(r.status)
        c.close()
    except Exception as e:
        bad.append(repr(e))
    lat.append(time.time() - t)
    time.sleep(0.3)
print("scrapes: %d of 15 failed, slowest %.0f ms, over 1 s: %d%s" %
      (len(bad), max(lat) * 1e3, sum(l > 1 for l in lat),
       "; how: " + ", ".join(str(b) for b in bad[:3]) if bad else ""))
PYEOF
res=$(setpriv --reuid=daemon --regid=daemon --clear-groups $PY3 "$tmp/scrape.py" "$port" 2>&1)
echo "# $res"
expect_match "another local user's 15 scrapes during the flood: all answered" "$res" "scrapes: 0 of 15 failed"
expect_match "... each within a second" "$res" "over 1 s: 0"
wait $flood
wait $watch
fl=$(cat "$tmp/flood.out")
most=$(cat "$tmp/most" 2>/dev/null)
echo "# $fl; the server held at most $most at once"
# (a scrape of the other user's may be among them at that moment)
if [ -n "$most" ] && [ "$most" -le $((max + 1)) ] && [ "$most" -ge 1 ]; then pass "the flooding user held at most its share ($most, its share $max), over 18 loopback addresses"; else fail "the flooding user held at most its share ($max)" "$fl; held $most"; fi
run curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics"
expect_is "the server still answers after the flood" "$out" 200

# ---- a flood too big for the per-client limits (root's own, 64 at each of 18 addresses: 1,152)
# fills the server: the oldest half-sent requests make room, and a scrape still finds a place
rm -f "$tmp/n/ready"
sh -c "ulimit -n 4096; exec $PY '$tmp/flood.py' $port 7 '$tmp/n/ready'" >"$tmp/flood2.out" 2>&1 &
flood=$!
pids="$pids $flood"
i=0
while [ ! -e "$tmp/n/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
res=$($PY "$tmp/scrape.py" "$port" 2>&1)
echo "# root's flood: $res"
case "$res" in
*"scrapes: 0 of 15 failed"*"over 1 s: 0") pass "a flood that fills the server: scrapes still all answered, within a second" ;;
*) fail "a flood that fills the server: scrapes still all answered, within a second" "$res" ;;
esac
wait $flood
