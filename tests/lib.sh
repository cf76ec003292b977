# lib.sh: tiny TAP helpers for pmutop's shell tests.  Source it, call
# `plan N`, then one assertion per test; each prints "ok" or "not ok" with
# what was expected and what came out.
# The harness exports PMUTOP (the built binary), top_srcdir and top_builddir.

: "${PMUTOP:?run through make check (PMUTOP is not set)}"
tap_n=0
# run through sudo or not, pmutop under test is started as root itself (tests set these)
unset SUDO_UID SUDO_GID SUDO_USER

. "$top_srcdir/tests/suite_lock.sh"
. "$top_srcdir/tests/tmpdir.sh"
# the waits' pauses without a process: bash's loadable sleep (Debian's bash-builtins) where it
# is there; the scripts poll every 20-50 ms, and a sleep process a poll is 4 ms of CPU on a
# virtual machine whose fork and exec are slow (2,800 of them a suite run)
if [ -n "${BASH_VERSION:-}" ] && [ -f /usr/lib/bash/sleep ]; then
	enable -f /usr/lib/bash/sleep sleep 2>/dev/null || :
fi
# the tests' reader of the batch JSON (tests/pmutop_json.py: its tables as rows of objects)
PYTHONPATH="$top_srcdir/tests${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

plan() { echo "1..$1"; }

pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }

# skip NAME WHY: the condition NAME is about did not hold here (a TAP SKIP, counted apart)
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }

fail() {
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $1"
	shift
	# every line of what came out as a comment: a line of it starting "ok" is no result
	for line in "$@"; do printf '%s\n' "$line" | sed 's/^/#   /'; done
}

# run CMD...: capture stdout, stderr and exit status in $out, $err, $rc.
run() {
	tap_tmp=$(mktemp -d)
	"$@" >"$tap_tmp/out" 2>"$tap_tmp/err"
	rc=$?
	if [ -n "${BASH_VERSION:-}" ]; then
		# bash reads them itself (as cat would: trailing newlines dropped), no process each
		out=$(< "$tap_tmp/out")
		err=$(< "$tap_tmp/err")
	else
		out=$(cat "$tap_tmp/out")
		err=$(cat "$tap_tmp/err")
	fi
	rm -rf "$tap_tmp"
}

# expect_rc NAME WANT: the last run exited with WANT.
expect_rc() {
	if [ "$rc" = "$2" ]; then pass "$1"; else fail "$1" "exit status $rc, want $2" "stderr: $err"; fi
}

# expect_match NAME TEXT PATTERN: TEXT contains the fixed string PATTERN.
expect_match() {
	case "$2" in
	*"$3"*) pass "$1" ;;
	*) fail "$1" "want text containing: $3" "got: $2" ;;
	esac
}

# expect_is NAME GOT WANT: GOT is exactly WANT
expect_is() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "want: $3" "got: $2"; fi
}

# expect_lines NAME TEXT N: TEXT has exactly N lines.
expect_lines() {
	n=$(printf '%s\n' "$2" | wc -l)
	[ -z "$2" ] && n=0
	if [ "$n" = "$3" ]; then pass "$1"; else fail "$1" "$n lines, want $3" "got: $2"; fi
}

# near NAME GOT WANT REL: GOT within REL (relative) of WANT, each a number (n/a, nan: no)
near() {
	if awk -v g="$2" -v w="$3" -v r="$4" '
		function num(x) { return x ~ /^[ \t]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[ \t]*$/ }
		BEGIN { d = g - w; a = w < 0 ? -w : w; if (d < 0) d = -d
			exit !(num(g) && num(w) && num(r) && d <= r * a) }' </dev/null; then
		pass "$1 ($2, truth $3)"
	else
		fail "$1" "got $2, truth $3 (within $4)"
	fi
}

# field JSON socket|cpu N [CHANNEL] METRIC: the last sample's figure (or "missing")
field() {
	f_json=$1
	shift
	printf '%s\n' "$f_json" | tail -1 | ${PYTHON:-python3} -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
kind, k, m = sys.argv[1], int(sys.argv[2]), sys.argv[-1]
e = s["sockets"][k] if kind == "socket" else [t for t in s["threads"] if t["cpu"] == k][0]
if len(sys.argv) == 5:
    e = [c for c in e["channels"] if c["channel"] == int(sys.argv[3])][0]
v = e["metrics"].get(m)
print("missing" if v is None else v)' "$@"
}

# holds_for SECONDS CMD...: CMD succeeds at every look (each 50 ms) for SECONDS; 1 at the
# first look it fails.  For a "nothing moves" check, whose window is a duration by nature:
# it looks throughout the window, not only at its end.
holds_for() {
	_s=$1
	shift
	_j=0
	while [ $_j -lt $(echo "$_s" | awk '{ printf "%d", $1 * 20 }') ]; do
		"$@" || return 1
		sleep 0.05
		_j=$((_j + 1))
	done
	"$@"
}

# wait_until SECONDS CMD...: until CMD succeeds (a readiness check, not a fixed sleep); 1 when
# it never does
wait_until() {
	_s=$1
	shift
	_j=0
	while [ $_j -lt $((_s * 20)) ]; do
		"$@" && return 0
		sleep 0.05
		_j=$((_j + 1))
	done
	return 1
}
