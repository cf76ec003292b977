/*
 * who_rank: the cgroups a look considers (who_scan.c), found again by
 * path in a table of their own, and their ranking; the kept cgroups'
 * index by path (who_cg_find).  Not for any other module.  Sampler thread.
 */
#ifndef PMUTOP_WHO_RANK_H
#define PMUTOP_WHO_RANK_H

#include "who_int.h"

/* A cgroup considered at this look. */
struct who_cand {
	const char *path;        /* the kept cgroup's, or in the look's pool */
	int cg;                  /* its index in who.cg, -1 new */
	int tier;                /* 3 busy, 2 with processes, 1 the machine's, 0 the rest */
	double busy;             /* CPUs it (or its busiest descendant) kept busy */
	int depth;
};

/* The candidates of a look (grown by doubling), with the paths made at this look. */
struct who_cands {
	struct who_cand *c;
	int n, cap;
	int *tab;                /* by path: open addressing, a power of two at least twice N */
	int tabcap;
	char **pool;
	int npool, poolcap;
};

/* Candidate PATH (CG its kept index, or -1) at least of TIER and BUSY: its index. */
int who_cands_add(struct who_cands *C, const char *path, int cg, int tier, double busy);
/* Candidate I's ancestors as candidates, each ranked at least as I. */
void who_cands_up(struct who_cands *C, int i);
void who_cands_free(struct who_cands *C);
/* qsort's order of candidates: the best first, an ancestor before what it holds, then by path. */
int who_cand_cmp(const void *a, const void *b);
/* W's index of its cgroups by path, made again (after the array changed). */
void who_index(struct who *w);

#endif
