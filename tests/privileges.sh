#!/bin/sh
# Privileges: pmutop running as root (the test suite runs as root) refuses
# layout and scenario files another user could change (world- or group-
# writable, owned by another user, in a directory anyone may write without
# the sticky bit), each with the reason and the fix, exit 2; it accepts the
# user's own files (also through sudo: SUDO_UID's), root's, and any file when
# it runs without privileges (then nothing is steered).
. "$top_srcdir/tests/lib.sh"
plan 12

t=$(mktemp -d)
chmod 755 "$t"
trap 'rm -rf "$t"' EXIT
cp "$top_srcdir/layouts/nehalem.layout" "$t/nehalem.layout"
cp "$top_srcdir/backend/scenarios/memory-bound.scn" "$t/m.scn"
chmod 644 "$t/nehalem.layout" "$t/m.scn"
sim="nehalem-ep:$t/m.scn"

run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_rc "root's own layout and scenario, not writable by others: accepted" 0

chmod 666 "$t/nehalem.layout"
run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_rc "a layout every user may write: refused with exit 2" 2
expect_match "the reason and the fix" "$err" "pmutop: refusing layout $t/nehalem.layout: it is writable by every user (mode 0666), pmutop runs with privileges, and whoever can change the layout steers them; chmod go-w $t/nehalem.layout"
case "$out" in "") pass "nothing measured with it" ;; *) fail "nothing measured with it" "$out" ;; esac

chmod 664 "$t/nehalem.layout"
chgrp nogroup "$t/nehalem.layout"
run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_match "a layout its group may write: refused" "$err" "it is writable by its group (mode 0664)"
chgrp root "$t/nehalem.layout"
run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_rc "group-writable for root's group only: accepted" 0

chmod 644 "$t/nehalem.layout"
chown nobody "$t/nehalem.layout"
run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_match "another user's layout: refused" "$err" "it belongs to user $(id -u nobody), pmutop runs with privileges"
run env SUDO_UID="$(id -u nobody)" "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_rc "the same file when that user started pmutop through sudo: accepted" 0
chown root "$t/nehalem.layout"

chmod 777 "$t"
run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_match "a directory every user may write in: refused, saying so" "$err" "its directory $t is writable by every user (mode 0777)"
chmod 1777 "$t"
run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_rc "the same directory with the sticky bit (as /tmp): accepted" 0
chmod 755 "$t"

chmod 666 "$t/m.scn"
run "$PMUTOP" --sim "$sim" -b -n 1 -d 0.1
expect_match "a scenario every user may write: refused" "$err" "pmutop: refusing scenario $t/m.scn: it is writable by every user (mode 0666)"

# without privileges nothing is steered: the user nobody may use any file it can read
# (a copy of the program: the build tree may be closed to that user)
chmod 666 "$t/nehalem.layout"
cp "$PMUTOP" "$t/pmutop"
chmod 755 "$t/pmutop"
run setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$t/pmutop" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_rc "without privileges a world-writable layout and scenario are used" 0
