#!/bin/sh
# pmutop --root on the fake device tree (tools/fakehw): the topology and the
# CPU come from the fake /sys, /proc and /dev/cpu/N/cpuid, and the helper
# leaves no mount behind, whether stopped or killed.
. "$top_srcdir/tests/lib.sh"
: "${FAKEHW:?run through make check}"
plan 19

dir=$(mktemp -d)
start() {
	rm -f "$dir.ready"
	"$FAKEHW" --ready "$dir.ready" "$1" "$dir" 2>/dev/null &
	helper=$!
	i=0
	# up to 20 s: on a loaded machine the tree and the mount take a while, and a helper
	# killed before its mount is up would leave no auto_unmount watcher behind
	while [ ! -f "$dir.ready" ] && [ $i -lt 1000 ]; do sleep 0.02; i=$((i + 1)); done
}
mounted() { grep -q " $dir/dev " /proc/self/mountinfo; }
# at the end: the helper asked to go, then the mount taken down once it has gone (10 s at most)
gone() {
	kill $helper 2>/dev/null
	i=0
	while kill -0 $helper 2>/dev/null && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
	umount -l "$dir/dev" 2>/dev/null
	rm -rf "$dir" "$dir.ready"
}
trap gone EXIT

start westmere-ep:numa-remote
if mounted; then pass "helper mounts DIR/dev"; else fail "helper mounts DIR/dev" "no mount on $dir/dev"; fi

run "$PMUTOP" --root "$dir" --topology-only
expect_rc "--root --topology-only exits 0" 0
expect_match "topology comes from the fake sysfs" "$out" "2 sockets, 2 NUMA nodes, 12 cores, 24 threads online"
expect_match "free memory comes from the fake node meminfo" "$out" "NUMA node 1 (24 GiB, 18 GiB free)"

run "$PMUTOP" --root "$dir" --msr-safe-allowlist
expect_match "CPU comes from the fake cpuid device" "$out" "(Westmere, family 6 model 0x2C)"
expect_match "Westmere allowlist has the second offcore MSR" "$out" "# MSR_OFFCORE_RSP_1"

# one msr device per CPU stays open: a low soft limit is raised to the hard one; a low hard
# limit that may not be raised (here root lacks CAP_SYS_RESOURCE, or keeps 16 with it) leaves
# the devices past it opened at each access, said with how to raise it (24 CPUs, 16 files)
run sh -c "ulimit -S -n 16 && exec '$PMUTOP' --root '$dir' -b -n 1 -d 0.2"
expect_rc "a soft open-file limit below the CPUs is raised to the hard limit" 0
run sh -c "ulimit -n 16 && exec '$PMUTOP' --root '$dir' -b -n 1 -d 0.2 -g stalls"
if sh -c 'ulimit -n 16 && ulimit -Hn 200' 2>/dev/null; then
	expect_match "a hard limit too low is raised by root itself" "$rc $(printf '%s\n' "$out" | head -1)" "0 # sample 1"
else
	# the figure is the files open at the time (stdio, the lock, the log: 3 to 16 under a
	# limit of 16, which depends on what the caller passed down) + 24 devices + 64 spare,
	# and the fix names the same figure
	t="a hard limit too low that root may not raise: counted, and said how to raise it"
	lead="pmutop: the devices of 23 of the 24 CPUs are opened at each access (slower sweeps): "
	need=$(printf '%s\n' "$err" | sed -n 's/.* \([0-9][0-9]*\) open files needed, 16 allowed (the hard limit.*ulimit -Hn \([0-9][0-9]*\),.*/\1 \2/p' | head -1)
	set -- $need
	case "$rc $err" in
	"0 $lead"*) if [ $# -eq 2 ] && [ "$1" = "$2" ] && [ "$1" -ge 91 ] && [ "$1" -le 104 ]; then
			pass "$t"
		else
			fail "$t" "want N open files needed (91..104) and ulimit -Hn N, got: $err"
		fi ;;
	*) fail "$t" "want rc 0 and: $lead..., got: $rc $err" ;;
	esac
