/*
 * layout_include: "include NAME" and what the including layout changes of
 * what it includes.
 *
 * include NAME reads NAME.layout from the including file's directory and
 * parses its top-level metrics and its groups as if they stood at that
 * line.  Its header lines (layout, description, libpfm, libpfm_uncore,
 * models) are the including file's to give and are skipped: the included
 * named events resolve in the including file's libpfm PMU, so a variant CPU
 * gets its own encodings.  Its vendor must be the including file's.  A
 * group the including file defines too replaces the included one at the
 * included one's place; "drop NAME" leaves an included group out.  One
 * level: an included layout includes nothing.  Errors name the file they
 * are in.  Main thread.
 */
#include "layout.h"
#include "layout_int.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A group or a drop line of the including file, found before it is parsed. */
struct layout_block {
	char name[64];
	const char *bol;          /* its line */
	const char *at;           /* its name on that line */
	int line;
	bool drop;
	bool done;                /* it replaced (or dropped) an included group */
};

/* The word at S ([A-Za-z0-9_]+) into OUT; the character after it, or NULL when none. */
static const char *layout_scan_word(const char *s, char *out, size_t len)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	if (!n || n >= len)
		return NULL;
	memcpy(out, s, n);
	out[n] = 0;
	return s + n;
}

void layout_include_scan(struct layout_parser *p, const char *text)
{
	bool in_group = false;
	int line = 0;

	for (const char *s = text; *s; ) {
		const char *eol = strchr(s, '\n'), *w = s;
		char kw[16], name[64];

		line++;
		if (!eol)
			eol = s + strlen(s);
		while (*w == ' ' || *w == '\t')
			w++;
		w = layout_scan_word(w, kw, sizeof(kw));
		if (w && (*w == ' ' || *w == '\t') && !in_group &&
		    (!strcmp(kw, "group") || !strcmp(kw, "drop"))) {
			const char *at = w;

			while (*at == ' ' || *at == '\t')
				at++;
			if (layout_scan_word(at, name, sizeof(name))) {
				struct layout_block *b;

				p->blocks = xrealloc(p->blocks, (size_t)p->nblocks + 1, sizeof(*b));
				b = &p->blocks[p->nblocks++];
				*b = (struct layout_block){ .bol = s, .at = at, .line = line,
							    .drop = kw[0] == 'd' };
				snprintf(b->name, sizeof(b->name), "%s", name);
			}
		}
		if (w && !strcmp(kw, "group"))
			in_group = true;
		else if (w && !strcmp(kw, "end"))
			in_group = false;
		s = *eol ? eol + 1 : eol;
	}
}

static struct layout_block *layout_block_find(struct layout_parser *p, const char *name)
{
	for (int i = 0; i < p->nblocks; i++)
		if (!strcmp(p->blocks[i].name, name))
			return &p->blocks[i];
	return NULL;
}

/* The place in the text being parsed, saved around another file's lines. */
struct layout_place {
	const char *file, *bol;
	int line;
	bool seen_version, in_include;
};

static struct layout_place layout_place_save(const struct layout_parser *p)
{
	return (struct layout_place){ .file = p->file, .bol = p->bol, .line = p->line,
				      .seen_version = p->seen_version, .in_include = p->in_include };
}

static void layout_place_restore(struct layout_parser *p, const struct layout_place *pl)
{
	p->file = pl->file;
	p->bol = pl->bol;
	p->line = pl->line;
	p->seen_version = pl->seen_version;
	p->in_include = pl->in_include;
}

bool layout_include_replaces(struct layout_parser *p)
{
	const struct layout_block *b = p->ntok == 2 ? layout_block_find(p, p->tok[1].text) : NULL;

	return b && (p->in_include || b->done);
}

int layout_include_group(struct layout_parser *p, bool *handled)
{
	struct layout_block *b = p->ntok == 2 ? layout_block_find(p, p->tok[1].text) : NULL;
	struct layout_place pl;
	int rc;

	*handled = false;
	if (!b || (!p->in_include && !b->done))
		return 0; /* a group of its own, parsed as any */
	*handled = true;
	p->skip = true; /* the included group's lines (or, later, the including file's copy) */
	if (!p->in_include || b->done)
		return 0;
	if (b->drop) {
		b->done = true;
		return 0;
	}
	/* the including file's group, at the included one's place (done after: not skipped) */
	pl = layout_place_save(p);
	p->file = p->top_file;
	p->line = b->line - 1;
	p->seen_version = true;
	p->in_include = false;
	p->skip = false;
	rc = layout_lines(p, b->bol, true);
	b->done = true;
	layout_place_restore(p, &pl);
	p->skip = true;
	return rc;
}

int layout_include(struct layout_parser *p)
{
	struct layout_place pl;
	char path[4096], *text = NULL;
	const char *slash = strrchr(p->file, '/');
	int rc = layout_want_args(p, 1, 1, "the name of a layout to include");

	if (rc)
		return rc;
	if (p->in_include)
		return layout_fail(p, p->tok[0].at, "no 'include' in an included layout (one level)");
	if (!layout_is_name(p->tok[1].text))
		return layout_fail(p, p->tok[1].at, "a layout name (letters, digits, '_', '.')");
	if (p->own_items)
		return layout_fail(p, p->tok[0].at, "the 'include' line before the layout's own "
				   "metrics and groups");
	snprintf(path, sizeof(path), "%.*s%s%s", slash ? (int)(slash - p->file + 1) : 0, p->file,
		 p->tok[1].text, ".layout");
	rc = layout_read_text(path, &text, p->err, p->errlen);
	if (rc) {
		char why[300];

		snprintf(why, sizeof(why), "%s", p->err);
		return layout_fail(p, p->tok[1].at, "a layout to include beside this file (%s)", why);
	}
	pl = layout_place_save(p);
	p->file = path;
	p->line = 0;
	p->seen_version = false;
	p->in_include = true;
	rc = layout_lines(p, text, false);
	if (!rc)
		rc = layout_end_of_file(p, text);
	layout_place_restore(p, &pl);
	free(text);
	return rc;
}

int layout_include_drop(struct layout_parser *p)
{
	int rc = layout_want_args(p, 1, 1, "the name of an included group to leave out");

	if (rc)
		return rc;
	if (p->in_include)
		return layout_fail(p, p->tok[0].at, "no 'drop' in an included layout");
	return 0; /* found by layout_include_scan; checked by layout_include_check */
}

int layout_include_check(struct layout_parser *p)
{
	for (int i = 0; i < p->nblocks; i++) {
		const struct layout_block *b = &p->blocks[i];

		if (!b->drop || b->done)
			continue;
		p->file = p->top_file;
		p->line = b->line;
		p->bol = b->bol;
		return layout_fail(p, b->at, "a group of an included layout after 'drop': none has "
				   "'%s'", b->name);
	}
	return 0;
}

int layout_parse_part(const char *text, const char *file, struct layout **out, char *err,
		      size_t errlen)
{
	return layout_parse_as(text, file, true, out, err, errlen);
}
