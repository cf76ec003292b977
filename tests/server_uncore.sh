#!/bin/sh
# Today's server uncore through the kernel's PMUs (the uncore issue): the
# emulated kernels of Sapphire Rapids and Granite Rapids describe their
# CHAs, memory channels, UPI links and RAPL's power PMU as Linux's uncore
# driver does; pmutop counts the vendor's metrics over them per channel and
# per socket, against the scenario's truth (noise 0), from the documents'
# words:
#  - memory_bandwidth_read (Intel's data) = UNC_M_CAS_COUNT.RD x 64 / 1e6 per
#    second: memory-bound.scn reads 8.3e7 lines a second on every channel,
#    5312 MB/s; writes 4.2e7, 2688 MB/s.  Granite Rapids counts each
#    sub-channel apart (SCH0 + SCH1): the same per channel.
#  - dram_peak_pct: read + write over the DIMM's peak (MT/s x 8 bytes):
#    DDR5-4800 38.4 GB/s a channel, 8000 / 38400 = 20.83 %; DDR5-6400 15.63 %.
#  - RAPL: package_watts = energy-pkg joules / seconds, 270 W; DRAM 40 W.
#  - Tiger Lake's controllers count the socket: data_read x 64 B over both
#    channels, 2 x 5312 MB/s; the peak of two LPDDR4x-4267 channels 68.3 GB/s.
#  - numa-remote.scn: socket 1 sends socket 0 its read lines over UPI,
#    1.22e8 x 64 B = 7808 MB/s (upi_data_transmit_bw: data flits x 64/9);
#    socket 0 misses its L3 to remote memory 96 % of the time at 100 ns
#    (remote_read_latency_ns), locally 4 % at 60 ns (read_latency_ns, its
#    local DRAM's): llc_demand_data_read_miss_latency 0.04 x 60 + 0.96 x 100
#    = 98.4 ns; socket 1's misses are all local, at its DRAM's 120 ns.
#    Seven CHA groups take turns (the vendor's six, pmutop's CXL): those figures are
#    scaled (5 %).
#  - each UPI link's use (pmutop's, from Intel's event descriptions): every
#    flit slot a link sends is data, protocol/credit, null or idle, three
#    slots a clock, and the clock "runs at 1/8th the GT/s speed" of the link
#    (Sapphire Rapids: UPI 2.0 at 16 GT/s, 2e9 clocks, 6e9 slots a second a
#    link).  Socket 1 sends 1.22e8 lines x 9 data slots over 4 links
#    (2.745e8 a link) and a request header for each line coming back
#    (9.6e8 / 64 / 4 = 3.75e6): (2.745e8 + 3.75e6) / 6e9 = 4.6375 %; socket 0
#    sends 1.5e7 x 9 / 4 = 3.375e7 data and 1.22e8 / 4 = 3.05e7 headers:
#    1.0708 %.  Each link's speed: 8 x its clock = 16 GT/s.
#  - CXL memory (numa-remote.scn: socket 1's cores read a CXL memory
#    expander 2e6 lines a second at 280 ns, 3e6 misses there in all):
#    cxl_read_bandwidth 2e6 x 64 = 128 MB/s, cxl_miss_bandwidth 192 MB/s,
#    cxl_read_latency 280 ns from the TOR's occupancy over its inserts.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 68
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
fakehw_cleanup='tmux -L "pmutop-uncore-$$" kill-server 2>/dev/null; rm -rf "$tmp"'
trap 'tmux -L "pmutop-uncore-$$" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
# without noise, and the socket rates as written (not scaled to the machine's channels:
# scenario_truth.sh holds that): the truths below are the files' numbers
for s in memory-bound numa-remote; do
	sed -e 's/^noise .*/noise 0/' -e '/^socket_channels /d' \
		"$top_srcdir/backend/sources/sim/scenarios/$s.scn" >"$tmp/$s.scn"
done

# field JSON SOCKET [CHANNEL] METRIC: the last sample's figure (or "missing")
field() {
	f_json=$1
	shift
	printf '%s\n' "$f_json" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
k, m = int(sys.argv[1]), sys.argv[-1]
e = s["sockets"][k]
if len(sys.argv) == 4:
    e = [c for c in e["channels"] if c["channel"] == int(sys.argv[2])][0]
v = e["metrics"].get(m)
print("missing" if v is None else v)' "$@"
}

