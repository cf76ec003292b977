/*
 * owner: detect counters in use by someone else.  Main thread, start-up.
 */
#include "owner.h"
#include "guardian.h"
#include "paths.h"
#include "rootfs.h"
#include "text.h"
#include "cpulist.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool owner_nmi_watchdog(const char *root)
{
	char buf[16];

	rootfs_read_line(root, "proc/sys/kernel/nmi_watchdog", buf, sizeof(buf));
	return atoi(buf) != 0;
}

static int owner_read(struct msr_dev *d, int cpu, uint32_t reg, uint64_t *v, struct owner_report *r)
{
	int rc = msr_read(d, cpu, reg, v);

	if (rc) {
		r->nread_errors++;
		*v = 0;
	}
	return rc;
}

static void owner_scan_cpu(struct msr_dev *d, const struct cpuid_info *info, int cpu,
			   struct owner_report *r, int *first_rc)
{
	struct owner_cpu *c = &r->cpu[cpu];
	uint64_t v, global = 0, fixed_ctrl = 0;
	int rc;

	for (unsigned i = 0; i < info->gp_counters && i < PMU_MAX_GP; i++) {
		rc = owner_read(d, cpu, IA32_PERFEVTSEL0 + i, &v, r);
		if (rc && !*first_rc)
			*first_rc = rc;
		if (v & EVTSEL_EN)
			c->gp_taken |= 1u << i;
	}
	if (info->perfmon_version < 2)
		return;
	owner_read(d, cpu, IA32_PERF_GLOBAL_CTRL, &global, r);
	owner_read(d, cpu, IA32_FIXED_CTR_CTRL, &fixed_ctrl, r);
	/*
	 * A counter counts only with its own enable and the global bit; its
	 * own enable is what another user leaves behind (Linux perf, for one,
	 * keeps global bits set while it owns nothing), so that decides.
	 */
	for (unsigned i = 0; i < info->fixed_counters && i < PMU_MAX_FIXED; i++)
		if ((fixed_ctrl >> FIXED_CTRL_SHIFT(i)) & (FIXED_CTRL_OS | FIXED_CTRL_USR))
			c->fixed_taken |= 1u << i;
	c->global_ctrl = global;
}

static bool owner_uncore_in_use(struct msr_dev *d, enum cpumodel_uncore uncore, int cpu,
				struct owner_report *r)
{
	uint64_t v;

	if (uncore == CPUMODEL_UNCORE_NHM) {
		owner_read(d, cpu, MSR_UNCORE_PERF_GLOBAL_CTRL, &v, r);
		if (v & (0xFFull | NHM_UNC_GLOBAL_FIXED))
			return true;
		for (unsigned i = 0; i < NHM_UNC_COUNTERS; i++) {
			owner_read(d, cpu, MSR_UNCORE_PERFEVTSEL0 + i, &v, r);
			if (v & EVTSEL_EN)
				return true;
		}
		return false;
	}
	if (uncore == CPUMODEL_UNCORE_SKL) {
		owner_read(d, cpu, MSR_UNC_PERF_GLOBAL_CTRL, &v, r);
		if (v & SKL_UNC_GLOBAL_EN)
			return true;
		owner_read(d, cpu, MSR_UNC_PERF_FIXED_CTRL, &v, r);
		return (v & SKL_UNC_FIXED_CNT_EN) != 0;
	}
	return false;
}

int owner_scan(struct msr_dev *d, const struct cpuid_info *info, enum cpumodel_uncore uncore,
	       const struct topo *t, const char *root, struct owner_report *r)
{
	int first_rc = 0;

	memset(r, 0, sizeof(*r));
	r->ncpus = t->cpu_thread_len;
	r->cpu = xcalloc((size_t)(r->ncpus ? r->ncpus : 1), sizeof(*r->cpu));
	r->nsockets = t->nsockets;
	r->uncore_taken = xcalloc((size_t)(r->nsockets ? r->nsockets : 1), sizeof(bool));
	r->nmi_watchdog = owner_nmi_watchdog(root);
	r->root = root;
	for (int i = 0; i < t->nonline; i++)
		owner_scan_cpu(d, info, t->threads[i].os_cpu, r, &first_rc);
	for (int s = 0; s < t->nsockets; s++)
		if (t->sockets[s].nthreads > 0)
			r->uncore_taken[s] = owner_uncore_in_use(d, uncore,
						t->threads[t->sockets[s].thread_first].os_cpu, r);
	return first_rc;
}

void owner_free(struct owner_report *r)
{
	free(r->cpu);
	free(r->uncore_taken);
	memset(r, 0, sizeof(*r));
}

bool owner_all_free(const struct owner_report *r)
{
	for (int c = 0; c < r->ncpus; c++)
		if (r->cpu[c].gp_taken || r->cpu[c].fixed_taken)
			return false;
	for (int s = 0; s < r->nsockets; s++)
		if (r->uncore_taken[s])
			return false;
	return !r->nmi_watchdog;
}

