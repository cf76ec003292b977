/*
 * replay_entity: a recorded sample's rows back into the sample, kind by kind
 * as sample_kinds[] has them (threads, cores, sockets, channels, CHAs, and
 * whatever kind is added there): each [index, core, socket, os_core_id,
 * os_socket_id, [inputs], [raw]] checked against the shape the sample's (or
 * the kind's own) inputs give.  Main thread.
 */
#include "replay_int.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

/* A number or null (NaN); false for anything else. */
bool replay_num(json_t *v, double *out)
{
	if (json_is_null(v)) {
		*out = NAN;
		return true;
	}
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

/*
 * Entity E from [index, core, socket, os_core_id, os_socket_id, [inputs],
 * [raw]] of shape SH: what is wrong, or NULL.
 */
static const char *replay_entity(json_t *a, struct sample_entity *e, const struct replay_shape *sh)
{
	json_t *in, *raw;
	int *ids[5] = { &e->index, &e->core, &e->socket, &e->os_core_id, &e->os_socket_id };

	if (!json_is_array(a) || json_array_size(a) != 7)
		return "an entity is not [index, core, socket, os_core_id, os_socket_id, inputs, raw]";
	for (int k = 0; k < 5; k++) {
		json_t *v = json_array_get(a, (size_t)k);

		if (!json_is_integer(v) || json_integer_value(v) < -1 ||
		    json_integer_value(v) > 1 << 20)
			return "an entity's ids are not whole numbers in range";
		*ids[k] = (int)json_integer_value(v);
	}
	in = json_array_get(a, 5);
	raw = json_array_get(a, 6);
	if (!json_is_array(in) || (int)json_array_size(in) != sh->n || !json_is_array(raw) ||
	    (int)json_array_size(raw) != sh->nevs)
		return "an entity's inputs or raw counts do not match the sample's inputs";
	for (int k = 0; k < sh->n; k++) {
		double unused;

		if (!replay_num(json_array_get(in, (size_t)k),
				sh->which[k] >= 0 ? &e->vars[sh->which[k]] : &unused))
			return "an entity's input is not a number";
	}
	for (int k = 0; k < sh->nevs; k++)
		if (!replay_num(json_array_get(raw, (size_t)k), &e->raw[sh->evs[k]]))
			return "an entity's raw count is not a number";
	return NULL;
}

const char *replay_entities(json_t *a, struct sample_entity *es, int n,
			    const struct replay_shape *sh)
{
	for (int i = 0; i < n; i++) {
		const char *why = replay_entity(json_array_get(a, (size_t)i), &es[i], sh);

		if (why)
			return why;
	}
	return NULL;
}

/* {"rows": ROWS} (with "per_socket": PER, "inputs": IN where given) into KINDS as NAME. */
static void replay_kind_v1(json_t *kinds, const char *name, json_t *rows, json_t *per, json_t *in)
{
	json_t *k = json_object();

	json_object_set(k, "rows", rows);
	if (per)
		json_object_set(k, "per_socket", per);
	if (in)
		json_object_set(k, "inputs", in);
	json_object_set_new(kinds, name, k);
}

json_t *replay_kinds_v1(json_t *o)
{
	static const char *const own[] = { "threads", "cores", "sockets" };
	json_t *kinds = json_object(), *nch = json_object_get(o, "nchannels");

	for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
		if (json_object_get(o, own[k]))
			replay_kind_v1(kinds, own[k], json_object_get(o, own[k]), NULL, NULL);
	/* version 1 wrote "channels" (empty) and nchannels 0 where the sample had none */
	if (json_integer_value(nch) || !json_is_integer(nch) ||
	    json_array_size(json_object_get(o, "channels")))
		replay_kind_v1(kinds, "channels", json_object_get(o, "channels"), nch, NULL);
	if (json_object_get(o, "nboxes"))
		replay_kind_v1(kinds, "chas", json_object_get(o, "boxes"),
			       json_object_get(o, "nboxes"), json_object_get(o, "box_inputs"));
	return kinds;
}

json_t *replay_kind_rows(json_t *kinds, enum sample_kind_id k)
{
	json_t *rows = json_object_get(json_object_get(kinds, sample_kinds[k].table), "rows");

	return json_is_array(rows) ? rows : NULL;
}

const char *replay_kinds(const struct replay *r, json_t *kinds, struct sample *s,
			 const struct replay_shape *sh)
{
	if (!json_is_object(kinds))
		return "a sample's kinds are not an object of tables";
	for (int k = 0; k < SAMPLE_NKINDS; k++) {
		const struct sample_kind *kd = &sample_kinds[k];
		json_t *o = json_object_get(kinds, kd->table), *rows = replay_kind_rows(kinds, k);
		struct replay_shape own = { 0 };
		json_int_t per = 0;
		const char *why;
		int n;

		if (!sample_kind_stored(kd) || (!o && sample_kind_is_part(kd)))
			continue; /* a view of other rows; a socket's part the sample lacks */
		if (sample_kind_is_part(kd)) {
			per = json_integer_value(json_object_get(o, "per_socket"));
			if (!rows || per < 1 || per > 512 ||
			    json_array_size(rows) != (size_t)per * (size_t)s->nsockets)
				return "a sample's rows of a socket's part (per_socket, rows) do not fit "
				       "its sockets";
			n = (int)per * s->nsockets;
		} else {
			n = sample_kind_count(kd, s);
			if (!rows || (int)json_array_size(rows) != n)
				return "a sample's rows of a kind do not fit its counts";
		}
		if (kd->keeps && (why = replay_inputs(r, json_object_get(o, "inputs"), &own))) {
			free(own.which);
			return why;
		}
		why = replay_entities(rows, sample_kind_store(kd, s, (int)per), n,
				      kd->keeps ? &own : sh);
		free(own.which);
		if (why)
			return why;
	}
	return NULL;
}
