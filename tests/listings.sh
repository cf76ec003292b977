#!/bin/sh
# Listings a user can paste (issue 45.7): --list-events --source perf names
# every event by the kernel PMU's own name and format fields, so perf stat -e
# takes it as written: each term must be a field of that PMU as the kernel
# (here the emulated one, laid out from the drivers) describes it in
# --list-pmus; a name without a box number is every box of the kind (perf
# sums them).  AMD's listing is perf's (pmutop counts AMD through the kernel),
# its register listing names PERF_CTL and no Intel fixed counter; a box only
# the kernel programs shows no register value.
. "$top_srcdir/tests/lib.sh"
plan 11

PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# pasteable MACHINE: every PMU/terms/ of its perf listing against its PMUs' format fields
pasteable() {
	"$PMUTOP" --sim "$1" --list-pmus >"$tmp/pmus" 2>&1
	"$PMUTOP" --sim "$1" --list-events --source perf >"$tmp/list" 2>&1
	$PY - "$tmp/pmus" "$tmp/list" <<'PYEOF'
import re, sys
fields, kind = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"^(\S+?)(?:, type|: boxes)", line)
    if m:
        kind = m.group(1)
        fields.setdefault(kind, set())
    m = re.match(r"^  format: (.*)", line)
    if m and kind:
        fields[kind] |= {f.split("=")[0] for f in m.group(1).split()}
n = 0
for line in open(sys.argv[2]):
    m = re.match(r"^  \S+\s+(\S+?)/([^/]*)/([ku]?)$", line.rstrip("\n"))
    if not m:
        continue
    pmu, terms = m.group(1), m.group(2)
    kind = pmu if pmu in fields else re.sub(r"_?\d+$", "", pmu)
    if kind not in fields:
        print("%s: no PMU %s in --list-pmus" % (line.strip(), pmu))
        sys.exit(0)
    for t in terms.split(",") if terms else []:
        name = t.split("=")[0]
        # a named event (energy-pkg, data_read) or a format field
        if "=" in t and name not in fields[kind]:
            print("%s: %s has no field %s (its fields: %s)" % (line.strip(), pmu, name,
                  " ".join(sorted(fields[kind]))))
            sys.exit(0)
    n += 1
print("ok %d" % n)
PYEOF
}

res=$(pasteable genoa)
expect_match "Genoa: every term is a field of its PMU (amd_umc's rdwrmask, amd_l3's)" "$res" "ok "
run "$PMUTOP" --sim genoa --list-events
expect_match "... a channel's reads: amd_umc_0 with rdwrmask, as perf stat takes it" "$out" \
	"umc_cas_cmd.rd       amd_umc_0/event=0x0a,rdwrmask=0x1/"
expect_match "... the L3 of every CCX: amd_l3, one PMU" "$out" "amd_l3/event=0x04,umask=0x01/"
run "$PMUTOP" --sim genoa --list-events --source msr
expect_match "AMD's register listing: PERF_CTL, its event's high bits at 35:32" "$out" \
	"# PERF_CTL = event[7:0] | umask<<8 | USR | OS | EN | event[11:8]<<32"
expect_is "... no Intel fixed counter named" "$(printf '%s\n' "$out" | grep -c 'INST_RETIRED.ANY (fixed')" 0
for m in sapphire-rapids granite-rapids alderlake tigerlake; do
	res=$(pasteable $m)
	expect_match "$m: every term is a field of its PMU" "$res" "ok "
done
run "$PMUTOP" --sim sapphire-rapids --list-events
expect_match "a CHA row: no register value of pmutop's, the kernel's term" "$out" \
	"-             -  kernel    uncore_cha/event=0x35,umask=0xc817fe01/"
run "$PMUTOP" --sim tigerlake --list-events --source perf
expect_match "Tiger Lake's Kernel_Utilization: ring 0 only (/k)" "$out" "cpu/event=0x3c/k"
