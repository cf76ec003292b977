/*
 * topo: build pmutop's immutable topology model from hwloc (+ libnuma).
 *
 * Called once, on the main thread, before any other thread starts.  The
 * hwloc topology object lives only inside topo_load(); the model copies what
 * pmutop needs so that nothing else depends on hwloc.
 */
#include "topo.h"
#include "paths.h"
#include "text.h"
#include "topo_root.h"
#include "rootfs.h"
#include "topo_kinds.h"
#include "cpulist.h"
#include "xmalloc.h"

#include <errno.h>
#include <hwloc.h>
#include <limits.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TOPO_ACCEPTED "an hwloc XML file (lstopo --of xml FILE) or a synthetic " \
	"description such as 'pack:2 [numa] l3:1 core:4 pu:2'"

/* Growing arrays while walking the hwloc tree. */
struct topo_build {
	struct topo *t;
	int cap_cores, cap_threads, cap_l3s;
	hwloc_obj_t *l3_objs; /* hwloc object behind each l3s[] entry */
};

static struct topo_thread *topo_new_thread(struct topo_build *b)
{
	struct topo *t = b->t;

	if (t->nthreads == b->cap_threads) {
		b->cap_threads = b->cap_threads ? 2 * b->cap_threads : 64;
		t->threads = xrealloc(t->threads, (size_t)b->cap_threads, sizeof(*t->threads));
	}
	return &t->threads[t->nthreads++];
}

/* Index of L3 object OBJ in l3s[], appending it when first seen. */
static int topo_l3_index(struct topo_build *b, hwloc_obj_t obj, int socket,
			 hwloc_const_cpuset_t socket_set)
{
	struct topo *t = b->t;

	if (!obj)
		return TOPO_NONE;
	for (int i = t->nl3 - 1; i >= 0; i--)
		if (b->l3_objs[i] == obj)
			return i;
	if (t->nl3 == b->cap_l3s) {
		b->cap_l3s = b->cap_l3s ? 2 * b->cap_l3s : 8;
		t->l3s = xrealloc(t->l3s, (size_t)b->cap_l3s, sizeof(*t->l3s));
		b->l3_objs = xrealloc(b->l3_objs, (size_t)b->cap_l3s, sizeof(*b->l3_objs));
	}
	b->l3_objs[t->nl3] = obj;
	t->l3s[t->nl3] = (struct topo_l3){
		.socket = hwloc_bitmap_isincluded(obj->cpuset, socket_set) ? socket : TOPO_NONE,
		.size_bytes = obj->attr ? obj->attr->cache.size : 0,
	};
	return t->nl3++;
}

/*
 * Walk the PUs inside one socket in logical order; consecutive PUs with the
 * same Core ancestor form a core.  Machines where hwloc shows no Core objects
 * get one core per PU.
 */
static void topo_add_socket(struct topo_build *b, hwloc_topology_t h, hwloc_obj_t pkg,
			    int os_id)
{
	struct topo *t = b->t;
	struct topo_socket *s = &t->sockets[t->nsockets];
	int si = t->nsockets++;
	hwloc_obj_t pu = NULL, prev_core = NULL;

	*s = (struct topo_socket){
		.os_id = os_id,
		.core_first = t->ncores,
		.thread_first = t->nthreads,
		.l3_first = t->nl3,
	};
	while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(h, pkg->cpuset, HWLOC_OBJ_PU, pu))) {
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, pu);
		struct topo_thread *th;

		if (!core || core != prev_core) {
			hwloc_obj_t l3 = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_L3CACHE, pu);

			if (t->ncores == b->cap_cores) {
				b->cap_cores = b->cap_cores ? 2 * b->cap_cores : 32;
				t->cores = xrealloc(t->cores, (size_t)b->cap_cores, sizeof(*t->cores));
			}
			t->cores[t->ncores++] = (struct topo_core){
				.core_id = core && core->os_index != HWLOC_UNKNOWN_INDEX
					? (int)core->os_index : TOPO_NONE,
				.socket = si,
				.l3 = topo_l3_index(b, l3, si, pkg->cpuset),
				.thread_first = t->nthreads,
				.corekind = TOPO_NONE,
				.module = TOPO_NONE,
			};
			prev_core = core;
		}
		th = topo_new_thread(b);
		*th = (struct topo_thread){
			.os_cpu = (int)pu->os_index,
			.core = t->ncores - 1,
			.socket = si,
			.smt_rank = t->cores[t->ncores - 1].nthreads++,
			.online = true,
		};
	}
	s->ncores = t->ncores - s->core_first;
	s->nthreads = t->nthreads - s->thread_first;
	s->nl3 = t->nl3 - s->l3_first;
	s->cpus = xmalloc(sizeof(*s->cpus) * (size_t)(s->nthreads ? s->nthreads : 1));
	for (int i = 0; i < s->nthreads; i++)
		s->cpus[i] = t->threads[s->thread_first + i].os_cpu;
	cpulist_normalise(s->cpus, s->nthreads);
}

