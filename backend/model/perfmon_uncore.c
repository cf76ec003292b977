/*
 * perfmon_uncore: the uncore groups of a layout made from Intel's data;
 * see perfmon_uncore.h.
 */
#include "perfmon_uncore.h"
#include "expr.h"
#include "layout.h"
#include "layout_build.h"
#include "perfmon_layout.h"
#include "perfmon_own.h"
#include "perfmon_fields.h"
#include "xmalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PU_BOX_COUNTERS 6     /* the most a box has (AMD's L3: 6; Intel's boxes, AMD's UMC, DF: 4) */
#define PU_MAX_GROUPS 24      /* per kind of box */
#define PU_WIDE_EVENTS 16     /* a data-fabric metric's events, over the groups of a chain */
#define PU_FORMULA_MAX 4096

/* Where a vendor metric goes: its box kind (the vendor's Unit) and key. */
struct pu_bucket {
	const char *unit;
	enum layout_pmu pmu;
	char key;
	const char *group, *title;
};

static const struct pu_bucket pu_buckets[] = {
	{ "iMC", LAYOUT_PMU_MC, '9', "Memory",
	  "Memory bandwidth per channel (the vendor's memory_bandwidth_*, uncore_imc)" },
	{ "iMC", LAYOUT_PMU_MC, 'o', "MemOther",
	  "The memory controllers' other metrics (uncore_imc)" },
	{ "CHA", LAYOUT_PMU_CHA, 'l', "CHA",
	  "L3 misses: latency, NUMA locality, requests (the CHAs, uncore_cha)" },
	{ "UPI LL", LAYOUT_PMU_UPI, 'u', "UPI", "Socket links: UPI data sent and received (uncore_upi)" },
	/* AMD's (the kernel's perf tool data: Unit L3PMC, DFPMC, UMCPMC) */
	{ "UMCPMC", LAYOUT_PMU_AMD_UMC, '9', "Memory",
	  "Memory bandwidth per channel (AMD's umc_mem_*_bandwidth, amd_umc)" },
	{ "UMCPMC", LAYOUT_PMU_AMD_UMC, 'o', "MemOther",
	  "The memory controllers' other metrics: commands, bus use (amd_umc)" },
	{ "L3PMC", LAYOUT_PMU_AMD_L3, 'l', "L3",
	  "L3 of each socket, its CCXs summed: accesses, misses, read miss latency (amd_l3)" },
	{ "DFPMC", LAYOUT_PMU_AMD_DF, 'u', "Fabric",
	  "Data fabric: DRAM data by requester and the socket links (xGMI) per socket (amd_df)" },
	{ "DFPMC", LAYOUT_PMU_AMD_DF, 'x', "FabricIO",
	  "Data fabric: I/O (DMA) and the cores' traffic per socket (amd_df)" },
};
#define PU_NBUCKETS ((int)(sizeof(pu_buckets) / sizeof(pu_buckets[0])))

struct pu_group {
	const char *base[PU_BOX_COUNTERS]; /* the events' names without modifiers */
	int event[PU_BOX_COUNTERS];        /* a perfmon event of each (its encoding) */
	int nevents;
	bool counter0;                     /* one of them counts on counter 0 only */
	int *metrics;
	int nmetrics;
	/*
	 * A metric over more events than a box's counters (AMD's data fabric:
	 * twelve channels summed): its events in a chain of groups of one key,
	 * which take turns; the metric in the last, reading them all.
	 */
	bool chained;
};

struct pu_gen {
	const struct perfmon *p;
	const struct perfmon_layout_config *c;
	int boxes;                         /* of the bucket rendered now */
	int link;                          /* the box rendered now (a UPI link, a CCX), -1 none */
	const char *word;                  /* its name: "link", "ccx" (the events' and metrics' suffix) */
	int sum_links;                     /* > 0: a socket's event is its links' events summed */
	char why[200];
};

