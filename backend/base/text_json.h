/*
 * text_json: text.h's rule over a parsed JSON document (a recording, the
 * vendor's data): every string value made safe text in place, but under
 * the keys named in KEEP (NULL-terminated), texts that their own parsers
 * check (a layout's text with its line breaks, hwloc's XML).  jansson
 * guarantees valid UTF-8 already; this takes out what \u escapes let in
 * (ESC, BEL, line breaks in a name).  Any thread, on its own document.
 */
#ifndef PMUTOP_TEXT_JSON_H
#define PMUTOP_TEXT_JSON_H

#include <jansson.h>

void text_clean_json(json_t *doc, const char *const *keep);

#endif
