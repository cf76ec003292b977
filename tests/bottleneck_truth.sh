#!/bin/sh
# Intel's Bottleneck metrics (TMA 4: Mispredictions, Big_Code,
# Instruction_Fetch_BW, Data_Cache_Memory_Bandwidth and _Latency,
# Memory_Data_TLBs, Memory_Synchronization, Compute_Bound_Est,
# Irregular_Overhead, Branching_Overhead, Useful_Work and
# Other_Bottlenecks; Lunar Lake's 8) on the emulated Sapphire Rapids,
# Granite Rapids, Ice Lake-SP, Skylake-SP, Tiger Lake, and Alder and Lunar
# Lake's P-cores, against truth, on the five scenarios tree_truth.sh checks the
# tree with (their keys: truth_scenarios.sh).  Granite Rapids' metrics that
# read a PEBS retire latency must read n/a (pmutop does not sample it), as
# must a formula that divides by 0 in the scenario; a 0 / 0 times 0 is 0
# (a share of nothing: expr_eval.c, and the truth below by the same rule).
# Skylake-SP's count both threads of a core (AnyThread): its cores' figures.
#
# Each metric reads 4 to 76 events, more than the counters hold: key 7
# counts them in its own groups and in the tree's that its "reads" line
# names, all taking turns (5 %, or 0.4 points: PERF_METRICS' fields are
# 255ths).  The truth of each is Intel's formula (Intel's perfmon data,
# data/intel/PLATFORM.json, not the layout pmutop makes of it) evaluated
# over each event's truth, worked out here from the scenario and the
# event's description:
#   cycles, slots   the thread's unhalted cycles; the slots its share of the
#                   core's width (half with its sibling busy)
#   PERF_METRICS    retiring = uops retired / slots, front end and bad
#                   speculation the scenario's, back end the rest; of it
#                   the memory-bound share is the stall cycles with a load
#                   outstanding or the store buffer full
#   stalls          cycles no uop executes (at least 1 - the uops executed
#                   a cycle), of them with a load outstanding, an L1D / L2
#                   / L3 miss outstanding (nested), the store buffer full,
#                   a serializing operation (the RS empty: SCOREBOARD,
#                   RS.EMPTY_RESOURCE), the rest EXE_BOUND_0_PORTS
#   ports           the cycles that execute, 1 + Binomial(3) uops each with
#                   the thread's mean: 1_PORTS_UTIL, 2_3_PORTS_UTIL, ...
#   front end       the fetch-latency cycles (front end bound x its latency
#                   share) by cause; an MS switch costs 3 cycles (one
#                   UOPS_RETIRED.MS:c1:e1 run each, retired runs the issued
#                   over the issue ratio); the MS delivers up to 4 uops a
#                   cycle, a run at least a cycle (IDQ.MS_CYCLES_ANY,
#                   UOPS_RETIRED.MS:c1)
#   clears          mispredicts a branch x the miss ratio; machine clears as
#                   many as make them the mispredict share of all clears
#   loads           by source (L1, fill buffer, L2 per instruction; L3 and
#                   memory a second); the L3 hits forwarded by another core
#                   (modified or clean: XSNP_FWD and the offcore snoop
#                   responses); the stores the other memory uops
#   memory          cycles with a data read outstanding, with 12 or more
#                   (bandwidth); with an RFO outstanding (the RFO lines a
#                   second x the memory latency)
#   TLBs            an STLB hit a cycle; the walks walk_cycles each
#   Sunny Cove      PERF_METRICS' 4 fields keep the clears' recovery slots
#                   (a machine width a clear) in bad speculation; a BAClear
#                   costs 10 cycles; the core's cycles with no uop
#                   delivered are the thread's turn of the fetch latency;
#                   the legacy decoders deliver the issued uops the uop
#                   cache and the MS do not, decoder 0 a quarter of them a
#                   cycle and two of each few-uops instruction
#   SMT             both threads busy: each runs at capacity / the demand of
#                   the core's most asked resource (the scenarios' README)
#   Skylake         one thread's counter of each event (an AnyThread one counts the
#                   core's: both threads busy here, the vendor's halves of the
#                   threads' sums cancel), against the core's figures; the
#                   core's cycles either thread runs; the recovery cycles the
#                   slots bad speculation holds beyond the wasted uops (4 a
#                   cycle, the siblings' summed), one run a clear; the core's
#                   cycles with k or more uops executed of the threads'
#                   independent counts; a BAClear 9 cycles, an MS switch 2, an
#                   instruction-cache miss 2 beyond its stall run
#   none            AMX, C0.2, REP iterations, dropped uops, L2 stalls,
#                   remote cache hits, RFOs missing the L3 to a modified line
. "$top_srcdir/tests/lib.sh"
# two parts, run side by side by make check (each is minutes of emulated intervals beside a
# loaded machine): bottleneck_truth_2.sh (TRUTH_PART=2) Granite Rapids', Ice Lake-SP's,
# Tiger Lake's and Alder Lake's metrics, this one the other machines' and the pane
part=${TRUTH_PART:-1}
if [ "$part" = 2 ]; then plan 20; else plan 27; fi
# at its fair share of the CPU, as tree_truth.sh says (at nice 10 it took 453 s of the loaded
# suite's 485)
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top_srcdir/tests/truth_scenarios.sh"
# the keys only these metrics read, the same in every scenario: the L3 hits
# other cores forward (Contested_Accesses divides by them), locked and split
# memory operations
for s in compute bandwidth latency frontend smt; do
	printf 'cpu all l3_hit_hitm_share=0.05 l3_hit_fwd_share=0.1 rfo_hitm_per_inst=0.0002 nop_per_inst=0.01\n' >>"$tmp/$s.scn"
	printf 'cpu all lock_loads_per_inst=0.001 split_loads_per_inst=0.001 split_stores_per_inst=0.0005 kernel=0.05\n' >>"$tmp/$s.scn"
	printf 'cpu all remote_dram_loads_per_s=0 remote_dram_read_lines_per_s=0 remote_dram_rfo_lines_per_s=0\n' >>"$tmp/$s.scn"
