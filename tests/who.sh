#!/bin/sh
#!/bin/sh
# Who uses the machine (the who issue): cgroups and processes on the
# emulated two-socket Ice Lake running the shared-server scenario (noise 0:
# each task pinned to its own CPUs, the CPU's lines saying what it does
# there), counted per cgroup and per process through the emulated kernel
# (PERF_FLAG_PID_CGROUP, per task), their CPU time and resctrl counters
# from the cgroup, /proc and resctrl files the emulated machine writes.
# The truth, from the scenario's words:
#  - a task's CPU time: its share of its CPUs' unhalted time (the stream
#    container: 16 CPUs busy x (0.95 + 0.05)); its IPC, its CPUs' ipc; its
#    L3 misses per kilo-instruction llc_ref_per_inst x llc_miss_ratio x 1000
#    (0.09 x 0.85: 76.5); its clock the CPUs' (nominal, 2.3 GHz);
#  - a monitoring group's memory bandwidth: its tasks' mbm share of their
#    socket's DRAM traffic, every channel's read and write lines x 64 (the
#    IMC pane's); the default group the rest (1 - the tasks' shares), so the
#    groups and the default group sum to the sockets' traffic;
#  - 23 cgroups hold processes: 16 counted at once, 12 busiest, 4 places
#    the other 11 take in turns.
# Then the rotation of the groups, --who-top, the top-down level 1 per
# cgroup and process, the text and CSV, a recording and its replay, and
# Prometheus.  The fake root tree is who_root.sh's, --who-resctrl
# who_resctrl.sh's, the screen who_screen.sh's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/who_lib.sh"
plan 62

run "$PMUTOP" $SIM --who -b -n 4 -d 0.5 --format json
expect_rc "--who counts the emulated server's cgroups" 0
near "the stream container keeps 16 CPUs busy" "$(who "$out" "$STREAM" cpus)" 16 0.02
near "... at its CPUs' IPC" "$(who "$out" "$STREAM" ipc)" 0.35 0.02
near "... 76.5 L3 misses a thousand instructions (0.09 x 0.85)" "$(who "$out" "$STREAM" mpki)" 76.5 0.02
near "... at the nominal 2.3 GHz" "$(who "$out" "$STREAM" ghz)" 2.3 0.02
near "... a quarter of its loads from DRAM remote (MEM_LOAD_L3_MISS_RETIRED: 1e7 of 4e7 a CPU)" "$(who "$out" "$STREAM" remote_share)" 0.25 0.02
near "... PostgreSQL a tenth" "$(who "$out" system.slice/postgresql.service remote_share)" 0.1 0.02
near "... the pod (a parent, its container's counts) a fifth" "$(who "$out" "$POD" remote_share)" 0.2 0.02
near "... postgres, counted per task, a tenth" "$(who "$out" pid:1201 remote_share)" 0.1 0.02
expect_is "... nginx loads nothing from DRAM: no share" "$(who "$out" system.slice/nginx.service remote_share)" missing
expect_is "... by the vendor's event names" "$(whole "$out" remote_events)" "['MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM', 'MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM']"
near "PostgreSQL: 8 CPUs 80 % busy, 90 % of it its own" "$(who "$out" system.slice/postgresql.service cpus)" 5.76 0.02
near "... IPC 0.9" "$(who "$out" system.slice/postgresql.service ipc)" 0.9 0.02
near "... 12 misses a thousand instructions (0.03 x 0.4)" "$(who "$out" system.slice/postgresql.service mpki)" 12 0.02
near "the pod's container: 12 CPUs x 0.9" "$(who "$out" "$POD/cri-containerd-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b.scope" cpus)" 10.8 0.02
near "... IPC 2.4" "$(who "$out" "$POD/cri-containerd-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b.scope" ipc)" 2.4 0.02
near "the pod (a parent): its container's IPC" "$(who "$out" "$POD" ipc)" 2.4 0.02
expect_is "... named as a pod" "$(who "$out" "$POD" name)" "pod 7c1f2a3b"
expect_is "the stream container named as docker's" "$(who "$out" "$STREAM" name)" "docker 3f2a9c1b7d4e"
near "the user's build: 8 CPUs 90 % busy, 95 % of it its two processes" "$(who "$out" user.slice/user-1000.slice/session-3.scope cpus)" 6.84 0.02
near "make, one process: half of those CPUs' time" "$(who "$out" pid:7001 cpus)" 3.6 0.02
near "cc1, counted per task: IPC 1.1" "$(who "$out" pid:7002 ipc)" 1.1 0.02
near "stream's process: 16 x 0.95" "$(who "$out" pid:4101 cpus)" 15.2 0.02
near "... 76.5 misses a thousand instructions per task too" "$(who "$out" pid:4101 mpki)" 76.5 0.02
s0=$(dram "$out" 0)
near "resctrl: the stream container's group moves 52 % of socket 0's DRAM traffic" "$(who "$out" "$STREAM" mbm_total_Bps)" "$($PY -c "print(0.52 * $s0)")" 0.02
near "... PostgreSQL's 90 % local" "$(who "$out" system.slice/postgresql.service mbm_local_Bps)" "$($PY -c "print(0.9 * 0.1 * $s0)")" 0.02
near "... the stream container holds 25 MiB of L3" "$(who "$out" "$STREAM" llc_bytes)" 26214400 0.001
all=$(dram "$out" 0 1)
near "the whole machine's: every group's and the default group's = the sockets' DRAM traffic" "$(who "$out" "" mbm_total_Bps)" "$all" 0.02
groups=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
w = pmutop_json.loads(sys.stdin.read())["who"]["cgroups"]
paths = [r["path"] for r in w]
print(sum(r["mbm_total_Bps"] for r in w if r["mbm_total_Bps"] is not None and r["path"]
          and not any(p.startswith(r["path"] + "/") for p in paths)))')
