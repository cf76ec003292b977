/*
 * topology_uncore: a socket's uncore beside its cores in the topology pane:
 * its memory channels as boxes with their heat (each channel's share of
 * its peak: dram_peak_pct, a block as high as the share, coloured at the
 * layout's thresholds), the socket's memory bandwidth, its links' traffic
 * out and in (with the links' use where pmutop's upi_*_utilization count:
 * "out 955M 1%"), its L3's miss latency (the vendor's, of the socket's CHAs or
 * CCXs), its package power, from whichever of the layout's metrics
 * say so (the vendor's memory_bandwidth_total, upi_data_*_bw; pmutop's own
 * read/write_bytes_per_s, qpi_data_*_bytes_per_s; package_watts).  What the
 * layout does not count, or a group that is off, is left out.  UI thread.
 */
#include "topology_uncore.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A figure of socket SK: the sum of the metrics named, in bytes/s (FACTOR per unit); NaN none. */
static double topology_uncore_sum(const struct layout *l, const struct sample *s, int sk,
				  const char *const *names, double factor)
{
	double sum = NAN;

	for (int i = 0; names[i]; i++) {
		int m = layout_metric_find(l, names[i]);
		double v = m >= 0 && s->groups[l->metrics[m].group].state != SAMPLE_GROUP_OFF
			   ? sample_metric(s, &s->sockets[sk], m) : NAN;

		if (!isnan(v))
			sum = (isnan(sum) ? 0 : sum) + v * factor;
	}
	return sum;
}

