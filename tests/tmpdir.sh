# tmpdir.sh: the tests' scratch files (mktemp, the unit tests' temporary
# directories) in memory where /dev/shm is a memory file system kept as /tmp
# is (sticky, no link): the fake device trees of a server are thousands of
# files, which a disk's journal made seconds of system time, and the
# settings files' fuzzer saves (write, fsync, rename) 6,000 of them.  TMPDIR
# set beforehand is kept.  Sourced by lib.sh (every script) and unit_lock.sh
# (every unit test program).
if [ -z "${TMPDIR:-}" ] && [ ! -L /dev/shm ] && [ -k /dev/shm ] &&
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi
