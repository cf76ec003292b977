/*
 * fakehw_tree: the static part of a fake machine's root (see fakehw.c): the
 * /sys and /proc files hwloc and pmutop read (CPU topology, caches, NUMA
 * nodes, cpuinfo, msr write filtering, lockdown, NMI watchdog, msr-safe's
 * version, the host bridge's PCI config space), written once before the
 * device files are mounted.  Main thread.
 */
#include "fakehw_tree.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu.h"
#include "emu_machine.h"
#include "emu_perf.h"
#include "perf.h"
#include "topo.h"

void fakehw_mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

/* Create ROOT/REL (and its directories) for writing; exits on failure. */
static FILE *fakehw_create(const char *root, const char *rel)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	fakehw_mkdirs(dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "fakehw: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static void fakehw_put(const char *root, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fakehw_put(const char *root, const char *rel, const char *fmt, ...)
{
	FILE *f = fakehw_create(root, rel);
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* sysfs cpumap: 32-bit hex words, most significant first, comma-separated. */
static void fakehw_mask(const int *cpus, int n, int max_cpu, char *buf, size_t len)
{
	int words = max_cpu / 32 + 1;
	size_t off = 0;

	buf[0] = '\0';
	for (int w = words - 1; w >= 0; w--) {
		unsigned v = 0;

		for (int i = 0; i < n; i++)
			if (cpus[i] / 32 == w)
				v |= 1u << (cpus[i] % 32);
		off += (size_t)snprintf(buf + off, len - off, "%s%08x", w == words - 1 ? "" : ",", v);
	}
}

static void fakehw_list(const int *cpus, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? "," : "", cpus[i]);
}

unsigned fakehw_family, fakehw_model;

uint32_t fakehw_leaf1(uint32_t eax)
{
	uint32_t f = fakehw_family > 0xF ? 0xFu << 8 | (fakehw_family - 0xF) << 20 : fakehw_family << 8;

	return (eax & 0x300Fu) | (fakehw_model & 0xF) << 4 | f | (fakehw_model >> 4) << 16;
}

static void fakehw_cpu_files(const char *root, const struct topo *t, const struct emu_machine *m)
{
	int max = t->cpu_thread_len - 1;
	char mask[512], list[4096], rel[256];
	FILE *info;

	fakehw_put(root, "sys/devices/system/cpu/online", "0-%d\n", max);
	fakehw_put(root, "sys/devices/system/cpu/possible", "0-%d\n", max);
	fakehw_put(root, "sys/devices/system/cpu/present", "0-%d\n", max);
	info = fakehw_create(root, "proc/cpuinfo");
	for (int i = 0; i < t->nonline; i++) {
		const struct topo_thread *th = &t->threads[i];
		const struct topo_core *c = &t->cores[th->core];
		const struct topo_socket *s = &t->sockets[th->socket];
		int sib[64], ns = 0;

		for (int k = 0; k < c->nthreads && ns < 64; k++)
			sib[ns++] = t->threads[c->thread_first + k].os_cpu;
#define CPU_FILE(name, ...)                                                              \
	do {                                                                             \
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/%s", th->os_cpu, name); \
		fakehw_put(root, rel, __VA_ARGS__);                                      \
	} while (0)
		CPU_FILE("online", "1\n");
		CPU_FILE("topology/physical_package_id", "%d\n", s->os_id);
		CPU_FILE("topology/core_id", "%d\n", c->core_id);
		CPU_FILE("topology/die_id", "0\n");
		fakehw_mask(sib, ns, max, mask, sizeof(mask));
		fakehw_list(sib, ns, list, sizeof(list));
		CPU_FILE("topology/core_cpus", "%s\n", mask);
		CPU_FILE("topology/thread_siblings", "%s\n", mask);
		CPU_FILE("topology/core_cpus_list", "%s\n", list);
		CPU_FILE("topology/thread_siblings_list", "%s\n", list);
		/* L1d, L1i, L2 per core */
		CPU_FILE("cache/index0/level", "1\n");
		CPU_FILE("cache/index0/type", "Data\n");
		CPU_FILE("cache/index0/size", "32K\n");
		CPU_FILE("cache/index0/shared_cpu_map", "%s\n", mask);
		CPU_FILE("cache/index0/coherency_line_size", "64\n");
		CPU_FILE("cache/index1/level", "1\n");
		CPU_FILE("cache/index1/type", "Instruction\n");
		CPU_FILE("cache/index1/size", "32K\n");
		CPU_FILE("cache/index1/shared_cpu_map", "%s\n", mask);
		CPU_FILE("cache/index1/coherency_line_size", "64\n");
		CPU_FILE("cache/index2/level", "2\n");
		CPU_FILE("cache/index2/type", "Unified\n");
		CPU_FILE("cache/index2/size", "256K\n");
		CPU_FILE("cache/index2/shared_cpu_map", "%s\n", mask);
		CPU_FILE("cache/index2/coherency_line_size", "64\n");
		fakehw_mask(s->cpus, s->nthreads, max, mask, sizeof(mask));
		fakehw_list(s->cpus, s->nthreads, list, sizeof(list));
		CPU_FILE("topology/package_cpus", "%s\n", mask);
		CPU_FILE("topology/core_siblings", "%s\n", mask);
		CPU_FILE("topology/die_cpus", "%s\n", mask);
		CPU_FILE("topology/package_cpus_list", "%s\n", list);
		CPU_FILE("topology/core_siblings_list", "%s\n", list);
		if (c->l3 >= 0) {
			CPU_FILE("cache/index3/level", "3\n");
			CPU_FILE("cache/index3/type", "Unified\n");
			CPU_FILE("cache/index3/size", "%lluK\n",
				 (unsigned long long)(t->l3s[c->l3].size_bytes / 1024));
			CPU_FILE("cache/index3/shared_cpu_map", "%s\n", mask);
			CPU_FILE("cache/index3/coherency_line_size", "64\n");
		}
#undef CPU_FILE
		fprintf(info, "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %u\n"
			"model\t\t: %u\nmodel name\t: %s\nstepping\t: %u\nphysical id\t: %d\n"
			"siblings\t: %d\ncore id\t\t: %d\ncpu cores\t: %d\nflags\t\t: fpu msr "
			"%s\n\n", th->os_cpu, m->amd ? "AuthenticAMD" : "GenuineIntel", fakehw_family ? fakehw_family : m->family,
			fakehw_family ? fakehw_model : m->model, m->brand, m->stepping,
			s->os_id, s->nthreads, c->core_id, s->ncores, m->amd ? "perfctr_core" : "arch_perfmon");
	}
	fclose(info);
}

static void fakehw_node_files(const char *root, const struct topo *t)
{
	int max = t->cpu_thread_len - 1;
	uint64_t total_kb = 0;
	char mask[512], rel[256];

	fakehw_put(root, "sys/devices/system/node/online", "0-%d\n", t->nnuma - 1);
	fakehw_put(root, "sys/devices/system/node/possible", "0-%d\n", t->nnuma - 1);
	for (int i = 0; i < t->nnuma; i++) {
		const struct topo_numa *n = &t->numa[i];
		const struct topo_socket *s = n->socket >= 0 ? &t->sockets[n->socket] : NULL;
		uint64_t kb = n->mem_total != TOPO_BYTES_UNKNOWN ? n->mem_total / 1024 : 0;

		total_kb += kb;
		fakehw_mask(s ? s->cpus : NULL, s ? s->nthreads : 0, max, mask, sizeof(mask));
		snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/cpumap", n->os_node);
		fakehw_put(root, rel, "%s\n", mask);
		snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/meminfo", n->os_node);
		/* an emulated machine that is a quarter used */
		fakehw_put(root, rel, "Node %d MemTotal:       %llu kB\nNode %d MemFree:        %llu kB\n",
			   n->os_node, (unsigned long long)kb, n->os_node,
			   (unsigned long long)(kb * 3 / 4));
	}
	fakehw_put(root, "proc/meminfo", "MemTotal:       %llu kB\nMemFree:        %llu kB\n",
		   (unsigned long long)total_kb, (unsigned long long)(total_kb * 3 / 4));
}

/* FIELD's bits as a format file says them: "config:0-7,32-35". */
static void fakehw_field_text(const struct perf_pmu_field *f, char *buf, size_t len)
{
	size_t n = f->word ? (size_t)snprintf(buf, len, "config%d:", f->word)
		   : (size_t)snprintf(buf, len, "config:");
	bool first = true;

	for (int b = 0; b < 64 && n < len; b++) {
		int e = b;

		if (!(f->mask >> b & 1))
			continue;
		while (e + 1 < 64 && (f->mask >> (e + 1) & 1))
			e++;
		n += (size_t)snprintf(buf + n, len - n, e > b ? "%s%d-%d" : "%s%d", first ? "" : ",",
				      b, e);
		first = false;
		b = e;
	}
}

/*
 * A hybrid's core PMUs as the kernel's sysfs has them (arch/x86/events/
 * intel/core.c: cpu_core, cpu_atom, each its type, the CPUs it counts in
 * "cpus", its format fields): what tells a kind of core apart where hwloc
 * gives no core type (hwloc 2.9 on a tree).  The emulated kernel's.
 */
static void fakehw_core_pmus(const char *root, struct emu *e)
{
	struct emu_perf *k = emu_perf_describe(e);
	const struct perf_sys *sys = k ? emu_perf_sys(k) : NULL;
	static const char *const names[] = { "cpu_core", "cpu_atom", "cpu_lowpower" };
	struct perf_pmu *p = calloc(1, sizeof(*p));
	char rel[PATH_MAX], bits[128];

	for (size_t i = 0; sys && p && i < sizeof(names) / sizeof(names[0]); i++) {
		if (sys->pmu(sys->ctx, names[i], p))
			continue;
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/type", p->name);
		fakehw_put(root, rel, "%u\n", p->type);
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/cpus", p->name);
		fakehw_put(root, rel, "%s\n", p->cpus);
		for (int f = 0; f < p->nfields; f++) {
			fakehw_field_text(&p->fields[f], bits, sizeof(bits));
			snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/format/%s", p->name,
				 p->fields[f].name);
			fakehw_put(root, rel, "%s\n", bits);
		}
	}
	free(p);
	emu_perf_free(k);
}

void fakehw_tree(const char *root, struct emu *e, bool lockdown, const char *msr_safe_version)
{
	const struct topo *t = emu_topo(e);
	const struct emu_machine *m = emu_machine(e);
	unsigned char cfg[256];

	fakehw_cpu_files(root, t, m);
	fakehw_node_files(root, t);
	if (m->hybrid)
		fakehw_core_pmus(root, e);
	fakehw_put(root, "sys/module/msr/parameters/allow_writes", "on\n");
	fakehw_put(root, "sys/kernel/security/lockdown", lockdown
		   ? "none [integrity] confidentiality\n" : "[none] integrity confidentiality\n");
	fakehw_put(root, "proc/sys/kernel/nmi_watchdog", "0\n");
	if (msr_safe_version)
		fakehw_put(root, "sys/module/msr_safe/version", "%s\n", msr_safe_version);
	if (emu_pci_config_read(e, 0, cfg, sizeof(cfg)) == (int)sizeof(cfg)) {
		FILE *f = fakehw_create(root, "sys/bus/pci/devices/0000:00:00.0/config");

		fwrite(cfg, 1, sizeof(cfg), f);
		fclose(f);
	}
	fakehw_mkdirs(root);
	/* the system's lock directory, open to every user as on a real system */
	{
		char lockdir[PATH_MAX];

		snprintf(lockdir, sizeof(lockdir), "%s/run/lock", root);
		fakehw_mkdirs(lockdir);
		chmod(lockdir, 01777);
	}
}
