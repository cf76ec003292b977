#!/bin/sh
# AMD Zen (the AMD issue): the emulated Genoa (2 x EPYC 9654, Zen 4) and
# Vermeer (Ryzen 9 5950X, Zen 3), counted through the emulated kernel with
# AMD's formats and the layouts made from the kernel's perf data, against
# the scenarios' truth (noise 0) read through the documents' words:
#  - AMD's pipeline utilisation (the perf tool's amdzen4 pipeline.json):
#    every metric a share of the dispatch slots, 6 a cycle not in halt;
#    retiring = ops retired / slots; smt_contention = "slots that remained
#    unused because the other thread was selected": two always-busy threads
#    of a core take turns, and of the half of the slots the sibling takes a
#    thread loses those in which it had ops to dispatch, as often as in its
#    own half ((retiring + bad speculation) / its half); in the others it
#    waited on its front or back end as in its own half; the scenario's
#    frontend_bound and bad_speculation are shares of the thread's own slots
#    (all of them alone, half beside a busy sibling); backend_bound the rest;
#    frontend_bound_latency = whole cycles the front end gave nothing (the
#    scenario's fetch_latency_share of its share); bad_speculation_mispredicts
#    = the mispredicts' share of the restarts; retiring_microcode = the
#    microcode ops' share; backend_bound_memory = backend_bound x cycles the
#    oldest op waits on a load / cycles it waits (mem_stall / retire_stall).
#  - L1D fills by source (ls_any_fills_from_sys, PPR): same CCX = own L2 +
#    the CCX's L3; a different CCX = near + far caches; the remote node =
#    far caches + the other node's DRAM (reads, RFOs, their prefetches).
#  - Memory per channel (umc_mem_read_bandwidth = CAS reads x 64 / 1e6 per
#    second): memory-bound.scn reads 8.3e7 lines a second on every channel,
#    5312 MB/s; over DDR5-4800's 38.4 GB/s with the writes: 20.83 %.
#  - L3 (amd_l3, each CCX's share summed per socket): accesses = hits +
#    misses, the scenario's socket rates (written for a socket of 3 channels,
#    socket_channels) x 12 / 3 on Genoa's 12: (4e7 + 2.6e8) x 4;
#    l3_read_miss_latency = 80 ns (the default) at 2.4 GHz: 192 clocks.
#  - The data fabric (amd_df): Zen 4 counts DRAM data per channel by
#    requester, 64-byte beats: numa-remote.scn's socket 1 reads 4.1e7 lines a
#    second on each of 12 channels, 1.22e8 of its 1.23e8 reads for socket 0,
#    29787 MiB/s; it sends those reads over its links, the scenario's 7.808e9
#    bytes a second (for 3 channels) x 4, 29785 MiB/s;
#    Zen 3 counts each channel's beats (reads and writes): pmutop's
#    dram_channel_bandwidth, 8000 MB/s on memory-bound.scn, 31.25 % of
#    DDR4-3200's 25.6 GB/s.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 73
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
fakehw_cleanup='rm -rf "$tmp"'
trap 'rm -rf "$tmp"' EXIT
for s in memory-bound numa-remote cross-ccx; do
	sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/$s.scn" >"$tmp/$s.scn"
done
# every core's two threads busy on socket 0; on socket 1 the first thread of each core alone
cat >"$tmp/pipeline.scn" <<'EOF'
pmutop-scenario 1
name pipeline
description AMD's level 1 and 2, alone and beside a busy sibling
seed 1
noise 0
phase p 0
cpu all util=1 ipc=1.2 uops_per_inst=1.25 issue_ratio=1.0 exec_ratio=1.05
cpu all frontend_bound=0.2 fetch_latency_share=0.6 bad_speculation=0.05 mispredict_share=0.75
cpu all heavy_ops_share=0.1 issue_stall=0.55 exec_stall=0.4 retire_stall=0.4 mem_stall=0.3 div_busy=0
cpu all branch_per_inst=0.2 branch_miss_ratio=0.02
cpu 288-383 util=0
EOF
# Vermeer's first threads alone, as compute-bound.scn describes them
sed -e 's/^noise .*/noise 0/' -e '$a cpu 16-31 util=0' \
	"$top_srcdir/backend/sources/sim/scenarios/compute-bound.scn" >"$tmp/vermeer.scn"

