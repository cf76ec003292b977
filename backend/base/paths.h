/*
 * paths: where pmutop finds its data files.
 *
 * Layouts come from, in order: $PMUTOP_LAYOUT_DIR; the source tree's
 * layouts/ when the program runs from its build tree (so a developer never
 * needs to install); otherwise the installed $(pkgdatadir)/layouts.
 * Scenarios of the emulated machines likewise: $PMUTOP_SCENARIO_DIR, the
 * source tree's backend/sources/sim/scenarios/, $(pkgdatadir)/scenarios.
 * (A machine's own files, under --root or not, are rootfs.h's.)  Main
 * thread, at start-up.
 */
#ifndef PMUTOP_PATHS_H
#define PMUTOP_PATHS_H

#include <stddef.h>
#include <stdio.h>

/*
 * The layout directory for a program whose executable lies in EXE_DIR
 * (NULL: look it up through /proc/self/exe).  Returns a pointer to static
 * or environment storage; never NULL.
 */
const char *paths_layout_dir(const char *exe_dir);

/* The scenario directory, chosen like the layout directory. */
const char *paths_scenario_dir(const char *exe_dir);
/* Intel's perfmon data (data/intel): PMUTOP_PERFMON_DIR, the source tree, or installed. */
const char *paths_perfmon_dir(const char *exe_dir);
/* AMD's data (data/amd, from the kernel's perf tool): PMUTOP_AMD_DIR, the source tree, or installed. */
const char *paths_amd_dir(const char *exe_dir);
/* The E-cores' metrics of Intel's hybrid CPUs (data/atom, from the kernel's perf tool): PMUTOP_ATOM_DIR, ... */
const char *paths_atom_dir(const char *exe_dir);

/*
 * Whether pmutop runs with privileges a data file could abuse: as root
 * (euid 0) or with file capabilities or set-id (AT_SECURE).
 */
int paths_elevated(void);

/*
 * With elevated privileges, whether the file open on FD (named PATH) may
 * steer them: owned by root or by the user who started pmutop (the real
 * user, or SUDO_UID's), writable by no other user or group, in a directory
 * no other user may replace it in.  0, or -EPERM with the reason and what to
 * do in WHY.  Always 0 without privileges.
 */
int paths_check_trusted(int fd, const char *path, const char *what, char *why, size_t len);

/*
 * Open PATH (WHAT names it for the user: "layout", "--auth-file") for
 * reading without ever blocking in open(2): a FIFO, a device, a socket or
 * a directory is refused ("... is a FIFO, not a regular file: give a
 * file"), so that a named pipe planted where a file is expected cannot
 * hang pmutop.  0 with *FD (blocking reads, close-on-exec), or -errno with
 * one line in ERR (-EINVAL: not a regular file).
 */
int paths_open_file(const char *path, const char *what, int *fd, char *err, size_t errlen);

/* The same as a stdio stream ("re"); NULL with ERR and errno set. */
FILE *paths_fopen(const char *path, const char *what, char *err, size_t errlen);

/*
 * paths_fopen, and with privileges paths_check_trusted on what it opened:
 * for every file that steers what pmutop programs, evaluates or lets in
 * (layouts, scenarios, vendor data, the server's users and keys), whoever
 * named it (a variable of the environment, the command line).  NULL with
 * ERR and errno set (EPERM: another user's file).
 */
FILE *paths_fopen_trusted(const char *path, const char *what, char *err, size_t errlen);

/* What kind of file MODE is, for messages: "a FIFO", "a directory", ... */
const char *paths_kind(unsigned mode);

/*
 * The file PATH names: PATH itself, or the target of a symlink at PATH
 * (one level, as editors and dotfile managers make; a link to a link is
 * -ELOOP), into OUT (PATH_MAX).  0 or -errno.
 */
int paths_link_target(const char *path, char *out);

/*
 * With elevated privileges, whether the file at PATH may be read and
 * replaced by pmutop (the settings file): a link there, its target and the
 * target's directory (or the nearest one that exists, for a file not yet
 * made) are root's or the user's who started pmutop, and writable by no
 * one else.  So root with another user's $HOME (su without -, sudo -E)
 * never reads that user's file nor writes where that user's link points.
 * 0, or -EPERM with the reason and what to do in WHY.  Always 0 without
 * privileges.
 */
int paths_check_trusted_path(const char *path, const char *what, char *why, size_t len);

/*
 * With elevated privileges, whether pmutop may write into REL under the
 * tree open on ROOTFD (named ROOT, --root): the tree's top and every
 * directory down to REL are root's or the user's who started pmutop, no
 * link, and writable by no other user (a directory with the sticky bit
 * aside), and REL itself (when it exists) is no link.  Else another user
 * could swap a device or a resctrl file for a link or a FIFO between
 * pmutop's steps and have root write where they choose.  (A file others
 * may write is theirs to change, never to replace: its directory decides.)  0, or -EPERM with the reason and what
 * to do in WHY.  Always 0 without privileges.
 */
int paths_check_tree(int rootfd, const char *root, const char *rel, const char *what, char *why,
		     size_t len);

/* Directory of the running executable into BUF; 0 or -errno. */
int paths_exe_dir(char *buf, size_t len);

#endif
