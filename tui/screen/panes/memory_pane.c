/*
 * memory_pane: the machine's memory in one table, as pcm-memory shows it:
 * the sockets side by side, their channels as rows, each channel's read,
 * write and total bandwidth in GB/s and its share of the channel's peak;
 * each socket's totals and the system's; CXL where the layout counts it;
 * and, per socket, what its CHAs (Intel's servers), home logic (Nehalem) or
 * data fabric (AMD) were asked for against what the channels read, with
 * why they may differ.  The figures are the layout's, whichever names it
 * gives them (the vendor's memory_bandwidth_read, AMD's
 * umc_mem_read_bandwidth, pmutop's own read_bytes_per_s), converted from
 * the metric's unit; what the layout does not count, or a group that is
 * off, reads n/a with the key that counts it.  UI thread.
 */
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a figure may be called: the vendor's (Intel, AMD) or pmutop's own layouts' names. */
static const char *const mem_read[] = { "memory_bandwidth_read", "umc_mem_read_bandwidth",
					"read_bytes_per_s", NULL };
static const char *const mem_write[] = { "memory_bandwidth_write", "umc_mem_write_bandwidth",
					 "write_bytes_per_s", NULL };
/* what the socket's home was asked to read: by its cores, by the other socket, by I/O */
static const char *const mem_by_local[] = { "llc_miss_local_memory_bandwidth_read",
					    "dram_by_local_bytes_per_s",
					    "dram_read_data_for_local_processor", NULL };
static const char *const mem_by_remote[] = { "llc_miss_remote_memory_bandwidth_read",
					     "dram_by_remote_bytes_per_s",
					     "dram_read_data_for_remote_processor", NULL };
static const char *const mem_by_io[] = { "io_bandwidth_read", "dram_by_ioh_bytes_per_s", NULL };
static const char *const mem_cxl[] = { "cxl_read_bandwidth", NULL };

/* Bytes per second in one of UNIT ("MB/sec", "MiB/s", "B/s"), or NaN for a unit of no bytes. */
static double memory_pane_unit(const char *unit)
{
	static const struct {
		const char *prefix;
		double f;
	} units[] = { { "GiB/", 1073741824.0 }, { "MiB/", 1048576.0 }, { "KiB/", 1024.0 },
		      { "GB/", 1e9 }, { "MB/", 1e6 }, { "KB/", 1e3 }, { "kB/", 1e3 }, { "B/", 1 } };

	for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strncmp(unit, units[i].prefix, strlen(units[i].prefix)))
			return units[i].f;
	return NAN;
}

/* The first of NAMES the layout has (its metric), or -1. */
static int memory_pane_metric(const struct layout *l, const char *const *names)
{
	for (int i = 0; names[i]; i++) {
		int m = layout_metric_find(l, names[i]);

		if (m >= 0 && !isnan(memory_pane_unit(l->metrics[m].unit)))
			return m;
	}
	return -1;
}

/* Metric M of entity E in GB/s (NaN: not counted, its group off). */
static double memory_pane_gbs(const struct sample *s, const struct sample_entity *e, int m)
{
	const struct layout *l = s->layout;

	if (m < 0 || !e || (l->metrics[m].group >= 0 &&
			    s->groups[l->metrics[m].group].state == SAMPLE_GROUP_OFF))
		return NAN;
	return sample_metric(s, e, m) * memory_pane_unit(l->metrics[m].unit) / 1e9;
}

/* "  42.9" in W columns, or "   n/a". */
static void memory_pane_num(char *buf, size_t len, int w, double v)
{
	if (isnan(v))
		snprintf(buf, len, "%*s", w, "n/a");
	else
		snprintf(buf, len, "%*.*f", w, v >= 100 ? 1 : 2, v);
}

struct memory_cols {
	int rd, wr, peak;   /* metrics, -1 where the layout has none */
	int sock_w;         /* the columns of one socket */
	bool with_peak;     /* room for the peak column */
};

/* Row Y of sockets FIRST..FIRST+N-1: LABEL, then each socket's figures of E_OF(socket). */
static void memory_pane_row(const struct sample *s, const struct memory_cols *c, int y, int first,
			    int n, const char *label, int ch, enum grid_style st, struct grid *g)
{
	grid_put(g, y, 1, 9, st, "%s", label);
	for (int k = 0; k < n; k++) {
		int sk = first + k;
		const struct sample_entity *e = ch >= 0 ? sample_channel(s, sk, ch) : &s->sockets[sk];
		double rd = memory_pane_gbs(s, e, c->rd), wr = memory_pane_gbs(s, e, c->wr);
		double pk = c->peak >= 0 ? sample_metric(s, e, c->peak) : NAN;
		char a[16], b[16], t[16], p[16];

		memory_pane_num(a, sizeof(a), 7, rd);
		memory_pane_num(b, sizeof(b), 7, wr);
		memory_pane_num(t, sizeof(t), 7, rd + wr);
		if (isnan(pk))
			snprintf(p, sizeof(p), "%5s", "n/a");
		else
			snprintf(p, sizeof(p), "%4.0f%%", pk);
		grid_put(g, y, 10 + k * c->sock_w, c->sock_w, st, "%s %s %s%s%s", a, b, t,
			 c->with_peak ? " " : "", c->with_peak ? p : "");
	}
}

