/*
 * perfmon_own: the uncore groups pmutop writes of its own beside the
 * vendor's metrics in a layout made from the vendor's data; see
 * perfmon_own.h.
 */
#include "perfmon_own.h"
#include "layout.h"
#include "layout_build.h"
#include "perfmon_layout.h"
#include "perfmon_uncore.h"
#include "perfmon_fields.h"
#include "pmu_regs.h"
#include "paths.h"
#include "xmalloc.h"

#include <errno.h>
#include <limits.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The files of pmutop's own groups (layouts/own) and the groups each must
 * have, in the order they are written; a power group's RAPL domain beside it
 * (PERFMON_RAPL_*: the group is written where the power PMU has the domain).
 */
#define OWN_GROUPS_MAX 4 /* groups in one own file */

static const struct {
	const char *file;
	const char *groups[OWN_GROUPS_MAX];
	unsigned rapl[OWN_GROUPS_MAX];
	bool vendor; /* its groups are over the vendor's events (perfmon_own_vendor), each taken */
} own_files[PERFMON_OWN_FILES] = {
	[PERFMON_OWN_POWER] = { "power", { "Power", "Power.ram", "Power.cores", "Power.psys" },
				{ PERFMON_RAPL_PKG, PERFMON_RAPL_RAM, PERFMON_RAPL_CORES,
				  PERFMON_RAPL_PSYS }, false },
	[PERFMON_OWN_CSTATE] = { "cstate", { "CStates", "CStates.pkg" }, { 0 }, false },
	[PERFMON_OWN_MEMORY] = { "memory", { "Memory" }, { 0 }, false },
	/* the groups over the vendor's events (perfmon_own_vendor): every group the file has */
	[PERFMON_OWN_LINKS] = { "links", { NULL }, { 0 }, true },
	[PERFMON_OWN_CXL] = { "cxl", { NULL }, { 0 }, true },
};

int perfmon_own_load(const char *layout_dir, struct perfmon_own *o, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct layout *l;
	int rc = 0;

	memset(o, 0, sizeof(*o));
	if (!layout_dir)
		layout_dir = paths_layout_dir(NULL);
	for (int k = 0; k < PERFMON_OWN_FILES && !rc; k++) {
		snprintf(path, sizeof(path), "%s/own/%s.layout", layout_dir, own_files[k].file);
		rc = layout_read_text(path, &o->text[k], err, errlen);
		if (!rc && own_files[k].vendor)
			rc = perfmon_own_vendor_check(o->text[k], path, err, errlen);
		if (!rc && !(rc = layout_parse_part(o->text[k], path, &l, err, errlen))) {
			for (int g = 0; !rc && g < OWN_GROUPS_MAX && own_files[k].groups[g]; g++)
				if (layout_group_find(l, own_files[k].groups[g]) < 0) {
					snprintf(err, errlen, "%s: expected a group %s: the layouts made "
						 "from the vendors' data take it from this file", path,
						 own_files[k].groups[g]);
					rc = -EINVAL;
				}
			layout_free(l);
		}
	}
	if (rc) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, " (pmutop's own groups; reinstall pmutop, or set "
			 "PMUTOP_LAYOUT_DIR to a copy of its layouts)");
		perfmon_own_free(o);
	}
	return rc;
}

void perfmon_own_free(struct perfmon_own *o)
{
	for (int k = 0; k < PERFMON_OWN_FILES; k++) {
		free(o->text[k]);
		o->text[k] = NULL;
	}
}

/* The line at W starts with WORD, a whole word (a blank, a comment or the line's end after it). */
static bool own_word(const char *w, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(w, word, n) && (!w[n] || strchr(" \t#\r\n", w[n]));
}

/*
 * Group NAME of own file K into B as the file has it, from its "group" line
 * to its "end" (a blank line before it): the layout includes it.
 */
static void own_group(const struct perfmon_own *o, int k, const char *name, struct layout_build *b)
{
	const char *from = NULL;

	for (const char *s = o->text[k]; s && *s; ) {
		const char *w = s + strspn(s, " \t");
		size_t len = strcspn(s, "\n");

		if (!from && own_word(w, "group")) {
			const char *at = w + 5 + strspn(w + 5, " \t");

			from = own_word(at, name) ? s : NULL;
		}
		if (from && own_word(w, "end")) {
			char *text = xmalloc((size_t)(s + len - from) + 2);

			memcpy(text, from, (size_t)(s + len - from));
			memcpy(text + (s + len - from), "\n", 2);
			layout_build_blank(b);
			layout_build_text(b, text);
			free(text);
			return;
		}
		s += len + (s[len] ? 1 : 0);
	}
}