static int pu_boxes(const struct perfmon_layout_config *c, enum layout_pmu pmu)
{
	int n = pmu == LAYOUT_PMU_CHA ? c->chas
		: pmu == LAYOUT_PMU_MC || pmu == LAYOUT_PMU_AMD_UMC ? c->channels
		: pmu == LAYOUT_PMU_AMD_L3 ? c->l3s : c->upi_links;

	return n > 0 ? n : 1;
}

/* A box kind of memory channels (Intel's uncore_imc_N, AMD's amd_umc_N). */
static bool pu_channels(enum layout_pmu pmu)
{
	return layout_pmu_kinds[pmu].box_channels;
}

/* The box kind of the vendor's Unit UNIT (pu_buckets), or -1. */
static int pu_kind_of(const char *unit)
{
	for (int b = 0; unit && b < PU_NBUCKETS; b++)
		if (!strcasecmp(unit, pu_buckets[b].unit))
			return (int)pu_buckets[b].pmu;
	return -1;
}

static bool pu_counter0(const struct perfmon_event *e)
{
	return e->counter && !strcmp(e->counter, "0");
}

/*
 * The bucket of metric M, its events' perfmon indices (EV, at most
 * PU_BOX_COUNTERS distinct bases) and whether one is on counter 0 only:
 * the bucket index, or -1 with why in WHY ("" for a metric that is not the
 * uncore's at all).
 */
static int pu_classify(const struct perfmon *p, int m, int *ev, int *nev, bool *c0, char *why,
		       size_t len)
{
	const struct perfmon_metric *pm = &p->metrics[m];
	bool amd = !strcmp(p->vendor, "AuthenticAMD");
	const char *unit = NULL;
	const int *vars;
	int n, b, most = PU_BOX_COUNTERS;

	*nev = 0;
	*c0 = false;
	why[0] = 0;
	if (!pm->formula)
		return -1;
	expr_vars(pm->formula, &vars, &n);
	for (int i = 0; i < n; i++) {
		const struct perfmon_event *e;
		const char *mod;
		int k;

		if (vars[i] >= PERFMON_VAR_METRIC(p, 0)) {
			snprintf(why, len, "it reads another metric");
			return -1;
		}
		if (vars[i] >= p->nevents) {
			int cst = vars[i] - p->nevents;

			if (cst != PERFMON_SOCKET_COUNT && cst != PERFMON_CHAS_PER_SOCKET &&
			    cst != PERFMON_CORES_PER_SOCKET && cst != PERFMON_DURATIONTIMEINSECONDS &&
			    cst != PERFMON_DURATIONTIMEINMILLISECONDS) {
				snprintf(why, len, "it needs %s per socket", perfmon_const_names[cst]);
				return -1;
			}
			continue;
		}
		e = &p->events[vars[i]];
		if ((!amd && strncmp(e->base, "UNC_", 4)) || !e->unit) {
			if (unit)
				snprintf(why, len, "it mixes %s with a core event", unit);
			return -1; /* a core metric, or one over both: not the uncore's alone */
		}
		if (!e->listed) {
			snprintf(why, len, "%s is not in the vendor's event list", e->name);
			return -1;
		}
		if (unit && strcasecmp(unit, e->unit)) {
			snprintf(why, len, "it reads two kinds of box (%s, %s)", unit, e->unit);
			return -1;
		}
		unit = e->unit;
		mod = strchr(e->name, ':');
		if (mod && strcmp(mod, ":one_unit")) {
			snprintf(why, len, "%s: pmutop does not program the modifier %s", e->name, mod);
			return -1;
		}
		for (k = 0; k < *nev && strcmp(p->events[ev[k]].base, e->base); k++)
			;
		if (k < *nev)
			continue;
		b = pu_kind_of(e->unit);
		if (b >= 0) /* the data fabric's metrics may chain groups (pu_place_chain) */
			most = b == LAYOUT_PMU_AMD_DF ? PU_WIDE_EVENTS : layout_pmu_kinds[b].counters;
		if (*nev >= most || (pu_counter0(e) && *c0)) {
			snprintf(why, len, "its events need more than a box's %d counters", most);
			return -1;
		}
		*c0 |= pu_counter0(e);
		ev[(*nev)++] = vars[i];
	}
	if (!unit)
		return -1;
	if (pm->desc && strstr(pm->desc, " / sec]") && !strstr(pm->formula_text, "uration") &&
	    !strstr(pm->formula_text, "URATION")) {
		snprintf(why, len, "its formula is a count, not the rate its description says");
		return -1;
	}
	for (b = 0; b < PU_NBUCKETS; b++)
		if (!strcasecmp(unit, pu_buckets[b].unit) &&
		    (!pu_channels(pu_buckets[b].pmu) ||
		     (pu_buckets[b].key == '9') == (!strncmp(pm->name, "memory_bandwidth", 16) ||
						    (amd && strstr(pm->name, "_bandwidth")))) &&
		    /* the fabric's DRAM and link figures apart from its I/O and core traffic */
		    (pu_buckets[b].pmu != LAYOUT_PMU_AMD_DF ||
		     (pu_buckets[b].key == 'u') == (strstr(pm->name, "dram") || strstr(pm->name, "link"))))
			return b;
	snprintf(why, len, "its events are the %s box's, which pmutop does not count", unit);
	return -1;
}

