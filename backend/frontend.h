/*
 * frontend: the seam.  Everything a front end (tui/: the interactive view,
 * batch output, --dump, --list-events, the doctor) may use of the backend,
 * and nothing else: a front end includes this header and its own, never a
 * backend module's header directly (tests/seam.sh checks it), so it never
 * touches registers, emulators or allowlists.
 *
 *  - a run: session.h (open, start, the latest sample, commands, close);
 *    source.h's machine identification for the actions without a run;
 *  - what it produces: sample.h, over a layout (layout.h) and a topology
 *    (topo.h, topo_text.h for its text form);
 *  - without counters: session_open_os (the OS's figures, ossample.h, in
 *    the same form);
 *  - for --list-events and explain: counter.h (the event-select values);
 *  - setup checks: doctor.h; data files: paths.h; giving up root after
 *    the devices are open when started through sudo: privs.h;
 *  - helpers any module uses: cpulist.h, parse.h (printable text), xmalloc.h.
 */
#ifndef PMUTOP_FRONTEND_H
#define PMUTOP_FRONTEND_H

#include "counter.h"
#include "cpulist.h"
#include "doctor.h"
#include "layout.h"
#include "ossample.h"
#include "parse.h"
#include "privs.h"
#include "paths.h"
#include "sample.h"
#include "session.h"
#include "source.h"
#include "topo.h"
#include "topo_text.h"
#include "xmalloc.h"

#endif
