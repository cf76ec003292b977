#!/bin/sh
# Golden screens: `pmutop --dump` renders the interactive screen without a
# terminal; each is compared with tests/golden/NAME.txt.  An emulated machine
# is stepped on its own clock under --dump (no wall clock, no thread), so
# every figure is the same on every run and is pinned here with the boxes,
# CPU numbers, labels, columns, footer and key bar (the header names the
# emulated machine, not this host).
# PMUTOP_GOLDEN_UPDATE=1 rewrites the files (review the diff before committing).
. "$top_srcdir/tests/lib.sh"
plan 41

normalise() {
	sed -E -e 's/ +$//'
}

# golden NAME COLUMNS LINES LANG ARGS...
golden() {
	name=$1
	cols=$2
	lines=$3
	lang=$4
	shift 4
	file="$top_srcdir/tests/golden/$name.txt"
	out=$(COLUMNS=$cols LINES=$lines LANG=$lang LC_ALL=$lang "$PMUTOP" --dump "$@" 2>&1)
	rc=$?
	if [ $rc != 0 ]; then
		fail "$name: --dump exits 0" "exit $rc: $out"
		fail "$name: matches $file"
		return
	fi
	pass "$name: --dump exits 0"
	got=$(printf '%s\n' "$out" | normalise)
	if [ -n "$PMUTOP_GOLDEN_UPDATE" ]; then
		printf '%s\n' "$got" >"$file"
	fi
	want=$(cat "$file" 2>/dev/null)
	if [ "$got" = "$want" ]; then
		pass "$name: matches $file"
	else
		fail "$name: matches $file" "$(printf '%s\n' "$want" >"$file.want"; printf '%s\n' "$got" | diff "$file.want" - | head -20; rm -f "$file.want")"
	fi
}

golden skylake-memory-bound 160 50 C.UTF-8 -n 1 -d 0.2 --sim skylake:memory-bound
golden arch-1024-compute-bound 160 50 C.UTF-8 -n 1 -d 0.2 --sim arch-1024:compute-bound
golden nehalem-ep-80x24-ascii 80 24 C -n 1 -d 0.2 -g all --sim nehalem-ep:memory-bound
golden core2-false-sharing 120 40 C.UTF-8 -n 1 -d 0.2 -g snoops --sim core2:false-sharing
golden nehalem-ep-imc-unbalanced 160 50 C.UTF-8 -n 1 -d 0.2 -g imc --pane imc --sim nehalem-ep:unbalanced-channels
golden nehalem-ep-uncore-numa-remote 160 50 C.UTF-8 -n 1 -d 0.2 -g qhl,l3 --pane uncore --sim nehalem-ep:numa-remote
golden skylake-imc-totals 160 50 C.UTF-8 -n 1 -d 0.2 -g imc --pane imc --sim skylake:memory-bound
golden nehalem-ep-cycles-numa-remote 160 34 C.UTF-8 -n 1 -d 0.5 -g cycles --pane cycles --sim nehalem-ep:numa-remote
# every pane with every group on, at the smallest screen and a common one
for pane in threads ports uncore imc memory cycles; do
	golden "nehalem-ep-all-$pane-80x24" 80 24 C.UTF-8 -n 1 -d 0.2 -g all --pane "$pane" --sim nehalem-ep:memory-bound
	golden "nehalem-ep-all-$pane-160x50" 160 50 C.UTF-8 -n 1 -d 0.2 -g all --pane "$pane" --sim nehalem-ep:numa-remote
done

# the same screen every time, also sixty at once on a busy machine: an emulated CPU is never
# "late" and the stepped clock does not see how long the host took
par=$(mktemp -d)
i=0
while [ $i -lt 60 ]; do
	COLUMNS=160 LINES=50 LANG=C.UTF-8 LC_ALL=C.UTF-8 "$PMUTOP" --dump -n 2 -d 0.2 -g all \
		--sim nehalem-ep:memory-bound >"$par/$i.txt" 2>&1 &
	i=$((i + 1))
done
wait
distinct=$(for f in "$par"/*.txt; do md5sum <"$f"; done | sort -u | wc -l)
late=$(grep -l "answered late" "$par"/*.txt | wc -l)
if [ "$distinct" = 1 ] && [ "$late" = 0 ] && [ -s "$par/0.txt" ]; then
	pass "60 --dump runs at once draw one and the same screen, no CPU late"
else
	fail "60 --dump runs at once draw one and the same screen, no CPU late" \
		"$distinct distinct screens, $late with a late CPU" "$(head -5 "$par/0.txt")"
fi
rm -rf "$par"
