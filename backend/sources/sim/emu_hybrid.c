/*
 * emu_hybrid: the topology of an emulated hybrid machine (Intel's P-cores
 * and E-cores) as hwloc XML, which hwloc's synthetic descriptions cannot
 * say (their cores differ in threads and caches): one package, one NUMA
 * node, one L3; the P-cores first, each with its L2, its threads numbered
 * as Linux numbers them (both threads of a core side by side); then the
 * E-cores in modules that share an L2; the CPU kinds as Linux's hwloc
 * backend gives them (CoreType IntelCore / IntelAtom, the efficient kind
 * first).  See emu_machine.h.
 */
#include "emu_hybrid.h"
#include "xmalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* CPUs [FIRST, FIRST + N) as hwloc's bitmap text (32-bit words, the highest first). */
static void eh_set(char *buf, size_t len, unsigned first, unsigned n)
{
	uint32_t w[4] = { 0 };
	size_t k = 0;
	int top = 0;

	for (unsigned c = first; c < first + n && c < 128; c++) {
		w[c / 32] |= 1u << (c % 32);
		top = (int)(c / 32) > top ? (int)(c / 32) : top;
	}
	for (int i = top; i >= 0 && k < len; i--)
		k += (size_t)snprintf(buf + k, len - k, "%s0x%08x", i == top ? "" : ",", w[i]);
}

/* The object's sets: CPUs [FIRST, FIRST + N) on NUMA node 0. */
static void eh_sets(FILE *f, unsigned first, unsigned n)
{
	char s[64];

	eh_set(s, sizeof(s), first, n);
	fprintf(f, " cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"0x00000001\" "
		"complete_nodeset=\"0x00000001\"", s, s);
}

static void eh_cache(FILE *f, int depth, unsigned first, unsigned n, unsigned long long bytes,
		     int type)
{
	fprintf(f, "<object type=\"L%dCache\"", depth);
	eh_sets(f, first, n);
	fprintf(f, " cache_size=\"%llu\" depth=\"%d\" cache_linesize=\"64\" cache_type=\"%d\">\n",
		bytes, depth, type);
}

/* One core (OS core id ID) of THREADS threads from CPU FIRST, with its L1D. */
static void eh_core(FILE *f, unsigned id, unsigned first, unsigned threads, unsigned l1d_kib)
{
	eh_cache(f, 1, first, threads, l1d_kib * 1024ull, 1);
	fprintf(f, "<object type=\"Core\" os_index=\"%u\"", id);
	eh_sets(f, first, threads);
	fputs(">\n", f);
	for (unsigned t = 0; t < threads; t++) {
		fprintf(f, "<object type=\"PU\" os_index=\"%u\"", first + t);
		eh_sets(f, first + t, 1);
		fputs("/>\n", f);
	}
	fputs("</object>\n</object>\n", f);
}

char *emu_hybrid_xml(const struct emu_hybrid *h, const char *brand)
{
	unsigned pcpus = h->p_cores * h->p_threads, ecpus = h->e_modules * h->e_per_module;
	unsigned all = emu_hybrid_cpus(h), cpu = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char s[64];

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM "
	      "\"hwloc2.dtd\">\n<topology version=\"2.0\">\n<object type=\"Machine\" os_index=\"0\"",
	      f);
	eh_sets(f, 0, all);
	fputs(">\n<object type=\"Package\" os_index=\"0\"", f);
	eh_sets(f, 0, all);
	fprintf(f, ">\n<info name=\"CPUVendor\" value=\"GenuineIntel\"/>\n"
		"<info name=\"CPUModel\" value=\"%s\"/>\n<object type=\"NUMANode\" os_index=\"0\"",
		brand);
	eh_sets(f, 0, all);
	fprintf(f, " local_memory=\"%llu\"/>\n", (unsigned long long)h->mem_gib << 30);
	eh_cache(f, 3, 0, h->e_beside_l3 ? pcpus : pcpus + ecpus,
		 (unsigned long long)(h->l3_mib * 1048576.0), 0);
	for (unsigned c = 0; c < h->p_cores; c++, cpu += h->p_threads) {
		eh_cache(f, 2, cpu, h->p_threads, (unsigned long long)(h->p_l2_mib * 1048576.0), 0);
		eh_core(f, 4 * c, cpu, h->p_threads, 48);
		fputs("</object>\n", f);
	}
	if (h->e_beside_l3)
		fputs("</object>\n", f); /* the L3 ends with the P-cores */
	for (unsigned m = 0; m < h->e_modules; m++) {
		eh_cache(f, 2, cpu, h->e_per_module, (unsigned long long)(h->e_l2_mib * 1048576.0), 0);
		for (unsigned c = 0; c < h->e_per_module; c++, cpu++)
			eh_core(f, 4 * h->p_cores + m * h->e_per_module + c, cpu, 1, 32);
		fputs("</object>\n", f);
	}
	if (!h->e_beside_l3)
		fputs("</object>\n", f); /* the L3 ends with the E-cores */
	if (h->lp_cores) {
		/* the low-power E-cores: outside the L3, one L2 */
		eh_cache(f, 2, cpu, h->lp_cores, (unsigned long long)(h->lp_l2_mib * 1048576.0), 0);
		for (unsigned c = 0; c < h->lp_cores; c++, cpu++)
			eh_core(f, 4 * h->p_cores + h->e_modules * h->e_per_module + c, cpu, 1, 32);
		fputs("</object>\n", f);
	}
	fputs("</object>\n</object>\n", f);
	/* the kinds, the most efficient first (as hwloc orders them) */
	if (h->lp_cores) {
		eh_set(s, sizeof(s), pcpus + ecpus, h->lp_cores);
		fprintf(f, "<cpukind cpuset=\"%s\">\n<info name=\"CoreType\" value=\"IntelLowPower\"/>\n"
			"<info name=\"FrequencyMaxMHz\" value=\"%u\"/>\n</cpukind>\n", s, h->lp_mhz);
	}
	eh_set(s, sizeof(s), pcpus, ecpus);
	fprintf(f, "<cpukind cpuset=\"%s\">\n<info name=\"CoreType\" value=\"IntelAtom\"/>\n"
		"<info name=\"FrequencyMaxMHz\" value=\"%u\"/>\n</cpukind>\n", s, h->e_mhz);
	eh_set(s, sizeof(s), 0, pcpus);
	fprintf(f, "<cpukind cpuset=\"%s\">\n<info name=\"CoreType\" value=\"IntelCore\"/>\n"
		"<info name=\"FrequencyMaxMHz\" value=\"%u\"/>\n</cpukind>\n</topology>\n", s,
		h->p_mhz);
	fclose(f);
	return text;
}

unsigned emu_hybrid_cpus(const struct emu_hybrid *h)
{
	return h->p_cores * h->p_threads + h->e_modules * h->e_per_module + h->lp_cores;
}

bool emu_hybrid_is_e(const struct emu_hybrid *h, int cpu)
{
	return h && cpu >= (int)(h->p_cores * h->p_threads) && cpu < (int)emu_hybrid_cpus(h);
}

bool emu_hybrid_is_lp(const struct emu_hybrid *h, int cpu)
{
	return h && h->lp_cores &&
	       cpu >= (int)(h->p_cores * h->p_threads + h->e_modules * h->e_per_module) &&
	       cpu < (int)emu_hybrid_cpus(h);
}