/*
 * Socket SK's channels (CHAN_RD, CHAN_WR GB/s) against what its home was
 * asked at Y: the requesters' figures (reads; Nehalem's home logic reads
 * and writes: its dram_by_*) and, where they differ by more than a tenth,
 * why they may.  The lines used.
 */
static int memory_pane_asked(const struct sample *s, int sk, double chan_rd, double chan_wr, int y,
			     int maxy, struct grid *g)
{
	const struct layout *l = s->layout;
	const struct sample_entity *e = &s->sockets[sk];
	int ml = memory_pane_metric(l, mem_by_local), mr = memory_pane_metric(l, mem_by_remote);
	int mi = memory_pane_metric(l, mem_by_io), mc = memory_pane_metric(l, mem_cxl);
	double loc = memory_pane_gbs(s, e, ml), rem = memory_pane_gbs(s, e, mr);
	double io = memory_pane_gbs(s, e, mi), cxl = memory_pane_gbs(s, e, mc), asked;
	const char *home = ml >= 0 && !strncmp(l->metrics[ml].name, "llc_", 4) ? "CHAs"
			   : ml >= 0 && !strncmp(l->metrics[ml].name, "dram_read", 9) ? "data fabric"
			   : "home logic";
	char why[320] = "", r[16], i[16], x[40] = "";
	int lines = 0;

	bool rw = ml >= 0 && !strncmp(l->metrics[ml].name, "dram_by_", 8);
	double chan = rw ? chan_rd + chan_wr : chan_rd;

	if (ml < 0 || isnan(loc))
		return 0;
	asked = loc + (isnan(rem) ? 0 : rem) + (isnan(io) ? 0 : io);
	if (!isnan(chan) && asked > 0 && fabs(chan / asked - 1) > 0.1)
		snprintf(why, sizeof(why), chan > asked
			 ? ": the channels carried %.0f %% more (hardware prefetches and I/O the %s do not "
			   "count as requests, patrol scrub)"
			 : ": the channels carried %.0f %% less (requests the %s count that memory did not serve: "
			   "another cache's lines, CXL; or a group's turn scaled)",
			 fabs(chan / asked - 1) * 100, home);
	else if (!isnan(chan) && asked > 0)
		snprintf(why, sizeof(why), ": the channels carried what was asked");
	snprintf(r, sizeof(r), isnan(rem) ? "n/a" : "%.2f", rem);
	snprintf(i, sizeof(i), isnan(io) ? "n/a" : "%.2f", io);
	if (cxl >= 0.005) /* CXL where there is some (a layout has the CHAs' CXL filters on any server) */
		snprintf(x, sizeof(x), "; CXL memory read %.2f GB/s", cxl);
	if (y + lines < maxy)
		lines += grid_put_wrap(g, y + lines, 1, g->w - 2, maxy - y - lines, GRID_DIM,
				       "socket %d, %s: asked to %s %.2f GB/s, by its cores %.2f, "
				       "the other sockets %s, I/O %s%s%s", s->sockets[sk].os_socket_id,
				       home, rw ? "read and write" : "read", asked, loc, r, i, why, x);
	return lines;
}

static int memory_pane_draw(const struct view *v, const struct sample *s, int y, int h,
			    struct grid *g, struct view_frame *f)
{
	const struct layout *l = v->info.layout;
	struct memory_cols c = { .rd = memory_pane_metric(l, mem_read),
				 .wr = memory_pane_metric(l, mem_write),
				 .peak = layout_metric_find(l, "dram_peak_pct") };
	int maxy = y + h, row = y, per, nch = sample_nchannels(s);
	double sys_rd = 0, sys_wr = 0, peak_bps = 0;

