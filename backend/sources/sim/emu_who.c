/*
 * emu_who: the scenario's tasks as a Linux machine shows them, written as
 * files under a directory that pmutop then reads as any machine's (--root
 * style): the cgroup v2 tree (sys/fs/cgroup: cgroup.procs, cpu.stat,
 * cpuset.cpus.effective), each task's /proc/PID (stat, comm, cgroup) and the
 * resctrl tree (sys/fs/resctrl: info/L3_MON, the default group's and one
 * monitoring group per cgroup holding tasks, per L3 domain llc_occupancy,
 * mbm_total_bytes, mbm_local_bytes).  Counters advance with the emulated
 * time each time the tree is written again, integrated over the scenario's
 * segments, so they are exact: a cgroup's CPU time is its tasks' share of
 * their CPUs' unhalted time; a monitoring group's bytes its tasks' mbm share
 * of their sockets' DRAM traffic (every channel's read and write lines x
 * 64).  Files are replaced by rename, so a reader never sees half of one.
 * The emulated kernel finds a cgroup by its directory's inode
 * (emu_who_cgroup_of).  Any thread: under the emulator's lock.
 */
#include "emu_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EMU_WHO_RMIDS 224         /* a Skylake-SP's L3 RMIDs (info/L3_MON/num_rmids) */
#define EMU_WHO_CLK_TCK 100.0     /* /proc/PID/stat's utime and stime in USER_HZ */

struct emu_who {
	char **cg;                /* every cgroup a task is in, with its ancestors, parents first */
	int ncg;
	dev_t *dev;
	ino_t *ino;
	bool *direct;             /* it holds a task itself: it has a monitoring group */
	double *cg_user, *cg_sys; /* seconds of its tasks' (and its descendants') CPU time */
	double *task_user, *task_sys;
	double (*mbm)[2];         /* per cgroup x socket: total and local bytes of its monitoring group */
	double *dflt;             /* per socket x 2: the default group's (the tasks' unmonitored share) */
	double t;                 /* counters are up to here */
};

/* Whether cgroup path A is B or under it. */
static bool emu_who_under(const char *a, const char *b)
{
	size_t n = strlen(b);

	return !strncmp(a, b, n) && (!a[n] || a[n] == '/');
}

static int emu_who_find(const struct emu_who *w, const char *path)
{
	for (int i = 0; i < w->ncg; i++)
		if (!strcmp(w->cg[i], path))
			return i;
	return -1;
}

static struct emu_who *emu_who_new(const struct scenario *sc, int nsockets)
{
	struct emu_who *w = xcalloc(1, sizeof(*w));

	for (int i = 0; i < sc->ntasks; i++) {
		char path[SCENARIO_CGROUP_MAX];

		snprintf(path, sizeof(path), "%s", sc->tasks[i].cgroup);
		/* its ancestors first: "a", "a/b", "a/b/c" */
		for (char *c = path; ; c++) {
			if (*c == '/' || !*c) {
				char save = *c;

				*c = '\0';
				if (emu_who_find(w, path) < 0) {
					w->cg = xrealloc(w->cg, (size_t)w->ncg + 1, sizeof(*w->cg));
					w->cg[w->ncg++] = xstrdup(path);
				}
				*c = save;
				if (!save)
					break;
			}
		}
	}
	w->dev = xcalloc((size_t)w->ncg + 1, sizeof(*w->dev));
	w->ino = xcalloc((size_t)w->ncg + 1, sizeof(*w->ino));
	w->direct = xcalloc((size_t)w->ncg + 1, sizeof(*w->direct));
	w->cg_user = xcalloc((size_t)w->ncg + 1, sizeof(double));
	w->cg_sys = xcalloc((size_t)w->ncg + 1, sizeof(double));
	w->task_user = xcalloc((size_t)sc->ntasks + 1, sizeof(double));
	w->task_sys = xcalloc((size_t)sc->ntasks + 1, sizeof(double));
	w->mbm = xcalloc((size_t)(w->ncg + 1) * (size_t)nsockets, sizeof(*w->mbm));
	w->dflt = xcalloc((size_t)nsockets * 2 + 1, sizeof(double));
	for (int i = 0; i < sc->ntasks; i++)
		w->direct[emu_who_find(w, sc->tasks[i].cgroup)] = true;
	w->t = 0;
	return w;
}

