/*
 * sample_kind: the table of entity kinds (sample_kind.h) and its
 * accessors.  Pure functions of a sample: any thread.
 */
#include "sample_kind.h"

#include <stdio.h>

const char *const sample_label_names[SAMPLE_NLABELS] = {
	[SAMPLE_LABEL_CPU] = "cpu",
	[SAMPLE_LABEL_CORE] = "core",
	[SAMPLE_LABEL_SOCKET] = "socket",
	[SAMPLE_LABEL_CHANNEL] = "channel",
	[SAMPLE_LABEL_CHA] = "cha",
};

const char *const sample_label_perf[SAMPLE_NLABELS] = {
	[SAMPLE_LABEL_CPU] = "CPU",
	[SAMPLE_LABEL_SOCKET] = "S",
	[SAMPLE_LABEL_CHANNEL] = "CH",
	[SAMPLE_LABEL_CHA] = "CHA",
};

static int sample_kind_threads(const struct sample *s) { return s->nthreads; }
static int sample_kind_cores(const struct sample *s) { return s->ncores; }
static int sample_kind_sockets(const struct sample *s) { return s->nsockets; }

static const struct sample_entity *sample_kind_thread(const struct sample *s, int i) { return &s->threads[i]; }
static const struct sample_entity *sample_kind_core(const struct sample *s, int i) { return &s->cores[i]; }
static const struct sample_entity *sample_kind_socket(const struct sample *s, int i) { return &s->sockets[i]; }

static struct sample_entity *sample_kind_store_threads(struct sample *s) { return s->threads; }
static struct sample_entity *sample_kind_store_cores(struct sample *s) { return s->cores; }
static struct sample_entity *sample_kind_store_sockets(struct sample *s) { return s->sockets; }

static bool sample_kind_at_thread(const struct layout *l, int m)
{
	return layout_scope_computed(l->metrics[m].scope, LAYOUT_THREAD);
}

static bool sample_kind_at_core(const struct layout *l, int m)
{
	return layout_scope_computed(l->metrics[m].scope, LAYOUT_CORE);
}

static bool sample_kind_at_socket(const struct layout *l, int m)
{
	return layout_scope_computed(l->metrics[m].scope, LAYOUT_SOCKET);
}

static bool sample_kind_at_channel(const struct layout *l, int m)
{
	return layout_scope_computed(l->metrics[m].scope, LAYOUT_CHANNEL);
}

const struct sample_kind sample_kinds[SAMPLE_NKINDS] = {
	[SAMPLE_KIND_THREAD] = {
		.name = "thread", .table = "threads", .option = "--per-thread",
		.scope = LAYOUT_THREAD, .parent = SAMPLE_KIND_CORE,
		.labels = { SAMPLE_LABEL_CPU, SAMPLE_LABEL_CORE, SAMPLE_LABEL_SOCKET }, .nlabels = 3,
		.count = sample_kind_threads, .row = sample_kind_thread,
		.figure = sample_kind_at_thread, .counts = true,
		.store = sample_kind_store_threads, .perf = true,
	},
	[SAMPLE_KIND_CORE] = {
		.name = "core", .table = "cores", .option = "--per-core",
		.scope = LAYOUT_CORE, .parent = SAMPLE_KIND_SOCKET,
		.labels = { SAMPLE_LABEL_CORE, SAMPLE_LABEL_SOCKET }, .nlabels = 2,
		.count = sample_kind_cores, .row = sample_kind_core,
		.figure = sample_kind_at_core, .counts = true,
		.store = sample_kind_store_cores,
	},
	[SAMPLE_KIND_SOCKET] = {
		.name = "socket", .table = "sockets", .option = "--per-socket",
		.scope = LAYOUT_SOCKET, .parent = -1,
		.labels = { SAMPLE_LABEL_SOCKET }, .nlabels = 1,
		.count = sample_kind_sockets, .row = sample_kind_socket,
		.figure = sample_kind_at_socket, .counts = true,
		.store = sample_kind_store_sockets, .perf = true,
	},
	[SAMPLE_KIND_CHANNEL] = {
		.name = "channel", .table = "channels", .option = "--per-channel",
		.scope = LAYOUT_CHANNEL, .parent = SAMPLE_KIND_SOCKET,
		.labels = { SAMPLE_LABEL_SOCKET, SAMPLE_LABEL_CHANNEL }, .nlabels = 2,
		.part = true,
		.figure = sample_kind_at_channel, .on_demand = true, .counts = true, .perf = true,
	},
	/* the CHA groups' figures of each CHA alone: a rate its share of the socket's */
	[SAMPLE_KIND_CHA] = {
		.name = "cha", .table = "chas", .option = "--per-cha",
		.scope = LAYOUT_SOCKET, .parent = SAMPLE_KIND_SOCKET,
		.labels = { SAMPLE_LABEL_SOCKET, SAMPLE_LABEL_CHA }, .nlabels = 2,
		.part = true,
		.figure = sample_box_metric, .on_demand = true, .keeps = sample_box_event,
		.perf = true,
	},
};

