/*
 * perfmon_own: the uncore groups pmutop writes of its own beside the
 * vendor's metrics (perfmon_uncore): RAPL's power per domain, a client's
 * memory controllers' free-running counters, on Zen 2 and 3 each
 * channel's DRAM bandwidth over the data fabric's beats, on Intel's
 * servers each UPI link's utilisation and speed and the cores' misses to
 * CXL memory (the files' groups over the vendor's events:
 * perfmon_own_vendor.c); and every execution port of the cores.  Pure
 * functions of their inputs (the own files read once a layout); they make
 * their groups through a layout builder (layout_build.h).
 */
#ifndef PMUTOP_PERFMON_OWN_H
#define PMUTOP_PERFMON_OWN_H

#include <stdbool.h>
#include <stdio.h>

#include "layout_build.h"

#include "perfmon.h"

struct perfmon_layout_config;

/*
 * pmutop's own groups that stand in files (layouts/own/NAME.layout, parts:
 * layout_parse_part) and the layouts made from the vendors' data include,
 * a group each where the machine has it: power (RAPL's domains), cstate
 * (core and package C6), memory (a client's free-running controllers);
 * links (each UPI link's use and speed) and cxl (memory behind CXL), every
 * group of theirs that the platform's data has the events of.
 */
enum perfmon_own_file {
	PERFMON_OWN_POWER, PERFMON_OWN_CSTATE, PERFMON_OWN_MEMORY,
	/* groups over the vendor's events ("event NAME vendor"): the UPI links, CXL memory */
	PERFMON_OWN_LINKS, PERFMON_OWN_CXL,
	PERFMON_OWN_FILES
};

struct perfmon_own {
	char *text[PERFMON_OWN_FILES];
};

/*
 * Read and check the files of LAYOUT_DIR/own (NULL: paths_layout_dir's)
 * into O: each parses and has the groups the generator takes.  0, or -errno
 * with ERR ("FILE:LINE:COL: expected ..." and what to do).
 */
int perfmon_own_load(const char *layout_dir, struct perfmon_own *o, char *err, size_t errlen);
void perfmon_own_free(struct perfmon_own *o);

/* RAPL's groups, a domain each the power PMU has (C's rapl); how many; through B unless NULL. */
int perfmon_own_power(const struct perfmon_layout_config *c, bool amd, struct layout_build *b);
/* The C-state groups (cstate_core, cstate_pkg; none on AMD): how many; through B unless NULL. */
int perfmon_own_cstate(const struct perfmon_layout_config *c, bool amd, struct layout_build *b);

/*
 * pmutop's condition for node M of a top-down tree whose vendor publishes no
 * thresholds (AMD's pipeline utilization: Linux's data has none), into BUF:
 * M is the largest of its level's nodes the layout counts (SHOWN(CTX, j)),
 * under a parent that is the largest of its own, so that the tree pane, the
 * bottleneck line and drill flag it as they flag the vendors' nodes.  false:
 * the vendor has thresholds, or M is no tree node.
 */
bool perfmon_own_tree_threshold(const struct perfmon *p, int m,
				bool (*shown)(const void *ctx, int j), const void *ctx, char *buf,
				size_t len);

/* A client's memory controllers: the socket's read and write bandwidth. */
void perfmon_own_client_memory(const struct perfmon_layout_config *c, struct layout_build *b);

/* Zen 2/3: DRAM per channel over the fabric, ROOM groups at most; how many. */
int perfmon_own_fabric_channels(const struct perfmon *p, const struct perfmon_layout_config *cfg,
				struct layout_build *b, int room, bool write);

/*
 * The groups of own file K over the vendor's events (perfmon_own_vendor.c):
 * each group of the file, in its order, whose events P's data has, ROOM at
 * most, through B (its events with the data's encodings, the part's facts as
 * C's numbers, a group of the UPI links resolved per link); how many.
 */
int perfmon_own_vendor(const struct perfmon *p, const struct perfmon_layout_config *c,
		       enum perfmon_own_file k, struct layout_build *b, int room);

/* Whether TEXT (PATH) has only the vendor's events ("event NAME vendor"): 0, or -EINVAL and ERR. */
int perfmon_own_vendor_check(const char *text, const char *path, char *err, size_t errlen);

/*
 * Own file K's group GROUP, named as the vendor's group being written
 * (UPI), adds its events and metrics to it (resolved as
 * perfmon_own_vendor's), where they are COUNTERS at most and the data has
 * them: whether it did.
 */
bool perfmon_own_vendor_into(const struct perfmon *p, const struct perfmon_layout_config *c,
			     enum perfmon_own_file k, const char *group, int counters, struct layout_build *b);

/*
 * Every execution port of the (P-)cores: the vendor's UOPS_DISPATCHED.PORT_*
 * events (a port or a set of ports each) over CPU_CLK_UNHALTED.DISTRIBUTED,
 * one group of key 6 on BUDGET counters (HYBRID: the P-cores'); 1 when the
 * data has them (made when B is not NULL), else 0.
 */
int perfmon_own_ports(const struct perfmon *p, bool hybrid, int budget, struct layout_build *b);

#endif
