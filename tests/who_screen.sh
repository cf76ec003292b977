#!/bin/sh
# The who pane on the screen (tmux), on the emulated Ice Lake of who.sh: W
# opens it at 80x24 with the container's figures under their headings; a
# branch closed and opened, explain, the filter, the sort; T's top-down
# level 1; at 160x50 the selected container's CPUs marked @ and its
# bottleneck line.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/who_lib.sh"
plan 17

. "$top_srcdir/tests/tmux_lib.sh"
# wait_screen TEXT: until the screen shows TEXT (20 s at most), then it is in $screen
wait_screen() {
	wait_for "$1" 20
	_rc=$?
	screen=$(screen)
	return $_rc
}
# cell HEAD ROW: the figure of the screen's row holding ROW under the who pane's heading HEAD
# (a figure ends where its heading does, its mark after it)
cell() {
	printf '%s\n' "$screen" | awk -v h="$1" -v r="$2" '
	!e && index($0, "cgroup / PID process") { e = index($0, h) + length(h) - 1; next }
	e && index($0, r) { s = substr($0, 1, e); sub(/.* /, "", s); print s; exit }'
}
if command -v tmux >/dev/null 2>&1; then
	T="tmux -S $tmp/tmux"
	$T new-session -d -x 80 -y 24 "XDG_CONFIG_HOME=$tmp $PMUTOP $SIM --who"
	wait_screen "sample 1"
	$T send-keys W
	if wait_screen "docker 3f2a9c1b7d4e"; then pass "80x24: W opens the who pane, the container in it"; else fail "80x24: W opens the who pane" "$screen"; fi
	# (its figures once its group has had a turn: waited for, not read at the first frame)
	wait_screen "16.00  0.35  2."
	expect_is "... its row: 16 CPUs, IPC 0.35, 76.5 misses a kilo-instruction (under their headings)" \
		"$(cell CPUs docker) $(cell IPC docker) $(cell MPKI docker)" "16.00 0.35 76.5"
	expect_is "... and a quarter of its DRAM loads remote (Rmt%)" "$(cell Rmt% docker)" 25
	$T send-keys Down Left
	if wait_screen "+ system.slice"; then pass "Left closes system.slice"; else fail "Left closes system.slice" "$screen"; fi
	case "$screen" in *"docker 3f2a9c1b7d4e"*) fail "... its children hidden" "$screen" ;; *) pass "... its children hidden" ;; esac
	$T send-keys Right
	if wait_screen "- system.slice"; then pass "Right opens it again"; else fail "Right opens it again" "$screen"; fi
	$T send-keys Down e
	if wait_screen "(docker 3f2a9c1b7d4e): 2 processes"; then pass "e explains the selected cgroup"; else fail "e explains the selected cgroup" "$screen"; fi
	# Escape alone, then the filter once the explanation has gone: sent together, a loaded
	# machine delivered ESC and / as one Alt-/ and the letters of "postgres" as keys (e explains)
	$T send-keys Escape
	no_popup() { ! screen | grep -q 'Esc closes'; }
	wait_until 10 no_popup
	$T send-keys / p o s t g r e s Enter
	if wait_screen "filter 'postgres'"; then pass "/ filters the who rows by name or path"; else fail "/ filters the who rows" "$screen"; fi
	# the rows follow by the next frame (CI once caught the filter's line over the rows before it)
	filtered() { screen=$(screen); case "$screen" in *nginx.service*) return 1 ;; esac; }
	wait_until 10 filtered
	case "$screen" in *"docker 3f2a9c1b7d4e"*) fail "... the container left out" "$screen" ;; *"postgresql.service"*) pass "... the container left out, PostgreSQL and its slice kept" ;; *) fail "... PostgreSQL kept" "$screen" ;; esac
	$T send-keys / BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace Enter s
	if wait_screen "IPC^"; then pass "s sorts the who rows by the next column (IPC, marked ^)"; else fail "s sorts by IPC" "$screen"; fi
	# the row order follows the figures as they come: wait for a sample with the slices' IPC
	first_row() {
		first=$(screen | grep -A1 "(the whole machine)" | tail -1)
		case "$first" in *"- kubepods.slice"*) return 0 ;; esac
		return 1
	}
	wait_until 10 first_row
	expect_match "... the pod's slice (IPC 2.4) first under the machine" "$first" "- kubepods.slice"
	$T send-keys q
	tmux_end
	# T: the top-down level 1 in the who pane's columns, by the vendor's names; T again: back
	T="tmux -S $tmp/tmux3"
	$T new-session -d -x 80 -y 24 "ulimit -n 20000 2>/dev/null; XDG_CONFIG_HOME=$tmp $PMUTOP $SIM --who --who-top 8 --pane who"
	wait_screen "docker 3f2a9c1b7d4e"
	$T send-keys T
	if wait_screen "Retiring Frontend Bad_Spec  Backend"; then pass "80x24: T shows the top-down level 1 in the who pane, the vendor's names"; else fail "80x24: T shows the top-down level 1" "$screen"; fi
	wait_screen "86.6" >/dev/null
	# its CPUs first (16, read from its CPU time: within 1 % as the interval's reads fall), then
	# the four shares, exact
	row=$(printf '%s\n' "$screen" | grep 'docker 3f2a9c1b7d4e' | tr -s ' ')
	if printf '%s\n' "$row" | awk '{ exit !($1 >= 15.84 && $1 <= 16.16 && $2 == "8.4" && $3 == "4.0" && $4 == "1.0" && $5 == "86.6") }'; then
		pass "... the container: Retiring 8.4, front end 4, bad speculation 1, back end 86.6 (16 CPUs)"
	else
		fail "... the container: Retiring 8.4, front end 4, bad speculation 1, back end 86.6 (16 CPUs)" "$row"
	fi
	$T send-keys T
	if wait_screen "MPKI"; then pass "... T again: the counters' columns back"; else fail "... T again: the counters' columns back" "$screen"; fi
	$T send-keys q
	tmux_end
	T="tmux -S $tmp/tmux2"
	$T new-session -d -x 160 -y 50 "XDG_CONFIG_HOME=$tmp $PMUTOP $SIM --pane who"
	wait_screen "docker 3f2a9c1b7d4e"
	$T send-keys Down Down
	if wait_screen "@ 15"; then pass "160x50: the selected container's CPUs 0-15 marked @ on the topology"; else fail "160x50: the selected container's CPUs marked @" "$screen"; fi
	case "$screen" in *"@ 16"*) fail "... and no other CPU" "$screen" ;; *) pass "... and no other CPU" ;; esac
	$T send-keys q
	tmux_end
	# the bottleneck line for the selected cgroup (issue 48.1): its level 1 (T) over the vendor's
	# thresholds, the container's back end 86.6 % of its slots
	T="tmux -S $tmp/tmux4"
	$T new-session -d -x 160 -y 50 "ulimit -n 20000 2>/dev/null; XDG_CONFIG_HOME=$tmp $PMUTOP $SIM --who --who-top 8 --pane who"
	wait_screen "docker 3f2a9c1b7d4e"
	$T send-keys T Down Down
	if wait_screen "| cgroup docker 3f2a9c1b7d4e: Backend_Bound 87 %"; then pass "160x50: the bottleneck line names the selected container's, Backend_Bound 87 %"; else fail "160x50: the bottleneck line for the selected container" "$(printf '%s\n' "$screen" | sed -n 4p)"; fi
	$T send-keys q
	tmux_end
else
	# tmux is a test dependency (tools/install-deps): without it the pane is unchecked, a failure
	for i in $(seq 17); do fail "the who pane on screen" "no tmux: tools/install-deps installs it"; done
fi
