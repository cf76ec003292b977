#!/bin/sh
# One owner, many viewers, on the fake device tree: the pmutop that owns the
# counters listens on ROOT/run/lock/pmutop.sock (mode 0660); a second pmutop
# attaches to it in tmux as a viewer with its own pane and sort, read-only
# (group keys and the interval say they are the owner's); a viewer leaving
# does not disturb the owner; the owner quitting ends the viewer with a
# message; -b views too; the socket's group lets another user in, and
# without it that user is told how; --no-viewers keeps the old refusal.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 30
T="tmux -L pmutop-view-$$"
. "$top_srcdir/tests/tmux_lib.sh"
fakehw_start nehalem-ep:memory-bound
u=$(mktemp -d)
chmod 755 "$u"
fakehw_cleanup='command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$u"'
export XDG_CONFIG_HOME="$u/config" HOME="$u"
sock="$dir/run/lock/pmutop.sock"

# pane P of the tmux server: what it shows now
pane() { $T capture-pane -p -t "$1" 2>/dev/null; }
wait_pane() {
	i=0
	while [ $i -lt $((${3:-5} * 20)) ]; do
		case "$(pane "$1")" in *"$2"*) return 0 ;; esac
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
# sample_no P: the sample number pane P shows; wait_seq P N [SECONDS]: until it shows a later one
sample_no() { pane "$1" | sed -n 's/.*sample \([0-9]*\).*/\1/p' | head -1; }
seq_past() { [ "$(sample_no "$1")" -gt "$2" ] 2>/dev/null; }
wait_seq() { wait_until "${3:-5}" seq_past "$1" "$2"; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$T new-session -d -x 160 -y 50 -s owner "'$PMUTOP' --root '$dir' -d 0.3 -g stalls,imc --serve 127.0.0.1:$port --tui; echo owner-exit \$?; sleep 60"
if wait_pane owner "LIVE" 10; then pass "the owner runs"; else fail "the owner runs" "$(pane owner)"; fi
expect_match "--serve with --tui: the screen says where it serves" "$(pane owner)" "SERVING http://127.0.0.1:$port"
i=0
while [ ! -S "$sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
expect_match "it listens on the viewers' socket, mode 0660" "$(stat -c '%F %a' "$sock" 2>&1)" "socket 660"
# lock_holder: the pid holding the counters' lock (a flock on CPU 0's device, as /proc/locks
# shows it), by device and inode (another fake tree of a test running beside this one has the
# same inodes); nothing while no one holds it
lock_holder() {
	$PY - "$dir/dev/cpu/0/msr" <<'PYEOF'
import os, sys
st = os.stat(sys.argv[1])
want = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
for line in open("/proc/locks"):
    f = line.split()
    if f[1] == "FLOCK" and f[3] == "WRITE" and f[5] == want:
        print(f[4])
        break
PYEOF
}
# the owner holds the counters' lock
owner_pid=$(lock_holder)

$T new-session -d -x 160 -y 50 -s viewer "cd '$u' && '$PMUTOP' --root '$dir'; echo viewer-exit \$?; sleep 60"
if wait_pane viewer "VIEWING" 10; then pass "a second pmutop attaches as a viewer"; else fail "a second pmutop attaches as a viewer" "$(pane viewer | head -5)"; fi
expect_match "... names the owner and says read-only" "$(pane viewer)" "VIEWER of pid $owner_pid on"
expect_match "... shows the owner's machine and source" "$(pane viewer | head -1)" "X5570"
seq1=$(sample_no viewer)
wait_seq viewer "${seq1:-0}"
seq2=$(sample_no viewer)
if [ "${seq2:-0}" -gt "${seq1:-0}" ]; then pass "... its samples follow the owner's ($seq1 -> $seq2)"; else fail "... its samples follow the owner's" "$seq1 -> $seq2"; fi
$T send-keys -t viewer 4
if wait_pane viewer "the groups and the interval are the owner's (pid $owner_pid"; then pass "a group key in the viewer: the owner's, it says"; else fail "a group key in the viewer says it is the owner's" "$(pane viewer | tail -6)"; fi
$T send-keys -t viewer +
if wait_pane viewer "the groups and the interval are the owner's"; then pass "... so is the interval"; else fail "... so is the interval" "$(pane viewer | tail -4)"; fi
expect_match "... the owner still counts its two groups only" "$(pane owner | grep -c 'ports:4 ROT')" 0
i=0
while ! pane viewer | grep -q '\[IMC\]' && [ $i -lt 6 ]; do $T send-keys -t viewer Tab; sleep 0.1; i=$((i + 1)); done
if wait_pane viewer " 1 CH2 " 2; then pass "the viewer moves to its own pane (IMC)"; else fail "the viewer moves to its own pane" "$(pane viewer | sed -n 20,30p)"; fi
case "$(pane owner)" in *" 1 CH2 "*) fail "... the owner's screen stays as it was" "$(pane owner | sed -n 20,26p)" ;; *) pass "... the owner's screen stays as it was" ;; esac

