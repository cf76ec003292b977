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
		.e_cores = s->kern.have_atom,
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
	rc = owner_scan(s->regs.dev, &s->info, s->uncore, s->topo, root, &r);
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
	if (s->perf || s->simulated || lock_held(&s->regs.lock))
		return 0;
	return lock_acquire(root ? root : "/", &s->regs.lock, err, errlen);
}

void source_unlock(struct source *s)
{
	if (s)
		lock_release(&s->regs.lock);
}

bool source_locked(const struct source *s)
{
	return s && lock_held(&s->regs.lock);
}

pid_t source_lock_holder(const char *root)
{
	return lock_holder(root);
}

int source_guard(struct source *s, char *err, size_t errlen)
{
	return s->regs.dev ? guardian_start(s->regs.dev, err, errlen) : 0;
}

int source_restore(struct source *s)
{
	if (!s || !s->regs.dev)
		return 0;
	msr_restore_all(s->regs.dev);
	return msr_restore_report(s->regs.dev, STDERR_FILENO);
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
	if (s->perf && s->kern.access.nmi_watchdog == 1)
		source_note(buf, len, "the NMI watchdog holds a counter on every CPU "
			    "(kernel.nmi_watchdog = 1): the kernel multiplexes pmutop's groups "
			    "over the rest");
	if (s->regs.dev && msr_fd_note(s->regs.dev)[0])
		source_note(buf, len, msr_fd_note(s->regs.dev));
}

void source_count_command(struct source *s)
{
	s->kern.task = true;
}

bool source_counts_command(const struct source *s)
{
	return s && s->kern.task;
}

bool source_command_user_only(const struct source *s)
{
	return s->kern.access.paranoid >= 2 && !s->kern.access.cap_perfmon;
}

bool source_kernel_counters(struct source *s, struct source_kernel_counters *out)
{
	if (!s->perf)
		return false;
	*out = (struct source_kernel_counters){ .sys = s->kern.sys, .access = &s->kern.access,
						.cpu = &s->kern.cpu };
	if (!s->kern.have_atom || !s->cpu_kind)
		return true;
	/* a hybrid's CPUs count through their own kind's PMU */
	free(s->kern.who_types);
	s->kern.who_types = xcalloc((size_t)s->ncpu_kind + 1, sizeof(unsigned));
	for (int i = 0; i < s->ncpu_kind; i++)
		s->kern.who_types[i] = s->cpu_kind[i] == LAYOUT_CPU_LPE && s->kern.have_lowpower
				  ? s->kern.lowpower.type
				  : s->cpu_kind[i] == LAYOUT_CORES_E || s->cpu_kind[i] == LAYOUT_CPU_LPE
				  ? s->kern.atom.type : s->kern.cpu.type;
	out->cpu_type = s->kern.who_types;
	out->ntypes = s->ncpu_kind;
	return true;
}

int source_pmus(const struct source *s, struct perf_pmus *p, char *err, size_t errlen)
{
	return perf_pmus_scan(s->kern.sys, NULL, p, err, errlen);
}
