/*
 * layout_items: the layout lines that define what is counted and computed:
 * events (libpfm4 names or raw fields, counters, channels, offcore values,
 * IMC counters), metrics (formulas over events, built-ins and earlier
 * metrics, with a scope) and their colour thresholds.  See layout_int.h.
 */
#include "layout.h"
#include "layout_int.h"
#include "counter.h"
#include "cpulist.h"
#include "expr.h"
#include "pfmenc.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Skylake client IMC free-running counters by name [S1 Table 3-3]. */
static const struct layout_imc_row {
	const char *name;
	uint32_t offset;
} layout_imc_rows[] = {
	{ .name = "DRAM_GT_REQUESTS", .offset = SKL_IMC_DRAM_GT_REQUESTS },
	{ .name = "DRAM_IA_REQUESTS", .offset = SKL_IMC_DRAM_IA_REQUESTS },
	{ .name = "DRAM_IO_REQUESTS", .offset = SKL_IMC_DRAM_IO_REQUESTS },
	{ .name = "DRAM_DATA_READS", .offset = SKL_IMC_DRAM_DATA_READS },
	{ .name = "DRAM_DATA_WRITES", .offset = SKL_IMC_DRAM_DATA_WRITES },
};

/* The OFFCORE_RESPONSE events and the matrix register each one reads (seed 000 "Offcore"). */
static const struct layout_offcore_row {
	unsigned event;
	uint32_t msr;
} layout_offcore_rows[] = {
	{ .event = 0xB7, .msr = MSR_OFFCORE_RSP_0 },
	{ .event = 0xBB, .msr = MSR_OFFCORE_RSP_1 },
};

/* ---- events ------------------------------------------------------------ */

static int layout_raw_field(struct layout_parser *p, const struct layout_token *t,
			    struct layout_event *ev)
{
	static const struct {
		const char *key;
		uint64_t max;
	} keys[] = { { "event", 0xFF }, { "umask", 0xFF }, { "cmask", 0xFF }, { "inv", 1 },
		     { "edge", 1 }, { "any", 1 }, { "offcore", ~0ull },
		     { "frontend", PEBS_FRONTEND_MASK }, { "eq", 1 } };
	const char *eq = strchr(t->text, '=');
	uint64_t v;
	/* the fields each PMU's event select has: uncore selects have no ANY, no extra registers */
	unsigned nkeys = layout_pmu_kinds[ev->pmu].per_socket ? 5 : 9;

	if (!eq)
		return layout_fail(p, t->at, "FIELD=VALUE (event, umask, cmask, inv, edge, any, "
				   "offcore, frontend, eq, ring), not '%s'", t->text);
	if (!strncmp(t->text, "filter1=", 8)) {
		/* Skylake-SP's CHA: the FILTER1 register the event needs (the kernel's filter_* fields) */
		if (ev->pmu != LAYOUT_PMU_CHA)
			return layout_fail(p, t->at, "no filter1= here: the CHA's FILTER1 register "
					   "belongs to an event of 'pmu cha'");
		if (layout_number(p, t, eq + 1, 0xFFFFFFFFull, &v))
			return -EINVAL;
		if (v & counter_filter1_reserved())
			return layout_fail(p, t->at + 8, "a FILTER1 value with no reserved bit set (its "
					   "fields: remote, local, all opcodes, memory types, two opcodes, "
					   "non-coherent, isochronous), not '%s'", eq + 1);
		ev->filter1 = (uint32_t)v;
		ev->has_filter1 = true;
		return 0;
	}
	if (!strncmp(t->text, "ring=", 5) && !layout_pmu_kinds[ev->pmu].per_socket) {
		/* the privilege levels of this event alone, within the run's */
		if (!strcmp(eq + 1, "user"))
			ev->ring = LAYOUT_RING_USER;
		else if (!strcmp(eq + 1, "kernel"))
			ev->ring = LAYOUT_RING_KERNEL;
		else
			return layout_fail(p, t->at + (eq + 1 - t->text), /* the column in the line */
					   "ring=user or ring=kernel, not '%s'", eq + 1);
		return 0;
	}
	for (size_t k = 0; k < nkeys; k++) {
		if (strlen(keys[k].key) != (size_t)(eq - t->text) ||
		    strncmp(keys[k].key, t->text, (size_t)(eq - t->text)))
			continue;
		uint64_t max = keys[k].max;

		if (k == 2)
			max = layout_pmu_kinds[ev->pmu].cmask_max;
		else if (k == 1 && layout_pmu_kinds[ev->pmu].umask_max)
			max = layout_pmu_kinds[ev->pmu].umask_max; /* the vendor's UMaskExt above bit 8 */
		else if (k == 0 && layout_pmu_kinds[ev->pmu].event_max)
			max = layout_pmu_kinds[ev->pmu].event_max; /* AMD's data fabric: 14 bits */
		else if (k == 0 && p->l->vendor == CPUID_VENDOR_AMD)
			max = AMD_EVENT_MAX; /* AMD's event selects are 12 bits wide */
		if (layout_number(p, t, eq + 1, max, &v))
			return -EINVAL;
		switch (k) {
		case 0: ev->event = (unsigned)v; break;
		case 1: ev->umask = v; break;
		case 2: ev->cmask = (unsigned)v; break;
		case 3: ev->inv = v; break;
		case 4: ev->edge = v; break;
		case 5: ev->any = v; break;
		case 6: ev->offcore = v; ev->has_offcore = true; break;
		case 7: ev->frontend = (uint32_t)v; ev->has_frontend = true; break;
		default: ev->eq = v; break;
		}
		return 0;
	}
	return layout_fail(p, t->at, "a raw field (event, umask, cmask, inv, edge%s), not '%.*s'",
			   nkeys == 9 ? ", any, offcore, frontend, eq, ring" : "", (int)(eq - t->text),
			   t->text);
}

