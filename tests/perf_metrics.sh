#!/bin/sh
# Ice Lake and later: level 1 of the vendor's tree (and from Sapphire Rapids
# level 2) read from fixed counter 3 and MSR_PERF_METRICS, through both
# counter sources, against the scenario's truth (topdown.scn without noise).
#
# The truth, from the documents' words: TOPDOWN.SLOTS "increments by
# machine-width of the narrowest pipeline" per unhalted cycle (5 on Ice Lake
# and Tiger Lake, 6 on Sapphire and Granite Rapids) and "is distributed
# among unhalted logical processors who share the same physical core": both
# threads of every core are busy, so each has half.  PERF_METRICS gives each
# node's share of those slots: Retiring = uops retired / slots; front end
# and bad speculation as the scenario says; back end the rest.  Level 2 (8
# fields): heavy operations heavy_ops_share (10 %) of retiring, branch
# mispredicts mispredict_share (80 %) of bad speculation, fetch latency
# fetch_latency_share of the front end, memory bound the share of the
# stall cycles with a load outstanding or the store buffer full.
#  socket 0: 1.0 x 1.1 uops a cycle per thread, the two threads' issue
#   (half the cycles each) fits one core.
#  socket 1: 2.4 x 1.05 uops a cycle asked, in 90 % of the cycles each: the
#   core issues for one thread a cycle, so each progresses at 1 / 1.8.
# Each field has 8 bits (a share in 255ths, rounded): a figure is within 2 %
# of the truth or one step of the register (100 / 255 points).  Level 1
# adds up to 100 (the vendor's formulas divide by the four fields' sum).
. "$top_srcdir/tests/lib.sh"
plan 37
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
T="tmux -L pmutop-pm-$$"
trap 'command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/topdown.scn" >"$tmp/td.scn"

# check WIDTH FIELDS: stdin the JSON samples (the last is checked); prints ok or what is wrong
check() {
	$PY -c '
import pmutop_json, json, sys
W, fields = float(sys.argv[1]), int(sys.argv[2])
# the last sample in which every CPU answered in time (through device files a CPU whose read
# took longer is n/a that interval, and the sample says so); none such: the last, which fails
samples = [pmutop_json.loads(l) for l in sys.stdin.read().strip().splitlines()]
s = ([x for x in samples if "answered late" not in (x.get("warning") or "")] or samples)[-1]

def truth(sock):
    if sock == 0:
        k = 1.0                       # issue demand 0.5 + 0.5: one core fits both
        ipc, upi, fe, bs, lat = 1.0, 1.1, 0.20, 0.08, 0.7
        exec_stall, mem, stores, exec_ratio = 0.45, 0.35, 0.03, 1.05
    else:
        k = 1.8                       # 0.9 + 0.9: each thread at 1 / 1.8
        ipc, upi, fe, bs, lat = 2.4, 1.05, 0.05, 0.02, 0.3
        exec_stall, mem, stores, exec_ratio = 0.06, 0.02, 0.005, 1.02
    uops = ipc * upi / k
    exec_stall = 1 - (1 - exec_stall) / k
    ret = uops / (W * 0.5)
    be = 1 - ret - fe - bs
    stall = max(exec_stall, 1 - uops * exec_ratio)
    m = min(mem, stall)
    memb = be * (m + min(stores, stall - m)) / stall
    t = dict(Retiring=ret, Frontend_Bound=fe, Bad_Speculation=bs, Backend_Bound=be)
    if fields == 8:
        t.update(Heavy_Operations=ret * 0.1, Light_Operations=ret * 0.9,
                 Branch_Mispredicts=bs * 0.8, Machine_Clears=bs * 0.2,
                 Fetch_Latency=fe * lat, Fetch_Bandwidth=fe * (1 - lat),
                 Memory_Bound=memb, Core_Bound=be - memb)
    return dict((n, 100 * v) for n, v in t.items())

bad = []
def near(what, got, want):
    if got is None or abs(got - want) > max(0.02 * want, 100 / 255.0):
        bad.append("%s %s, truth %.3f" % (what, got, want))

for k, sock in enumerate(s["sockets"]):
    m = sock["metrics"]
    for name, want in truth(k).items():
        near("socket %d %s" % (k, name), m.get(name), want)
    l1 = sum(m[x] for x in ("Frontend_Bound", "Bad_Speculation", "Retiring", "Backend_Bound"))
    if abs(l1 - 100) > 0.01:
        bad.append("socket %d level 1 sums to %s" % (k, l1))
    if fields == 8:
        for parent, kids in (("Frontend_Bound", ("Fetch_Latency", "Fetch_Bandwidth")),
                             ("Backend_Bound", ("Memory_Bound", "Core_Bound")),
                             ("Bad_Speculation", ("Branch_Mispredicts", "Machine_Clears")),
                             ("Retiring", ("Light_Operations", "Heavy_Operations"))):
            if abs(sum(m[x] for x in kids) - m[parent]) > 0.01:
                bad.append("socket %d %s != %s" % (k, parent, " + ".join(kids)))
# per thread: PERF_METRICS is each logical processor own
for t in s["threads"]:
    near("cpu %d Retiring" % t["cpu"], t["metrics"].get("Retiring"), truth(t["socket"])["Retiring"])
# nothing of level 1 and 2 is scaled: the fields are read beside fixed counter 3, always
scaled = [n for n in truth(0) if n in s.get("scaled", [])]
if scaled:
    bad.append("scaled: %s" % scaled)
print("ok" if not bad else "; ".join(bad[:6]) + (" (%s)" % s["warning"] if s.get("warning") else ""))
' "$1" "$2" 2>&1
}

