/*
 * serve_api: the server's JSON documents about the run (jansson):
 * /api/v1/topology and /api/v1/layout.  Made once when the server starts
 * (both describe what does not change while pmutop runs).  Any thread.
 */
#ifndef PMUTOP_SERVE_API_H
#define PMUTOP_SERVE_API_H

#include "frontend.h"

/*
 * {"source", "sockets": [{"index", "os_id", "numa_nodes": [...], "cores":
 * [{"index", "os_core_id", "threads": [{"cpu", "online"}]}]}], "numa":
 * [{"node", "socket", "mem_total_bytes"}], "hwloc_xml"}; malloc'd, or NULL.
 */
char *serve_api_topology(const struct topo *t);

/*
 * {"name", "file", "groups": [{"name", "key", "title", "help", "pmu",
 * "default_on", "events": [{"name", "spec"}]}], "metrics": [{"name",
 * "unit", "scope", "group", "help", "prometheus", "prometheus_factor"}]};
 * malloc'd, or NULL.
 */
char *serve_api_layout(const struct layout *l);

#endif
