#!/bin/sh
# The architecture as the includes show it: no backend/ file includes a tui/
# header, and tui/ reaches the backend only through the seam, frontend.h
# (besides its own headers, tui/panes/ included, and config.h).
. "$top_srcdir/tests/lib.sh"
plan 3

# violations DIR: one word per include that breaks the rules, under DIR
violations() {
	tui_headers="$(cd "$1/tui" && ls *.h) $(cd "$1/tui" && ls panes/*.h 2>/dev/null)"
	tui_headers="$tui_headers $(cd "$1/tui" && ls panes/*.h 2>/dev/null | sed 's#panes/##')"
	for f in "$1"/backend/*.c "$1"/backend/*.h; do
		for h in $tui_headers; do
			grep -q "^#include \"$h\"" "$f" && echo "${f#$1/}:$h"
		done
	done
	for f in "$1"/tui/*.c "$1"/tui/*.h "$1"/tui/panes/*.c "$1"/tui/panes/*.h; do
		[ -e "$f" ] || continue
		for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			case " config.h frontend.h $(echo $tui_headers) " in
			*" $h "*) ;;
			*) echo "${f#$1/}:$h" ;;
			esac
		done
	done
}

bad=$(violations "$top_srcdir")
if [ -z "$bad" ]; then pass "the tree keeps the seam"; else fail "the tree keeps the seam" "$bad"; fi

# the check sees both kinds of violation (it is not vacuous)
tmp=$(mktemp -d)
mkdir -p "$tmp/tui/panes" "$tmp/backend"
cp "$top_srcdir"/tui/*.h "$tmp/tui/"
printf '#include "frontend.h"\n#include "msr.h"\n' >"$tmp/tui/x.c"
printf '#include "view.h"\n' >"$tmp/backend/y.c"
bad=$(violations "$tmp")
rm -rf "$tmp"
expect_match "a tui file including a backend module is caught" "$bad" "tui/x.c:msr.h"
expect_match "a backend file including a tui header is caught" "$bad" "backend/y.c:view.h"
