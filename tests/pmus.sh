#!/bin/sh
# Generic discovery of the kernel's PMUs (the uncore issue's first part):
# every PMU under ROOT/sys/bus/event_source/devices read whole (type,
# cpumask, format fields, events with scale and unit), box instances
# numbered and mapped to their sockets through the topology, and the PMUs
# whose files are missing, empty, malformed or contradictory skipped with
# the reason while the others are kept: on a fake machine root (tools/fakehw
# writes its /sys for hwloc; the PMUs are written here as the kernel's
# drivers write them) and on the emulated kernel.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fakehw_lib.sh"
plan 16

fakehw_start nehalem-ep:idle
d="$dir/sys/bus/event_source/devices"
# pmu NAME TYPE CPUMASK FIELD=BITS...: a PMU as the kernel's sysfs has it
pmu() {
	name=$1 type=$2 mask=$3
	shift 3
	mkdir -p "$d/$name/format" "$d/$name/events"
	[ "$type" = - ] || printf '%s\n' "$type" >"$d/$name/type"
	[ -z "$mask" ] || printf '%s\n' "$mask" >"$d/$name/cpumask"
	for f in "$@"; do printf '%s\n' "${f#*=}" >"$d/$name/format/${f%%=*}"; done
}
# event PMU NAME TERMS [SCALE [UNIT]]
event() {
	printf '%s\n' "$3" >"$d/$1/events/$2"
	[ -z "${4:-}" ] || printf '%s\n' "$4" >"$d/$1/events/$2.scale"
	[ -z "${5:-}" ] || printf '%s\n' "$5" >"$d/$1/events/$2.unit"
}
pmu cpu 4 "" event=config:0-7 umask=config:8-15 cmask=config:24-31 offcore_rsp=config1:0-63
event cpu instructions "event=0xc0"
# four memory-controller boxes, each counted through socket 0's and socket 1's first CPUs
for b in 0 1 2 3; do
	pmu "uncore_imc_$b" $((30 + b)) "0,4" event=config:0-7 umask=config:8-15
	event "uncore_imc_$b" cas_count_read "event=0x04,umask=0x03" 6.103515625e-5 MiB
	event "uncore_imc_$b" cas_count_write "event=0x04,umask=0x0c" 6.103515625e-5 MiB
done
pmu uncore_imc_10 40 "0,4" event=config:0-7 umask=config:8-15
pmu power 25 "0" event=config:0-7
event power energy-pkg "event=0x02" 2.3283064365386962890625e-10 Joules
event power energy-ram "event=0x03" 2.3283064365386962890625e-10 Joules
# what the kernel would never write, but a broken or hostile tree may
pmu bad_bits 50 "0" event=config:0-70
pmu bad_alias 51 "0" event=config:0-7
event bad_alias thing "event=0x01,colour=2"
pmu bad_scale 52 "0" event=config:0-7
event bad_scale thing "event=0x01" abc Joules
pmu no_type - "0" event=config:0-7
pmu bad_mask 53 "zz" event=config:0-7
pmu empty_type "" "0" event=config:0-7

run "$PMUTOP" --root "$dir" --list-pmus
expect_rc "--list-pmus on a fake root: exits 0" 0
expect_match "the boxes of a kind, numbered in order (uncore_imc_10 after _3), with their sockets" \
	"$out" "uncore_imc: boxes 0-10 (5), type 30 ..., counts on CPUs 0,4 (sockets 0, 1)"
expect_match "... their format fields as bit ranges" "$out" "  format: event=config:0-7 umask=config:8-15"
expect_match "... their events with scale and unit" "$out" \
	"  event cas_count_read = event=0x04,umask=0x03 (x 6.103515625e-05 MiB)"
expect_match "a PMU of one box: RAPL's energy in joules" "$out" \
	"power, type 25, counts on CPUs 0 (socket 0)"
expect_match "... energy-pkg's scale (2^-32 J)" "$out" \
	"  event energy-pkg = event=0x02 (x 2.328306437e-10 Joules)"
expect_match "the core PMU, every CPU, config1 fields too" "$out" \
	"  format: cmask=config:24-31 event=config:0-7 offcore_rsp=config1:0-63 umask=config:8-15"
expect_match "a format bit past 63: skipped, why" "$out" "skipped bad_bits: $d/bad_bits/format/event: expected configN:LO-HI[,LO-HI], got 'config:0-70'"
expect_match "an alias naming a term the format lacks: skipped" "$out" "skipped bad_alias: $d/bad_alias/events/thing: the term 'colour' is not in its format/"
expect_match "a scale that is not a number: skipped" "$out" "skipped bad_scale: $d/bad_scale/events/thing.scale: expected a positive number, got 'abc'"
expect_match "no type file: skipped" "$out" "skipped no_type: the kernel has no perf PMU 'no_type'"
expect_match "a cpumask that is not a CPU list: skipped" "$out" "skipped bad_mask: its cpumask is not a CPU list: 'zz'"
expect_match "an empty type: skipped" "$out" "skipped empty_type: $d/empty_type/type: expected a number, got nothing"

run "$PMUTOP" --root "$dir" --doctor
expect_match "the doctor: every PMU kind, and the broken ones with why" "$out" \
	"every PMU: cpu, power, uncore_imc x5 (pmutop --list-pmus describes them)"
case "$out" in
*"6 PMUs skipped: bad_alias ("*) pass "... 6 skipped, named, the rest described" ;;
*) fail "... 6 skipped, named, the rest described" "$out" ;;
esac

# the emulated kernel's PMUs: Sapphire Rapids' core PMU with its top-down events
run "$PMUTOP" --sim sapphire-rapids --list-pmus
expect_match "--sim: the emulated kernel's cpu PMU with slots and topdown-*" "$out" \
	"  event topdown-retiring = event=0x00,umask=0x80"
