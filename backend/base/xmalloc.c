/*
 * xmalloc: allocation helpers that abort with a message on failure.
 * Thread-safe (they only call the C library allocator).
 */
#include "xmalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xmalloc_die(size_t bytes)
{
	fprintf(stderr, "pmutop: out of memory (asked for %zu bytes)\n", bytes);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		xmalloc_die(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xmalloc_die(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t nmemb, size_t size)
{
	size_t bytes;
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		xmalloc_die(SIZE_MAX);
	bytes = nmemb * size;
	p = realloc(ptr, bytes ? bytes : 1);
	if (!p)
		xmalloc_die(bytes);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}
