/*
 * pidcpus: a process's threads and their CPUs from /proc; see pidcpus.h.
 */
#include "pidcpus.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "rootfs.h"

struct pidcpus_task {
	int tid;
	unsigned long long ticks; /* utime + stime */
};

struct pidcpus {
	char root[512];           /* the machine's root ("" this one) */
	int pid;
	bool tree;                /* its descendants too */
	int ncpus;
	bool first;
	struct pidcpus_task *tasks;
	int ntasks;
};

int pidcpus_open(const char *root, int pid, bool tree, int ncpus, struct pidcpus **out, char *err,
		 size_t errlen)
{
	struct pidcpus *p;
	char dir[600];
	DIR *d;

	*out = NULL;
	p = xcalloc(1, sizeof(*p));
	snprintf(p->root, sizeof(p->root), "%s", strcmp(root, "/") ? root : "");
	p->pid = pid;
	p->tree = tree;
	snprintf(dir, sizeof(dir), "proc/%d/task", pid);
	d = rootfs_opendir(p->root, dir);
	if (!d) {
		int e = errno;

		snprintf(err, errlen, "PID %d: %s", pid,
			 e == ENOENT ? "no such process" : strerror(e));
		free(p);
		return -(e == ENOENT ? ESRCH : e);
	}
	closedir(d);
	p->ncpus = ncpus;
	p->first = true;
	*out = p;
	return 0;
}

/* Fields of one task's stat: state, CPU time, the CPU it last ran on; false when unreadable. */
static bool pidcpus_stat(const char *root, const char *rel, char *state, unsigned long long *ticks,
			 int *cpu)
{
	char buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	int field = 3;

	if (rootfs_read(root, rel, buf, sizeof(buf)) <= 0)
		return false;
	/* the command name may hold spaces and parentheses: fields start after the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return false;
	*cpu = -1;
	for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " "), field++) {
		if (field == 3)
			*state = tok[0];
		else if (field == 14)
			ut = strtoull(tok, NULL, 10);
		else if (field == 15)
			st = strtoull(tok, NULL, 10);
		else if (field == 39)
			*cpu = atoi(tok);
	}
	*ticks = ut + st;
	return *cpu >= 0;
}

/* PID's parent from ROOT/proc/PID/stat, or -1. */
static int pidcpus_ppid(const char *root, int pid)
{
	char path[64], buf[1024], *p;
	int ppid = -1;

	snprintf(path, sizeof(path), "proc/%d/stat", pid);
	if (rootfs_read(root, path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strrchr(buf, ')');
	if (p && sscanf(p + 1, " %*c %d", &ppid) != 1)
		ppid = -1;
	return ppid;
}

/* P's process and, with the tree, every descendant now: a list the caller frees. */
static int *pidcpus_pids(const struct pidcpus *p, int *n)
{
	int *pids = xmalloc(sizeof(int)), cap = 1, *all = NULL, *par = NULL, nall = 0, acap = 0;
	struct dirent *de;
	DIR *d;

	pids[0] = p->pid;
	*n = 1;
	if (!p->tree || !(d = rootfs_opendir(p->root, "proc")))
		return pids;
	while ((de = readdir(d))) {
		int pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		if (nall == acap) {
			acap = acap ? 2 * acap : 256;
			all = xrealloc(all, (size_t)acap, sizeof(int));
			par = xrealloc(par, (size_t)acap, sizeof(int));
		}
		all[nall] = pid;
		par[nall++] = pidcpus_ppid(p->root, pid);
	}
	closedir(d);
	/* breadth first from the process: each found pid's children join the list */
	for (int i = 0; i < *n; i++)
		for (int k = 0; k < nall; k++)
			if (par[k] == pids[i] && all[k] != pids[i]) {
				if (*n == cap) {
					cap *= 2;
					pids = xrealloc(pids, (size_t)cap, sizeof(int));
				}
				pids[(*n)++] = all[k];
				par[k] = -1; /* taken: never twice */
			}
	free(all);
	free(par);
	return pids;
}

/* The tasks of one process (its task directory DIR) into RAN and the list NOW. */
static void pidcpus_scan_dir(struct pidcpus *p, const char *dir, bool *ran,
			     struct pidcpus_task **now, int *nnow, int *cap)
{
	struct dirent *de;
	DIR *d = rootfs_opendir(p->root, dir);

	if (!d)
		return; /* that process ended: it ran nowhere */
	while ((de = readdir(d))) {
		char path[700];
		unsigned long long ticks;
		int tid = atoi(de->d_name), cpu, seen = -1;
		char state = 0;
		bool moved;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%d/stat", dir, tid);
		if (!pidcpus_stat(p->root, path, &state, &ticks, &cpu))
			continue;
		for (int i = 0; i < p->ntasks && seen < 0; i++)
			if (p->tasks[i].tid == tid)
				seen = i;
		/*
		 * No interval yet at the first scan: where its threads are running
		 * now.  Later, a thread that used CPU time since the last scan; one
		 * that appeared since (a new worker) if it used any.
		 */
		if (p->first)
			moved = state == 'R';
		else
			moved = seen >= 0 ? ticks > p->tasks[seen].ticks : ticks > 0 || state == 'R';
		if (moved && cpu < p->ncpus)
			ran[cpu] = true;
		if (*nnow == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			*now = xrealloc(*now, (size_t)*cap, sizeof(**now));
		}
		(*now)[(*nnow)++] = (struct pidcpus_task){ .tid = tid, .ticks = ticks };
	}
	closedir(d);
}

bool *pidcpus_scan(struct pidcpus *p)
{
	bool *ran = xcalloc((size_t)p->ncpus + 1, sizeof(bool));
	struct pidcpus_task *now = NULL;
	int nnow = 0, cap = 0, npids;
	int *pids = pidcpus_pids(p, &npids);

	for (int k = 0; k < npids; k++) {
		char dir[600];

		snprintf(dir, sizeof(dir), "proc/%d/task", pids[k]);
		pidcpus_scan_dir(p, dir, ran, &now, &nnow, &cap);
	}
	free(pids);
	free(p->tasks);
	p->tasks = now;
	p->ntasks = nnow;
	p->first = false;
	return ran;
}

void pidcpus_free(struct pidcpus *p)
{
	if (!p)
		return;
	free(p->tasks);
	free(p);
}
