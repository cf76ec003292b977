/*
 * rootfs: the one reader of a machine's files, this machine's (/sys,
 * /proc, /dev) or a tree's under --root, which another user may have
 * written.  Every path is relative to the root and resolved inside it:
 * a link (absolute or with "..") never leads out of the root (openat2's
 * RESOLVE_IN_ROOT, or a walk that does the same where the kernel has no
 * openat2), and no /proc magic link is followed.  Files are opened without
 * blocking (a FIFO where a sysfs file should be never holds pmutop), read
 * only when they are regular files (or, for devices, character devices
 * and the regular files of a fake device tree), and at most ROOTFS_MAX
 * bytes of one is read.  Error messages name the path and the reason and
 * never quote what a file holds.
 *
 * ROOT NULL, "" or "/" is this machine.  Any thread; no state.
 */
#ifndef PMUTOP_ROOTFS_H
#define PMUTOP_ROOTFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define ROOTFS_MAX (4u << 20) /* the most pmutop reads of one file of a machine */

enum rootfs_kind {
	ROOTFS_FILE,   /* a regular file */
	ROOTFS_DIR,    /* a directory */
	ROOTFS_DEVICE, /* a character device, or a fake device tree's regular file */
};

/*
 * Open REL under ROOT as KIND, with FLAGS (O_RDONLY, O_RDWR, O_WRONLY and
 * O_NOFOLLOW only: the rest is added).  0 with *FD (blocking again for a
 * device, close-on-exec), or -errno: -EINVAL when it is of another kind,
 * -ELOOP for too many links.
 */
int rootfs_open(const char *root, const char *rel, int flags, enum rootfs_kind kind, int *fd);

/*
 * A device REL under the tree open on ROOTFD opened with FLAGS, with
 * system calls only (async-signal-safe: a restore after a fatal signal
 * may open one): inside the root through openat2, else with no link at its
 * last step (the tree's directories checked by paths_check_tree).  An fd
 * (blocking, close-on-exec) or -errno (-EINVAL: not a device or a file).
 */
int rootfs_open_device_at(int rootfd, const char *rel, int flags);

/* As rootfs_open, REL being relative to the directory open on DIRFD (itself inside the root). */
int rootfs_openat(int dirfd, const char *rel, int flags, enum rootfs_kind kind, int *fd);

/*
 * REL's content (at most LEN - 1 bytes, terminated) into BUF: its length,
 * or -errno (BUF empty).
 */
int rootfs_read(const char *root, const char *rel, char *buf, size_t len);

/* REL's first line, without its newline, into BUF.  0 or -errno (BUF empty). */
int rootfs_read_line(const char *root, const char *rel, char *buf, size_t len);

/* A stream over REL's content (at most ROOTFS_MAX bytes; -EFBIG past it); NULL with errno. */
FILE *rootfs_fopen(const char *root, const char *rel);
/* The same of a file of KIND (a device's text: msr-safe's allowlist). */
FILE *rootfs_fopen_as(const char *root, const char *rel, enum rootfs_kind kind);

/* The directory REL to list; NULL with errno. */
DIR *rootfs_opendir(const char *root, const char *rel);

/* What -RC means for a file of a machine, for a message (strerror's words, or pmutop's). */
const char *rootfs_strerror(int rc);

/*
 * TEXT, read from a machine's file, for an error message: quoted when it
 * is a short word of the kinds sysfs holds (letters, digits and _ . , : =
 * -), else only its size; into BUF.  So a file a link made out of another
 * (a password file's first line) is never shown.
 */
const char *rootfs_quote(const char *text, char *buf, size_t len);

/* Whether REL is there under ROOT (inside it), whatever it is and whoever may open it. */
bool rootfs_exists(const char *root, const char *rel);

/* Whether ROOT is this machine's. */
bool rootfs_is_host(const char *root);

/* For tests: resolve by the walk even where the kernel has openat2. */
void rootfs_force_walk(bool on);

#endif
