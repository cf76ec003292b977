/*
 * who_rank: the candidates of a look and their ranking; see who_rank.h.
 */
#include "who_rank.h"
#include "xmalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t who_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

int who_cg_find(const struct who *w, const char *path)
{
	if (!w->idx)
		return -1;
	for (uint32_t h = who_hash(path) & (WHO_INDEX - 1);; h = (h + 1) & (WHO_INDEX - 1)) {
		int i = w->idx[h];

		if (i < 0)
			return -1;
		if (!strcmp(w->cg[i].path, path))
			return i;
	}
}

/* W's index of its cgroups by path, made again (after the array changed). */
void who_index(struct who *w)
{
	if (!w->idx)
		w->idx = xmalloc(sizeof(*w->idx) * WHO_INDEX);
	for (int h = 0; h < WHO_INDEX; h++)
		w->idx[h] = -1;
	for (int i = 0; i < w->ncg; i++) {
		uint32_t h = who_hash(w->cg[i].path) & (WHO_INDEX - 1);

		while (w->idx[h] >= 0)
			h = (h + 1) & (WHO_INDEX - 1);
		w->idx[h] = i;
	}
}

static int who_cands_find(const struct who_cands *C, const char *path, uint32_t *slot)
{
	uint32_t h = who_hash(path) & (uint32_t)(C->tabcap - 1);

	for (;; h = (h + 1) & (uint32_t)(C->tabcap - 1)) {
		int i = C->tab[h];

		if (i < 0 || !strcmp(C->c[i].path, path)) {
			*slot = h;
			return i;
		}
	}
}

static void who_cands_grow(struct who_cands *C)
{
	if (C->n + 1 > C->cap) {
		C->cap = C->cap ? 2 * C->cap : 1024;
		C->c = xrealloc(C->c, (size_t)C->cap, sizeof(*C->c));
	}
	if (2 * (C->n + 1) > C->tabcap) {
		C->tabcap = C->tabcap ? 2 * C->tabcap : 4096;
		free(C->tab);
		C->tab = xmalloc(sizeof(*C->tab) * (size_t)C->tabcap);
		for (int h = 0; h < C->tabcap; h++)
			C->tab[h] = -1;
		for (int i = 0; i < C->n; i++) {
			uint32_t slot;

			who_cands_find(C, C->c[i].path, &slot);
			C->tab[slot] = i;
		}
	}
}

static int who_depth(const char *path)
{
	int d = *path ? 1 : 0;

	for (; *path; path++)
		d += *path == '/';
	return d;
}

/* Candidate PATH (CG its kept index or -1) at least of TIER and BUSY: its index. */
int who_cands_add(struct who_cands *C, const char *path, int cg, int tier, double busy)
{
	uint32_t slot;
	int i;

	who_cands_grow(C);
	i = who_cands_find(C, path, &slot);
	if (i < 0) {
		if (cg < 0) {
			if (C->npool == C->poolcap) {
				C->poolcap = C->poolcap ? 2 * C->poolcap : 256;
				C->pool = xrealloc(C->pool, (size_t)C->poolcap, sizeof(*C->pool));
			}
			path = C->pool[C->npool++] = xstrdup(path);
		}
		i = C->n++;
		C->c[i] = (struct who_cand){ .path = path, .cg = cg, .tier = tier, .busy = busy,
					     .depth = who_depth(path) };
		C->tab[slot] = i;
		return i;
	}
	if (tier > C->c[i].tier || (tier == C->c[i].tier && busy > C->c[i].busy)) {
		C->c[i].tier = tier;
		C->c[i].busy = busy;
	}
	return i;
}

void who_cands_free(struct who_cands *C)
{
	for (int i = 0; i < C->npool; i++)
		free(C->pool[i]);
	free(C->pool);
	free(C->c);
	free(C->tab);
}

/* The best first; an ancestor (ranked with its best descendant) before it; then by path. */
int who_cand_cmp(const void *a, const void *b)
{
	const struct who_cand *x = a, *y = b;

	if (x->tier != y->tier)
		return y->tier - x->tier;
	if (x->busy != y->busy)
		return x->busy < y->busy ? 1 : -1;
	if (x->depth != y->depth)
		return x->depth - y->depth;
	return strcmp(x->path, y->path);
}

/* Whether the candidates' paths P and its ancestors are in C: each ancestor ranked at least as P. */
void who_cands_up(struct who_cands *C, int i)
{
	char up[WHO_PATH_MAX];
	int tier = C->c[i].tier;
	double busy = C->c[i].busy;

	snprintf(up, sizeof(up), "%s", C->c[i].path);
	while (*up) {
		char *slash = strrchr(up, '/');

		if (slash)
			*slash = '\0';
		else
			up[0] = '\0';
		who_cands_add(C, up, -1, tier, busy);
	}
}