# scaled JSON socket N METRIC: "yes" when the last sample marks it scaled
scaled() {
	printf '%s\n' "$1" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
print("yes" if sys.argv[2] in s["sockets"][int(sys.argv[1])].get("scaled", []) else "no")' "$2" "$3"
}

# the generations, from the CPU table and the kernel's mapfile
run "$PMUTOP" --list-metrics --cpu 1A_02
expect_rc "Zen 5 (EPYC 9005, family 1Ah): AMD's metrics listed" 0
expect_match "... its tree over 8 dispatch slots a cycle" "$out" \
	"frontend_bound  [percent; PipelineL1]  = 100 * ( ( ( de_no_dispatch_per_slot.no_ops_from_frontend ) / ( ( 8 * ls_not_halted_cyc ) ) ) )"
run "$PMUTOP" --list-metrics --cpu 17_31
expect_match "Zen 2 (Rome): no tree, pmutop's dispatch figures over its documented events" "$out" \
	"ops_retired_per_cycle  [; pmutop]  = ex_ret_cops / ls_not_halted_cyc"
run "$PMUTOP" --list-metrics --cpu 15_01
expect_rc "Bulldozer (family 15h): not in AMD's data" 1
expect_match "... which says what it covers, from the CPU table's rows" "$err" \
	"it covers Zen 2 to Zen 5 (family 17h, 19h, 1Ah)"

# the emulated kernel: AMD's formats, the msr PMU, the uncore boxes
run "$PMUTOP" --sim genoa --list-pmus
expect_match "Genoa's cpu PMU: the 12-bit event select as Linux's amd core PMU writes it" "$out" \
	"event=config:0-7,32-35"
expect_match "... the msr PMU's free-running instructions counter" "$out" "  event irperf = event=0x06"
expect_match "... amd_l3 on the first CPU of each of the 24 CCXs" "$out" \
	"amd_l3, type 22, counts on CPUs 0,8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160,168,176,184"
expect_match "... 12 memory channels a socket, numbered over both" "$out" "amd_umc: boxes 0-23 (24)"
expect_match "... the data fabric's PerfMonV2 format" "$out" "event=config:0-7,32-37 umask=config:8-15,24-27"

# level 1 and 2, alone (socket 1) and beside a busy sibling (socket 0)
run "$PMUTOP" --sim "genoa:$tmp/pipeline.scn" --source perf -b -n 3 -d 0.5 -g 1 --format json
expect_rc "Genoa, level 1 through perf: runs" 0
near "alone: retiring = 1.2 x 1.25 ops / 6 slots" "$(field "$out" socket 1 retiring)" 25 0.02
near "... frontend_bound, its own slots all of the core's" "$(field "$out" socket 1 frontend_bound)" 20 0.02
near "... bad_speculation" "$(field "$out" socket 1 bad_speculation)" 5 0.02
near "... backend_bound, the rest" "$(field "$out" socket 1 backend_bound)" 50 0.02
near "... smt_contention: the sibling idle, nothing lost to it" \
	"$(field "$out" socket 1 smt_contention)" 0 0.02
near "... IPC from the msr PMU's irperf / aperf" "$(field "$out" socket 1 ipc)" 1.2 0.02
near "busy sibling: smt_contention, the sibling's half x the share it dispatched of its own (27.5 / 50)" \
	"$(field "$out" socket 0 smt_contention)" 27.5 0.02
near "... retiring, the same ops over all the slots" "$(field "$out" socket 0 retiring)" 25 0.02
near "... frontend_bound, 20 % of its half, and of the sibling's half the same share (10 + 10)" \
	"$(field "$out" socket 0 frontend_bound)" 20 0.02
near "... backend_bound, the rest of its half (50 - 25 - 10 - 2.5) twice" \
	"$(field "$out" socket 0 backend_bound)" 25 0.02