/* CPUs in the complete set but not in the topology: known to the OS, offline. */
static void topo_add_offline(struct topo_build *b, hwloc_topology_t h)
{
	hwloc_bitmap_t off = hwloc_bitmap_dup(hwloc_topology_get_complete_cpuset(h));
	int cpu;

	hwloc_bitmap_andnot(off, off, hwloc_topology_get_topology_cpuset(h));
	b->t->nonline = b->t->nthreads;
	if (hwloc_bitmap_weight(off) > 0) {
		hwloc_bitmap_foreach_begin(cpu, off) {
			*topo_new_thread(b) = (struct topo_thread){
				.os_cpu = cpu,
				.core = TOPO_NONE,
				.socket = TOPO_NONE,
				.smt_rank = 0,
				.online = false,
			};
		} hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_free(off);
}

/* "Node N MemFree: X kB" from ROOT/sys/devices/system/node/nodeN/meminfo. */
static uint64_t topo_meminfo_free(const char *root, int node)
{
	char path[96], line[256];
	unsigned long long kb;
	uint64_t result = TOPO_BYTES_UNKNOWN;
	FILE *f;

	snprintf(path, sizeof(path), "sys/devices/system/node/node%d/meminfo", node);
	f = rootfs_fopen(root, path);
	if (!f)
		return result;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "MemFree:");

		if (p && sscanf(p + 8, "%llu", &kb) == 1)
			result = (uint64_t)kb * 1024;
	}
	fclose(f);
	return result;
}

static void topo_add_numa(struct topo *t, hwloc_topology_t h, hwloc_obj_t *socket_objs)
{
	int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
	bool this_machine = t->kind == TOPO_KIND_SYSTEM && strcmp(t->root, "/") == 0;
	bool use_libnuma = this_machine && numa_available() >= 0;

	t->numa = xcalloc((size_t)(n ? n : 1), sizeof(*t->numa));
	for (int i = 0; i < n; i++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)i);
		struct topo_numa *m = &t->numa[t->nnuma++];
		int owners = 0;

		*m = (struct topo_numa){
			.os_node = (int)node->os_index,
			.socket = TOPO_NONE,
			.mem_total = node->attr->numanode.local_memory
				? node->attr->numanode.local_memory : TOPO_BYTES_UNKNOWN,
			.mem_free = TOPO_BYTES_UNKNOWN,
		};
		if (use_libnuma) {
			long long free_b = 0, total = numa_node_size64(m->os_node, &free_b);

			if (total > 0) {
				m->mem_total = (uint64_t)total;
				m->mem_free = free_b >= 0 ? (uint64_t)free_b : TOPO_BYTES_UNKNOWN;
			}
		} else if (t->kind == TOPO_KIND_SYSTEM) {
			m->mem_free = topo_meminfo_free(t->root, m->os_node);
		}
		for (int s = 0; s < t->nsockets; s++) {
			struct topo_socket *sk = &t->sockets[s];

			if (!hwloc_bitmap_intersects(node->cpuset, socket_objs[s]->cpuset))
				continue;
			sk->numa = xrealloc(sk->numa, (size_t)sk->nnuma + 1, sizeof(*sk->numa));
			sk->numa[sk->nnuma++] = i;
			m->socket = owners++ ? TOPO_NONE : s;
		}
	}
}

