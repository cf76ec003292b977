#!/bin/sh
# Scenarios that could be true: on every emulated server with CHAs and links, a
# socket's memory system is one system, whatever its channel count.  What its
# channels read and write (UNC_M_CAS_COUNT) is what its CHAs were asked for
# (UNC_CHA_REQUESTS: the reads and writes of this socket's cores, READS_LOCAL,
# and those arriving from the other socket, READS_REMOTE, Intel's
# descriptions), and on two sockets what one socket's links send (data flits)
# is what the other's receive and what was read from this socket's memory for
# the other plus what this socket wrote to the other's.  Each figure is held
# to the others, never to a constant, within 15 %: the CHA groups (six to
# nine) and the link groups take turns through the emulated kernel, whose
# rotation a loaded machine stretches (measured 8 % apart beside a CI run;
# issue 46.7 is to hold rotated figures to 5 % under load); the faults this
# guards against were 170 % and 300 %:
# before, Sapphire Rapids' channels read 42.9 GB/s a socket of memory-bound
# while its CHAs asked for 16.1 (the socket rates were written for 3
# channels and each of its 8 channels read the scenario's per-channel rate).
# Also the CHAs' L3 miss latency is the scenario's DRAM read latency (85 ns
# in memory-bound; it read 80, another key's default).
#
# The scenarios run without their noise: a link's two ends (what one socket
# sends, what the other receives) are two keys of the scenario, each with
# noise of its own, 7 % apart at worst; check_scenario holds the channels
# to the home logic's noisy reads and writes.
. "$top_srcdir/tests/lib.sh"
plan 110
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in memory-bound numa-remote shared-server unbalanced-channels compute-bound; do
	sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/$s.scn" >"$tmp/$s.scn"
done

# check MACHINE SCENARIO: one line per relation, "NAME<TAB>GOT<TAB>WANT"
relations() {
	printf '%s\n' "$1" | $PY -c '
import pmutop_json, json, sys
samples = [pmutop_json.loads(l) for l in sys.stdin.read().splitlines() if l.strip()]
name = sys.argv[1]
need = ("memory_bandwidth_read", "llc_miss_local_memory_bandwidth_read", "upi_data_transmit_bw")
# the last sample in which the CHA and link groups, taking turns, have all had theirs (a slow
# build may leave one without a turn in an interval: n/a then, never 0)
d = samples[-1]
for s in reversed(samples):
    if all(all(m["metrics"].get(k) is not None for k in need if k in m["metrics"]) for m in s["sockets"]):
        d = s
        break
socks = [s["metrics"] for s in d["sockets"]]
def g(m, k):
    v = m.get(k)
    return 0.0 if v is None else v
for i, m in enumerate(socks):
    p = "%s socket %d: " % (name, i)
    asked_r = g(m, "llc_miss_local_memory_bandwidth_read") + g(m, "llc_miss_remote_memory_bandwidth_read") + g(m, "io_bandwidth_read")
    asked_w = g(m, "llc_miss_local_memory_bandwidth_write") + g(m, "llc_miss_remote_memory_bandwidth_write")
    print(p + "channels read what the CHAs were asked (MB/s)\t%g\t%g" % (g(m, "memory_bandwidth_read"), asked_r))
    print(p + "channels write what the CHAs were asked (MB/s)\t%g\t%g" % (g(m, "memory_bandwidth_write"), asked_w))
if len(socks) == 2:
    for i in (0, 1):
        m, o = socks[i], socks[1 - i]
        p = "%s socket %d: " % (name, i)
        print(p + "links receive what the other socket sends (MB/s)\t%g\t%g" % (g(m, "upi_data_receive_bw"), g(o, "upi_data_transmit_bw")))
        print(p + "links send the reads served for the other socket and the writes to its memory (MB/s)\t%g\t%g" % (g(m, "upi_data_transmit_bw"), g(m, "llc_miss_remote_memory_bandwidth_read") + g(o, "llc_miss_remote_memory_bandwidth_write")))
' "$2"
}

