/*
 * figure: the stable figures and their vendors' spellings; see figure.h.
 * The top-down nodes are Intel's TMA names (perfmon's TmaL1 and TmaL2
 * groups), the kernel's tma_ names of a hybrid's E-cores (Gracemont's,
 * tools/perf/pmu-events/arch/x86/alderlake), and AMD's pipeline-utilisation
 * names (the kernel's amdzen4 and amdzen5 metrics: PipelineL1, PipelineL2).
 */
#include "figure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define N(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define TD "Top-down levels 1 and 2: the share of the issue slots each node took, per " \
	"socket; the vendor's name of the node in metric"
#define TD1(node, ...) { "topdown_ratio", "level=\"1\",node=\"" node "\"", TD, \
	N(__VA_ARGS__), false }
#define TD2(node, ...) { "topdown_ratio", "level=\"2\",node=\"" node "\"", TD, \
	N(__VA_ARGS__), false }
#define MEM "Memory bandwidth of each socket (and of each channel where the controllers " \
	"count them apart), bytes per second"
#define LINK "Socket links (UPI, xGMI): data bytes a second sent (tx) and received (rx) per " \
	"link, link=\"all\" the socket's sum"

const struct figure figures[] = {
	TD1("frontend_bound", "Frontend_Bound", "frontend_bound", "tma_frontend_bound"),
	TD1("bad_speculation", "Bad_Speculation", "bad_speculation", "tma_bad_speculation"),
	TD1("backend_bound", "Backend_Bound", "backend_bound", "tma_backend_bound"),
	TD1("retiring", "Retiring", "retiring", "tma_retiring"),
	TD1("smt_contention", "smt_contention"),
	TD2("fetch_latency", "Fetch_Latency", "frontend_bound_latency", "tma_ifetch_latency"),
	TD2("fetch_bandwidth", "Fetch_Bandwidth", "frontend_bound_bandwidth",
	    "tma_ifetch_bandwidth"),
	TD2("branch_mispredicts", "Branch_Mispredicts", "bad_speculation_mispredicts",
	    "tma_branch_mispredicts"),
	TD2("machine_clears", "Machine_Clears", "bad_speculation_pipeline_restarts",
	    "tma_machine_clears"),
	TD2("memory_bound", "Memory_Bound", "backend_bound_memory"),
	TD2("core_bound", "Core_Bound", "backend_bound_cpu", "tma_core_bound"),
	TD2("light_operations", "Light_Operations", "retiring_fastpath", "tma_base"),
	TD2("heavy_operations", "Heavy_Operations", "retiring_microcode", "tma_ms_uops"),
	{ "memory_bandwidth_bytes_per_second", "direction=\"read\"", MEM,
	  N("memory_bandwidth_read", "umc_mem_read_bandwidth", "read_bytes_per_s"), false },
	{ "memory_bandwidth_bytes_per_second", "direction=\"write\"", MEM,
	  N("memory_bandwidth_write", "umc_mem_write_bandwidth", "write_bytes_per_s"), false },
	{ "memory_bandwidth_bytes_per_second", "direction=\"total\"", MEM,
	  N("memory_bandwidth_total", "umc_mem_bandwidth", "dram_channel_bandwidth"), false },
	{ "link_bandwidth_bytes_per_second", "direction=\"tx\"", LINK,
	  N("upi_data_transmit_bw_link%d"), true },
	{ "link_bandwidth_bytes_per_second", "direction=\"rx\"", LINK,
	  N("upi_data_receive_bw_link%d"), true },
	{ "link_bandwidth_bytes_per_second", "direction=\"tx\",link=\"all\"", LINK,
	  N("upi_data_transmit_bw", "local_socket_outbound_data_from_all_links",
	    "all_remote_links_outbound"), false },
	{ "link_bandwidth_bytes_per_second", "direction=\"rx\",link=\"all\"", LINK,
	  N("upi_data_receive_bw"), false },
	{ "power_watts", "domain=\"package\"", "RAPL's power per socket and domain, watts",
	  N("package_watts"), false },
	{ "power_watts", "domain=\"dram\"", "RAPL's power per socket and domain, watts",
	  N("dram_watts"), false },
	{ "power_watts", "domain=\"cores\"", "RAPL's power per socket and domain, watts",
	  N("cores_watts"), false },
	/* psys: the platform's master package reads the platform's, the others 0 */
	{ "power_watts", "domain=\"platform\"", "RAPL's power per socket and domain, watts",
	  N("platform_watts"), false },
	{ "cpu_frequency_hertz", "", "The cores' clock while not halted (APERF/MPERF's, the "
	  "busy frequency), the socket's mean", N("ghz"), false },
	{ "cpu_utilization_ratio", "", "Share of the time the socket's threads were not halted",
	  N("util"), false },
	{ "cstate_residency_ratio", "level=\"core\",state=\"c6\"", "Share of the time in a "
	  "C-state: the socket's cores' mean (level core), the package (level package)",
	  N("core_c6_pct"), false },
	{ "cstate_residency_ratio", "level=\"package\",state=\"c6\"", "Share of the time in a "
	  "C-state: the socket's cores' mean (level core), the package (level package)",
	  N("pkg_c6_pct"), false },
	{ "l3_miss_latency_seconds", "", "Mean time a demand read that missed the L3 waited for "
	  "its data, per socket (AMD counts it in core clocks: not exported)",
	  N("llc_demand_data_read_miss_latency", "l3_miss_latency_ns"), false },
};
const int nfigures = (int)(sizeof(figures) / sizeof(figures[0]));

double figure_factor(const char *unit)
{
	static const struct {
		const char *unit;
		double f;
	} units[] = { { "%", 0.01 }, { "ratio", 1 }, { "B/s", 1 }, { "MB/sec", 1e6 },
		      { "MB/s", 1e6 }, { "MiB/s", 1048576.0 }, { "GHz", 1e9 }, { "ns", 1e-9 },
		      { "W", 1 } };

	for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			return units[i].f;
	return NAN;
}

int figure_metrics(const struct layout *l, const struct figure *f, int *out, int *link, int max)
{
	int n = 0;

	for (int i = 0; f->names[i] && n < max; i++)
		for (int k = 0; k < (f->per_link ? FIGURE_MAX_LINKS : 1) && n < max; k++) {
			char name[128];
			int m;

			const char *at = f->per_link ? strstr(f->names[i], "%d") : NULL;

			/* a per-link name: the link's number where it says %d */
			if (at)
				snprintf(name, sizeof(name), "%.*s%d%s", (int)(at - f->names[i]),
					 f->names[i], k, at + 2);
			else
				snprintf(name, sizeof(name), "%s", f->names[i]);
			m = layout_metric_find(l, name);
			if (m < 0 || isnan(figure_factor(l->metrics[m].unit)))
				continue;
			link[n] = f->per_link ? k : -1;
			out[n++] = m;
		}
	return n;
}
