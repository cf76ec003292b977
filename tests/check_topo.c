/*
 * Tests for the topology model: counts, OS CPU numbers, HT sibling pairs,
 * sockets, NUMA nodes and L3 for the machines pmutop is built for, loaded
 * from synthetic descriptions, a hand-written XML file and this machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cpulist.h"
#include "topo.h"

#define GIB (1024ULL * 1024 * 1024)
#define MIB (1024ULL * 1024)

/* Dual Xeon X5570: Linux numbers socket 0 first, siblings n and n+8. */
#define XEON5500 "pack:2 [numa(memory=12GiB)] l3:1(size=8MiB) core:4 pu:2(indexes=2*8:1*2)"
/* Core i7-6700 class: 4 cores, siblings n and n+4. */
#define SKYLAKE "pack:1 [numa(memory=16GiB)] l3:1(size=8MiB) core:4 pu:2(indexes=2*4:1*2)"
#define QUAD256 "pack:4 [numa] l3:1 core:32 pu:2"

static struct topo *load(const char *spec)
{
	char err[512] = "";
	struct topo *t = NULL;
	int rc = topo_load(spec, &t, err, sizeof(err));

	ck_assert_msg(rc == 0, "topo_load(%s) = %d: %s", spec ? spec : "NULL", rc, err);
	return t;
}

/* Structural invariants every model must hold, whatever its source. */
static void check_invariants(const struct topo *t)
{
	int threads = 0, cores = 0;

	for (int s = 0; s < t->nsockets; s++) {
		const struct topo_socket *sk = &t->sockets[s];

		ck_assert_int_eq(sk->core_first, cores);
		ck_assert_int_eq(sk->thread_first, threads);
		for (int c = sk->core_first; c < sk->core_first + sk->ncores; c++) {
			const struct topo_core *core = &t->cores[c];

			ck_assert_int_eq(core->socket, s);
			ck_assert_int_eq(core->thread_first, threads);
			for (int k = 0; k < core->nthreads; k++) {
				const struct topo_thread *th = &t->threads[threads++];

				ck_assert_int_eq(th->core, c);
				ck_assert_int_eq(th->socket, s);
				ck_assert_int_eq(th->smt_rank, k);
				ck_assert(th->online);
				ck_assert_ptr_eq(topo_thread_of_cpu(t, th->os_cpu), th);
			}
		}
		cores += sk->ncores;
		for (int i = 1; i < sk->nthreads; i++)
			ck_assert_int_lt(sk->cpus[i - 1], sk->cpus[i]);
	}
	ck_assert_int_eq(cores, t->ncores);
	ck_assert_int_eq(threads, t->nonline);
	for (int i = t->nonline; i < t->nthreads; i++) {
		ck_assert(!t->threads[i].online);
		ck_assert_int_eq(t->threads[i].core, TOPO_NONE);
	}
}

/* CPUs A and B are the two hardware threads of one core. */
static void check_siblings(const struct topo *t, int a, int b)
{
	const struct topo_thread *ta = topo_thread_of_cpu(t, a), *tb = topo_thread_of_cpu(t, b);

	ck_assert_msg(ta && tb, "cpu %d or %d missing", a, b);
	ck_assert_msg(ta->core == tb->core, "cpu %d and %d are not siblings", a, b);
	ck_assert_int_eq(t->cores[ta->core].nthreads, 2);
	ck_assert_int_eq(ta->smt_rank, 0);
	ck_assert_int_eq(tb->smt_rank, 1);
}

