/*
 * own_copy: copies of pmutop's own files (layouts/own) for the tests that
 * edit them (check_own, check_own_vendor): the shipped text of one, a copy
 * of all of them with one edited, and its removal.
 */
#ifndef PMUTOP_TESTS_OWN_COPY_H
#define PMUTOP_TESTS_OWN_COPY_H

/* File NAME of DIR/own (NAME.layout), read as pmutop reads it (malloc'd). */
char *own_text(const char *dir, const char *name);

/* A copy of every shipped own file in DIR/own (DIR made), each FROM of file NAME's as TO. */
void copy_own(const char *dir, const char *name, const char *from, const char *to);

/* The copy in DIR gone, DIR too. */
void remove_own(const char *dir);

#endif