/*
 * RAPL's power PMU: each domain's energy per socket, in watts, a group per
 * domain the kernel has (RAPL unknown: package and DRAM, which then say
 * what is missing; none on AMD, counted through perf only).  How many groups.
 */
int perfmon_own_power(const struct perfmon_layout_config *c, bool amd, struct layout_build *f)
{
	unsigned rapl = c->rapl;
	int n = 0;

	if (!rapl && !amd) /* the msr source reads Intel's RAPL MSRs: package and DRAM */
		rapl = PERFMON_RAPL_PKG | PERFMON_RAPL_RAM;
	for (int g = 0; g < OWN_GROUPS_MAX; g++) {
		if (!(rapl & own_files[PERFMON_OWN_POWER].rapl[g]))
			continue;
		n++;
		if (f)
			own_group(c->own, PERFMON_OWN_POWER, own_files[PERFMON_OWN_POWER].groups[g], f);
	}
	return n;
}

/*
 * The kernel's C-state residencies (its cstate_core and cstate_pkg PMUs):
 * core C6 and package C6, which every model its cstate driver lists has;
 * key z, off until asked (the msr source leaves them to perf).  None on AMD
 * (Linux has no cstate PMU there).  How many groups.
 */
int perfmon_own_cstate(const struct perfmon_layout_config *c, bool amd, struct layout_build *f)
{
	if (amd)
		return 0;
	for (int g = 0; f && g < 2; g++)
		own_group(c->own, PERFMON_OWN_CSTATE, own_files[PERFMON_OWN_CSTATE].groups[g], f);
	return 2;
}

/* A client's memory controllers (free-running counters): the socket's read and write bandwidth. */
void perfmon_own_client_memory(const struct perfmon_layout_config *c, struct layout_build *f)
{
	own_group(c->own, PERFMON_OWN_MEMORY, "Memory", f);
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
				struct layout_build *f, int room, bool write)
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
		char name[32];

		if (g)
			snprintf(name, sizeof(name), "Memory.%d", g + 1);
		else
			snprintf(name, sizeof(name), "Memory");
		layout_build_group(f, name);
		layout_build_key(f, '9');
		layout_build_title(f, "Memory bandwidth per channel (pmutop's, over the data fabric's "
				   "DRAM beats: amd_df)");
		layout_build_default(f, true);
		layout_build_pmu(f, LAYOUT_PMU_AMD_DF);
		for (int c = 4 * g; c < n && c < 4 * g + 4; c++) {
			const struct perfmon_event *e = &p->events[ch[c]];
			struct layout_build_event ev = {
				.name = "dram_channel_data_controller",
				.event = (unsigned)(strtoul(e->code ? e->code : "0", NULL, 0) & 0x3FFF),
				.umask = strtoul(e->umask ? e->umask : "0", NULL, 0) & 0xFFF,
				.has_channel = true, .channel = c,
			};

			layout_build_event(f, &ev);
		}
		if (g + 1 < groups)
			layout_build_end(f);
	}
	if (write) {
		layout_build_metric(f, "dram_channel_bandwidth", LAYOUT_CHANNEL, "MB/s",
				    "dram_channel_data_controller * 64 / 1e6 / seconds");
		layout_build_help(f, "pmutop's: the channel's DRAM data, the data fabric's beats of 64 "
				  "bytes (dram_channel_data_controller_N) a second; the channels' groups "
				  "take turns (scaled)");
		layout_build_metric(f, "dram_peak_pct", LAYOUT_CHANNEL, "%",
				    "100 * dram_channel_bandwidth * 1e6 / dram_peak");
		layout_build_help(f, "pmutop's: the channel's bandwidth over its theoretical peak (DIMM "
				  "MT/s x 8 bytes: --dram-mts, else the machine's DIMM speed)");
		layout_build_thresholds(f, 70, 90);
		layout_build_end(f);
	}
	return groups;
}

/* A port set's event: "UOPS_DISPATCHED.PORT_2_3_10" -> "2_3_10" and its 3 ports, or NULL. */
static const char *perfmon_own_port_set(const char *name, int *nports)
{
	static const char base[] = "UOPS_DISPATCHED.PORT_";
	const char *set = name + sizeof(base) - 1;

	if (strncmp(name, base, sizeof(base) - 1) || !*set)
		return NULL;
	*nports = 1;
	for (const char *c = set; *c; c++) {
		if (*c == '_' && c[1] >= '0' && c[1] <= '9')
			(*nports)++;
		else if (*c < '0' || *c > '9')
			return NULL; /* PORT_0_1_5_6 and the like are sets too; anything else is not */
	}
	return set;
}