for src in msr perf; do
	run "$PMUTOP" --sim "tigerlake:$tmp/td.scn" --source "$src" -b -n 2 -d 1 --format json -g 1
	expect_rc "tigerlake through $src: exits 0" 0
	expect_match "... level 1 from PERF_METRICS (4 fields, 5 slots a cycle) is the truth" \
		"$(printf '%s\n' "$out" | check 5 4)" "ok"
	run "$PMUTOP" --sim "sapphire-rapids:$tmp/td.scn" --source "$src" -b -n 2 -d 1 --format json -g 1,2
	expect_rc "sapphire-rapids (224 CPUs) through $src: exits 0" 0
	expect_match "... levels 1 and 2 from PERF_METRICS (8 fields, 6 slots a cycle), adding up" \
		"$(printf '%s\n' "$out" | check 6 8)" "ok"
done
run "$PMUTOP" --sim "icelake-sp:$tmp/td.scn" -b -n 2 -d 1 --format json -g 1
expect_match "icelake-sp (2 x 40 cores): level 1 is the truth" "$(printf '%s\n' "$out" | check 5 4)" "ok"
run "$PMUTOP" --sim "granite-rapids:$tmp/td.scn" --source perf -b -n 2 -d 1 --format json -g 1,2
expect_match "granite-rapids (128 cores) through perf: levels 1 and 2 are the truth" \
	"$(printf '%s\n' "$out" | check 6 8)" "ok"

# the raw counts: slots and each field's slots, as perf stat names them; the fields add up to slots
run "$PMUTOP" --sim "sapphire-rapids:$tmp/td.scn" -b -n 2 -d 1 --format json --counts -g 1
check=$(printf '%s\n' "$out" | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read().strip().splitlines()[-1])
c = s["threads"][0]["counts"]
slots = c["slots"]["count"]
l1 = sum(c[n]["count"] for n in ("topdown_retiring", "topdown_bad_spec", "topdown_fe_bound", "topdown_be_bound"))
cyc = c["cycles"]["count"]
ok = abs(slots - 3 * cyc) < 0.01 * slots and abs(l1 - slots) < 0.02 * slots and "topdown-heavy-ops" in c["topdown_heavy_ops"]["event"]
print("ok" if ok else "slots %s cycles %s level-1 fields %s" % (slots, cyc, l1))
' 2>&1)
expect_match "--counts: slots = 6 x cycles / 2 threads, the level-1 fields add up to the slots" "$check" "ok"
check=$(printf '%s\n' "$out" | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read().strip().splitlines()[-1])
u = [s["threads"][0]["metrics"]["Info_System_CPU_Utilization"], s["sockets"][1]["metrics"]["Info_System_CPU_Utilization"]]
print("ok" if all(abs(x - 1) < 0.01 for x in u) else "thread 0, socket 1: %s" % u)
' 2>&1)
expect_match "Info_System_CPU_Utilization (REF_TSC over TSC ticks over NUM_CPUS): 1 for a busy thread and socket" "$check" "ok"

