/*
 * sample: allocation and reference counting.  One block per entity array;
 * the reference count is atomic because the UI thread and the sampler both
 * release.
 */
#include "sample.h"
#include "xmalloc.h"

#include <math.h>
#include <stdlib.h>

static void sample_entities(struct sample_entity **out, int n, int nvars)
{
	struct sample_entity *e = xcalloc((size_t)(n ? n : 1), sizeof(*e));
	double *vars = xmalloc(sizeof(double) * (size_t)(n ? n : 1) * (size_t)nvars);

	for (int i = 0; i < n * nvars; i++)
		vars[i] = NAN;
	for (int i = 0; i < n; i++)
		e[i].vars = vars + (size_t)i * (size_t)nvars;
	if (!n)
		e[0].vars = vars;
	*out = e;
}

struct sample *sample_new(const struct layout *layout, int nthreads, int ncores, int nsockets)
{
	struct sample *s = xcalloc(1, sizeof(*s));
	int nvars = layout_nvars(layout);

	s->layout = layout;
	s->nthreads = nthreads;
	s->ncores = ncores;
	s->nsockets = nsockets;
	sample_entities(&s->threads, nthreads, nvars);
	sample_entities(&s->cores, ncores, nvars);
	sample_entities(&s->sockets, nsockets, nvars);
	s->groups = xcalloc((size_t)layout->ngroups + 1, sizeof(*s->groups));
	s->metric_scaled = xcalloc((size_t)layout->nmetrics + 1, sizeof(*s->metric_scaled));
	s->refs = 1;
	return s;
}

struct sample *sample_ref(struct sample *s)
{
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	return s;
}

void sample_release(struct sample *s)
{
	if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL))
		return;
	free(s->threads[0].vars);
	free(s->cores[0].vars);
	free(s->sockets[0].vars);
	free(s->threads);
	free(s->cores);
	free(s->sockets);
	free(s->groups);
	free(s->metric_scaled);
	free(s);
}

double sample_metric(const struct sample *s, const struct sample_entity *e, int m)
{
	return e->vars[layout_metric_var(s->layout, m)];
}