fi

# the doctor as a user who is not root: refused devices, and that user's ways in
u=$(mktemp -d)
chmod 755 "$u"
cp "$PMUTOP" "$u/pmutop"
chmod 755 "$u/pmutop"
# setpriv (util-linux) and the user nobody are part of every Debian system
run setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$u/pmutop" --doctor --root "$dir"
expect_match "a user refused the cpuid device is told how to read it" "$out" "let this user read the cpuid devices"
expect_match "a user refused the msr device gets a user's ways in" "$out" "for this user: msr-safe"
rm -rf "$u"

kill -TERM $helper; wait $helper 2>/dev/null
if mounted; then fail "SIGTERM unmounts" "still mounted"; else pass "SIGTERM unmounts"; fi

start skylake
# killed outright, the helper's own watchdog (a child that waits for it to be gone) unmounts its
# mount even with libfuse's watcher (fusermount3 ... auto_unmount) stopped: that watcher was once
# seen to keep the mount 60 s on a loaded machine.  Wait for the mount to go (60 s at most).
t="SIGKILL still unmounts (the helper's watchdog, with fusermount3's watcher stopped)"
if [ ! -f "$dir.ready" ]; then
    fail "$t" "the helper did not come up within 20 s"
    kill -KILL $helper; wait $helper 2>/dev/null
    fusermount3 -u -z "$dir/dev" 2>/dev/null || umount -l "$dir/dev" 2>/dev/null
else
watcher=$(pgrep -f "^fusermount3 .* -- $dir/dev\$")
[ -n "$watcher" ] && kill -STOP $watcher
kill -KILL $helper; wait $helper 2>/dev/null
i=0
while mounted && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done
if mounted; then
    fail "$t" "still mounted 60 s later (fusermount3: $(pgrep -a -x fusermount3 | tr '\n' ' '))"
    fusermount3 -u -z "$dir/dev" 2>/dev/null || umount -l "$dir/dev" 2>/dev/null
elif [ -z "$watcher" ]; then
    fail "$t" "no fusermount3 watcher of $dir/dev found to stop"
else
    pass "$t"
fi
[ -n "$watcher" ] && kill -CONT $watcher
fi

run "$PMUTOP" --root "$dir" --msr-safe-allowlist
expect_rc "a root without the device tree fails cleanly" 1

# batch mode without counters: the OS's figures, as the live view, the reason on stderr
run "$PMUTOP" --root "$dir" -b -n 1 -d 0.2
expect_rc "batch mode on a machine without counters exits 0" 0
expect_match "and prints the OS's figures" "$out" "OS (no counters)"
expect_match "and says why on stderr" "$err" "pmutop: no counters: "
# a headless server without counters serves the OS's figures the same way
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PMUTOP" --root "$dir" --serve "127.0.0.1:$port" -n 10 -d 0.2 >/dev/null 2>"$dir.serve.err" &
spid=$!
i=0
got=""
while [ $i -lt 600 ] && ! printf '%s\n' "$got" | grep -q '^pmutop_info'; do
	got=$(curl -s "http://127.0.0.1:$port/metrics")
	sleep 0.05
	i=$((i + 1))
done
expect_match "--serve without counters serves the OS's figures, labelled source os" "$(printf '%s\n' "$got" | grep '^pmutop_info')" 'source_detail="OS (no counters)",pid="'"$spid"'",source="os",simulated="false"} 1'
# this tree's /proc does not move: utilisation is n/a, and n/a is left out, never 0
expect_is "... n/a left out" "$(printf '%s\n' "$got" | grep -c '^pmutop_util_ratio')" 0
wait $spid
expect_match "... says so, and ends after -n samples with 0" "$? $(cat "$dir.serve.err")" "0 pmutop: no counters: "
rm -f "$dir.serve.err"