/* A name of a formula as the uncore groups write it (perfmon_render_map's callback). */
static const char *pu_map(void *ctx, enum perfmon_name_kind kind, const char *name, char *buf,
			  size_t len)
{
	struct pu_gen *g = ctx;
	char base[160];

	if (kind == PERFMON_NAME_METRIC) {
		snprintf(g->why, sizeof(g->why), "it reads metric %s", name);
		return name;
	}
	if (kind == PERFMON_NAME_CONST) {
		/* a socket's figure: its own boxes, one socket */
		if (!strcmp(name, "SOCKET_COUNT"))
			return "1";
		if (!strcmp(name, "DURATIONTIMEINSECONDS"))
			return "seconds";
		if (!strcmp(name, "DURATIONTIMEINMILLISECONDS"))
			return "(seconds * 1000)";
		if (!strcmp(name, "CHAS_PER_SOCKET") || !strcmp(name, "CORES_PER_SOCKET")) {
			snprintf(buf, len, "%d", !strcmp(name, "CHAS_PER_SOCKET")
				 ? pu_boxes(g->c, LAYOUT_PMU_CHA) : g->c->cores_per_socket);
			return buf;
		}
		snprintf(g->why, sizeof(g->why), "it needs %s", name);
		return name;
	}
	if (strchr(name, ':')) {
		/* ":one_unit": one box's count, the mean of the socket's boxes */
		snprintf(base, sizeof(base), "%.*s", (int)strcspn(name, ":"), name);
		perfmon_layout_name(base, base, sizeof(base));
		snprintf(buf, len, "(%s / %d)", base, g->boxes);
		return buf;
	}
	perfmon_layout_name(name, base, sizeof(base));
	if (g->link >= 0) {
		snprintf(buf, len, "%s.%s%d", base, g->word, g->link);
	} else if (g->sum_links > 0) {
		/* the socket's: the same events of its links (no second copy of them on each box) */
		size_t n = (size_t)snprintf(buf, len, "(");

		for (int k = 0; k < g->sum_links && n < len; k++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s.link%d", k ? " + " : "", base, k);
		if (n + 1 >= len)
			snprintf(g->why, sizeof(g->why), "its sum over %d links is too long", g->sum_links);
		else
			snprintf(buf + n, len - n, ")");
	} else {
		snprintf(buf, len, "%s", base);
	}
	return buf;
}

/*
 * The event lines of perfmon event V (named by its base), once per channel
 * where CHANNELS; of box g->link alone (a link, a CCX) where one is rendered.
 */
static void pu_event_line(const struct pu_gen *g, struct layout_build *b, int v, int channels)
{
	const struct perfmon_event *e = &g->p->events[v];
	unsigned long long umask = perfmon_uncore_umask(e);
	int kind = pu_kind_of(e->unit) >= 0 ? pu_kind_of(e->unit) : LAYOUT_PMU_CHA;
	char name[160];

	/* AMD's: the data fabric's 12-bit umask, a memory channel's RdWrMask in the umask */
	if (kind == LAYOUT_PMU_AMD_DF)
		umask = strtoull(e->umask ? e->umask : "0", NULL, 0) & 0xFFF;
	if (kind == LAYOUT_PMU_AMD_UMC)
		umask = strtoull(e->rdwrmask ? e->rdwrmask : "0", NULL, 0) & 0x3;

	perfmon_layout_name(e->base, name, sizeof(name));
	if (g->link >= 0)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), ".%s%d", g->word, g->link);
	for (int ch = 0; ch < (channels ? channels : 1); ch++) {
		struct layout_build_event ev = { .name = name, .has_channel = channels > 0,
						 .channel = ch, .has_box = g->link >= 0,
						 .box = g->link };

		perfmon_uncore_fields(&ev, e, (enum layout_pmu)kind, umask);
		layout_build_event(b, &ev);
	}
}