# R in the viewer records the owner's samples
$T send-keys -t viewer R
if wait_pane viewer "recording to pmutop-"; then pass "R in the viewer records what it is sent"; else fail "R in the viewer records" "$(pane viewer | tail -4)"; fi
# two samples more: one at least went into the recording
r0=$(sample_no viewer)
wait_seq viewer $((${r0:-0} + 1))
$T send-keys -t viewer R
wait_pane viewer "recorded " >/dev/null
rec=$(ls "$u"/pmutop-*.jsonl 2>/dev/null | head -1)
run "$PMUTOP" --replay "$rec" -b -n 1
expect_match "... a recording of the owner's run (the fake tree's msr source)" "$rc $(printf '%s\n' "$out" | head -1)" "0 # sample"

# the same screen over HTTP from the owner's --serve
$T new-session -d -x 160 -y 50 -s remote "'$PMUTOP' --connect 127.0.0.1:$port; echo remote-exit \$?; sleep 60"
if wait_pane remote "VIEWING" 10 && pane remote | grep -q "VIEWER of pid $owner_pid on"; then pass "--connect HOST:PORT shows the owner's screen over HTTP"; else fail "--connect shows the owner's screen" "$(pane remote | head -4)"; fi
$T send-keys -t remote q
wait_pane remote "remote-exit" 10 >/dev/null

# a viewer leaving: the owner goes on
$T send-keys -t viewer q
if wait_pane viewer "viewer-exit 0" 10; then pass "q ends the viewer with 0"; else fail "q ends the viewer" "$(pane viewer | tail -3)"; fi
o1=$(sample_no owner)
wait_seq owner "${o1:-0}"
o2=$(sample_no owner)
if [ "${o2:-0}" -gt "${o1:-0}" ] && [ -S "$sock" ]; then pass "... the owner goes on sampling and listening"; else fail "... the owner goes on" "$o1 -> $o2" "$(pane owner | tail -3)"; fi

# a viewer at 80x24: who it views and what it records stay in the header; its doctor says where
$T new-session -d -x 80 -y 24 -s narrow "cd '$u' && '$PMUTOP' --root '$dir'; echo narrow-exit \$?; sleep 60"
wait_pane narrow "VIEWING" 10 >/dev/null
expect_match "a viewer at 80 columns: VIEWER of the owner's pid in the header" "$(pane narrow | sed -n 2p)" "VIEWER of pid $owner_pid"
$T send-keys -t narrow R
wait_pane narrow "recording to" 5 >/dev/null
rec_beside() { pane narrow | sed -n 2p | grep -q "VIEWER of pid $owner_pid.*REC "; }
if wait_until 5 rec_beside; then pass "... and REC beside it while it records"; else fail "... REC beside it" "$(pane narrow | head -3)"; fi
$T send-keys -t narrow R d
if wait_pane narrow "Run 'pmutop --doctor' there" 5; then pass "... d says where the doctor runs (the owner's machine)"; else fail "... d says where the doctor runs" "$(pane narrow | sed -n 2,8p)"; fi
$T send-keys -t narrow Escape q
wait_pane narrow "narrow-exit" 10 >/dev/null

