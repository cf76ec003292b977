/*
 * scenario: the ground truth an emulated machine turns into counter values.
 *
 * A scenario file (format in scenarios/README.md) sets,
 * per phase, quantities per hardware thread ("cpu"), per socket and per
 * memory channel.  Every quantity is a row of SCENARIO_KEYS: its scope,
 * default, range and meaning; nothing else names them.  Phases inherit the
 * previous phase's values; a phase of duration 0 lasts for ever, otherwise
 * the phases repeat.  Small seeded noise makes a live view move, and is a
 * pure function of (seed, entity, quantity, time slot), so the same scenario
 * read at any rate gives the same truth.
 *
 * Parsed once, then immutable: any thread may evaluate it.
 */
#ifndef PMUTOP_SCENARIO_H
#define PMUTOP_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

/* Bounds that keep the emulator's work per sample small, whatever the file says. */
#define SCENARIO_MAX_BYTES (1 << 20)
#define SCENARIO_MAX_SETTINGS 4096
#define SCENARIO_MAX_PHASES 1000
#define SCENARIO_MAX_CHANNELS 16 /* a socket's memory channels (Granite Rapids: 12) */
#define SCENARIO_MIN_PHASE_S 0.01
#define SCENARIO_MAX_PHASE_S 86400.0
#define SCENARIO_MAX_SEED 9007199254740992.0 /* 2^53: every whole number up to it is exact */

enum scenario_scope { SCENARIO_CPU, SCENARIO_SOCKET, SCENARIO_CHANNEL };

