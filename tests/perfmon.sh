#!/bin/sh
# Intel's perfmon data from the user's side: --list-metrics names the
# platform the vendor's mapfile gives for a CPU, prints the top-down tree with
# the vendor's formulas over the vendor's event names, and every kind of
# missing or damaged data gets one line that says what to do.
. "$top_srcdir/tests/lib.sh"
plan 28

run "$PMUTOP" --list-metrics --cpu 06_8F
expect_rc "--list-metrics for a Sapphire Rapids exits 0" 0
expect_match "it names the platform file and the upstream commit" "$out" "data/intel/spr.json (intel/perfmon "
expect_match "level 1 is a root, with the vendor's formula over its events" "$out" "
Frontend_Bound  [percent; BvFB;BvIO;TmaL1;PGO]  = 100 * ( PERF_METRICS.FRONTEND_BOUND / ( PERF_METRICS.FRONTEND_BOUND + PERF_METRICS.BAD_SPECULATION + PERF_METRICS.RETIRING + PERF_METRICS.BACKEND_BOUND ) - INT_MISC.UOP_DROPPING / ( TOPDOWN.SLOTS:perf_metrics ) )  | threshold: Frontend_Bound > 15"
expect_match "level 2 is indented under its parent, its threshold over both" "$out" "
  Memory_Bound  [percent; Backend;TmaL2]  = 100 * ( PERF_METRICS.MEMORY_BOUND / ( PERF_METRICS.FRONTEND_BOUND + PERF_METRICS.BAD_SPECULATION + PERF_METRICS.RETIRING + PERF_METRICS.BACKEND_BOUND ) )  | threshold: ( Memory_Bound > 20 ) & ( Backend_Bound > 20 )"
expect_match "the other metrics follow, constants by the vendor's names" "$out" "
cpu_operating_frequency  [GHz]  = (CPU_CLK_UNHALTED.THREAD / CPU_CLK_UNHALTED.REF_TSC * SYSTEM_TSC_FREQ) / 1000000000"
n=$(printf '%s\n' "$out" | grep -vc '^#')
if [ "$n" -eq 308 ]; then pass "every one of the 308 metrics is listed once"; else fail "every one of the 308 metrics is listed once" "got $n lines"; fi

# the stepping picks Skylake-SP or Cascade Lake, as in the vendor's mapfile
run "$PMUTOP" --list-metrics --cpu 06_55_4
expect_match "06_55 stepping 4 is Skylake-SP" "$out" "data/intel/skx.json"
run "$PMUTOP" --list-metrics --cpu 06_55_7
expect_match "06_55 stepping 7 is Cascade Lake" "$out" "data/intel/clx.json"

# Alder Lake-N (06_BE): Gracemont cores alone, whose events Intel's mapfile gives it (not the
# hybrids' Golden Cove metrics of the same folder); Intel publishes no metrics for it, and its
# tree is its cores': Alder Lake's E-cores' from the kernel (data/atom), level 1 as the
# kernel's own file for Alder Lake-N writes it (alderlaken/adln-metrics.json)
run "$PMUTOP" --list-metrics --cpu 06_BE
case "$out" in
*"data/intel/adl-gracemont.json (intel/perfmon 6dadedf3aa48, BSD-3-Clause): 57 metrics, 53 events
# its metrics: its cores', Intel's in the Linux kernel's perf tool "*"/data/atom/adl.json (v"*)
	pass "06_BE is Alder Lake-N's Gracemont data, its metrics its cores' from the kernel" ;;
*) fail "06_BE is Alder Lake-N's Gracemont data, its metrics its cores' from the kernel" "$(printf '%s\n' "$out" | head -4)" ;;
esac
expect_match "... the Gracemont tree's level 1 (5 slots a cycle), not the Golden Cove's" "$out" "
tma_frontend_bound  [percent; Default;TopdownL1;tma_L1_group]  = 100 * ( TOPDOWN_FE_BOUND.ALL / ( 5 * CPU_CLK_UNHALTED.CORE ) )"
run "$PMUTOP" --list-events --cpu 06_BE
expect_match "... counted with the layout made from them" "$(printf '%s\n' "$out" | head -1)" "# layout intel_adl_gracemont "
case "$out" in *TOPDOWN.SLOTS*|*PERF_METRICS*) fail "... which programs no Golden Cove event (TOPDOWN.SLOTS, PERF_METRICS)" "$(printf '%s\n' "$out" | grep -m2 'TOPDOWN.SLOTS\|PERF_METRICS')" ;;
*) pass "... which programs no Golden Cove event (TOPDOWN.SLOTS, PERF_METRICS)" ;; esac

# an emulated machine names its own CPU: the Skylake client is SKL
run "$PMUTOP" --list-metrics --sim skylake
expect_match "--sim skylake lists the Skylake client's metrics" "$out" "data/intel/skl.json"

