/*
 * doctor_who: the doctor's checks of what "who uses the machine" needs (the
 * who pane, --who): the cgroup v2 tree, the right to count per cgroup (it
 * is per CPU, as system-wide counting is), and resctrl's monitoring (Intel
 * RDT, AMD QoS) for the groups' memory bandwidth and L3.  Main thread.
 */
#include "doctor_int.h"
#include "paths.h"
#include "rootfs.h"

#include <stdio.h>
#include <string.h>

void doctor_who(struct doctor_ctx *c, struct doctor_line *l)
{
	char v[256];

	if (rootfs_read_line(c->in->root, "sys/fs/cgroup/cgroup.controllers", v, sizeof(v)) &&
	    !rootfs_read_line(c->in->root, "sys/fs/cgroup/unified/cgroup.controllers", v, sizeof(v))) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "systemd's hybrid layout: the v2 tree at "
			 "%s/sys/fs/cgroup/unified gives each group's CPU time; counting per cgroup "
			 "goes through v1's perf_event hierarchy, which pmutop does not read", c->root);
		snprintf(l->fix, sizeof(l->fix), "boot with systemd.unified_cgroup_hierarchy=1 "
			 "(cgroup v2 alone) for per-cgroup counters");
		return;
	}
	if (rootfs_read_line(c->in->root, "sys/fs/cgroup/cgroup.controllers", v, sizeof(v))) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "no cgroup v2 tree at %s/sys/fs/cgroup: the who "
			 "pane has no groups (processes only)", c->root);
		snprintf(l->fix, sizeof(l->fix), "boot with systemd.unified_cgroup_hierarchy=1, or "
			 "mount -t cgroup2 none /sys/fs/cgroup");
		return;
	}
	if (!c->perf_allowed) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "cgroup v2 (controllers: %s); counting per "
			 "cgroup is per CPU and %s: --who shows CPU time and resctrl only (a user's "
			 "own processes are still counted)", v, c->perf_why[0] ? c->perf_why
			 : "the kernel does not allow it");
		snprintf(l->fix, sizeof(l->fix), "give pmutop CAP_PERFMON (setcap cap_perfmon+ep "
			 "$(command -v pmutop)), or echo 0 > /proc/sys/kernel/perf_event_paranoid");
		return;
	}
	snprintf(l->found, sizeof(l->found), "cgroup v2 (controllers: %s); per-cgroup counting "
		 "allowed: pmutop --who counts the busiest groups", v);
}

/* Whether /proc/cpuinfo's flags (under the root) name FLAG. */
static bool doctor_cpu_flag(const struct doctor_ctx *c, const char *flag)
{
	char line[8192];
	bool found = false;
	FILE *f = rootfs_fopen(c->root, "proc/cpuinfo");

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *at = strncmp(line, "flags", 5) ? NULL : strstr(line, flag);

		found = at && (at[-1] == ' ') && (at[strlen(flag)] == ' ' || at[strlen(flag)] == '\n');
	}
	if (f)
		fclose(f);
	return found;
}

void doctor_resctrl(struct doctor_ctx *c, struct doctor_line *l)
{
	char feat[256], rmids[32];

	if (!rootfs_read_line(c->in->root, "sys/fs/resctrl/info/L3_MON/mon_features", feat,
			     sizeof(feat))) {
		rootfs_read_line(c->in->root, "sys/fs/resctrl/info/L3_MON/num_rmids", rmids,
				sizeof(rmids));
		snprintf(l->found, sizeof(l->found), "mounted, L3 monitoring (%s...; %s RMIDs): the "
			 "who pane shows each monitoring group's memory bandwidth and L3 (pmutop reads "
			 "groups, it never makes one)", feat, rmids[0] ? rmids : "?");
		return;
	}
	if (doctor_cpu_flag(c, "cqm_mbm_total") || doctor_cpu_flag(c, "cqm_occup_llc")) {
		l->state = DOCTOR_WARN;
		snprintf(l->found, sizeof(l->found), "the CPU monitors L3 and memory bandwidth per "
			 "RMID (cqm flags), but resctrl is not mounted: no bandwidth per group");
		snprintf(l->fix, sizeof(l->fix), "mount -t resctrl resctrl /sys/fs/resctrl, then "
			 "make monitoring groups (mkdir /sys/fs/resctrl/mon_groups/NAME, echo PIDs > "
			 ".../tasks)");
		return;
	}
	l->state = DOCTOR_NA;
	snprintf(l->found, sizeof(l->found), "no resctrl monitoring: the CPU (or this VM) has no "
		 "cache or bandwidth monitoring (no cqm flags in /proc/cpuinfo)");
}