int perfmon_own_ports(const struct perfmon *p, bool hybrid, int budget, struct layout_build *f)
{
	int ports[PMU_MAX_GP], n = 0, clk = -1, np;
	struct perfmon_fields fl;

	if (strcmp(p->vendor, "GenuineIntel"))
		return 0;
	for (int v = 0; v < p->nevents; v++) {
		if (!strcmp(p->events[v].name, "CPU_CLK_UNHALTED.DISTRIBUTED"))
			clk = v;
		else if (perfmon_own_port_set(p->events[v].name, &np) && n < PMU_MAX_GP)
			ports[n++] = v;
	}
	if (clk < 0 || !n || n + 1 > budget)
		return 0;
	if (!f)
		return 1;
	layout_build_group(f, "Ports");
	layout_build_key(f, '6');
	layout_build_title(f, "Execution ports: uops dispatched on each port (pmutop's, over Intel's "
			   "UOPS_DISPATCHED events)");
	layout_build_default(f, false);
	if (hybrid)
		layout_build_coretype(f, LAYOUT_CORES_P);
	layout_build_help(f, "Every port of the core, a column each event of the vendor's: the share "
			  "of the core's cycles each port of the set dispatched a uop (the set's uops "
			  "over its ports and CPU_CLK_UNHALTED.DISTRIBUTED, the core's cycles shared "
			  "between its active threads)");
	for (int i = 0; i <= n; i++) {
		const struct perfmon_event *e = &p->events[i < n ? ports[i] : clk];
		char name[160];
		struct layout_build_event ev = { .name = name };

		perfmon_fields_of(e, false, &fl);
		perfmon_layout_name(e->name, name, sizeof(name));
		ev.event = (unsigned)(fl.code & 0xFF);
		ev.umask = fl.umask & 0xFF;
		layout_build_event(f, &ev);
	}
	for (int i = 0; i < n; i++) {
		const struct perfmon_event *e = &p->events[ports[i]];
		const char *set = perfmon_own_port_set(e->name, &np);
		char name[160], clkname[160], metric[200], formula[400], help[400];

		perfmon_layout_name(e->name, name, sizeof(name));
		perfmon_layout_name(p->events[clk].name, clkname, sizeof(clkname));
		snprintf(metric, sizeof(metric), "port_%s", set);
		snprintf(formula, sizeof(formula), "100 * %s / (%d * %s)", name, np, clkname);
		layout_build_metric(f, metric, LAYOUT_CORE, "%", formula);
		snprintf(help, sizeof(help), "Share of the core's cycles %s %s dispatched a uop%s: "
			 "%s (\"%s\") over %d x CPU_CLK_UNHALTED.DISTRIBUTED", np > 1 ? "each of ports"
			 : "port", set, np > 1 ? " (the vendor counts them together: their mean)" : "",
			 e->name, e->desc ? e->desc : "", np);
		for (char *c = help; *c; c++)
			if (*c == '_' && np > 1 && c > help && c[-1] >= '0' && c[-1] <= '9')
				*c = ',';
		layout_build_help(f, help);
	}
	layout_build_end(f);
	return 1;
}

bool perfmon_own_tree_threshold(const struct perfmon *p, int m,
				bool (*shown)(const void *ctx, int j), const void *ctx, char *buf,
				size_t len)
{
	size_t n = 0;

	if (!perfmon_in_tree(&p->metrics[m]))
		return false;
	for (int j = 0; j < p->nmetrics; j++)
		if (perfmon_in_tree(&p->metrics[j]) && p->metrics[j].threshold_text)
			return false; /* the vendor's own thresholds */
	buf[0] = 0;
	/* M against each sibling, then its parent against the parent's, up to level 1 */
	for (int k = m; k >= 0 && n < len; k = p->metrics[k].parent) {
		char self[160], other[160];
		int cmp = 0;

		perfmon_layout_name(p->metrics[k].name, self, sizeof(self));
		for (int j = 0; j < p->nmetrics && n < len; j++) {
			if (j == k || !perfmon_in_tree(&p->metrics[j]) ||
			    p->metrics[j].parent != p->metrics[k].parent || !shown(ctx, j))
				continue;
			perfmon_layout_name(p->metrics[j].name, other, sizeof(other));
			n += (size_t)snprintf(buf + n, len - n, "%s%s >= %s", n ? " & " : "", self, other);
			cmp++;
		}
		/* an only child: the whole of its parent, counted (NaN compares false) */
		if (!cmp && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s >= %s", n ? " & " : "", self, self);
	}
	return n > 0 && n < len;
}
