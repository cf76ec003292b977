# The who scripts' common part (who.sh, who_root.sh, who_resctrl.sh, who_screen.sh): the
# emulated two-socket Ice Lake running the shared-server scenario through the emulated kernel,
# its cgroups' paths, a scratch directory removed at exit (with the background helpers in
# $pids), and readers of a sample's who figures.  Sourced after lib.sh.
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export TMPDIR="$tmp"
SIM="--sim icelake-sp:shared-server --source perf"
STREAM="system.slice/docker-3f2a9c1b7d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8.scope"
POD="kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod7c1f2a3b_4d5e_6f70_8192_a3b4c5d6e7f8.slice"

# who JSON PATH|pid:N KEY: the last sample's figure of that cgroup or process ("missing": null)
who() {
	printf '%s\n' "$1" | tail -1 | $PY -c '
import pmutop_json, json, sys
w = pmutop_json.loads(sys.stdin.read())["who"]
want, key = sys.argv[1], sys.argv[2]
rows = w["processes"] if want.startswith("pid:") else w["cgroups"]
r = [r for r in rows if (str(r.get("pid")) == want[4:] if want.startswith("pid:") else r["path"] == want)][0]
v = r.get(key) if key in r else w.get(key)
print("missing" if v is None else v)' "$2" "$3"
}

# whole JSON KEY: the last sample's who KEY
whole() {
	printf '%s\n' "$1" | tail -1 | $PY -c '
import pmutop_json, json, sys
v = pmutop_json.loads(sys.stdin.read())["who"][sys.argv[1]]
print("missing" if v is None else v)' "$2"
}

# dram JSON SOCKET...: those sockets' DRAM traffic in bytes a second, from the IMC's channels
dram() {
	j=$1
	shift
	printf '%s\n' "$j" | tail -1 | $PY -c '
import pmutop_json, json, sys
s = pmutop_json.loads(sys.stdin.read())
print(sum(c["metrics"]["memory_bandwidth_total"] * 1e6 for k in map(int, sys.argv[1:])
          for c in s["sockets"][k]["channels"]))' "$@"
}