done
# and L3 hits where the scenario names none (without them the snoop shares are 0 / 0, their
# terms 0: the shares would go unchecked)
for s in compute frontend smt; do
	printf 'cpu all l3_hit_loads_per_s=2e6\n' >>"$tmp/$s.scn"
done

cat >"$tmp/bneck.py" <<'PY'
import pmutop_json, json, math, re, sys
from truth import scenario, last_sample

plat, scn, W, width, keys = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
fields = int(sys.argv[6])                 # PERF_METRICS' fields: 4 (Sunny Cove) or 8
# the keys a scenario leaves out: their defaults (the scenario format's table of keys)
v = {}
for k, x in re.findall(r"^\s*X\((\w+),\s*\w+,\s*([-0-9.e]+),", open(keys).read(), re.M):
    v[k] = float(x)
v.update(scenario(scn))
s = last_sample()
th = next(x for x in s["threads"] if x["cpu"] == 0)
skx = plat.endswith("skx.json")
# Skylake-SP counts its metrics per core (AnyThread events, both threads alike here): the
# core's figures, over one thread's counts (the vendor's halves of the AnyThread sums cancel)
got = s["cores"][0]["metrics"] if skx else th["metrics"]
G = th["metrics"]["ghz"] * 1e9          # the thread's cycles a second (its clock as measured)
T = 2.0e9                                 # the TSC a second: its value cancels

# ---- the core shared (the scenarios' README): both threads busy ask the core's issue
# cycles, its ports (the uops of 6, by the port shares) and its divider; each thread runs
# at capacity / the demand of the most asked, and its stalls grow by what it lost
ex = v["ipc"] * v["uops_per_inst"] * v["exec_ratio"]
shares = [v["port%d" % p] for p in range(6)]
demand = [2 * (1 - v["issue_stall"]), 2 * v["div_busy"]] + [2 * ex * x / sum(shares) for x in shares]
pace = 1 / max([1] + demand) if W < width else 1  # (no sibling: the core its own)
v["ipc"] *= pace
v["div_busy"] *= pace
for k in ("issue_stall", "exec_stall", "retire_stall"):
    v[k] = 1 - (1 - v[k]) * pace

# ---- each event a cycle of the thread, from the scenario ---------------------------
uops = v["ipc"] * v["uops_per_inst"]
issued, executed = uops * v["issue_ratio"], uops * v["exec_ratio"]
ret, fe, bs = min(1, uops / W), v["frontend_bound"], v["bad_speculation"]
if ret + fe + bs > 1:
    k = (1 - ret) / (fe + bs)
    fe, bs = fe * k, bs * k
be = max(0, 1 - ret - fe - bs)
stall = max(v["exec_stall"], 1 - executed)
mem = min(v["mem_stall"], stall)
l3s = min(v["l3_miss_stall"], mem)
l1s = min(max(v["l1d_miss_stall"], l3s), mem)
l2s = min(max(v["l2_miss_stall"], l3s), l1s)
st = min(v["store_stall"], stall - mem)
serial = min(v["serialize_stall"], stall - mem - st)
core0 = max(0, stall - mem - st - serial)
lat = fe * v["fetch_latency_share"]
rs, unk = v["fe_resteer_share"], v["fe_unknown_branch_share"]
# the cycles that execute: 1 + Binomial(3, q) uops
q = min(1, max(0, (executed / (1 - stall) - 1) / 3)) if stall < 1 else 0
ports = [(1 - stall) * c * q ** (k - 1) * (1 - q) ** (4 - k) for k, c in ((1, 1), (2, 3), (3, 3), (4, 1))]
# the microcode sequencer: its uops, up to 4 a cycle, at least a cycle a switch
ms = uops * v["heavy_ops_share"] * v["ms_heavy_share"]
switches = lat * v["fe_ms_switch_share"] / (2 if skx else 3)  # an MS switch: Intel's 2 or 3 cycles
def ms_cycles(n, sw):
    return min(1, max(n / 4, min(sw, n)))