/* Metric M in its group: at channel scope where the vendor resolves it per CHANNEL on channel boxes. */
static void pu_metric(struct pu_gen *g, struct layout_build *b, int m, bool channels)
{
	const struct perfmon_metric *pm = &g->p->metrics[m];
	char name[160], buf[PU_FORMULA_MAX];
	bool per_channel = channels && pm->resolution && strstr(pm->resolution, "CHANNEL");
	char help[600];

	g->why[0] = 0;
	perfmon_render_map(g->p, m, false, pu_map, g, buf, sizeof(buf));
	perfmon_layout_name(pm->name, name, sizeof(name));
	if (g->link >= 0)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "_%s%d", g->word, g->link);
	layout_build_metric(b, name, per_channel ? LAYOUT_CHANNEL : LAYOUT_SOCKET,
			    !pm->unit ? "" : !strcmp(pm->unit, "percent") ? "%" : pm->unit, buf);
	if (g->link >= 0)
		snprintf(help, sizeof(help), "%s %d alone: %s", !strcmp(g->word, "ccx")
			 ? "the L3 of CCX" : "UPI link", g->link, pm->desc ? pm->desc : pm->name);
	else
		snprintf(help, sizeof(help), "%s", pm->desc ? pm->desc : pm->name);
	layout_build_help(b, help);
}

/* Where event BASE stands in GR's events; GR->nevents when it is not there. */
static int pu_find(const struct pu_group *gr, const char *base)
{
	int j = 0;

	while (j < gr->nevents && strcmp(gr->base[j], base))
		j++;
	return j;
}

/* Metric M over NEV events EV, more than MOST: a chain of new groups, the metric in the last. */
static bool pu_place_chain(const struct perfmon *p, struct pu_group *groups, int *ngroups,
			   int most, int m, const int *ev, int nev)
{
	int need = (nev + most - 1) / most;

	if (*ngroups + need > PU_MAX_GROUPS)
		return false;
	for (int j = 0; j < need; j++) {
		struct pu_group *gr = &groups[(*ngroups)++];

		memset(gr, 0, sizeof(*gr));
		for (int k = j * most; k < nev && k < (j + 1) * most; k++) {
			gr->base[gr->nevents] = p->events[ev[k]].base;
			gr->event[gr->nevents++] = ev[k];
		}
		gr->chained = j + 1 < need;
	}
	groups[*ngroups - 1].metrics = xcalloc(1, sizeof(int));
	groups[*ngroups - 1].metrics[groups[*ngroups - 1].nmetrics++] = m;
	return true;
}