/* Append one line "CPU LIST: WHAT" for the CPUs whose (gp, fixed) masks equal C's. */
static int owner_line(const struct owner_report *r, const struct topo *t, int first, bool *done,
		      char *buf, size_t len, size_t *off)
{
	const struct owner_cpu *c = &r->cpu[first];
	int *cpus = xmalloc(sizeof(int) * (size_t)t->nonline), n = 0;
	char *list, what[256] = "";
	size_t w = 0;

	for (int i = 0; i < t->nonline; i++) {
		int cpu = t->threads[i].os_cpu;

		if (!done[cpu] && r->cpu[cpu].gp_taken == c->gp_taken &&
		    r->cpu[cpu].fixed_taken == c->fixed_taken) {
			cpus[n++] = cpu;
			done[cpu] = true;
		}
	}
	for (unsigned k = 0; k < 32; k++)
		if (c->gp_taken & (1u << k))
			w += (size_t)snprintf(what + w, sizeof(what) - w, "%sPMC%u", w ? ", " : "", k);
	for (unsigned k = 0; k < 32; k++)
		if (c->fixed_taken & (1u << k))
			w += (size_t)snprintf(what + w, sizeof(what) - w, "%sfixed counter %u",
					      w ? ", " : "", k);
	list = cpulist_format(cpus, n);
	*off += (size_t)snprintf(buf + *off, len - *off, "CPU %s: %s in use by another program "
				 "(enable bits already set)\n", list, what);
	free(list);
	free(cpus);
	return 1;
}

/*
 * Who holds the counters, where the system says: processes with an msr
 * device of ROOT open, and processes with perf events open (their fds in
 * /proc/PID/fd); pmutop itself is left out.  Into BUF ("" when nobody is
 * found); at most OWNER_MAX_NAMED processes of each kind are named.
 */
#define OWNER_MAX_NAMED 4
void owner_holders(const char *root, char *buf, size_t len)
{
	char msr[PATH_MAX], named[2][256] = { "", "" };
	int count[2] = { 0, 0 };
	DIR *proc = opendir("/proc");
	struct dirent *pe;

	buf[0] = 0;
	snprintf(msr, sizeof(msr), "%s/dev/cpu/", root && strcmp(root, "/") ? root : "");
	while (proc && (pe = readdir(proc))) {
		char path[PATH_MAX], link[PATH_MAX], comm[64] = "?";
		bool has[2] = { false, false };
		long pid = strtol(pe->d_name, NULL, 10);
		struct dirent *fe;
		DIR *fds;

		/* pmutop and its guardian hold the devices for pmutop */
		if (pid <= 0 || pid == (long)getpid() || pid == (long)guardian_pid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/fd", pid);
		fds = opendir(path);
		while (fds && (fe = readdir(fds))) {
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/%ld/fd/%s", pid, fe->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = 0;
			has[0] |= !strncmp(link, msr, strlen(msr)) &&
				  (strstr(link, "/msr") != NULL);
			has[1] |= !strcmp(link, "anon_inode:[perf_event]");
		}
		if (fds)
			closedir(fds);
		if (!has[0] && !has[1])
			continue;
		snprintf(path, sizeof(path), "proc/%ld/comm", pid);
		rootfs_read_line(NULL, path, comm, sizeof(comm));
		text_clean_in_place(comm, sizeof(comm)); /* a name any user chooses */
		for (int k = 0; k < 2; k++) {
			size_t n = strlen(named[k]);

			if (!has[k] || count[k]++ >= OWNER_MAX_NAMED)
				continue;
			snprintf(named[k] + n, sizeof(named[k]) - n, "%spid %ld (%s)", n ? ", " : "", pid,
				 comm);
		}
	}
	if (proc)
		closedir(proc);
	if (count[0])
		snprintf(buf + strlen(buf), len - strlen(buf), "msr devices held open by %s%s\n",
			 named[0], count[0] > OWNER_MAX_NAMED ? " and others" : "");
	if (count[1])
		snprintf(buf + strlen(buf), len - strlen(buf), "perf events open in %s%s\n", named[1],
			 count[1] > OWNER_MAX_NAMED ? " and others" : "");
}

int owner_describe(const struct owner_report *r, const struct topo *t, char *buf, size_t len)
{
	bool *done = xcalloc((size_t)(r->ncpus ? r->ncpus : 1), sizeof(bool));
	size_t off = 0;
	int lines = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->nonline && off < len; i++) {
		int cpu = t->threads[i].os_cpu;

		if (!done[cpu] && (r->cpu[cpu].gp_taken || r->cpu[cpu].fixed_taken))
			lines += owner_line(r, t, cpu, done, buf, len, &off);
	}
	for (int s = 0; s < r->nsockets && off < len; s++)
		if (r->uncore_taken[s]) {
			off += (size_t)snprintf(buf + off, len - off, "socket %d: uncore counters in "
						"use by another program\n", s);
			lines++;
		}
	if (r->nmi_watchdog && off < len) {
		off += (size_t)snprintf(buf + off, len - off, "NMI watchdog: the kernel keeps one "
					"counter per CPU for it; 'echo 0 > /proc/sys/kernel/"
					"nmi_watchdog' as root frees it\n");
		lines++;
	}
	if (lines > (r->nmi_watchdog ? 1 : 0) && off < len) {
		/* whose they are, where the system can say */
		char who[700];

		owner_holders(r->root, who, sizeof(who));
		off += (size_t)snprintf(buf + off, len - off, "%s", who[0] ? who
					: "the program using them is unknown (none holds an msr "
					  "device or a perf event open now)\n");
		lines++;
	}
	if (lines && off < len) {
		snprintf(buf + off, len - off, "pmutop uses only the free counters; --force takes "
			 "these too and restores them when it exits\n");
		lines++;
	}
	free(done);
	return lines;
}

void owner_who(const char *root, char *buf, size_t len)
{
	char found[512];

	owner_holders(root, found, sizeof(found));
	for (char *nl = strchr(found, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = nl[1] ? ';' : '\0';
	if (found[0])
		snprintf(buf, len, "another program (%s)", found);
	else
		snprintf(buf, len, "another program");
}