ms_iss_cyc = ms_cycles(ms * v["issue_ratio"], switches)
ms_ret_cyc = ms_cycles(ms, switches / v["issue_ratio"])
misp = v["ipc"] * v["branch_per_inst"] * v["branch_miss_ratio"]
clears = misp * (1 - v["mispredict_share"]) / v["mispredict_share"]
l1, fb, l2 = (v["ipc"] * v[k] for k in ("l1_hit_loads_per_inst", "fb_hit_loads_per_inst", "l2_hit_loads_per_inst"))
l3 = v["l3_hit_loads_per_s"] / G
dram = (v["local_dram_loads_per_s"] + v["remote_dram_loads_per_s"]) / G
loads = min(l1 + fb + l2 + l3 + dram, uops)
rfo_lines = (v["local_dram_rfo_lines_per_s"] + v["remote_dram_rfo_lines_per_s"]) / G
mem_ns_cycles = v["mem_latency_ns"] * G / 1e9
walk = lambda per_inst: min(1, v["ipc"] * per_inst * v["walk_cycles"])
fwd = min(1, v["l3_hit_hitm_share"] + v["l3_hit_fwd_share"])
mite = max(0, issued * (1 - v["dsb_coverage"]) - ms * v["issue_ratio"])
few = v["heavy_ops_share"] * (1 - v["ms_heavy_share"])
# a thread with a busy sibling gets half of the core cycles (DISTRIBUTED)
core_share = W / width
ev = {
    "CPU_CLK_UNHALTED.THREAD": 1, "CPU_CLK_UNHALTED.REF_TSC": T / G, "INST_RETIRED.ANY": v["ipc"],
    "CPU_CLK_UNHALTED.DISTRIBUTED": core_share, "CPU_CLK_UNHALTED.C02": 0,
    "TOPDOWN.SLOTS": W, "TOPDOWN.SLOTS:perf_metrics": W, "PERF_METRICS.RETIRING": ret * W, "PERF_METRICS.FRONTEND_BOUND": fe * W,
    "PERF_METRICS.BAD_SPECULATION": bs * W, "PERF_METRICS.BACKEND_BOUND": be * W,
    "PERF_METRICS.HEAVY_OPERATIONS": ret * v["heavy_ops_share"] * W,
    "PERF_METRICS.BRANCH_MISPREDICTS": bs * v["mispredict_share"] * W, "PERF_METRICS.FETCH_LATENCY": lat * W,
    "PERF_METRICS.MEMORY_BOUND": be * ((mem + st) / stall if stall > 0 else 0) * W,
    "ARITH.DIV_ACTIVE": v["div_busy"], "ASSISTS.ANY": v["ipc"] * v["assists_per_inst"],
    "BR_INST_RETIRED.ALL_BRANCHES": v["ipc"] * v["branch_per_inst"],
    "BR_INST_RETIRED.NEAR_CALL": v["ipc"] * v["branch_per_inst"] * v["br_call_share"],
    "BR_MISP_RETIRED.ALL_BRANCHES": misp, "INT_MISC.CLEARS_COUNT": misp + clears,
    "MACHINE_CLEARS.COUNT": clears, "MACHINE_CLEARS.MEMORY_ORDERING": clears * v["mo_clear_share"],
    "CYCLE_ACTIVITY.CYCLES_MEM_ANY": max(v["load_active"], mem), "CYCLE_ACTIVITY.STALLS_TOTAL": stall,
    "MEMORY_ACTIVITY.CYCLES_L1D_MISS": max(v["l1d_miss_active"], l1s),
    "MEMORY_ACTIVITY.STALLS_L1D_MISS": l1s, "MEMORY_ACTIVITY.STALLS_L2_MISS": l2s,
    "MEMORY_ACTIVITY.STALLS_L3_MISS": l3s,
    "EXE_ACTIVITY.BOUND_ON_LOADS": mem, "EXE_ACTIVITY.BOUND_ON_STORES": st,
    "EXE_ACTIVITY.EXE_BOUND_0_PORTS": core0, "RESOURCE_STALLS.SCOREBOARD": serial, "RS.EMPTY_RESOURCE": serial,
    "EXE_ACTIVITY.1_PORTS_UTIL": ports[0], "EXE_ACTIVITY.2_PORTS_UTIL": ports[1],
    "EXE_ACTIVITY.2_3_PORTS_UTIL": ports[1] + ports[2], "UOPS_EXECUTED.CYCLES_GE_3": ports[2] + ports[3],
    "EXE.AMX_BUSY": 0,
    "ICACHE_DATA.STALLS": lat * v["fe_icache_share"], "ICACHE_TAG.STALLS": lat * v["fe_itlb_share"],
    "INT_MISC.CLEAR_RESTEER_CYCLES": lat * rs * (1 - unk), "INT_MISC.UNKNOWN_BRANCH_CYCLES": lat * rs * unk,
    "DECODE.LCP": lat * v["fe_lcp_share"], "DSB2MITE_SWITCHES.PENALTY_CYCLES": lat * v["fe_dsb_switch_share"],
    "INT_MISC.UOP_DROPPING": 0, "INST_RETIRED.REP_ITERATION": 0,
    "UOPS_ISSUED.ANY": issued, "UOPS_RETIRED.SLOTS": uops, "UOPS_RETIRED.MS": ms,
    "UOPS_RETIRED.MS:c1": ms_ret_cyc, "UOPS_RETIRED.MS:c1:e1": switches / v["issue_ratio"],
    "IDQ.MS_CYCLES_ANY": ms_iss_cyc,
    "INST_RETIRED.NOP": v["ipc"] * v["nop_per_inst"],
    "L1D_PEND_MISS.FB_FULL": v["fb_full_stall"],
    "L1D_PEND_MISS.FB_FULL_PERIODS": 0 if v["fb_full_stall"] == 0 else None, "L1D_PEND_MISS.L2_STALLS": 0, "XQ.FULL_CYCLES": v["sq_full_stall"],
    # (read only as split loads x the L1D miss latency: any latency where split loads are few)
    "L1D_PEND_MISS.PENDING": None,
    "LD_BLOCKS.STORE_FORWARD": v["ipc"] * v["store_fwd_blocks_per_inst"],
    "LOCK_CYCLES.CACHE_LOCK_DURATION": v["lock_cycles"],
    "MEM_INST_RETIRED.ALL_LOADS": loads, "MEM_INST_RETIRED.ALL_STORES": max(0, uops * v["mem_uops_share"] - loads),
    "MEM_INST_RETIRED.LOCK_LOADS": v["ipc"] * v["lock_loads_per_inst"],
    "MEM_INST_RETIRED.SPLIT_LOADS": v["ipc"] * v["split_loads_per_inst"],
    "MEM_INST_RETIRED.SPLIT_STORES": v["ipc"] * v["split_stores_per_inst"],
    "MEM_LOAD_COMPLETED.L1_MISS_ANY": l2 + l3 + dram, "MEM_LOAD_RETIRED.L1_MISS": l2 + l3 + dram,
    "MEM_LOAD_RETIRED.FB_HIT": fb, "MEM_LOAD_RETIRED.L3_HIT": l3,
    "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD": l3 * fwd, "MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS": 0,
    "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD": 0,
    "MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM": v["local_dram_loads_per_s"] / G,
    "MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM": v["remote_dram_loads_per_s"] / G,
    "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM": 0, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD": 0,
    "MEM_STORE_RETIRED.L2_HIT": v["ipc"] * v["l2_hit_stores_per_inst"],
    "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM": l3 * v["l3_hit_hitm_share"],
    "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_WITH_FWD": l3 * v["l3_hit_fwd_share"],
    "OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM": v["ipc"] * v["rfo_hitm_per_inst"],
    "OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002": 0,
    "OCR.STREAMING_WR.ANY_RESPONSE": v["ipc"] * v["streaming_stores_per_inst"],
    "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c12": v["mem_bw_cycles"],
    "OFFCORE_REQUESTS_OUTSTANDING.DATA_RD:c12": v["mem_bw_cycles"],
    "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c4": v["mem_bw_cycles"],
    # the RFOs that reach the L2: the stores whose line it held, and those memory gave
    "L2_RQSTS.RFO_HIT": v["ipc"] * v["l2_hit_stores_per_inst"],
    "L2_RQSTS.ALL_RFO": v["ipc"] * v["l2_hit_stores_per_inst"] + rfo_lines,
    "LD_BLOCKS.NO_SR": v["ipc"] * v["no_sr_blocks_per_inst"],
    # Lion Cove's names: the stalls by the level that holds the load, the queues
    "BE_STALLS.SCOREBOARD": serial, "MEMORY_STALLS.L1": mem - l1s, "MEMORY_STALLS.L2": l1s - l2s,
    "MEMORY_STALLS.L3": l2s - l3s, "MEMORY_STALLS.MEM": l3s, "L1D_MISS.L2_STALLS": 0,
    "XQ.FULL": v["sq_full_stall"], "IDQ.MS_SWITCHES": switches,
    # Sunny Cove's (Ice and Tiger Lake): a BAClear costs the 10 cycles Branch_Resteers charges;
    # the core's cycles with no uop delivered, the thread's turn of them
    "ARITH.DIVIDER_ACTIVE": v["div_busy"], "BACLEARS.ANY": lat * rs * unk / 10,
    "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE": lat * W / width,
    "CYCLE_ACTIVITY.CYCLES_L1D_MISS": max(v["l1d_miss_active"], l1s), "CYCLE_ACTIVITY.STALLS_L1D_MISS": l1s,
    "CYCLE_ACTIVITY.STALLS_L2_MISS": l2s, "CYCLE_ACTIVITY.STALLS_L3_MISS": l3s,
    "CYCLE_ACTIVITY.STALLS_MEM_ANY": mem, "EXE_ACTIVITY.3_PORTS_UTIL:u0x80": core0,
    "RS_EVENTS.EMPTY_CYCLES": serial, "L1D_PEND_MISS.L2_STALL": v["sq_full_stall"],
    "LD_BLOCKS_PARTIAL.ADDRESS_ALIAS": v["ipc"] * v["alias_blocks_per_inst"],
    "MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT": 0, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM": l3 * fwd,
    "MEM_LOAD_RETIRED.L2_HIT": l2,
    # the MS's uops issued, in its cycles; the legacy decoders the issued uops the uop cache
    # and the MS did not deliver; decoder 0 decodes a quarter of them a cycle, two of each of
    # the few-uops instructions (the heavy operations the MS does not deliver)
    "IDQ.MS_UOPS": ms * v["issue_ratio"], "IDQ.MS_UOPS:c1": ms_iss_cyc, "IDQ.MITE_UOPS": mite,
    "UOPS_DECODED.DEC0": min(1, mite / 4 + few * mite), "UOPS_DECODED.DEC0:c1": min(1, mite / 4),
    "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD": max(v["data_rd_cycles"], v["l3_miss_stall"]),
    "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_RFO": min(1, rfo_lines * mem_ns_cycles),
    "DTLB_LOAD_MISSES.STLB_HIT:c1": v["ipc"] * v["dtlb_load_stlb_hits_per_inst"],
    "DTLB_LOAD_MISSES.WALK_ACTIVE": walk(v["dtlb_load_walks_per_inst"]),
    "DTLB_STORE_MISSES.STLB_HIT:c1": v["ipc"] * v["dtlb_store_stlb_hits_per_inst"],
    "DTLB_STORE_MISSES.WALK_ACTIVE": walk(v["dtlb_store_walks_per_inst"]),
}
# the L1D miss latency (the split loads' cost): the fill buffer's, as pmutop measures it
# (L1D_PEND_MISS.PENDING / MEM_LOAD_COMPLETED.L1_MISS_ANY); a split load costs it at most
lat_l1 = got.get("Info_Memory_Load_Miss_Real_Latency")
ev["L1D_PEND_MISS.PENDING"] = (lat_l1 if lat_l1 is not None else 0) * ev["MEM_LOAD_COMPLETED.L1_MISS_ANY"]
# Skylake's own events (one thread's counter; the AnyThread ones count the whole core): the
# core's cycles (either thread), the slots the front end did not deliver (of the thread's
# W), the allocator's recovery cycles (the slots bad speculation holds beyond the wasted
# uops; the threads' never coincide: the core's their sum), the core's cycles with k or
# more uops executed (the two threads' independent counts added), a BAClear 9 cycles, an
# instruction-cache miss 2 cycles more than its stall run (stall_len), the snoop outcomes
if skx:
    rec = W / 4 * bs - (issued - uops) / 4
    dist = [stall] + ports                # the thread's uops executed a cycle: 0 to 4
    both = [sum(dist[i] * dist[k - i] for i in range(5) if 0 <= k - i < 5) for k in range(9)]
    ic = lat * v["fe_icache_share"]
    ev.update({
        "CPU_CLK_UNHALTED.THREAD_ANY": 1, "IDQ_UOPS_NOT_DELIVERED.CORE": fe * W,
        "INT_MISC.RECOVERY_CYCLES": rec, "INT_MISC.RECOVERY_CYCLES_ANY": 2 * rec,
        "UOPS_EXECUTED.CORE_CYCLES_GE_1": sum(both[1:]), "UOPS_EXECUTED.CORE_CYCLES_GE_2": sum(both[2:]),
        "UOPS_EXECUTED.CORE_CYCLES_GE_3": sum(both[3:]),
        "UOPS_RETIRED.RETIRE_SLOTS": uops, "UOPS_RETIRED.MACRO_FUSED": v["ipc"] * v["macro_fused_per_inst"],
        "BACLEARS.ANY": lat * rs * unk / 9,
        "ICACHE_16B.IFDATA_STALL": ic * v["stall_len"] / (v["stall_len"] + 2),
        "ICACHE_16B.IFDATA_STALL:c1:e1": ic / (v["stall_len"] + 2),
        "FP_ASSIST.ANY": v["ipc"] * v["assists_per_inst"], "OTHER_ASSISTS.ANY": 0,
        "PARTIAL_RAT_STALLS.SCOREBOARD": serial, "L1D_PEND_MISS.FB_FULL:c1": v["fb_full_stall"],
        "OFFCORE_REQUESTS_BUFFER.SQ_FULL": v["sq_full_stall"],
        "MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT": l3 * v["l3_hit_fwd_share"],
        "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM": l3 * v["l3_hit_hitm_share"],
        "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.HITM_OTHER_CORE": l3 * v["l3_hit_hitm_share"],
        "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_WITH_FWD": l3 * v["l3_hit_fwd_share"],
        "OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.HITM_OTHER_CORE": v["ipc"] * v["rfo_hitm_per_inst"],
        "OFFCORE_RESPONSE.DEMAND_RFO.L3_MISS.REMOTE_HITM": 0,
        "OFFCORE_RESPONSE.PF_L2_RFO.L3_HIT.HITM_OTHER_CORE": 0,
        "OFFCORE_RESPONSE.PF_L2_RFO.L3_MISS.REMOTE_HITM": 0,
        "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE": lat * W / width,
    })
