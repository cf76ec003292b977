/*
 * source_facts: what the session asks of an open source, so that it never
 * reads a source's fields.  Which of them a source has (a register device,
 * a kernel's system calls, an emulated machine) is the source's business:
 * each call does the right thing for each, and nothing where it has none.
 * Main thread.
 */
#include "source_int.h"
#include "guardian.h"
#include "owner.h"
#include "perf_pmus.h"
#include "who.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void source_facts(const struct source *s, struct source_facts *out)
{
	*out = (struct source_facts){
		.topo = s->topo, .info = &s->info, .model = s->model, .uncore = s->uncore,
		.channels = s->channels, .dram_mts = s->dram_mts, .name = s->name,
		.machine = s->machine[0] ? s->machine : NULL, .simulated = s->simulated,
		.stepped = s->stepped, .kernel = s->perf,
		/* an emulated machine has no one to share its registers with */
		.exclusive = !s->perf && !s->simulated,
		.e_cores = s->have_atom,
	};
}

int source_taken(const struct source *s, const char *root, uint32_t *gp, uint32_t *fixed,
		 bool *uncore, int nuncore, char *what, size_t len)
{
	struct owner_report r;
	int rc;

	*gp = *fixed = 0;
	for (int k = 0; uncore && k < nuncore; k++)
		uncore[k] = false;
	if (len)
		what[0] = 0;
	if (s->perf)
		return 0;
	rc = owner_scan(s->dev, &s->info, s->uncore, s->topo, root, &r);
	for (int k = 0; uncore && k < nuncore && k < r.nsockets; k++)
		uncore[k] = r.uncore_taken[k];
	for (int i = 0; i < r.ncpus; i++) {
		*gp |= r.cpu[i].gp_taken;
		*fixed |= r.cpu[i].fixed_taken;
	}
	if (!owner_all_free(&r))
		owner_describe(&r, s->topo, what, len);
	owner_free(&r);
	return rc;
}

int source_lock(struct source *s, const char *root, char *err, size_t errlen)
{
	/* through the kernel it shares the counters; an emulated machine has no one to share with */
	if (s->perf || s->simulated || lock_held(&s->lock))
		return 0;
	return lock_acquire(root ? root : "/", &s->lock, err, errlen);
}

void source_unlock(struct source *s)
{
	if (s)
		lock_release(&s->lock);
}

bool source_locked(const struct source *s)
{
	return s && lock_held(&s->lock);
}

pid_t source_lock_holder(const char *root)
{
	return lock_holder(root);
}

int source_guard(struct source *s, char *err, size_t errlen)
{
	return s->dev ? guardian_start(s->dev, err, errlen) : 0;
}

int source_restore(struct source *s)
{
	if (!s || !s->dev)
		return 0;
	msr_restore_all(s->dev);
	return msr_restore_report(s->dev, STDERR_FILENO);
}

void source_guard_release(void)
{
	guardian_release();
}

void source_emergency_restore(void)
{
	/* all back: the guardian has nothing to do, and must not keep the lock past our end */
	if (msr_emergency_restore() == 0)
		guardian_release_now();
}

/* Append the line LINE to BUF (LEN). */
static void source_note(char *buf, size_t len, const char *line)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s\n", line);
}

void source_notes(const struct source *s, char *buf, size_t len)
{
	if (s->perf && s->perf_access.nmi_watchdog == 1)
		source_note(buf, len, "the NMI watchdog holds a counter on every CPU "
			    "(kernel.nmi_watchdog = 1): the kernel multiplexes pmutop's groups "
			    "over the rest");
	if (s->dev && msr_fd_note(s->dev)[0])
		source_note(buf, len, msr_fd_note(s->dev));
}

void source_count_command(struct source *s)
{
	s->perf_task = true;
}

bool source_counts_command(const struct source *s)
{
	return s && s->perf_task;
}

bool source_command_user_only(const struct source *s)
{
	return s->perf_access.paranoid >= 2 && !s->perf_access.cap_perfmon;
}

void source_who_counters(struct source *s, struct who_config *wc)
{
	if (!s->perf)
		return;
	wc->perf = s->perf_sys;
	wc->access = &s->perf_access;
	wc->perf_cpu = &s->perf_cpu;
	if (!s->have_atom || !s->cpu_kind)
		return;
	/* a hybrid's CPUs count through their own kind's PMU */
	free(s->who_types);
	s->who_types = xcalloc((size_t)s->ncpu_kind + 1, sizeof(unsigned));
	for (int i = 0; i < s->ncpu_kind; i++)
		s->who_types[i] = s->cpu_kind[i] == LAYOUT_CPU_LPE && s->have_lowpower
				  ? s->perf_lowpower.type
				  : s->cpu_kind[i] == LAYOUT_CORES_E || s->cpu_kind[i] == LAYOUT_CPU_LPE
				  ? s->perf_atom.type : s->perf_cpu.type;
	wc->cpu_type = s->who_types;
	wc->ntypes = s->ncpu_kind;
}

int source_pmus(const struct source *s, struct perf_pmus *p, char *err, size_t errlen)
{
	return perf_pmus_scan(s->perf_sys, NULL, p, err, errlen);
}
