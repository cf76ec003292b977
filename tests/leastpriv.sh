#!/bin/sh
# The least-privilege setups, as the user nobody on the fake device tree
# (whose nodes have real permissions, whose msr nodes want CAP_SYS_RAWIO
# as the driver does, and which serves msr-safe's nodes): refused devices
# fall back to the OS's figures with the way in that fits, which the doctor
# names too; group access to the msr devices plus `setcap cap_sys_rawio+ep`
# counts; msr-safe with group access counts once pmutop's allowlist is
# loaded, and says so while it is not; every register restored each time;
# root's pmutop and a user's share the one lock.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 21

fakehw_start westmere-ep:memory-bound --msr-safe
u=$(mktemp -d)
chmod 755 "$u"
fakehw_cleanup='rm -rf "$u"'
# a copy of the program and its layouts that nobody may read (the build tree may be closed)
cp "$PMUTOP" "$u/pmutop"
cp -r "$top_srcdir/layouts" "$u/layouts"
chmod -R go-w "$u/layouts"
as_nobody() {
	run setpriv --reuid=nobody --regid=nogroup --clear-groups env PMUTOP_LAYOUT_DIR="$u/layouts" "$@"
}
regs set
before=$(regs dump)
restored() {
	after=$(regs dump)
	if [ "$after" = "$before" ]; then pass "$1: every register restored"; else fail "$1: every register restored" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
}

# ---- the devices as installed: root's only
as_nobody "$u/pmutop" -b -n 1 -d 0.2 --root "$dir"
expect_match "root's devices: the OS's figures, with the reason" "$err" "permission denied opening $dir/dev/cpu/0/msr"
as_nobody "$u/pmutop" --doctor --root "$dir"
expect_match "the doctor names the way made for users, msr-safe being there" "$out" "msr-safe is loaded: as root, give this user's group read and write access to /dev/cpu/*/msr_safe"
expect_match "... that a user's sampler keeps normal priority, and what that costs" "$out" \
	"warn  sampler          normal priority only (Operation not permitted): on a busy machine the register source's rotated figures lean"
expect_match "... and the way out" "$(printf '%s\n' "$out" | grep -A1 '^warn  sampler')" \
	"fix: run pmutop as root, or give it CAP_SYS_NICE"

# ---- the msr devices open to the user's group, without the capability
chgrp nogroup "$dir"/dev/cpu/*/msr
chmod 660 "$dir"/dev/cpu/*/msr
as_nobody "$u/pmutop" -b -n 1 -d 0.2 --root "$dir"
expect_match "group access without the capability: the driver's refusal, said as such" "$err" "the msr driver refuses $dir/dev/cpu/0/msr to a user without CAP_SYS_RAWIO (the file itself lets this user in)"
as_nobody "$u/pmutop" --doctor --root "$dir"
expect_match "the doctor names the capability as the one thing missing" "$out" "the device file lets this user in, and the msr driver also wants CAP_SYS_RAWIO: as root, setcap cap_sys_rawio+ep"

# ---- plus setcap cap_sys_rawio+ep on the program
setcap cap_sys_rawio+ep "$u/pmutop"
as_nobody "$u/pmutop" -b -n 2 -d 0.2 -g stalls --root "$dir"
expect_rc "setcap and group access: nobody counts" 0
expect_match "through the msr devices" "$out" "# sample 2"
case "$out" in *" msr"*) pass "the source is the msr driver" ;; *) fail "the source is the msr driver" "$(printf '%s\n' "$out" | head -1)" ;; esac
expect_match "its figures are measured" "$(printf '%s\n' "$out" | awk '$1 == 3 { print $7 }' | tail -1)" "."
restored "setcap"
as_nobody "$u/pmutop" --doctor --root "$dir"
expect_match "the doctor agrees" "$out" "$dir/dev/cpu/0/msr opens for reading and writing"
setcap -r "$u/pmutop"
chgrp root "$dir"/dev/cpu/*/msr
chmod 600 "$dir"/dev/cpu/*/msr

# ---- msr-safe open to the user's group, its allowlist empty
chgrp nogroup "$dir"/dev/cpu/*/msr_safe
chmod 660 "$dir"/dev/cpu/*/msr_safe
as_nobody "$u/pmutop" -b -n 1 -d 0.2 --root "$dir"
expect_rc "msr-safe without pmutop's registers: exit 1" 1
expect_match "saying how to load them" "$err" "its allowlist lacks pmutop's registers; as root: pmutop --msr-safe-allowlist > /dev/cpu/msr_allowlist"
as_nobody "$u/pmutop" --doctor --root "$dir"
expect_match "the doctor says the same" "$out" "opens, but msr-safe's allowlist lacks pmutop's registers"
restored "msr-safe refusing"

# ---- pmutop's allowlist loaded (as its README says)
"$PMUTOP" --root "$dir" --msr-safe-allowlist >"$dir/dev/cpu/msr_allowlist"
as_nobody "$u/pmutop" -b -n 2 -d 0.2 -g stalls --root "$dir"
expect_rc "msr-safe with pmutop's allowlist: nobody counts, no capability" 0
case "$out" in *" msr_safe"*) pass "the source is msr-safe" ;; *) fail "the source is msr-safe" "$(printf '%s\n' "$out" | head -1)" ;; esac
restored "msr-safe"
as_nobody "$u/pmutop" --doctor --root "$dir"
expect_match "the doctor agrees" "$out" "$dir/dev/cpu/0/msr_safe opens for reading and writing"

# ---- root's pmutop and nobody's meet at the same lock
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" -b -d 0.2 --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 1
as_nobody "$u/pmutop" -b -n 1 -d 0.2 --root "$dir"
expect_match "a user's pmutop is refused while root's runs, naming it (its viewers' socket is root's)" "$err" "another pmutop (pid $pid) is programming this machine's counters; its viewers' socket"
kill -TERM $pid
wait_end $pid
