/*
 * perfmon_own: the uncore groups pmutop writes of its own beside the
 * vendor's metrics (perfmon_uncore): RAPL's power per domain, a client's
 * memory controllers' free-running counters, on Zen 2 and 3 each
 * channel's DRAM bandwidth over the data fabric's beats, on Intel's
 * servers each UPI link's utilisation and speed and the cores' misses to
 * CXL memory; and every execution port of the cores.  Pure functions of
 * their inputs (the own files read once a layout); they print layout text
 * to F.
 */
#ifndef PMUTOP_PERFMON_OWN_H
#define PMUTOP_PERFMON_OWN_H

#include <stdbool.h>
#include <stdio.h>

#include "perfmon.h"

struct perfmon_layout_config;

/*
 * pmutop's own groups that stand in files (layouts/own/NAME.layout, parts:
 * layout_parse_part) and the layouts made from the vendors' data include,
 * a group each where the machine has it: power (RAPL's domains), cstate
 * (core and package C6), memory (a client's free-running controllers).
 */
enum perfmon_own_file {
	PERFMON_OWN_POWER, PERFMON_OWN_CSTATE, PERFMON_OWN_MEMORY, PERFMON_OWN_FILES
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

/* RAPL's groups, a domain each the power PMU has (C's rapl); how many; into F unless NULL. */
int perfmon_own_power(const struct perfmon_layout_config *c, bool amd, FILE *f);
/* The C-state groups (cstate_core, cstate_pkg; none on AMD): how many; into F unless NULL. */
int perfmon_own_cstate(const struct perfmon_layout_config *c, bool amd, FILE *f);

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
void perfmon_own_client_memory(const struct perfmon_layout_config *c, FILE *f);

/* Zen 2/3: DRAM per channel over the fabric, ROOM groups at most; how many. */
int perfmon_own_fabric_channels(const struct perfmon *p, const struct perfmon_layout_config *cfg,
				FILE *f, int room, bool write);

/* Each UPI link's utilisation sent and received: 2 groups, or 0 (ROOM, the data). */
int perfmon_own_upi(const struct perfmon *p, const struct perfmon_layout_config *cfg, FILE *f,
		    int room);

/* Each UPI link's speed: events and metrics in the group being written (a counter a link). */
void perfmon_own_upi_speed(const struct perfmon *p, const struct perfmon_layout_config *cfg,
			   FILE *f);

/*
 * Every execution port of the (P-)cores: the vendor's UOPS_DISPATCHED.PORT_*
 * events (a port or a set of ports each) over CPU_CLK_UNHALTED.DISTRIBUTED,
 * one group of key 6 on BUDGET counters (HYBRID: the P-cores'); 1 when the
 * data has them (written when F is not NULL), else 0.
 */
int perfmon_own_ports(const struct perfmon *p, bool hybrid, int budget, FILE *f);

/* The cores' L3 misses to CXL memory: 1 group, or 0 (ROOM, the data). */
int perfmon_own_cxl(const struct perfmon *p, const struct perfmon_layout_config *cfg, FILE *f,
		    int room);

#endif