/* Trailing words of an event line: per-core, counters=LIST, channel=N, box=N. */
static int layout_event_attr(struct layout_parser *p, const struct layout_token *t,
			     struct layout_event *ev)
{
	if (!strncmp(t->text, "box=", 4)) {
		uint64_t b;
		const struct layout_pmu_kind *k = &layout_pmu_kinds[ev->pmu];

		if (!k->kernel_only || !k->summed_boxes || k->box_channels)
			return layout_fail(p, t->at, "no box=N here: one box of a kind the kernel "
					   "numbers (pmu cha, upi; a channel is channel=N)");
		if (layout_number(p, t, t->text + 4, 255, &b))
			return -EINVAL;
		ev->box = (int)b;
		return 0;
	}
	if (!strncmp(t->text, "channel=", 8)) {
		uint64_t ch;

		if (!layout_pmu_kinds[ev->pmu].per_socket)
			return layout_fail(p, t->at, "no channel=N in a core group: channels belong "
					   "to a memory controller ('pmu uncore')");
		if (layout_number(p, t, t->text + 8, LAYOUT_MAX_CHANNELS - 1, &ch))
			return -EINVAL;
		ev->channel = (int)ch;
		return 0;
	}
	if (!strcmp(t->text, "per-core")) {
		ev->per_core = true;
		return 0;
	}
	if (!strcmp(t->text, "sum")) {
		ev->summed = true;
		return 0;
	}
	if (!strncmp(t->text, "counters=", 9)) {
		int *cpus, n;
		size_t col;

		if (cpulist_parse(t->text + 9, &cpus, &n, &col) || n == 0)
			return layout_fail(p, t->at, "counters=LIST of counter numbers (0-3), not '%s'",
					   t->text);
		ev->counters = 0;
		for (int i = 0; i < n; i++) {
			if (cpus[i] >= PMU_MAX_GP) {
				free(cpus);
				return layout_fail(p, t->at, "counter numbers below %d in '%s'",
						   PMU_MAX_GP, t->text);
			}
			ev->counters |= 1u << cpus[i];
		}
		free(cpus);
		return 0;
	}
	return -ENOENT;
}

/*
 * An event name is new, or (for channel events) the name of another event
 * of this group counting the same thing on another channel: they share one
 * variable, which is per channel at channel scope and their sum above.
 * Sets EV->var.
 */
