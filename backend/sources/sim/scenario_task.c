/*
 * scenario_task: a scenario's processes ("task" lines, scenarios/README.md):
 * PID, cgroup, the CPUs it runs on, its share of their unhalted time, its
 * share of their L3 domains' DRAM traffic and L3.  What a shared server's
 * "whose job is it" is asked of (the who pane, issue 33).  Main thread.
 */
#include "scenario_int.h"
#include "cpulist.h"
#include "xmalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cgroup path as the scenario may name one: NAME/NAME/..., no "." or ".." part. */
static const char *scenario_cgroup_bad(const char *path)
{
	const char *part = path;

	if (!*path || strlen(path) >= SCENARIO_CGROUP_MAX)
		return "a cgroup path of 1 to 199 bytes such as system.slice/nginx.service";
	for (const char *c = path; ; c++) {
		if (*c == '/' || !*c) {
			size_t n = (size_t)(c - part);

			if (!n || (n == 1 && part[0] == '.') || (n == 2 && !strncmp(part, "..", 2)))
				return "cgroup path parts that are names (no empty, '.' or '..' part, no "
				       "leading '/')";
			if (!*c)
				return NULL;
			part = c + 1;
		} else if (!isalnum((unsigned char)*c) && !strchr("._-@:", *c)) {
			return "a cgroup path of letters, digits and . _ - @ : between slashes";
		}
	}
}

static int scenario_task_key(struct scenario_parser *p, const char *at, const char *word,
			     struct scenario_task *t)
{
	const char *eq = strchr(word, '=');
	size_t col;
	double v;
	int rc;

	if (!eq)
		return scenario_fail(p, at, "expected KEY=VALUE (cpus, share, comm, mbm, mbm_local, "
				     "llc_mb), got '%s'", word);
	if (!strncmp(word, "comm=", 5)) {
		if (!eq[1] || strlen(eq + 1) > 15)
			return scenario_fail(p, at + 5, "expected a command name of 1 to 15 bytes");
		strcpy(t->comm, eq + 1);
		return 0;
	}
	if (!strncmp(word, "cpus=", 5)) {
		free(t->cpus);
		t->cpus = NULL;
		if (cpulist_parse(eq + 1, &t->cpus, &t->ncpus, &col) || !t->ncpus)
			return scenario_fail(p, at + 5 + col - 1, "expected a CPU list such as 0-3,8");
		return 0;
	}
	if (strncmp(word, "llc_mb=", 7) && strncmp(word, "share=", 6) && strncmp(word, "mbm=", 4) &&
	    strncmp(word, "mbm_local=", 10))
		return scenario_fail(p, at, "unknown task key '%.*s' (cpus, share, comm, mbm, "
				     "mbm_local, llc_mb)", (int)(eq - word), word);
	if ((rc = scenario_number(p, at + (eq - word) + 1, eq + 1, &v)))
		return rc;
	if (!strncmp(word, "llc_mb=", 7)) {
		if (v < 0 || v > 65536)
			return scenario_fail(p, at + 7, "expected llc_mb between 0 and 65536, got %g", v);
		t->llc_mb = v;
		return 0;
	}
	if (v < 0 || v > 1)
		return scenario_fail(p, at + (eq - word) + 1, "expected a share between 0 and 1, "
				     "got %g", v);
	if (!strncmp(word, "share=", 6))
		t->share = v;
	else if (!strncmp(word, "mbm=", 4))
		t->mbm = v;
	else
		t->mbm_local = v;
	return 0;
}

/* Each CPU's tasks take at most all of its time; all tasks at most all DRAM traffic. */
static int scenario_task_sums(struct scenario_parser *p, const char *at, const struct scenario *sc,
			      const struct scenario_task *t)
{
	double mbm = t->mbm;

	for (int i = 0; i < sc->ntasks; i++)
		mbm += sc->tasks[i].mbm;
	if (mbm > 1 + 1e-9)
		return scenario_fail(p, at, "expected the tasks' mbm shares to sum to at most 1 (the "
				     "whole DRAM traffic), got %g", mbm);
	for (int c = 0; c < t->ncpus; c++) {
		double sum = t->share;

		for (int i = 0; i < sc->ntasks; i++)
			for (int d = 0; d < sc->tasks[i].ncpus; d++)
				sum += sc->tasks[i].cpus[d] == t->cpus[c] ? sc->tasks[i].share : 0;
		if (sum > 1 + 1e-9)
			return scenario_fail(p, at, "expected the tasks on CPU %d to share at most all "
					     "of its time, got %g", t->cpus[c], sum);
	}
	return 0;
}

int scenario_task_line(struct scenario_parser *p, struct scenario *sc, const char *s)
{
	struct scenario_task t = { .mbm_local = 1 };
	char word[256];
	const char *at, *why;
	double pid;
	int rc;

	s = scenario_skip_blank(s);
	at = s;
	if (!scenario_word(&s, word, sizeof(word)))
		return scenario_fail(p, at, "expected 'task PID CGROUP cpus=LIST share=F ...'");
	if ((rc = scenario_number(p, at, word, &pid)))
		return rc;
	if (pid < 2 || pid > SCENARIO_PID_MAX || pid != floor(pid))
		return scenario_fail(p, at, "expected a PID from 2 to %d", SCENARIO_PID_MAX);
	t.pid = (int)pid;
	for (int i = 0; i < sc->ntasks; i++)
		if (sc->tasks[i].pid == t.pid)
			return scenario_fail(p, at, "task %d is already described", t.pid);
	if (sc->ntasks >= SCENARIO_MAX_TASKS)
		return scenario_fail(p, at, "expected at most %d tasks", SCENARIO_MAX_TASKS);
	s = scenario_skip_blank(s);
	at = s;
	scenario_word(&s, word, sizeof(word));
	if ((why = scenario_cgroup_bad(word)))
		return scenario_fail(p, at, "expected %s", why);
	t.cgroup = xstrdup(word);
	snprintf(t.comm, sizeof(t.comm), "task%d", t.pid);
	t.share = -1;
	for (;;) {
		s = scenario_skip_blank(s);
		at = s;
		if (!scenario_word(&s, word, sizeof(word)))
			break;
		if ((rc = scenario_task_key(p, at, word, &t)))
			goto fail;
	}
	if (!t.ncpus || t.share < 0) {
		rc = scenario_fail(p, s, "expected cpus=LIST and share=F (the share of those CPUs' "
				   "time it takes)");
		goto fail;
	}
	if ((rc = scenario_task_sums(p, p->bol, sc, &t)))
		goto fail;
	sc->tasks = xrealloc(sc->tasks, (size_t)sc->ntasks + 1, sizeof(*sc->tasks));
	sc->tasks[sc->ntasks++] = t;
	return 0;
fail:
	free(t.cgroup);
	free(t.cpus);
	return rc;
}

void scenario_free_tasks(struct scenario *sc)
{
	for (int i = 0; i < sc->ntasks; i++) {
		free(sc->tasks[i].cgroup);
		free(sc->tasks[i].cpus);
	}
	free(sc->tasks);
}
