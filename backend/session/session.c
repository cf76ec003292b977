/*
 * session: start-up and shutdown order of a measuring run.
 */
#include "cpumodel.h"
#include "session.h"
#include "session_int.h"
#include "paths.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int session_load_layout(struct session *s, const struct session_config *c, char *err,
			  size_t errlen)
{
	const struct cpuid_info *info = s->f.info;
	int rc;

	if (c->layout_path)
		rc = layout_load(c->layout_path, &s->own_layout, err, errlen);
	else if (session_vendor_layout(c, s->src, &s->own_layout, s->notice, sizeof(s->notice)))
		rc = layout_find(c->layout_dir, info, &s->own_layout, err, errlen);
	else
		rc = 0;
	/* no layout of pmutop's own either (AMD's): the vendor data's trouble is the reason */
	if (rc && s->notice[0])
		snprintf(err, errlen, "%.*s", (int)strcspn(s->notice, "\n"), s->notice);
	if (!rc && !c->layout_path && !strncmp(s->own_layout->name, "intel_", 6))
		snprintf(s->uarch, sizeof(s->uarch), "%s (Intel's perfmon data)",
			 s->own_layout->name + 6);
	if (rc)
		return -EINVAL;
	s->layout = s->own_layout;
	for (char *u = s->uarch; *u && *u != ' '; u++)
		*u = (char)toupper((unsigned char)*u);
	if (!c->layout_path && !strncmp(s->layout->name, "amd_", 4))
		snprintf(s->uarch, sizeof(s->uarch), "%s (AMD's data, the kernel's perf tool)",
			 info->uarch != CPUID_UARCH_UNKNOWN ? info->uarch_name : s->layout->name + 4);
	/*
	 * a layout of the user's, or the fallback: the CPU as pmutop knows it (the
	 * vendor data's platform for a model the table has no row for), not CPUID's
	 * "architectural perfmon" (the header, a recording's cpu.uarch)
	 */
	if (!s->uarch[0]) {
		char kind[96];

		snprintf(s->uarch, sizeof(s->uarch), "%s",
			 session_cpu_kind(c->perfmon_dir, info, kind, sizeof(kind), NULL, 0));
	}
	session_find_unmodelled(s);
	if (c->layout_path && !s->layout->fallback && !c->force_layout &&
	    !layout_covers(s->layout, info)) {
		/* another CPU's events encode other things here: figures that would lie */
		const struct cpumodel *row = cpumodel_of(info);
		char kind[96], plat[64], its[160];
		const char *what = session_cpu_kind(c->perfmon_dir, info, kind, sizeof(kind), plat,
						    sizeof(plat));

		if (row && row->p->layout)
			snprintf(its, sizeof(its), "layout %s in pmutop's CPU table", row->p->layout);
		else if (plat[0] || !session_vendor_platform(c->perfmon_dir, info, plat, sizeof(plat)))
			snprintf(its, sizeof(its), "the layout pmutop makes from %s data for %s",
				 info->vendor_id == CPUID_VENDOR_AMD ? "AMD's" : "Intel's", plat);
		else
			snprintf(its, sizeof(its), "%s", info->uarch == CPUID_UARCH_ARCH
				 ? "layout arch (the architectural events)" : "no layout in pmutop");
		snprintf(err, errlen, "layout %s (%s) is for other CPUs: this one (family %u model "
			 "0x%02X, %s) has %s and the file's models line does not name it, and its "
			 "events differ; leave --layout out for this CPU's layout, or give "
			 "--force-layout to use it anyway", c->layout_path, s->layout->name,
			 info->family, info->model, what, its);
		return -EINVAL;
	}
	if (c->groups) {
		rc = session_parse_groups(s->layout, c->groups, &s->groups, err, errlen);
		if (rc == 1) {
			/* some names unknown here, others counted: a warning, the rest runs */
			snprintf(s->notice, sizeof(s->notice), "%s: left out\n", err);
			err[0] = 0;
			rc = 0;
		}
		return rc;
	}
	for (int g = 0; g < s->layout->ngroups; g++)
		if (s->layout->groups[g].default_on)
			s->groups |= layout_key_groups(s->layout, g);
	return 0;
}

