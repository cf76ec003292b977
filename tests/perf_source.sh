#!/bin/sh
# The perf source as a user meets it: --source and its refusals; the
# emulated machine through the emulated kernel (core and uncore PMUs, the
# kernel's multiplexing marked); on the fake device tree, discovery in its
# sysfs (no core PMU, the uncore PMUs listed), perf_event_paranoid and the
# capabilities as the user nobody, --source auto's choice and the doctor
# saying the same; and --source auto on this machine explaining its choice.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 45

# ---- the option ----
run "$PMUTOP" --source bogus -b -n 1 --sim nehalem-ep
expect_rc "--source bogus is a usage error" 2
expect_match "--source bogus names the three" "$err" "--source is auto, msr or perf (pmutop --help says what each counts through), not 'bogus'"
expect_match "... and --help says what each counts through" "$("$PMUTOP" --help)" "      --source=SRC       the counters (default auto):
                           auto  msr when it can be used and reaches every
                                 group, else perf
                           msr   the registers, through the msr driver or
                                 msr-safe (root)
                           perf  the kernel's perf_event_open: core events and"
run "$PMUTOP" --source perf --force -b -n 1 --sim nehalem-ep
expect_rc "--source perf --force is refused" 2
expect_match "--force with perf says why" "$err" "the kernel shares the counters between users"

run "$PMUTOP" --list-events --sim skylake --source perf
expect_match "--list-events --source perf: core events as perf stat -e names them" "$out" "cpu/event=0x"
expect_match "and the IMC's counters by the kernel's names" "$out" "uncore_imc/data_reads/"

# ---- an emulated machine through the emulated kernel ----
run "$PMUTOP" --sim nehalem-ep:memory-bound --source perf -b -n 2 -g all
expect_rc "--sim --source perf runs" 0
expect_match "the header names the source" "$out" "SIMULATED nehalem-ep:memory-bound (perf)"
case "$out" in
*"blocked"*) fail "every group counts through the kernel's PMUs" "$(printf '%s\n' "$out" | grep blocked | head -3)" ;;
*) pass "every group counts through the kernel's PMUs" ;;
esac
ch=$(printf '%s\n' "$out" | grep '^# socket 0 channel 1:' | tail -1)
case "$ch" in
*"read_bytes_per_s=n/a"* | "") fail "the IMC channels are counted through the uncore PMU" "$ch" ;;
*"read_bytes_per_s="*"*"*) pass "the IMC channels are counted through the uncore PMU" ;;
*) fail "the IMC channels are counted through the uncore PMU" "no scaled mark: $ch" ;;
esac
run "$PMUTOP" --sim nehalem-ep:memory-bound --source perf -b -n 2 -g all --format json
shares=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
for name, g in s["groups"].items():
    print(name, g["state"], "%.3f" % g.get("live_share", 1))')
# the C-state groups are free-running counters the kernel never multiplexes: live all along
bad=$(printf '%s\n' "$shares" | awk '($1 !~ /^CStates/ && ($2 != "rotating" || $3 <= 0 || $3 >= 1)) || ($1 ~ /^CStates/ && ($2 != "live" || $3 != "1.000"))')
if [ -z "$bad" ] && [ -n "$shares" ] && printf '%s\n' "$shares" | grep -q '^CStates.pkg live'; then pass "the kernel multiplexes every group: rotating, each with its share (the free-running C-states live)"; else fail "the kernel multiplexes every group: rotating, each with its share" "$shares"; fi

run env COLUMNS=160 LINES=50 "$PMUTOP" --sim skylake:memory-bound --source perf --dump -n 2 --pane imc
expect_rc "--dump through perf" 0
expect_match "the screen names the source" "$out" "(perf)"

# ---- on the screen: the kernel's multiplexing marked, explain shows the raw config ----
T="tmux -L pmutop-perf-$$"
. "$top_srcdir/tests/tmux_lib.sh"
cfg=$(mktemp -d)
$T new-session -d -x 160 -y 50 "LANG=C.UTF-8 XDG_CONFIG_HOME='$cfg' '$PMUTOP' --sim nehalem-ep:memory-bound --source perf -g stalls,imc,qhl,l3; sleep 30"
if wait_for "sample 2" 10; then pass "the screen runs through perf"; else fail "the screen runs through perf" "$(screen)"; fi
expect_match "its header names the source" "$(screen)" "(perf)"
i=0
while ! screen | grep -q '\[IMC\]' && [ $i -lt 6 ]; do $T send-keys -t 0 Tab; sleep 0.05; i=$((i + 1)); done
$T send-keys -t 0 Down e
if wait_for "perf raw" 10; then pass "explain shows the raw config the kernel is given"; else fail "explain shows the raw config the kernel is given" "$(screen)"; fi
expect_match "and the share the kernel gave the group" "$(screen)" "of the interval, counts scaled by"
tmux_end
rm -rf "$cfg"

# ---- one command counted alone ----
run "$PMUTOP" --sim nehalem-ep:memory-bound --command-only -b -d 0.3 -- sleep 1
expect_rc "--command-only runs the command and counts it" 0
expect_match "the header says only the command is counted" "$err" "counting only the command run under pmutop and what it starts"
expect_match "the uncore says why it cannot count a command" "$out" "group imc blocked: counting one command: the uncore counts whole sockets"
case "$(printf '%s\n' "$out" | grep '^# socket 0:' | tail -1)" in
*"exec_stall_pct=n/a"* | "") fail "the command's core figures are there" "$out" ;;
*"exec_stall_pct="*) pass "the command's core figures are there" ;;
*) fail "the command's core figures are there" "$out" ;;
esac
run "$PMUTOP" --sim nehalem-ep --command-only -b -n 1
expect_rc "--command-only without a command is a usage error" 2
expect_match "and says how it goes" "$err" "pmutop --command-only -- COMMAND"
run "$PMUTOP" --sim nehalem-ep --command-only -b -- /nonexistent/cmd
expect_rc "a command that cannot run: 127, as a shell says" 127