near "... the monitoring groups alone: all of it but the unmonitored share (socket 0 36 %, socket 1 69 %)" "$groups" "$($PY -c "s1 = $all - $s0; print($all - 0.36 * $s0 - 0.69 * s1)")" 0.02
expect_is "16 groups counted at once" "$(whole "$out" counted)" 16
expect_match "... and the rest take turns, said" "$(whole "$out" note)" "16 of 23 groups counted at a time: the 12 busiest, the other 11 take turns for 4 places"

# the rotation: every small service gets its turn, its figures kept with their age
run "$PMUTOP" $SIM --who -b -n 8 -d 0.25 --format json
turns=$(printf '%s\n' "$out" | tail -1 | $PY -c '
import pmutop_json, json, sys
w = pmutop_json.loads(sys.stdin.read())["who"]["cgroups"]
svc = [r for r in w if r["path"].startswith("system.slice/svc")]
print(len(svc), sum(r["ipc"] is not None for r in svc), sum(r["age_s"] > 0 for r in svc),
      all(abs(r["ipc"] - 0.7) < 0.014 for r in svc if r["ipc"] is not None))')
expect_is "after 8 intervals all 18 small services have had a turn (IPC 0.7), some from an earlier one" "$(echo "$turns" | cut -d' ' -f1,2,4)" "18 18 True"
case "$(echo "$turns" | cut -d' ' -f3)" in 0) fail "... those from an earlier turn carry their age" "$turns" ;; *) pass "... those from an earlier turn carry their age ($turns)" ;; esac

run "$PMUTOP" $SIM --who --who-top 4 -b -n 3 -d 0.3 --format json
expect_is "--who-top 4: four groups at once" "$(whole "$out" counted)" 4
run "$PMUTOP" $SIM --who-top 0 -b -n 1
expect_match "--who-top 0 is refused with the range" "$err" "--who-top takes how many cgroups are counted at once, 1 to 256"