static int layout_event_name(struct layout_parser *p, struct layout_event *ev)
{
	const struct layout *l = p->l;
	const struct layout_token *t = &p->tok[1];

	bool copy = false;

	ev->var = LAYOUT_NBUILTINS + l->nevents;
	for (int i = 0; i < l->nevents; i++) {
		const struct layout_event *o = &l->events[i];

		if (strcmp(o->name, t->text))
			continue;
		/*
		 * another channel of the name in another group (AMD's fabric: an
		 * event of its own for each channel, four to a group): one variable
		 */
		if (o->group != ev->group && o->channel >= 0 && ev->channel >= 0 &&
		    o->channel != ev->channel) {
			ev->var = o->var;
			return 0;
		}
		/*
		 * the same event in another group (the vendor's data: each metric's
		 * events counted together): that group's own count, of the same
		 * encoding
		 */
		if (o->group != ev->group && (o->channel < 0) == (ev->channel < 0)) {
			/* an offcore event reads the same matrix value through either register */
			bool twin = o->has_offcore && ev->has_offcore;

			if ((o->event != ev->event && !twin) || o->umask != ev->umask ||
			    o->cmask != ev->cmask || o->inv != ev->inv ||
			    o->edge != ev->edge || o->any != ev->any || o->offcore != ev->offcore ||
			    o->frontend != ev->frontend)
				return layout_fail(p, t->at, "the encoding of '%s' in group '%s': "
						   "an event of one name counts one thing",
						   t->text, l->groups[o->group].name);
			copy = true;
			continue;
		}
		if (o->group != ev->group || o->channel < 0 || ev->channel < 0) {
			copy = false;
			break;
		}
		if (o->channel == ev->channel)
			return layout_fail(p, t->at, "a new channel for event '%s': channel %d is "
					   "already counted", t->text, ev->channel);
		ev->var = o->var;
		return 0;
	}
	return copy ? 0 : layout_new_name(p, t);
}

/* An event of the Skylake IMC: one of its free-running counters by name. */
static int layout_imc_event(struct layout_parser *p, struct layout_event *ev)
{
	for (size_t k = 0; k < sizeof(layout_imc_rows) / sizeof(layout_imc_rows[0]); k++)
		if (!strcmp(p->tok[2].text, layout_imc_rows[k].name)) {
			ev->mmio = layout_imc_rows[k].offset;
			return 0;
		}
	return layout_fail(p, p->tok[2].at, "an IMC counter (DRAM_GT_REQUESTS, DRAM_IA_REQUESTS, "
			   "DRAM_IO_REQUESTS, DRAM_DATA_READS, DRAM_DATA_WRITES), not '%s'",
			   p->tok[2].text);
}

