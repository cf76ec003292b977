#!/bin/sh
# A complete request that arrives amid a burst of half-sent ones from the
# same address still gets its answer (--serve), end to end: the server is
# stopped while the kernel queues 64 connections from 127.0.0.1 that each
# send part of a request head, then one complete request, then 64 more
# half-sent ones; it goes on and accepts them in a burst.  An address holds
# SERVE_PER_ADDRESS_MAX (64) at once: each connection past that shuts a
# half-sent one, never the complete request, and the server answers it.
# (Whether the server has read a connection's bytes yet is up to its
# threads here; tests/check_guard.c holds the case where it has read none.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/http_lib.sh"
plan 4
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill -CONT $p 2>/dev/null; kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR="$tmp" TMPDIR="$tmp" XDG_CONFIG_HOME="$tmp/config"
max=$(sed -n 's/^#define SERVE_PER_ADDRESS_MAX \([0-9]*\).*/\1/p' "$top_srcdir/tui/serve/serve.h")

port=$(free_port)
"$PMUTOP" --sim nehalem-ep:memory-bound -g stalls -d 0.5 --serve "127.0.0.1:$port" >"$tmp/s.out" 2>"$tmp/s.err" &
srv=$!
pids="$pids $srv"
if wait_http "http://127.0.0.1:$port/metrics"; then pass "the server answers"; else fail "the server answers" "$(cat "$tmp/s.err")"; fi

cat >"$tmp/burst.py" <<'PYEOF'
import os, signal, socket, sys, time
port, pid, n, stop = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
HEAD = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"   # never ends: a half-sent request
half = []
os.kill(pid, signal.SIGSTOP)
open(stop, "w").close()
for k in range(n):          # the kernel completes these connections while the server is stopped
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(HEAD)
    half.append(s)
scrape = socket.create_connection(("127.0.0.1", port), timeout=10)
scrape.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
for k in range(n):          # more half-sent ones after it
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(HEAD)
    half.append(s)
os.kill(pid, signal.SIGCONT)
got = b""
try:
    while True:
        b = scrape.recv(65536)
        if not b:
            break
        got += b
except OSError as e:
    print("scrape: %r" % e)
print("scrape: %s" % (got.split(b"\r\n", 1)[0].decode() or "closed without an answer"))
# until the server has shut as many as its limit leaves no room for (10 s at most)
shut, end = set(), time.time() + 10
while len(shut) < n and time.time() < end:
    for i, s in enumerate(half):
        if i in shut:
            continue
        s.settimeout(0.001)
        try:
            if s.recv(1) == b"":
                shut.add(i)
        except socket.timeout:
            pass
        except OSError:
            shut.add(i)
print("half-sent ones shut: %d of %d" % (len(shut), len(half)))
PYEOF
res=$($PY "$tmp/burst.py" "$port" "$srv" "$max" "$tmp/stopped" 2>&1)
echo "$res" | sed "s/^/# /"
expect_match "the complete request among $((2 * max + 1)) from one address, accepted in a burst: answered" "$res" "scrape: HTTP/1.1 200"
# the address holds its limit: of the 2 x max half-sent ones, max were shut, or max + 1 when one
# came while the complete request was still held
shut=$(printf '%s\n' "$res" | sed -n 's/^half-sent ones shut: \([0-9]*\) of.*/\1/p')
if [ "${shut:-0}" -ge "$max" ] && [ "$shut" -le $((max + 1)) ]; then
	pass "the half-sent ones made room: $shut of $((2 * max)) shut, the rest held"
else
	fail "the half-sent ones made room: $max (or $((max + 1))) of $((2 * max)) shut" "$res"
fi
run curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics"
expect_is "the server answers after the burst" "$out" 200