	(void)f;
	if (c.rd < 0) {
		grid_put_wrap(g, y, 2, g->w - 4, h, GRID_DIM, "Layout %s counts no memory "
			      "bandwidth (no memory_bandwidth_read, umc_mem_read_bandwidth or "
			      "read_bytes_per_s metric)", l->name);
		return h;
	}
	if (s->groups[l->metrics[c.rd].group].state == SAMPLE_GROUP_OFF) {
		grid_put_wrap(g, y, 2, g->w - 4, h, GRID_WARN, "Memory bandwidth is off: press %c "
			      "(%s)", l->groups[l->metrics[c.rd].group].key,
			      l->groups[l->metrics[c.rd].group].name);
		return h;
	}
	/* as many sockets side by side as fit, the peak column where there is room */
	c.with_peak = c.peak >= 0;
	c.sock_w = c.with_peak ? 31 : 25;
	per = (g->w - 11) / c.sock_w;
	if (per < s->nsockets && c.with_peak) {
		c.with_peak = false;
		c.sock_w = 25;
		per = (g->w - 11) / c.sock_w;
	}
	if (per < 1)
		per = 1;
	if (g->w >= 100)
		grid_put(g, row++, 1, g->w - 2, GRID_BOLD, "Memory (GB/s): each channel's read, write "
			 "and total%s; the sockets side by side", c.with_peak ? ", share of its peak"
			 : "");
	else
		grid_put(g, row++, 1, g->w - 2, GRID_BOLD, "Memory (GB/s): the channels of each socket");
	for (int first = 0; first < s->nsockets && row < maxy; first += per) {
		int n = s->nsockets - first < per ? s->nsockets - first : per;
		/* the totals first: the socket's row and the system's, a line per socket under them */
		int room = maxy - row - 2 - 1 - 1 - s->nsockets, shown = nch;

		if (shown > room) {
			shown = room - 1 > 0 ? room - 1 : 0;
		}

		grid_blank(g, row, 0, g->w, GRID_HEADER);
		grid_put(g, row, 1, 9, GRID_HEADER, "socket");
		for (int k = 0; k < n; k++)
			grid_put(g, row, 10 + k * c.sock_w, c.sock_w, GRID_HEADER, "%7d",
				 s->sockets[first + k].os_socket_id);
		row++;
		if (row < maxy) {
			grid_blank(g, row, 0, g->w, GRID_HEADER);
			grid_put(g, row, 1, 9, GRID_HEADER, "channel");
			for (int k = 0; k < n; k++)
				grid_put(g, row, 10 + k * c.sock_w, c.sock_w, GRID_HEADER,
					 "%7s %7s %7s%s", "read", "write", "total",
					 c.with_peak ? "  peak" : "");
			row++;
		}
		for (int ch = 0; ch < shown && row < maxy - 1; ch++) {
			char label[16];

			snprintf(label, sizeof(label), "CH%d", ch);
			memory_pane_row(s, &c, row++, first, n, label, ch, GRID_NORMAL, g);
		}
		if (shown < nch && row < maxy)
			grid_put(g, row++, 1, g->w - 2, GRID_DIM, "+%d more channels: O folds the "
				 "topology to a line per socket", nch - shown);
		if (row < maxy)
			memory_pane_row(s, &c, row++, first, n, "socket", -1, GRID_BOLD, g);
	}
	for (int sk = 0; sk < s->nsockets; sk++) {
		double rd = memory_pane_gbs(s, &s->sockets[sk], c.rd);
		double wr = memory_pane_gbs(s, &s->sockets[sk], c.wr);
		double pk = c.peak >= 0 ? sample_metric(s, &s->sockets[sk], c.peak) : NAN;

		sys_rd += rd;
		sys_wr += wr;
		if (pk > 0)
			peak_bps += (rd + wr) / (pk / 100);
	}
	if (row < maxy) {
		char peak[96] = "";

		if (peak_bps > 0)
			snprintf(peak, sizeof(peak), ", %.0f %% of the %.1f GB/s peak",
				 (sys_rd + sys_wr) / peak_bps * 100, peak_bps);
		grid_put(g, row++, 1, g->w - 2, GRID_BOLD, "system: read %.2f  write %.2f  total %.2f "
			 "GB/s%s", sys_rd, sys_wr, sys_rd + sys_wr, peak);
	}
	{
		int ml = memory_pane_metric(l, mem_by_local);
		int gr = ml >= 0 ? l->metrics[ml].group : -1;

		/* what the homes were asked, to hold the channels to: its key while it is off */
		if (gr >= 0 && s->groups[gr].state == SAMPLE_GROUP_OFF && row < maxy && l->groups[gr].key)
			grid_put(g, row++, 1, g->w - 2, GRID_DIM, "what the sockets' homes were asked to "
				 "read, to hold the channels to: press %c (%.*s)", l->groups[gr].key,
				 (int)strcspn(l->groups[gr].name, "."), l->groups[gr].name);
	}
	for (int sk = 0; sk < s->nsockets && row < maxy; sk++)
		row += memory_pane_asked(s, sk, memory_pane_gbs(s, &s->sockets[sk], c.rd),
					 memory_pane_gbs(s, &s->sockets[sk], c.wr), row, maxy, g);
	return row - y;
}

const struct pane memory_pane = {
	.name = "memory", .title = "Memory",
	.help = "the memory in one table, as pcm-memory: the sockets side by side, each channel's "
		"read, write and total GB/s and share of its peak, the socket's and system's totals, "
		"and what the CHAs were asked against what the channels read",
	.draw = memory_pane_draw, .rows = 12,
};
