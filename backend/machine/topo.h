/*
 * topo: pmutop's own immutable model of the machine's topology.
 *
 * Loaded once from hwloc (the running machine, an hwloc XML file or a
 * synthetic description) and never changed afterwards, so any thread may read
 * it without locking once topo_load() has returned.  NUMA memory comes from
 * libnuma when the topology is this machine's, from hwloc otherwise.
 *
 * Numbering, everywhere in this model:
 *  - "os_cpu" is the Linux CPU number (/dev/cpu/N), as hwloc's PU os_index;
 *  - "core_id" and "os_id" (package) are the ids the OS reports: core ids may
 *    be sparse (0,1,2,8,9,10 on Westmere-EP) and are unique only per socket;
 *  - every other int field that refers to another object is an index into
 *    the corresponding array of struct topo, in hwloc's logical order.
 *
 * Invariants: threads[0 .. nonline-1] are the online CPUs, ordered socket by
 * socket, core by core (hwloc's tree order, never sorted by CPU number);
 * a socket's threads and cores are contiguous ranges of those arrays;
 * threads[nonline .. nthreads-1] are CPUs the OS knows but that are offline,
 * with no core or socket (the kernel does not say where they sit).
 */
#ifndef PMUTOP_TOPO_H
#define PMUTOP_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TOPO_NONE (-1)
/* A byte count the source cannot tell (e.g. free memory of an XML topology). */
#define TOPO_BYTES_UNKNOWN UINT64_MAX

enum topo_kind {
	TOPO_KIND_SYSTEM,    /* this machine, through hwloc and libnuma */
	TOPO_KIND_XML,       /* an hwloc XML export */
	TOPO_KIND_SYNTHETIC, /* an hwloc synthetic description */
};

struct topo_thread {
	int os_cpu;
	int core;     /* index into cores[]; TOPO_NONE when offline */
	int socket;   /* index into sockets[]; TOPO_NONE when offline */
	int smt_rank; /* 0 for the core's first hardware thread, 1 for its sibling... */
	bool online;
};

struct topo_core {
	int core_id;      /* OS core id, may be sparse; TOPO_NONE if hwloc has none */
	int socket;
	int l3;           /* index into l3s[]; TOPO_NONE without an L3 */
	int thread_first; /* the core's threads are threads[thread_first ..] */
	int nthreads;
	int corekind;     /* index into corekinds[] (hybrid CPUs: P, E, LP-E); TOPO_NONE uniform */
	int module;       /* a hybrid's E-core module (cores sharing an L2): hwloc's L2 index, else TOPO_NONE */
};

/*
 * A kind of core of a hybrid CPU, from hwloc's CPU kinds (Linux's cpu_core
 * and cpu_atom PMUs' CPUs, CPUID leaf 1AH): Intel's performance cores "P"
 * (CoreType IntelCore), efficient cores "E" (IntelAtom) and, where two
 * IntelAtom kinds exist, the less efficient the low-power "LP-E".
 */
#define TOPO_MAX_KINDS 4
struct topo_corekind {
	char name[8];        /* "P", "E", "LP-E" */
	char core_type[24];  /* hwloc's CoreType info ("IntelCore", "IntelAtom"), "" without */
	int efficiency;      /* hwloc's: higher is more intrinsic performance; -1 unknown */
	int ncores, nthreads;
	int module_cores;    /* cores sharing an L2 (Intel's E-core modules: 4), 1 when none share */
	uint64_t l2_bytes;   /* that L2's size, 0 unknown */
	bool from_pmu;       /* CORE_TYPE from the kernel's core PMU's "cpus" file, not hwloc's */
};

struct topo_l3 {
	int socket;          /* TOPO_NONE if the cache spans sockets */
	uint64_t size_bytes; /* 0 when unknown */
};

struct topo_numa {
	int os_node;        /* Linux NUMA node number */
	int socket;         /* the one socket whose CPUs it serves, else TOPO_NONE */
	uint64_t mem_total; /* bytes or TOPO_BYTES_UNKNOWN */
	uint64_t mem_free;  /* bytes or TOPO_BYTES_UNKNOWN */
};

struct topo_socket {
	int os_id;   /* physical package id; TOPO_NONE when hwloc shows no package */
	int core_first, ncores;
	int thread_first, nthreads;
	int l3_first, nl3;
	int *numa;   /* indexes into numa[] of the nodes serving this socket */
	int nnuma;
	int *cpus;   /* the socket's OS CPU numbers, sorted ascending (nthreads of them) */
};

struct topo {
	enum topo_kind kind;
	char *source;   /* human description: "this machine", the XML path, the synthetic string */
	char *xml_text; /* the topology as XML text (an emulated hybrid machine's, a --root tree's), else NULL */
	bool xml_file;  /* TOPO_KIND_XML read from a file (SOURCE), not given as text */
	char *root;     /* TOPO_KIND_SYSTEM: the prefix of /sys and /proc ("/" for this machine) */
	struct topo_socket *sockets;
	int nsockets;
	struct topo_core *cores;
	int ncores;
	struct topo_thread *threads;
	int nthreads;   /* online + offline */
	int nonline;
	struct topo_l3 *l3s;
	int nl3;
	struct topo_numa *numa;
	int nnuma;
	int *cpu_thread; /* os_cpu -> index into threads[] or TOPO_NONE */
	int cpu_thread_len;
	/* a hybrid CPU's kinds of core (none: 0; hwloc's one kind of a uniform CPU: 0 too) */
	struct topo_corekind corekinds[TOPO_MAX_KINDS];
	int ncorekinds;
};

/*
 * Load a topology.  SPEC is NULL for this machine, the path of an hwloc XML
 * file, or a synthetic description ("pack:2 [numa] l3:1 core:4 pu:2").
 * Returns 0 and sets *OUT, or returns -ENOENT (no such file) / -EINVAL
 * (unreadable XML, invalid synthetic string, empty topology) / -EIO (hwloc
 * could not read this machine) and writes one line into ERR saying what is
 * wrong and what is accepted.
 */
int topo_load(const char *spec, struct topo **out, char *err, size_t errlen);

/*
 * Load the machine whose /sys and /proc live under ROOT (a fake machine tree;
 * "/" or NULL is this machine, as topo_load(NULL)).  Free memory per NUMA
 * node comes from ROOT/sys/devices/system/node/nodeN/meminfo.
 */
int topo_load_root(const char *root, struct topo **out, char *err, size_t errlen);

/*
 * T's machine as hwloc XML (loaded again from the same source: this machine
 * under T's root, the XML file, the synthetic text), for a recording to
 * carry; malloc'd, or NULL when hwloc cannot export it.
 */
char *topo_export_xml(const struct topo *t);

void topo_free(struct topo *t);

/* The thread for OS CPU number OS_CPU, or NULL if the machine has no such CPU. */
const struct topo_thread *topo_thread_of_cpu(const struct topo *t, int os_cpu);

/* Whether kind K of T is Intel's efficient cores (CoreType IntelAtom: E, LP-E); false for -1. */
bool topo_kind_atom(const struct topo *t, int k);

/* Whether T has efficient cores (a hybrid's E-cores). */
bool topo_has_atom(const struct topo *t);

#endif
