/*
 * session_pmus: `pmutop --list-pmus`: every PMU the kernel (or the emulated
 * kernel of --sim) describes, kind by kind: its boxes, their types, the
 * CPUs they count on and the sockets those are in (hwloc's topology), the
 * format fields as bit ranges and the events with their scale and unit;
 * then the PMUs skipped and why.  Nothing is opened or programmed.  And
 * `pmutop --sim X --write-sysfs DIR`: the emulated kernel's PMUs written as
 * the kernel's sysfs has them, for discovery end to end on a fake root.
 */
#include "session.h"
#include "emu_perf.h"
#include "perf_pmus.h"
#include "source.h"
#include "topo.h"
#include "dmi.h"
#include "cpulist.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	int *all = NULL, nall = 0;
	char bits[64], *cpus;

	fprintf(out, "%s", e->kind);
	if (e->box >= 0)
		fprintf(out, ": boxes %d-%d (%d)", e->box, p->pmu[first + n - 1].box, n);
	fprintf(out, ", type %u%s", e->pmu.type, n > 1 ? " ..." : "");
	/* the CPUs of every box's cpumask (AMD's: a box a socket's, amd_l3 a CPU per CCX) */
	for (int i = first; i < first + n; i++) {
		int *c = NULL, nc = 0;
		size_t col;

		if (cpulist_parse(p->pmu[i].pmu.cpumask, &c, &nc, &col))
			nc = 0;
		for (int k = 0; k < nc; k++) {
			int sk = session_pmus_socket(t, c[k]), j = 0;

			if (sk >= 0 && sk < 32)
				sockets |= 1u << sk;
			while (j < nall && all[j] != c[k])
				j++;
			if (j == nall) {
				all = xrealloc(all, (size_t)nall + 1, sizeof(int));
				all[nall++] = c[k];
			}
		}
		free(c);
	}
	cpus = nall ? cpulist_format(all, nall) : NULL;
	free(all);
	if (e->pmu.cpumask[0]) {
		fprintf(out, ", counts on CPUs %s", cpus ? cpus : e->pmu.cpumask);
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
	free(cpus);
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
		fprintf(out, "# the kernel's PMUs%s%s%s: %d, %d skipped%s\n", sim ? " (emulated: " : "",
			sim ? sim : "", sim ? ")" : "", p.n, p.nskipped,
			t ? "" : " (no topology: CPUs not mapped to sockets)");
		if (sim && src->perf_kernel && emu_perf_source(src->perf_kernel))
			fprintf(out, "# its uncore and power PMUs as %s lays them out\n",
				emu_perf_source(src->perf_kernel));
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

/* A new directory NAME in AT, opened: its fd, or -errno (-EEXIST: it was there). */
static int session_sysfs_dir(int at, const char *name)
{
	int fd;

	if (mkdirat(at, name, 0755) && errno != EEXIST)
		return -errno;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* A new file NAME in AT holding TEXT and a newline; never through an existing path. */
static int session_sysfs_file(int at, const char *name, const char *text)
{
	int fd = openat(at, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t n = strlen(text);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n || write(fd, "\n", 1) != 1)
		rc = errno ? -errno : -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

/* PMU E under DEVICES (a directory of its own, made here). */
static int session_sysfs_pmu(int devices, const struct perf_pmu *e)
{
	int d = session_sysfs_dir(devices, e->name), sub, rc;
	char buf[160], bits[64];

	if (d < 0)
		return d;
	snprintf(buf, sizeof(buf), "%u", e->type);
	rc = session_sysfs_file(d, "type", buf);
	if (!rc && e->cpumask[0])
		rc = session_sysfs_file(d, "cpumask", e->cpumask);
	if (!rc && e->cpus[0])
		rc = session_sysfs_file(d, "cpus", e->cpus);
	if (!rc && (sub = session_sysfs_dir(d, "format")) >= 0) {
		for (int f = 0; f < e->nfields && !rc; f++) {
			session_pmus_bits(e->fields[f].mask, bits, sizeof(bits));
			snprintf(buf, sizeof(buf), "config%.0d:%s", e->fields[f].word, bits);
			rc = session_sysfs_file(sub, e->fields[f].name, buf);
		}
		close(sub);
	}
	if (!rc && e->naliases && (sub = session_sysfs_dir(d, "events")) >= 0) {
		for (int a = 0; a < e->naliases && !rc; a++) {
			char file[64];

			rc = session_sysfs_file(sub, e->alias[a].name, e->alias[a].terms);
			snprintf(file, sizeof(file), "%.40s.scale", e->alias[a].name);
			snprintf(buf, sizeof(buf), "%.17g", e->alias[a].scale);
			if (!rc && e->alias[a].scale != 1)
				rc = session_sysfs_file(sub, file, buf);
			snprintf(file, sizeof(file), "%.40s.unit", e->alias[a].name);
			if (!rc && e->alias[a].unit[0])
				rc = session_sysfs_file(sub, file, e->alias[a].unit);
		}
		close(sub);
	}
	close(d);
	return rc;
}

int session_write_sysfs(const char *sim, const char *dir, FILE *out, char *err, size_t errlen)
{
	static const char *const path[] = { "sys", "bus", "event_source" };
	struct source *src = NULL;
	struct perf_pmus p = { 0 };
	int rc, at, next;

	rc = source_open_perf(sim, NULL, NULL, false, &src, err, errlen);
	if (rc)
		return -EINVAL;
	rc = perf_pmus_scan(src->perf_sys, NULL, &p, err, errlen);
	if (rc)
		goto out;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		rc = -errno;
		snprintf(err, errlen, "--write-sysfs %s: %s", dir, strerror(errno));
		goto out;
	}
	at = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = at < 0 ? -errno : 0;
	/*
	 * DIR/sys and DIR/sys/bus may be there (a fake machine's topology),
	 * ours, not links; event_source is new: nothing below it is anyone else's
	 */
	for (size_t i = 0; i < sizeof(path) / sizeof(path[0]) && !rc; i++) {
		struct stat st;

		if (i == 2 && mkdirat(at, path[i], 0755)) {
			rc = -errno;
			break;
		}
		next = session_sysfs_dir(at, path[i]);
		rc = next < 0 ? next : fstat(next, &st) ? -errno : st.st_uid != geteuid() ? -EPERM : 0;
		close(at);
		at = next;
	}
	if (!rc && (next = session_sysfs_dir(at, "devices")) >= 0) {
		close(at);
		at = next;
	}
	if (rc) {
		snprintf(err, errlen, "--write-sysfs %s: %s%s", dir, strerror(-rc), rc == -EEXIST
			 ? " (DIR/sys/bus/event_source exists: give a new directory)" : rc == -EPERM
			 ? " (DIR/sys is another user's)" : "");
		if (at >= 0)
			close(at);
		goto out;
	}
	rc = at < 0 ? at : 0;
	for (int i = 0; i < p.n && !rc; i++)
		rc = session_sysfs_pmu(at, &p.pmu[i].pmu);
	if (at >= 0)
		close(at);
	if (rc)
		snprintf(err, errlen, "--write-sysfs %s: %s", dir, strerror(-rc));
	else
		fprintf(out, "wrote %d PMUs of the emulated %s kernel under %s/sys/bus/event_source/"
			"devices (pmutop --root %s --list-pmus reads them)\n", p.n, sim, dir, dir);
out:
	perf_pmus_free(&p);
	source_close(src);
	return rc;
}

int session_kernel_uncore(const char *sim, const char *root, char *buf, size_t len)
{
	static const struct {
		enum layout_pmu pmu;
		const char *what;
	} kinds[SESSION_KERNEL_UNCORE_KINDS] = {
		{ LAYOUT_PMU_MC, "memory channels" }, { LAYOUT_PMU_CHA, "L3 / CHAs" },
		{ LAYOUT_PMU_UPI, "UPI links" }, { LAYOUT_PMU_POWER, "RAPL energy" },
	};
	struct source *src = NULL;
	const struct perf_sys *sys = NULL;
	char missing[200] = "", err[300];
	size_t n = 0, m = 0;
	int found = 0;

	if (sim) {
		if (source_open_perf(sim, NULL, NULL, false, &src, err, sizeof(err)))
			return -1;
		sys = src->perf_sys;
		root = NULL;
	}
	buf[0] = 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const struct layout_pmu_kind *pk = &layout_pmu_kinds[kinds[k].pmu];
		struct perf_pmu *p = xcalloc(1, sizeof(*p));
		int boxes = pk->summed_boxes ? perf_sys_boxes(sys, root, pk->kernel)
			    : !perf_sys_pmu(sys, root, pk->kernel, p, err, sizeof(err));

		free(p);
		if (boxes > 0) {
			found++;
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s%s%.0d (%s)",
					      n ? ", " : "", pk->kernel, boxes > 1 ? "0.." : "",
					      boxes > 1 ? boxes - 1 : 0, kinds[k].what);
		} else {
			m += (size_t)snprintf(missing + m, m < sizeof(missing) ? sizeof(missing) - m : 0,
					      "%s%s%s", m ? ", " : "", pk->kernel, pk->summed_boxes ? "N" : "");
		}
	}
	if (m)
		snprintf(buf + n, n < len ? len - n : 0, "%smissing: %s", n ? "; " : "", missing);
	source_close(src);
	return found;
}

unsigned session_dram_mts(const char *sim, const char *root, char *why, size_t len)
{
	struct source *src = NULL;
	unsigned mts;

	why[0] = 0;
	if (!sim)
		return dmi_dram_mts(root, why, len);
	if (source_open(sim, NULL, &src, why, len))
		return 0;
	mts = src->dram_mts;
	source_close(src);
	return mts;
}