# --plan: how the vendor's groups pack on the counters; what cannot be counted, and why
run "$PMUTOP" --list-metrics --cpu 06_55_4 --plan TmaL1
expect_match "Skylake-SP's level 1 takes one pass of 4 counters with hyper-threading on" "$out" "# plan for TmaL1 on 4 general-purpose counters (hyper-threading on, as the vendor's rows give them): 7 of 7 metrics in 1 pass"
expect_match "the branch of HYPERTHREADING_ON taken: the any-thread events" "$out" "fixed: 0=INST_RETIRED.ANY 1=CPU_CLK_UNHALTED.THREAD_ANY"
run "$PMUTOP" --list-metrics --cpu 06_55_4 --plan Memory_Bound
expect_match "a metric wider than the counters says so" "$out" "not counted: Memory_Bound: needs 9 general-purpose counters at once, 4 here"
run "$PMUTOP" -b --plan TmaL1 --sim skylake
expect_match "--plan without --list-metrics is refused" "$err" "--plan goes with --list-metrics: pmutop --list-metrics --plan TmaL1,TmaL2"

# the doctor names the platform and what the data holds
run "$PMUTOP" --doctor --sim skylake
expect_match "the doctor names the Skylake client's data" "$out" "ok    vendor data      SKL (intel/perfmon "
run "$PMUTOP" --doctor --sim nehalem-ep
expect_match "and says when the vendor's data has no platform" "$out" "n/a   vendor data      Intel's data has no platform for this CPU (pmutop's own layout covers it)"

run "$PMUTOP" --list-metrics --cpu 06_2A
expect_rc "a platform with events but no metrics exits 0" 0
expect_match "and says why the tree is empty" "$err" "Intel publishes events but no metrics for SNB"

run "$PMUTOP" --list-metrics --cpu 06_1A
expect_rc "a CPU the vendor's data lacks exits 1" 1
expect_match "and points at pmutop's own layout" "$err" "pmutop: Intel's perfmon data has no platform for family 6 model 0x1A stepping 0"

run env PMUTOP_PERFMON_DIR=/nonexistent "$PMUTOP" --list-metrics --cpu 06_8F
expect_match "a missing data directory says how to point at it" "$err" "(set PMUTOP_PERFMON_DIR to pmutop's data/intel, or reinstall)"

# a damaged platform file: one line with the file and the place
d=$(mktemp -d)
cp "$top_srcdir/data/intel/models.csv" "$d/"
head -c 5000 "$top_srcdir/data/intel/spr.json" > "$d/spr.json"
run env PMUTOP_PERFMON_DIR="$d" "$PMUTOP" --list-metrics --cpu 06_8F
expect_match "a truncated file names itself, the line and the column" "$err" "pmutop: $d/spr.json:1:5000: "
sed 's/"Formula":"100 \* ( a \/ ( b + c + d + a ) )"/"Formula":"100 * ( a \/ ( b + c + d + a )"/' "$top_srcdir/data/intel/spr.json" > "$d/spr.json"
run env PMUTOP_PERFMON_DIR="$d" "$PMUTOP" --list-metrics --cpu 06_8F
expect_match "a formula that does not parse names the metric and the column" "$err" "pmutop: $d/spr.json: metric Backend_Bound: formula column 30: expected ')'"
rm -rf "$d"

# --layout of another CPU on a platform after the seed CPUs (no row of the CPU table): the
# refusal names the platform Intel's mapfile gives 06_8F (SPR) and the layout made from its data
run "$PMUTOP" --sim sapphire-rapids --layout "$top_srcdir/layouts/nehalem.layout" -b -n 1
expect_match "--layout nehalem on Sapphire Rapids: refused, naming the layout pmutop would make" \
	"$rc $err" "2 pmutop: layout $top_srcdir/layouts/nehalem.layout (nehalem) is for other CPUs: this one (family 6 model 0x8F, SPR by Intel's data) has the layout pmutop makes from Intel's data for SPR and"
# with a layout of the user's (here the architectural fallback, which every Intel CPU may
# take) the run still names the CPU by Intel's data, not CPUID's "architectural perfmon":
# the recording's header (and the screen's) says so
d=$(mktemp -d)
run "$PMUTOP" --sim sapphire-rapids --layout "$top_srcdir/layouts/arch.layout" -b -n 1 -d 0.2 \
	--record "$d/arch.jsonl"
expect_is "--layout arch on Sapphire Rapids: the run names the CPU as Intel's data does" \
	"$rc $(head -1 "$d/arch.jsonl" | ${PYTHON:-python3} -c 'import json, sys; print(json.load(sys.stdin)["cpu"]["uarch"])')" \
	"0 SPR by Intel's data"
rm -rf "$d"