const = {"SYSTEM_TSC_FREQ": T, "DURATIONTIMEINMILLISECONDS": 1000, "HYPERTHREADING_ON": int(W < width),
         "THREADS_PER_CORE": round(width / W)}
# Ice and Tiger Lake's PERF_METRICS (4 fields) keep the clears' recovery slots (a machine
# width each) in bad speculation, which Intel's formulas move to the back end
if fields == 4:
    rec = min(be, (misp + clears) * width / W)
    ev["PERF_METRICS.BACKEND_BOUND"] = (be - rec) * W
    ev["PERF_METRICS.BAD_SPECULATION"] = (bs + rec) * W

# ---- Intel's formulas, over the events a second -------------------------------------
# 0 / 0 is a share of nothing: n/a by itself, but a finite number whatever it is, so
# that nothing times it is nothing (a count of 0 weighed by the share of two counts of
# 0 adds nothing to the metric); any other division by 0 makes the metric n/a
class Z:
    def _z(self, o):
        return self
    __add__ = __radd__ = __sub__ = __rsub__ = __truediv__ = __rtruediv__ = _z
    def __mul__(self, o):
        return N(0) if o == 0 else self
    __rmul__ = __mul__
    def __neg__(self):
        return self
    def __bool__(self):
        raise ZeroDivisionError("a condition over a share of nothing")
    __lt__ = __gt__ = __le__ = __ge__ = __bool__