/* Counters others use: left alone (their union over CPUs), or taken with --force. */
static void session_find_owners(struct session *s, const struct session_config *c, uint32_t *gp,
			   uint32_t *fixed)
{
	char what[700];

	source_taken(s->src, s->root, gp, fixed, c->force ? NULL : s->uncore_taken,
		     s->f.topo->nsockets, what, sizeof(what));
	if (c->force)
		*gp = *fixed = 0;
	if (what[0]) {
		size_t n = strlen(s->notice);

		snprintf(s->owners, sizeof(s->owners), "%s", what);
		snprintf(s->notice + n, sizeof(s->notice) - n, "%s%s", c->force
			 ? "--force: taking counters that were in use (restored at exit):\n" : "",
			 what);
	}
}

/* Open C's machine through source K (with --command-only its command alone, where K can). */
static int session_open_source(struct session *s, const struct session_config *c,
			       const struct source_kind *k, char *err, size_t errlen)
{
	int rc = k->open(c->machine, c->command, &s->src, err, errlen);

	/* --command-only: the command alone, even where whole CPUs could be counted */
	if (!rc && k->task && c->command_only)
		source_count_command(s->src);
	if (!rc)
		source_facts(s->src, &s->f);
	return rc;
}

/*
 * Counting one command: say so in every sample, and at paranoid 2 (no
 * CAP_PERFMON) count its user mode only, as the kernel requires.
 */
static void session_task_notice(struct session *s, struct engine_config *ec)
{
	bool user_only = source_command_user_only(s->src);
	size_t n = strlen(s->notice);

	if (user_only)
		ec->count_kernel = false;
	ec->count_user = true;
	snprintf(s->notice + n, sizeof(s->notice) - n, "counting only the command run under "
		 "pmutop and what it starts%s\n", user_only ? ", user mode only (kernel."
		 "perf_event_paranoid 2 lets a user count their own processes' user mode)" : "");
	ec->warning = s->notice;
}

/*
 * One session of C counting through source K; AUTO_WHY, when
 * not NULL, is why --source auto took perf (said in every sample): msr is
 * unusable, or (UNCORE) only the kernel's uncore drivers reach these groups.
 */