static void topo_index_cpus(struct topo *t)
{
	int max = -1;

	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].os_cpu > max)
			max = t->threads[i].os_cpu;
	t->cpu_thread_len = max + 1;
	t->cpu_thread = xmalloc(sizeof(*t->cpu_thread) * (size_t)(max + 1 ? max + 1 : 1));
	for (int c = 0; c <= max; c++)
		t->cpu_thread[c] = TOPO_NONE;
	for (int i = 0; i < t->nthreads; i++)
		t->cpu_thread[t->threads[i].os_cpu] = i;
}

/*
 * A file hwloc cannot take as XML. hwloc's libxml2 backend refuses it in
 * hwloc_topology_set_xml(), the minimal built-in one only in
 * hwloc_topology_load(): one message for both, whichever backend is built.
 */
static int topo_bad_xml(const char *spec, const char *xml, char *err, size_t errlen)
{
	char why[300] = "";

	if (spec[0] == '<') {
		/* the XML itself: a recording's topology, an emulated machine's */
		topo_root_xml_why(spec, why, sizeof(why));
		snprintf(err, errlen, "an XML topology hwloc does not read%s%s", why[0] ? ": " : "",
			 why);
		return -EINVAL;
	}
	if (xml)
		topo_root_xml_why(xml, why, sizeof(why));
	if (why[0])
		/* hwloc 3's XML: its lstopo writes the 2.x format on request (XML_FLAG_V2) */
		snprintf(err, errlen, "--topology %s: hwloc refuses it: %s; export it with the "
			 "newer hwloc's 'lstopo --export-xml-flags 2' (the version 2 format)", spec,
			 why);
	else
		snprintf(err, errlen, "--topology %s: not a readable hwloc XML topology; give "
			 TOPO_ACCEPTED, spec);
	return -EINVAL;
}

#define TOPO_XML_MAX (64u << 20) /* the XML of the largest machine is a few MB */

/* The XML file PATH (--topology) into *TEXT; 0, or -errno with ERR. */
static int topo_read_xml(const char *path, char **text, char *err, size_t errlen)
{
	FILE *f = paths_fopen_trusted(path, "--topology", err, errlen);
	size_t n = 0, cap = 1 << 16;
	char *buf;

	if (!f)
		return -errno;
	buf = xmalloc(cap + 1);
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (n < cap)
			break;
		if (cap >= TOPO_XML_MAX) {
			fclose(f);
			free(buf);
			snprintf(err, errlen, "--topology %s: larger than %u MB: not a machine's "
				 "topology", path, TOPO_XML_MAX >> 20);
			return -EFBIG;
		}
		cap *= 2;
		buf = xrealloc(buf, cap + 1, 1);
	}
	fclose(f);
	buf[n] = '\0';
	*text = buf;
	return 0;
}