int layout_event(struct layout_parser *p)
{
	struct layout *l = p->l;
	enum layout_pmu pmu = l->groups[p->group].pmu;
	struct layout_event ev = { .group = p->group, .line = p->line, .pmu = pmu, .channel = -1,
				   .box = -1,
				   .counters = (1u << PMU_MAX_GP) - 1 };
	int rc = layout_want_args(p, 2, -1, "an event name and its encoding (a libpfm4 name or 'raw')");
	int i = 3;
	const char *pfm_pmu = !layout_pmu_kinds[pmu].per_socket ? l->libpfm_pmu : l->libpfm_uncore;

	if (rc)
		return rc;
	if (!layout_is_name(p->tok[1].text))
		return layout_fail(p, p->tok[1].at, "a name (letters, digits, '_', '.'), not '%s'",
				   p->tok[1].text);
	if (layout_pmu_kinds[pmu].aliases) {
		/* the kernel's name of the event (energy-pkg): its events/ file says the rest */
		for (const char *c = p->tok[2].text; *c; c++)
			if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '-' &&
			    *c != '_')
				return layout_fail(p, p->tok[2].at, "the kernel's name of a %s event "
						   "(its events/ file, such as energy-pkg), not '%s'",
						   layout_pmu_kinds[pmu].name, p->tok[2].text);
	} else if (layout_pmu_kinds[pmu].free_running) {
		if ((rc = layout_imc_event(p, &ev)))
			return rc;
	} else if (!strcmp(p->tok[2].text, "vendor")) {
		/*
		 * pmutop's own files: the vendor's event of this name, whose
		 * encoding the layouts made from the vendor's data write
		 * (perfmon_own_vendor.c)
		 */
		if (!p->part)
			return layout_fail(p, p->tok[2].at, "'raw FIELD=VALUE...' or a libpfm4 name "
					   "('vendor' takes the encoding from the vendor's data: only "
					   "pmutop's own files in layouts/own have it)");
		if (pmu != LAYOUT_PMU_CHA && pmu != LAYOUT_PMU_UPI)
			return layout_fail(p, p->tok[2].at, "'raw FIELD=VALUE...' or a libpfm4 name "
					   "('vendor' names an uncore event of Intel's data: a group of "
					   "'pmu cha' or 'pmu upi', whose encodings pmutop writes)");
		if (p->ntok > 3)
			return layout_fail(p, p->tok[3].at, "the end of the line after 'vendor' (its "
					   "box and channel are the generator's)");
	} else if (!strcmp(p->tok[2].text, "raw")) {
		bool have_event = false;

		for (; i < p->ntok && strchr(p->tok[i].text, '='); i++) {
			if (!strncmp(p->tok[i].text, "counters=", 9) ||
			    !strncmp(p->tok[i].text, "channel=", 8) || !strncmp(p->tok[i].text, "box=", 4))
				break;
			if (layout_raw_field(p, &p->tok[i], &ev))
				return -EINVAL;
			have_event |= !strncmp(p->tok[i].text, "event=", 6);
		}
		if (!have_event)
			return layout_fail(p, p->tok[2].at + 3, "event=CODE after 'raw'");
	} else {
		struct pfmenc_fields f;
		char why[200];

		if (!pfm_pmu)
			return layout_fail(p, p->tok[2].at, "'raw FIELD=VALUE...' (no '%s' line before "
					   "this event names the libpfm4 PMU)",
					   !layout_pmu_kinds[pmu].per_socket ? "libpfm PMU" : "libpfm_uncore PMU");
		if (pfmenc_encode(pfm_pmu, p->tok[2].text, &f, why, sizeof(why)))
			return layout_fail(p, p->tok[2].at, "an event libpfm4 knows for PMU %s: '%s': %s",
					   pfm_pmu, p->tok[2].text, why);
		ev.event = f.event;
		ev.umask = f.umask;
		ev.cmask = f.cmask;
		ev.inv = f.inv;
		ev.edge = f.edge;
		ev.any = f.any;
		ev.has_offcore = f.has_offcore;
		ev.offcore = f.offcore;
		ev.canonical = xstrdup(f.canonical);
	}
	for (; i < p->ntok; i++) {
		rc = layout_event_attr(p, &p->tok[i], &ev);
		if (rc) {
			free(ev.canonical);
			if (rc == -ENOENT)
				rc = layout_fail(p, p->tok[i].at, "'per-core', 'counters=LIST', "
						 "'channel=N' or 'box=N', not '%s'", p->tok[i].text);
			return rc;
		}
	}
	if ((rc = layout_event_name(p, &ev))) {
		free(ev.canonical);
		return rc;
	}
	ev.per_core |= ev.any && !ev.summed;
	for (size_t k = 0; !layout_pmu_kinds[pmu].per_socket && !l->no_offcore &&
			   k < sizeof(layout_offcore_rows) / sizeof(layout_offcore_rows[0]); k++)
		if ((l->offcore_event[k] ? l->offcore_event[k] : layout_offcore_rows[k].event) ==
		    ev.event)
			ev.offcore_msr = layout_offcore_rows[k].msr;
	if (ev.offcore_msr && !ev.has_offcore) {
		free(ev.canonical);
		return layout_fail(p, p->tok[2].at, "offcore=VALUE: event 0x%02X reads the offcore "
				   "response register", ev.event);
	}
	if (ev.has_offcore && !ev.offcore_msr) {
		free(ev.canonical);
		return layout_fail(p, p->tok[2].at, "no offcore value: event 0x%02X is not an "
				   "OFFCORE_RESPONSE event", ev.event);
	}
	ev.name = xstrdup(p->tok[1].text);
	ev.spec = xstrdup(p->tok[2].text);
	l->events = xrealloc(l->events, (size_t)l->nevents + 1, sizeof(*l->events));
	l->events[l->nevents++] = ev;
	l->groups[p->group].nevents++;
	return 0;
}

/* ---- metrics ----------------------------------------------------------- */

