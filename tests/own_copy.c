/*
 * own_copy: see own_copy.h.  Check's assertions: within a test only.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layout.h"
#include "own_copy.h"

/* every file of layouts/own */
static const char *const own_files[] = { "power", "cstate", "memory", "links", "cxl" };
#define OWN_FILES (sizeof(own_files) / sizeof(own_files[0]))

char *own_text(const char *dir, const char *name)
{
	char path[4096], err[512], *text;

	snprintf(path, sizeof(path), "%s/own/%s.layout", dir, name);
	ck_assert_msg(layout_read_text(path, &text, err, sizeof(err)) == 0, "%s", err);
	return text;
}

void copy_own(const char *dir, const char *name, const char *from, const char *to)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/own", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	for (size_t k = 0; k < OWN_FILES; k++) {
		char *text = own_text(LAYOUT_SRCDIR, own_files[k]), *s = text, *at;
		bool mine = !strcmp(own_files[k], name);
		FILE *f;

		ck_assert_msg(!mine || strstr(text, from), "%s.layout has no '%s'", name, from);
		snprintf(path, sizeof(path), "%s/own/%s.layout", dir, own_files[k]);
		ck_assert_ptr_nonnull(f = fopen(path, "w"));
		for (; mine && *from && (at = strstr(s, from)); s = at + strlen(from))
			fprintf(f, "%.*s%s", (int)(at - s), s, to);
		fputs(s, f);
		ck_assert_int_eq(fclose(f), 0);
		free(text);
	}
}

void remove_own(const char *dir)
{
	char path[4096];

	for (size_t k = 0; k < OWN_FILES; k++) {
		snprintf(path, sizeof(path), "%s/own/%s.layout", dir, own_files[k]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/own", dir);
	rmdir(path);
	rmdir(dir);
}