/* X(name, scope, default, min, max, meaning) */
#define SCENARIO_KEYS(X) \
	X(util,              CPU, 0.0,  0, 1,     "fraction of time the thread is not halted") \
	X(ghz,               CPU, 0.0,  0, 10,    "core clock when not halted, GHz (0: nominal)") \
	X(ipc,               CPU, 1.0,  0, 8,     "instructions retired per unhalted cycle") \
	X(uops_per_inst,     CPU, 1.1,  0.1, 8,   "uops retired per instruction") \
	X(issue_ratio,       CPU, 1.05, 1, 4,     "uops issued per uop retired (wasted work)") \
	X(exec_ratio,        CPU, 1.05, 1, 4,     "uops executed per uop retired") \
	X(fused_share,       CPU, 0.0,  0, 0.5,   "share of issued uops that issue fused with another (UOPS_ISSUED.FUSED)") \
	X(port0,             CPU, 0.25, 0, 1,     "share of executed uops on port 0") \
	X(port1,             CPU, 0.20, 0, 1,     "share on port 1") \
	X(port2,             CPU, 0.25, 0, 1,     "share on port 2 (loads)") \
	X(port3,             CPU, 0.10, 0, 1,     "share on port 3 (store address)") \
	X(port4,             CPU, 0.10, 0, 1,     "share on port 4 (store data)") \
	X(port5,             CPU, 0.10, 0, 1,     "share on port 5") \
	X(port6,             CPU, 0.0,  0, 1,     "share on port 6 (Skylake)") \
	X(port7,             CPU, 0.0,  0, 1,     "share on port 7 (Skylake)") \
	X(exec_stall,        CPU, 0.20, 0, 1,     "fraction of unhalted cycles no uop executes") \
	X(issue_stall,       CPU, 0.30, 0, 1,     "fraction of unhalted cycles no uop issues") \
	X(retire_stall,      CPU, 0.35, 0, 1,     "fraction of unhalted cycles no uop retires") \
	X(load_stall,        CPU, 0.05, 0, 1,     "fraction of cycles stalled on a full load buffer") \
	X(rs_full_stall,     CPU, 0.05, 0, 1,     "fraction of cycles stalled on a full RS") \
	X(store_stall,       CPU, 0.02, 0, 1,     "fraction of cycles stalled on a full store buffer") \
	X(rob_full_stall,    CPU, 0.03, 0, 1,     "fraction of cycles stalled on a full ROB") \
	X(div_busy,          CPU, 0.0,  0, 1,     "fraction of cycles the divider is busy") \
	X(div_latency,       CPU, 20,   1, 200,   "cycles one divide keeps the divider busy") \
	X(stall_len,         CPU, 10,   1, 10000, "mean length of an execution stall, cycles") \
	X(kernel,            CPU, 0.05, 0, 1,     "fraction of unhalted cycles and events in ring 0") \
	X(branch_per_inst,   CPU, 0.18, 0, 1,     "branches retired per instruction") \
	X(branch_miss_ratio, CPU, 0.02, 0, 1,     "mispredicted / retired branches") \
	X(llc_ref_per_inst,  CPU, 0.01, 0, 1,     "last-level cache references per instruction") \
	X(llc_miss_ratio,    CPU, 0.30, 0, 1,     "last-level cache misses / references") \
	X(local_dram_loads_per_s,  CPU, 0, 0, 1e12, "retired loads served by the local DRAM, per second") \
	X(remote_dram_loads_per_s, CPU, 0, 0, 1e12, "retired loads served by a remote DRAM, per second") \
	X(l3_hit_loads_per_s, CPU, 0, 0, 1e12, "retired loads that hit the L3, no other core holding the line, per second") \
	X(local_dram_read_lines_per_s,  CPU, 0, 0, 1e12, "offcore demand data reads (L1D prefetcher included) of lines from local DRAM, per second") \
	X(remote_dram_read_lines_per_s, CPU, 0, 0, 1e12, "offcore demand data reads of lines from remote DRAM, per second") \
	X(local_dram_rfo_lines_per_s,   CPU, 0, 0, 1e12, "offcore demand RFOs (reads for ownership) of lines from local DRAM, per second") \
	X(remote_dram_rfo_lines_per_s,  CPU, 0, 0, 1e12, "offcore demand RFOs of lines from remote DRAM, per second") \
	X(local_dram_pf_read_lines_per_s,  CPU, 0, 0, 1e12, "L2 prefetcher data reads of lines from local DRAM, per second") \
	X(remote_dram_pf_read_lines_per_s, CPU, 0, 0, 1e12, "L2 prefetcher data reads of lines from remote DRAM, per second") \
	X(local_dram_pf_rfo_lines_per_s,   CPU, 0, 0, 1e12, "L2 prefetcher RFOs of lines from local DRAM, per second") \
	X(remote_dram_pf_rfo_lines_per_s,  CPU, 0, 0, 1e12, "L2 prefetcher RFOs of lines from remote DRAM, per second") \
	X(frontend_bound,    CPU, 0.10, 0, 1,     "top-down: issue slots the front end left empty") \
	X(bad_speculation,   CPU, 0.05, 0, 1,     "top-down: issue slots wasted on the wrong path") \
	X(fetch_latency_share, CPU, 0.5, 0, 1,    "top-down: share of the front-end-bound slots lost in cycles the front end delivered nothing (fetch latency; the rest is fetch bandwidth)") \
	X(slot_share,        CPU, 1.0,  0.01, 1,  "share of the core's issue slots the thread gets while unhalted (the emulator sets it under SMT; leave it at 1)") \
	X(mem_stall,         CPU, 0.10, 0, 1,     "fraction of cycles stalled with a load outstanding") \
	X(l3_miss_stall,     CPU, 0.05, 0, 1,     "fraction of cycles stalled with an L3 miss outstanding") \
	X(l1i_miss_per_inst, CPU, 0.001, 0, 1,    "L1 instruction cache misses per instruction") \
	X(itlb_miss_per_inst, CPU, 0.0001, 0, 1,  "ITLB misses per instruction") \
	X(itlb_large_share,  CPU, 0.0,  0, 1,     "share of the ITLB misses that are on large pages") \
	X(hitm_per_s,        CPU, 0,    0, 1e12,  "snoops by other agents that hit a modified line in this CPU's cache (it drives HITM#), per second") \
	X(snoop_hit_per_s,   CPU, 0,    0, 1e12,  "snoops by other agents that hit a clean line in this CPU's cache (it drives HIT#), per second") \
	X(snoop_drv_cycles,  CPU, 1,    1, 16,    "bus cycles one snoop response drives HIT# or HITM#") \
	X(uncore_ghz,        SOCKET, 2.4, 0.1, 10, "uncore clock, GHz") \
	X(l3_hit_lines_per_s,  SOCKET, 0, 0, 1e12, "L3 lookups that hit, lines per second") \
	X(l3_miss_lines_per_s, SOCKET, 0, 0, 1e12, "L3 lookups that miss, lines per second") \
	X(l3_evict_lines_per_s, SOCKET, 0, 0, 1e12, "lines evicted from the L3, per second") \
	X(xsnp_hitm_per_s,   SOCKET, 0,    0, 1e12, "cross-core snoops hitting a modified line, per second") \
	X(local_reads_per_s,  SOCKET, 0, 0, 1e12, "home-logic read requests from this socket's cores, per second") \
	X(local_writes_per_s, SOCKET, 0, 0, 1e12, "home-logic write requests from this socket's cores, per second") \
	X(remote_reads_per_s, SOCKET, 0, 0, 1e12, "home-logic read requests arriving over QPI, per second") \
	X(remote_writes_per_s, SOCKET, 0, 0, 1e12, "home-logic write requests arriving over QPI, per second") \
	X(ioh_reads_per_s,    SOCKET, 0, 0, 1e12, "home-logic read requests from the IOH, per second") \
	X(ioh_writes_per_s,   SOCKET, 0, 0, 1e12, "home-logic write requests from the IOH, per second") \
	X(read_latency_ns,    SOCKET, 60, 1, 10000, "mean local DRAM read latency, ns (occupancy / requests)") \
	X(l3_miss_latency_ns, SOCKET, 80, 1, 10000, "mean L3 miss-to-fill time in the GQ read tracker, ns") \
	X(remote_read_latency_ns, SOCKET, 100, 1, 10000, "mean read latency of the home logic's remote (QPI) tracker, ns") \
	X(ioh_read_latency_ns, SOCKET, 90, 1, 10000, "mean read latency of the home logic's IOH tracker, ns") \
	X(l3_response_ns,     SOCKET, 10, 1, 1000, "GQ read tracker time to scan the L3 (L3 response latency), ns") \
	X(gq_overhead_ns,     SOCKET, 4, 0, 1000, "GQ read tracker bookkeeping after the data, ns (read period = latency + this)") \
	X(uc_writes_per_s,    SOCKET, 0, 0, 1e12, "uncacheable (USWC/UC) writes of this socket's cores: InvtoE requests the home logic counts as local reads, per second") \
	X(partial_writes_per_s, SOCKET, 0, 0, 1e12, "partial cache-line writes to this socket's DRAM, per second") \
	X(gt_requests_per_s,  SOCKET, 0, 0, 1e12, "DRAM requests from the graphics engine, per second") \
	X(io_requests_per_s,  SOCKET, 0, 0, 1e12, "DRAM requests from I/O, per second") \
	X(read_lines_per_s,   CHANNEL, 0, 0, 1e12, "DRAM read lines (RdCAS) per second") \
	X(write_lines_per_s,  CHANNEL, 0, 0, 1e12, "DRAM write lines (WrCAS) per second") \
	X(imc_read_latency_ns, CHANNEL, 40, 1, 10000, "mean time a normal read spends in the channel's IMC queue, ns") \
	X(imc_write_latency_ns, CHANNEL, 25, 1, 10000, "mean time a write keeps the channel's IMC write queue busy, ns") \
	/* added later: at the end, so that the noise of the keys above (by index) stays as it was */ \
	X(heavy_ops_share,   CPU, 0.10, 0, 1,     "top-down: share of the retiring slots taken by heavy operations (instructions of several uops, microcode; PERF_METRICS level 2)") \
	X(mispredict_share,  CPU, 0.80, 0, 1,     "top-down: share of the bad-speculation slots lost to branch mispredicts (the rest: machine clears)") \
	X(l1d_miss_stall,    CPU, 0.0,  0, 1,     "fraction of cycles stalled with an L1D miss outstanding (kept between l3_miss_stall and mem_stall)") \
	X(l2_miss_stall,     CPU, 0.0,  0, 1,     "fraction of cycles stalled with an L2 miss outstanding (kept between l3_miss_stall and l1d_miss_stall)") \
	X(l3_miss_drd_share, SOCKET, 0.6, 0, 1,   "server CHA: share of the L3 misses that are demand data reads of this socket's cores (TOR inserts IA_MISS_DRD)") \
	X(l3_miss_remote_share, SOCKET, 0.0, 0, 1, "server CHA: share of those demand data read misses whose memory is another socket's (the rest: local)") \
	X(upi_tx_bytes_per_s, SOCKET, 0, 0, 1e12, "data bytes this socket sends over its UPI links, per second (spread evenly over the links)") \
	X(upi_rx_bytes_per_s, SOCKET, 0, 0, 1e12, "data bytes this socket receives over its UPI links, per second") \
	X(package_watts,     SOCKET, 0, 0, 2000,  "RAPL package power, watts (energy-pkg)") \
	X(dram_watts,        SOCKET, 0, 0, 2000,  "RAPL DRAM power, watts (energy-ram)") \
	X(cores_watts,       SOCKET, 0, 0, 2000,  "RAPL power of the cores (PP0), watts (energy-cores; clients)") \
	X(l1d_fills_l2_per_s,         CPU, 0, 0, 1e12, "AMD: L1D fills from the core's own L2, lines per second (ls_*_fills_from_sys local_l2)") \
	X(l1d_fills_ccx_per_s,        CPU, 0, 0, 1e12, "AMD: L1D fills from the L3 or another L2 of the same CCX, lines per second (local_ccx)") \
	X(l1d_fills_near_cache_per_s, CPU, 0, 0, 1e12, "AMD: L1D fills from another CCX's cache on this NUMA node, lines per second (near_cache: cross-CCX sharing)") \
	X(l1d_fills_far_cache_per_s,  CPU, 0, 0, 1e12, "AMD: L1D fills from a cache of another NUMA node or socket, lines per second (far_cache)") \
	X(cxl_read_lines_per_s, SOCKET, 0, 0, 1e12, "server CHA: demand data reads of this socket's cores that miss the L3 and go to CXL memory (a type 2/3 memory expander), lines per second (TOR inserts IA_MISS_DRD_CXL_ACC)") \
	X(cxl_miss_lines_per_s, SOCKET, 0, 0, 1e12, "server CHA: every request of this socket's cores that misses the L3 and goes to CXL memory (reads, RFOs, prefetches), lines per second; at least cxl_read_lines_per_s (IA_MISS_CXL_ACC)") \
	X(cxl_read_latency_ns, SOCKET, 250, 1, 100000, "server CHA: mean time a demand read to CXL memory stays in the TOR, ns") \
	X(hot_cha,           SOCKET, 0, 0, 255, "server CHA: the CHA (L3 slice) that takes hot_cha_share of the socket's L3 traffic (a hot line, an unlucky hash)") \
	X(hot_cha_share,     SOCKET, 0, 0, 1,   "server CHA: the share of the socket's L3 traffic (TOR inserts and occupancy, requests) on CHA hot_cha; 0: every CHA an even share") \
	/* the deeper tree (emu_model_events.c): what the vendors' level 3-4 events name */ \
	X(fe_icache_share,   CPU, 0.25, 0, 1,     "top-down: share of the fetch-latency cycles the fetch waits on an L1 instruction cache miss (ICACHE_DATA.STALLS)") \
	X(fe_itlb_share,     CPU, 0.05, 0, 1,     "share of the fetch-latency cycles the fetch waits on an instruction TLB miss (ICACHE_TAG.STALLS)") \
	X(fe_resteer_share,  CPU, 0.35, 0, 1,     "share of the fetch-latency cycles spent resteering the front end (after a clear, or an unknown branch)") \
	X(fe_unknown_branch_share, CPU, 0.15, 0, 1, "share of those resteer cycles that are for branches the predictor did not know (BAClears); the rest follow clears") \
	X(fe_lcp_share,      CPU, 0.02, 0, 1,     "share of the fetch-latency cycles the decoders stall on length-changing prefixes (DECODE.LCP)") \
	X(fe_dsb_switch_share, CPU, 0.13, 0, 1,   "share of the fetch-latency cycles lost switching from the uop cache (DSB) to the legacy decoders") \
	X(dsb_switch_cycles, CPU, 2,    1, 100,   "cycles one switch from the uop cache (DSB) to the legacy decoders costs (DSB2MITE_SWITCHES: the scenario's; Intel's data names none)") \
	X(fe_ms_switch_share, CPU, 0.10, 0, 1,    "share of the fetch-latency cycles lost switching to the microcode sequencer (3 cycles a switch)") \
	X(ms_heavy_share,    CPU, 0.30, 0, 1,     "share of the heavy-operation slots whose uops the microcode sequencer delivers (the rest: instructions of a few uops)") \
	X(serialize_stall,   CPU, 0.0,  0, 1,     "fraction of cycles the pipeline waits on a serializing operation (RESOURCE_STALLS.SCOREBOARD)") \
	X(x87_share,         CPU, 0.0,  0, 1,     "share of the executed uops that are x87 floating point") \
	X(fp_scalar_per_inst, CPU, 0.0, 0, 1,     "scalar SSE/AVX floating-point instructions retired per instruction") \
	X(fp_vector_per_inst, CPU, 0.0, 0, 1,     "packed SSE/AVX floating-point instructions retired per instruction") \
	X(fp_single_share,   CPU, 0.0,  0, 1,     "share of those that are single precision (the rest: double)") \
	X(fp_256_share,      CPU, 0.0,  0, 1,     "share of the packed ones that are 256 bits wide") \
	X(fp_512_share,      CPU, 0.0,  0, 1,     "share of the packed ones that are 512 bits wide (the rest: 128)") \
	X(mem_uops_share,    CPU, 0.35, 0, 1,     "share of the retired uops that are loads or stores (each instruction of memory one uop)") \
	X(macro_fused_per_inst, CPU, 0.05, 0, 1,  "macro-fused instructions (compare and branch) retired per instruction") \
	X(mo_clear_share,    CPU, 0.0,  0, 1,     "share of the machine clears that are memory-ordering clears (the rest: other nukes)") \
	X(l1_hit_loads_per_inst, CPU, 0.3, 0, 4,  "retired loads that hit the L1D, per instruction") \
	X(l2_hit_loads_per_inst, CPU, 0.005, 0, 1, "retired loads that missed the L1D and hit the L2, per instruction") \
	X(fb_hit_loads_per_inst, CPU, 0.002, 0, 1, "retired loads that missed the L1D but hit a fill buffer another load had allocated, per instruction") \
	X(fb_full_stall,     CPU, 0.0,  0, 1,     "fraction of cycles a demand load waits for an L1D fill buffer (all taken: L1D_PEND_MISS.FB_FULL); one wait lasts stall_len cycles") \
	X(dsb_coverage,      CPU, 0.75, 0, 1,     "share of the issued uops the uop cache (DSB) delivers; the rest come from the legacy decoders (MITE) and the microcode sequencer") \
	X(data_rd_cycles,    CPU, 0.0,  0, 1,     "fraction of cycles with a data read (demand or prefetch) outstanding beyond the L2, to the L3 or memory (at least l3_miss_stall)") \
	X(mem_bw_cycles,     CPU, 0.0,  0, 1,     "fraction of cycles with so many data reads outstanding that memory bandwidth bounds them (the vendor's MEM_Bandwidth: 12 or more on Golden Cove, 4 on Sunny Cove)") \
	X(mem_latency_ns,    CPU, 80,   1, 10000, "mean time a data read that misses the L3 waits for memory, as the core sees it, ns") \
	X(l3_latency_ns,     CPU, 15,   1, 10000, "mean time a data read that hits the L3 waits, as the core sees it, ns") \
	X(load_active,       CPU, 0.0,  0, 1,     "fraction of cycles with a load outstanding, stalled or not (at least mem_stall)") \
	X(l1d_miss_active,   CPU, 0.0,  0, 1,     "fraction of cycles with an L1D miss outstanding, stalled or not (at least l1d_miss_stall)") \
	X(sq_full_stall,     CPU, 0.0,  0, 1,     "fraction of cycles the L2's queue to the uncore is full (XQ.FULL_CYCLES)") \
	X(code_l2_miss_share, CPU, 0.3, 0, 1,     "share of the instruction-cache stall cycles with a code read outstanding beyond the L2") \
	X(dtlb_load_stlb_hits_per_inst, CPU, 0.001, 0, 1, "loads that miss the first-level DTLB and hit the STLB, per instruction") \
	X(dtlb_load_walks_per_inst, CPU, 0.0001, 0, 1, "page walks of loads (missed the STLB), completed, per instruction") \
	X(dtlb_store_stlb_hits_per_inst, CPU, 0.0005, 0, 1, "stores that miss the first-level DTLB and hit the STLB, per instruction") \
	X(dtlb_store_walks_per_inst, CPU, 0.00005, 0, 1, "page walks of stores, completed, per instruction") \
	X(walk_cycles,       CPU, 30,   1, 10000, "cycles one page walk keeps the walker busy (one walk at a time)") \
	X(walk_2m_share,     CPU, 0.0,  0, 1,     "share of the data page walks that end on a 2M/4M page") \
	X(walk_1g_share,     CPU, 0.0,  0, 1,     "share of the data page walks that end on a 1G page (the rest: 4K)") \
	X(br_cond_share,     CPU, 0.75, 0, 1,     "share of the retired branches that are conditional") \
	X(br_cond_taken_share, CPU, 0.5, 0, 1,    "share of the conditional branches that are taken") \
	X(br_call_share,     CPU, 0.05, 0, 0.5,   "share of the retired branches that are near calls (as many are returns)") \
	X(br_jump_share,     CPU, 0.08, 0, 1,     "share of the retired branches that are other taken near jumps (direct or indirect)") \
	X(misp_cond_share,   CPU, 0.85, 0, 1,     "share of the mispredicted branches that are conditional") \
	X(misp_ret_share,    CPU, 0.03, 0, 1,     "share of the mispredicted branches that are returns") \
	X(misp_indirect_share, CPU, 0.1, 0, 1,    "share of the mispredicted branches that are indirect jumps or calls") \
	X(fp_div_share,      CPU, 0.0,  0, 1,     "share of the divider's busy cycles that are floating-point divides or square roots") \
	X(itlb_stlb_hits_per_inst, CPU, 0.0005, 0, 1, "instruction fetches that miss the first-level ITLB and hit the second level, per instruction") \
	X(ic_fetches_per_inst, CPU, 0.3, 0, 4,   "instruction-cache (and op-cache) lookups, fetch windows per instruction (AMD's ic_tag_hit_miss, op_cache_hit_miss)") \
	X(lock_loads_per_inst, CPU, 0.0, 0, 1,   "retired locked loads (atomic read-modify-writes), per instruction") \
	X(split_loads_per_inst, CPU, 0.0, 0, 1,  "retired loads that cross a cache line, per instruction") \
	X(split_stores_per_inst, CPU, 0.0, 0, 1, "retired stores that cross a cache line, per instruction") \
	X(store_fwd_blocks_per_inst, CPU, 0.0, 0, 1, "loads blocked by an older store they cannot forward from, per instruction") \
	X(assists_per_inst,  CPU, 0.0,  0, 1,     "microcode assists (FP denormals, page-table A/D bits, SSE/AVX mixes), per instruction") \
	X(lock_cycles,       CPU, 0.0,  0, 1,     "fraction of cycles a cache line is locked for an atomic operation (LOCK_CYCLES.CACHE_LOCK_DURATION)") \
	X(lfence_per_inst,   CPU, 0.0,  0, 1,     "LFENCE instructions retired, per instruction") \
	X(pause_cycles,      CPU, 0.0,  0, 1,     "fraction of cycles spent in PAUSE (spin-wait loops)") \
	X(nop_per_inst,      CPU, 0.01, 0, 1,     "NOP instructions retired per instruction") \
	X(fb_mite_share,     CPU, 0.35, 0, 1,     "share of the fetch-bandwidth slots lost to the legacy decoders (MITE) delivering below their width") \
	X(fb_dsb_share,      CPU, 0.45, 0, 1,     "share of the fetch-bandwidth slots lost to the uop cache (DSB) delivering below its width") \
	X(mite_dec0_alone_share, CPU, 0.2, 0, 1,  "share of MITE's lost slots in cycles only decoder 0 decodes (an instruction of several uops)") \
	X(mite_4wide_share,  CPU, 0.3,  0, 1,     "share of the cycles MITE delivers below its width in which it delivers 4 uops (Ice and Tiger Lake's MITE_4wide)") \
	X(l2_hit_stores_per_inst, CPU, 0.004, 0, 1, "retired stores whose line the L2 held (MEM_STORE_RETIRED.L2_HIT), per instruction") \
	X(no_sr_blocks_per_inst, CPU, 0.0, 0, 1,  "split loads blocked for want of a split register (LD_BLOCKS.NO_SR), per instruction") \
	X(alias_blocks_per_inst, CPU, 0.0005, 0, 1, "loads blocked by a store 4 KB apart (LD_BLOCKS_PARTIAL.ADDRESS_ALIAS), per instruction") \
	X(l3_hit_hitm_share, CPU, 0.0,  0, 1,     "share of the L3-hit loads whose line another core held modified (a snoop HITM)") \
	X(l3_hit_fwd_share,  CPU, 0.0,  0, 1,     "share of the L3-hit loads whose line another core forwarded clean (a snoop hit with forward)") \
	X(rfo_hitm_per_inst, CPU, 0.0,  0, 1,     "demand RFOs that hit the L3 with the line modified in another core (false or true sharing), per instruction") \
	X(streaming_stores_per_inst, CPU, 0.0, 0, 1, "streaming (non-temporal) stores to memory, per instruction") \
	X(avx2_license_cycles, CPU, 0.0, 0, 1,    "share of the cycles the core runs at the AVX2 turbo licence (level 1)") \
	X(avx512_license_cycles, CPU, 0.0, 0, 1,  "share of the cycles the core runs at the AVX-512 turbo licence (level 2)") \
	X(br_taken_bwd_share, CPU, 0.6, 0, 1,     "share of the taken conditional branches that jump backward (loops); Lion Cove counts them apart") \
	X(core_c6_share,     SOCKET, 0, 0, 1,     "share of the time the socket's cores spend in core C6, averaged over its cores (each core's CORE_C6_RESIDENCY, the cstate driver's c6-residency, over TSC ticks); each core's is this spread by how idle the core is (1 - its busiest thread's util: a core with a busy thread never sleeps), at most its idle share") \
	X(pkg_c6_share,      SOCKET, 0, 0, 1,     "share of the time the package spends in package C6 (PKG_C6_RESIDENCY: every core in C6 and the uncore asleep); at most core_c6_share") \
	X(platform_watts,    SOCKET, 0, 0, 20000, "RAPL psys: the platform's power, watts (energy-psys, MSR_PLATFORM_ENERGY_STATUS), as this package reads it: the platform's master package reads the whole platform's, the others 0; 0 everywhere: a platform that does not report it") \
	X(pkg_throttle_share, SOCKET, 0, 0, 1,    "share of the time the package is throttled (its thermal monitor or a power limit: PROCHOT), the kernel's package_throttle_total_time_ms") \
	X(pkg_throttle_rate, SOCKET, 0, 0, 1e6, "package throttle episodes a second (package_throttle_count; not a memory rate: socket_channels leaves it as written)") \
	X(core_throttle_share, SOCKET, 0, 0, 1,   "share of the time each core of the socket is throttled (core_throttle_total_time_ms)") \
	X(core_throttle_rate, SOCKET, 0, 0, 1e6, "throttle episodes a second of each core of the socket (core_throttle_count)") \
	X(pkg_power_limit_rate, SOCKET, 0, 0, 1e6, "the package's power-limit notifications a second (package_power_limit_count: the kernel counts them when booted with int_pln_enable; the emulated kernel writes the power-limit files when a socket of the scenario sets this key or core_power_limit_rate)") \
	X(core_power_limit_rate, SOCKET, 0, 0, 1e6, "power-limit notifications a second of each core of the socket (core_power_limit_count)")