START_TEST(xeon5500_two_sockets)
{
	struct topo *t = load(XEON5500);

	check_invariants(t);
	ck_assert_int_eq(t->kind, TOPO_KIND_SYNTHETIC);
	ck_assert_int_eq(t->nsockets, 2);
	ck_assert_int_eq(t->nnuma, 2);
	ck_assert_int_eq(t->nl3, 2);
	ck_assert_int_eq(t->ncores, 8);
	ck_assert_int_eq(t->nonline, 16);
	ck_assert_int_eq(t->nthreads, 16);
	for (int n = 0; n < 8; n++) {
		check_siblings(t, n, n + 8);
		ck_assert_int_eq(topo_thread_of_cpu(t, n)->socket, n / 4);
	}
	for (int s = 0; s < 2; s++) {
		const struct topo_socket *sk = &t->sockets[s];
		int want[8] = { 0, 1, 2, 3, 8, 9, 10, 11 };

		ck_assert_int_eq(sk->os_id, s);
		ck_assert_int_eq(sk->ncores, 4);
		ck_assert_int_eq(sk->nthreads, 8);
		for (int i = 0; i < 8; i++)
			ck_assert_int_eq(sk->cpus[i], want[i] + 4 * s);
		ck_assert_int_eq(sk->nnuma, 1);
		ck_assert_int_eq(t->numa[sk->numa[0]].os_node, s);
		ck_assert_int_eq(t->numa[sk->numa[0]].socket, s);
		ck_assert_uint_eq(t->numa[sk->numa[0]].mem_total, 12 * GIB);
		ck_assert(t->numa[sk->numa[0]].mem_free == TOPO_BYTES_UNKNOWN);
		ck_assert_int_eq(sk->nl3, 1);
		ck_assert_int_eq(t->l3s[sk->l3_first].socket, s);
		ck_assert_uint_eq(t->l3s[sk->l3_first].size_bytes, 8 * MIB);
	}
	for (int c = 0; c < 8; c++)
		ck_assert_int_eq(t->cores[c].l3, c / 4);
	topo_free(t);
}
END_TEST

START_TEST(skylake_client_one_socket)
{
	struct topo *t = load(SKYLAKE);

	check_invariants(t);
	ck_assert_int_eq(t->nsockets, 1);
	ck_assert_int_eq(t->nnuma, 1);
	ck_assert_int_eq(t->nl3, 1);
	ck_assert_int_eq(t->ncores, 4);
	ck_assert_int_eq(t->nonline, 8);
	for (int n = 0; n < 4; n++)
		check_siblings(t, n, n + 4);
	ck_assert_uint_eq(t->numa[0].mem_total, 16 * GIB);
	topo_free(t);
}
END_TEST

START_TEST(four_sockets_256_threads)
{
	struct topo *t = load(QUAD256);

	check_invariants(t);
	ck_assert_int_eq(t->nsockets, 4);
	ck_assert_int_eq(t->nnuma, 4);
	ck_assert_int_eq(t->nl3, 4);
	ck_assert_int_eq(t->ncores, 128);
	ck_assert_int_eq(t->nonline, 256);
	for (int n = 0; n < 256; n += 2) {
		check_siblings(t, n, n + 1);
		ck_assert_int_eq(topo_thread_of_cpu(t, n)->socket, n / 64);
	}
	/* No memory size in the description: unknown, never 0. */
	ck_assert(t->numa[0].mem_total == TOPO_BYTES_UNKNOWN);
	ck_assert_ptr_null(topo_thread_of_cpu(t, 256));
	ck_assert_ptr_null(topo_thread_of_cpu(t, -1));
	topo_free(t);
}
END_TEST

/*
 * tests/topology/westmere-ep-sparse.xml: dual X5650, core ids 0,1,2,8,9,10,
 * even CPUs on socket 0 and odd on socket 1, siblings n and n+12, CPU 23
 * offline (so core 10 of socket 1 runs one thread).
 */