run "$PMUTOP" --sim sapphire-rapids --list-pmus
expect_match "Sapphire Rapids' emulated kernel: 56 CHAs a socket, on both sockets' CPUs" "$out" \
	"uncore_cha: boxes 0-55 (56), type 21 ..., counts on CPUs 0,56 (sockets 0, 1)"
expect_match "... the CHA's umask with the vendor's UMaskExt above bit 8, as Linux 6.9 writes it" \
	"$out" "umask=config:8-15,32-63"
expect_match "... 8 memory channels, CAS counts scaled to MiB" "$out" \
	"  event cas_count_read = event=0x05,umask=0xcf (x 6.103515625e-05 MiB)"
expect_match "... 4 UPI links" "$out" "uncore_upi: boxes 0-3 (4)"
expect_match "... RAPL's package energy in joules" "$out" \
	"  event energy-pkg = event=0x02 (x 2.328306437e-10 Joules)"

# the tree written for a fake root, read back by the discovery
run "$PMUTOP" --sim sapphire-rapids --write-sysfs "$tmp/root"
expect_rc "--write-sysfs writes the emulated kernel's PMUs" 0
run "$PMUTOP" --root "$tmp/root" --list-pmus
expect_match "... which --root discovers as the kernel's: the same boxes and formats" "$out" \
	"uncore_cha: boxes 0-55 (56), type 21 ..."
expect_match "... scale and unit files too" "$out" \
	"  event cas_count_write = event=0x05,umask=0xf0 (x 6.103515625e-05 MiB)"
run "$PMUTOP" --sim sapphire-rapids --write-sysfs "$tmp/root"
expect_rc "a second write into the same tree is refused" 1
expect_match "... saying to give a new directory" "$err" "give a new directory"
run "$PMUTOP" --write-sysfs "$tmp/other"
expect_rc "--write-sysfs without --sim: bad command line" 2

# memory channels and power, per channel and per socket
run "$PMUTOP" --sim "sapphire-rapids:$tmp/memory-bound.scn" --source perf -b -n 2 -g 9,w \
	--format json
expect_rc "memory-bound on Sapphire Rapids through perf: runs" 0
near "channel 3 of socket 1: memory_bandwidth_read" "$(field "$out" 1 3 memory_bandwidth_read)" \
	5312 0.02
near "... memory_bandwidth_write" "$(field "$out" 1 3 memory_bandwidth_write)" 2688 0.02
near "... dram_peak_pct against DDR5-4800" "$(field "$out" 1 3 dram_peak_pct)" 20.833 0.02
near "socket 0: the 8 channels summed" "$(field "$out" 0 memory_bandwidth_read)" 42496 0.02
near "socket 0: package power, watts" "$(field "$out" 0 package_watts)" 270 0.02
near "socket 1: DRAM power, watts" "$(field "$out" 1 dram_watts)" 40 0.02

run "$PMUTOP" --sim "granite-rapids:$tmp/memory-bound.scn" --source perf -b -n 2 -g 9,u \
	--format json
near "Granite Rapids channel 11: the two sub-channels' CAS counts summed" \
	"$(field "$out" 0 11 memory_bandwidth_read)" 5312 0.02
near "... against DDR5-6400" "$(field "$out" 0 11 dram_peak_pct)" 15.625 0.02
near "... its 6 UPI links at 24 GT/s (UPI 2.0)" "$(field "$out" 0 upi_link_gts_link5)" 24 0.02
expect_is "... idle on a one-socket machine: 0 % of their slots carry anything" \
	"$(field "$out" 0 upi_tx_utilization)" 0.0

# a client (Tiger Lake): the controllers' free-running counters, two LPDDR4x-4267 channels
run "$PMUTOP" --sim "tigerlake:$tmp/memory-bound.scn" --source perf -b -n 2 -g 9,w --format json
near "Tiger Lake: read bandwidth from the kernel's data_read (2 x 8.3e7 lines x 64 B)" \
	"$(field "$out" 0 read_bytes_per_s)" 10624000000 0.02
near "... write bandwidth from data_write" "$(field "$out" 0 write_bytes_per_s)" 5376000000 0.02
near "... of the two channels' peak (4267 MT/s x 8 B x 2)" "$(field "$out" 0 dram_peak_pct)" \
	23.435 0.02