void emu_who_free(struct emu_who *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->ncg; i++)
		free(w->cg[i]);
	free(w->cg);
	free(w->dev);
	free(w->ino);
	free(w->direct);
	free(w->cg_user);
	free(w->cg_sys);
	free(w->task_user);
	free(w->task_sys);
	free(w->mbm);
	free(w->dflt);
	free(w);
}

/* Whether task T runs on OS CPU CPU. */
static bool emu_who_on(const struct scenario_task *t, int cpu)
{
	for (int i = 0; i < t->ncpus; i++)
		if (t->cpus[i] == cpu)
			return true;
	return false;
}

/* Whether task T has a CPU on socket SK. */
static bool emu_who_on_socket(const struct emu *e, const struct scenario_task *t, int sk)
{
	for (int i = 0; i < t->ncpus; i++)
		if (t->cpus[i] < e->ncpus && e->cpus[t->cpus[i]].core >= 0 &&
		    e->cpus[t->cpus[i]].socket == sk)
			return true;
	return false;
}

/* Bring the counters from w->t to T, one segment of constant truth at a time. */
static void emu_who_advance(struct emu *e, struct emu_who *w, double t)
{
	const struct scenario *sc = e->sc;
	int nch = e->channels;
	double (*chan)[SK_COUNT] = xcalloc((size_t)nch + 1, sizeof(*chan));

	while (w->t < t) {
		double t1 = fmin(t, scenario_next_change(sc, w->t)), dt = t1 - w->t, v[SK_COUNT];

		for (int i = 0; i < sc->ntasks; i++) {
			const struct scenario_task *k = &sc->tasks[i];
			double user = 0, sys = 0;

			for (int c = 0; c < k->ncpus; c++) {
				int cpu = k->cpus[c];

				if (cpu >= e->ncpus || e->cpus[cpu].core < 0)
					continue;
				scenario_eval_one(sc, w->t, SCENARIO_CPU, cpu, e->cpus[cpu].socket, v);
				user += k->share * v[SK_util] * (1 - v[SK_kernel]) * dt;
				sys += k->share * v[SK_util] * v[SK_kernel] * dt;
			}
			w->task_user[i] += user;
			w->task_sys[i] += sys;
			for (int g = 0; g < w->ncg; g++)
				if (emu_who_under(k->cgroup, w->cg[g])) {
					w->cg_user[g] += user;
					w->cg_sys[g] += sys;
				}
		}
		for (int sk = 0; sk < e->nsockets; sk++) {
			double sock[SK_COUNT], bytes = 0, left = 1;

			scenario_eval_socket(sc, w->t, sk, nch, sock, chan);
			for (int ch = 0; ch < nch; ch++)
				bytes += (chan[ch][SK_read_lines_per_s] + chan[ch][SK_write_lines_per_s]) *
					 64 * dt;
			for (int i = 0; i < sc->ntasks; i++) {
				const struct scenario_task *k = &sc->tasks[i];
				int g = emu_who_find(w, k->cgroup);

				if (!emu_who_on_socket(e, k, sk))
					continue;
				w->mbm[g * e->nsockets + sk][0] += bytes * k->mbm;
				w->mbm[g * e->nsockets + sk][1] += bytes * k->mbm * k->mbm_local;
				left -= k->mbm;
			}
			w->dflt[sk * 2] += bytes * (left > 0 ? left : 0);
			w->dflt[sk * 2 + 1] += bytes * (left > 0 ? left : 0);
		}
		w->t = t1;
	}
	free(chan);
}

