/*
 * source_pmus: what a machine's kernel says of its PMUs (its sysfs, a
 * --root tree's, or an emulated kernel's), for the session, which asks
 * through source.h and never reads the kernel's descriptions itself.
 * `pmutop --list-pmus`: every PMU, kind by kind: its boxes, their types,
 * the CPUs they count on and the sockets those are in (hwloc's topology),
 * the format fields as bit ranges and the events with their scale and
 * unit; then the PMUs skipped and why.  `pmutop --sim X --write-sysfs
 * DIR`: the emulated kernel's PMUs written as the kernel's sysfs has them,
 * for discovery end to end on a fake root.  The doctor's uncore line, the
 * layout kinds only the kernel reaches, and the boxes a layout made from
 * vendor data counts.  Nothing is opened or programmed.  Main thread.
 */
#include "source_int.h"
#include "perf_pmus.h"
#include "perfmon_layout.h"
#include "topo.h"
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
static void source_pmus_bits(uint64_t mask, char *buf, size_t len)
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
static int source_pmus_socket(const struct topo *t, int c)
{
	if (!t || c < 0 || c >= t->cpu_thread_len || t->cpu_thread[c] < 0)
		return -1;
	return t->threads[t->cpu_thread[c]].socket;
}

/* One kind: its boxes [FIRST, FIRST + N) of P. */
static void source_pmus_kind(FILE *out, const struct perf_pmus *p, int first, int n,
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
			int sk = source_pmus_socket(t, c[k]), j = 0;

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
	} else if (e->pmu.cpus[0]) {
		/* a hybrid's core PMU: the CPUs of its kind of core (its "cpus" file) */
		fprintf(out, ", counts on its kind's CPUs %s", e->pmu.cpus);
	} else {
		fprintf(out, ", every CPU");
	}
	free(cpus);
	fprintf(out, "\n");
	if (e->pmu.nfields) {
		fprintf(out, "  format:");
		for (int f = 0; f < e->pmu.nfields; f++) {
			source_pmus_bits(e->pmu.fields[f].mask, bits, sizeof(bits));
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

int source_pmus_print(const struct machine *m, FILE *out, char *err, size_t errlen)
{
	struct machine_kernel k;
	struct topo *own = NULL;
	const struct topo *t = NULL;
	struct perf_pmus p;
	char why[400];
	int rc;

	rc = machine_kernel_open(m, &k, err, errlen);
	if (rc)
		return rc;
	if (k.src) {
		struct source_facts f;

		source_facts(k.src, &f);
		t = f.topo;
	}
	else if (!topo_load_root(k.root, &own, why, sizeof(why)))
		t = own;
	rc = perf_pmus_scan(k.sys, k.root, &p, err, errlen);
	if (!rc) {
		fprintf(out, "# the kernel's PMUs%s%s%s: %d, %d skipped%s\n",
			machine_simulated(m) ? " (emulated: " : "", machine_simulated(m)
			? machine_emulated_as(m) : "", machine_simulated(m) ? ")" : "",
			p.n, p.nskipped, t ? "" : " (no topology: CPUs not mapped to sockets)");
		if (k.described_as)
			fprintf(out, "# its uncore and power PMUs as %s lays them out\n",
				k.described_as);
		for (int i = 0; i < p.n;) {
			int n = 1;

			while (i + n < p.n && !strcmp(p.pmu[i + n].kind, p.pmu[i].kind))
				n++;
			source_pmus_kind(out, &p, i, n, t);
			i += n;
		}
		for (int i = 0; i < p.nskipped; i++)
			fprintf(out, "skipped %s: %s\n", p.skipped[i].name, p.skipped[i].why);
		perf_pmus_free(&p);
	}
	topo_free(own);
	machine_kernel_close(&k);
	return rc;
}

/* A new directory NAME in AT, opened: its fd, or -errno (-EEXIST: it was there). */
static int source_pmus_dir(int at, const char *name)
{
	int fd;

	if (mkdirat(at, name, 0755) && errno != EEXIST)
		return -errno;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* A new file NAME in AT holding TEXT and a newline; never through an existing path. */
static int source_pmus_file(int at, const char *name, const char *text)
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
static int source_pmus_one(int devices, const struct perf_pmu *e)
{
	int d = source_pmus_dir(devices, e->name), sub, rc;
	char buf[160], bits[64];

	if (d < 0)
		return d;
	snprintf(buf, sizeof(buf), "%u", e->type);
	rc = source_pmus_file(d, "type", buf);
	if (!rc && e->cpumask[0])
		rc = source_pmus_file(d, "cpumask", e->cpumask);
	if (!rc && e->cpus[0])
		rc = source_pmus_file(d, "cpus", e->cpus);
	if (!rc && (sub = source_pmus_dir(d, "format")) >= 0) {
		for (int f = 0; f < e->nfields && !rc; f++) {
			source_pmus_bits(e->fields[f].mask, bits, sizeof(bits));
			snprintf(buf, sizeof(buf), "config%.0d:%s", e->fields[f].word, bits);
			rc = source_pmus_file(sub, e->fields[f].name, buf);
		}
		close(sub);
	}
	if (!rc && e->naliases && (sub = source_pmus_dir(d, "events")) >= 0) {
		for (int a = 0; a < e->naliases && !rc; a++) {
			char file[64];

			rc = source_pmus_file(sub, e->alias[a].name, e->alias[a].terms);
			snprintf(file, sizeof(file), "%.40s.scale", e->alias[a].name);
			snprintf(buf, sizeof(buf), "%.17g", e->alias[a].scale);
			if (!rc && e->alias[a].scale != 1)
				rc = source_pmus_file(sub, file, buf);
			snprintf(file, sizeof(file), "%.40s.unit", e->alias[a].name);
			if (!rc && e->alias[a].unit[0])
				rc = source_pmus_file(sub, file, e->alias[a].unit);
		}
		close(sub);
	}
	close(d);
	return rc;
}

int source_pmus_write_sysfs(const struct machine *m, const char *dir, FILE *out, char *err,
			size_t errlen)
{
	static const char *const path[] = { "sys", "bus", "event_source" };
	struct source *src = NULL;
	struct perf_pmus p = { 0 };
	int rc, at, next;

	if (!machine_simulated(m)) {
		snprintf(err, errlen, "--write-sysfs writes an emulated machine's kernel (--sim "
			 "MACHINE); a real machine's PMUs are in its sysfs already");
		return -EINVAL;
	}
	rc = source_open_perf(m, false, &src, err, errlen);
	if (rc)
		return -EINVAL;
	rc = source_pmus(src, &p, err, errlen);
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
		next = source_pmus_dir(at, path[i]);
		rc = next < 0 ? next : fstat(next, &st) ? -errno : st.st_uid != geteuid() ? -EPERM : 0;
		close(at);
		at = next;
	}
	if (!rc && (next = source_pmus_dir(at, "devices")) >= 0) {
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
		rc = source_pmus_one(at, &p.pmu[i].pmu);
	if (at >= 0)
		close(at);
	if (rc)
		snprintf(err, errlen, "--write-sysfs %s: %s", dir, strerror(-rc));
	else
		fprintf(out, "wrote %d PMUs of the emulated %s kernel under %s/sys/bus/event_source/"
			"devices (pmutop --root %s --list-pmus reads them)\n", p.n, machine_emulated_as(m),
			dir, dir);
out:
	perf_pmus_free(&p);
	source_close(src);
	return rc;
}

/* A kind of uncore PMU the doctor looks for: PREFIX and a number (BOXES), or one PMU. */
struct source_pmus_ku {
	const char *prefix;
	bool boxes;
	const char *what;
};

static const struct source_pmus_ku source_pmus_server[] = {
	{ "uncore_imc_", true, "memory channels" }, { "uncore_cha_", true, "L3 / CHAs" },
	{ "uncore_upi_", true, "UPI links" }, { "power", false, "RAPL energy" }, { 0 },
};
static const struct source_pmus_ku source_pmus_client[] = {
	{ "uncore_imc_free_running_", true, "memory controllers' free-running counters" },
	{ "uncore_cbox_", true, "L3 slices" }, { "power", false, "RAPL energy" }, { 0 },
};
static const struct source_pmus_ku source_pmus_amd[] = {
	{ "amd_l3", false, "the L3 of each CCX" }, { "amd_df", false, "data fabric" },
	{ "amd_umc_", true, "memory channels: Linux 6.7 with PerfMonV2 (Zen 4 on)" },
	{ "power", false, "RAPL energy" }, { 0 },
};

/* NUMS (N, sorted) as the kernel numbers them: "0..3,6..9", a gap where one is missing. */
static size_t source_pmus_ranges(const int *nums, int n, char *buf, size_t len)
{
	size_t k = 0;

	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && nums[j + 1] == nums[j] + 1)
			j++;
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, j > i ? "%s%d..%d" : "%s%d",
				      i ? "," : "", nums[i], nums[j]);
		i = j + 1;
	}
	return k;
}