static int layout_lookup(void *ctx, const char *name, size_t len)
{
	struct layout_parser *p = ctx;
	const struct layout *l = p->l;

	layout_groups key = p->group >= 0 ? layout_key_groups(l, p->group) : 0;
	layout_groups reads = layout_groups_counted(l, key) & ~key;
	int other = -1, read = -1;

	p->why = NULL;
	for (int i = 0; i < LAYOUT_NBUILTINS; i++)
		if (strlen(layout_builtin_names[i]) == len && !strncmp(layout_builtin_names[i], name, len))
			return i;
	/* a part's facts of the machine: a number where a layout takes the part in; checked, not counted */
	for (int i = 0; p->part && i < LAYOUT_NFACTS; i++)
		if (strlen(layout_part_facts[i]) == len && !strncmp(layout_part_facts[i], name, len))
			return LAYOUT_B_threads;
	/* the group's own event, else the first of another group of its key */
	for (int i = 0; i < l->nevents; i++) {
		if (strlen(l->events[i].name) != len || strncmp(l->events[i].name, name, len))
			continue;
		if (l->events[i].group == p->group) {
			/* its other channels in the key's other groups (one variable): read too */
			for (int j = 0; j < l->nevents; j++)
				if (l->events[j].var == l->events[i].var &&
				    (key & LAYOUT_GROUP(l->events[j].group)))
					p->uses |= LAYOUT_GROUP(l->events[j].group);
			return l->events[i].var;
		}
		if (other < 0 && (key & LAYOUT_GROUP(l->events[i].group)))
			other = i;
		/* else one of a group the key reads ("reads") */
		if (read < 0 && (reads & LAYOUT_GROUP(l->events[i].group)))
			read = i;
	}
	if (other >= 0 || read >= 0) {
		int e = other >= 0 ? other : read;

		p->uses |= LAYOUT_GROUP(l->events[e].group);
		return l->events[e].var;
	}
	for (int i = 0; i < l->nevents; i++) {
		if (strlen(l->events[i].name) != len || strncmp(l->events[i].name, name, len))
			continue;
		snprintf(p->whybuf, sizeof(p->whybuf), "event '%s' belongs to group '%s': a metric "
			 "uses only its own group's events", l->events[i].name,
			 l->groups[l->events[i].group].name);
		p->why = p->whybuf;
		return -1;
	}
	for (int i = 0; i < l->nmetrics; i++) {
		const struct layout_metric *m = &l->metrics[i];

		if (strlen(m->name) != len || strncmp(m->name, name, len))
			continue;
		if (m->group >= 0 && m->group != p->group && !(key & LAYOUT_GROUP(m->group))) {
			snprintf(p->whybuf, sizeof(p->whybuf), "metric '%s' belongs to group '%s'",
				 m->name, l->groups[m->group].name);
			p->why = p->whybuf;
			return -1;
		}
		if (!layout_scope_computed(m->scope, p->scope)) {
			snprintf(p->whybuf, sizeof(p->whybuf), "metric '%s' has scope %s: a %s metric "
				 "cannot use it", m->name, layout_scope_names[m->scope],
				 layout_scope_names[p->scope]);
			p->why = p->whybuf;
			return -1;
		}
		p->uses |= m->uses;
		/* metrics are renumbered once the event count is final (layout_fixup) */
		return LAYOUT_METRIC_TAG + i;
	}
	return -1;
}

int layout_name_scope(struct layout_parser *p, int *scope)
{
	int rc, s;

	if ((rc = layout_new_name(p, &p->tok[1])))
		return rc;
	for (s = 0; s < LAYOUT_NSCOPES; s++)
		if (!strcmp(p->tok[2].text, layout_scope_names[s]))
			break;
	if (s == LAYOUT_NSCOPES)
		return layout_fail(p, p->tok[2].at, "a scope (thread, core, socket or channel), not "
				   "'%s'", p->tok[2].text);
	*scope = s;
	return 0;
}