# the top-down level 1 per cgroup and process (--who-topdown): the vendor's level-1 metrics
# over each one's own slots and topdown-* counts.  Truth from the scenario's words and the
# documents': TOPDOWN.SLOTS counts 5 slots per unhalted cycle on Ice Lake, all of them the
# thread's (its sibling idles); Retiring = ipc x uops_per_inst (default 1.1) / 5, front end
# and bad speculation as the scenario's lines say, back end the rest.  Within 2 % or 0.4
# points (the PERF_METRICS field's step, 100 / 255).  8 groups at once: 8 x 160 CPUs x 10
# events fit the open-file limit.
tdnear() { # WHAT JSON PATH|pid:N RET FE BS
	got=$(printf '%s\n' "$2" | tail -1 | $PY -c '
import pmutop_json, json, sys
w = pmutop_json.loads(sys.stdin.read())["who"]
want = sys.argv[1]
rows = w["processes"] if want.startswith("pid:") else w["cgroups"]
r = [r for r in rows if (str(r.get("pid")) == want[4:] if want.startswith("pid:") else r["path"] == want)][0]
ret, fe, bs = map(float, sys.argv[2:5])
t = dict(Retiring=ret, Frontend_Bound=fe, Bad_Speculation=bs, Backend_Bound=100 - ret - fe - bs)
td = r.get("topdown") or {}
bad = ["%s %s, truth %.2f" % (k, td.get(k), v) for k, v in t.items()
       if td.get(k) is None or abs(td[k] - v) > max(0.02 * v, 100 / 255.0)]
print(" ".join(bad) if bad else "ok")' "$3" "$4" "$5" "$6")
	expect_is "$1" "$got" ok
}
run sh -c "ulimit -n 20000 2>/dev/null; exec '$PMUTOP' $SIM --who-topdown --who-top 8 -b -n 3 -d 0.4 --format json --record '$tmp/td.jsonl'"
expect_is "--who-topdown: level 1 by the vendor's names" "$(whole "$out" topdown_metrics)" "['Retiring', 'Frontend_Bound', 'Bad_Speculation', 'Backend_Bound']"
tdnear "... the stream container: Retiring 8.4 (0.35 x 1.2 / 5), front end 4, bad speculation 1, back end 86.6" "$out" "$STREAM" 8.4 4 1
tdnear "... PostgreSQL: Retiring 19.8 (0.9 x 1.1 / 5), front end 15, bad speculation 5" "$out" system.slice/postgresql.service 19.8 15 5
tdnear "... the pod (a parent, its container's counts): Retiring 52.8 (2.4 x 1.1 / 5)" "$out" "$POD" 52.8 5 2
tdnear "... cc1, counted per task: Retiring 24.2 (1.1 x 1.1 / 5), front end 30, bad speculation 8" "$out" pid:7002 24.2 30 8
live=$out
run "$PMUTOP" --replay "$tmp/td.jsonl" -b --format json
expect_is "... a recording keeps it: the replay's container's Backend_Bound" "$(who "$out" "$STREAM" topdown)" "$(who "$live" "$STREAM" topdown)"
run "$PMUTOP" $SIM --who -b -n 2 -d 0.3 --format json
expect_match "without it: none, and how to have it" "$(whole "$out" topdown_why)" "T in the who pane, or --who-topdown (7 events more per CPU per group)"
run sh -c "ulimit -n 6000 && exec '$PMUTOP' $SIM --who-topdown --who-top 4 -b -n 2 -d 0.3 --format json"
expect_match "past the open-file limit: not counted, and what would hold it" "$(whole "$out" topdown_why)" "top-down level 1 not counted: 4 groups with its 7 events more need 7728 open files, past the limit (6000)"
# a hybrid laptop: its P- and E-cores' trees differ, so level 1 per cgroup is n/a, said why
mkdir -p "$tmp/scn"
cp "$top_srcdir"/backend/sources/sim/scenarios/*.scn "$tmp/scn/"
printf 'pmutop-scenario 1\nname one-task\ndescription a service on four CPUs\nseed 1\nnoise 0\nphase run 0\ncpu all util=0.5 ipc=1\ntask 100 system.slice/a.service cpus=0-3 share=1 comm=a\n' >"$tmp/scn/one-task.scn"
run env PMUTOP_SCENARIO_DIR="$tmp/scn" "$PMUTOP" --sim alderlake:one-task --source perf --who-topdown -b -n 2 -d 0.3 --format json
expect_match "a hybrid: level 1 per cgroup n/a, and why" "$(whole "$out" topdown_why)" "a hybrid's P- and E-cores have trees of their own"
# AMD Zen 4 (genoa): its level 1 is AMD's pipeline utilisation, five metrics adding up to 100;
# its remote share from the demand fills of DRAM or I/O near and far (3e6 and 1e6 lines a second)
printf 'pmutop-scenario 1\nname amd-task\ndescription a service on four CPUs of a Genoa\nseed 1\nnoise 0\nphase run 0\ncpu all util=0.5 ipc=1\ncpu 0-3 util=1 ipc=1 local_dram_read_lines_per_s=3e6 remote_dram_read_lines_per_s=1e6\ntask 100 system.slice/a.service cpus=0-3 share=1 comm=a\n' >"$tmp/scn/amd-task.scn"
run env PMUTOP_SCENARIO_DIR="$tmp/scn" "$PMUTOP" --sim genoa:amd-task --source perf --who-topdown --who-top 4 -b -n 2 -d 0.3 --format json
expect_is "Zen 4: level 1 per cgroup by AMD's names" "$(whole "$out" topdown_metrics)" "['frontend_bound', 'bad_speculation', 'backend_bound', 'smt_contention', 'retiring']"
near "... adding up to 100" "$(who "$out" system.slice/a.service topdown | $PY -c 'import ast, sys; print(sum(ast.literal_eval(sys.stdin.read()).values()))')" 100 0.005
near "... a quarter of its fills from DRAM remote (ls_dmnd_fills_from_sys.dram_io_far)" "$(who "$out" system.slice/a.service remote_share)" 0.25 0.02

# without --who: the CPU time and resctrl, the counters n/a with why
run "$PMUTOP" $SIM --who-procs 5 -b -n 3 -d 0.3 --format json
near "without --who: the CPU time still" "$(who "$out" "$STREAM" cpus)" 16 0.02
expect_is "... no IPC" "$(who "$out" "$STREAM" ipc)" missing
expect_match "... and why" "$(who "$out" "$STREAM" why)" "counted per cgroup with --who"
run "$PMUTOP" --sim icelake-sp:shared-server --source msr --who -b -n 2 -d 0.3 --format json
expect_match "the register source: counted per cgroup only through the kernel" "$(who "$out" "$STREAM" why)" "through the kernel (--source perf)"
run "$PMUTOP" --sim icelake-sp --source perf --who -b -n 1 -d 0.3 --format json
expect_match "an emulated machine running no tasks: n/a, and where to see some" "$(whole "$out" why)" "--sim icelake-sp:shared-server"

# CSV and text carry the same rows
run "$PMUTOP" $SIM --who -b -n 2 -d 0.3 --format csv
expect_match "CSV: the who columns" "$(printf '%s\n' "$out" | head -1)" ",who_path,who_name,who_pid,who_cpus,who_ipc,who_ghz,who_mpki,who_mbm_total_Bps"
expect_match "... the remote share last" "$(printf '%s\n' "$out" | head -1)" ",who_topdown,who_remote_share"
expect_match "... a cgroup row with its path" "$out" ",cgroup,,,,"
run "$PMUTOP" $SIM --who -b -n 2 -d 0.3
expect_match "text: a who table naming the container" "$out" "docker 3f2a9c1b7d4e  $STREAM"

# a recording keeps who; its replay gives the same rows back; a bad who in it is named
run "$PMUTOP" $SIM --who -b -n 3 -d 0.3 --format json --record "$tmp/who.jsonl"
live=$out
run "$PMUTOP" --replay "$tmp/who.jsonl" -b --format json
expect_is "a replay's who: the recorded container's IPC" "$(who "$out" "$STREAM" ipc)" "$(who "$live" "$STREAM" ipc)"
expect_is "... and its processes" "$(who "$out" pid:7002 cpus)" "$(who "$live" pid:7002 cpus)"
sed 's/"depth":2,/"depth":7,/' "$tmp/who.jsonl" >"$tmp/bad.jsonl"
run "$PMUTOP" --replay "$tmp/bad.jsonl" -b --format json
expect_match "a recording whose who rows skip a level: said, with the line" "$err" "a who cgroup is deeper than one below the row before it"

# Prometheus: a bounded number of series, the container's IPC
. "$top_srcdir/tests/http_lib.sh"
port=$(free_port)
sh -c "ulimit -n 20000 2>/dev/null; exec '$PMUTOP' $SIM --who-topdown --who-top 8 -d 0.5 --serve '127.0.0.1:$port'" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pids="$pids $!"
wait_http "http://127.0.0.1:$port/metrics"
# until a sample with the container's counters and level 1 is served (its first interval has none)
i=0
while [ $i -lt 200 ]; do
	curl -s "http://127.0.0.1:$port/metrics" >"$tmp/metrics.txt"
	ipc=$(sed -n 's/^pmutop_who_ipc{name="docker 3f2a9c1b7d4e".*} //p' "$tmp/metrics.txt")
	ret=$(sed -n 's/^pmutop_who_topdown_level1{name="docker 3f2a9c1b7d4e",.*metric="Retiring".*} //p' "$tmp/metrics.txt")
	[ -n "$ipc" ] && [ -n "$ret" ] && break
	sleep 0.1
	i=$((i + 1))
done
near "Prometheus: the container's IPC, labelled by name and cgroup" "${ipc:-0}" 0.35 0.02
near "... its top-down level 1 by the vendor's metric name (Retiring 8.4)" "${ret:-0}" 8.4 0.02
n=$(grep -c '^pmutop_who_cpus{pid=' "$tmp/metrics.txt")
expect_is "... the 10 busiest processes of 24, no more" "$n" 10