# -b views too
run "$PMUTOP" --root "$dir" -b -n 2 --format json
expect_match "pmutop -b while one owns the counters: its samples" "$rc $(printf '%s\n' "$out" | head -1 | cut -c1-40)" '0 {"seq":'
expect_lines "... -n 2 of them" "$out" 2

# another user: not in the socket's group, then in it
cp "$PMUTOP" "$u/pmutop"
cp -r "$top_srcdir/layouts" "$u/layouts"
chmod -R go-w "$u/layouts"
run setpriv --reuid=nobody --regid=nogroup --clear-groups env PMUTOP_LAYOUT_DIR="$u/layouts" "$u/pmutop" --root "$dir" -b -n 1
expect_match "another user without the socket's group is told how to get in" "$rc $err" "1 pmutop: another pmutop (pid $owner_pid) is programming this machine's counters; its viewers' socket $sock is not open to you: the owner can let a group of yours in with --viewers-group GROUP"
chgrp nogroup "$sock"
run setpriv --reuid=nobody --regid=nogroup --clear-groups env PMUTOP_LAYOUT_DIR="$u/layouts" "$u/pmutop" --root "$dir" -b -n 1 --format csv
expect_match "... in the socket's group, the user views (no access to the counters needed)" "$rc $(printf '%s\n' "$out" | sed -n 2p | cut -d, -f5)" "0 msr"

# the owner quitting ends its viewers
$T new-session -d -x 160 -y 50 -s viewer2 "'$PMUTOP' --root '$dir'; echo viewer-exit \$?; sleep 60"
wait_pane viewer2 "VIEWING" 10 >/dev/null
$T send-keys -t owner q
if wait_pane viewer2 "the pmutop you viewed ended: the owner (pmutop pid $owner_pid) quit"; then pass "the owner quitting ends the viewer with a message"; else fail "the owner quitting ends the viewer" "$(pane viewer2 | grep -v '^$' | tail -4)"; fi
wait_pane viewer2 "viewer-exit" 10 >/dev/null
expect_match "... exit 0" "$(pane viewer2)" "viewer-exit 0"
wait_pane owner "owner-exit" 10 >/dev/null
expect_match "the owner itself ends with 0" "$(pane owner)" "owner-exit 0"
if [ ! -e "$sock" ]; then pass "... and removes its socket"; else fail "... and removes its socket" "$(ls -l "$sock")"; fi

# --no-viewers: the second pmutop is refused as before; --viewers-group sets the socket's group
"$PMUTOP" --root "$dir" -b -d 0.3 --no-viewers >/dev/null 2>&1 &
own=$!
holds() { [ "$(lock_holder)" = "$own" ]; }
wait_until 10 holds
run "$PMUTOP" --root "$dir" -b -n 1
expect_match "--no-viewers: a second pmutop is told the counters are busy" "$rc $err" "another pmutop (pid $own) is programming this machine's counters"
kill $own
wait $own 2>/dev/null
"$PMUTOP" --root "$dir" -b -d 0.3 --viewers-group nogroup >/dev/null 2>&1 &
own=$!
i=0
while [ ! -S "$sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
# the socket is made, then given its group and mode: wait for them (a busy CI once saw it between)
sock_group() { [ "$(stat -c '%G %a' "$sock" 2>&1)" = "nogroup 660" ]; }
wait_until 5 sock_group
expect_match "--viewers-group: the socket's group" "$(stat -c '%G %a' "$sock" 2>&1)" "nogroup 660"
kill $own
wait $own 2>/dev/null
