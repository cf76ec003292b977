#!/bin/sh
# The architecture as the includes show it: no backend/ file includes a tui/
# header; tui/ reaches the backend only through the seam folders (base,
# machine, model, sample, session: frontend.h and what it names), never the
# engine's or a source's headers; and no counter source includes the
# engine's internals (engine_int.h, uncore_int.h): a source sees the engine
# only through source_ops.h, and the engine includes no source's header;
# and no front end tests a box kind by name (they are data: layout_pmu_kinds);
# and tui/'s folders include one another one way, down TUI_LAYERS (a pane
# and the screen that hosts it are one room: screen/panes is screen's), and
# backend/'s down BACKEND_LAYERS (the CPU's decoding asks no model table,
# the sample's throttle rows are the reader's); and
# the emulator stays below the device line: the engine, the session, the
# sample and the front ends include none of sources/sim's headers (the
# source layer, machine.c and source.c, opens it as it opens a root); and
# what an open source holds and each source's own configuration
# (source_int.h, msr_source.h, perf_source.h) stay the sources': the
# session asks a source through source.h (source_facts and its calls), and
# includes no other header of backend/sources (machine.h aside): the lock,
# the owner scan, the kernel's PMU descriptions are the sources' own.  The
# build enforces the second rule too (the front ends' include path lacks
# those folders).
. "$top_srcdir/tests/lib.sh"
plan 16

SEAM_DIRS="backend/base backend/machine backend/model backend/sample backend/session"

headers_under() { # DIR...: the base names of the headers under them
	for d in "$@"; do [ -d "$d" ] && find "$d" -name '*.h' -printf '%f\n'; done
}

# includes ROOT DIR: "FILE HEADER" for each include of a file under ROOT/DIR (one grep for them all)
includes() {
	[ -d "$1/$2" ] || return 0
	grep -rH --include='*.[ch]' '^#include "' "$1/$2" 2>/dev/null |
		sed -n "s#^$1/\([^:]*\):\#include \"\([^\"]*\)\".*#\1 \2#p"
}

# outside ROOT DIR ALLOWED...: the includes under DIR of headers not in ALLOWED
outside() {
	root=$1 dir=$2
	shift 2
	includes "$root" "$dir" | while read -r f h; do
		case " config.h $* " in *" $h "*) ;; *) echo "$f:$h" ;; esac
	done
}

# inside ROOT DIR FORBIDDEN...: the includes under DIR of headers in FORBIDDEN
inside() {
	root=$1 dir=$2
	shift 2
	includes "$root" "$dir" | while read -r f h; do
		case " $* " in *" $h "*) echo "$f:$h" ;; esac
	done
}

# tui/'s folders, the one that runs the others first: a folder includes only the headers of
# itself and of the folders after it; and backend/'s, the session first, the ground last
TUI_LAYERS="app screen serve replay out proc"
BACKEND_LAYERS="session os who sources engine sample model machine base"

# layers ROOT TOP LAYERS...: the includes of a TOP/ header of a folder above the includer's
layers() {
	root=$1 top=$2
	shift 2
	for d in "$@"; do
		below=false
		for e in "$@"; do
			[ "$e" = "$d" ] && { below=true; continue; }
			$below || inside "$root" "$top/$d" $(headers_under "$root/$top/$e")
		done
	done
}

# violations ROOT: one word per include (or box-kind test) that breaks the rules, under ROOT
violations() {
	tui_headers=$(headers_under "$1/tui")
	seam_headers=$(cd "$1" && headers_under $SEAM_DIRS)
	engine_headers=$(cd "$1" && headers_under backend/engine $SEAM_DIRS)
	inside "$1" backend $tui_headers
	outside "$1" tui $tui_headers $seam_headers
	outside "$1" backend/engine $engine_headers
	inside "$1" backend/sources engine_int.h uncore_int.h
	layers "$1" tui $TUI_LAYERS
	layers "$1" backend $BACKEND_LAYERS
	sim_headers=$(headers_under "$1/backend/sources/sim")
	for d in backend/engine backend/session backend/sample tui; do
		inside "$1" "$d" $sim_headers
		inside "$1" "$d" source_int.h msr_source.h perf_source.h
	done
	# the session reaches the sources through source.h (machine.h for the machine) alone
	inside "$1" backend/session $(headers_under "$1/backend/sources" | grep -vx 'source\.h\|machine\.h')
	# box kinds are data (layout_pmu_kinds): a front end never tests one by name
	grep -rlE 'LAYOUT_PMU_[A-Z]' "$1/tui" --include='*.[ch]' 2>/dev/null | while read -r f; do
		echo "${f#$1/}:LAYOUT_PMU"
	done
}