enum scenario_key {
#define SCENARIO_ENUM(name, scope, def, min, max, help) SK_##name,
	SCENARIO_KEYS(SCENARIO_ENUM)
#undef SCENARIO_ENUM
	SK_COUNT
};

struct scenario_key_info {
	const char *name;
	enum scenario_scope scope;
	double def, min, max;
	const char *help;
	int noisy; /* rates and fractions move with the noise; clocks and latencies do not */
};

extern const struct scenario_key_info scenario_keys[SK_COUNT];

/* One "cpu|socket|channel SELECTOR key=value..." assignment. */
struct scenario_set {
	enum scenario_scope scope;
	int *sel;        /* cpu numbers or socket indexes; NULL = all */
	int nsel;
	int by_socket;   /* cpu scope: SEL lists sockets ("cpu socket:0") */
	int channel;     /* channel within the socket for SCENARIO_CHANNEL, -1 = all */
	enum scenario_key key;
	double value;
};

struct scenario_phase {
	char *name;
	double duration; /* seconds; 0 = until the end of time */
	struct scenario_set *sets;
	int nsets;
};

/*
 * A process of the scenario ("task" lines): where it runs, in which cgroup
 * and how much of its CPUs' time it takes.  On a CPU it does what the CPU's
 * quantities say (a task's events are its share of the CPU's), so tasks with
 * different workloads run on different CPUs, as pinned containers do.
 */
