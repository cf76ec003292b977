/*
 * text_json: safe text in a JSON document; see text_json.h.
 */
#include "text_json.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static bool text_json_kept(const char *key, const char *const *keep)
{
	for (; key && keep && *keep; keep++)
		if (!strcmp(key, *keep))
			return true;
	return false;
}

/* O, the value under KEY (NULL in an array), made safe. */
static void text_json_walk(json_t *o, const char *key, const char *const *keep)
{
	const char *name;
	json_t *v;
	size_t k;

	if (json_is_string(o)) {
		const char *s = json_string_value(o);

		if (!text_json_kept(key, keep) && !text_is_clean(s, json_string_length(o))) {
			char *c = text_clean_dup(s);

			json_string_set(o, c);
			free(c);
		}
	} else if (json_is_array(o)) {
		json_array_foreach(o, k, v)
			text_json_walk(v, NULL, keep);
	} else if (json_is_object(o)) {
		json_object_foreach(o, name, v)
			text_json_walk(v, name, keep);
	}
}

void text_clean_json(json_t *doc, const char *const *keep)
{
	text_json_walk(doc, NULL, keep);
}