/* Place metric M (its events EV) in the first group of GROUPS (of MOST counters) it fits, or a new one. */
static bool pu_place(const struct perfmon *p, struct pu_group *groups, int *ngroups, int most,
		     int m, const int *ev, int nev, bool c0)
{
	if (nev > most)
		return pu_place_chain(p, groups, ngroups, most, m, ev, nev);
	for (int i = 0; i <= *ngroups && i < PU_MAX_GROUPS; i++) {
		struct pu_group *gr = &groups[i];
		int add = 0;

		if (i == *ngroups)
			memset(gr, 0, sizeof(*gr));
		if (gr->chained || (i < *ngroups && i > 0 && groups[i - 1].chained))
			continue; /* a chain's groups hold its events alone */
		for (int k = 0; k < nev; k++)
			add += pu_find(gr, p->events[ev[k]].base) == gr->nevents;
		if (gr->nevents + add > most || (c0 && gr->counter0 && add))
			continue;
		for (int k = 0; k < nev; k++)
			if (pu_find(gr, p->events[ev[k]].base) == gr->nevents) {
				gr->base[gr->nevents] = p->events[ev[k]].base;
				gr->event[gr->nevents++] = ev[k];
			}
		gr->counter0 |= c0;
		gr->metrics = xrealloc(gr->metrics, (size_t)gr->nmetrics + 1, sizeof(int));
		gr->metrics[gr->nmetrics++] = m;
		if (i == *ngroups)
			(*ngroups)++;
		return true;
	}
	return false;
}

/* Whether the vendor resolves metric M per UPI link (ResolutionLevels UPI). */
static bool pu_link_metric(const struct perfmon *p, int m)
{
	return p->metrics[m].resolution && strstr(p->metrics[m].resolution, "UPI");
}

/* A group's first lines: its name, key, title, default state and PMU (BUCKET's). */
static void pu_group_head(struct layout_build *b, const char *name, const struct pu_bucket *bucket,
			  bool on)
{
	layout_build_group(b, name);
	layout_build_key(b, bucket->key);
	layout_build_title(b, bucket->title);
	layout_build_default(b, on);
	layout_build_pmu(b, bucket->pmu);
}

/* Whether metric M is one of the vendor's I/O metrics (placed after the others: fewer groups fit) */
static bool pu_io(const struct perfmon *p, int m)
{
	return !strncmp(p->metrics[m].name, "io_", 3) || !strncmp(p->metrics[m].name, "iio_", 4) ||
	       !strncmp(p->metrics[m].name, "Info_System_IO_", 15);
}

