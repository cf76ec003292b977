/*
 * frontend: the seam.  Everything a front end (tui/: the screen, batch
 * output, --dump, --list-events, recordings, the server) may use of the
 * backend, and nothing else: a front end includes this header and its own.
 * The build enforces it: tui/ is compiled with the include paths of the
 * seam's folders only (backend/base, machine, model, sample, session), so
 * an include of an engine's or a counter source's header does not compile
 * there; tests/seam.sh checks the text too.  A front end never touches
 * registers, emulators or allowlists.
 *
 *  - a run: session.h (open, start, the latest sample, commands, close;
 *    the machine's identification for the actions without a run, the
 *    emergency restore; struct session is opaque);
 *  - what it produces: sample.h (its kinds of entity: sample_kind.h), over a layout (layout.h) and a topology
 *    (topo.h, topo_text.h for its text form), the CPU (cpuid.h);
 *  - for --list-events and explain: counter.h (the event-select values);
 *  - the machine as the sources see it, for the setup checks (the doctor
 *    is the front end's, tui/app/doctor.c): probe.h; data files: paths.h;
 *    giving up root after
 *    the devices are open when started through sudo: privs.h;
 *  - helpers any module uses: cpulist.h, parse.h (printable text), xmalloc.h.
 */
#ifndef PMUTOP_FRONTEND_H
#define PMUTOP_FRONTEND_H

#include "counter.h"
#include "cpuid.h"
#include "cpulist.h"
#include "layout.h"
#include "run_limits.h"
#include "parse.h"
#include "paths.h"
#include "privs.h"
#include "probe.h"
#include "sample.h"
#include "sample_kind.h"
#include "session.h"
#include "topo.h"
#include "topo_text.h"
#include "xmalloc.h"

#endif