/* Point hwloc at the source SPEC names; decides XML vs synthetic. */
static int topo_set_source(hwloc_topology_t h, struct topo *t, const char *spec,
			   char *err, size_t errlen)
{
	struct stat st;

	if (!spec) {
		t->kind = TOPO_KIND_SYSTEM;
		t->source = text_clean_dup(strcmp(t->root, "/") ? t->root : "this machine");
		if (strcmp(t->root, "/")) {
			/* a tree's files are read apart from pmutop (topo_root.h), hwloc's XML kept */
			int rc;

			if (!t->xml_text && (rc = topo_root_xml(t->root, &t->xml_text, err, errlen)))
				return rc;
			if (hwloc_topology_set_xmlbuffer(h, t->xml_text,
							 (int)strlen(t->xml_text) + 1) < 0) {
				snprintf(err, errlen, "hwloc's reading of the tree under %s gave an XML "
					 "it does not read back", t->source);
				return -EINVAL;
			}
			return 0;
		}
		unsetenv("HWLOC_FSROOT");
		/* pmutop watches the whole machine, also CPUs outside our cgroup. */
		hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
		return 0;
	}
	if (spec[0] == '<') {
		/* the XML itself (an emulated machine's, whose cores differ: hybrid) */
		t->kind = TOPO_KIND_XML;
		t->source = xstrdup("an emulated machine's XML");
		if (!t->xml_text)
			t->xml_text = xstrdup(spec);
		if (hwloc_topology_set_xmlbuffer(h, spec, (int)strlen(spec) + 1) < 0)
			return topo_bad_xml(spec, NULL, err, errlen);
		return 0;
	}
	t->source = text_clean_dup(spec);
	if (stat(spec, &st) == 0) {
		t->kind = TOPO_KIND_XML;
		if (!S_ISREG(st.st_mode))
			return topo_bad_xml(spec, NULL, err, errlen);
		/* read here (another user's file is refused as root), handed to hwloc as text */
		t->xml_file = true;
		if (!t->xml_text && topo_read_xml(spec, &t->xml_text, err, errlen))
			return -EINVAL;
		if (hwloc_topology_set_xmlbuffer(h, t->xml_text, (int)strlen(t->xml_text) + 1) < 0)
			return topo_bad_xml(spec, t->xml_text, err, errlen);
		return 0;
	}
	if (strchr(spec, '/') || (strlen(spec) > 4 && !strcmp(spec + strlen(spec) - 4, ".xml"))) {
		snprintf(err, errlen, "--topology %s: no such file; give " TOPO_ACCEPTED, spec);
		return -ENOENT;
	}
	t->kind = TOPO_KIND_SYNTHETIC;
	if (hwloc_topology_set_synthetic(h, spec) < 0) {
		snprintf(err, errlen, "--topology '%s': not a file and not a valid synthetic "
			 "description; give " TOPO_ACCEPTED, spec);
		return -EINVAL;
	}
	return 0;
}

static int topo_load_in(const char *spec, const char *root, struct topo **out, char *err,
			size_t errlen);

int topo_load(const char *spec, struct topo **out, char *err, size_t errlen)
{
	return topo_load_in(spec, "/", out, err, errlen);
}

int topo_load_root(const char *root, struct topo **out, char *err, size_t errlen)
{
	return topo_load_in(NULL, root && *root ? root : "/", out, err, errlen);
}

