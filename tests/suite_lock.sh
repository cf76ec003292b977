# suite_lock.sh: the suite's lock, sourced by lib.sh (every script) and run by
# unit_lock.sh (every unit test program).  make check runs twice as many tests
# as there are CPUs (most of a script's time is the emulated machines'
# intervals on the real clock), so each runs beside others' load.  A script
# that holds pmutop to an accuracy on the real clock beside a load it makes
# itself (phased_load.sh, accuracy_files.sh) sets ALONE=1 first and runs with
# no other test: the others hold the lock shared, it exclusive.
#
# The lock is held by a holder process of its own (flock FILE, then tail
# --pid: it lets go once this script's process is gone), not on a file
# descriptor of the script's: every program a script starts would inherit
# that one, and a program left running after its script (a pmutop --serve a
# failed check did not stop) kept the lock, so that the scripts that run
# alone waited their whole bound.  Where flock or GNU tail is missing, the
# script's own descriptor 8 holds it as before.  The waits are bounded: past
# them the test runs and says so.
suite_lock=${top_builddir:-.}/tests/.suite.lock
if command -v flock >/dev/null 2>&1 &&
	{ [ -f "$suite_lock" ] && [ -w "$suite_lock" ] || { [ ! -e "$suite_lock" ] && [ -w "${suite_lock%/*}" ]; }; }; then
	if [ -n "${ALONE:-}" ]; then
		suite_lock_how=-x
		suite_lock_late="# the suite's lock was not free in 600 s: run beside other tests"
	else
		suite_lock_how=-s
		suite_lock_late="# the suite's lock was not free in 600 s: run beside a test that wanted to be alone"
	fi
	suite_lock_dir=
	if tail --version 2>/dev/null | grep -q GNU && suite_lock_dir=$(mktemp -d 2>/dev/null) &&
		mkfifo "$suite_lock_dir/held"; then
		# the holder says "held" once it has the lock (nothing when the wait ran out: EOF);
		# started from a subshell that leaves at once, so that it is no child of this
		# script's, whose "wait" would wait for it
		(flock $suite_lock_how -w 600 -E 75 "$suite_lock" \
			sh -c 'echo held; exec tail -s 0.1 --pid="$1" -f /dev/null >/dev/null 2>&1' \
			suite-lock $$ >"$suite_lock_dir/held" 2>/dev/null </dev/null &)
		read -r suite_lock_said <"$suite_lock_dir/held" || suite_lock_said=
		rm -rf "$suite_lock_dir"
		[ "$suite_lock_said" = held ] || echo "$suite_lock_late"
	else
		[ -n "$suite_lock_dir" ] && rm -rf "$suite_lock_dir"
		exec 8>>"$suite_lock"
		flock $suite_lock_how -w 600 8 || echo "$suite_lock_late"
	fi
fi