class N(float):
    def __add__(a, b): return b if isinstance(b, Z) else N(float(a) + float(b))
    __radd__ = __add__
    def __sub__(a, b): return b if isinstance(b, Z) else N(float(a) - float(b))
    def __rsub__(a, b): return N(float(b) - float(a))
    def __mul__(a, b): return b * float(a) if isinstance(b, Z) else N(float(a) * float(b))
    __rmul__ = __mul__
    def __neg__(a): return N(-float(a))
    def __truediv__(a, b):
        if isinstance(b, Z):
            return b
        if float(b) == 0:
            if float(a) == 0:
                return Z()
            raise ZeroDivisionError
        return N(float(a) / float(b))
    def __rtruediv__(a, b):
        return N(float(b)).__truediv__(a)
def pick(f):
    def g(*x):
        for v in x:
            if isinstance(v, Z):
                return v
        return N(f(float(v) for v in x))
    return g
d = pmutop_json.load(open(plat))
bad, n, worst, show, na = [], 0, 0.0, [], 0
truth = {}                                # each Bottleneck metric's truth (the pane's check)
for m in d["Metrics"]:
    name = m["MetricName"]
    if not name.startswith("Bottleneck"):
        continue
    env = {}
    # a PEBS retire latency, which pmutop does not sample: n/a (the layout says why)
    if any(e.endswith(":retire_latency") for e in m.get("Events", {}).values()):
        n += 1
        na += 1
        if got.get(name) is not None:
            bad.append("%s %s, truth n/a (it reads a PEBS retire latency)" % (name, got[name]))
        continue
    missing = [e for e in m.get("Events", {}).values() if ev.get(e) is None]
    if missing:
        bad.append("%s: no truth for %s" % (name, ", ".join(missing)))
        continue
    for k, e in m.get("Events", {}).items():
        env[k] = N(ev[e] * G)
    for k, c in m.get("Constants", {}).items():
        env[k] = N(const[c])
    try:
        w = eval(m["Formula"], {"__builtins__": {}, "min": pick(min), "max": pick(max)}, env)
        w = float("nan") if isinstance(w, Z) else float(w)
    except ZeroDivisionError:
        w = float("nan")
    g = got.get(name)
    show.append("%s %s truth %.3f" % (name, g, w))
    n += 1
    if not math.isnan(w):
        truth[name] = w
    if math.isnan(w):
        na += 1
        if g is not None:
            bad.append("%s %s, truth n/a" % (name, g))
    elif g is None or abs(g - w) > max(0.05 * abs(w), 0.4):
        bad.append("%s %s, truth %.2f" % (name, None if g is None else round(g, 2), w))
    else:
        worst = max(worst, abs(g - w))
