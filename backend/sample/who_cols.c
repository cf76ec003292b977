/*
 * who_cols: the figures of a who row (who_snap.h), the table every writer
 * of who rows, replay and the who pane walk.  Constant: any thread.
 */
#include "who_snap.h"

#define WHO_NUM(f) .type = WHO_COL_NUM, .offset = offsetof(struct who_row, f)
#define WHO_TEXT(f) .type = WHO_COL_TEXT, .offset = offsetof(struct who_row, f), \
		    .size = sizeof(((struct who_row *)0)->f)
#define WHO_BOOL(f) .type = WHO_COL_BOOL, .offset = offsetof(struct who_row, f)

const struct who_col who_cols[] = {
	{ .key = "processes", .type = WHO_COL_INT, .offset = offsetof(struct who_row, nprocs) },
	{ .key = "cpus", WHO_NUM(cpus), .csv = true, .text = { "cpus", 6, 2 },
	  .pane = { "CPUs", 6, 2 }, .heat = true, .prom = "pmutop_who_cpus",
	  .prom_help = "CPUs a cgroup's or process's tasks kept busy (CPU time over the interval; "
		       "the 32 busiest cgroups, the 10 busiest processes)" },
	{ .key = "counted_cpus", WHO_NUM(oncpu) },
	{ .key = "cycles_per_s", WHO_NUM(ev[WHO_CYCLES]) },
	{ .key = "instructions_per_s", WHO_NUM(ev[WHO_INSTRUCTIONS]) },
	{ .key = "cache_misses_per_s", WHO_NUM(ev[WHO_CACHE_MISSES]) },
	{ .key = "ipc", .type = WHO_COL_NUM, .get = who_row_ipc, .csv = true, .counted = true,
	  .text = { "ipc", 5, 2 }, .pane = { "IPC", 5, 2 }, .prom = "pmutop_who_ipc",
	  .prom_help = "Instructions per cycle of a cgroup or process (pmutop --who; absent where "
		       "not counted this interval)" },
	{ .key = "ghz", .type = WHO_COL_NUM, .get = who_row_ghz, .csv = true, .counted = true,
	  .text = { "ghz", 5, 2 }, .pane = { "GHz", 5, 2 } },
	{ .key = "mpki", .type = WHO_COL_NUM, .get = who_row_mpki, .csv = true, .counted = true,
	  .text = { "mpki", 6, 1 }, .pane = { "MPKI", 6, 1 },
	  .prom = "pmutop_who_llc_misses_per_kilo_instructions",
	  .prom_help = "Last-level cache misses per thousand instructions of a cgroup or process "
		       "(pmutop --who)" },
	{ .key = "local_mem_per_s", WHO_NUM(ev[WHO_LOCAL_MEM]) },
	{ .key = "remote_mem_per_s", WHO_NUM(ev[WHO_REMOTE_MEM]) },
	{ .key = "mbm_total_Bps", WHO_NUM(mbm_total), .csv = true, .scale = 1e-6,
	  .text = { "mem_MB/s", 8, 1 }, .pane = { "mem MB/s", 8, 0 }, .heat = true,
	  .prom = "pmutop_who_memory_bandwidth_bytes_per_second", .prom_label = "kind=\"total\",",
	  .prom_cgroups = true,
	  .prom_help = "A cgroup's resctrl monitoring group's memory bandwidth, all (kind total) "
		       "and to local memory (kind local)" },
	{ .key = "mbm_local_Bps", WHO_NUM(mbm_local), .csv = true,
	  .prom = "pmutop_who_memory_bandwidth_bytes_per_second", .prom_label = "kind=\"local\",",
	  .prom_cgroups = true },
	{ .key = "llc_bytes", WHO_NUM(llc), .csv = true, .scale = 1.0 / 1048576,
	  .text = { "l3_MB", 6, 1 }, .pane = { "L3 MB", 5, 1 },
	  .prom = "pmutop_who_llc_occupancy_bytes", .prom_cgroups = true,
	  .prom_help = "L3 a cgroup's resctrl monitoring group holds" },
	{ .key = "age_s", WHO_NUM(age_s), .csv = true },
	{ .key = "why", WHO_TEXT(why), .csv = true, .null_empty = true },
	{ .key = "topdown", .type = WHO_COL_TOPDOWN, .offset = offsetof(struct who_row, td),
	  .csv = true, .counted = true, .prom = "pmutop_who_topdown_level1",
	  .prom_help = "The vendor's top-down level 1 of a cgroup or process, by the vendor's "
		       "metric name (pmutop --who-topdown)" },
	{ .key = "remote_share", .type = WHO_COL_NUM, .get = who_row_remote, .csv = true,
	  .counted = true, .scale = 100, .text = { "rmt%", 5, 1 }, .pane = { "Rmt%", 5, 0 },
	  .prom = "pmutop_who_remote_memory_ratio",
	  .prom_help = "Share of a cgroup's or process's loads (Intel) or data-cache fills (AMD) "
		       "from memory that a remote node served (pmutop --who, where the vendor's "
		       "events exist)" },
	{ .key = "counted", WHO_BOOL(counted) },
	{ .key = "partial", WHO_BOOL(partial) },
	{ .key = "scaled", WHO_BOOL(scaled) },
	{ .key = "rdt_why", WHO_TEXT(rdt_why), .null_empty = true },
	{ .key = "cpus_allowed", WHO_TEXT(where) },
};
const int who_ncols = (int)(sizeof(who_cols) / sizeof(who_cols[0]));

double who_col_value(const struct who_col *c, const struct who_row *r)
{
	const char *p = (const char *)r + c->offset;

	if (c->get)
		return c->get(r);
	switch (c->type) {
	case WHO_COL_NUM:
		return *(const double *)(const void *)p;
	case WHO_COL_INT:
		return *(const int *)(const void *)p;
	case WHO_COL_BOOL:
		return *(const bool *)(const void *)p;
	default:
		return NAN;
	}
}

double who_col_shown(const struct who_col *c, const struct who_row *r)
{
	return who_col_value(c, r) * (c->scale ? c->scale : 1);
}

char who_col_mark(const struct who_col *c, const struct who_row *r)
{
	return !c->counted ? ' ' : r->age_s > 0 ? '~' : r->scaled ? '*' : ' ';
}
