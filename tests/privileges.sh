#!/bin/sh
# Privileges: pmutop running as root (the test suite runs as root) refuses
# layout and scenario files another user could change (world- or group-
# writable, owned by another user, in a directory anyone may write without
# the sticky bit), each with the reason and the fix, exit 2; it accepts the
# user's own files (also through sudo: SUDO_UID's), root's, and any file when
# it runs without privileges (then nothing is steered).  Started through
# sudo, pmutop opens the devices as root, then goes on as the user who ran
# sudo (not dumpable: that user cannot reach the open devices), saves that
# user's settings as that user, and still restores every register.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 26

fakehw_start westmere-ep:memory-bound
t=$(mktemp -d)
chmod 755 "$t"
T="tmux -L pmutop-privs-$$"
fakehw_cleanup='$T kill-server 2>/dev/null; rm -rf "$t"'
cp "$top_srcdir/layouts/nehalem.layout" "$t/nehalem.layout"
cp "$top_srcdir/backend/sources/sim/scenarios/memory-bound.scn" "$t/m.scn"
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

# data directories named by the environment, and files by the command line: the same rule
cp -r "$top_srcdir/data/intel" "$top_srcdir/data/amd" "$top_srcdir/data/atom" "$t/"
chown -R nobody "$t/intel" "$t/amd" "$t/atom"
run env PMUTOP_PERFMON_DIR="$t/intel" "$PMUTOP" --sim sapphire-rapids -b -n 1 -d 0.1 -g all
expect_match "PMUTOP_PERFMON_DIR of another user: its data refused, saying why" "$err" "refusing vendor data model map $t/intel/models.csv: it belongs to user $(id -u nobody), pmutop runs with privileges"
case "$out" in *Frontend_Bound*) fail "... none of its metrics counted (the architectural events instead)" "$(printf '%s\n' "$out" | head -3)" ;; *"# sample 1"*) pass "... none of its metrics counted (the architectural events instead)" ;; *) fail "... the run goes on" "$err" ;; esac
run env PMUTOP_PERFMON_DIR="$t/intel" "$PMUTOP" --sim sapphire-rapids --list-metrics
expect_match "... --list-metrics refuses it too" "$err" "refusing vendor data model map $t/intel/models.csv"
run env PMUTOP_AMD_DIR="$t/amd" "$PMUTOP" --sim genoa --source perf -b -n 1 -d 0.1
expect_match "PMUTOP_AMD_DIR of another user: refused" "$err" "refusing vendor data model map $t/amd/models.csv: it belongs to user $(id -u nobody)"
run env PMUTOP_ATOM_DIR="$t/atom" "$PMUTOP" --sim alderlake -b -n 1 -d 0.1
expect_match "PMUTOP_ATOM_DIR of another user: its E-core metrics refused" "$err" "refusing vendor data file $t/atom/adl.json: it belongs to user $(id -u nobody)"
run env SUDO_UID="$(id -u nobody)" PMUTOP_PERFMON_DIR="$t/intel" "$PMUTOP" --sim sapphire-rapids -b -n 1 -d 0.1
case "$err" in *refusing*) fail "... the same data when that user started pmutop through sudo: used" "$err" ;; *) pass "... the same data when that user started pmutop through sudo: used" ;; esac
cp "$top_srcdir/tests/topology/westmere-ep-sparse.xml" "$t/topo.xml"
chown nobody "$t/topo.xml"
run "$PMUTOP" --topology-only --topology "$t/topo.xml"
expect_match "--topology FILE of another user: refused" "$err" "refusing --topology $t/topo.xml: it belongs to user $(id -u nobody)"
printf 'u:$6$salt$hash\n' >"$t/auth"
chown nobody "$t/auth"
run "$PMUTOP" --sim nehalem-ep -n 1 -d 0.1 --serve 127.0.0.1:0 --auth-file "$t/auth"
expect_match "--auth-file of another user (it lets clients in): refused" "$err" "refusing --auth-file $t/auth: it belongs to user $(id -u nobody)"

# without privileges nothing is steered: the user nobody may use any file it can read
# (a copy of the program: the build tree may be closed to that user)
chmod 666 "$t/nehalem.layout"
cp "$PMUTOP" "$t/pmutop"
chmod 755 "$t/pmutop"
run setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$t/pmutop" --sim "$sim" -b -n 1 -d 0.1 --layout "$t/nehalem.layout"
expect_rc "without privileges a world-writable layout and scenario are used" 0

# ---- started through sudo by the user nobody (the environment sudo sets)
nob=$(id -u nobody)
nobg=$(id -g nobody)
regs set
before=$(regs dump)
: >"$dir.out" # no earlier run's samples for wait_samples to count
env SUDO_UID=$nob SUDO_GID=$nobg SUDO_USER=nobody "$PMUTOP" -b -d 0.2 -g stalls --root "$dir" >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2
ids=$(awk '/^Uid:/ { print $2, $3, $4, $5 }' /proc/$pid/status)
if [ "$ids" = "$nob $nob $nob $nob" ]; then pass "through sudo: pmutop samples as the user who ran sudo"; else fail "through sudo: pmutop samples as the user who ran sudo" "Uid: $ids"; fi
if setpriv --reuid=nobody --regid="$nobg" --clear-groups ls /proc/$pid/fd >/dev/null 2>&1; then
	fail "that user cannot reach pmutop's open devices (not dumpable)" "ls /proc/$pid/fd worked"
else
	pass "that user cannot reach pmutop's open devices (not dumpable)"
fi
n=$(grep -c '^# sample' "$dir.out")
wait_samples $((n + 2))
kill -TERM $pid
wait_end $pid
if [ "$rc" = 143 ]; then pass "through sudo: SIGTERM ends it (143)"; else fail "through sudo: SIGTERM ends it" "exit $rc" "$(cat "$dir.err")"; fi
after=$(regs dump)
if [ "$after" = "$before" ]; then pass "through sudo: every register restored through the devices opened as root"; else fail "through sudo: every register restored through the devices opened as root" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi

# the interactive view saves the user's settings as the user
mkdir "$t/cfg"
chown nobody:"$nobg" "$t/cfg"
$T new-session -d -x 160 -y 50 "SUDO_UID=$nob SUDO_GID=$nobg SUDO_USER=nobody XDG_CONFIG_HOME='$t/cfg' LANG=C.UTF-8 '$PMUTOP' --root '$dir' -d 0.2; echo EXIT=\$?; sleep 60"
i=0
until $T capture-pane -p 2>/dev/null | grep -q 'sample 2' || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done
$T send-keys q
i=0
until $T capture-pane -p 2>/dev/null | grep -q 'EXIT=' || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done
expect_match "through sudo, the view quits normally" "$($T capture-pane -p)" "EXIT=0"
owner=$(stat -c %U "$t/cfg/pmutop/pmutoprc" 2>&1)
if [ "$owner" = nobody ]; then pass "its settings file belongs to the user who ran sudo"; else fail "its settings file belongs to the user who ran sudo" "$owner"; fi
