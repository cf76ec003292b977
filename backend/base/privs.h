/*
 * privs: pmutop started through sudo gives up root once the devices are
 * open.
 *
 * The msr driver checks the capability when a device file is opened, not
 * on each access, so the open files keep working; everything pmutop does
 * afterwards (the settings file, files it writes) is done as the user who
 * ran sudo (SUDO_UID, SUDO_GID, SUDO_USER), with that user's home.  The
 * process is made non-dumpable, so that user cannot ptrace it to reach the
 * open device files.  The guardian (guardian.h), forked before, stays root
 * to restore.  Main thread, before any other thread starts.
 */
#ifndef PMUTOP_PRIVS_H
#define PMUTOP_PRIVS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Root started through sudo by another user: become that user.  0 when done
 * or when there is nothing to do (not root, no SUDO_UID, SUDO_UID 0), with
 * the user's id in *UID (-1 when nothing was done); -errno with what
 * happened in ERR otherwise.
 */
int privs_drop_to_invoker(uid_t *uid, char *err, size_t errlen);

#endif