/* Replace DIR/NAME with TEXT (a temporary file renamed over it). */
int emu_who_put(const char *dir, const char *name, const char *text)
{
	char path[4096], tmp[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	if (fclose(f) || rename(tmp, path))
		return -errno;
	return 0;
}

/* mkdir -p of DIR/SUB. */
int emu_who_mkdir(const char *dir, const char *sub)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	for (char *c = path + strlen(dir) + 1; ; c++) {
		if (*c == '/' || !*c) {
			char save = *c;

			*c = '\0';
			if (mkdir(path, 0755) && errno != EEXIST)
				return -errno;
			*c = save;
			if (!save)
				return 0;
		}
	}
}

/* "0-3,8" of the CPUs of the tasks in cgroup G (and under it). */
static void emu_who_cpus(const struct emu *e, const struct emu_who *w, int g, char *buf, size_t len)
{
	size_t n = 0;
	int run = -1;

	buf[0] = '\0';
	for (int cpu = 0; cpu <= e->ncpus; cpu++) {
		bool in = false;

		for (int i = 0; cpu < e->ncpus && !in && i < e->sc->ntasks; i++)
			in = emu_who_under(e->sc->tasks[i].cgroup, w->cg[g]) &&
			     emu_who_on(&e->sc->tasks[i], cpu);
		if (in && run < 0)
			run = cpu;
		if (!in && run >= 0) {
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%d", n ? "," : "", run);
			if (cpu - 1 > run)
				n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "-%d", cpu - 1);
			run = -1;
		}
	}
	if (n < len)
		snprintf(buf + n, len - n, "\n");
}

/* The cgroup tree: one directory per cgroup, its counters. */
static int emu_who_cgroups(struct emu *e, struct emu_who *w, const char *dir, bool first)
{
	char base[2048], sub[4096], text[8192];
	int rc;

	snprintf(base, sizeof(base), "%s/sys/fs/cgroup", dir);
	if (first) {
		if ((rc = emu_who_mkdir(dir, "sys/fs/cgroup")) ||
		    (rc = emu_who_put(base, "cgroup.controllers", "cpuset cpu io memory pids\n")))
			return rc;
	}
	{
		/* the root's cpu.stat: every task's (the kernel's own time aside) */
		double user = 0, sys = 0;

		for (int i = 0; i < e->sc->ntasks; i++) {
			user += w->task_user[i];
			sys += w->task_sys[i];
		}
		snprintf(text, sizeof(text), "usage_usec %.0f\nuser_usec %.0f\nsystem_usec %.0f\n",
			 (user + sys) * 1e6, user * 1e6, sys * 1e6);
		if ((rc = emu_who_put(base, "cpu.stat", text)))
			return rc;
	}
	for (int g = 0; g < w->ncg; g++) {
		size_t n = 0;
		struct stat st;

		snprintf(sub, sizeof(sub), "%s/%s", base, w->cg[g]);
		if (first) {
			if ((rc = emu_who_mkdir(base, w->cg[g])))
				return rc;
			if (stat(sub, &st))
				return -errno;
			w->dev[g] = st.st_dev;
			w->ino[g] = st.st_ino;
			for (int i = 0; i < e->sc->ntasks; i++)
				if (!strcmp(e->sc->tasks[i].cgroup, w->cg[g]))
					n += (size_t)snprintf(text + n, sizeof(text) - n, "%d\n",
							      e->sc->tasks[i].pid);
			text[n < sizeof(text) ? n : sizeof(text) - 1] = '\0';
			if ((rc = emu_who_put(sub, "cgroup.procs", text)))
				return rc;
			emu_who_cpus(e, w, g, text, sizeof(text));
			if ((rc = emu_who_put(sub, "cpuset.cpus.effective", text)))
				return rc;
		}
		snprintf(text, sizeof(text), "usage_usec %.0f\nuser_usec %.0f\nsystem_usec %.0f\n"
			 "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n",
			 (w->cg_user[g] + w->cg_sys[g]) * 1e6, w->cg_user[g] * 1e6, w->cg_sys[g] * 1e6);
		if ((rc = emu_who_put(sub, "cpu.stat", text)))
			return rc;
	}
	return 0;
}