static int topo_load_in(const char *spec, const char *root, struct topo **out, char *err,
			size_t errlen)
{
	struct topo *t = xcalloc(1, sizeof(*t));
	struct topo_build b = { .t = t };
	hwloc_topology_t h;
	hwloc_obj_t *socket_objs;
	int npkg, rc;

	*out = NULL;
	t->root = xstrdup(root);
	if (hwloc_topology_init(&h) < 0) {
		snprintf(err, errlen, "hwloc could not start: %s", strerror(errno));
		free(t);
		return -EIO;
	}
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	rc = topo_set_source(h, t, spec, err, errlen);
	if (rc == 0 && hwloc_topology_load(h) < 0) {
		if (t->kind == TOPO_KIND_SYSTEM && t->xml_text) {
			snprintf(err, errlen, "hwloc's reading of the tree under %s gave an XML it "
				 "does not load back", t->source);
			rc = -EINVAL;
		} else if (t->kind == TOPO_KIND_SYSTEM) {
			snprintf(err, errlen, "hwloc could not read the topology under %s (%s); "
				 "check that %s/sys and %s/proc are there, or pass --topology",
				 t->root, strerror(errno), strcmp(t->root, "/") ? t->root : "",
				 strcmp(t->root, "/") ? t->root : "");
			rc = -EIO;
		} else if (t->kind == TOPO_KIND_XML) {
			rc = topo_bad_xml(spec, t->xml_text, err, errlen);
		} else {
			snprintf(err, errlen, "--topology %s: hwloc rejected it; give "
				 TOPO_ACCEPTED, spec);
			rc = -EINVAL;
		}
	}
	if (rc == 0 && hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU) <= 0) {
		snprintf(err, errlen, "--topology %s: the topology has no processing units; give "
			 TOPO_ACCEPTED, spec ? spec : "(this machine)");
		rc = -EINVAL;
	}
	if (rc) {
		hwloc_topology_destroy(h);
		topo_free(t);
		return rc;
	}

	/* Sockets: hwloc packages, or the whole machine when it shows none. */
	npkg = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
	socket_objs = xcalloc((size_t)(npkg > 0 ? npkg : 1), sizeof(*socket_objs));
	t->sockets = xcalloc((size_t)(npkg > 0 ? npkg : 1), sizeof(*t->sockets));
	if (npkg <= 0) {
		socket_objs[0] = hwloc_get_root_obj(h);
		topo_add_socket(&b, h, socket_objs[0], TOPO_NONE);
	}
	for (int i = 0; i < npkg; i++) {
		hwloc_obj_t pkg = hwloc_get_obj_by_type(h, HWLOC_OBJ_PACKAGE, (unsigned)i);

		socket_objs[i] = pkg;
		topo_add_socket(&b, h, pkg,
				pkg->os_index != HWLOC_UNKNOWN_INDEX ? (int)pkg->os_index : TOPO_NONE);
	}
	topo_add_offline(&b, h);
	topo_add_numa(t, h, socket_objs);
	topo_index_cpus(t);
	topo_kinds_read(t, h);
	/* this machine's, or a --root tree's: the kernel's core PMUs say which kind counts where */
	if (t->kind == TOPO_KIND_SYSTEM)
		topo_kinds_from_pmus(t, t->root);

	free(socket_objs);
	free(b.l3_objs);
	hwloc_topology_destroy(h);
	*out = t;
	return 0;
}

char *topo_export_xml(const struct topo *t)
{
	struct topo tmp = { .root = t->root };
	hwloc_topology_t h;
	char *buf = NULL, *copy = NULL, err[256];
	int len = 0;

	if (hwloc_topology_init(&h) < 0)
		return NULL;
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	/* the same source again: this machine (under its root), the XML file, the synthetic text */
	if (topo_set_source(h, &tmp, t->kind == TOPO_KIND_SYSTEM && !t->xml_text ? NULL
				: t->xml_text ? t->xml_text : t->source, err,
			    sizeof(err)) == 0 && hwloc_topology_load(h) == 0 &&
	    hwloc_topology_export_xmlbuffer(h, &buf, &len, 0) == 0 && buf) {
		copy = xstrdup(buf);
		hwloc_free_xmlbuffer(h, buf);
	}
	free(tmp.source);
	free(tmp.xml_text);
	hwloc_topology_destroy(h);
	return copy;
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	for (int s = 0; s < t->nsockets; s++) {
		free(t->sockets[s].numa);
		free(t->sockets[s].cpus);
	}
	free(t->sockets);
	free(t->cores);
	free(t->threads);
	free(t->l3s);
	free(t->numa);
	free(t->cpu_thread);
	free(t->source);
	free(t->xml_text);
	free(t->root);
	free(t);
}

const struct topo_thread *topo_thread_of_cpu(const struct topo *t, int os_cpu)
{
	if (os_cpu < 0 || os_cpu >= t->cpu_thread_len || t->cpu_thread[os_cpu] == TOPO_NONE)
		return NULL;
	return &t->threads[t->cpu_thread[os_cpu]];
}