START_TEST(xml_sparse_core_ids_interleaved_cpus)
{
	static const int core_ids[] = { 0, 1, 2, 8, 9, 10 };
	struct topo *t = load(TEST_DATADIR "/topology/westmere-ep-sparse.xml");
	const struct topo_thread *off;

	check_invariants(t);
	ck_assert_int_eq(t->kind, TOPO_KIND_XML);
	ck_assert_int_eq(t->nsockets, 2);
	ck_assert_int_eq(t->ncores, 12);
	ck_assert_int_eq(t->nonline, 23);
	ck_assert_int_eq(t->nthreads, 24);
	for (int s = 0; s < 2; s++) {
		const struct topo_socket *sk = &t->sockets[s];

		ck_assert_int_eq(sk->ncores, 6);
		for (int i = 0; i < 6; i++) {
			const struct topo_core *c = &t->cores[sk->core_first + i];

			ck_assert_int_eq(c->core_id, core_ids[i]);
			ck_assert_int_eq(t->threads[c->thread_first].os_cpu, 2 * i + s);
		}
		for (int i = 0; i < sk->nthreads; i++)
			ck_assert_int_eq(sk->cpus[i] % 2, s);
		ck_assert_uint_eq(t->numa[sk->numa[0]].mem_total, 12 * GIB);
		ck_assert_uint_eq(t->l3s[sk->l3_first].size_bytes, 12 * MIB);
	}
	for (int n = 0; n < 11; n++)
		check_siblings(t, n, n + 12);
	ck_assert_int_eq(t->cores[11].nthreads, 1);
	ck_assert_int_eq(t->threads[t->cores[11].thread_first].os_cpu, 11);
	off = topo_thread_of_cpu(t, 23);
	ck_assert_ptr_nonnull(off);
	ck_assert(!off->online);
	ck_assert_int_eq(off->socket, TOPO_NONE);
	topo_free(t);
}
END_TEST

/*
 * tests/topology/alderlake-hybrid.xml: a Core i9-12900K as hwloc shows it
 * (8 P-cores with two threads, CPUs 0-15; 8 E-cores, CPUs 16-23, two
 * modules of four sharing an L2) with its CPU kinds: IntelCore and
 * IntelAtom.  The P-cores are kind P, listed first; each core has its kind.
 */
START_TEST(hybrid_kinds_from_hwloc)
{
	struct topo *t = load(TEST_DATADIR "/topology/alderlake-hybrid.xml");
	struct topo *u = load("pack:1 [numa] l3:1 core:4 pu:2");

	check_invariants(t);
	ck_assert_int_eq(t->ncores, 16);
	ck_assert_int_eq(t->nonline, 24);
	ck_assert_int_eq(t->ncorekinds, 2);
	ck_assert_str_eq(t->corekinds[0].name, "P");
	ck_assert_str_eq(t->corekinds[0].core_type, "IntelCore");
	ck_assert_int_eq(t->corekinds[0].ncores, 8);
	ck_assert_int_eq(t->corekinds[0].nthreads, 16);
	ck_assert_str_eq(t->corekinds[1].name, "E");
	ck_assert_str_eq(t->corekinds[1].core_type, "IntelAtom");
	ck_assert_int_eq(t->corekinds[1].ncores, 8);
	ck_assert_int_eq(t->corekinds[1].nthreads, 8);
	ck_assert_int_eq(t->cores[topo_thread_of_cpu(t, 3)->core].corekind, 0);
	ck_assert_int_eq(t->cores[topo_thread_of_cpu(t, 16)->core].corekind, 1);
	ck_assert_int_eq(t->cores[topo_thread_of_cpu(t, 16)->core].nthreads, 1);
	/* the E-cores in modules of four sharing a 2 MiB L2; a P-core shares its L2 with none */
	ck_assert_int_eq(t->corekinds[1].module_cores, 4);
	ck_assert_uint_eq(t->corekinds[1].l2_bytes, 2 * MIB);
	ck_assert_int_eq(t->corekinds[0].module_cores, 1);
	ck_assert_int_eq(t->cores[topo_thread_of_cpu(t, 16)->core].module,
			 t->cores[topo_thread_of_cpu(t, 19)->core].module);
	ck_assert_int_ne(t->cores[topo_thread_of_cpu(t, 19)->core].module,
			 t->cores[topo_thread_of_cpu(t, 20)->core].module);
	ck_assert_int_eq(t->cores[topo_thread_of_cpu(t, 0)->core].module, TOPO_NONE);
	/* a uniform machine has no kinds, and its cores none */
	ck_assert_int_eq(u->ncorekinds, 0);
	ck_assert_int_eq(u->cores[0].corekind, TOPO_NONE);
	topo_free(t);
	topo_free(u);
}
END_TEST

