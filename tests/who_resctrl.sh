#!/bin/sh
# --who-resctrl on a fake root tree: a monitoring group made for each
# cgroup asked for, holding its processes (one that joins later follows),
# removed when pmutop ends and by its guard after SIGKILL; refused when the
# RMIDs would run out, and on the emulated machine.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/who_lib.sh"
plan 9

rr=$tmp/rroot
mkdir -p "$rr/sys/fs/cgroup/web.slice/api.service" "$rr/sys/fs/cgroup/batch.service" \
	"$rr/sys/fs/resctrl/info/L3_MON" "$rr/sys/fs/resctrl/mon_groups"
echo "cpu memory" >"$rr/sys/fs/cgroup/cgroup.controllers"
printf '100\n101\n' >"$rr/sys/fs/cgroup/web.slice/api.service/cgroup.procs"
echo 200 >"$rr/sys/fs/cgroup/batch.service/cgroup.procs"
echo "mbm_total_bytes" >"$rr/sys/fs/resctrl/info/L3_MON/mon_features"
echo 4 >"$rr/sys/fs/resctrl/info/L3_MON/num_rmids"
# wait_path PATH [gone]: until PATH exists (or is gone), 10 s at most
wait_path() {
	i=0
	while [ $i -lt 100 ]; do
		if [ -z "$2" ] && [ -e "$1" ]; then return 0; fi
		if [ -n "$2" ] && [ ! -e "$1" ]; then return 0; fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
"$PMUTOP" --root "$rr" --who-resctrl web.slice/api.service,/batch.service -b -n 100 -d 0.2 \
	>/dev/null 2>"$tmp/mk.err" &
mk=$!
pids="$pids $mk"
if wait_path "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-1/tasks"; then pass "--who-resctrl makes a monitoring group per cgroup"; else fail "--who-resctrl makes a monitoring group per cgroup" "$(ls -R "$rr/sys/fs/resctrl")" "$(cat "$tmp/mk.err")"; fi
expect_is "... holding the cgroup's processes, one written at a time" "$(cat "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-0/tasks" 2>&1)" "$(printf '100\n101')"
# a process that joins the cgroup later is moved at the next look, the others not again
printf '100\n101\n102\n' >"$rr/sys/fs/cgroup/web.slice/api.service/cgroup.procs"
i=0
while [ $i -lt 100 ] && ! grep -qx 102 "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-0/tasks"; do sleep 0.1; i=$((i + 1)); done
expect_is "... a process that joins the cgroup later follows into its group" "$(cat "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-0/tasks" 2>&1)" "$(printf '100\n101\n102')"
kill -TERM $mk
wait $mk 2>/dev/null
if wait_path "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-0" gone && [ ! -e "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-1" ]; then pass "... removed when pmutop ends"; else fail "... removed when pmutop ends" "$(ls "$rr/sys/fs/resctrl/mon_groups")"; fi
"$PMUTOP" --root "$rr" --who-resctrl batch.service -b -n 100 -d 0.2 >/dev/null 2>"$tmp/mk.err" &
mk=$!
pids="$pids $mk"
wait_path "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-0/tasks"
kill -KILL $mk
wait $mk 2>/dev/null
if wait_path "$rr/sys/fs/resctrl/mon_groups/pmutop-$mk-0" gone; then pass "... and by its guard after SIGKILL"; else fail "... and by its guard after SIGKILL" "$(ls "$rr/sys/fs/resctrl/mon_groups")"; fi
# the guard says so after it removed them: wait for its line (a loaded machine delays it)
i=0
while [ $i -lt 100 ] && ! grep -q "its guard removed them" "$tmp/mk.err"; do sleep 0.1; i=$((i + 1)); done
expect_match "... which says so" "$(cat "$tmp/mk.err")" "ended without removing its resctrl monitoring groups; its guard removed them"
echo 2 >"$rr/sys/fs/resctrl/info/L3_MON/num_rmids"
run "$PMUTOP" --root "$rr" --who-resctrl web.slice/api.service,batch.service -b -n 1
expect_match "refused when the RMIDs would run out, with what to do" "$err" "--who-resctrl: 2 groups asked for, and resctrl has 2 RMIDs of which 1 are in use: remove some groups"
expect_is "... nothing made" "$(ls "$rr/sys/fs/resctrl/mon_groups" | wc -l)" 0
run "$PMUTOP" $SIM --who-resctrl system.slice/nginx.service -b -n 1
expect_match "the emulated machine: refused (it has its groups)" "$err" "the emulated machine has one for each cgroup of its scenario already"
