#!/bin/sh
# Every event the vendor's metrics read is programmed as the vendor writes it
# (issue 45.2): for every platform of Intel's and AMD's data shipped, each
# event of the layout pmutop makes from it (--list-metrics --plan layout)
# carries the vendor's fields (EventCode, UMask, CounterMask, Invert,
# EdgeDetect, the offcore matrix value) with the formula's modifiers over
# them (:cN, :iN, :eN, :eqN, :u0xNN another umask, :SUP the kernel only,
# :USER user space only, :ocr_msr_val=V), worked out here from the JSON
# alone; and on every emulated machine with vendor data, each such event as
# each source programs it: the register source's PERFEVTSEL (--list-events)
# and the perf source's config through the kernel's format fields
# (--source perf --list-events).  An event pmutop does not program as the
# formula means (a modifier it does not know, :percore) must not be in the
# layout.
. "$top_srcdir/tests/lib.sh"
plan 7
PY=${PYTHON:-python3}
res=$($PY - "$PMUTOP" "$top_srcdir" <<'PYEOF'
import csv, json, pmutop_json, re, subprocess, sys
pmutop, top = sys.argv[1], sys.argv[2]

def num(v):
    return int(str(v), 0) if v not in (None, "") else 0

def expect(table, vname):
    """The vendor's encoding of VNAME (an event with the formula's modifiers), or None."""
    parts = vname.split(":")
    row = table.get(parts[0])
    if row is None:
        return None
    # a server uncore box's UMaskExt goes above the umask's 8 bits; AMD's memory controllers
    # select reads or writes by RdWrMask, which pmutop carries as the umask
    umask = num(row.get("UMask")) | num(row.get("UMaskExt")) << 8
    if not umask and row.get("RdWrMask"):
        umask = num(row.get("RdWrMask"))
    e = {"codes": [num(c) for c in str(row.get("EventCode", "0")).split(",")],
         "umask": umask, "cmask": num(row.get("CounterMask")),
         "inv": num(row.get("Invert")), "edge": num(row.get("EdgeDetect")), "eq": 0,
         "ring": "all", "offcore": None, "fixed": str(row.get("Counter", "")).startswith("Fixed"),
         "known": True}
    if str(row.get("MSRIndex", "")).lower() in ("0x1a6", "0x1a7", "0x1a6,0x1a7", "0x1a6, 0x1a7"):
        e["offcore"] = num(row.get("MSRValue"))
    for m in parts[1:]:
        if re.fullmatch(r"c\d+", m): e["cmask"] = int(m[1:])
        elif re.fullmatch(r"i\d+", m): e["inv"] = int(m[1:])
        elif re.fullmatch(r"e\d+", m): e["edge"] = int(m[1:])
        elif re.fullmatch(r"eq\d+", m): e["eq"] = int(m[2:])
        elif re.fullmatch(r"u0x[0-9a-fA-F]+", m): e["umask"] = int(m[1:], 16)
        elif m in ("SUP", "sup"): e["ring"] = "kernel"
        elif m == "USER": e["ring"] = "user"
        elif m.startswith("ocr_msr_val="): e["offcore"] = int(m[12:], 0)
        elif m in ("perf_metrics",): pass
        else: e["known"] = False   # a modifier whose meaning pmutop must not drop
    return e

def layout_name(v):
    return ("_" if v[0].isdigit() else "") + v.replace(":", ".").replace("=", ".")

def check(e, got, where, bad):
    """GOT (event, umask, cmask, inv, edge, eq, ring, offcore) against the vendor's E."""
    want = (e["umask"], e["cmask"], 1 if e["inv"] else 0, 1 if e["edge"] else 0,
            1 if e["eq"] else 0, e["ring"])
    have = (got["umask"], got["cmask"], got["inv"], got["edge"], got["eq"], got["ring"])
    if got["event"] not in [c & 0xFFF for c in e["codes"]] or want != have or \
       (e["offcore"] is not None and got.get("offcore") not in (None, e["offcore"])):
        bad.append("%s: want codes %s %s offcore %s, got event %#x %s offcore %s" %
                   (where, [hex(c) for c in e["codes"]], want, e["offcore"], got["event"], have,
                    got.get("offcore")))

def platforms(d):
    """One --cpu per data file of directory D: FAMILY_MODEL of its first line."""
    seen, out = set(), []
    for row in csv.DictReader(open("%s/%s/models.csv" % (top, d))):
        f = row["File"]
        if f in seen or row.get("Core Type"):
            continue
        m = re.match(r"(\w+)-(\d+)-([0-9A-Fa-f]+)", row["Family-model"])
        seen.add(f)
        out.append((f, "%02X_%s" % (int(m.group(2)), m.group(3).upper().zfill(2))))
    return out

# ---- the layouts pmutop makes from every platform's data
bad, checked, mods, files = [], 0, 0, 0
for d in ("data/intel", "data/amd"):
    for f, cpu in platforms(d):
        doc = pmutop_json.load(open("%s/%s/%s" % (top, d, f)))
        if not doc.get("Metrics"):
            continue
        files += 1
        table = doc["Events"]
        names = {}
        for m in doc["Metrics"]:
            for v in m.get("Events", {}).values():
                names[layout_name(v)] = v
        out = subprocess.run([pmutop, "--list-metrics", "--cpu", cpu, "--plan", "layout"],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            mt = re.match(r"\s+event (\S+) raw (.*)", line)
            if not mt or mt.group(1) not in names:
                continue
            v = names[mt.group(1)]
            e = expect(table, v)
            if e is None:
                continue
            if not e["known"] or ":percore" in v:
                bad.append("%s %s: in the layout, though pmutop does not program %s" % (f, cpu, v))
                continue
            if e["fixed"]:
                # a fixed counter's event on a general-purpose counter: its architectural twin
                # (SDM Table 19-1: instructions C0H, core cycles 3CH, reference cycles 3CH/01H)
                base = v.split(":")[0]
                e["codes"] = [0xC0 if base.startswith("INST_RETIRED") else 0x3C]
                e["umask"] = 0x01 if "REF" in base else 0x00
            kv = dict(re.findall(r"(\w+)=(\S+)", mt.group(2)))
            got = {"event": num(kv.get("event")), "umask": num(kv.get("umask")),
                   "cmask": num(kv.get("cmask")), "inv": num(kv.get("inv")),
                   "edge": num(kv.get("edge")), "eq": num(kv.get("eq")),
                   "ring": kv.get("ring", "all"),
                   "offcore": num(kv["offcore"]) if "offcore" in kv else None}
            check(e, got, "%s %s %s" % (f, cpu, v), bad)
            checked += 1
            mods += ":" in v
print("layouts: %d platform files, %d events checked (%d with modifiers), %d wrong" %
      (files, checked, mods, len(bad)))
for b in bad[:15]:
    print("  " + b)

# ---- both sources on the emulated machines of vendor data
sims = {"skylake-sp": ["skx.json"], "icelake-sp": ["icx.json"], "sapphire-rapids": ["spr.json"],
        "granite-rapids": ["gnr.json"], "tigerlake": ["tgl.json"], "alderlake": ["adl.json"],
        "lunarlake": ["lnl.json"], "genoa": ["zen4.json"]}
tables = {}
for d in ("data/intel", "data/amd"):
    for f, _ in platforms(d):
        tables[f] = pmutop_json.load(open("%s/%s/%s" % (top, d, f)))
bad2, n_msr, n_perf = [], 0, 0
for sim, files_ in sims.items():
    table, names = {}, {}
    for f in files_:
        doc = tables[f]
        table.update(doc["Events"])
        for m in doc["Metrics"]:
            for v in m.get("Events", {}).values():
                names[layout_name(v)] = v
    if sim in ("alderlake", "lunarlake"):   # the E-cores' metrics (their events are Intel's)
        atom = pmutop_json.load(open("%s/data/atom/%s" % (top, files_[0])))
        for m in atom["Metrics"]:
            for v in m.get("Events", {}).values():
                names[layout_name(v)] = v
    amd = sim == "genoa"
    if not amd:
        out = subprocess.run([pmutop, "--sim", sim, "--list-events"], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            f_ = line.split()
            # (a server's uncore is the kernel's to program: the register source lists, never writes it)
            if len(f_) < 9 or f_[0] not in names or not f_[1].startswith("0x") or \
               names[f_[0]].startswith("UNC_"):
                continue
            e = expect(table, names[f_[0]])
            if e is None or e["fixed"]:
                continue
            # code umask cmask inv edge any [eq] PERFEVTSEL ...
            has_eq = " eq PERFEVTSEL" in out
            sel = int(f_[8 if has_eq else 7], 16)
            # the select's fields (version 6: UMASK2 at 47:40 is the umask's second byte)
            got = {"event": sel & 0xFF, "umask": (sel >> 8) & 0xFF | ((sel >> 40) & 0xFF) << 8,
                   "cmask": (sel >> 24) & 0xFF,
                   "inv": (sel >> 23) & 1, "edge": (sel >> 18) & 1, "eq": (sel >> 36) & 1,
                   "ring": {3: "all", 1: "user", 2: "kernel"}.get((sel >> 16) & 3, "none")}
            check(e, got, "msr %s %s" % (sim, names[f_[0]]), bad2)
            n_msr += 1
    out = subprocess.run([pmutop, "--sim", sim, "--source", "perf", "--list-events"],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        mt = re.match(r"\s+(\S+)\s+(\w+)/([^/]*)/(\w?)$", line)
        if not mt or mt.group(1) not in names:
            continue
        e = expect(table, names[mt.group(1)])
        if e is None or e["fixed"]:
            continue
        terms = {}
        for t in mt.group(3).split(","):
            k, _, v = t.partition("=")
            terms[k] = num(v) if v else 1
        got = {"event": terms.get("event", 0),
               "umask": terms.get("umask", terms.get("rdwrmask", 0)),
               "cmask": terms.get("cmask", terms.get("thresh", 0)), "inv": terms.get("inv", 0),
               "edge": terms.get("edge", 0), "eq": terms.get("eq", 0),
               "ring": {"k": "kernel", "u": "user", "": "all"}[mt.group(4)],
               "offcore": terms.get("offcore_rsp")}
        check(e, got, "perf %s %s" % (sim, names[mt.group(1)]), bad2)
        n_perf += 1
print("sources: %d events through the registers, %d through perf, %d wrong" %
      (n_msr, n_perf, len(bad2)))
for b in bad2[:15]:
    print("  " + b)
PYEOF
)
echo "$res" | sed 's/^/# /'
expect_match "every platform's layout: each event as the vendor writes it, with the formula's modifiers" "$res" ", 0 wrong"
n=$(printf '%s\n' "$res" | sed -n 's/^layouts: \([0-9]*\) platform files, \([0-9]*\) events checked (\([0-9]*\) with modifiers).*/\1 \2 \3/p')
set -- $n
if [ "${1:-0}" -ge 24 ] && [ "${2:-0}" -ge 5000 ] && [ "${3:-0}" -ge 300 ]; then pass "... over the data of $1 platforms, $2 events ($3 with modifiers)"; else fail "... over every platform's data" "$res"; fi
case "$res" in *"sources: "*", 0 wrong"*) pass "both sources on the emulated machines: each event as the vendor writes it" ;; *) fail "both sources on the emulated machines" "$res" ;; esac
n=$(printf '%s\n' "$res" | sed -n 's/^sources: \([0-9]*\) events through the registers, \([0-9]*\) through perf.*/\1 \2/p')
set -- $n
if [ "${1:-0}" -ge 500 ] && [ "${2:-0}" -ge 500 ]; then pass "... $1 register and $2 perf encodings checked"; else fail "... enough encodings checked" "$res"; fi
# the three overrides the issue names, as programmed
run "$PMUTOP" --list-metrics --cpu 06_6A --plan layout
expect_match "Ice Lake-SP: EXE_ACTIVITY.3_PORTS_UTIL:u0x80 goes out with umask 0x80" "$out" "event EXE_ACTIVITY.3_PORTS_UTIL.u0x80 raw event=0xA6 umask=0x80"

# the privilege modifiers counted as the vendor means them: Info_System_Kernel_Utilization =
# CPU_CLK_UNHALTED.THREAD_P:SUP / CPU_CLK_UNHALTED.THREAD is the share of unhalted cycles in ring 0,
# the scenario's kernel=0.3 (a thread's event without :SUP counts both rings: it read 1.0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$top_srcdir"/backend/sources/sim/scenarios/*.scn "$tmp/"
printf 'pmutop-scenario 1\nname kernel-share\ndescription a third of the cycles in the kernel\nseed 1\nnoise 0\nphase run 0\ncpu all util=1 ipc=1.5 kernel=0.3\n' >"$tmp/kernel-share.scn"
for src in msr perf; do
	run env PMUTOP_SCENARIO_DIR="$tmp" "$PMUTOP" --sim tigerlake:kernel-share --source $src -b -n 2 -d 0.3 -g all --format json
	got=$(printf '%s\n' "$out" | tail -1 | $PY -c 'import pmutop_json, json, sys; print(pmutop_json.loads(sys.stdin.read())["threads"][0]["metrics"]["Info_System_Kernel_Utilization"])' 2>&1)
	near "Tiger Lake ($src): Info_System_Kernel_Utilization counts ring 0 only (:SUP)" "$got" 0.3 0.02
done