# ---- the fake device tree's sysfs ----
fakehw_start westmere-ep:numa-remote
pmus="$dir/sys/bus/event_source/devices"
run "$PMUTOP" --root "$dir" --source perf -b -n 1 -d 0.2
expect_rc "no core PMU: the OS's figures" 0
expect_match "no core PMU is said, with where it was looked for" "$err" "the kernel exposes no core PMU ($dir/sys/bus/event_source/devices/cpu is missing)"
expect_match "and then what is shown instead" "$out" "OS (no counters)"

mkdir -p "$pmus/cpu/format" "$pmus/uncore/format"
echo 4 >"$pmus/cpu/type"
for f in event:config:0-7 umask:config:8-15 edge:config:18 any:config:21 inv:config:23 cmask:config:24-31 offcore_rsp:config1:0-63; do
	echo "${f#*:}" >"$pmus/cpu/format/${f%%:*}"
done
echo 13 >"$pmus/uncore/type"
echo "0,6" >"$pmus/uncore/cpumask"
for f in event:config:0-7 umask:config:8-15 cmask:config:24-31; do
	echo "${f#*:}" >"$pmus/uncore/format/${f%%:*}"
done
echo 2 >"$dir/proc/sys/kernel/perf_event_paranoid"

run "$PMUTOP" --root "$dir" --source auto -b -n 1 -d 0.2
expect_match "auto takes msr where the msr devices work" "$out" "  msr"
run "$PMUTOP" --doctor --root "$dir"
expect_match "the doctor lists the kernel's PMUs" "$out" "cpu (type 4, 7 format fields); uncore"
expect_match "the doctor says which source auto takes" "$out" "auto: msr; --source perf also works"
expect_match "root may count every CPU" "$out" "CAP_PERFMON (root): every CPU may be counted"

# as a user: paranoid 2 refuses whole CPUs; the doctor says how to get in
u=$(mktemp -d)
chmod 755 "$u"
fakehw_cleanup='rm -rf "$u"'
cp "$PMUTOP" "$u/pmutop"
cp -r "$top_srcdir/layouts" "$u/layouts"
as_nobody() {
	run setpriv --reuid=nobody --regid=nogroup --clear-groups env PMUTOP_LAYOUT_DIR="$u/layouts" "$@"
}
as_nobody "$u/pmutop" --root "$dir" --source perf -b -n 1 -d 0.2
expect_match "a user at paranoid 2 is told what perf needs" "$err" "perf cannot count every CPU for this user: kernel.perf_event_paranoid is 2: counting whole CPUs needs 0 or less"
expect_match "and what to change" "$err" "CAP_PERFMON (setcap cap_perfmon+ep pmutop)"
as_nobody "$u/pmutop" --root "$dir" --source auto -b -n 1 -d 0.2
expect_match "auto as that user: both sources' reasons" "$err" "msr: "
expect_match "auto as that user: perf's reason too" "$err" "; perf: perf cannot count every CPU"
as_nobody "$u/pmutop" --doctor --root "$dir"
expect_match "the doctor's perf line for that user" "$out" "kernel.perf_event_paranoid is 2"
expect_match "the doctor's fix for it" "$out" "setcap cap_perfmon+ep"
echo 0 >"$dir/proc/sys/kernel/perf_event_paranoid"
as_nobody "$u/pmutop" --doctor --root "$dir"
expect_match "at paranoid 0 a user may count every CPU" "$out" "kernel.perf_event_paranoid is 0 (0 or less): every CPU may be counted without privileges"
expect_match "and auto would count through perf" "$out" "auto: perf (msr unusable"

# ---- a locked-down kernel: the msr driver refuses writes, auto goes on to perf ----
fakehw_stop
fakehw_start westmere-ep:numa-remote --lockdown
regs_before=$(regs dump)
run "$PMUTOP" --root "$dir" --source auto -b -n 1 -d 0.2
expect_match "auto: msr refused under lockdown, said" "$err" "msr: the kernel refused writing MSR"
expect_match "auto: then perf, with its own reason" "$err" "; perf: the kernel exposes no core PMU"
expect_match "and the OS's figures instead" "$out" "OS (no counters)"
if [ "$(regs dump)" = "$regs_before" ]; then pass "nothing was changed on the locked-down machine"; else fail "nothing was changed on the locked-down machine" "registers differ"; fi

# ---- this machine: whatever it has, auto picks and says why ----
run "$PMUTOP" --source auto -b -n 1 -d 0.2
doc=$("$PMUTOP" --doctor 2>&1 | grep '  source  ')
src=$(printf '%s\n' "$out" | sed -n 's/^# sample 1 .*  \([^ ]*\)$/\1/p' | head -1)
case "$err" in
*"no counters: "?*)
	expect_match "auto on this machine: no source, and why (the doctor agrees)" "$doc" "neither msr nor perf" ;;
*)
	expect_match "auto on this machine: the doctor names the source it took ($src)" "$doc" "auto: $src" ;;
esac
