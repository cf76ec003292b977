/*
 * perfmon_own: the uncore groups pmutop writes of its own beside the
 * vendor's metrics in a layout made from the vendor's data; see
 * perfmon_own.h.
 */
#include "perfmon_own.h"
#include "layout.h"
#include "perfmon_layout.h"
#include "perfmon_uncore.h"
#include "perfmon_fields.h"
#include "pmu_regs.h"
#include "paths.h"

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
} own_files[PERFMON_OWN_FILES] = {
	[PERFMON_OWN_POWER] = { "power", { "Power", "Power.ram", "Power.cores", "Power.psys" },
				{ PERFMON_RAPL_PKG, PERFMON_RAPL_RAM, PERFMON_RAPL_CORES,
				  PERFMON_RAPL_PSYS } },
	[PERFMON_OWN_CSTATE] = { "cstate", { "CStates", "CStates.pkg" }, { 0 } },
	[PERFMON_OWN_MEMORY] = { "memory", { "Memory" }, { 0 } },
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
 * Group NAME of own file K into F as the file has it, from its "group" line
 * to its "end" (a blank line before it): the layout text includes it.
 */
static void own_group(const struct perfmon_own *o, int k, const char *name, FILE *f)
{
	bool in = false;

	for (const char *s = o->text[k]; s && *s; ) {
		const char *w = s + strspn(s, " \t");
		size_t len = strcspn(s, "\n");

		if (!in && own_word(w, "group")) {
			const char *at = w + 5 + strspn(w + 5, " \t");

			in = own_word(at, name);
			if (in)
				fputc('\n', f);
		}
		if (in) {
			fprintf(f, "%.*s\n", (int)len, s);
			if (own_word(w, "end"))
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
int perfmon_own_power(const struct perfmon_layout_config *c, bool amd, FILE *f)
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
int perfmon_own_cstate(const struct perfmon_layout_config *c, bool amd, FILE *f)
{
	if (amd)
		return 0;
	for (int g = 0; f && g < 2; g++)
		own_group(c->own, PERFMON_OWN_CSTATE, own_files[PERFMON_OWN_CSTATE].groups[g], f);
	return 2;
}

/* A client's memory controllers (free-running counters): the socket's read and write bandwidth. */
void perfmon_own_client_memory(const struct perfmon_layout_config *c, FILE *f)
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

/*
 * Event NAME of P's event table in *E (whether a vendor metric reads it or
 * not: the converter keeps these), its strings P's, or NULL.
 */
static const struct perfmon_event *own_event(const struct perfmon *p, const char *name,
					     struct perfmon_event *e)
{
	void *it = json_object_iter_at(json_object_get(p->doc, "Events"), name);
	json_t *row = it ? json_object_iter_value(it) : NULL;

	if (!json_is_object(row))
		return NULL;
	memset(e, 0, sizeof(*e));
	e->name = json_object_iter_key(it);
	e->listed = true;
	e->code = json_string_value(json_object_get(row, "EventCode"));
	e->umask = json_string_value(json_object_get(row, "UMask"));
	e->umask_ext = json_string_value(json_object_get(row, "UMaskExt"));
	e->unit = json_string_value(json_object_get(row, "Unit"));
	return e;
}

/* Event E's line in the layout language, named NAME (+ ".linkN" where BOX >= 0). */
static void own_event_line(FILE *f, const struct perfmon_event *e, int box)
{
	char name[160];

	perfmon_layout_name(e->name, name, sizeof(name));
	fprintf(f, "  event %s", name);
	if (box >= 0)
		fprintf(f, ".link%d", box);
	fprintf(f, " raw event=0x%02lX umask=0x%llX", strtoul(e->code ? e->code : "0", NULL, 0) & 0xFF,
		perfmon_uncore_umask(e));
	if (box >= 0)
		fprintf(f, " box=%d", box);
	fputc('\n', f);
}

/* " + A.link0 + B.link0 + A.link1 ...": the events NAMES (N of them) of links [FIRST, END). */
static void own_link_sum(FILE *f, const struct perfmon_event *const *e, int n, int first, int end)
{
	char name[160];

	for (int l = first; l < end; l++)
		for (int k = 0; k < n; k++) {
			perfmon_layout_name(e[k]->name, name, sizeof(name));
			fprintf(f, "%s%s.link%d", l == first && !k ? "" : " + ", name, l);
		}
}

/*
 * The socket links' use, pmutop's over Intel's UPI events (the vendor
 * publishes the data bandwidth only): every flit slot a link sends is
 * data, protocol/credit, null or idle ("every UPI cycle must be sending
 * either data FLITs, protocol/credit FLITs or idle FLITs"), so the share
 * carrying data or protocol is the link's utilisation, whatever its width
 * or power state.  Per link (box=N) and per socket, sent and received, a
 * group each.  How many groups (none unless ROOM holds both and the data
 * has every event).
 */
int perfmon_own_upi(const struct perfmon *p, const struct perfmon_layout_config *cfg, FILE *f,
		    int room)
{
	static const char *const kinds[] = { "ALL_DATA", "NON_DATA", "ALL_NULL", "IDLE" };
	static const char *const dir[2][3] = { { "TxL", "tx", "sent" }, { "RxL", "rx", "received" } };
	struct perfmon_event ev[2][4];
	const struct perfmon_event *e[2][4];
	int links = cfg->upi_links;
	char name[160], alone[32];

	if (links < 1 || room < 2)
		return 0;
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < 4; k++) {
			snprintf(name, sizeof(name), "UNC_UPI_%s_FLITS.%s", dir[d][0], kinds[k]);
			if (!(e[d][k] = own_event(p, name, &ev[d][k])))
				return 0;
		}
	for (int d = 0; d < 2; d++) {
		fprintf(f, "\ngroup UPI.%s\n  key u\n  title \"Socket links: the share of each UPI "
			"link's flit slots %s carrying data or protocol (pmutop's)\"\n  default off\n"
			"  pmu upi\n", dir[d][1], dir[d][2]);
		for (int l = 0; l < links; l++)
			for (int k = 0; k < 4; k++)
				own_event_line(f, e[d][k], l);
		for (int l = 0; l <= links; l++) {
			bool sock = l == links; /* last: the socket's links together */

			fprintf(f, "  metric upi_%s_utilization", dir[d][1]);
			if (!sock)
				fprintf(f, "_link%d", l);
			fprintf(f, " socket %% = 100 * (");
			own_link_sum(f, e[d], 2, sock ? 0 : l, sock ? links : l + 1);
			fprintf(f, ") / (");
			own_link_sum(f, e[d], 4, sock ? 0 : l, sock ? links : l + 1);
			fprintf(f, ")\n  help \"pmutop's: %s%s: the flit slots %s that carry data "
				"(%s_FLITS.ALL_DATA) or protocol headers and credits (NON_DATA), of all "
				"slots (with ALL_NULL and IDLE: a slot is one of the four)\"\n"
				"  thresholds warn 70 crit 90\n", sock ? "the socket's UPI links" : "UPI link ",
				sock ? "" : (snprintf(alone, sizeof(alone), "%d alone", l), alone), dir[d][2],
				dir[d][0]);
		}
		fprintf(f, "end\n");
	}
	return 2;
}

/*
 * Each UPI link's speed in the group of the vendor's UPI metrics (a
 * counter of each link's box): its clock "runs at 1/8th the GT/s speed" of
 * the link.  Nothing where the data lacks the clock.
 */
void perfmon_own_upi_speed(const struct perfmon *p, const struct perfmon_layout_config *cfg,
			   FILE *f)
{
	struct perfmon_event ev;
	const struct perfmon_event *clk = own_event(p, "UNC_UPI_CLOCKTICKS", &ev);
	int links = cfg->upi_links;
	char name[160];

	if (!clk || links < 1)
		return;
	for (int l = 0; l < links; l++)
		own_event_line(f, clk, l);
	perfmon_layout_name(clk->name, name, sizeof(name));
	for (int l = 0; l < links; l++)
		fprintf(f, "  metric upi_link_gts_link%d socket GT/s = 8 * %s.link%d / 1e9 / seconds\n"
			"  help \"pmutop's: UPI link %d's speed: its clock (UNC_UPI_CLOCKTICKS) runs at an "
			"eighth of the link's transfers a second\"\n", l, name, l, l);
	fprintf(f, "  metric upi_link_gts socket GT/s = 8 * (");
	own_link_sum(f, &clk, 1, 0, links);
	fprintf(f, ") / %d / 1e9 / seconds\n  help \"pmutop's: the mean speed of the socket's %d UPI "
		"links (8 x UNC_UPI_CLOCKTICKS a second)\"\n", links, links);
}

/*
 * Memory behind CXL (a type 2 or 3 memory expander): the cores' L3 misses
 * that go there, as the CHAs' TOR counts them by the vendor's CXL filters
 * (Sapphire Rapids on): the demand reads' bandwidth and latency and every
 * request's lines.  One group (none unless ROOM > 0 and the data has the
 * events); how many.
 */
int perfmon_own_cxl(const struct perfmon *p, const struct perfmon_layout_config *cfg, FILE *f,
		    int room)
{
	struct perfmon_event ev[4];
	const struct perfmon_event *occ = own_event(p, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD_CXL_ACC",
						    &ev[0]),
		*drd = own_event(p, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_CXL_ACC", &ev[1]),
		*all = own_event(p, "UNC_CHA_TOR_INSERTS.IA_MISS_CXL_ACC", &ev[2]),
		*clk = own_event(p, "UNC_CHA_CLOCKTICKS", &ev[3]);
	char o[160], d[160], a[160], c[160];

	if (room < 1 || cfg->chas < 1 || !occ || !drd || !all || !clk)
		return 0;
	perfmon_layout_name(occ->name, o, sizeof(o));
	perfmon_layout_name(drd->name, d, sizeof(d));
	perfmon_layout_name(all->name, a, sizeof(a));
	perfmon_layout_name(clk->name, c, sizeof(c));
	/* the occupancy first: it counts on counter 0 only */
	fprintf(f, "\ngroup CXL\n  key l\n  title \"CXL memory: the cores' L3 misses to memory behind "
		"CXL (the CHAs' TOR, uncore_cha; pmutop's)\"\n  default off\n  pmu cha\n");
	own_event_line(f, occ, -1);
	own_event_line(f, drd, -1);
	own_event_line(f, all, -1);
	own_event_line(f, clk, -1);
	fprintf(f, "  metric cxl_read_bandwidth socket \"MB/sec\" = %s * 64 / 1e6 / seconds\n"
		"  help \"pmutop's: CXL memory read by the cores' demand reads that missed the L3 "
		"(%s, 64-byte lines)\"\n"
		"  metric cxl_miss_bandwidth socket \"MB/sec\" = %s * 64 / 1e6 / seconds\n"
		"  help \"pmutop's: every request of the cores that missed the L3 for CXL memory "
		"(reads, RFOs, prefetches: %s, 64-byte lines)\"\n"
		"  metric cxl_read_latency socket ns = 1e9 * (%s / %s) / (%s / %d / seconds)\n"
		"  help \"pmutop's: the mean time a demand read to CXL memory stays in the CHAs' TOR "
		"(occupancy over inserts, in CHA cycles), as the vendor's LLC miss latency reads the "
		"TOR\"\nend\n", d, drd->name, a, all->name, o, d, c, cfg->chas);
	return 1;
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

int perfmon_own_ports(const struct perfmon *p, bool hybrid, int budget, FILE *f)
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
	fprintf(f, "\ngroup Ports\n  key 6\n  title \"Execution ports: uops dispatched on each port "
		"(pmutop's, over Intel's UOPS_DISPATCHED events)\"\n  default off\n");
	if (hybrid)
		fprintf(f, "  coretype %s\n", layout_coretype_names[LAYOUT_CORES_P]);
	fprintf(f, "  help \"Every port of the core, a column each event of the vendor's: the share "
		"of the core's cycles each port of the set dispatched a uop (the set's uops over its "
		"ports and CPU_CLK_UNHALTED.DISTRIBUTED, the core's cycles shared between its active "
		"threads)\"\n");
	for (int i = 0; i <= n; i++) {
		const struct perfmon_event *e = &p->events[i < n ? ports[i] : clk];
		char name[160];

		perfmon_fields_of(e, false, &fl);
		perfmon_layout_name(e->name, name, sizeof(name));
		fprintf(f, "  event %s raw event=0x%02lX umask=0x%02lX\n", name, fl.code & 0xFF,
			fl.umask & 0xFF);
	}
	for (int i = 0; i < n; i++) {
		const struct perfmon_event *e = &p->events[ports[i]];
		const char *set = perfmon_own_port_set(e->name, &np);
		char name[160], clkname[160];

		perfmon_layout_name(e->name, name, sizeof(name));
		perfmon_layout_name(p->events[clk].name, clkname, sizeof(clkname));
		fprintf(f, "  metric port_%s core %% = 100 * %s / (%d * %s)\n  help ", set, name, np,
			clkname);
		{
			char help[400];

			snprintf(help, sizeof(help), "Share of the core's cycles %s %s dispatched a uop%s: "
				 "%s (\"%s\") over %d x CPU_CLK_UNHALTED.DISTRIBUTED", np > 1 ? "each of ports"
				 : "port", set, np > 1 ? " (the vendor counts them together: their mean)" : "",
				 e->name, e->desc ? e->desc : "", np);
			for (char *c = help; *c; c++)
				if (*c == '_' && np > 1 && c > help && c[-1] >= '0' && c[-1] <= '9')
					*c = ',';
			perfmon_layout_quoted(f, help);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "end\n");
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