# the core's figures (both threads summed) of what these runs keep the same: both threads
# busy all the time (SMT_2T), FP instructions one uop each on 2 FP units a cycle
core = s["cores"][0]["metrics"]
fp = v["ipc"] * (v["fp_scalar_per_inst"] + v["fp_vector_per_inst"])
for name, w in (("Info_System_SMT_2T_Utilization", 1.0), ("Info_Core_FP_Arith_Utilization", fp)):
    if W >= width or (name.startswith("Info_Core_FP") and plat.endswith("lnl.json")):
        continue  # (no sibling; Lion Cove divides by its 4 FP units, not 2)
    g = core.get(name)
    n += 1
    show.append("%s %s truth %.3f" % (name, g, w))
    if g is None or abs(g - w) > max(0.05 * w, 0.01):
        bad.append("core %s %s, truth %.3f" % (name, None if g is None else round(g, 3), w))
if len(sys.argv) > 7:
    print(show)
# for the pane: the largest bottleneck (Useful_Work is none), the next one, and each
# one's share of their sum (the bar), as "truth NAME=VALUE:SHARE ..." largest first
if truth:
    tot = sum(max(0, x) for x in truth.values())
    order = sorted((x for x in truth if x != "Bottleneck_Useful_Work"), key=lambda x: -truth[x])
    print("truth " + " ".join("%s=%.3f:%.4f" % (x[len("Bottleneck_"):], truth[x], max(0, truth[x]) / tot)
                              for x in order + ["Bottleneck_Useful_Work"] if x in truth))
print("ok (%d checked: %d figures, %d n/a as the truth; worst Bottleneck %.2f points off)" % (n, n - na, na, worst)
      if not bad and n else
      "; ".join(bad[:6]) or "no Bottleneck metric in %s" % plat)
PY
export PYTHONPATH="$tmp:$PYTHONPATH"

