/*
 * xmalloc: allocation that never returns NULL.
 *
 * pmutop cannot do anything useful once memory runs out, so every allocation
 * goes through these helpers, which print one message and abort on failure
 * instead of spreading NULL checks through the code.  Any thread may call them.
 */
#ifndef PMUTOP_XMALLOC_H
#define PMUTOP_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* The one message and abort of a failed allocation (for memory got otherwise, e.g. mmap). */
void xmalloc_die(size_t bytes) __attribute__((noreturn));

#endif