# --list-events: the kernel's top-down group through perf; the register through msr
run "$PMUTOP" --list-events --sim sapphire-rapids --source perf
expect_match "--list-events --source perf names the kernel's top-down group" "$out" "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,topdown-heavy-ops,"
run "$PMUTOP" --list-events --sim tigerlake
expect_match "--list-events names fixed counter 3 and MSR_PERF_METRICS" "$out" "3 TOPDOWN.SLOTS with MSR_PERF_METRICS (0x329, 4 fields"

# the doctor says which levels come from fixed counter 3 and PERF_METRICS
run "$PMUTOP" --doctor --sim sapphire-rapids
expect_match "the doctor: levels 1 and 2 from fixed counter 3 and PERF_METRICS" "$out" "level 1 and 2 from fixed counter 3 and PERF_METRICS (8 fields)"

# the msr-safe allowlist: PERF_METRICS writable, PERF_CAPABILITIES read, 4 fixed counters' controls
run "$PMUTOP" --sim tigerlake --msr-safe-allowlist
expect_match "allowlist: MSR_PERF_METRICS" "$out" "0x00000329 0xFFFFFFFFFFFFFFFF # MSR_PERF_METRICS"
expect_match "allowlist: IA32_PERF_CAPABILITIES read only" "$out" "0x00000345 0x0000000000000000 # IA32_PERF_CAPABILITIES (read)"
expect_match "allowlist: IA32_FIXED_CTR_CTRL has four counters' fields" "$out" "0x0000038D 0x000000000000FFFF # IA32_FIXED_CTR_CTRL"
expect_match "allowlist: IA32_PERF_GLOBAL_CTRL has 8 PMCs, 4 fixed counters, PERF_METRICS" "$out" "0x0000038F 0x0001000F000000FF # IA32_PERF_GLOBAL_CTRL"
run "$PMUTOP" --sim skylake-sp --msr-safe-allowlist
case "$out" in
*MSR_PERF_METRICS*) fail "before Ice Lake: no MSR_PERF_METRICS on the allowlist" "$out" ;;
*) pass "before Ice Lake: no MSR_PERF_METRICS on the allowlist" ;;
esac

# without fixed counter 3 (Skylake-SP) the vendor's Ice Lake tree's level 1 is unavailable, saying why
run "$PMUTOP" --list-metrics --cpu 06_6A --plan layout
case "$out" in
*"unavailable Retiring"*) fail "Ice Lake-SP's made layout: level 1 counted from the built-ins" "$out" ;;
*) pass "Ice Lake-SP's made layout: level 1 counted from the built-ins" ;;
esac
expect_match "... Retiring from topdown_retiring" "$out" 'metric Retiring thread "%" = 100 * ( topdown_retiring /'
PMUTOP_PERFMON_DIR="$top_srcdir/data/intel" run "$PMUTOP" --list-events --sim skylake-sp
expect_match "Skylake-SP (no fixed counter 3): its own tree, from general-purpose events" "$out" "# layout intel_skx"

# the tree pane at 80x24 on Sapphire Rapids: level 1 per thread, B follows the bottleneck
. "$top_srcdir/tests/tmux_lib.sh"
key() { $T send-keys -t 0 "$@"; }
$T new-session -d -x 80 -y 24 "cd '$tmp' && XDG_CONFIG_HOME='$tmp/cfg' LANG=C.UTF-8 '$PMUTOP' --sim 'sapphire-rapids:$tmp/td.scn' -d 0.5 -g 1,2 --pane tree; sleep 60"
wait_for "Backend_Bound <==" 15 >/dev/null
expect_match "tree pane: level 1, the bottleneck marked" "$(screen)" "+ Backend_Bound <=="
key B
wait_for "Memory_Bound" 10 >/dev/null
expect_match "B opens the path to the bottleneck: Memory_Bound under Backend_Bound" "$(screen)" "Memory_Bound"
key e
wait_for "topdown_mem_bound" 10 >/dev/null
expect_match "explain names the PERF_METRICS field it reads, with its count" "$(screen)" "topdown_mem_bound"
expect_match "... and what it is" "$(screen)" "(PERF_METRICS.MEMORY_BOUND"
key Escape
key q

