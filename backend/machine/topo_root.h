/*
 * topo_root: hwloc's view of a tree under --root, read where the tree can
 * do no harm.  hwloc's Linux backend opens the files of /sys and /proc as
 * the kernel's: it follows any link (an absolute one out of the tree, onto
 * this machine's /etc or /dev) and waits on a FIFO.  So a tree that is not
 * this machine's is read in a child process (chrooted into the tree when
 * pmutop has the privilege: no link leads out; else with HWLOC_FSROOT as
 * the user could read it anyway), which hands back hwloc's XML of it within
 * a time limit; before that, the directories hwloc reads are walked once
 * for what can never be a kernel's file there (a FIFO, a socket, a device)
 * so that the message names it.  Main thread, at start-up.
 */
#ifndef PMUTOP_TOPO_ROOT_H
#define PMUTOP_TOPO_ROOT_H

#include <stddef.h>

#define TOPO_ROOT_TIMEOUT_S 20 /* hwloc's reading of a tree: a 2-socket 384-CPU one takes 0.3 s */

/*
 * hwloc's XML of the machine whose files are under ROOT (not "/") into
 * *XML (xmalloc'd).  0, or -errno with one line in ERR that says what to
 * do (-EINVAL: a file that blocks, named; -ETIMEDOUT: hwloc took too long).
 */
int topo_root_xml(const char *root, char **xml, char *err, size_t errlen);

/*
 * Why hwloc refuses XML as a topology where its reason is the XML's version
 * (hwloc 2.x imports version 2 only: a newer hwloc's 3.0 is refused), into
 * WHY; "" otherwise.
 */
void topo_root_xml_why(const char *xml, char *why, size_t len);

#endif
