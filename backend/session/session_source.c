/*
 * session_source: --source's names, from the sources' list (source_kinds[]
 * in backend/sources/source.c), for the front ends, which see no source.
 */
#include "session.h"
#include "source.h"

#include <string.h>

const struct source_kind *session_source_find(const char *name)
{
	for (const struct source_kind *k = source_kinds; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

const struct source_kind *session_source_at(int i)
{
	for (int j = 0; source_kinds[j].name; j++)
		if (j == i)
			return &source_kinds[j];
	return NULL;
}

const char *session_source_name(const struct source_kind *k)
{
	return k ? k->name : "auto";
}

const char *session_source_about(const struct source_kind *k)
{
	return k ? k->about : "msr when it can be used and reaches every group, else perf";
}

bool session_source_kernel(const struct source_kind *k)
{
	return k && k->kernel;
}

bool session_source_task(const struct source_kind *k)
{
	return k && k->task;
}
