# suite_lock.sh: the suite's lock, sourced by lib.sh (every script) and run by
# unit_lock.sh (every unit test program).  make check runs twice as many tests
# as there are CPUs (most of a script's time is the emulated machines'
# intervals on the real clock), so each runs beside others' load.  A script
# that holds pmutop to an accuracy on the real clock beside a load it makes
# itself (phased_load.sh, accuracy_files.sh) sets ALONE=1 first and runs with
# no other test: the others hold the lock shared (on fd 8, for as long as
# they run), it exclusive.  The waits are bounded (a process a test left
# behind keeps its lock): past them the test runs and says so.
suite_lock=${top_builddir:-.}/tests/.suite.lock
if command -v flock >/dev/null 2>&1 &&
	{ [ -f "$suite_lock" ] && [ -w "$suite_lock" ] || { [ ! -e "$suite_lock" ] && [ -w "${suite_lock%/*}" ]; }; }; then
	exec 8>>"$suite_lock"
	if [ -n "${ALONE:-}" ]; then
		flock -x -w 600 8 || echo "# the suite's lock was not free in 600 s: run beside other tests"
	else
		flock -s -w 600 8 || echo "# the suite's lock was not free in 600 s: run beside a test that wanted to be alone"
	fi
fi
