/*
 * session_groups: what a command line asks of a layout's groups before a
 * run (-g's names and keys), and who holds the counters (--scan-owners).
 */
#include "session.h"
#include "session_int.h"
#include "xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int session_scan_owners(const struct machine *m, char *out, size_t len, char *err, size_t errlen)
{
	struct source *src;
	uint32_t gp, fixed;
	int rc = source_open(m, &src, err, errlen);

	out[0] = 0;
	if (rc)
		return rc;
	rc = source_taken(src, machine_root(m), &gp, &fixed, NULL, 0, out, len);
	source_close(src);
	return rc;
}

int session_parse_groups(const struct layout *l, const char *list, layout_groups *mask, char *err,
			 size_t errlen)
{
	char *copy = xstrdup(list), *save = NULL;
	size_t off = 0;
	int rc = 0;

	*mask = 0;
	err[0] = 0;
	for (char *w = strtok_r(copy, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		int g = layout_group_find(l, w);

		if (!strcmp(w, "all")) {
			*mask |= LAYOUT_GROUPS_BELOW(l->ngroups);
			continue;
		}
		for (int k = 0; k < l->ngroups && g < 0; k++)
			if (strlen(w) == 1 && l->groups[k].key == w[0])
				g = k;
		if (g >= 0) {
			*mask |= layout_key_groups(l, g);
			continue;
		}
		/* named but not in this layout: left out, so one -g serves related CPUs */
		if (off < errlen)
			off += (size_t)snprintf(err + off, errlen - off, "%s'%s'", off ? ", " : "", w);
	}
	free(copy);
	if (err[0]) {
		char names[160];

		snprintf(names, sizeof(names), "%s", err);
		off = (size_t)snprintf(err, errlen, "layout %s has no group %s; its groups are", l->name,
				       names);
		for (int k = 0; k < l->ngroups && off < errlen; k++)
			off += (size_t)snprintf(err + off, errlen - off, "%s %s (key %c)",
						k ? "," : "", l->groups[k].name,
						l->groups[k].key ? l->groups[k].key : '-');
		rc = 1;
	}
	if (!*mask) {
		if (!err[0])
			snprintf(err, errlen, "-g needs at least one group name or key");
		rc = -EINVAL;
	}
	return rc;
}
