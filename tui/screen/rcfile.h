/*
 * rcfile: the interactive settings (interval, groups, heatmap metric,
 * aggregation, sort, lower pane) in $XDG_CONFIG_HOME/pmutop/pmutoprc.
 *
 * "key value" lines, '#' comments.  Loading never refuses: a bad line is
 * reported as FILE:LINE: reason and that setting keeps its default.
 * Saving writes a new temporary file (mkstemp) beside the real one and
 * renames it over, so a crash leaves the old file or the new one, never
 * half of one; the file keeps its permissions, and a symlink at the path
 * keeps pointing at its target, which is what gets replaced.
 * UI thread.
 */
#ifndef PMUTOP_RCFILE_H
#define PMUTOP_RCFILE_H

#include <stddef.h>

#include "view.h"

/*
 * $XDG_CONFIG_HOME/pmutop/pmutoprc, else $HOME/.config/pmutop/pmutoprc;
 * -ENOENT without either, -ENAMETOOLONG when it does not fit in LEN.
 */
int rcfile_path(char *buf, size_t len);

/* Apply the file's settings to V; a missing file is no error.  WARN gets the first problem. */
int rcfile_load(const char *path, struct view *v, char *warn, size_t len);

/* Write V's settings atomically (creating the directory); -errno with the reason in ERR. */
int rcfile_save(const char *path, const struct view *v, char *err, size_t len);

#endif