#define SCENARIO_MAX_TASKS 4096
#define SCENARIO_CGROUP_MAX 200  /* bytes of a cgroup path */
#define SCENARIO_PID_MAX 4194304 /* Linux's PID_MAX_LIMIT */

struct scenario_task {
	int pid;
	char comm[16];          /* as /proc/PID/comm: at most 15 bytes */
	char *cgroup;           /* under the cgroup v2 root: "system.slice/nginx.service" */
	int *cpus;              /* OS CPU numbers it runs on */
	int ncpus;
	double share;           /* of each of its CPUs' unhalted time */
	double mbm;             /* of the DRAM traffic of each L3 domain it runs in (resctrl) */
	double mbm_local;       /* the part of that traffic to its own socket's memory */
	double llc_mb;          /* L3 it occupies in each of those domains, MB */
};

struct scenario {
	char *name;
	char *description;
	uint64_t seed;
	double noise;    /* relative standard deviation of the noise, e.g. 0.01 */
	double noise_slot; /* seconds one noise value lasts */
	struct scenario_phase *phases;
	int nphases;
	int min_sockets; /* the scenario needs this many sockets (numa-remote: 2) */
	/* the memory channels of the socket its socket traffic rates were written for; a machine of
	 * M channels a socket scales every socket rate (*_per_s) by M / this.  0: as written */
	int socket_channels;
	struct scenario_task *tasks;
	int ntasks;
};