static int session_open_one(const struct session_config *c, const struct source_kind *k,
			    const char *auto_why, bool uncore, struct session **out, char *err,
			    size_t errlen)
{
	struct session *s = xcalloc(1, sizeof(*s));
	struct engine_config ec = { 0 };
	unsigned mts;
	int rc;

	*out = NULL;
	s->root = machine_root(c->machine) ? xstrdup(machine_root(c->machine)) : NULL;
	rc = session_open_source(s, c, k, err, errlen);
	if (rc)
		goto fail;
	/* AMD: pmutop counts its PMU through the kernel only, so perf is nothing to warn of */
	if (auto_why && uncore) {
		snprintf(s->source_why, sizeof(s->source_why), "auto: perf, the source that counts "
			 "every group here (%.200s: only the kernel's uncore drivers reach them); "
			 "--source msr counts the cores through the registers", auto_why);
		snprintf(s->notice, sizeof(s->notice), "counting through perf: only the kernel's "
			 "uncore drivers reach %.200s (--source msr: the cores alone, through the "
			 "registers)\n", auto_why);
	} else if (auto_why && s->f.info->vendor_id == CPUID_VENDOR_AMD) {
		snprintf(s->source_why, sizeof(s->source_why), "auto: AMD's PMU is counted through "
			 "the kernel (perf)");
	} else if (auto_why) {
		snprintf(s->source_why, sizeof(s->source_why), "auto: msr unusable (%s)", auto_why);
		/* in the header of every sample: why the figures come through the kernel */
		snprintf(s->notice, sizeof(s->notice), "counting through perf: msr is unusable "
			 "(%.900s)\n", auto_why);
	}
	s->uncore_taken = xcalloc((size_t)s->f.topo->nsockets + 1, sizeof(bool));
	rc = session_load_layout(s, c, err, errlen);
	if (rc)
		goto fail;
	/* one pmutop a machine where the source writes registers; with perf the kernel shares */
	rc = source_lock(s->src, s->root, err, errlen);
	if (rc)
		goto fail;
	if (!s->f.kernel)
		session_find_owners(s, c, &ec.gp_taken, &ec.fixed_taken);
	source_notes(s->src, s->notice, sizeof(s->notice));
	source_engine_config(s->src, &ec);
	ec.layout = s->layout;
	ec.topdown_fields = layout_topdown_fields(s->layout);
	ec.count_user = !c->kernel_only;
	ec.count_kernel = !c->user_only;
	ec.interval_s = c->interval;
	ec.mux_s = c->mux_s;
	ec.normal_priority = c->normal_priority;
	ec.groups = s->groups;
	ec.root = s->root;
	ec.warning = s->notice[0] ? s->notice : NULL;
	ec.uncore_taken = s->uncore_taken;
	s->stepped = c->stepped && s->f.stepped;
	if (source_counts_command(s->src))
		session_task_notice(s, &ec);
	mts = c->dram_mts ? c->dram_mts : s->f.dram_mts;
	/* 64-bit channels: 8 bytes per transfer */
	ec.channel_peak = mts ? mts * 1e6 * 8 : NAN;
	/* before the first register write: whatever kills pmutop, the registers come back */
	rc = source_guard(s->src, err, errlen);
	if (rc)
		goto fail;
	rc = session_who_open(s, c, err, errlen);
	if (rc)
		goto fail;
	ec.who_look = session_who_look;
	ec.who_ctx = s->who;
	rc = session_throttle_open(s, c, err, errlen);
	if (rc)
		goto fail;
	ec.throttle_look = session_throttle_look;
	ec.throttle_ctx = s->thr;
	rc = engine_create(&ec, &s->eng, err, errlen);
	if (rc)
		goto fail;
	*out = s;
	return 0;
fail:
	session_close(s);
	return rc;
}

/* What makes msr unusable here, where perf may still count (not bad input, not a busy lock). */
static bool session_msr_unusable(int rc)
{
	return rc == -ENOENT || rc == -ENODEV || rc == -EACCES || rc == -EPERM || rc == -ENOTSUP;
}

/*
 * The groups of S's layout that only the kernel's uncore drivers reach (a
 * server's CHAs, channels and links; a client's free-running counters),
 * which the msr source leaves blocked: their names into NAMES (LEN), how many.
 */
static int session_kernel_only_groups(const struct session *s, const char *root, char *names,
				      size_t len)
{
	const struct layout *l = s->layout;
	uint32_t reach;
	size_t n = 0;
	int count = 0;

	names[0] = 0;
	if (!l || s->f.uncore == CPUMODEL_UNCORE_KERNEL)
		return 0;
	/* the kinds the kernel has boxes of: a group it lacks them for is blocked either way */
	reach = source_pmus_kinds(s->src, root);
	for (int g = 0; g < l->ngroups; g++) {
		const struct layout_group *grp = &l->groups[g];
		bool seen = false;

		if (!layout_pmu_kinds[grp->pmu].kernel_only || layout_pmu_kinds[grp->pmu].beside ||
		    !(reach & (1u << grp->pmu)))
			continue;
		count++;
		/* each name once (Memory, Memory.2, ... are one to the reader) */
		for (int h = 0; h < g && !seen; h++)
			seen = layout_pmu_kinds[l->groups[h].pmu].kernel_only &&
			       !layout_pmu_kinds[l->groups[h].pmu].beside &&
			       strcspn(l->groups[h].name, ".") == strcspn(grp->name, ".") &&
			       !strncmp(l->groups[h].name, grp->name, strcspn(grp->name, "."));
		if (!seen && n < len)
			n += (size_t)snprintf(names + n, len - n, "%s%.*s", n ? ", " : "",
					      (int)strcspn(grp->name, "."), grp->name);
	}
	return count;
}

