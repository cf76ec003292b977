#!/bin/sh
# The architecture as the includes show it: no backend/ file includes a tui/
# header; tui/ reaches the backend only through the seam folders (base,
# machine, model, sample, session: frontend.h and what it names), never the
# engine's or a source's headers.  The build enforces the second rule too
# (the front ends' include path lacks those folders).
. "$top_srcdir/tests/lib.sh"
plan 4

SEAM_DIRS="backend/base backend/machine backend/model backend/sample backend/session"

headers_under() { # DIR...: the base names of the headers under them
	for d in "$@"; do [ -d "$d" ] && find "$d" -name '*.h' -printf '%f\n'; done
}

# violations ROOT: one word per include that breaks the rules, under ROOT
violations() {
	tui_headers=$(headers_under "$1/tui")
	seam_headers=$(cd "$1" && headers_under $SEAM_DIRS)
	find "$1/backend" -name '*.[ch]' 2>/dev/null | while read -r f; do
		for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			case " $(echo $tui_headers) " in *" $h "*) echo "${f#$1/}:$h" ;; esac
		done
	done
	find "$1/tui" -name '*.[ch]' 2>/dev/null | while read -r f; do
		for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			case " config.h $(echo $tui_headers) $(echo $seam_headers) " in
			*" $h "*) ;;
			*) echo "${f#$1/}:$h" ;;
			esac
		done
	done
}

bad=$(violations "$top_srcdir")
if [ -z "$bad" ]; then pass "the tree keeps the seam"; else fail "the tree keeps the seam" "$bad"; fi

# the check sees every kind of violation (it is not vacuous)
tmp=$(mktemp -d)
mkdir -p "$tmp/tui/screen" "$tmp/backend/session" "$tmp/backend/sources/msr" "$tmp/backend/engine"
cp "$top_srcdir"/tui/screen/*.h "$tmp/tui/screen/"
cp "$top_srcdir"/backend/session/*.h "$tmp/backend/session/"
printf '#include "frontend.h"\n#include "msr.h"\n#include "engine.h"\n' >"$tmp/tui/screen/x.c"
printf '#include "view.h"\n' >"$tmp/backend/session/y.c"
bad=$(violations "$tmp")
rm -rf "$tmp"
expect_match "a tui file including a source's header is caught" "$bad" "tui/screen/x.c:msr.h"
expect_match "a tui file including the engine's header is caught" "$bad" "tui/screen/x.c:engine.h"
expect_match "a backend file including a tui header is caught" "$bad" "backend/session/y.c:view.h"
