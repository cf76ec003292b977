#!/bin/sh
# A hostile local user (nobody, through setpriv) against root's pmutop on
# the fake device tree: a link planted where the old lock file was is never
# written through; nobody can take the counters' lock (a flock on the
# device nodes only their owners may open); a viewers' socket nobody bound
# is refused by root and by other users (its figures could be forged) and
# root counts itself; root never reads or writes settings through another
# user's home, link or file; --record opens no link, no other user's file
# or FIFO, also while a racer swaps them; FIFOs where files are expected
# are refused at once, and a stop signal ends a start-up that waits; a
# replay whose file is cut under it says so.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 25
T="tmux -L pmutop-attack-$$"
. "$top_srcdir/tests/tmux_lib.sh"
fakehw_start nehalem-ep:memory-bound
u=$(mktemp -d)
chmod 755 "$u"
fakehw_cleanup='for n in "" -2 -3 -4; do tmux -L pmutop-attack-$$$n kill-server 2>/dev/null; done; rm -rf "$u"'
export XDG_CONFIG_HOME="$u/rootconfig" XDG_RUNTIME_DIR="$u" TMPDIR="$u"
cp "$PMUTOP" "$u/pmutop"
chmod 755 "$u/pmutop"
NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
as_nobody() { $NOBODY "$@"; }
# a helper in the background runs as $NOBODY CMD &, not through the function: $! is then the
# helper itself (a function call backgrounded is a subshell, which a kill left without its
# child, and that child held the test's output open until it ended on its own)
PY3=/usr/bin/python3 # the system's: nobody may not run a user's python
lockdir="$dir/run/lock"
victim="$u/victim"
printf 'root file\n' >"$victim"
chmod 644 "$victim"

# ---- 1. a link where the old lock file was, in a lock directory without the sticky bit
chmod 0777 "$lockdir"
as_nobody ln -s "$victim" "$lockdir/pmutop.lock"
run "$PMUTOP" --root "$dir" -b -n 1 -d 0.2 -g stalls
expect_match "root's pmutop counts with a link planted in the lock directory" "$rc $(printf '%s\n' "$out" | head -1)" "0 # sample 1"
expect_is "... and writes nothing through it" "$(cat "$victim")" "root file"
rm -f "$lockdir/pmutop.lock"
chmod 1777 "$lockdir"

# ---- 2. nobody cannot take the lock
$NOBODY sh -c "exec 9>'$lockdir/pmutop.lock' && flock -n 9 && exec sleep 30" >/dev/null 2>&1 &
flocker=$!
run as_nobody flock -n "$dir/dev/cpu/0/msr" true
expect_match "nobody cannot open the device the lock is taken on" "$err" "Permission denied"
run "$PMUTOP" --root "$dir" -b -n 1 -d 0.2 -g stalls
expect_match "a file nobody locked in the lock directory does not stop root's pmutop" "$rc $(printf '%s\n' "$out" | head -1)" "0 # sample 1"
kill $flocker 2>/dev/null
wait $flocker 2>/dev/null
rm -f "$lockdir/pmutop.lock"

# ---- 3. a viewers' socket nobody bound, serving forged figures
cat >"$u/forge.py" <<'PYEOF'
import json, os, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
s.bind(path)
os.chmod(path, 0o666)
s.listen(16)
head = json.dumps({"pmutop_recording": 1, "host": "forged", "source": "msr"}).encode() + b"\n"
while True:
    c, _ = s.accept()
    c.recv(4096)
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nX-Pmutop-Owner: pid 1 on forged\r\n\r\n" % len(head) + head)
    c.close()
