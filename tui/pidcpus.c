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

struct pidcpus_task {
	int tid;
	unsigned long long ticks; /* utime + stime */
};

struct pidcpus {
	char dir[512];            /* ROOT/proc/PID/task */
	int ncpus;
	bool first;
	struct pidcpus_task *tasks;
	int ntasks;
};

int pidcpus_open(const char *root, int pid, int ncpus, struct pidcpus **out, char *err,
		 size_t errlen)
{
	struct pidcpus *p;
	DIR *d;

	*out = NULL;
	p = xcalloc(1, sizeof(*p));
	snprintf(p->dir, sizeof(p->dir), "%s/proc/%d/task", strcmp(root, "/") ? root : "", pid);
	d = opendir(p->dir);
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
static bool pidcpus_stat(const char *path, char *state, unsigned long long *ticks, int *cpu)
{
	char buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	FILE *f = fopen(path, "re");
	size_t n;
	int field = 3;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
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

bool *pidcpus_scan(struct pidcpus *p)
{
	bool *ran = xcalloc((size_t)p->ncpus + 1, sizeof(bool));
	struct pidcpus_task *now = NULL;
	int nnow = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(p->dir);

	if (!d)
		return ran; /* the process ended: it ran nowhere */
	while ((de = readdir(d))) {
		char path[600];
		unsigned long long ticks;
		int tid = atoi(de->d_name), cpu;
		char state = 0;
		bool moved;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%d/stat", p->dir, tid);
		if (!pidcpus_stat(path, &state, &ticks, &cpu))
			continue;
		/* no interval yet at the first scan: where its threads are running now */
		moved = p->first && state == 'R';
		for (int i = 0; i < p->ntasks && !moved; i++)
			if (p->tasks[i].tid == tid)
				moved = ticks > p->tasks[i].ticks;
		if (moved && cpu < p->ncpus)
			ran[cpu] = true;
		if (nnow == cap) {
			cap = cap ? 2 * cap : 16;
			now = xrealloc(now, (size_t)cap, sizeof(*now));
		}
		now[nnow++] = (struct pidcpus_task){ .tid = tid, .ticks = ticks };
	}
	closedir(d);
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
