# fakehw_lib.sh: a fake machine root served by tools/fakehw for the shell
# tests, and the PMU registers of its CPUs.  Source after lib.sh.
: "${FAKEHW:?run through make check}"
PY=${PYTHON:-python3}

# fakehw_start MACHINE:SCENARIO [OPTION...]: serve it under $dir until the test exits.
fakehw_start() {
	dir=$(mktemp -d)
	chmod 755 "$dir" # as / is: other users reach the tree
	spec=$1
	shift
	# ahead of other work, as hardware answers whatever runs: under busy loops at the same
	# priority the device's answers lagged pmutop's clock and a rotating group's scaled
	# figures strayed by 20 % in an interval (accuracy_files.sh); as root, else as it is
	if nice -n -10 true 2>/dev/null; then
		nice -n -10 "$FAKEHW" --ready "$dir.ready" "$@" "$spec" "$dir" 2>/dev/null &
	else
		"$FAKEHW" --ready "$dir.ready" "$@" "$spec" "$dir" 2>/dev/null &
	fi
	helper=$!
	trap 'fakehw_stop' EXIT
	# a test stopped by a signal (a timeout, ^C) takes its fake machine down too
	trap 'fakehw_stop; trap - EXIT; exit 1' INT TERM HUP
	i=0
	while [ ! -f "$dir.ready" ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done
}

fakehw_stop() {
	kill $helper 2>/dev/null
	wait $helper 2>/dev/null
	# the tree and the files beside it ($dir.ready, .out, .err and the tests' own: .late,
	# .held, .want); mktemp made the name, so nothing else shares it
	rm -rf "$dir" "$dir".*
	[ -z "$fakehw_cleanup" ] || eval "$fakehw_cleanup"
}

# regs set|dump [ORIG]: the PMU registers pmutop may write, on every CPU, through the device
# files; ORIG (a Python dict of register: value) chooses other registers and originals
regs() {
	$PY - "$dir" "$1" "${2:-}" <<'PYEOF'
import ast, os, struct, sys
root, what = sys.argv[1], sys.argv[2]
# originals as another tool might leave them: disabled selects with content, counts, matrices,
# fixed counts that move (in real time, on the fake device) while pmutop enables them
orig = {0x186: 0x13003C, 0x187: 0x0, 0x188: 0x1301C0, 0x189: 0x0, 0xC1: 0x1234, 0xC2: 0x55AA55,
        0xC3: 0x0, 0xC4: 0x77, 0x38D: 0x0, 0x38F: 0x3, 0x1A6: 0x2001, 0x1A7: 0x4001,
        0x309: 0x123456789A, 0x30A: 0x2222, 0x30B: 0x0}
if sys.argv[3]:
    orig = ast.literal_eval(sys.argv[3])
regs = sorted(orig)
cpus = sorted(int(d) for d in os.listdir(os.path.join(root, "dev/cpu")) if d.isdigit())
for c in cpus:
    fd = os.open(os.path.join(root, "dev/cpu/%d/msr" % c), os.O_RDWR)
    for r in regs:
        if what == "set":
            os.pwrite(fd, struct.pack("<Q", orig[r]), r)
        else:
            print("cpu %d %03X %x" % (c, r, struct.unpack("<Q", os.pread(fd, 8, r))[0]))
    os.close(fd)
PYEOF
}


# wait_samples N [PATTERN]: until pmutop has printed N samples to $dir.out (lines matching
# PATTERN, by default the text format's headers), or 60 s; no file yet is no sample, so a
# signal never comes before pmutop is ready.  The caller empties $dir.out before it starts
# pmutop in the background: the shell that forks it truncates the file only when it runs,
# and on a busy machine an earlier run's samples were counted instead (seen under load)
wait_samples() {
	i=0
	while [ $i -lt 3000 ]; do
		_got=$(grep -c "${2:-^# sample}" "$dir.out" 2>/dev/null)
		[ "${_got:-0}" -lt "$1" ] || break
		sleep 0.02
		i=$((i + 1))
	done
}

# wait_programming: until start-up has begun programming (CPU 0's global control is no
# longer the original 3 of "regs set"), or 60 s
wait_programming() {
	$PY - "$dir" <<'PYEOF'
import os, struct, sys, time
fd = os.open(os.path.join(sys.argv[1], "dev/cpu/0/msr"), os.O_RDONLY)
end = time.time() + 60
while struct.unpack("<Q", os.pread(fd, 8, 0x38F))[0] == 3 and time.time() < end:
    time.sleep(0.01)
PYEOF
}

# other_takes_pmc3: another program programs PMC3 on CPU 7 (select 0x5300C0, count 0x4242)
other_takes_pmc3() {
	$PY - "$dir" <<'PYEOF'
import os, struct, sys
fd = os.open(os.path.join(sys.argv[1], "dev/cpu/7/msr"), os.O_RDWR)
os.pwrite(fd, struct.pack("<Q", 0x5300C0), 0x189)
os.pwrite(fd, struct.pack("<Q", 0x4242), 0xC4)
os.close(fd)
PYEOF
}

# wait_end PID: wait for PID to end (its status in rc); one stuck past 60 s is killed (rc 137),
# so a hung process fails its test instead of hanging the suite (a loaded machine can take
# 20 s to restore every register of 24 CPUs through the fake devices)
wait_end() {
	_i=0
	# running: not yet a zombie waiting for this shell
	while [ "$(awk '{ print $3 }' /proc/"$1"/stat 2>/dev/null)" != Z ] && [ -e /proc/"$1" ] &&
		[ $_i -lt 3000 ]; do
		sleep 0.02
		_i=$((_i + 1))
	done
	[ $_i -lt 3000 ] || kill -KILL "$1" 2>/dev/null
	wait "$1"
	rc=$?
	return $rc
}
