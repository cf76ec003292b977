/*
 * prom_stable: the stable families of the exposition (figure.h): the
 * figures every platform has under one name, per socket (a memory
 * channel's and a link's too), the vendor's name of each in the metric
 * label, in base units.  A dashboard asks for these.  See prom.h.
 */
#include "figure.h"
#include "prom_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One stable series: pmutop_FAMILY{socket[,channel][,link],fixed labels,metric=VENDOR} V. */
static void prom_figure_series(struct prom_ctx *c, const char *family, const struct figure *f,
			       int sock, int chan, int link, const char *metric, double v)
{
	fprintf(c->out, "pmutop_%s{socket=\"%d\",", family, sock);
	if (chan >= -1 && !strncmp(f->family, "memory_", 7))
		chan < 0 ? fputs("channel=\"all\",", c->out) : fprintf(c->out, "channel=\"%d\",", chan);
	if (link >= 0)
		fprintf(c->out, "link=\"%d\",", link);
	if (f->labels[0])
		fprintf(c->out, "%s,", f->labels);
	fputs("metric=\"", c->out);
	prom_label_value(c->out, metric);
	fprintf(c->out, "\",source=\"%s\"%s} %.17g\n", c->source,
		c->s->simulated ? ",simulated=\"true\"" : "", v);
	c->series++;
}

void prom_figures(struct prom_ctx *c)
{
	const struct sample *s = c->s;
	const struct layout *l = s->layout;

	for (int i = 0; i < nfigures; i++) {
		const struct figure *f = &figures[i];
		bool first = true;

		/* a family is written whole, each row of it in turn, its HELP once */
		for (int j = 0; j < i && first; j++)
			first = strcmp(figures[j].family, f->family) != 0;
		if (!first)
			continue;
		for (int j = i; j < nfigures; j++) {
			int ms[16], link[16], n;

			if (strcmp(figures[j].family, f->family))
				continue;
			n = figure_metrics(l, &figures[j], ms, link, 16);
			for (int k = 0; k < n; k++) {
				const struct layout_metric *mt = &l->metrics[ms[k]];
				double fac = figure_factor(mt->unit);

				if (mt->group >= 0 && s->groups[mt->group].state == SAMPLE_GROUP_OFF)
					continue;
				for (int sk = 0; sk < s->nsockets; sk++) {
					double v = sample_metric(s, &s->sockets[sk], ms[k]);

					if (!isfinite(v))
						continue;
					if (first) {
						char name[96];

						snprintf(name, sizeof(name), "pmutop_%s", f->family);
						prom_family(c, name, "gauge", f->help, "stable: the same "
							    "name on every platform");
						first = false;
					}
					/* the socket's OS number, as every family's (sample_kind.h) */
					int os = sample_label_value(&s->sockets[sk], SAMPLE_LABEL_SOCKET);

					prom_figure_series(c, f->family, &figures[j], os, -1, link[k],
							   mt->name, v * fac);
					for (int ch = 0; mt->scope == LAYOUT_CHANNEL && ch < sample_nchannels(s);
					     ch++) {
						const struct sample_entity *e = sample_channel(s, sk, ch);
						double cv = e ? sample_metric(s, e, ms[k]) : NAN;

						if (isfinite(cv))
							prom_figure_series(c, f->family, &figures[j], os, ch,
									   link[k], mt->name, cv * fac);
					}
				}
			}
		}
	}
}

/*
 * The interval's thermal throttling (sample.throttle), per socket, a
 * series of each column of sample_throttle_cols that names a family:
 * pmutop_throttle_events{scope="package"|"core"} the episodes in the
 * interval (its cores' summed), pmutop_throttle_ratio{scope} the share of
 * the interval (the counters' own window between two looks) the package
 * was throttled, or its cores' mean share; pmutop_power_limit_events{scope}
 * the power-limit notifications in it, where the kernel counts them
 * (int_pln_enable).  Nothing where the kernel has no counters, the ratio
 * none where it gives counts alone.
 */
void prom_throttle(struct prom_ctx *c)
{
	const struct sample *s = c->s;
	const struct sample_throttle *t = s->throttle;
	double ms = (isfinite(t ? t->window_s : NAN) ? t->window_s : s->interval_s) * 1e3;

	if (!t || !t->nsockets || !(ms > 0))
		return;
	/* each family once, at its first column; its series from every column of it */
	for (int f = 0; f < sample_throttle_ncols; f++) {
		const struct sample_throttle_col *fam = &sample_throttle_cols[f];
		bool seen = false;

		for (int g = 0; g < f && fam->prom && !seen; g++)
			seen = sample_throttle_cols[g].prom && !strcmp(sample_throttle_cols[g].prom, fam->prom);
		if (!fam->prom || seen || (fam->prom_share && !t->time) ||
		    (fam->power_limit && !t->power_limit))
			continue;
		prom_family(c, fam->prom, "gauge", fam->prom_help, "stable: the same name on every platform");
		for (int k = 0; k < t->nsockets && k < s->nsockets; k++) {
			int ncores = 0;

			for (int i = 0; i < s->ncores; i++)
				ncores += s->cores[i].socket == k;
			for (int g = f; g < sample_throttle_ncols; g++) {
				const struct sample_throttle_col *col = &sample_throttle_cols[g];
				double v;

				if (!col->prom || strcmp(col->prom, fam->prom))
					continue;
				v = sample_throttle_get(&t->s[k], col);
				/* a share of the window; the cores' the mean of theirs */
				if (col->prom_share)
					v = v / ms / (strcmp(col->prom_scope, "core") || !ncores ? 1 : ncores);
				if (!isfinite(v))
					continue;
				fprintf(c->out, "%s{socket=\"%d\",scope=\"%s\",source=\"%s\"%s} %.17g\n",
					fam->prom, s->sockets[k].os_socket_id, col->prom_scope, c->source,
					s->simulated ? ",simulated=\"true\"" : "", v);
				c->series++;
			}
		}
	}
}