# through the fake device files: fixed counter 3 and PERF_METRICS are written (cleared at
# each read) and put back as they were, with the controls, when pmutop ends
tmux_end
. "$top_srcdir/tests/fakehw_lib.sh"
fakehw_start "tigerlake:$tmp/td.scn"
fakehw_cleanup='rm -rf "$tmp"'
# another tool's leftovers: fixed counter 3 off with a count, PERF_METRICS holding fields
orig3="{0x38D: 0x0, 0x38F: 0x3, 0x30C: 0x123456, 0x329: 0x0A141E32}"
regs set "$orig3"
before=$(regs dump "$orig3")
run "$PMUTOP" --root "$dir" -b -n 4 -d 0.3 --format json -g 1
expect_rc "through the fake msr device files: exits 0" 0
expect_match "... level 1 from fixed counter 3 and PERF_METRICS is the truth" \
	"$(printf '%s\n' "$out" | check 5 4)" "ok"
after=$(regs dump "$orig3")
expect_is "... fixed counter 3, PERF_METRICS and their controls restored" "$after" "$before"

# the vendor's extra registers: the offcore response pair (its OCR events) and MSR_PEBS_FRONTEND
# (FRONTEND_RETIRED) hold the data's values while pmutop counts, and are put back when it ends
orig4="{0x1A6: 0x0, 0x1A7: 0x77, 0x3F7: 0x0}"
regs set "$orig4"
before=$(regs dump "$orig4")
: >"$dir.out"
"$PMUTOP" --root "$dir" -b -n 200 -d 0.3 -g 4,7 --format json >"$dir.out" 2>"$dir.err" &
pid=$!
wait_samples 3 '"seq"'
during=$(regs dump "$orig4")
kill -TERM "$pid"
wait_end "$pid"
after=$(regs dump "$orig4")
# (keys 4 and 7 count several OCR events in turns: RSP_0 holds the value of the one counting)
case "$during" in
*"cpu 0 1A6 10003c0002"* | *"cpu 0 1A6 10003c0001"* | *"cpu 0 1A6 8003c0001"* | *"cpu 0 1A6 103b800002"*)
	pass "OCR events: MSR_OFFCORE_RSP_0 holds the data's value (DEMAND_RFO.L3_HIT.SNOOP_HITM, DEMAND_DATA_RD.L3_HIT.SNOOP_HITM or _HIT_WITH_FWD, DEMAND_RFO.L3_MISS as the metrics write it)" ;;
*) fail "OCR events: MSR_OFFCORE_RSP_0 holds the data's value" "$during" ;;
esac
case "$during" in
*"cpu 7 1A7 10800"* | *"cpu 7 1A7 10003c0001"* | *"cpu 7 1A7 8003c0001"* | *"cpu 7 1A7 10003c0002"* | *"cpu 7 1A7 103b800002"*)
	pass "... and MSR_OFFCORE_RSP_1 the other's (STREAMING_WR.ANY_RESPONSE or a snoop outcome)" ;;
*) fail "... and MSR_OFFCORE_RSP_1 the other's" "$during" ;;
esac
case "$during" in
*"cpu 0 3F7 13"* | *"cpu 0 3F7 1
"*) pass "FRONTEND_RETIRED: MSR_PEBS_FRONTEND holds the data's value (0x13 L2_MISS or 0x1 ANY_DSB_MISS)" ;;
*) fail "FRONTEND_RETIRED: MSR_PEBS_FRONTEND holds the data's value" "$during" ;;
esac
expect_is "... each put back when pmutop ends" "$after" "$before"
run "$PMUTOP" --list-events --sim sapphire-rapids
expect_match "--list-events: Sapphire Rapids' OCR events on 2AH/2BH with their matrix value" "$out" "0x2A  0x01     0   0    0   0     43012A 1A6H=0x103B800002"
expect_match "... and a front-end event with MSR_PEBS_FRONTEND's" "$out" "4340AD      3F7H=0x7"
run "$PMUTOP" --list-events --sim sapphire-rapids --source perf
expect_match "--list-events --source perf: the kernel's frontend= term" "$out" "cpu/event=0xad,umask=0x40,frontend=0x7/"
