# truth_scenarios.sh: sourced by tree_truth.sh and bottleneck_truth.sh (with $tmp
# a directory of their own and $PY the interpreter): the five one-phase
# scenarios both check against truth (compute, bandwidth, latency, frontend,
# smt: $tmp/NAME.scn) and truth.py, what their checks share.
# what the checks below share: a scenario's values, the last JSON sample
cat >"$tmp/truth.py" <<'PY'
import pmutop_json, json, sys


def scenario(path):
    """The values a scenario file of scenario() gives every CPU."""
    v = {}
    for line in open(path):
        if line.startswith("cpu all "):
            for kv in line.split()[2:]:
                k, x = kv.split("=")
                v[k] = float(x)
    return v


def last_sample():
    return pmutop_json.loads(sys.stdin.read().strip().splitlines()[-1])
PY
export PYTHONPATH="$tmp:$PYTHONPATH"

# scenario NAME KEY=VALUE...: a one-phase scenario, every CPU alike, the
# keys every checked node reads written out
scenario() {
	n=$1
	shift
	{
		printf 'pmutop-scenario 1\nname %s\nseed 1\nnoise 0\nphase run 0\n' "$n"
		printf 'cpu all util=1 port0=0.25 port1=0.2 port2=0.25 port3=0.1 port4=0.1 port5=0.1 port6=0 port7=0\n'
		printf 'cpu all fetch_latency_share=0.6 fe_icache_share=0.3 fe_itlb_share=0.1 fe_resteer_share=0.25\n'
		printf 'cpu all fe_unknown_branch_share=0.2 fe_lcp_share=0.05 fe_dsb_switch_share=0.1 fe_ms_switch_share=0.1\n'
		printf 'cpu all dsb_switch_cycles=3\n'
		printf 'cpu all heavy_ops_share=0.15 ms_heavy_share=0.4 mispredict_share=0.75 mo_clear_share=0.3\n'
		printf 'cpu all mem_uops_share=0.35 fb_full_stall=0 serialize_stall=0 div_busy=0 x87_share=0 macro_fused_per_inst=0.05\n'
		printf 'cpu all rs_full_stall=0.05 rob_full_stall=0.03\n'
		printf 'cpu all store_fwd_blocks_per_inst=0.002 assists_per_inst=0.0005 lock_cycles=0.01\n'
		printf 'cpu all fp_scalar_per_inst=0 fp_vector_per_inst=0 l1d_miss_stall=0 l2_miss_stall=0\n'
		printf 'cpu all branch_per_inst=0.15 branch_miss_ratio=0.01 br_cond_share=0.7 br_cond_taken_share=0.4\n'
		printf 'cpu all br_call_share=0.06 br_jump_share=0.1 misp_cond_share=0.8 misp_ret_share=0.05 misp_indirect_share=0.12\n'
		printf 'cpu all load_active=0.3 l1d_miss_active=0.05 data_rd_cycles=0 mem_bw_cycles=0 walk_cycles=30\n'
		printf 'cpu all dtlb_load_stlb_hits_per_inst=0.002 dtlb_load_walks_per_inst=0.0002 walk_2m_share=0 walk_1g_share=0\n'
		printf 'cpu all dtlb_store_stlb_hits_per_inst=0.0005 dtlb_store_walks_per_inst=0.00005 dsb_coverage=0.7\n'
		printf 'cpu all l1i_miss_per_inst=0.002 ic_fetches_per_inst=0.3 itlb_stlb_hits_per_inst=0.0005 itlb_miss_per_inst=0.0001\n'
		printf 'cpu all fb_mite_share=0.4 fb_dsb_share=0.35 mite_dec0_alone_share=0.25 mite_4wide_share=0.3\n'
		printf 'cpu all l2_hit_loads_per_inst=0.02 l2_hit_stores_per_inst=0.004 code_l2_miss_share=0.3\n'
		printf 'cpu all pause_cycles=0.01 alias_blocks_per_inst=0.002 streaming_stores_per_inst=0.001\n'
		printf 'cpu all avx2_license_cycles=0.2 avx512_license_cycles=0.1 br_taken_bwd_share=0.6\n'
		printf 'cpu all l1_hit_loads_per_inst=0.25 fb_hit_loads_per_inst=0.01 sq_full_stall=0.03\n'
		printf 'cpu all %s\n' "$*"
	} >"$tmp/$n.scn"
}
scenario compute ipc=1.5 uops_per_inst=1.0 issue_ratio=1.0 exec_ratio=1.0 issue_stall=0.5 \
	exec_stall=0.1 retire_stall=0.3 frontend_bound=0.05 bad_speculation=0.03 mem_stall=0.03 \
	l1d_miss_stall=0.01 l2_miss_stall=0.005 l3_miss_stall=0.002 store_stall=0.01 div_busy=0.08 \
	serialize_stall=0.02 fp_scalar_per_inst=0.1 fp_vector_per_inst=0.2 fp_256_share=0.5
