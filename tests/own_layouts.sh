#!/bin/sh
# pmutop's own groups in files (layouts/own): the layouts pmutop makes from
# the vendors' data take their power, C-state and client memory groups from
# layouts/own/*.layout as those files have them; a copy of the layouts under
# PMUTOP_LAYOUT_DIR is what gets counted; a broken or missing file is one
# message that names it and says what to do, and pmutop goes on counting
# the architectural events.
. "$top_srcdir/tests/lib.sh"
plan 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PMUTOP_SCENARIO_DIR="$top_srcdir/backend/sources/sim/scenarios"
PMUTOP_PERFMON_DIR="$top_srcdir/data/intel"
PMUTOP_AMD_DIR="$top_srcdir/data/amd"
PMUTOP_LAYOUT_DIR="$top_srcdir/layouts"
export PMUTOP_SCENARIO_DIR PMUTOP_PERFMON_DIR PMUTOP_AMD_DIR PMUTOP_LAYOUT_DIR

# group NAME's lines of a layout text on stdin, "group NAME" to its "end"
block() { sed -n "/^group $1\$/,/^end\$/p"; }

# Sapphire Rapids with the kernel's RAPL unknown: package and DRAM, both C-states
run "$PMUTOP" --list-metrics --cpu 06_8F --plan layout
same=yes
for g in Power Power.ram; do
	[ -n "$(printf '%s\n' "$out" | block "$g")" ] &&
		[ "$(printf '%s\n' "$out" | block "$g")" = "$(block "$g" <"$top_srcdir/layouts/own/power.layout")" ] || same="no: $g"
done
for g in CStates CStates.pkg; do
	[ -n "$(printf '%s\n' "$out" | block "$g")" ] &&
		[ "$(printf '%s\n' "$out" | block "$g")" = "$(block "$g" <"$top_srcdir/layouts/own/cstate.layout")" ] || same="no: $g"
done
expect_is "Sapphire Rapids' layout has own/power.layout's Power, Power.ram and own/cstate.layout's groups as the files have them" \
	"$same" yes
expect_is "... and not the domains RAPL leaves out here (Power.cores, Power.psys)" \
	"$(printf '%s\n' "$out" | grep -c -x -e 'group Power.cores' -e 'group Power.psys')" 0

# a copy elsewhere, its C-state title edited
cp -R "$top_srcdir/layouts" "$tmp/layouts"
sed 's/^  title "C-states: the share/  title "Edited C-states: the share/' \
	"$top_srcdir/layouts/own/cstate.layout" >"$tmp/layouts/own/cstate.layout"
run env PMUTOP_LAYOUT_DIR="$tmp/layouts" "$PMUTOP" --sim sapphire-rapids --list-events
expect_match "an edited copy under PMUTOP_LAYOUT_DIR is what the live layout counts" "$out" \
	"group CStates.pkg (key z, off by default): Edited C-states: the share"

# broken: a metric over an event its group does not have
sed 's/= pkg_joules \/ seconds/= pkg_jouls \/ seconds/' "$top_srcdir/layouts/own/power.layout" \
	>"$tmp/layouts/own/power.layout"
cp "$top_srcdir/layouts/own/cstate.layout" "$tmp/layouts/own/cstate.layout"
run env PMUTOP_LAYOUT_DIR="$tmp/layouts" "$PMUTOP" --sim sapphire-rapids --batch -n 1
line=$(grep -n 'pkg_jouls' "$tmp/layouts/own/power.layout" | cut -d: -f1)
expect_match "a broken own file: one message with its file and line" "$err" \
	"Intel's data for this CPU cannot be used: $tmp/layouts/own/power.layout:$line:"
expect_match "... and pmutop counts the architectural events, its figures on stdout" \
	"$rc $(printf '%s\n' "$out" | grep -c '^# sample 1 ')$(printf '%s\n' "$out" | grep -q ' ipc ' && echo ' ipc')" \
	"0 1 ipc"

# missing
rm -r "$tmp/layouts/own"
run env PMUTOP_LAYOUT_DIR="$tmp/layouts" "$PMUTOP" --sim sapphire-rapids --batch -n 1
expect_match "a missing own file says which and what to do" "$err" \
	"$tmp/layouts/own/power.layout: No such file or directory (pmutop's own groups; reinstall pmutop, or set PMUTOP_LAYOUT_DIR to a copy of its layouts); counting the architectural events instead"
