#!/bin/sh
# A 1,024-CPU machine under a hard limit of 1,024 open files: root's pmutop
# counts (it raises the hard limit itself where it may; where it may not,
# as here without CAP_SYS_RESOURCE, the devices past the limit are opened
# at each access, which it says with the fix) and restores every register
# it wrote, also through the devices it opened at each access; a user
# counting through perf is told what to do; viewers ignore the owner's
# options aloud.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 7
fakehw_start arch-1024:idle
u=$(mktemp -d)
chmod 755 "$u"
fakehw_cleanup='rm -rf "$u"'
# the program and its data where nobody may read them (the build tree may be closed)
cp "$PMUTOP" "$u/pmutop"
cp -r "$top_srcdir/layouts" "$u/layouts"
cp -r "$top_srcdir/backend/sources/sim/scenarios" "$u/scenarios"
chmod -R go-w,a+rX "$u"

# the architectural registers of the last CPUs (the ones past the limit), set and read back
arch_regs() {
	$PY - "$dir" "$1" <<'PYEOF'
import os, struct, sys
root, what = sys.argv[1], sys.argv[2]
orig = {0x186: 0x13003C, 0x187: 0x0, 0xC1: 0x1234, 0xC2: 0x55AA55, 0x38D: 0x0, 0x38F: 0x3,
        0x309: 0x123456789A}
for c in range(1016, 1024):
    fd = os.open(os.path.join(root, "dev/cpu/%d/msr" % c), os.O_RDWR)
    for r, v in sorted(orig.items()):
        if what == "set":
            os.pwrite(fd, struct.pack("<Q", v), r)
        else:
            print("cpu %d %03X %x" % (c, r, struct.unpack("<Q", os.pread(fd, 8, r))[0]))
    os.close(fd)
PYEOF
}
arch_regs set
before=$(arch_regs dump)

run sh -c "ulimit -n 1024 && exec '$PMUTOP' --root '$dir' -b -n 2 -d 0.2"
expect_match "root counts 1,024 CPUs under a hard limit of 1,024 files" "$rc $(printf '%s\n' "$out" | grep -c '^# sample')" "0 2"
last=$(printf '%s\n' "$out" | awk '$1 == 1023 { print $6 }' | tail -1)
if [ -n "$last" ] && [ "$last" != "n/a" ]; then pass "... the last CPU's figures too (ipc $last)"; else fail "... the last CPU's figures too" "$(printf '%s\n' "$out" | grep '^ *1023 ')"; fi
if sh -c 'ulimit -n 1024 && ulimit -Hn 4096' 2>/dev/null; then
	expect_lines "... having raised the hard limit itself: nothing to say" "$err" 0
else
	expect_match "... this root may not raise it: devices opened at each access, said with the fix" "$err" "of the 1024 CPUs are opened at each access (slower sweeps): 1"
fi
after=$(arch_regs dump)
if [ "$after" = "$before" ]; then pass "... every register restored, through the devices opened at each access too"; else fail "every register restored" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# a user counting through perf (the emulated kernel) under the same limit
run setpriv --reuid=nobody --regid=nogroup --clear-groups env PMUTOP_LAYOUT_DIR="$u/layouts" \
	PMUTOP_SCENARIO_DIR="$u/scenarios" sh -c "cd '$u' && ulimit -n 1024 && exec '$u/pmutop' --sim arch-1024 --source perf -b -n 1 -d 0.2 -g all"
expect_match "a perf user under the limit is told what to do" "$out" "open files needed, 1024 allowed (the hard limit, which only root may raise; as root pmutop raises it itself): as root, ulimit -Hn"
expect_match "... and what fits is counted" "$(printf '%s\n' "$out" | awk '$1 == 0 { print $6; exit }')" "."

# ---- a viewer ignores the owner's options aloud
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" --root "$dir" -b -d 0.3 -g all >"$dir.out" 2>"$dir.err" &
owner=$!
wait_samples 1
run "$PMUTOP" --root "$dir" -b -n 1 --layout "$top_srcdir/layouts/arch.layout" -g branches -d 2
expect_match "a viewer names the options it ignores, and why" "$err" "ignored --layout, -g, -d: the run is the owner's"
kill -TERM $owner
wait_end $owner
