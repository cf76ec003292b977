/*
 * replay_entity: a recorded sample's entities (threads, cores, sockets,
 * channels, CHAs) back into the sample: each [index, core, socket,
 * os_core_id, os_socket_id, [inputs], [raw]] checked against the shape the
 * sample's inputs give.  Main thread.
 */
#include "replay_int.h"

#include <jansson.h>
#include <math.h>

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

