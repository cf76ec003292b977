#!/bin/sh
# Regenerate the build system: ./autogen.sh, then ./configure && make.
# ./autogen.sh --install-deps first installs every build and test dependency
# (tools/install-deps) on Debian 12.
set -e
cd "$(dirname "$0")"
if [ "${1:-}" = "--install-deps" ]; then
	./tools/install-deps
fi
mkdir -p m4
autoreconf --install --force