/* Kind K's value of enum sample_kind_id: its place in the table, its parts' in sample.parts. */
static enum sample_kind_id sample_kind_id_of(const struct sample_kind *k)
{
	return (enum sample_kind_id)(k - sample_kinds);
}

int sample_kind_per_socket(const struct sample_kind *k, const struct sample *s)
{
	if (k->part)
		return sample_part_per(s, sample_kind_id_of(k));
	return k->per_socket ? k->per_socket(s) : 0;
}

int sample_kind_count(const struct sample_kind *k, const struct sample *s)
{
	return k->part ? s->nsockets * sample_part_per(s, sample_kind_id_of(k)) : k->count(s);
}

const struct sample_entity *sample_kind_row(const struct sample_kind *k, const struct sample *s,
					    int i)
{
	return k->part ? &s->parts[sample_kind_id_of(k)].rows[i] : k->row(s, i);
}

bool sample_kind_stored(const struct sample_kind *k)
{
	return k->part || k->store;
}

struct sample_entity *sample_kind_store(const struct sample_kind *k, struct sample *s, int per)
{
	enum sample_kind_id id = sample_kind_id_of(k);

	if (!k->part)
		return k->store ? k->store(s) : NULL;
	if (!s->parts[id].rows)
		sample_add_part(s, id, per);
	return s->parts[id].rows;
}

bool sample_kind_is_part(const struct sample_kind *k)
{
	return k->part || k->per_socket;
}

int sample_label_value(const struct sample_entity *e, enum sample_label lb)
{
	switch (lb) {
	case SAMPLE_LABEL_CPU:
	case SAMPLE_LABEL_CHANNEL:
	case SAMPLE_LABEL_CHA:
		return e->index;
	case SAMPLE_LABEL_CORE:
		return e->os_core_id;
	case SAMPLE_LABEL_SOCKET:
	default:
		return e->os_socket_id;
	}
}

bool sample_kind_has_label(const struct sample_kind *k, enum sample_label lb)
{
	for (int j = 0; j < k->nlabels; j++)
		if (k->labels[j] == lb)
			return true;
	return false;
}

int sample_kind_owner(const struct sample *s, enum sample_kind_id k, int i, enum sample_kind_id *by)
{
	/* the sample's own arrays are their own owners; a socket's part is its socket's */
	if (!sample_kind_is_part(&sample_kinds[k])) {
		*by = k;
		return i;
	}
	*by = (enum sample_kind_id)sample_kinds[k].parent;
	return sample_kind_row(&sample_kinds[k], s, i)->socket;
}

void sample_kind_perf_name(const struct sample_kind *k, const struct sample_entity *e, char *buf,
			   size_t len)
{
	size_t n;

	if (sample_kind_has_label(k, SAMPLE_LABEL_CPU)) {
		snprintf(buf, len, "CPU%d", e->index);
		return;
	}
	n = (size_t)snprintf(buf, len, "S%d", e->os_socket_id);
	for (int j = 0; j < k->nlabels && n < len; j++)
		if (k->labels[j] != SAMPLE_LABEL_SOCKET && sample_label_perf[k->labels[j]])
			n += (size_t)snprintf(buf + n, len - n, "-%s%d", sample_label_perf[k->labels[j]],
					      sample_label_value(e, k->labels[j]));
}
