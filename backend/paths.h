/*
 * paths: where pmutop finds its data files.
 *
 * Layouts come from, in order: $PMUTOP_LAYOUT_DIR; the source tree's
 * layouts/ when the program runs from its build tree (so a developer never
 * needs to install); otherwise the installed $(pkgdatadir)/layouts.
 * Scenarios of the emulated machines likewise: $PMUTOP_SCENARIO_DIR, the
 * source tree's backend/scenarios/, $(pkgdatadir)/scenarios.
 * Also the one way settings files of the machine are read under the --root
 * prefix (paths_read_line).  Main thread, at start-up.
 */
#ifndef PMUTOP_PATHS_H
#define PMUTOP_PATHS_H

#include <stddef.h>

/*
 * The layout directory for a program whose executable lies in EXE_DIR
 * (NULL: look it up through /proc/self/exe).  Returns a pointer to static
 * or environment storage; never NULL.
 */
const char *paths_layout_dir(const char *exe_dir);

/* The scenario directory, chosen like the layout directory. */
const char *paths_scenario_dir(const char *exe_dir);

/*
 * The first line of ROOT/REL (ROOT NULL or "/": this machine's /REL) into
 * BUF without its newline: a sysfs or procfs setting.  0, or -errno with
 * BUF empty.
 */
int paths_read_line(const char *root, const char *rel, char *buf, size_t len);

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

/* Directory of the running executable into BUF; 0 or -errno. */
int paths_exe_dir(char *buf, size_t len);

#endif
