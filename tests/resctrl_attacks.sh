#!/bin/sh
# --who-resctrl removes only what it made (issue 44.6): root's pmutop on a
# --root tree whose resctrl directory another user may write refuses to make
# anything there; on a tree it may write, a monitoring group swapped for a
# link to another directory never makes root delete that directory's tasks,
# a FIFO put where the group's tasks file is never blocks pmutop (SIGTERM
# ends it at once), and the guard that cleans up after SIGKILL removes
# pmutop's group where it was moved to, never a directory that took its name.
# (The swaps on a tree root may write are made here by root, standing in for
# what the ownership rule keeps other users from doing.)
. "$top_srcdir/tests/lib.sh"
plan 13
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=""
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
rr=$tmp/root
mkdir -p "$rr/sys/fs/cgroup/web.service" "$rr/sys/fs/resctrl/info/L3_MON" \
	"$rr/sys/fs/resctrl/mon_groups/victim"
echo "cpu memory" >"$rr/sys/fs/cgroup/cgroup.controllers"
printf '100\n' >"$rr/sys/fs/cgroup/web.service/cgroup.procs"
echo "mbm_total_bytes" >"$rr/sys/fs/resctrl/info/L3_MON/mon_features"
echo 16 >"$rr/sys/fs/resctrl/info/L3_MON/num_rmids"
echo 4242 >"$rr/sys/fs/resctrl/mon_groups/victim/tasks"
mg=$rr/sys/fs/resctrl/mon_groups

# wait_for TEST...: until the test holds (20 s at most)
wait_for() {
	i=0
	while [ $i -lt 200 ]; do
		if "$@"; then return 0; fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# ---- a tree another user may write: nothing made, saying why
chown nobody "$mg"
run "$PMUTOP" --root "$rr" --who-resctrl web.service -b -n 1 -d 0.2
expect_match "mon_groups another user owns: refused, with the reason" "$err" "refusing to write resctrl monitoring groups under --root $rr: sys/fs/resctrl/mon_groups belongs to user $(id -u nobody)"
expect_is "... nothing made there" "$(ls "$mg")" victim
chown root "$mg"
chmod 777 "$rr/sys/fs/resctrl"
run "$PMUTOP" --root "$rr" --who-resctrl web.service -b -n 1 -d 0.2
expect_match "resctrl's directory writable by every user: refused" "$err" "sys/fs/resctrl is writable by every user (mode 0777)"
chmod 755 "$rr/sys/fs/resctrl"

# ---- the group swapped for a link to another group: that group's tasks stay
"$PMUTOP" --root "$rr" --who-resctrl web.service -b -n 1000 -d 0.2 >/dev/null 2>"$tmp/a.err" &
mk=$!
pids="$pids $mk"
wait_for test -e "$mg/pmutop-$mk-0/tasks"
mv "$mg/pmutop-$mk-0" "$mg/moved"
ln -s victim "$mg/pmutop-$mk-0"
kill -TERM $mk
wait $mk
expect_is "a group swapped for a link to another: pmutop ends on SIGTERM (143)" "$?" 143
expect_is "... the other group's tasks file is still there" "$(cat "$mg/victim/tasks" 2>&1)" 4242
if [ ! -e "$mg/moved" ]; then pass "... and pmutop's own group, moved aside, is removed (found by its inode)"; else fail "... pmutop's own group, moved aside, is removed" "$(ls -l "$mg")"; fi
rm -f "$mg/pmutop-$mk-0"

# ---- a FIFO where the group's tasks file is: pmutop never waits on it
"$PMUTOP" --root "$rr" --who-resctrl web.service --who-procs 1 -b -n 1000 -d 0.2 --format json >"$tmp/b.out" 2>"$tmp/b.err" &
mk=$!
pids="$pids $mk"
wait_for test -e "$mg/pmutop-$mk-0/tasks"
rm "$mg/pmutop-$mk-0/tasks"
mkfifo "$mg/pmutop-$mk-0/tasks"
# a new process joins the cgroup: pmutop moves it at its next look, opening the tasks file
# (for writing, a FIFO nobody reads: a blocking open would wait for ever)
printf '100\n101\n' >"$rr/sys/fs/cgroup/web.service/cgroup.procs"
if wait_for grep -q "cannot open mon_groups/pmutop-$mk-0/tasks: not a regular file" "$tmp/b.out"; then pass "a FIFO as the group's tasks: not written, and said (the who view's resctrl note)"; else fail "a FIFO as the group's tasks: not written, and said" "$(tail -c 600 "$tmp/b.out")"; fi
kill -TERM $mk
i=0
while kill -0 $mk 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
if ! kill -0 $mk 2>/dev/null; then pass "a FIFO as the group's tasks: SIGTERM still ends pmutop at once"; else fail "a FIFO as the group's tasks: SIGTERM still ends pmutop at once" "$(cat "$tmp/b.err")"; kill -KILL $mk; fi
wait $mk 2>/dev/null
if [ ! -e "$mg/pmutop-$mk-0" ]; then pass "... its group removed"; else fail "... its group removed" "$(ls -l "$mg")"; fi

# ---- after SIGKILL: the guard removes pmutop's group, not a directory that took its name
"$PMUTOP" --root "$rr" --who-resctrl web.service -b -n 1000 -d 0.2 >/dev/null 2>"$tmp/c.err" &
mk=$!
pids="$pids $mk"
wait_for test -e "$mg/pmutop-$mk-0/tasks"
mv "$mg/pmutop-$mk-0" "$mg/elsewhere"
mkdir "$mg/pmutop-$mk-0"
echo 77 >"$mg/pmutop-$mk-0/tasks"
kill -KILL $mk
wait $mk 2>/dev/null
wait_for grep -q "its guard" "$tmp/c.err"
expect_match "SIGKILL: the guard says what it did" "$(cat "$tmp/c.err")" "ended without removing its resctrl monitoring groups; its guard removed them"
if [ ! -e "$mg/elsewhere" ]; then pass "... pmutop's group, moved aside, removed by its inode"; else fail "... pmutop's group, moved aside, removed by its inode" "$(ls -l "$mg")"; fi
expect_is "... the directory that took its name left as it was" "$(cat "$mg/pmutop-$mk-0/tasks" 2>&1)" 77
expect_is "... and the other groups too" "$(cat "$mg/victim/tasks" 2>&1)" 4242