expect_is "... RAPL's domains as the client's power PMU has them (rapl.c's model_skl: package, cores, psys): no DRAM group" \
	"$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
print(" ".join(sorted(g for g in pmutop_json.loads(sys.stdin.read())["groups"] if g.startswith("Power"))))')" \
	"Power Power.cores Power.psys"

# links and the CHAs' latency and locality
run "$PMUTOP" --sim "sapphire-rapids:$tmp/numa-remote.scn" --source perf -b -n 2 -g l,u \
	--format json
near "socket 1 sends socket 0's reads over UPI" "$(field "$out" 1 upi_data_transmit_bw)" 7808 0.02
near "... which socket 0 receives" "$(field "$out" 0 upi_data_receive_bw)" 7808 0.02
near "... a quarter on each of its 4 links (link 2 alone, box=2)" \
	"$(field "$out" 1 upi_data_transmit_bw_link2)" 1952 0.02
near "... and link 3 of socket 0 receives its quarter" \
	"$(field "$out" 0 upi_data_receive_bw_link3)" 1952 0.02
near "socket 0: L3 miss latency from the TOR (scaled)" \
	"$(field "$out" 0 llc_demand_data_read_miss_latency)" 98.4 0.05
near "... its remote share of the reads" "$(field "$out" 0 numa_reads_addressed_to_remote_dram)" \
	96 0.05
scaled=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
print(" ".join(pmutop_json.loads(sys.stdin.read())["sockets"][0]["scaled"]))')
expect_match "... marked scaled (the CHA groups take turns)" "$scaled" \
	"llc_demand_data_read_miss_latency"

# each link's use and speed (pmutop's own groups of key u)
near "socket 1 sends: its links' use (data and protocol slots of all slots)" \
	"$(field "$out" 1 upi_tx_utilization)" 4.6375 0.02
near "... link 2 alone" "$(field "$out" 1 upi_tx_utilization_link2)" 4.6375 0.02
near "... which socket 0 receives" "$(field "$out" 0 upi_rx_utilization)" 4.6375 0.02
near "socket 0 sends its writes and the requests: 1.07 %" "$(field "$out" 0 upi_tx_utilization)" \
	1.0708 0.02
near "... link 3 of socket 1 receives them" "$(field "$out" 1 upi_rx_utilization_link3)" 1.0708 0.02
near "each link's speed: 8 x its clock, 16 GT/s" "$(field "$out" 0 upi_link_gts_link1)" 16 0.02
near "... and the socket's mean" "$(field "$out" 1 upi_link_gts)" 16 0.02
# memory behind CXL, from the CHAs' TOR (pmutop's own group CXL, key l)
near "socket 1: CXL memory read by its cores' demand reads (2e6 x 64 B)" \
	"$(field "$out" 1 cxl_read_bandwidth)" 128 0.05
near "... every miss there (3e6 x 64 B)" "$(field "$out" 1 cxl_miss_bandwidth)" 192 0.05
near "... the reads' latency from the TOR" "$(field "$out" 1 cxl_read_latency)" 280 0.05
expect_is "socket 0 reads no CXL memory: 0 MB/s" "$(field "$out" 0 cxl_read_bandwidth)" 0.0
expect_is "... and its latency is n/a (no reads to time), not 0" \
	"$(field "$out" 0 cxl_read_latency)" missing

# a link cannot be used past its slots: a scenario sending more than 16 GT/s carries
# is a full link, 100 %, its data bandwidth the most it holds (6e9 x 64 / 9 = 42667 MB/s)
sed 's/upi_tx_bytes_per_s=7.808e9/upi_tx_bytes_per_s=4e11/' "$tmp/numa-remote.scn" >"$tmp/full.scn"
run "$PMUTOP" --sim "sapphire-rapids:$tmp/full.scn" --source perf -b -n 2 -g u --format json
near "a link full past its speed: 100 %" "$(field "$out" 1 upi_tx_utilization_link0)" 100 0.001
near "... carrying data in every slot but the request headers' flits (a header, two nulls)" \
	"$(field "$out" 1 upi_data_transmit_bw_link0)" \
	"$($PY -c 'd = 4e11 * 9 / 64 / 4; h = 9.6e8 / 64 / 4; print(6e9 * d / (d + 3 * h) * 64 / 9 / 1e6)')" \
	0.05