scenario bandwidth ipc=0.35 uops_per_inst=1.2 issue_ratio=1.03 exec_ratio=1.03 issue_stall=0.62 \
	exec_stall=0.82 retire_stall=0.68 frontend_bound=0.04 bad_speculation=0.01 mem_stall=0.7 \
	l1d_miss_stall=0.66 l2_miss_stall=0.64 l3_miss_stall=0.6 store_stall=0.05 load_active=0.85 \
	l1d_miss_active=0.8 data_rd_cycles=0.8 mem_bw_cycles=0.5 local_dram_read_lines_per_s=4.5e7 \
	local_dram_pf_read_lines_per_s=1.5e7 l3_hit_loads_per_s=1e6 mem_latency_ns=150 \
	local_dram_loads_per_s=3e7 local_dram_rfo_lines_per_s=5e6 \
	dtlb_load_walks_per_inst=0.0005 walk_2m_share=0.25
scenario latency ipc=0.5 uops_per_inst=1.1 issue_ratio=1.05 exec_ratio=1.05 issue_stall=0.55 \
	exec_stall=0.6 retire_stall=0.6 frontend_bound=0.08 bad_speculation=0.04 mem_stall=0.5 \
	l1d_miss_stall=0.45 l2_miss_stall=0.35 l3_miss_stall=0.25 store_stall=0.03 serialize_stall=0.02 \
	load_active=0.6 l1d_miss_active=0.5 data_rd_cycles=0.3 mem_bw_cycles=0.01 \
	local_dram_read_lines_per_s=1e7 l3_hit_loads_per_s=5e6 mem_latency_ns=90 l3_latency_ns=15 \
	local_dram_loads_per_s=8e6 local_dram_rfo_lines_per_s=1e6 local_dram_pf_read_lines_per_s=0 \
	fp_scalar_per_inst=0.05 fp_vector_per_inst=0.1 \
	dtlb_load_stlb_hits_per_inst=0.006 dtlb_load_walks_per_inst=0.001 walk_cycles=35
scenario frontend ipc=0.6 uops_per_inst=1.15 issue_ratio=1.1 exec_ratio=1.1 issue_stall=0.6 \
	exec_stall=0.44 retire_stall=0.55 frontend_bound=0.45 fetch_latency_share=0.7 \
	bad_speculation=0.12 mem_stall=0.05 l1d_miss_stall=0.02 l2_miss_stall=0.015 l3_miss_stall=0.01 \
	store_stall=0.01 branch_per_inst=0.22
scenario smt ipc=1.45 uops_per_inst=1.1 issue_ratio=1.03 exec_ratio=1.03 issue_stall=0.15 \
	exec_stall=0.15 retire_stall=0.2 frontend_bound=0.12 bad_speculation=0.04 mem_stall=0.08 \
	l1d_miss_stall=0.06 l2_miss_stall=0.04 l3_miss_stall=0.02 store_stall=0.01
