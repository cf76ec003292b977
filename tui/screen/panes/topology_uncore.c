/*
 * topology_uncore: a socket's uncore beside its cores in the topology pane:
 * its memory channels as boxes with their heat (each channel's share of
 * its peak: dram_peak_pct, a block as high as the share, coloured at the
 * layout's thresholds), the socket's memory bandwidth, its links' traffic
 * out and in, its package power, from whichever of the layout's metrics
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
	static const char *const own[] = { "read_bytes_per_s", "write_bytes_per_s", NULL };
	double v = topology_uncore_sum(l, s, sk, vendor, 1e6);

	return isnan(v) ? topology_uncore_sum(l, s, sk, own, 1) : v;
}

/* Socket SK's figures: memory, links out and in (bytes/s), package watts; NaN what is not counted. */
static void topology_uncore_figures(const struct layout *l, const struct sample *s, int sk,
				    double *mem, double *up, double *down, double *pkg)
{
	static const char *const up_v[] = { "upi_data_transmit_bw", NULL };
	static const char *const down_v[] = { "upi_data_receive_bw", NULL };
	static const char *const up_own[] = { "qpi_data_to_remote_bytes_per_s", NULL };
	static const char *const down_own[] = { "qpi_data_from_remote_bytes_per_s", NULL };
	static const char *const watts[] = { "package_watts", NULL };

	*mem = topology_uncore_memory(l, s, sk);
	*up = topology_uncore_sum(l, s, sk, up_v, 1e6);
	*down = topology_uncore_sum(l, s, sk, down_v, 1e6);
	if (isnan(*up)) {
		*up = topology_uncore_sum(l, s, sk, up_own, 1);
		*down = topology_uncore_sum(l, s, sk, down_own, 1);
	}
	*pkg = topology_uncore_sum(l, s, sk, watts, 1);
}

/* The links' and the package's parts after the channels: " links out 1.0G in 7.8G  270 W". */
static void topology_uncore_rest(double up, double down, double pkg, char *buf, size_t len)
{
	char a[16], b[16];
	size_t n = 0;

	buf[0] = 0;
	if (!isnan(up) && !isnan(down)) {
		topology_uncore_bytes(up, a, sizeof(a));
		topology_uncore_bytes(down, b, sizeof(b));
		n += (size_t)snprintf(buf + n, len - n, " links out %s in %s ", a, b);
	}
	if (!isnan(pkg) && n < len)
		snprintf(buf + n, len - n, " %.0f W ", pkg);
}

void topology_uncore_text(const struct view *v, const struct sample *s, int sk, char *buf,
			  size_t len)
{
	double mem, up, down, pkg;
	char a[16], rest[96];

	buf[0] = 0;
	if (!s || sk >= s->nsockets)
		return;
	topology_uncore_figures(v->info.layout, s, sk, &mem, &up, &down, &pkg);
	topology_uncore_rest(up, down, pkg, rest, sizeof(rest));
	topology_uncore_bytes(mem, a, sizeof(a));
	snprintf(buf, len, "%s%s%s%s", isnan(mem) ? "" : "mem ", isnan(mem) ? "" : a,
		 isnan(mem) ? "" : "/s ", rest);
}

int topology_uncore_draw(const struct view *v, const struct sample *s, int sk, int y, int x,
			 int w, struct grid *g)
{
	const struct layout *l = v->info.layout;
	int m = layout_metric_find(l, "dram_peak_pct"), x0 = x, end = x + w;
	double mem, up, down, pkg;
	char buf[64], rest[96], a[16];

	if (!s || sk >= s->nsockets)
		return 0;
	topology_uncore_figures(l, s, sk, &mem, &up, &down, &pkg);
	if (isnan(mem) && isnan(up) && isnan(pkg))
		return 0;
	if (!isnan(mem) && x + 6 < end) {
		x += grid_put(g, y, x, end - x, GRID_DIM, " mem ");
		/* the channels as boxes: a block as high as the share of the peak, in its heat */
		for (int ch = 0; m >= 0 && l->metrics[m].scope == LAYOUT_CHANNEL &&
				 ch < s->nchannels && x < end - 1; ch++) {
			double pct = sample_metric(s, sample_channel(s, sk, ch), m);
			signed char lv = isnan(pct) ? -1 : (signed char)fmin(7, fmax(0, pct / 100 * 8));

			grid_spark(g, y, x, &lv, 1, pane_heat(l, m, pct, 100));
			x++;
		}
		topology_uncore_bytes(mem, a, sizeof(a));
		snprintf(buf, sizeof(buf), " %s/s ", a);
		x += grid_put(g, y, x, end - x, GRID_DIM, "%s", buf);
	}
	topology_uncore_rest(up, down, pkg, rest, sizeof(rest));
	if (rest[0] && (int)strlen(rest) <= end - x)
		x += grid_put(g, y, x, end - x, GRID_DIM, "%s", rest);
	return x - x0;
}