# MACHINE:PLATFORM-FILE:SLOTS-A-THREAD:WIDTH:PERF_METRICS-FIELDS: every scenario through
# the registers, key 7 (Lunar Lake's P-cores have no SMT: all 8 slots)
machines="sapphire-rapids:spr:3:6:8 lunarlake:lnl:8:8:8 skylake-sp:skx:2:4:0"
[ "$part" = 2 ] && machines="granite-rapids:gnr:3:6:8 alderlake:adl:3:6:8 icelake-sp:icx:2.5:5:4 tigerlake:tgl:2.5:5:4"
# A sanitizer build (ASan: the emulator ten times slower, CI's half hour) checks one machine,
# Lunar Lake's hybrid (its P-cores' metrics read the tree's groups of their own kind); the
# others' figures are checked in the normal build.
sanitized=
if grep -q __asan_init "$PMUTOP" 2>/dev/null; then
	sanitized=1
	for m in $machines; do
		[ "${m%%:*}" = lunarlake ] && continue
		for scn in compute bandwidth latency frontend smt; do
			skip "${m%%:*} $scn: every Bottleneck metric is the truth" "a sanitizer build (checked in the normal build)"
		done
	done
	machines=$(printf '%s\n' $machines | grep '^lunarlake:')
fi
for m in $machines; do
	machine=${m%%:*} rest=${m#*:}
	plat=${rest%%:*} rest=${rest#*:}
	W=${rest%%:*} rest=${rest#*:}
	width=${rest%%:*} fields=${rest#*:}
	for scn in compute bandwidth latency frontend smt; do
		run "$PMUTOP" --sim "$machine:$tmp/$scn.scn" --source msr -b -n 2 -d 0.4 --format json -g 7
		r=$(printf '%s\n' "$out" | $PY "$tmp/bneck.py" "$top_srcdir/data/intel/$plat.json" "$tmp/$scn.scn" "$W" "$width" \
			"$top_srcdir/backend/sources/sim/scenario.h" "$fields" 2>&1)
		# the truth's order of the bottlenecks, for the pane below
		printf '%s\n' "$r" | sed -n 's/^truth //p' >"$tmp/truth.$machine.$scn"
		r=$(printf '%s\n' "$r" | grep -v '^truth ')
		echo "# $machine $scn: $r"
		case $r in
		ok*) ;;
		*) fail "$machine $scn: every Bottleneck metric is the truth" "$r"; continue ;;
		esac
		pass "$machine $scn: every Bottleneck metric is the truth"
	done
done

[ "$part" = 2 ] && exit 0

# the footer: key 7 alone counts the tree's groups its metrics read, which say
# so ("read"), not ROT as if their key were on; with key 3 asked for too, ROT
# (Sapphire Rapids: in the normal build)
# the bottleneck pane where there is nothing to show: a CPU without the vendor's
# Bottleneck metrics, and key 7 off (cheap: in every build)
run env COLUMNS=100 LINES=30 "$PMUTOP" --sim nehalem-ep --pane bottleneck --dump -n 1 -d 0.2
expect_match "the bottleneck pane on Nehalem: no Bottleneck metrics, and where to look instead" "$out" \
	"Layout nehalem has no Bottleneck metrics: Intel publishes them"
run env COLUMNS=100 LINES=30 "$PMUTOP" --sim lunarlake --pane bottleneck -g 1 --dump -n 1 -d 0.2
expect_match "... key 7 off: the pane says which key counts them" "$out" \
	"Intel's Bottleneck metrics are off: press 7 (TmaInfo)"
if [ -n "$sanitized" ]; then
	skip "key 7 alone: the tree's groups it reads say read, its own ROT" "a sanitizer build"
	skip "... keys 3 and 7: both ROT" "a sanitizer build"
	for i in 1 2 3 4 5 6 7 8; do
		skip "the bottleneck pane on Sapphire Rapids, Granite Rapids and Skylake-SP (check $i)" \
			"a sanitizer build (checked in the normal build)"
	done
	exit 0
fi
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "sapphire-rapids:$tmp/bandwidth.scn" --source msr -g 7 --dump -n 2 -d 0.3
case $out in
*"3 TmaL3:"*" read |"*"7 TmaInfo:"*" ROT"*) pass "key 7 alone: the tree's groups it reads say read, its own ROT" ;;
*) fail "key 7 alone: the tree's groups it reads say read, its own ROT" "$(printf '%s\n' "$out" | tail -3)" ;;
esac
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "sapphire-rapids:$tmp/bandwidth.scn" --source msr -g 3,7 --dump -n 2 -d 0.3
case $out in
*"3 TmaL3:"*" ROT |"*"7 TmaInfo:"*" ROT"*) pass "... keys 3 and 7: both ROT" ;;
*) fail "... keys 3 and 7: both ROT" "$(printf '%s\n' "$out" | tail -3)" ;;
esac

# expect_re NAME TEXT REGEX: a line of TEXT matches the extended regular expression REGEX
expect_re() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then pass "$1"; else fail "$1" "want a line matching: $3" "got: $2"; fi
}