near "... bad_speculation, 5 % of its half" "$(field "$out" socket 0 bad_speculation)" 2.5 0.02
expect_is "level 1 fills the six counters in one group, the built-ins none: not scaled" \
	"$(scaled "$out" 1 retiring)" no
run "$PMUTOP" --sim "genoa:$tmp/pipeline.scn" --source perf -b -n 3 -d 0.5 -g 2 --format json
near "level 2 (groups take turns): frontend_bound_latency, 60 % of 20" \
	"$(field "$out" socket 1 frontend_bound_latency)" 12 0.05
near "... bad_speculation_mispredicts, 75 % of 5" \
	"$(field "$out" socket 1 bad_speculation_mispredicts)" 3.75 0.05
near "... retiring_microcode, 10 % of 25" "$(field "$out" socket 1 retiring_microcode)" 2.5 0.05
near "... backend_bound_memory, 50 x 0.3 / 0.4" \
	"$(field "$out" socket 1 backend_bound_memory)" 37.5 0.05

# where the data came from: lines moving between CCXs
run "$PMUTOP" --sim "genoa:$tmp/cross-ccx.scn" --source perf -b -n 3 -d 0.5 -g 7 --format json
expect_rc "Genoa, cross-CCX sharing, the caches' key: runs" 0
near "cpu 5: fills from a different CCX (near + far caches)" \
	"$(field "$out" cpu 5 l1_data_cache_fills_from_different_ccx)" 6500000 0.05
near "... from its own CCX (own L2 + the CCX's L3)" \
	"$(field "$out" cpu 5 l1_data_cache_fills_from_same_ccx)" 14000000 0.05
near "... demand fills from another CCX of the node" \
	"$(field "$out" cpu 5 l1_demand_data_cache_fills_from_near_cache)" 6000000 0.05
near "... the L2's requests from L1D misses: every line filled from the L2 or beyond" \
	"$(field "$out" cpu 5 l2_cache_accesses_from_l1_dc_misses)" 20900000 0.05
run "$PMUTOP" --sim "genoa:$tmp/numa-remote.scn" --source perf -b -n 3 -d 0.5 -g 7 --format json
near "remote NUMA: socket 0's fills from the remote node (reads, RFOs, prefetches)" \
	"$(field "$out" cpu 3 l1_data_cache_fills_from_remote_node)" 21000000 0.05
near "... its demand fills from far memory" \
	"$(field "$out" cpu 3 l1_demand_data_cache_fills_from_far_memory)" 16500000 0.05

# memory channels, the L3, power
run "$PMUTOP" --sim "genoa:$tmp/memory-bound.scn" --source perf -b -n 2 -g 9,l,w --format json
expect_rc "Genoa, memory-bound, channels, L3 and power: runs" 0
near "socket 1 channel 11 (amd_umc_23): umc_mem_read_bandwidth" \
	"$(field "$out" socket 1 11 umc_mem_read_bandwidth)" 5312 0.02
near "... umc_mem_write_bandwidth" "$(field "$out" socket 1 11 umc_mem_write_bandwidth)" 2688 0.02
near "... dram_peak_pct against DDR5-4800" "$(field "$out" socket 1 11 dram_peak_pct)" 20.833 0.02
near "socket 0: its 12 channels summed" "$(field "$out" socket 0 umc_mem_read_bandwidth)" 63744 0.02
near "socket 0 L3, 12 CCXs summed (beside each CCX's: the groups take turns): accesses" \
	"$(field "$out" socket 0 l3_cache_accesses)" 1200000000 0.05
near "... l3_misses" "$(field "$out" socket 0 l3_misses)" 1040000000 0.05
near "... l3_read_miss_latency, 80 ns at 2.4 GHz" "$(field "$out" socket 0 l3_read_miss_latency)" 192 0.05
near "... CCX 5's L3 alone: a twelfth of the socket's accesses" \
	"$(field "$out" socket 0 l3_cache_accesses_ccx5)" 100000000 0.05
near "... CCX 11's read miss latency" "$(field "$out" socket 1 l3_read_miss_latency_ccx11)" 192 0.05
near "... package power from energy-pkg" "$(field "$out" socket 0 package_watts)" 270 0.02

