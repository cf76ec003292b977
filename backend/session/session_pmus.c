/*
 * session_pmus: `pmutop --list-pmus`: every PMU the kernel (or the emulated
 * kernel of --sim) describes, kind by kind: its boxes, their types, the
 * CPUs they count on and the sockets those are in (hwloc's topology), the
 * format fields as bit ranges and the events with their scale and unit;
 * then the PMUs skipped and why.  Nothing is opened or programmed.
 */
#include "session.h"
#include "perf_pmus.h"
#include "source.h"
#include "topo.h"

#include <stdio.h>
#include <string.h>

/* MASK as the format file writes it: "0-7,32-35". */
static void session_pmus_bits(uint64_t mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int b = 0; b < 64 && n < len; b++) {
		int e = b;

		if (!(mask & (1ull << b)))
			continue;
		while (e < 63 && (mask & (1ull << (e + 1))))
			e++;
		n += (size_t)snprintf(buf + n, len - n, e > b ? "%s%d-%d" : "%s%d", n ? "," : "", b,
				      e);
		b = e;
	}
}

/* The socket of OS CPU C in T, or -1. */
static int session_pmus_socket(const struct topo *t, int c)
{
	if (!t || c < 0 || c >= t->cpu_thread_len || t->cpu_thread[c] < 0)
		return -1;
	return t->threads[t->cpu_thread[c]].socket;
}

/* One kind: its boxes [FIRST, FIRST + N) of P. */
static void session_pmus_kind(FILE *out, const struct perf_pmus *p, int first, int n,
			      const struct topo *t)
{
	const struct perf_pmus_entry *e = &p->pmu[first];
	unsigned sockets = 0;
	char bits[64];

	fprintf(out, "%s", e->kind);
	if (e->box >= 0)
		fprintf(out, ": boxes %d-%d (%d)", e->box, p->pmu[first + n - 1].box, n);
	fprintf(out, ", type %u%s", e->pmu.type, n > 1 ? " ..." : "");
	for (int i = first; i < first + n; i++)
		for (int k = 0; k < 8 && p->pmu[i].cpus[k] >= 0; k++) {
			int sk = session_pmus_socket(t, p->pmu[i].cpus[k]);

			if (sk >= 0 && sk < 32)
				sockets |= 1u << sk;
		}
	if (e->pmu.cpumask[0]) {
		fprintf(out, ", counts on CPUs %s", e->pmu.cpumask);
		if (sockets) {
			fprintf(out, " (socket%s", __builtin_popcount(sockets) > 1 ? "s" : "");
			for (int sk = 0, c = 0; sk < 32; sk++)
				if (sockets & (1u << sk))
					fprintf(out, "%s%d", c++ ? ", " : " ", sk);
			fprintf(out, ")");
		}
	} else {
		fprintf(out, ", every CPU");
	}
	fprintf(out, "\n");
	if (e->pmu.nfields) {
		fprintf(out, "  format:");
		for (int f = 0; f < e->pmu.nfields; f++) {
			session_pmus_bits(e->pmu.fields[f].mask, bits, sizeof(bits));
			fprintf(out, " %s=config%.0d:%s", e->pmu.fields[f].name, e->pmu.fields[f].word,
				bits);
		}
		fprintf(out, "\n");
	}
	for (int a = 0; a < e->pmu.naliases; a++) {
		fprintf(out, "  event %s = %s", e->pmu.alias[a].name, e->pmu.alias[a].terms);
		if (e->pmu.alias[a].scale != 1 || e->pmu.alias[a].unit[0])
			fprintf(out, " (x %.10g %s)", e->pmu.alias[a].scale, e->pmu.alias[a].unit);
		fprintf(out, "\n");
	}
}

int session_print_pmus(const char *sim, const char *root, FILE *out, char *err, size_t errlen)
{
	struct source *src = NULL;
	struct topo *own = NULL;
	const struct topo *t = NULL;
	const struct perf_sys *sys = NULL;
	struct perf_pmus p;
	char why[400];
	int rc;

	if (sim) {
		rc = source_open_perf(sim, NULL, NULL, false, &src, err, errlen);
		if (rc)
			return rc;
		sys = src->perf_sys;
		t = src->topo;
	} else if (!topo_load_root(root, &own, why, sizeof(why))) {
		t = own;
	}
	rc = perf_pmus_scan(sys, sim ? NULL : root, &p, err, errlen);
	if (!rc) {
		fprintf(out, "# the kernel's PMUs%s%s: %d, %d skipped%s\n", sim ? " (emulated: " : "",
			sim ? sim : "", p.n, p.nskipped,
			t ? "" : " (no topology: CPUs not mapped to sockets)");
		for (int i = 0; i < p.n;) {
			int n = 1;

			while (i + n < p.n && !strcmp(p.pmu[i + n].kind, p.pmu[i].kind))
				n++;
			session_pmus_kind(out, &p, i, n, t);
			i += n;
		}
		for (int i = 0; i < p.nskipped; i++)
			fprintf(out, "skipped %s: %s\n", p.skipped[i].name, p.skipped[i].why);
		perf_pmus_free(&p);
	}
	topo_free(own);
	source_close(src);
	return rc;
}
