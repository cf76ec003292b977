/*
 * who_rdt: resctrl's monitoring groups (Intel RDT, AMD QoS) as the who view
 * shows them: per group, summed over its L3 domains (mon_data/mon_L3_NN),
 * the memory bandwidth (mbm_total_bytes, mbm_local_bytes: deltas over the
 * interval) and the L3 it occupies (llc_occupancy).  A group belongs to the
 * cgroup that holds all of its tasks (their /proc/PID/cgroup); groups are
 * read, never made.  The kernel writes "Unavailable" where an RMID's count
 * cannot be read: that figure is n/a with the reason.  Sampler thread.
 */
#include "who_int.h"
#include "xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHO_RDT_TASKS_LOOKED 64 /* a group's tasks looked at to find its cgroup */
#define WHO_RDT_REMAP 10        /* looks between two of them (a group's tasks rarely move) */

enum { WHO_MBM_TOTAL, WHO_MBM_LOCAL };

/* The deepest cgroup holding both A and B, into A ("" the root). */
static void who_common(char *a, const char *b)
{
	size_t keep = 0, i = 0;

	for (;;) {
		if ((a[i] == '/' || !a[i]) && (b[i] == '/' || !b[i])) {
			keep = i;
			if (!a[i] || !b[i])
				break;
		}
		if (a[i] != b[i] || !a[i])
			break;
		i++;
	}
	a[keep] = '\0';
}

/* GROUP's cgroup from its tasks (REL: its tasks file); false when it has none. */
static bool who_rdt_cgroup(const struct who *w, const char *rel, char *out, size_t len)
{
	char *buf = xmalloc(65536), cg[WHO_PATH_MAX];
	int n = who_read(w, rel, buf, 65536), looked = 0;
	bool any = false;

	for (char *line = buf; n > 0 && *line && looked < WHO_RDT_TASKS_LOOKED; looked++) {
		int pid = atoi(line);

		if (pid > 0 && !who_pid_cgroup(w, pid, cg, sizeof(cg))) {
			if (!any)
				snprintf(out, len, "%s", cg);
			else
				who_common(out, cg);
			any = true;
		}
		line += strcspn(line, "\n");
		line += *line == '\n';
	}
	free(buf);
	return any;
}

/* One counter file: its value, NaN with WHY (the first reason kept) when missing or "Unavailable". */
static double who_rdt_value(const struct who *w, const char *rel, char *why, size_t len)
{
	char buf[64], *end;
	double v;
	int n = who_read(w, rel, buf, sizeof(buf));

	if (why[0])
		len = 0; /* a reason is there already: this one is not kept */
	if (n < 0) {
		snprintf(why, len, "%s: %s", rel, strerror(-n));
		return NAN;
	}
	if (!strncmp(buf, "Unavailable", 11)) {
		snprintf(why, len, "the kernel says Unavailable (%s: its RMID cannot be read now)", rel);
		return NAN;
	}
	v = strtod(buf, &end);
	if (end == buf || (*end && *end != '\n')) {
		snprintf(why, len, "%s: not a number ('%.20s')", rel, buf);
		return NAN;
	}
	return v;
}

static struct who_mon *who_mon_get(struct who *w, const char *name)
{
	for (int i = 0; i < w->nmon; i++)
		if (!strcmp(w->mon[i].name, name))
			return &w->mon[i];
	w->mon = xrealloc(w->mon, (size_t)w->nmon + 1, sizeof(*w->mon));
	memset(&w->mon[w->nmon], 0, sizeof(*w->mon));
	snprintf(w->mon[w->nmon].name, sizeof(w->mon[w->nmon].name), "%s", name);
	return &w->mon[w->nmon++];
}

/*
 * Group NAME (its directory DIR under the root: "sys/fs/resctrl" or
 * ".../mon_groups/NAME"): its figures summed over the domains into OUT
 * (total B/s, local B/s, L3 bytes); WHY when one is n/a.
 */
static void who_rdt_group(struct who *w, struct who_mon *m, const char *dir, double *out,
			  char *why, size_t len)
{
	char rel[WHO_PATH_MAX + 128];
	int dfd, nd = 0;
	DIR *d;
	struct dirent *de;

	out[0] = out[1] = out[2] = 0;
	snprintf(rel, sizeof(rel), "%s/mon_data", dir);
	dfd = who_open(w, rel, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		snprintf(why, len, "%.100s: %s", rel, strerror(dfd < 0 ? -dfd : errno));
		out[0] = out[1] = out[2] = NAN;
		return;
	}
	while ((de = readdir(d)) && nd < WHO_MAX_DOMAINS) {
		double v[3];
		int dom;

		if (strncmp(de->d_name, "mon_L3_", 7))
			continue;
		dom = atoi(de->d_name + 7);
		if (dom < 0 || dom >= WHO_MAX_DOMAINS)
			continue;
		nd++;
		snprintf(rel, sizeof(rel), "%s/mon_data/%s/mbm_total_bytes", dir, de->d_name);
		v[0] = who_rdt_value(w, rel, why, len);
		snprintf(rel, sizeof(rel), "%s/mon_data/%s/mbm_local_bytes", dir, de->d_name);
		v[1] = who_rdt_value(w, rel, why, len);
		snprintf(rel, sizeof(rel), "%s/mon_data/%s/llc_occupancy", dir, de->d_name);
		v[2] = who_rdt_value(w, rel, why, len);
		for (int k = 0; k < 2; k++) {
			/* a rate from two readings; a counter that went back (an RMID reused) has none */
			double r = m->have_prev[dom] && w->dt > 0 && isfinite(m->prev[dom][k]) &&
				   v[k] >= m->prev[dom][k] ? (v[k] - m->prev[dom][k]) / w->dt : NAN;

			if (!m->have_prev[dom] && !why[0])
				snprintf(why, len, "from the next interval (a rate needs two readings)");
			out[k] += r;
			m->prev[dom][k] = v[k];
		}
		m->have_prev[dom] = true;
		out[2] += v[2];
	}
	closedir(d);
	if (!nd) {
		snprintf(why, len, "%s/mon_data has no L3 domain (mon_L3_NN)", dir);
		out[0] = out[1] = out[2] = NAN;
	}
}