# the data fabric: DRAM by requester and the links (Zen 4), DRAM per channel (Zen 3)
run "$PMUTOP" --sim "genoa:$tmp/numa-remote.scn" --source perf -b -n 3 -d 0.5 -g u --format json
near "socket 1's DRAM read for the other socket: its 12 channels' reads x the remote share" \
	"$(field "$out" socket 1 dram_read_data_for_remote_processor)" 29787 0.05
near "... the links' outbound data (beats of 64 bytes)" \
	"$(field "$out" socket 1 local_socket_outbound_data_from_all_links)" 29785.2 0.05
expect_is "... twelve channels over four counters: the groups take turns, scaled" \
	"$(scaled "$out" 1 dram_read_data_for_remote_processor)" yes
run "$PMUTOP" --sim "vermeer:$tmp/memory-bound.scn" --source perf -b -n 3 -d 0.5 -g 9 --format json
near "Zen 3 channel 1 from the fabric's beats: (8.3e7 + 4.2e7) x 64 B" \
	"$(field "$out" socket 0 1 dram_channel_bandwidth)" 8000 0.02
near "... of DDR4-3200's 25.6 GB/s" "$(field "$out" socket 0 1 dram_peak_pct)" 31.25 0.02

# Zen 3: no tree; IPC and pmutop's dispatch figures
run "$PMUTOP" --sim "vermeer:$tmp/vermeer.scn" --source perf -b -n 3 -d 0.5 --format json
expect_rc "Vermeer (Zen 3), compute-bound, one thread a core: runs" 0
near "IPC" "$(field "$out" socket 0 ipc)" 2.6 0.02
near "ops_retired_per_cycle: 2.6 x 1.05" "$(field "$out" socket 0 ops_retired_per_cycle)" 2.73 0.02
near "divider_busy_pct" "$(field "$out" socket 0 divider_busy_pct)" 5 0.02
near "retire_queue_full_pct (rob_full_stall)" "$(field "$out" socket 0 retire_queue_full_pct)" 1 0.02
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim vermeer --source perf --pane tree --dump -n 1
expect_match "the tree pane says why Zen 3 has none" "$out" "No pipeline-utilisation tree: AMD defines one from Zen 4 on."
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim vermeer --source perf --dump -n 1
expect_match "the topology: each CCX with its L3, its cores a block of rows" "$out" \
	"2 L3s (CCX) x 8 cores, 32 MiB each"
expect_match "... the second CCX's first core starts a row" "$out" "│ core 8      core 9 "
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim genoa --source perf --pane tree --dump -n 2
expect_match "Genoa at 80x24: SMT contention a level-1 node of its own" "$out" "  smt_contention   "
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim genoa:smt-contended --source perf --pane tree --dump -n 2 -d 0.3
expect_match "... drawn in the level-1 bar with its letter: cpu 0's T cells its share" "$(printf '%s\n' "$out" | $PY -c '
import re, sys
lines = sys.stdin.read().splitlines()
bar = next(l for l in lines if re.match(r" cpu 0 +[=SFBT]", l)).split()[2]
smt = float(next(l for l in lines if "smt_contention" in l and re.search(r"[0-9]\.[0-9]", l)).split()[1])
share = 100.0 * bar.count("T") / len(bar)
print("ok" if "T smt_contention" in "\n".join(lines) and abs(share - smt) <= 100.0 / len(bar) + 0.5
      else "T %.1f %% of the bar, smt_contention %.2f" % (share, smt))' 2>&1)" "ok"