# the topology at 80x24: each socket's links with their use
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim "sapphire-rapids:$tmp/numa-remote.scn" \
	--source perf --dump -n 2 --pane uncore -g u,9
expect_match "the sockets' lines show the links' traffic and use out and in" "$out" \
	"links out 7.8G 5% in 960M 1%"
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "sapphire-rapids:$tmp/numa-remote.scn" \
	--source perf --dump -n 2 --pane uncore -g u,l,9
l3=$(printf '%s\n' "$out" | grep -o 'L3 miss [0-9]*ns' | sed 's/L3 miss \([0-9]*\)ns/\1/')
near "160x50: each socket's box border carries its L3's miss latency (socket 0's, scaled)" \
	"$(printf '%s\n' "$l3" | sed -n 1p)" 98.4 0.05
near "... and socket 1's (its local misses at its DRAM's 120 ns)" "$(printf '%s\n' "$l3" | sed -n 2p)" 120 0.05
run env COLUMNS=160 LINES=50 "$PMUTOP" --sim "genoa:$tmp/memory-bound.scn" --source perf --dump \
	-n 2 --pane uncore -g l,9
expect_match "Genoa: the border's memory from AMD's channels (12 x 8000 MB/s) and its L3's in clocks" \
	"$out" "96.0G/s  L3 miss 192clk"

# the CHAs one by one (the socket's figures sum them): socket 0's CHA 5 takes a fifth of its L3
# traffic (hot_cha_share 0.2), the other 55 an even share of the rest; each CHA's latency is
# the socket's (every miss waits as long), its bandwidth its share
printf 'socket 0 hot_cha=5 hot_cha_share=0.2\n' | cat "$tmp/numa-remote.scn" - >"$tmp/hot.scn"
run "$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" --source perf -b -n 2 -g l --format json
chas=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())["sockets"][0]
c = s["chas"]
bw = "llc_miss_local_memory_bandwidth_read"
print(len(c), c[5]["metrics"][bw] / s["metrics"][bw], c[0]["metrics"][bw] / s["metrics"][bw],
      sum(x["metrics"][bw] for x in c) / s["metrics"][bw],
      c[5]["metrics"]["llc_demand_data_read_miss_latency"],
      c[40]["metrics"]["llc_demand_data_read_miss_latency"])')
expect_is "each socket's 56 CHAs one by one in the JSON" "${chas%% *}" 56
set -- $chas
near "the hot CHA 5: a fifth of the socket's local read bandwidth (L3 misses)" "$2" 0.2 0.05
near "... CHA 0: an even share of the rest (0.8 / 55)" "$3" 0.014545 0.05
near "... the CHAs add up to the socket" "$4" 1 0.02
near "... CHA 5's miss latency is the socket's (0.04 x 60 + 0.96 x 100 ns)" "$5" 98.4 0.05
near "... and CHA 40's" "$6" 98.4 0.05
# recorded and replayed: the CHAs' figures computed again from their counts, the JSON the same
run "$PMUTOP" --sim "sapphire-rapids:$tmp/hot.scn" --source perf -b -n 2 -g l --format json \
	--record "$tmp/hot.jsonl"
printf '%s\n' "$out" >"$tmp/hot-live.json"
run "$PMUTOP" --replay "$tmp/hot.jsonl" -b --format json
printf '%s\n' "$out" >"$tmp/hot-replay.json"
if cmp -s "$tmp/hot-live.json" "$tmp/hot-replay.json"; then
	pass "a recording replays the CHAs one by one: the JSON byte for byte"
else
	fail "a recording replays the CHAs one by one" "$(diff "$tmp/hot-live.json" "$tmp/hot-replay.json" | head -c 600)"
fi
# on the screen: e on a CHA metric of the uncore pane lists it per CHA, the hot one the most
T="tmux -L pmutop-uncore-$$"
. "$top_srcdir/tests/tmux_lib.sh"
tmux_end
$T new-session -d -x 160 -y 50 "XDG_CONFIG_HOME='$tmp' '$PMUTOP' --sim 'sapphire-rapids:$tmp/hot.scn' \
	--source perf --pane uncore -g l; sleep 30"
wait_for "llc_miss_local_memory_bandwidth_read" 20
$T send-keys Tab
uncore_left() { ! screen | grep -qF "[Uncore]"; }
wait_until 10 uncore_left
$T send-keys BTab
wait_for "[Uncore]" 10
for k in 1 2 3 4 5; do $T send-keys Down; done
$T send-keys e
if wait_for "(CHA 5)" 10; then
	pass "e on llc_miss_local_memory_bandwidth_read lists it per CHA"
