#!/bin/sh
# The platform's power (issue 48.4: turbostat's and pcm-power's watts):
# RAPL's psys domain, the kernel's power/energy-psys, MSR_PLATFORM_ENERGY_STATUS
# (0x64D) through the registers, as platform_watts in group Power.psys
# (key w), the header's "platform N W" and Prometheus' power_watts
# {domain="platform"}.
#
# Truth from outside the project: Linux's arch/x86/events/rapl.c lists psys
# in model_spr (Sapphire and Granite Rapids) and model_skl (Tiger and Alder
# Lake), not in model_hsx (Skylake-SP, Ice Lake-SP); on a machine of several
# packages only the platform's master package reads psys, the others 0
# (Linux's "powercap/intel_rapl: enumerate Psys RAPL domain together with
# package RAPL domain", 2020), so the sockets' sum is the platform's.  The
# scenario gives what package 0 (the master here) reads: memory-bound.scn's
# platform_watts, without its noise.
. "$top_srcdir/tests/lib.sh"
plan 11
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^noise .*/noise 0/' "$top_srcdir/backend/sources/sim/scenarios/memory-bound.scn" >"$tmp/mb.scn"
want=$(sed -n 's/^socket 0 platform_watts=\([0-9.]*\).*/\1/p' "$tmp/mb.scn")

# platform_watts of each socket, the last sample: "S0 S1 ..."
watts() {
	printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, sys
s = pmutop_json.loads(sys.stdin.read())
print(" ".join("%.1f" % x["metrics"]["platform_watts"] for x in s["sockets"]))'
}
for src in perf msr; do
	run "$PMUTOP" --sim "sapphire-rapids:$tmp/mb.scn" --source $src -b -n 2 -d 0.3 --format json \
		--per-socket --metrics platform_watts
	w=$(watts)
	near "Sapphire Rapids through $src: the master package reads the platform's power" "${w% *}" "$want" 0.01
	expect_is "... the other package 0 W" "${w#* }" "0.0"
done
run "$PMUTOP" --sim "tigerlake:$tmp/mb.scn" --source msr -b -n 2 -d 0.3 --format json --per-socket \
	--metrics platform_watts
near "Tiger Lake (a client: model_skl) through the registers: the platform's power" "$(watts)" "$want" 0.01
run "$PMUTOP" --sim "icelake-sp:$tmp/mb.scn" -b -n 1 -d 0.2 --metrics platform_watts
expect_match "Ice Lake-SP (model_hsx): no psys, so no platform_watts" "$err" \
	"'platform_watts' is no metric, group or key of layout intel_icx"
"$PMUTOP" --sim sapphire-rapids --write-sysfs "$tmp/spr" >/dev/null 2>&1
expect_is "the emulated kernel's power PMU names energy-psys as rapl.c does (event 0x05, joules)" \
	"$(cat "$tmp/spr/sys/bus/event_source/devices/power/events/energy-psys") $(cat "$tmp/spr/sys/bus/event_source/devices/power/events/energy-psys.unit")" \
	"event=0x05 Joules"
run "$PMUTOP" --sim sapphire-rapids --msr-safe-allowlist
expect_match "msr-safe's allowlist lets MSR_PLATFORM_ENERGY_STATUS be read, never written" "$out" \
	"0x0000064D 0x0000000000000000 # MSR_PLATFORM_ENERGY_STATUS (read)"

# the header: the packages' sum and the platform's, where it reports one
cfg="$tmp/cfg"
mkdir -p "$cfg"
run env XDG_CONFIG_HOME="$cfg" COLUMNS=160 LINES=50 "$PMUTOP" --sim "sapphire-rapids:$tmp/mb.scn" \
	--source msr --dump -n 2 -d 0.3
head=$(printf '%s\n' "$out" | sed -n 2p)
plat=$(printf '%s\n' "$head" | sed -n 's/.* platform \([0-9]*\) W.*/\1/p')
near "the header's platform power at 160x50" "${plat:-0}" "$want" 0.02
expect_match "... after the packages'" "$head" "package 5"
run env XDG_CONFIG_HOME="$cfg" COLUMNS=160 LINES=50 "$PMUTOP" --sim sapphire-rapids:compute-bound \
	--source msr --dump -n 2 -d 0.3
case "$(printf '%s\n' "$out" | sed -n 2p)" in
*platform*) fail "a platform whose psys reads 0 everywhere: no platform power in the header" "$(printf '%s\n' "$out" | sed -n 2p)" ;;
*) pass "a platform whose psys reads 0 everywhere: no platform power in the header" ;;
esac