/* /proc/PID of every task: stat (utime, stime in USER_HZ; its CPU), comm, cgroup. */
static int emu_who_procs(struct emu *e, struct emu_who *w, const char *dir, bool first)
{
	char sub[4096], text[1024];
	int rc;

	for (int i = 0; i < e->sc->ntasks; i++) {
		const struct scenario_task *k = &e->sc->tasks[i];

		snprintf(sub, sizeof(sub), "%s/proc/%d", dir, k->pid);
		if (first) {
			snprintf(text, sizeof(text), "proc/%d", k->pid);
			if ((rc = emu_who_mkdir(dir, text)))
				return rc;
			snprintf(text, sizeof(text), "%s\n", k->comm);
			if ((rc = emu_who_put(sub, "comm", text)))
				return rc;
			snprintf(text, sizeof(text), "0::/%s\n", k->cgroup);
			if ((rc = emu_who_put(sub, "cgroup", text)))
				return rc;
		}
		/* proc(5): fields 14 utime, 15 stime, 39 processor */
		snprintf(text, sizeof(text), "%d (%s) R 1 %d %d 0 -1 4194560 1000 0 0 0 %.0f %.0f 0 0 "
			 "20 0 1 0 100 104857600 2560 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 "
			 "17 %d 0 0 0 0 0 0 0 0 0 0 0 0 0\n", k->pid, k->comm, k->pid, k->pid,
			 w->task_user[i] * EMU_WHO_CLK_TCK, w->task_sys[i] * EMU_WHO_CLK_TCK, k->cpus[0]);
		if ((rc = emu_who_put(sub, "stat", text)))
			return rc;
	}
	return 0;
}

/* One monitoring group's mon_data at SUB (its counters per socket: TOTAL_LOCAL[sk][2], LLC bytes). */
static int emu_who_mon_data(const struct emu *e, const char *sub, const double *total_local,
			    const double *llc, bool first)
{
	char d[4096], text[64];
	int rc;

	for (int sk = 0; sk < e->nsockets; sk++) {
		snprintf(d, sizeof(d), "mon_data/mon_L3_%02d", sk);
		if (first && (rc = emu_who_mkdir(sub, d)))
			return rc;
		snprintf(d, sizeof(d), "%s/mon_data/mon_L3_%02d", sub, sk);
		snprintf(text, sizeof(text), "%.0f\n", total_local[sk * 2]);
		if ((rc = emu_who_put(d, "mbm_total_bytes", text)))
			return rc;
		snprintf(text, sizeof(text), "%.0f\n", total_local[sk * 2 + 1]);
		if ((rc = emu_who_put(d, "mbm_local_bytes", text)))
			return rc;
		snprintf(text, sizeof(text), "%.0f\n", llc[sk]);
		if ((rc = emu_who_put(d, "llc_occupancy", text)))
			return rc;
	}
	return 0;
}