int source_pmus_uncore(const struct machine *mach, bool amd, int *expected, char *buf,
			  size_t len)
{
	const struct source_pmus_ku *kinds = source_pmus_server;
	struct machine_kernel mk;
	const struct perf_sys *sys;
	const char *root;
	char missing[300] = "", err[300];
	int *nums = xcalloc(1024, sizeof(int)), found = 0;
	struct perf_pmu *p = xcalloc(1, sizeof(*p));
	size_t n = 0, m = 0;
	bool v1 = false;

	*expected = 0;
	if (machine_kernel_open(mach, &mk, err, sizeof(err))) {
		free(nums);
		free(p);
		return -1;
	}
	sys = mk.sys;
	root = mk.root;
	/* an Intel client: its kernel shows the client's boxes and no CHA */
	if (amd)
		kinds = source_pmus_amd;
	else if (!perf_sys_boxes(sys, root, "uncore_cha_") &&
		 (perf_sys_boxes(sys, root, "uncore_imc_free_running_") ||
		  perf_sys_boxes(sys, root, "uncore_cbox_")))
		kinds = source_pmus_client;
	buf[0] = 0;
	/* AMD before PerfMonV2 (Zen 2, 3) has no amd_umc: its data fabric's event is 12 bits there */
	if (amd && !perf_sys_pmu(sys, root, "amd_df", p, err, sizeof(err)))
		for (int f = 0; f < p->nfields; f++)
			if (!strcmp(p->fields[f].name, "event") && p->fields[f].word == 0 &&
			    !(p->fields[f].mask & 3ull << 36))
				v1 = true;
	for (const struct source_pmus_ku *k = kinds; k->prefix; k++) {
		int boxes;

		if (v1 && !strcmp(k->prefix, "amd_umc_"))
			continue;
		/* a client's controller (chmask) is no channel: the channels alone */
		boxes = !strcmp(k->prefix, "uncore_imc_") ? perf_sys_channel_numbers(sys, root, nums, 1024)
			: k->boxes ? perf_sys_box_numbers(sys, root, k->prefix, nums, 1024)
			: !perf_sys_pmu(sys, root, k->prefix, p, err, sizeof(err));
		(*expected)++;
		if (boxes <= 0) {
			m += (size_t)snprintf(missing + m, m < sizeof(missing) ? sizeof(missing) - m : 0,
					      "%s%s%s (%s)", m ? ", " : "", k->prefix,
					      k->boxes ? "N" : "", k->what);
			continue;
		}
		found++;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? ", " : "", k->prefix);
		if (k->boxes)
			n += source_pmus_ranges(nums, boxes, n < len ? buf + n : NULL, n < len ? len - n : 0);
		n += (size_t)snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, " (%s)", k->what);
	}
	if (m)
		snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%smissing: %s",
			 n ? "; " : "", missing);
	free(nums);
	free(p);
	machine_kernel_close(&mk);
	return found;
}