/* metric NAME SCOPE UNIT = FORMULA; the formula is the rest of the raw line. */
int layout_metric(struct layout_parser *p, const char *eol)
{
	struct layout *l = p->l;
	struct layout_metric m = { .group = p->group, .line = p->line, .warn = NAN, .crit = NAN };
	const char *f;
	char why[200];
	int rc, col, s;
	size_t flen;

	if (p->ntok < 5 || strcmp(p->tok[4].text, "="))
		return layout_fail(p, p->ntok < 5 ? eol : p->tok[4].at,
				   "'metric NAME SCOPE UNIT = FORMULA'");
	if ((rc = layout_name_scope(p, &s)))
		return rc;
	if (p->group >= 0 && layout_pmu_kinds[l->groups[p->group].pmu].per_socket
	    ? s != LAYOUT_SOCKET && s != LAYOUT_CHANNEL &&
	      !(s == LAYOUT_CORE && layout_pmu_kinds[l->groups[p->group].pmu].core_boxes)
	    : s == LAYOUT_CHANNEL)
		return layout_fail(p, p->tok[2].at, "%s: uncore counts belong to sockets and "
				   "channels, core counts to threads, cores and sockets",
				   p->group >= 0 && layout_pmu_kinds[l->groups[p->group].pmu].per_socket
				   ? "scope socket or channel in an uncore group"
				   : "scope thread, core or socket outside an uncore group");
	m.scope = (enum layout_scope)s;
	p->scope = m.scope;
	p->uses = p->group >= 0 ? LAYOUT_GROUP(p->group) : 0;
	f = p->tok[4].at + 1;
	flen = (size_t)(eol - f);
	if (memchr(f, '#', flen))
		flen = (size_t)((const char *)memchr(f, '#', flen) - f);
	m.formula = xmalloc(flen + 1);
	memcpy(m.formula, f, flen);
	m.formula[flen] = 0;
	while (flen && isspace((unsigned char)m.formula[flen - 1]))
		m.formula[--flen] = 0;
	{
		size_t lead = strspn(m.formula, " \t");

		memmove(m.formula, m.formula + lead, flen - lead + 1);
		f += lead;
	}
	if (expr_parse(m.formula, layout_lookup, p, &m.expr, &col, why, sizeof(why))) {
		free(m.formula);
		return layout_fail(p, f + col, "%s", p->why ? p->why : why);
	}
	if (m.group < 0) {
		const int *vars;
		int nv;

		expr_vars(m.expr, &vars, &nv);
		for (int i = 0; i < nv; i++)
			if (vars[i] >= LAYOUT_NBUILTINS) {
				expr_free(m.expr);
				free(m.formula);
				return layout_fail(p, f, "a formula of built-ins only: a metric outside "
						   "a group is always live");
			}
	}
	m.uses = p->uses;
	m.parent = -1;
	m.name = xstrdup(p->tok[1].text);
	m.unit = xstrdup(p->tok[3].text);
	l->metrics = xrealloc(l->metrics, (size_t)l->nmetrics + 1, sizeof(*l->metrics));
	l->metrics[l->nmetrics] = m;
	p->last_metric = l->nmetrics++;
	return 0;
}

/* "thresholds warn N crit N" after a metric: the colours its figures take on screen. */
int layout_thresholds(struct layout_parser *p)
{
	struct layout_metric *mt;
	int rc;

	if (p->last_metric < 0)
		return layout_fail(p, p->tok[0].at, "a metric line before 'thresholds'");
	mt = &p->l->metrics[p->last_metric];
	if ((rc = layout_want_args(p, 2, 4, "warn N and/or crit N")))
		return rc;
	for (int i = 1; i < p->ntok; i += 2) {
		double *dst = !strcmp(p->tok[i].text, "warn") ? &mt->warn
			      : !strcmp(p->tok[i].text, "crit") ? &mt->crit : NULL;

		if (!dst)
			return layout_fail(p, p->tok[i].at, "warn N or crit N, not '%s'",
					   p->tok[i].text);
		if (i + 1 >= p->ntok)
			return layout_fail(p, p->tok[i].at + strlen(p->tok[i].text),
					   "a number after '%s'", p->tok[i].text);
		if (layout_double(p, &p->tok[i + 1], dst))
			return -EINVAL;
	}
	if (!isnan(mt->warn) && !isnan(mt->crit) && mt->warn > mt->crit)
		return layout_fail(p, p->tok[1].at, "warn at most crit (%g > %g)", mt->warn, mt->crit);
	return 0;
}

/*
 * "offcore none" (no event reads the offcore response registers) or
 * "offcore EV0 EV1" (the events that read MSR_OFFCORE_RSP_0 and _1: Ice
 * Lake-SP's OCR events and later; B7H and BBH without the line).
 */
int layout_offcore(struct layout_parser *p)
{
	struct layout *l = p->l;
	int rc;

	if ((rc = layout_want_args(p, 1, 2, "'none' or the two events that read them")))
		return rc;
	if (l->nevents)
		return layout_fail(p, p->tok[0].at, "the 'offcore' line before the first event");
	if (p->ntok == 2 && !strcmp(p->tok[1].text, "none")) {
		l->no_offcore = true;
		return 0;
	}
	/* "offcore 0x2A 0x2B": Ice Lake-SP and later read the matrices with OCR events */
	for (int k = 0; k < 2; k++) {
		uint64_t ev;

		if (p->ntok != 3)
			return layout_fail(p, p->tok[1].at, "'none' (no event reads the offcore "
					   "response registers) or two event codes, not '%s'",
					   p->tok[1].text);
		if (layout_number(p, &p->tok[1 + k], p->tok[1 + k].text, 0xFF, &ev))
			return -EINVAL;
		l->offcore_event[k] = (unsigned)ev;
	}
	return 0;
}
