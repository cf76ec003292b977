/*
 * perfmon_own: the uncore groups pmutop writes of its own beside the
 * vendor's metrics in a layout made from the vendor's data; see
 * perfmon_own.h.
 */
#include "perfmon_own.h"
#include "layout.h"
#include "perfmon_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * RAPL's power PMU: each domain's energy per socket, in watts, a group per
 * domain the kernel has (RAPL unknown: package and DRAM, which then say
 * what is missing; none on AMD, counted through perf only).  How many groups.
 */
int perfmon_own_power(FILE *f, unsigned rapl, bool amd, bool write)
{
	static const struct {
		unsigned bit;
		const char *group, *event, *alias, *metric, *help;
	} dom[] = {
		{ PERFMON_RAPL_PKG, "Power", "pkg_joules", "energy-pkg", "package_watts",
		  "Package power: RAPL's package energy (the power PMU's energy-pkg, in joules by its "
		  ".scale) over the interval" },
		{ PERFMON_RAPL_RAM, "Power.ram", "ram_joules", "energy-ram", "dram_watts",
		  "DRAM power: RAPL's DRAM energy (energy-ram) over the interval" },
		{ PERFMON_RAPL_CORES, "Power.cores", "cores_joules", "energy-cores", "cores_watts",
		  "The cores' power: RAPL's PP0 energy (energy-cores) over the interval" },
	};
	int n = 0;

	if (!rapl && !amd) /* the msr source reads Intel's RAPL MSRs: package and DRAM */
		rapl = PERFMON_RAPL_PKG | PERFMON_RAPL_RAM;
	for (size_t i = 0; i < sizeof(dom) / sizeof(dom[0]); i++) {
		if (!(rapl & dom[i].bit))
			continue;
		n++;
		if (!write)
			continue;
		fprintf(f, "\ngroup %s\n  key w\n  title \"Power: RAPL energy per socket (the kernel's "
			"power PMU)\"\n  default on\n  pmu power\n  event %s %s\n", dom[i].group,
			dom[i].event, dom[i].alias);
		fprintf(f, "  metric %s socket W = %s / seconds\n  help ", dom[i].metric, dom[i].event);
		perfmon_layout_quoted(f, dom[i].help);
		fprintf(f, "\nend\n");
	}
	return n;
}

/* A client's memory controllers (free-running counters): the socket's read and write bandwidth. */
void perfmon_own_client_memory(FILE *f)
{
	fprintf(f, "\ngroup Memory\n  key 9\n  title \"Memory bandwidth (the controllers' free-running "
		"counters, uncore_imc_free_running)\"\n  default on\n  pmu imc_free\n"
		"  event data_read_mib data_read\n  event data_write_mib data_write\n"
		"  metric read_bytes_per_s socket B/s = data_read_mib * 1048576 / seconds\n"
		"  help \"DRAM read bandwidth: the kernel's data_read (64-byte lines, in MiB by its "
		".scale) of every memory controller\"\n"
		"  metric write_bytes_per_s socket B/s = data_write_mib * 1048576 / seconds\n"
		"  help \"DRAM write bandwidth: the kernel's data_write\"\n"
		"  metric dram_peak_pct socket %% = 100 * (read_bytes_per_s + write_bytes_per_s) / "
		"dram_peak\n  help \"Read + write bandwidth as a share of the channels' peak (DIMM "
		"MT/s x 8 bytes a channel: --dram-mts, else the machine's DIMM speed)\"\n"
		"  thresholds warn 70 crit 90\nend\n");
}

/*
 * Zen 2 and 3 count DRAM in the data fabric only, one event per channel
 * (dram_channel_data_controller_N: "requests with data (64B)"), which the
 * vendor's metric sums per socket: pmutop's own per-channel bandwidth over
 * them, the channels four to a group (the fabric's counters) in a chain that
 * takes turns; the machine's channels where C knows them.  How many groups
 * (ROOM at most; WRITE: write them).
 */
int perfmon_own_fabric_channels(const struct perfmon *p, const struct perfmon_layout_config *cfg,
				FILE *f, int room, bool write)
{
	static const char base[] = "dram_channel_data_controller_";
	int ch[LAYOUT_MAX_CHANNELS], n = 0, groups;

	for (int c = 0; c < LAYOUT_MAX_CHANNELS; c++) {
		char name[64];

		ch[c] = -1;
		snprintf(name, sizeof(name), "%s%d", base, c);
		for (int v = 0; v < p->nevents; v++)
			if (!strcmp(p->events[v].name, name) && p->events[v].listed)
				ch[c] = v;
		n += ch[c] >= 0 ? 1 : 0;
		/* the channels the machine has, where known (else every one the fabric names) */
		if (ch[c] < 0 || (cfg->channels > 0 && n == cfg->channels))
			break;
	}
	groups = (n + 3) / 4;
	if (!n || groups > room)
		return 0;
	for (int g = 0; write && g < groups; g++) {
		fprintf(f, "\ngroup Memory%s", g ? "" : "");
		if (g)
			fprintf(f, ".%d", g + 1);
		fprintf(f, "\n  key 9\n  title \"Memory bandwidth per channel (pmutop's, over the data "
			"fabric's DRAM beats: amd_df)\"\n  default on\n  pmu df\n");
		for (int c = 4 * g; c < n && c < 4 * g + 4; c++) {
			const struct perfmon_event *e = &p->events[ch[c]];

			fprintf(f, "  event dram_channel_data_controller raw event=0x%lX umask=0x%lX "
				"channel=%d\n", strtoul(e->code ? e->code : "0", NULL, 0) & 0x3FFF,
				strtoul(e->umask ? e->umask : "0", NULL, 0) & 0xFFF, c);
		}
		if (g + 1 < groups)
			fprintf(f, "end\n");
	}
	if (write)
		fprintf(f, "  metric dram_channel_bandwidth channel MB/s = dram_channel_data_controller "
			"* 64 / 1e6 / seconds\n  help \"pmutop's: the channel's DRAM data, the data "
			"fabric's beats of 64 bytes (dram_channel_data_controller_N) a second; the "
			"channels' groups take turns (scaled)\"\n"
			"  metric dram_peak_pct channel %% = 100 * dram_channel_bandwidth * 1e6 / "
			"dram_peak\n  help \"pmutop's: the channel's bandwidth over its theoretical peak "
			"(DIMM MT/s x 8 bytes: --dram-mts, else the machine's DIMM speed)\"\n"
			"  thresholds warn 70 crit 90\nend\n");
	return groups;
}