/* RAPL's domains the kernel's power PMU names (PERFMON_RAPL_*), 0 without one. */
static unsigned source_pmus_rapl(const struct perf_sys *sys, const char *root)
{
	static const struct {
		const char *alias;
		unsigned bit;
	} dom[] = { { "energy-cores", PERFMON_RAPL_CORES }, { "energy-pkg", PERFMON_RAPL_PKG },
		    { "energy-ram", PERFMON_RAPL_RAM }, { "energy-psys", PERFMON_RAPL_PSYS } };
	struct perf_pmu *p = xcalloc(1, sizeof(*p));
	char err[300];
	unsigned rapl = 0;

	if (!perf_sys_pmu(sys, root, "power", p, err, sizeof(err)))
		for (int a = 0; a < p->naliases; a++)
			for (size_t d = 0; d < sizeof(dom) / sizeof(dom[0]); d++)
				if (!strcmp(p->alias[a].name, dom[d].alias))
					rapl |= dom[d].bit;
	free(p);
	return rapl;
}

uint32_t source_pmus_kinds(const struct source *src, const char *root)
{
	struct machine_kernel k;
	struct perf_pmu *p;
	uint32_t kinds = 0;
	char err[300];

	source_kernel(src, root, &k);
	if (k.none) {
		source_kernel_done(&k);
		return 0;
	}
	p = xcalloc(1, sizeof(*p));
	for (int i = 0; i < LAYOUT_NPMUS; i++) {
		const struct layout_pmu_kind *pk = &layout_pmu_kinds[i];

		if (!pk->kernel_only)
			continue;
		if (i == LAYOUT_PMU_MC ? perf_sys_channel_span(k.sys, k.root) > 0
		    : pk->summed_boxes || pk->socket_boxes ? perf_sys_boxes(k.sys, k.root, pk->kernel) > 0
		    : !perf_sys_pmu(k.sys, k.root, pk->kernel, p, err, sizeof(err)))
			kinds |= 1u << i;
	}
	free(p);
	source_kernel_done(&k);
	return kinds;
}

bool source_pmus_boxes(const struct source *src, const char *root, struct source_boxes *b)
{
	struct machine_kernel k;
	bool any;

	*b = (struct source_boxes){ 0 };
	source_kernel(src, root, &k);
	any = !k.none;
	if (any) {
		b->chas = perf_sys_boxes(k.sys, k.root, "uncore_cha_");
		b->channels = perf_sys_channel_span(k.sys, k.root);
		b->upi_links = perf_sys_boxes(k.sys, k.root, "uncore_upi_");
		b->imc_free = perf_sys_boxes(k.sys, k.root, "uncore_imc_free_running_");
		b->rapl = source_pmus_rapl(k.sys, k.root);
	}
	source_kernel_done(&k);
	return any;
}