/* The resctrl tree: the default group, a monitoring group per cgroup holding tasks. */
static int emu_who_resctrl(struct emu *e, struct emu_who *w, const char *dir, bool first)
{
	char base[2048], sub[4096], text[8192];
	double *tl = xcalloc((size_t)e->nsockets * 2 + 1, sizeof(double));
	double *llc = xcalloc((size_t)e->nsockets + 1, sizeof(double));
	int rc = 0;

	snprintf(base, sizeof(base), "%s/sys/fs/resctrl", dir);
	if (first) {
		snprintf(text, sizeof(text), "%d\n", EMU_WHO_RMIDS);
		if ((rc = emu_who_mkdir(dir, "sys/fs/resctrl/info/L3_MON")) ||
		    (rc = emu_who_mkdir(dir, "sys/fs/resctrl/mon_groups")) ||
		    (rc = emu_who_put(base, "info/L3_MON/num_rmids", text)) ||
		    (rc = emu_who_put(base, "info/L3_MON/mon_features",
				      "llc_occupancy\nmbm_total_bytes\nmbm_local_bytes\n")))
			goto out;
	}
	if ((rc = emu_who_mon_data(e, base, w->dflt, llc, first)))
		goto out;
	for (int g = 0; g < w->ncg; g++) {
		size_t n = 0;

		if (!w->direct[g])
			continue;
		/* named after the cgroup, '/' as '-': an administrator's choice as good as any */
		snprintf(sub, sizeof(sub), "%s/mon_groups/", base);
		for (const char *c = w->cg[g]; *c && strlen(sub) + 2 < sizeof(sub); c++)
			sub[strlen(sub) + 1] = '\0', sub[strlen(sub)] = *c == '/' ? '-' : *c;
		for (int sk = 0; sk < e->nsockets; sk++) {
			tl[sk * 2] = w->mbm[g * e->nsockets + sk][0];
			tl[sk * 2 + 1] = w->mbm[g * e->nsockets + sk][1];
			llc[sk] = 0;
			for (int i = 0; i < e->sc->ntasks; i++)
				if (!strcmp(e->sc->tasks[i].cgroup, w->cg[g]) &&
				    emu_who_on_socket(e, &e->sc->tasks[i], sk))
					llc[sk] += e->sc->tasks[i].llc_mb * 1048576.0;
		}
		if (first) {
			if (mkdir(sub, 0755) && errno != EEXIST) {
				rc = -errno;
				goto out;
			}
			for (int i = 0; i < e->sc->ntasks; i++)
				if (!strcmp(e->sc->tasks[i].cgroup, w->cg[g]))
					n += (size_t)snprintf(text + n, sizeof(text) - n, "%d\n",
							      e->sc->tasks[i].pid);
			text[n < sizeof(text) ? n : sizeof(text) - 1] = '\0';
			if ((rc = emu_who_put(sub, "tasks", text)))
				goto out;
		}
		if ((rc = emu_who_mon_data(e, sub, tl, llc, first)))
			goto out;
	}
out:
	free(tl);
	free(llc);
	return rc;
}

int emu_who_write(struct emu *e, const char *dir, char *err, size_t errlen)
{
	bool first;
	int rc;

	pthread_mutex_lock(&e->lock);
	first = !e->who;
	if (first)
		e->who = emu_who_new(e->sc, e->nsockets);
	emu_who_advance(e, e->who, emu_clock_now(e));
	if ((rc = emu_who_cgroups(e, e->who, dir, first)) ||
	    (rc = emu_who_procs(e, e->who, dir, first)) ||
	    (rc = emu_who_resctrl(e, e->who, dir, first)))
		snprintf(err, errlen, "%s: cannot write the emulated cgroups, /proc and resctrl: %s",
			 dir, strerror(-rc));
	pthread_mutex_unlock(&e->lock);
	return rc;
}

int emu_who_cgroup_of(struct emu *e, int fd)
{
	struct stat st;
	int g = -1;

	if (fstat(fd, &st) || !S_ISDIR(st.st_mode))
		return -1;
	pthread_mutex_lock(&e->lock);
	for (int i = 0; e->who && i < e->who->ncg && g < 0; i++)
		if (e->who->ino[i] == st.st_ino && e->who->dev[i] == st.st_dev)
			g = i;
	pthread_mutex_unlock(&e->lock);
	return g;
}

int emu_who_task(const struct emu *e, int pid)
{
	for (int i = 0; i < e->sc->ntasks; i++)
		if (e->sc->tasks[i].pid == pid)
			return i;
	return -1;
}

double emu_who_share(const struct emu *e, int cgroup, int task, int cpu)
{
	double share = 0;

	for (int i = 0; i < e->sc->ntasks; i++) {
		const struct scenario_task *k = &e->sc->tasks[i];

		if (task >= 0 ? i != task
			      : cgroup < 0 || !e->who || !emu_who_under(k->cgroup, e->who->cg[cgroup]))
			continue;
		if (emu_who_on(k, cpu))
			share += k->share;
	}
	return share;
}
