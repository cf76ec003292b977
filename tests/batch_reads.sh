#!/bin/sh
# msr-safe's batch call (X86_IOC_MSR_BATCH on dev/cpu/msr_batch) end to end
# on the fake device tree, which serves the real ioctl from pmutop's own
# memory as the module does: root prefers msr-safe when its batch device
# answers and its allowlist covers pmutop's registers; every sample is then
# read in one call, says so, and gives the figures the register-by-register
# path gives; an offline CPU, a refused call (pmutop goes on register by
# register and says why), msr-safe 2.0's version check, an allowlist short
# of a register; every register restored after each run.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 25

fakehw_start nehalem-ep:compute-bound --msr-safe
"$PMUTOP" --root "$dir" --msr-safe-allowlist >"$dir/dev/cpu/msr_allowlist"
regs set
before=$(regs dump)
restored() {
	after=$(regs dump)
	if [ "$after" = "$before" ]; then pass "$1: every register restored"; else fail "$1: every register restored" "$(printf '%s\n' "$before" "$after" | sort | uniq -u | head -4)"; fi
}

# samples FILE: "batched source ipc-mean n/a-threads warning" per sample after the short first one
samples() {
	$PY - "$1" <<'PYEOF'
import pmutop_json, json, sys
for line in list(open(sys.argv[1]))[1:]:
    s = pmutop_json.loads(line)
    ipc = [t["metrics"]["ipc"] for t in s["threads"] if t["metrics"]["ipc"] is not None]
    na = [str(t["cpu"]) for t in s["threads"] if t["metrics"]["ipc"] is None]
    print("%s %s %.4f na=%s %s" % (s["batched"], s["source"], sum(ipc) / max(len(ipc), 1),
                                   ",".join(na) or "-", s["warning"] or "-"))
PYEOF
}

run "$PMUTOP" --doctor --root "$dir"
expect_match "the doctor finds the batch device answering" "$out" \
	"$dir/dev/cpu/msr_batch (msr-safe 1.7.0) answers a batch call: every CPU's counters in one call per sweep"

# ---- root, msr-safe with its batch device and pmutop's allowlist: one call per sweep
run "$PMUTOP" --root "$dir" -b -n 4 -d 0.4 -g stalls --format json
expect_rc "a run on msr-safe's batch call" 0
printf '%s\n' "$out" >"$dir.out"
s=$(samples "$dir.out")
expect_is "every sample is read in one batch call" "$(printf '%s\n' "$s" | awk '{ print $1 }' | sort -u)" "True"
expect_is "through msr-safe's files, though the msr driver opens too" "$(printf '%s\n' "$s" | awk '{ print $2 }' | sort -u)" "msr_safe"
expect_is "every thread has its figures" "$(printf '%s\n' "$s" | awk '{ print $4 }' | sort -u)" "na=-"
batch_ipc=$(printf '%s\n' "$s" | awk '{ n++; t += $3 } END { printf "%.4f", t / n }')
restored "batch reads"

run "$PMUTOP" --root "$dir" -b -n 2 -d 0.3 -g stalls
expect_is "the text output says the skew is one call's length" "$(printf '%s\n' "$out" | grep -c 'skew [0-9]* us (one batch call)  msr_safe$')" "2"

# ---- the same register by register: the same figures (compute-bound is steady)
PMUTOP_NO_BATCH=1 run "$PMUTOP" --root "$dir" -b -n 4 -d 0.4 -g stalls --format json
printf '%s\n' "$out" >"$dir.out"
s=$(samples "$dir.out")
expect_is "PMUTOP_NO_BATCH: register by register, through the msr driver" "$(printf '%s\n' "$s" | awk '{ print $1, $2 }' | sort -u)" "False msr"
one_ipc=$(printf '%s\n' "$s" | awk '{ n++; t += $3 } END { printf "%.4f", t / n }')
expect_match "batched and one by one, the same IPC within 1 % ($batch_ipc, $one_ipc)" \
	"$($PY -c "print(abs($batch_ipc - $one_ipc) <= 0.01 * $one_ipc and $one_ipc > 0)")" "True"
