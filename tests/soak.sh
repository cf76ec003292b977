#!/bin/sh
# Long runs stay flat (issue 46.6), as much of one as CI affords: every mode at
# once on the emulated Ice Lake-SP's shared server through its kernel (the who
# view with its turns, the server being scraped, a recording, the top-down
# tree's levels 1 and 2 and the uncore's memory, link and CHA groups), 100
# samples.  The least resident memory of samples 70-95 is within 8 MiB of
# that of samples 20-45 (transient buffers come and go, the allocator takes a
# few MiB once; the growth this guards against was 4.5 MB a second), it holds no more
# open files, and a sample costs no more CPU time than early on (within
# 2x: other processes on the machine share its caches).  The emulated
# kernel's tables are held to their slots in check_engine
# (perf_closed_slots_are_reused): they grew by every turn of the who view.
. "$top_srcdir/tests/lib.sh"
plan 4
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# (a sanitizer build: AddressSanitizer keeps freed blocks in a quarantine of 256 MiB, whose
# filling reads as growth; a small one measures pmutop's own heap)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4" \
	"$PMUTOP" --sim icelake-sp:shared-server --source perf --who -d 0.1 -n 100 -b --format json \
	-g 1,2,9,u,l --serve "127.0.0.1:$port" --record "$tmp/run.jsonl" >"$tmp/out" 2>"$tmp/err" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT

# look N: when the recording holds N samples (its header line first), the process's memory (kB), open files and CPU
# time (clock ticks); the server scraped meanwhile
look() {
	i=0
	while [ "$(cat "$tmp/run.jsonl" 2>/dev/null | wc -l)" -le "$1" ] && [ $i -lt 1200 ] &&
		kill -0 $pid 2>/dev/null; do
		curl -s -o /dev/null -m 2 "http://127.0.0.1:$port/metrics" || :
		sleep 0.05
		i=$((i + 1))
	done
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	# open files: the who view's cgroup directories apart (it holds those of the groups it
	# counts, at most --who-top: 16 by default, the tree's top and its walk's stack of
	# directories, one a level: 4 deep here; a slow build's time-budgeted walk finds more
	# groups as the run goes on) from every other file
	links=$(ls -l "/proc/$pid/fd" 2>/dev/null | sed -n 's/.* -> //p')
	cg=$(printf '%s\n' "$links" | grep -c '/sys/fs/cgroup')
	fds=$(($(printf '%s\n' "$links" | grep -c .) - cg))
	cpu=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
	echo "${rss:-gone} $fds ${cpu:-0} $cg"
}
# resident memory every 5 samples: a sample's transient buffers (the who view's scan, a
# rotation's) come and go by a few MiB, so the least of each stretch is what the run holds
# (open files too: a scrape's connection the server is closing, a cgroup of the who view's
# turn, come and go; a leak grows, so the least of each stretch is compared)
early=0 late=0 fds1=0 fds2=0 cgmax=0
for n in 20 25 30 35 40 45 70 75 80 85 90 95; do
	set -- $(look $n)
	[ "$1" = gone ] && break
	if [ $n -le 45 ]; then
		[ "$early" = 0 ] || [ "$1" -lt "$early" ] && early=$1
		[ "$fds1" = 0 ] || [ "$2" -lt "$fds1" ] && fds1=$2
	else
		[ "$late" = 0 ] || [ "$1" -lt "$late" ] && late=$1
		[ "$fds2" = 0 ] || [ "$2" -lt "$fds2" ] && fds2=$2
	fi
	[ "$4" -gt "$cgmax" ] && cgmax=$4
	[ $n = 25 ] && cpu1=$3
	[ $n = 90 ] && cpu2=$3
done
rss1=${early:-gone} rss2=${late:-gone}
[ "$rss1" = 0 ] && rss1=gone
[ "$rss2" = 0 ] && rss2=gone
wait $pid
rc=$?
expect_is "the run ends after its 100 samples, all recorded" "$rc $(wc -l <"$tmp/run.jsonl")" "0 101"
# 8 MiB: the allocator takes a few MiB once (a thread's arena, the server's first large reply);
# the growth this guards against was 4.5 MB a second, over 20 MB between the two stretches
if [ "$rss1" != gone ] && [ "$rss2" != gone ] && [ $((rss2 - rss1)) -lt 8192 ]; then
	pass "resident memory flat: the least of samples 70-95 within 8 MiB of 20-45's (${rss1} kB, ${rss2} kB)"
else
	fail "resident memory flat: the least of samples 70-95 within 8 MiB of 20-45's" "${rss1} kB, then ${rss2} kB"
fi
# no more files than early on: the least of samples 70-95 against the least of 20-45, give or
# take a scrape's connection the server is still closing; the cgroups held never more than the
# groups counted at once, the top and the walk's stack (16 + 1 + 4)
if [ $((fds2 - fds1)) -le 2 ] && [ "$cgmax" -le 21 ]; then
	pass "... no more open files (the least of samples 20-45 and of 70-95: $fds1, $fds2; cgroups held at most $cgmax)"
else
	fail "... no more open files" "the least of samples 20-45 $fds1, of 70-95 $fds2; cgroups held at most $cgmax (--who-top 16, the top, a walk 4 deep: 21)"
fi
# CPU per sample: samples 25-90 against 1-25 (which include starting up: a loose bound)
if $PY -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not ((b - a) / 65 <= 2 * max(a, 1) / 25))' \
	"$cpu1" "$cpu2"; then
	pass "... and a sample's CPU time as early on ($cpu1 ticks for 25, $cpu2 for 90)"
else
	fail "... and a sample's CPU time as early on" "$cpu1 ticks for 25 samples, $cpu2 for 90"
fi