int session_open(const struct session_config *c, struct session **out, char *err, size_t errlen)
{
	char msr_why[1024], perf_why[1024], names[300];
	/* auto's rule is of these two: the registers, and the kernel where they fall short */
	const struct source_kind *msr = session_source_find("msr"), *perf = session_source_find("perf");
	struct session *p;
	int rc;

	if (c->source || c->command_only)
		return session_open_one(c, c->command_only && !session_source_task(c->source) ? perf
					: c->source, NULL, false, out, err, errlen);
	/* auto: msr when it opens and its first writes are allowed, else perf, saying why */
	rc = session_open_one(c, msr, NULL, false, out, msr_why, sizeof(msr_why));
	if (!rc && session_kernel_only_groups(*out, (*out)->root, names, sizeof(names))) {
		/*
		 * the registers reach the cores only, the kernel's drivers the rest of
		 * this CPU (a server's uncore): perf counts it all, said on screen
		 */
		if (!session_open_one(c, perf, names, true, &p, perf_why, sizeof(perf_why))) {
			session_close(*out);
			*out = p;
			return 0;
		}
		snprintf((*out)->source_why, sizeof((*out)->source_why), "auto: msr; %.200s need "
			 "the kernel's uncore drivers, and perf did not open (%.300s)", names, perf_why);
		return 0;
	}
	if (!rc) {
		snprintf((*out)->source_why, sizeof((*out)->source_why), "auto: the msr driver is "
			 "usable");
		return 0;
	}
	if (!session_msr_unusable(rc)) {
		snprintf(err, errlen, "%s", msr_why); /* bad input, a busy lock: perf would not help */
		return rc;
	}
	rc = session_open_one(c, perf, msr_why, false, out, perf_why, sizeof(perf_why));
	if (rc) {
		/* the same reason for both (a CPU pmutop does not know): said once */
		if (strcmp(msr_why, perf_why))
			snprintf(err, errlen, "msr: %.500s; perf: %.500s", msr_why, perf_why);
		else
			snprintf(err, errlen, "%s", msr_why);
	}
	return rc;
}

int session_open_os(const struct session_config *c, const char *reason, struct session **out,
		    char *err, size_t errlen)
{
	const char *root = machine_root(c->machine);
	double interval = c->interval;
	struct session *s = xcalloc(1, sizeof(*s));
	struct cpuid_info info;
	char ignored[256];
	int rc;

	s->root = root ? xstrdup(root) : NULL;

	*out = NULL;
	rc = topo_load_root(root, &s->os_topo, err, errlen);
	if (!rc)
		rc = ossample_open(root, s->os_topo, interval, reason, &s->os, err, errlen);
	if (!rc)
		rc = session_who_open(s, c, err, errlen);
	if (!rc)
		ossample_set_who(s->os, s->who);
	if (!rc)
		rc = session_throttle_open(s, c, err, errlen);
	if (rc) {
		session_close(s);
		return rc;
	}
	s->layout = ossample_layout(s->os);
	if (source_identify(c->machine, &info, ignored, sizeof(ignored)) == 0)
		snprintf(s->os_brand, sizeof(s->os_brand), "%s", info.brand);
	else
		snprintf(s->os_brand, sizeof(s->os_brand), "CPU without usable counters");
	*out = s;
	return 0;
}

bool session_counts_command(const struct session *s)
{
	return source_counts_command(s->src);
}

int session_attach(struct session *s, int pid, char *err, size_t errlen)
{
	err[0] = 0;
	if (!session_counts_command(s))
		return 0;
	return engine_attach(s->eng, pid, err, errlen);
}

int session_start(struct session *s)
{
	if (s->os)
		return 0; /* the OS's figures are paced by the UI's own timer */
	return s->stepped ? -EINVAL : engine_start(s->eng);
}