restored "register by register"

# ---- a CPU offline mid-run: msr-safe checks first and runs nothing; pmutop runs the rest
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" --root "$dir" -b -n 8 -d 0.3 -g stalls --format json >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2 '"seq"'
echo "5 offline" >"$dir/dev/faults"
wait_samples 5 '"seq"'
echo "5 online" >"$dir/dev/faults"
wait_end $pid
err=$(cat "$dir.err")
expect_rc "a CPU offline mid-run on the batch path" 0
s=$(samples "$dir.out")
expect_match "while CPU 5 is offline only its figures are n/a" "$(printf '%s\n' "$s" | awk '{ print $4 }' | sort -u | paste -sd' ')" "na=5"
expect_is "and the other CPUs are still read in one call" "$(printf '%s\n' "$s" | awk '$4 == "na=5" { print $1 }' | sort -u)" "True"
expect_is "back online, CPU 5 counts again" "$(printf '%s\n' "$s" | tail -1 | awk '{ print $4 }')" "na=-"
restored "offline mid-run"

# ---- the batch call refused mid-run: pmutop goes on register by register and says why
: >"$dir.out" # no earlier run's samples for wait_samples to count
"$PMUTOP" --root "$dir" -b -n 6 -d 0.3 -g stalls --format json >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 2 '"seq"'
echo "all batch-refuse" >"$dir/dev/faults"
wait_end $pid
echo "all batch-ok" >"$dir/dev/faults"
err=$(cat "$dir.err")
expect_rc "the batch call refused mid-run" 0
s=$(samples "$dir.out")
expect_is "the samples after it are read register by register" "$(printf '%s\n' "$s" | tail -1 | awk '{ print $1, $2 }')" "False msr_safe"
expect_is "with every figure" "$(printf '%s\n' "$s" | tail -1 | awk '{ print $4 }')" "na=-"
expect_match "and say why" "$(printf '%s\n' "$s" | tail -1)" "reads go register by register (msr-safe's batch call failed: Invalid argument)"
restored "refused mid-run"

# ---- msr-safe 2.0 checks the caller's version: pmutop passes the module's own
fakehw_stop
fakehw_start nehalem-ep:compute-bound --msr-safe-version 2.0.1
"$PMUTOP" --root "$dir" --msr-safe-allowlist >"$dir/dev/cpu/msr_allowlist"
run "$PMUTOP" --root "$dir" -b -n 2 -d 0.3 -g stalls --format json
expect_match "msr-safe 2.0.1: batched, the version passed is the module's" "$(printf '%s\n' "$out" | tail -1)" '"batched":true'
rm -f "$dir/sys/module/msr_safe/version"
run "$PMUTOP" --doctor --root "$dir"
expect_match "its version unknown, the doctor says the call is refused" "$out" "the msr driver, register by register: $dir/dev/cpu/msr_batch (msr-safe unknown version) refuses the batch call: Invalid argument"
run "$PMUTOP" --root "$dir" -b -n 2 -d 0.3 -g stalls --format json
expect_match "and root uses the msr driver, register by register" "$(printf '%s\n' "$out" | tail -1)" '"batched":false'

# ---- an allowlist without a register pmutop writes: the msr driver for root
fakehw_stop
fakehw_start nehalem-ep:compute-bound --msr-safe
"$PMUTOP" --root "$dir" --msr-safe-allowlist | grep -v '^0x0000038D' >"$dir/dev/cpu/msr_allowlist"
run "$PMUTOP" --doctor --root "$dir"
expect_match "the doctor says msr-safe's allowlist lacks pmutop's registers" "$out" "the msr driver, register by register: msr-safe's allowlist lacks registers pmutop writes"
run "$PMUTOP" --root "$dir" -b -n 2 -d 0.3 -g stalls --format json
expect_match "msr-safe's allowlist short of IA32_FIXED_CTR_CTRL: root keeps the msr driver" "$(printf '%s\n' "$out" | tail -1)" '"source":"msr"'