PYEOF
$NOBODY $PY3 "$u/forge.py" "$lockdir/pmutop.sock" >/dev/null 2>"$u/forge.err" &
forger=$!
i=0
while [ ! -S "$lockdir/pmutop.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
run "$PMUTOP" --root "$dir" -b -n 1 -d 0.2 -g stalls
expect_match "root refuses a socket nobody bound" "$err" "of user 65534, which does not hold the counters' lock"
expect_match "... and counts the machine itself" "$rc $(printf '%s\n' "$out" | head -1)" "0 # sample 1"
case "$out$err" in *"on forged"*) fail "... never showing what it was sent" "$out" ;; *) pass "... never showing what it was sent" ;; esac
kill $forger 2>/dev/null
wait $forger 2>/dev/null
rm -f "$lockdir/pmutop.sock"
$NOBODY $PY3 "$u/forge.py" "$lockdir/pmutop.sock" >/dev/null 2>"$u/forge.err" &
forger=$!
i=0
while [ ! -S "$lockdir/pmutop.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
run as_nobody env HOME="$u" "$u/pmutop" --root "$dir" -b -n 1 -d 0.2
expect_match "another user's pmutop refuses it too" "$err" "its figures could be forged, so pmutop does not show them"
kill $forger 2>/dev/null
wait $forger 2>/dev/null
rm -f "$lockdir/pmutop.sock"

# ---- 4. root with nobody's home: settings neither read nor written through nobody's link
home="$u/home"
mkdir -p "$home/.config/pmutop"
printf 'interval 5\n' >"$u/nobody-rc"
chown -R nobody:nogroup "$home" "$u/nobody-rc"
as_nobody ln -s "$victim" "$home/.config/pmutop/pmutoprc"
$T new-session -d -x 160 -y 50 "env -u XDG_CONFIG_HOME HOME='$home' '$PMUTOP' --root '$dir' -d 0.3 -g stalls; echo exit-\$?; sleep 30"
if wait_for "LIVE" 10; then pass "root with another user's HOME starts"; else fail "root with another user's HOME starts" "$(screen | head -5)"; fi
expect_match "... saying it does not use that user's settings" "$(screen)" "not using the settings file $home/.config/pmutop/pmutoprc"
$T send-keys q
wait_for "exit-0" 10 >/dev/null
expect_is "... and writes nothing through that user's link at quit" "$(cat "$victim")" "root file"
rm -f "$home/.config/pmutop/pmutoprc"
as_nobody cp "$u/nobody-rc" "$home/.config/pmutop/pmutoprc"
tmux_end
T="tmux -L pmutop-attack-$$-2" # a server of its own: the last one may still be going
$T new-session -d -x 160 -y 50 "env -u XDG_CONFIG_HOME HOME='$home' '$PMUTOP' --root '$dir' -g stalls; echo exit-\$?; sleep 30"
wait_for "sample 2" 10 >/dev/null
expect_match "a settings file of that user's is not read by root" "$(screen)" "interval 1.0 s"
$T send-keys q
wait_for "exit-0" 10 >/dev/null
expect_is "... nor rewritten" "$(cat "$home/.config/pmutop/pmutoprc") $(stat -c %U "$home/.config/pmutop/pmutoprc")" "interval 5 nobody"
tmux_end

# ---- 5. --record: no link, no other user's file or FIFO, also while a racer swaps them
spot="$u/spot"
mkdir "$spot"
chmod 1777 "$spot"
as_nobody ln -s "$victim" "$spot/rec.jsonl"
run "$PMUTOP" --sim nehalem-ep -b -n 1 -d 0.1 --record "$spot/rec.jsonl"
expect_match "--record refuses a link" "$rc $err" "2 pmutop: $spot/rec.jsonl is a symbolic link: give the file itself"
rm -f "$spot/rec.jsonl"
as_nobody touch "$spot/rec.jsonl"
run "$PMUTOP" --sim nehalem-ep -b -n 1 -d 0.1 --record "$spot/rec.jsonl"
expect_match "... and an empty file of another user's" "$rc $err" "belongs to user 65534: pmutop records only to a new file or one of yours"
rm -f "$spot/rec.jsonl"
as_nobody mkfifo "$spot/rec.jsonl"
run timeout 10 "$PMUTOP" --sim nehalem-ep -b -n 1 -d 0.1 --record "$spot/rec.jsonl"
expect_match "... and another user's FIFO, at once" "$rc $err" "belongs to user 65534"
rm -f "$spot/rec.jsonl"
cat >"$u/racer.py" <<'PYEOF'
import os, sys, time
spot, victim = sys.argv[1], sys.argv[2]
p, tmp = os.path.join(spot, "race.jsonl"), os.path.join(spot, "race.tmp")
end = time.time() + 60
while time.time() < end:
    try:
        os.symlink(victim, tmp)
        os.rename(tmp, p)          # a link where root is about to write
        open(tmp, "w").close()
        os.rename(tmp, p)          # an empty file of nobody's, as root checks it
    except OSError:
        pass
PYEOF
$NOBODY $PY3 "$u/racer.py" "$spot" "$victim" >/dev/null 2>"$u/racer.err" &
racer=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$PMUTOP" --sim nehalem-ep -b -n 1 -d 0.1 --record "$spot/race.jsonl" >/dev/null 2>&1
done
kill $racer 2>/dev/null
wait $racer 2>/dev/null
expect_is "20 --record runs against a racer swapping a link in: the linked file untouched" "$(cat "$victim")" "root file"

# ---- 6. FIFOs where files are expected, and a stop signal while starting
mkfifo "$u/fifo"
run timeout 10 "$PMUTOP" --sim nehalem-ep -b -n 1 --layout "$u/fifo"
expect_match "--layout FIFO: refused at once" "$rc $err" "2 pmutop: layout $u/fifo is a FIFO (named pipe), not a regular file: give a file"
run timeout 10 "$PMUTOP" --sim nehalem-ep -b -n 1 --serve 0 --auth-file "$u/fifo"
expect_match "--auth-file FIFO: refused at once" "$rc $err" "--auth-file $u/fifo is a FIFO (named pipe), not a regular file"
run timeout 10 "$PMUTOP" --sim nehalem-ep -b -n 1 --serve 0 --tls-cert "$u/fifo" --tls-key "$u/fifo"
expect_match "--tls-cert FIFO: refused at once" "$rc $err" "--tls-cert $u/fifo is a FIFO (named pipe), not a regular file"
mkdir -p "$u/fifocfg/pmutop"
mkfifo "$u/fifocfg/pmutop/pmutoprc"
T="tmux -L pmutop-attack-$$-3"
$T new-session -d -x 160 -y 50 "XDG_CONFIG_HOME='$u/fifocfg' '$PMUTOP' --sim nehalem-ep -d 0.3; echo exit-\$?; sleep 30"
if wait_for "is a FIFO (named pipe), not a regular file" 10 && wait_for "LIVE" 10; then pass "a settings FIFO: said, and the screen runs"; else fail "a settings FIFO: said, and the screen runs" "$(screen | tail -4)"; fi
$T send-keys q
wait_for "exit-0" 10 >/dev/null
tmux_end
# a socket that accepts and never answers: start-up waits on it, and SIGTERM still ends pmutop
cat >"$u/mute.py" <<'PYEOF'
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(16)
conns = []
while True:
    c, _ = s.accept()
    conns.append(c)
    open(sys.argv[2], "a").write("accepted\n")
PYEOF
: >"$u/mute.log"
$PY3 "$u/mute.py" "$lockdir/pmutop.sock" "$u/mute.log" &
mute=$!
i=0
while [ ! -S "$lockdir/pmutop.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
"$PMUTOP" --root "$dir" -b -d 0.2 >"$u/mute.out" 2>"$u/mute.err" &
pid=$!
# once it has connected, it waits on the socket's answer
wait_until 10 test -s "$u/mute.log"
t0=$(date +%s%N)
kill -TERM $pid
wait_end $pid
t1=$(date +%s%N)
expect_match "SIGTERM ends a start-up that waits on a mute socket" "$rc $(cat "$u/mute.err")" "143 pmutop: stopped while starting (Terminated)"
if [ $(((t1 - t0) / 1000000)) -lt 3000 ]; then pass "... at once ($(((t1 - t0) / 1000000)) ms)"; else fail "... at once" "$(((t1 - t0) / 1000000)) ms"; fi
kill $mute 2>/dev/null
wait $mute 2>/dev/null
rm -f "$lockdir/pmutop.sock"

# ---- 7. a replay whose file is cut under it
"$PMUTOP" --sim nehalem-ep -b -n 6 -d 0.1 --record "$u/cut.jsonl" >/dev/null 2>&1
T="tmux -L pmutop-attack-$$-4"
$T new-session -d -x 160 -y 50 "XDG_CONFIG_HOME='$u/cfg7' '$PMUTOP' --replay '$u/cut.jsonl'; echo exit-\$?; sleep 30"
wait_for "REPLAY" 10 >/dev/null
$T send-keys ' '
wait_for "paused" 10 >/dev/null
head -c 300 "$u/cut.jsonl" >"$u/cut.tmp" && cat "$u/cut.tmp" >"$u/cut.jsonl"
$T send-keys .
if wait_for "was cut while it was replayed: the replay stopped at sample" 10; then pass "a replay whose file is cut says so"; else fail "a replay whose file is cut says so" "$(screen | head -3; screen | tail -3)"; fi
expect_match "... and its header says stopped" "$(screen | head -2)" "stopped"
$T send-keys q
wait_for "exit-0" 10 >/dev/null
