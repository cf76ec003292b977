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
					for (int ch = 0; mt->scope == LAYOUT_CHANNEL && ch < s->nchannels;
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
 * The interval's thermal throttling (sample.throttle), per socket:
 * pmutop_throttle_ratio{scope="package"} the share of the interval (the
 * counters' own window between two looks) its
 * package was throttled, {scope="core"} its cores' mean share; and
 * pmutop_throttle_events{scope} the episodes in the interval (its cores'
 * summed); pmutop_power_limit_events{scope} the power-limit notifications
 * in it, where the kernel counts them (int_pln_enable).  Nothing where the
 * kernel has no counters, the ratio none where it gives counts alone.
 */
void prom_throttle(struct prom_ctx *c)
{
	const struct sample *s = c->s;
	const struct sample_throttle *t = s->throttle;
	double ms = (isfinite(t ? t->window_s : NAN) ? t->window_s : s->interval_s) * 1e3;

	if (!t || !t->nsockets || !(ms > 0))
		return;
	for (int f = 0; f < 3; f++) {
		static const char *const names[] = { "pmutop_throttle_ratio", "pmutop_throttle_events",
						      "pmutop_power_limit_events" };
		static const char *const helps[] = {
			"Share of the last interval throttled: the package (package_throttle_total_time_ms), "
			"or its cores' mean (core_throttle_total_time_ms)",
			"Thermal throttle episodes in the last interval (the kernel's package_throttle_count, "
			"and core_throttle_count summed over the socket's cores)",
			"Power-limit notifications in the last interval (the kernel's "
			"package_power_limit_count, and core_power_limit_count summed over the socket's cores; "
			"counted when the kernel was booted with int_pln_enable)",
		};
		const char *name = names[f];

		if ((!f && !t->time) || (f == 2 && !t->power_limit))
			continue;
		prom_family(c, name, "gauge", helps[f], "stable: the same name on every platform");
		for (int k = 0; k < t->nsockets && k < s->nsockets; k++) {
			int ncores = 0;

			for (int i = 0; i < s->ncores; i++)
				ncores += s->cores[i].socket == k;
			for (int sc = 0; sc < 2; sc++) {
				double v = f == 2 ? (sc ? t->s[k].core_pl_events : t->s[k].pkg_pl_events)
					   : f ? (sc ? t->s[k].core_events : t->s[k].pkg_events)
					   : sc ? t->s[k].core_ms / ms / (ncores ? ncores : 1)
					   : t->s[k].pkg_ms / ms;

				if (!isfinite(v))
					continue;
				fprintf(c->out, "%s{socket=\"%d\",scope=\"%s\",source=\"%s\"%s} %.17g\n",
					name, s->sockets[k].os_socket_id, sc ? "core" : "package",
					c->source, s->simulated ? ",simulated=\"true\"" : "", v);
				c->series++;
			}
		}
	}
}
