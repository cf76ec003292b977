#!/bin/sh
# Out of the box on a server (issue 45.1) and the doctor on real machines'
# kinds (45.4): with no --source, a CPU whose uncore only the kernel's
# drivers reach (Sapphire and Granite Rapids, Tiger and Alder Lake) counts
# through perf and says so; with --source msr a blocked group says why on
# the message line, in the recent messages (L) and in the pane.  The
# truth: memory-bound.scn reads 8.3e7 lines a second on every channel,
# memory_bandwidth_read (Intel's data) = CAS reads x 64 / 1e6 a second,
# 5312 MB/s a channel.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 17

PY=${PYTHON:-python3}
run "$PMUTOP" --sim sapphire-rapids:memory-bound -b -n 2 -d 0.3 --format json
expect_rc "Sapphire Rapids, no --source: runs" 0
near "... channel 3's read bandwidth is counted (the kernel's uncore_imc_3)" \
	"$(field "$out" socket 0 3 memory_bandwidth_read)" 5312 0.05
run "$PMUTOP" --sim sapphire-rapids:memory-bound -b -n 1 -d 0.3
expect_match "... every sample says it counts through perf, and why" "$out" \
	"# warning: counting through perf: only the kernel's uncore drivers reach Memory, UPI, CXL, CHA, MemOther (--source msr: the cores alone, through the registers)"
run "$PMUTOP" --sim granite-rapids:memory-bound -b -n 2 -d 0.3 --format json
near "Granite Rapids, no --source: channel 11 counted (its schedulers summed)" \
	"$(field "$out" socket 0 11 memory_bandwidth_read)" 5312 0.05
run "$PMUTOP" --sim tigerlake:memory-bound -b -n 2 -d 0.3 --format json
near "Tiger Lake, no --source: both controllers' data_read" \
	"$(field "$out" socket 0 read_bytes_per_s)" "$((2 * 83000000 * 64))" 0.05

# --source msr: the memory group is blocked, and says why where a user looks
run env COLUMNS=100 LINES=30 "$PMUTOP" --sim sapphire-rapids:memory-bound --source msr --dump \
	-n 2 --pane imc
expect_match "the IMC pane names the blocked group and why, above its n/a" "$out" \
	"! Memory BLOCKED: pmu mc: only the kernel's uncore drivers reach these boxes"
T="tmux -L pmutop-oob-$$"
. "$top_srcdir/tests/tmux_lib.sh"
tmux_end
oobcfg=$(mktemp -d) # settings of its own, not the user's
$T new-session -d -x 120 -y 30 "XDG_CONFIG_HOME='$oobcfg' '$PMUTOP' --sim sapphire-rapids:memory-bound --source msr -d 0.5; sleep 30"
if wait_for "group Memory BLOCKED: pmu mc" 20; then
	pass "the message line says why the group is blocked when it starts"
else
	fail "the message line says why the group is blocked when it starts" "$(screen)"
fi
wait_for "Memory:2 BLOCKED" 10
$T send-keys L
if wait_for "Recent messages" 10 && wait_for "group Memory BLOCKED: pmu mc: only the kernel's" 10; then
	pass "L keeps it: group Memory BLOCKED with the reason"
else
	fail "L keeps it: group Memory BLOCKED with the reason" "$(screen)"
fi
tmux_end
rm -rf "$oobcfg"

# the doctor: which source auto takes, and the uncore a kind of CPU has
run "$PMUTOP" --sim sapphire-rapids --doctor
expect_match "the doctor: auto takes perf where only the kernel reaches the uncore" "$out" \
	"source           auto: perf, an emulated kernel: only its uncore drivers reach this CPU's uncore"
# the checks of this host's devices and kernel say n/a there, each with what the emulator has
expect_is "... and the nine checks of this host's devices and kernel are n/a on an emulated machine" \
	"$(printf '%s\n' "$out" | grep -cE '^n/a +(msr device +emulated registers|batch reads +emulated registers|write filter +emulated registers|NMI watchdog +emulated machine|hypervisor +emulated machine|perf access +emulated machine|perf PMUs +emulated machine|who \(cgroups\) +emulated machine|resctrl +emulated machine)')" 9
run "$PMUTOP" --sim tigerlake --doctor
expect_match "a client: its controllers and L3 slices, no CHA or UPI called missing" "$out" \
	"ok    uncore           the kernel's uncore PMUs, counted with --source perf: uncore_imc_free_running_0..1 (memory controllers' free-running counters), uncore_cbox_0..3 (L3 slices), power (RAPL energy)"
run "$PMUTOP" --sim alderlake --doctor
expect_is "Alder Lake: uncore_imc_0/1 (controllers, chmask) are not listed as channels" \
	"$(printf '%s\n' "$out" | grep -c 'uncore_imc_0')" 0
run "$PMUTOP" --sim genoa --doctor
expect_match "AMD: the uncore line names what AMD has" "$out" \
	"uncore           the kernel's uncore PMUs, counted with --source perf: amd_l3 (the L3 of each CCX), amd_df (data fabric), amd_umc_0..23"
run "$PMUTOP" --sim vermeer --doctor
expect_match "Zen 3 (no PerfMonV2): no amd_umc called missing" "$out" \
	"ok    uncore           the kernel's uncore PMUs, counted with --source perf: amd_l3 (the L3 of each CCX), amd_df (data fabric), power (RAPL energy)"

# boxes numbered with a gap (a server whose channels 4 and 5 are unpopulated) named as numbered
fakehw_start sapphire-rapids:idle
d="$dir/sys/bus/event_source/devices"
for b in 0 1 2 3 6 7; do
	mkdir -p "$d/uncore_imc_$b/format"
	printf '%s\n' $((40 + b)) >"$d/uncore_imc_$b/type"
	printf '0\n' >"$d/uncore_imc_$b/cpumask"
	printf 'config:0-7\n' >"$d/uncore_imc_$b/format/event"
done
run "$PMUTOP" --root "$dir" --doctor
expect_match "the doctor names the channels as numbered: 0..3,6..7" "$out" "uncore_imc_0..3,6..7 (memory channels)"
expect_match "... and what this server lacks" "$out" "missing: uncore_cha_N (L3 / CHAs), uncore_upi_N (UPI links), power (RAPL energy)"
# a platform after the seed CPUs has no row of pmutop's CPU table: the CPU line names it as
# Intel's data does (it said "architectural perfmon" on every such machine)
expect_match "the doctor names Sapphire Rapids as Intel's data does" "$out" \
	"Platinum 8480+, family 6 model 0x8F (SPR by Intel's data), perfmon v5"