/*
 * Parse TEXT (named FILE in messages).  Returns 0 and *OUT, or -EINVAL with
 * "FILE:LINE:COL: expected ..." in ERR.
 */
int scenario_parse(const char *text, const char *file, struct scenario **out, char *err, size_t errlen);

/* Read and parse a file; -errno with the message in ERR. */
int scenario_load(const char *path, struct scenario **out, char *err, size_t errlen);

void scenario_free(struct scenario *sc);

/*
 * The truth of one entity at time T (seconds since start): the CPU with OS
 * number A on socket B, socket index A, or channel B of socket A.  Fills OUT with every
 * key (only those of SCOPE matter).
 */
void scenario_eval_one(const struct scenario *sc, double t, enum scenario_scope scope, int a, int b,
		       double out[SK_COUNT]);

/*
 * The truth of socket SI (into SOCK) and of its NCHAN channels (into CHAN)
 * at time T, as one memory system.  A scenario's socket_channels scales its
 * socket rates to the machine's NCHAN channels (each channel's own rates
 * are as written: a bigger socket has more channels doing the same).  Seed 000: the home logic's read
 * requests are the IMC's reads (the InvtoE of uncacheable writes aside).
 * Noise drawn for the socket and each channel alone would break that
 * identity by the noise's size, so the channels' read lines are scaled to
 * keep the ratio to the socket's local + remote + IOH reads that the
 * scenario's own values have (equal in the shipped scenarios; a scenario
 * that sets them apart models an IMC that miscounts, which pmutop flags).
 */
void scenario_eval_socket(const struct scenario *sc, double t, int si, int nchan,
			  double sock[SK_COUNT], double (*chan)[SK_COUNT]);

/*
 * The socket's truth alone (its channels unevaluated) on a machine of NCHAN
 * channels a socket: the same socket figures scenario_eval_socket gives.
 */
void scenario_eval_socket_only(const struct scenario *sc, double t, int si, int nchan,
			       double sock[SK_COUNT]);

/* The first time after T at which the truth may change (phase end, noise slot end). */
double scenario_next_change(const struct scenario *sc, double t);

/* Index of the phase at time T and the time the phase started. */
int scenario_phase_at(const struct scenario *sc, double t, double *phase_start);

#endif