# the bottleneck on AMD: its pipeline tree has no published thresholds (Linux's amdzen4
# pipeline.json gives none), so pmutop flags the largest node of each level under the largest
# parent (check_perfmon: the layout's "threshold own:"); the line must agree with the figures batch output gives: the
# memory-bound run's backend_bound, then its memory half; the compute-bound run's cpu half
bneck_truth() {
	# the first sample after the warm-up in which every level-1 node was counted (the dump shows
	# its second; beside load, or in a sanitizer build, a 0.3 s interval can leave a group
	# without a turn: n/a, null in JSON)
	"$PMUTOP" --sim "genoa:$1" --source perf -g 1,2 -b -n 4 -d 0.3 --format json | $PY -c '
import pmutop_json, sys
l1 = ["frontend_bound", "bad_speculation", "backend_bound", "smt_contention", "retiring"]
m = [s["sockets"][0]["metrics"] for s in map(pmutop_json.loads, sys.stdin.read().splitlines()[1:])]
def whole(x):
    if any(x.get(k) is None for k in l1):
        return False
    top = max(l1, key=lambda k: x[k])
    return all(x[k] is not None for k in x if k.startswith(top + "_"))
m = [x for x in m if whole(x)][0]
top = max(l1, key=lambda k: m[k])
kids = [k for k in m if k.startswith(top + "_")]
low = max(kids, key=lambda k: m[k])
print("%s > %s %d %%" % (top.replace("_bound", ""), low, round(m[low])))' 2>&1
}
ends=
for scn in memory-bound compute-bound; do
	want=$(bneck_truth $scn)
	ends="$ends${want% *%} "
	run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "genoa:$scn" --source perf -g 1,2 --dump -n 2 -d 0.3
	expect_match "Genoa $scn: the bottleneck line flags the largest of each level ($want)" \
		"$(printf '%s\n' "$out" | sed -n 4p | tr -d '*')" "bottleneck S0,S1: $want"
done
expect_is "... the memory-bound run's ends in backend_bound_memory, the compute-bound one's in backend_bound_cpu" \
	"$(printf '%s\n' "$ends" | sed 's/ [0-9]* / /g')" "backend > backend_bound_memory backend > backend_bound_cpu "
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim genoa:memory-bound --source perf --pane cycles --dump -n 2 -d 0.3
expect_match "... the Cycles pane (no stall decomposition of pmutop's on AMD) points to the tree" \
	"$(printf '%s\n' "$out" | tr -s ' \n' ' ')" "where the slots go is its vendor's tree, in the Tree pane (Tab to it)"

# this very kind of machine: an AMD guest without a PMU (the fake tree, as pmutop --root sees it)
fakehw_start epyc-vm
run "$PMUTOP" --root "$dir" --doctor
expect_match "the doctor names the generation" "$out" "(Zen 4, EPYC 9004 (Genoa); family 19h model 11h)"
expect_match "... says what pmutop would show with a PMU" "$out" \
	"With a PMU it would show AMD's pipeline-utilisation tree"
expect_match "... and how to enable the guest PMU" "$out" "QEMU/KVM -cpu host,pmu=on"
expect_match "... and the emulated machine of its platform meanwhile" "$out" "meanwhile pmutop --sim genoa"
run "$PMUTOP" --root "$dir" -b -n 1 -d 0.2
expect_rc "... while the OS's figures stay" 0
expect_match "... said as such" "$out" "OS (no counters)"
fakehw_stop
# a model of a known generation that has no row in the CPU table yet (AMD's data maps every
# model of its families): the generation AMD's data gives it; a family past the data: said so
fakehw_start epyc-vm --model 19_12
run "$PMUTOP" --root "$dir" --doctor
expect_match "a model the CPU table does not name: the doctor gives the generation of AMD's data" "$out" \
	"(Zen 4 by AMD's data, a model pmutop's CPU table does not name; family 19h model 12h)"
fakehw_stop
fakehw_start epyc-vm --model 1B_01
run "$PMUTOP" --root "$dir" --doctor
expect_match "... a family AMD's data has none of: says which it covers" "$out" \
	"(a generation AMD's data in pmutop does not cover (Zen 2 to Zen 5 (family 17h, 19h, 1Ah)); family 1Bh model 01h)"
fakehw_stop

# --layout of an Intel CPU on Zen 4: the refusal names the layout made from AMD's data (the
# kernel's mapfile gives family 19h model 11h amdzen4), not "none"
run "$PMUTOP" --sim genoa --source perf --layout "$top_srcdir/layouts/nehalem.layout" -b -n 1
expect_match "--layout nehalem on Genoa: refused, naming the layout made from AMD's data" "$rc $err" \
	"is for other CPUs: this one (family 25 model 0x11, Zen 4) has the layout pmutop makes from AMD's data for Zen 4 and"
