/*
 * session_who: a run's who collector (backend/who): where it reads (the
 * machine's files: source_files),
 * whether it counts (--who, through the perf source's kernel: pmutop's own
 * registers cannot count per cgroup) and on which CPUs with which core PMU.
 * The sampler (engine or OS sampler) calls who_collect; the UI says when the
 * figures are wanted (session_set_who).  --who-resctrl's monitoring groups
 * are made here, before anything counts, and removed when the run ends.
 * Main thread.
 */
#define _GNU_SOURCE
#include "session_int.h"
#include "who.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* --who-resctrl's groups: the processes that joined their cgroups (the sampler, each look). */
static const char *session_who_follow(void *ctx)
{
	return who_mk_follow(ctx);
}

int session_who_open(struct session *s, const struct session_config *c, char *err, size_t errlen)
{
	struct who_config wc = {
		.root = s->root, .top = c->who_top,
		.procs = c->who_procs < 0 ? WHO_PROCS_DEFAULT : c->who_procs,
		.simulated = s->src && s->f.simulated,
	};
	const struct topo *t = s->src ? s->f.topo : s->os_topo;
	struct source_files files;
	int n = 0, rc;

	s->who_cpus = xcalloc((size_t)t->nthreads + 1, sizeof(int));
	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].online)
			s->who_cpus[n++] = t->threads[i].os_cpu;
	wc.cpus = s->who_cpus;
	wc.ncpus = n;
	/* an emulated machine's files are its own, written before every look */
	rc = source_files(s->src, wc.root, SOURCE_FILES_WHO, &files, err, errlen);
	if (rc)
		return rc;
	wc.root = files.root;
	wc.unavailable = files.unavailable;
	wc.refresh = files.refresh;
	wc.refresh_ctx = files.refresh_ctx;
	/*
	 * Without a counter source (no msr, perf refused whole CPUs) the kernel
	 * may still count what this user is allowed: their own processes at
	 * paranoid 1 and 2, cgroups with CAP_PERFMON (who_count says which)
	 */
	wc.count = c->who && (!s->src || s->f.kernel);
	if (!s->src && !c->who)
		wc.count_why = "no counters for the panes on this machine (see the header): CPU time "
			       "and resctrl; pmutop --who counts what perf allows this user";
	else if (c->who && !wc.count)
		wc.count_why = "counted per cgroup through the kernel (--source perf): pmutop holds the "
			       "counters' registers itself here";
	if (s->src && s->f.kernel) {
		struct source_kernel_counters k;

		wc.layout = s->layout;
		if (source_kernel_counters(s->src, &k)) {
			wc.perf = k.sys;
			wc.access = k.access;
			wc.perf_cpu = k.cpu;
			wc.cpu_type = k.cpu_type;
			wc.ntypes = k.ntypes;
		}
	}
	if (c->who_resctrl && files.own) {
		snprintf(err, errlen, "--who-resctrl makes monitoring groups in a machine's resctrl; the "
			 "emulated machine has one for each cgroup of its scenario already");
		return -EINVAL;
	}
	if (c->who_resctrl && (rc = who_mk_groups(s->root, c->who_resctrl, &s->who_mk, err, errlen)))
		return rc == -ENOENT || rc == -ENOSPC ? -EINVAL : rc;
	if (s->who_mk) {
		wc.follow = session_who_follow;
		wc.follow_ctx = s->who_mk;
	}
	rc = who_create(&wc, &s->who, err, errlen);
	if (!rc) {
		who_set_wanted(s->who, c->who || c->who_wanted);
		who_set_topdown(s->who, c->who_topdown);
	}
	return rc;
}

struct who_snap *session_who_look(void *ctx, double t)
{
	return ctx ? who_collect(ctx, t) : NULL;
}

void session_who_close(struct session *s)
{
	who_free(s->who);
	s->who = NULL;
	who_mk_remove(s->who_mk);
	s->who_mk = NULL;
	free(s->who_cpus);
	s->who_cpus = NULL;
}

void session_set_who(struct session *s, bool on)
{
	if (s->who)
		who_set_wanted(s->who, on);
}

void session_set_who_topdown(struct session *s, bool on)
{
	if (s->who)
		who_set_topdown(s->who, on);
}
