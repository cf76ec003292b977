#!/bin/sh
# The memory pane (issue 48.3): the memory in one table as pcm-memory shows it,
# the sockets side by side, each channel's read, write and total GB/s as rows,
# each socket's and the system's totals, and what the sockets' homes were
# asked against what the channels carried.
#
# Truth from the shipped unbalanced-channels scenario without its noise (its
# rates written for a socket of 3 channels, Nehalem-EP's): channel 0 of each
# socket reads 1.4e8 lines a second and writes 2e7, channels 1 and 2 read
# 4e6 and write 1.5e6; a line is 64 bytes: channel 0 8.96 GB/s read, 1.28
# written, 10.24 in all; channels 1 and 2 0.256, 0.096, 0.352; a socket 9.472
# read, 1.472 written, 10.944 in all; the system twice that.  Its home logic
# counts reads and writes by requester (dram_by_*): the socket's cores asked
# for 1.48e8 + 2.3e7 lines a second, 10.944 GB/s, what the channels carried.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tmux_lib.sh"
plan 16
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
T="tmux -L pmutop-mem-$$"
trap 'command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/unbalanced-channels.scn" >"$tmp/unb.scn"
sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/memory-bound.scn" >"$tmp/mem.scn"

# row LABEL: the pane's row of that label, its blanks squeezed
row() { printf '%s\n' "$out" | grep -E "^ $1" | head -1 | tr -s ' '; }

run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "nehalem-ep:$tmp/unb.scn" -g 1,i,n --pane memory --dump -n 2 -d 0.3
expect_match "Nehalem-EP: a tab of its own" "$out" "[Memory]"
expect_match "... channel 0 of both sockets: 8.96 read, 1.28 written, 10.24 GB/s, side by side" \
	"$(row 'CH0 ')" " CH0 8.96 1.28 10.24 96% 8.96 1.28 10.24 96%"
expect_match "... channels 1 and 2: 0.26, 0.10, 0.35" "$(row 'CH2 ')" " CH2 0.26 0.10 0.35 3% 0.26 0.10 0.35 3%"
expect_match "... each socket's totals: 9.47, 1.47, 10.94" "$(row 'socket +[0-9]+\.')" \
	" socket 9.47 1.47 10.94 34% 9.47 1.47 10.94 34%"
expect_match "... the system's, with its share of the peak" "$out" \
	"system: read 18.94  write 2.94  total 21.89 GB/s, 34 % of the 64.0 GB/s peak"
expect_match "... what socket 0's home logic was asked, and that the channels carried it" \
	"$(printf '%s\n' "$out" | tr -s '\n ' '  ')" \
	"socket 0, home logic: asked to read and write 10.94 GB/s, by its cores 10.94, the other sockets 0.00, I/O 0.00: the channels carried what was asked"
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "nehalem-ep:$tmp/unb.scn" -g 1,i --pane memory --dump -n 1 -d 0.2
expect_match "... the home logic's group off: the key that counts it" "$out" \
	"what the sockets' homes were asked to read, to hold the channels to: press n (qhl)"
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "nehalem-ep:$tmp/unb.scn" -g 1 --pane memory --dump -n 1 -d 0.2
expect_match "... the channels' group off: the key that counts them" "$out" \
	"Memory bandwidth is off: press i (imc)"

# Sapphire Rapids: at 160x50 the pane's rows (12) leave the topology its boxes and show every
# channel of both sockets; at 160x34 the channels that do not fit are counted, the totals stay,
# and O folds the topology to a line per socket, then every channel shows
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "sapphire-rapids:$tmp/mem.scn" -g 1,9,l --pane memory --dump -n 2 -d 0.3
expect_match "Sapphire Rapids at 160x50: every channel of both sockets (CH7) under the topology's boxes" \
	"$(printf '%s\n' "$out" | grep -c ' CH7 \|─ Socket 1 ─')" "2"
$T new-session -d -x 160 -y 34 "XDG_CONFIG_HOME='$tmp/cfg' LANG=C.UTF-8 '$PMUTOP' --sim 'sapphire-rapids:$tmp/mem.scn' -g 1,9,l -d 0.5 --pane memory; sleep 60"
if wait_for "system: read" 30; then pass "... at 160x34: the system's totals"; else fail "... at 160x34: the system's totals" "$(screen)"; fi
expect_match "... the channels that do not fit are counted, and O named" "$(screen)" \
	"more channels: O folds the topology to a line per socket"
$T send-keys -t 0 O
if wait_for " CH7 " 10; then pass "... O: every channel of both sockets (CH7)"; else fail "... O: every channel of both sockets (CH7)" "$(screen)"; fi
s=$(screen)
expect_match "... the topology a line per socket" "$s" "Sockets: one line each"
expect_match "... each socket's CHAs, what they were asked against the channels" \
	"$(printf '%s\n' "$s" | tr -s '\n ' '  ')" "socket 1, CHAs: asked to read"
# the socket row is its channels summed (each shown to 0.01 GB/s)
sum=$(printf '%s\n' "$s" | $PY -c '
import sys
import re
rows = [l.split() for l in sys.stdin.read().splitlines() if re.match(r" (CH[0-9]+|socket) +[0-9]+\.[0-9]", l)]
ch = [r for r in rows if r[0].startswith("CH")]
tot = [r for r in rows if r[0] == "socket"][-1]
got, want = float(tot[1]), sum(float(r[1]) for r in ch)
print("ok" if abs(got - want) <= 0.01 * len(ch) + 0.01 else "socket %s, channels %s" % (got, want))' 2>&1)
expect_match "... socket 0's read is its channels' summed" "$sum" "ok"
tmux_end

# AMD's names (Genoa): the channels' umc_mem_*_bandwidth, the data fabric's requests
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim genoa:memory-bound -g 1,9,u --pane memory --dump -n 2 -d 0.3
expect_match "Genoa: socket 0's data fabric, what it was asked against the channels" \
	"$(printf '%s\n' "$out" | tr -s '\n ' '  ')" "socket 0, data fabric: asked to read"