/* Bytes/s as "64.0G", "950M", "0". */
static void topology_uncore_bytes(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.1fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.0fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.0fK", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

/* The memory figure of socket SK (bytes/s), whichever the layout counts. */
static double topology_uncore_memory(const struct layout *l, const struct sample *s, int sk)
{
	static const char *const vendor[] = { "memory_bandwidth_total", NULL };
	static const char *const amd[] = { "umc_mem_bandwidth", NULL };
	static const char *const own[] = { "read_bytes_per_s", "write_bytes_per_s", NULL };
	double v = topology_uncore_sum(l, s, sk, vendor, 1e6);

	if (isnan(v))
		v = topology_uncore_sum(l, s, sk, amd, 1e6); /* AMD's channels summed, MB/s */

	return isnan(v) ? topology_uncore_sum(l, s, sk, own, 1) : v;
}

/* A socket's figures; NaN what is not counted. */
struct topology_uncore_fig {
	double mem, up, down;   /* memory, links out and in: bytes/s */
	double up_use, down_use; /* the links' use out and in, % */
	double pkg;             /* package watts */
	double l3_lat;          /* the socket's L3 miss latency (the vendor's), in L3_UNIT */
	const char *l3_unit;    /* "ns", or "clk" (AMD's: core clocks) */
};

/* Socket SK's figures. */
static void topology_uncore_figures(const struct layout *l, const struct sample *s, int sk,
				    struct topology_uncore_fig *fig)
{
	static const char *const up_v[] = { "upi_data_transmit_bw", NULL };
	static const char *const down_v[] = { "upi_data_receive_bw", NULL };
	static const char *const up_own[] = { "qpi_data_to_remote_bytes_per_s", NULL };
	static const char *const down_own[] = { "qpi_data_from_remote_bytes_per_s", NULL };
	static const char *const watts[] = { "package_watts", NULL };
	static const char *const up_use[] = { "upi_tx_utilization", NULL };
	static const char *const down_use[] = { "upi_rx_utilization", NULL };
	static const char *const intel_l3[] = { "llc_demand_data_read_miss_latency", NULL };
	static const char *const amd_l3[] = { "l3_read_miss_latency", NULL };

	fig->mem = topology_uncore_memory(l, s, sk);
	fig->up = topology_uncore_sum(l, s, sk, up_v, 1e6);
	fig->down = topology_uncore_sum(l, s, sk, down_v, 1e6);
	if (isnan(fig->up)) {
		fig->up = topology_uncore_sum(l, s, sk, up_own, 1);
		fig->down = topology_uncore_sum(l, s, sk, down_own, 1);
	}
	fig->up_use = topology_uncore_sum(l, s, sk, up_use, 1);
	fig->down_use = topology_uncore_sum(l, s, sk, down_use, 1);
	fig->pkg = topology_uncore_sum(l, s, sk, watts, 1);
	/* the L3 where it lives: the socket's (Intel's CHAs, AMD's CCXs summed) */
	fig->l3_lat = topology_uncore_sum(l, s, sk, intel_l3, 1);
	fig->l3_unit = "ns";
	if (isnan(fig->l3_lat)) {
		fig->l3_lat = topology_uncore_sum(l, s, sk, amd_l3, 1);
		fig->l3_unit = "clk";
	}
}

/* " 1%" of the links' use, or "" where USE is not counted (or BRIEF). */
static const char *topology_uncore_use(double use, bool brief, char *buf, size_t len)
{
	if (brief || isnan(use))
		return "";
	snprintf(buf, len, " %.0f%%", use);
	return buf;
}

/*
 * The links', the L3's and the package's parts after the channels: " links out
 * 1.0G 4% in 7.8G 1%  L3 miss 104ns  270 W"; at DETAIL 1 without the L3, at 0
 * without the links' use either.
 */
static void topology_uncore_rest(const struct topology_uncore_fig *fig, int detail, char *buf,
				 size_t len)
{
	bool brief = detail < 1;

	char a[16], b[16], ua[16], ub[16];
	size_t n = 0;

	buf[0] = 0;
	if (!isnan(fig->up) && !isnan(fig->down)) {
		topology_uncore_bytes(fig->up, a, sizeof(a));
		topology_uncore_bytes(fig->down, b, sizeof(b));
		n += (size_t)snprintf(buf + n, len - n, " links out %s%s in %s%s ", a,
				      topology_uncore_use(fig->up_use, brief, ua, sizeof(ua)), b,
				      topology_uncore_use(fig->down_use, brief, ub, sizeof(ub)));
	}
	if (detail > 1 && !isnan(fig->l3_lat) && n < len)
		n += (size_t)snprintf(buf + n, len - n, " L3 miss %.0f%s ", fig->l3_lat, fig->l3_unit);
	if (!isnan(fig->pkg) && n < len)
		snprintf(buf + n, len - n, " %.0f W ", fig->pkg);
}

void topology_uncore_text(const struct view *v, const struct sample *s, int sk, int detail,
			  char *buf, size_t len)
{
	struct topology_uncore_fig fig;
	char a[16], rest[112];

	buf[0] = 0;
	if (!s || sk >= s->nsockets)
		return;
	topology_uncore_figures(v->info.layout, s, sk, &fig);
	topology_uncore_rest(&fig, detail, rest, sizeof(rest));
	topology_uncore_bytes(fig.mem, a, sizeof(a));
	snprintf(buf, len, "%s%s%s%s", isnan(fig.mem) ? "" : "mem ", isnan(fig.mem) ? "" : a,
		 isnan(fig.mem) ? "" : "/s ", rest);
}

int topology_uncore_draw(const struct view *v, const struct sample *s, int sk, int y, int x,
			 int w, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int m = layout_metric_find(l, "dram_peak_pct"), x0 = x, end = x + w;
	struct topology_uncore_fig fig;
	char buf[64], rest[112], a[16];

	if (!s || sk >= s->nsockets)
		return 0;
	topology_uncore_figures(l, s, sk, &fig);
	if (isnan(fig.mem) && isnan(fig.up) && isnan(fig.pkg) && isnan(fig.l3_lat))
		return 0;
	if (!isnan(fig.mem) && x + 6 < end) {
		x += grid_put(g, y, x, end - x, GRID_DIM, " mem ");
		/* the channels as boxes: a block as high as the share of the peak, in its heat */
		for (int ch = 0; m >= 0 && l->metrics[m].scope == LAYOUT_CHANNEL &&
				 ch < sample_nchannels(s) && x < end - 1; ch++) {
			double pct = sample_metric(s, sample_channel(s, sk, ch), m);
			signed char lv = isnan(pct) ? -1 : (signed char)fmin(7, fmax(0, pct / 100 * 8));

			grid_spark(g, y, x, &lv, 1, pane_heat(l, m, pct, 100));
			x++;
		}
		topology_uncore_bytes(fig.mem, a, sizeof(a));
		snprintf(buf, sizeof(buf), " %s/s ", a);
		x += grid_put(g, y, x, end - x, GRID_DIM, "%s", buf);
	}
	/* the links' use and the L3 where they fit, else less */
	for (int detail = 2; detail >= 0; detail--) {
		topology_uncore_rest(&fig, detail, rest, sizeof(rest));
		if ((int)strlen(rest) <= end - x)
			break;
	}
	if (rest[0] && (int)strlen(rest) <= end - x)
		x += grid_put(g, y, x, end - x, GRID_DIM, "%s", rest);
	return x - x0;
}