else
	fail "e on llc_miss_local_memory_bandwidth_read lists it per CHA" "$(screen)"
fi
# the figures as the popup shows them (scaled: the CHA groups take turns), against the socket's
pop=$(screen)
sock=$(printf '%s\n' "$pop" | sed -n 's/.*on socket 0: \([0-9.]*\).*/\1/p' | head -1)
most=$(printf '%s\n' "$pop" | sed -n 's/.*most \([0-9.]*\)\*\{0,1\} (CHA 5).*/\1/p' | head -1)
cha0=$(printf '%s\n' "$pop" | sed -n 's/.*CHA   0 *\([0-9.]*\).*/\1/p' | head -1)
near "... CHA 5 the most, a fifth of the socket's" "$most" "$($PY -c "print(0.2 * ${sock:-0})")" 0.02
near "... CHA 0 its even share of the rest (0.8 / 55)" "$cha0" \
	"$($PY -c "print(0.8 / 55 * ${sock:-0})")" 0.02
tmux_end

# the msr source cannot reach these boxes
run "$PMUTOP" --sim "sapphire-rapids:$tmp/memory-bound.scn" --source msr -b -n 1 -g 9
expect_match "through msr the memory group is n/a, saying to count through perf" "$out$err" \
	"--source perf counts them"

# the screen at 80x24: every column of the channels, the sockets' totals first
run env COLUMNS=80 LINES=24 "$PMUTOP" --sim "sapphire-rapids:$tmp/memory-bound.scn" \
	--source perf --dump -n 2 --pane imc
expect_match "the IMC pane at 80x24: the vendor's bandwidths by what differs, and the peak" \
	"$out" " sock chan              read            write            total  dram_peak_pct"
expect_match "... socket 1's total on the first screen, before the 16 channels" "$out" \
	"    1 total"

# the DIMMs' speed from SMBIOS (type 17: Size at 0Ch, Speed 15h, Configured Memory Speed 20h),
# on a fake machine root: the slowest populated module's configured speed
fakehw_start nehalem-ep:memory-bound
$PY - "$dir/sys/firmware/dmi/entries" <<'PYEOF'
import os, struct, sys
def module(size, rated, configured):
    b = bytearray(0x28)
    b[0], b[1] = 17, 0x28
    struct.pack_into("<H", b, 0x0C, size)
    struct.pack_into("<H", b, 0x15, rated)
    struct.pack_into("<H", b, 0x20, configured)
    return bytes(b) + b"\0\0"
for i, m in enumerate([module(8192, 1333, 1066), module(0, 2000, 2000), module(8192, 1333, 1333)]):
    d = os.path.join(sys.argv[1], "17-%d" % i)
    os.makedirs(d)
    open(os.path.join(d, "raw"), "wb").write(m)
PYEOF
run "$PMUTOP" --root "$dir" --doctor
expect_match "the doctor reads the DIMMs' speed from SMBIOS: the slowest configured" "$out" \
	"1066 MT/s (SMBIOS, the slowest module): a channel's peak is 8.5 GB/s"
run "$PMUTOP" --root "$dir" -b -n 2 -g imc --format json
pct=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
c = [c for c in s["sockets"][0]["channels"] if c["channel"] == 0][0]["metrics"]
print(c["dram_peak_pct"], 100 * (c["read_bytes_per_s"] + c["write_bytes_per_s"]) / (1066e6 * 8))')
near "... the channels' peak from it (dram_peak_pct against DDR3-1066)" "${pct% *}" "${pct#* }" 0.001
run "$PMUTOP" --root "$dir" -b -n 2 -g imc --format json --dram-mts 1333
pct=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
c = [c for c in s["sockets"][0]["channels"] if c["channel"] == 0][0]["metrics"]
print(c["dram_peak_pct"], 100 * (c["read_bytes_per_s"] + c["write_bytes_per_s"]) / (1333e6 * 8))')
near "... --dram-mts wins over it" "${pct% *}" "${pct#* }" 0.001
run "$PMUTOP" --root "$tmp/root" --doctor
expect_match "no SMBIOS tables: the doctor says so and how to give the speed" "$out" \
	"fix: --dram-mts N"