# pane_row FILE CPU TRUTH: thread CPU's row of the bottleneck pane (--dump) against the
# truth's order: the largest named with its value (5 %, or 0.4 points), and each letter's
# cells in the bar its share of their sum (within 2 cells; the bar from column 16 to the
# header's "largest bottleneck")
pane_row() {
	$PY - "$@" <<'PYEOF'
import re, sys
screen, cpu, truth = open(sys.argv[1]).read().splitlines(), int(sys.argv[2]), sys.argv[3]
head = next((l for l in screen if "largest bottleneck" in l), "")
barw = head.find("largest bottleneck") - 17
t = {}
for part in open(truth).read().split():
    name, rest = part.split("=")
    val, share = rest.split(":")
    t[name] = (float(val), float(share))
top = next(iter(t))                       # the truth's largest (Useful_Work is last)
legend = {}
for line in screen:
    for mark, name in re.findall(r"(?:^|\s)([A-Z=]) ([A-Z][A-Za-z_]+)(?=\s|$)", line):
        if name in t:
            legend[name] = mark
row = next((l for l in screen if re.match(r"\s+%d\s+\d+\s+\d+ " % cpu, l)), None)
if row is None or len(legend) != len(t):
    print("no row for cpu %d, or a legend of %d names for %d: %s" % (cpu, len(legend), len(t), legend))
    sys.exit()
bar, named = row[16:16 + barw], row[16 + barw + 1:].split()
bad = []
if len(named) < 3 or named[1] != top or named[0] != legend[top]:
    bad.append("named %s, truth %s %.2f" % (named, top, t[top][0]))
else:
    got = float(named[2].rstrip("*~"))
    if abs(got - t[top][0]) > max(0.05 * t[top][0], 0.4):
        bad.append("%s %.2f, truth %.2f" % (top, got, t[top][0]))
for name, (val, share) in t.items():
    cells = bar.count(legend[name])
    if abs(cells - share * barw) > 2:
        bad.append("%s %d cells, truth %.1f" % (name, cells, share * barw))
print("ok: %s %s" % (top, named[2] if len(named) > 2 else "") if not bad else "; ".join(bad))
PYEOF
}
# Sapphire Rapids' threads at 160 columns: on the bandwidth- and the front-end-bound scenarios,
# thread 0 and thread 1 (a core's two threads)
for scn in bandwidth frontend; do
	env COLUMNS=160 LINES=50 "$PMUTOP" --sim "sapphire-rapids:$tmp/$scn.scn" --source msr -g 7 \
		--pane bottleneck --dump -n 2 -d 1.5 >"$tmp/pane.$scn" 2>&1
	for cpu in 0 1; do
		r=$(pane_row "$tmp/pane.$scn" $cpu "$tmp/truth.sapphire-rapids.$scn" 2>&1)
		echo "# bottleneck pane, $scn, cpu $cpu: $r"
		expect_match "the bottleneck pane, Sapphire Rapids $scn, cpu $cpu: the largest named as the truth's, each bar its share" "$r" "ok: "
	done
done
# per socket (a, twice: threads, cores, sockets) in tmux at 80x24: the legend wraps, the rows'
# names stay whole
. "$top_srcdir/tests/tmux_lib.sh"
T="tmux -L pmutop-bn-$$"
trap 'command -v tmux_end >/dev/null && tmux_end; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
$T new-session -d -x 80 -y 24 "cd '$tmp' && XDG_CONFIG_HOME='$tmp/cfg' LANG=C.UTF-8 '$PMUTOP' --sim 'sapphire-rapids:$tmp/bandwidth.scn' --source msr -g 7 -d 1 --pane bottleneck; sleep 60"
wait_for "largest bottleneck" 20 >/dev/null
$T send-keys -t 0 a a
top=$(sed 's/=.*//' "$tmp/truth.sapphire-rapids.bandwidth")
wait_for " socket " 10 >/dev/null
wait_until 20 sh -c "$T capture-pane -p -t 0 | grep -Eq '^ +1 .* $top '"
case $(screen) in
*" socket "*"largest bottleneck"*"      0 "*" $top "*"      1 "*" $top "*) pass "... per socket at 80x24: both sockets name $top" ;;
*) fail "... per socket at 80x24: both sockets name $top" "$(screen)" ;;
esac
tmux_end
# what the layout cannot count is listed with its reason: Granite Rapids' PEBS retire
# latencies
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "granite-rapids:$tmp/bandwidth.scn" --source msr -g 7 \
	--pane bottleneck --dump -n 1 -d 0.5
expect_re "Granite Rapids: the Bottleneck metrics that read a PEBS retire latency are n/a, saying so" \
	"$(printf '%s\n' "$out" | tr -s '\n ' '  ')" \
	"n/a here: .*Data_Cache_Memory_Bandwidth.*: .*PEBS retire latency"
expect_re "... the others counted: a row names its largest" "$out" "^ +0 +0 +0 .* [A-Z] [A-Z][A-Za-z_]+ [0-9.]+[*~]"
# Skylake-SP counts them per core (key 7 had no room in a layout of 64 groups): a thread's row
# shows its core's figures, the largest as the truth's
env COLUMNS=160 LINES=50 "$PMUTOP" --sim "skylake-sp:$tmp/bandwidth.scn" --source msr -g 7 \
	--pane bottleneck --dump -n 2 -d 1.5 >"$tmp/pane.skx" 2>&1
r=$(pane_row "$tmp/pane.skx" 56 "$tmp/truth.skylake-sp.bandwidth" 2>&1)
echo "# bottleneck pane, Skylake-SP bandwidth, cpu 56: $r"
expect_match "Skylake-SP: a thread's row shows its core's Bottleneck figures, the largest as the truth's" "$r" "ok: "