bad=$(violations "$top_srcdir")
if [ -z "$bad" ]; then pass "the tree keeps the seam"; else fail "the tree keeps the seam" "$bad"; fi

# the check sees every kind of violation (it is not vacuous)
tmp=$(mktemp -d)
mkdir -p "$tmp/tui/screen" "$tmp/tui/out" "$tmp/tui/app" "$tmp/backend/session" "$tmp/backend/sources/msr" \
	"$tmp/backend/engine" "$tmp/backend/sources/sim" "$tmp/backend/machine" "$tmp/backend/model" \
	"$tmp/backend/sample"
: >"$tmp/backend/model/cpumodel.h"
: >"$tmp/backend/sample/sample.h"
: >"$tmp/backend/machine/topo.h"
printf '#include "cpumodel.h"\n' >"$tmp/backend/machine/c.c"
printf '#include "sample.h"\n#include "topo.h"\n' >"$tmp/backend/model/s.c"
cp "$top_srcdir"/backend/sources/sim/*.h "$tmp/backend/sources/sim/"
printf '#include "emu.h"\n' >"$tmp/backend/session/e.c"
printf '#include "source_int.h"\n' >"$tmp/backend/session/f.c"
: >"$tmp/backend/sources/msr/lock.h"
: >"$tmp/backend/sources/source.h"
printf '#include "lock.h"\n#include "source.h"\n' >"$tmp/backend/session/g.c"
cp "$top_srcdir"/tui/screen/*.h "$tmp/tui/screen/"
cp "$top_srcdir"/tui/out/*.h "$tmp/tui/out/"
cp "$top_srcdir"/tui/app/*.h "$tmp/tui/app/"
printf '#include "view.h"\n#include "batch.h"\n' >"$tmp/tui/out/u.c"
printf '#include "options.h"\n' >"$tmp/tui/screen/t.c"
cp "$top_srcdir"/backend/session/*.h "$tmp/backend/session/"
printf '#include "frontend.h"\n#include "msr.h"\n#include "engine.h"\n' >"$tmp/tui/screen/x.c"
printf '#include "view.h"\n' >"$tmp/backend/session/y.c"
printf '#include "engine_int.h"\n' >"$tmp/backend/sources/msr/z.c"
printf '#include "msr.h"\n' >"$tmp/backend/engine/w.c"
printf 'int imc(int p) { return p == LAYOUT_PMU_IMC; }\n' >"$tmp/tui/screen/v.c"
bad=$(violations "$tmp")
rm -rf "$tmp"
expect_match "a tui file including a source's header is caught" "$bad" "tui/screen/x.c:msr.h"
expect_match "a tui file including the engine's header is caught" "$bad" "tui/screen/x.c:engine.h"
expect_match "a backend file including a tui header is caught" "$bad" "backend/session/y.c:view.h"
expect_match "a source including the engine's internals is caught" "$bad" "backend/sources/msr/z.c:engine_int.h"
expect_match "the engine including a source's header is caught" "$bad" "backend/engine/w.c:msr.h"
expect_match "a front end testing a box kind by name is caught" "$bad" "tui/screen/v.c:LAYOUT_PMU"
expect_match "an output including the screen's header is caught (tui's folders go one way)" "$bad" \
	"tui/out/u.c:view.h"
expect_match "... and the screen including the command line's" "$bad" "tui/screen/t.c:options.h"
expect_match "the session including the emulator's header is caught (it sits below the device line)" \
	"$bad" "backend/session/e.c:emu.h"
expect_match "the session including what a source holds is caught (it asks through source.h)" \
	"$bad" "backend/session/f.c:source_int.h"
expect_match "the session including a source's own header is caught (source.h is its door)" \
	"$bad" "backend/session/g.c:lock.h"
expect_match "a machine file including the model table is caught (backend's folders go one way)" \
	"$bad" "backend/machine/c.c:cpumodel.h"
case "$bad" in *"s.c:topo.h"*) fail "... and a model file the sample's, not the machine's" "$bad" ;;
*) expect_match "... and a model file the sample's, not the machine's" "$bad" "backend/model/s.c:sample.h" ;; esac
case "$bad" in *"g.c:source.h"*) fail "... and source.h is let through" "$bad" ;; *) pass "... and source.h is let through" ;; esac

# a module stays small enough to read: no source file over 600 lines (the tests aside)
long=$(find "$top_srcdir/backend" "$top_srcdir/tui" -name '*.c' -exec wc -l {} + |
	awk '$2 != "total" && $1 > 600 { print $2 ": " $1 " lines" }')
if [ -z "$long" ]; then pass "no source file over 600 lines"; else fail "no source file over 600 lines" "$long"; fi