check() {
	# (key o's memory groups count the channels' CAS too: the socket's figure is each channel once)
	run "$PMUTOP" --sim "$1:$tmp/$2.scn" --source perf -b -n 4 -d 0.3 --format json -g 9,u,l,o
	if [ "$rc" != 0 ]; then
		fail "$1:$2 runs" "rc $rc: $err"
		return
	fi
	rels=$(relations "$out" "$1:$2")
	n=0
	tab=$(printf '\t')
	while IFS="$tab" read -r name got want; do
		[ -n "$name" ] || continue
		near "$name" "$got" "$want" 0.15
		n=$((n + 1))
	done <<EOF
$rels
EOF
	[ "$n" -gt 0 ] || fail "$1:$2 has figures to relate" "none: $(printf '%s\n' "$out" | tail -c 300)"
}

for m in skylake-sp icelake-sp sapphire-rapids; do
	for s in memory-bound numa-remote shared-server unbalanced-channels; do
		check "$m" "$s"
	done
done
# Granite Rapids: one socket of 12 channels
for s in memory-bound unbalanced-channels compute-bound; do
	check granite-rapids "$s"
done

# the CHAs' L3 miss latency is the scenario's local DRAM read latency (memory-bound: 85 ns):
# the median of the intervals after the first (one interval of a 224-CPU emulated kernel
# on a loaded machine once read 80: its occupancy and inserts read at different moments)
run "$PMUTOP" --sim sapphire-rapids:memory-bound --source perf -b -n 4 -d 0.3 --format json -g l
lat=$(printf '%s\n' "$out" | $PY -c '
import pmutop_json, json, sys
v = [pmutop_json.loads(l)["sockets"][0]["metrics"].get("llc_demand_data_read_miss_latency")
     for l in sys.stdin.read().splitlines() if l.strip()][1:]
v = sorted(x for x in v if x is not None)
print(v[len(v) // 2] if v else "missing")')
near "Sapphire Rapids memory-bound: the CHAs' L3 miss latency is the scenario's 85 ns" "$lat" 85 0.05
# Skylake-SP's: its TOR counts the cores' DRd misses only with Intel's FILTER1 (40433H), which
# reaches the kernel as its filter_* fields (without it the CHA matches no request: n/a)
run "$PMUTOP" --sim skylake-sp:memory-bound --source perf -b -n 4 -d 0.3 --format json -g l
lat=$(printf '%s\n' "$out" | $PY -c '
import pmutop_json, json, sys
v = [pmutop_json.loads(l)["sockets"][0]["metrics"].get("Info_System_MEM_Read_Latency")
     for l in sys.stdin.read().splitlines() if l.strip()][1:]
v = sorted(x for x in v if x is not None)
print(v[len(v) // 2] if v else "missing")')
near "Skylake-SP memory-bound: the CHAs' L3 miss latency (TOR, FILTER1 DRd) is the scenario's 85 ns" \
	"$lat" 85 0.05

# the watts the scenarios give: the shared server's busy sockets (it read 0 W: no power in the
# scenario) and Lunar Lake's package and cores (it had no power PMU: RAPL as rapl.c's model_skl)
run "$PMUTOP" --sim icelake-sp:shared-server --source perf -b -n 2 -d 0.3 --format json -g Power
near "icelake-sp:shared-server socket 0: package watts" "$(field "$out" socket 0 package_watts)" 245 0.03
near "... socket 1's" "$(field "$out" socket 1 package_watts)" 205 0.03
# Skylake-SP through the registers: RAPL's energy MSRs (it had no uncore, no watts), as
# the kernel's power PMU gives them
run "$PMUTOP" --sim skylake-sp:shared-server --source msr -b -n 2 -d 0.3 --format json -g Power
near "skylake-sp:shared-server through the registers, socket 0: package watts" \
	"$(field "$out" socket 0 package_watts)" 245 0.03
run "$PMUTOP" --sim skylake-sp:shared-server --source perf -b -n 2 -d 0.3 --format json -g Power
near "... through perf (energy-pkg)" "$(field "$out" socket 0 package_watts)" 245 0.03
run "$PMUTOP" --sim lunarlake:hybrid-lowpower -b -n 2 -d 0.3 --format json -g Power
near "lunarlake:hybrid-lowpower: package watts (energy-pkg)" "$(field "$out" socket 0 package_watts)" 9 0.03
near "... the cores' (energy-cores)" "$(field "$out" socket 0 cores_watts)" 4.5 0.03