void perfmon_uncore_groups(const struct perfmon *p, const struct perfmon_layout_config *c,
			   int room, struct layout_build *f, bool *taken, char (*why)[200])
{
	/* the buckets in the order groups are granted: memory, links, CHAs / L3, the rest */
	static const int order[PU_NBUCKETS] = { 0, 4, 3, 7, 2, 6, 1, 5, 8 };
	bool amd = !strcmp(p->vendor, "AuthenticAMD");
	int npower = perfmon_own_power(c, amd, NULL) + perfmon_own_cstate(c, amd, NULL);
	bool power = room >= npower, client = c->imc_free > 0 && !c->channels;
	struct pu_group (*groups)[PU_MAX_GROUPS] = xcalloc(PU_NBUCKETS, sizeof(*groups));
	int ngroups[PU_NBUCKETS] = { 0 }, ev[PU_WIDE_EVENTS], nev, cha_first = 0;
	struct pu_gen g = { .p = p, .c = c, .link = -1 };
	bool c0;

	for (int pass = 0; pass < 2; pass++)
		for (int m = 0; m < p->nmetrics; m++) {
			int b;

			if (pu_io(p, m) != (pass == 1))
				continue;
			b = pu_classify(p, m, ev, &nev, &c0, why[m], sizeof(why[m]));
			if (b >= 0 && !pu_place(p, groups[b], &ngroups[b],
						layout_pmu_kinds[pu_buckets[b].pmu].counters, m, ev, nev, c0))
				snprintf(why[m], sizeof(why[m]), "the %s groups are full (%d)",
					 pu_buckets[b].group, PU_MAX_GROUPS);
			else if (b >= 0)
				taken[m] = true;
		}
	/* the CHA groups that hold more than the vendor's I/O metrics: granted before pmutop's own */
	for (int b = 0; b < PU_NBUCKETS; b++)
		for (int i = 0; pu_buckets[b].pmu == LAYOUT_PMU_CHA && i < ngroups[b]; i++)
			for (int k = 0; k < groups[b][i].nmetrics; k++)
				if (!pu_io(p, groups[b][i].metrics[k])) {
					cha_first++;
					break;
				}
	/*
	 * RAPL first (no counters), an Intel client's memory controllers (not
	 * where the vendor's own memory group stands: one group is "Memory")
	 */
	if (power)
		room -= npower;
	if (client && !amd && room > 0 && !ngroups[0]) {
		perfmon_own_client_memory(c, f);
		room--;
	}
	/* Zen 2 and 3: DRAM per channel only through the data fabric */
	if (!ngroups[4])
		room -= perfmon_own_fabric_channels(p, c, f, room, true);
	layout_build_blank(f);
	if (!strcmp(p->vendor, "AuthenticAMD"))
		layout_build_comment(f, "AMD's uncore through the kernel's amd_uncore PMUs (perf): the "
				     "vendor's metrics per socket,\nover %d L3s (CCXs) and %d memory "
				     "channels per socket", c->l3s, c->channels);
	else
		layout_build_comment(f, "The servers' uncore through the kernel's uncore PMUs (perf): "
				     "the vendor's metrics per socket,\nover %d CHAs, %d memory channels "
				     "and %d UPI links per socket (SOCKET_COUNT is 1: a socket's own "
				     "boxes)", c->chas, c->channels, c->upi_links);
	for (int o = 0; o < PU_NBUCKETS; o++) {
		int b = order[o];
		bool mc = pu_channels(pu_buckets[b].pmu);

		g.boxes = pu_boxes(c, pu_buckets[b].pmu);
		/* pmutop's own: memory behind CXL before the CHAs' metrics (their I/O ones after) */
		if (pu_buckets[b].pmu == LAYOUT_PMU_CHA)
			room -= perfmon_own_vendor(p, c, PERFMON_OWN_CXL, f, room - cha_first);
		for (int i = 0; i < ngroups[b]; i++) {
			struct pu_group *gr = &groups[b][i];
			const char *total = NULL; /* the channel's read + write bandwidth, MB/s */
			char gname[64];

			if (room-- <= 0) {
				/* a layout's groups are bits of a 64-bit mask: the core's came first */
				for (int k = 0; k < gr->nmetrics; k++) {
					taken[gr->metrics[k]] = false;
					snprintf(why[gr->metrics[k]], sizeof(why[0]), "its %s group is left "
						 "out: a layout holds %d groups", pu_buckets[b].group,
						 LAYOUT_MAX_GROUPS);
				}
				free(gr->metrics);
				continue;
			}

			if (i)
				snprintf(gname, sizeof(gname), "%s.%d", pu_buckets[b].group, i + 1);
			else
				snprintf(gname, sizeof(gname), "%s", pu_buckets[b].group);
			pu_group_head(f, gname, &pu_buckets[b], pu_buckets[b].key == '9');
			/*
			 * the vendor resolves the links' metrics per UPI link: each link's
			 * events (box=N), the socket's their sum, each link's own metrics
			 * beside the socket's; pmutop's link speed where a box has room
			 */
			g.word = "link";
			g.sum_links = pu_buckets[b].pmu == LAYOUT_PMU_UPI && c->upi_links > 1
				      ? c->upi_links : 0;
			for (g.link = 0; g.link < g.sum_links; g.link++)
				for (int k = 0; k < gr->nevents; k++)
					pu_event_line(&g, f, gr->event[k], 0);
			g.link = -1;
			for (int k = 0; !g.sum_links && k < gr->nevents; k++)
				pu_event_line(&g, f, gr->event[k], mc ? pu_boxes(c, pu_buckets[b].pmu) : 0);
			for (int k = 0; k < gr->nmetrics; k++) {
				pu_metric(&g, f, gr->metrics[k], mc);
				if (!strcmp(p->metrics[gr->metrics[k]].name, "memory_bandwidth_total") ||
				    !strcmp(p->metrics[gr->metrics[k]].name, "umc_mem_bandwidth"))
					total = p->metrics[gr->metrics[k]].name;
			}
			for (g.link = 0; g.link < g.sum_links; g.link++)
				for (int k = 0; k < gr->nmetrics; k++)
					if (pu_link_metric(p, gr->metrics[k]))
						pu_metric(&g, f, gr->metrics[k], false);
			g.link = -1;
			if (pu_buckets[b].pmu == LAYOUT_PMU_UPI && !i)
				perfmon_own_vendor_into(p, c, PERFMON_OWN_LINKS, pu_buckets[b].group,
							layout_pmu_kinds[LAYOUT_PMU_UPI].counters -
							gr->nevents, f);
			g.sum_links = 0;
			/*
			 * AMD's L3: each CCX's own figures, in a group beside the socket's
			 * sum (a CCX's 6 counters hold one set of its events, not two)
			 */
			if (pu_buckets[b].pmu == LAYOUT_PMU_AMD_L3 && c->l3s > 1 && room > 0) {
				room--;
				layout_build_end(f);
				if (i)
					snprintf(gname, sizeof(gname), "%s.%d.ccx", pu_buckets[b].group,
						 i + 1);
				else
					snprintf(gname, sizeof(gname), "%s.ccx", pu_buckets[b].group);
				pu_group_head(f, gname, &pu_buckets[b], false);
				g.word = "ccx";
				for (g.link = 0; g.link < c->l3s; g.link++) {
					for (int k = 0; k < gr->nevents; k++)
						pu_event_line(&g, f, gr->event[k], 0);
					for (int k = 0; k < gr->nmetrics; k++)
						pu_metric(&g, f, gr->metrics[k], false);
				}
				g.link = -1;
			}
			if (total) {
				char text[300];

				snprintf(text, sizeof(text), "100 * %s * 1e6 / dram_peak", total);
				layout_build_metric(f, "dram_peak_pct", LAYOUT_CHANNEL, "%", text);
				snprintf(text, sizeof(text), "pmutop's: the vendor's %s (MB/s) over the "
					 "channel's theoretical peak (DIMM MT/s x 8 bytes: --dram-mts, "
					 "else the machine's DIMM speed)", total);
				layout_build_help(f, text);
				layout_build_thresholds(f, 70, 90);
			}
			layout_build_end(f);
			free(gr->metrics);
		}
		/*
		 * pmutop's own: each link's utilisation and speed beside the vendor's
		 * bandwidth, where room is left after the CHAs' groups of other than
		 * I/O metrics (L3 miss latency, NUMA locality)
		 */
		if (pu_buckets[b].pmu == LAYOUT_PMU_UPI)
			room -= perfmon_own_vendor(p, c, PERFMON_OWN_LINKS, f, room - cha_first);
	}
	if (power) {
		perfmon_own_power(c, amd, f);
		perfmon_own_cstate(c, amd, f);
	}
	free(groups);
}

int perfmon_uncore_count(const struct perfmon *p, const struct perfmon_layout_config *c, int room)
{
	char (*why)[200] = xcalloc((size_t)p->nmetrics + 1, sizeof(*why)), err[8];
	bool *taken = xcalloc((size_t)p->nmetrics + 1, sizeof(bool));
	struct layout_build *b = layout_build_new("(a dry run)");
	int n;

	perfmon_uncore_groups(p, c, room, b, taken, why);
	n = layout_build_groups(b);
	layout_build_finish(b, NULL, NULL, err, sizeof(err));
	free(taken);
	free(why);
	return n;
}