int session_step(struct session *s)
{
	double dt = engine_slice_s(s->eng);

	if (!s->stepped)
		return -EINVAL;
	source_advance(s->src, dt);
	return engine_step(s->eng);
}

void session_about(const struct session *s, struct session_about *out)
{
	if (s->os) {
		*out = (struct session_about){ .brand = s->os_brand, .uarch = "no counters",
					       .source = "OS (no counters)", .topo = s->os_topo };
		return;
	}
	*out = (struct session_about){
		.machine = s->f.machine, .brand = s->f.info->brand,
		.uarch = s->uarch[0] ? s->uarch : s->f.info->uarch_name,
		.source = s->f.name, .source_why = s->source_why,
		.simulated = s->f.simulated, .topo = s->f.topo,
		.gp_counters = s->f.info->gp_counters,
		.perfmon_version = s->f.info->perfmon_version, .unmodelled = s->unmodelled,
		.no_tree = s->f.model ? s->f.model->p->no_tree : NULL,
	};
}

const struct sample *session_latest(struct session *s)
{
	return s->os ? ossample_take(s->os) : engine_latest(s->eng);
}

int session_fd(const struct session *s)
{
	return s->os ? ossample_fd(s->os) : engine_fd(s->eng);
}

void session_ack(struct session *s)
{
	if (!s->os)
		engine_ack(s->eng); /* the OS sampler's timer is read by ossample_take */
}

void session_set_groups(struct session *s, layout_groups groups)
{
	if (!s->os)
		engine_set_groups(s->eng, groups); /* the OS's figures have no groups */
}

void session_set_interval(struct session *s, double seconds)
{
	if (s->os)
		ossample_set_interval(s->os, seconds);
	else
		engine_set_interval(s->eng, seconds);
}

void session_flush(struct session *s)
{
	/* the OS's figures come on their timer: nothing to end early */
	if (!s->os && !s->stepped)
		engine_flush(s->eng);
}

void session_set_paused(struct session *s, bool paused)
{
	if (s->os)
		ossample_set_paused(s->os, paused);
	else
		engine_set_paused(s->eng, paused);
}

int session_close(struct session *s)
{
	int failed = 0;
	bool stuck;

	if (!s)
		return 0;
	/* a sampler thread that did not end in time may still be in the source: it stays */
	stuck = engine_stop(s->eng) == -ETIMEDOUT;
	/* registers first, then the guardian (it holds the lock too), then the lock that guards them */
	failed = source_restore(s->src);
	source_guard_release();
	source_unlock(s->src);
	/* the perf source's events are closed through its kernel: before the source goes */
	engine_free(s->eng);
	s->eng = NULL;
	/* the who collector's counters too: through the same kernel (the OS sampler is stopped) */
	if (s->os) {
		ossample_set_who(s->os, NULL);
		ossample_set_throttle(s->os, NULL);
	}
	if (!stuck) {
		session_who_close(s);
		session_throttle_close(s);
		source_close(s->src);
	}
	layout_free(s->own_layout);
	free(s->unmodelled);
	ossample_free(s->os);
	topo_free(s->os_topo);
	free(s->uncore_taken);
	free(s->root);
	free(s);
	return failed;
}

bool session_holds_lock(const struct session *s)
{
	return source_locked(s->src);
}

pid_t session_lock_holder(const char *root)
{
	return source_lock_holder(root);
}

const struct layout *session_layout(const struct session *s)
{
	return s->layout;
}

layout_groups session_groups(const struct session *s)
{
	return s->groups;
}

const char *session_notice(const struct session *s)
{
	return s->notice;
}

const char *session_owners(const struct session *s)
{
	return s->owners;
}

bool session_stepped(const struct session *s)
{
	return s->stepped;
}

bool session_is_os(const struct session *s)
{
	return s->os != NULL;
}

void session_emergency_restore(void)
{
	source_emergency_restore();
}