/* Read a sysfs file of this machine into BUF; 0 when it cannot be read. */
static int read_sys(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 1;
}

/* This machine, cross-checked against what the kernel says in sysfs. */
START_TEST(this_machine_matches_sysfs)
{
	struct topo *t = load(NULL);
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	check_invariants(t);
	ck_assert_int_eq(t->kind, TOPO_KIND_SYSTEM);
	ck_assert_int_eq(t->nonline, (int)online);
	for (int i = 0; i < t->nonline; i++) {
		const struct topo_thread *th = &t->threads[i];
		const struct topo_core *c = &t->cores[th->core];
		char path[128], want[256], pkg[32], core_id[32];
		int *sys_cpus, nsys;
		size_t col;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", th->os_cpu);
		if (read_sys(path, want, sizeof(want))) {
			ck_assert_int_eq(cpulist_parse(want, &sys_cpus, &nsys, &col), 0);
			ck_assert_int_eq(nsys, c->nthreads);
			for (int k = 0; k < nsys; k++)
				ck_assert(cpulist_contains(sys_cpus, nsys,
							   t->threads[c->thread_first + k].os_cpu));
			free(sys_cpus);
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", th->os_cpu);
		if (read_sys(path, pkg, sizeof(pkg)) && t->sockets[th->socket].os_id != TOPO_NONE)
			ck_assert_int_eq(atoi(pkg), t->sockets[th->socket].os_id);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id",
			 th->os_cpu);
		if (read_sys(path, core_id, sizeof(core_id)) && c->core_id != TOPO_NONE)
			ck_assert_int_eq(atoi(core_id), c->core_id);
	}
	/* libnuma supplies memory totals and free memory for this machine. */
	for (int i = 0; i < t->nnuma; i++) {
		ck_assert(t->numa[i].mem_total != TOPO_BYTES_UNKNOWN);
		ck_assert(t->numa[i].mem_total > 0);
		ck_assert(t->numa[i].mem_free <= t->numa[i].mem_total);
	}
	topo_free(t);
}
END_TEST

static void expect_load_error(const char *spec, int want_rc, const char *want_text)
{
	char err[512] = "";
	struct topo *t = (struct topo *)1;

	ck_assert_int_eq(topo_load(spec, &t, err, sizeof(err)), want_rc);
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(err, want_text), "message '%s' lacks '%s'", err, want_text);
	/* every message also says what is accepted, on one line */
	ck_assert_msg(strstr(err, "pack:2 [numa] l3:1 core:4 pu:2"), "no hint in '%s'", err);
	ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(errors_name_the_problem_and_what_is_accepted)
{
	char bad[] = "/tmp/pmutop-bad-XXXXXX";
	int fd = mkstemp(bad);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "<topology><object", 17), 17);
	close(fd);
	expect_load_error("/nonexistent/machine.xml", -ENOENT, "no such file");
	expect_load_error("machine.xml", -ENOENT, "no such file");
	expect_load_error(bad, -EINVAL, "not a readable hwloc XML");
	expect_load_error("/tmp", -EINVAL, "not a readable hwloc XML");
	expect_load_error("bogus:3", -EINVAL, "not a valid synthetic description");
	expect_load_error("pack:2 core:x", -EINVAL, "not a valid synthetic description");
	unlink(bad);
}
END_TEST

static Suite *topo_suite(void)
{
	Suite *s = suite_create("topo");

	CHECK_ADD(s, xeon5500_two_sockets);
	CHECK_ADD(s, hybrid_kinds_from_hwloc);
	CHECK_ADD(s, skylake_client_one_socket);
	CHECK_ADD(s, four_sockets_256_threads);
	CHECK_ADD(s, xml_sparse_core_ids_interleaved_cpus);
	CHECK_ADD(s, this_machine_matches_sysfs);
	CHECK_ADD(s, errors_name_the_problem_and_what_is_accepted);
	return s;
}

CHECK_MAIN(topo_suite)