static void who_rdt_add(double *to, double v)
{
	*to = isnan(*to) ? v : *to + v;
}

void who_rdt_read(struct who *w)
{
	char rel[WHO_PATH_MAX + 64], why[160];
	int fd = who_open(w, "sys/fs/resctrl", O_RDONLY | O_DIRECTORY), k = 0, ngroups = 0;
	double dflt[3];
	DIR *d;
	struct dirent *de;

	for (int i = 0; i < w->ncg; i++) {
		w->cg[i].mbm_total = w->cg[i].mbm_local = w->cg[i].llc = NAN;
		snprintf(w->cg[i].rdt_why, sizeof(w->cg[i].rdt_why), "no resctrl monitoring group "
			 "holds its tasks (pmutop reads groups, it never makes one)");
	}
	for (int i = 0; i < w->nmon; i++)
		w->mon[i].seen = false;
	w->rdt_looks++;
	w->rdt_dflt[0] = w->rdt_dflt[1] = w->rdt_dflt[2] = NAN;
	if (fd < 0) {
		snprintf(w->rdt_note, sizeof(w->rdt_note), "resctrl is not mounted (%s): mount -t "
			 "resctrl resctrl /sys/fs/resctrl on a CPU with RDT monitoring or AMD QoS",
			 strerror(-fd));
		for (int i = 0; i < w->ncg; i++)
			snprintf(w->cg[i].rdt_why, sizeof(w->cg[i].rdt_why), "resctrl is not mounted");
		return;
	}
	close(fd);
	if (who_read(w, "sys/fs/resctrl/info/L3_MON/mon_features", rel, sizeof(rel)) < 0) {
		snprintf(w->rdt_note, sizeof(w->rdt_note), "resctrl has no L3 monitoring here "
			 "(no info/L3_MON: the CPU has no cache or bandwidth monitoring)");
		for (int i = 0; i < w->ncg; i++)
			snprintf(w->cg[i].rdt_why, sizeof(w->cg[i].rdt_why), "no L3 monitoring");
		return;
	}
	why[0] = '\0';
	who_rdt_group(w, who_mon_get(w, ""), "sys/fs/resctrl", dflt, why, sizeof(why));
	memcpy(w->rdt_dflt, dflt, sizeof(dflt));
	who_mon_get(w, "")->seen = true;
	fd = who_open(w, "sys/fs/resctrl/mon_groups", O_RDONLY | O_DIRECTORY);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	while (d && (de = readdir(d))) {
		struct who_mon *m;
		double v[3];
		int c;

		if (de->d_name[0] == '.')
			continue;
		m = who_mon_get(w, de->d_name);
		m->seen = true;
		/* its cgroup from its tasks' (a look at up to 64 processes): again every few looks */
		if (!m->mapped || w->rdt_looks % WHO_RDT_REMAP == 0) {
			snprintf(rel, sizeof(rel), "sys/fs/resctrl/mon_groups/%s/tasks", de->d_name);
			m->has_tasks = who_rdt_cgroup(w, rel, m->cgroup, sizeof(m->cgroup));
			m->mapped = true;
		}
		if (!m->has_tasks || (c = who_cg_find(w, m->cgroup)) < 0)
			continue; /* no task, or none in a cgroup pmutop sees */
		ngroups++;
		snprintf(rel, sizeof(rel), "sys/fs/resctrl/mon_groups/%s", de->d_name);
		why[0] = '\0';
		who_rdt_group(w, m, rel, v, why, sizeof(why));
		if (isnan(w->cg[c].mbm_total) && isnan(w->cg[c].llc))
			w->cg[c].rdt_why[0] = '\0';
		who_rdt_add(&w->cg[c].mbm_total, v[0]);
		who_rdt_add(&w->cg[c].mbm_local, v[1]);
		who_rdt_add(&w->cg[c].llc, v[2]);
		if (why[0])
			snprintf(w->cg[c].rdt_why, sizeof(w->cg[c].rdt_why), "%s", why);
	}
	if (d)
		closedir(d);
	if (isfinite(dflt[0]))
		snprintf(w->rdt_note, sizeof(w->rdt_note), "resctrl: %d monitoring group%s read; "
			 "tasks in none (the default group): %.1f MB/s to memory", ngroups,
			 ngroups == 1 ? "" : "s", dflt[0] / 1e6);
	else
		snprintf(w->rdt_note, sizeof(w->rdt_note), "resctrl: %d monitoring group%s read "
			 "(bandwidth from the next interval: a rate needs two readings)", ngroups,
			 ngroups == 1 ? "" : "s");
	for (int i = 0; i < w->nmon; i++)
		if (w->mon[i].seen)
			w->mon[k++] = w->mon[i];
	w->nmon = k;
}
